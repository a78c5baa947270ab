"""Deep Six as a PettingZoo AEC environment: PettingZoo's own tests are the judge (issue 12)."""

from __future__ import annotations

import pickle
import random
import warnings
from typing import Any

import pytest

from deepsix import (
    IllegalActionError,
    InvalidStateError,
    ParseError,
    Rules,
    Seat,
    legal_actions,
    view,
)

from .examples import example
from .frameworks import require

require("numpy", "pettingzoo")
require("pettingzoo", "pettingzoo")

import numpy as np  # noqa: E402  (after the framework check)
from pettingzoo import test as pz_test  # noqa: E402

from deepsix.adapters import pettingzoo as adapter  # noqa: E402
from deepsix.adapters.observations import ObservationLayout  # noqa: E402

CONFIGURATIONS: dict[str, dict[str, Any]] = {
    "hand": {},
    "game": {"mode": "game"},
    "observation": {"observation": "observation"},
    "variant": {"rules": Rules(pass_size=1, meld_sharing=False, lowest_bid=-100), "dealer": 3},
    "truncated": {"mode": "game", "max_hands": 2, "rules": Rules(target_score=5000)},
}

# PettingZoo's api_test warns about every Dict observation; it keeps a list of the
# classic environments (leduc_holdem_v4, chess_v6, ...) whose Dict observations
# with an action mask it does not warn about.  These two warnings are those.
DICT_OBSERVATION_WARNINGS = (
    "Observation space for each agent probably should be gymnasium.spaces.box",
    "Observation is not a NumPy array",
)


def play(table: Any, rng: random.Random) -> list[tuple[str, dict[str, Any], float]]:
    """One random episode; every (agent, observation, reward) that ``last`` returned."""
    seen = []
    for agent in table.agent_iter():
        observation, reward, termination, truncation, _ = table.last()
        seen.append((agent, observation, reward))
        if termination or truncation:
            table.step(None)
        else:
            table.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
    return seen


# -- PettingZoo's own tests ------------------------------------------------------------------------


@pytest.mark.parametrize("name", CONFIGURATIONS)
def test_api_test(name: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pz_test.api_test(adapter.env(**CONFIGURATIONS[name]), num_cycles=1000)
    unexpected = [
        str(w.message) for w in caught if not str(w.message).startswith(DICT_OBSERVATION_WARNINGS)
    ]
    assert unexpected == []


@pytest.mark.parametrize("name", CONFIGURATIONS)
def test_seed_test(name: str) -> None:
    pz_test.seed_test(lambda **kwargs: adapter.env(**CONFIGURATIONS[name], **kwargs))


def test_render_test(capsys: pytest.CaptureFixture[str]) -> None:
    pz_test.render_test(adapter.env, custom_tests={"ansi": lambda text: "N: " in text})
    printed = capsys.readouterr().out
    assert "phase bidding" in printed


def test_max_cycles_test_does_not_apply() -> None:
    # max_cycles_test needs a parallel environment in which every live agent acts once
    # per cycle; Deep Six is turn-based (one seat acts many times in a row), like
    # PettingZoo's classic card games, which do not run it either.
    assert not hasattr(adapter, "parallel_env")
    assert adapter.raw_env.metadata["is_parallelizable"] is False


# -- the environment's contract --------------------------------------------------------------------


def test_agents_spaces_and_first_observation() -> None:
    table = adapter.env()
    table.reset(seed=1)
    assert table.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    assert table.agent_selection == "player_1"  # North deals, East bids first
    layout = ObservationLayout.build(Rules())
    for agent in table.agents:
        space = table.observation_space(agent)
        assert space["observation"].shape == (layout.size,)
        assert space["action_mask"].shape == (171,)
        assert table.action_space(agent).n == 171
    observation = table.observe("player_1")
    assert observation["action_mask"].dtype == np.int8
    assert observation["observation"].dtype == np.float32
    assert int(observation["action_mask"].sum()) == 55
    assert int(table.observe("player_0")["action_mask"].sum()) == 0


def test_observations_and_masks_are_the_views_and_the_legal_actions() -> None:
    table = adapter.env(mode="game", max_hands=3, rules=Rules(target_score=5000))
    raw = table.unwrapped
    table.reset(seed=5)
    rng = random.Random(5)
    layout = raw.layout
    steps = 0
    for agent in table.agent_iter():
        observation, _, termination, truncation, _ = table.last()
        if termination or truncation:
            table.step(None)
            continue
        state = raw.engine_state
        seat = Seat(int(agent[-1]))
        assert state.to_act == seat
        assert observation["observation"].tolist() == layout.dense(view(state, seat), seat)
        legal = sorted(raw.codec.encode(action) for action in legal_actions(state))
        assert np.flatnonzero(observation["action_mask"]).tolist() == legal
        for other in table.agents:
            if other != agent:
                assert not table.observe(other)["action_mask"].any()
        table.step(rng.choice(legal))
        steps += 1
    assert len(raw.engine_state.completed_hands) == 3
    assert steps > 200


def test_the_same_encoding_as_openspiel() -> None:
    require("pyspiel", "openspiel")
    import pyspiel

    from deepsix.adapters import openspiel

    game = pyspiel.load_game(openspiel.SHORT_NAME)
    table = adapter.env()
    raw = table.unwrapped
    table.reset(seed=9)
    state = game.new_initial_state()
    for card in raw.engine_state.history[0].cards:
        state.apply_action(int(card))
    rng = random.Random(9)
    for agent in table.agent_iter():
        observation, _, termination, truncation, _ = table.last()
        if termination or truncation:
            table.step(None)
            continue
        player = int(agent[-1])
        assert state.current_player() == player
        assert observation["observation"].tolist() == state.information_state_tensor(player)
        assert np.flatnonzero(observation["action_mask"]).tolist() == state.legal_actions()
        action = rng.choice(state.legal_actions())
        table.step(action)
        state.apply_action(action)
    assert state.is_terminal()


def test_rewards_are_the_hands_margins() -> None:
    rng = random.Random(2)
    for name in ("hand", "game", "truncated"):
        table = adapter.env(**CONFIGURATIONS[name])
        for episode in range(3):
            table.reset(seed=episode)
            final: dict[str, float] = {}
            for agent, _, reward in play(table, rng):
                final[agent] = reward
            state = table.unwrapped.engine_state
            if name == "hand":
                ns, ew = state.completed_hands[0].scores
            else:
                ns, ew = state.scores
            # ``last`` gives the reward accumulated since the agent last acted: the last hand's.
            assert set(final) == set(adapter.AGENTS)
            assert sum(final.values()) == pytest.approx(0.0)
            if name == "hand":
                assert final == {
                    "player_0": ew - ns,
                    "player_1": ns - ew,
                    "player_2": ew - ns,
                    "player_3": ns - ew,
                }


@pytest.mark.parametrize(
    "kwargs",
    [
        {"mode": "game", "rules": Rules(target_score=400)},
        {"mode": "game", "max_hands": 3, "rules": Rules(target_score=5000)},
    ],
    ids=["to-the-end", "truncated"],
)
def test_episode_rewards_add_up_to_the_final_margin(kwargs: dict[str, Any]) -> None:
    table = adapter.env(**kwargs)
    raw = table.unwrapped
    rng = random.Random(8)
    for episode in range(4):
        table.reset(seed=100 + episode)
        total = dict.fromkeys(adapter.AGENTS, 0.0)
        for _agent in table.agent_iter():
            _, _, termination, truncation, _ = table.last()
            table.step(
                None
                if termination or truncation
                else rng.choice(raw.codec.legal_ids(raw.engine_state))
            )
            for name, reward in raw.rewards.items():
                total[name] += reward
        ns, ew = raw.engine_state.scores
        assert raw.engine_state.is_over or len(raw.engine_state.completed_hands) == 3
        assert total == {
            "player_0": ew - ns,
            "player_1": ns - ew,
            "player_2": ew - ns,
            "player_3": ns - ew,
        }


def test_game_mode_truncates_at_max_hands() -> None:
    table = adapter.env(**CONFIGURATIONS["truncated"])
    table.reset(seed=3)
    raw = table.unwrapped
    truncated = terminated = False
    for agent in table.agent_iter():
        _, _, termination, truncation, _ = table.last()
        truncated |= truncation
        terminated |= termination
        legal = raw.codec.legal_ids(raw.engine_state)
        table.step(None if termination or truncation else random.Random(agent).choice(legal))
    assert truncated
    assert not terminated
    assert len(raw.engine_state.completed_hands) == 2


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    table = adapter.env()
    table.reset(seed=4)
    raw = table.unwrapped
    before = raw.engine_state
    with pytest.raises(IllegalActionError):
        table.step(0)  # a card play during the auction
    assert raw.engine_state is before
    with pytest.raises(ParseError):
        raw.step(None)
    assert table.agent_selection == "player_1"


@pytest.mark.parametrize(
    "kwargs",
    [
        {"mode": "match"},
        {"observation": "everything"},
        {"render_mode": "rgb_array"},
        {"rules": "standard"},
        {"max_hands": 0},
        {"dealer": 4},
    ],
)
def test_bad_arguments_raise_typed_errors(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ParseError):
        adapter.raw_env(**kwargs)


def test_seeding_reproduces_and_varies() -> None:
    def deal(seed: int | None, table: Any) -> object:
        table.reset(seed=seed)
        return table.unwrapped.engine_state.history[0]

    table = adapter.env()
    assert deal(11, table) == deal(11, adapter.env())
    assert deal(11, table) != deal(12, table)
    first = deal(11, table)
    assert deal(None, table) != first  # continues the seeded sequence


def test_the_environment_pickles() -> None:
    table = adapter.raw_env(mode="game", rules=Rules(pass_size=2))
    copy = pickle.loads(pickle.dumps(table))
    assert copy.mode == "game"
    assert copy.rules == Rules(pass_size=2)


def test_ansi_render_shows_the_table() -> None:
    table = adapter.env(render_mode="ansi")
    table.reset(seed=6)
    text = table.render()
    assert text is not None
    state = table.unwrapped.engine_state
    for seat in Seat:
        assert f"{seat}: " + " ".join(card.ascii for card in state.hand(seat)) in text


# -- the documentation's training loop -------------------------------------------------------------


def test_the_training_example_runs() -> None:
    margins = example("pettingzoo_training").train(hands=4, seed=1)
    assert len(margins) == 4
    assert all(isinstance(margin, float) for margin in margins)


# -- built-in checks, the end of an episode (issue 27) ---------------------------------------------


def test_the_wrappers_checks_are_built_in() -> None:
    table = adapter.env()
    with pytest.raises(InvalidStateError, match="reset"):
        table.step(0)
    with pytest.raises(InvalidStateError, match="reset"):
        table.observe("player_0")
    table.reset(seed=1)
    for bad in (171, -1, 2.5, "3"):
        with pytest.raises(IllegalActionError):
            table.step(bad)  # type: ignore[arg-type]  # the point is the bad action
    play(table, random.Random(1))
    with pytest.raises(InvalidStateError, match="over"):
        table.step(None)


def test_the_last_observations_describe_the_finished_hand() -> None:
    layout = ObservationLayout.build(Rules())
    finals = set()
    for seed in range(4):
        table = adapter.env()
        table.reset(seed=seed)
        seen = play(table, random.Random(seed))
        engine = table.unwrapped.engine_state
        record = engine.completed_hands[0]
        ended = [(agent, observation) for agent, observation, _ in seen[-4:]]
        assert sorted(agent for agent, _ in ended) == sorted(adapter.AGENTS)
        for agent, observation in ended:
            vector = observation["observation"]

            def piece(name: str, vector: Any = vector) -> Any:
                p = layout.piece(name)
                return vector[p.offset : p.offset + p.size]

            assert piece("tricks").sum() == 56
            assert piece("to_act").sum() == 0
            assert piece("hand_number").tolist() == [1.0]
            team = adapter.AGENTS.index(agent) & 1
            assert piece("scores").tolist() == [record.totals[team], record.totals[1 - team]]
            assert observation["action_mask"].sum() == 0
            finals.add(vector.tobytes())
    assert len(finals) == 16
