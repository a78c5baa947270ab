"""The protocol declared once: each message reads, writes and validates from its one declaration."""

from __future__ import annotations

import json
from typing import Any, cast

import attrs
import jsonschema
import pytest

from deepsix import Seat, apply, new_game, shuffled_deal, view
from deepsix.io.wire import to_wire
from deepsix.web import protocol as p

DEALT = apply(new_game(), shuffled_deal(1))
SCHEMA = p.protocol_schema()
DEFS = cast("dict[str, Any]", SCHEMA["$defs"])


def validator(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator({"$defs": DEFS, **DEFS[name]})


CLIENT_EXAMPLES: list[dict[str, Any]] = [
    {"op": "hello", "protocol": 2},
    {"op": "hello", "protocol": 2, "token": "t" * 32, "invite": "abc", "since": 17},
    {"op": "act", "action": {"type": "Pass", "seat": "E"}, "seq": 3},
    {"op": "act", "action": {"type": "Bid", "seat": "E", "amount": 120}, "seq": 3, "id": 9},
    {"op": "ping"},
    {"op": "ping", "id": 4},
    {"op": "chat", "text": "well played <b>partner</b>"},
    {"op": "ready", "hand": 2},
    {"op": "return"},
    {"op": "resign"},
    {"op": "leave"},
]


def test_the_schema_is_a_valid_json_schema_with_every_message() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    for cls in (*p.CLIENT_MESSAGES, *p.SERVER_MESSAGES, *p.LOBBY_MESSAGES, *p.HTTP_BODIES):
        assert cls.__name__ in DEFS, cls
    union = jsonschema.Draft202012Validator({**SCHEMA, "$ref": "#/$defs/ClientMessage"})
    for example in CLIENT_EXAMPLES:
        union.validate(example)


@pytest.mark.parametrize("example", CLIENT_EXAMPLES, ids=lambda e: e["op"])
def test_a_client_message_reads_into_its_class_and_the_schema_agrees(
    example: dict[str, Any],
) -> None:
    message = p.parse_client(json.dumps(example))
    assert example["op"] == message.OP
    assert {k: v for k, v in attrs.asdict(message).items() if v is not None} == {
        k: v for k, v in example.items() if k != "op"
    }
    validator(type(message).__name__).validate(example)


REFUSED: list[tuple[str, object, str]] = [
    ("no op", {"protocol": 2}, "unknown op"),
    ("a server's op", {"op": "welcome"}, "unknown op"),
    ("a number for text", {"op": "chat", "text": 7}, "must be text"),
    ("a bool for a number", {"op": "ready", "hand": True}, "must be an integer"),
    ("a negative seq", {"op": "act", "action": {}, "seq": -1}, "out of range"),
    ("an unknown key", {"op": "ping", "x": 1}, "keys op, id only"),
    ("no protocol", {"op": "hello"}, "needs protocol"),
    ("an empty token", {"op": "hello", "protocol": 2, "token": ""}, "empty"),
    ("a long invite", {"op": "hello", "protocol": 2, "invite": "x" * 101}, "longer than 100"),
]


@pytest.mark.parametrize(("why", "message", "words"), REFUSED, ids=[r[0] for r in REFUSED])
def test_a_message_outside_the_protocol_is_refused_by_reader_and_schema(
    why: str, message: object, words: str
) -> None:
    with pytest.raises(p.ProtocolError, match=words):
        p.parse_client(json.dumps(message))
    union = jsonschema.Draft202012Validator({**SCHEMA, "$ref": "#/$defs/ClientMessage"})
    assert not union.is_valid(message), why


def test_oversized_text_is_too_large_not_bad() -> None:
    with pytest.raises(p.ProtocolError) as refused:
        p.parse_client(json.dumps({"op": "chat", "text": "x" * (p.MAX_CHAT_CHARS + 1)}))
    assert refused.value.code == "too-large"
    with pytest.raises(p.ProtocolError) as refused:
        p.parse_client("{" + " " * p.MAX_MESSAGE_CHARS + "}")
    assert refused.value.code == "too-large"


def test_the_lobby_socket_takes_its_own_hello_and_pings_only() -> None:
    assert isinstance(p.parse_client('{"op": "hello", "protocol": 2}', lobby=True), p.LobbyHello)
    assert isinstance(p.parse_client('{"op": "ping"}', lobby=True), p.Ping)
    with pytest.raises(p.ProtocolError, match="unknown op"):
        p.parse_client('{"op": "chat", "text": "x"}', lobby=True)


def _info() -> p.TableInfo:
    seat = p.SeatInfo("N", "human", None, "Ann", True, "online", None)
    return p.TableInfo(
        "t1", "running", True, False, False, 3, "bidding", 1, (0, 0), (seat,) * 4, 0, 60.0,
        "heuristic", 1.5, None, None,
    )  # fmt: skip


SERVER_EXAMPLES: list[object] = [
    p.Welcome(2, "t1", "S", False, None, {}),
    p.Update(
        3,
        _info(),
        to_wire(view(DEALT, Seat.SOUTH)),
        (),
        None,
        p.Clock("S", 60.0, 12.5, 1e9, "turn"),
    ),
    p.History(0, 3, (p.HistoryStep(1, ({"type": "HandDealt", "number": 1, "dealer": "N"},)),)),
    p.Error("stale", "moved on", 4),
    p.Error("illegal", "no", 4, "R-BID-3", "BID_NOT_MULTIPLE", 7),
    p.Pong(),
    p.ChatFrame((p.ChatLine("N", "Ann", "<script>", 1.0, 3),)),
    p.Notice("rematch", "a rematch is ready", None, "t2"),
    p.LobbyFrame((_info(),), (), (), (p.Quarantined("bad", "move 3 is missing"),)),
]


@pytest.mark.parametrize("message", SERVER_EXAMPLES, ids=lambda m: type(m).__name__)
def test_a_server_message_writes_to_its_schema(message: object) -> None:
    text = p.encode(message)
    data = json.loads(text)
    assert data["op"] == type(message).OP  # type: ignore[attr-defined]  # every message has OP
    assert text.startswith(f'{{"op":"{data["op"]}"')  # op first, compact
    validator(type(message).__name__).validate(data)


def test_optional_ids_are_left_out_and_the_schema_allows_it() -> None:
    assert p.encode(p.Pong()) == '{"op":"pong"}'
    assert "id" not in json.loads(p.encode(p.Error("stale", "x", 1)))
    assert json.loads(p.encode(p.Error("stale", "x", 1, id=5)))["id"] == 5


def test_chat_text_is_written_as_json_text_never_as_markup() -> None:
    text = p.encode(p.ChatFrame((p.ChatLine("N", "Ann", '</script><b>"hi"</b>', 1.0, 3),)))
    assert json.loads(text)["messages"][0]["text"] == '</script><b>"hi"</b>'


def test_a_message_is_read_without_evaluating_annotations_each_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 39 item 6: every client message evaluated its class's annotations again, 7.5% of
    the server's time at 200 busy tables; they are read once a class."""
    import typing

    p.parse_client(json.dumps({"op": "ping"}))  # read once, before counting
    calls = []
    real = typing.get_type_hints

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(typing, "get_type_hints", counted)
    for number in range(100):
        assert p.parse_client(json.dumps({"op": "ping", "id": number})).id == number
    assert calls == []
