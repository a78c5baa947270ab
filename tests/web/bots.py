"""Bots that misbehave, for the server's tests (registered with ``deepsix serve --bot``)."""

from __future__ import annotations

import os
import random
import sys
import time

from deepsix import Action, PlayerView, RandomBot


class SleepyBot(RandomBot):
    """Thinks for ``DEEPSIX_TEST_SLEEP`` seconds (20 by default) before each move."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        time.sleep(float(os.environ.get("DEEPSIX_TEST_SLEEP", "20")))
        return super().choose(view, rng)


class FailingBot(RandomBot):
    """Raises on every move of the auction, as a buggy plug-in would."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        if view.phase.value == "bidding":
            raise RuntimeError("the plug-in is broken")
        return super().choose(view, rng)


class ChattyBot(RandomBot):
    """Prints a line to its standard output and one to its standard error at every move, then
    thinks for ``DEEPSIX_TEST_SLEEP`` seconds (none by default), as a plug-in might."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        print(f"chatty thinks about its move in {view.phase.value}")
        print('chatty warns: a line with a } and a " in it', file=sys.stderr, flush=True)
        time.sleep(float(os.environ.get("DEEPSIX_TEST_SLEEP", "0")))
        return super().choose(view, rng)
