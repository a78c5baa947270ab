"""The actions of a game so far: a persistent linked list shared between states.

Each :class:`~deepsix.GameState` carries its whole history at constant
cost per action: the successor's :class:`History` is one node pointing at
the predecessor's.  ``GameState.history`` reads it as a tuple.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

import attrs

from deepsix.actions import Action
from deepsix.compiled import COMPILED

__all__ = ["History"]


class History:
    """The actions applied so far, as a persistent linked list.

    Appending shares the whole earlier history, so every state carries its
    full history at constant cost per action.  Iterating yields the actions
    from the first to the last.  Nodes are immutable: ``previous`` (the
    history before the last action, or ``None``) and ``action``; equality
    and hashing walk the list without recursion, however long the game.
    """

    __slots__ = ("_length", "action", "previous")

    previous: History | None
    """The history before the last action."""
    action: Action
    """The last action."""
    _length: int

    def __init__(self, previous: History | None, action: Action) -> None:
        object.__setattr__(self, "previous", previous)
        object.__setattr__(self, "action", action)
        object.__setattr__(self, "_length", 1 if previous is None else previous._length + 1)

    def __len__(self) -> int:
        return self._length

    def __iter__(self) -> Iterator[Action]:
        return iter(self.to_tuple())

    def to_tuple(self) -> tuple[Action, ...]:
        """The actions, first to last."""
        actions: list[Action] = []
        node: History | None = self
        while node is not None:
            actions.append(node.action)
            node = node.previous
        actions.reverse()
        return tuple(actions)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, History):
            return NotImplemented
        if self._length != other._length:
            return False
        a: History | None = self
        b: History | None = other
        while a is not None and b is not None and a is not b:
            if a.action != b.action:
                return False
            a, b = a.previous, b.previous
        return True

    def __ne__(self, other: object) -> bool:
        if not isinstance(other, History):
            return NotImplemented
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(self.to_tuple())

    def __repr__(self) -> str:
        return f"<History of {self._length} actions>"

    def __reduce__(self) -> tuple[object, ...]:
        return (_history_from, (self.to_tuple(),))

    def __setattr__(self, name: str, value: object) -> None:
        raise attrs.exceptions.FrozenInstanceError

    def __delattr__(self, name: str) -> None:
        raise attrs.exceptions.FrozenInstanceError


def _history_from(actions: tuple[Action, ...]) -> History | None:
    node: History | None = None
    for action in actions:
        node = History(node, action)
    return node


def _pure_init(self: History, previous: History | None, action: Action) -> None:
    """The pure build's ``History.__init__``: the class body's, filling slots directly."""
    _SET_PREVIOUS(self, previous)
    _SET_ACTION(self, action)
    _SET_LENGTH(self, 1 if previous is None else previous._length + 1)


_SET_PREVIOUS: Final = vars(History)["previous"].__set__
_SET_ACTION: Final = vars(History)["action"].__set__
_SET_LENGTH: Final = vars(History)["_length"].__set__

if not COMPILED:
    setattr(History, "__init__", _pure_init)  # noqa: B010  # faster in the interpreter
