"""Bots as programs, and matches between bots.

* :mod:`deepsix.arena.protocol` -- ``deepsix-bot/1``, the JSON-lines protocol a bot
  program speaks, in any language.
* :mod:`deepsix.arena.external` -- :class:`~deepsix.arena.external.ExternalBot`, which runs
  such a program as a bot, with time limits, refusals and a fallback.
* :mod:`deepsix.arena.serve` -- any Python bot as such a program (``deepsix bot NAME``).
* :mod:`deepsix.arena.match` -- duplicate matches between two sides, and a pool's ratings
  (``deepsix match``).
"""

from __future__ import annotations

from deepsix.arena.external import ExternalBot, program_command
from deepsix.arena.protocol import PROTOCOL, Fault, FaultKind

__all__ = ["PROTOCOL", "ExternalBot", "Fault", "FaultKind", "program_command"]
