"""``deepsix replay``: print a saved game, or step through it trick by trick."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator

from deepsix.cards import Seat
from deepsix.cli.render import suited
from deepsix.cli.saved import load_game
from deepsix.cli.terminal import Terminal
from deepsix.cli.text import Text
from deepsix.io.transcript import TranscriptWriter
from deepsix.rebuild import history_start, walk
from deepsix.state import GameState

__all__ = ["DESCRIPTION", "HELP", "add_arguments", "run"]

HELP = "print or step through a saved game"
DESCRIPTION = (
    "Print a saved game (from watch --save or play --save, or any game record) as a "
    "transcript. With --step it pauses after each phase and trick: Enter shows the next, "
    "q prints the rest, Ctrl-D stops."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``replay`` subcommand's arguments."""
    parser.add_argument("record", metavar="RECORD", help="a game saved with --save")
    parser.add_argument("--step", action="store_true", help="pause after every trick and phase")
    parser.add_argument("--hide-hands", action="store_true", help="do not list the dealt hands")


def _replay_lines(state: GameState, show_hands: bool) -> Iterator[list[str]]:
    """The transcript of a saved game, one chunk (a phase line or a trick) at a time."""
    writer = TranscriptWriter(show_hands=show_hands)
    for step in walk(history_start(state), state.history):
        lines = writer.step(*step)
        if lines:
            yield lines


def run(args: argparse.Namespace, terminal: Terminal) -> int:
    """Print a saved game, or step through it."""
    saved = load_game(args.record)
    state = saved.state
    terminal.print(
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
            terminal.print(suited(line))
        if stepping:
            terminal.print(
                Text("[Enter: next, q: print the rest, Ctrl-D: stop] ", style="dim"), end=""
            )
            try:
                answer = terminal.read()
            except (EOFError, KeyboardInterrupt):
                terminal.print()
                return 0
            if not sys.stdin.isatty():
                terminal.print()
            if answer.strip().lower() in ("q", "quit"):
                stepping = False
    if not state.is_over:
        terminal.print(f"(the game is unfinished: hand {state.hand_number}, {state.phase.value})")
    return 0
