"""The adapters' action contract: one integer per action kind, the same in every framework.

OpenSpiel's action ids, PettingZoo's ``Discrete`` actions and the batched
environment's actions are these numbers.  An id means the same kind of
action for every seat (the seat is the player to act).  The blocks that do
not depend on the rules come first, so their numbers never move; the bids
come last, because how many there are depends on :class:`~deepsix.Rules`:

=========  =========================  ==========================================
ids        action                     id within the block
=========  =========================  ==========================================
0-27       play a card                the card's index (``int(card)``)
28-55      pass a card to the partner the card's index
56-83      show a card (invitation)   the card's index
84-110     declare a meld             the meld's index in :data:`deepsix.ALL_MELDS`
111        done (invitation, melds)
112-115    name the sunk suit         the suit (clubs, diamonds, hearts, spades)
116        pass in the auction
117-       bid                        position in ``rules.bid_amounts`` (highest first)
=========  =========================  ==========================================

With the standard rules there are 54 bids (120 down to -410), so 171
actions in all.  A card's index is ``7 * suit + rank - 2`` (2♣ is 0, 8♠ is 27).
Nothing here knows a rule of the game: the legal ids are the engine's
:func:`deepsix.legal_actions`, numbered.
"""

from __future__ import annotations

import functools
import operator
from typing import Final, SupportsIndex

import attrs

from deepsix.actions import DECLARE, DONE, GIVE, PASS, PLAY, SHOW, SINK, Action
from deepsix.cards import Seat
from deepsix.engine import legal_actions
from deepsix.errors import IllegalActionError, Reason
from deepsix.io.notation import format_action
from deepsix.melds import ALL_MELDS
from deepsix.phases.auction import shared_bid
from deepsix.rules import Rules
from deepsix.state import GameState

from ._masks import known_ids, legal_mask, mask_bytes

__all__ = [
    "BID_BASE",
    "DONE_ID",
    "GIVE_BASE",
    "MELD_BASE",
    "PASS_ID",
    "PLAY_BASE",
    "SHOW_BASE",
    "SINK_BASE",
    "ActionCodec",
]

PLAY_BASE: Final = 0
GIVE_BASE: Final = 28
SHOW_BASE: Final = 56
MELD_BASE: Final = 84
DONE_ID: Final = MELD_BASE + len(ALL_MELDS)
SINK_BASE: Final = DONE_ID + 1
PASS_ID: Final = SINK_BASE + 4
BID_BASE: Final = PASS_ID + 1

_SEATS: Final = tuple(Seat)


@functools.lru_cache(maxsize=64)
def _codec(rules: Rules) -> ActionCodec:
    return ActionCodec._build(rules)


@attrs.frozen(eq=False, repr=False)
class ActionCodec:
    """The integer encoding of actions under one set of :class:`~deepsix.Rules`.

    >>> from deepsix import Rules, Bid, Seat
    >>> codec = ActionCodec.for_rules(Rules())
    >>> codec.num_actions, codec.encode(Bid(Seat.EAST, 90)), codec.decode(0, Seat.NORTH)
    (171, 120, PlayCard(seat=<Seat.NORTH: 0>, card=Card('2C')))
    >>> codec.action_string(120, Seat.EAST)
    'E:B90'
    """

    rules: Rules
    """The rules (the bid block depends on their bid amounts)."""
    bid_amounts: tuple[int, ...]
    """Every legal bid amount, highest first: bid ``k`` is action ``BID_BASE + k``."""
    _by_id: tuple[tuple[Action, ...], ...]
    _to_id: tuple[dict[Action, int], ...]
    _by_identity: dict[int, tuple[Action, int]]
    _strings: tuple[tuple[str, ...], ...]

    @classmethod
    def for_rules(cls, rules: Rules) -> ActionCodec:
        """The codec for ``rules`` (built once per distinct rules value)."""
        return _codec(rules)

    @classmethod
    def _build(cls, rules: Rules) -> ActionCodec:
        amounts = tuple(rules.bid_amounts)
        by_id = []
        for seat in _SEATS:
            table: list[Action] = [
                *PLAY[seat],
                *GIVE[seat],
                *SHOW[seat],
                *(DECLARE[seat, meld] for meld in ALL_MELDS),
                DONE[seat],
                *SINK[seat],
                PASS[seat],
                *(shared_bid(seat, amount) for amount in amounts),
            ]
            by_id.append(tuple(table))
        to_id = tuple({action: i for i, action in enumerate(table)} for table in by_id)
        # The engine hands out interned actions (bids included: the shared ones above), so
        # its legal actions are found by identity, without hashing.
        by_identity = {id(action): (action, i) for table in by_id for i, action in enumerate(table)}
        strings = tuple(tuple(format_action(action) for action in table) for table in by_id)
        return cls(rules, amounts, tuple(by_id), to_id, by_identity, strings)

    @property
    def num_actions(self) -> int:
        """How many action ids exist (the size of the action space)."""
        return BID_BASE + len(self.bid_amounts)

    def encode(self, action: Action) -> int:
        """The id of ``action`` (a player's action; a deal has no id)."""
        seat: Seat | None = getattr(action, "seat", None)
        index = None if seat is None else self._to_id[seat].get(action)
        if index is None:
            raise IllegalActionError(
                Reason.UNKNOWN_ACTION, f"{action!r} has no action id under these rules", action
            )
        return index

    def decode(self, index: SupportsIndex, seat: Seat | int) -> Action:
        """The action ``index`` taken by ``seat``.

        ``index`` is an int or a numpy integer.  Raises
        :class:`~deepsix.IllegalActionError` (reason ``UNKNOWN_ACTION``) for
        anything else, an id outside ``0 .. num_actions - 1`` or a seat
        outside 0..3.
        """
        if type(index) is not int:  # numpy integers too; not bools, strings or floats
            if isinstance(index, bool) or not hasattr(type(index), "__index__"):
                raise IllegalActionError(
                    Reason.UNKNOWN_ACTION, f"{index!r} is not an action id", index
                )
            index = operator.index(index)
        if not 0 <= index < BID_BASE + len(self.bid_amounts) or not (
            isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat <= 3
        ):
            raise self._unknown(index, seat)
        return self._by_id[seat][index]

    def _unknown(self, index: int, seat: object) -> IllegalActionError:
        return IllegalActionError(
            Reason.UNKNOWN_ACTION,
            f"action id {index} for seat {seat!r} (ids are 0..{self.num_actions - 1})",
            index,
        )

    def legal_ids(self, state: GameState) -> list[int]:
        """The ids of the engine's legal actions in ``state``, ascending."""
        if state.to_act is None:
            return []
        return self.ids_of(legal_actions(state))

    def ids_of(self, actions: tuple[Action, ...]) -> list[int]:
        """The ids of some actions of one seat, ascending."""
        ids = known_ids(self._by_identity, actions)
        if ids is None:
            ids = sorted(self.encode(action) for action in actions)
        return ids

    @property
    def identity_table(self) -> dict[int, tuple[Action, int]]:
        """The table :mod:`deepsix.adapters._masks` finds ids in: ``id(action)`` to the
        interned action and its id (read-only)."""
        return self._by_identity

    def legal_mask(self, state: GameState) -> bytearray:
        """:attr:`num_actions` bytes, 1 at the ids of :meth:`legal_ids` and 0 elsewhere."""
        size = BID_BASE + len(self.bid_amounts)
        flags = legal_mask(self._by_identity, state, size)
        return mask_bytes(self.legal_ids(state), size) if flags is None else flags

    def legal_flags(self, state: GameState) -> bytes:
        """:meth:`legal_mask` as bytes: immutable, so a dictionary key."""
        return bytes(self.legal_mask(state))

    def action_string(self, index: SupportsIndex, seat: Seat | int) -> str:
        """The action in the library's notation, e.g. ``'E:B90'`` or ``'N:7S'``."""
        self.decode(index, seat)  # checks both
        return self._strings[int(seat)][operator.index(index)]

    def __repr__(self) -> str:
        bids = f"{self.bid_amounts[0]}..{self.bid_amounts[-1]}"
        return f"<ActionCodec: {self.num_actions} actions, bids {bids}>"
