"""``deepsix simulate``: many seeded games between bots, with a progress bar and a summary."""

from __future__ import annotations

import argparse
import contextlib
import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from deepsix.cli.shared import (
    UsageError,
    add_where_to_run,
    bot_help,
    bot_lineup,
    local_workers,
    output_file,
)
from deepsix.cli.terminal import Terminal
from deepsix.cli.text import Table, Text
from deepsix.display import plural
from deepsix.errors import missing_extra
from deepsix.melds import MeldKind
from deepsix.play.simulate import (
    SideSummary,
    SimulationResult,
    default_workers,
    simulate,
    write_csv,
    write_jsonl,
)

if TYPE_CHECKING:
    import concurrent.futures

__all__ = ["DESCRIPTION", "HELP", "add_arguments", "dask_executor", "run"]

HELP = "play many seeded games between bots; print a summary"
DESCRIPTION = (
    "Play many seeded games between two sides of bots and print a summary: per side the "
    "games won, the win rate and its 95% Wilson interval, the average hand score and meld, "
    "the auctions won, the average contract and how often bids were made; the average game "
    "length; how often each meld was declared. By default odd games repeat the previous "
    "game's deals with the sides' seats swapped. Results are the same for the same seed "
    "whatever the number of workers or the executor."
)


def add_arguments(sim: argparse.ArgumentParser) -> None:
    """The ``simulate`` subcommand's arguments."""
    sim.add_argument("-n", "--games", type=int, default=1000, help="games to play (default 1000)")
    sim.add_argument(
        "--bots", nargs="+", metavar="BOT",
        help=bot_help() + " (default: heuristic random)",
    )  # fmt: skip
    sim.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    add_where_to_run(sim)
    output = sim.add_mutually_exclusive_group()
    output.add_argument("--csv", metavar="FILE", help="write one row per hand as CSV")
    output.add_argument("--jsonl", metavar="FILE", help="write one JSON object per hand")
    sim.add_argument(
        "--fixed-seats", action="store_true",
        help="do not alternate the sides' seats between paired games",
    )  # fmt: skip
    sim.add_argument("--no-progress", action="store_true", help="no progress bar")


def run(args: argparse.Namespace, terminal: Terminal) -> int:
    """Many games with a progress bar, then the summary."""
    if args.games < 1:
        raise UsageError(f"-n {args.games}: play at least one game")
    if args.workers is not None and args.workers < 1:
        raise UsageError("--workers must be at least 1")
    names = list(bot_lineup("--bots", args.bots or ["heuristic", "random"]))
    csv_file = output_file("--csv", args.csv)
    jsonl_file = output_file("--jsonl", args.jsonl)
    if args.scheduler:
        _distributed()
    workers: int | None = args.workers
    with contextlib.ExitStack() as stack:
        executor: concurrent.futures.Executor | None = None
        where = local_workers(workers)
        if args.scheduler:
            executor, where = dask_executor(stack, args.scheduler, workers)
        with terminal.progress("simulating", args.games, show=not args.no_progress) as update:

            def advance(done: int, total: int) -> None:
                update(done)

            result: SimulationResult = simulate(
                args.games,
                names,
                args.seed,
                executor=executor,
                workers=workers,
                alternate=not args.fixed_seats,
                progress=advance,
            )
    _print_summary(terminal, result, where)
    if csv_file is not None:
        rows = write_csv(result, csv_file)
        terminal.print(f"Wrote {rows} hands to {args.csv}")
    if jsonl_file is not None:
        rows = write_jsonl(result, jsonl_file)
        terminal.print(f"Wrote {rows} hands to {args.jsonl}")
    return 0


def _distributed(feature: str = "deepsix simulate --scheduler") -> Any:
    """Dask's ``distributed`` (the ``distributed`` extra)."""
    try:
        return importlib.import_module("distributed")
    except ImportError as error:
        raise missing_extra(feature, "distributed", error) from None


def dask_executor(
    stack: contextlib.ExitStack,
    address: str,
    workers: int | None,
    feature: str = "deepsix simulate --scheduler",
) -> tuple[concurrent.futures.Executor, str]:
    """A Dask client's executor: on the scheduler at ``address``, or on a new local cluster.

    Shared by the subcommands that take ``--scheduler`` (``simulate``, ``match``);
    ``feature`` names the option in the message when Dask is not installed.
    """
    distributed = _distributed(feature)
    if address == "local":
        count = workers or default_workers()
        cluster = stack.enter_context(
            distributed.LocalCluster(
                n_workers=count, threads_per_worker=1, processes=True, dashboard_address=None
            )
        )
        client = stack.enter_context(distributed.Client(cluster))
        where = f"a local Dask cluster of {count} workers"
    else:
        client = stack.enter_context(distributed.Client(address, timeout=10))
        where = f"the Dask scheduler at {address}"
    executor: concurrent.futures.Executor = client.get_executor()
    return executor, where


def _print_summary(terminal: Terminal, result: SimulationResult, where: str) -> None:
    """The simulation's summary: a table per side, game length, meld frequency."""
    summary = result.summary()
    seats = "alternated" if result.alternate else "fixed"
    terminal.print(
        Text(
            f"{plural(summary.games, 'game')}, seed {result.seed}, seats {seats}, on {where}: "
            f"{result.elapsed:.1f} s ({summary.games_per_second:.1f} games/s)",
            style="bold",
        )
    )
    table = Table("Results by side")
    table.add_column("")
    for side in summary.sides:
        table.add_column(side.label, justify="right")
    rows: list[tuple[str, Callable[[SideSummary], str]]] = [
        ("games won", lambda side: str(side.wins)),
        ("win rate", lambda side: f"{side.win_rate:.1%}"),
        ("95% interval", lambda side: f"{side.win_interval[0]:.1%} - {side.win_interval[1]:.1%}"),
        ("avg hand score", lambda side: f"{side.mean_hand_score:.1f}"),
        ("avg meld per hand", lambda side: f"{side.mean_meld:.1f}"),
        ("auctions won", lambda side: str(side.bids_won)),
        ("avg contract", lambda side: f"{side.mean_bid:.1f}" if side.bids_won else "-"),
        ("bids made", lambda side: f"{side.made_rate:.1%}" if side.bids_won else "-"),
        ("bids failed", lambda side: f"{side.failed_rate:.1%}" if side.bids_won else "-"),
    ]
    for label, cell in rows:
        table.add_row(label, *(cell(side) for side in summary.sides))
    terminal.print(table)
    terminal.print(
        f"Average game: {summary.mean_hands:.2f} hands, {summary.mean_actions:.0f} actions"
        + (f"; {summary.unfinished} unfinished" if summary.unfinished else "")
    )
    melds = Table("Meld frequency (declared per 100 hands, all seats)")
    melds.add_column("meld")
    melds.add_column("per 100 hands", justify="right")
    for kind in MeldKind:
        melds.add_row(
            f"{kind.label} ({kind.code}, {kind.points})", f"{100 * summary.meld_rate(kind):.1f}"
        )
    terminal.print(melds)
