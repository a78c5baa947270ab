"""Per-seat views (issue 6): what each seat sees, and that nothing hidden leaks."""

from __future__ import annotations

import json
import random
from collections import Counter

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deepsix import (
    Card,
    GameState,
    ParseError,
    Phase,
    PlayerView,
    Seat,
    Team,
    legal_actions,
    public_view,
    sample_state,
    to_json,
    validate,
    view,
)
from deepsix.errors import WrongTypeError
from deepsix.hands import pack
from tests.support.games import game_states, one_state_per_phase
from tests.support.strategies import examples, reachable_states, scaled_examples

PHASES = one_state_per_phase()
VIEWERS = (None, *Seat)


def seen_by(state: GameState, seat: Seat | None) -> Counter[Card]:
    """The card copies ``seat`` has seen in ``state`` (its hand, the table, its passes)."""
    seen: Counter[Card] = Counter()
    if seat is not None:
        seen.update(state.hand(seat))
        bidder = state.bidder
        if bidder is not None and seat in (bidder, bidder.partner):
            seen.update(state.setup.partner_pass)
            seen.update(state.setup.bidder_pass)
    seen.update(state.setup.invitation)
    seen.update(card for _, card in state.trick)
    for trick in state.tricks:
        seen.update(trick.cards)
    return seen


def json_cards(text: str) -> set[str]:
    """Every card string anywhere in a JSON document."""
    found: set[str] = set()

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
        elif (
            isinstance(node, str) and len(node) == 2 and node[0] in "2345678" and node[1] in "CDHS"
        ):
            found.add(node)

    walk(json.loads(text))
    return found


# -- the no-leak property ----------------------------------------------------------------------


def hidden_swaps(state: GameState, seat: Seat | None, rng: random.Random) -> list[GameState]:
    """Valid states that differ from ``state`` only in cards hidden from ``seat``.

    Two cards are swapped between the hands of two other seats; the swap is
    kept when the result is a valid state (so the cards' public traces -- voids,
    melds, the invitation, passes -- stay consistent).
    """
    others = [s for s in Seat if s != seat]
    twins = []
    base = attrs.evolve(state, log=None)
    for _ in range(12):
        a, b = rng.sample(others, 2)
        hand_a, hand_b = state.hand(a), state.hand(b)
        if not hand_a or not hand_b:
            break
        x, y = rng.choice(hand_a), rng.choice(hand_b)
        if x == y:
            continue
        hands = list(state.packed_hands)
        hands[a] += pack([y]) - pack([x])
        hands[b] += pack([x]) - pack([y])
        twin = attrs.evolve(base, packed_hands=(hands[0], hands[1], hands[2], hands[3]))
        try:
            validate(twin)
        except ValueError:
            continue
        twins.append(twin)
    return twins


@given(reachable_states(max_steps=400), st.sampled_from(VIEWERS), st.randoms(use_true_random=False))
@settings(max_examples=examples(ci=30, deep=500))
def test_no_leak_under_swaps_of_hidden_cards(
    state: GameState, seat: Seat | None, rng: random.Random
) -> None:
    mine = view(attrs.evolve(state, log=None), seat)
    for twin in hidden_swaps(state, seat, rng):
        assert twin != attrs.evolve(state, log=None)
        assert view(twin, seat) == mine
        assert to_json(view(twin, seat)) == to_json(mine)


def test_swapped_twins_exist_in_every_phase_with_cards() -> None:
    rng = random.Random(9)
    for phase, state in PHASES.items():
        if phase in (Phase.DEAL, Phase.GAME_OVER):
            continue
        for seat in VIEWERS:
            twins = hidden_swaps(state, seat, rng)
            assert twins, (phase, seat)
            assert all(view(twin, seat) == view(state, seat) for twin in twins)


@given(reachable_states(max_steps=400), st.sampled_from(VIEWERS), st.randoms(use_true_random=False))
@settings(max_examples=examples(ci=30, deep=500))
def test_no_leak_across_every_hidden_difference(
    state: GameState, seat: Seat | None, rng: random.Random
) -> None:
    # A sampled state differs from the real one in everything the seat cannot see
    # (other hands, unseen passes, the deal): the seat's view is the same.
    mine = view(state, seat)
    other = sample_state(mine, rng)
    assert view(other, seat) == mine
    assert to_json(view(other, seat)) == to_json(mine)


@given(reachable_states(max_steps=400), st.sampled_from(VIEWERS))
@settings(max_examples=scaled_examples(2))
def test_view_json_holds_no_hidden_card(state: GameState, seat: Seat | None) -> None:
    text = to_json(view(state, seat))
    visible = {card.ascii for card in seen_by(state, seat)}
    assert json_cards(text) <= visible
    assert "packed" not in text
    assert "history" not in text


def test_the_views_of_a_whole_game() -> None:
    for state in game_states()[::3]:
        for seat in VIEWERS:
            mine = view(state, seat)
            assert mine.hand == (() if seat is None else state.hand(seat))
            assert mine.hand_sizes == tuple(len(hand) for hand in state.hands)
            assert json_cards(to_json(mine)) <= {c.ascii for c in seen_by(state, seat)}


# -- legal actions ------------------------------------------------------------------------------


@given(reachable_states(max_steps=600), st.sampled_from(VIEWERS))
@settings(max_examples=scaled_examples(2))
def test_view_legal_actions_are_the_seats_legal_actions(
    state: GameState, seat: Seat | None
) -> None:
    mine = view(state, seat)
    if seat is not None and state.to_act == seat:
        assert mine.legal_actions == legal_actions(state)
        assert mine.is_my_turn
    else:
        assert mine.legal_actions == ()
        assert not mine.is_my_turn


# -- what each seat sees of the passes -------------------------------------------------------------


def test_passes_are_seen_by_the_partners_only() -> None:
    states = game_states()
    for state in states:
        bidder = state.bidder
        if bidder is None or state.phase in (Phase.BIDDING, Phase.DEAL):
            continue
        partner = bidder.partner
        for seat in Seat:
            mine = view(state, seat)
            if seat == partner:
                assert mine.passed == state.setup.partner_pass
                complete = len(state.setup.bidder_pass) == state.rules.pass_size
                assert mine.received == (state.setup.bidder_pass if complete else ())
            elif seat == bidder:
                assert mine.passed == state.setup.bidder_pass
                complete = len(state.setup.partner_pass) == state.rules.pass_size
                assert mine.received == (state.setup.partner_pass if complete else ())
            else:
                assert mine.passed == mine.received == ()
            assert mine.pass_counts == (len(state.setup.partner_pass), len(state.setup.bidder_pass))


def test_in_flight_cards_are_not_seen_by_the_receiver() -> None:
    state = PHASES[Phase.PARTNER_PASS]
    bidder = state.bidder
    assert bidder is not None
    partner_pass = state.setup.partner_pass
    after = state.apply(legal_actions(state)[0])
    assert view(after, bidder).received == ()
    assert len(view(after, bidder.partner).passed) == len(partner_pass) + 1


def test_spectator_view() -> None:
    for state in PHASES.values():
        spectator = public_view(state)
        assert spectator.seat is None
        assert spectator.is_spectator
        assert spectator.hand == spectator.passed == spectator.received == ()
        assert spectator.legal_actions == ()
        assert spectator.team is None
        assert spectator.partner is None


# -- derived facts -------------------------------------------------------------------------------


def test_derived_properties_match_the_state() -> None:
    for state in game_states():
        mine = view(state, Seat.SOUTH)
        assert mine.tricks_taken == state.tricks_taken
        assert mine.card_points == state.card_points
        assert mine.team_meld == state.team_meld
        assert mine.team is Team.NORTH_SOUTH
        assert mine.partner is Seat.NORTH
        assert mine.is_over == state.is_over
        assert mine.is_chance == state.is_chance
        assert mine.bidding_team == (None if state.bidder is None else state.bidder.team)
        assert mine.winner == state.winner


def test_voids_are_the_failures_to_follow_suit() -> None:
    for state in game_states():
        if state.phase is not Phase.PLAY:
            continue
        voids = view(state, None).voids
        for seat in Seat:
            for suit in voids[seat]:
                assert all(card.suit != suit for card in state.hand(seat))


def test_view_takes_a_seat_number() -> None:
    state = PHASES[Phase.PLAY]
    assert view(state, 2) == view(state, Seat.SOUTH)
    assert type(view(state, 2).seat) is Seat


def test_view_and_hand_take_the_seat_notation() -> None:
    """A person writes ``S``: ``view(state, "S")`` and ``state.hand("S")`` read it."""
    state = PHASES[Phase.PLAY]
    assert view(state, "S") == view(state, "south") == view(state, Seat.SOUTH)
    assert state.hand("S") == state.hand(2) == state.hand(Seat.SOUTH)
    with pytest.raises(ParseError, match="'Q' is not a seat"):
        state.hand("Q")
    with pytest.raises(WrongTypeError, match="None is not a seat"):
        state.hand(None)  # type: ignore[arg-type]  # the point is the wrong type


@pytest.mark.parametrize("seat", [4, -1, True, "Q", 2.0])
def test_view_rejects_what_is_not_a_seat(seat: object) -> None:
    """Text or an int that is not a seat is a ParseError (a ValueError); another type a
    WrongTypeError."""
    with pytest.raises(ParseError if type(seat) in (int, str) else WrongTypeError):
        view(PHASES[Phase.PLAY], seat)  # type: ignore[arg-type]  # the point is the wrong type


def test_view_rejects_what_is_not_a_state() -> None:
    with pytest.raises(WrongTypeError):
        view("state", Seat.NORTH)  # type: ignore[arg-type]  # the point is the wrong type


def test_views_are_frozen_values() -> None:
    mine = view(PHASES[Phase.PLAY], Seat.EAST)
    assert isinstance(mine, PlayerView)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        mine.hand = ()  # type: ignore[misc]  # the point is that it is frozen
    assert hash(mine) == hash(view(PHASES[Phase.PLAY], Seat.EAST))


def test_a_view_shows_the_public_facts_as_the_state_has_them() -> None:
    """Whatever is public -- the deal's order, the auction, the table, the scores -- every
    viewer sees as it is; only the hands differ between viewers, as counts for the others."""
    for state in game_states():
        setup = state.setup
        for seat in VIEWERS:
            seen = view(state, seat)
            assert seen.rules == state.rules
            assert (seen.dealer, seen.phase, seen.to_act) == (
                state.dealer,
                state.phase,
                state.to_act,
            )
            assert seen.hand_number == state.hand_number
            assert (seen.scores, seen.completed_hands) == (state.scores, state.completed_hands)
            assert (seen.bids, seen.bidder, seen.bid) == (setup.bids, setup.bidder, setup.bid)
            assert (seen.sunk_suit, seen.invitation) == (setup.sunk_suit, setup.invitation)
            assert (seen.melds, seen.trick, seen.tricks) == (setup.melds, state.trick, state.tricks)
            assert seen.hand_sizes == tuple(len(state.hand(other)) for other in Seat)
            assert seen.hand == (() if seat is None else tuple(sorted(state.hand(seat))))
            # ... and the seat to act, and only that seat, sees its legal actions.
            if seat is not None and seat == state.to_act:
                assert seen.legal_actions == legal_actions(state)
            else:
                assert seen.legal_actions == ()


def test_refusals_name_what_was_given() -> None:
    state = PHASES[Phase.PLAY]
    with pytest.raises(WrongTypeError, match="needs a GameState, not str"):
        view("state", Seat.NORTH)  # type: ignore[arg-type]  # the point is the wrong type
    with pytest.raises(ParseError, match="'Q' is not a seat"):
        view(state, "Q")
    with pytest.raises(WrongTypeError, match=r"2\.5 is not a seat"):
        view(state, 2.5)  # type: ignore[arg-type]  # the point is the wrong type
    with pytest.raises(ParseError, match="7 is not a seat"):
        view(state, 7)
