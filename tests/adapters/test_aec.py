"""The PettingZoo environment's compiled core: its masks, the engine's own actions, overrides."""

from __future__ import annotations

import random
import weakref
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deepsix import Bid, IllegalActionError, Pass, Rules, Seat, legal_actions, new_game, view
from deepsix.engine import apply, shuffled_deal
from deepsix.state import GameState

from .frameworks import require

require("numpy", "pettingzoo")
require("pettingzoo", "pettingzoo")

import numpy as np  # noqa: E402  (after the framework check)

from deepsix.adapters import pettingzoo as adapter  # noqa: E402
from deepsix.adapters._masks import set_legal  # noqa: E402
from deepsix.adapters.actions import ActionCodec  # noqa: E402


def random_states(seed: int, rules: Rules) -> list[GameState]:
    """Every state of one random hand where a seat is to act."""
    rng = random.Random(seed)
    state = apply(new_game(rules), shuffled_deal(rng))
    found = []
    while state.to_act is not None and not state.completed_hands:
        found.append(state)
        state = apply(state, rng.choice(legal_actions(state)))
    return found


def mask_of(codec: ActionCodec, actions: Any) -> Any:
    """The core's mask for ``actions`` (set through a memoryview, as the core sets it), or
    None if :func:`set_legal` does not know one."""
    mask = np.zeros(codec.num_actions, dtype=np.int8)
    return mask if set_legal(codec.identity_table, actions, mask.data) else None


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), variant=st.booleans())
def test_the_mask_is_the_legal_ids(seed: int, variant: bool) -> None:
    rules = Rules(pass_size=1, lowest_bid=-100) if variant else Rules()
    codec = ActionCodec.for_rules(rules)
    for state in random_states(seed, rules):
        mask = mask_of(codec, legal_actions(state))
        # against the codec's slow, independent encoding of each action
        expected = sorted(codec.encode(action) for action in legal_actions(state))
        assert np.flatnonzero(mask).tolist() == expected
        assert mask.tobytes() == codec.legal_flags(state)
    assert not mask_of(codec, ()).any()


def test_an_action_the_tables_do_not_know_has_no_mask() -> None:
    codec = ActionCodec.for_rules(Rules())
    bid_90 = codec.decode(codec.encode(Bid(Seat.EAST, 90)), Seat.EAST)  # the shared bid
    found = mask_of(codec, (bid_90,))
    assert np.flatnonzero(found).tolist() == [codec.encode(Bid(Seat.EAST, 90))]
    assert mask_of(codec, (Bid(Seat.EAST, 90),)) is None  # a new object
    assert mask_of(codec, (Pass(Seat.EAST),)) is None  # a new object


@pytest.mark.parametrize("rules", [Rules(), Rules(pass_size=1, lowest_bid=-100)])
def test_the_codecs_actions_are_the_engines_own_objects(rules: Rules) -> None:
    """Every legal action of every state of a hand, bids included, is the very object the
    codec decodes its id to: the core hands the engine its own objects, found by identity."""
    codec = ActionCodec.for_rules(rules)
    for state in random_states(5, rules):
        seat = state.to_act
        assert seat is not None
        for action in legal_actions(state):
            assert codec.decode(codec.encode(action), seat) is action


def test_an_illegal_bid_raises_and_changes_nothing() -> None:
    table = adapter.env()
    table.reset(seed=2)
    raw = table.unwrapped
    bid_90 = raw.codec.encode(Bid(Seat.EAST, 90))
    table.step(bid_90)
    before = raw.engine_state
    with pytest.raises(IllegalActionError):
        table.step(bid_90)  # not below the standing bid
    assert raw.engine_state is before


def test_last_uses_a_subclass_observe() -> None:
    class Marked(adapter.raw_env):
        def observe(self, agent: str) -> dict[str, Any]:
            found: dict[str, Any] = super().observe(agent)
            found["marked"] = True
            return found

    table = Marked()
    table.reset(seed=1)
    observation = table.last()[0]
    assert observation["marked"] is True
    assert table.last(observe=False)[0] is None
    plain = adapter.env()
    plain.reset(seed=1)
    assert np.array_equal(plain.last()[0]["observation"], observation["observation"])


@pytest.mark.parametrize("observation", ["information_state", "observation"])
def test_vectors_after_resets_are_the_reference_encoding(observation: str) -> None:
    # A reset (and a new hand) zeroes the agents' vectors at once: every observation after
    # it, of the acting agent and of its partner, is still the one-pass encoding of its
    # view -- after whole episodes and after resets in the middle of one (from the auction,
    # the passes or the card play), where the new hand's first facts are partly the same
    # as the last ones written (the hand number, the scores).
    table = adapter.env(observation=observation)
    raw = table.unwrapped
    layout = raw.layout
    rng = random.Random(11)
    for episode, cutoff in enumerate((1000, 5, 1000, 20, 60, 1000, 3)):
        table.reset(seed=episode)
        for steps, agent in enumerate(table.agent_iter()):
            if steps == cutoff:
                break
            found, _, termination, truncation, _ = table.last()
            if termination or truncation:
                table.step(None)
                continue
            state = raw.engine_state
            partner = adapter.AGENTS[(adapter.AGENTS.index(agent) + 2) % 4]
            seen = {agent: found, partner: table.observe(partner)}
            for other, observed in seen.items():
                seat = Seat(int(other[-1]))
                assert observed["observation"].tolist() == layout.dense(view(state, seat), seat)
            table.step(rng.choice(np.flatnonzero(found["action_mask"]).tolist()))


def test_an_observation_a_user_holds_never_changes() -> None:
    # Held as the dict, as the arrays, as views, as memoryviews or through a weak reference
    # that is still alive: what the user can read stays what it was, to the end of the
    # episode (the environment recycles only what no one else holds).
    table = adapter.env()
    table.reset(seed=5)
    rng = random.Random(5)
    held: list[tuple[Any, Any, bytes, bytes]] = []  # (holder, reader, vector, mask bytes)
    weak: list[tuple[Any, bytes]] = []
    for step, _agent in enumerate(table.agent_iter()):
        found, _, termination, truncation, _ = table.last()
        vector, mask = found["observation"], found["action_mask"]
        kind = step % 5
        if kind == 0:
            held.append((found, lambda h: (h["observation"], h["action_mask"]), b"", b""))
        elif kind == 1:
            held.append(((vector, mask), lambda h: h, b"", b""))
        elif kind == 2:
            held.append(((vector[3:], mask[1:]), lambda h: h, b"", b""))
        elif kind == 3:
            held.append(((memoryview(vector), memoryview(mask)), lambda h: h, b"", b""))
        else:
            weak.append((weakref.ref(vector), vector.tobytes()))
        if kind != 4:
            holder, reader, _, _ = held[-1]
            vector_then, mask_then = reader(holder)
            vector_bytes = np.asarray(vector_then).tobytes()
            held[-1] = (holder, reader, vector_bytes, np.asarray(mask_then).tobytes())
        action = None
        if not (termination or truncation):
            action = rng.choice(np.flatnonzero(mask).tolist())
        del found, vector, mask
        table.step(action)
    assert len(held) > 60
    for holder, reader, vector_bytes, mask_bytes in held:
        vector, mask = reader(holder)
        assert np.asarray(vector).tobytes() == vector_bytes
        assert np.asarray(mask).tobytes() == mask_bytes
    for ref, vector_bytes in weak:
        alive = ref()
        assert alive is None or alive.tobytes() == vector_bytes


def test_a_dropped_observation_is_recycled() -> None:
    # In both builds: once the user no longer holds an agent's last observation, its arrays
    # are overwritten with the agent's next one (the same objects), and it still equals the
    # encoding of the agent's view.
    table = adapter.env()
    raw = table.unwrapped
    table.reset(seed=9)
    rng = random.Random(9)
    last_ids: dict[str, tuple[int, int]] = {}
    recycled = 0
    for agent in table.agent_iter():
        found, _, termination, truncation, _ = table.last()
        ids = (id(found["observation"]), id(found["action_mask"]))
        recycled += ids == last_ids.get(agent)
        last_ids[agent] = ids
        if termination or truncation:
            table.step(None)
            continue
        seat = Seat(int(agent[-1]))
        state = raw.engine_state
        assert found["observation"].tolist() == raw.layout.dense(view(state, seat), seat)
        expected = sorted(raw.codec.encode(action) for action in legal_actions(state))
        assert np.flatnonzero(found["action_mask"]).tolist() == expected
        action = rng.choice(expected)
        del found
        table.step(action)
    assert recycled > 50
