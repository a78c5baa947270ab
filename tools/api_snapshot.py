"""The public API of ``deepsix`` as text: every exported name, its kind and its signature.

``tests/api_snapshot.txt`` holds the snapshot; ``tests/test_api_snapshot.py``
fails when the package exports something else, so an unintended break of
the API is caught in review.  After an intended change (with its CHANGELOG
entry), refresh the file:

    python tools/api_snapshot.py            # rewrite tests/api_snapshot.txt
    python tools/api_snapshot.py --check    # exit 1 if it is out of date

Each exported name gives one line: a function with its signature, a class
with its constructor (an attrs class: its fields) followed by one line per
public attribute (methods with their signatures, properties, enum members),
and any other value with its type.  Signatures are read from the pure
Python build, with annotations as the source spells them.
"""

from __future__ import annotations

import enum
import inspect
import sys
import typing
from pathlib import Path

import attrs

ROOT = Path(__file__).resolve().parents[1]
SNAPSHOT = ROOT / "tests" / "api_snapshot.txt"


def _signature(value: object) -> str:
    try:
        return str(inspect.signature(value))  # type: ignore[arg-type]  # any callable
    except (TypeError, ValueError):
        return "(...)"


def _source_annotation(cls: type, name: str, resolved: object) -> str:
    """A field's annotation as the source spells it.

    Read from the classes' own ``__annotations__`` (strings, under postponed evaluation), never
    from ``attrs.fields``: cattrs resolves those to live types the first time it builds a
    converter for the class, so they would depend on what ran before the snapshot.
    """
    for klass in cls.__mro__:
        spelled = vars(klass).get("__annotations__", {}).get(name)
        if spelled is not None:
            text = spelled if isinstance(spelled, str) else getattr(spelled, "__name__", spelled)
            return str(text).strip("'\"")
    return str(getattr(resolved, "__name__", resolved)).strip("'")


def _class_lines(name: str, cls: type) -> list[str]:
    bases = ", ".join(base.__name__ for base in cls.__bases__ if base is not object)
    if attrs.has(cls):
        fields = []
        for field in attrs.fields(cls):
            if field.init:
                default = "" if field.default is attrs.NOTHING else " = ..."
                kind = _source_annotation(cls, field.name, field.type)
                fields.append(f"{field.alias or field.name}: {kind}{default}")
        head = f"class {name}({bases}) fields ({', '.join(fields)})"
    elif issubclass(cls, enum.Enum):
        head = f"enum {name}({bases}) members {', '.join(member.name for member in cls)}"
    else:
        head = f"class {name}({bases}) {_signature(cls)}"
    lines = [head]
    for attribute in sorted(vars(cls)):
        if attribute.startswith("_") or (
            issubclass(cls, enum.Enum) and attribute in cls.__members__
        ):
            continue
        value = inspect.getattr_static(cls, attribute)
        if type(value).__name__ == "member_descriptor":  # a slot: an attrs field, listed above
            continue
        if isinstance(value, property):
            lines.append(f"  {name}.{attribute}: property")
        elif isinstance(value, (staticmethod, classmethod)):
            lines.append(f"  {name}.{attribute}{_signature(getattr(cls, attribute))}")
        elif callable(value):
            lines.append(f"  {name}.{attribute}{_signature(value)}")
        else:
            lines.append(f"  {name}.{attribute}: {type(value).__name__}")
    return lines


def snapshot() -> str:
    """The snapshot of ``deepsix``'s public API (the text of the file)."""
    import deepsix

    lines = ["# deepsix's public API: python tools/api_snapshot.py rewrites this file."]
    for name in sorted(deepsix.__all__):
        value = getattr(deepsix, name)
        if isinstance(value, type):
            lines.extend(_class_lines(name, value))
        elif inspect.isfunction(value) or inspect.isbuiltin(value) or callable(value):
            # An overloaded function's signatures are its overloads (what type checkers see).
            variants = typing.get_overloads(value) or [value]
            lines.extend(f"def {name}{_signature(variant)}" for variant in variants)
        else:
            lines.append(f"{name}: {type(value).__name__}")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    text = snapshot()
    if argv == ["--check"]:
        if SNAPSHOT.read_text(encoding="utf-8") != text:
            print(f"{SNAPSHOT.relative_to(ROOT)} is out of date", file=sys.stderr)
            return 1
        return 0
    if argv:
        print("usage: api_snapshot.py [--check]", file=sys.stderr)
        return 2
    SNAPSHOT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
