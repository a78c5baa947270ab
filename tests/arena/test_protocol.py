"""The referee reads anything a program writes without failing: every line is an action, a
line to ignore, or a refusal with a reason -- never an exception of another kind."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deepsix import Action, Seat, SerializationError, new_game, shuffled_deal, view
from deepsix.arena.external import ExternalBot, _Refused
from deepsix.arena.protocol import MAX_REPLY_CHARS, FaultKind, decode, encode
from deepsix.io.wire import to_wire

VIEW = view(new_game().apply(shuffled_deal(3)), Seat.EAST)
BOT = ExternalBot(["unused"])
LEGAL = [to_wire(action) for action in VIEW.legal_actions]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=12,
)
replies = st.fixed_dictionaries(
    {},
    optional={
        "type": st.sampled_from(["action", "info", "ready", "", "ACTION"]) | st.integers(),
        "id": st.sampled_from([0, 1, 2, 3, -1, True, "3"]),
        "action": st.sampled_from(LEGAL) | json_values | st.just("E:P") | st.just("N:P"),
    },
)


def read(line: bytes) -> Action | FaultKind | None:
    """What the referee makes of ``line`` as the answer to decision 3: the action, ``None``
    (a line it ignores), or the kind of a refusal (which always says why)."""
    why = ""
    try:
        return BOT._read_reply(line, 3, VIEW)
    except _Refused as refusal:
        kind, why = refusal.kind, refusal.why
    assert why
    return kind


@settings(max_examples=300)
@given(st.binary(max_size=300))
def test_any_bytes_are_read_or_refused(line: bytes) -> None:
    read(line)


@settings(max_examples=300)
@given(replies)
def test_any_reply_shaped_object_is_read_or_refused(reply: dict[str, object]) -> None:
    found = read(encode(reply))
    if reply.get("type") == "action" and reply.get("id") == 3 and reply.get("action") in LEGAL:
        assert found in VIEW.legal_actions


def test_what_is_taken_and_what_is_dropped() -> None:
    pass_ = {"type": "action", "id": 3, "action": {"type": "Pass", "seat": "E"}}
    assert read(encode(pass_)) == VIEW.legal_actions[0]
    assert read(encode({**pass_, "action": "E:P"})) == VIEW.legal_actions[0]
    assert read(encode({**pass_, "id": 2})) is None  # a late answer to decision 2
    assert read(encode({"type": "info", "depth": 9})) is None
    assert read(b"x" * (MAX_REPLY_CHARS + 10)) is FaultKind.GARBAGE
    assert read(encode({**pass_, "action": {"type": "Pass", "seat": "N"}})) is FaultKind.ILLEGAL
    assert read(b"[1, 2]") is FaultKind.GARBAGE
    deep = b"[" * 100_000
    assert read(deep) is FaultKind.GARBAGE


def test_decode() -> None:
    assert decode(b'{"type": "quit"}\n') == {"type": "quit"}
    for bad in (b"", b"NaN", b'{"type": NaN}', b"{}", b'{"type": 1}', b"\xff\xfe"):
        with pytest.raises(SerializationError):
            decode(bad)
    assert json.loads(encode({"type": "x", "t": "é"})) == {"type": "x", "t": "é"}
