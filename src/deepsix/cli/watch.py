"""``deepsix watch``: four bots play one seeded game, printed as it goes."""

from __future__ import annotations

import argparse
import random

from rich.console import Console
from rich.text import Text

from deepsix._version import __version__
from deepsix.actions import Action
from deepsix.cards import Seat
from deepsix.cli.render import score_table, suited
from deepsix.cli.saved import SavedGame, save_game
from deepsix.cli.shared import Subcommands
from deepsix.io.transcript import TranscriptWriter
from deepsix.play.bots import expand_lineup, make_bot
from deepsix.play.loop import play_game
from deepsix.state import GameState

__all__ = ["add_parser", "run_watch"]


def add_parser(commands: Subcommands, bot_help: str) -> None:
    """The ``watch`` subcommand's arguments."""
    watch = commands.add_parser("watch", help="four bots play one game; print the transcript")
    watch.add_argument("--seed", type=int, help="the game's seed (default: random, printed)")
    watch.add_argument("--bots", nargs="+", metavar="BOT", help=bot_help)
    watch.add_argument("--hide-hands", action="store_true", help="do not list the dealt hands")
    watch.add_argument("--save", metavar="FILE", help="save the game record to FILE")
    watch.add_argument("--max-hands", type=int, default=1000, help=argparse.SUPPRESS)


def run_watch(args: argparse.Namespace, console: Console) -> int:
    """Play the game through the library loop, printing each step's transcript lines."""
    names = expand_lineup(args.bots or ["heuristic"])
    bots = [make_bot(name) for name in names]
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    console.print(
        Text(
            f"deepsix {__version__} - seed {seed} - "
            + ", ".join(f"{seat}: {name}" for seat, name in zip(Seat, names, strict=True))
        ),
        style="bold",
    )
    writer = TranscriptWriter(show_hands=not args.hide_hands)

    def narrate(before: GameState, action: Action, after: GameState) -> None:
        for line in writer.step(before, action, after):
            console.print(suited(line))

    state = play_game(bots, seed, on_action=narrate, max_hands=args.max_hands)
    if not state.is_over:
        console.print(f"Stopped after {args.max_hands} hands without a winner.")
    if state.completed_hands:
        console.print(score_table(state.completed_hands))
    if args.save:
        save_game(args.save, SavedGame(seed, names, state))
        console.print(f"Game saved to {args.save}")
    return 0
