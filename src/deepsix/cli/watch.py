"""``deepsix watch``: four bots play one seeded game, printed as it goes."""

from __future__ import annotations

import argparse
import random

from deepsix._version import __version__
from deepsix.actions import Action
from deepsix.cards import Seat
from deepsix.cli.render import score_table, suited
from deepsix.cli.saved import SavedGame, save_game
from deepsix.cli.shared import UsageError, bot_help, bot_lineup, output_file
from deepsix.cli.terminal import Terminal
from deepsix.cli.text import Text
from deepsix.io.transcript import TranscriptWriter
from deepsix.play.bots import make_bot
from deepsix.play.loop import play_game
from deepsix.state import GameState

__all__ = ["DESCRIPTION", "HELP", "add_arguments", "run"]

HELP = "four bots play one game; print the transcript"
DESCRIPTION = (
    "Four bots play one complete, seeded game. The transcript is printed as the game goes "
    "(the dealt hands, the auction, the sunk suit, the invitation, the passes, the melds, "
    "one line per trick, a score block per hand), then the score sheet. The same seed and "
    "bots always give the same game."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``watch`` subcommand's options."""
    parser.add_argument("--seed", type=int, help="the game's seed (default: random, printed)")
    parser.add_argument(
        "--bots", nargs="+", metavar="BOT", help=bot_help() + " (default: heuristic)"
    )
    parser.add_argument("--hide-hands", action="store_true", help="do not list the dealt hands")
    parser.add_argument(
        "--save", metavar="FILE", help="save the game record to FILE (for deepsix replay)"
    )
    parser.add_argument("--max-hands", type=int, default=1000, help=argparse.SUPPRESS)


def run(args: argparse.Namespace, terminal: Terminal) -> int:
    """Play the game through the library loop, printing each step's transcript lines."""
    names = bot_lineup("--bots", args.bots or ["heuristic"])
    save_to = output_file("--save", args.save)
    if args.max_hands < 0:
        raise UsageError("--max-hands must be at least 0")
    bots = [make_bot(name) for name in names]
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    terminal.print(
        Text(
            f"deepsix {__version__} - seed {seed} - "
            + ", ".join(f"{seat}: {name}" for seat, name in zip(Seat, names, strict=True)),
            style="bold",
        )
    )
    writer = TranscriptWriter(show_hands=not args.hide_hands)

    def narrate(before: GameState, action: Action, after: GameState) -> None:
        for line in writer.step(before, action, after):
            terminal.print(suited(line))

    state = play_game(bots, seed, on_action=narrate, max_hands=args.max_hands)
    if not state.is_over:
        terminal.print(f"Stopped after {args.max_hands} hands without a winner.")
    if state.completed_hands:
        terminal.print(score_table(state.completed_hands))
    if save_to is not None:
        save_game(save_to, SavedGame(seed, names, state))
        terminal.print(f"Game saved to {save_to}")
    return 0
