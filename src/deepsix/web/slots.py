"""A table's four seats as the server names them: letters, bots by name, and each seat's slot.

(:mod:`deepsix.web.rooms` re-exports these names.)
"""

from __future__ import annotations

from typing import Final, Literal

import attrs

from deepsix.cards import Seat
from deepsix.play.bots import BOT_NAMES
from deepsix.web.credentials import SEAT_LETTERS
from deepsix.web.protocol import WebError
from deepsix.web.store import SeatRow

__all__ = ["SeatSlot", "bot_names", "check_bot", "letter", "seat_of"]

_SEAT_BY_LETTER: Final = {letter: Seat(index) for index, letter in enumerate(SEAT_LETTERS)}


def bot_names() -> tuple[str, ...]:
    """The bots a seat can be given, by name: the library's registry, read when asked."""
    return tuple(BOT_NAMES)


def check_bot(name: object) -> str:
    """A known bot's name; ``WebError`` ``unknown-bot`` otherwise."""
    if type(name) is not str or name.strip().lower() not in BOT_NAMES:
        known = ", ".join(bot_names())
        raise WebError("unknown-bot", f"unknown bot {str(name)[:30]!r}: choose from {known}")
    return name.strip().lower()


def seat_of(value: object) -> Seat:
    """The seat named ``N``, ``E``, ``S`` or ``W``."""
    if type(value) is not str or value not in _SEAT_BY_LETTER:
        raise WebError("bad-seat", f"expected a seat N, E, S or W, not {str(value)[:10]!r}")
    return _SEAT_BY_LETTER[value]


def letter(seat: Seat) -> str:
    """A seat's letter."""
    return SEAT_LETTERS[seat]


@attrs.define
class SeatSlot:
    """One seat of a room."""

    kind: Literal["open", "human", "bot"]
    bot: str | None = None
    name: str = ""
    credential: str | None = None

    def row(self) -> SeatRow:
        return SeatRow(self.kind, self.bot, self.name, self.credential)
