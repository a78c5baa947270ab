"""The heuristic's card play: a one-trick look-ahead over the holdings a seat can infer.

:func:`lowest_cost_card` is how :class:`~deepsix.HeuristicBot` plays a
card.  From what the seat knows (:class:`~deepsix.table.SeatKnowledge`: the
cards it has seen, the voids the others have shown, the melds they
declared, the cards passed) it estimates, for each legal card, how the rest
of the trick is likely to go and what keeping the card would cost later,
and plays the cheapest.
"""

from __future__ import annotations

from collections.abc import Sequence

from deepsix.actions import PlayCard
from deepsix.cards import CARD_POINTS, HAND_SIZE, Card, Seat
from deepsix.scoring import LAST_TRICK_BONUS
from deepsix.table import SeatKnowledge
from deepsix.tricks import winning_position
from deepsix.views import PlayerView

__all__ = ["card_costs", "lowest_cost_card"]


class _Inference:
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
        knowledge = SeatKnowledge.of(view)
        self.seat = seat
        self.sunk = int(sunk)
        self.trick = view.trick
        self.led = view.trick[0][1] // 7 if view.trick else -1
        self.done_tricks = len(view.tricks)
        self.last_trick = len(view.tricks) == HAND_SIZE - 1
        self.mine = knowledge.hand
        self.unseen = knowledge.unseen
        known = knowledge.known()
        self.known = known
        self.unknown_cards = [self.unseen[i] - sum(row[i] for row in known) for i in range(28)]
        self.voids = [sum(1 << suit for suit in suits) for suits in knowledge.voids]
        self.unknown = knowledge.unknown_counts(known)

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


def lowest_cost_card(view: PlayerView) -> Card:
    """The card to play: the lowest expected cost over the trick and the rest of the hand.

    For every legal card it estimates, from the cards it has seen,
    the voids the others have shown and the melds they declared, how
    likely each later player is to be forced over the trick (a follower
    must win it if able), and how many points the others will shed on
    it (a player sheds 2s and 3s on a trick its opponents are winning).
    The cost of a card is the expected signed points of the trick (+ if
    the seat's partnership takes it, - if the opponents do), less the
    card's *liability*: what keeping it would cost later.  High plain
    cards are liabilities (they win tricks later), sunk cards are assets
    (safe discards, kept for later), and the last card of a plain suit
    is worth shedding (a void).  This yields the classic plays: shed
    point cards on the opponents' tricks, never win a trick with points
    when a losing card exists, lead high enough to force the next
    player over, and take an unavoidable trick with the highest card.
    """
    best: tuple[float, Card] | None = None
    for cost, card in card_costs(view):
        if best is None or cost < best[0] - 1e-9:
            best = (cost, card)
    assert best is not None
    return best[1]


def card_costs(view: PlayerView) -> list[tuple[float, Card]]:
    """Every legal card with its expected cost (lower is better), in the order of
    ``view.legal_actions``: what :func:`lowest_cost_card` minimises.

    The search bot reads it to choose which cards are worth searching.
    """
    table = _Inference(view)
    legal = [action.card for action in view.legal_actions if isinstance(action, PlayCard)]
    per_trick = table.points_left() / max(1, HAND_SIZE - table.done_tricks)
    lengths = [0, 0, 0, 0]
    for card in view.hand:
        lengths[card // 7] += 1
    return [
        (_trick_cost(table, card) - _liability(table, card, per_trick, lengths), card)
        for card in legal
    ]


def _trick_cost(table: _Inference, card: Card) -> float:
    """Expected signed points of the trick for the seat's partnership after playing ``card``."""
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


class _Branch:
    """One way the rest of a trick may go: who is winning it, with what, its points so far
    and the cards already assumed played on it (a value: never changed once made)."""

    __slots__ = ("led_winning", "points", "top", "used", "winner")

    def __init__(
        self, winner: int, top: int, led_winning: bool, points: float, used: tuple[int, ...] = ()
    ) -> None:
        self.winner = winner
        self.top = top
        self.led_winning = led_winning
        self.points = points
        self.used = used

    def shed(self, points: float) -> _Branch:
        """The same branch with ``points`` more in the trick."""
        return _Branch(self.winner, self.top, self.led_winning, self.points + points, self.used)

    def taken_by(self, seat: int) -> _Branch:
        """The same branch, the trick taken by ``seat`` with a card of another suit."""
        return _Branch(seat, self.top, False, self.points, self.used)


def _settle(  # noqa: PLR0911  # each way the trick can go ends differently
    table: _Inference, remaining: list[Seat], led: int, index: int, branch: _Branch
) -> float:
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
            return _settle(table, remaining, led, following, branch.taken_by(seat))
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


def _liability(table: _Inference, card: Card, per_trick: float, lengths: Sequence[int]) -> float:
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
