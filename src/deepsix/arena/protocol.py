"""The external bot protocol, ``deepsix-bot/1``: JSON lines between a referee and a bot.

A bot is any program that reads one JSON object per line on its standard
input and writes one per line on its standard output.  The referee (the
library, playing the game) speaks first:

======================  ==============================================================
referee → bot           bot → referee
======================  ==============================================================
``hello``               ``ready`` (the same ``protocol``), within the start-up limit
``decide`` (``id`` n)   ``action`` (``id`` n), within ``time_limit`` seconds
``refused`` (``id`` n)  another ``action`` for decision n (same deadline), if tries remain
``fallback`` (``id``)   -- (the referee played ``action`` for the bot; it goes on)
``quit``                -- (exit; the referee closes the pipes)
======================  ==============================================================

Every message is an object with a ``"type"``.  Views, actions and rules
are in the library's wire format (:mod:`deepsix.io.wire`): a view is what
``deepsix.io.wire.to_wire(view)`` gives, an action is an object such as
``{"type": "PlayCard", "seat": "S", "card": "7S"}`` (or its notation,
``"S:7S"``).  The simplest correct bot echoes one element of
``decide.legal`` back as its ``action``.

A reply that is not JSON, not an ``action`` for the decision asked, or an
illegal action is *refused*: the bot is told why (the rule an illegal
action breaks) and may try again until its tries or its time run out; the
referee then plays a *fallback* bot's action for that decision and tells
the bot which.  A reply to an earlier decision (a late one) is dropped.  A
bot that exits, closes its output, or fails the handshake is *dead*: the
fallback bot plays the rest of the game for it.  Every such event is
recorded as a :class:`Fault`.
"""

from __future__ import annotations

import enum
import json
from typing import Any, Final

import attrs

from deepsix.actions import Action
from deepsix.errors import SerializationError

__all__ = [
    "MAX_REPLY_CHARS",
    "PROTOCOL",
    "Fault",
    "FaultKind",
    "decode",
    "encode",
]

PROTOCOL: Final = "deepsix-bot/1"
"""The protocol's name and version, exchanged in ``hello`` and ``ready``."""

MAX_REPLY_CHARS: Final = 64 * 1024
"""The longest line a bot may write; a longer one is refused unread (an action needs < 100)."""


class FaultKind(enum.Enum):
    """What went wrong with an external bot."""

    HANDSHAKE = "handshake"
    """No ``ready`` in time, or a ``ready`` for another protocol: the bot is dead."""
    GARBAGE = "garbage"
    """A reply that is not JSON, not an object, or not an ``action`` for this decision."""
    ILLEGAL = "illegal"
    """An action the rules do not allow here (the reply names the rule)."""
    LATE = "late"
    """No legal action within the time limit: the fallback decided."""
    CRASHED = "crashed"
    """The program exited or closed its output: the fallback plays on."""


@attrs.frozen
class Fault:
    """One thing an external bot did wrong, and what the referee did about it."""

    kind: FaultKind
    """What went wrong."""
    decision: int
    """The decision's ``id`` (0 for the handshake)."""
    detail: str
    """What the referee saw and said, in words."""

    def __str__(self) -> str:
        return f"{self.kind.value} at decision {self.decision}: {self.detail}"


def encode(message: dict[str, Any]) -> bytes:
    """One message as a line of JSON (compact, ASCII, ``\\n``-terminated)."""
    return (json.dumps(message, separators=(",", ":"), ensure_ascii=True) + "\n").encode()


def decode(line: bytes | str) -> dict[str, Any]:
    """One message read from a line; :class:`~deepsix.SerializationError` says why not."""
    text = line.decode("utf-8", errors="replace") if isinstance(line, bytes) else line
    text = text.strip()
    if len(text) > MAX_REPLY_CHARS:
        raise SerializationError(f"a line of {len(text)} characters, over {MAX_REPLY_CHARS}")
    if not text:
        raise SerializationError("an empty line")
    try:
        message = json.loads(text, parse_constant=_refuse_constant)
    except (ValueError, RecursionError) as error:
        shown = text if len(text) <= 80 else text[:77] + "..."
        raise SerializationError(f"not JSON ({error}): {shown!r}") from None
    if not isinstance(message, dict):
        raise SerializationError(f"a message is a JSON object, not {type(message).__name__}")
    kind = message.get("type")
    if not isinstance(kind, str):
        raise SerializationError('a message needs a "type" (a string)')
    return message


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def action_message(action: Action) -> Any:
    """An action in wire form (for ``fallback`` and for bots written with this library)."""
    from deepsix.io.wire import to_wire

    return to_wire(action)
