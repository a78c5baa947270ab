"""SearchBot: a bot that samples the cards it cannot see and searches the samples.

The recipe is *perfect-information Monte Carlo* (PIMC), as in strong bridge
and Skat programs: deal the unseen cards at random, consistently with
everything the seat knows (:func:`deepsix.sample_state`), look at each
sampled deal as if all cards were face up, and pick the option whose
average outcome over the samples is best.

* **Play, endgame** (at most :attr:`SearchBot.solve_tricks` tricks left):
  every sampled deal is solved exactly for every legal card
  (:func:`~deepsix.search.solver.move_values`, double dummy).  A deal that needs
  more than :attr:`SearchBot.node_limit` nodes does not vote.
* **Play, earlier**: by default the heuristic's card.  With
  :attr:`SearchBot.rollout_worlds` set, each legal card is followed by a
  rollout in each of that many sampled deals -- the heuristic plays all
  four seats to the end of the hand -- and the best mean wins; at the
  budgets that fit in a second this measured *worse* than the heuristic
  alone (too few deals), so it is off by default.
* **Auction**: the bot samples deals, assumes it wins the auction at the
  highest bid open to it, and plays each out with the heuristic for all
  seats; the mean net of its partnership, blended with the heuristic's
  linear forecast (which counts as four more play-outs), replaces that
  forecast in the heuristic's bidding rule (bid if the expected penalty
  of failing is at most :attr:`~deepsix.HeuristicBot.auction_benefit`).
* **Sunk suit**: each suit is tried on the same sampled deals, played out
  with the heuristic; the suit with the best mean outcome is sunk.
* **Invitation, passes and melding** follow the heuristic.

What "best" means: the outcome of a sampled deal is scored as the hand
would be scored -- each team's card points plus meld against the contract
(:func:`deepsix.score_hand`) -- and the bot minimises its partnership's
recorded score minus the opponents'.  So a card that saves 10 points
matters most when it makes or breaks the contract.

Budgets are counts (deals, rollouts, search nodes), never seconds, so a
bot given the same random stream makes the same decisions: seeded games
replay exactly.  The defaults keep a typical decision under a second on
one core (``docs/search-bot.md`` has the measurements).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

import attrs

from deepsix.actions import Action, Bid, NameSunkSuit, Pass, PlayCard
from deepsix.cards import HAND_SIZE, Card, Seat, Suit, Team
from deepsix.engine import apply
from deepsix.errors import InvalidStateError
from deepsix.play.bots import acting_seat
from deepsix.play.evaluation import failed_bid_risk
from deepsix.play.heuristic import HeuristicBot
from deepsix.sampling import sample_state
from deepsix.scoring import score_hand
from deepsix.search.solver import SearchBudgetError, SearchError, move_values
from deepsix.state import GameState, HandRecord, Phase
from deepsix.views import PlayerView, view

__all__ = ["SearchBot"]

_HEURISTIC: Final = HeuristicBot()
_PRIOR_WEIGHT: Final = 4
"""How many rollouts the heuristic's own net forecast counts for in the auction estimate."""


def _positive(instance: SearchBot, attribute: attrs.Attribute[int], value: int) -> None:
    if type(value) is not int or value < 1:
        raise SearchError(f"SearchBot.{attribute.name} must be a positive int, not {value!r}")


def _non_negative(instance: SearchBot, attribute: attrs.Attribute[int], value: int) -> None:
    if type(value) is not int or value < 0:
        raise SearchError(f"SearchBot.{attribute.name} must be a non-negative int, not {value!r}")


def _tricks(instance: SearchBot, attribute: attrs.Attribute[int], value: int) -> None:
    if type(value) is not int or not 0 <= value <= 14:
        raise SearchError(f"SearchBot.{attribute.name} must be an int from 0 to 14, not {value!r}")


@attrs.frozen
class SearchBot:
    """A perfect-information Monte Carlo player (see the module documentation).

    The fields are its budgets; every one is a count, so the bot is
    deterministic given its random stream.

    >>> import random
    >>> from deepsix import play_game
    >>> quick = SearchBot(worlds=2, solve_tricks=2, rollout_worlds=0,
    ...                   auction_rollouts=1, sunk_rollouts=1)
    >>> final = play_game([quick, "heuristic", quick, "heuristic"], seed=1, max_hands=1)
    >>> len(final.completed_hands)
    1
    """

    worlds: int = attrs.field(default=12, validator=_positive)
    """Deals sampled per play decision in the endgame (each solved double dummy)."""
    solve_tricks: int = attrs.field(default=5, validator=_tricks)
    """Solve exactly when at most this many tricks are left (the current one included)."""
    node_limit: int = attrs.field(default=40_000, validator=_positive)
    """Search nodes allowed per sampled deal; a deal that needs more does not vote
    (if none is solved, the heuristic's card is played)."""
    rollout_worlds: int = attrs.field(default=0, validator=_non_negative)
    """Deals sampled per play decision before the endgame, each legal card followed by
    a heuristic rollout; 0 plays the heuristic's card there."""
    auction_rollouts: int = attrs.field(default=10, validator=_non_negative)
    """Deals played out per auction decision; 0 bids as the heuristic does."""
    sunk_rollouts: int = attrs.field(default=5, validator=_non_negative)
    """Deals played out per suit when choosing the sunk suit; 0 sinks as the heuristic does."""
    heuristic: HeuristicBot = attrs.field(default=_HEURISTIC)
    """The policy of the rollouts and of the phases the bot does not search."""

    @classmethod
    def quick(cls) -> SearchBot:
        """The budget for live tables: a decision well under 0.1 s (median) compiled.

        Known by name as ``"search-quick"``; what each phase does with it and the
        measured times are in ``docs/search-bot.md``.

        >>> SearchBot.quick().solve_tricks
        5
        """
        return cls(worlds=8, solve_tricks=5, node_limit=20_000, auction_rollouts=0, sunk_rollouts=0)

    @classmethod
    def deep(cls) -> SearchBot:
        """The stronger budget whose strength ``docs/search-bot.md`` reports.

        The endgame is solved from seven tricks left on 10 sampled deals (a
        deal needing more than 200,000 nodes does not vote), and the auction
        and the sunk suit are the heuristic's.  Meant for the compiled build,
        where a decision takes 0.012 s at the median and about a second at
        worst; pure Python is about four times slower in the endgame.  Known
        by name as ``"search-deep"``.

        >>> SearchBot.deep().solve_tricks
        7
        """
        return cls(
            worlds=10, solve_tricks=7, node_limit=200_000, auction_rollouts=0, sunk_rollouts=0
        )

    def choose(self, view_: PlayerView, rng: random.Random) -> Action:
        """One of ``view_.legal_actions``, chosen by sampling and search."""
        seat = acting_seat(view_)
        legal = view_.legal_actions
        if len(legal) == 1:
            return legal[0]
        phase = view_.phase
        if phase is Phase.PLAY:
            return PlayCard(seat, self._play(view_, seat, rng))
        if phase is Phase.BIDDING and self.auction_rollouts:
            return self._call(view_, seat, rng)
        if phase is Phase.SUNK_SUIT and self.sunk_rollouts:
            return NameSunkSuit(seat, self._sink(view_, seat, rng))
        return self.heuristic.choose(view_, rng)

    # -- play ---------------------------------------------------------------------

    def _play(self, view_: PlayerView, seat: Seat, rng: random.Random) -> Card:
        """The card with the best total over the sampled deals (see the module docs)."""
        cards = [action.card for action in view_.legal_actions if isinstance(action, PlayCard)]
        tricks_left = HAND_SIZE - len(view_.tricks)
        if tricks_left > self.solve_tricks:
            if not self.rollout_worlds:
                action = self.heuristic.choose(view_, rng)
                assert isinstance(action, PlayCard)
                return action.card
            return self._best(cards, self._rollout_costs(view_, seat, cards, rng))
        totals = dict.fromkeys(cards, 0.0)
        solved = 0
        for _ in range(self.worlds):
            world = sample_state(view_, rng)
            try:
                values = move_values(world, node_limit=self.node_limit)
            except SearchBudgetError:
                continue  # too hard to solve within budget: this deal does not vote
            solved += 1
            for value in values:
                totals[value.card] += _cost(view_, seat, value.points)
        if not solved:
            action = self.heuristic.choose(view_, rng)
            assert isinstance(action, PlayCard)
            return action.card
        return self._best(cards, [totals[card] for card in cards])

    def _rollout_costs(
        self, view_: PlayerView, seat: Seat, cards: list[Card], rng: random.Random
    ) -> list[float]:
        """Each card's total cost over ``rollout_worlds`` sampled deals, played out."""
        totals = [0.0] * len(cards)
        for _ in range(self.rollout_worlds):
            world = sample_state(view_, rng)
            for index, cost in enumerate(_rollouts(world, seat, cards, self)):
                totals[index] += cost
        return totals

    @staticmethod
    def _best(cards: Sequence[Card], costs: Sequence[float]) -> Card:
        """The card with the lowest total cost; ties go to the first (lowest) card."""
        best = 0
        for index in range(1, len(cards)):
            if costs[index] < costs[best] - 1e-9:
                best = index
        return cards[best]

    # -- auction and sunk suit ----------------------------------------------------------

    def _call(self, view_: PlayerView, seat: Seat, rng: random.Random) -> Action:
        """The heuristic's bidding rule, with the net forecast taken from rollouts."""
        legal = view_.legal_actions
        bids = [action for action in legal if isinstance(action, Bid)]
        passing = next((action for action in legal if isinstance(action, Pass)), None)
        if passing is None or not bids or view_.bidder == seat.partner:
            return self.heuristic.choose(view_, rng)
        top = bids[0]
        nets = []
        for _ in range(self.auction_rollouts):
            world = _win_auction(sample_state(view_, rng), seat, top.amount)
            record = _finish(world, self.heuristic, rng)
            nets.append(record.net[seat.team])
        heuristic = self.heuristic
        prior = heuristic.estimate(view_.hand, view_.rules).net
        mean = (sum(nets) + _PRIOR_WEIGHT * prior) / (len(nets) + _PRIOR_WEIGHT)
        risk = failed_bid_risk(top.amount, mean, heuristic.sigma, view_.rules.failed_bid_score)
        return top if risk <= heuristic.auction_benefit else passing

    def _sink(self, view_: PlayerView, seat: Seat, rng: random.Random) -> Suit:
        """The suit whose sampled play-outs cost the partnership least."""
        worlds = [sample_state(view_, rng) for _ in range(self.sunk_rollouts)]
        best: tuple[float, Suit] | None = None
        for suit in Suit:
            total = 0.0
            for world in worlds:
                record = _finish(apply(world, NameSunkSuit(seat, suit)), self.heuristic, rng)
                total += _record_cost(record, seat.team)
            if best is None or total < best[0] - 1e-9:
                best = (total, suit)
        assert best is not None
        return best[1]


# -- helpers ---------------------------------------------------------------------------


def _cost(view_: PlayerView, seat: Seat, future: tuple[int, int]) -> float:
    """The partnership's recorded score minus the opponents', given the card points to come."""
    taken = view_.card_points
    points = (taken[0] + future[0], taken[1] + future[1])
    bidder = view_.bidder
    bid = view_.bid
    assert bidder is not None
    assert bid is not None
    scores = score_hand(bidder.team, bid, points, view_.team_meld, view_.rules).scores
    team = seat.team
    return float(scores[team] - scores[1 - team])


def _record_cost(record: HandRecord, team: Team) -> float:
    """A finished hand's recorded score for ``team`` minus the other team's."""
    return float(record.scores[team] - record.scores[1 - team])


def _finish(state: GameState, policy: HeuristicBot, rng: random.Random) -> HandRecord:
    """Play the current hand to its end with ``policy`` at every seat; its score sheet line."""
    hands_done = len(state.completed_hands)
    while len(state.completed_hands) == hands_done:
        seat = state.to_act
        if seat is None:  # pragma: no cover - a hand in progress always has a seat to act
            raise InvalidStateError("the hand stopped before it was scored")
        state = apply(state, policy.choose(view(state, seat), rng))
    return state.completed_hands[-1]


def _rollouts(world: GameState, seat: Seat, cards: list[Card], bot: SearchBot) -> list[float]:
    """Each card's cost in ``world``: play it, then let the heuristic finish the hand."""
    rng = random.Random(0)  # the heuristic ignores its stream; rollouts stay deterministic
    costs = []
    for card in cards:
        record = _finish(apply(world, PlayCard(seat, card)), bot.heuristic, rng)
        costs.append(_record_cost(record, seat.team))
    return costs


def _win_auction(world: GameState, seat: Seat, amount: int) -> GameState:
    """``world`` after ``seat`` bids ``amount`` and everyone else passes until the auction ends."""
    state = apply(world, Bid(seat, amount))
    while state.phase is Phase.BIDDING:
        actor = state.to_act
        assert actor is not None
        state = apply(state, Pass(actor))
    return state
