"""The JSON codec: the converter, the bounded parser and the name tables.

Every deepsix document is an envelope naming the format version and the
type (``{"schema": "deepsix/1", "type": "GameState", "data": {...}}``);
this module holds what reads and writes the values inside it, shared by
the documents (:mod:`deepsix.io.serialization`), the wire format
(:mod:`deepsix.io.wire`) and the schemas (:mod:`deepsix.io.schema`):

* the name tables -- :data:`TYPES` (each type a document may hold, by the
  name its envelope gives) and the letters seats, suits and teams are
  written with;
* :func:`converter` -- the cattrs converter, strict about types (``"1"``
  or ``1.0`` where an integer belongs is refused), built on first use;
* :func:`parse_document` -- JSON text to Python values, refusing what is
  too long, nested too deep, has duplicate keys or ``NaN``, unread;
* :func:`structure` -- a parsed value to a typed one, every failure a
  :class:`~deepsix.SerializationError` naming where (``$.data.setup.bids[2]``).

cattrs is an optional dependency (``pip install deepsix[json]``):
:func:`converter` raises :class:`~deepsix.errors.MissingDependencyError`
without it.
"""

from __future__ import annotations

import json
import re
import typing
from collections.abc import Callable, Mapping
from itertools import accumulate
from typing import TYPE_CHECKING, Any, Final, TypeVar, cast

import attrs

from deepsix.actions import ACTION_TYPES, Action, Bid, LegalActions, Pass
from deepsix.cards import CARDS, Card, Rank, Seat, Suit, Team
from deepsix.errors import DeepSixError, SerializationError, missing_extra
from deepsix.io.documents import Hands, RecordDoc, StateDoc, is_notation
from deepsix.io.record import GameRecord
from deepsix.melds import ALL_MELDS, Meld, MeldKind
from deepsix.rules import PlayOver, Rules
from deepsix.scoring import HandScore
from deepsix.state import GameState, HandRecord, HandSetup, Phase
from deepsix.tricks import Trick
from deepsix.views import PlayerView

if TYPE_CHECKING:
    from cattrs import Converter

__all__ = [
    "ACTION_NAMES",
    "MAX_DEPTH",
    "MAX_DOCUMENT_CHARS",
    "NAMES",
    "SCHEMA_VERSION",
    "SEAT_LETTERS",
    "SUIT_LETTERS",
    "TEAM_NAMES",
    "TYPES",
    "converter",
    "describe",
    "parse_document",
    "structure",
]

T = TypeVar("T")

SCHEMA_VERSION: Final = "deepsix/1"
"""The format version every document carries in its ``"schema"`` key."""

MAX_DOCUMENT_CHARS: Final = 4 * 1024 * 1024
"""Longer documents are refused unread (a whole long game is well under 100 kB)."""

MAX_DEPTH: Final = 32
"""Documents nested deeper than this are refused unread (real ones nest at most 7 deep)."""

TYPES: Final[dict[str, Any]] = {
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
"""Each type a document may hold, by the name its envelope's ``"type"`` gives."""
NAMES: Final = {kind: name for name, kind in TYPES.items()}
"""Each type's name in a document."""
ACTION_NAMES: Final = frozenset(kind.__name__ for kind in ACTION_TYPES)
"""The names of the action types (a document of any action names one of them)."""

SEAT_LETTERS: Final = "NESW"
"""Seats are written as these letters (North first, clockwise)."""
SUIT_LETTERS: Final = "CDHS"
"""Suits are written as these letters."""
TEAM_NAMES: Final = ("NS", "EW")
"""Teams are written as these names."""
_CARD_BY_TEXT: Final = {card.ascii: card for card in CARDS}
_MELD_BY_CODE: Final = {meld.code: meld for meld in ALL_MELDS}
_KIND_BY_CODE: Final = {kind.code: kind for kind in MeldKind}
_PHASE_BY_VALUE: Final = {phase.value: phase for phase in Phase}
_PLAY_OVER_BY_VALUE: Final = {rule.value: rule for rule in PlayOver}


# -- the converter ----------------------------------------------------------------------


def _want(value: object, kind: type, what: str) -> None:
    if type(value) is not kind:
        raise SerializationError(f"expected {what}, got {describe(value)}")


def describe(value: object) -> str:  # noqa: PLR0911  # one answer per JSON type reads best
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
            raise SerializationError(f"expected {what} ({choices}), got {describe(value)}")
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
        raise SerializationError(f"expected a rank 2-8, got {describe(value)}")
    return Rank(value)


def _is_tuple(kind: object) -> bool:
    return typing.get_origin(kind) is tuple


def _is_str_dict(kind: object) -> bool:
    return typing.get_origin(kind) is dict


def _leaf_hooks() -> list[tuple[type, Callable[[Any], object], Callable[[object, object], object]]]:
    """How each leaf type is written and read: cards as ``7S``, seats as ``N``, and so on."""
    return [
        (Card, lambda c: c.ascii, _lookup(_CARD_BY_TEXT, "a card such as 7S")),
        (
            Seat,
            lambda s: SEAT_LETTERS[s],
            _lookup(dict(zip(SEAT_LETTERS, Seat, strict=True)), "a seat"),
        ),
        (
            Suit,
            lambda s: SUIT_LETTERS[s],
            _lookup(dict(zip(SUIT_LETTERS, Suit, strict=True)), "a suit"),
        ),
        (
            Team,
            lambda t: TEAM_NAMES[t],
            _lookup(dict(zip(TEAM_NAMES, Team, strict=True)), "a team"),
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
        raise missing_extra("JSON support", "json", error) from None
    conv = make_converter(forbid_extra_keys=True)
    conv.register_structure_hook(int, _strict_int)
    conv.register_structure_hook(bool, _strict_bool)
    conv.register_structure_hook(str, _strict_str)
    for kind, unstructure, structure in _leaf_hooks():
        conv.register_unstructure_hook(kind, unstructure)
        conv.register_structure_hook(kind, structure)

    def structure_tuple(value: object, kind: Any) -> tuple[object, ...]:
        if type(value) is not list:
            raise SerializationError(f"expected a list, got {describe(value)}")
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
            raise SerializationError(f"expected an object, got {describe(value)}")
        result: dict[str, str] = {}
        for key, item in cast(dict[object, object], value).items():
            if type(item) is not str:
                raise SerializationError(f"{key}: expected a string, got {describe(item)}")
            result[cast(str, key)] = item
        return result

    def structure_notation(value: object, kind: Any) -> str:
        _want(value, str, "an action in notation (e.g. N:7S)")
        return cast(str, value)

    conv.register_structure_hook_func(is_notation, structure_notation)
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


def converter() -> Converter:
    """The converter, built (and cattrs imported) on first use.

    Raises :class:`~deepsix.errors.MissingDependencyError` when cattrs is not installed.
    """
    if not _CONVERTERS:
        _CONVERTERS.append(_build_converter())
    return _CONVERTERS[0]


# -- the bounded parser -----------------------------------------------------------------

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


def parse_document(text: str | bytes) -> object:
    """JSON text (or UTF-8 bytes) as Python values, refused unread when too long or too deep,
    and refused with a duplicate key or ``NaN``/``Infinity``."""
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


# -- structuring ------------------------------------------------------------------------


def _format_cattrs_error(error: BaseException, kind: type | None) -> str:
    if isinstance(error, DeepSixError):
        return str(error)
    if isinstance(error, KeyError):
        key = error.args[0] if error.args else None
        if key == "type":
            return 'missing the "type" tag (e.g. "type": "Bid")'
        if isinstance(key, str) and key not in _field_names():
            return f"unknown type tag {key!r} (one of {', '.join(sorted(ACTION_NAMES))})"
        return f"required key {key!r} missing"
    from cattrs.v import format_exception

    return format_exception(error, kind)


def _field_names() -> frozenset[str]:
    """Every key of every object in a deepsix document."""
    kinds = [kind for kind in (*TYPES.values(), StateDoc, RecordDoc, Hands) if attrs.has(kind)]
    return frozenset(field.name for kind in kinds for field in attrs.fields(kind))


def structure(data: object, kind: Any, where: str = "$.data") -> Any:
    """``data`` (parsed JSON) as a value of type ``kind``; failures name the path from ``where``."""
    from cattrs import BaseValidationError, transform_error

    conv = converter()
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
