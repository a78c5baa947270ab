"""JSON for every public type: ``to_json(obj)`` and ``from_json(text, cls)``.

Every document is an envelope that names the format version and the type::

    {"schema": "deepsix/1", "type": "GameState", "data": {...}}

Values are written in their readable forms: cards as ``"7S"``, seats as
``"N"``, suits as ``"S"``, teams as ``"NS"``/``"EW"``, phases and
house-rule switches by their values, melds by their codes (``"DR-S"``,
``"8W"``), actions as objects tagged with their class name
(``{"type": "Bid", "seat": "E", "amount": 90}``).  A
:class:`~deepsix.GameState` stores each hand as a list of cards under its
seat letter and its history as a list of actions in the compact notation
of :mod:`deepsix.io.notation` (``"E:B90"``); a :class:`~deepsix.GameRecord`
stores its actions the same way.  Output is deterministic: the same value
always gives the same text.

Round trips are exact: ``from_json(to_json(x), type(x)) == x`` for every
supported value.  ``from_json(text, Action)`` reads any action.

**Loading is a trust boundary.**  :func:`from_json` refuses documents over
:data:`~deepsix.io.codec.MAX_DOCUMENT_CHARS` characters or nested deeper than
:data:`~deepsix.io.codec.MAX_DEPTH` before parsing them, and histories or records of more
than :data:`~deepsix.io.record.MAX_ACTIONS` actions; rejects duplicate keys, unknown
keys, unknown schema versions, values of the wrong type (``"1"`` or
``1.0`` where an integer belongs), cards that are not cards, and hands
with more than two copies of a card; and then checks the meaning: a loaded
state must pass :func:`deepsix.validate` (every invariant, its history
replayed), a loaded record must replay action by action, and a loaded view
must be the view of some valid state (one is built with
:func:`deepsix.sample_state`).  Every failure is a
:class:`~deepsix.SerializationError`, :class:`~deepsix.InvalidStateError`
or :class:`~deepsix.ParseError` -- all :class:`~deepsix.DeepSixError` --
with a message that says what is wrong and where (a JSON path such as
``$.data.setup.bids[2]``).

cattrs does the structuring; it is an optional dependency
(``pip install deepsix[json]``), imported only when JSON is first used, so
``import deepsix`` needs nothing but attrs.

The document shapes are in :mod:`deepsix.io.documents`, the converter and
the bounded parser in :mod:`deepsix.io.codec`; the JSON Schemas of the
documents (:func:`deepsix.json_schema`) in :mod:`deepsix.io.schema`.
"""

from __future__ import annotations

import json
import random
import types
from collections.abc import Sequence
from typing import Any, TypeVar, cast, overload

import attrs

from deepsix.actions import ACTION_TYPES, Action, Deal
from deepsix.cards import DECK, Card, Seat
from deepsix.errors import ParseError, SerializationError
from deepsix.hands import pack
from deepsix.history import History
from deepsix.io.codec import (
    ACTION_NAMES,
    NAMES,
    SCHEMA_VERSION,
    TYPES,
    converter,
    describe,
    parse_document,
    structure,
)
from deepsix.io.documents import Hands, RecordDoc, StateDoc
from deepsix.io.notation import format_action, parse_action
from deepsix.io.record import MAX_ACTIONS, GameRecord, replay
from deepsix.sampling import sample_state
from deepsix.state import GameState
from deepsix.tricks import Trick
from deepsix.validation import validate
from deepsix.views import PlayerView

__all__ = ["from_json", "load_data", "to_json", "unstructure"]

T = TypeVar("T")
_SEATS = tuple(Seat)


# -- dumping ----------------------------------------------------------------------------


def _state_doc(state: GameState) -> Any:
    values = {f.name: getattr(state, f.name) for f in attrs.fields(GameState) if f.init}
    values["hands"] = Hands(*(state.hand(seat) for seat in _SEATS))
    values["history"] = None if state.log is None else tuple(map(format_action, state.history))
    del values["packed_hands"], values["log"]
    return StateDoc(**values)


def _record_doc(record: GameRecord) -> RecordDoc:
    return RecordDoc(
        rules=record.rules,
        dealer=record.dealer,
        actions=tuple(map(format_action, record.actions)),
        tags=dict(record.tags),
    )


def unstructure(obj: object) -> tuple[str, object]:
    """The name of ``obj``'s type in a document and its unstructured data."""
    kind = type(obj)
    name = NAMES.get(kind)
    if name is None:
        raise SerializationError(f"cannot write a {kind.__name__} as deepsix JSON")
    conv = converter()
    if kind is GameState:
        return name, conv.unstructure(_state_doc(cast(GameState, obj)))
    if kind is GameRecord:
        return name, conv.unstructure(_record_doc(cast(GameRecord, obj)))
    if kind in ACTION_TYPES:
        return name, conv.unstructure(obj, cast(Any, Action))
    return name, conv.unstructure(obj, kind)


def to_json(obj: object, *, indent: int | None = None) -> str:
    """The JSON document of ``obj`` (any public deepsix value), as a string.

    >>> from deepsix import Bid, Seat
    >>> to_json(Bid(Seat.EAST, 90))
    '{"schema":"deepsix/1","type":"Bid","data":{"seat":"E","amount":90,"type":"Bid"}}'
    """
    name, data = unstructure(obj)
    document = {"schema": SCHEMA_VERSION, "type": name, "data": data}
    separators = (",", ":") if indent is None else (",", ": ")
    return json.dumps(document, indent=indent, separators=separators, ensure_ascii=True)


# -- loading ----------------------------------------------------------------------------


def _parse_actions(texts: Sequence[str], where: str) -> list[Action]:
    if len(texts) > MAX_ACTIONS:
        raise SerializationError(f"{where}: more than {MAX_ACTIONS} actions; refused")
    actions: list[Action] = []
    for index, text in enumerate(texts):
        try:
            actions.append(parse_action(text))
        except ParseError as error:
            raise SerializationError(f"{where}[{index}]: {error}") from None
    return actions


def _hand(cards: tuple[Card, ...], seat: str) -> int:
    seen = [0] * 28
    for card in cards:
        seen[card] += 1
        if seen[card] > 2:
            raise SerializationError(
                f"$.data.hands.{seat}: {card.ascii} appears {seen[card]} times (two copies exist)"
            )
    return pack(cards)


def _state_from(doc: Any, *, trusted: bool = False) -> GameState:
    hands = doc.hands
    packed = (_hand(hands.N, "N"), _hand(hands.E, "E"), _hand(hands.S, "S"), _hand(hands.W, "W"))
    log: History | None = None
    if doc.history is not None:
        for action in _parse_actions(doc.history, "$.data.history"):
            log = History(log, action)
    values = {name: getattr(doc, name) for name in attrs.fields_dict(StateDoc)}
    del values["hands"], values["history"]
    state = GameState(**values, packed_hands=packed, log=log)
    if not trusted:
        validate(state)
    return state


def _record_from(doc: RecordDoc, *, trusted: bool = False) -> GameRecord:
    actions = _parse_actions(doc.actions, "$.data.actions")
    try:
        record = GameRecord(doc.rules, doc.dealer, tuple(actions), tuple(doc.tags.items()))
    except ParseError as error:
        raise SerializationError(f"$.data.tags: {error}") from None
    if not trusted:
        replay(record)
    return record


def _check_loaded(value: object) -> None:
    """The meaning checks that types alone do not give (see the module documentation)."""
    if isinstance(value, PlayerView):
        # A view is valid when some valid state has it: build one, and check it all.
        validate(sample_state(value, random.Random(0)))
    elif isinstance(value, Deal) and sorted(value.cards) != list(DECK):
        raise SerializationError(
            f"a deal must hold the 56-card deck, each card twice ({len(value.cards)} cards given)"
        )
    elif isinstance(value, Trick):
        seats = [seat for seat, _ in value.plays]
        if len(seats) != 4 or seats != [_SEATS[(seats[0] + i) % 4] for i in range(4)]:
            raise SerializationError("a trick has four plays, clockwise from the leader")
        if value.winner not in seats:
            raise SerializationError("a trick's winner must have played in it")


@overload
def from_json(text: str | bytes, cls: type[T], *, trusted: bool = False) -> T: ...
@overload
def from_json(text: str | bytes, cls: types.UnionType, *, trusted: bool = False) -> Action: ...
def from_json(
    text: str | bytes, cls: type[T] | types.UnionType, *, trusted: bool = False
) -> T | Action:
    """Read a document written by :func:`to_json`, expecting a value of type ``cls``.

    ``cls`` is the class of the value (``GameState``, ``Bid``, ``Card`` ...)
    or :data:`~deepsix.Action` for any action.  Raises a
    :class:`~deepsix.DeepSixError` (see the module documentation) when the
    document is not a valid one of that type.

    ``trusted=True`` is the fast path for documents the caller wrote itself
    (a server reloading its own saves): the size, depth, syntax and type
    checks still run, but the costly meaning checks are skipped -- a state is not
    validated (its history is not replayed), a record is not replayed, a
    view is not matched against a sampled state.  A hostile or corrupt
    document loaded this way can give a value that breaks the game's
    invariants; never pass ``trusted=True`` for input from a client.

    >>> from deepsix import Card
    >>> from_json('{"schema": "deepsix/1", "type": "Card", "data": "7S"}', Card)
    Card('7S')
    """
    if cls == Action:
        allowed = ACTION_NAMES
        expected = "an action"
    elif cls in NAMES:
        allowed = frozenset({NAMES[cls]})
        expected = NAMES[cls]
    else:
        raise SerializationError(f"cannot read a {getattr(cls, '__name__', cls)} from deepsix JSON")
    document = parse_document(text)
    if type(document) is not dict:
        raise SerializationError(
            f"$: expected a deepsix document (an object), got {describe(document)}"
        )
    envelope = cast(dict[str, object], document)
    if set(envelope) != {"schema", "type", "data"}:
        raise SerializationError(
            "$: a deepsix document has exactly the keys schema, type and data, not "
            + ", ".join(sorted(envelope))
        )
    schema = envelope["schema"]
    if schema != SCHEMA_VERSION:
        raise SerializationError(
            f"$.schema: unknown schema version {describe(schema)} (this version of deepsix "
            f"reads {SCHEMA_VERSION!r})"
        )
    name = envelope["type"]
    if type(name) is not str or name not in allowed:
        raise SerializationError(f"$.type: expected {expected}, got {describe(name)}")
    return cast(T, load_data(name, envelope["data"], trusted=trusted))


def load_data(name: str, data: object, *, trusted: bool = False, where: str = "$.data") -> Any:
    """The value of type ``TYPES[name]`` in a document's ``data`` (checked unless trusted)."""
    kind = TYPES[name]
    if kind is GameState:
        return _state_from(structure(data, StateDoc, where), trusted=trusted)
    if kind is GameRecord:
        return _record_from(structure(data, RecordDoc, where), trusted=trusted)
    if kind in ACTION_TYPES:
        if type(data) is not dict or cast(dict[str, object], data).get("type") != name:
            raise SerializationError(f'{where}: expected a {name} object tagged "type": {name!r}')
        value = structure(data, cast(Any, Action), where)
    else:
        value = structure(data, kind, where)
    if not trusted or kind is not PlayerView:
        _check_loaded(value)  # cheap for every type but a view
    return value
