"""Seats and their secrets over the real server: cookies, invite links, private tables, the host.

Guards issue 23's first defects: the seat's secret was in the address bar
(and so in every copied link) and in the debug log; a friend given
``/table/ID`` could not sit down; the table's maker chose the seed and could
compute every hand.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from deepsix import Seat
from tests.web.harness import Audit, Client, Server, cookie_of

BOTS3 = {"N": "heuristic", "E": "heuristic", "W": "heuristic"}


def _hello_refused(server: Server, table: str, hello: dict[str, object], **headers: str) -> str:
    """The error code a socket gets for ``hello`` (it is then closed with 1008)."""
    with connect(server.socket(table), additional_headers=headers or None) as socket:
        with contextlib.suppress(ConnectionClosed):
            socket.send(json.dumps(hello))
        frame = json.loads(socket.recv(10))
        assert frame["op"] == "error", frame
        with pytest.raises(ConnectionClosed) as closed:
            socket.recv(10)
        assert closed.value.rcvd is not None
        assert closed.value.rcvd.code == 1008
        return str(frame["code"])


def test_the_seat_is_a_scoped_http_only_cookie_and_no_address_holds_it(server: Server) -> None:
    status, made, headers = server.request(
        "POST", "/api/tables", {"seats": BOTS3, "me": "S", "name": "Ann"}
    )
    assert status == 201
    table = made["table"]["id"]
    assert made["url"] == f"/table/{table}"  # what the page opens: no secret in it
    assert made["token"] not in made["invite"]
    cookies = {value.split("=", 1)[0]: value for value in headers.get_all("set-cookie")}
    for name in ("deepsix-seat", "deepsix-host"):
        attributes = [part.strip() for part in cookies[name].split(";")]
        assert f"Path=/api/tables/{table}" in attributes  # this table's API only
        assert "HttpOnly" in attributes  # no script reads it
        assert "SameSite=Strict" in attributes  # no other site's page sends it
    assert cookies["deepsix-seat"].startswith(f"deepsix-seat={made['token']};")
    audit = Audit()
    # the cookie alone seats the socket, as a browser's would
    south = Client(server, table, None, audit, cookie=cookie_of(headers))
    assert south.seat is Seat.SOUTH
    assert south.welcome["invite"] is not None  # players may pass the invite on
    watcher = Client(server, table, None, audit)
    assert watcher.seat is None
    assert watcher.welcome["invite"] is None  # a spectator of a listed table is not given it
    south.reach(2)
    watcher.reach(2)
    # no other connection, no listing, no public description holds the secret
    listing = json.dumps(server.call("GET", "/api/tables")[1])
    public = json.dumps(server.call("GET", f"/api/tables/{table}")[1])
    for text in (listing, public, json.dumps(watcher.frames)):
        assert made["token"] not in text
        assert made["host_token"] not in text
        assert made["invite"].split("#invite=")[1] not in text
    south.close()
    watcher.close()
    assert audit.check(server) > 0


def test_a_token_is_traded_for_the_cookie_and_the_cookie_can_be_forgotten(server: Server) -> None:
    made = server.create(BOTS3, me="S")
    table = made["table"]["id"]
    status, body, headers = server.request("POST", f"/api/tables/{table}/session", {},
                                           token=made["token"])  # fmt: skip
    assert (status, body) == (200, {"seat": "S"})
    assert cookie_of(headers) == f"deepsix-seat={made['token']}"
    status, body = server.call("POST", f"/api/tables/{table}/session", {}, token="wrong-token")
    assert (status, body["error"]["code"]) == (401, "unauthorized")
    status, body, headers = server.request("DELETE", f"/api/tables/{table}/session")
    assert status == 200
    assert any("Max-Age=0" in value for value in headers.get_all("set-cookie"))


def test_an_invite_link_seats_a_friend_at_a_private_table_and_strangers_see_nothing(
    server: Server,
) -> None:
    made = server.create({"E": "random", "W": "random"}, me="S", name="Ann", private=True)
    table = made["table"]["id"]
    invite = made["invite"].split("#invite=")[1]
    assert made["invite"] == f"/table/{table}#invite={invite}"  # in the fragment: never sent
    assert made["table"]["private"]
    listed = server.call("GET", "/api/tables")[1]
    assert table not in json.dumps(listed)  # unlisted
    # strangers: no description, no seat, no socket, no record
    for method, path, body in (
        ("GET", f"/api/tables/{table}", None),
        ("POST", f"/api/tables/{table}/join", {"seat": "N"}),
        ("POST", f"/api/tables/{table}/join", {"seat": "N", "invite": "guessed"}),
        ("GET", f"/api/tables/{table}/record", None),
    ):
        status, answer = server.call(method, path, body)
        assert (status, answer["error"]["code"]) == (404, "no-such-table"), path
    assert _hello_refused(server, table, {"op": "hello", "protocol": 2}) == "no-such-table"
    # the invite code lets a friend watch and take the empty seat -- not a taken one
    status, answer = server.call("GET", f"/api/tables/{table}", headers={"X-Invite": invite})
    assert status == 200
    watcher = Client(server, table, None, invite=invite)
    assert watcher.seat is None
    status, taken = server.call(
        "POST", f"/api/tables/{table}/join", {"seat": "S", "invite": invite}
    )
    assert (status, taken["error"]["code"]) == (409, "seat-taken")
    status, joined, headers = server.request(
        "POST", f"/api/tables/{table}/join", {"seat": "N", "name": "Bob", "invite": invite}
    )
    assert status == 200, joined
    friend = Client(server, table, None, cookie=cookie_of(headers))
    assert friend.seat is Seat.NORTH
    friend.reach(1)  # every seat taken: the game has started
    assert friend.last["table"]["status"] == "running"
    assert [seat["name"] for seat in friend.last["table"]["seats"]] == [
        "Bob", "East", "Ann", "West",
    ]  # fmt: skip
    # the host makes a new link: the old code opens nothing any more
    status, body = server.call("POST", f"/api/tables/{table}/invite", {}, token=made["token"])
    assert (status, body["error"]["code"]) == (403, "forbidden")  # a seat is not the host
    status, body = server.call("POST", f"/api/tables/{table}/invite", {}, made["host_token"])
    assert status == 200
    fresh = body["invite"].split("#invite=")[1]
    assert fresh != invite
    hello = {"op": "hello", "protocol": 2, "invite": invite}
    assert _hello_refused(server, table, hello) == "no-such-table"
    assert Client(server, table, None, invite=fresh).seat is None
    for client in (watcher, friend):
        client.close()


def test_the_host_reissues_a_seat_and_the_old_credential_dies(server: Server) -> None:
    made = server.create({}, me="N", name="Ann", seed=3)
    table, host = made["table"]["id"], made["host_token"]
    tokens = {"N": made["token"], **{s: server.join(table, s) for s in "ESW"}}
    east = Client(server, table, tokens["E"])
    path = f"/api/tables/{table}/seats/E/credential"
    # only the host or the seat's own player
    status, body = server.call("POST", path, {}, token=tokens["S"])
    assert (status, body["error"]["code"]) == (403, "forbidden")
    status, body = server.call("POST", path, {}, token=host)
    assert status == 200
    fresh = body["token"]
    assert fresh != tokens["E"]
    notice = east.until(lambda frame: frame["op"] == "notice")
    assert notice["kind"] == "revoked"
    with pytest.raises(ConnectionClosed) as closed:
        east.until(lambda frame: False, timeout=10)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 1008
    hello = {"op": "hello", "protocol": 2, "token": tokens["E"]}
    assert _hello_refused(server, table, hello) == "unauthorized"
    assert Client(server, table, fresh).seat is Seat.EAST
    # a player may re-issue her own seat (a leaked link): she gets the new cookie
    status, body, headers = server.request(
        "POST", f"/api/tables/{table}/seats/S/credential", {}, token=tokens["S"]
    )
    assert status == 200
    assert cookie_of(headers) == f"deepsix-seat={body['token']}"


def test_the_host_gives_a_seat_to_a_bot_and_the_game_goes_on(server: Server) -> None:
    made = server.create({}, me="N", name="Ann", seed=9)
    table, host = made["table"]["id"], made["host_token"]
    tokens = {"N": made["token"], **{s: server.join(table, s) for s in "ESW"}}
    east = Client(server, table, tokens["E"])
    status, body = server.call("POST", f"/api/tables/{table}/seats/E/bot", {"bot": "random"},
                               token=tokens["N"])  # fmt: skip
    assert (status, body["error"]["code"]) == (403, "forbidden")  # a player is not the host
    status, body = server.call("POST", f"/api/tables/{table}/seats/E/bot", {"bot": "random"},
                               token=host)  # fmt: skip
    assert status == 200, body
    assert body["table"]["seats"][1]["kind"] == "bot"
    assert east.until(lambda frame: frame["op"] == "notice")["kind"] == "seat-changed"
    with pytest.raises(ConnectionClosed):
        east.until(lambda frame: False, timeout=10)
    # East opens the auction: the random bot now makes that move
    watcher = Client(server, table, None)
    moved = watcher.reach(2)
    assert moved["view"]["bids"][0]["seat"] == "E"
    watcher.close()


def test_requests_from_another_sites_pages_are_refused(server: Server) -> None:
    made = server.create(BOTS3, me="S")
    table = made["table"]["id"]
    evil = {"Origin": "http://evil.example"}
    status, body = server.call("POST", f"/api/tables/{table}/fill", {}, made["token"], evil)
    assert (status, body["error"]["code"]) == (403, "forbidden")
    status, body = server.call("POST", "/api/tables", {"me": "S"}, headers=evil)
    assert (status, body["error"]["code"]) == (403, "forbidden")
    hello = {"op": "hello", "protocol": 2, "token": made["token"]}
    assert _hello_refused(server, table, hello, Origin="http://evil.example") == "unauthorized"
    same = {"Origin": server.base}  # this server's own page
    assert server.call("POST", f"/api/tables/{table}/session", {}, made["token"], same)[0] == 200


def test_every_api_refusal_is_a_json_body(server: Server) -> None:
    for method, path, status, code in (
        ("GET", "/api/no-such-thing", 404, "no-such-route"),
        ("DELETE", "/api/tables", 405, "method-not-allowed"),
        ("GET", "/api/tables?status=nonsense", 400, "bad-request"),
        ("GET", "/api/tables?status=finished&limit=0", 400, "bad-request"),
    ):
        got, body = server.call(method, path)
        assert (got, body["error"]["code"]) == (status, code), (path, body)


@pytest.fixture
def unseeded(tmp_path: Path) -> Iterator[Server]:
    """A server as users run it: seeds are its own."""
    running = Server(tmp_path, seeded=False)
    running.start()
    yield running
    running.stop()


def test_deal_seeds_are_the_servers_and_a_seeded_table_is_marked(
    unseeded: Server, server: Server
) -> None:
    status, body = unseeded.call("POST", "/api/tables", {"seats": BOTS3, "me": "S", "seed": 7})
    assert (status, body["error"]["code"]) == (400, "seeded-off")
    assert "--seeded-tables" in body["error"]["message"]
    made = unseeded.create(BOTS3, me="S")
    assert not made["table"]["seeded"]
    # the same request twice gives other deals: nothing a client sends decides them
    first = [unseeded.create(BOTS3, me="S")["table"]["id"] for _ in range(2)]
    hands = [Client(unseeded, table, None).reach(1)["view"]["hand_sizes"] for table in first]
    assert hands[0] == hands[1] == [14, 14, 14, 14]
    deals = [unseeded.states(table)[1].history[0] for table in first]
    assert deals[0] != deals[1]
    # where the server allows seeds (tests, puzzles), such a table says so everywhere
    seeded = server.create(BOTS3, me="S", seed=7)
    assert seeded["table"]["seeded"]
    listed = {t["id"]: t for t in server.call("GET", "/api/tables")[1]["tables"]}
    assert listed[seeded["table"]["id"]]["seeded"]


def test_no_secret_reaches_the_log_at_debug_level(tmp_path: Path) -> None:
    server = Server(tmp_path, log_level="debug")
    server.start()
    secrets: list[str] = []
    try:
        made = server.create({}, me="N", name="Ann", private=True)
        table = made["table"]["id"]
        invite = made["invite"].split("#invite=")[1]
        secrets += [made["token"], made["host_token"], invite]
        status, joined, headers = server.request(
            "POST", f"/api/tables/{table}/join", {"seat": "E", "invite": invite}
        )
        secrets.append(joined["token"])
        server.call("POST", f"/api/tables/{table}/session", {}, token=joined["token"])
        by_token = Client(server, table, made["token"])  # a token in the hello
        by_cookie = Client(server, table, None, cookie=cookie_of(headers))  # a cookie
        watcher = Client(server, table, None, invite=invite)  # an invite in the hello
        by_token.send({"op": "chat", "text": "hello"})
        by_token.until(lambda frame: frame["op"] == "chat" and frame["messages"])
        status, body = server.call(
            "POST", f"/api/tables/{table}/seats/E/credential", {}, token=made["host_token"]
        )
        assert status == 200
        secrets.append(body["token"])
        for client in (by_token, by_cookie, watcher):
            client.close()
    finally:
        server.stop()
    log = server.log.read_text()
    assert "DEBUG" in log  # the debug log was on
    assert f"/api/tables/{table}" in log  # and wrote requests
    for secret in secrets:
        assert secret not in log
