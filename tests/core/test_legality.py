"""Legality is exact (issue 3, invariant 4).

``apply(s, a)`` succeeds if and only if ``a`` is in ``legal_actions(s)``; an
illegal action raises :class:`IllegalActionError` carrying a :class:`Reason`
that names a rule the action really breaks, and leaves ``s`` unchanged (equal,
same hash) and still usable.  Legality is judged a second time, from the
rules, by :func:`tests.support.checks.naive_violations`.
"""

from __future__ import annotations

import pickle
import random
from collections import Counter
from typing import cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deepsix import (
    DECK,
    RULEBOOK,
    Action,
    Bid,
    Card,
    Deal,
    DeclareMeld,
    DeepSixError,
    Done,
    GameState,
    IllegalActionError,
    Meld,
    MeldKind,
    NameSunkSuit,
    Pass,
    PassCard,
    Phase,
    Reason,
    Seat,
    ShowCard,
    Suit,
    apply,
    legal_actions,
    new_game,
    parse_cards,
    shuffled_deal,
)
from deepsix.errors import NotAnActionError
from tests.support.checks import naive_can_show, naive_violations
from tests.support.strategies import (
    GameSpec,
    action_universe,
    examples,
    game_specs,
    illegal_actions,
    reachable_states,
)


def _assert_rejected(
    state: GameState, action: object, *, compare: bool = True
) -> IllegalActionError:
    """Apply an illegal action; check the error and (with ``compare``) that ``state`` is untouched.

    Callers that try many actions on one state pass ``compare=False`` and
    compare the state with a snapshot once at the end.
    """
    snapshot = pickle.loads(pickle.dumps(state)) if compare else state
    with pytest.raises(IllegalActionError) as caught:
        apply(state, cast("Action", action))
    error = caught.value
    assert isinstance(error, DeepSixError)
    assert isinstance(error, ValueError)
    assert isinstance(error.reason, Reason)
    assert error.rule == error.reason.rule
    assert error.rule in RULEBOOK
    assert str(error).startswith(f"{error.rule}: {error.reason.description}")
    assert isinstance(error.detail, str), "the error explains itself"
    assert error.detail in str(error)
    assert error.action is action
    assert state == snapshot
    assert hash(state) == hash(snapshot)
    assert legal_actions(state) == legal_actions(snapshot)
    return error


@given(game_specs(max_steps=700), st.sampled_from(tuple(Phase)), st.randoms(use_true_random=False))
@settings(max_examples=examples(ci=60, deep=500))
def test_apply_succeeds_iff_action_is_legal(
    spec: GameSpec, phase: Phase, rng: random.Random
) -> None:
    """Invariant 4: legality is exact -- over every action of every type for every seat.

    A reachable state is picked from a random game prefix, in a drawn phase
    when the prefix visits it (so every phase is checked equally often).
    Each candidate of :func:`action_universe` (bids on and off the ladder,
    every card, suit and meld, a good and a bad deal) is applied: it
    succeeds exactly when it is in ``legal_actions`` (at a chance step,
    exactly when it is a deal of the whole deck), exactly when the
    rules-text oracle finds no violation, and otherwise raises with a
    reason the oracle names.  Every legal action is in the universe.
    """
    states = spec.states()
    in_phase = [state for state in states if state.phase is phase]
    state = rng.choice(in_phase) if in_phase else states[-1]
    snapshot = pickle.loads(pickle.dumps(state))
    legal = legal_actions(state)
    universe = action_universe(state)
    assert set(legal) <= set(universe)
    assert len(set(legal)) == len(legal), "legal actions are listed once each"
    for action in universe:
        violations = naive_violations(state, action)
        if action in legal or (state.is_chance and isinstance(action, Deal) and not violations):
            assert not violations, f"{action} is listed legal but breaks {violations}"
            after = apply(state, action)
            assert after != state
            assert after.log is not None
            assert after.log.action == action
        else:
            assert violations, f"{action} is not listed legal but the rules allow it in {state!r}"
            error = _assert_rejected(state, action, compare=False)
            assert error.reason in violations, f"{action}: {error.reason} not in {violations}"
    assert state == snapshot
    assert hash(state) == hash(snapshot)
    assert legal_actions(state) == legal_actions(snapshot)


@given(st.data(), reachable_states(max_steps=900))
@settings(max_examples=examples(ci=60, deep=500))
def test_illegal_action_leaves_state_unchanged_and_usable(
    data: st.DataObject, state: GameState
) -> None:
    """Invariant 4: legality is exact -- rejection leaves the state equal, same hash, usable.

    After several rejected attempts the state still accepts a legal action
    and gives the same successor as a pristine copy of it does.
    """
    snapshot = pickle.loads(pickle.dumps(state))
    for _ in range(data.draw(st.integers(1, 5))):
        _assert_rejected(state, data.draw(illegal_actions(state)))
    if state.is_over:
        return
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1)))
    action = shuffled_deal(rng) if state.is_chance else rng.choice(legal_actions(state))
    assert apply(state, action) == apply(snapshot, action)


@given(reachable_states(max_steps=900), st.sampled_from([None, 7, "N plays 7S", (Seat.NORTH,)]))
@settings(max_examples=examples(ci=60, deep=500))
def test_values_that_are_not_actions_are_rejected(state: GameState, junk: object) -> None:
    """Invariant 4: legality is exact -- values that are not actions are rejected (R-PHASE-1),
    as a type error that cites no rule, and the state is untouched."""
    snapshot = pickle.loads(pickle.dumps(state))
    with pytest.raises(NotAnActionError) as caught:
        apply(state, cast("Action", junk))
    error = caught.value
    assert isinstance(error, TypeError)
    assert not isinstance(error, IllegalActionError | ValueError)  # a type error, not a move
    assert error.reason is Reason.UNKNOWN_ACTION
    assert error.action is junk
    assert not str(error).startswith("R-")
    assert state == snapshot


@given(st.randoms(use_true_random=False))
def test_any_ordering_of_the_deck_is_a_deal(rng: random.Random) -> None:
    """Invariant 4: legality is exact -- a deal is legal iff it holds the whole deck (R-DEAL-1)."""
    state = new_game()
    cards = list(DECK)
    rng.shuffle(cards)
    dealt = apply(state, Deal(cards))
    assert [len(hand) for hand in dealt.hands] == [14, 14, 14, 14]
    assert dealt.phase is Phase.BIDDING
    assert dealt.to_act == Seat.EAST
    short = Deal(cards[:-1])
    assert _assert_rejected(state, short).reason is Reason.BAD_DEAL
    position = rng.randrange(56)
    other = next(card for card in DECK if card != cards[position])
    wrong = Deal([*cards[:position], other, *cards[position + 1 :]])
    assert _assert_rejected(state, wrong).reason is Reason.BAD_DEAL
    assert _assert_rejected(dealt, Deal(cards)).reason is Reason.NOT_CHANCE_STEP


def _deal_giving(north: str, south: str) -> Deal:
    """A deal with the given cards for North and South, the rest of the deck to East and West."""
    north_cards, south_cards = parse_cards(north), parse_cards(south)
    rest = Counter(DECK) - Counter(north_cards) - Counter(south_cards)
    others = sorted(rest.elements())
    assert len(north_cards) == len(south_cards) == 14
    assert len(others) == 28
    return Deal([*north_cards, *others[:14], *south_cards, *others[14:]])


def _bidder_meld_state(sunk: Suit = Suit.CLUBS) -> GameState:
    """North wins the auction at 120 with two full spade runs; South passes her 6♥ 6♥ 5♥."""
    deal = _deal_giving(
        "8S 8S 7S 7S 6S 6S 5S 5S 4S 4S 8H 8H 7H 7H",
        "6H 6H 5H 2C 2C 3C 3C 2D 2D 3D 3D 4C 4C 5C",
    )
    state = apply(new_game(dealer=Seat.WEST), deal)
    steps: list[Action] = [
        Bid(Seat.NORTH, 120),
        Pass(Seat.EAST),
        Pass(Seat.SOUTH),
        Pass(Seat.WEST),
        NameSunkSuit(Seat.NORTH, sunk),
        Done(Seat.NORTH),
        *(PassCard(Seat.SOUTH, Card.parse(text)) for text in ("6H", "6H", "5H")),
    ]
    for action in steps:
        state = apply(state, action)
    assert state.phase is Phase.BIDDER_MELD
    assert len(state.hand(Seat.NORTH)) == 17
    return state


def test_bidder_must_keep_cards_to_pass() -> None:
    """R-MELD-4: the bidder melds from 17 cards but must keep three unmelded (TOO_FEW_UNMELDED).

    Two grand runs in spades tie up 10 copies; a deep run in hearts makes
    13; a second one would make 16 > 14 and is refused, though she holds
    the cards.  Melded cards then cannot be passed back (R-PASS-2).
    """
    state = _bidder_meld_state()
    north = Seat.NORTH
    for meld in ("GR-S", "GR-S", "DR-H"):
        state = apply(state, DeclareMeld(north, Meld.parse(meld)))
    second = DeclareMeld(north, Meld(MeldKind.DEEP_RUN, Suit.HEARTS))
    assert second not in legal_actions(state)
    assert _assert_rejected(state, second).reason is Reason.TOO_FEW_UNMELDED
    echo = DeclareMeld(north, Meld(MeldKind.DEEP_ECHO, Suit.SPADES))
    assert echo in legal_actions(state), "with sharing an echo reuses the run's copies"
    state = apply(state, Done(north))
    assert state.phase is Phase.BIDDER_PASS
    gives = {action.card for action in legal_actions(state) if isinstance(action, PassCard)}
    assert gives == set(parse_cards("8H 7H 6H 5H")), "only unmelded copies may be passed"
    melded = PassCard(north, Card.parse("4S"))
    assert _assert_rejected(state, melded).reason is Reason.CARD_MELDED


def test_run_in_sunk_suit_is_refused() -> None:
    """R-MELD-2: a run may not be melded in the sunk suit, whatever the cards (RUN_IN_SUNK_SUIT)."""
    state = _bidder_meld_state()
    sunk_run = DeclareMeld(Seat.NORTH, Meld(MeldKind.GRAND_RUN, Suit.CLUBS))
    assert _assert_rejected(state, sunk_run).reason in {
        Reason.RUN_IN_SUNK_SUIT,
        Reason.MELD_UNAVAILABLE,
    }
    state = _bidder_meld_state(Suit.SPADES)
    grand = DeclareMeld(Seat.NORTH, Meld(MeldKind.GRAND_RUN, Suit.SPADES))
    assert _assert_rejected(state, grand).reason is Reason.RUN_IN_SUNK_SUIT
    echo = DeclareMeld(Seat.NORTH, Meld(MeldKind.DEEP_ECHO, Suit.SPADES))
    assert echo in legal_actions(state), "echoes may use the sunk suit"


def test_game_over_rejects_every_action() -> None:
    """R-END-1: once the game is over no action is legal (GAME_OVER)."""
    spec = GameSpec(new_game().rules, Seat.NORTH, 11, "uniform", 20_000)
    state = spec.final()
    assert state.is_over
    assert not legal_actions(state)
    for action in action_universe(state)[::7]:
        assert _assert_rejected(state, action, compare=False).reason is Reason.GAME_OVER


def _auction_positions() -> list[GameState]:
    """Auction states: the opening call after 0, 1 and 2 passes, the forced dealer, and
    standing bids of 120, 50, 0, -400 and the floor, -410."""
    positions = []
    for passes in range(4):
        state = apply(new_game(dealer=Seat.WEST), shuffled_deal(passes))
        for _ in range(passes):
            assert state.to_act is not None
            state = apply(state, Pass(state.to_act))
        positions.append(state)
    for standing in (120, 50, 0, -400, -410):
        state = apply(new_game(dealer=Seat.WEST), shuffled_deal(standing))
        state = apply(state, Bid(Seat.NORTH, standing))
        positions.append(state)
    return positions


def test_every_call_in_every_auction_position_is_judged_right() -> None:
    """Invariant 4: legality is exact -- every bid from -440 to 150 in fives, and a pass, in each of
    nine auction positions: legal exactly when the rules allow it, and an illegal call names the
    one rule it breaks when it breaks one (R-BID-2..7)."""
    single = 0
    for state in _auction_positions():
        seat = state.to_act
        assert seat is not None
        calls: list[Action] = [Pass(seat), *(Bid(seat, amount) for amount in range(-440, 151, 5))]
        for call in calls:
            violations = naive_violations(state, call)
            if not violations:
                assert call in legal_actions(state)
                apply(state, call)
                continue
            error = _assert_rejected(state, call, compare=False)
            assert error.reason in violations
            if len(violations) == 1:
                single += 1
    assert single > 400


@pytest.mark.parametrize("sunk", list(Suit))
def test_invitation_offers_exactly_the_meldable_cards(sunk: Suit) -> None:
    """R-INVITE-1, R-INVITE-2: the bidder may show exactly the cards that could belong to a meld.

    North holds every club and every diamond; a card is offered while she
    has an unshown copy of it, and only if some meld not barred by the sunk
    suit contains it (so 4s and 5s of a sunk suit, and 2s and 3s, never).
    """
    north = "2C 3C 4C 5C 6C 7C 8C 2D 3D 4D 5D 6D 7D 8D"
    south = "2H 3H 4H 5H 6H 7H 8H 2S 3S 4S 5S 6S 7S 8S"
    state = apply(new_game(dealer=Seat.WEST), _deal_giving(north, south))
    calls: list[Action] = [
        Bid(Seat.NORTH, 120),
        Pass(Seat.EAST),
        Pass(Seat.SOUTH),
        Pass(Seat.WEST),
        NameSunkSuit(Seat.NORTH, sunk),
    ]
    for action in calls:
        state = apply(state, action)
    assert state.phase is Phase.INVITATION
    held = set(state.hand(Seat.NORTH))
    offered = {a.card for a in legal_actions(state) if isinstance(a, ShowCard)}
    assert offered == {card for card in held if naive_can_show(card, sunk)}
    for card in sorted(held - offered):
        error = _assert_rejected(state, ShowCard(Seat.NORTH, card), compare=False)
        assert error.reason is Reason.NOT_MELDABLE
    eight = Card.parse("8C")
    state = apply(state, ShowCard(Seat.NORTH, eight))
    assert state.invitation == (eight,)
    again = ShowCard(Seat.NORTH, eight)
    assert _assert_rejected(state, again).reason is Reason.CARD_NOT_IN_HAND, "one copy only"
    assert Done(Seat.NORTH) in legal_actions(state)
