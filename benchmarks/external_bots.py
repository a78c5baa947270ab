"""What the external bot protocol costs per decision: the same games played by an in-process
bot and by programs speaking ``deepsix-bot/1``.

Not a unit test: it plays a few seeded games with the timed seat held in turn by

* ``random`` in process (the floor: the referee's own loop),
* the C reference bot (``docs/examples/bots/refbot.c``, compiled here with ``cc``),
* the dozen-line Python bot (``docs/examples/bots/minimal.py``),
* ``deepsix bot random`` (a registered Python bot as a program: the library's wire format
  read back on the other side),

and prints the median and the 90th percentile of the time per decision, measured around
``choose`` (serialising the view, the pipe both ways, reading and checking the reply), with the
load average beside them.  Exits 0.

    python benchmarks/external_bots.py [--games 4]
"""

from __future__ import annotations

import argparse
import os
import random
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from deepsix import Action, PlayerView, play_game
from deepsix.arena import ExternalBot, program_command
from deepsix.play.bots import Bot, make_bot

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples" / "bots"


class Timed:
    """A bot, timed decision by decision."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.times: list[float] = []

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        start = time.perf_counter()
        action = self.bot.choose(view, rng)
        self.times.append(time.perf_counter() - start)
        return action


def measure(make: Callable[[], Bot], games: int) -> list[float]:
    """Per-decision times of the bot ``make()`` gives, at North, over ``games`` games."""
    times: list[float] = []
    for seed in range(games):
        bot = make()
        timed = Timed(bot)
        play_game([timed, "random", "random", "random"], seed=seed)
        if isinstance(bot, ExternalBot):
            bot.close()
            assert not bot.faults, bot.faults
        times.extend(timed.times)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per bot (default 4)")
    args = parser.parse_args()
    makers: dict[str, Callable[[], Bot]] = {"random, in process": lambda: make_bot("random")}
    folder = Path(tempfile.mkdtemp(prefix="deepsix-bench-"))
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler:
        refbot = folder / "refbot"
        subprocess.run([compiler, "-O2", "-o", str(refbot), str(EXAMPLES / "refbot.c")], check=True)
        makers["C reference bot"] = lambda: ExternalBot([str(refbot)])
    python = shlex.join([sys.executable, str(EXAMPLES / "minimal.py")])
    makers["dozen-line Python bot"] = lambda: ExternalBot(program_command(f"exec:{python}"))
    served = shlex.join([sys.executable, "-m", "deepsix.arena.serve", "random"])
    makers["deepsix bot random"] = lambda: ExternalBot(
        program_command(f"exec:{served}"), start_limit=60
    )
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    print(f"{'bot':<24} {'decisions':>9} {'median':>10} {'p90':>10}")
    for name, make in makers.items():
        times = measure(make, args.games)
        median = statistics.median(times) * 1000
        p90 = statistics.quantiles(times, n=10)[-1] * 1000
        print(f"{name:<24} {len(times):>9} {median:>8.2f}ms {p90:>8.2f}ms")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
