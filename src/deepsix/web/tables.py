"""Tables: the games a server runs, their seats, tokens, bots and pushes.

This module knows nothing of HTTP: :class:`Lobby` holds the tables, checks
every move against the token's seat and the rules, stores it
(:class:`~deepsix.web.store.Store`) and pushes each subscriber its own
view.  :mod:`deepsix.web.app` puts it behind Starlette routes and a
WebSocket.

A table has four seats; each is *open* (waiting for a player), *human*
(claimed: whoever holds its token plays it) or a *bot* (played by the
server, by name from the bot registry).  The game starts when no seat is
open -- or when a seated player asks to fill the open seats with bots.

Every frame pushed to a connection is built for that connection's seat
alone: ``deepsix.view(state, seat)`` (the public view for a spectator)
and the public events of the step (:func:`deepsix.events.events`).  No
other part of the state is ever written to a socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import random
import secrets
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final, Protocol

import attrs

import deepsix
from deepsix.actions import Action, Deal
from deepsix.cards import Seat
from deepsix.engine import apply, new_game, shuffled_deal
from deepsix.errors import DeepSixError
from deepsix.events import Event, events
from deepsix.io.wire import action_from_wire, dumps
from deepsix.melds import ALL_MELDS
from deepsix.rules import Rules
from deepsix.state import GameState
from deepsix.tricks import trick_winner
from deepsix.views import view
from deepsix.web.store import Store, TableRow, seats_json

__all__ = [
    "SEAT_LETTERS",
    "Lobby",
    "SeatSlot",
    "Subscriber",
    "Table",
    "WebError",
    "bot_names",
]

_log = logging.getLogger("deepsix.web")

SEAT_LETTERS: Final = "NESW"
_SEAT_BY_LETTER: Final = {letter: Seat(index) for index, letter in enumerate(SEAT_LETTERS)}
MAX_NAME: Final = 24
MAX_TABLES: Final = 10_000


class WebError(DeepSixError):
    """A request the server refuses; ``code`` is machine-readable, ``status`` the HTTP status."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


def bot_names() -> tuple[str, ...]:
    """The bots a table can seat, by name: the library's bot registry, read when asked.

    A bot registered later (a stronger search bot, say) appears here without
    a change to the server.
    """
    return tuple(_registry())


def _registry() -> Mapping[str, Callable[[], deepsix.Bot]]:
    from deepsix.play import bots  # the registry is not part of the top-level API

    return bots.BOT_NAMES


def _make_bot(name: str) -> deepsix.Bot:
    factory = _registry().get(name)
    if factory is None:
        raise WebError("unknown-bot", f"unknown bot {name!r}: choose from {', '.join(bot_names())}")
    return factory()


def seat_of(letter: object) -> Seat:
    """The seat named by ``"N"``, ``"E"``, ``"S"`` or ``"W"``."""
    if type(letter) is not str or letter not in _SEAT_BY_LETTER:
        raise WebError("bad-seat", f"expected a seat N, E, S or W, not {str(letter)[:10]!r}")
    return _SEAT_BY_LETTER[letter]


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def _clean_name(name: object, default: str) -> str:
    if name is None or name == "":
        return default
    if type(name) is not str:
        raise WebError("bad-name", "a player's name must be text")
    text = " ".join(name.split())[:MAX_NAME]
    if not text.isprintable():
        raise WebError("bad-name", "a player's name must be printable text")
    return text or default


@attrs.define
class SeatSlot:
    """One seat of a table."""

    kind: str
    """``"open"``, ``"human"`` or ``"bot"``."""
    bot: str | None = None
    """The bot's registry name, for a bot seat."""
    name: str = ""
    """The player's display name."""
    token_hash: str | None = None
    """SHA-256 of the seat's token, for a human seat."""

    def stored(self) -> dict[str, object]:
        return {"kind": self.kind, "bot": self.bot, "name": self.name, "token": self.token_hash}


class Subscriber(Protocol):
    """A connection that receives a table's pushes (a WebSocket, or a test's recorder)."""

    seat: Seat | None

    def push(self, text: str) -> None:
        """Queue one frame; must not block."""


@attrs.define(eq=False)
class Table:
    """One table: its seats, its game and the connections watching it."""

    id: str
    rules: Rules
    seed: str
    seats: list[SeatSlot]
    state: GameState
    created: float
    started: bool = False
    subscribers: set[Subscriber] = attrs.field(factory=set)
    bots: dict[Seat, deepsix.Bot] = attrs.field(factory=dict)
    lock: asyncio.Lock = attrs.field(factory=asyncio.Lock)
    runner: asyncio.Task[None] | None = None

    @property
    def seq(self) -> int:
        """How many actions the game has had (deals included): the version of its state."""
        log = self.state.log  # its length is stored: no tuple of the history is built
        return 0 if log is None else len(log)

    def info(self) -> dict[str, object]:
        """The table's public description (no token, no seed)."""
        online = {sub.seat for sub in self.subscribers}
        return {
            "id": self.id,
            "started": self.started,
            "seq": self.seq,
            "phase": self.state.phase.value,
            "hand_number": self.state.hand_number,
            "scores": list(self.state.scores),
            "seats": [
                {
                    "seat": SEAT_LETTERS[index],
                    "kind": slot.kind,
                    "bot": slot.bot,
                    "name": slot.name,
                    "online": slot.kind == "bot" or Seat(index) in online,
                }
                for index, slot in enumerate(self.seats)
            ],
            "spectators": sum(1 for sub in self.subscribers if sub.seat is None),
        }

    def frame(self, seat: Seat | None, found: Iterable[Event] = ()) -> str:
        """The frame for one seat (``None``: a spectator): its view and the step's events."""
        return self.frames(found)(seat)

    def frames(self, found: Iterable[Event] = ()) -> Callable[[Seat | None], str]:
        """The frames of one moment, by seat: what all seats share is encoded once."""
        state = self.state
        # The seat winning the trick in progress, by the library's rule (R-PLAY-4 to 6), so
        # that no client reimplements it: public, like the trick itself.
        winning = "null"
        if state.trick:
            winning = f'"{SEAT_LETTERS[trick_winner(state.trick, state.sunk_suit)]}"'
        shared = (
            f'{{"op":"update","seq":{self.seq},"table":{json.dumps(self.info())},'
            f'"winning":{winning},'
            f'"events":[{",".join(dumps(event) for event in found)}],"view":'
        )
        return lambda seat: f"{shared}{dumps(view(state, seat))}}}"


class Lobby:
    """Every table of a server, backed by a :class:`~deepsix.web.store.Store`.

    ``bot_delay`` (seconds) paces the bots so that people can follow them;
    ``hand_pause`` is the pause before the next deal, to look at a finished
    hand.  Both are 0 in tests.
    """

    def __init__(self, store: Store, *, bot_delay: float = 0.0, hand_pause: float = 0.0) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.hand_pause = hand_pause
        self.tables: dict[str, Table] = {}

    # -- loading ---------------------------------------------------------------------------

    def load(self) -> int:
        """Rebuild every stored table (replaying its actions); returns how many."""
        for row in self.store.tables():
            self.tables[row.id] = self._rebuild(row)
        return len(self.tables)

    def _rebuild(self, row: TableRow) -> Table:
        rules = deepsix.from_json(row.rules, Rules)
        seats = [
            SeatSlot(
                kind=str(slot["kind"]),
                bot=slot.get("bot"),
                name=str(slot.get("name") or ""),
                token_hash=slot.get("token"),
            )
            for slot in json.loads(row.seats)
        ]
        state = new_game(rules, seat_of(row.dealer))
        for text in self.store.actions(row.id):
            state = apply(state, action_from_wire(json.loads(text)))
        table = Table(row.id, rules, row.seed, seats, state, row.created, row.started)
        for index, slot in enumerate(seats):
            if slot.kind == "bot" and slot.bot is not None:
                table.bots[Seat(index)] = _make_bot(slot.bot)
        return table

    def resume(self) -> None:
        """Start the bots (and deals) of every table that is waiting for them."""
        for table in self.tables.values():
            self._wake(table)

    # -- tables and seats ------------------------------------------------------------------

    def table(self, table_id: object) -> Table:
        """The table with this id."""
        table = self.tables.get(table_id) if type(table_id) is str else None
        if table is None:
            raise WebError("no-such-table", f"no table {str(table_id)[:40]!r}", 404)
        return table

    def create(
        self,
        seats: Mapping[str, object],
        *,
        me: str | None = None,
        name: object = None,
        seed: object = None,
        rules: Rules | None = None,
    ) -> tuple[Table, str | None]:
        """A new table; returns it and the creator's token (if ``me`` names a seat).

        ``seats`` maps seat letters to ``"open"`` or a bot's name; seats not
        given are open, as is ``me`` (which the creator then takes).
        """
        if len(self.tables) >= MAX_TABLES:
            raise WebError("full", "this server has no room for another table", 503)
        slots = [SeatSlot("open") for _ in SEAT_LETTERS]
        for letter, what in seats.items():
            seat = seat_of(letter)
            if what == "open" or what is None:
                continue
            if type(what) is not str:
                raise WebError("unknown-bot", "a seat is 'open' or a bot's name")
            bot = what.strip().lower()
            _make_bot(bot)
            slots[seat] = SeatSlot("bot", bot=bot, name=SEAT_NAMES[seat])
        token = None
        if me is not None:
            seat = seat_of(me)
            if slots[seat].kind != "open":
                raise WebError("bad-seat", f"seat {me} is given to a bot")
            token = secrets.token_urlsafe(24)
            slots[seat] = SeatSlot(
                "human", name=_clean_name(name, SEAT_NAMES[seat]), token_hash=_hash(token)
            )
        if seed is None:
            seed = secrets.token_hex(16)
        elif type(seed) is not int:
            raise WebError("bad-seed", "a seed must be an integer")
        table_id = secrets.token_urlsafe(6)
        while table_id in self.tables:  # pragma: no cover - 48 random bits
            table_id = secrets.token_urlsafe(6)
        table = Table(table_id, rules or Rules(), str(seed), slots, new_game(rules), time.time())
        for index, slot in enumerate(slots):
            if slot.kind == "bot" and slot.bot is not None:
                table.bots[Seat(index)] = _make_bot(slot.bot)
        table.started = all(slot.kind != "open" for slot in slots)
        self.store.add_table(
            TableRow(
                table.id,
                table.created,
                deepsix.to_json(table.rules),
                SEAT_LETTERS[table.state.dealer],
                table.seed,
                self._seats(table),
                table.started,
            )
        )
        self.tables[table.id] = table
        self._wake(table)
        return table, token

    def join(self, table_id: object, letter: object, name: object = None) -> tuple[Table, str]:
        """Claim an open seat; returns the table and the seat's new token."""
        table = self.table(table_id)
        seat = seat_of(letter)
        if table.seats[seat].kind != "open":
            raise WebError("seat-taken", f"seat {SEAT_LETTERS[seat]} is taken", 409)
        token = secrets.token_urlsafe(24)
        table.seats[seat] = SeatSlot(
            "human", name=_clean_name(name, SEAT_NAMES[seat]), token_hash=_hash(token)
        )
        table.started = all(slot.kind != "open" for slot in table.seats)
        self.store.update_seats(table.id, self._seats(table), table.started)
        self._announce(table)
        self._wake(table)
        return table, token

    def fill(self, table_id: object, token: object, bot: object = "heuristic") -> Table:
        """A seated player fills every open seat with ``bot``; the game starts."""
        table = self.table(table_id)
        self.authenticate(table, token, required=True)
        if type(bot) is not str:
            raise WebError("unknown-bot", "a bot is given by its name")
        name = bot.strip().lower()
        _make_bot(name)
        for index, slot in enumerate(table.seats):
            if slot.kind == "open":
                table.seats[index] = SeatSlot("bot", bot=name, name=SEAT_NAMES[index])
                table.bots[Seat(index)] = _make_bot(name)
        table.started = True
        self.store.update_seats(table.id, self._seats(table), table.started)
        self._announce(table)
        self._wake(table)
        return table

    def authenticate(self, table: Table, token: object, *, required: bool = False) -> Seat | None:
        """The seat whose token this is; ``None`` (a spectator) when no token is given."""
        if token is None and not required:
            return None
        if type(token) is not str or not 0 < len(token) <= 200:
            raise WebError("unauthorized", "a seat's token is required", 401)
        digest = _hash(token)
        for index, slot in enumerate(table.seats):
            if slot.token_hash is not None and hmac.compare_digest(slot.token_hash, digest):
                return Seat(index)
        raise WebError("unauthorized", "this token holds no seat at this table", 401)

    def _seats(self, table: Table) -> str:
        return seats_json([slot.stored() for slot in table.seats])

    # -- moves -----------------------------------------------------------------------------

    async def act(self, table: Table, seat: Seat, action: Action) -> None:
        """Apply a player's action as ``seat``; refused (nothing changes) if it is not legal.

        Raises :class:`~deepsix.IllegalActionError` (with its rule) for an
        illegal action and :class:`WebError` before the game has started.
        """
        async with table.lock:
            if not table.started:
                raise WebError("not-started", "the game has not started: seats are still open")
            self._commit(table, action, seat)
        self._wake(table)

    def _commit(self, table: Table, action: Action, seat: Seat | None) -> None:
        """Apply, store, then push: in that order, so a pushed move is always a stored one."""
        before = table.state
        after = apply(before, action, seat=seat) if seat is not None else apply(before, action)
        self.store.append(table.id, table.seq + 1, dumps(action))
        table.state = after
        self._broadcast(table, events(before, action, after))

    def _broadcast(self, table: Table, found: tuple[Event, ...]) -> None:
        if not table.subscribers:
            return
        build = table.frames(found)
        frames: dict[Seat | None, str] = {}
        for subscriber in list(table.subscribers):
            seat = subscriber.seat
            text = frames.get(seat)
            if text is None:
                text = frames[seat] = build(seat)
            subscriber.push(text)

    def _announce(self, table: Table) -> None:
        """Push the table's seats (who joined, who is online) with each seat's view."""
        self._broadcast(table, ())

    # -- the server's own moves: deals and bots --------------------------------------------

    def _wake(self, table: Table) -> None:
        if table.runner is None or table.runner.done():
            with contextlib.suppress(RuntimeError):  # no running loop: resume() starts it later
                table.runner = asyncio.get_running_loop().create_task(self._run(table))

    async def _next_move(self, table: Table) -> tuple[Action, Seat | None] | None:
        state = table.state
        if not table.started or state.is_over:
            return None
        if state.is_chance:
            rng = random.Random(f"deepsix-web-deal:{table.seed}:{len(state.completed_hands)}")
            deal: Deal = shuffled_deal(rng)
            return deal, None
        seat = state.to_act
        assert seat is not None
        bot = table.bots.get(seat)
        if bot is None:
            return None
        rng = random.Random(f"deepsix-web-bot:{table.seed}:{table.seq}")
        # In a worker thread, so that a slow bot (a search, say) does not stall the other
        # tables; this table's lock is held meanwhile, so its game cannot change under the bot.
        action = await asyncio.to_thread(bot.choose, view(state, seat), rng)
        return action, seat

    async def _run(self, table: Table) -> None:
        """Make the server's moves (deals, bots) until a person is to act or the game ends."""
        while True:
            state = table.state
            pause = state.is_chance and bool(state.completed_hands)
            delay = self.hand_pause if pause else self.bot_delay
            await asyncio.sleep(delay)
            async with table.lock:
                try:
                    move = await self._next_move(table)
                    if move is None:
                        return
                    self._commit(table, *move)
                except Exception:  # a bot's bug or a full disk: log it, leave the game as it is
                    _log.exception("table %s: the server's move failed", table.id)
                    return

    async def close(self) -> None:
        """Stop every table's bots."""
        tasks = [t.runner for t in self.tables.values() if t.runner is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    # -- subscribers -----------------------------------------------------------------------

    def subscribe(self, table: Table, subscriber: Subscriber) -> None:
        """Start pushing to ``subscriber``; it first gets the current frame."""
        table.subscribers.add(subscriber)
        self._announce(table)

    def unsubscribe(self, table: Table, subscriber: Subscriber) -> None:
        """Stop pushing to ``subscriber``."""
        if subscriber in table.subscribers:
            table.subscribers.discard(subscriber)
            self._announce(table)

    def listing(self) -> list[dict[str, object]]:
        """Every table's public description, newest first."""
        ordered = sorted(self.tables.values(), key=lambda t: t.created, reverse=True)
        return [table.info() for table in ordered]


SEAT_NAMES: Final = ("North", "East", "South", "West")


def legend() -> dict[str, Any]:
    """What a client needs to draw melds: each meld code's name, value and cards."""
    return {
        meld.code: {
            "name": str(meld),
            "value": meld.value,
            "cards": [card.ascii for card in meld.cards],
        }
        for meld in ALL_MELDS
    }
