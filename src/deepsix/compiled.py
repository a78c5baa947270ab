"""Which build of deepsix is loaded: the pure-Python one or the compiled one.

deepsix ships two builds of the same typed sources.  The pure-Python wheel
(``py3-none-any``) and the sdist run everywhere; the compiled wheels
(built with mypyc, one per platform and Python version) run the rules'
hot path -- :data:`CANDIDATES` -- as native code, several times faster.
Both behave the same and pass the same tests; see
``docs/manual/performance.md``.

>>> import deepsix.compiled
>>> deepsix.compiled.BUILD in ("mypyc", "pure")
True
>>> deepsix.compiled.COMPILED == bool(deepsix.compiled.MODULES)
True

This module itself is never compiled, and imports nothing from deepsix:
it finds the compiled modules by where they would be loaded from, without
loading them.  It also holds :func:`keep_annotations` and :func:`fast_new`,
which the compiled modules' attrs classes call.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, Literal, TypeVar, cast

import attrs

__all__ = ["BUILD", "CANDIDATES", "COMPILED", "MODULES", "fast_new", "keep_annotations"]

_T = TypeVar("_T", bound=attrs.AttrsInstance)

CANDIDATES: Final = (
    "deepsix.hands",
    "deepsix.melds",
    "deepsix.tricks",
    "deepsix.handsetup",
    "deepsix.scoring",
    "deepsix.history",
    "deepsix.state",
    "deepsix.legal",
    "deepsix.phases.deal",
    "deepsix.phases.auction",
    "deepsix.phases.contract",
    "deepsix.phases.passing",
    "deepsix.phases.melding",
    "deepsix.phases.play",
    "deepsix.engine",
    "deepsix.play.cardplay",
    "deepsix.search._core",
    "deepsix.adapters._facts",
    "deepsix.adapters._tally",
    "deepsix.adapters._encoder",
    "deepsix.adapters._written",
    "deepsix.adapters._stepwise",
    "deepsix.adapters._masks",
    "deepsix.adapters._aec",
)
"""The modules the compiled build compiles (``pyproject.toml`` lists the same files)."""


def _is_extension(name: str) -> bool:
    # Look the module up where its package lives without importing the package's
    # own ``__init__`` (``deepsix.search`` would load the whole search layer).
    package, _, module = name.rpartition(".")
    root = importlib.util.find_spec("deepsix")
    if root is None or root.submodule_search_locations is None:
        return False
    inner = package.split(".")[1:]
    places = [str(Path(place, *inner)) for place in root.submodule_search_locations]
    spec = importlib.machinery.PathFinder.find_spec(module, places)
    origin = spec.origin if spec is not None else None
    return origin is not None and origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


MODULES: Final[tuple[str, ...]] = tuple(name for name in CANDIDATES if _is_extension(name))
"""The modules of :data:`CANDIDATES` that are loaded as compiled extension modules."""

COMPILED: Final = bool(MODULES)
"""Whether this is the compiled build."""

BUILD: Final[Literal["mypyc", "pure"]] = "mypyc" if COMPILED else "pure"
"""``"mypyc"`` for the compiled build, ``"pure"`` for the pure-Python one."""


def keep_annotations(cls: Any, annotations: dict[str, str]) -> None:
    """Give an attrs class the field annotations its source spells, in both builds.

    mypyc compiles an ``attr.s`` class with auto-attributes into a native
    class, and writes a field annotated ``tuple[X, ...]`` into the class's
    ``__annotations__`` (and so into its attrs fields) as the bare class
    ``tuple``, which ``typing.get_type_hints``, the type checks of
    :mod:`deepsix.typecheck` and the JSON converter would then read.  Each
    such class calls this with those fields' annotations, as strings, the
    way the pure build (``from __future__ import annotations``) has them.
    """
    cls.__annotations__.update(annotations)
    for field in attrs.fields(cls):
        if field.name in annotations:
            # attrs.resolve_types sets an attribute's type the same way.
            object.__setattr__(field, "type", annotations[field.name])


def fast_new(cls: type[_T]) -> Callable[..., _T]:
    """The pure build's ``__new__`` for a slotted attrs class that spells out its own (see
    ``tools/value_methods.py``): the same parameters and defaults, filling the slots through
    their descriptors, which is faster in the interpreter than ``object.__setattr__``."""
    namespace: dict[str, object] = {"_new": object.__new__}
    params: list[str] = []
    body = ["    self = _new(cls)"]
    for index, field in enumerate(attrs.fields(cls)):
        namespace[f"_set{index}"] = vars(cls)[field.name].__set__
        if field.init:
            if field.default is attrs.NOTHING:
                params.append(field.name)
            else:
                namespace[f"_default{index}"] = field.default
                params.append(f"{field.name}=_default{index}")
            body.append(f"    _set{index}(self, {field.name})")
        else:
            namespace[f"_default{index}"] = field.default
            body.append(f"    _set{index}(self, _default{index})")
    lines = [f"def __new__(cls, {', '.join(params)}):", *body, "    return self"]
    exec("\n".join(lines), namespace)  # code generated from the class's own field list
    fast = cast("Callable[..., _T]", namespace["__new__"])
    fast.__doc__ = cls.__new__.__doc__
    return fast
