"""``deepsix match``: a duplicate match between two bots, or every pair of a pool, rated."""

from __future__ import annotations

import argparse
import contextlib
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from deepsix.cli.shared import (
    EXIT_INTERRUPTED,
    CommandFailed,
    UsageError,
    add_where_to_run,
    local_workers,
    output_file,
)
from deepsix.cli.terminal import Terminal
from deepsix.cli.text import Text
from deepsix.errors import ParseError

if TYPE_CHECKING:
    import concurrent.futures

    from deepsix.arena.match import MatchConfig, MatchResult, PoolResult

__all__ = ["DESCRIPTION", "HELP", "add_arguments", "run"]

HELP = "a duplicate match between two bots (or a pool, rated); resumable"
DESCRIPTION = (
    "Play a duplicate match between two bots: each seeded deal is played twice, the sides' "
    "seats swapped, so both sides hold the same cards. A bot is a registered name or a "
    "program that speaks the external bot protocol (./mybot, exec:node bot.js). Every game's "
    "record is written to the match directory as it ends, and running the same command again "
    "resumes a stopped match. The report gives the mean difference per hand with a 95% "
    "interval, whole-game wins with a Wilson interval and the Elo difference, faults and "
    "fallback decisions of program bots, and time per decision. With --pool, every pair of "
    "the bots plays such a match and the pool is rated on the Elo scale."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``match`` subcommand's arguments."""
    parser.add_argument(
        "bots", nargs="+", metavar="BOT",
        help="side A and side B (with --pool: two or more bots); a registered bot's name or a "
        "program (a path such as ./mybot, or exec:COMMAND)",
    )  # fmt: skip
    parser.add_argument("--deals", type=int, default=100, help="duplicate deals (default 100)")
    seeds = parser.add_mutually_exclusive_group()
    seeds.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    seeds.add_argument(
        "--seeds", metavar="FILE",
        help="seeds registered in advance: a file of integers, one per deal",
    )  # fmt: skip
    parser.add_argument(
        "--out", metavar="DIR",
        help="the match directory: records, games.jsonl, report.md (default: "
        "deepsix-match-A-vs-B, or deepsix-pool); the same directory resumes the match",
    )  # fmt: skip
    parser.add_argument("--report", metavar="FILE", help="also write the report (Markdown) here")
    parser.add_argument(
        "--pool", action="store_true", help="match every pair of the bots and rate them all"
    )
    parser.add_argument(
        "--anchor", metavar="BOT", help="with --pool: the bot rated 0 (default: random, if in "
        "the pool, else the first)",
    )  # fmt: skip
    parser.add_argument(
        "--time-limit", type=float, default=5.0, metavar="SECONDS",
        help="seconds a program bot has per decision (default %(default)s)",
    )  # fmt: skip
    parser.add_argument(
        "--fallback", default="random", metavar="BOT",
        help="the bot that decides when a program cannot, and plays on for a dead one "
        "(default %(default)s)",
    )  # fmt: skip
    parser.add_argument(
        "--bot-logs", action="store_true",
        help="write each program bot's standard error to DIR/logs/, one file per game and seat",
    )  # fmt: skip
    add_where_to_run(parser, workers_note="; program bots must exist on the workers")
    parser.add_argument(
        "--plot", metavar="FILE",
        help="also draw the per-deal differences (with --pool: the ratings) to FILE (.png, "
        ".svg, .pdf; the plot extra)",
    )  # fmt: skip
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def _config(args: argparse.Namespace) -> MatchConfig:
    from deepsix.arena.match import MatchConfig

    if args.deals < 1:
        raise UsageError(f"--deals {args.deals}: play at least one deal")
    if not args.time_limit > 0:
        raise UsageError(f"--time-limit {args.time_limit}: must be positive")
    if args.workers is not None and args.workers < 1:
        raise UsageError(f"--workers {args.workers}: must be at least 1")
    seeds: tuple[int, ...] = ()
    if args.seeds is not None:
        try:
            seeds = tuple(int(word) for word in Path(args.seeds).read_text().split())
        except OSError as error:
            raise UsageError(f"--seeds {args.seeds}: {error.strerror or error}") from None
        except ValueError:
            raise UsageError(f"--seeds {args.seeds}: not a list of integers") from None
    if args.pool:
        if len(args.bots) < 2:
            raise UsageError("BOT: a pool needs two or more bots")
        sides = (args.bots[0], args.bots[1])
    elif len(args.bots) != 2:
        raise UsageError(f"BOT: a match is between two bots, not {len(args.bots)} (or use --pool)")
    else:
        sides = (args.bots[0], args.bots[1])
    try:
        return MatchConfig(
            sides, deals=args.deals, seed=args.seed, seeds=seeds, time_limit=args.time_limit,
            fallback=args.fallback,
        )  # fmt: skip
    except ParseError as error:
        raise UsageError(f"BOT: {error}") from None


def _command(args: argparse.Namespace) -> str:
    """The command line that gives this match (its defining options only)."""
    words = ["deepsix", "match", *args.bots]
    if args.pool:
        words.append("--pool")
    words += ["--deals", str(args.deals)]
    words += ["--seeds", args.seeds] if args.seeds is not None else ["--seed", str(args.seed)]
    if any(bot.startswith("exec:") or "/" in bot for bot in args.bots):
        words += ["--time-limit", f"{args.time_limit:g}", "--fallback", args.fallback]
    return shlex.join(words)


def run(args: argparse.Namespace, terminal: Terminal) -> int:
    """Play (or resume) the match or the pool; print and write the report."""
    from deepsix.arena.match import folder_name

    config = _config(args)
    report_file = output_file("--report", args.report)
    plot_file = output_file("--plot", args.plot)
    out = (
        Path(args.out)
        if args.out
        else Path("deepsix-pool" if args.pool else f"deepsix-match-{folder_name(*config.sides)}")
    )
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out}: is a file, not a directory")
    command = _command(args)
    total = 2 * config.deals * (len(args.bots) * (len(args.bots) - 1) // 2 if args.pool else 1)
    with contextlib.ExitStack() as stack:
        executor: concurrent.futures.Executor | None = None
        where = local_workers(args.workers)
        if args.scheduler:
            from deepsix.cli.simulate import dask_executor

            executor, where = dask_executor(
                stack, args.scheduler, args.workers, "deepsix match --scheduler"
            )
        try:
            with terminal.progress("playing", total, show=not args.no_progress) as update:
                markdown, played = _play(args, config, out, executor, lambda done, _: update(done))
        except KeyboardInterrupt:  # one line says it all (no "interrupted" after it)
            terminal.error(f"stopped: the finished deals are in {out}; run the same command to "
                           "resume")  # fmt: skip
            return EXIT_INTERRUPTED
    terminal.print(Text(f"{command}  ({where})", style="bold"))
    terminal.markdown(markdown)
    (out / "report.md").write_text(markdown, encoding="utf-8")
    if report_file is not None:
        report_file.write_text(markdown, encoding="utf-8")
    if plot_file is not None:
        from deepsix import plot
        from deepsix.arena import match as arena

        drawn = (
            plot.match_differences(played)
            if isinstance(played, arena.MatchResult)
            else plot.pool_ratings(played)
        )
        drawn.savefig(plot_file)
        terminal.print(f"Wrote {args.plot}")
    terminal.print(Text(f"Records and report in {out}/", style="dim"))
    return 0


def _play(
    args: argparse.Namespace,
    config: MatchConfig,
    out: Path,
    executor: concurrent.futures.Executor | None,
    progress: Callable[[int, int], None],
) -> tuple[str, MatchResult | PoolResult]:
    from deepsix.arena.match import (
        MatchError,
        pool_markdown,
        report_markdown,
        run_match,
        run_pool,
    )

    command = _command(args)
    try:
        if args.pool:
            pool: PoolResult = run_pool(
                args.bots, config, out, anchor=args.anchor, workers=args.workers,
                executor=executor, progress=progress, logs=args.bot_logs,
            )  # fmt: skip
            parts = [pool_markdown(pool, command=command)]
            parts += [report_markdown(match) for match in pool.matches]
            return "\n".join(parts), pool
        result: MatchResult = run_match(
            config, out, workers=args.workers, executor=executor,
            progress=progress, logs=out / "logs" if args.bot_logs else None,
        )  # fmt: skip
    except MatchError as error:
        raise CommandFailed(str(error)) from None
    except ParseError as error:
        raise UsageError(str(error)) from None
    return report_markdown(result, command=command), result
