"""The server over real sockets: the HTTP API, whole hands over WebSockets, no leak in any frame."""

from __future__ import annotations

import json
import random
import re
import sqlite3
import urllib.request
from typing import Any

import jsonschema

from deepsix import Phase, Seat
from deepsix.io.wire import wire_schema
from tests.web.harness import SEATS, Audit, Client, Server


def test_the_api_lists_bots_from_the_registry(server: Server) -> None:
    from deepsix.play.bots import BOT_NAMES

    status, body = server.call("GET", "/api/bots")
    assert status == 200
    # the library's registry, then the bots the server was started with (deepsix serve --bot)
    assert sorted(body["bots"]) == sorted([*BOT_NAMES, "sleepy", "failing", "chatty"])


def test_create_join_fill_and_list(server: Server) -> None:
    made = server.create({"E": "random"}, me="S", name="Ann")
    table = made["table"]["id"]
    assert made["url"] == f"/table/{table}"  # no secret in an address
    assert not made["table"]["started"]  # N and W are open
    kinds = [slot["kind"] for slot in made["table"]["seats"]]
    assert kinds == ["open", "bot", "human", "open"]
    token = server.join(table, "N", "Bob")
    status, body = server.call("POST", f"/api/tables/{table}/join", {"seat": "N"})
    assert (status, body["error"]["code"]) == (409, "seat-taken")
    status, body = server.call("POST", f"/api/tables/{table}/fill", {"bot": "heuristic"})
    assert (status, body["error"]["code"]) == (401, "unauthorized")
    status, body = server.call("POST", f"/api/tables/{table}/fill", {"bot": "heuristic"}, token)
    assert status == 200
    assert body["table"]["started"]
    assert [slot["name"] for slot in body["table"]["seats"]] == ["Bob", "East", "Ann", "West"]
    status, listing = server.call("GET", "/api/tables")
    assert table in [entry["id"] for entry in listing["tables"]]
    text = json.dumps(listing)
    assert made["token"] not in text
    assert token not in text


def test_refused_requests_say_why(server: Server) -> None:
    cases: list[tuple[str, str, Any, int, str]] = [
        ("POST", "/api/tables", {"seats": {"E": "grandmaster"}}, 400, "unknown-bot"),
        ("POST", "/api/tables", {"seats": {"X": "random"}}, 400, "bad-seat"),
        ("POST", "/api/tables", {"seats": [], "me": "S"}, 400, "bad-request"),
        ("POST", "/api/tables", {"me": "S", "owner": "me"}, 400, "bad-request"),
        ("POST", "/api/tables", {"me": "S", "seed": "12"}, 400, "bad-seed"),
        ("POST", "/api/tables", {"me": "S", "name": 7}, 400, "bad-name"),
        ("GET", "/api/tables/nosuchtable", None, 404, "no-such-table"),
        ("POST", "/api/tables/nosuchtable/join", {"seat": "N"}, 404, "no-such-table"),
        ("GET", "/api/schema/GameState", None, 404, "no-such-schema"),
    ]
    for method, path, body, status, code in cases:
        got, answer = server.call(method, path, body)
        assert (got, answer["error"]["code"]) == (status, code), (path, body, answer)
    status, answer = _raw_post(server, "/api/tables", b"{" + b" " * 9000 + b"}")
    assert (status, answer["error"]["code"]) == (413, "too-large")
    status, answer = _raw_post(server, "/api/tables", b"{nope")
    assert (status, answer["error"]["code"]) == (400, "bad-request")
    assert "not valid JSON" in answer["error"]["message"]


def _raw_post(server: Server, path: str, body: bytes) -> tuple[int, Any]:
    request = urllib.request.Request(server.base + path, body, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


EXTERNAL = re.compile(
    r"""(?:src|href)\s*=\s*["']?(?:https?:)?//|url\(\s*["']?(?:https?:)?//"""
    r"""|(?:from|import)\s*\(?\s*["'](?:https?:)?//|fetch\(\s*["'](?:https?:)?//|@import"""
)


def test_pages_and_assets_are_served_locally_with_a_strict_policy(server: Server) -> None:
    for path in ("/", "/table/abc", "/static/app.js", "/static/style.css", "/static/favicon.svg"):
        with urllib.request.urlopen(server.base + path, timeout=10) as response:
            assert response.status == 200
            policy = response.headers["content-security-policy"]
            assert "default-src 'self'" in policy
            body = response.read().decode()
            # no CDN, no external asset: nothing is loaded from another origin
            assert EXTERNAL.findall(body) == [], path


def test_the_schemas_are_served(server: Server) -> None:
    status, schema = server.call("GET", "/api/schema/Action")
    assert status == 200
    assert schema == json.loads(json.dumps(wire_schema("Action")))


def _choose(frame: dict[str, Any], rng: random.Random) -> object:
    legal = frame["view"]["legal_actions"]
    # the auction: mostly pass, so that hands are varied but short
    passes = [a for a in legal if a["type"] == "Pass"]
    if passes and rng.random() < 0.7:
        return passes[0]
    return rng.choice(legal)


def test_four_socket_clients_and_a_spectator_play_a_hand_without_a_leak(server: Server) -> None:
    audit = Audit()
    table, tokens = server.four_humans(seed=3)
    clients = {seat: Client(server, table, tokens[seat], audit) for seat in SEATS}
    spectator = Client(server, table, None, audit)
    rng = random.Random(3)
    hands_done = 0
    moves = 0
    seq = 0
    while hands_done < 2:
        seq = max(c.last["seq"] for c in clients.values())
        frames = {seat: c.reach(seq) for seat, c in clients.items()}
        to_act = frames["N"]["view"]["to_act"]
        if to_act is None:  # the server deals the next hand once everyone has seen the last
            for c in clients.values():
                c.reach(seq + 1)
            continue
        client = clients[to_act]
        client.reach(frames["N"]["seq"])  # choose in the position the table is in
        answer = client.act(_choose(client.last, rng))
        assert answer["op"] == "update", answer
        moves += 1
        hands_done = len(answer["view"]["completed_hands"])
    for c in clients.values():
        c.reach(answer["seq"])
    spectator.reach(answer["seq"])
    states = server.states(table)
    assert len(states) - 1 in (answer["seq"], answer["seq"] + 1)  # + the next deal
    assert len(states[answer["seq"]].completed_hands) == 2
    assert states[answer["seq"]].phase in (Phase.DEAL, Phase.GAME_OVER)
    for client in (*clients.values(), spectator):
        client.close()
    checked = audit.check(server)
    assert checked >= 5 * moves  # every seat and the spectator saw every move
    seats_seen = {seat for _, seat, _ in audit.frames}
    assert seats_seen == {None, *Seat}


def test_every_frame_schema_checks(server: Server) -> None:
    """Each update's view and events match the published wire schemas."""
    table, tokens = server.four_humans(seed=5)
    audit = Audit()
    client = Client(server, table, tokens["E"], audit)
    client.act(client.last["view"]["legal_actions"][1])  # East bids 120
    views = jsonschema.Draft202012Validator(wire_schema("PlayerView"))
    events = jsonschema.Draft202012Validator(wire_schema("Event"))
    for _, _, frame in audit.frames:
        if frame["op"] == "update":
            views.validate(frame["view"])
            for event in frame["events"]:
                events.validate(event)
    client.close()
    assert audit.check(server) >= 2


def test_tokens_are_stored_only_as_hashes(server: Server) -> None:
    made = server.create({"N": "random", "E": "random", "W": "random"}, me="S")
    db = sqlite3.connect(f"file:{server.db}?mode=ro", uri=True)
    try:
        seats = db.execute("SELECT seats FROM tables WHERE id = ?", (made["table"]["id"],))
        stored = seats.fetchone()[0]
    finally:
        db.close()
    assert made["token"] not in stored
    assert len(json.loads(stored)[2]["credential"]) == 64  # a SHA-256 in hex


def _size(server: Server, path: str) -> tuple[int, Any]:
    """``GET path``: the body's size in bytes, and the body."""
    with urllib.request.urlopen(server.base + path, timeout=30) as response:
        raw = response.read()
    return len(raw), json.loads(raw)


def test_the_lobby_is_paged_and_bounded_however_many_tables(tmp_path: Any) -> None:
    """Issue 39 item 5: 1,000 open tables made ``GET /api/tables`` 1.5 MB (15 MB at 10,000).
    The lobby holds the newest 50 of each kind; every table is reached page by page."""
    server = Server(tmp_path, bot_delay=30.0)  # the running tables stay running
    server.start()
    try:
        made = [server.create({}, me=None)["table"]["id"] for _ in range(1030)]
        bots = dict.fromkeys("NESW", "random")
        running = [server.create(bots, me=None)["table"]["id"] for _ in range(3)]
        server.create({}, me=None, private=True)  # never listed
        size, lobby = _size(server, "/api/tables")
        assert size < 120_000, size  # 50 open and 3 running tables
        assert [info["id"] for info in lobby["open"]] == made[::-1][:50]  # the newest first
        assert [info["id"] for info in lobby["running"]] == running[::-1]
        assert len(lobby["tables"]) == 53
        assert lobby["next"]["running"] is None
        seen: list[str] = [info["id"] for info in lobby["open"]]
        cursor = lobby["next"]["open"]
        pages = 0
        while cursor is not None:  # on from where the lobby stops
            size, page = _size(server, f"/api/tables?status=open&limit=100&before={cursor}")
            assert size < 200_000, size
            assert 0 < len(page["tables"]) <= 100
            seen.extend(info["id"] for info in page["tables"])
            cursor = page["next"]
            pages += 1
        assert seen == made[::-1]  # every open table once, newest first
        assert pages == 10
        _, page = _size(server, "/api/tables?status=running&limit=2")
        assert [info["id"] for info in page["tables"]] == running[::-1][:2]
        _, page = _size(server, f"/api/tables?status=running&limit=2&before={page['next']}")
        assert ([info["id"] for info in page["tables"]], page["next"]) == ([running[0]], None)
        status, body = server.call("GET", "/api/tables?status=everything")
        assert (status, body["error"]["code"]) == (400, "bad-request")
    finally:
        server.stop()


def test_frames_are_not_compressed(server: Server) -> None:
    """Issue 39 item 6: deflating every frame (a few kB of JSON) took about 7% of the server's
    time at 200 busy tables; the server declines ``permessage-deflate`` (the client offers it)."""
    from websockets.sync.client import connect

    made = server.create({}, me="S")
    with connect(server.socket(made["table"]["id"])) as socket_:  # offers permessage-deflate
        assert socket_.request is not None
        assert socket_.response is not None
        assert "permessage-deflate" in socket_.request.headers.get("Sec-WebSocket-Extensions", "")
        assert socket_.response.headers.get("Sec-WebSocket-Extensions") is None
