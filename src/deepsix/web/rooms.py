"""A room: one table in memory -- its seats, its game, the connections watching it.

A :class:`Room` checks and applies what people do at the table (moves,
chat, resigning, leaving, taking a seat back) and what its host does
(re-issue a credential, give a seat to a bot, make it private), stores
each change *before* anyone is shown it, and pushes each connection its
own frame (:mod:`deepsix.web.protocol`).  The server's own moves -- deals,
bots, stand-ins -- are made by the room's :class:`~deepsix.web.runner.Runner`.

Every frame pushed to a connection is built for that connection's seat
alone: ``view(state, seat)`` (the public view for a spectator), the
step's public events and the table's public description.  No other part of
the state, no credential and no seed is ever written to a socket.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterable
from typing import Any, Literal

import attrs

from deepsix.actions import Action
from deepsix.cards import Seat, Team
from deepsix.engine import apply
from deepsix.events import Event, HandScored, events
from deepsix.io.wire import action_from_wire, dumps
from deepsix.play.bots import bot_rng
from deepsix.play.loop import GameDriver
from deepsix.rules import Rules
from deepsix.state import GameState
from deepsix.web import protocol as p
from deepsix.web import pushes
from deepsix.web.credentials import holds
from deepsix.web.holders import advanced
from deepsix.web.listings import listing
from deepsix.web.protocol import WebError
from deepsix.web.services import Remote, RoomRunner, Services, Subscriber
from deepsix.web.slots import SeatSlot, letter
from deepsix.web.store import (
    HolderRow,
    RowChanged,
    SeqTaken,
    TableRow,
    TableStatus,
    seat_rows,
)

__all__ = ["Room"]

_log = logging.getLogger("deepsix.web")


class Room:
    """One table: seats, game, connections, and the operations people and hosts may do."""

    def __init__(
        self, services: Services[Room], row: TableRow, rules: Rules, state: GameState
    ) -> None:
        self.services = services
        self.id = row.id
        self.created = row.created
        self.rules = rules
        self.dealer = row.dealer
        self.seed = row.seed
        self.seeded = row.seeded
        self.hint = row.hint
        self.version = row.version
        """The stored row's version this room holds (a shared database refuses older)."""
        self._follow(row)
        self.state = state
        self.driver = self.new_driver()
        self.subscribers: set[Subscriber] = set()
        self.remote: dict[str, Remote] = {}
        """The connections other servers of the site have to this table, by server
        (:mod:`deepsix.web.cluster`); empty for a server alone."""
        now = time.monotonic()
        self.standins: dict[Seat, str] = {}
        """Human seats a stand-in bot plays, and why (``absent`` or ``clock``)."""
        self.left_at: dict[Seat, float] = {}
        """When each seat's last connection closed."""
        self.loaded_at = now
        self.turn_began = now
        self.last_move = now
        self.unattended_since = now
        self.ready: set[Seat] = set()
        """The seats that dismissed the summary of the hand just scored."""
        self.storage_failing = False
        self.shown_presence: tuple[str, ...] = ()
        """Each seat's presence as the connections were last shown it."""
        self.chat_limits: dict[Seat, Any] = {}
        """Each seat's chat allowance (:mod:`deepsix.web.chat`)."""
        self.maker: str | None = None
        """The network of the client address that made the table
        (:func:`deepsix.web.limits.network_of`, for its limits; not stored)."""
        self.runner: RoomRunner = services.make_runner(self)
        """The task that makes the room's own moves (:class:`deepsix.web.runner.Runner`)."""

    def new_driver(self) -> GameDriver:
        """The game's driver from the present state on, as a server that loads the table makes
        it (its deals resume where the game is; each seat's bot stream is a fresh one)."""
        moves = len(self.state.history)
        return GameDriver(
            self.seed, self.state, streams=[bot_rng(self.seed, s, moves or None) for s in Seat]
        )

    # -- what everyone may see ------------------------------------------------------------

    def _heard(self, seat: Seat) -> list[float]:
        """When each connection of ``seat`` (here, and at the other servers) last spoke."""
        heard = [sub.heard for sub in self.subscribers if sub.seat == seat]
        heard.extend(r.heard[seat] for r in self.remote.values() if seat in r.heard)
        return heard

    def connected(self, seat: Seat) -> bool:
        """Whether the seat has a connection (here or at another server), heard lately or not."""
        return bool(self._heard(seat))

    @property
    def attended(self) -> bool:
        """Whether anyone is connected to the table, at this server or another."""
        return bool(self.subscribers) or any(r.heard or r.spectators for r in self.remote.values())

    @property
    def has_bots(self) -> bool:
        """Whether a bot plays one of the seats."""
        return any(slot.kind == "bot" for slot in self.seats)

    @property
    def has_humans(self) -> bool:
        """Whether a person holds one of the seats."""
        return any(slot.kind == "human" for slot in self.seats)

    @property
    def seq(self) -> int:
        """How many actions the game has had (deals included): the version of its state."""
        log = self.state.log
        return 0 if log is None else len(log)

    def presence(self, seat: Seat) -> p.Presence:
        """Whether the seat is played now: ``online``, ``away`` (silent) or ``offline``."""
        slot = self.seats[seat]
        if slot.kind == "bot":
            return "online"
        heard = self._heard(seat)
        if not heard:
            return "offline"
        fresh = time.monotonic() - max(heard) < self.services.config.away_after
        return "online" if fresh else "away"

    def absent_since(self, seat: Seat) -> float | None:
        """Since when a human seat has had no live connection (``None``: she is here)."""
        heard = self._heard(seat)
        if heard:
            last = max(heard)
            return None if time.monotonic() - last < self.services.config.away_after else last
        return self.left_at.get(seat, self.loaded_at)

    def info(self) -> p.TableInfo:
        """The table's public description."""
        state = self.state
        presence = [
            self.presence(Seat(index)) if slot.kind != "open" else "offline"
            for index, slot in enumerate(self.seats)
        ]
        return listing(
            self,
            presence=presence,
            standins=[self.standin if seat in self.standins else None for seat in Seat],
            seq=self.seq,
            phase=state.phase.value,
            hand_number=state.hand_number,
            scores=state.scores,
            spectators=sum(1 for sub in self.subscribers if sub.seat is None)
            + sum(r.spectators for r in self.remote.values()),
            result=self.result,
            holders=self.seat_history,
        )

    @property
    def seat_history(self) -> tuple[HolderRow, ...]:
        """Who took each seat and when, up to now (:func:`deepsix.web.holders.advanced`)."""
        return advanced(self.holders, self.seats, self.seq)

    def row(self, **changes: Any) -> TableRow:
        """The room as stored (with ``changes``)."""
        fields: dict[str, Any] = {
            "id": self.id,
            "created": self.created,
            "rules": self.row_rules,
            "dealer": self.dealer,
            "seed": self.seed,
            "seats": seat_rows([slot.row() for slot in self.seats]),
            "status": self.status,
            "seeded": self.seeded,
            "private": self.private,
            "clock": self.clock,
            "standin": self.standin,
            "host": self.host,
            "invite": self.invite,
            "result": None
            if self.result is None
            else pushes.result_json(self.result, self.state, self.seq),
            "finished": self.finished_at,
            "next": self.next,
            "hint": self.hint,
            "holders": self.seat_history,
            "version": self.version,
        }
        fields.update(changes)
        return TableRow(**fields)

    @property
    def row_rules(self) -> str:
        import deepsix

        return deepsix.to_json(self.rules)

    def clock_frame(self) -> p.Clock | None:
        """The clock of the seat to act, if one runs (:func:`deepsix.web.pushes.clock`)."""
        return pushes.clock(self.runner.deadline())

    def frames(self, found: Iterable[Event] = ()) -> Callable[[Seat | None], str]:
        """The frames of one moment by seat (:func:`deepsix.web.pushes.moment`)."""
        info = self.info()
        self.shown_presence = tuple(seat.presence for seat in info.seats)
        return pushes.moment(info, self.state, self.seq, self.clock_frame(), found)

    def broadcast(self, found: Iterable[Event] = ()) -> None:
        """Push every connection its own frame of the present moment."""
        if not self.subscribers:
            return
        build = self.frames(found)
        made: dict[Seat | None, str] = {}
        for subscriber in list(self.subscribers):
            seat = subscriber.seat
            text = made.get(seat)
            if text is None:
                text = made[seat] = build(seat)
            subscriber.push(text)

    def tell(self, notice: p.Notice) -> None:
        """Push a notice to every connection (those of the other servers too)."""
        text = p.encode(notice)
        self.services.peers.announce(self, {"k": "notice", "frame": text})
        self.push_all(text)

    def push_all(self, text: str) -> None:
        """Push one frame to every connection of this server."""
        for subscriber in list(self.subscribers):
            subscriber.push(text)

    def changed(self, found: Iterable[Event] = ()) -> None:
        """The table changed: push its frames, and let the lobby know."""
        self.broadcast(found)
        self.services.changed(self)

    def history(self, since: int) -> p.History:
        """The events of the steps after ``since``, for a client catching up."""
        return pushes.history(self.state, self.seq, since)

    # -- who is who ----------------------------------------------------------------------------

    def seat_holding(self, secret: str | None) -> Seat | None:
        """The seat whose credential ``secret`` is, if any."""
        if secret is None:
            return None
        for index, slot in enumerate(self.seats):
            if slot.kind == "human" and holds(slot.credential, secret):
                return Seat(index)
        return None

    def is_host(self, secret: str | None) -> bool:
        """Whether ``secret`` is the host's credential."""
        return holds(self.host, secret)

    # -- connections --------------------------------------------------------------------------

    def subscribe(self, subscriber: Subscriber) -> None:
        """Start pushing to ``subscriber`` (a seat's return takes the seat back)."""
        self.subscribers.add(subscriber)
        seat = subscriber.seat
        if seat is not None and self.standins.get(seat) is not None:
            self._returned(seat)
        self.services.peers.presence_changed(self)
        self.changed()
        self.runner.wake()

    def unsubscribe(self, subscriber: Subscriber) -> None:
        """Stop pushing to ``subscriber``."""
        if subscriber in self.subscribers:
            self.subscribers.discard(subscriber)
            now = time.monotonic()
            if subscriber.seat is not None:
                self.left_at[subscriber.seat] = now
            if not self.attended:
                self.unattended_since = now
            self.services.peers.presence_changed(self)
            self.changed()
            self.runner.wake()

    def close_seat(self, seat: Seat, notice: p.Notice, code: int, reason: str) -> None:
        for subscriber in list(self.subscribers):
            if subscriber.seat == seat:
                subscriber.push(p.encode(notice))
                subscriber.end(code, reason)

    # -- moves ----------------------------------------------------------------------------------

    async def act(self, seat: Seat, action: Action, seq: int) -> None:
        """Apply a player's move as ``seat``, chosen at ``seq``.

        Raises :class:`~deepsix.web.protocol.WebError` (``stale``, ``not-started``, ``finished``,
        ``standin``, ``storage``) or :class:`~deepsix.IllegalActionError`;
        nothing changes then.
        """
        async with self.runner.lock:
            self._require_running()
            if seq != self.seq:
                raise WebError(
                    "stale",
                    f"the move was chosen at seq {seq}, but the table is at {self.seq}:"
                    " look at the current position and choose again",
                )
            if seat in self.standins:
                raise WebError("standin", "a stand-in bot plays your seat: take it back first")
            await self.commit(action, seat)
        self.runner.wake()

    def _require_running(self) -> None:
        if self.status == "finished":
            raise WebError("finished", "the table has ended")
        if self.status == "waiting":
            raise WebError("not-started", "the game has not started: seats are still open")

    async def commit(self, action: Action, seat: Seat | None) -> None:
        """Apply, store, then push: a pushed move is always a stored one.  Hold the lock."""
        before = self.state
        after = apply(before, action, seat=seat) if seat is not None else apply(before, action)
        try:
            await self.services.store.append(self.id, self.seq + 1, dumps(action), time.time())
        except SeqTaken:
            await self.catch_up()  # the other server's move: shown here too, then refused
            raise WebError("stale", "another server stored this move first") from None
        except WebError:
            raise
        except Exception as error:
            self.runner.storage_failed(error)
            raise WebError("storage", "the move could not be stored: try again") from None
        self.runner.storage_back()
        self._advance(before, action, after)

    def _advance(self, before: GameState, action: Action, after: GameState) -> None:
        """The game moved on by a stored ``action``: take the new state and show it."""
        self.state = after
        now = time.monotonic()
        self.last_move = self.turn_began = now
        found = events(before, action, after)
        if any(type(event) is HandScored for event in found):
            self.ready.clear()
            self.changed(found)
        else:
            self.broadcast(found)

    async def catch_up(self) -> int:
        """Take the moves another server stored since this room's state; how many.  Hold
        the lock.  Each is checked by the engine again, as when a table is loaded."""
        stored = await self.services.store.moves(self.id)
        taken = 0
        for text in stored[self.seq :]:
            self.follow(action_from_wire(json.loads(text)))
            taken += 1
        return taken

    def follow(self, action: Action) -> None:
        """Apply a move another server stored (the next one).  Hold the lock."""
        before = self.state
        self._advance(before, action, apply(before, action))

    def take_row(self, row: TableRow) -> None:
        """Another server changed the table's row: take its seats, status and settings.

        A connection whose seat changed hands (a new credential, a bot) is told and
        closed, as at the server that made the change.  A row older than the one held
        is ignored.
        """
        if row.version < self.version:
            return
        self.version = row.version
        for index, (old, new) in enumerate(zip(self.seats, row.seats, strict=True)):
            seat = Seat(index)
            if old.kind == "human" and (new.kind != "human" or new.credential != old.credential):
                kind: Literal["revoked", "seat-changed"] = (
                    "revoked" if new.kind == "human" else "seat-changed"
                )
                text = (
                    "this seat's credential was re-issued"
                    if kind == "revoked"
                    else (f"{old.name} was replaced by the {new.bot or 'stand-in'} bot")
                )
                self.close_seat(seat, p.Notice(kind, text, letter(seat)), 1008, kind)
        self._follow(row)
        self.changed()

    def _follow(self, row: TableRow) -> None:
        """Take what of the stored row may change while the room lives: seats, status,
        settings, result."""
        self.seats = [SeatSlot(s.kind, s.bot, s.name, s.credential) for s in row.seats]
        self.status: TableStatus = row.status
        self.private = row.private
        self.clock = row.clock
        self.standin = row.standin
        self.host = row.host
        self.invite = row.invite
        self.result: p.Result | None = pushes.result_of(row.result)
        self.finished_at = row.finished
        self.next = row.next
        self.holders: tuple[HolderRow, ...] = row.holders
        """The seats' history as stored (:attr:`seat_history` brings it up to date)."""

    async def mark_ready(self, seat: Seat, hand: int) -> None:
        """``seat`` has looked at hand ``hand``'s summary."""
        if hand == len(self.state.completed_hands):
            self.ready.add(seat)
            self.services.peers.announce(self, {"k": "ready", "seat": letter(seat), "hand": hand})
            self.runner.wake()

    async def take_back(self, seat: Seat) -> None:
        """The seat's player takes it back from the stand-in."""
        if seat in self.standins:
            self._returned(seat)
            self.changed()
            self.runner.wake()

    def _returned(self, seat: Seat) -> None:
        del self.standins[seat]
        self.services.peers.announce(self, {"k": "standin", "seat": letter(seat), "reason": None})
        self.turn_began = time.monotonic()
        self.tell(p.Notice("returned", f"{self.seats[seat].name} is back", letter(seat)))

    # -- the end ------------------------------------------------------------------------------

    async def resign(self, seat: Seat) -> None:
        """``seat`` concedes for her side: the other side wins."""
        async with self.runner.lock:
            self._require_running()
            winner: Literal["NS", "EW"] = "EW" if seat.team is Team.NORTH_SOUTH else "NS"
            await self.finish(p.Result(winner, "resigned", letter(seat)))
        self.tell(p.Notice("resigned", f"{self.seats[seat].name} resigned", letter(seat)))

    async def finish(self, result: p.Result) -> None:
        """End the table with ``result``, stored before it is shown.  Hold the lock."""
        now = time.time()
        row = self.row(status="finished", finished=now)
        row = attrs.evolve(row, result=pushes.result_json(result, self.state, self.seq))
        await self.save(row)
        self.status, self.finished_at, self.result = "finished", now, result
        self.unattended_since = time.monotonic()
        self.changed()
        self.runner.wake()

    async def save(self, row: TableRow) -> None:
        """Store the room's row; :class:`~deepsix.web.protocol.WebError` ``storage`` if it fails."""
        try:
            await self.services.store.save_table(row)
        except RowChanged:  # another server changed the table: take its row, then try again
            fresh = await self.services.store.table(self.id)
            if fresh is not None:
                self.take_row(fresh)
            raise WebError(
                "conflict", "the table changed at another server meanwhile: try again", 409
            ) from None
        except Exception as error:
            self.runner.storage_failed(error)
            raise WebError("storage", "the change could not be stored: try again", 503) from None
        self.version = row.version + 1
        self.holders = row.holders
        self.runner.storage_back()
