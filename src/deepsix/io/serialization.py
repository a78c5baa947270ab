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
:data:`MAX_DOCUMENT_CHARS` characters or nested deeper than
:data:`MAX_DEPTH` before parsing them, and histories or records of more
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

The JSON Schemas of the state, record and view documents ship with the
package (``deepsix/io/schemas/*.schema.json``); :func:`json_schema` builds
them and ``python -m deepsix.io.schemas --schema DIR`` writes them.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from itertools import accumulate
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Final, TypeVar, cast, overload

import attrs

from deepsix.actions import (
    ACTION_TYPES,
    Action,
    Bid,
    Deal,
    LegalActions,
    Pass,
)
from deepsix.cards import CARDS, DECK, Card, Rank, Seat, Suit, Team
from deepsix.errors import DeepSixError, ParseError, SerializationError
from deepsix.hands import pack
from deepsix.io.notation import ACTION_PATTERN, format_action, parse_action
from deepsix.io.record import MAX_ACTIONS, GameRecord, replay
from deepsix.melds import ALL_MELDS, Meld, MeldKind
from deepsix.rules import PlayOver, Rules
from deepsix.sampling import sample_state
from deepsix.scoring import HandScore
from deepsix.state import GameState, HandRecord, HandSetup, History, Phase
from deepsix.tricks import Trick
from deepsix.validation import validate
from deepsix.views import PlayerView

if TYPE_CHECKING:
    from cattrs import Converter

__all__ = [
    "MAX_DEPTH",
    "MAX_DOCUMENT_CHARS",
    "SCHEMA_KINDS",
    "SCHEMA_VERSION",
    "MissingDependencyError",
    "from_json",
    "json_schema",
    "load_schema",
    "main",
    "to_json",
]

T = TypeVar("T")

SCHEMA_VERSION: Final = "deepsix/1"
"""The format version every document carries in its ``"schema"`` key."""

MAX_DOCUMENT_CHARS: Final = 4 * 1024 * 1024
"""Longer documents are refused unread (a whole long game is well under 100 kB)."""

MAX_DEPTH: Final = 32
"""Documents nested deeper than this are refused unread (real ones nest at most 7 deep)."""

SCHEMA_KINDS: Final = {"state": "GameState", "record": "GameRecord", "view": "PlayerView"}
"""The shipped schema files (``deepsix/io/schemas/<kind>.schema.json``) and their types."""


class MissingDependencyError(DeepSixError, ImportError):
    """JSON support needs cattrs: ``pip install deepsix[json]``."""


# -- the documents behind states and records -------------------------------------------------

_NOTATION: Final = "deepsix-action-notation"
Notation = Annotated[str, _NOTATION]
"""An action in the compact notation of :mod:`deepsix.io.notation`."""


@attrs.frozen
class _Hands:
    """Each seat's cards, sorted, under the seat's letter."""

    N: tuple[Card, ...]
    E: tuple[Card, ...]
    S: tuple[Card, ...]
    W: tuple[Card, ...]


_STATE_JSON_FORMS: Final[dict[str, tuple[str, Any]]] = {
    "packed_hands": ("hands", _Hands),
    "log": ("history", tuple[Notation, ...] | None),
}
"""The :class:`GameState` fields whose JSON form differs: its name there and its type."""


def _state_doc_class() -> type:
    """The JSON form of a :class:`GameState`, built from its own fields (readable, not packed).

    Every field is written as it is, except the two in :data:`_STATE_JSON_FORMS`:
    the hands as lists of cards under the seats' letters, the history as notation.
    """
    hints = typing.get_type_hints(GameState)
    fields: dict[str, Any] = {}
    for field in attrs.fields(GameState):
        if field.init:
            name, kind = _STATE_JSON_FORMS.get(field.name, (field.name, hints[field.name]))
            fields[name] = attrs.field(type=kind)
    doc: type = attrs.make_class("_StateDoc", fields, frozen=True)
    doc.__doc__ = "The JSON form of a GameState (readable, not bit-packed)."
    return doc


_StateDoc: Final = _state_doc_class()


@attrs.frozen
class _RecordDoc:
    """The JSON form of a :class:`GameRecord`."""

    rules: Rules
    dealer: Seat
    actions: tuple[Notation, ...]
    tags: dict[str, str] = attrs.field(factory=dict)


_TYPES: Final[dict[str, Any]] = {
    "Card": Card,
    "Suit": Suit,
    "Rank": Rank,
    "Seat": Seat,
    "Team": Team,
    "Phase": Phase,
    "PlayOver": PlayOver,
    "MeldKind": MeldKind,
    "Meld": Meld,
    "Rules": Rules,
    **{kind.__name__: kind for kind in ACTION_TYPES},
    "LegalActions": LegalActions,
    "Trick": Trick,
    "HandScore": HandScore,
    "HandRecord": HandRecord,
    "HandSetup": HandSetup,
    "GameState": GameState,
    "PlayerView": PlayerView,
    "GameRecord": GameRecord,
}
_NAMES: Final = {kind: name for name, kind in _TYPES.items()}
_DOC_OF: Final[dict[type, type]] = {GameState: _StateDoc, GameRecord: _RecordDoc}
_ACTION_NAMES: Final = frozenset(kind.__name__ for kind in ACTION_TYPES)

_SEAT_LETTERS: Final = "NESW"
_SUIT_LETTERS: Final = "CDHS"
_TEAM_NAMES: Final = ("NS", "EW")
_CARD_BY_TEXT: Final = {card.ascii: card for card in CARDS}
_MELD_BY_CODE: Final = {meld.code: meld for meld in ALL_MELDS}
_KIND_BY_CODE: Final = {kind.code: kind for kind in MeldKind}
_PHASE_BY_VALUE: Final = {phase.value: phase for phase in Phase}
_PLAY_OVER_BY_VALUE: Final = {rule.value: rule for rule in PlayOver}
_SEATS: Final = tuple(Seat)


# -- the converter ----------------------------------------------------------------------


def _want(value: object, kind: type, what: str) -> None:
    if type(value) is not kind:
        raise SerializationError(f"expected {what}, got {_describe(value)}")


def _describe(value: object) -> str:  # noqa: PLR0911  # one answer per JSON type reads best
    """How an error message names a JSON value (briefly: values can be huge)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        if value.bit_length() > 40:
            return f"an integer of about {int(value.bit_length() * 0.30103) + 1} digits"
        return f"the integer {value}"
    if isinstance(value, float):
        return f"the number {value}"
    if isinstance(value, str):
        shown = value if len(value) <= 20 else value[:20] + "..."
        return f"the string {shown!r}"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _lookup(table: Mapping[str, T], what: str) -> Callable[[object, object], T]:
    def structure(value: object, _: object) -> T:
        if type(value) is not str or value not in table:
            choices = ", ".join(sorted(table)) if len(table) <= 10 else "see the schema"
            raise SerializationError(f"expected {what} ({choices}), got {_describe(value)}")
        return table[value]

    return structure


def _strict_int(value: object, _: object) -> int:
    _want(value, int, "an integer")
    return cast(int, value)


def _strict_bool(value: object, _: object) -> bool:
    _want(value, bool, "true or false")
    return cast(bool, value)


def _strict_str(value: object, _: object) -> str:
    _want(value, str, "a string")
    return cast(str, value)


def _rank(value: object, _: object) -> Rank:
    if not isinstance(value, int) or type(value) is not int or not 2 <= value <= 8:
        raise SerializationError(f"expected a rank 2-8, got {_describe(value)}")
    return Rank(value)


def _is_tuple(kind: object) -> bool:
    return typing.get_origin(kind) is tuple


def _is_str_dict(kind: object) -> bool:
    return typing.get_origin(kind) is dict


def _is_notation(kind: object) -> bool:
    return typing.get_origin(kind) is Annotated and _NOTATION in getattr(kind, "__metadata__", ())


def _leaf_hooks() -> list[tuple[type, Callable[[Any], object], Callable[[object, object], object]]]:
    """How each leaf type is written and read: cards as ``7S``, seats as ``N``, and so on."""
    return [
        (Card, lambda c: c.ascii, _lookup(_CARD_BY_TEXT, "a card such as 7S")),
        (
            Seat,
            lambda s: _SEAT_LETTERS[s],
            _lookup(dict(zip(_SEAT_LETTERS, Seat, strict=True)), "a seat"),
        ),
        (
            Suit,
            lambda s: _SUIT_LETTERS[s],
            _lookup(dict(zip(_SUIT_LETTERS, Suit, strict=True)), "a suit"),
        ),
        (
            Team,
            lambda t: _TEAM_NAMES[t],
            _lookup(dict(zip(_TEAM_NAMES, Team, strict=True)), "a team"),
        ),
        (Rank, int, _rank),
        (Phase, lambda p: p.value, _lookup(_PHASE_BY_VALUE, "a phase")),
        (PlayOver, lambda p: p.value, _lookup(_PLAY_OVER_BY_VALUE, "a play-over rule")),
        (MeldKind, lambda k: k.code, _lookup(_KIND_BY_CODE, "a meld kind")),
        (Meld, lambda m: m.code, _lookup(_MELD_BY_CODE, "a meld code such as DR-S or 8W")),
    ]


def _build_converter() -> Converter:
    try:
        import cattrs
        from cattrs.errors import IterableValidationError, IterableValidationNote
        from cattrs.preconf.json import make_converter
        from cattrs.strategies import configure_tagged_union
    except ImportError as error:  # pragma: no cover - exercised with cattrs uninstalled
        raise MissingDependencyError(
            f"JSON support needs the json extra ({error.name} is not installed): "
            'pip install "deepsix[json]"'
        ) from None
    conv = make_converter(forbid_extra_keys=True)
    conv.register_structure_hook(int, _strict_int)
    conv.register_structure_hook(bool, _strict_bool)
    conv.register_structure_hook(str, _strict_str)
    for kind, unstructure, structure in _leaf_hooks():
        conv.register_unstructure_hook(kind, unstructure)
        conv.register_structure_hook(kind, structure)

    def structure_tuple(value: object, kind: Any) -> tuple[object, ...]:
        if type(value) is not list:
            raise SerializationError(f"expected a list, got {_describe(value)}")
        items = cast(list[object], value)
        args = typing.get_args(kind)
        if len(args) == 2 and args[1] is Ellipsis:
            kinds = [args[0]] * len(items)
        elif len(items) != len(args):
            raise SerializationError(f"expected a list of {len(args)}, got {len(items)} items")
        else:
            kinds = list(args)
        result: list[object] = []
        errors: list[Exception] = []
        for index, (item, item_kind) in enumerate(zip(items, kinds, strict=True)):
            try:
                result.append(conv.structure(item, item_kind))
            except Exception as error:  # regrouped below, as cattrs does, to keep the path
                error.add_note(IterableValidationNote(f"@ index {index}", index, item_kind))
                errors.append(error)
        if errors:
            raise IterableValidationError(f"While structuring {kind!r}", errors, kind)
        return tuple(result)

    def structure_str_dict(value: object, kind: Any) -> dict[str, str]:
        if type(value) is not dict:
            raise SerializationError(f"expected an object, got {_describe(value)}")
        result: dict[str, str] = {}
        for key, item in cast(dict[object, object], value).items():
            if type(item) is not str:
                raise SerializationError(f"{key}: expected a string, got {_describe(item)}")
            result[cast(str, key)] = item
        return result

    def structure_notation(value: object, kind: Any) -> str:
        _want(value, str, "an action in notation (e.g. N:7S)")
        return cast(str, value)

    conv.register_structure_hook_func(_is_notation, structure_notation)
    conv.register_structure_hook_func(_is_tuple, structure_tuple)
    conv.register_structure_hook_func(_is_str_dict, structure_str_dict)
    conv.register_unstructure_hook(
        LegalActions, lambda legal: [conv.unstructure(a, Action) for a in legal]
    )
    conv.register_structure_hook(
        LegalActions,
        lambda value, _: LegalActions(cast(Any, structure_tuple(value, tuple[Action, ...]))),
    )

    _register_unions(conv, configure_tagged_union)
    _ = cattrs  # imported for its side effect of checking the installation
    return conv


def _register_unions(conv: Converter, configure_tagged_union: Callable[..., None]) -> None:
    """Actions (and bids) tagged with their class name."""

    def tag(kind: type) -> str:
        return kind.__name__

    configure_tagged_union(cast(Any, Action), conv, tag_name="type", tag_generator=tag)
    configure_tagged_union(cast(Any, Bid | Pass), conv, tag_name="type", tag_generator=tag)


_CONVERTERS: Final[list[Converter]] = []


def _converter() -> Converter:
    """The converter, built (and cattrs imported) on first use."""
    if not _CONVERTERS:
        _CONVERTERS.append(_build_converter())
    return _CONVERTERS[0]


# -- dumping ----------------------------------------------------------------------------


def _state_doc(state: GameState) -> Any:
    values = {f.name: getattr(state, f.name) for f in attrs.fields(GameState) if f.init}
    values["hands"] = _Hands(*(state.hand(seat) for seat in _SEATS))
    values["history"] = None if state.log is None else tuple(map(format_action, state.history))
    del values["packed_hands"], values["log"]
    return _StateDoc(**values)


def _record_doc(record: GameRecord) -> _RecordDoc:
    return _RecordDoc(
        rules=record.rules,
        dealer=record.dealer,
        actions=tuple(map(format_action, record.actions)),
        tags=dict(record.tags),
    )


def _unstructure(obj: object) -> tuple[str, object]:
    kind = type(obj)
    name = _NAMES.get(kind)
    if name is None:
        raise SerializationError(f"cannot write a {kind.__name__} as deepsix JSON")
    conv = _converter()
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
    name, data = _unstructure(obj)
    document = {"schema": SCHEMA_VERSION, "type": name, "data": data}
    separators = (",", ":") if indent is None else (",", ": ")
    return json.dumps(document, indent=indent, separators=separators, ensure_ascii=True)


# -- loading ----------------------------------------------------------------------------

_STRINGS: Final = re.compile(r'"(?:[^"\\]|\\.)*+(?:"|\\?\Z)', re.DOTALL)
_NOT_BRACKETS: Final = re.compile(r"[^\[\]{}]+")
_STEP: Final = {"[": 1, "{": 1, "]": -1, "}": -1}


def _check_depth(text: str) -> None:
    """Refuse nesting deeper than :data:`MAX_DEPTH`, without parsing.

    Strings are removed first (their brackets do not nest), then the running
    depth of what is left is computed in C (``accumulate`` over a ``map``), so
    even a hostile document of the maximum size is scanned in a fraction of
    a second.  The possessive string pattern never backtracks.
    """
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    brackets = _NOT_BRACKETS.sub("", _STRINGS.sub("", text))
    if max(accumulate(map(_STEP.__getitem__, brackets)), default=0) > MAX_DEPTH:
        raise SerializationError(
            f"the document is nested more than {MAX_DEPTH} levels deep; refused"
        )


def _unique_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    result: dict[str, object] = {}
    for key, value in pairs:
        if key in result:
            raise SerializationError(f"duplicate key {key!r} in a JSON object")
        result[key] = value
    return result


def _no_constants(name: str) -> object:
    raise SerializationError(f"{name} is not allowed in a deepsix document")


def _parse(text: str | bytes) -> object:
    if isinstance(text, (bytes, bytearray)):
        if len(text) > 4 * MAX_DOCUMENT_CHARS:
            raise SerializationError("the document is too large; refused")
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as error:
            raise SerializationError(f"the document is not UTF-8: {error}") from None
    if not isinstance(text, str):
        raise SerializationError(f"a JSON document must be text, not {type(text).__name__}")
    if len(text) > MAX_DOCUMENT_CHARS:
        raise SerializationError(
            f"the document has {len(text)} characters, over the limit of {MAX_DOCUMENT_CHARS}"
        )
    _check_depth(text)
    try:
        return json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_no_constants)
    except SerializationError:
        raise
    except (ValueError, RecursionError) as error:
        raise SerializationError(f"the document is not valid JSON: {error}") from None


def _format_cattrs_error(error: BaseException, kind: type | None) -> str:
    if isinstance(error, DeepSixError):
        return str(error)
    if isinstance(error, KeyError):
        key = error.args[0] if error.args else None
        if key == "type":
            return 'missing the "type" tag (e.g. "type": "Bid")'
        if isinstance(key, str) and key not in _field_names():
            return f"unknown type tag {key!r} (one of {', '.join(sorted(_ACTION_NAMES))})"
        return f"required key {key!r} missing"
    from cattrs.v import format_exception

    return format_exception(error, kind)


def _field_names() -> frozenset[str]:
    """Every key of every object in a deepsix document."""
    kinds = [kind for kind in (*_TYPES.values(), _StateDoc, _RecordDoc, _Hands) if attrs.has(kind)]
    return frozenset(field.name for kind in kinds for field in attrs.fields(kind))


def _structure(data: object, kind: Any, where: str = "$.data") -> Any:
    from cattrs import BaseValidationError, transform_error

    conv = _converter()
    try:
        return conv.structure(data, kind)
    except BaseValidationError as error:
        messages = transform_error(error, path=where, format_exception=_format_cattrs_error)
        raise SerializationError("; ".join(messages[:5])) from None
    except DeepSixError as error:
        raise SerializationError(f"{where}: {error}") from None
    except (KeyError, ValueError, TypeError, AttributeError, IndexError) as error:
        detail = f"missing key {error}" if isinstance(error, KeyError) else str(error)
        raise SerializationError(f"{where}: {detail}") from None


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
    values = {name: getattr(doc, name) for name in attrs.fields_dict(_StateDoc)}
    del values["hands"], values["history"]
    state = GameState(**values, packed_hands=packed, log=log)
    if not trusted:
        validate(state)
    return state


def _record_from(doc: _RecordDoc, *, trusted: bool = False) -> GameRecord:
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
        allowed = _ACTION_NAMES
        expected = "an action"
    elif cls in _NAMES:
        allowed = frozenset({_NAMES[cls]})
        expected = _NAMES[cls]
    else:
        raise SerializationError(f"cannot read a {getattr(cls, '__name__', cls)} from deepsix JSON")
    document = _parse(text)
    if type(document) is not dict:
        raise SerializationError(
            f"$: expected a deepsix document (an object), got {_describe(document)}"
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
            f"$.schema: unknown schema version {_describe(schema)} (this version of deepsix "
            f"reads {SCHEMA_VERSION!r})"
        )
    name = envelope["type"]
    if type(name) is not str or name not in allowed:
        raise SerializationError(f"$.type: expected {expected}, got {_describe(name)}")
    return cast(T, _load_data(name, envelope["data"], trusted=trusted))


def _load_data(name: str, data: object, *, trusted: bool = False, where: str = "$.data") -> Any:
    """The value of type ``_TYPES[name]`` in a document's ``data`` (checked unless trusted)."""
    kind = _TYPES[name]
    if kind is GameState:
        return _state_from(_structure(data, _StateDoc, where), trusted=trusted)
    if kind is GameRecord:
        return _record_from(_structure(data, _RecordDoc, where), trusted=trusted)
    if kind in ACTION_TYPES:
        if type(data) is not dict or cast(dict[str, object], data).get("type") != name:
            raise SerializationError(f'{where}: expected a {name} object tagged "type": {name!r}')
        value = _structure(data, cast(Any, Action), where)
    else:
        value = _structure(data, kind, where)
    if not trusted or kind is not PlayerView:
        _check_loaded(value)  # cheap for every type but a view
    return value


# -- JSON Schema ------------------------------------------------------------------------

_DRAFT: Final = "https://json-schema.org/draft/2020-12/schema"


def _leaf_schemas() -> dict[type, dict[str, object]]:
    return {
        Card: {
            "type": "string",
            "pattern": "^[2-8][CDHS]$",
            "description": "A card: rank 2-8 and suit letter.",
        },
        Seat: {"enum": list(_SEAT_LETTERS), "description": "A seat, clockwise from North."},
        Suit: {
            "enum": list(_SUIT_LETTERS),
            "description": "A suit: clubs, diamonds, hearts, spades.",
        },
        Team: {"enum": list(_TEAM_NAMES), "description": "A partnership."},
        Rank: {"type": "integer", "minimum": 2, "maximum": 8},
        Phase: {"enum": [phase.value for phase in Phase]},
        PlayOver: {"enum": [rule.value for rule in PlayOver]},
        MeldKind: {"enum": [kind.code for kind in MeldKind]},
        Meld: {"enum": [meld.code for meld in ALL_MELDS], "description": "A meld by its code."},
    }


class _SchemaBuilder:
    def __init__(self) -> None:
        self.defs: dict[str, object] = {}
        self.leaves = _leaf_schemas()

    def ref(self, name: str) -> dict[str, object]:
        return {"$ref": f"#/$defs/{name}"}

    def of(self, kind: Any) -> dict[str, object]:  # noqa: PLR0911, PLR0912  # one branch per kind of type, tried in order
        if kind is int:
            return {"type": "integer"}
        if kind is bool:
            return {"type": "boolean"}
        if kind is str:
            return {"type": "string"}
        if _is_notation(kind):
            return {"type": "string", "pattern": ACTION_PATTERN}
        if kind in self.leaves:
            name = kind.__name__
            self.defs.setdefault(name, self.leaves[kind])
            return self.ref(name)
        if kind is LegalActions:
            return {"type": "array", "items": self.of(Action)}
        origin = typing.get_origin(kind)
        if origin is tuple:
            args = typing.get_args(kind)
            if len(args) == 2 and args[1] is Ellipsis:
                return {"type": "array", "items": self.of(args[0])}
            return {
                "type": "array",
                "prefixItems": [self.of(arg) for arg in args],
                "items": False,
                "minItems": len(args),
            }
        if origin is dict:
            return {"type": "object", "additionalProperties": {"type": "string"}}
        if origin in (typing.Union, types.UnionType):
            args = typing.get_args(kind)
            options = [arg for arg in args if arg is not type(None)]
            if all(arg in ACTION_TYPES for arg in options) and len(options) > 1:
                name = "Action" if len(options) == len(ACTION_TYPES) else "Call"
                if name not in self.defs:
                    self.defs[name] = {"oneOf": [self.of(arg) for arg in options]}
                schema = self.ref(name)
            else:
                (only,) = options
                schema = self.of(only)
            if len(options) < len(args):
                return {"anyOf": [schema, {"type": "null"}]}
            return schema
        if attrs.has(kind):
            return self.record(kind)
        raise TypeError(f"no JSON Schema for {kind!r}")  # pragma: no cover - a programming error

    def record(self, kind: type) -> dict[str, object]:
        name = _NAMES.get(kind) or kind.__name__.strip("_").replace("Doc", "")
        if kind is _Hands:
            name = "Hands"
        if name in self.defs:
            return self.ref(name)
        self.defs[name] = {}
        try:
            hints = typing.get_type_hints(kind, include_extras=True)
        except NameError:  # names imported for type checkers only (HandSetup): resolved earlier
            hints = {}
        for field in attrs.fields(kind):  # classes made by attrs.make_class carry field types only
            hints.setdefault(field.name, field.type)
        properties: dict[str, object] = {}
        required: list[str] = []
        for field in attrs.fields(kind):
            properties[field.name] = self.of(hints[field.name])
            if field.default is attrs.NOTHING:
                required.append(field.name)
        if kind in ACTION_TYPES:
            properties["type"] = {"const": kind.__name__}
            required.append("type")
        self.defs[name] = {
            "type": "object",
            "properties": properties,
            "required": required,
            "additionalProperties": False,
        }
        return self.ref(name)


def json_schema(kind: str) -> dict[str, object]:
    """The JSON Schema (draft 2020-12) of the documents of one type.

    ``kind`` is ``"state"``, ``"record"``, ``"view"`` (the shipped files, see
    :data:`SCHEMA_KINDS`), ``"Action"`` (a document holding any action: what
    ``from_json(text, Action)`` reads) or the name of any supported type
    (``"Bid"``, ``"Rules"`` ...).
    """
    name = SCHEMA_KINDS.get(kind, kind)
    if name not in _TYPES and name != "Action":
        raise SerializationError(
            f"no schema for {kind!r}: use one of {', '.join(SCHEMA_KINDS)}, Action or a type name"
        )
    _converter()  # resolves the setup's forward references
    builder = _SchemaBuilder()
    tag: dict[str, object] = {"const": name}
    if name == "Action":  # any action: the envelope's type names the action's class
        data = builder.of(Action)
        tag = {"enum": sorted(_ACTION_NAMES)}
    else:
        target = _TYPES[name]
        data = builder.of(_DOC_OF.get(target, target))
        if target in ACTION_TYPES:
            data = builder.of(target)
    return {
        "$schema": _DRAFT,
        "$id": f"urn:deepsix:schema:{SCHEMA_VERSION}:{name}",
        "title": f"deepsix {name} document ({SCHEMA_VERSION})",
        "type": "object",
        "properties": {
            "schema": {"const": SCHEMA_VERSION},
            "type": tag,
            "data": data,
        },
        "required": ["schema", "type", "data"],
        "additionalProperties": False,
        "$defs": dict(sorted(builder.defs.items())),
    }


def schema_text(kind: str) -> str:
    """:func:`json_schema` as the text of the shipped file (sorted keys, two-space indent)."""
    return json.dumps(json_schema(kind), indent=2, sort_keys=True) + "\n"


def load_schema(kind: str) -> dict[str, object]:
    """The shipped schema file for ``kind`` (``"state"``, ``"record"`` or ``"view"``)."""
    from importlib.resources import files

    if kind not in SCHEMA_KINDS:
        raise SerializationError(
            f"no shipped schema {kind!r}: use one of {', '.join(SCHEMA_KINDS)}"
        )
    text = (files("deepsix.io") / "schemas" / f"{kind}.schema.json").read_text(encoding="utf-8")
    return cast(dict[str, object], json.loads(text))


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m deepsix.io.schemas --schema [DIR] [--check]``: write or check the schemas."""
    parser = argparse.ArgumentParser(
        prog="python -m deepsix.io.schemas", description="deepsix JSON Schema files"
    )
    parser.add_argument(
        "--schema",
        metavar="DIR",
        nargs="?",
        const="-",
        required=True,
        help="write <kind>.schema.json files to DIR (default: print them)",
    )
    parser.add_argument(
        "--check", action="store_true", help="compare with the files in DIR instead of writing"
    )
    args = parser.parse_args(argv)
    stale = []
    for kind in SCHEMA_KINDS:
        text = schema_text(kind)
        if args.schema == "-":
            sys.stdout.write(text)
            continue
        path = Path(args.schema) / f"{kind}.schema.json"
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(str(path))
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    if stale:
        sys.stderr.write("out of date: " + ", ".join(stale) + "\n")
        return 1
    return 0
