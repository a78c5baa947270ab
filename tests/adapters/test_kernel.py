"""The array kernel (issue 38): N games as arrays, equal to N engine games step by step."""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deepsix import IllegalActionError, ParseError, Rules, apply
from deepsix.rules import PlayOver

from .frameworks import require

require("numpy", "openspiel")

import numpy as np  # noqa: E402  (after the framework check)

from deepsix.adapters.config import GameConfig  # noqa: E402
from deepsix.adapters.kernel import Kernel  # noqa: E402

from .kernel_driver import compare, deal_of, drive, fresh  # noqa: E402

CONFIGS: dict[str, tuple[GameConfig, str]] = {
    "hand": (GameConfig.create(), "information_state"),
    "hand, observation": (GameConfig.create(), "observation"),
    "game of hands": (
        GameConfig.create(mode="game", max_hands=4, rules=Rules(target_score=300), dealer=1),
        "information_state",
    ),
    "variants": (
        GameConfig.create(
            mode="game",
            max_hands=2,
            rules=Rules(
                pass_size=1,
                meld_sharing=False,
                play_over=PlayOver.BEAT_LED_SUIT,
                end_at_target=False,
                target_score=150,
            ),
            dealer=3,
        ),
        "observation",
    ),
    "other bids": (
        GameConfig.create(
            rules=Rules(lowest_bid=-100, bid_step=5, forced_bid=50, opening_bid_limit=100)
        ),
        "information_state",
    ),
}


@pytest.mark.parametrize("name", CONFIGS)
def test_kernel_games_are_engine_games(name: str) -> None:
    config, observation = CONFIGS[name]
    coverage = drive(config, 32, 250, seed=len(name), observation=observation, lean=0.35)
    counts = coverage.counts
    assert counts["hands"] >= 60
    assert counts["forced bid"]
    assert counts["negative bid"]
    assert counts["set"]
    if config.mode == "game":
        assert counts["next hand"]


def test_the_rare_paths_happen_in_the_quick_run() -> None:
    """A few hundred whole games, covering the made contract, the lowest bid, truncation."""
    config = GameConfig.create(mode="game", max_hands=2, rules=Rules(target_score=2000))
    coverage = drive(config, 64, 200, seed=5, lean=0.5, until_games=100)
    counts = coverage.counts
    assert counts["truncated"] >= 100
    assert counts["made"]
    assert counts["lowest bid"]
    assert counts["forced bid"]


@pytest.mark.skipif(
    "DEEPSIX_KERNEL_GAMES" not in os.environ,
    reason="the long differential run: nox -s kernel_differential (DEEPSIX_KERNEL_GAMES=10000)",
)
@pytest.mark.parametrize("mode", ["hand", "game"])
def test_many_whole_games(mode: str) -> None:
    games = int(os.environ["DEEPSIX_KERNEL_GAMES"])
    config = GameConfig.create(mode=mode, max_hands=20)
    observation = "information_state" if mode == "hand" else "observation"
    coverage = drive(
        config, 256, 100, seed=11, observation=observation, lean=0.35, until_games=games
    )
    counts = coverage.counts
    print(dict(counts))  # the session's record of what the games covered
    assert counts["terminated"] + counts["truncated"] >= games
    assert counts["forced bid"]
    assert counts["made"]
    assert counts["lowest bid"]
    if mode == "game":
        assert counts["next hand"]
        assert counts["game of several hands"] or games < 1000  # short games end first


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    picks=st.lists(st.integers(0, 2**16), min_size=1, max_size=200),
)
def test_any_action_sequence(seed: int, picks: list[int]) -> None:
    """Hypothesis picks the actions (the k-th legal one of each game, k drawn)."""
    config = GameConfig.create(mode="game", max_hands=3)
    kernel = Kernel(3, config)
    kernel.reset(seed=seed)
    states = [fresh(config, kernel, i) for i in range(3)]
    for pick in picks:
        compare(kernel, states, config)
        masks = kernel.masks()
        actions = np.array(
            [np.flatnonzero(masks[i])[(pick + 7919 * i) % masks[i].sum()] for i in range(3)]
        )
        kernel.step(actions)
        for i in range(3):
            state = states[i]
            assert state.to_act is not None
            state = apply(state, config.codec.decode(int(actions[i]), state.to_act))
            if kernel.dealt[i]:
                if config.is_finished(state):
                    state = fresh(config, kernel, i)
                else:
                    state = apply(state, deal_of(kernel, i))
            states[i] = state
    compare(kernel, states, config)


def snapshot(kernel: Kernel) -> dict[str, Any]:
    return {k: v.copy() for k, v in vars(kernel).items() if isinstance(v, np.ndarray)}


@pytest.mark.parametrize(
    "actions",
    [
        np.zeros(3, dtype=np.int64),  # a batch of the wrong length
        np.zeros((4, 1), dtype=np.int64),  # the wrong shape
        np.zeros(4, dtype=np.float64),  # not integers
        np.zeros(4, dtype=bool),
        [117, 117, 117, "x"],
        np.array([117, 117, 117, 171]),  # out of range
        np.array([117, 117, -1, 117]),
        np.array([116, 116, 116, 0]),  # a card played in the auction
    ],
)
def test_bad_batches_are_refused_and_change_nothing(actions: Any) -> None:
    kernel = Kernel(4, GameConfig.create())
    kernel.reset(seed=2)
    before = snapshot(kernel)
    with pytest.raises(IllegalActionError) as refused:
        kernel.step(actions)
    assert refused.value.rule.startswith("R-")
    for name, value in before.items():
        assert np.array_equal(getattr(kernel, name), value), name


def test_the_refusal_names_the_game_and_the_rule() -> None:
    kernel = Kernel(4, GameConfig.create())
    kernel.reset(seed=2)
    masks = kernel.masks()
    actions = masks.argmax(axis=1)
    actions[2] = 0  # a card played in the auction
    with pytest.raises(IllegalActionError, match=r"R-PHASE-1.*game 2"):
        kernel.step(actions)


def test_misuse_is_refused() -> None:
    with pytest.raises(ParseError):
        Kernel(0, GameConfig.create())
    with pytest.raises(ParseError):
        Kernel(2, "hand")  # type: ignore[arg-type]  # the error under test
    with pytest.raises(ParseError):
        Kernel(2, GameConfig.create(), observation="pixels")
    kernel = Kernel(2, GameConfig.create())
    with pytest.raises(IllegalActionError):
        kernel.step([116, 116])
    with pytest.raises(ParseError):
        kernel.reset(seed="1")  # type: ignore[arg-type]  # the error under test


def test_observations_into_a_buffer_equal_new_ones() -> None:
    kernel = Kernel(6, GameConfig.create(), observation="observation")
    kernel.reset(seed=4)
    buffer = np.full((6, kernel.layout.size), 7.0, dtype=np.float32)
    for _ in range(120):
        assert kernel.observations(buffer) is buffer
        assert np.array_equal(buffer, kernel.observations())
        kernel.step(kernel.masks().argmax(axis=1))
    for bad in (buffer[:, :-1], buffer.astype(np.float64), buffer.T.copy().T, buffer[:5]):
        with pytest.raises(ParseError):
            kernel.observations(bad)


def test_a_changed_mask_does_not_change_the_game() -> None:
    kernel = Kernel(3, GameConfig.create())
    kernel.reset(seed=4)
    masks = kernel.masks()
    masks[:] = True
    with pytest.raises(IllegalActionError):
        kernel.step(np.zeros(3, dtype=np.int64))  # a card played in the auction


def test_seeded_deals_repeat_and_every_deck_is_whole() -> None:
    one, two = Kernel(5, GameConfig.create()), Kernel(5, GameConfig.create())
    one.reset(seed=9)
    two.reset(seed=9)
    assert np.array_equal(one.decks, two.decks)
    assert (np.sort(one.decks, axis=1) == np.repeat(np.arange(28), 2)[None, :]).all()
    assert (one.hands.sum(axis=2) == 14).all()
    assert one.memory_per_game > 0


def test_a_deck_source_deals_and_a_bad_deck_is_refused() -> None:
    deck = np.repeat(np.arange(28), 2)
    kernel = Kernel(
        2, GameConfig.create(), deck_source=lambda games: np.tile(deck, (len(games), 1))
    )
    kernel.reset(seed=0)
    assert np.array_equal(kernel.decks, np.tile(deck, (2, 1)))
    assert (kernel.hands[:, 0, :7] == 2).all()  # North holds both copies of every club
    broken = Kernel(2, GameConfig.create(), deck_source=lambda games: np.zeros((len(games), 56)))
    with pytest.raises(IllegalActionError, match="R-DEAL-1"):
        broken.reset(seed=0)
