"""``deepsix replay``: print a saved game, or step through it trick by trick."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator

from deepsix.cards import Seat
from deepsix.cli.render import suited
from deepsix.cli.saved import load_game
from deepsix.cli.shared import UsageError, output_file
from deepsix.cli.terminal import Terminal
from deepsix.cli.text import Text
from deepsix.io.transcript import TranscriptWriter
from deepsix.rebuild import history_start, history_steps
from deepsix.state import GameState

__all__ = ["DESCRIPTION", "HELP", "add_arguments", "run"]

HELP = "print or step through a saved game"
DESCRIPTION = (
    "Print a saved game (from watch --save or play --save, or any game record) as a "
    "transcript. With --step it pauses after each phase and trick: Enter shows the next, "
    "q prints the rest, Ctrl-D stops. With --svg it draws one position of the game instead, "
    "as an SVG picture (every hand open, or what one seat sees)."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``replay`` subcommand's arguments."""
    parser.add_argument("record", metavar="RECORD", help="a game saved with --save")
    parser.add_argument("--step", action="store_true", help="pause after every trick and phase")
    parser.add_argument("--hide-hands", action="store_true", help="do not list the dealt hands")
    parser.add_argument(
        "--plot", metavar="FILE",
        help="also draw the score progression to FILE (.png, .svg, .pdf; the plot extra)",
    )  # fmt: skip
    picture = parser.add_argument_group("a picture of one position (deepsix.svg)")
    picture.add_argument(
        "--svg", metavar="FILE",
        help="write the table as an SVG picture to FILE instead of printing the game",
    )  # fmt: skip
    picture.add_argument(
        "--at", type=int, metavar="N",
        help="the position after N actions, deals included (default: the last; negative: "
        "counted back from the last)",
    )  # fmt: skip
    picture.add_argument(
        "--seat", choices=["N", "E", "S", "W"],
        help="draw what this seat sees (other hands as card backs); default: every hand open",
    )  # fmt: skip
    picture.add_argument(
        "--theme", choices=["light", "dark"], default="light", help="colours (default %(default)s)"
    )
    picture.add_argument("--size", type=int, metavar="PX", help="the picture's width in pixels")


def _replay_lines(state: GameState, show_hands: bool) -> Iterator[list[str]]:
    """The transcript of a saved game, one chunk (a phase line or a trick) at a time."""
    writer = TranscriptWriter(show_hands=show_hands)
    for step in history_steps(state):
        lines = writer.step(*step)
        if lines:
            yield lines


def _picture(args: argparse.Namespace, state: GameState, terminal: Terminal) -> int:
    """Write the SVG picture of one position of the saved game (``--svg``)."""
    from deepsix import svg
    from deepsix.views import view

    states = [history_start(state)] + [step.after for step in history_steps(state)]
    last = len(states) - 1
    at = last if args.at is None else (args.at if args.at >= 0 else last + 1 + args.at)
    if not 0 <= at <= last:
        raise UsageError(
            f"--at {args.at}: the game has {last} actions (0 to {last}, or -1 to -{last + 1})"
        )
    position = states[at]
    target = output_file("--svg", args.svg)
    assert target is not None
    drawn = view(position, Seat.parse(args.seat)) if args.seat else position
    target.write_text(svg.table(drawn, size=args.size, theme=args.theme), encoding="utf-8")
    who = f"as {args.seat} sees it" if args.seat else "every hand open"
    terminal.print(f"Wrote {args.svg}: the table after {at} of {last} actions ({who})")
    return 0


def run(args: argparse.Namespace, terminal: Terminal) -> int:
    """Print a saved game, or step through it, or draw one of its positions (``--svg``)."""
    if args.svg is None and any(value is not None for value in (args.at, args.seat, args.size)):
        raise UsageError("--at, --seat and --size go with --svg")
    if args.size is not None and not 16 <= args.size <= 10_000:
        raise UsageError(f"--size {args.size}: between 16 and 10000 pixels")
    if args.svg is not None:
        output_file("--svg", args.svg)
    plot_file = output_file("--plot", args.plot)
    saved = load_game(args.record)
    state = saved.state
    if plot_file is not None:
        from deepsix import plot

        plot.score_progression(state).savefig(plot_file)
        terminal.print(f"Wrote {args.plot}")
    if args.svg is not None:
        return _picture(args, state, terminal)
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
