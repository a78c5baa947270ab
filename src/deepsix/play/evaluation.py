"""The shared evaluation of a hand: what winning the auction with it is likely to cost.

The heuristic bot and the search bot bid by the same rule: forecast the
partnership's *net* (card points taken plus meld) if the hand wins the
auction, treat the forecast as normal with a spread fitted on self-play,
and bid when the expected extra cost of failing the contract
(:func:`failed_bid_risk`) is small enough.  The forecast is a
:class:`HandEstimate` (:meth:`NetForecast.estimate`): the hand's best meld
and its static *danger* -- how many card points its high cards are likely
to drag in -- under the suit it would sink.

>>> from deepsix import Rules, Seat, apply, new_game, shuffled_deal
>>> hand = apply(new_game(), shuffled_deal(3)).hand(Seat.NORTH)
>>> estimate = NetForecast(40.0, 0.48, 0.0, 34.0).estimate(hand, Rules())
>>> estimate.sunk_suit, estimate.meld, round(estimate.net, 1)
(<Suit.CLUBS: 0>, -50, 16.0)
>>> round(failed_bid_risk(60, estimate.net, estimate.sigma, 200), 1)
6.3
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from typing import Final

import attrs

from deepsix.cards import Card, Suit
from deepsix.hands import counts_of
from deepsix.melds import best_meld, meld_value
from deepsix.rules import Rules

__all__ = ["HandEstimate", "NetForecast", "failed_bid_risk", "meld_total", "static_danger"]

_RANK_DANGER: Final = {2: 0.0, 3: 0.0, 4: 0.3, 5: 0.8, 6: 1.8, 7: 3.5, 8: 6.0}
"""Rough expected card points a non-sunk card of each rank drags into its owner's tricks."""


def meld_total(cards: Iterable[Card], sunk: Suit, rules: Rules, cap: int | None = None) -> int:
    """The value of the best meld in ``cards`` (at most ``cap`` cards melded), cached."""
    return _cached_meld_total(tuple(sorted(cards)), sunk, rules, cap)


@functools.lru_cache(maxsize=8192)
def _cached_meld_total(cards: tuple[Card, ...], sunk: Suit, rules: Rules, cap: int | None) -> int:
    """The computation behind :func:`meld_total`, cached by sorted cards."""
    return meld_value(best_meld(cards, sunk, rules, max_melded=cap))


def static_danger(counts: Sequence[int], sunk: Suit) -> float:
    """A rough score, in card points, of how much a holding will cost its owner in tricks.

    ``counts`` is the holding's count vector.  Only differences between
    suits and a weight fitted on self-play give the score meaning; its zero
    is arbitrary.

    High cards of plain suits win tricks (and the points others shed on
    them); the danger grows when few cards of the suit can beat them.  Sunk
    cards never win a trick led in another suit, so they are an asset: safe
    discards.  A short plain suit is an asset too: once void, its owner may
    discard anything.
    """
    danger = 0.0
    for suit in range(4):
        base = 7 * suit
        held = counts[base : base + 7]
        length = sum(held)
        if suit == sunk:
            danger -= 2.5 * length
            continue
        above = 0
        for rank_index in range(6, -1, -1):
            n = held[rank_index]
            if n:
                # copies of this card or higher that someone else may hold
                outside = above + (2 - n)
                danger += n * _RANK_DANGER[rank_index + 2] * 2.0 / (1.0 + 0.5 * outside)
            above += 2 - n
        if length <= 1:
            danger -= 3.0
        elif length >= 6:
            danger += 0.8 * (length - 5)
    return danger


@attrs.frozen
class HandEstimate:
    """A forecast for a 14-card hand if its owner wins the auction."""

    sunk_suit: Suit
    """The suit to sink."""
    meld: int
    """The hand's own best meld with that sunk suit (zero or negative)."""
    danger: float
    """The hand's static danger with that sunk suit (:func:`static_danger`)."""
    net: float
    """Expected net for the partnership: card points plus both partners' meld."""
    sigma: float
    """The forecast's standard deviation."""


@attrs.frozen
class NetForecast:
    """A linear forecast of a bidding partnership's net from the bidder's hand.

    The net is ``intercept + meld_weight * meld + danger_weight * danger``
    for the hand's best meld and static danger under the suit it would
    sink; :class:`~deepsix.HeuristicBot`'s weights were fitted on self-play
    by ``benchmarks/calibrate_heuristic.py``.
    """

    intercept: float
    """Forecast net of a bidding partnership whose bidder holds no meld."""
    meld_weight: float
    """Weight of the bidder's own best meld."""
    danger_weight: float
    """Weight of the hand's static danger."""
    sigma: float
    """Standard deviation of the forecast."""

    def estimate(self, hand: Sequence[Card], rules: Rules) -> HandEstimate:
        """The forecast for ``hand`` if it wins the auction, with the best suit to sink.

        For each suit it sums the hand's best meld with that suit sunk and
        the hand's static danger, and sinks the suit with the lowest total:
        the one that costs the fewest run points and neutralises the most
        dangerous holding.
        """
        counts = counts_of(hand)
        best: tuple[float, Suit, int, float] | None = None
        for suit in Suit:
            meld = meld_total(hand, suit, rules)
            danger = static_danger(counts, suit)
            cost = meld + danger
            if best is None or cost < best[0]:
                best = (cost, suit, meld, danger)
        assert best is not None
        _, suit, meld, danger = best
        net = self.intercept + self.danger_weight * danger + self.meld_weight * meld
        return HandEstimate(suit, meld, danger, net, self.sigma)


def failed_bid_risk(bid: int, mean: float, sigma: float, failed_score: int) -> float:
    """``E[(failed_score - bid - N) * 1{N > bid}]`` for a normal net ``N``.

    Failing a bid ``b`` records ``failed_score - b`` instead of the net ``N``;
    this is the expected extra cost of bidding ``b`` when ``N`` is normal
    with this mean and standard deviation (the auction rule of both the
    heuristic and the search bot).
    """
    alpha = (bid - mean) / sigma
    tail = 0.5 * math.erfc(alpha / math.sqrt(2.0))
    density = math.exp(-0.5 * alpha * alpha) / math.sqrt(2.0 * math.pi)
    return (failed_score - bid - mean) * tail - sigma * density
