"""Bots that misbehave, for the server's tests (registered with ``deepsix serve --bot``)."""

from __future__ import annotations

import os
import random
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
