"""Tables that always finish: presence, the turn clock, stand-ins, resigning, leaving, idle tables.

Guards issue 23's "one person who leaves stalls the table forever" (no
turn timer, no bot taking the seat, no resign, no way to go on) and
"presence goes stale while a player is disconnected".  In-process, with
short clocks (:mod:`tests.web.inprocess`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from deepsix import Pass, Seat
from deepsix.web import protocol as p
from deepsix.web import seating
from deepsix.web.archive import record_text
from deepsix.web.protocol import WebError
from deepsix.web.rooms import Room
from tests.web.inprocess import Recorder, make, run, running_lobby, until

BOTS3 = {"N": "random", "E": "random", "W": "random"}


def notices(recorder: Recorder, kind: str) -> list[dict[str, object]]:
    return [f for f in recorder.frames if f["op"] == "notice" and f["kind"] == kind]


async def play_south(room: Room, rng: random.Random, moves: int) -> None:
    """South makes ``moves`` random legal moves (as her turns come)."""
    for _ in range(moves):
        await until(lambda: room.state.to_act is Seat.SOUTH or room.status == "finished")
        if room.status == "finished":
            return
        await room.act(Seat.SOUTH, rng.choice(room.state.legal_actions()), room.seq)


def test_presence_follows_heartbeats_and_connections(tmp_path: Path) -> None:
    async def test() -> None:
        async with running_lobby(tmp_path / "g.sqlite3", away_after=0.3) as lobby:
            room = await make(lobby, BOTS3, me="S")
            south, watcher = Recorder(Seat.SOUTH), Recorder(None)
            room.subscribe(watcher)
            assert room.presence(Seat.SOUTH) == "offline"
            room.subscribe(south)
            assert room.presence(Seat.SOUTH) == "online"
            assert room.presence(Seat.NORTH) == "online"  # a bot is always there
            await until(lambda: room.presence(Seat.SOUTH) == "away")  # no heartbeat for 0.3 s
            await lobby.sweep()  # the lobby's sweeper pushes the change

            def presence_shown() -> str:
                frames = [f for f in watcher.frames if f["op"] == "update"]
                return str(frames[-1]["table"]["seats"][2]["presence"])

            assert presence_shown() == "away"
            south.heard = time.monotonic()  # a ping
            assert room.presence(Seat.SOUTH) == "online"
            room.unsubscribe(south)
            assert presence_shown() == "offline"  # pushed at once

    run(test)


def test_the_turn_clock_hands_the_seat_to_the_stand_in_until_she_takes_it_back(
    tmp_path: Path,
) -> None:
    async def test() -> None:
        async with running_lobby(tmp_path / "g.sqlite3", away_after=60) as lobby:
            room = await make(lobby, BOTS3, me="S", clock=0.5, standin="random")
            south = Recorder(Seat.SOUTH)
            room.subscribe(south)
            await until(lambda: room.state.to_act is Seat.SOUTH)
            update = [f for f in south.frames if f["op"] == "update"][-1]
            clock = update["clock"]
            assert clock["seat"] == "S"
            assert clock["reason"] == "turn"
            assert clock["limit"] == 0.5
            assert 0 < clock["remaining"] <= 0.5
            assert abs(clock["deadline"] - (time.time() + clock["remaining"])) < 1
            seq = room.seq
            await until(lambda: room.standins.get(Seat.SOUTH) == "clock", 10)  # time is up
            assert "ran out of time" in str(notices(south, "standin")[0]["message"])
            await until(lambda: room.seq > seq)  # the stand-in made South's move
            assert getattr(room.state.history[seq], "seat", None) is Seat.SOUTH
            with pytest.raises(WebError) as refused:  # her own moves wait until she returns
                await room.act(Seat.SOUTH, room.state.legal_actions()[0], room.seq)
            assert refused.value.code in ("standin", "stale")
            await room.take_back(Seat.SOUTH)
            assert Seat.SOUTH not in room.standins
            assert notices(south, "returned")
            shown = [f for f in south.frames if f["op"] == "update"][-1]["table"]["seats"][2]
            assert shown["standin"] is None

    run(test)


def test_a_player_who_leaves_is_played_by_the_stand_in_and_returns_by_reconnecting(
    tmp_path: Path,
) -> None:
    async def test() -> None:
        async with running_lobby(tmp_path / "g.sqlite3", absent_grace=0.4) as lobby:
            room = await make(lobby, BOTS3, me="S")  # no turn clock
            south, watcher = Recorder(Seat.SOUTH), Recorder(None)
            room.subscribe(watcher)
            room.subscribe(south)
            await until(lambda: room.state.to_act is Seat.SOUTH)
            await room.act(Seat.SOUTH, room.state.legal_actions()[0], room.seq)
            room.unsubscribe(south)  # she closes her tab
            left = room.seq
            await until(lambda: Seat.SOUTH in room.standins, 10)
            assert room.standins[Seat.SOUTH] == "absent"
            assert notices(watcher, "standin")

            def south_moved() -> bool:  # the stand-in plays her seat
                return any(
                    getattr(a, "seat", None) is Seat.SOUTH for a in room.state.history[left:]
                )

            await until(south_moved)
            back = Recorder(Seat.SOUTH)
            room.subscribe(back)  # she comes back: her seat is hers again
            assert Seat.SOUTH not in room.standins
            assert notices(watcher, "returned")

    run(test)


def test_resign_ends_the_game_for_the_other_side_and_leave_gives_the_seat_away(
    tmp_path: Path,
) -> None:
    async def test() -> None:
        async with running_lobby(tmp_path / "g.sqlite3") as lobby:
            room = await make(lobby, BOTS3, me="S")
            south = Recorder(Seat.SOUTH)
            room.subscribe(south)
            await room.resign(Seat.SOUTH)
            assert room.status == "finished"
            assert room.result is not None
            assert (room.result.winner, room.result.reason, room.result.by) == (
                "EW", "resigned", "S",
            )  # fmt: skip
            stored = await lobby.services.store.table(room.id)
            assert stored is not None
            assert stored.status == "finished"
            with pytest.raises(WebError) as refused:
                await room.act(Seat.SOUTH, Pass(Seat.SOUTH), room.seq)
            assert refused.value.code == "finished"
            assert "resigned" in record_text(room)

            other = await make(lobby, BOTS3, me="S")
            leaver = Recorder(Seat.SOUTH)
            other.subscribe(leaver)
            await seating.give_to_bot(other, Seat.SOUTH, other.standin, left=True)
            assert other.seats[Seat.SOUTH].kind == "bot"
            assert leaver.closed is not None
            assert notices(leaver, "left")
            seq = other.seq
            await until(lambda: other.seq > seq + 8)  # the game goes on without her

    run(test)


def test_a_table_nobody_attends_is_closed_archived_and_still_readable(tmp_path: Path) -> None:
    async def test() -> None:
        async with running_lobby(
            tmp_path / "g.sqlite3", idle_close=0.3, keep_finished=0.3, unstarted_close=0.3
        ) as lobby:
            room = await make(lobby, {}, me="S")  # waiting for players who never come
            await until(lambda: time.monotonic() - room.unattended_since > 0.35)
            await lobby.sweep()
            assert room.status == "finished"
            assert room.result is not None
            assert room.result.reason == "closed"
            assert room.private  # a table that never started is not listed among the finished
            archived, _ = await lobby.finished_page(10, None)
            assert archived == []
            await until(lambda: time.monotonic() - room.unattended_since > 0.35)
            await lobby.sweep()
            assert room.id not in lobby.rooms  # out of memory ...
            again = await lobby.room(room.id)  # ... never lost
            assert again.status == "finished"
            assert again is not room

    run(test)


def test_the_next_deal_waits_until_the_people_have_seen_the_hand(tmp_path: Path) -> None:
    async def test() -> None:
        async with running_lobby(tmp_path / "g.sqlite3", summary_limit=30) as lobby:
            room = await make(lobby, {"N": "heuristic", "E": "heuristic", "W": "heuristic"}, "S")
            south = Recorder(Seat.SOUTH)
            room.subscribe(south)
            rng = random.Random(3)
            while not room.state.completed_hands:
                south.heard = time.monotonic()
                await play_south(room, rng, 1)
                await until(lambda: room.state.to_act is Seat.SOUTH or room.state.is_chance)
            assert room.state.is_chance  # the hand is over: the next deal waits for South
            seq = room.seq
            await until(lambda: time.monotonic() - room.last_move > 0.5)
            assert room.seq == seq
            await room.mark_ready(Seat.SOUTH, 0)  # another hand's summary: not this one
            await until(lambda: time.monotonic() - room.last_move > 0.7)
            assert room.seq == seq
            await room.mark_ready(Seat.SOUTH, 1)
            await until(lambda: room.seq > seq)  # dealt at once

    run(test)


def moved_past(room: Room, seq: int) -> Callable[[], bool]:
    """Whether the game has moved past ``seq`` (a condition for :func:`until`)."""
    return lambda: room.seq > seq


def test_the_turn_clock_runs_from_the_start_of_the_turn(tmp_path: Path) -> None:
    """Issue 23: the clock never ends a turn within seconds of its start -- it counts from the
    update that gives the seat its turn, not from her last move, however long the bots (or
    the deal, or the previous hand) took before."""

    async def test() -> None:
        clock = 1.5
        async with running_lobby(tmp_path / "g.sqlite3", bot_delay=0.4, away_after=60) as lobby:
            room = await make(lobby, BOTS3, me="S", clock=clock, standin="random")
            south = Recorder(Seat.SOUTH)
            room.subscribe(south)
            for _ in range(3):  # several turns, each after the three bots' paced moves
                await until(
                    lambda: room.state.to_act is Seat.SOUTH and Seat.SOUTH not in room.standins
                )
                began, seq = time.monotonic(), room.seq
                update = [f for f in south.frames if f["op"] == "update"][-1]
                assert update["clock"]["remaining"] > clock - 0.5  # shown nearly whole
                await until(lambda: Seat.SOUTH in room.standins, 10)  # she lets it run out
                assert time.monotonic() - began >= clock - 0.1
                await until(moved_past(room, seq))  # the stand-in moved for her
                await room.take_back(Seat.SOUTH)

    run(test)


def test_a_silent_player_still_has_her_grace_when_her_turn_begins(tmp_path: Path) -> None:
    """A player connected but silent (a background tab whose pings are throttled) counts as
    away; when her turn comes she still gets the whole absence grace from its start, not the
    rest of a grace that began while the others played."""

    async def test() -> None:
        grace = 1.5
        async with running_lobby(
            tmp_path / "g.sqlite3", bot_delay=0.5, away_after=0.2, absent_grace=grace
        ) as lobby:
            room = await make(lobby, BOTS3, me="S", standin="random")
            south = Recorder(Seat.SOUTH)
            room.subscribe(south)  # connected, and never heard from again
            for _ in range(3):
                await until(
                    lambda: room.state.to_act is Seat.SOUTH and Seat.SOUTH not in room.standins
                )
                began, seq = time.monotonic(), room.seq
                await until(lambda: Seat.SOUTH in room.standins, 10)
                assert time.monotonic() - began >= grace - 0.1
                await until(moved_past(room, seq))  # the stand-in moved for her
                await room.take_back(Seat.SOUTH)
                south.heard = time.monotonic() - 10  # silent again, long ago

    run(test)


def test_the_finished_tables_kept_in_memory_are_bounded(tmp_path: Path) -> None:
    async def test() -> None:
        async with running_lobby(tmp_path / "g.sqlite3", keep_finished_most=2) as lobby:
            rooms = [await make(lobby, {}, me="S") for _ in range(5)]
            for room in rooms:
                async with room.runner.lock:
                    await room.finish(p.Result(None, "abandoned", None))
            await lobby.sweep()
            kept = [room.id for room in rooms if room.id in lobby.rooms]
            assert kept == [rooms[3].id, rooms[4].id]  # the two finished last
            again = await lobby.room(rooms[0].id)  # the others are still stored
            assert again.status == "finished"

    run(test)
