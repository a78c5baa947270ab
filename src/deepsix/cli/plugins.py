"""Subcommands that other packages add to ``deepsix``: the ``deepsix.commands`` entry points.

A package of the applications layer that the command line must not import
-- the web server's ``deepsix serve`` -- names a module in the
``deepsix.commands`` entry-point group of its metadata.  That module has
``HELP`` (one line), ``add_arguments(parser)`` and ``run(args) -> int``, and
should import only the standard library until ``run`` is called, so that the
command is listed even where its own dependencies are missing.
"""

from __future__ import annotations

import argparse
from importlib.metadata import entry_points
from typing import Protocol

from deepsix.cli.shared import Subcommands

__all__ = ["GROUP", "Plugin", "add_parsers", "plugins"]

GROUP = "deepsix.commands"
"""The entry-point group of the subcommands other packages add."""


class Plugin(Protocol):
    """A subcommand's module."""

    HELP: str

    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...

    def run(self, args: argparse.Namespace) -> int: ...


def plugins() -> dict[str, Plugin]:
    """The registered subcommands by name; one that fails to load is left out."""
    found: dict[str, Plugin] = {}
    for point in entry_points(group=GROUP):
        try:
            module = point.load()
        except Exception:  # a broken plug-in must not break the command line
            continue
        if all(hasattr(module, name) for name in ("HELP", "add_arguments", "run")):
            found[point.name] = module
    return found


def add_parsers(commands: Subcommands, found: dict[str, Plugin]) -> None:
    """Add each registered subcommand's parser."""
    for name, plugin in sorted(found.items()):
        parser = commands.add_parser(name, help=plugin.HELP, description=plugin.HELP)
        plugin.add_arguments(parser)
