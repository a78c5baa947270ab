"""The per-table hint: a seated player asks what the quick search bot would do in her place.

A table made with ``"hint": true`` (off by default) lets each seated player
ask, on her turn, for the choice of :data:`HINT_BOT` (``SearchBot.quick()``,
the budget meant for live tables) -- ``GET /api/tables/{id}/hint`` with the
seat's credential.  The bot sees exactly the seat's own view, so a hint
shows nothing the player could not see, and it thinks in the server's bot
pool like any bot at the table, under :data:`HINT_LIMIT`, never in the
event loop.  Its random stream is its own (seeded by the table and the
move), so asking for a hint changes nothing in the game.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Final

from deepsix.cards import Seat
from deepsix.io.notation import format_action
from deepsix.io.wire import to_wire
from deepsix.play.bots import BOT_NAMES
from deepsix.views import view
from deepsix.web.botpool import BotFailure
from deepsix.web.protocol import WebError

if TYPE_CHECKING:
    from deepsix.web.rooms import Room

__all__ = ["HINT_BOT", "HINT_LIMIT", "hint"]

HINT_BOT: Final = "search-quick"
"""The bot whose choice a hint shows (the heuristic where the search bot is not installed)."""
HINT_LIMIT: Final = 10.0
"""Seconds a hint may take."""


async def hint(room: Room, seat: Seat | None) -> dict[str, Any]:
    """The hint bot's choice for ``seat`` at ``room``, as ``{"seq", "bot", "action", "text"}``.

    Refused unless the table allows hints (403), the asker holds a seat (403) and it is her
    turn (409); a bot that fails or overruns is a 503.
    """
    if not room.hint:
        raise WebError("no-hints", "this table was made without hints", 403)
    if seat is None:
        raise WebError("forbidden", "only a seated player may ask for a hint", 403)
    state = room.state
    if state.to_act is not seat or not state.legal_actions():
        raise WebError("not-your-turn", "a hint is for your own turn", 409)
    seq = room.seq
    name = HINT_BOT if HINT_BOT in BOT_NAMES else "heuristic"
    stream = random.Random(f"deepsix-hint:{room.id}:{seq}")
    try:
        action, _ = await room.services.pool.choose(name, view(state, seat), stream, HINT_LIMIT)
    except BotFailure as error:
        raise WebError("hint-failed", f"the {name} bot {error.kind}: no hint", 503) from None
    return {"seq": seq, "bot": name, "action": to_wire(action), "text": format_action(action)}
