"""The state-transition engine: ``apply(state, action) -> state``.

This module is a dispatcher: the rules of each phase live in its module of
:mod:`deepsix.phases`, and the engine calls the current phase's own
``legal`` and ``step``.  Its public face is four functions:

* :func:`new_game` -- the state before the first deal;
* :func:`shuffled_deal` -- the chance step: a seeded, shuffled :class:`Deal`;
* :func:`legal_actions` -- every legal action in a state, in a fixed order;
* :func:`apply` -- the state after an action; raises
  :class:`~deepsix.errors.IllegalActionError` (naming the rule) otherwise.

``apply`` accepts an action exactly when it is in ``legal_actions``: both
are computed from the same per-phase generator, and the legal list is
computed once per state and cached.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, overload

from deepsix.actions import ACTION_TYPES, Action, Deal, LegalActions
from deepsix.cards import Seat, seat_of
from deepsix.diagnosis import diagnose, has_fields
from deepsix.errors import (
    DeepSixError,
    IllegalActionError,
    NotAnActionError,
    ParseError,
    Reason,
    WrongTypeError,
)
from deepsix.handsetup import EMPTY_SETUP
from deepsix.phases import auction, contract, deal, melding, passing, play
from deepsix.phases.deal import shuffled_deal
from deepsix.rules import Rules
from deepsix.state import GameState, Phase, bind_engine

__all__ = ["LegalActions", "apply", "legal_actions", "new_game", "shuffled_deal"]

_NO_HANDS: Final = (0, 0, 0, 0)
_NONE: Final = LegalActions()
# Module constants: the compiled build reads these without a lookup by name.
_LEGAL_ACTIONS: Final = LegalActions
_P_BIDDING: Final = Phase.BIDDING
_P_SUNK_SUIT: Final = Phase.SUNK_SUIT
_P_INVITATION: Final = Phase.INVITATION
_P_PARTNER_PASS: Final = Phase.PARTNER_PASS
_P_BIDDER_MELD: Final = Phase.BIDDER_MELD
_P_BIDDER_PASS: Final = Phase.BIDDER_PASS
_P_MELDING: Final = Phase.MELDING
_P_PLAY: Final = Phase.PLAY


def new_game(rules: Rules | None = None, dealer: Seat | int | str = Seat.NORTH) -> GameState:
    """The state before the first deal of a game."""
    if rules is None:
        rules = _DEFAULT_RULES
    elif not isinstance(rules, Rules):
        raise ParseError(f"rules must be a Rules, not {type(rules).__name__}")
    if type(dealer) is not Seat:
        try:
            dealer = seat_of(dealer)
        except DeepSixError:
            raise ParseError(f"dealer must be a Seat, not {dealer!r}") from None
    return GameState(
        rules, dealer, Phase.DEAL, None, (0, 0), (), EMPTY_SETUP, _NO_HANDS, (), (), None
    )


@overload
def legal_actions(state: GameState, /) -> LegalActions: ...
@overload
def legal_actions(*, state: GameState) -> LegalActions: ...
def legal_actions(state: object) -> LegalActions:
    """Every legal action in ``state``, in a deterministic order.

    Empty at a chance step (deal with :func:`shuffled_deal`) and once the
    game is over.
    """
    if type(state) is not GameState:
        raise _not_a_state("legal_actions", state)
    legal = state._legal
    if legal is None:
        legal = state._remember_legal(tuple.__new__(_LEGAL_ACTIONS, _generate(state)))
    return legal


@overload
def apply(state: GameState, action: Action) -> GameState: ...
@overload
def apply(state: GameState, action: Action, *, seat: Seat | int | str | None) -> GameState: ...
def apply(state: object, action: object, *, seat: object = None) -> GameState:
    """The state that follows ``action``; ``state`` itself never changes.

    Raises :class:`~deepsix.errors.IllegalActionError` when the action is not
    legal, with the reason and the rule it breaks.

    ``seat`` is for front ends that act on behalf of an authenticated
    player: the action is then refused (``Reason.NOT_YOUR_SEAT``) unless it
    is that seat's own action -- a deal, chance's action, is never anyone's.

    >>> from deepsix import Pass, Seat
    >>> state = new_game().apply(shuffled_deal(7))
    >>> apply(state, Pass(Seat.EAST), seat=Seat.WEST)
    Traceback (most recent call last):
    ...
    deepsix.errors.IllegalActionError: R-TURN-1: a player may act only for her own seat (...)
    """
    if type(state) is not GameState:
        raise _not_a_state("apply", state)
    if seat is not None:
        _check_sender(action, seat)
    phase = state.phase
    if phase is Phase.DEAL:
        if type(action) is not Deal or not has_fields(action):
            raise diagnose(state, action)
        return deal.step(state, action)
    legal = state._legal
    if legal is None:
        legal = legal_actions(state)
    for candidate in legal:
        if candidate is action:
            return _transition(state, candidate, phase)
    if type(action) not in ACTION_TYPES or not has_fields(action):
        raise diagnose(state, action)
    try:
        index = legal.index(action)
    except ValueError:
        raise diagnose(state, action) from None
    return _transition(state, legal[index], phase)


def _not_a_state(function: str, value: object) -> WrongTypeError:
    """The error for a call with something that is not a state (in both builds: the public
    functions take ``object`` at run time, so the compiled build's own argument check never
    answers first)."""
    return WrongTypeError(f"{function}() needs a GameState, not {type(value).__name__}")


def _check_sender(action: object, seat: object) -> None:
    """Refuse ``action`` unless ``seat`` (a front end's authenticated player) may send it."""
    if type(seat) is not Seat:
        try:
            seat = seat_of(seat)
        except DeepSixError:
            raise ParseError(f"seat must be a Seat, not {seat!r}") from None
    if type(action) not in ACTION_TYPES:
        raise NotAnActionError(action)
    sender = getattr(action, "seat", None)
    if sender != seat:
        raise IllegalActionError(Reason.NOT_YOUR_SEAT, f"{seat} sent {action}", action)


def _generate(state: GameState) -> Sequence[Action]:
    """The legal actions of ``state``: the phase's own (a branch each, no table, so that the
    compiled build calls them directly)."""
    phase = state.phase
    if phase is _P_PLAY:
        return play.legal(state)
    if phase is _P_BIDDING:
        return auction.legal(state)
    if phase is _P_MELDING or phase is _P_BIDDER_MELD:
        return melding.legal(state)
    if phase is _P_PARTNER_PASS or phase is _P_BIDDER_PASS:
        return passing.legal(state)
    if phase is _P_INVITATION or phase is _P_SUNK_SUIT:
        return contract.legal(state)
    return _NONE


def _transition(state: GameState, action: Action, phase: Phase) -> GameState:
    """Apply a legal ``action``: the phase's own step (a branch each, no table)."""
    if phase is _P_PLAY:
        return play.step(state, action)
    if phase is _P_BIDDING:
        return auction.step(state, action)
    if phase is _P_MELDING or phase is _P_BIDDER_MELD:
        return melding.step(state, action)
    if phase is _P_PARTNER_PASS or phase is _P_BIDDER_PASS:
        return passing.step(state, action)
    if phase is _P_INVITATION or phase is _P_SUNK_SUIT:
        return contract.step(state, action)
    raise diagnose(state, action)


_DEFAULT_RULES: Final = Rules()

bind_engine(apply, legal_actions)
