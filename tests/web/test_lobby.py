"""The lobby without a network: persistence, resuming, the bot registry, refused moves."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import time
from pathlib import Path

import pytest

from deepsix import (
    Action,
    Bid,
    IllegalActionError,
    Pass,
    Phase,
    PlayerView,
    RandomBot,
    Reason,
    Seat,
)
from deepsix.web.store import Store
from deepsix.web.tables import Lobby, Table, WebError, bot_names


class Recorder:
    """A subscriber that keeps the frames it is pushed."""

    def __init__(self, seat: Seat | None) -> None:
        self.seat = seat
        self.frames: list[str] = []

    def push(self, text: str) -> None:
        self.frames.append(text)


async def _settle(table: Table) -> None:
    while table.runner is not None and not table.runner.done():
        await asyncio.sleep(0)


def test_a_game_survives_a_new_lobby_on_the_same_file(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"

    async def first() -> tuple[str, str, int]:
        lobby = Lobby(Store(path))
        table, token = lobby.create({"N": "random", "E": "random", "W": "random"}, me="S", seed=5)
        assert token is not None
        for _ in range(30):
            await _settle(table)
            state = table.state
            if state.to_act is Seat.SOUTH:
                await lobby.act(table, Seat.SOUTH, state.legal_actions()[0])
        await _settle(table)
        lobby.store.close()
        return table.id, token, table.seq

    table_id, token, seq = asyncio.run(first())
    assert seq > 30

    async def second() -> None:
        lobby = Lobby(Store(path))
        assert lobby.load() == 1
        table = lobby.table(table_id)
        assert table.seq == seq  # every move is back
        assert lobby.authenticate(table, token) is Seat.SOUTH  # and the token still holds the seat
        assert table.bots[Seat.NORTH].__class__ is RandomBot

    asyncio.run(second())


def test_refused_moves_change_nothing_and_are_not_stored(tmp_path: Path) -> None:
    async def run() -> None:
        lobby = Lobby(Store(tmp_path / "g.sqlite3"))
        table, _ = lobby.create({}, me="N", seed=1)
        for letter in "ESW":
            lobby.join(table.id, letter)
        await _settle(table)
        assert table.state.phase is Phase.BIDDING
        before, stored = table.state, lobby.store.count(table.id)
        cases: list[tuple[Seat, Action, Reason]] = [
            (Seat.SOUTH, Pass(Seat.EAST), Reason.NOT_YOUR_SEAT),
            (Seat.SOUTH, Pass(Seat.SOUTH), Reason.NOT_YOUR_TURN),
            (Seat.EAST, Bid(Seat.EAST, 125), Reason.BID_NOT_MULTIPLE),
        ]
        for seat, action, reason in cases:
            with pytest.raises(IllegalActionError) as refused:
                await lobby.act(table, seat, action)
            assert refused.value.reason is reason
            assert table.state is before
            assert lobby.store.count(table.id) == stored

    asyncio.run(run())


def test_pushes_go_to_each_seat_with_its_own_view(tmp_path: Path) -> None:
    async def run() -> None:
        lobby = Lobby(Store(tmp_path / "g.sqlite3"))
        table, _ = lobby.create({"N": "heuristic", "E": "heuristic", "W": "heuristic"}, me="S")
        south, watcher = Recorder(Seat.SOUTH), Recorder(None)
        lobby.subscribe(table, south)
        lobby.subscribe(table, watcher)
        await _settle(table)
        assert south.frames
        assert watcher.frames
        hand = [card.ascii for card in table.state.hand(Seat.SOUTH)]
        assert all(card in south.frames[-1] for card in hand)
        assert '"hand":[]' in watcher.frames[-1]

    asyncio.run(run())


def test_the_bot_registry_is_read_when_asked() -> None:
    from deepsix.play import bots

    bots.register_bot("stronger", RandomBot)  # as a search bot registers itself
    try:
        assert "stronger" in bot_names()  # offered without a change to the server

        async def run() -> None:
            lobby = Lobby(Store(":memory:"))
            table, _ = lobby.create({"N": "stronger"}, me="S")
            assert isinstance(table.bots[Seat.NORTH], RandomBot)
            with pytest.raises(WebError, match="unknown bot"):
                lobby.create({"N": "grandmaster"})

        asyncio.run(run())
    finally:
        del bots.BOT_NAMES._entries["stronger"]  # the registry has no public removal
    assert "stronger" not in bot_names()


def test_a_store_with_a_missing_action_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite3"

    async def run() -> str:
        lobby = Lobby(Store(path))
        table, _ = lobby.create({"N": "random", "E": "random", "W": "random", "S": "random"})
        await _settle(table)
        lobby.store.close()
        return table.id

    table_id = asyncio.run(run())
    db = sqlite3.connect(path)
    db.execute("DELETE FROM actions WHERE table_id = ? AND seq = 5", (table_id,))
    db.commit()
    db.close()
    with pytest.raises(sqlite3.DatabaseError, match="action 5 is missing"):
        Lobby(Store(path)).load()


class SlowBot(RandomBot):
    """A bot that thinks for a while, as a search would."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        time.sleep(0.4)
        return super().choose(view, rng)


def test_a_slow_bot_does_not_stall_the_other_tables() -> None:
    from deepsix.play import bots

    bots.register_bot("slow", SlowBot)
    try:

        async def run() -> float:
            lobby = Lobby(Store(":memory:"))
            slow, _ = lobby.create({"N": "slow", "E": "slow", "W": "slow", "S": "slow"})
            quick, _ = lobby.create({"N": "random"}, me="E", seed=3)
            for letter in "SW":
                lobby.join(quick.id, letter)
            await _settle(quick)
            await asyncio.sleep(0.05)  # the slow table's first bot is thinking now
            assert slow.runner is not None
            assert not slow.runner.done()
            start = time.perf_counter()
            for _ in range(5):  # the event loop keeps turning ...
                await asyncio.sleep(0.01)
            await lobby.act(quick, Seat.EAST, Pass(Seat.EAST))  # ... and serves the other table
            elapsed = time.perf_counter() - start
            await lobby.close()
            return elapsed

        assert asyncio.run(run()) < 0.3  # a bot move takes 0.4 s
    finally:
        del bots.BOT_NAMES._entries["slow"]  # the registry has no public removal
