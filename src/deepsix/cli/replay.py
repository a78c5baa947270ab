"""``deepsix replay``: print a saved game, or step through it trick by trick."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator

from rich.console import Console
from rich.text import Text

from deepsix.cards import Seat
from deepsix.cli.render import suited
from deepsix.cli.saved import load_game
from deepsix.cli.shared import Subcommands
from deepsix.io.transcript import TranscriptWriter
from deepsix.rebuild import history_start, walk
from deepsix.state import GameState

__all__ = ["add_parser", "run_replay"]


def add_parser(commands: Subcommands) -> None:
    """The ``replay`` subcommand's arguments."""
    replay = commands.add_parser("replay", help="print or step through a saved game")
    replay.add_argument("record", metavar="RECORD", help="a game saved with --save")
    replay.add_argument("--step", action="store_true", help="pause after every trick and phase")
    replay.add_argument("--hide-hands", action="store_true", help="do not list the dealt hands")


def _replay_lines(state: GameState, show_hands: bool) -> Iterator[list[str]]:
    """The transcript of a saved game, one chunk (a phase line or a trick) at a time."""
    writer = TranscriptWriter(show_hands=show_hands)
    for step in walk(history_start(state), state.history):
        lines = writer.step(*step)
        if lines:
            yield lines


def run_replay(args: argparse.Namespace, console: Console, read: Callable[[], str]) -> int:
    """Print a saved game, or step through it."""
    saved = load_game(args.record)
    state = saved.state
    console.print(
        Text(
            f"{args.record}: seed {saved.seed if saved.seed is not None else 'unknown'}, "
            + ", ".join(f"{s}: {saved.bots[s]}" for s in Seat)
            + f", {len(state.history)} actions",
            style="bold",
        )
    )
    stepping = args.step
    for lines in _replay_lines(state, not args.hide_hands):
        for line in lines:
            console.print(suited(line))
        if stepping:
            console.print(
                Text("[Enter: next, q: print the rest, Ctrl-D: stop] ", style="dim"), end=""
            )
            try:
                answer = read()
            except (EOFError, KeyboardInterrupt):
                console.print()
                return 0
            if not sys.stdin.isatty():
                console.print()
            if answer.strip().lower() in ("q", "quit"):
                stepping = False
    if not state.is_over:
        console.print(f"(the game is unfinished: hand {state.hand_number}, {state.phase.value})")
    return 0
