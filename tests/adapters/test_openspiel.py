"""Deep Six inside OpenSpiel: the framework's own conformance test is the judge (issue 12)."""

from __future__ import annotations

import itertools
import pickle
import random
from collections import Counter
from typing import Any

import attrs
import pytest

from deepsix import (
    CARDS,
    DECK,
    Card,
    Deal,
    DeepSixError,
    GameState,
    IllegalActionError,
    InvalidStateError,
    ParseError,
    Phase,
    PlayOver,
    Rules,
    Seat,
    format_action,
    legal_actions,
    view,
)
from tests.core.test_views import hidden_swaps

from .examples import example
from .frameworks import require

require("pyspiel", "openspiel")
require("numpy", "openspiel")

import numpy as np  # noqa: E402  (after the framework check)
import pyspiel  # noqa: E402

from deepsix.adapters import openspiel as adapter  # noqa: E402
from deepsix.adapters._position import Position  # noqa: E402
from deepsix.adapters.observations import ObservationLayout  # noqa: E402
from deepsix.adapters.text import view_text  # noqa: E402

SIMULATIONS = 200


def load(**params: Any) -> Any:
    return pyspiel.load_game(adapter.SHORT_NAME, params)


def random_playout(
    game: Any,
    rng: random.Random,
    *,
    until: int | None = None,
    chance: random.Random | None = None,
    choices: int | None = None,
) -> list[Any]:
    """The states of one random game (chance sampled by its probabilities, from ``chance``
    if given: the same generator state deals the same cards; players choose among their
    first ``choices`` legal actions if given, else among all)."""
    state = game.new_initial_state()
    states = [state.clone()]
    while not state.is_terminal() and (until is None or len(states) < until):
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action((chance or rng).choices(outcomes, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()[:choices]))
        states.append(state.clone())
    return states


# -- the framework's judge -------------------------------------------------------------------------


@pytest.mark.parametrize("serialize", [False, True], ids=["plain", "serialized"])
def test_random_sim_test_one_hand(serialize: bool) -> None:
    pyspiel.random_sim_test(load(), num_sims=SIMULATIONS, serialize=serialize, verbose=False)


@pytest.mark.parametrize(
    "params",
    [
        {"mode": "game"},
        {"mode": "game", "utility": "win", "target_score": 300, "dealer": 2},
        {"play_over": "beat-led-suit", "meld_sharing": False, "pass_size": 1},
        {"bid_step": 20, "lowest_bid": -400, "opening_bid_limit": 100, "forced_bid": 80},
        {"mode": "game", "max_hands": 2, "target_score": 5000, "end_at_target": False},
    ],
    ids=["game", "game-win", "variant-switches", "variant-bids", "game-truncated"],
)
def test_random_sim_test_variants(params: dict[str, Any]) -> None:
    pyspiel.random_sim_test(load(**params), num_sims=20, serialize=True, verbose=False)


# -- the game's description ------------------------------------------------------------------------


def test_the_game_is_registered_and_typed_honestly() -> None:
    assert adapter.SHORT_NAME in [t.short_name for t in pyspiel.registered_games()]
    game = load()
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert game.num_players() == 4
    assert game.num_distinct_actions() == 171
    assert game.max_chance_outcomes() == 28
    assert game.max_utility() == 610 == -game.min_utility()
    assert game.utility_sum() == 0
    assert game.information_state_tensor_size() == ObservationLayout.build(Rules()).size
    assert game.observation_tensor_size() == (
        ObservationLayout.build(Rules(), perfect_recall=False).size
    )


def test_every_simple_rules_switch_is_a_parameter() -> None:
    for field in attrs.fields(Rules):
        assert field.name in adapter.DEFAULT_PARAMETERS
    params: dict[str, Any] = {
        "target_score": 300,
        "end_at_target": False,
        "bid_step": 20,
        "opening_bid_limit": 100,
        "forced_bid": 80,
        "lowest_bid": -400,
        "failed_bid_score": 250,
        "pass_size": 2,
        "meld_sharing": False,
        "play_over": "beat-led-suit",
    }
    game = load(**params)
    assert game.config.rules == Rules(**{**params, "play_over": PlayOver.BEAT_LED_SUIT})
    assert game.new_initial_state().engine_state.rules == game.config.rules
    assert game.num_distinct_actions() == 117 + len(game.config.rules.bid_amounts)
    assert load().config.rules == Rules()


@pytest.mark.parametrize(
    ("params", "error"),
    [
        ({"mode": "tournament"}, ParseError),
        ({"utility": "points"}, ParseError),
        ({"play_over": "sometimes"}, ParseError),
        ({"max_hands": 0}, ParseError),
        ({"dealer": 4}, ParseError),
        ({"lowest_bid": 125}, InvalidStateError),
        ({"pass_size": 9}, InvalidStateError),
        ({"forced_bid": 130}, InvalidStateError),
    ],
)
def test_bad_parameters_raise_typed_errors(params: dict[str, Any], error: type) -> None:
    with pytest.raises(error):
        load(**params)
    with pytest.raises(DeepSixError):
        adapter.DeepSixGame(params)
    with pytest.raises(ParseError):
        adapter.DeepSixGame({"no_such_parameter": 1})


# -- chance ----------------------------------------------------------------------------------------


def test_the_deal_is_one_card_at_a_time_with_exact_probabilities() -> None:
    game = load()
    state = game.new_initial_state()
    rng = random.Random(4)
    dealt: list[Card] = []
    while state.is_chance_node():
        outcomes = dict(state.chance_outcomes())
        left = Counter(DECK) - Counter(dealt)
        assert outcomes == {int(card): n / sum(left.values()) for card, n in left.items() if n}
        assert sorted(state.legal_actions()) == sorted(outcomes)
        card = rng.choice(list(outcomes))
        assert state.action_to_string(pyspiel.PlayerId.CHANCE, card) == f"Deal {CARDS[card].ascii}"
        for player in range(4):  # nobody sees a card before the deal is complete
            assert "cards -" in state.observation_string(player)
        state.apply_action(card)
        dealt.append(CARDS[card])
    assert len(dealt) == 56
    engine = state.engine_state
    assert engine.history == (Deal(dealt),)
    for seat in Seat:
        assert engine.hand(seat) == tuple(sorted(dealt[14 * seat : 14 * seat + 14]))
    with pytest.raises(IllegalActionError):
        game.new_initial_state().apply_action(28)


def test_chance_outcomes_exist_only_at_chance_nodes() -> None:
    states = random_playout(load(), random.Random(5))
    for state in (states[56], states[-1]):
        assert not state.is_chance_node()
        with pytest.raises(IllegalActionError):
            state.chance_outcomes()


def test_a_card_cannot_be_dealt_three_times() -> None:
    state = load().new_initial_state()
    state.apply_action(5)
    state.apply_action(5)
    assert 5 not in dict(state.chance_outcomes())
    with pytest.raises(IllegalActionError):
        state.apply_action(5)


# -- actions ---------------------------------------------------------------------------------------


def test_legal_actions_are_the_engines_sorted_and_named_in_its_notation() -> None:
    game = load()
    codec = game.config.codec
    for state in random_playout(game, random.Random(8)):
        if state.is_chance_node() or state.is_terminal():
            continue
        engine = state.engine_state
        player = state.current_player()
        assert player == engine.to_act
        ids = state.legal_actions()
        assert ids == sorted(ids)
        assert [codec.decode(i, player) for i in ids] == sorted(
            legal_actions(engine), key=codec.encode
        )
        for other in range(4):
            if other != player:
                assert state.legal_actions(other) == []
        names = [state.action_to_string(player, i) for i in ids]
        assert names == [format_action(codec.decode(i, player)) for i in ids]


def test_an_illegal_action_raises_the_engines_error_and_changes_nothing() -> None:
    game = load()
    state = random_playout(game, random.Random(2), until=60)[-1]
    before = str(state), state.history()
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(IllegalActionError):
        state.apply_action(illegal)
    with pytest.raises(IllegalActionError):
        state.apply_action(game.num_distinct_actions())
    assert (str(state), state.history()) == before


# -- returns ---------------------------------------------------------------------------------------


def test_returns_are_the_hands_margin_zero_sum_with_partners_equal() -> None:
    game = load()
    rng = random.Random(12)
    for _ in range(30):
        final = random_playout(game, rng)[-1]
        record = final.engine_state.completed_hands[0]
        ns, ew = record.scores
        assert final.returns() == [ew - ns, ns - ew, ew - ns, ns - ew]
        assert sum(final.returns()) == 0
        assert final.rewards() == [0.0] * 4 or final.rewards() == final.returns()


def test_returns_are_zero_before_the_end() -> None:
    for state in random_playout(load(), random.Random(3))[:-1]:
        assert state.returns() == [0.0] * 4
        assert not state.is_terminal()


def test_win_utility_in_game_mode() -> None:
    game = load(mode="game", utility="win", target_score=200)
    rng = random.Random(6)
    for _ in range(5):
        final = random_playout(game, rng)[-1]
        engine = final.engine_state
        assert engine.is_over
        winner = engine.winner
        assert winner is not None
        assert final.returns() == [1.0 if Seat(p).team == winner else -1.0 for p in range(4)]


def test_game_mode_stops_at_max_hands() -> None:
    game = load(mode="game", max_hands=2, target_score=10_000)
    final = random_playout(game, random.Random(1))[-1]
    engine = final.engine_state
    assert len(engine.completed_hands) == 2
    assert not engine.is_over
    ns, ew = engine.scores
    assert final.returns() == [ew - ns, ns - ew, ew - ns, ns - ew]
    assert game.max_game_length() == 2 * load().max_game_length()


# -- observations: built from the view, nothing hidden leaks ---------------------------------------


def observables(state: Any, player: int) -> tuple[object, ...]:
    return (
        state.information_state_string(player),
        state.observation_string(player),
        tuple(state.information_state_tensor(player)),
        tuple(state.observation_tensor(player)),
    )


def with_engine_state(state: Any, engine: GameState) -> Any:
    """A copy of ``state`` whose engine state is ``engine`` (the rest unchanged)."""
    twin = state.clone()
    core = state._core
    twin._core = Position(core.config, engine, core.dealt, core.past, core.terminal)
    return twin


def test_observations_are_the_views() -> None:
    game = load()
    layout = ObservationLayout.build(Rules())
    for state in random_playout(game, random.Random(5))[::7]:
        engine = state.engine_state
        for player in range(4):
            mine = view(engine, player)
            assert state.information_state_tensor(player) == pytest.approx(
                layout.dense(mine, player)
            )
            assert state.observation_string(player) == view_text(mine)


def test_no_hidden_card_leaks_into_any_observation() -> None:
    game = load()
    rng = random.Random(21)
    checked = 0
    for state in random_playout(game, rng)[56::5]:
        engine = state.engine_state
        for player in range(4):
            mine = observables(state, player)
            for engine_twin in hidden_swaps(engine, Seat(player), rng)[:3]:
                twin = with_engine_state(state, attrs.evolve(engine_twin, log=engine.log))
                assert str(twin) != str(state)
                assert observables(twin, player) == mine
                changed = [s for s in Seat if engine_twin.hand(s) != engine.hand(s)]
                assert all(observables(twin, s) != observables(state, s) for s in changed)
                checked += 1
    assert checked > 50


def test_nobody_sees_the_deal_in_progress() -> None:
    game = load()
    first = game.new_initial_state()
    second = game.new_initial_state()
    for card in range(20):
        first.apply_action(card)
        second.apply_action(27 - card)
    assert str(first) != str(second)
    for player in range(4):
        assert observables(first, player) == observables(second, player)


def test_resampled_states_share_the_players_information_state() -> None:
    rng = random.Random(30)
    for params in ({}, {"mode": "game", "target_score": 5000, "max_hands": 3}):
        game = load(**params)
        differed = 0
        states = random_playout(game, rng)
        if params:  # three hands: the samples redraw the finished hands too
            assert len(states[-1].engine_state.completed_hands) == 3
        for state in states[::9]:
            if state.is_chance_node() or state.is_terminal():
                continue
            for player in range(4):
                sample = state.resample_from_infostate(player, rng)
                assert sample.current_player() == state.current_player()
                assert observables(sample, player) == observables(state, player)
                differed += str(sample) != str(state)
        assert differed > 10


def test_resampling_takes_openspiels_sampler() -> None:
    state = random_playout(load(), random.Random(1), until=70)[-1]
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    sample = state.resample_from_infostate(state.current_player(), sampler)
    assert sample.information_state_string() == state.information_state_string()


def test_information_state_strings_have_perfect_recall() -> None:
    # Perfect recall: two histories in the same information state of a player went through
    # the same earlier information states of that player, with the same actions taken there.
    # The same cards are dealt in every game and the players choose between two actions,
    # so their information states recur.
    game = load(mode="game", target_score=5000, max_hands=2)
    rng = random.Random(17)
    seen: dict[tuple[int, str], tuple[tuple[str, int], ...]] = {}
    visits = 0
    for _ in range(30):
        own: list[list[tuple[str, int]]] = [[], [], [], []]
        states = random_playout(game, rng, chance=random.Random(0), choices=2)
        for state, after in itertools.pairwise(states):
            if state.is_chance_node():
                continue
            player = state.current_player()
            infostate = state.information_state_string(player)
            past = tuple(own[player])
            assert seen.setdefault((player, infostate), past) == past
            own[player].append((infostate, after.history()[-1]))
            visits += 1
    assert visits - len(seen) > 100  # information states did recur


def test_observers_of_each_kind() -> None:
    game = load()
    state = random_playout(game, random.Random(9), until=120)[-1]
    player = state.current_player()
    public = pyspiel.IIGObservationType(
        perfect_recall=True, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    observer = game.make_py_observer(public)
    observer.set_from(state, player)
    assert observer.dict["player"][player] == 1
    assert "hand" not in observer.dict
    text = observer.string_from(state, player)
    assert text.startswith("spectator")
    others = [state.clone() for _ in range(2)]
    assert all(
        observer.string_from(o, (player + 1) % 4) == observer.string_from(state, (player + 1) % 4)
        for o in others
    )
    private_only = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=False, private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER
    )
    observer = game.make_py_observer(private_only)
    observer.set_from(state, player)
    assert observer.dict["hand"].sum() == len(state.engine_state.hand(Seat(player)))
    assert set(observer.dict) == {
        "player",
        "phase",
        "dealer",
        "to_act",
        "hand",
        "passed",
        "received",
    }
    assert observer.string_from(state, player).startswith(f"seat {Seat(player)}")
    everyone = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
    )
    with pytest.raises(ParseError):
        game.make_py_observer(everyone)
    with pytest.raises(ParseError):
        game.make_py_observer(None, {"verbose": True})


def test_game_mode_information_state_remembers_finished_hands() -> None:
    game = load(mode="game", target_score=2000)
    states = random_playout(game, random.Random(3))
    later = next(
        s for s in states if len(s.engine_state.completed_hands) == 2 and not s.is_chance_node()
    )
    text = later.information_state_string(0)
    assert text.count("seat N | hand 1 |") >= 1
    assert text.count("seat N | hand 2 |") >= 1
    assert "seat N | hand 1 |" not in later.observation_string(0)


# -- clones, serialization, pickling ---------------------------------------------------------------


def test_clones_are_independent() -> None:
    state = random_playout(load(), random.Random(4), until=80)[-1]
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert str(clone) != str(state) or clone.history() != state.history()
    assert len(clone.history()) == len(state.history()) + 1


def test_serialization_round_trips() -> None:
    game = load(mode="game", play_over="beat-led-suit")
    for state in random_playout(game, random.Random(10))[::25]:
        text = pyspiel.serialize_game_and_state(game, state)
        game2, state2 = pyspiel.deserialize_game_and_state(text)
        assert str(game2) == str(game)
        assert str(state2) == str(state)
        assert state2.history() == state.history()
        assert state2.engine_state == state.engine_state
        for player in range(4):
            assert observables(state2, player) == observables(state, player)


def test_pickled_state_does_not_carry_the_engines_cache() -> None:
    state = random_playout(load(), random.Random(4), until=70)[-1]
    legal_actions(state.engine_state)  # fill the engine's cache
    size = len(pickle.dumps(state._core))
    assert pickle.loads(pickle.dumps(state._core)).state == state.engine_state
    assert size < 6000


# -- an OpenSpiel algorithm, end to end ------------------------------------------------------------


def test_ismcts_plays_a_whole_hand_against_random_bots() -> None:
    result = example("openspiel_ismcts").play(hands=1, simulations=10, seed=3)
    assert result.hands == 1
    assert result.decisions > 10
    assert result.returns[0] == result.returns[2] == -result.returns[1]


# -- the end of a game, the declared bounds (issue 27) ---------------------------------------------


def test_the_terminal_tensor_describes_the_finished_hand() -> None:
    game = load()
    layout = ObservationLayout.build(Rules())
    finals = [random_playout(game, random.Random(seed))[-1] for seed in range(6)]
    seen = set()
    for final in finals:
        record = final.engine_state.completed_hands[0]
        for player in range(4):
            tensor = final.information_state_tensor(player)
            assert tensor == pyspiel.State.information_state_tensor(final, player)  # both paths
            vector = np.array(tensor)

            def piece(name: str, vector: Any = vector) -> Any:
                p = layout.piece(name)
                return vector[p.offset : p.offset + p.size]

            ended = Phase.GAME_OVER if final.engine_state.is_over else Phase.PLAY
            assert piece("phase")[list(Phase).index(ended)] == 1
            assert piece("to_act").sum() == 0
            assert piece("tricks").sum() == 56
            assert piece("trick_winners").sum() == 14
            assert piece("hand_number").tolist() == [1.0]
            team = player & 1
            assert piece("scores").tolist() == [record.totals[team], record.totals[1 - team]]
            assert "trick 14 " in final.information_state_string(player)
            assert "phase deal" not in final.observation_string(player)
            seen.add(tuple(tensor))
    assert len(seen) == 6 * 4  # every finished hand, every seat: its own tensor


def test_the_declared_bounds() -> None:
    assert load().max_chance_nodes_in_history() == 56
    game = load(mode="game", max_hands=3)
    assert pyspiel.Game.max_chance_nodes_in_history(game) == 3 * 56  # through OpenSpiel's C++
    assert load(mode="game", max_hands=1).max_utility() == 610
    assert load(mode="game", max_hands=2, target_score=5000).max_utility() == 1220
    assert load(mode="game").max_utility() == 500 + 610
    assert load(mode="game", max_hands=2).min_utility() == -1110
    final = random_playout(load(mode="game", max_hands=1), random.Random(2))[-1]
    assert abs(final.returns()[0]) <= 610


def test_python_and_cpp_answer_alike_at_every_step() -> None:
    game = load(mode="game", max_hands=2, target_score=5000)
    for state in random_playout(game, random.Random(11))[::3]:
        assert state.legal_actions() == pyspiel.State.legal_actions(state)
        assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
        for player in range(4):
            assert state.legal_actions(player) == pyspiel.State.legal_actions(state, player)
            if state.is_terminal() or not state.is_chance_node() or player == 0:
                for name in ("information_state_tensor", "observation_tensor"):
                    cpp = getattr(pyspiel.State, name)(state, player)
                    assert getattr(state, name)(player) == cpp
                for name in ("information_state_string", "observation_string"):
                    cpp = getattr(pyspiel.State, name)(state, player)
                    assert getattr(state, name)(player) == cpp
    with pytest.raises(ParseError):
        state.information_state_tensor(4)
