"""The observation contract: the fast encoder, golden tensors, every path agreeing (issue 27)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deepsix import (
    Action,
    Deal,
    GameState,
    Rules,
    Seat,
    legal_actions,
    new_game,
    shuffled_deal,
    view,
)
from tests.support.strategies import RULES_VARIANTS, examples, reachable_states, rules_ids

from .frameworks import require
from .golden import GOLDEN, LAYOUTS, fixed_game, golden_digests

require("numpy", "openspiel")

import numpy as np  # noqa: E402  (after the framework check)

from deepsix.adapters.observations import ObservationLayout  # noqa: E402

GOLDEN_DIGESTS = json.loads(GOLDEN.read_text(encoding="utf-8"))


def layout_for(name: str, rules: Rules) -> ObservationLayout:
    return ObservationLayout.build(rules, **LAYOUTS[name])


def step(state: GameState, rng: random.Random) -> Action:
    """A random next action (a deal at a chance step)."""
    return shuffled_deal(rng) if state.is_chance else rng.choice(legal_actions(state))


def from_view(name: str, state: GameState, seat: int) -> list[float]:
    layout = layout_for(name, state.rules)
    return layout.dense(view(state, seat if layout.private else None), seat)


def from_state(name: str, state: GameState, seat: int) -> list[float]:
    layout = layout_for(name, state.rules)
    return layout.to_list(layout.state_entries(state, seat))


def test_the_golden_game_covers_every_phase_and_two_hands() -> None:
    states = list(fixed_game())
    assert {state.phase for state in states} >= {s.phase for s in states if not s.is_over}
    assert len({state.phase for state in states}) == 9  # every phase but the end of the game
    assert len(states[-1].completed_hands) == 2
    assert len(GOLDEN_DIGESTS["information_state"]) == len(states)


@pytest.mark.parametrize("encode", [from_view, from_state], ids=["from the view", "from the state"])
def test_the_golden_tensors(encode: object) -> None:
    # Written by the encoder before the incremental one: the encodings did not change.
    assert golden_digests(encode) == GOLDEN_DIGESTS  # type: ignore[arg-type]  # an Encode


def test_a_changed_entry_changes_the_golden_digest() -> None:
    def off_by_one(name: str, state: GameState, seat: int) -> list[float]:
        vector = from_state(name, state, seat)
        if state.phase.value == "play" and name == "observation":
            vector[-1] += 1.0  # the hand number
        return vector

    assert golden_digests(off_by_one)["observation"] != GOLDEN_DIGESTS["observation"]
    assert golden_digests(off_by_one)["information_state"] == GOLDEN_DIGESTS["information_state"]


def test_openspiel_gives_the_golden_tensors_by_both_paths() -> None:
    require("pyspiel", "openspiel")
    import pyspiel

    import deepsix.adapters.openspiel  # noqa: F401  (registers python_deep_six)

    game = pyspiel.load_game(
        "python_deep_six", {"mode": "game", "target_score": 5000, "max_hands": 3}
    )
    state = game.new_initial_state()
    codec = game.config.codec
    golden = {name: GOLDEN_DIGESTS[name] for name in ("information_state", "observation")}
    engine_states = list(fixed_game())
    for k, engine in enumerate(engine_states):
        if k:
            action = engine.history[-1]
            for step in action.cards if type(action) is Deal else [codec.encode(action)]:
                state.apply_action(int(step))
        assert state.engine_state == engine
        for name, read, through_cpp in (
            ("information_state", state.information_state_tensor, "information_state_tensor"),
            ("observation", state.observation_tensor, "observation_tensor"),
        ):
            fast = [x for seat in range(4) for x in read(seat)]
            cpp = [x for seat in range(4) for x in getattr(pyspiel.State, through_cpp)(state, seat)]
            assert fast == cpp
            vectors = {
                layout: [x for seat in range(4) for x in from_state(layout, engine, seat)]
                for layout in (name,)
            }
            assert fast == vectors[name]
            assert golden_digests_of(fast) == golden[name][k]


def golden_digests_of(vector: list[float]) -> str:
    from .golden import digest

    return digest(vector)


@given(reachable_states(max_steps=500), st.sampled_from(list(LAYOUTS)))
@settings(max_examples=examples(ci=60, deep=1000))
def test_the_state_path_is_the_view_path(state: GameState, name: str) -> None:
    for seat in Seat:
        assert from_state(name, state, seat) == from_view(name, state, seat)


@pytest.mark.parametrize("rules", RULES_VARIANTS, ids=rules_ids)
def test_the_paths_agree_through_whole_games(rules: Rules) -> None:
    rng = random.Random(5)
    state = new_game(rules)
    checked = 0
    while len(state.completed_hands) < 2 and not state.is_over:
        state = state.apply(step(state, rng))
        for name in LAYOUTS:
            seat = rng.randrange(4)
            assert from_state(name, state, seat) == from_view(name, state, seat)
            checked += 1
    assert checked > 250


def test_the_cache_is_the_layouts_and_a_layout_reused_out_of_order_stays_right() -> None:
    # The encoder keeps what it computed per seat; asked about unrelated states in any
    # order (another game, an earlier state) it must still answer for the state it is given.
    layout = layout_for("information_state", Rules())
    games = [list(fixed_game())]
    rng = random.Random(3)
    other = [new_game()]
    while len(other) < 150 and not other[-1].is_over:
        last = other[-1]
        other.append(last.apply(step(last, rng)))
    games.append(other)
    for _ in range(400):
        state = rng.choice(rng.choice(games))
        seat = rng.randrange(4)
        fast = layout.to_list(layout.state_entries(state, seat))
        assert fast == layout.dense(view(state, seat), seat)


def test_fill_writes_what_to_list_lists() -> None:
    layout = layout_for("observation", Rules())
    out = np.full(layout.size, 7.0, np.float32)
    for state in list(fixed_game())[::17]:
        entries = layout.state_entries(state, 1)
        layout.fill(out, entries)
        assert out.tolist() == layout.to_list(entries)
