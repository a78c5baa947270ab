"""Table chat: plain text, limited in length and rate, stored with the game, pushed to the table.

A line is cleaned (control and format characters become spaces, runs of
space fold), refused when empty, longer than
``MAX_CHAT_CHARS`` (by the protocol) or beyond a
seat's allowance (:data:`CHAT_BURST` at once, :data:`CHAT_RATE` a second
after that), stored, then pushed.  It stays plain text: a client must
show it as text, never as markup.
"""

from __future__ import annotations

import time
import unicodedata
from typing import Final

from deepsix.cards import Seat
from deepsix.web import protocol as p
from deepsix.web.limits import Bucket
from deepsix.web.protocol import WebError
from deepsix.web.rooms import Room
from deepsix.web.slots import letter
from deepsix.web.store import ChatRow

__all__ = ["CHAT_BURST", "CHAT_HISTORY", "CHAT_RATE", "chat_history", "say"]

CHAT_BURST: Final = 5
"""Chat lines a seat may send at once ..."""
CHAT_RATE: Final = 0.5
"""... and per second after that."""
CHAT_HISTORY: Final = 50
"""The chat lines a new connection is sent."""


# -----------------------------------------------------------------------------------


async def say(room: Room, seat: Seat, text: str) -> None:
    """A line of chat from ``seat``: cleaned, limited, stored, pushed."""
    line = clean(text)
    if not line:
        raise WebError("bad-message", "an empty chat line")
    if not room.chat_limits.setdefault(seat, Bucket(CHAT_RATE, CHAT_BURST)).take():
        raise WebError("chat-limit", f"at most {CHAT_BURST} lines at once: wait a little")
    row = ChatRow(letter(seat), room.seats[seat].name, line, round(time.time(), 3), room.seq)
    try:
        await room.services.store.add_chat(room.id, row)
    except Exception as error:
        room.runner.storage_failed(error)
        raise WebError("storage", "the line could not be stored: try again") from None
    room.runner.storage_back()
    text_frame = p.encode(p.ChatFrame((_chat_line(row),)))
    for subscriber in list(room.subscribers):
        subscriber.push(text_frame)


async def chat_history(room: Room) -> str:
    """The latest chat lines, as one frame."""
    rows = await room.services.store.chat(room.id, CHAT_HISTORY)
    return p.encode(p.ChatFrame(tuple(_chat_line(row) for row in rows)))


def _chat_line(row: ChatRow) -> p.ChatLine:
    return p.ChatLine(row.seat, row.name, row.text, row.at, row.seq)


def clean(text: str) -> str:
    """One line of printable text: control and format characters become spaces."""
    kept = "".join(
        " " if unicodedata.category(char)[0] in "CZ" and char != " " else char for char in text
    )
    return " ".join(kept.split())[: p.MAX_CHAT_CHARS]
