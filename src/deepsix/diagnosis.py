"""Why an action is illegal: the error :func:`deepsix.engine.apply` raises.

The engine accepts exactly the actions of its legal list; only when an
action is *not* among them does it ask this module which rule it breaks.
That makes this the slow path, run once per refused action, so it stays
out of the compiled build (:data:`deepsix.compiled.CANDIDATES`) and reads
as a decision list: the generic reasons first (not an action, the wrong
moment, not this seat's turn), then the move's own.
"""

from __future__ import annotations

from typing import Final

import attrs

from deepsix import bidding
from deepsix.actions import (
    ACTION_TYPES,
    Action,
    Bid,
    Deal,
    DeclareMeld,
    Done,
    NameSunkSuit,
    Pass,
    PassCard,
    PlayCard,
    ShowCard,
)
from deepsix.errors import IllegalActionError, NotAnActionError, Reason
from deepsix.hands import count, suit_block
from deepsix.legal import meld_cap
from deepsix.melds import packed_meld_blocker
from deepsix.state import GameState, Phase

__all__ = ["PHASE_ACTIONS", "diagnose", "has_fields"]

PHASE_ACTIONS: Final[dict[Phase, tuple[type, ...]]] = {
    Phase.DEAL: (Deal,),
    Phase.BIDDING: (Bid, Pass),
    Phase.SUNK_SUIT: (NameSunkSuit,),
    Phase.INVITATION: (ShowCard, Done),
    Phase.PARTNER_PASS: (PassCard,),
    Phase.BIDDER_MELD: (DeclareMeld, Done),
    Phase.BIDDER_PASS: (PassCard,),
    Phase.MELDING: (DeclareMeld, Done),
    Phase.PLAY: (PlayCard,),
    Phase.GAME_OVER: (),
}
"""The kinds of action each phase takes."""


def diagnose(state: GameState, action: object) -> IllegalActionError | NotAnActionError:  # noqa: PLR0911  # a decision list: the first reason that applies
    """The error explaining why ``action`` is not legal in ``state``: the generic reasons
    (not an action, the wrong moment, not this seat's turn), then the move's own."""
    phase = state.phase
    if type(action) not in ACTION_TYPES:
        return NotAnActionError(action)
    assert isinstance(action, ACTION_TYPES)
    if not has_fields(action):
        return NotAnActionError(action, f"a {type(action).__name__} missing its fields")
    if phase is Phase.GAME_OVER:
        return IllegalActionError(Reason.GAME_OVER, "", action)
    if phase is Phase.DEAL:
        return IllegalActionError(Reason.CHANCE_STEP, f"{action} was given", action)
    if type(action) is Deal:
        detail = f"the hand is in the {phase.value} phase"
        return IllegalActionError(Reason.NOT_CHANCE_STEP, detail, action)
    if type(action) not in PHASE_ACTIONS[phase]:
        detail = f"{type(action).__name__} during the {phase.value} phase"
        return IllegalActionError(Reason.WRONG_PHASE, detail, action)
    if action.seat != state.to_act:
        detail = f"{action.seat} acted; it is {state.to_act}'s turn"
        return IllegalActionError(Reason.NOT_YOUR_TURN, detail, action)
    reason, detail = _move_blocker(state, action)
    return IllegalActionError(reason, detail, action)


def has_fields(action: object) -> bool:
    """Whether every field of ``action`` is set (not so for ``object.__new__(Bid)``)."""
    kind = type(action)
    return attrs.has(kind) and all(hasattr(action, field.name) for field in attrs.fields(kind))


def _move_blocker(state: GameState, action: Action) -> tuple[Reason, str]:  # noqa: PLR0911  # a decision list: the first reason that applies
    """Why the seat to act may not make this move of the phase's own kind."""
    seat = action.seat
    assert seat is not None
    setup = state.setup
    packed = state.packed_hands[seat]
    if isinstance(action, Bid | Pass):
        error = bidding.call_error(state.rules, setup.bids, setup.bid, action)
        return error.reason, error.detail
    if isinstance(action, DeclareMeld):
        reason = packed_meld_blocker(
            packed,
            setup.melds[seat],
            action.meld,
            setup.sunk_suit,
            sharing=state.rules.meld_sharing,
            max_melded=meld_cap(state, packed),
        )
        return reason or Reason.MELD_UNAVAILABLE, f"{action.meld}"
    if not isinstance(action, ShowCard | PassCard | PlayCard):
        return Reason.WRONG_PHASE, f"{action} is not legal now"
    card = action.card
    shown = setup.invitation.count(card) if isinstance(action, ShowCard) else 0
    if count(packed, card) <= shown:
        return Reason.CARD_NOT_IN_HAND, f"{seat} has no (more) {card}"
    if isinstance(action, ShowCard):
        return Reason.NOT_MELDABLE, f"{card} cannot be part of a meld"
    if isinstance(action, PassCard):
        return Reason.CARD_MELDED, f"every {card} {seat} holds is melded"
    led = state.trick[0][1].suit
    if card.suit != led and suit_block(packed, led):
        return Reason.MUST_FOLLOW_SUIT, f"{seat} holds {led.symbol} cards"
    return Reason.MUST_PLAY_OVER, f"{seat} can play over the trick"
