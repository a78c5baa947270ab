"""The subcommands of ``deepsix``: the built-in ones by module path, and those other packages add.

A subcommand is a module with

* ``HELP``: one line, shown in ``deepsix --help`` and the CLI page;
* ``DESCRIPTION`` (optional, default ``HELP``): what ``deepsix NAME --help``
  says before the options, and the CLI page with it;
* ``add_arguments(parser)``: its options (an :class:`argparse.ArgumentParser`);
* ``run(args, terminal) -> int`` for a built-in subcommand (it prints to the
  :class:`~deepsix.cli.terminal.Terminal`), ``run(args) -> int`` for one
  another package adds; the exit status follows :mod:`deepsix.cli.shared`.

The built-in ones are listed in :data:`BUILTIN` by full module path and
imported only when the parser is built.  Another package -- the web
server's ``deepsix serve`` -- names its module in the ``deepsix.commands``
entry-point group of its metadata instead, and should import only the
standard library until ``run`` is called, so that the command is listed
(and says what to install) even where its own dependencies are missing.
"""

from __future__ import annotations

import argparse
import importlib
from importlib.metadata import entry_points
from typing import Any, Final, Protocol, cast

import attrs

__all__ = ["BUILTIN", "GROUP", "Subcommand", "SubcommandModule", "load_subcommands"]

BUILTIN: Final = {
    "watch": "deepsix.cli.watch",
    "play": "deepsix.cli.play",
    "simulate": "deepsix.cli.simulate",
    "replay": "deepsix.cli.replay",
    "match": "deepsix.cli.match",
    "bot": "deepsix.cli.bot",
    "analyze": "deepsix.cli.analyze",
}
"""The built-in subcommands, in the order ``deepsix --help`` lists them: name -> module."""

GROUP: Final = "deepsix.commands"
"""The entry-point group of the subcommands other packages add."""


class SubcommandModule(Protocol):
    """What every subcommand's module has (``run`` differs: see the module docstring)."""

    HELP: str

    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...


@attrs.frozen
class Subcommand:
    """A subcommand, loaded."""

    name: str
    module: SubcommandModule
    builtin: bool
    """Built in (``run(args, terminal)``) or added by another package (``run(args)``)."""

    @property
    def help(self) -> str:
        """The one-line help."""
        return self.module.HELP

    @property
    def description(self) -> str:
        """What ``--help`` and the CLI page say about it."""
        return str(getattr(self.module, "DESCRIPTION", self.module.HELP))

    def run(self, args: argparse.Namespace, terminal: object) -> int:
        """Run it; returns the exit status."""
        run: Any = getattr(self.module, "run")  # noqa: B009  # two signatures (see the module)
        code = run(args, terminal) if self.builtin else run(args)
        return int(code)


def _added() -> dict[str, SubcommandModule]:
    """The subcommands in the ``deepsix.commands`` entry points; one that fails to load is
    left out, so that a broken plug-in cannot break the command line."""
    found: dict[str, SubcommandModule] = {}
    for point in entry_points(group=GROUP):
        try:
            module = point.load()
        except Exception:  # any failure of foreign code: leave it out
            continue
        if all(hasattr(module, name) for name in ("HELP", "add_arguments", "run")):
            found[point.name] = module
    return found


def load_subcommands() -> dict[str, Subcommand]:
    """Every subcommand by name: the built-in ones, then the added ones (sorted)."""
    commands = {
        name: Subcommand(name, cast("SubcommandModule", importlib.import_module(path)), True)
        for name, path in BUILTIN.items()
    }
    for name, module in sorted(_added().items()):
        commands.setdefault(name, Subcommand(name, module, False))
    return commands
