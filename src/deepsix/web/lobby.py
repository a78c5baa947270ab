"""The lobby: every room of a server -- made, loaded, listed, closed and archived.

On start the :class:`Lobby` rebuilds every live table from storage by
replaying its moves through the engine.  A table that cannot be rebuilt
(a damaged row, an illegal or unreadable move, a missing move) is
*quarantined*: left untouched in storage, named with its reason in the log
and in the lobby, and not served -- every other table starts normally.

While it runs, the lobby pushes its listing to the lobby's sockets
whenever a listed table changes, and a sweeper closes what nobody attends:
a live table nobody has been connected to for ``idle_close`` seconds is
closed and archived (finished, its record kept), and a finished one is
dropped from memory after ``keep_finished`` seconds (it stays in storage).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Mapping
from typing import Final

import deepsix
from deepsix.cards import Seat
from deepsix.engine import new_game
from deepsix.errors import SerializationError
from deepsix.io.wire import action_from_wire
from deepsix.play.bots import BOT_NAMES
from deepsix.rebuild import walk
from deepsix.rules import Rules
from deepsix.web import protocol as p
from deepsix.web.config import ServerConfig
from deepsix.web.credentials import SEAT_LETTERS, SEAT_NAMES, digest, new_invite, new_secret
from deepsix.web.holders import advanced
from deepsix.web.limits import Guard, network_of
from deepsix.web.listings import info_of_row
from deepsix.web.protocol import WebError
from deepsix.web.rooms import Room
from deepsix.web.services import Services, Subscriber, sweep_forever
from deepsix.web.slots import seat_of
from deepsix.web.store import (
    SeatRow,
    StoreError,
    StoreUnavailable,
    TableCorrupt,
    TableRow,
    seat_rows,
)

__all__ = ["LOBBY_SHOWN", "Lobby"]

_log = logging.getLogger("deepsix.web")

RECENT_FINISHED: Final = 10
"""Finished tables in the lobby's push (more are paged from storage)."""
LOBBY_SHOWN: Final = 50
"""Open tables, and running ones, in the lobby's push (the newest; more are paged with
``GET /api/tables?status=open|running``), and quarantined tables named: so the lobby's size
is bounded however many tables a server holds."""
SWEEP: Final = 2.0
"""Seconds between two looks at every room (presence, idle tables)."""
PUSH_DELAY: Final = 0.25
"""Changes within this time make one lobby push."""


class Lobby:
    """Every room of a server, and the lobby's listeners."""

    def __init__(self, services: Services[Room]) -> None:
        self.services = services
        services.changed = self._changed
        self.rooms: dict[str, Room] = {}
        self.quarantined: dict[str, str] = {}
        self.recent: list[p.TableInfo] = []
        self.listeners: set[Subscriber] = set()
        self._push: asyncio.TimerHandle | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._replicating = asyncio.Lock()
        self.guard = Guard(services.config)
        """The limits per client address (:mod:`deepsix.web.limits`)."""

    # -- loading ------------------------------------------------------------------------------

    async def load(self) -> int:
        """Rebuild every live table; returns how many were rebuilt."""
        store = self.services.store
        rows = await store.tables()
        for table_id, reason in await store.damaged():
            self._quarantine(table_id, reason)
        for row in rows:
            try:
                room = self._rebuild(row, await store.moves(row.id))
            except Exception as error:
                self._quarantine(row.id, _reason(error))
                continue
            self.rooms[row.id] = room
            if room.status == "waiting":
                room.unattended_since = _unstarted_since(row.created, self.services.config)
        try:
            for row in await store.finished(RECENT_FINISHED):
                self.recent.append(info_of_row(row))
        except StoreError as error:  # the archive's list: the live tables are served anyway
            _log.error("the finished tables cannot be listed: %s", _reason(error))
        return len(self.rooms)

    def _quarantine(self, table_id: str, reason: str) -> WebError:
        """Serve the table no more, and say so in one line; the error its callers get."""
        self.quarantined[table_id] = reason
        _log.error("table %s quarantined (kept in storage, not served): %s", table_id, reason)
        return WebError("quarantined", f"table {table_id} cannot be served: {reason}", 503)

    def _rebuild(self, row: TableRow, moves: list[str]) -> Room:
        try:
            rules = deepsix.from_json(row.rules, Rules)
        except Exception as error:
            raise SerializationError(f"its rules cannot be read: {_reason(error)}") from None
        state = new_game(rules, seat_of(row.dealer))
        done = 0
        try:
            for step in walk(state, (action_from_wire(json.loads(text)) for text in moves)):
                state = step.after
                done += 1
        except Exception as error:
            reason = f"move {done + 1} cannot be replayed: {_reason(error)}"
            raise SerializationError(reason) from None
        room = Room(self.services, row, rules, state)
        for index, slot in enumerate(room.seats):
            if slot.kind == "bot" and (slot.bot is None or slot.bot not in BOT_NAMES):
                substitute = room.standin if room.standin in BOT_NAMES else "random"
                _log.warning(
                    "table %s: the bot %r at %s is not installed; the %s bot plays it",
                    row.id,
                    slot.bot,
                    SEAT_LETTERS[index],
                    substitute,
                )
                slot.bot = substitute
        if room.standin not in BOT_NAMES:
            room.standin = "random"
        return room

    def start(self) -> None:
        """Start every room's runner and the sweeper."""
        for room in self.rooms.values():
            room.runner.start()
        self._sweeper = asyncio.get_running_loop().create_task(
            sweep_forever(self.sweep, SWEEP, "the lobby's sweep")
        )

    async def close(self) -> None:
        """Stop the sweeper and every runner."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        if self._push is not None:
            self._push.cancel()
        for room in list(self.rooms.values()):
            await room.runner.stop()

    # -- tables -------------------------------------------------------------------------------

    async def room(self, table_id: object) -> Room:
        """The room with this id: live, or finished (loaded from storage when asked for)."""
        if type(table_id) is not str or not 0 < len(table_id) <= 40:
            raise WebError("no-such-table", f"no table {str(table_id)[:40]!r}", 404)
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        if table_id in self.quarantined:
            raise WebError(
                "quarantined",
                f"table {table_id} cannot be served: {self.quarantined[table_id]}",
                503,
            )
        if self.services.peers.shared:  # made by another server of the site?
            replica = await self.replica(table_id)
            if replica is not None:
                return replica
        try:
            row = await self.services.store.table(table_id)
        except TableCorrupt as error:
            raise self._quarantine(table_id, _reason(error)) from None
        if row is None or row.status != "finished":
            raise WebError("no-such-table", f"no table {table_id[:40]!r}", 404)
        try:
            room = self._rebuild(row, await self.services.store.moves(row.id))
        except StoreUnavailable:
            raise
        except Exception as error:
            raise self._quarantine(table_id, _reason(error)) from None
        room.unattended_since = time.monotonic()
        self.rooms[table_id] = room
        return room

    async def replica(self, table_id: str) -> Room | None:
        """A live table another server of the site made: rebuilt from storage and served here
        too (its moves come in as that server stores them).  ``None`` if it is not live or
        cannot be rebuilt (then it is quarantined here, as at start).

        One table is rebuilt at a time, each from its row and moves as read then, so two
        callers never make two rooms of one table.
        """
        async with self._replicating:
            known = self.rooms.get(table_id)
            if known is not None or table_id in self.quarantined:
                return known
            store = self.services.store
            row = await store.table(table_id)
            if row is None or row.status == "finished":
                return None
            try:
                room = self._rebuild(row, await store.moves(row.id))
            except Exception as error:
                self._quarantine(row.id, _reason(error))
                return None
            self.rooms[row.id] = room
        room.runner.start()
        self._changed(room)
        return room

    def archived(self, row: TableRow) -> None:
        """A table another server of the site finished (not served here): list it."""
        if row.status == "finished" and not row.private:
            self.recent = [info for info in self.recent if info.id != row.id]
            self.recent.insert(0, info_of_row(row))
            del self.recent[RECENT_FINISHED:]
            if self.listeners and self._push is None:
                with contextlib.suppress(RuntimeError):
                    self._push = asyncio.get_running_loop().call_later(PUSH_DELAY, self._push_now)

    async def create(  # noqa: PLR0913  # the table's settings, all keywords
        self,
        *,
        seats: Mapping[str, str],
        me: str | None,
        name: str,
        seed: int | None,
        private: bool,
        clock: float | None,
        standin: str,
        rules: Rules | None = None,
        hint: bool = False,
        maker: str | None = None,
    ) -> tuple[Room, str | None, str]:
        """A new table; returns it, the creator's seat credential (if she sits) and the host's.

        ``maker`` is the client's address: ``WebError`` 429 if it made too many tables
        (:class:`~deepsix.web.limits.Guard`)."""
        config = self.services.config
        live = self.live()
        bots = any(bot != "open" for bot in seats.values())
        self.guard.make_table(maker, live, bots=bots)
        if len(live) >= config.max_tables and not await self._make_room(live):
            raise WebError("full", "this server has no room for another table", 503)
        slots = [SeatRow("open") for _ in SEAT_LETTERS]
        for key, bot in seats.items():
            seat = seat_of(key)
            if bot != "open":
                slots[seat] = SeatRow("bot", bot, SEAT_NAMES[seat])
        secret = None
        if me is not None:
            seat = seat_of(me)
            if slots[seat].kind != "open":
                raise WebError("bad-seat", f"seat {me} is given to a bot")
            secret = new_secret()
            slots[seat] = SeatRow("human", None, name or SEAT_NAMES[seat], digest(secret))
        host = new_secret()
        table_id = secrets.token_urlsafe(6)
        while table_id in self.rooms:  # pragma: no cover - 48 random bits
            table_id = secrets.token_urlsafe(6)
        rules = rules or Rules()
        row = TableRow(
            id=table_id,
            created=time.time(),
            rules=deepsix.to_json(rules),
            dealer="N",
            seed=secrets.randbits(63) if seed is None else seed,
            seats=seat_rows(slots),
            status="running" if all(slot.kind != "open" for slot in slots) else "waiting",
            seeded=seed is not None,
            private=private,
            clock=clock,
            standin=standin,
            hint=hint,
            host=digest(host),
            invite=new_invite(),
            holders=advanced((), slots, 0),
        )
        await self.store_new(row)
        room = Room(self.services, row, rules, new_game(rules))
        room.maker = None if maker is None else network_of(maker)
        self.rooms[table_id] = room
        await self.services.peers.adopt(room)
        room.runner.start()
        self._changed(room)
        return room, secret, host

    async def _make_room(self, live: list[Room]) -> bool:
        """At the table cap, close one table nobody would miss for a new one; whether one was.

        Only a table that never started and that nobody attends goes, one without a person
        seated first, then the longest unattended: so tables made from many addresses and
        left empty never lock players out (after a restart neither), while a table anyone is
        at, or that is being played, is never closed for another.
        """
        owns = self.services.peers.owns
        idle = [
            room for room in live if room.status == "waiting" and not room.attended and owns(room)
        ]
        idle.sort(key=lambda room: (room.has_humans, room.unattended_since))
        for room in idle:
            await self._close_idle(room, None)
            if room.status == "finished":
                return True
        return False

    def live(self) -> list[Room]:
        """The tables not finished."""
        return [room for room in self.rooms.values() if room.status != "finished"]

    async def store_new(self, row: TableRow) -> None:
        """Store a new table's row; ``WebError`` ``storage`` (503) if it cannot be."""
        try:
            await self.services.store.add_table(row)
        except Exception as error:
            _log.error("storage: %s (a new table was refused)", " ".join(str(error).split()))
            raise WebError("storage", "the table could not be stored: try again", 503) from None

    def add(self, room: Room) -> None:
        """Serve a room made here (the lobby's own tables and rematches)."""
        self.rooms[room.id] = room

    # -- the listing --------------------------------------------------------------------------

    def frame(self) -> p.LobbyFrame:
        """The lobby as pushed: listed tables by status, newest first, :data:`LOBBY_SHOWN` of
        each at most."""
        return p.LobbyFrame(
            open=tuple(room.info() for room in self.listed("open")[:LOBBY_SHOWN]),
            running=tuple(room.info() for room in self.listed("running")[:LOBBY_SHOWN]),
            finished=tuple(self.recent),
            quarantined=tuple(
                p.Quarantined(i, r) for i, r in sorted(self.quarantined.items())[:LOBBY_SHOWN]
            ),
        )

    def listed(self, status: str, before: tuple[float, str] | None = None) -> list[Room]:
        """The listed live tables of ``status`` (``open``: waiting for players; ``running``),
        newest first (by when they were made, then id), only those after the cursor
        ``before`` if given."""
        wanted = "waiting" if status == "open" else status
        rooms = [
            room
            for room in self.rooms.values()
            if room.status == wanted
            and not room.private
            and (before is None or (room.created, room.id) < before)
        ]
        rooms.sort(key=lambda room: (room.created, room.id), reverse=True)
        return rooms

    def live_page(
        self, status: str, limit: int, before: tuple[float, str] | None
    ) -> tuple[list[p.TableInfo], str | None]:
        """One page of :meth:`listed`, and the next page's cursor (``None``: the last page)."""
        rooms = self.listed(status, before)
        page = rooms[:limit]
        return [room.info() for room in page], _cursor(rooms, limit)

    def next_after(self, status: str, shown: int) -> str | None:
        """The cursor where the tables of ``status`` go on past the newest ``shown``
        (``None``: there are no more)."""
        return _cursor(self.listed(status), shown)

    async def finished_page(
        self, limit: int, before: tuple[float, str] | None
    ) -> tuple[list[p.TableInfo], str | None]:
        """Finished listed tables from storage, the latest first, and the next page's cursor."""
        rows = await self.services.store.finished(limit, before)
        cursor = None
        if len(rows) == limit and rows[-1].finished is not None:
            cursor = f"{rows[-1].finished!r}:{rows[-1].id}"
        return [info_of_row(row) for row in rows], cursor

    def watch(self, listener: Subscriber) -> None:
        """Push the lobby to ``listener`` now and on every change."""
        self.listeners.add(listener)
        listener.push(p.encode(self.frame()))

    def unwatch(self, listener: Subscriber) -> None:
        """Stop pushing to ``listener``."""
        self.listeners.discard(listener)

    def _changed(self, room: Room) -> None:
        if room.status == "finished" and not room.private:
            if all(info.id != room.id for info in self.recent):
                self.recent.insert(0, room.info())
                del self.recent[RECENT_FINISHED:]
            else:
                self.recent = [room.info() if i.id == room.id else i for i in self.recent]
        if self.listeners and self._push is None:
            with contextlib.suppress(RuntimeError):
                loop = asyncio.get_running_loop()
                self._push = loop.call_later(PUSH_DELAY, self._push_now)

    def _push_now(self) -> None:
        self._push = None
        text = p.encode(self.frame())
        for listener in list(self.listeners):
            listener.push(text)

    # -- the sweeper --------------------------------------------------------------------------

    async def sweep(self) -> None:
        """Push presence changes; close what nobody attends; drop old finished rooms."""
        now = time.monotonic()
        config = self.services.config
        finished: list[Room] = []
        for room in list(self.rooms.values()):
            presence = tuple(room.presence(seat) for seat in Seat)
            if room.subscribers and presence != room.shown_presence:  # someone went quiet
                room.changed()
                room.runner.wake()
            if room.attended:
                continue
            idle = now - room.unattended_since
            if room.status == "finished":
                finished.append(room)
                if idle > config.keep_finished:
                    await self._drop(room)
                continue
            limit = config.unstarted_close if room.status == "waiting" else config.idle_close
            if idle > limit and self.services.peers.owns(room):  # one server closes it
                await self._close_idle(room, limit)
        # the finished tables kept in memory are bounded too: the longest unattended go first
        finished = [room for room in finished if room.id in self.rooms]
        if len(finished) > config.keep_finished_most:
            finished.sort(key=lambda room: room.unattended_since)
            for room in finished[: len(finished) - config.keep_finished_most]:
                await self._drop(room)
        self.services.pool.reap()

    async def _drop(self, room: Room) -> None:
        """Forget a finished room (it stays in storage, loaded again when asked for)."""
        await room.runner.stop()
        self.rooms.pop(room.id, None)

    async def _close_idle(self, room: Room, limit: float | None) -> None:
        """Close a table nobody attends (for ``limit`` seconds; ``None``: to make room at the
        table cap); one that never started is unlisted too (nobody wants to page through empty
        tables in the archive)."""
        unstarted = room.status == "waiting"
        try:
            async with room.runner.lock:
                if room.status == "finished":
                    return
                if unstarted:
                    room.private = True
                await room.finish(p.Result(None, "closed", None))
        except WebError:
            return  # storage is down: try again at the next sweep
        what = "never started" if unstarted else "closed"
        if limit is None:
            _log.info("table %s %s: closed to make room at the table cap", room.id, what)
        else:
            _log.info("table %s %s: nobody came for %.0f s", room.id, what, limit)


def _unstarted_since(created: float, config: ServerConfig) -> float:
    """The idle clock (``time.monotonic()``) of a table that never started, as loaded: counted
    from when it was made, so that restarts never keep it; but the people who were at it get
    a grace of a quarter of ``unstarted_close`` (30 s at most) to come back."""
    limit = config.unstarted_close
    grace = min(30.0, limit / 4)
    age = max(0.0, time.time() - created)
    return time.monotonic() - min(age, max(0.0, limit - grace))


def _cursor(rooms: list[Room], shown: int) -> str | None:
    """The cursor of the page after the first ``shown`` of ``rooms`` (``None``: no more)."""
    if len(rooms) <= shown or shown <= 0:
        return None
    last = rooms[shown - 1]
    return f"{last.created!r}:{last.id}"


def _reason(error: BaseException) -> str:
    text = " ".join(str(error).split()) or type(error).__name__
    return text[:300]
