"""Information-set sampling (issue 6): sampled states are valid and consistent with the view."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deepsix import (
    CARDS,
    DECK,
    Action,
    Deal,
    GameState,
    LegalActions,
    Meld,
    MeldKind,
    Pass,
    PassCard,
    Phase,
    PlayCard,
    Rank,
    Rules,
    SamplingError,
    Seat,
    legal_actions,
    new_game,
    sample_state,
    shuffled_deal,
    validate,
    view,
)
from deepsix.rebuild import first_dealer
from deepsix.sampling import _pick, _Sampler
from tests.support.games import game_states, one_state_per_phase
from tests.support.strategies import (
    choose_action,
    examples,
    reachable_states,
    rules_variants,
    scaled_examples,
)

PHASES = one_state_per_phase()
VIEWERS = (None, *Seat)


def assert_consistent(state: GameState, seat: Seat | None, sampled: GameState) -> None:
    """Everything the issue asks of a sampled state."""
    validate(sampled)
    mine = view(state, seat)
    assert view(sampled, seat) == mine
    for field in ("rules", "dealer", "phase", "to_act", "scores", "completed_hands"):
        assert getattr(sampled, field) == getattr(state, field), field
    assert sampled.trick == state.trick
    assert sampled.tricks == state.tricks
    assert sampled.setup.bids == state.setup.bids
    assert sampled.melds == state.melds
    assert sampled.invitation == state.invitation
    assert [len(hand) for hand in sampled.hands] == [len(hand) for hand in state.hands]
    if seat is not None:
        assert sampled.hand(seat) == state.hand(seat)
    # Voids: a seat that failed to follow a suit holds none of it.
    for void_seat, suits in enumerate(mine.voids):
        assert all(card.suit not in suits for card in sampled.hand(Seat(void_seat)))
    # Melds stay in the melder's hand until played.
    for melder in Seat:
        played = Counter(c for t in sampled.tricks for s, c in t.plays if s == melder)
        played.update(c for s, c in sampled.trick if s == melder)
        held = Counter(sampled.hand(melder)) + played
        for meld in sampled.melds[melder]:
            assert not Counter(meld.cards) - held
    # The history replays: from the start of the game in the first hand, else from this deal.
    history = sampled.history
    if sampled.phase is not Phase.DEAL:
        assert type(history[0]) is Deal
        assert len(history) <= 200


@given(reachable_states(max_steps=700), st.sampled_from(VIEWERS), st.integers(0, 2**32))
@settings(max_examples=examples(ci=60, deep=1000))
def test_sampled_states_are_consistent_and_valid(
    state: GameState, seat: Seat | None, seed: int
) -> None:
    sampled = sample_state(view(state, seat), random.Random(seed))
    assert_consistent(state, seat, sampled)


@given(reachable_states(max_steps=700), st.sampled_from(VIEWERS), st.integers(0, 2**32))
@settings(max_examples=scaled_examples(2))
def test_play_continues_legally_from_a_sampled_state(
    state: GameState, seat: Seat | None, seed: int
) -> None:
    rng = random.Random(seed)
    sampled = sample_state(view(state, seat), rng)
    for _ in range(30):
        if sampled.is_over:
            break
        sampled = sampled.apply(choose_action(rng, sampled, "uniform"))
    validate(sampled)


def test_every_phase_and_seat_of_a_whole_game() -> None:
    rng = random.Random(1)
    for state in game_states()[::2]:
        for seat in VIEWERS:
            assert_consistent(state, seat, sample_state(view(state, seat), rng))


def test_first_hand_history_is_complete_and_later_hands_are_tails() -> None:
    first = next(s for s in game_states() if s.phase is Phase.PLAY and s.hand_number == 1)
    sampled = sample_state(view(first, Seat.NORTH), 3)
    replayed = new_game(first.rules, first_dealer(first))
    for action in sampled.history:
        replayed = replayed.apply(action)
    assert replayed == sampled
    later = PHASES[Phase.PLAY]
    tail = sample_state(view(later, Seat.NORTH), 3)
    assert sum(type(a) is Deal for a in tail.history) == 1
    validate(tail)


def test_at_a_deal_the_sample_is_the_position_itself() -> None:
    state = PHASES[Phase.DEAL]
    sampled = sample_state(view(state, Seat.EAST), 0)
    assert sampled.log is None
    assert attrs.evolve(state, log=None) == sampled


def test_same_seed_same_sample_and_samples_vary() -> None:
    state = PHASES[Phase.MELDING]
    mine = view(state, Seat.EAST)
    assert sample_state(mine, 42) == sample_state(mine, 42)
    assert sample_state(mine, random.Random(42)) == sample_state(mine, 42)
    others = {sample_state(mine, seed).packed_hands for seed in range(10)}
    assert len(others) > 5


def test_samples_spread_the_unseen_cards() -> None:
    # Early in a hand, an unseen card is in each other seat's hand about a third of the time.
    state = PHASES[Phase.BIDDING]
    mine = view(state, Seat.NORTH)
    unseen = next(card for card in sorted(set(state.hand(Seat.EAST))) if card not in mine.hand)
    where: Counter[int] = Counter()
    rng = random.Random(5)
    for _ in range(150):
        sampled = sample_state(mine, rng)
        for seat in (Seat.EAST, Seat.SOUTH, Seat.WEST):
            if unseen in sampled.hand(seat):
                where[seat] += 1
    assert min(where.values()) > 25


# -- passes, shown cards and melds -----------------------------------------------------------------


def shown_back_policy(rng: random.Random, state: GameState) -> Action:
    """Random play, except that the bidder passes shown cards back and her partner plays them."""
    if state.is_chance:
        return shuffled_deal(rng)
    legal = legal_actions(state)
    shown = set(state.setup.invitation)
    if state.phase is Phase.INVITATION and len(legal) > 1 and rng.random() < 0.8:
        return legal[rng.randrange(len(legal) - 1)]
    if state.phase is Phase.BIDDER_PASS:
        back = [a for a in legal if isinstance(a, PassCard) and a.card in shown]
        if back:
            return back[0]
    if (
        state.phase is Phase.PLAY
        and state.bidder is not None
        and state.to_act == state.bidder.partner
    ):
        plays = [a for a in legal if isinstance(a, PlayCard) and a.card in shown]
        if plays:
            return plays[0]
    return choose_action(rng, state, "cautious")


def test_shown_cards_passed_back_to_the_partner() -> None:
    # The invitation's cards may leave the bidder's hand (she may pass them back);
    # opponents' samples must allow that when the view proves it.
    forced = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = new_game(Rules(target_score=200))
        while not state.is_over:
            state = state.apply(shown_back_policy(rng, state))
            bidder = state.bidder
            if state.phase not in (Phase.PLAY, Phase.GAME_OVER) or bidder is None:
                continue
            kept = Counter(state.hand(bidder))
            kept.update(c for t in state.tricks for s, c in t.plays if s == bidder)
            kept.update(c for s, c in state.trick if s == bidder)
            if not Counter(state.setup.invitation) - kept:
                continue
            # The view proves a shown card went back to the partner.
            forced += 1
            if forced % 4 == 1:
                for seat in (None, bidder.left, bidder.partner.left):
                    assert_consistent(state, seat, sample_state(view(state, seat), rng))
    assert forced > 0


def a_long_invitation(passed_back: int) -> GameState:
    """The bidder (North, after an auction of passes) shows her whole hand of sixes, sevens and
    eights; the partner passes three cards, and she has passed ``passed_back`` of three back."""
    high = [card for card in DECK if card.rank >= Rank.SIX]
    low = [card for card in DECK if card.rank < Rank.SIX]
    state = new_game().apply(Deal((*high[:14], *low, *high[14:])))
    while not (state.phase is Phase.BIDDER_PASS and len(state.setup.bidder_pass) == passed_back):
        legal = legal_actions(state)
        passes = [action for action in legal if isinstance(action, Pass)]
        state = state.apply(passes[0] if passes else legal[0])
    assert state.bidder is Seat.NORTH
    assert len(state.setup.invitation) == 14
    return state


@pytest.mark.parametrize("passed_back", [1, 2])
def test_the_partner_knows_the_pass_back_in_flight_holds_what_the_bidder_cannot(
    passed_back: int,
) -> None:
    # The partner knows the bidder's 17 cards (her 14 shown and his 3); while she passes back,
    # she holds 17 less what is in flight: what she cannot hold any more is in the pass.
    state = a_long_invitation(passed_back)
    partner = Seat.SOUTH
    seventeen = Counter(state.setup.invitation) + Counter(state.setup.partner_pass)
    held = Counter(state.hand(Seat.NORTH))
    assert sum((seventeen - held).values()) == passed_back
    seen = set()
    for seed in range(6):
        sampled = sample_state(view(state, partner), seed)
        assert_consistent(state, partner, sampled)
        in_flight = Counter(sampled.setup.bidder_pass)
        assert sum(in_flight.values()) == passed_back
        assert not in_flight - seventeen
        assert Counter(sampled.hand(Seat.NORTH)) + in_flight == seventeen
        seen.add(tuple(sorted(in_flight.elements())))
    assert len(seen) > 1  # which of the 17 went back is not known: the samples differ


@given(reachable_states(rules=rules_variants(), max_steps=700), st.integers(0, 2**32))
@settings(max_examples=scaled_examples(2))
def test_sampling_under_every_rules_variant(state: GameState, seed: int) -> None:
    rng = random.Random(seed)
    seat = rng.choice(VIEWERS)
    assert_consistent(state, seat, sample_state(view(state, seat), rng))


# -- inconsistent views ------------------------------------------------------------------------


def refused(bad: object, why: str) -> None:
    """No state has the view ``bad``: the sampler refuses it, saying so and why."""
    with pytest.raises(SamplingError) as caught:
        sample_state(bad, 0)  # type: ignore[arg-type]  # forged views may be anything
    assert str(caught.value).startswith("the view is inconsistent: "), str(caught.value)
    assert why in str(caught.value)


def forged(changes: dict[str, Any], phase: Phase = Phase.PLAY, why: str = "") -> None:
    mine = view(PHASES[phase], Seat.NORTH)
    refused(attrs.evolve(mine, **changes), why)


def test_wrong_hand_sizes() -> None:
    mine = view(PHASES[Phase.PLAY], Seat.NORTH)
    sizes = list(mine.hand_sizes)
    sizes[1] += 1
    forged({"hand_sizes": tuple(sizes)}, why="no deal of the unseen cards fits")


def test_three_copies_of_a_card() -> None:
    mine = view(PHASES[Phase.PLAY], Seat.NORTH)
    played = mine.tricks[0].plays[0][1]
    forged(
        {"hand": tuple(sorted((*mine.hand[:-1], played, played)))},
        why="a card is seen more than twice",
    )


def test_a_meld_nobody_can_hold() -> None:
    mine = view(PHASES[Phase.MELDING], Seat.NORTH)
    melds = list(mine.melds)
    everything = tuple(Meld(MeldKind.EIGHTS_WIDE) for _ in range(3))
    melds[Seat.EAST] = everything
    melds[Seat.WEST] = everything
    forged({"melds": tuple(melds)}, Phase.MELDING)


def test_forged_legal_actions() -> None:
    mine = view(PHASES[Phase.PLAY], PHASES[Phase.PLAY].to_act)
    fewer = mine.legal_actions[:-1] if len(mine.legal_actions) > 1 else ()
    refused(attrs.evolve(mine, legal_actions=LegalActions(fewer)), "no state reproduces it")


def test_a_void_contradicted_by_a_meld() -> None:
    # A seat shown void in a suit cannot hold the melded cards of that suit.
    for state in game_states():
        if state.phase is not Phase.PLAY:
            continue
        mine = view(state, Seat.NORTH)
        for seat, suits in enumerate(mine.voids):
            if seat == Seat.NORTH or not suits:
                continue
            suit = min(suits)
            melds = list(mine.melds)
            melds[seat] = (*melds[seat], Meld(MeldKind.DEEP_ECHO, suit))
            with pytest.raises(SamplingError):
                sample_state(attrs.evolve(mine, melds=(melds[0], melds[1], melds[2], melds[3])), 0)
            return
    pytest.fail("no void in the whole game")


def test_not_a_view() -> None:
    with pytest.raises(SamplingError, match="needs a PlayerView, not GameState"):
        sample_state(PHASES[Phase.PLAY], 0)  # type: ignore[arg-type]  # the point is the wrong type


def test_an_auction_without_a_winner_after_it_ended() -> None:
    forged({"bidder": None}, why="the auction has no winner")


def test_a_finished_game_without_a_score_sheet() -> None:
    forged({"phase": Phase.GAME_OVER, "completed_hands": ()}, why="a finished game has no records")


def test_scores_that_are_not_the_score_sheets_totals() -> None:
    # The state's own check refuses it; the sampler passes its reason on.
    forged({"scores": (10, 0)}, why="should be the records' totals")


def test_card_identity() -> None:
    # The sampler never invents cards: the sampled deal is the deck.
    sampled = sample_state(view(PHASES[Phase.PLAY], Seat.WEST), 8)
    deal = next(a for a in sampled.history if type(a) is Deal)
    assert sorted(deal.cards) == sorted(CARDS[i] for i in range(28) for _ in range(2))


# -- the sampler's last checks, behind its search ----------------------------------------------
# The search's bounds refuse every inconsistent view found so far before these checks are
# reached; they stand behind it, so that a search that ever returned hands the passes cannot
# fit is refused with its reason instead of replayed into a wrong deal.


def test_too_few_cards_for_a_pass() -> None:
    with pytest.raises(
        SamplingError, match=r"^the view is inconsistent: too few cards for the passes$"
    ):
        _pick(random.Random(0), [1] + [0] * 27, 2)
    assert _pick(random.Random(0), [1] + [0] * 27, 1) == [CARDS[0]]


def searched_wrong(
    monkeypatch: pytest.MonkeyPatch, change: Callable[[list[list[int]]], None]
) -> None:
    """The search's answer (each seat's cards) altered by ``change`` before it is used."""
    solve = _Sampler.solve

    def wrong(self: _Sampler, *known: Any) -> list[list[int]]:
        current = solve(self, *known)
        change(current)
        return current

    monkeypatch.setattr(_Sampler, "solve", wrong)


def test_hands_that_do_not_fit_the_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    def lose_a_card(current: list[list[int]]) -> None:
        east = current[Seat.EAST]
        east[next(i for i, n in enumerate(east) if n)] -= 1

    searched_wrong(monkeypatch, lose_a_card)
    refused(view(PHASES[Phase.BIDDING], Seat.NORTH), "the passes do not fit the hands")


def test_an_invitation_that_left_the_bidders_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    state = PHASES[Phase.MELDING]
    bidder = state.bidder
    assert bidder is not None
    assert state.setup.invitation
    viewer = bidder.left

    def drop_the_shown_cards(current: list[list[int]]) -> None:
        for card in state.setup.invitation:
            current[bidder][card] = 0

    searched_wrong(monkeypatch, drop_the_shown_cards)
    refused(view(state, viewer), "the invitation left the bidder's hand")
