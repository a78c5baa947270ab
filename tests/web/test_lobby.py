"""Rooms and the lobby without a network: persistence, resuming, refusals, quarantine, bots.

These run the server's own classes in the test's event loop, with a real
SQLite file, the writer thread and bot worker processes
(:mod:`tests.web.inprocess`).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from deepsix import Action, Bid, IllegalActionError, Pass, Phase, Reason, Seat
from deepsix.web import seating
from deepsix.web.protocol import WebError
from tests.web.inprocess import Recorder, make, run, running_lobby, until


def test_a_game_survives_a_new_lobby_on_the_same_file(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    seen: dict[str, Any] = {}

    async def first() -> None:
        async with running_lobby(path) as lobby:
            room, secret, host = await lobby.create(
                seats={"N": "random", "E": "random", "W": "random"}, me="S", name="Ann",
                seed=5, private=False, clock=None, standin="heuristic",
            )  # fmt: skip
            for _ in range(10):
                await until(lambda: room.state.to_act is Seat.SOUTH)
                await room.act(Seat.SOUTH, room.state.legal_actions()[0], room.seq)
            seen.update(id=room.id, secret=secret, host=host, seq=room.seq)
            seen.update(history=room.state.history)

    run(first)
    assert seen["seq"] > 10

    async def second() -> None:
        async with running_lobby(path) as lobby:
            room = await lobby.room(seen["id"])
            assert room.seq >= seen["seq"]  # every move is back
            assert room.state.history[: seen["seq"]] == seen["history"]
            assert room.seat_holding(seen["secret"]) is Seat.SOUTH  # the credential still holds
            assert room.is_host(seen["host"])
            assert not room.is_host(seen["secret"])
            assert [slot.kind for slot in room.seats] == ["bot", "bot", "human", "bot"]

    run(second)


def test_refused_moves_change_nothing_and_are_not_stored(tmp_path: Path) -> None:
    async def test() -> None:
        async with running_lobby(tmp_path / "g.sqlite3") as lobby:
            room = await make(lobby, {}, me="N")
            for seat in (Seat.EAST, Seat.SOUTH, Seat.WEST):
                await seating.join(room, seat, "someone")
            await until(lambda: room.state.phase is Phase.BIDDING)
            before, stored = room.state, len(await lobby.services.store.moves(room.id))
            cases: list[tuple[Seat, Action, Reason]] = [
                (Seat.SOUTH, Pass(Seat.EAST), Reason.NOT_YOUR_SEAT),
                (Seat.SOUTH, Pass(Seat.SOUTH), Reason.NOT_YOUR_TURN),
                (Seat.EAST, Bid(Seat.EAST, 125), Reason.BID_NOT_MULTIPLE),
            ]
            for seat, action, reason in cases:
                with pytest.raises(IllegalActionError) as refused:
                    await room.act(seat, action, room.seq)
                assert refused.value.reason is reason
                assert room.state is before
            with pytest.raises(WebError) as stale:  # a legal move, chosen at another seq
                await room.act(Seat.EAST, Pass(Seat.EAST), room.seq - 1)
            assert stale.value.code == "stale"
            assert room.state is before
            assert len(await lobby.services.store.moves(room.id)) == stored

    run(test)


def test_pushes_go_to_each_seat_with_its_own_view(tmp_path: Path) -> None:
    async def test() -> None:
        async with running_lobby(tmp_path / "g.sqlite3") as lobby:
            room = await make(lobby, {"N": "heuristic", "E": "heuristic", "W": "heuristic"}, "S")
            south, watcher = Recorder(Seat.SOUTH), Recorder(None)
            room.subscribe(south)
            room.subscribe(watcher)
            await until(lambda: room.state.to_act is Seat.SOUTH)
            await until(lambda: south.frames[-1]["seq"] == room.seq)
            hand = [card.ascii for card in room.state.hand(Seat.SOUTH)]
            assert south.frames[-1]["view"]["hand"] == hand
            assert watcher.frames[-1]["view"]["hand"] == []
            assert all(card not in json.dumps(watcher.frames) for card in ["@"])

    run(test)


def test_a_table_that_cannot_be_rebuilt_is_quarantined_and_the_others_start(
    tmp_path: Path,
) -> None:
    path = tmp_path / "g.sqlite3"
    ids: list[str] = []

    async def fill() -> None:
        async with running_lobby(path) as lobby:
            for _ in range(6):
                room = await make(lobby, {}, me="N")
                await seating.join(room, Seat.EAST, "")
                ids.append(room.id)
            for room_id in ids:
                room = await lobby.room(room_id)
                await seating.join(room, Seat.SOUTH, "")
                await seating.join(room, Seat.WEST, "")
                await until(lambda room=room: room.seq >= 1)  # type: ignore[misc]  # bound

    run(fill)
    db = sqlite3.connect(path)
    damage = {
        ids[0]: 'UPDATE actions SET action = \'{"type": "Bid", "seat": "N", "amount": 90}\''
        " WHERE table_id = ? AND seq = 1",  # an illegal move (a bid where a deal was)
        ids[1]: "UPDATE actions SET action = 'not json' WHERE table_id = ?",
        ids[2]: "UPDATE tables SET rules = '' WHERE id = ?",
        ids[3]: "UPDATE tables SET seats = 'nope' WHERE id = ?",
    }
    for table_id, sql in damage.items():
        db.execute(sql, (table_id,))
    db.execute(  # a gap: move 3 stored, move 2 missing
        "INSERT INTO actions VALUES (?, 3, '\"x\"', 0)", (ids[4],)
    )
    db.commit()
    db.close()

    async def reload() -> None:
        async with running_lobby(path) as lobby:
            assert set(lobby.quarantined) == set(ids[:5])
            reasons = lobby.quarantined
            assert "move 1 cannot be replayed" in reasons[ids[0]]
            assert "move 1 cannot be replayed" in reasons[ids[1]]
            assert "rules cannot be read" in reasons[ids[2]]
            assert "cannot be read" in reasons[ids[3]]
            assert "move 2 is missing" in reasons[ids[4]]
            assert ids[5] in lobby.rooms  # the good table starts normally
            listed = {q.id: q.reason for q in lobby.frame().quarantined}
            assert listed == reasons
            with pytest.raises(WebError) as refused:
                await lobby.room(ids[0])
            assert refused.value.code == "quarantined"

    run(reload)


def test_a_bot_no_longer_installed_is_replaced_by_the_stand_in(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite3"
    made: list[str] = []

    async def first() -> None:
        async with running_lobby(path) as lobby:
            room = await make(lobby, {"E": "random"}, me="N")
            made.append(room.id)

    run(first)
    db = sqlite3.connect(path)
    seats = json.loads(db.execute("SELECT seats FROM tables").fetchone()[0])
    seats[1]["bot"] = "uninstalled"
    db.execute("UPDATE tables SET seats = ?", (json.dumps(seats),))
    db.commit()
    db.close()

    async def second() -> None:
        async with running_lobby(path) as lobby:
            assert not lobby.quarantined
            room = await lobby.room(made[0])
            assert room.seats[1].bot == "heuristic"

    run(second)


def test_the_bot_registry_is_read_when_asked(tmp_path: Path) -> None:
    from deepsix.play import bots
    from deepsix.web.slots import bot_names, check_bot

    bots.register_bot("stronger", "deepsix.play.bots:RandomBot")  # as a plug-in registers
    try:
        assert "stronger" in bot_names()  # offered without a change to the server
        assert check_bot("stronger") == "stronger"
        with pytest.raises(WebError, match="unknown bot"):
            check_bot("grandmaster")
    finally:
        del bots.BOT_NAMES._entries["stronger"]  # the registry has no public removal
    assert "stronger" not in bot_names()
