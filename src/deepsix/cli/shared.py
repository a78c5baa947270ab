"""What the subcommands share: their usage error and the type of the parser they join."""

from __future__ import annotations

import argparse
from typing import TypeAlias

__all__ = ["Subcommands", "UsageError"]

Subcommands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
"""The ``add_subparsers()`` object each subcommand adds its parser to."""


class UsageError(Exception):
    """A problem with the command line's arguments (exit status 2)."""
