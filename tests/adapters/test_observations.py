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
    ParseError,
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

from deepsix.adapters._stepwise import _held  # noqa: E402
from deepsix.adapters.observations import ObservationLayout, Tracked  # noqa: E402
from deepsix.hands import size  # noqa: E402

GOLDEN_DIGESTS = json.loads(GOLDEN.read_text(encoding="utf-8"))


def layout_for(name: str, rules: Rules) -> ObservationLayout:
    return ObservationLayout.build(rules, **LAYOUTS[name])


def step(state: GameState, rng: random.Random) -> Action:
    """A random next action (a deal at a chance step)."""
    return shuffled_deal(rng) if state.is_chance else rng.choice(legal_actions(state))


def from_view(name: str, state: GameState, seat: int) -> list[float]:
    layout = layout_for(name, state.rules)
    return layout.dense(view(state, seat if layout.private else None), seat)


def step_by_step(name: str, state: GameState, seat: int) -> list[float]:
    """The list written step by step from the last state the layout encoded for ``seat``."""
    return layout_for(name, state.rules).tensor(state, seat)


_TRACKED: dict[tuple[str, Rules, int], Tracked] = {}


def tracked(name: str, state: GameState, seat: int) -> list[float]:
    """A :class:`Tracked` numpy vector per layout and seat, updated state after state."""
    key = (name, state.rules, seat)
    found = _TRACKED.get(key)
    if found is None:
        found = _TRACKED[key] = layout_for(name, state.rules).tracked(seat)
    return [float(x) for x in found.update(state)]


def from_state(name: str, state: GameState, seat: int) -> list[float]:
    layout = layout_for(name, state.rules)
    return layout.to_list(layout.state_entries(state, seat))


def test_the_golden_game_covers_every_phase_and_two_hands() -> None:
    states = list(fixed_game())
    assert {state.phase for state in states} >= {s.phase for s in states if not s.is_over}
    assert len({state.phase for state in states}) == 9  # every phase but the end of the game
    assert len(states[-1].completed_hands) == 2
    assert len(GOLDEN_DIGESTS["information_state"]) == len(states)


@pytest.mark.parametrize(
    "encode",
    [from_view, from_state, step_by_step, tracked],
    ids=["from the view", "from the state", "step by step", "tracked numpy vector"],
)
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


def states_of_games(rules: Rules, seed: int, count: int) -> list[GameState]:
    """``count`` successive states of random games (a new game when one ends)."""
    rng = random.Random(seed)
    state = new_game(rules, Seat(seed % 4))
    states: list[GameState] = []
    while len(states) < count:
        state = new_game(rules, Seat(rng.randrange(4))) if state.is_over else state
        state = state.apply(step(state, rng))
        states.append(state)
    return states


@pytest.mark.parametrize("rules", RULES_VARIANTS, ids=rules_ids)
@pytest.mark.parametrize("name", list(LAYOUTS))
def test_step_by_step_writing_is_the_one_pass_encoding(rules: Rules, name: str) -> None:
    # Forward through whole games, then jumping between unrelated states (another game,
    # an earlier state, another phase): the vectors written by changing only what
    # differs always equal the one-pass encoding, as lists, numpy vectors and from views.
    layout = layout_for(name, rules)
    states = states_of_games(rules, 11, 300)
    rng = random.Random(4)
    order = list(range(len(states))) + [rng.randrange(len(states)) for _ in range(60)]
    vectors = [layout.tracked(seat) for seat in range(4)]
    for k in order:
        state = states[k]
        for seat in range(4):
            expected = from_state(name, state, seat)
            assert layout.tensor(state, seat) == expected
            assert vectors[seat].update(state).tolist() == expected
            seen = view(state, seat if layout.private else None)
            assert layout.tensor(seen, seat) == layout.dense(seen, seat)


@pytest.mark.parametrize("name", list(LAYOUTS))
def test_vectors_seen_only_in_turn_are_the_one_pass_encoding(name: str) -> None:
    # As PettingZoo reads them: each seat's vector brought up to date only when that seat
    # acts, several steps at once (the short way within a hand's play, the long way across
    # an auction, a new hand, a jump).  Then jumps between two lines of play from the same
    # state, which share the hand's setup and its first tricks.
    rules = Rules()
    layout = layout_for(name, rules)
    vectors = [layout.tracked(seat) for seat in range(4)]
    rng = random.Random(27)
    played = 0
    state = new_game(rules)
    checked = 0
    while played < 6:
        if state.is_over:
            state = new_game(rules, Seat(rng.randrange(4)))
        state = state.apply(step(state, rng))
        if state.is_chance or state.to_act is None:
            played += 1
            continue
        seat = int(state.to_act)
        assert vectors[seat].update(state).tolist() == from_state(name, state, seat)
        checked += 1
    assert checked > 300
    rng = random.Random(5)
    root = next(s for s in states_of_games(rules, 3, 200) if s.phase.value == "play")
    lines: list[list[GameState]] = []
    for _ in range(3):
        line: list[GameState] = []
        state = root
        while state.phase.value == "play" and len(line) < 40:
            state = state.apply(step(state, rng))
            line.append(state)
        lines.append(line)
    for _ in range(150):
        state = rng.choice(rng.choice(lines))
        seat = rng.randrange(4)
        assert vectors[seat].update(state).tolist() == from_state(name, state, seat)


def test_the_hand_sizes_by_table_are_the_engines() -> None:
    rng = random.Random(1)
    for _ in range(2000):
        packed = sum(rng.choice((0, 0, 1, 2)) << (2 * card) for card in range(28))
        assert _held(packed) == size(packed)


def test_step_by_step_writing_changes_few_entries_per_step() -> None:
    # What makes it fast: a card played changes a handful of entries, not the vector.
    layout = layout_for("information_state", Rules())
    vectors = [layout.tracked(seat) for seat in range(4)]
    plays: list[int] = []
    for state in fixed_game():
        for seat in range(4):
            vector = vectors[seat].vector
            clear, at, values = vectors[seat].changes(state)
            vector[clear] = 0.0
            vector[at] = values
            assert vector.tolist() == from_state("information_state", state, seat)
            if state.phase.value == "play" and len(state.trick) in (1, 2, 3):
                plays.append(len(clear) + len(at))
    assert plays
    assert max(plays) <= 40  # of 2,233 entries, about 150 of them non-zero
    assert sum(plays) / len(plays) < 16


def test_a_failed_update_leaves_a_vector_that_is_right_next_time() -> None:
    layout = layout_for("information_state", Rules())
    vector = layout.tracked(2)
    states = list(fixed_game())
    vector.update(states[120])
    broken = layout.tracked(1)
    broken._written.melds = (None, {10**6: 1})  # written facts that no vector can hold
    with pytest.raises(IndexError):
        broken.update(states[120])
    assert not broken.vector.any()  # forgotten: zeros, and the facts with them
    assert broken.update(states[130]).tolist() == from_state("information_state", states[130], 1)
    assert vector.update(states[130]).tolist() == from_state("information_state", states[130], 2)


def test_a_tracked_vector_can_be_a_row_of_a_batch() -> None:
    layout = layout_for("observation", Rules())
    batch = np.ones((3, layout.size), dtype=np.float32)
    row = layout.tracked(0, batch[1])
    assert not batch[1].any()
    assert batch[0].all()
    state = list(fixed_game())[90]
    row.update(state)
    assert batch[1].tolist() == from_state("observation", state, 0)
    with pytest.raises(ParseError):
        layout.tracked(0, np.zeros(5, dtype=np.float32))


def test_a_tracked_vector_may_be_strided_but_not_read_only() -> None:
    layout = layout_for("information_state", Rules())
    wide = np.zeros(2 * layout.size, dtype=np.float32)
    every_other = layout.tracked(3, wide[::2])
    state = list(fixed_game())[120]
    every_other.update(state)
    assert wide[::2].tolist() == from_state("information_state", state, 3)
    assert not wide[1::2].any()
    frozen = np.zeros(layout.size, dtype=np.float32)
    frozen.flags.writeable = False
    with pytest.raises(ParseError, match="writable"):
        layout.tracked(0, frozen)
