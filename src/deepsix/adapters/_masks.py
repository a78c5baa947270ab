"""Action masks: the ids of a seat's legal actions, and a mask of them, fast.

:class:`deepsix.adapters.actions.ActionCodec` numbers the actions; the
engine hands out interned action objects, so most legal actions are found
by identity (``by_identity``: ``id(action)`` to the action and its id)
without hashing, and bids, which the engine makes anew, by amount.

Plain typed Python, compiled in the compiled build.
"""

from __future__ import annotations

from deepsix.actions import Action, Bid
from deepsix.engine import legal_actions
from deepsix.state import GameState

__all__ = ["known_ids", "legal_flags", "legal_mask", "mask_bytes"]


def known_ids(
    by_identity: dict[int, tuple[Action, int]],
    bid_ids: dict[int, int],
    actions: tuple[Action, ...],
) -> list[int] | None:
    """The ids of ``actions``, ascending; None if one of them is found neither way (the
    caller then encodes them one by one)."""
    ids: list[int] = []
    for action in actions:
        found = by_identity.get(id(action))
        if found is not None and found[0] is action:
            ids.append(found[1])
        elif type(action) is Bid and action.amount in bid_ids:
            ids.append(bid_ids[action.amount])
        else:
            return None
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
    bid_ids: dict[int, int],
    state: GameState,
    size: int,
) -> bytearray | None:
    """:func:`mask_bytes` of the ids of the legal actions in ``state`` (all zero when no
    one is to act); None as :func:`known_ids` says."""
    if state.to_act is None:
        return bytearray(size)
    ids = known_ids(by_identity, bid_ids, legal_actions(state))
    return None if ids is None else mask_bytes(ids, size)


def legal_flags(
    by_identity: dict[int, tuple[Action, int]],
    bid_ids: dict[int, int],
    state: GameState,
    size: int,
) -> bytes | None:
    """:func:`legal_mask` as immutable bytes (a dictionary key), set straight from the
    legal actions, without sorting their ids; None as :func:`known_ids` says."""
    flags = bytearray(size)
    if state.to_act is None:
        return bytes(flags)
    actions: tuple[Action, ...] = legal_actions(state)
    for k in range(len(actions)):  # by index: the engine's tuple subclass, read as a tuple
        action = actions[k]
        found = by_identity.get(id(action))
        if found is not None and found[0] is action:
            flags[found[1]] = 1
        elif type(action) is Bid and action.amount in bid_ids:
            flags[bid_ids[action.amount]] = 1
        else:
            return None
    return bytes(flags)
