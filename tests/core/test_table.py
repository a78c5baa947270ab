"""The public facts (voids, absent cards, known holdings, team meld) follow from public plays."""

from __future__ import annotations

import random
from collections import Counter

import attrs
from hypothesis import given, settings

from deepsix import (
    CARDS,
    Card,
    GameState,
    Meld,
    MeldKind,
    Phase,
    PlayOver,
    Seat,
    Suit,
    Team,
    apply,
    new_game,
    shuffled_deal,
    view,
)
from deepsix.hands import counts, counts_of
from deepsix.table import (
    Plays,
    SeatKnowledge,
    absent_cards,
    known_holdings,
    played_counts,
    plays_by_trick,
    team_meld,
    tricks_taken,
    voids,
)
from tests.support.strategies import choose_action, examples, reachable_states


def _plays(state: GameState) -> list[Plays]:
    return plays_by_trick(state.tricks, state.trick)


@given(reachable_states())
@settings(max_examples=examples(ci=60, deep=600))
def test_absent_cards_are_really_absent(state: GameState) -> None:
    """R-PLAY-2, R-PLAY-3: what a seat's plays prove it lacks, it does not hold."""
    if state.setup.sunk_suit is None:
        return
    absent = absent_cards(_plays(state), state.setup.sunk_suit, state.rules.play_over)
    for seat in Seat:
        held = set(state.hand(seat))
        assert not held & absent[seat], (seat, held & absent[seat])
        # A void is a whole suit absent.
        for suit in voids(_plays(state))[seat]:
            assert {card for card in absent[seat] if card.suit == suit} == {
                Card.of(rank, suit) for rank in range(2, 9)
            }


@given(reachable_states())
@settings(max_examples=examples(ci=60, deep=600))
def test_known_holdings_are_held(state: GameState) -> None:
    """Melded cards not yet played are in their owner's hand."""
    known = known_holdings(state.setup.melds, _plays(state), sharing=state.rules.meld_sharing)
    for seat in Seat:
        hand = counts(state.packed_hands[seat])
        assert all(k <= h for k, h in zip(known[seat], hand, strict=True)), seat
    if not state.rules.meld_sharing:  # each meld holds its own copies, all known
        for seat in Seat:
            needed = Counter(card for meld in state.setup.melds[seat] for card in meld.cards)
            for plays in _plays(state):
                needed.subtract(card for who, card in plays if who == seat)
            assert known[seat] == [max(0, needed[CARDS[i]]) for i in range(28)]


@given(reachable_states())
@settings(max_examples=examples(ci=40, deep=400))
def test_views_and_states_agree_on_public_facts(state: GameState) -> None:
    public = view(state, None)
    assert public.team_meld == state.team_meld == team_meld(state.setup.melds)
    assert public.tricks_taken == state.tricks_taken == tricks_taken(state.tricks)
    played = played_counts(_plays(state))
    assert sum(map(sum, played)) == 4 * len(state.tricks) + len(state.trick)
    # Each completed trick counts once, for the team of the seat that took it.
    taken = Counter(trick.winner.team for trick in state.tricks)
    assert public.tricks_taken == (taken[Team.NORTH_SOUTH], taken[Team.EAST_WEST])


def test_known_holdings_share_copies_across_families_only_with_sharing() -> None:
    """An eights wide and a deep echo of eights in spades: with sharing they may use the same
    8S copies (two known), without it each needs its own (three), less what was played."""
    melds = ((Meld(MeldKind.EIGHTS_WIDE), Meld(MeldKind.DEEP_ECHO, Suit.SPADES)), (), (), ())
    eight = Card("8S")
    assert known_holdings(melds, [], sharing=True)[Seat.NORTH][eight] == 2
    assert known_holdings(melds, [], sharing=False)[Seat.NORTH][eight] == 3
    played = [((Seat.NORTH, eight), (Seat.EAST, Card("2S")))]
    assert known_holdings(melds, played, sharing=False)[Seat.NORTH][eight] == 2


def test_a_follower_who_does_not_play_over_holds_nothing_higher() -> None:
    plays: list[Plays]
    # 6S led, 8S played over it; a follower who then plays the 2S cannot hold the other 8S
    # (it would have had to play over under the default rule) ...
    plays = [((Seat.NORTH, Card("6S")), (Seat.EAST, Card("8S")), (Seat.SOUTH, Card("2S")))]
    absent = absent_cards(plays, Suit.HEARTS, PlayOver.WIN_TRICK)
    assert absent[Seat.SOUTH] == {Card("8S")}
    # ... and under the variant (beat the led suit's highest card) also nothing above the 8S.
    assert absent_cards(plays, Suit.HEARTS, PlayOver.BEAT_LED_SUIT)[Seat.SOUTH] == {Card("8S")}
    # 6S led, 5D introduced (it wins the trick so far), then the 2S: under the default rule
    # nothing beat-able is in play, so the 2S proves nothing; under the variant the led
    # suit's 6S still had to be beaten, so the follower holds no 6S, 7S or 8S.
    plays = [((Seat.NORTH, Card("6S")), (Seat.EAST, Card("5D")), (Seat.SOUTH, Card("2S")))]
    assert absent_cards(plays, Suit.HEARTS, PlayOver.WIN_TRICK)[Seat.SOUTH] == frozenset()
    assert absent_cards(plays, Suit.HEARTS, PlayOver.BEAT_LED_SUIT)[Seat.SOUTH] == {
        Card("6S"),
        Card("7S"),
        Card("8S"),
    }
    # A player who shows out of the led suit holds none of it.
    plays = [((Seat.NORTH, Card("6S")), (Seat.EAST, Card("5D")), (Seat.SOUTH, Card("5S")))]
    assert absent_cards(plays, Suit.HEARTS, PlayOver.WIN_TRICK)[Seat.EAST] == {
        Card.of(rank, Suit.SPADES) for rank in range(2, 9)
    }
    assert voids(plays)[Seat.EAST] == {Suit.SPADES}


def test_team_meld_adds_partners() -> None:
    wide, echo = Meld(MeldKind.EIGHTS_WIDE), Meld(MeldKind.DEEP_ECHO, Suit.SPADES)
    assert team_meld(((wide,), (), (echo,), (wide, echo))) == (-50, -50)


@given(reachable_states())
@settings(max_examples=examples(ci=60, deep=600))
def test_what_a_seat_knows_is_true(state: GameState) -> None:
    """SeatKnowledge never claims more than the state holds: the known copies are in the
    named hands, the unseen copies are exactly those in the other hands or passes in
    flight, and the counts it cannot place add up to the cards it has not placed."""
    hands = [counts(packed) for packed in state.packed_hands]
    for seat in (None, *Seat):
        knowledge = SeatKnowledge.of(view(state, seat))
        known = knowledge.known()
        elsewhere = [0] * 28
        for other in Seat:
            if other != seat:
                for i in range(28):
                    elsewhere[i] += hands[other][i]
                assert all(k <= h for k, h in zip(known[other], hands[other], strict=True))
                # ... and every copy it knows of, from a meld still in that hand or from
                # the passes, it places there.
                for i in range(28):
                    assert known[other][i] >= knowledge.melded[other][i]
                    assert known[other][i] >= knowledge.passed[other][i]
        mine = hands[seat] if seat is not None else [0] * 28
        assert list(knowledge.hand) == mine
        if seat is not None:  # it places no card of its own in the table of the others'
            assert known[seat] == [0] * 28
        in_flight = counts_of(
            state.setup.partner_pass
            if state.phase is Phase.PARTNER_PASS
            else state.setup.bidder_pass
            if state.phase is Phase.BIDDER_PASS
            else ()
        )
        for i in range(28):
            # the copies it has not seen are those in other hands or in a pass in flight
            # (before the deal, every copy)
            dealt = state.phase is not Phase.DEAL
            assert knowledge.unseen[i] == (elsewhere[i] + in_flight[i] if dealt else 2)
        assert knowledge.voids == view(state, seat).voids
        assert knowledge.unknown_counts() == knowledge.unknown_counts(known)
        unknown = knowledge.unknown_counts(known)
        for other in Seat:
            if other == seat:
                assert unknown[other] == 0
            else:
                assert unknown[other] == len(state.hand(other)) - sum(known[other])
        assert knowledge.absent(state.setup.sunk_suit, state.rules.play_over) == absent_cards(
            _plays(state), state.setup.sunk_suit, state.rules.play_over
        )


def test_the_passer_knows_what_the_bidder_kept() -> None:
    """The bidder's partner knows the bidder holds the passed cards she did not send back or
    play; the bidder knows her partner holds what she passed back and has not played -- each
    once that pass has arrived: a pass in flight, or one coming back part of the way, proves
    nothing.  Checked at every step of whole hands."""
    rng = random.Random(4)
    for _ in range(3):
        state = apply(new_game(), shuffled_deal(rng))
        hand = state.hand_number
        while state.hand_number == hand and not state.is_over:
            state = apply(state, choose_action(rng, state, "cautious"))
            bidder = state.setup.bidder
            if bidder is None or state.phase is Phase.DEAL:
                continue
            partner, k = bidder.partner, state.rules.pass_size
            to_bidder = counts_of(state.setup.partner_pass)
            back = counts_of(state.setup.bidder_pass)
            played = played_counts(_plays(state))
            there = len(state.setup.partner_pass) == k
            home = len(state.setup.bidder_pass) in (0, k)
            kept = [0] * 28
            if there and home:
                kept = [max(0, to_bidder[i] - back[i] - played[bidder][i]) for i in range(28)]
            returned = [0] * 28
            if len(state.setup.bidder_pass) == k:
                returned = [max(0, back[i] - played[partner][i]) for i in range(28)]
            assert list(SeatKnowledge.of(view(state, partner)).passed[bidder]) == kept
            assert list(SeatKnowledge.of(view(state, bidder)).passed[partner]) == returned
            other = SeatKnowledge.of(view(state, Seat((bidder + 1) % 4)))
            assert not any(map(any, other.passed))


def test_a_view_no_state_has_places_no_copy_of_the_card_in_question() -> None:
    """Known copies of a card that outnumber its unseen copies (a forged or broken view) are
    placed nowhere; as many known copies as unseen ones are all placed, whoever holds them."""
    state = apply(new_game(), shuffled_deal(2))
    public = SeatKnowledge.of(view(state, None))
    card = 5
    assert public.unseen[card] == 2
    for holder in Seat:  # both copies melded by one seat: consistent, placed there
        melded = tuple(
            tuple(2 if (seat, i) == (holder, card) else 0 for i in range(28)) for seat in Seat
        )
        known = attrs.evolve(public, melded=melded).known()
        assert [row[card] for row in known] == [2 if seat == holder else 0 for seat in Seat]
    for missing in Seat:  # three copies known, only two unseen: placed nowhere
        melded = tuple(
            tuple(1 if i == card and seat != missing else 0 for i in range(28)) for seat in Seat
        )
        known = attrs.evolve(public, melded=melded).known()
        assert [row[card] for row in known] == [0, 0, 0, 0]
        assert public.unknown_counts([[0] * 28] * 4) == list(public.hand_sizes)
