"""Events: what each step of a game means, in public information only."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings

from deepsix import (
    Action,
    Bid,
    GameState,
    IllegalActionError,
    Pass,
    PlayCard,
    Reason,
    Seat,
    apply,
    legal_actions,
    new_game,
    shuffled_deal,
)
from deepsix.errors import NotAnActionError
from deepsix.events import (
    AuctionWon,
    CardsPassed,
    GameOver,
    HandDealt,
    HandScored,
    InvitationMade,
    MeldsDeclared,
    SunkSuitNamed,
    TrickWon,
    events,
)
from deepsix.melds import meld_value
from deepsix.scoring import TOTAL_CARD_POINTS
from tests.support.strategies import GameSpec, game_specs, play_random


def _steps(spec: GameSpec) -> list[tuple[GameState, Action, GameState]]:
    state = new_game(spec.rules, spec.dealer)
    steps = []
    for action, after in play_random(state, random.Random(spec.seed), spec.steps, spec.style):
        steps.append((state, action, after))
        state = after
    return steps


@given(game_specs(max_steps=900))
@settings(max_examples=30)
def test_each_hand_yields_its_moments_once(spec: GameSpec) -> None:
    """Per hand: one deal, one auction, 14 tricks worth 250 points, one score; maybe the end."""
    tricks: list[TrickWon] = []
    kinds: Counter[str] = Counter()
    for before, action, after in _steps(spec):
        found = events(before, action, after)
        kinds.update(type(event).__name__ for event in found)
        for event in found:
            if isinstance(event, TrickWon):
                tricks.append(event)
                assert isinstance(action, PlayCard)
                assert event.trick.plays[-1] == (action.seat, action.card)
            elif isinstance(event, HandScored):
                assert event.record == after.completed_hands[-1]
                hand = tricks[-14:]
                assert [t.number for t in hand] == list(range(1, 15))
                assert [t.is_last for t in hand] == [False] * 13 + [True]
                assert sum(t.points for t in hand) == TOTAL_CARD_POINTS
                by_team = [0, 0]
                for trick in hand:
                    by_team[trick.winner.team] += trick.points
                assert tuple(by_team) == event.record.card_points
            elif isinstance(event, GameOver):
                assert after.is_over
                assert (event.winner, event.scores) == (after.winner, after.scores)
            elif isinstance(event, HandDealt):
                assert event.number == after.hand_number
                assert event.dealer == after.dealer
            else:
                assert_names_the_move(before, action, after, event)
    scored = kinds["HandScored"]
    assert kinds["HandDealt"] - scored in (0, 1)
    assert kinds["TrickWon"] >= 14 * scored
    assert kinds["GameOver"] <= 1


def assert_names_the_move(
    before: GameState, action: Action, after: GameState, event: object
) -> None:
    """A move's event names who made it and what it settled, as the state after it has it."""
    setup = after.setup
    if isinstance(event, AuctionWon):
        assert (event.bidder, event.bid) == (setup.bidder, setup.bid)
        # Forced: the first three seats passed, so the dealer had to bid (R-BID-7).
        assert event.forced == all(type(call) is Pass for call in setup.bids[:3])
    elif isinstance(event, SunkSuitNamed):
        assert event.bidder == action.seat == setup.bidder
        assert event.suit == setup.sunk_suit
    elif isinstance(event, InvitationMade):
        assert event.bidder == action.seat == setup.bidder
        assert event.cards == setup.invitation
    elif isinstance(event, CardsPassed):
        assert event.giver == action.seat
        assert event.receiver == action.seat.partner
        assert event.count == before.rules.pass_size
    elif isinstance(event, MeldsDeclared):
        assert event.seat == action.seat
        assert event.melds == setup.melds[action.seat]
        assert event.value == meld_value(setup.melds[action.seat])
    else:
        raise AssertionError(f"{event!r} is not an event of a move")


def test_a_whole_game_ends_with_one_game_over() -> None:
    """The step that ends the game, and only that one, says so -- last, after the hand's score."""
    rng = random.Random(21)
    state = new_game()
    found: list[tuple[object, ...]] = []
    while not state.is_over:
        action = shuffled_deal(rng) if state.is_chance else rng.choice(legal_actions(state))
        following = apply(state, action)
        found.append(events(state, action, following))
        state = following
    ends = [step for step in found if any(isinstance(event, GameOver) for event in step)]
    assert ends == [found[-1]]
    *_, scored, over = found[-1]
    assert isinstance(scored, HandScored)
    assert over == GameOver(state.winner, state.scores)  # type: ignore[arg-type]  # over: a winner


def test_a_step_without_a_moment_has_no_event() -> None:
    state = new_game().apply(shuffled_deal(7))
    action = legal_actions(state)[0]
    assert events(state, action, state.apply(action)) == ()


def test_events_of_a_whole_hand_in_order() -> None:
    rng = random.Random(11)
    state = new_game().apply(shuffled_deal(rng))
    order: list[type] = []
    while state.hand_number == 1 and not state.is_over:
        legal = legal_actions(state)
        action = legal[0] if state.phase.value != "bidding" else legal[-1]
        following = apply(state, action)
        order.extend(type(event) for event in events(state, action, following))
        state = following
    first = [AuctionWon, SunkSuitNamed, InvitationMade, CardsPassed, MeldsDeclared, CardsPassed]
    assert order[: len(first)] == first
    assert order.count(MeldsDeclared) == 4
    assert order.count(TrickWon) == 14
    assert order[order.index(HandScored) - 1] is TrickWon


def test_forced_bid_is_flagged() -> None:
    state = new_game().apply(shuffled_deal(3))
    for seat in (Seat.EAST, Seat.SOUTH, Seat.WEST):
        state = state.apply(Pass(seat))
    forced = Bid(Seat.NORTH, 120)
    (event,) = events(state, forced, state.apply(forced))
    assert event == AuctionWon(Seat.NORTH, 120, forced=True)
    # The first seat bids and the others pass: won, not forced.
    state = new_game().apply(shuffled_deal(3))
    state = state.apply(Bid(Seat.EAST, 120))
    for seat in (Seat.SOUTH, Seat.WEST):
        state = state.apply(Pass(seat))
    last = Pass(Seat.NORTH)
    (event,) = events(state, last, state.apply(last))
    assert event == AuctionWon(Seat.EAST, 120, forced=False)


def test_events_carry_no_hidden_card() -> None:
    """Every card an event names is face up: shown, declared in a meld, or played."""
    rng = random.Random(5)
    for _ in range(3):
        state = new_game()
        while not state.is_over:
            action = shuffled_deal(rng) if state.is_chance else rng.choice(legal_actions(state))
            following = apply(state, action)
            for event in events(state, action, following):
                if isinstance(event, InvitationMade):
                    assert event.cards == state.setup.invitation
                elif isinstance(event, CardsPassed):
                    assert not hasattr(event, "cards")
                elif isinstance(event, TrickWon):
                    assert isinstance(action, PlayCard)
                    assert event.trick.plays[-1] == (action.seat, action.card)
                    assert event.trick.plays[:3] == state.trick
            state = following


def test_apply_as_a_seat_refuses_another_seats_action() -> None:
    state = new_game().apply(shuffled_deal(7))
    assert apply(state, Pass(Seat.EAST), seat=Seat.EAST).to_act is Seat.SOUTH
    with pytest.raises(IllegalActionError) as caught:
        apply(state, Pass(Seat.EAST), seat=Seat.WEST)
    assert caught.value.reason is Reason.NOT_YOUR_SEAT
    with pytest.raises(IllegalActionError) as caught:
        apply(new_game(), shuffled_deal(1), seat=Seat.NORTH)
    assert caught.value.reason is Reason.NOT_YOUR_SEAT
    # A seat acting for itself out of turn is still told it is not its turn.
    with pytest.raises(IllegalActionError) as caught:
        apply(state, Pass(Seat.WEST), seat=Seat.WEST)
    assert caught.value.reason is Reason.NOT_YOUR_TURN
    with pytest.raises(NotAnActionError) as not_an_action:  # a type error, not a move
        apply(state, "E:P", seat=Seat.EAST)  # type: ignore[call-overload]  # deliberately not an action
    assert not_an_action.value.reason is Reason.UNKNOWN_ACTION
