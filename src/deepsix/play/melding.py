"""The best declaration, one meld at a time: how the bots here meld.

Meld only ever lowers a team's score (melds count against the points a
team must take, and melded cards are still played), so a bot declares the
best meld its hand allows (:func:`deepsix.best_meld`); the bidder's
declaration is capped so that enough cards stay unmelded to pass back
(R-MELD-4).  The engine takes a declaration one meld per action, so
:func:`next_declaration` gives the next one, then ``Done``.

>>> import random
>>> from deepsix import HeuristicBot, Phase, apply, new_game, shuffled_deal, view
>>> state = new_game().apply(shuffled_deal(2))
>>> while state.phase not in (Phase.BIDDER_MELD, Phase.MELDING):
...     state = apply(state, HeuristicBot().choose(view(state, state.to_act), random.Random(0)))
>>> seen = view(state, state.to_act)
>>> next_declaration(seen) in seen.legal_actions
True
"""

from __future__ import annotations

from deepsix.actions import Action, DeclareMeld, Done
from deepsix.melds import Meld, best_meld
from deepsix.play.bots import acting_seat
from deepsix.state import Phase
from deepsix.views import PlayerView

__all__ = ["melds_to_complete_best", "next_declaration"]


def melds_to_complete_best(view: PlayerView) -> list[Meld]:
    """The melds the seat still has to declare to reach its best declaration.

    The best declaration is :func:`deepsix.best_meld` over the seat's hand,
    capped for the bidder so that enough cards stay unmelded to pass back
    (R-MELD-4); melds already declared are left out.
    """
    seat = view.seat
    sunk = view.sunk_suit
    assert seat is not None
    assert sunk is not None
    cap = None
    if view.phase is Phase.BIDDER_MELD:
        cap = len(view.hand) - view.rules.pass_size
    target = list(best_meld(view.hand, sunk, view.rules, max_melded=cap))
    for meld in view.melds[seat]:
        if meld in target:
            target.remove(meld)
    return target


def next_declaration(view: PlayerView) -> Action:
    """The seat's next action of its best declaration: a meld still to declare, or
    ``Done`` once it is complete."""
    seat = acting_seat(view)
    legal = view.legal_actions
    for meld in melds_to_complete_best(view):
        for action in legal:
            if isinstance(action, DeclareMeld) and action.meld == meld:
                return action
    return Done(seat)
