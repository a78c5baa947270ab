"""The command line's reference, written from its own parser (the CLI page of the docs).

:func:`reference` walks the parser that ``deepsix`` itself uses -- every
subcommand, built in or added by another package -- and writes Markdown:
the global options, one section per subcommand (its description, usage
and options) and the exit statuses.  The documentation includes it with
the ``deepsix-cli`` directive, so the page cannot fall behind the code.

>>> text = reference()
>>> "## `deepsix watch`" in text and "`--hint-bot BOT`" in text
True
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator

from deepsix.cli.app import DESCRIPTION, build_parser
from deepsix.cli.shared import EXIT_STATUSES
from deepsix.cli.subcommands import load_subcommands

__all__ = ["WIDTH", "option_names", "reference"]


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:  # argparse keeps no public list of its actions
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _shown(parser: argparse.ArgumentParser, *, sub: bool = False) -> Iterator[argparse.Action]:
    """The parser's documented arguments: not ``--help``, not suppressed ones, and in a
    subcommand (``sub``) not the global options it also accepts."""
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction | argparse._SubParsersAction):
            continue
        if action.help == argparse.SUPPRESS or (sub and action.dest in _GLOBAL):
            continue
        yield action


_GLOBAL = frozenset({"no_color"})
"""Options every subcommand accepts and the reference lists once, as global options."""
WIDTH = 88
"""The width of the usage lines (the reference must not depend on the terminal)."""


def _usage(parser: argparse.ArgumentParser) -> str:
    formatter = argparse.HelpFormatter(parser.prog, width=WIDTH)
    formatter.add_usage(parser.usage, parser._actions, parser._mutually_exclusive_groups)
    return formatter.format_help().strip()


def _spelling(action: argparse.Action) -> str:
    """How an argument is written: ``-n N, --games N``, ``--save FILE``, ``RECORD``."""
    if not action.option_strings:
        return str(action.metavar or action.dest)
    if action.nargs == 0:
        return ", ".join(action.option_strings)
    metavar = action.metavar or action.dest.upper()
    value = f"{metavar} ..." if action.nargs in ("+", "*") else str(metavar)
    return ", ".join(f"{option} {value}" for option in action.option_strings)


def _meaning(action: argparse.Action) -> str:
    text = (action.help or "") % {"default": action.default, "prog": ""}
    if action.choices and not isinstance(action, argparse._SubParsersAction):
        text += f" (one of: {', '.join(map(str, action.choices))})"
    return text.replace("|", "\\|")


def _table(parser: argparse.ArgumentParser, *, sub: bool = False) -> list[str]:
    lines = ["| argument | meaning |", "|---|---|"]
    lines += [f"| `{_spelling(a)}` | {_meaning(a)} |" for a in _shown(parser, sub=sub)]
    return lines


def option_names(parser: argparse.ArgumentParser | None = None) -> set[tuple[str, str]]:
    """Every documented (subcommand, option or argument) pair of the parser (``""`` for the
    global options): what the reference must show."""
    parser = parser or build_parser()
    names = {("", option) for a in _shown(parser) for option in a.option_strings}
    for name, sub in _subparsers(parser).items():
        for action in _shown(sub, sub=True):
            names.update((name, option) for option in action.option_strings or [_spelling(action)])
    return names


def reference(parser: argparse.ArgumentParser | None = None) -> str:
    """The Markdown reference of ``deepsix`` (default: the parser of every subcommand)."""
    if parser is None:
        parser = build_parser(load_subcommands())
    subs = _subparsers(parser)
    lines = [
        DESCRIPTION,
        "",
        "```text",
        _usage(parser),
        "```",
        "",
        "| subcommand | what it does |",
        "|---|---|",
    ]
    helps = {
        action.dest: action.help
        for action in parser._actions
        if isinstance(action, argparse._SubParsersAction)
        for action in action._choices_actions
    }
    lines += [f"| [`deepsix {name}`](#deepsix-{name}) | {helps.get(name, '')} |" for name in subs]
    lines += ["", "Global options (before or after the subcommand):", "", *_table(parser)]
    for name, sub in subs.items():
        lines += ["", f"## `deepsix {name}`", "", sub.description or "", ""]
        lines += ["```text", _usage(sub), "```", "", *_table(sub, sub=True)]
    lines += ["", "## Exit status", "", "| status | when |", "|---|---|"]
    lines += [f"| `{code}` | {when} |" for code, when in EXIT_STATUSES]
    return "\n".join(lines) + "\n"
