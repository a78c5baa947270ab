"""Two server processes, one PostgreSQL database, one site: a game split between them survives
one of them being killed with SIGKILL in the middle of a hand.

The servers are the program users run (``python -m deepsix.web --db
postgresql://...``) on two ports of 127.0.0.1, as a load balancer would
spread players over two processes.  Every check reads the database the
servers wrote, through the library's engine.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from deepsix import (
    Deal,
    GameState,
    HeuristicBot,
    PlayerView,
    Rules,
    Seat,
    apply,
    from_json,
    new_game,
    view,
)
from deepsix.io.wire import action_from_wire, from_wire, to_wire
from tests.web.harness import SEATS, Client, Server
from tests.web.scale.postgres import require_driver

psycopg = require_driver()


class SharedServer(Server):
    """``python -m deepsix.web`` on a PostgreSQL database."""

    def __init__(self, directory: Path, url: str, name: str) -> None:
        directory.mkdir(exist_ok=True)
        super().__init__(directory, log_level="info")
        self.db = url  # type: ignore[assignment]  # the command line takes a URL as well
        self.name = name

    def states(self, table: str) -> list[GameState]:
        """Every state of the table's game, from the moves the servers stored."""
        return stored_states(str(self.db), table)


def stored_moves(url: str, table: str) -> list[str]:
    with psycopg.connect(url) as db:
        rows = db.execute(
            "SELECT seq, action FROM deepsix.moves WHERE table_id = %s ORDER BY seq", (table,)
        ).fetchall()
    assert [seq for seq, _ in rows] == list(range(1, len(rows) + 1))  # one move per seq, no gap
    return [str(action) for _, action in rows]


def stored_states(url: str, table: str) -> list[GameState]:
    with psycopg.connect(url) as db:
        found = db.execute(
            "SELECT rules, dealer FROM deepsix.tables WHERE id = %s", (table,)
        ).fetchone()
    assert found is not None
    state = new_game(from_json(found[0], Rules), Seat(SEATS.index(found[1])))
    states = [state]
    for text in stored_moves(url, table):
        state = apply(state, action_from_wire(json.loads(text)))
        states.append(state)
    return states


@pytest.fixture
def two_servers(tmp_path: Path, database: str) -> Iterator[tuple[SharedServer, SharedServer]]:
    first = SharedServer(tmp_path / "a", database, "a")
    second = SharedServer(tmp_path / "b", database, "b")
    try:
        first.start()
        second.start()
        yield first, second
    finally:
        first.stop()
        second.stop()


def test_a_move_races_at_two_servers_and_exactly_one_is_stored(
    two_servers: tuple[SharedServer, SharedServer],
) -> None:
    first, _ = two_servers
    table, tokens = first.four_humans(seed=11)
    dealt = [Client(server, table, tokens[seat]) for seat in SEATS for server in two_servers]
    for client in dealt:
        client.reach(1)  # the deal, made by the table's server, reached both servers' sockets
    seat = dealt[0].last["view"]["to_act"]
    here, there = (c for c in dealt if c.seat is not None and SEATS[c.seat] == seat)
    legal = here.last["view"]["legal_actions"]
    assert len(legal) >= 2
    here.send({"op": "act", "action": legal[0], "seq": 1})
    there.send({"op": "act", "action": legal[1], "seq": 1})
    answers = [
        client.until(lambda frame: frame["op"] in ("update", "error") and frame.get("seq") != 1)
        for client in (here, there)
    ]
    moves = stored_moves(str(first.db), table)
    assert len(moves) == 2  # the deal and exactly one of the two moves
    stored = json.loads(moves[1])
    winner = 0 if stored == legal[0] else 1
    assert stored == legal[winner]
    assert answers[winner]["op"] == "update"
    loser = (here, there)[1 - winner]
    refused = answers[1 - winner]
    if refused["op"] == "error":
        assert refused["code"] == "stale"
    # both servers tell their clients the truth: every socket shows the stored move
    for client in dealt:
        assert client.reach(2)["seq"] == 2
        assert client.last["view"] == to_wire(view(first.states(table)[2], client.seat))
    assert loser.last["seq"] == 2
    for client in dealt:
        client.close()


# -- the game split between two servers, one of them killed mid-hand -------------------------


class Seen:
    """What every client of the game saw and did."""

    def __init__(self) -> None:
        self.views: list[tuple[str, int, dict[str, Any]]] = []
        """(seat, seq, view) of every update a client received."""
        self.sent: list[tuple[str, int, dict[str, Any], str]] = []
        """(seat, seq chosen at, action, server) of every move a client sent."""
        self.errors: list[dict[str, Any]] = []
        self.top = 0
        self.reconnects = 0
        self.killed_at = 0
        """The highest seq a client had seen when the server was killed."""


async def play_seat(  # noqa: PLR0917  # one seat's whole client
    seat: str,
    token: str,
    servers: list[SharedServer],
    table: str,
    seen: Seen,
    rng: random.Random,
) -> None:
    """One player: plays her seat with the heuristic bot, moves to the other server when hers
    goes away, sends ``ready`` after each hand, until the game is over."""
    since: int | None = None
    while True:
        server = next(s for s in servers if s.alive())
        url = f"ws://127.0.0.1:{server.port}/api/tables/{table}/socket"
        try:
            async with connect(url, max_size=None, ping_interval=None) as socket:
                hello: dict[str, object] = {"op": "hello", "protocol": 2, "token": token}
                if since is not None:
                    hello["since"] = since
                await socket.send(json.dumps(hello))
                pending: int | None = None
                hands_seen = -1
                async for text in socket:
                    frame = json.loads(text)
                    if frame["op"] == "error":
                        seen.errors.append(frame)
                        pending = None
                        continue
                    if frame["op"] != "update":
                        continue
                    seq, shown = frame["seq"], frame["view"]
                    since = seq
                    seen.top = max(seen.top, seq)
                    seen.views.append((seat, seq, shown))
                    if frame["table"]["status"] == "finished":
                        return
                    hands = len(shown["completed_hands"])
                    if hands != hands_seen:
                        hands_seen = hands
                        if hands:
                            await socket.send(json.dumps({"op": "ready", "hand": hands}))
                    if shown["legal_actions"] and pending != seq:
                        pending = seq
                        decoded = from_wire(shown, PlayerView, trusted=True)
                        action = to_wire(HeuristicBot().choose(decoded, rng))
                        seen.sent.append((seat, seq, action, server.name))
                        await socket.send(json.dumps({"op": "act", "action": action, "seq": seq}))
        except (ConnectionClosed, OSError):
            pass
        seen.reconnects += 1
        await asyncio.sleep(0.1)


async def kill_mid_hand(victim: SharedServer, seen: Seen, first_hand: int) -> None:
    """SIGKILL ``victim`` in the trick play of the second hand."""
    while seen.top < first_hand + 30:
        await asyncio.sleep(0.01)
    seen.killed_at = seen.top
    await asyncio.to_thread(victim.kill)


def test_a_game_split_between_two_servers_survives_one_being_killed_mid_hand(
    two_servers: tuple[SharedServer, SharedServer],
) -> None:
    first, second = two_servers
    made = first.create({}, me="N", seed=2026)  # made at the first: its deals and clocks run there
    table = made["table"]["id"]
    tokens = {"N": made["token"], "E": first.join(table, "E")}
    tokens.update({seat: second.join(table, seat) for seat in "SW"})  # the second serves it too
    homes = {"N": [first, second], "E": [first, second], "S": [second, first], "W": [second, first]}
    first_hand = len(play_one_hand_length(2026))
    seen = Seen()
    rng = random.Random(25)

    async def game() -> None:
        players = [
            play_seat(seat, tokens[seat], homes[seat], table, seen, random.Random(rng.random()))
            for seat in SEATS
        ]
        killer = asyncio.create_task(kill_mid_hand(first, seen, first_hand))
        try:
            await asyncio.wait_for(asyncio.gather(*players), 240)
        except TimeoutError:
            tail = {s.name: s.log.read_text(errors="replace")[-3000:] for s in two_servers}
            pytest.fail(
                f"the game did not finish: top seq {seen.top} (hand 2 from {first_hand}),"
                f" {len(seen.sent)} moves sent, {seen.reconnects} reconnects,"
                f" errors {seen.errors[-3:]}, killed: {killer.done()}; logs {tail}"
            )
        assert killer.done()
        await killer

    asyncio.run(game())
    assert not first.alive()
    states = second.states(table)
    final = states[-1]
    assert final.is_over, "the game was finished"
    assert len(final.completed_hands) >= 2
    # Nothing any client saw was lost: every view a seat was shown is that seat's view of the
    # stored game at that seq.
    for seat, seq, shown in seen.views:
        assert shown == to_wire(view(states[seq], Seat(SEATS.index(seat)))), (seat, seq)
    # The stored record is the moves the clients made (and the servers' deals): each stored
    # move that is not a deal was sent by the seat to act, chosen at the seq before it.
    sent = {(seq, json.dumps(action, sort_keys=True)): seat for seat, seq, action, _ in seen.sent}
    for seq, state in enumerate(states[1:], start=1):
        action = state.history[-1]
        if isinstance(action, Deal):
            continue
        wire = json.dumps(to_wire(action), sort_keys=True)
        actor = states[seq - 1].to_act
        assert actor is not None
        assert sent.get((seq - 1, wire)) == SEATS[actor], (seq, wire)
    # Moves sent but never stored: only those lost with the killed server, or refused as stale.
    stored = {(seq - 1, json.dumps(to_wire(s.history[-1]), sort_keys=True)) for seq, s in
              enumerate(states[1:], start=1)}  # fmt: skip
    unstored = [(seat, where) for seat, seq, action, where in seen.sent
                if (seq, json.dumps(action, sort_keys=True)) not in stored]  # fmt: skip
    assert all(where == "a" for _, where in unstored), unstored
    assert len(unstored) <= 4, unstored
    assert {error["code"] for error in seen.errors} <= {"stale"}, seen.errors
    assert seen.reconnects >= 2  # N and E moved to the second server
    # The second server took the table over: it dealt the hands after the kill.
    assert seen.killed_at > first_hand
    later_deals = [seq for seq, s in enumerate(states) if seq > seen.killed_at and s.history
                   and isinstance(s.history[-1], Deal)]  # fmt: skip
    assert later_deals, "no deal after the kill: the game ended in the hand it was killed in"


def play_one_hand_length(seed: int) -> list[object]:
    """The first hand's actions (with its deal) of the same seat bots' game: where hand 2 starts."""
    from deepsix.play.loop import GameDriver

    driver = GameDriver(seed)
    state = new_game()
    actions: list[object] = []
    bots = [HeuristicBot()] * 4
    while not state.completed_hands:
        action, state = driver.step(state, bots)
        actions.append(action)
    return actions


def test_seats_taken_at_both_servers_at_once_are_all_kept(
    two_servers: tuple[SharedServer, SharedServer],
) -> None:
    """Seats joined at alternate servers, each before the other's change reached it: every
    join is kept (a server that loses a row race takes the newer row and joins again, never
    writes back its stale seats), and every token holds its seat at either server at once."""
    first, second = two_servers
    for round_ in range(4):
        made = first.create({}, me="N")
        table = made["table"]["id"]
        tokens = {"N": made["token"]}
        for index, seat in enumerate("ESW", start=1):
            tokens[seat] = (second, first)[index % 2].join(table, seat)
        with psycopg.connect(str(first.db)) as db:
            query = "SELECT seats FROM deepsix.tables WHERE id = %s"
            found = db.execute(query, (table,)).fetchone()
        assert found is not None
        assert [slot["kind"] for slot in json.loads(found[0])] == ["human"] * 4, round_
        for seat, token in tokens.items():
            for server in two_servers:
                client = Client(server, table, token)
                assert client.seat == Seat(SEATS.index(seat)), (round_, seat, server.name)
                client.close()
