"""The engine, phase by phase, through each ruling of the rules issue."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deepsix import (
    Bid,
    Card,
    Deal,
    DeclareMeld,
    Done,
    GameState,
    IllegalActionError,
    Meld,
    NameSunkSuit,
    Pass,
    PassCard,
    Phase,
    PlayCard,
    Reason,
    Rules,
    Seat,
    ShowCard,
    Suit,
    apply,
    best_meld,
    legal,
    legal_actions,
    new_game,
    shuffled_deal,
)
from deepsix.cards import DECK
from deepsix.errors import NotAnActionError, ParseError, WrongTypeError
from deepsix.hands import HIGH_BITS, LOW_BITS, SUIT_MASK
from tests.support.scenarios import FORTRESS, auction_won_by_north, play_script
from tests.support.strategies import examples

N, E, S, W = Seat


def reason_of(state: GameState, action: object) -> Reason:
    with pytest.raises(IllegalActionError) as info:
        apply(state, action)  # type: ignore[call-overload]  # deliberately wrong inputs
    return info.value.reason


# -- R-DEAL ------------------------------------------------------------------


def test_deal_is_a_chance_step() -> None:
    """R-DEAL-1: the deal is an explicit chance step; 14 cards each."""
    state = new_game()
    assert state.is_chance
    assert state.to_act is None
    assert legal_actions(state) == ()
    assert reason_of(state, Pass(E)) is Reason.CHANCE_STEP
    dealt = apply(state, shuffled_deal(1))
    assert [len(hand) for hand in dealt.hands] == [14, 14, 14, 14]
    assert not dealt.is_chance


def test_deal_must_be_the_whole_deck() -> None:
    """R-DEAL-1, R-DECK-1: a deal hands out the 56-card deck, each card twice."""
    cards = list(shuffled_deal(3).cards)
    cards[0] = cards[1] if cards[0] != cards[1] else cards[2]
    assert reason_of(new_game(), Deal(cards)) is Reason.BAD_DEAL
    assert reason_of(new_game(), Deal(cards[:55])) is Reason.BAD_DEAL


def test_same_seed_same_deal() -> None:
    """R-DEAL-1: shuffled_deal is deterministic for a seed and for a Random."""
    assert shuffled_deal(42) == shuffled_deal(42)
    assert shuffled_deal(random.Random(42)) == shuffled_deal(42)
    assert shuffled_deal(42) != shuffled_deal(43)


def test_deal_action_outside_deal_phase() -> None:
    """R-DEAL-1: cards are dealt only at the start of a hand."""
    state = apply(new_game(), shuffled_deal(1))
    assert reason_of(state, shuffled_deal(2)) is Reason.NOT_CHANCE_STEP


def test_dealer_rotates_clockwise() -> None:
    """R-DEAL-2: the deal passes one seat clockwise after each hand."""
    rng = random.Random(11)
    rules = Rules(target_score=10_000)
    state = new_game(rules, dealer=S)
    dealers: list[Seat] = []
    while len(dealers) < 5:
        if state.is_chance:
            dealers.append(state.dealer)
            state = apply(state, shuffled_deal(rng))
        else:
            state = apply(state, rng.choice(legal_actions(state)))
    assert dealers == [S, W, N, E, S]


# -- R-BID ---------------------------------------------------------------------


def test_auction_starts_left_of_dealer() -> None:
    """R-BID-1: the auction begins on the dealer's left."""
    for dealer in Seat:
        state = apply(new_game(dealer=dealer), shuffled_deal(5))
        assert state.phase is Phase.BIDDING
        assert state.to_act == dealer.left


def test_pass_is_final_and_order_skips_passed_seats() -> None:
    """R-BID-2: a pass is final for the hand; the turn skips passed seats."""
    state = apply(new_game(dealer=N), shuffled_deal(5))
    state = play_script(state, [Bid(E, 100), Pass(S), Bid(W, 90), Bid(N, 80), Bid(E, 70)])
    assert state.to_act == W  # South passed and is skipped
    assert reason_of(state, Bid(S, 60)) is Reason.NOT_YOUR_TURN


def test_bid_amount_rules() -> None:
    """R-BID-3 to R-BID-6: multiples of 10, at most 120, strictly lower, not below the floor."""
    state = apply(new_game(dealer=N), shuffled_deal(5))
    assert reason_of(state, Bid(E, 125)) is Reason.BID_NOT_MULTIPLE
    assert reason_of(state, Bid(E, 130)) is Reason.BID_ABOVE_OPENING
    assert reason_of(state, Bid(E, Rules().lowest_bid - 10)) is Reason.BID_BELOW_FLOOR
    state = apply(state, Bid(E, 50))
    assert reason_of(state, Bid(S, 50)) is Reason.BID_NOT_LOWER
    assert reason_of(state, Bid(S, 60)) is Reason.BID_NOT_LOWER
    jumped = apply(state, Bid(S, -200))  # jumps and negative bids are fine
    assert jumped.bid == -200
    assert jumped.bidder == S


def test_legal_bids_are_exactly_the_range() -> None:
    """R-BID-3 to R-BID-6: the legal calls are a pass and every multiple of 10 below the bid."""
    state = apply(new_game(dealer=N), shuffled_deal(5))
    calls = legal_actions(state)
    assert calls[0] == Pass(E)
    amounts = [call.amount for call in calls[1:] if isinstance(call, Bid)]
    assert amounts == list(range(120, Rules().lowest_bid - 1, -10))
    state = apply(state, Bid(E, 0))
    amounts = [call.amount for call in legal_actions(state) if isinstance(call, Bid)]
    assert amounts == list(range(-10, Rules().lowest_bid - 1, -10))


def test_floor_bid_leaves_only_passes() -> None:
    """R-BID-6: after a bid at the floor nobody can bid lower; the others pass."""
    floor = Rules().lowest_bid
    state = apply(new_game(dealer=N), shuffled_deal(5))
    state = apply(state, Bid(E, floor))
    assert legal_actions(state) == (Pass(S),)


def test_dealer_forced_to_bid_after_three_passes() -> None:
    """R-BID-7: if the first three pass, the dealer's only call is 120."""
    state = apply(new_game(dealer=N), shuffled_deal(5))
    state = play_script(state, [Pass(E), Pass(S), Pass(W)])
    assert state.to_act == N
    assert legal_actions(state) == (Bid(N, 120),)
    assert reason_of(state, Pass(N)) is Reason.DEALER_MUST_BID
    assert reason_of(state, Bid(N, 110)) is Reason.DEALER_MUST_BID
    state = apply(state, Bid(N, 120))
    assert state.phase is Phase.SUNK_SUIT
    assert state.bidder == N
    assert state.bid == 120


def test_forced_bid_is_a_rules_parameter() -> None:
    """R-BID-7: the forced amount is Rules.forced_bid."""
    state = apply(new_game(Rules(forced_bid=90), dealer=N), shuffled_deal(5))
    state = play_script(state, [Pass(E), Pass(S), Pass(W)])
    assert legal_actions(state) == (Bid(N, 90),)


def test_auction_ends_when_three_pass_after_a_bid() -> None:
    """R-BID-8: the auction ends when the other three have passed after a bid."""
    state = apply(new_game(dealer=N), shuffled_deal(5))
    state = play_script(state, [Bid(E, 100), Bid(S, 60), Pass(W), Bid(N, -20), Pass(E)])
    assert state.phase is Phase.BIDDING
    state = apply(state, Pass(S))
    assert state.phase is Phase.SUNK_SUIT
    assert (state.bidder, state.bid, state.to_act) == (N, -20, N)
    assert len(state.bids) == 6


# -- R-SUNK, R-INVITE ----------------------------------------------------------


def test_bidder_names_any_suit() -> None:
    """R-SUNK-1: the bid winner names any of the four suits."""
    state = auction_won_by_north()
    assert legal_actions(state) == tuple(NameSunkSuit(N, suit) for suit in Suit)
    assert reason_of(state, NameSunkSuit(E, Suit.CLUBS)) is Reason.NOT_YOUR_TURN
    assert apply(state, NameSunkSuit(N, Suit.HEARTS)).sunk_suit is Suit.HEARTS


def test_invitation_shows_only_meldable_cards() -> None:
    """R-INVITE-1, R-INVITE-2: the bidder may show meldable cards, none or many."""
    state = apply(auction_won_by_north(), NameSunkSuit(N, Suit.SPADES))
    shown = {a.card for a in legal_actions(state) if isinstance(a, ShowCard)}
    # Spades are sunk: 4♠ and 5♠ could only be in a spade run, so they cannot be shown;
    # 6s-8s always can (echoes, wides); 2s and 3s never.
    assert shown == {Card(c) for c in ("8S", "7S", "6S", "8H", "8D", "8C", "7H")}
    assert reason_of(state, ShowCard(N, Card("5S"))) is Reason.NOT_MELDABLE
    assert reason_of(state, ShowCard(N, Card("2C"))) is Reason.NOT_MELDABLE
    assert reason_of(state, ShowCard(N, Card("7D"))) is Reason.CARD_NOT_IN_HAND
    # Both copies of 8♠ may be shown, not a third.
    state = play_script(state, [ShowCard(N, Card("8S")), ShowCard(N, Card("8S"))])
    assert reason_of(state, ShowCard(N, Card("8S"))) is Reason.CARD_NOT_IN_HAND
    assert state.invitation == (Card("8S"), Card("8S"))
    state = apply(state, Done(N))
    assert state.phase is Phase.PARTNER_PASS
    assert state.to_act == S


def test_empty_invitation_is_fine() -> None:
    """R-INVITE-1: showing nothing is allowed."""
    state = apply(auction_won_by_north(), NameSunkSuit(N, Suit.HEARTS))
    assert Done(N) in legal_actions(state)
    assert apply(state, Done(N)).invitation == ()


# -- R-PASS, R-MELD ------------------------------------------------------------


def to_partner_pass() -> GameState:
    state = apply(auction_won_by_north(), NameSunkSuit(N, Suit.HEARTS))
    return apply(state, Done(N))


def test_partner_passes_three_cards_in_flight() -> None:
    """R-PASS-1: the partner passes exactly three cards; the bidder gets them at once."""
    state = play_script(
        to_partner_pass(),
        [PassCard(S, Card("8C")), PassCard(S, Card("7C"))],
    )
    assert state.phase is Phase.PARTNER_PASS
    assert len(state.hand(N)) == 14  # nothing arrives until all three are passed
    assert len(state.hand(S)) == 12
    assert state.setup.partner_pass == (Card("8C"), Card("7C"))
    assert reason_of(state, PassCard(S, Card("8S"))) is Reason.CARD_NOT_IN_HAND
    state = apply(state, PassCard(S, Card("7C")))
    assert state.phase is Phase.BIDDER_MELD
    assert state.to_act == N
    assert len(state.hand(N)) == 17
    assert len(state.hand(S)) == 11


def bidder_melding() -> GameState:
    return play_script(
        to_partner_pass(),
        [PassCard(S, Card("8C")), PassCard(S, Card("6C")), PassCard(S, Card("6C"))],
    )


def test_bidder_melds_from_seventeen_keeping_three() -> None:
    """R-MELD-4: the bidder melds from 17 cards but keeps at least three unmelded."""
    state = bidder_melding()
    hand = state.hand(N)
    best = best_meld(hand, Suit.HEARTS, max_melded=14)
    for meld in best:
        state = apply(state, DeclareMeld(N, meld))
    assert state.melds[N] == best
    # Whatever is still declarable keeps three cards free.
    for action in legal_actions(state):
        if isinstance(action, DeclareMeld):
            after = apply(state, action)
            assert after.phase is Phase.BIDDER_MELD


def test_bidder_cap_refuses_a_meld_that_leaves_too_few() -> None:
    """R-MELD-4: a meld that would leave fewer than three cards unmelded is refused."""
    state = play_script(
        to_partner_pass(),
        [PassCard(S, Card("7C")), PassCard(S, Card("7C")), PassCard(S, Card("7D"))],
    )
    # North holds 17: 8♠8♠7♠7♠6♠6♠5♠4♠ 8♥ 8♦ 8♣ 7♥ 7♣7♣ 7♦ 2♣ 3♣.
    for code in ("GR-S", "DR-S", "8W", "SE-C"):  # 8 spades, 8♥ 8♦ 8♣, 7♣ 7♣: 13 tied up
        state = apply(state, DeclareMeld(N, Meld.parse(code)))
    # Sevens wide would tie up 7♦ and 7♥ as well: 15 of 17, leaving two.  Refused.
    assert reason_of(state, DeclareMeld(N, Meld.parse("7W"))) is Reason.TOO_FEW_UNMELDED
    declarable = {a.meld.code for a in legal_actions(state) if isinstance(a, DeclareMeld)}
    assert declarable == {"DE-S", "SE-S", "MT-S"}  # these reuse tied-up copies
    # Without the cap (any other seat) the same hand could meld sevens wide.
    assert best_meld(state.hand(N), Suit.HEARTS) != best_meld(
        state.hand(N), Suit.HEARTS, max_melded=14
    )


def test_run_in_sunk_suit_refused() -> None:
    """R-MELD-2: no run in the sunk suit."""
    state = play_script(
        apply(auction_won_by_north(), NameSunkSuit(N, Suit.SPADES)),
        [Done(N), PassCard(S, Card("8C")), PassCard(S, Card("6C")), PassCard(S, Card("6C"))],
    )
    assert reason_of(state, DeclareMeld(N, Meld.parse("GR-S"))) is Reason.RUN_IN_SUNK_SUIT
    codes = {a.meld.code for a in legal_actions(state) if isinstance(a, DeclareMeld)}
    assert not any(code.endswith("R-S") for code in codes)
    assert "DE-S" in codes  # echoes in the sunk suit are fine


def test_sharing_rule_one_meld_per_family() -> None:
    """R-MELD-3: a copy serves one meld per family, and melds of different families."""
    state = bidder_melding()
    state = apply(state, DeclareMeld(N, Meld.parse("DE-S")))
    # The same 8♠ copies may also serve in runs (another family) ...
    state = apply(state, DeclareMeld(N, Meld.parse("GR-S")))
    state = apply(state, DeclareMeld(N, Meld.parse("DR-S")))
    # ... but a third spade run would need a third copy of 8♠, 7♠ and 6♠.
    assert reason_of(state, DeclareMeld(N, Meld.parse("DR-S"))) is Reason.MELD_UNAVAILABLE
    # and an echo can be declared only once per pair.
    assert reason_of(state, DeclareMeld(N, Meld.parse("DE-S"))) is Reason.MELD_UNAVAILABLE


def test_no_sharing_variant() -> None:
    """R-MELD-3 (variant): with meld_sharing off, a copy serves one meld in all."""
    rules = Rules(meld_sharing=False)
    state = play_script(
        auction_won_by_north(rules),
        [
            NameSunkSuit(N, Suit.HEARTS),
            Done(N),
            PassCard(S, Card("8C")),
            PassCard(S, Card("6C")),
            PassCard(S, Card("6C")),
            DeclareMeld(N, Meld.parse("DE-S")),
        ],
    )
    # Both 8♠ copies are in the echo, so no spade run (which needs an 8♠) remains.
    assert reason_of(state, DeclareMeld(N, Meld.parse("DR-S"))) is Reason.MELD_UNAVAILABLE
    assert reason_of(state, DeclareMeld(N, Meld.parse("8W"))) is Reason.MELD_UNAVAILABLE
    assert DeclareMeld(N, Meld.parse("SR-S")) in legal_actions(state)


def test_bidder_passes_back_unmelded_only() -> None:
    """R-PASS-2: the bidder passes back exactly three cards, none of them melded."""
    state = bidder_melding()
    state = apply(state, DeclareMeld(N, Meld.parse("DE-S")))
    state = apply(state, Done(N))
    assert state.phase is Phase.BIDDER_PASS
    assert reason_of(state, PassCard(N, Card("8S"))) is Reason.CARD_MELDED
    givable = {a.card for a in legal_actions(state) if isinstance(a, PassCard)}
    assert Card("8S") not in givable
    assert Card("7S") in givable
    state = play_script(
        state, [PassCard(N, Card("2C")), PassCard(N, Card("3C")), PassCard(N, Card("7H"))]
    )
    assert state.phase is Phase.MELDING
    assert [len(hand) for hand in state.hands] == [14, 14, 14, 14]
    assert Card("2C") in state.hand(S)


def test_others_meld_clockwise_from_bidders_left() -> None:
    """R-MELD-5: the others declare in turn from the bidder's left; then the bidder leads."""
    state = bidder_melding()
    state = play_script(
        state,
        [Done(N), PassCard(N, Card("2C")), PassCard(N, Card("3C")), PassCard(N, Card("7H"))],
    )
    order = []
    while state.phase is Phase.MELDING:
        order.append(state.to_act)
        state = apply(state, Done(state.to_act))
    assert order == [E, S, W]
    assert state.phase is Phase.PLAY
    assert state.to_act == N  # R-PLAY-1


def test_partial_declaration_allowed() -> None:
    """R-MELD-5: declaring is optional and may be partial."""
    state = bidder_melding()
    state = play_script(
        state,
        [Done(N), PassCard(N, Card("2C")), PassCard(N, Card("3C")), PassCard(N, Card("7H"))],
    )
    assert state.to_act == E
    options = [a for a in legal_actions(state) if isinstance(a, DeclareMeld)]
    assert options == [DeclareMeld(E, Meld.parse("MT-H"))]  # East's pair of 6♥
    state = apply(state, Done(E))
    assert state.melds[E] == ()


def test_wrong_phase_and_wrong_seat() -> None:
    """R-PHASE-1, R-TURN-1: actions must fit the phase and come from the seat to act."""
    state = auction_won_by_north()
    assert reason_of(state, PlayCard(N, Card("8S"))) is Reason.WRONG_PHASE
    assert reason_of(state, NameSunkSuit(S, Suit.CLUBS)) is Reason.NOT_YOUR_TURN
    with pytest.raises(NotAnActionError) as caught:  # a type error, not a move
        apply(state, "N plays 8S")  # type: ignore[call-overload]  # deliberately wrong input
    assert caught.value.reason is Reason.UNKNOWN_ACTION


def test_fortress_deal_is_dealt_as_written() -> None:
    """R-DEAL-1: Deal gives seat s the cards at positions 14s..14s+13."""
    state = apply(new_game(), FORTRESS)
    assert state.hand(N) == FORTRESS.hand(N)
    assert sorted(card for hand in state.hands for card in hand) == sorted(FORTRESS.cards)


def test_shuffled_deals_are_random_shuffles() -> None:
    """``shuffled_deal`` shuffles exactly as ``random.Random.shuffle`` does (its own loop runs
    compiled in the compiled build), and defers to the shuffle of a subclass."""
    for seed in range(200):
        deck = list(DECK)
        random.Random(seed).shuffle(deck)
        assert list(shuffled_deal(seed).cards) == deck

    class Reversed(random.Random):
        def shuffle(self, x: Any, *args: Any) -> None:
            x.reverse()

    assert list(shuffled_deal(Reversed(0)).cards) == list(reversed(DECK))


@settings(max_examples=examples(ci=200, deep=2000))
@given(st.integers(0, (1 << 56) - 1), st.integers(0, 3), st.integers(0, 6))
def test_card_actions_by_scan_and_by_cache_agree(bits: int, suit: int, rank: int) -> None:
    """Both ways of listing a seat's card actions (one per build) give the same tuples."""
    packed = bits & ~((bits & HIGH_BITS) >> 1 & bits & LOW_BITS)  # no card three times
    for actions in (legal.PLAYS[0], legal.GIVES[2], legal.SHOWS[3]):
        cached = (
            actions._suit(0, packed & SUIT_MASK)[0]
            + actions._suit(1, (packed >> 14) & SUIT_MASK)[0]
            + actions._suit(2, (packed >> 28) & SUIT_MASK)[0]
            + actions._suit(3, packed >> 42)[0]
        )
        assert tuple(actions.scan(packed, 0, 28)) == cached == tuple(actions.all(packed))
        lowest = 7 * suit + rank
        in_suit = actions._suit(suit, (packed >> (14 * suit)) & SUIT_MASK)
        expected = tuple(a for a, card in zip(*in_suit, strict=True) if card >= lowest)
        assert tuple(actions.scan(packed, lowest, 7 * suit + 7)) == expected
        if in_suit[1]:  # the engine asks only for a suit the seat holds
            assert tuple(actions.suit_from(packed, suit, lowest)) == expected


# -- the calls themselves ------------------------------------------------------------------------


def test_apply_as_a_seat_names_the_sender_and_its_action() -> None:
    """R-TURN-1: a front end acting for a seat may send only that seat's actions; the refusal
    names who sent what; the sender is a Seat, its number or its letter, anything else is
    refused as such."""
    state = new_game().apply(shuffled_deal(7))
    with pytest.raises(IllegalActionError) as caught:
        apply(state, Pass(E), seat=W)
    assert caught.value.reason is Reason.NOT_YOUR_SEAT
    assert caught.value.detail == f"{W} sent {Pass(E)}"
    assert caught.value.action == Pass(E)
    assert apply(state, Pass(E), seat=1) == apply(state, Pass(E), seat="E") == apply(state, Pass(E))
    for sender in (4, "X", True, None.__class__):
        with pytest.raises(ParseError, match=r"^seat must be a Seat, not "):
            apply(state, Pass(E), seat=sender)  # type: ignore[arg-type]  # deliberately wrong
    assert apply(state, Pass(E), seat=E) == apply(state, Pass(E))
    with pytest.raises(NotAnActionError) as not_an_action:
        apply(state, "E passes", seat=E)  # type: ignore[call-overload]  # deliberately not an action
    assert not_an_action.value.action == "E passes"
    assert "read text with deepsix.parse_action" in str(not_an_action.value)


@pytest.mark.parametrize("value", [None, "state", 7])
def test_the_calls_need_a_state(value: object) -> None:
    """A value that is not a state is refused with a typed error naming the call and the type."""
    kind = type(value).__name__
    with pytest.raises(WrongTypeError, match=rf"^legal_actions\(\) needs a GameState, not {kind}$"):
        legal_actions(value)  # type: ignore[call-overload]  # deliberately wrong
    with pytest.raises(WrongTypeError, match=rf"^apply\(\) needs a GameState, not {kind}$"):
        apply(value, Pass(E))  # type: ignore[call-overload]  # deliberately wrong


@pytest.mark.parametrize("seed", ["7", 7.0, True, (7,)])
def test_a_deal_needs_a_seed_or_a_generator(seed: object) -> None:
    """shuffled_deal takes an int, a random.Random or None; anything else (a bool too) is
    refused with a typed error naming what was given."""
    kind = type(seed).__name__
    with pytest.raises(
        WrongTypeError,
        match=rf"^shuffled_deal\(\) needs an int, a random\.Random or None, not {kind}$",
    ):
        shuffled_deal(seed)  # type: ignore[call-overload]  # deliberately wrong


def test_a_new_game_takes_rules_and_a_dealer_seat() -> None:
    """new_game takes a Rules (or None for the defaults) and a dealer: a Seat, its number 0 to 3
    or its letter; anything else is refused with the library's ParseError, naming it."""
    assert new_game(dealer=3).dealer is W
    assert new_game(dealer=0).dealer is N
    assert new_game(None, E).rules == Rules()
    assert new_game(dealer="w").dealer is W
    for dealer in (4, -1, "Q", 1.0, None):
        with pytest.raises(ParseError, match=r"^dealer must be a Seat, not "):
            new_game(dealer=dealer)  # type: ignore[arg-type]  # deliberately wrong
    with pytest.raises(ParseError, match=r"^rules must be a Rules, not dict$"):
        new_game({})  # type: ignore[arg-type]  # deliberately wrong
