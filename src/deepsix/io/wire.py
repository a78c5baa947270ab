"""The wire format: what a front end and a server send each other.

One format, both directions: every value is the plain JSON object that
:func:`deepsix.to_json` puts under a document's ``"data"`` key, with no
envelope around it.

* An **action** is an object tagged with its class name --
  ``{"type": "Bid", "seat": "E", "amount": 90}``,
  ``{"type": "PlayCard", "seat": "S", "card": "7S"}``.  A view lists its
  seat's legal actions in exactly this form, so a client sends one of them
  back unchanged.  :func:`wire_schema` ``("Action")`` is the JSON Schema of
  any action.  The compact notation that saved states and game records use
  for their histories (``"E:B90"``, see :mod:`deepsix.io.notation`) is read too,
  so an action copied from a record is accepted; actions are always
  *written* as objects.
* A **view** (:class:`~deepsix.PlayerView`) is what a server pushes to a seat
  or a spectator: everything that seat may know, and its legal actions when
  it is its turn.
* An **event** (:mod:`deepsix.events`) is a public moment of a step -- a
  trick won, a hand scored, the game over -- tagged like an action:
  ``{"type": "TrickWon", "number": 3, "trick": {...}, "points": 30}``.

>>> from deepsix import Bid, Seat
>>> to_wire(Bid(Seat.EAST, 90))
{'seat': 'E', 'amount': 90, 'type': 'Bid'}
>>> action_from_wire({"type": "Bid", "seat": "E", "amount": 90})
Bid(seat=<Seat.EAST: 1>, amount=90)
>>> action_from_wire("E:B90")
Bid(seat=<Seat.EAST: 1>, amount=90)

Reading is a trust boundary, as for :func:`deepsix.from_json`: wrong types,
unknown or missing keys, impossible values and (for a view) views that no
valid state has are refused with a :class:`~deepsix.SerializationError`
naming the path (``$.amount``); :func:`loads` also refuses text over a size
limit or nested too deep before parsing it.  ``trusted=True`` skips the
costly meaning checks for data the caller wrote itself.

The JSON Schemas: :func:`wire_schema` gives the bare-object schema of
``"Action"``, ``"PlayerView"``, ``"Event"`` or any single type;
``deepsix.json_schema("Action")`` is the enveloped document's.
"""

from __future__ import annotations

import json
import types
import typing
from typing import Any, Final, TypeVar, cast, overload

from deepsix.actions import Action
from deepsix.errors import DeepSixError, ParseError, SerializationError
from deepsix.events import Event
from deepsix.io.codec import ACTION_NAMES, NAMES, converter, describe, parse_document, structure
from deepsix.io.notation import parse_action
from deepsix.io.schema import wire_schema
from deepsix.io.serialization import load_data, unstructure

__all__ = [
    "EVENT_TYPES",
    "MAX_MESSAGE_CHARS",
    "action_from_wire",
    "dumps",
    "event_from_wire",
    "from_wire",
    "loads",
    "parse",
    "to_wire",
    "wire_schema",
]

T = TypeVar("T")

EVENT_TYPES: Final[tuple[type, ...]] = typing.get_args(Event)
"""Every event class, in the order events happen in a hand."""

_EVENT_BY_NAME: Final[dict[str, type]] = {kind.__name__: kind for kind in EVENT_TYPES}

MAX_MESSAGE_CHARS: Final = 64 * 1024
"""The default limit of :func:`loads`: a client's message (an action) needs well under 1 kB."""


def to_wire(value: object) -> Any:
    """The wire form of an action, a view, an event or any value :func:`deepsix.to_json` writes.

    The result is made of dicts, lists, strings, integers, booleans and
    ``None`` only: ready for :func:`json.dumps` (or use :func:`dumps`).
    """
    return _plain(_raw(value))


def _raw(value: object) -> Any:
    """The unstructured value (tuples left as tuples: :func:`json.dumps` writes them as arrays)."""
    kind = type(value)
    if kind in _EVENT_BY_NAME.values():
        data = cast(dict[str, object], converter().unstructure(value, kind))
        data["type"] = kind.__name__
        return data
    return unstructure(value)[1]


def _plain(data: Any) -> Any:
    if type(data) is dict:
        return {key: _plain(item) for key, item in data.items()}
    if type(data) in (tuple, list):
        return [_plain(item) for item in data]
    return data


def dumps(value: object) -> str:
    """:func:`to_wire` as compact JSON text (the same value always gives the same text)."""
    return json.dumps(_raw(value), separators=(",", ":"), ensure_ascii=True)


@overload
def from_wire(data: object, cls: type[T], *, trusted: bool = False) -> T: ...
@overload
def from_wire(data: object, cls: types.UnionType, *, trusted: bool = False) -> Any: ...
def from_wire(data: object, cls: type[T] | types.UnionType, *, trusted: bool = False) -> Any:
    """Read the wire form ``data`` (already parsed JSON) of a value of type ``cls``.

    ``cls`` is :data:`~deepsix.Action` for any action (an object, or a string
    in notation), ``Event`` (:data:`deepsix.events.Event`) for any event, or
    one class (``PlayerView``, ``Bid``, ``TrickWon`` ...).  For the two unions
    the static type is ``Any``: :func:`action_from_wire` and
    :func:`event_from_wire` are the typed spellings.  Raises
    :class:`~deepsix.SerializationError` (a :class:`~deepsix.DeepSixError`)
    naming what is wrong and where.
    """
    try:
        if cls == Action:
            return _action(data)
        if cls == Event:
            return _event(data, None)
        if isinstance(cls, type) and cls.__name__ in _EVENT_BY_NAME:
            return _event(data, cls)
        name = NAMES.get(cast(type, cls))
        if name is None:
            raise SerializationError(
                f"cannot read a {getattr(cls, '__name__', cls)} from the wire format"
            )
        return load_data(name, data, trusted=trusted, where="$")
    except SerializationError:
        raise
    except DeepSixError as error:  # a meaning check (a view no state has, say)
        raise SerializationError(f"$: {error}") from None


def action_from_wire(data: object) -> Action:
    """Any action, from its object form or its notation: ``from_wire(data, Action)``, typed."""
    return cast(Action, from_wire(data, Action))


def event_from_wire(data: object) -> Event:
    """Any event: ``from_wire(data, Event)``, typed."""
    return cast(Event, from_wire(data, Event))


def _action(data: object) -> Action:
    if type(data) is str:
        text = data
        if len(text) > 400:
            raise SerializationError("$: an action in notation is at most 400 characters")
        try:
            return parse_action(text)
        except ParseError as error:
            raise SerializationError(f"$: {error}") from None
    if type(data) is not dict:
        raise SerializationError(
            f"$: expected an action (an object with a type, or notation), got {describe(data)}"
        )
    name = cast(dict[str, object], data).get("type")
    if type(name) is not str or name not in ACTION_NAMES:
        raise SerializationError(
            f"$.type: expected an action type ({', '.join(sorted(ACTION_NAMES))}), "
            f"got {describe(name)}"
        )
    return cast(Action, load_data(name, data, where="$"))


def _event(data: object, kind: type | None) -> Any:
    if type(data) is not dict:
        raise SerializationError(f"$: expected an event (an object), got {describe(data)}")
    fields = dict(cast(dict[str, object], data))
    name = fields.pop("type", None)
    if type(name) is not str or name not in _EVENT_BY_NAME:
        raise SerializationError(
            f"$.type: expected an event type ({', '.join(_EVENT_BY_NAME)}), got {describe(name)}"
        )
    if kind is not None and name != kind.__name__:
        raise SerializationError(f"$.type: expected {kind.__name__!r}, got {name!r}")
    return structure(fields, _EVENT_BY_NAME[name], "$")


def parse(text: str | bytes, *, max_chars: int = MAX_MESSAGE_CHARS) -> object:
    """Parse untrusted JSON text: refused (:class:`~deepsix.SerializationError`) when over
    ``max_chars`` characters, nested too deep, with a duplicate key or ``NaN``/``Infinity``.

    For a server reading its clients' messages (an action inside a message of its own).
    """
    if isinstance(text, (str, bytes, bytearray)) and len(text) > max_chars:
        raise SerializationError(
            f"the message has {len(text)} characters, over the limit of {max_chars}"
        )
    return parse_document(text)


def loads(
    text: str | bytes,
    cls: type[T] | types.UnionType,
    *,
    trusted: bool = False,
    max_chars: int = MAX_MESSAGE_CHARS,
) -> Any:
    """Parse JSON text and read it with :func:`from_wire`.

    Text over ``max_chars`` characters is refused unread, as is text nested
    too deep, with duplicate keys, or with ``NaN``/``Infinity``.
    """
    return from_wire(parse(text, max_chars=max_chars), cls, trusted=trusted)
