"""The server's own moves at a table (deals, bots, stand-ins, clocks), by the library's driver.

Each :class:`~deepsix.web.rooms.Room` has one :class:`Runner`: a task that
sleeps until the table needs the server (a deal is due, a bot or a
stand-in is to act, a clock runs out), makes that move, and sleeps again.
Its deals and bot streams come from the room's
:class:`~deepsix.play.loop.GameDriver` -- the step driver of
:func:`~deepsix.play.loop.play_game`, seeded the same way -- so a web game
replays like any game of the library.

The runner never ends while its table is live: a bot that raises or
overruns its time limit is replaced for that move by the table's stand-in
(then by a random legal move), announced to the table and logged; a bot
that overruns ``DEMOTE_AFTER`` (three) moves in a row gives its seat to the
stand-in for good (every move would otherwise wait out the whole limit); a
move that cannot be stored is tried again, with a growing pause, until
storage comes back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from typing import TYPE_CHECKING, Final, Literal

from deepsix.actions import Action
from deepsix.cards import Seat
from deepsix.engine import apply
from deepsix.errors import IllegalActionError, NotAnActionError
from deepsix.play.bots import RandomBot
from deepsix.state import GameState
from deepsix.views import PlayerView, view
from deepsix.web import protocol as p
from deepsix.web import seating
from deepsix.web.botpool import OVERRAN, BotFailure
from deepsix.web.protocol import WebError

if TYPE_CHECKING:
    from deepsix.web.rooms import Room

__all__ = ["Runner"]

_log = logging.getLogger("deepsix.web")

FALLBACK_LIMIT: Final = 3.0
"""Seconds the stand-in gets when it moves for a bot that failed."""
DEMOTE_AFTER: Final = 3
"""Moves in a row over its time limit after which a bot's seat goes to the stand-in."""
RETRY: Final = (0.25, 0.5, 1.0, 2.0, 5.0)
"""Pauses between tries of a move that could not be stored."""

Deadline = tuple[Seat, float, Literal["turn", "absent"], float]
"""A human's deadline: her seat, when (monotonic), why, and the limit it started from."""


class Runner:
    """The task that makes a room's server-side moves."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.lock = asyncio.Lock()
        """Held while the room's game or seats change."""
        self._wakeup = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._failures = 0
        self.fallbacks = 0
        """How many bot moves a fallback made."""
        self.overruns: dict[Seat, int] = {}
        """Each seat's bot moves in a row over the time limit."""

    # -- life -----------------------------------------------------------------------------

    def start(self) -> None:
        """Start the task (if the table is live, this server owns it, and no task runs)."""
        if self.room.status == "finished" or not self.room.services.peers.owns(self.room):
            return
        if self._task is None or self._task.done():
            with contextlib.suppress(RuntimeError):  # no running loop: started later
                self._task = asyncio.get_running_loop().create_task(self._run())

    def wake(self) -> None:
        """Something changed: look at the table again."""
        self._wakeup.set()
        self.start()

    @property
    def running(self) -> bool:
        """Whether the task is alive."""
        return self._task is not None and not self._task.done()

    async def stop(self) -> None:
        """Stop the task."""
        task = self._task
        while task is not None and not task.done():
            task.cancel()
            await asyncio.wait({task}, timeout=1.0)

    def _ended(self) -> bool:
        return self.room.status == "finished"

    async def _run(self) -> None:
        while not self._ended():
            try:
                wait = await self._step()
                self._failures = 0
            except WebError as error:
                if error.code != "storage":
                    _log.error("table %s: %s", self.room.id, error.message)
                wait = RETRY[min(self._failures, len(RETRY) - 1)]
                self._failures += 1
            except Exception:
                _log.exception("table %s: the server's move failed; trying again", self.room.id)
                wait = RETRY[-1]
            if self._ended():
                return
            self._wakeup.clear()
            if wait is None or wait > 0:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(wait):  # (wait_for can swallow a cancel in 3.11)
                        await self._wakeup.wait()

    # -- storage ----------------------------------------------------------------------------

    def storage_failed(self, error: Exception) -> None:
        """A write failed: one line in the log, a notice to the table (once per outage)."""
        room = self.room
        if room.storage_failing:
            return
        room.storage_failing = True
        _log.error("storage: %s (table %s waits for it)", _one_line(error, room), room.id)
        room.tell(p.Notice("storage", "the server cannot store moves just now; the table waits"))

    def storage_back(self) -> None:
        """A write succeeded after a failure."""
        room = self.room
        if room.storage_failing:
            room.storage_failing = False
            _log.warning(
                "storage: %s works again (table %s)", room.services.store.location, room.id
            )
            room.tell(p.Notice("storage-back", "moves are stored again; the table goes on"))

    # -- one step ---------------------------------------------------------------------------

    async def _step(self) -> float | None:  # noqa: PLR0911  # one answer per kind of move
        """Make the server's next move if one is due; the seconds until the next look."""
        room = self.room
        state = room.state
        if room.status != "running":
            return None
        if state.is_over:
            async with self.lock:
                if room.status == "running" and room.state.is_over:
                    winner = state.winner
                    await room.finish(
                        p.Result(
                            None if winner is None else str(winner),  # type: ignore[arg-type]  # "NS" or "EW"
                            "game-over",
                            None,
                        )
                    )
            return None
        now = time.monotonic()
        config = room.services.config
        if state.is_chance:
            wait = self._summary_wait(now) if state.completed_hands else 0.0
            if wait > 0:
                return wait
            async with self.lock:
                if room.state is state and room.status == "running":
                    await room.commit(room.driver.deal(), None)
            return 0.0
        seat = state.to_act
        assert seat is not None
        slot = room.seats[seat]
        if slot.kind == "bot" or seat in room.standins:
            pause = room.last_move + config.bot_delay - now
            if pause > 0:
                return pause
            name = slot.bot if slot.kind == "bot" and slot.bot else room.standin
            await self._bot_move(seat, name)
            return 0.0
        found = self.deadline()
        if found is None:
            return None
        _, at, reason, _ = found
        if now < at:
            return at - now
        await self._stand_in(seat, "clock" if reason == "turn" else "absent")
        return 0.0

    def deadline(self) -> Deadline | None:
        """When the human to act loses her turn to the stand-in, if a clock runs."""
        room = self.room
        state = room.state
        seat = state.to_act
        if room.status != "running" or seat is None or room.seats[seat].kind != "human":
            return None
        if seat in room.standins:
            return None
        config = room.services.config
        options: list[Deadline] = []
        if room.clock is not None:
            options.append((seat, room.turn_began + room.clock, "turn", room.clock))
        since = room.absent_since(seat)
        if since is not None:
            if room.connected(seat):  # away (silent), not gone: her grace runs from her turn
                since = max(since, room.turn_began)
            options.append((seat, since + config.absent_grace, "absent", config.absent_grace))
        return min(options, key=lambda option: option[1]) if options else None

    def _summary_wait(self, now: float) -> float:
        """Seconds until the next deal: the people here may still be looking at the hand."""
        room = self.room
        config = room.services.config
        here = [
            Seat(index)
            for index, slot in enumerate(room.seats)
            if slot.kind == "human"
            and Seat(index) not in room.standins
            and room.presence(Seat(index)) == "online"
        ]
        if not here:
            return room.last_move + config.hand_pause - now
        if all(seat in room.ready for seat in here):
            return 0.0
        return room.last_move + max(config.summary_limit, config.hand_pause) - now

    async def _stand_in(self, seat: Seat, reason: str) -> None:
        room = self.room
        async with self.lock:
            if room.state.to_act != seat or seat in room.standins:
                return
            room.standins[seat] = reason
            room.services.peers.announce(
                room, {"k": "standin", "seat": "NESW"[seat], "reason": reason}
            )
        name = room.seats[seat].name
        why = "ran out of time" if reason == "clock" else "is away"
        room.tell(
            p.Notice(
                "standin",
                f"{name} {why}: the {room.standin} bot plays for her until she takes her seat back",
                "NESW"[seat],
            )
        )
        _log.info("table %s: seat %s %s; the stand-in plays it", room.id, "NESW"[seat], why)
        room.changed()

    async def _bot_move(self, seat: Seat, name: str) -> None:
        room = self.room
        seq = room.seq
        state = room.state
        seen = view(state, seat)
        config = room.services.config
        advanced: random.Random | None = None
        try:
            action, advanced = await room.services.pool.choose(
                name, seen, room.driver.streams[seat], config.bot_time_limit
            )
            _legal(state, action, seat)
            self.overruns.pop(seat, None)
        except BotFailure as failure:
            overran = failure.kind == OVERRAN
            self.overruns[seat] = self.overruns.get(seat, 0) + 1 if overran else 0
            action = await self._fallback(seat, name, seen, failure)
        async with self.lock:
            if room.seq != seq or room.status != "running":
                return  # the table moved on meanwhile (a resignation, say)
            if room.seats[seat].kind == "human" and seat not in room.standins:
                return  # she took her seat back while the stand-in was thinking: her move
            await room.commit(action, seat)
            if advanced is not None:
                room.driver.streams[seat] = advanced
        if self.overruns.get(seat, 0) >= DEMOTE_AFTER:
            await self._demote(seat, name)

    async def _demote(self, seat: Seat, name: str) -> None:
        """The bot at ``seat`` overran its limit move after move: the stand-in (or the random
        bot, if the stand-in is that bot) plays the seat from now on, stored and told."""
        room = self.room
        slot = room.seats[seat]
        if slot.kind != "bot" or slot.bot != name:
            return  # a stand-in for a person: she takes her seat back, or the fallbacks go on
        replacement = room.standin if room.standin != name else "random"
        try:
            await seating.give_to_bot(room, seat, replacement)
        except WebError as error:  # storage, say: tried again after its next overrun
            _log.warning("table %s: the %s bot at %s could not be replaced: %s",
                         room.id, name, "NESW"[seat], error)  # fmt: skip
            return
        self.overruns.pop(seat, None)
        _log.warning(
            "table %s: the %s bot at %s overran its %g s limit %d moves in a row;"
            " the %s bot plays the seat from now on",
            room.id, name, "NESW"[seat], room.services.config.bot_time_limit, DEMOTE_AFTER,
            replacement,
        )  # fmt: skip

    async def _fallback(
        self, seat: Seat, name: str, seen: PlayerView, failure: BotFailure
    ) -> Action:
        """A move for a bot that failed: the stand-in's, or a random legal one."""
        room = self.room
        self.fallbacks += 1
        letter = "NESW"[seat]
        # The log may say what the bot said; the table is told only that it failed (a bot's
        # message could name its own cards).
        _log.warning(
            "table %s: the %s bot at %s failed at move %d (%s); a fallback moves instead",
            room.id,
            name,
            letter,
            room.seq + 1,
            failure,
        )
        room.tell(
            p.Notice(
                "bot-fallback",
                f"the {name} bot failed ({failure.kind}); another bot made this move",
                letter,
            )
        )
        rng = random.Random(f"deepsix-web-fallback:{room.seed}:{room.seq}")
        state = room.state
        if room.standin != name:
            with contextlib.suppress(BotFailure):
                action, _ = await room.services.pool.choose(
                    room.standin,
                    seen,
                    rng,
                    min(FALLBACK_LIMIT, room.services.config.bot_time_limit),
                )
                _legal(state, action, seat)
                return action
        fallback: Action = RandomBot().choose(view(state, seat), rng)
        return fallback


def _legal(state: GameState, action: Action, seat: Seat) -> None:
    try:
        apply(state, action, seat=seat)
    except (IllegalActionError, NotAnActionError) as error:
        raise BotFailure(f"an illegal move ({error})", "illegal") from None


def _one_line(error: Exception, room: Room) -> str:
    text = " ".join(str(error).split())
    location = room.services.store.location
    return text if location in text else f"{location}: {text}"
