"""The message kit reads, writes and describes messages from their declarations alone."""

from __future__ import annotations

import json
from typing import Any, ClassVar

import attrs
import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deepsix.errors import SerializationError
from deepsix.io.messages import JSON, MessageKit, MessageSchema, RawJSON, limit, wire_field


@attrs.frozen
class Move:
    """A move, with an optional note."""

    TAG: ClassVar[str] = "move"
    action: JSON = attrs.field(metadata=wire_field("Action"))
    seq: int = attrs.field(metadata=limit(1000))
    note: str | None = attrs.field(default=None, metadata=limit(10, minimum=1))


@attrs.frozen
class Wait:
    """How long to wait."""

    TAG: ClassVar[str] = "wait"
    seconds: float = 1.0


@attrs.frozen
class Shout:
    """Anything goes."""

    TAG: ClassVar[str] = "shout"


KIT = MessageKit(tag="t", tag_attr="TAG", max_chars=200, open_classes=(Shout,))
CLASSES = {"move": Move, "wait": Wait, "shout": Shout}


def test_a_message_round_trips() -> None:
    move = Move({"type": "Pass", "seat": "E"}, 3, "hm")
    text = KIT.encode(move)
    assert text == '{"t":"move","action":{"type":"Pass","seat":"E"},"seq":3,"note":"hm"}'
    assert KIT.parse(text, CLASSES) == move
    assert KIT.parse('{"t":"wait","seconds":2}', CLASSES) == Wait(2.0)
    assert KIT.parse('{"t":"shout","loud":true}', CLASSES) == Shout()  # an open class
    assert KIT.encode(RawJSON('{"x":1}')) == '{"x":1}'


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("[]", "a message is a JSON object with a t"),
        ('{"t": "jump"}', "unknown t 'jump': use move, wait, shout"),
        ('{"t": "move", "seq": 1}', "a move message needs action"),
        ('{"t": "move", "action": 1, "seq": 1, "x": 2}', "has the keys t, action, seq, note only"),
        ('{"t": "move", "action": 1, "seq": 1001}', r"move.seq is out of range \(1001\)"),
        ('{"t": "move", "action": 1, "seq": -1}', "out of range"),
        ('{"t": "move", "action": 1, "seq": 1.5}', "move.seq must be an integer"),
        ('{"t": "move", "action": 1, "seq": true}', "must be an integer"),
        ('{"t": "move", "action": 1, "seq": 1, "note": ""}', "move.note is empty"),
        ('{"t": "move", "action": 1, "seq": 1, "note": "xxxxxxxxxxx"}', "longer than 10"),
        ('{"t": "wait", "seconds": "1"}', "wait.seconds must be a number"),
        ('{"t": "wait", "seconds": 1, "seconds": 2}', "duplicate|twice"),
        ("x" * 201, "at most 200"),
    ],
)
def test_what_is_refused_says_why(text: str, why: str) -> None:
    with pytest.raises(SerializationError, match=why):
        KIT.parse(text, CLASSES)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=8,
)
objects = st.fixed_dictionaries(
    {"t": st.sampled_from(["move", "wait", "shout", "jump"]) | json_values},
    optional={"action": json_values, "seq": json_values, "note": json_values,
              "seconds": json_values},
)  # fmt: skip


@settings(max_examples=400)
@given(objects)
def test_any_object_is_read_or_refused_with_the_kit_s_error(data: dict[str, Any]) -> None:
    try:
        text = json.dumps(data)
    except ValueError:
        return
    try:
        message = KIT.parse(text, CLASSES)
    except SerializationError:
        return
    assert KIT.parse(KIT.encode(message), CLASSES) == message  # what is read writes back


def test_the_schema_is_what_the_kit_reads() -> None:
    builder = MessageSchema(KIT, readers=(Move, Wait, Shout))
    schema = builder.document("urn:x", "x", {"Message": (Move, Wait, Shout)})
    schema["$defs"]["Action"] = {"type": "object"}  # type: ignore[index]  # the test's stand-in
    check = jsonschema.Draft202012Validator({"$ref": "#/$defs/Message", "$defs": schema["$defs"]})
    assert check.is_valid({"t": "move", "action": {}, "seq": 3})
    assert not check.is_valid({"t": "move", "action": {}, "seq": 1001})
    assert not check.is_valid({"t": "move", "action": {}, "seq": 3, "extra": 1})
    assert check.is_valid({"t": "shout", "extra": 1})
    assert not check.is_valid({"t": "move", "seq": 3})
