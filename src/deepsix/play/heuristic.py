"""The heuristic bot: a rule-based player for every phase of the game.

:class:`HeuristicBot` never looks past its :class:`~deepsix.PlayerView` and
never uses its random stream (it is deterministic).  Its reasoning is
described method by method below and in ``docs/bots.md``: a static hand
evaluation for the auction, the sunk suit and the passes, and a one-trick
look-ahead with inferred holdings for the play.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from itertools import combinations
from typing import Final

import attrs

from deepsix.actions import (
    Action,
    Bid,
    Done,
    NameSunkSuit,
    Pass,
    PassCard,
    PlayCard,
    ShowCard,
)
from deepsix.cards import CARD_POINTS, CARDS, Card, Seat, Suit
from deepsix.errors import InvalidStateError
from deepsix.hands import counts_of
from deepsix.melds import ALL_MELDS, Meld, MeldFamily
from deepsix.play.bots import acting_seat
from deepsix.play.cardplay import lowest_cost_card
from deepsix.play.evaluation import HandEstimate, NetForecast, failed_bid_risk, meld_total
from deepsix.play.melding import melds_to_complete_best, next_declaration
from deepsix.rules import Rules
from deepsix.state import Phase
from deepsix.views import PlayerView

__all__ = ["HeuristicBot", "melds_to_complete_best"]


_MAX_SHOWN: Final = 7


@attrs.frozen
class HeuristicBot:
    """A rule-based player that plays every phase sensibly.

    It never looks at more than its :class:`PlayerView` and never uses its
    random stream (it is deterministic).  The fields are its knobs: the
    auction forecast's were fitted on self-play by
    ``benchmarks/calibrate_heuristic.py``; ``auction_benefit`` was chosen by
    playing variants against each other.
    """

    auction_benefit: float = 60.0
    """Points the bot will risk (in expected failed-bid penalty) to win the auction.

    Winning the auction is worth a lot -- the sunk suit, the exchange and the
    lead: in self-play the side that wins it records fewer points than the
    other even at these stakes (70 against 84 a hand, 600 hands).  Head to
    head over 200 paired games, 60 beat 30 in 66% of games and 100 in 62%,
    and 45 and 75 each won 45% against it."""
    net_intercept: float = 40.0
    """Forecast net of a bidding partnership whose bidder holds no meld."""
    meld_weight: float = 0.48
    """Weight of the bidder's own best meld in the net forecast (the partner's meld and
    the exchange are in the intercept)."""
    danger_weight: float = 0.0
    """Weight of the hand's static danger in the net forecast.  The fit on self-play
    (``benchmarks/calibrate_heuristic.py``) finds no measurable effect once the meld is
    known, so by default the danger only guides the choice of the sunk suit."""
    sigma: float = 34.0
    """Standard deviation of the net forecast (the fit's residual on self-play)."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action:  # noqa: PLR0911  # one answer per phase
        """The action this bot takes in ``view``."""
        seat = acting_seat(view)
        phase = view.phase
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        if phase is Phase.BIDDING:
            return self._call(view, seat)
        if phase is Phase.SUNK_SUIT:
            return NameSunkSuit(seat, self.estimate(view.hand, view.rules).sunk_suit)
        if phase is Phase.INVITATION:
            return self._show(view, seat)
        if phase is Phase.PARTNER_PASS:
            return self._partner_pass(view, seat)
        if phase in (Phase.BIDDER_MELD, Phase.MELDING):
            return self._declare(view, seat)
        if phase is Phase.BIDDER_PASS:
            return self._bidder_pass(view, seat)
        if phase is Phase.PLAY:
            return PlayCard(seat, self._play(view))
        raise InvalidStateError(f"no decision to take in the {phase.value} phase")

    # -- auction and sunk suit -------------------------------------------------

    def estimate(self, hand: Sequence[Card], rules: Rules) -> HandEstimate:
        """Forecast the partnership's net if this hand wins the auction, per best sunk suit.

        :meth:`deepsix.play.evaluation.NetForecast.estimate` with this bot's weights:
        the suit to sink is the one whose best meld plus static danger is
        lowest -- it costs the fewest run points and neutralises the most
        dangerous holding.
        """
        forecast = NetForecast(self.net_intercept, self.meld_weight, self.danger_weight, self.sigma)
        return forecast.estimate(hand, rules)

    def _call(self, view: PlayerView, seat: Seat) -> Action:
        """Bid the highest legal amount if the expected failed-bid penalty is acceptable.

        Failing a bid ``b`` scores ``200 - b`` instead of the net ``N``; with
        ``N`` forecast as normal(mean, sigma), the expected extra cost of
        bidding is ``E[(200 - b - N) 1{N > b}]``.  Bids of 100 or more are
        nearly free (a failure scores less than the net would have).  Never
        outbid the partner.
        """
        legal = view.legal_actions
        bids = [action for action in legal if isinstance(action, Bid)]
        if len(bids) == len(legal):  # the dealer's forced bid
            return bids[0]
        passing = next(action for action in legal if isinstance(action, Pass))
        if not bids or view.bidder == seat.partner:
            return passing
        estimate = self.estimate(view.hand, view.rules)
        top = bids[0]
        risk = failed_bid_risk(
            top.amount, estimate.net, estimate.sigma, view.rules.failed_bid_score
        )
        return top if risk <= self.auction_benefit else passing

    # -- invitation and passes ------------------------------------------------

    def invitation(self, hand: Sequence[Card], sunk: Suit) -> list[Card]:
        """The cards to show: those of melds the partner could complete with one or two cards.

        Near-melds are ranked by value per missing card (a grand run short
        of one card first); the union of their held cards is shown, up to
        seven cards.
        """
        return list(_invitation(tuple(sorted(hand)), sunk))

    def _show(self, view: PlayerView, seat: Seat) -> Action:
        sunk = view.sunk_suit
        assert sunk is not None
        target = counts_of(self.invitation(view.hand, sunk))
        for card in view.invitation:
            target[card] -= 1
        for action in view.legal_actions:
            if isinstance(action, ShowCard) and target[action.card] > 0:
                return action
        return Done(seat)

    def _partner_pass(self, view: PlayerView, seat: Seat) -> Action:
        """Pass what completes the bidder's shown melds, else cards the partnership can spare.

        Every set of up to the remaining number of cards that touch a shown
        meld is tried: its worth is what it adds to the best meld of the
        invitation plus the cards already passed, less what it costs this
        seat's own best meld.  With nothing worth passing, the filler rule
        of :meth:`_spare` applies.
        """
        sunk = view.sunk_suit
        assert sunk is not None
        rules = view.rules
        hand = list(view.hand)
        left = rules.pass_size - len(view.passed)
        table = list(view.invitation) + list(view.passed)
        if view.invitation:
            shown = set(view.invitation)
            relevant = sorted(
                {
                    card
                    for meld in ALL_MELDS
                    if shown.intersection(meld.cards)
                    and not (meld.family is MeldFamily.RUN and meld.suit == sunk)
                    for card in meld.cards
                    if card in hand
                }
            )
            pool = [card for card in relevant for _ in range(min(2, hand.count(card)))]
            base = meld_total(table, sunk, rules)
            own = meld_total(hand, sunk, rules)
            best: tuple[int, tuple[Card, ...]] = (0, ())
            for size in range(1, left + 1):
                for chosen in set(combinations(pool, size)):
                    gain = meld_total(table + list(chosen), sunk, rules) - base
                    if gain >= 0:
                        continue
                    rest = list(hand)
                    for card in chosen:
                        rest.remove(card)
                    worth = gain + meld_total(rest, sunk, rules) - own
                    if worth < best[0] or (worth == best[0] and best[1] and chosen < best[1]):
                        best = (worth, tuple(sorted(chosen)))
            if best[1]:
                return PassCard(seat, best[1][0])
        return PassCard(seat, self._spare(view, hand, sunk, keep_meld=True))

    def _spare(self, view: PlayerView, hand: list[Card], sunk: Suit, *, keep_meld: bool) -> Card:
        """The card this seat can best spare for its partner.

        Melded cards stay (the own best meld is preserved); 8s, 7s and 6s
        go first because the receiver may pair or widen them into melds;
        a last card of a plain suit goes gladly, since the resulting void
        lets this seat discard freely later.  Point cards and sunk cards are
        kept: passing a 2 or 3 never lowers the partnership's points, and
        they are worth most in the hand of the player who has been making
        voids to dump them on the opponents' tricks.
        """
        best: tuple[float, Card] | None = None
        for score, card in self._spare_scores(view, hand, sunk, keep_meld=keep_meld):
            if best is None or score < best[0]:
                best = (score, card)
        assert best is not None
        return best[1]

    def pass_order(self, view: PlayerView) -> list[Card]:
        """The distinct cards this seat may pass, the one it can best spare first.

        The order of the rule the heuristic passes by (for the partner's pass,
        cards that keep its own best meld first); the search bot reads it to
        choose which passes are worth searching.
        """
        sunk = view.sunk_suit
        assert sunk is not None
        keep = view.phase is Phase.PARTNER_PASS
        scored = sorted(set(self._spare_scores(view, list(view.hand), sunk, keep_meld=keep)))
        return [card for _, card in scored]

    def _spare_scores(
        self, view: PlayerView, hand: list[Card], sunk: Suit, *, keep_meld: bool
    ) -> list[tuple[float, Card]]:
        """Each legal pass with its score under :meth:`_spare`'s rule (lower: spare it first)."""
        rules = view.rules
        legal = [action.card for action in view.legal_actions if isinstance(action, PassCard)]
        own = meld_total(hand, sunk, rules)
        suit_length = [0, 0, 0, 0]
        for card in hand:
            suit_length[card // 7] += 1
        scores: list[tuple[float, Card]] = []
        for card in legal:
            score = 0.0
            if keep_meld:
                rest = list(hand)
                rest.remove(card)
                score += 3.0 * (meld_total(rest, sunk, rules) - own)
            rank = card % 7 + 2
            if card // 7 == sunk:
                score += 4.0
            else:
                score -= {8: 4.0, 7: 3.0, 6: 2.0, 5: 1.0, 4: 0.5}.get(rank, 0.0)
                if suit_length[card // 7] == 1:
                    score -= 3.0
                elif suit_length[card // 7] == 2:
                    score -= 1.0
            score += CARD_POINTS[card] / 4.0
            scores.append((score, card))
        return scores

    def _bidder_pass(self, view: PlayerView, seat: Seat) -> Action:
        sunk = view.sunk_suit
        assert sunk is not None
        return PassCard(seat, self._spare(view, list(view.hand), sunk, keep_meld=False))

    # -- melding --------------------------------------------------------------

    def _declare(self, view: PlayerView, seat: Seat) -> Action:
        """Declare the best meld the hand allows, one meld per action, then done
        (:func:`deepsix.play.melding.next_declaration`).

        The bidder's declaration is capped so that three cards stay unmelded
        (:func:`deepsix.best_meld` with ``max_melded``).  Meld only ever
        helps -- melded cards are still played -- so the bot always melds
        its best.
        """
        return next_declaration(view)

    # -- trick play -------------------------------------------------------------

    def _play(self, view: PlayerView) -> Card:
        """The card to play: :func:`deepsix.play.cardplay.lowest_cost_card`."""
        return lowest_cost_card(view)


@functools.lru_cache(maxsize=4096)
def _invitation(hand: tuple[Card, ...], sunk: Suit) -> tuple[Card, ...]:
    """:meth:`HeuristicBot.invitation` of a sorted hand, cached: the bidder asks once per card
    she shows, and the search's play-outs of one sampled deal ask again for every candidate
    compared there."""
    counts = counts_of(hand)
    near: list[tuple[float, int, Meld, list[Card]]] = []
    for index, meld in enumerate(ALL_MELDS):
        if meld.family is MeldFamily.RUN and meld.suit == sunk:
            continue
        need = counts_of(meld.cards)
        held: list[Card] = []
        missing = 0
        for card in set(meld.cards):
            have = min(counts[card], need[card])
            held.extend([card] * have)
            missing += need[card] - have
        if missing == 0 or not held or missing > 2:
            continue
        if missing == 2 and meld.kind.points > -30:
            continue
        near.append((meld.kind.points / missing, index, meld, held))
    near.sort(key=lambda item: (item[0], item[1]))
    shown = [0] * 28
    for _, _, _, held in near:
        extra = [0] * 28
        for card in held:
            extra[card] += 1
        merged = [max(shown[i], extra[i]) for i in range(28)]
        if sum(merged) > _MAX_SHOWN:
            continue
        shown = merged
    return tuple(card for card in CARDS for _ in range(shown[card]))
