"""Why an action is illegal: the error :func:`deepsix.engine.apply` raises.

The engine accepts exactly the actions of its legal list; only when an
action is *not* among them does it ask this module which rule it breaks.
That makes this the slow path, run once per refused action, so it stays
out of the compiled build (:data:`deepsix.compiled.CANDIDATES`) and reads
as a decision list: the generic reasons here (not an action, the wrong
moment, not this seat's turn), then the phase's own
(``refusal`` of its module in :mod:`deepsix.phases`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import attrs

from deepsix.actions import ACTION_TYPES, Action, Deal
from deepsix.errors import IllegalActionError, NotAnActionError, Reason
from deepsix.phases import auction, contract, deal, melding, passing, play
from deepsix.state import GameState, Phase

__all__ = ["PHASE_ACTIONS", "diagnose", "has_fields"]

_PHASES: Final = (deal, auction, contract, passing, melding, play)

PHASE_ACTIONS: Final[dict[Phase, tuple[type, ...]]] = {
    **{phase: kinds for module in _PHASES for phase, kinds in module.KINDS.items()},
    Phase.GAME_OVER: (),
}
"""The kinds of action each phase takes (each phase module's ``KINDS``)."""

_REFUSAL: Final[dict[Phase, Callable[[GameState, Action], tuple[Reason, str]]]] = {
    phase: module.refusal for module in _PHASES for phase in module.KINDS
}


def diagnose(state: GameState, action: object) -> IllegalActionError | NotAnActionError:  # noqa: PLR0911  # a decision list: the first reason that applies
    """The error explaining why ``action`` is not legal in ``state``: the generic reasons
    (not an action, the wrong moment, not this seat's turn), then the phase's own."""
    phase = state.phase
    if type(action) not in ACTION_TYPES:
        return NotAnActionError(action)
    assert isinstance(action, ACTION_TYPES)
    if not has_fields(action):
        return NotAnActionError(action, f"a {type(action).__name__} missing its fields")
    if phase is Phase.GAME_OVER:
        return IllegalActionError(Reason.GAME_OVER, "", action)
    if phase is Phase.DEAL:
        if type(action) is Deal:
            return IllegalActionError(*deal.refusal(state, action), action)
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
    return IllegalActionError(*_REFUSAL[phase](state, action), action)


def has_fields(action: object) -> bool:
    """Whether every field of ``action`` is set (not so for ``object.__new__(Bid)``)."""
    kind = type(action)
    return attrs.has(kind) and all(hasattr(action, field.name) for field in attrs.fields(kind))
