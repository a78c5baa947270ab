"""Constrained dealing: sampled deals that fit the view, weighted by the auction."""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable

import pytest

from deepsix import (
    Bid,
    Card,
    GameState,
    HeuristicBot,
    Pass,
    Phase,
    PlayerView,
    Seat,
    Suit,
    apply,
    new_game,
    sample_state,
    shuffled_deal,
    view,
)
from deepsix.hands import counts_of
from deepsix.play.evaluation import meld_total, static_danger
from deepsix.search import SearchError
from deepsix.search.worlds import CallModel, _dealt_hands, sample_worlds


def _heuristic_until(seed: int, stop: Callable[[GameState], bool]) -> GameState:
    """A hand dealt by ``seed`` and played by the heuristic until ``stop(state)`` holds."""
    bot = HeuristicBot()
    state = apply(new_game(), shuffled_deal(seed))
    while not stop(state):
        assert state.to_act is not None
        state = apply(state, bot.choose(view(state, state.to_act), random.Random(0)))
    return state


def _a_pass_at_thirty() -> tuple[GameState, PlayerView, Seat]:
    """A view in the auction after a seat (not the viewer) passed when 30 or less was open:
    a pass the heuristic makes only with a weak hand (little meld)."""
    for seed in range(60):

        def informative_pass(state: GameState) -> bool:
            if state.phase is not Phase.BIDDING:
                return True
            calls = state.bids
            return bool(calls) and isinstance(calls[-1], Pass) and (state.bid or 120) <= 40

        state = _heuristic_until(seed, informative_pass)
        if state.phase is Phase.BIDDING and state.to_act is not None:
            passer = state.bids[-1].seat
            if passer not in (state.to_act, state.to_act.partner):
                return state, view(state, state.to_act), passer
    raise AssertionError("no such auction in 60 seeds")  # pragma: no cover


def _net(hand: tuple[Card, ...], seen: PlayerView) -> float:
    return HeuristicBot().estimate(hand, seen.rules).net


@pytest.mark.parametrize("phase", [Phase.BIDDING, Phase.PARTNER_PASS, Phase.PLAY])
def test_every_world_is_consistent_with_the_view(phase: Phase) -> None:
    """Whatever the pool, each world is a state whose view for the seat is the view."""
    state = _heuristic_until(8, lambda s: s.phase is phase and len(s.bids) >= 3)
    assert state.to_act is not None
    seen = view(state, state.to_act)
    worlds = sample_worlds(seen, random.Random(2), 6, pool=5)
    assert len(worlds) == 6
    for world in worlds:
        assert view(world, state.to_act) == seen
        assert world.hand(state.to_act) == state.hand(state.to_act)


def test_a_pool_of_one_is_plain_sampling() -> None:
    _, seen, _ = _a_pass_at_thirty()
    plain = [sample_state(seen, rng) for rng in [random.Random(4)] for _ in range(3)]
    assert sample_worlds(seen, random.Random(4), 3) == plain


def test_it_reads_the_view_only() -> None:
    """Two deals the seat cannot tell apart give the same worlds (the same random
    stream): the true hidden cards never enter the choice."""
    state, seen, _ = _a_pass_at_thirty()
    other = sample_state(seen, random.Random(9))
    assert other != state
    assert view(other, seen.seat) == seen
    first = sample_worlds(view(state, seen.seat), random.Random(5), 4, pool=6)
    second = sample_worlds(view(other, seen.seat), random.Random(5), 4, pool=6)
    assert first == second


def test_a_weak_pass_makes_the_passer_weaker_in_the_worlds() -> None:
    """A seat that passed with 30 or less open, under the model, held little meld: the
    constrained worlds give it a worse forecast net than the uniform ones."""
    _, seen, passer = _a_pass_at_thirty()
    uniform = sample_worlds(seen, random.Random(6), 80)
    constrained = sample_worlds(seen, random.Random(6), 80, pool=8)
    mean_uniform = statistics.mean(_net(_dealt(world)[passer], seen) for world in uniform)
    mean_constrained = statistics.mean(_net(_dealt(world)[passer], seen) for world in constrained)
    assert mean_constrained > mean_uniform + 2


def test_the_named_sunk_suit_becomes_the_bidders_cheapest() -> None:
    """The bidder sinks the suit whose meld plus danger is lowest (the heuristic's rule);
    in constrained worlds the named suit is that suit for the bidder's hand more often."""
    state = _heuristic_until(11, lambda s: s.phase is Phase.INVITATION)
    bidder, sunk = state.bidder, state.sunk_suit
    assert bidder is not None
    assert sunk is not None
    seen = view(state, bidder.left)

    def cheapest(world: GameState) -> Suit:
        hand = _dealt(world)[bidder]
        counts = counts_of(hand)
        return min(
            Suit, key=lambda suit: meld_total(hand, suit, seen.rules) + static_danger(counts, suit)
        )

    uniform = sum(cheapest(w) == sunk for w in sample_worlds(seen, random.Random(7), 60))
    constrained = sum(
        cheapest(w) == sunk for w in sample_worlds(seen, random.Random(7), 60, pool=8)
    )
    assert constrained > uniform + 6


def test_the_call_likelihoods_follow_the_heuristic() -> None:
    """Strong hands (more meld: a lower forecast net) are likelier to bid and less likely
    to pass when the bid open is low; the floor bounds every factor."""
    model = CallModel(floor=0.01)
    _, seen, _ = _a_pass_at_thirty()
    hands = sorted(
        (_dealt(sample_state(seen, random.Random(k)))[Seat.NORTH] for k in range(40)),
        key=lambda hand: _net(hand, seen),
    )
    strong, weak = hands[0], hands[-1]
    assert _net(strong, seen) < _net(weak, seen)
    assert model.call_likelihood(strong, 30, True, seen) > model.call_likelihood(
        weak, 30, True, seen
    )
    assert model.call_likelihood(strong, 30, False, seen) < model.call_likelihood(
        weak, 30, False, seen
    )
    for hand in (strong, weak):
        for bid in (True, False):
            assert 0.01 <= model.call_likelihood(hand, 30, bid, seen) <= 1


def test_uninformative_calls_weigh_nothing() -> None:
    """Only the other seats' calls count: with the viewer the only caller so far, every
    world weighs 1; the same bid seen by its partner weighs something in (0, 1]."""
    state = apply(new_game(), shuffled_deal(3))
    assert state.to_act is not None
    first = state.to_act
    state = apply(state, Bid(first, 120))
    seen = view(state, first.partner)
    worlds = sample_worlds(seen, random.Random(1), 3)
    model = CallModel()
    own = view(state, first)
    for world in worlds:
        assert model.likelihood(own, world) == 1.0
        assert 0 < model.likelihood(seen, world) <= 1


@pytest.mark.parametrize(
    "changes",
    [
        {"call_temperature": 0},
        {"sink_temperature": -1.0},
        {"floor": 0},
        {"floor": 1.5},
        {"heuristic": "heuristic"},
    ],
)
def test_bad_models_raise_search_error(changes: dict[str, object]) -> None:
    with pytest.raises(SearchError):
        CallModel(**changes)  # type: ignore[arg-type]  # the error path under test


@pytest.mark.parametrize("pool", [0, -1, 2.5])
def test_a_bad_pool_raises_search_error(pool: object) -> None:
    seen = view(apply(new_game(), shuffled_deal(1)), Seat.NORTH)
    with pytest.raises(SearchError):
        sample_worlds(seen, random.Random(0), 1, pool=pool)  # type: ignore[arg-type]  # bad


def _dealt(world: GameState) -> tuple[tuple[Card, ...], ...]:
    hands = _dealt_hands(world)
    assert hands is not None
    return hands
