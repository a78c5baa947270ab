"""Exhaustive proofs over the finite rule functions (issue 3, invariants 6, 7 and 9).

Each test enumerates a whole finite domain and compares the library with a
second, deliberately naive formulation written from the rules text
(:mod:`tests.checks`).  Domain sizes are asserted, so a test cannot quietly
check less than it claims.  The biggest variants run only in the deep run
(``nox -s verify``), see :data:`tests.support.strategies.deep_only`.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator

import pytest

from deepsix import (
    CARDS,
    DECK,
    Bid,
    Card,
    GameState,
    InvalidStateError,
    Pass,
    Phase,
    PlayOver,
    Rules,
    Seat,
    Suit,
    Team,
    Trick,
    apply,
    legal_actions,
    new_game,
    score_hand,
    shuffled_deal,
    trick_winner,
)
from deepsix.hands import pack
from deepsix.phases.auction import after_call, legal_calls
from deepsix.tricks import legal_plays, winning_position
from tests.support.checks import (
    assert_auction,
    naive_hand_scores,
    naive_legal_plays,
    naive_plays_over,
    naive_winning_position,
)
from tests.support.strategies import deep_only

SEATS = tuple(Seat)
SUITS = tuple(Suit)


# -- Invariant 7: who wins a trick ---------------------------------------------------


def all_tricks(length: int) -> Iterator[tuple[Card, ...]]:
    """Every ordered sequence of ``length`` cards the deck allows (no card more than twice)."""
    for cards in itertools.product(CARDS, repeat=length):
        if all(cards.count(card) <= 2 for card in cards):
            yield cards


def naive_winners_for_every_sunk_suit(cards: tuple[Card, ...]) -> list[int]:
    """The rules text's winner of ``cards`` for each sunk suit (clubs, diamonds, hearts, spades).

    The same three rules as :func:`tests.support.checks.naive_winning_position`,
    with the list of introduced suits built once per trick: the sunk suit
    is moved to the front, the last suit listed wins, highest rank first
    and the later of two identical cards higher.
    """
    introduced: list[Suit] = []
    for card in cards:
        if card.suit not in introduced:
            introduced.append(card.suit)
    winners = []
    for sunk in SUITS:
        order = [sunk, *(s for s in introduced if s != sunk)] if sunk in introduced else introduced
        winning_suit = order[-1]
        best = -1
        for position, card in enumerate(cards):
            if card.suit == winning_suit and (best < 0 or card.rank >= cards[best].rank):
                best = position
        winners.append(best)
    return winners


def test_trick_winner_exhaustive_over_every_trick() -> None:
    """Invariant 7: tricks -- ``trick_winner`` on all 611,604 ordered 4-card tricks × 4 sunk suits.

    Every ordered trick of the 28 distinct cards with at most two copies of
    any card (28^4 = 614,656 less the 3,052 with three or four copies of one
    card), for every sunk suit: 2,446,416 cases, each compared with the
    rules text's formulation (R-PLAY-4, R-PLAY-5, R-PLAY-6).
    """
    checked = 0
    for a in CARDS:
        for b in CARDS:
            for c in CARDS:
                for d in CARDS:
                    if (a == b and a in (c, d)) or (c == d and c in (a, b)):
                        continue
                    cards = (a, b, c, d)
                    plays = ((SEATS[0], a), (SEATS[1], b), (SEATS[2], c), (SEATS[3], d))
                    expected = naive_winners_for_every_sunk_suit(cards)
                    for sunk, position in zip(SUITS, expected, strict=True):
                        assert trick_winner(plays, sunk) is SEATS[position], (cards, sunk)
                    checked += 1
    assert checked == 28**4 - 28 - 4 * 28 * 27 == 611_604


def test_partial_trick_winner_exhaustive() -> None:
    """Invariant 7: tricks -- the winner so far of every 1-, 2- and 3-card trick × 4 sunk suits.

    ``winning_position`` also decides the play-over rule mid-trick, so it
    is checked on all 22,736 partial tricks (28 + 784 + 21,924) for every
    sunk suit, and on complete tricks led by each seat (R-PLAY-4..6).
    """
    checked = 0
    for length in (1, 2, 3):
        for cards in all_tricks(length):
            expected = naive_winners_for_every_sunk_suit(cards)
            for sunk, position in zip(SUITS, expected, strict=True):
                assert winning_position(cards, sunk) == position, (cards, sunk)
                assert naive_winning_position(cards, sunk) == position
            checked += 1
    assert checked == 28 + 28**2 + (28**3 - 28) == 22_736
    west_lead = [Card.parse(text) for text in ("6S", "2H", "5D", "6S")]
    led_by_west = [(SEATS[(3 + i) % 4], card) for i, card in enumerate(west_lead)]
    assert trick_winner(led_by_west, Suit.HEARTS) is Seat.EAST


@deep_only
def test_trick_winner_without_a_sunk_suit_exhaustive() -> None:
    """Invariant 7: tricks -- with no sunk suit, the last suit introduced wins (R-PLAY-4, R-PLAY-6).

    Deep run only: all 611,604 tricks once more, with ``sunk_suit=None``.
    """
    checked = 0
    for cards in all_tricks(4):
        plays = tuple(zip(SEATS, cards, strict=True))
        introduced = list(dict.fromkeys(card.suit for card in cards))
        last = introduced[-1]
        ranks = [card.rank if card.suit == last else 0 for card in cards]
        expected = max(range(4), key=lambda i: (ranks[i], i))
        assert trick_winner(plays, None) is SEATS[expected], cards
        checked += 1
    assert checked == 611_604


def test_trick_records() -> None:
    """R-PLAY-1, R-PLAY-4: a completed trick knows its leader, cards, points and winner; an empty
    trick has none (InvalidStateError)."""
    cards = [Card.parse(text) for text in ("6S", "8S", "2S", "5D")]
    plays = tuple(zip(SEATS, cards, strict=True))
    trick = Trick(plays, trick_winner(plays, Suit.HEARTS))
    assert trick.winner is Seat.WEST
    assert trick.leader is Seat.NORTH
    assert trick.cards == tuple(cards)
    assert trick.points == 20
    assert str(trick) == "N:6♠ E:8♠ S:2♠ W:5♦ -> W"
    with pytest.raises(InvalidStateError) as caught:
        trick_winner((), Suit.HEARTS)
    assert str(caught.value) == "an empty trick has no winner"


# -- Invariant 7: the follow / play-over rule ------------------------------------------


def _probe_cards(led: Suit, trick: tuple[Card, ...]) -> list[Card]:
    """One available card of each other suit: its 4, or its 5 if the trick holds both 4s."""
    probes = []
    for suit in SUITS:
        if suit == led:
            continue
        card = Card.of(4, suit) if trick.count(Card.of(4, suit)) < 2 else Card.of(5, suit)
        probes.append(card)
    return probes


HandShape = tuple[int, tuple[Card, ...], tuple[Card, ...], int]
"""(mask, the led-suit cards held once each, the whole hand, the hand packed)."""


@functools.cache
def _hand_shapes(
    led: Suit, available: tuple[int, ...], probes: tuple[Card, ...]
) -> list[HandShape]:
    """Every hand shape :func:`check_follow_rule` tries, built once per (led suit, copies left).

    Each subset of the led suit's seven cards that is still available (the
    mask's bits), one or two copies of each as the mask's parity says, with
    one probe card of every other suit beside it.
    """
    led_cards = [Card.of(rank, led) for rank in range(2, 9)]
    shapes: list[HandShape] = []
    for mask in range(128):
        chosen = [i for i in range(7) if mask >> i & 1]
        if any(not available[i] for i in chosen):
            continue
        hand = list(probes)
        for i in chosen:
            hand.extend([led_cards[i]] * min(available[i], 1 + (mask + i) % 2))
        shapes.append((mask, tuple(led_cards[i] for i in chosen), tuple(hand), pack(hand)))
    return shapes


def check_follow_rule(trick: tuple[Card, ...], sunk: Suit, play_over: PlayOver) -> int:
    """Compare ``legal_plays`` with the rules text on every hand shape for one partial trick.

    Hands: every subset of the led suit's seven cards that the trick leaves
    available (one or two copies, mixed), each with one card of every other
    suit beside it; and the void hand of those off-suit cards alone.  The
    expected answer is built from which led-suit cards "play over"
    (:func:`naive_plays_over`, computed once per trick), and checked against
    :func:`naive_legal_plays` on the whole hand for one subset in 16.
    Returns the number of hands checked.
    """
    led = trick[0].suit
    led_cards = [Card.of(rank, led) for rank in range(2, 9)]
    available = tuple(2 - trick.count(card) for card in led_cards)
    probes = tuple(_probe_cards(led, trick))
    over = {card for card in led_cards if naive_plays_over(card, trick, sunk, play_over)}
    checked = 0
    for mask, held, hand, packed in _hand_shapes(led, available, probes):
        got = legal_plays(packed, trick, sunk, play_over)
        if not held:
            expected = tuple(sorted(set(hand)))
        else:
            expected = tuple(card for card in held if card in over) or held
            if mask % 16 == 0:
                assert set(expected) == naive_legal_plays(list(hand), trick, sunk, play_over)
        assert got == expected, (trick, sunk, play_over, hand, got, expected)
        checked += 1
    return checked


def _follow_domain(length: int, sunk: Suit, play_over: PlayOver) -> tuple[int, int]:
    tricks = hands = 0
    for trick in all_tricks(length):
        hands += check_follow_rule(trick, sunk, play_over)
        tricks += 1
    return tricks, hands


@pytest.mark.parametrize("play_over", list(PlayOver))
def test_follow_rule_exhaustive_short_tricks(play_over: PlayOver) -> None:
    """Invariant 7: tricks -- follow and play-over rules, every 1- and 2-card trick × hand shape.

    For both meanings of "play over" (R-PLAY-3) and every sunk suit: every
    partial trick of one or two cards, against every subset of the led
    suit held (with off-suit cards beside it) and the void hand
    (R-PLAY-2): 812 tricks × 4 sunk suits, about 100 hand shapes each.
    """
    tricks = hands = 0
    for sunk in SUITS:
        for length in (1, 2):
            more_tricks, more_hands = _follow_domain(length, sunk, play_over)
            tricks += more_tricks
            hands += more_hands
    assert tricks == 4 * (28 + 28 * 28)
    assert hands > 300_000


@deep_only
@pytest.mark.parametrize("play_over", list(PlayOver))
@pytest.mark.parametrize("sunk", SUITS)
def test_follow_rule_exhaustive_three_card_tricks(sunk: Suit, play_over: PlayOver) -> None:
    """Invariant 7: tricks -- follow and play-over rules, every 3-card trick × hand shape.

    Deep run only: all 21,924 three-card partial tricks for this sunk suit
    and play-over variant, against every subset of the led suit held
    (R-PLAY-2, R-PLAY-3).
    """
    tricks, hands = _follow_domain(3, sunk, play_over)
    assert tricks == 28**3 - 28
    assert hands > 2_000_000


def test_follow_rule_examples_of_both_variants() -> None:
    """R-PLAY-3: the two meanings of "play over" differ when an off-suit card is winning.

    Led 5♠, then 4♦ (diamonds now win): under WIN_TRICK no spade can win, so
    any spade may be played; under BEAT_LED_SUIT she must beat the 5♠.
    """
    trick = (Card.parse("5S"), Card.parse("4D"))
    hand = pack([Card.parse(c) for c in ("3S", "7S", "8H")])
    assert legal_plays(hand, trick, Suit.HEARTS, PlayOver.WIN_TRICK) == (
        Card.parse("3S"),
        Card.parse("7S"),
    )
    assert legal_plays(hand, trick, Suit.HEARTS, PlayOver.BEAT_LED_SUIT) == (Card.parse("7S"),)


# -- Invariant 9: scoring ---------------------------------------------------------------

CARD_POINT_TOTALS = sorted(
    {
        twos * 20 + threes * 10 + last * 10
        for twos in range(9)
        for threes in range(9)
        for last in range(2)
    }
)
"""Every card-point total a team can take: any number of the eight 2s and eight 3s, with or
without the last trick -- computed, and equal to the multiples of 10 from 0 to 250."""

MELD_TOTALS = list(range(0, -411, -5))
"""A superset of every meld total a team can declare: the multiples of 5 (every meld
value is one) from 0 down to the largest partnership meld, -410, which
:mod:`tests.test_meld_optimality` proves is the maximum.  That module also
shows which of these totals are witnessed by real declarations."""


def _check_scores(rules: Rules, team: Team, bids: range, melds_other: list[int]) -> int:
    def for_teams(own: int, other: int) -> tuple[int, int]:
        return (own, other) if team == 0 else (other, own)

    meld_pairs = [for_teams(own, other) for own in MELD_TOTALS for other in melds_other]
    checked = 0
    for bid in bids:
        for points in CARD_POINT_TOTALS:
            card_points = for_teams(points, 250 - points)
            for melds in meld_pairs:
                outcome = score_hand(team, bid, card_points, melds, rules)
                expected = naive_hand_scores(rules, team, bid, card_points, melds)
                assert (outcome.net, outcome.scores, outcome.made) == expected, (
                    team,
                    bid,
                    card_points,
                    melds,
                )
                checked += 1
    return checked


def test_reachable_card_point_totals() -> None:
    """Invariant 9: scoring -- a team can take any multiple of 10 from 0 to 250 (R-SCORE-1)."""
    assert list(range(0, 251, 10)) == CARD_POINT_TOTALS
    assert sum(card.points for card in DECK) == 240


@pytest.mark.parametrize("team", list(Team))
def test_score_hand_exhaustive_bidding_team(team: Team) -> None:
    """Invariant 9: scoring -- every legal bid × card-point total × meld total of the bidding team.

    54 bids × 26 card-point totals × 83 meld totals of the bidding team,
    each against 3 meld totals of the other team (0, -205, -410), for this
    bidder team: 349,596 cases against the rules text (R-SCORE-2..4).
    """
    rules = Rules()
    checked = _check_scores(rules, team, rules.bid_amounts, [0, -205, -410])
    assert checked == 54 * 26 * 83 * 3


@deep_only
@pytest.mark.parametrize("team", list(Team))
def test_score_hand_exhaustive_full_domain(team: Team) -> None:
    """Invariant 9: scoring -- the whole domain: every bid × card points × both teams' meld totals.

    Deep run only: 54 × 26 × 83 × 83 = 9,672,156 cases for this bidder team
    (19,344,312 for both), against the rules text (R-SCORE-2..4).
    """
    rules = Rules()
    checked = _check_scores(rules, team, rules.bid_amounts, MELD_TOTALS)
    assert checked == 54 * 26 * 83 * 83


# -- Invariant 6: the auction ------------------------------------------------------------

LADDER_RULES = (
    Rules(lowest_bid=60),
    Rules(bid_step=40, opening_bid_limit=120, forced_bid=120, lowest_bid=-80),
    Rules(bid_step=30, opening_bid_limit=90, forced_bid=0, lowest_bid=-60, failed_bid_score=100),
)
"""Short bid ladders (7, 6 and 6 amounts), on which every auction can be enumerated."""


def naive_auctions(rules: Rules, dealer: Seat) -> set[tuple[Bid | Pass, ...]]:
    """Every complete auction, generated from the rules text's BIDDING section.

    "Bidding starts with the player to the left of the dealer. A player may
    bid, or pass. If they pass, they're out of the bidding for that hand.
    [...] bidding starts at 120, and goes down. Bids must be multiples of 10
    [...] If the first three players all pass, the dealer must bid 120."
    The auction is over when the other three have passed after a bid.
    """
    ladder = list(range(rules.opening_bid_limit, rules.lowest_bid - 1, -1))
    ladder = [amount for amount in ladder if amount % rules.bid_step == 0]
    done: set[tuple[Bid | Pass, ...]] = set()

    def extend(
        calls: tuple[Bid | Pass, ...], seat: Seat, out: frozenset[Seat], standing: int | None
    ) -> None:
        if standing is not None and len(out) == 3:
            done.add(calls)
            return
        if seat in out:
            extend(calls, seat.left, out, standing)
            return
        if standing is None and len(calls) == 3:
            extend((*calls, Bid(seat, rules.forced_bid)), seat.left, out, rules.forced_bid)
            return
        extend((*calls, Pass(seat)), seat.left, out | {seat}, standing)
        for amount in ladder:
            if standing is None or amount < standing:
                extend((*calls, Bid(seat, amount)), seat.left, out, amount)

    extend((), dealer.left, frozenset(), None)
    return done


def engine_auctions(rules: Rules, dealer: Seat) -> tuple[set[tuple[Bid | Pass, ...]], int]:
    """Every complete auction the engine allows, by walking ``legal_actions`` from a deal."""
    start = apply(new_game(rules, dealer), shuffled_deal(1))
    found: set[tuple[Bid | Pass, ...]] = set()
    nodes = 0
    stack: list[GameState] = [start]
    while stack:
        state = stack.pop()
        nodes += 1
        if state.phase is not Phase.BIDDING:
            assert state.phase is Phase.SUNK_SUIT
            assert state.bidder is not None
            assert state.to_act == state.bidder
            found.add(state.bids)
            continue
        legal = legal_actions(state)
        assert state.to_act is not None
        assert legal == legal_calls(rules, state.bids, state.to_act, state.bid)
        stack.extend(apply(state, call) for call in legal)
    return found, nodes


@pytest.mark.parametrize("rules", LADDER_RULES)
def test_every_auction_on_short_ladders(rules: Rules) -> None:
    """Invariant 6: auction -- every auction on a short ladder, every dealer, through the engine.

    The engine's complete auctions are exactly those generated from the
    rules text; each has a bidder, strictly decreasing multiples of the
    step within [floor, opening limit], and the forced dealer bid exactly
    when the first three pass (R-BID-1..8).
    """
    for dealer in SEATS:
        found, nodes = engine_auctions(rules, dealer)
        assert found == naive_auctions(rules, dealer)
        for calls in found:
            assert_auction(rules, dealer, calls)
        assert nodes > len(found) > 100


@pytest.mark.parametrize("step", [5, 10, 15, 20, 30, 40])
def test_bid_ladder_for_every_step(step: int) -> None:
    """Invariant 6: auction -- the bids on offer are exactly the multiples of the step from the
    opening limit (or just below the standing bid) down to the floor (R-BID-3..6).

    Every standing bid on the ladder is tried, for steps down to the
    smallest allowed (5), where an off-by-one in the ladder's end would show.
    """
    rules = Rules(
        bid_step=step, opening_bid_limit=120, forced_bid=120, lowest_bid=-step * (6 + 60 // step)
    )
    ladder = [amount for amount in range(-600, 601) if amount % step == 0]
    for standing in (None, *rules.bid_amounts):
        offered = legal_calls(rules, (), Seat.NORTH, standing)
        assert offered[0] == Pass(Seat.NORTH)
        ceiling = rules.opening_bid_limit if standing is None else standing - 1
        expected = [
            Bid(Seat.NORTH, amount)
            for amount in reversed(ladder)
            if rules.lowest_bid <= amount <= ceiling
        ]
        assert list(offered[1:]) == expected


def test_forced_bid_only_after_three_passes() -> None:
    """Invariant 6: auction -- after three passes the dealer's only call is 120 (R-BID-7)."""
    rules = Rules()
    for dealer in SEATS:
        state = apply(new_game(rules, dealer), shuffled_deal(int(dealer)))
        for _ in range(3):
            state = apply(state, Pass(state.to_act))
        assert state.to_act == dealer
        assert legal_actions(state) == (Bid(dealer, 120),)
        state = apply(state, Bid(dealer, 120))
        assert state.phase is Phase.SUNK_SUIT
        assert state.bidder == dealer
        assert state.bid == 120


def test_auction_step_records_the_outcome() -> None:
    """Invariant 6: auction -- it ends when three have passed after a bid (R-BID-8)."""
    rules = Rules()
    calls: tuple[Bid | Pass, ...] = ()
    bidder: Seat | None = None
    bid: int | None = None
    sequence: list[Bid | Pass] = [
        Bid(Seat.EAST, 120),
        Pass(Seat.SOUTH),
        Bid(Seat.WEST, -410),
        Pass(Seat.NORTH),
    ]
    next_seats = [Seat.SOUTH, Seat.WEST, Seat.NORTH, Seat.EAST]  # passed seats are skipped
    for call, expected in zip(sequence, next_seats, strict=True):
        assert call in legal_calls(rules, calls, call.seat, bid)
        step = after_call(calls, bidder, bid, call)
        calls, bidder, bid = step.bids, step.bidder, step.bid
        assert step.finished is False
        assert step.next_seat == expected
    assert legal_calls(rules, calls, Seat.EAST, bid) == (Pass(Seat.EAST),), (
        "nothing below the floor"
    )
    step = after_call(calls, bidder, bid, Pass(Seat.EAST))
    assert step.finished is True
    assert step.bidder == Seat.WEST
    assert step.bid == -410
    assert step.next_seat == Seat.WEST
