"""The heuristic bot: a rule-based player for every phase of the game.

:class:`HeuristicBot` never looks past its :class:`~deepsix.PlayerView` and
never uses its random stream (it is deterministic).  Its reasoning is
described method by method below and in ``docs/bots.md``: a static hand
evaluation for the auction, the sunk suit and the passes, and a one-trick
look-ahead with inferred holdings for the play.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Final, NamedTuple

import attrs

from deepsix.actions import (
    Action,
    Bid,
    DeclareMeld,
    Done,
    NameSunkSuit,
    Pass,
    PassCard,
    PlayCard,
    ShowCard,
)
from deepsix.cards import CARD_POINTS, CARDS, HAND_SIZE, Card, Seat, Suit
from deepsix.errors import InvalidStateError
from deepsix.hands import counts_of
from deepsix.melds import ALL_MELDS, Meld, MeldFamily, best_meld, meld_value
from deepsix.play.bots import acting_seat
from deepsix.rules import Rules
from deepsix.scoring import LAST_TRICK_BONUS
from deepsix.state import Phase
from deepsix.table import known_holdings, played_counts, plays_by_trick, voids
from deepsix.tricks import winning_position
from deepsix.views import PlayerView

__all__ = ["HandEstimate", "HeuristicBot", "failed_bid_risk", "melds_to_complete_best"]


def melds_to_complete_best(view: PlayerView) -> list[Meld]:
    """The melds the seat still has to declare to reach its best declaration.

    The best declaration is :func:`deepsix.best_meld` over the seat's hand,
    capped for the bidder so that enough cards stay unmelded to pass back
    (R-MELD-4); melds already declared are left out.
    """
    seat = view.seat
    sunk = view.sunk_suit
    assert seat is not None
    assert sunk is not None
    cap = None
    if view.phase is Phase.BIDDER_MELD:
        cap = len(view.hand) - view.rules.pass_size
    target = list(best_meld(view.hand, sunk, view.rules, max_melded=cap))
    for meld in view.melds[seat]:
        if meld in target:
            target.remove(meld)
    return target


_RANK_DANGER: Final = {2: 0.0, 3: 0.0, 4: 0.3, 5: 0.8, 6: 1.8, 7: 3.5, 8: 6.0}
"""Rough expected card points a non-sunk card of each rank drags into its owner's tricks."""


def _meld_total(cards: Iterable[Card], sunk: Suit, rules: Rules, cap: int | None = None) -> int:
    """The value of the best meld in ``cards`` (cached: the pass search asks again and again)."""
    return _cached_meld_total(tuple(sorted(cards)), sunk, rules, cap)


@functools.lru_cache(maxsize=8192)
def _cached_meld_total(cards: tuple[Card, ...], sunk: Suit, rules: Rules, cap: int | None) -> int:
    """The computation behind ``_meld_total``, cached by sorted cards."""
    return meld_value(best_meld(cards, sunk, rules, max_melded=cap))


def _static_danger(counts: Sequence[int], sunk: Suit) -> float:
    """A rough score, in card points, of how much a holding will cost its owner in tricks.

    Only differences between suits and the weight fitted on self-play
    (:attr:`HeuristicBot.danger_weight`) give it meaning; its zero is arbitrary.

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
    """The heuristic's forecast for a 14-card hand if its owner wins the auction."""

    sunk_suit: Suit
    """The suit the bot would sink."""
    meld: int
    """The bot's own best meld with that sunk suit (zero or negative)."""
    danger: float
    """The hand's static danger with that sunk suit (see :attr:`HeuristicBot.danger_weight`)."""
    net: float
    """Expected net for the partnership: card points plus both partners' meld."""
    sigma: float
    """The forecast's standard deviation (calibrated on self-play)."""


# -- trick-play knowledge ------------------------------------------------------


class _Table:
    """What one seat can deduce during play: unseen cards, voids, known holdings."""

    __slots__ = (
        "done_tricks",
        "known",
        "last_trick",
        "led",
        "mine",
        "seat",
        "sunk",
        "trick",
        "unknown",
        "unknown_cards",
        "unseen",
        "voids",
    )

    def __init__(self, view: PlayerView) -> None:
        seat = view.seat
        sunk = view.sunk_suit
        assert seat is not None
        assert sunk is not None
        self.seat = seat
        self.sunk = int(sunk)
        self.trick = view.trick
        self.led = view.trick[0][1] // 7 if view.trick else -1
        self.done_tricks = len(view.tricks)
        self.last_trick = len(view.tricks) == HAND_SIZE - 1
        mine = counts_of(view.hand)
        plays = plays_by_trick(view.tricks, view.trick)
        played_by = played_counts(plays)
        played = [sum(by_seat[i] for by_seat in played_by) for i in range(28)]
        unseen = [max(0, 2 - mine[i] - played[i]) for i in range(28)]
        known = known_holdings(view.melds, plays, sharing=view.rules.meld_sharing)
        known[seat] = [0] * 28
        if view.passed and view.bidder is not None:
            partner = seat.partner
            back = counts_of(view.received) if seat != view.bidder else [0] * 28
            for index, n in enumerate(counts_of(view.passed)):
                if n:
                    still = max(0, n - back[index] - played_by[partner][index])
                    known[partner][index] = max(known[partner][index], still)
        unknown_cards = list(unseen)
        for i in range(28):
            total = known[0][i] + known[1][i] + known[2][i] + known[3][i]
            if total > unseen[i]:  # inconsistent deduction: trust nothing about this card
                for row in known:
                    row[i] = 0
                total = 0
            unknown_cards[i] = unseen[i] - total
        self.mine = mine
        self.unseen = unseen
        self.voids = [sum(1 << suit for suit in suits) for suits in voids(plays)]
        self.known = known
        self.unknown_cards = unknown_cards
        self.unknown = [
            0 if other == seat else max(0, view.hand_sizes[other] - sum(known[other]))
            for other in range(4)
        ]

    def holds_any(self, seat: int, cards: Sequence[int]) -> float:
        """Probability that ``seat`` holds at least one copy of ``cards`` (all of one suit)."""
        if not cards:
            return 0.0
        row = self.known[seat]
        for card in cards:
            if row[card]:
                return 1.0
        suit = cards[0] // 7
        if self.voids[seat] >> suit & 1:
            return 0.0
        copies = sum(self.unknown_cards[card] for card in cards)
        if not copies:
            return 0.0
        pool = sum(
            self.unknown[other]
            for other in range(4)
            if other != self.seat and not self.voids[other] >> suit & 1
        )
        if pool <= 0:
            return 0.0
        share = min(1.0, self.unknown[seat] / pool)
        return 1.0 - (1.0 - share) ** copies

    def points_left(self) -> int:
        """Card points still to be played (in my hand or unseen), with the last-trick bonus."""
        return LAST_TRICK_BONUS + sum(
            CARD_POINTS[i] * (self.unseen[i] + self.mine[i]) for i in range(28) if CARD_POINTS[i]
        )

    def dump_points(self, seat: int, led: int) -> float:
        """Points ``seat`` is expected to shed on a trick it wants its opponents to take."""
        if self.voids[seat] >> led & 1:
            p2 = 1.0
            p3 = 1.0
            for suit in range(4):
                p2 *= 1.0 - self.holds_any(seat, (7 * suit,))
                p3 *= 1.0 - self.holds_any(seat, (7 * suit + 1,))
            return 0.7 * (20.0 * (1.0 - p2) + 10.0 * p2 * (1.0 - p3))
        two = self.holds_any(seat, (7 * led,))
        three = self.holds_any(seat, (7 * led + 1,))
        return 20.0 * two + 10.0 * (1.0 - two) * three

    def higher(self, card: int) -> list[int]:
        """The cards of ``card``'s suit that beat or equal it (an identical later card wins)."""
        top = 7 * (card // 7) + 7
        return list(range(card, top))

    def outside_above(self, card: int) -> int:
        """Copies of ``card``'s suit at or above it that someone else may still hold."""
        return sum(self.unseen[i] for i in range(card, 7 * (card // 7) + 7))


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

        For each suit it sums the hand's best meld with that suit sunk and
        the hand's static danger (how many card points its high cards will
        drag in, less the value of sunk cards and short suits), and sinks
        the suit with the lowest total: the one that costs the fewest run
        points and neutralises the most dangerous holding.
        """
        counts = counts_of(hand)
        best: tuple[float, Suit, int] | None = None
        for suit in Suit:
            meld = _meld_total(hand, suit, rules)
            danger = _static_danger(counts, suit)
            cost = meld + danger
            if best is None or cost < best[0]:
                best = (cost, suit, meld)
        assert best is not None
        _, suit, meld = best
        danger = _static_danger(counts, suit)
        net = self.net_intercept + self.danger_weight * danger + self.meld_weight * meld
        return HandEstimate(suit, meld, danger, net, self.sigma)

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
        return [card for card in CARDS for _ in range(shown[card])]

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
            base = _meld_total(table, sunk, rules)
            own = _meld_total(hand, sunk, rules)
            best: tuple[int, tuple[Card, ...]] = (0, ())
            for size in range(1, left + 1):
                for chosen in set(combinations(pool, size)):
                    gain = _meld_total(table + list(chosen), sunk, rules) - base
                    if gain >= 0:
                        continue
                    rest = list(hand)
                    for card in chosen:
                        rest.remove(card)
                    worth = gain + _meld_total(rest, sunk, rules) - own
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
        rules = view.rules
        legal = [action.card for action in view.legal_actions if isinstance(action, PassCard)]
        own = _meld_total(hand, sunk, rules)
        suit_length = [0, 0, 0, 0]
        for card in hand:
            suit_length[card // 7] += 1
        best: tuple[float, Card] | None = None
        for card in legal:
            score = 0.0
            if keep_meld:
                rest = list(hand)
                rest.remove(card)
                score += 3.0 * (_meld_total(rest, sunk, rules) - own)
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
            if best is None or score < best[0]:
                best = (score, card)
        assert best is not None
        return best[1]

    def _bidder_pass(self, view: PlayerView, seat: Seat) -> Action:
        sunk = view.sunk_suit
        assert sunk is not None
        return PassCard(seat, self._spare(view, list(view.hand), sunk, keep_meld=False))

    # -- melding --------------------------------------------------------------

    def _declare(self, view: PlayerView, seat: Seat) -> Action:
        """Declare the best meld the hand allows, one meld per action, then done.

        The bidder's declaration is capped so that three cards stay unmelded
        (:func:`deepsix.best_meld` with ``max_melded``).  Meld only ever
        helps -- melded cards are still played -- so the bot always melds
        its best.
        """
        legal = view.legal_actions
        for meld in melds_to_complete_best(view):
            for action in legal:
                if isinstance(action, DeclareMeld) and action.meld == meld:
                    return action
        return Done(seat)

    # -- trick play -------------------------------------------------------------

    def _play(self, view: PlayerView) -> Card:
        """The card to play: the lowest expected cost over the trick and the rest of the hand.

        For every legal card the bot estimates, from the cards it has seen,
        the voids the others have shown and the melds they declared, how
        likely each later player is to be forced over the trick (a follower
        must win it if able), and how many points the others will shed on
        it (a player sheds 2s and 3s on a trick its opponents are winning).
        The cost of a card is the expected signed points of the trick (+ if
        the bot's partnership takes it, - if the opponents do), less the
        card's *liability*: what keeping it would cost later.  High plain
        cards are liabilities (they win tricks later), sunk cards are assets
        (safe discards, kept for later), and the last card of a plain suit
        is worth shedding (a void).  This yields the classic plays: shed
        point cards on the opponents' tricks, never win a trick with points
        when a losing card exists, lead high enough to force the next
        player over, and take an unavoidable trick with the highest card.
        """
        table = _Table(view)
        legal = [action.card for action in view.legal_actions if isinstance(action, PlayCard)]
        per_trick = table.points_left() / max(1, HAND_SIZE - table.done_tricks)
        lengths = [0, 0, 0, 0]
        for card in view.hand:
            lengths[card // 7] += 1
        best: tuple[float, Card] | None = None
        for card in legal:
            cost = self._trick_cost(table, card) - _liability(table, card, per_trick, lengths)
            if best is None or cost < best[0] - 1e-9:
                best = (cost, card)
        assert best is not None
        return best[1]

    def _trick_cost(self, table: _Table, card: Card) -> float:
        """Expected signed points of the trick for the bot's partnership after playing ``card``."""
        plays = [*table.trick, (table.seat, card)]
        cards = [c for _, c in plays]
        led = cards[0] // 7
        position = winning_position(cards, table.sunk)
        winner, top = plays[position]
        points = float(sum(CARD_POINTS[c] for c in cards))
        if table.last_trick:
            points += LAST_TRICK_BONUS
        remaining = [Seat((table.seat + k) & 3) for k in range(1, 5 - len(plays))]
        branch = _Branch(int(winner), int(top), top // 7 == led, points)
        return _settle(table, remaining, led, 0, branch)


class _Branch(NamedTuple):
    """One way the rest of a trick may go: who is winning it, with what, and its points so far."""

    winner: int
    top: int
    led_winning: bool
    points: float
    used: tuple[int, ...] = ()

    def shed(self, points: float) -> _Branch:
        """The same branch with ``points`` more in the trick."""
        return self._replace(points=self.points + points)


def _settle(table: _Table, remaining: list[Seat], led: int, index: int, branch: _Branch) -> float:  # noqa: PLR0911  # each way the trick can go ends differently
    """Expected signed points for ``table.seat``'s partnership over the rest of a trick.

    Each remaining player either is forced over the winning card (when the
    led suit is winning and they hold a higher card of it; they then play
    the lowest such card they might hold, preferring a non-point card) or
    plays freely, shedding points if the trick's current winner is an
    opponent of theirs.  A player void in a sunk suit that was led must
    introduce a suit, and so takes the trick.  ``branch.used`` lists the
    cards already assumed played on this branch.
    """
    if index == len(remaining):
        mine = (branch.winner & 1) == (table.seat & 1)
        return branch.points if mine else -branch.points
    seat = remaining[index]
    wants_to_shed = (branch.winner & 1) != (seat & 1)
    shed = table.dump_points(seat, led) if wants_to_shed else 0.0
    following = index + 1
    if not branch.led_winning:
        return _settle(table, remaining, led, following, branch.shed(shed))
    if table.voids[seat] >> led & 1:
        if led == table.sunk:
            taken = branch._replace(winner=seat, led_winning=False)
            return _settle(table, remaining, led, following, taken)
        return _settle(table, remaining, led, following, branch.shed(shed))
    top = branch.top
    over = table.holds_any(seat, table.higher(top))
    stay = _settle(table, remaining, led, following, branch.shed(shed))
    if over <= 0.0:
        return stay
    known = table.known[seat]
    used = branch.used
    candidates = [
        card
        for card in table.higher(top)
        if known[card] or table.unknown_cards[card] > used.count(card)
    ]
    if not candidates:
        return stay
    plain = [card for card in candidates if not CARD_POINTS[card]]
    card = plain[0] if plain else candidates[0]
    overtaken = _Branch(seat, card, True, branch.points + CARD_POINTS[card], (*used, card))
    return over * _settle(table, remaining, led, following, overtaken) + (1.0 - over) * stay


def _liability(table: _Table, card: Card, per_trick: float, lengths: Sequence[int]) -> float:
    """What keeping ``card`` for later tricks is expected to cost (negative: an asset)."""
    suit = card // 7
    points = CARD_POINTS[card]
    if suit == table.sunk:
        return -4.0 - 0.2 * points
    outside = table.outside_above(card)
    wins = 1.0 / (1.0 + outside)
    value = wins * (per_trick + points) - 0.3 * points
    if lengths[suit] == 1:
        value += 3.0
    return value


def failed_bid_risk(bid: int, mean: float, sigma: float, failed_score: int) -> float:
    """``E[(failed_score - bid - N) * 1{N > bid}]`` for a normal net ``N``.

    Failing a bid ``b`` records ``failed_score - b`` instead of the net ``N``;
    this is the expected extra cost of bidding ``b`` when ``N`` is normal
    with this mean and standard deviation (the heuristic's auction rule, and
    the search bot's).
    """
    alpha = (bid - mean) / sigma
    tail = 0.5 * math.erfc(alpha / math.sqrt(2.0))
    density = math.exp(-0.5 * alpha * alpha) / math.sqrt(2.0 * math.pi)
    return (failed_score - bid - mean) * tail - sigma * density


# -- registry and game driver -----------------------------------------------------
