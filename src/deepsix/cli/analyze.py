"""``deepsix analyze``: where a saved game's points were lost, decision by decision."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Final

import attrs

from deepsix.cards import Seat
from deepsix.cli.saved import load_game
from deepsix.cli.shared import CommandFailed, UsageError, output_file
from deepsix.cli.terminal import Terminal

if TYPE_CHECKING:  # imported by run(): building the parser loads no search code
    from deepsix.search.analysis import Decision, HandAnalysis

__all__ = ["DESCRIPTION", "HELP", "add_arguments", "decision_line", "hand_lines", "run"]

HELP = "show where a saved game's points were lost, decision by decision"
DESCRIPTION = (
    "Analyse a saved game (from play --save or watch --save, or a record downloaded from the "
    "web table): for every decision of each finished hand, the value of what was played "
    "against the best choice and the points it cost. Cards played with at most eight tricks "
    "left are solved exactly with every hand visible (double dummy); earlier cards, the "
    "auction, the sunk suit, the invitation, the passes and the melds are estimated on deals "
    "sampled from what the player could see, each played out by the heuristic bot. A value "
    "is the hand's score for the player's side minus the other side's (low is good). The "
    "same record, budget and seed give the same analysis."
)

_BUDGET_HELP: Final = (
    "how hard to look: quick (3 deals per estimate, exact from 6 tricks left), normal "
    "(4 deals, exact from 8 tricks) or deep (12 deals); default %(default)s"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``analyze`` subcommand's arguments."""
    parser.add_argument("record", metavar="RECORD", help="a saved game or game record")
    parser.add_argument(
        "--budget", choices=["quick", "normal", "deep"], default="normal", help=_BUDGET_HELP
    )
    parser.add_argument(
        "--hand", type=int, action="append", metavar="N",
        help="analyse hand N only (repeat for several; default every finished hand)",
    )  # fmt: skip
    parser.add_argument(
        "--seed", type=int, default=0,
        help="seed of the sampled deals (default %(default)s): the same seed, the same analysis",
    )  # fmt: skip
    parser.add_argument(
        "--time-limit", type=float, metavar="SECONDS",
        help="stop after this many seconds; decisions not reached are counted as skipped",
    )  # fmt: skip
    parser.add_argument(
        "--threshold", type=float, default=10.0, metavar="POINTS",
        help="list decisions that cost at least this many points (default %(default)g)",
    )  # fmt: skip
    parser.add_argument(
        "--all", action="store_true", help="list every decision, not only the costly ones"
    )
    parser.add_argument(
        "--json", metavar="FILE", help="also write the whole analysis to FILE as JSON"
    )
    parser.add_argument(
        "--plot", metavar="FILE",
        help="also draw each decision's cost to FILE (.png, .svg, .pdf; the plot extra)",
    )  # fmt: skip
    parser.add_argument(
        "--exact-tricks", type=int, metavar="N",
        help="solve exactly the cards played with at most N tricks left (0 to 14; default the"
        " budget's); with the native kernel ten or so stay quick",
    )  # fmt: skip
    parser.add_argument(
        "--kernel", choices=["python", "native", "auto"], default="python",
        help="the solver kernel of the exact decisions: python (default), native (the C++"
        " kernel, pip install ./native) or auto (native where installed)",
    )  # fmt: skip
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def run(args: argparse.Namespace, terminal: Terminal) -> int:
    """Analyse the saved game and print each hand's costly moments."""
    from deepsix.search.analysis import BUDGETS, analysis_data, analyze_game, decision_count
    from deepsix.search.solver import SearchError

    if args.time_limit is not None and not args.time_limit > 0:
        raise UsageError(f"--time-limit {args.time_limit:g}: a positive number of seconds")
    if args.threshold < 0:
        raise UsageError(f"--threshold {args.threshold:g}: zero or more points")
    if args.exact_tricks is not None and not 0 <= args.exact_tricks <= 14:
        raise UsageError(f"--exact-tricks {args.exact_tricks}: a number of tricks from 0 to 14")
    try:
        budget = attrs.evolve(BUDGETS[args.budget], kernel=args.kernel)
    except SearchError as error:  # the native kernel asked for, and not installed
        raise CommandFailed(f"--kernel {args.kernel}: {error}") from None
    if args.exact_tricks is not None:
        budget = attrs.evolve(budget, exact_tricks=args.exact_tricks)
    target = output_file("--json", args.json)
    plot_file = output_file("--plot", args.plot)
    saved = load_game(args.record)
    finished = len(saved.state.completed_hands)
    if not finished:
        raise CommandFailed(f"{args.record}: no hand of this game is finished, nothing to analyse")
    for number in args.hand or ():
        if not 1 <= number <= finished:
            raise UsageError(f"--hand {number}: the game's finished hands are 1 to {finished}")
    terminal.print(
        f"{args.record}: {finished} finished hand{'s' if finished != 1 else ''}, "
        f"budget {args.budget}, seed {args.seed}"
    )

    def show(hand: HandAnalysis) -> None:
        for line in hand_lines(hand, threshold=args.threshold, every=args.all):
            terminal.print(line)

    total = decision_count(saved.state, hands=args.hand)
    try:
        with terminal.progress("analysing", total, show=not args.no_progress) as update:
            result = analyze_game(
                saved.state,
                budget=budget,
                seed=args.seed,
                hands=args.hand,
                time_limit=args.time_limit,
                progress=show,
                on_decision=lambda done, _total: update(done),
            )
    except SearchError as error:
        raise CommandFailed(str(error)) from None
    if target is not None:
        target.write_text(json.dumps(analysis_data(result), indent=1) + "\n", encoding="utf-8")
        terminal.print(f"Wrote {args.json}")
    if plot_file is not None:
        from deepsix import plot

        plot.decision_costs(result).savefig(plot_file)
        terminal.print(f"Wrote {args.plot}")
    return 0


# -- text ------------------------------------------------------------------------------


def _number(value: float) -> str:
    """A value as a person reads it: whole points without decimals."""
    return f"{value:+.0f}" if abs(value - round(value)) < 0.05 else f"{value:+.1f}"


def _where(decision: Decision) -> str:
    if decision.trick is not None:
        return f"trick {decision.trick}"
    return decision.phase.value


def decision_line(decision: Decision) -> str:
    """One decision: where, who, what was played, what was best and what it cost."""
    from deepsix.io.notation import format_action

    how = "exact"
    if decision.method.value != "exact":
        # the cost measured again on more deals than the choices were ranked on
        again = f", cost on {decision.fresh}" if decision.fresh > decision.worlds else ""
        how = f"estimate, {decision.worlds} deals{again}, ±{2 * decision.margin:.0f}"
    return (
        f"  step {decision.step:>3}  {_where(decision):<12} {decision.seat.name.title():<5} "
        f"played {format_action(decision.played):<14} best {format_action(decision.best):<14} "
        f"cost {decision.cost:>5.1f}  ({how})"
    )


def hand_lines(
    hand: HandAnalysis, *, threshold: float = 10.0, every: bool = False
) -> Iterator[str]:
    """The lines ``deepsix analyze`` prints for one hand."""
    record = hand.record
    team = "NS" if record.bidder.team == 0 else "EW"
    yield ""
    yield (
        f"Hand {hand.number}: {record.bidder.name.title()} ({team}) bid {record.bid}, "
        f"{'made' if record.made else 'failed'}; NS {_number(record.scores[0])}, "
        f"EW {_number(record.scores[1])}"
    )
    exact = sum(1 for decision in hand.decisions if decision.method.value == "exact")
    note = f", {hand.skipped} skipped (time limit)" if hand.skipped else ""
    yield (
        f"  {len(hand.decisions)} decisions analysed ({exact} exact, "
        f"{len(hand.decisions) - exact} estimated), {hand.forced} forced{note}, "
        f"{hand.seconds:.1f} s"
    )
    by_seat = hand.cost_by_seat()
    yield "  cost by seat: " + ", ".join(
        f"{seat.name.title()} {by_seat[seat]:.0f}" for seat in Seat
    )
    if every:
        for decision in hand.decisions:
            yield decision_line(decision)
        return
    estimates = len(hand.decisions) - exact
    costly = hand.costly(threshold)
    yield (
        f"  costly moments (cost >= {threshold:g}, clear of the noise of "
        f"{estimates} estimate{'' if estimates == 1 else 's'} together): "
        + (str(len(costly)) if costly else "none")
    )
    for decision in costly:
        yield decision_line(decision)
    uncertain = hand.uncertain(threshold)
    if uncertain:
        yield (
            f"  uncertain (cost >= {threshold:g} on the deals sampled, within their noise): "
            f"{len(uncertain)}"
        )
        yield from (decision_line(decision) for decision in uncertain)
