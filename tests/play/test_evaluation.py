"""The shared hand evaluation: the failed-bid risk is the expectation it claims to be, and the
forecast sinks the suit with the lowest meld plus danger."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deepsix import Rules, Seat, Suit, apply, new_game, shuffled_deal
from deepsix.hands import counts_of
from deepsix.play.evaluation import NetForecast, failed_bid_risk, meld_total, static_danger
from tests.support.strategies import examples


def _risk_by_integration(bid: int, mean: float, sigma: float, failed: int) -> float:
    """E[(failed - bid - N) 1{N > bid}] for N ~ normal(mean, sigma), by the midpoint rule."""
    total = 0.0
    steps = 20_000
    low, high = bid, mean + 12 * sigma
    width = (high - low) / steps
    for k in range(steps):
        n = low + (k + 0.5) * width
        density = math.exp(-0.5 * ((n - mean) / sigma) ** 2) / (sigma * math.sqrt(2 * math.pi))
        total += (failed - bid - n) * density * width
    return total


@settings(max_examples=examples(ci=25, deep=200), deadline=None)
@given(
    bid=st.integers(-100, 120).map(lambda b: 10 * (b // 10)),
    mean=st.floats(-50, 150),
    sigma=st.floats(10, 60),
)
def test_failed_bid_risk_is_the_expected_extra_cost(bid: int, mean: float, sigma: float) -> None:
    expected = _risk_by_integration(bid, mean, sigma, 200)
    assert failed_bid_risk(bid, mean, sigma, 200) == pytest.approx(expected, abs=1e-3)


@settings(max_examples=examples(ci=20, deep=200), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), seat=st.sampled_from(Seat))
def test_the_forecast_sinks_the_cheapest_suit(seed: int, seat: Seat) -> None:
    hand = apply(new_game(), shuffled_deal(seed)).hand(seat)
    rules = Rules()
    forecast = NetForecast(40.0, 0.5, 0.1, 30.0)
    estimate = forecast.estimate(hand, rules)
    costs = {
        suit: meld_total(hand, suit, rules) + static_danger(counts_of(hand), suit) for suit in Suit
    }
    assert costs[estimate.sunk_suit] == min(costs.values())
    assert estimate.meld == meld_total(hand, estimate.sunk_suit, rules)
    assert estimate.net == pytest.approx(40.0 + 0.5 * estimate.meld + 0.1 * estimate.danger)
    assert estimate.sigma == 30.0
