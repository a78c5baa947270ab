"""The best declaration, one meld at a time: every bot here melds by it."""

from __future__ import annotations

import random
from collections import Counter

from deepsix import (
    DeclareMeld,
    Done,
    HeuristicBot,
    Phase,
    apply,
    best_meld,
    legal_actions,
    new_game,
    shuffled_deal,
    view,
)
from deepsix.play.melding import melds_to_complete_best, next_declaration

MELD_PHASES = (Phase.BIDDER_MELD, Phase.MELDING)


def test_declaring_until_done_declares_the_best_meld() -> None:
    # R-MELD-4: each seat's declarations, taken one at a time until Done, are its best
    # meld (capped for the bidder so that a pass's worth of cards stays unmelded).
    checked = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = apply(new_game(), shuffled_deal(seed))
        while len(state.completed_hands) == 0 and state.phase is not Phase.PLAY:
            seat = state.to_act
            assert seat is not None
            seen = view(state, seat)
            if state.phase in MELD_PHASES:
                if not seen.melds[seat]:  # the seat's first declaration: its whole target
                    cap = None
                    if state.phase is Phase.BIDDER_MELD:
                        cap = len(seen.hand) - state.rules.pass_size
                    sunk = seen.sunk_suit
                    assert sunk is not None
                    target = Counter(best_meld(seen.hand, sunk, state.rules, max_melded=cap))
                    assert Counter(melds_to_complete_best(seen)) == target
                    checked += 1
                action = next_declaration(seen)
                assert action in legal_actions(state)
                if not melds_to_complete_best(seen):
                    assert action == Done(seat)
                else:
                    assert isinstance(action, DeclareMeld)
                    assert action.meld in melds_to_complete_best(seen)
            else:
                action = HeuristicBot().choose(seen, rng)
            state = apply(state, action)
    assert checked > 40


def test_the_heuristic_melds_by_it() -> None:
    for seed in range(20):
        rng = random.Random(seed)
        state = apply(new_game(), shuffled_deal(100 + seed))
        while state.phase is not Phase.PLAY and not state.completed_hands:
            seat = state.to_act
            assert seat is not None
            seen = view(state, seat)
            action = HeuristicBot().choose(seen, rng)
            if state.phase in MELD_PHASES:
                assert action == next_declaration(seen)
            state = apply(state, action)
