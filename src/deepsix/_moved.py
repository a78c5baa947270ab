"""Deprecated module paths from before the package had layers.

Version 0.1 kept every module at the top of the package.  The I/O modules
now live in :mod:`deepsix.io` and the bots and the simulator in
:mod:`deepsix.play`; the old paths (``deepsix.notation``,
``deepsix.bots``, ...) keep working at run time, with a
:class:`DeprecationWarning`, through the import hook below -- without a
file of their own in the package, so the file tree shows only the layers.
``from deepsix import X`` is the stable way to reach every public name.
Type checkers do not see the old paths: import from the new ones.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types
import warnings
from collections.abc import Sequence
from typing import Any, Final

__all__ = ["MOVED", "install"]

MOVED: Final[dict[str, tuple[str, ...]]] = {
    "deepsix.notation": ("deepsix.io.notation",),
    "deepsix.record": ("deepsix.io.record",),
    "deepsix.serialization": ("deepsix.io.serialization",),
    "deepsix.transcript": ("deepsix.io.transcript",),
    "deepsix.schemas": ("deepsix.io.schemas",),
    "deepsix.bots": ("deepsix.play.bots", "deepsix.play.heuristic", "deepsix.play.loop"),
    "deepsix.simulate": ("deepsix.play.simulate",),
}
"""Each old module path and the module(s) that now hold its names, in lookup order."""


class _Alias(types.ModuleType):
    """An old module path: its names are looked up in the modules that now hold them."""

    def __init__(self, name: str, targets: tuple[types.ModuleType, ...]) -> None:
        super().__init__(name, f"Deprecated alias of {', '.join(t.__name__ for t in targets)}.")
        self._targets = targets
        self.__path__: list[str] = list(getattr(targets[0], "__path__", []))

    def __getattr__(self, name: str) -> Any:
        for target in self._targets:
            if hasattr(target, name):
                return getattr(target, name)
        raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")

    def __dir__(self) -> list[str]:
        return sorted({name for target in self._targets for name in dir(target)})


class _AliasLoader(importlib.abc.Loader):
    def __init__(self, targets: tuple[str, ...]) -> None:
        self.targets = targets

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        # A proxy, not the new module itself: the import system stamps its spec on what
        # this returns, and the new module's own spec must stay as it is.
        return _Alias(spec.name, tuple(importlib.import_module(t) for t in self.targets))

    def exec_module(self, module: types.ModuleType) -> None:
        """Nothing to run: the module is the new one (or an alias of the new ones)."""


class _MovedFinder(importlib.abc.MetaPathFinder):
    """Finds the old module paths."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: types.ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        targets = MOVED.get(fullname)
        if targets is not None:
            warnings.warn(
                f"{fullname} is deprecated; import from {' / '.join(targets)} or from deepsix",
                DeprecationWarning,
                stacklevel=2,
            )
            spec = importlib.machinery.ModuleSpec(fullname, _AliasLoader(targets))
            found = importlib.util.find_spec(targets[0])
            if found is not None and found.submodule_search_locations is not None:
                # A package (deepsix.schemas): ``python -m`` then finds its __main__.
                spec.submodule_search_locations = list(found.submodule_search_locations)
            return spec
        return None


class _Package(types.ModuleType):
    """The ``deepsix`` package, guarding its public names against the old module paths.

    Importing a submodule sets an attribute of that name on its package.
    The old ``deepsix.simulate`` module shares its name with the public
    :func:`deepsix.simulate` function; importing the old path must not
    replace the function with the module.
    """

    def __setattr__(self, name: str, value: object) -> None:
        if isinstance(value, _Alias) and name in getattr(self, "_LAZY", {}):
            return
        super().__setattr__(name, value)


def install(package: types.ModuleType) -> None:
    """Put the finder for the old paths on ``sys.meta_path`` (once) and guard ``package``."""
    if not any(isinstance(finder, _MovedFinder) for finder in sys.meta_path):
        sys.meta_path.append(_MovedFinder())
    package.__class__ = _Package
