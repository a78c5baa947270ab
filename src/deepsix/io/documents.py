"""The JSON shapes of a state and a record: readable documents, not the packed fields.

A :class:`~deepsix.GameState` is written field by field, except its
bit-packed hands (a list of cards under each seat's letter, :class:`Hands`)
and its history (a list of actions in the notation of
:mod:`deepsix.io.notation`); a :class:`~deepsix.GameRecord` writes its
actions in notation too.  :class:`StateDoc` is built from the state's own
field declaration, so a new state field reaches the documents (and the
JSON Schemas) without being listed here.  :mod:`deepsix.io.serialization`
converts between the values and these shapes; :mod:`deepsix.io.schema`
describes them.
"""

from __future__ import annotations

import typing
from typing import Annotated, Any, Final

import attrs

from deepsix.cards import Card, Seat
from deepsix.rules import Rules
from deepsix.state import GameState

__all__ = [
    "NOTATION",
    "STATE_JSON_FORMS",
    "Hands",
    "Notation",
    "RecordDoc",
    "StateDoc",
    "is_notation",
]

NOTATION: Final = "deepsix-action-notation"
"""The mark that makes a string type :data:`Notation`."""

Notation = Annotated[str, NOTATION]
"""An action in the compact notation of :mod:`deepsix.io.notation`."""


def is_notation(kind: object) -> bool:
    """Whether the type ``kind`` is :data:`Notation`."""
    return typing.get_origin(kind) is Annotated and NOTATION in getattr(kind, "__metadata__", ())


@attrs.frozen
class Hands:
    """Each seat's cards, sorted, under the seat's letter."""

    N: tuple[Card, ...]
    E: tuple[Card, ...]
    S: tuple[Card, ...]
    W: tuple[Card, ...]


STATE_JSON_FORMS: Final[dict[str, tuple[str, Any]]] = {
    "packed_hands": ("hands", Hands),
    "log": ("history", tuple[Notation, ...] | None),
}
"""The :class:`GameState` fields whose JSON form differs: its name there and its type."""


def _state_doc_class() -> type:
    """The JSON form of a :class:`GameState`, built from its own fields (readable, not packed).

    Every field is written as it is, except the two in :data:`STATE_JSON_FORMS`:
    the hands as lists of cards under the seats' letters, the history as notation.
    """
    hints = typing.get_type_hints(GameState)
    fields: dict[str, Any] = {}
    for field in attrs.fields(GameState):
        if field.init:
            name, kind = STATE_JSON_FORMS.get(field.name, (field.name, hints[field.name]))
            fields[name] = attrs.field(type=kind)
    doc: type = attrs.make_class("StateDoc", fields, frozen=True)
    doc.__doc__ = "The JSON form of a GameState (readable, not bit-packed)."
    doc.__module__ = __name__
    return doc


StateDoc: Final = _state_doc_class()
"""The JSON form of a :class:`~deepsix.GameState` (an attrs class made from its fields)."""


@attrs.frozen
class RecordDoc:
    """The JSON form of a :class:`~deepsix.GameRecord`."""

    rules: Rules
    dealer: Seat
    actions: tuple[Notation, ...]
    tags: dict[str, str] = attrs.field(factory=dict)
