"""The rules by phase (``deepsix.phases``): one module per phase, each with the same face.

Each phase module exports ``KINDS``, ``legal``, ``refusal`` and ``step``; together their
``KINDS`` cover every phase but the end of the game exactly once, and the engine is their
dispatcher: its legal list is the phase's own, its successor the phase's step, and a refused
move of the right kind by the seat to act gets the phase's own refusal.
"""

from __future__ import annotations

import random
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deepsix import (
    DECK,
    Deal,
    GameState,
    IllegalActionError,
    Phase,
    apply,
    legal_actions,
    new_game,
    shuffled_deal,
)
from deepsix.diagnosis import PHASE_ACTIONS
from deepsix.phases import auction, contract, deal, melding, passing, play
from tests.support.strategies import action_universe, choose_action, examples

PHASES: tuple[ModuleType, ...] = (deal, auction, contract, passing, melding, play)
FACE = ("KINDS", "legal", "refusal", "step")


def module_of(phase: Phase) -> ModuleType:
    (module,) = [module for module in PHASES if phase in module.KINDS]
    return module


@pytest.mark.parametrize("module", PHASES, ids=lambda m: m.__name__)
def test_every_phase_module_has_the_same_face(module: ModuleType) -> None:
    assert set(FACE) <= set(module.__all__)
    assert all(callable(getattr(module, name)) for name in FACE[1:])


def test_the_phase_modules_cover_every_phase_once() -> None:
    covered = [phase for module in PHASES for phase in module.KINDS]
    assert sorted(covered, key=list(Phase).index) == [p for p in Phase if p is not Phase.GAME_OVER]
    assert len(covered) == len(set(covered))
    assert {p: k for m in PHASES for p, k in m.KINDS.items()} == {
        p: k for p, k in PHASE_ACTIONS.items() if p is not Phase.GAME_OVER
    }


def play_to_somewhere(seed: int, steps: int) -> GameState:
    rng = random.Random(seed)
    state = new_game()
    for _ in range(steps):
        if state.is_over:
            break
        state = apply(state, choose_action(rng, state, "random"))
    return state


@settings(max_examples=examples(ci=60, deep=600), deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 400))
def test_the_engine_dispatches_to_the_phase(seed: int, steps: int) -> None:
    """Legal list, step and refusal: each is the current phase's own."""
    state = play_to_somewhere(seed, steps)
    if state.is_over:
        return
    module = module_of(state.phase)
    if state.is_chance:
        assert tuple(module.legal(state)) == () == tuple(legal_actions(state))
        bad = Deal(DECK[:-1] + DECK[:1])
        with pytest.raises(IllegalActionError) as caught:
            apply(state, bad)
        assert (caught.value.reason, caught.value.detail) == module.refusal(state, bad)
        assert module.step(state, shuffled_deal(seed)) == apply(state, shuffled_deal(seed))
        return
    legal = legal_actions(state)
    assert tuple(module.legal(state)) == tuple(legal)
    action = legal[seed % len(legal)]
    assert module.step(state, action) == apply(state, action)
    kinds = module.KINDS[state.phase]
    refused = [
        candidate
        for candidate in action_universe(state)
        if type(candidate) in kinds
        and getattr(candidate, "seat", None) == state.to_act
        and candidate not in legal
    ]
    for candidate in random.Random(seed).sample(refused, min(5, len(refused))):
        with pytest.raises(IllegalActionError) as caught:
            apply(state, candidate)
        assert (caught.value.reason, caught.value.detail) == module.refusal(state, candidate)
