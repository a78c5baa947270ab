"""Action masks: the ids of a seat's legal actions, and a mask of them, fast.

:class:`deepsix.adapters.actions.ActionCodec` numbers the actions; the
engine hands out interned action objects (bids included,
:func:`deepsix.phases.auction.shared_bid`), so its legal actions are found by
identity (``by_identity``: ``id(action)`` to the action and its id),
without hashing.

Plain typed Python, compiled in the compiled build.
"""

from __future__ import annotations

from typing import Protocol

from deepsix.actions import Action
from deepsix.engine import legal_actions
from deepsix.state import GameState

__all__ = ["Flags", "id_of", "known_ids", "legal_mask", "mask_bytes", "set_legal"]


class Flags(Protocol):
    """Bytes that entries can be set in: a bytearray, a memoryview of an int8 array..."""

    def __setitem__(self, index: int, value: int, /) -> None: ...


def id_of(by_identity: dict[int, tuple[Action, int]], action: Action) -> int:
    """``action``'s id, found by identity; -1 if it is not one of the codec's interned
    actions (the caller then encodes it the slow way)."""
    found = by_identity.get(id(action))
    if found is not None and found[0] is action:
        return found[1]
    return -1


def known_ids(
    by_identity: dict[int, tuple[Action, int]],
    actions: tuple[Action, ...],
) -> list[int] | None:
    """The ids of ``actions``, ascending; None if :func:`id_of` does not find one of them."""
    ids: list[int] = []
    for action in actions:
        index = id_of(by_identity, action)
        if index < 0:
            return None
        ids.append(index)
    ids.sort()
    return ids


def mask_bytes(ids: list[int], size: int) -> bytearray:
    """``size`` bytes, 1 at each of ``ids`` and 0 elsewhere."""
    flags = bytearray(size)
    for index in ids:
        flags[index] = 1
    return flags


def legal_mask(
    by_identity: dict[int, tuple[Action, int]],
    state: GameState,
    size: int,
) -> bytearray | None:
    """``size`` bytes, 1 at the ids of the legal actions in ``state`` (all zero when no one
    is to act), set straight from the actions without sorting their ids; None if
    :func:`id_of` does not find one of them."""
    flags = bytearray(size)
    if state.to_act is None:
        return flags
    return flags if set_legal(by_identity, legal_actions(state), flags) else None


def set_legal(
    by_identity: dict[int, tuple[Action, int]],
    actions: tuple[Action, ...],
    flags: Flags,
) -> bool:
    """Set 1 in ``flags`` (zeroed) at the id of each of ``actions``; False, with ``flags``
    partly set, if :func:`id_of` does not find one of them."""
    for k in range(len(actions)):  # by index: the engine's tuple subclass, read as a tuple
        index = id_of(by_identity, actions[k])
        if index < 0:
            return False
        flags[index] = 1
    return True
