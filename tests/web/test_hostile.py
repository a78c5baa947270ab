"""Hostile clients over the real socket: each refused with a clear error, and nothing changes.

Every case runs against a table of four people (no bot moves, so the game
changes only if the server accepts a move).  After each case the test
checks that the stored game has not moved, that the seat's view is the one
it had, that the connection was either kept (it still answers a ping) or
closed with a proper close code -- and that another table, played by
another client meanwhile, is still served.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from deepsix import shuffled_deal
from deepsix.io.wire import to_wire
from tests.web.harness import Audit, Client, Server

Check = Callable[[Client], None]


@pytest.fixture(scope="module")
def game(server: Server) -> tuple[str, dict[str, str]]:
    """A table of four people: East is to open the auction."""
    return server.four_humans(seed=11)


@pytest.fixture(scope="module")
def bystander(server: Server) -> Iterator[Client]:
    """A player at another table (three bots): it must be served throughout."""
    made = server.create({"N": "heuristic", "E": "heuristic", "W": "heuristic"}, me="S", seed=4)
    client = Client(server, made["table"]["id"], made["token"])
    yield client
    client.close()


def _bystander_is_served(bystander: Client) -> None:
    start = time.monotonic()
    bystander.drain(0.05)
    legal = bystander.last["view"]["legal_actions"]
    if legal:
        answer = bystander.act(legal[0])
        assert answer["op"] == "update", answer
    else:
        bystander.send({"op": "ping"})
        assert bystander.until(lambda f: f["op"] == "pong")["op"] == "pong"
    assert time.monotonic() - start < 5


def _kept(client: Client) -> None:
    client.send({"op": "ping"})
    assert client.until(lambda f: f["op"] == "pong")["op"] == "pong"


def _read_to_the_end(client: Client) -> tuple[list[dict[str, Any]], int | None]:
    """Every frame until the server closes the connection, and its close code."""
    frames = []
    try:
        for _ in range(5000):
            frames.append(client.recv(5))
    except ConnectionClosed as closed:
        return frames, None if closed.rcvd is None else closed.rcvd.code
    raise AssertionError("the connection stayed open")


def _closed(code: int) -> Check:
    def check(client: Client) -> None:
        assert _read_to_the_end(client)[1] == code

    return check


def _error(client: Client, code: str, words: str) -> dict[str, Any]:
    frame = client.until(lambda f: f["op"] == "error")
    assert frame["code"] == code, frame
    assert words in frame["message"], frame
    return frame


class Case:
    """One hostile act: what the client sends and the error it must get."""

    def __init__(  # noqa: PLR0917  # the table of cases below reads best positionally
        self, name: str, seat: str | None, send: object, code: str, words: str,
        after: Check = _kept, rule: str | None = None,
    ) -> None:  # fmt: skip
        self.name, self.seat, self.send, self.code, self.words = name, seat, send, code, words
        self.after, self.rule = after, rule


def _act(action: object) -> dict[str, object]:
    return {"op": "act", "action": action, "seq": "@seq"}


CASES = [
    Case(
        "another seat's action",
        "S",
        _act({"type": "Pass", "seat": "E"}),
        "illegal",
        "only for her own seat",
        rule="R-TURN-1",
    ),
    Case(
        "out of turn",
        "S",
        _act({"type": "Pass", "seat": "S"}),
        "illegal",
        "another seat's turn",
        rule="R-TURN-1",
    ),
    Case(
        "wrong phase",
        "E",
        _act({"type": "PlayCard", "seat": "E", "card": "@hand"}),
        "illegal",
        "does not belong to the current phase",
        rule="R-PHASE-1",
    ),
    Case(
        "wrong phase: a sunk suit in the auction",
        "E",
        _act({"type": "NameSunkSuit", "seat": "E", "suit": "H"}),
        "illegal",
        "current phase",
        rule="R-PHASE-1",
    ),
    Case(
        "a bid off the ladder",
        "E",
        _act({"type": "Bid", "seat": "E", "amount": 125}),
        "illegal",
        "multiples",
        rule="R-BID-3",
    ),
    Case(
        "a bid above the opening limit",
        "E",
        _act({"type": "Bid", "seat": "E", "amount": 130}),
        "illegal",
        "opening bid",
        rule="R-BID-4",
    ),
    Case(
        "a 41-digit bid",
        "E",
        _act({"type": "Bid", "seat": "E", "amount": 10**40}),
        "illegal",
        "R-BID",
    ),
    Case(
        "a deal from a player",
        "E",
        _act({"type": "Deal", "cards": "@deck"}),
        "illegal",
        "only for her own seat",
        rule="R-TURN-1",
    ),
    Case(
        "a spectator acting",
        None,
        _act({"type": "Pass", "seat": "E"}),
        "spectator",
        "spectators cannot act",
    ),
    Case("not JSON", "E", "{not json", "bad-message", "not valid JSON"),
    Case("a JSON list", "E", [1, 2], "bad-message", "JSON object with an op"),
    Case("an unknown op", "E", {"op": "cheat"}, "bad-message", "unknown op"),
    Case(
        "hello again",
        "E",
        {"op": "hello", "protocol": 2, "token": "x"},
        "bad-message",
        "hello was already said",
    ),
    Case("no action", "E", {"op": "act", "seq": "@seq"}, "bad-message", "needs action"),
    Case(
        "no seq",
        "E",
        {"op": "act", "action": {"type": "Pass", "seat": "E"}},
        "bad-message",
        "needs seq",
    ),
    Case(
        "a seq that is not a number",
        "E",
        {"op": "act", "action": {"type": "Pass", "seat": "E"}, "seq": "7"},
        "bad-message",
        "act.seq must be an integer",
    ),
    Case(
        "an extra key",
        "E",
        {"op": "act", "action": {"type": "Pass", "seat": "E"}, "seq": "@seq", "as": "N"},
        "bad-message",
        "keys op, action, seq, id only",
    ),
    Case(
        "a chat line from a spectator",
        None,
        {"op": "chat", "text": "hi"},
        "spectator",
        "spectators cannot act",
    ),
    Case("an empty chat line", "E", {"op": "chat", "text": "   "}, "bad-message", "empty"),
    Case(
        "an over-long chat line",
        "E",
        {"op": "chat", "text": "x" * 301},
        "too-large",
        "longer than 300",
    ),
    Case(
        "an unknown action type",
        "E",
        _act({"type": "Win", "seat": "E"}),
        "bad-message",
        "expected an action type",
    ),
    Case(
        "a wrong field type",
        "E",
        _act({"type": "Bid", "seat": "E", "amount": "90"}),
        "bad-message",
        "$.amount",
    ),
    Case(
        "an unknown field",
        "E",
        _act({"type": "Pass", "seat": "E", "really": True}),
        "bad-message",
        "really",
    ),
    Case(
        "a card that does not exist",
        "E",
        _act({"type": "PlayCard", "seat": "E", "card": "9Z"}),
        "bad-message",
        "$.card",
    ),
    Case(
        "NaN",
        "E",
        '{"op": "act", "seq": "@seq", "action": {"type": "Bid", "seat": "E", "amount": NaN}}',
        "bad-message",
        "NaN",
    ),
    Case("a duplicate key", "E", '{"op": "act", "op": "ping"}', "bad-message", "duplicate key"),
    Case("deep nesting", "E", "[" * 200 + "]" * 200, "bad-message", "nested"),
    Case(
        "an oversized message",
        "E",
        _act({"type": "Pass", "seat": "E", "pad": "x" * 5000}),
        "too-large",
        "at most 4096",
    ),
    Case("a binary frame", "E", b'{"op": "ping"}', "bad-message", "text frames"),
]


def _materialise(message: object, hand: list[str], seq: int) -> str | bytes:
    if isinstance(message, bytes):
        return message
    text = message if isinstance(message, str) else json.dumps(message)
    deck = to_wire(shuffled_deal(1))["cards"]  # a real deck: refused for its sender, not its form
    text = text.replace('"@hand"', json.dumps(hand[0])).replace('"@deck"', json.dumps(deck))
    return text.replace('"@seq"', str(seq))  # the current seq: refused for what it is, not stale


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_a_hostile_message_is_refused_and_changes_nothing(
    server: Server, game: tuple[str, dict[str, str]], bystander: Client, case: Case
) -> None:
    table, tokens = game
    audit = Audit()
    client = Client(server, table, None if case.seat is None else tokens[case.seat], audit)
    before = client.last
    stored = server.count(table)
    hand = client.last["view"]["hand"] or Client(server, table, tokens["E"]).last["view"]["hand"]
    client.socket.send(_materialise(case.send, hand, before["seq"]))
    error = _error(client, case.code, case.words)
    if case.rule is not None:
        assert error["rule"] == case.rule
    assert error["seq"] == before["seq"]
    case.after(client)
    assert server.count(table) == stored  # nothing was stored ...
    fresh = Client(server, table, None if case.seat is None else tokens[case.seat])
    assert fresh.last["view"] == before["view"]  # ... and the game is as it was
    fresh.close()
    client.close()
    _bystander_is_served(bystander)
    assert audit.check(server) >= 1


def test_a_frame_over_the_transport_limit_closes_the_connection(
    server: Server, game: tuple[str, dict[str, str]], bystander: Client
) -> None:
    table, tokens = game
    client = Client(server, table, tokens["E"])
    stored = server.count(table)
    client.socket.send("x" * 70_000)
    _closed(1009)(client)
    assert server.count(table) == stored
    _bystander_is_served(bystander)
    again = Client(server, table, tokens["E"])  # the seat can reconnect at once
    _kept(again)
    again.close()


def _flood(client: Client, count: int) -> int:
    """Send ``count`` refused moves (South is not to act) as fast as possible; how many went."""
    move = {"op": "act", "action": {"type": "Pass", "seat": "S"}, "seq": client.last["seq"]}
    flood = json.dumps(move)
    sent = 0
    with contextlib.suppress(ConnectionClosed):  # the server may cut it off before the end
        for _ in range(count):
            client.socket.send(flood)
            sent += 1
    return sent


def test_a_flood_is_throttled_then_cut_off(
    server: Server, game: tuple[str, dict[str, str]], bystander: Client
) -> None:
    table, tokens = game
    client = Client(server, table, tokens["S"])  # South: not its turn, so every act is refused
    stored = server.count(table)
    frames: list[dict[str, Any]] = []
    code: list[int | None] = []
    reader = threading.Thread(target=lambda: code.append(_read_into(client, frames)))
    reader.start()  # a client that reads what it is sent, as a browser does
    sent = _flood(client, 3000)
    reader.join(30)
    client.close()
    codes = [frame["code"] for frame in frames if frame["op"] == "error"]
    assert sent > 1000
    assert code == [1008]  # policy violation: closed cleanly, with a reason
    assert set(codes) == {"illegal", "rate-limited"}
    assert codes.count("rate-limited") == 1  # one warning per flood, not one per message
    assert codes.count("illegal") < sent / 2  # most of the flood was dropped unread
    assert server.count(table) == stored
    _bystander_is_served(bystander)
    fresh = Client(server, table, tokens["S"])
    _kept(fresh)
    fresh.close()


def test_a_flood_that_reads_nothing_is_cut_off(
    server: Server, game: tuple[str, dict[str, str]], bystander: Client
) -> None:
    table, tokens = game
    client = Client(server, table, tokens["S"])
    stored = server.count(table)
    _flood(client, 3000)
    frames, code = _read_to_the_end(client)
    client.close()
    # cut off as a flood (1008), or -- when its unread answers pile up first -- as too slow (1013)
    assert code in (1008, 1013)
    assert {frame["code"] for frame in frames if frame["op"] == "error"} <= {
        "illegal",
        "rate-limited",
    }
    assert server.count(table) == stored
    _bystander_is_served(bystander)


def _read_into(client: Client, frames: list[dict[str, Any]]) -> int | None:
    """Read as fast as a browser would (decoding afterwards), until the server closes."""
    raw: list[str | bytes] = []
    try:
        for _ in range(5000):
            raw.append(client.socket.recv(5))
    except ConnectionClosed as closed:
        frames.extend(json.loads(text) for text in raw)
        return None if closed.rcvd is None else closed.rcvd.code
    raise AssertionError("the connection stayed open")


def test_bad_tokens_and_tables_are_refused_and_closed(
    server: Server, game: tuple[str, dict[str, str]], bystander: Client
) -> None:
    table, tokens = game
    other_table = bystander.table
    stored = server.count(table)
    attempts: list[tuple[str, object, str]] = [
        (table, {"op": "hello", "protocol": 2, "token": "not-a-token"}, "unauthorized"),
        (table, {"op": "hello", "protocol": 2, "token": "x" * 200}, "unauthorized"),
        (table, {"op": "hello", "protocol": 2, "token": "x" * 500}, "bad-message"),
        (table, {"op": "hello", "protocol": 2, "token": 42}, "bad-message"),
        # another table's token
        (other_table, {"op": "hello", "protocol": 2, "token": tokens["E"]}, "unauthorized"),
        (table, {"op": "act", "action": {"type": "Pass", "seat": "E"}, "seq": 1}, "bad-message"),
        (table, {"op": "hello", "protocol": 2, "token": tokens["E"], "seat": "N"}, "bad-message"),
        (table, {"op": "hello", "token": tokens["E"]}, "bad-message"),  # no protocol version
        (table, {"op": "hello", "protocol": 1, "token": tokens["E"]}, "protocol-version"),
        ("no-such-table", {"op": "hello", "protocol": 2, "token": tokens["E"]}, "no-such-table"),
    ]
    from websockets.sync.client import connect

    for where, hello, code in attempts:
        with connect(server.socket(where)) as socket:
            with contextlib.suppress(ConnectionClosed):  # an unknown table is refused at once
                socket.send(json.dumps(hello))
            frame = json.loads(socket.recv(5))
            assert (frame["op"], frame["code"]) == ("error", code), (hello, frame)
            with pytest.raises(ConnectionClosed) as closed:
                socket.recv(5)
            assert closed.value.rcvd is not None
            assert closed.value.rcvd.code == 1008
    assert server.count(table) == stored
    _bystander_is_served(bystander)
