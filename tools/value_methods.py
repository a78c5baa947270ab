"""Write the value classes' construction and value methods from their field declarations.

The compiled build (mypyc) does not keep the methods attrs generates, so the
value classes built at every step (:class:`~deepsix.GameState`,
:class:`~deepsix.HandSetup`, :class:`~deepsix.Trick`) spell out
``__new__``, equality, hashing and pickling -- each one a list of the
class's fields.  This tool writes those lists, so the fields are declared
once (the annotated attributes at the top of each class body) and every
copy follows them:

* inside a class body, between ``# <generated: value methods>`` and
  ``# </generated>`` (``value methods, repr`` adds ``__repr__``);
* at module level, between ``# <generated: constructors of A, B>`` and
  ``# </generated>``: for each class, the checked ``__new__`` of the
  compiled build and the checking ``__init__`` of the pure one (both call
  :func:`deepsix.typecheck.check_kinds`), and ``make_state`` for
  :class:`~deepsix.GameState` (the engine's unchecked constructor);
* inside a class body, between ``# <generated: shared properties>`` and
  ``# </generated>``: the properties that :class:`~deepsix.GameState` and
  :class:`~deepsix.PlayerView` both answer the same way (:data:`SHARED`,
  declared here once).  A shared base class would serve both only in the
  pure build: ``GameState`` is a native class in the compiled one, which an
  interpreted class cannot share methods with.

    python tools/value_methods.py          # rewrite the regions
    python tools/value_methods.py --check  # exit 1 if a region is out of date

``tests/core/test_value_methods.py`` runs the check.  It compares the code (the syntax
trees), not its layout: writing runs ruff's formatter over the result, checking needs no ruff.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import attrs

ROOT = Path(__file__).resolve().parents[1]
FILES = tuple(
    ROOT / "src" / "deepsix" / f"{name}.py" for name in ("state", "handsetup", "tricks", "views")
)
"""The modules whose regions this tool writes."""

_START = re.compile(r"^(?P<indent> *)# <generated: (?P<what>[^>]*)>\n", re.MULTILINE)
_END = "# </generated>"
_NOQA = "  # noqa: PLR0913, PLR0917  # one parameter per field"
_MAKERS = {"GameState": "make_state"}
"""The classes that get an unchecked module-level constructor, and its name."""


@attrs.frozen
class Field:
    """One declared field: its name, its annotation as written, its default (source text)."""

    name: str
    annotation: str
    default: str | None
    init: bool = True


@attrs.frozen
class SharedProperty:
    """A property that a state and a view answer alike, from the fields both have."""

    name: str
    annotation: str
    doc: str
    expression: str
    """The property's value, in terms of ``self.phase``, ``self.tricks`` and ``self.melds``."""


SHARED = (
    SharedProperty(
        "is_chance", "bool", "Whether the next step is chance's (a deal).",
        "self.phase is Phase.DEAL",
    ),
    SharedProperty(
        "is_over", "bool", "Whether the game has ended.", "self.phase is Phase.GAME_OVER",
    ),
    SharedProperty(
        "tricks_taken", "tuple[int, int]", "How many tricks each team has taken this hand.",
        "tricks_taken(self.tricks)",
    ),
    SharedProperty(
        "card_points", "tuple[int, int]",
        "Card points each team has taken this hand (the last-trick bonus included at the end).",
        "card_points(self.tricks)",
    ),
    SharedProperty(
        "team_meld", "tuple[int, int]", "Each team's declared meld total this hand.",
        "team_meld(self.melds)",
    ),
)  # fmt: skip
"""The properties :class:`~deepsix.GameState` and :class:`~deepsix.PlayerView` share."""


def shared_properties(indent: str) -> str:
    """The class-body region of the shared properties."""
    code = "".join(
        f'''
@property
def {prop.name}(self) -> {prop.annotation}:
    """{prop.doc}"""
    return {prop.expression}
'''
        for prop in SHARED
    )
    return _indent(code.removeprefix("\n"), indent)


def declared_fields(source: str, class_name: str) -> list[Field]:
    """The annotated attributes at the top of ``class_name``'s body, in order."""
    tree = ast.parse(source)
    node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == class_name)
    fields = []
    for item in node.body:
        if not isinstance(item, ast.AnnAssign) or not isinstance(item.target, ast.Name):
            continue
        annotation = item.annotation
        text = (
            annotation.value
            if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str)
            else ast.unparse(annotation)
        )
        default = None if item.value is None else ast.unparse(item.value)
        init = True
        if isinstance(item.value, ast.Call):  # attr.ib(default=..., init=False, ...)
            keywords = {k.arg: k.value for k in item.value.keywords}
            flag = keywords.get("init")
            init = not (isinstance(flag, ast.Constant) and flag.value is False)
            default = ast.unparse(keywords["default"]) if "default" in keywords else None
        fields.append(Field(item.target.id, text, default, init))
    return fields


def _params(fields: list[Field], *, loose: bool) -> list[str]:
    parts = []
    for field in fields:
        if not field.init:
            continue
        kind = "object" if loose else field.annotation
        default = "" if field.default is None else f" = {field.default}"
        parts.append(f"{field.name}: {kind}{default}")
    return parts


def _names(fields: list[Field]) -> list[str]:
    return [field.name for field in fields if field.init]


def value_methods(class_name: str, fields: list[Field], *, with_repr: bool, indent: str) -> str:
    """The class-body region: ``__new__``, ``__init__``, ``_fields`` and the value methods."""
    values = [f"self.{f.name}" for f in fields if f.init]
    sets = "".join(
        f'        object.__setattr__(self, "{f.name}", {f.name if f.init else f.default})\n'
        for f in fields
    )
    code = f'''def __new__({_wrap(["cls", *_params(fields, loose=False)])}) -> {class_name}:
    """Build a {class_name} from its fields, unchecked (the engine's path)."""
    self = object.__new__(cls)
{_dedent(sets)}    return self

def __init__({_wrap(["self", *_params(fields, loose=False)])}) -> None:
    """The fields, set by ``__new__``; ``{class_name}(...)`` also checks their kinds."""

def _fields(self) -> tuple[object, ...]:
    return ({_lines(values, trailing=len(values) == 1)})

def __eq__(self, other: object) -> bool:
    if type(other) is not {class_name}:
        return NotImplemented
    return self._fields() == other._fields()

def __ne__(self, other: object) -> bool:
    if type(other) is not {class_name}:
        return NotImplemented
    return self._fields() != other._fields()

def __hash__(self) -> int:
    return hash(self._fields())

def __reduce__(self) -> tuple[object, ...]:
    return ({class_name}, self._fields())

def __setattr__(self, name: str, value: object) -> None:
    raise attrs.exceptions.FrozenInstanceError

def __delattr__(self, name: str) -> None:
    raise attrs.exceptions.FrozenInstanceError
'''
    if with_repr:
        init = [f for f in fields if f.init]
        shown = "".join(
            f'        f"{"" if i else class_name + "("}{f.name}={{self.{f.name}!r}}'
            f'{")" if i == len(init) - 1 else ", "}"\n'
            for i, f in enumerate(init)
        )
        code += f"""
def __repr__(self) -> str:
    return (
{_dedent(shown)}    )
"""
    return _indent(code, indent)


def constructors(class_name: str, fields: list[Field]) -> str:
    """The module-level region for one class: its checked constructors (and its maker)."""
    casts = [f'cast("{f.annotation}", {f.name})' for f in fields if f.init]
    new_params = _wrap([f"cls: type[{class_name}]", *_params(fields, loose=True)])
    init_params = _wrap([f"self: {class_name}", *_params(fields, loose=True)])
    code = f'''def _checked_new_{class_name}({new_params}) -> {class_name}:
    """``{class_name}.__new__`` as called from outside in the compiled build: check, then build."""
    check_kinds({class_name}, (
        {_lines(_names(fields), trailing=True)}
    ))
    return {class_name}.__new__(
        {_lines(["cls", *casts], indent=8)}
    )


def _checking_init_{class_name}({init_params}) -> None:
    """The pure build's ``{class_name}.__init__``: refuse values of the wrong kind."""
    check_kinds({class_name}, (
        {_lines(_names(fields), trailing=True)}
    ))
'''
    maker = _MAKERS.get(class_name)
    if maker:
        code += f'''

def {maker}({_wrap(_params(fields, loose=False))}) -> {class_name}:
    """``{class_name}(...)`` for the engine's hot path: the same arguments, unchecked and faster.

    The engine's values are right by construction, so this skips the kind
    checks that ``{class_name}(...)`` makes on values from outside.
    """
    return {class_name}.__new__(
        {_lines([class_name, *_names(fields)], indent=8)}
    )
'''
    return code


def _wrap(params: list[str]) -> str:
    """A parameter list as lines of at most 96 characters, after the ``(`` and its noqa."""
    lines: list[str] = []
    for param in params:
        if lines and len(lines[-1]) + len(param) + 2 <= 92:
            lines[-1] += f" {param},"
        else:
            lines.append(f"{param},")
    comment = _NOQA if len(params) > 5 else "  # one parameter per field"  # ruff's max-args: 5
    return f"{comment}\n" + "".join(f"    {line}\n" for line in lines)


def _lines(items: list[str], indent: int = 8, *, trailing: bool = False) -> str:
    """``items`` comma-separated, broken into lines of at most 96 characters."""
    out = [""]
    for index, item in enumerate(items):
        last = index == len(items) - 1
        piece = item + ("," if trailing or not last else "")
        if out[-1] and len(out[-1]) + len(piece) + indent + 1 > 92:
            out.append("")
        out[-1] += (" " if out[-1] else "") + piece
    return ("\n" + " " * indent).join(out)


def _indent(code: str, indent: str) -> str:
    return "".join(indent + line if line.strip() else line for line in code.splitlines(True))


def _dedent(code: str) -> str:
    return "".join(line[4:] for line in code.splitlines(True))


def render(source: str) -> str:
    """``source`` with every generated region written afresh."""
    out: list[str] = []
    position = 0
    for start in _START.finditer(source):
        if start.start() < position:
            continue
        indent, what = start.group("indent"), start.group("what")
        end = source.index(indent + _END, start.end())
        out.append(source[position : start.end()])
        out.append(_region(source, start.start(), indent, what))
        position = end
    out.append(source[position:])
    return "".join(out)


def _region(source: str, at: int, indent: str, what: str) -> str:
    if what.startswith("value methods"):
        owner = _enclosing_class(source, at)
        fields = declared_fields(source, owner)
        code = value_methods(owner, fields, with_repr="repr" in what, indent=indent)
        return f"{indent}# fmt: off\n{code}{indent}# fmt: on\n"
    if what.startswith("constructors of "):
        names = [name.strip() for name in what.removeprefix("constructors of ").split(",")]
        parts = [constructors(name, declared_fields(source, name)) for name in names]
        return "# fmt: off\n" + "\n\n".join(parts) + "# fmt: on\n"
    if what == "shared properties":
        return shared_properties(indent)
    raise SystemExit(f"unknown generated region {what!r}")


def _enclosing_class(source: str, at: int) -> str:
    """The class whose body holds the (indented) region at ``at``: the last one above it."""
    line = source.count("\n", 0, at) + 1
    above = [n for n in ast.parse(source).body if isinstance(n, ast.ClassDef) and n.lineno < line]
    if not above:
        raise SystemExit(f"a value-methods region outside a class (line {line})")
    return above[-1].name


def same_code(a: str, b: str) -> bool:
    """Whether two sources are the same code, however they are laid out (comments aside)."""
    return ast.dump(ast.parse(a)) == ast.dump(ast.parse(b))


def formatted(text: str) -> str:
    """``text`` as ruff's formatter writes it (the regions must pass ``ruff format --check``)."""
    import subprocess

    done = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--stdin-filename", "generated.py", "-"],
        input=text,
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return done.stdout


def main(argv: list[str]) -> int:
    check = argv == ["--check"]
    if argv and not check:
        print("usage: value_methods.py [--check]", file=sys.stderr)
        return 2
    stale = []
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        fresh = render(text)
        if check:
            if not same_code(fresh, text):
                stale.append(path)
        else:
            fresh = formatted(fresh)
            if fresh != text:
                path.write_text(fresh, encoding="utf-8")
    if check and stale:
        names = ", ".join(str(path.relative_to(ROOT)) for path in stale)
        print(f"out of date: {names} (run python tools/value_methods.py)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
