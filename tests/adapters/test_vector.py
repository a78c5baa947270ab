"""The batched environment (issue 27): each game is the PettingZoo environment, in a batch."""

from __future__ import annotations

from typing import Any

import pytest

from deepsix import IllegalActionError, InvalidStateError, ParseError, Rules

from .frameworks import require

require("numpy", "pettingzoo")
require("gymnasium", "pettingzoo")
require("pettingzoo", "pettingzoo")

import numpy as np  # noqa: E402  (after the framework check)
from gymnasium.vector import AutoresetMode  # noqa: E402

from deepsix.adapters import pettingzoo  # noqa: E402
from deepsix.adapters.vector import DeepSixVectorEnv  # noqa: E402

OPTIONS: dict[str, dict[str, Any]] = {
    "hand": {},
    "game": {"mode": "game", "max_hands": 2, "rules": Rules(target_score=5000)},
    "observation": {"observation": "observation", "rules": Rules(pass_size=1)},
}


def random_actions(info: dict[str, Any], rng: np.random.Generator) -> Any:
    mask = info["action_mask"]
    return np.argmax(np.where(mask, rng.random(mask.shape), -1.0), axis=1)


@pytest.mark.parametrize("name", OPTIONS)
def test_each_game_is_the_pettingzoo_environment(name: str) -> None:
    options = OPTIONS[name]
    games = DeepSixVectorEnv(3, **options)
    observations, info = games.reset(seed=40)
    tables = []
    for i in range(3):
        table = pettingzoo.env(**options)
        table.reset(seed=40 + i)
        tables.append(table)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(400):
        for i, table in enumerate(tables):
            observation = table.observe(table.agent_selection)
            assert pettingzoo.AGENTS[info["to_act"][i]] == table.agent_selection
            assert np.array_equal(observations[i], observation["observation"])
            assert np.array_equal(info["action_mask"][i], observation["action_mask"].astype(bool))
        actions = random_actions(info, rng)
        observations, rewards, terminations, truncations, info = games.step(actions)
        for i, table in enumerate(tables):
            table.step(int(actions[i]))
            expected = [table.rewards[agent] for agent in pettingzoo.AGENTS]
            assert rewards[i].tolist() == expected
            done = all(table.terminations.values()) or all(table.truncations.values())
            assert bool(terminations[i] or truncations[i]) == done
            assert bool(truncations[i]) == all(table.truncations.values())
            if done:
                ended += 1
                for _ in pettingzoo.AGENTS:  # PettingZoo's dead steps, then a new episode
                    table.step(None)
                table.reset()
    assert ended >= 2


def test_spaces_and_conventions() -> None:
    games = DeepSixVectorEnv(5)
    assert games.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    observations, info = games.reset(seed=1)
    assert observations.shape == (5, games.layout.size)
    assert observations.dtype == np.float32
    assert games.observation_space.contains(observations)
    assert all(games.single_observation_space.contains(row) for row in observations)
    assert info["action_mask"].dtype == bool
    assert info["action_mask"].shape == (5, games.single_action_space.n)
    actions = random_actions(info, np.random.default_rng(1))
    assert games.action_space.contains(actions.astype(np.int64))
    _, rewards, terminations, truncations, _ = games.step(actions)
    assert rewards.shape == (5, 4)
    assert terminations.shape == truncations.shape == (5,)


def test_rewards_are_zero_sum_and_episodes_restart() -> None:
    games = DeepSixVectorEnv(4)
    _, info = games.reset(seed=9)
    rng = np.random.default_rng(2)
    finished = 0
    for _ in range(300):
        observations, rewards, terminations, _, info = games.step(random_actions(info, rng))
        assert np.all(rewards.sum(axis=1) == 0)
        assert np.all(rewards[:, 0] == rewards[:, 2])
        for i in np.flatnonzero(terminations):
            finished += 1
            assert games.kernel.hands_done[i] == 0  # already the next game's first decision
            assert games.kernel.dealt[i]
            assert observations[i].any()
        assert not np.any(rewards[~terminations])  # rewards only where a hand ended
    assert finished >= 3


def test_seeding_reproduces() -> None:
    def run(seed: int) -> list[Any]:
        games = DeepSixVectorEnv(2)
        observations, info = games.reset(seed=seed)
        rng = np.random.default_rng(5)
        seen = [observations]
        for _ in range(50):
            observations, *_, info = games.step(random_actions(info, rng))
            seen.append(observations)
        return seen

    first, again, other = run(3), run(3), run(4)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert not all(np.array_equal(a, b) for a, b in zip(first, other, strict=True))


def test_bad_input_raises_typed_errors_and_changes_nothing() -> None:
    with pytest.raises(ParseError):
        DeepSixVectorEnv(0)
    with pytest.raises(ParseError):
        DeepSixVectorEnv(2, mode="tournament")
    games = DeepSixVectorEnv(2)
    with pytest.raises(InvalidStateError):
        games.step([0, 0])
    _, info = games.reset(seed=1)

    def arrays() -> dict[str, Any]:
        return {k: v.copy() for k, v in vars(games.kernel).items() if isinstance(v, np.ndarray)}

    def same(one: dict[str, Any], other: dict[str, Any]) -> bool:
        return all(np.array_equal(one[k], other[k]) for k in one)

    before = arrays()
    illegal = [int(np.flatnonzero(~row)[0]) for row in info["action_mask"]]
    legal = [int(np.flatnonzero(row)[0]) for row in info["action_mask"]]
    bad_actions: list[Any] = [[legal[0], illegal[1]], [legal[0]], [0.5, 1.5], [legal[0], 171]]
    for bad in bad_actions:
        with pytest.raises(IllegalActionError):
            games.step(bad)
        assert same(arrays(), before)
    games.step(legal)
    assert not same(arrays(), before)


def test_observations_are_each_seats_one_pass_encoding_across_resets() -> None:
    # Many games interleaved, across automatic resets and hands: each row must be the
    # one-pass encoding of its game (kept beside it in the engine, dealt the same decks).
    from deepsix import apply, new_game
    from deepsix.actions import Deal
    from deepsix.cards import CARDS

    games = DeepSixVectorEnv(16, mode="game", max_hands=2, rules=Rules(target_score=5000))
    observations, info = games.reset(seed=21)
    rng = np.random.default_rng(8)
    layout, config, kernel = games.layout, games.config, games.kernel

    def dealt(i: int, state: Any) -> Any:
        return apply(state, Deal([CARDS[int(c)] for c in kernel.decks[i]]))

    states = [dealt(i, new_game(config.rules, config.dealer)) for i in range(16)]
    restarted = 0
    for _ in range(260):
        for i, state in enumerate(states):
            seat = int(info["to_act"][i])
            assert observations[i].tolist() == layout.to_list(layout.state_entries(state, seat))
        actions = random_actions(info, rng)
        observations, _, terminations, truncations, info = games.step(actions)
        restarted += int(np.count_nonzero(terminations | truncations))
        for i in range(16):
            state = apply(states[i], config.codec.decode(int(actions[i]), states[i].to_act))
            if kernel.dealt[i]:
                fresh = config.is_finished(state)
                state = dealt(i, new_game(config.rules, config.dealer) if fresh else state)
            states[i] = state
    assert restarted >= 4
