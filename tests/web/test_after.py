"""After the game and around it: the record and the command line, replays, rematches, the lobby,
chat and the host's settings.

The first test is issue 23's "a test replays a finished web game's record
through the CLI and gets the same game": the web table's deals and bots go
through the library's own step driver, so the record replays with
``deepsix replay`` to the same end, and ``deepsix watch`` with the record's
seed plays the very same game, move for move.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from deepsix import Seat, view
from deepsix.events import events
from deepsix.io.record import read_record
from deepsix.io.wire import to_wire
from deepsix.rebuild import walk
from tests.web.harness import Client, Server, check_frame, cookie_of

LINEUP = ("heuristic", "random", "heuristic", "random")


@pytest.fixture(scope="module")
def unseeded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server as users run it: the seeds are its own."""
    running = Server(tmp_path_factory.mktemp("unseeded"), seeded=False)
    running.start()
    yield running
    running.stop()


def finished_game(server: Server) -> str:
    """A table of four bots, played to its end: its id."""
    made = server.create(dict(zip("NESW", LINEUP, strict=True)), me=None)
    table = made["table"]["id"]
    watcher = Client(server, table, None)
    watcher.until(
        lambda frame: frame["op"] == "update" and frame["table"]["status"] == "finished", 240
    )
    watcher.close()
    return str(table)


def deepsix(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "deepsix", "--no-color", *args],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip


def test_a_finished_web_game_replays_through_the_command_line_as_the_same_game(
    unseeded: Server, tmp_path: Path
) -> None:
    table = finished_game(unseeded)
    final = unseeded.states(table)[-1]
    assert final.is_over
    status, text, headers = unseeded.request("GET", f"/api/tables/{table}/record")
    assert status == 200
    assert f'filename="deepsix-{table}.txt"' in headers["content-disposition"]
    saved = tmp_path / "web.txt"
    saved.write_text(text)
    record = read_record(text)
    assert record.actions == final.history
    assert [record.tag(name) for name in ("North", "East", "South", "West")] == list(LINEUP)
    assert record.tag("Seeded") == "no"
    seed = record.tag("Seed")
    assert seed is not None
    # the command line replays the record to the same end ...
    replayed = deepsix("replay", str(saved), "--hide-hands")
    assert replayed.returncode == 0, replayed.stderr
    hands = len(final.completed_hands)
    ending = f"Game over after {hands} hand{'s' if hands > 1 else ''}: "
    assert f"{ending}NS {final.scores[0]}, EW {final.scores[1]}." in replayed.stdout
    # ... and plays the same game again from its seed, through the same driver
    again = tmp_path / "watch.txt"
    watched = deepsix("watch", "--seed", seed, "--bots", *LINEUP, "--hide-hands", "--save",
                      str(again))  # fmt: skip
    assert watched.returncode == 0, watched.stderr
    assert read_record(again.read_text()).actions == record.actions


def test_the_replay_data_of_a_finished_game(unseeded: Server) -> None:
    table = finished_game(unseeded)
    states = unseeded.states(table)
    final = states[-1]
    status, page = unseeded.call("GET", f"/api/tables/{table}/replay")
    assert status == 200
    assert page["total"] == len(final.history) == len(page["steps"])
    assert page["hands"] == [to_wire(record) for record in final.completed_hands]
    assert page["table"]["id"] == table
    for step, (before, action, after) in zip(
        page["steps"], walk(states[0], final.history), strict=True
    ):
        assert step["events"] == [to_wire(event) for event in events(before, action, after)]
        assert step["hand"] == before.hand_number
        assert (step["move"] is None) == (step["action"] == "deal")  # a deal's cards: not here
        assert step["view"] is None
    status, page = unseeded.call("GET", f"/api/tables/{table}/replay?seat=E&start=20&count=30")
    assert [step["seq"] for step in page["steps"]] == list(range(20, 50))
    for step in page["steps"]:
        assert step["view"] == to_wire(view(states[step["seq"]], Seat.EAST))
        assert step["hands"] is None
    status, page = unseeded.call("GET", f"/api/tables/{table}/replay?seat=open&count=5")
    assert page["steps"][-1]["hands"] == [
        [card.ascii for card in states[5].hand(seat)] for seat in Seat
    ]
    status, body = unseeded.call("GET", f"/api/tables/{table}/replay?seat=E&count=501")
    assert (status, body["error"]["code"]) == (400, "bad-request")


def test_a_rematch_keeps_the_people_and_lets_partners_swap(server: Server) -> None:
    status, made, headers = server.request(
        "POST", "/api/tables", {"seats": {"E": "random", "W": "random"}, "me": "N", "name": "Ann"}
    )
    table = made["table"]["id"]
    bob = server.call("POST", f"/api/tables/{table}/join", {"seat": "S", "name": "Bob"})[1]
    old = Client(server, table, bob["token"])
    status, body = server.call("POST", f"/api/tables/{table}/rematch", {}, made["token"])
    assert (status, body["error"]["code"]) == (409, "not-finished")
    old.send({"op": "resign"})
    old.until(lambda frame: frame["op"] == "update" and frame["table"]["status"] == "finished")
    # Ann asks: Bob (South) and East trade seats, so Ann's partner is now a bot
    status, body, headers = server.request(
        "POST", f"/api/tables/{table}/rematch", {"seating": "NSEW"}, made["token"]
    )
    assert status == 201, body
    new = body["table"]["id"]
    assert new != table
    assert body["seat"] == "N"
    assert cookie_of(headers).startswith("deepsix-seat=")  # her seat at the new table
    assert [(s["kind"], s["name"]) for s in body["table"]["seats"]] == [
        ("human", "Ann"), ("human", "Bob"), ("bot", "East"), ("bot", "West"),
    ]  # fmt: skip
    assert body["table"]["status"] == "running"
    notice = old.until(lambda frame: frame["op"] == "notice" and frame["kind"] == "rematch")
    assert notice["table"] == new
    # Bob asks too: the same rematch, his seat there (East now)
    status, his, headers = server.request("POST", f"/api/tables/{table}/rematch", {}, bob["token"])
    assert (status, his["table"]["id"], his["seat"]) == (201, new, "E")
    bob_there = Client(server, new, None, cookie=cookie_of(headers))
    assert bob_there.seat is Seat.EAST
    assert server.call("GET", f"/api/tables/{table}")[1]["next"] == new
    for client in (old, bob_there):
        client.close()


def _lobby(server: Server) -> ClientConnection:
    # entered as a context manager (websockets 17.1 deprecates connecting otherwise)
    socket = connect(f"ws://127.0.0.1:{server.port}/api/lobby", max_queue=None).__enter__()
    socket.send(json.dumps({"op": "hello", "protocol": 2}))
    return socket


def _lobby_until(socket: ClientConnection, condition: Any, timeout: float = 10) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        frame: dict[str, Any] = json.loads(socket.recv(max(0.01, deadline - time.monotonic())))
        check_frame(frame, lobby=True)
        if condition(frame):
            return frame


def test_the_lobby_is_pushed_live_with_open_running_and_finished_apart(server: Server) -> None:
    socket = _lobby(server)
    first = _lobby_until(socket, lambda frame: frame["op"] == "lobby")
    assert set(first) == {"op", "open", "running", "finished", "quarantined"}
    made = server.create({"E": "random", "W": "random"}, me="N")
    table = made["table"]["id"]

    def where(frame: dict[str, Any]) -> str | None:
        for part in ("open", "running", "finished"):
            if table in [info["id"] for info in frame[part]]:
                return part
        return None

    _lobby_until(socket, lambda frame: where(frame) == "open")  # pushed, not polled
    hidden = server.create({"E": "random", "W": "random"}, me="N", private=True)
    joined = server.join(table, "S")
    frame = _lobby_until(socket, lambda frame: where(frame) == "running")
    assert hidden["table"]["id"] not in json.dumps(frame)  # a private table is never listed
    player = Client(server, table, joined)
    player.send({"op": "resign"})
    _lobby_until(socket, lambda frame: where(frame) == "finished")
    player.close()
    socket.close()
    status, page = server.call("GET", "/api/tables?status=finished&limit=1")
    assert status == 200
    assert len(page["tables"]) == 1
    assert page["next"] is not None
    status, rest = server.call(
        "GET", f"/api/tables?status=finished&limit=100&before={page['next']}"
    )
    assert page["tables"][0]["id"] not in [info["id"] for info in rest["tables"]]


def test_table_chat_is_plain_limited_stored_and_sent_to_newcomers(server: Server) -> None:
    table, tokens = server.four_humans(seed=31)
    north, south = Client(server, table, tokens["N"]), Client(server, table, tokens["S"])
    north.send({"op": "chat", "text": "  <b>well</b>\u0007 played\u202e  partner "})
    line = south.until(lambda frame: frame["op"] == "chat" and frame["messages"])["messages"][0]
    assert line["text"] == "<b>well</b> played partner"  # plain text, controls gone
    assert (line["seat"], line["name"]) == ("N", "North")
    for number in range(6):
        north.send({"op": "chat", "text": f"line {number}"})
    refused = north.until(lambda frame: frame["op"] == "error")
    assert refused["code"] == "chat-limit"
    newcomer = Client(server, table, None)
    history = next(frame for frame in newcomer.frames if frame["op"] == "chat")
    assert history["messages"][0]["text"] == "<b>well</b> played partner"
    db = sqlite3.connect(f"file:{server.db}?mode=ro", uri=True)
    stored = db.execute("SELECT text FROM chat WHERE table_id = ?", (table,)).fetchall()
    db.close()
    assert stored[0] == ("<b>well</b> played partner",)
    for client in (north, south, newcomer):
        client.close()


def test_the_host_changes_the_settings_and_ends_the_table(server: Server) -> None:
    made = server.create({"E": "random", "W": "random"}, me="N")
    table, host = made["table"]["id"], made["host_token"]
    joined = server.join(table, "S")
    path = f"/api/tables/{table}"
    status, body = server.call("POST", f"{path}/settings", {"private": True}, joined)
    assert (status, body["error"]["code"]) == (403, "forbidden")
    settings = {"private": True, "clock": 45, "standin": "random"}
    status, body = server.call("POST", f"{path}/settings", settings, host)
    assert status == 200, body
    assert (body["table"]["private"], body["table"]["clock"], body["table"]["standin"]) == (
        True, 45.0, "random",
    )  # fmt: skip
    assert table not in json.dumps(server.call("GET", "/api/tables")[1])
    status, body = server.call("POST", f"{path}/settings", {"clock": 0.01}, host)
    assert (status, body["error"]["code"]) == (400, "bad-request")
    watcher = Client(server, table, joined)
    status, body = server.call("POST", f"{path}/abandon", {}, host)
    assert status == 200
    assert body["table"]["result"] == {"winner": None, "reason": "abandoned", "by": None}
    assert watcher.until(lambda frame: frame["op"] == "notice")["kind"] == "abandoned"
    watcher.close()


def test_a_rematch_seat_has_a_credential_of_its_own(server: Server) -> None:
    """Issue 23: the rematch's seats reused the old table's credential hashes, so a credential
    re-issued (revoked) at one table still held the seat at the other.  A rematch seat is a
    claim on the old seat: only its present holder gets the new seat, with a new credential."""
    made = server.create({"E": "random", "W": "random"}, me="N", name="Ann")
    table, ann, host = made["table"]["id"], made["token"], made["host_token"]
    bob = server.call("POST", f"/api/tables/{table}/join", {"seat": "S", "name": "Bob"})[1]
    status, _ = server.call("POST", f"/api/tables/{table}/abandon", {}, host)
    assert status == 200

    def holds(table_id: str, token: str) -> bool:
        status, _ = server.call("POST", f"/api/tables/{table_id}/session", {}, token)
        return status == 200

    status, body = server.call("POST", f"/api/tables/{table}/rematch", {}, ann)
    assert (status, body["seat"]) == (201, "N")
    new, ann_there = body["table"]["id"], body["token"]
    assert ann_there != ann
    assert holds(new, ann_there)
    assert not holds(new, ann)  # the old credential is the old table's only
    assert holds(table, ann)
    # Bob's credential leaked: the host re-issues it at the old table before he claims
    status, reissued = server.call("POST", f"/api/tables/{table}/seats/S/credential", {}, host)
    assert status == 200
    status, body = server.call("POST", f"/api/tables/{table}/rematch", {}, bob["token"])
    assert (status, body["error"]["code"]) == (401, "unauthorized")  # the leaked one: nothing
    assert not holds(new, bob["token"])
    status, body = server.call("POST", f"/api/tables/{table}/rematch", {}, reissued["token"])
    assert (status, body["seat"]) == (201, "S")
    bob_there = body["token"]
    assert holds(new, bob_there)
    # re-issuing at the new table leaves the old table's credential as it was
    status, _ = server.call("POST", f"/api/tables/{new}/seats/S/credential", {}, bob_there)
    assert status == 200
    assert not holds(new, bob_there)
    assert holds(table, reissued["token"])
