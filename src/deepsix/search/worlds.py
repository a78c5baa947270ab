"""Sampled deals that fit the auction: constrained dealing for the search bot.

:func:`deepsix.sample_state` deals the unseen cards close to uniformly
among the deals the view allows: it respects every *fact* (cards seen,
suits shown void, melds declared) but not what the other seats' choices
*suggest*.  A seat that bid 90 probably holds meld; the bidder who sank
hearts probably had little to lose in hearts.  Bridge programs deal their
samples "consistent with the bidding" for this reason, and so does this
module, with a soft model so that it degrades gracefully when the other
players bid differently from the model:

* :class:`CallModel` says how likely each observed call and the named sunk
  suit were, given the hand the caller was dealt in a sampled deal.  The
  model is the heuristic bot's own rule (:meth:`deepsix.HeuristicBot.choose`:
  bid the highest amount open when the expected failed-bid penalty is at
  most ``auction_benefit``; sink the suit whose meld plus static danger is
  lowest), softened by a logistic (calls) or a softmax (the sunk suit) with
  a temperature in points, and floored, so that no deal the view allows is
  ruled out.
* :func:`sample_worlds` draws ``pool`` deals with :func:`deepsix.sample_state`
  for each world it returns and keeps one of them with probability
  proportional to its likelihood (sampling-importance-resampling).  ``pool``
  1 is plain :func:`~deepsix.sample_state`.

Only the view is used: the deals are sampled from it, and the likelihood
reads the public auction and sunk suit and the *sampled* hands, so no hidden
card can leak into the choice.  Every world returned is a state
:func:`~deepsix.sample_state` returned (its view for the seat is the view).

>>> import random
>>> from deepsix import HeuristicBot, apply, new_game, shuffled_deal, view
>>> state = apply(new_game(), shuffled_deal(5))
>>> for _ in range(3):  # three calls of the heuristic
...     state = apply(state, HeuristicBot().choose(view(state, state.to_act), random.Random(0)))
>>> seen = view(state, state.to_act)
>>> worlds = sample_worlds(seen, random.Random(1), 4, pool=8)
>>> len(worlds), all(view(world, seen.seat) == seen for world in worlds)
(4, True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import attrs

from deepsix.actions import Bid, Deal
from deepsix.cards import Card, Seat, Suit
from deepsix.hands import counts_of
from deepsix.play.evaluation import failed_bid_risk, meld_total, static_danger
from deepsix.play.heuristic import HeuristicBot
from deepsix.sampling import sample_state
from deepsix.search.solver import SearchError
from deepsix.state import GameState
from deepsix.views import PlayerView

__all__ = ["CallModel", "sample_worlds"]


def _positive_float(instance: object, attribute: attrs.Attribute[float], value: float) -> None:
    if type(value) not in (int, float) or not 0 < value < math.inf:
        raise SearchError(f"CallModel.{attribute.name} must be a positive number, not {value!r}")


def _fraction(instance: object, attribute: attrs.Attribute[float], value: float) -> None:
    if type(value) not in (int, float) or not 0 < value <= 1:
        raise SearchError(f"CallModel.{attribute.name} must be in (0, 1], not {value!r}")


def _heuristic(instance: object, attribute: attrs.Attribute[HeuristicBot], value: object) -> None:
    if not isinstance(value, HeuristicBot):
        raise SearchError(f"CallModel.heuristic must be a HeuristicBot, not {value!r}")


@attrs.frozen
class CallModel:
    """How likely the other seats' calls and sunk suit were, given the hands they were dealt.

    The heuristic bot's rule, made soft: a seat that could bid ``top`` (the
    highest amount open to it) bids with probability
    ``1 / (1 + exp(-(auction_benefit - risk) / call_temperature))``, where
    ``risk`` is the heuristic's expected failed-bid penalty of ``top`` for
    that hand (:func:`deepsix.play.evaluation.failed_bid_risk`); the bidder
    sinks each suit with probability proportional to
    ``exp(-cost / sink_temperature)``, ``cost`` being the hand's best meld
    plus its static danger with that suit sunk.  Every factor is at least
    ``floor``.  Calls that tell nothing under the model -- the dealer's
    forced bid, a pass when no bid is open, any call over the partner's
    standing bid -- count 1.

    >>> CallModel().call_temperature
    10.0
    """

    heuristic: HeuristicBot = attrs.field(factory=HeuristicBot, validator=_heuristic)
    """The bidding rule modelled (its forecast weights and ``auction_benefit``)."""
    call_temperature: float = attrs.field(default=10.0, validator=_positive_float)
    """Points of margin (the benefit minus the risk) that make a bid e (2.7) times as
    likely as a pass."""
    sink_temperature: float = attrs.field(default=10.0, validator=_positive_float)
    """Points of meld plus danger that make one sunk suit e times as likely as another."""
    floor: float = attrs.field(default=0.05, validator=_fraction)
    """The least likelihood of one call or one sunk suit (no deal is ruled out)."""

    def call_likelihood(
        self, hand: Sequence[Card], top: int, bid: bool, view_: PlayerView
    ) -> float:
        """How likely a seat holding ``hand`` was to bid (``bid``) or to pass when it could
        bid ``top``."""
        rules = view_.rules
        estimate = self.heuristic.estimate(hand, rules)
        risk = failed_bid_risk(top, estimate.net, estimate.sigma, rules.failed_bid_score)
        margin = (self.heuristic.auction_benefit - risk) / self.call_temperature
        margin = max(-60.0, min(60.0, margin))
        p_bid = 1.0 / (1.0 + math.exp(-margin))
        return max(self.floor, p_bid if bid else 1.0 - p_bid)

    def sink_likelihood(self, hand: Sequence[Card], sunk: Suit, view_: PlayerView) -> float:
        """How likely the bidder holding ``hand`` was to sink ``sunk``."""
        counts = counts_of(hand)
        costs = {
            suit: meld_total(hand, suit, view_.rules) + static_danger(counts, suit) for suit in Suit
        }
        low = min(costs.values())
        odds = {
            suit: math.exp((low - cost) / self.sink_temperature) for suit, cost in costs.items()
        }
        return max(self.floor, odds[sunk] / sum(odds.values()))

    def likelihood(self, view_: PlayerView, world: GameState) -> float:
        """The product, over the other seats' informative calls and the sunk suit (when
        another seat named it), of their likelihoods given ``world``'s dealt hands."""
        dealt = _dealt_hands(world)
        if dealt is None:
            return 1.0
        rules = view_.rules
        me = view_.seat
        weight = 1.0
        standing: int | None = None
        bidder: Seat | None = None
        for index, call in enumerate(view_.bids):
            seat = call.seat
            forced = standing is None and index == 3
            top = rules.opening_bid_limit if standing is None else standing - rules.bid_step
            informative = (
                seat != me
                and not forced
                and top >= rules.lowest_bid
                and (bidder is None or bidder != seat.partner)
            )
            if informative:
                weight *= self.call_likelihood(dealt[seat], top, isinstance(call, Bid), view_)
            if isinstance(call, Bid):
                standing, bidder = call.amount, seat
        if view_.sunk_suit is not None and view_.bidder is not None and view_.bidder != me:
            weight *= self.sink_likelihood(dealt[view_.bidder], view_.sunk_suit, view_)
        return weight


def _dealt_hands(world: GameState) -> tuple[tuple[Card, ...], ...] | None:
    """The hands ``world``'s current hand was dealt (from its last deal), if it was dealt."""
    for action in reversed(world.history):
        if isinstance(action, Deal):
            return tuple(action.hand(seat) for seat in Seat)
    return None


def sample_worlds(
    view_: PlayerView,
    rng: random.Random,
    count: int,
    *,
    pool: int = 1,
    model: CallModel | None = None,
) -> list[GameState]:
    """``count`` deals consistent with ``view_``, each the one kept of ``pool`` sampled ones
    with probability proportional to ``model``'s likelihood (:class:`CallModel` by
    default); ``pool`` 1 samples uniformly (:func:`deepsix.sample_state`)."""
    if type(pool) is not int or pool < 1:
        raise SearchError(f"sample_worlds() needs a positive int pool, not {pool!r}")
    if pool == 1 or not view_.bids:
        return [sample_state(view_, rng) for _ in range(count)]
    judge = model if model is not None else CallModel()
    worlds: list[GameState] = []
    for _ in range(count):
        drawn = [sample_state(view_, rng) for _ in range(pool)]
        weights = [judge.likelihood(view_, world) for world in drawn]
        worlds.append(drawn[_weighted_index(weights, rng)])
    return worlds


def _weighted_index(weights: Sequence[float], rng: random.Random) -> int:
    """An index drawn with probability proportional to ``weights`` (all positive)."""
    target = rng.random() * sum(weights)
    for index, weight in enumerate(weights):
        target -= weight
        if target < 0:
            return index
    return len(weights) - 1
