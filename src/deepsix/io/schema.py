"""JSON Schemas (draft 2020-12) of deepsix's documents and of the wire form.

:func:`json_schema` describes a document as :func:`deepsix.to_json` writes
it (the envelope and its data); :func:`wire_schema` a bare value as
:mod:`deepsix.io.wire` sends it.  Both are built from the types
themselves (:mod:`deepsix.io.documents`, the name tables of
:mod:`deepsix.io.codec`), so they cannot drift from what is written.
The state, record and view schemas ship with the package
(``deepsix/io/schemas/*.schema.json``, read with :func:`load_schema`);
``python -m deepsix.io.schemas --schema DIR`` writes them and
``--check`` compares (the test suite does).
"""

from __future__ import annotations

import json
import types
import typing
from typing import Any, Final, cast

import attrs

from deepsix.actions import ACTION_TYPES, Action, LegalActions
from deepsix.cards import Card, Rank, Seat, Suit, Team
from deepsix.errors import SerializationError
from deepsix.events import Event
from deepsix.io.codec import (
    ACTION_NAMES,
    NAMES,
    SCHEMA_VERSION,
    SEAT_LETTERS,
    SUIT_LETTERS,
    TEAM_NAMES,
    TYPES,
    converter,
)
from deepsix.io.documents import RecordDoc, StateDoc, is_notation
from deepsix.io.notation import ACTION_PATTERN
from deepsix.io.record import GameRecord
from deepsix.melds import ALL_MELDS, Meld, MeldKind
from deepsix.rules import PlayOver
from deepsix.state import GameState, Phase

__all__ = [
    "DRAFT",
    "SCHEMA_KINDS",
    "SchemaBuilder",
    "json_schema",
    "load_schema",
    "schema_text",
    "wire_schema",
]

SCHEMA_KINDS: Final = {"state": "GameState", "record": "GameRecord", "view": "PlayerView"}
"""The shipped schema files (``deepsix/io/schemas/<kind>.schema.json``) and their types."""

_DOC_OF: Final[dict[type, type]] = {GameState: StateDoc, GameRecord: RecordDoc}
_EVENT_TYPES: Final[tuple[type, ...]] = typing.get_args(Event)
_EVENT_BY_NAME: Final = {kind.__name__: kind for kind in _EVENT_TYPES}

DRAFT: Final = "https://json-schema.org/draft/2020-12/schema"
"""The JSON Schema dialect of every schema here."""


def _leaf_schemas() -> dict[type, dict[str, object]]:
    return {
        Card: {
            "type": "string",
            "pattern": "^[2-8][CDHS]$",
            "description": "A card: rank 2-8 and suit letter.",
        },
        Seat: {"enum": list(SEAT_LETTERS), "description": "A seat, clockwise from North."},
        Suit: {
            "enum": list(SUIT_LETTERS),
            "description": "A suit: clubs, diamonds, hearts, spades.",
        },
        Team: {"enum": list(TEAM_NAMES), "description": "A partnership."},
        Rank: {"type": "integer", "minimum": 2, "maximum": 8},
        Phase: {"enum": [phase.value for phase in Phase]},
        PlayOver: {"enum": [rule.value for rule in PlayOver]},
        MeldKind: {"enum": [kind.code for kind in MeldKind]},
        Meld: {"enum": [meld.code for meld in ALL_MELDS], "description": "A meld by its code."},
    }


class SchemaBuilder:
    """Builds the JSON Schema of a type from its declaration, gathering named parts under ``$defs``.

    The package's one schema builder: the documents' and the wire schemas
    use it as it is; the web protocol's (:func:`deepsix.web.protocol.protocol_schema`)
    extends it through the hooks :meth:`name_of`, :meth:`hints_of`,
    :meth:`member`, :meth:`members`, :meth:`notes` and :meth:`fixed_tuple`.
    """

    def __init__(self) -> None:
        self.defs: dict[str, object] = {}
        self.leaves = _leaf_schemas()

    @staticmethod
    def ref(name: str) -> dict[str, object]:
        return {"$ref": f"#/$defs/{name}"}

    def of(self, kind: Any) -> dict[str, object]:  # noqa: PLR0911, PLR0912  # one branch per kind of type, tried in order
        if kind is int:
            return {"type": "integer"}
        if kind is bool:
            return {"type": "boolean"}
        if kind is str:
            return {"type": "string"}
        if kind is float:
            return {"type": "number"}
        if kind is type(None):
            return {"type": "null"}
        if kind is Any:  # any JSON value
            return {}
        if is_notation(kind):
            return {"type": "string", "pattern": ACTION_PATTERN}
        if kind in self.leaves:
            name = kind.__name__
            self.defs.setdefault(name, self.leaves[kind])
            return self.ref(name)
        if kind is LegalActions:
            return {"type": "array", "items": self.of(Action)}
        origin = typing.get_origin(kind)
        if origin is typing.Literal:
            return {"enum": list(typing.get_args(kind))}
        if origin is tuple:
            args = typing.get_args(kind)
            if len(args) == 2 and args[1] is Ellipsis:
                return {"type": "array", "items": self.of(args[0])}
            return self.fixed_tuple([self.of(arg) for arg in args])
        if origin is dict:
            return {"type": "object", "additionalProperties": {"type": "string"}}
        if origin in (typing.Union, types.UnionType):
            return self.union(typing.get_args(kind))
        if attrs.has(kind):
            return self.record(kind)
        raise TypeError(f"no JSON Schema for {kind!r}")  # pragma: no cover - a programming error

    def union(self, args: tuple[Any, ...]) -> dict[str, object]:
        """One of ``args``: a union of actions is named (Action, Call); ``None`` adds null."""
        options = [arg for arg in args if arg is not type(None)]
        if all(arg in ACTION_TYPES for arg in options) and len(options) > 1:
            name = "Action" if len(options) == len(ACTION_TYPES) else "Call"
            if name not in self.defs:
                self.defs[name] = {"oneOf": [self.of(arg) for arg in options]}
            schema = self.ref(name)
        elif len(options) == 1:
            schema = self.of(options[0])
        else:
            schema = {"anyOf": [self.of(arg) for arg in options]}
        if len(options) < len(args):
            return {"anyOf": [schema, {"type": "null"}]}
        return schema

    def fixed_tuple(self, items: list[dict[str, object]]) -> dict[str, object]:
        """A tuple of fixed length: exactly ``items``."""
        return {"type": "array", "prefixItems": items, "items": False, "minItems": len(items)}

    def name_of(self, kind: type) -> str:
        """The name of a record's schema under ``$defs``."""
        return NAMES.get(kind) or kind.__name__.replace("Doc", "")

    def hints_of(self, kind: type) -> dict[str, Any]:
        """The resolved annotations of a record's fields."""
        try:
            hints = typing.get_type_hints(kind, include_extras=True)
        except NameError:  # names imported for type checkers only (HandSetup): resolved earlier
            hints = {}
        for field in attrs.fields(kind):  # classes made by attrs.make_class carry field types only
            hints.setdefault(field.name, field.type)
        return hints

    def member(self, kind: type, field: attrs.Attribute[Any], hint: Any) -> dict[str, object]:
        """The schema of one field of a record."""
        return self.of(hint)

    def members(self, kind: type) -> tuple[dict[str, object], list[str]]:
        """A record's properties and the names it requires (fields without a default)."""
        hints = self.hints_of(kind)
        properties: dict[str, object] = {}
        required: list[str] = []
        for field in attrs.fields(kind):
            properties[field.name] = self.member(kind, field, hints[field.name])
            if field.default is attrs.NOTHING:
                required.append(field.name)
        if kind in ACTION_TYPES:
            properties["type"] = {"const": kind.__name__}
            required.append("type")
        return properties, required

    def notes(self, kind: type) -> dict[str, object]:
        """Annotations of a record's schema (none here)."""
        return {}

    def record(self, kind: type) -> dict[str, object]:
        """A reference to the schema of an attrs class, defined under ``$defs`` on first use."""
        name = self.name_of(kind)
        if name in self.defs:
            return self.ref(name)
        self.defs[name] = {}  # placeholder: records may refer to each other
        properties, required = self.members(kind)
        self.defs[name] = {
            "type": "object",
            **self.notes(kind),
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
    if name not in TYPES and name != "Action":
        raise SerializationError(
            f"no schema for {kind!r}: use one of {', '.join(SCHEMA_KINDS)}, Action or a type name"
        )
    converter()  # resolves the setup's forward references
    builder = SchemaBuilder()
    tag: dict[str, object] = {"const": name}
    if name == "Action":  # any action: the envelope's type names the action's class
        data = builder.of(Action)
        tag = {"enum": sorted(ACTION_NAMES)}
    else:
        target = TYPES[name]
        data = builder.of(_DOC_OF.get(target, target))
        if target in ACTION_TYPES:
            data = builder.of(target)
    return {
        "$schema": DRAFT,
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


def wire_schema(name: str) -> dict[str, object]:
    """The JSON Schema (draft 2020-12) of one value in wire form.

    ``name`` is ``"Action"`` (any action, in object form), ``"Event"`` (any
    event), ``"PlayerView"`` or the name of one type (``"Bid"``,
    ``"TrickWon"`` ...).
    """
    converter()  # resolves forward references
    builder = SchemaBuilder()
    if name == "Action":
        root = builder.of(Action)
    elif name == "Event":
        root = {"oneOf": [_event_schema(builder, kind) for kind in _EVENT_TYPES]}
    elif name in _EVENT_BY_NAME:
        root = _event_schema(builder, _EVENT_BY_NAME[name])
    elif name in NAMES.values() and name not in ("GameState", "GameRecord"):
        kind = next(kind for kind, known in NAMES.items() if known == name)
        root = builder.of(kind)
    else:
        raise SerializationError(
            f"no wire schema for {name!r}: use Action, Event, PlayerView or a type name"
        )
    return {
        "$schema": DRAFT,
        "$id": f"urn:deepsix:wire:{SCHEMA_VERSION}:{name}",
        "title": f"deepsix {name} ({SCHEMA_VERSION}, wire form)",
        **root,
        "$defs": dict(sorted(builder.defs.items())),
    }


def _event_schema(builder: SchemaBuilder, kind: type) -> dict[str, object]:
    ref = builder.record(kind)
    name = kind.__name__
    definition = cast(dict[str, Any], builder.defs[name])
    if "type" not in definition["properties"]:
        definition["properties"]["type"] = {"const": name}
        definition["required"].append("type")
    return ref
