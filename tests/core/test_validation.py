"""validate(): every reachable state passes, and each invariant catches a hand-corrupted state."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from hypothesis import given, settings

import deepsix.validation
from deepsix import (
    Bid,
    Card,
    Deal,
    DeclareMeld,
    GameState,
    InvalidStateError,
    InvariantError,
    Meld,
    MeldKind,
    Pass,
    Phase,
    PlayCard,
    Rules,
    Seat,
    Suit,
    Trick,
    new_game,
    sample_state,
    shuffled_deal,
    validate,
    view,
)
from deepsix.errors import WrongTypeError
from deepsix.hands import count, pack, unpack
from deepsix.history import History
from deepsix.scoring import score_hand
from deepsix.validation import INVARIANTS
from tests.support.games import game_states, one_state_per_phase
from tests.support.strategies import GameSpec, examples, game_specs

PHASES = one_state_per_phase()


@given(game_specs(max_steps=700))
@settings(max_examples=examples(ci=30, deep=500))
def test_every_reachable_state_is_valid(spec: GameSpec) -> None:
    for state in spec.states()[::7]:
        validate(state, history=False)
    validate(spec.final())


def test_every_state_of_a_whole_game_is_valid() -> None:
    for state in game_states():
        validate(state, history=False)
    validate(game_states()[-1])


def test_not_a_state() -> None:
    with pytest.raises(InvariantError) as caught:
        validate("state")  # type: ignore[arg-type]  # the point is the wrong type
    assert caught.value.invariant == "types"
    assert str(caught.value).endswith("expected a GameState, got str")
    assert isinstance(caught.value, InvalidStateError)


def broken(state: GameState, invariant: str, **changes: Any) -> None:
    """Assert that ``state`` with ``changes`` fails ``invariant``, and the message names it."""
    bad = attrs.evolve(state, **changes)
    with pytest.raises(InvariantError) as caught:
        validate(bad)
    assert caught.value.invariant == invariant, str(caught.value)
    assert f"({invariant})" in str(caught.value)


def move_card(state: GameState, source: Seat, target: Seat, card: Card) -> tuple[int, ...]:
    hands = list(state.packed_hands)
    hands[source] -= 1 << (2 * card)
    hands[target] += 1 << (2 * card)
    return tuple(hands)


# -- one test per invariant ----------------------------------------------------------------


@pytest.mark.parametrize(
    "changes",
    [
        {"packed_hands": (-1, 0, 0, 0)},
        {"packed_hands": (1 << 56, 0, 0, 0)},
        {"trick": ((Seat.NORTH, 5),)},
        {"completed_hands": ("a record",)},
        {"tricks": (None,)},
    ],
)
def test_types(changes: dict[str, object]) -> None:
    """Values of the right kind whose contents are not what the fields declare."""
    broken(PHASES[Phase.PLAY], "types", **changes)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"dealer": 0}, "GameState.dealer must be a Seat, not 0"),
        ({"scores": (0, "0")}, "GameState.scores must be a tuple of two ints, not (0, '0')"),
        ({"packed_hands": (0, 0, 0)}, "GameState.packed_hands must be a tuple of four ints"),
        ({"to_act": "N"}, "GameState.to_act must be a Seat or None, not 'N'"),
        ({"phase": "play"}, "GameState.phase must be a Phase, not 'play'"),
        ({"log": ("not", "a", "history")}, "GameState.log must be a History or None"),
        ({"setup": None}, "GameState.setup must be a HandSetup, not None"),
        ({"rules": "standard"}, "GameState.rules must be a Rules, not 'standard'"),
        ({"trick": [(Seat.NORTH, Card("5C"))]}, "GameState.trick must be a tuple"),
    ],
)
def test_wrong_kinds_are_refused_when_built(changes: dict[str, Any], message: str) -> None:
    """A field of the wrong kind is refused when the state is built, in either build."""
    with pytest.raises(WrongTypeError, match=re.escape(message)):
        attrs.evolve(PHASES[Phase.PLAY], **changes)
    with pytest.raises(TypeError):
        attrs.evolve(PHASES[Phase.PLAY], **changes)


def test_records() -> None:
    state = PHASES[Phase.BIDDING]
    record = state.completed_hands[0]
    broken(state, "records", completed_hands=(attrs.evolve(record, number=2),))
    broken(state, "records", completed_hands=(attrs.evolve(record, bid=125),))
    broken(state, "records", completed_hands=(attrs.evolve(record, made=not record.made),))
    later = PHASES[Phase.PLAY]
    first, second = later.completed_hands
    rotated = (first, attrs.evolve(second, dealer=second.dealer.left))
    broken(later, "records", completed_hands=rotated)


def test_scores() -> None:
    state = PHASES[Phase.BIDDING]
    broken(state, "scores", scores=(state.scores[0] + 10, state.scores[1]))


def test_dealer() -> None:
    state = PHASES[Phase.BIDDING]
    broken(state, "dealer", dealer=state.dealer.left)


def test_game_over() -> None:
    over = PHASES[Phase.GAME_OVER]
    broken(over, "game-over", phase=Phase.DEAL)
    early = PHASES[Phase.BIDDING]
    broken(early, "game-over", phase=Phase.GAME_OVER, to_act=None)


def test_phase() -> None:
    invitation = PHASES[Phase.INVITATION]
    assert invitation.bidder is not None
    broken(invitation, "phase", to_act=invitation.bidder.partner)
    broken(PHASES[Phase.PLAY], "phase", to_act=None)
    deal = PHASES[Phase.DEAL]
    broken(deal, "phase", to_act=Seat.NORTH)
    broken(deal, "phase", packed_hands=(1, 0, 0, 0))


def test_cards() -> None:
    state = PHASES[Phase.MELDING]
    hand = state.hand(Seat.NORTH)
    missing = next(card for card in hand if count(state.packed_hands[Seat.NORTH], card) == 1)
    other = next(c for c in unpack(state.packed_hands[Seat.EAST]) if c != missing)
    hands = list(state.packed_hands)
    hands[Seat.NORTH] += (1 << (2 * other)) - (1 << (2 * missing))
    broken(state, "cards", packed_hands=tuple(hands))


def test_auction() -> None:
    state = PHASES[Phase.BIDDING]
    bids = state.setup.bids
    first = bids[0] if bids else Pass(state.dealer.left)
    bad = (Bid(first.seat, 125), *bids[1:])
    broken(state, "auction", setup=attrs.evolve(state.setup, bids=bad))
    later = PHASES[Phase.SUNK_SUIT]
    broken(later, "auction", setup=attrs.evolve(later.setup, bid=(later.bid or 0) - 10))


def test_setup() -> None:
    state = PHASES[Phase.INVITATION]
    two = next(card for card in state.hand(state.to_act or Seat.NORTH) if card.rank == 2)
    broken(state, "setup", setup=attrs.evolve(state.setup, invitation=(two,)))
    broken(state, "setup", setup=attrs.evolve(state.setup, sunk_suit=None))
    passing = PHASES[Phase.PARTNER_PASS]
    assert passing.to_act is not None
    # Three cards in flight from the partner: the pass would be complete, not in progress.
    partner = passing.to_act
    three = passing.hand(partner)[: 3 - len(passing.setup.partner_pass)]
    hands = list(passing.packed_hands)
    hands[partner] -= pack(three)
    broken(
        passing,
        "setup",
        setup=attrs.evolve(passing.setup, partner_pass=passing.setup.partner_pass + three),
        packed_hands=tuple(hands),
    )


def test_hand_sizes() -> None:
    state = PHASES[Phase.BIDDING]
    card = state.hand(Seat.NORTH)[0]
    broken(state, "hand-sizes", packed_hands=move_card(state, Seat.NORTH, Seat.EAST, card))


def test_passes() -> None:
    state = PHASES[Phase.MELDING]
    bidder = state.bidder
    assert bidder is not None
    # Claim the partner passed cards the bidder has never held.
    held = set(state.hand(bidder)) | set(state.setup.bidder_pass)
    foreign = tuple(
        card for card in sorted(set(state.hand(Seat((bidder + 1) % 4)))) if card not in held
    )[:3]
    assert len(foreign) == 3
    broken(state, "passes", setup=attrs.evolve(state.setup, partner_pass=foreign))
    # The message names the seat and a card that would have been dealt -1 times.
    with pytest.raises(
        InvariantError,
        match=rf"the passes do not fit {bidder.name}'s cards \({min(foreign).ascii} would have "
        r"been dealt a negative number of times\)$",
    ):
        validate(attrs.evolve(state, setup=attrs.evolve(state.setup, partner_pass=foreign)))


def test_melds() -> None:
    state = PHASES[Phase.MELDING]
    seat = state.to_act
    assert seat is not None
    melds = list(state.setup.melds)
    impossible = next(
        meld
        for meld in (Meld(MeldKind.GRAND_RUN, suit) for suit in Suit)
        if meld.suit != state.sunk_suit
        and any(count(state.packed_hands[seat], c) == 0 for c in meld.cards)
    )
    melds[seat] = (*melds[seat], impossible)
    broken(
        state,
        "melds",
        setup=attrs.evolve(state.setup, melds=(melds[0], melds[1], melds[2], melds[3])),
    )
    # A seat whose turn has not come has no melds.
    later = Seat((seat + 1) % 4)
    if later != state.bidder:
        melds = list(state.setup.melds)
        melds[later] = (Meld(MeldKind.SIXES_WIDE),)
        broken(
            state,
            "melds",
            setup=attrs.evolve(state.setup, melds=(melds[0], melds[1], melds[2], melds[3])),
        )


def test_tricks() -> None:
    state = PHASES[Phase.PLAY]
    first = state.tricks[0]
    wrong = next(seat for seat, _ in first.plays if seat != first.winner)
    tricks = (Trick(first.plays, wrong), *state.tricks[1:])
    broken(state, "tricks", tricks=tricks)


def _revoke(state: GameState) -> GameState | None:
    """The state with two hidden cards swapped so that an earlier discard becomes a revoke."""
    bidder = state.bidder
    for trick in state.tricks:
        led = trick.plays[0][1].suit
        for seat, card in trick.plays[1:]:
            if card.suit == led or seat in (bidder, getattr(bidder, "partner", None)):
                continue
            for other in Seat:
                if other in (seat, bidder, getattr(bidder, "partner", None)):
                    continue
                follow = [c for c in state.hand(other) if c.suit == led]
                give = [c for c in state.hand(seat) if c.suit != led]
                if follow and give:
                    hands = list(state.packed_hands)
                    hands[other] += (1 << (2 * give[0])) - (1 << (2 * follow[0]))
                    hands[seat] += (1 << (2 * follow[0])) - (1 << (2 * give[0]))
                    candidate = attrs.evolve(
                        state, packed_hands=(hands[0], hands[1], hands[2], hands[3]), log=None
                    )
                    try:
                        validate(candidate)
                    except InvariantError as error:
                        if error.invariant == "play":
                            return candidate
    return None


def test_play() -> None:
    for state in game_states():
        if state.phase is Phase.PLAY and len(state.tricks) >= 4:
            revoked = _revoke(state)
            if revoked is not None:
                break
    else:
        pytest.fail("no state with a discard to turn into a revoke")
    with pytest.raises(InvariantError, match="not a legal play"):
        validate(revoked)


def test_hand_replay_is_a_catch_all(monkeypatch: pytest.MonkeyPatch) -> None:
    # With the named comparisons of the replay switched off, the last safety net -- the
    # replayed state must equal the given one, field by field -- still catches a state
    # whose melds do not follow from its actions.
    monkeypatch.setattr(deepsix.validation, "_COMPARED", ())
    state = PHASES[Phase.MELDING]
    seat = state.to_act
    assert seat is not None
    later = Seat((seat + 1) % 4)
    assert later != state.bidder
    melds = list(state.setup.melds)
    melds[later] = (Meld(MeldKind.SIXES_WIDE),)
    with pytest.raises(InvariantError) as caught:
        validate(
            attrs.evolve(
                state,
                setup=attrs.evolve(state.setup, melds=(melds[0], melds[1], melds[2], melds[3])),
            )
        )
    assert caught.value.invariant == "hand"


def _revoke_unchecked(state: GameState) -> GameState | None:
    bidder = state.bidder
    team = (bidder, getattr(bidder, "partner", None))
    for trick in state.tricks:
        led = trick.plays[0][1].suit
        for seat, card in trick.plays[1:]:
            if card.suit == led or seat in team:
                continue
            for other in Seat:
                if other in (seat, *team):
                    continue
                follow = [c for c in state.hand(other) if c.suit == led]
                give = [c for c in state.hand(seat) if c.suit != led]
                if follow and give:
                    hands = list(state.packed_hands)
                    hands[other] += (1 << (2 * give[0])) - (1 << (2 * follow[0]))
                    hands[seat] += (1 << (2 * follow[0])) - (1 << (2 * give[0]))
                    return attrs.evolve(
                        state, packed_hands=(hands[0], hands[1], hands[2], hands[3]), log=None
                    )
    return None


def test_history() -> None:
    state = PHASES[Phase.PLAY]
    broken(state, "history", log=History(None, shuffled_deal(1)))
    assert state.log is not None
    # A history whose last action is another legal one replays to a different state.
    previous = state.log.previous
    assert previous is not None
    others = [a for a in previous_state(state).legal_actions() if a != state.log.action]
    if others:
        broken(state, "history", log=History(previous, others[0]))


def previous_state(state: GameState) -> GameState:
    states = game_states()
    return states[states.index(state) - 1]


def test_history_check_can_be_skipped() -> None:
    state = attrs.evolve(PHASES[Phase.PLAY], log=History(None, shuffled_deal(1)))
    validate(state, history=False)


def test_history_may_start_at_a_later_deal() -> None:
    # A trimmed history (from the current hand's deal) replays from the start of the hand.
    state = PHASES[Phase.PLAY]
    actions = state.history
    start = max(i for i, a in enumerate(actions) if type(a).__name__ == "Deal")
    log = None
    for action in actions[start:]:
        log = History(log, action)
    validate(attrs.evolve(state, log=log))
    # ... and it must start with a deal.
    log = None
    for action in actions[start + 1 :]:
        log = History(log, action)
    broken(state, "history", log=log)


def test_sampled_states_with_synthetic_history_are_valid() -> None:
    rng = random.Random(4)
    for state in PHASES.values():
        for seat in (None, *Seat):
            validate(sample_state(view(state, seat), rng))


def test_invariant_names_are_documented() -> None:
    import deepsix.validation

    doc = deepsix.validation.__doc__ or ""
    for name in INVARIANTS:
        assert f"``{name}``" in doc


def test_every_invariant_has_a_test() -> None:
    tested = {
        name.removeprefix("test_").replace("_", "-")
        for name in globals()
        if name.startswith("test_")
    }
    assert {"hand"} | tested >= set(INVARIANTS)


def test_a_melded_card_cannot_be_passed_back() -> None:
    # In the bidder-pass phase, the bidder's melds need cards she still holds.
    state = PHASES[Phase.BIDDER_PASS]
    bidder = state.bidder
    assert bidder is not None
    melds = list(state.setup.melds)
    extra = next(
        (
            m
            for m in (Meld(MeldKind.EIGHTS_WIDE), Meld(MeldKind.SEVENS_WIDE))
            if m not in melds[bidder]
        ),
        None,
    )
    assert extra is not None
    melds[bidder] = (*melds[bidder], extra, extra, extra)
    with pytest.raises(InvariantError, match=r"\(melds\)"):
        validate(
            attrs.evolve(
                state,
                setup=attrs.evolve(state.setup, melds=(melds[0], melds[1], melds[2], melds[3])),
            )
        )


CORRUPTIONS: list[Callable[[GameState], GameState]] = [
    lambda s: attrs.evolve(s, packed_hands=(pack(()), *s.packed_hands[1:])),
    lambda s: attrs.evolve(s, trick=s.trick[:-1]),
    lambda s: attrs.evolve(s, tricks=s.tricks[:-1]),
    lambda s: attrs.evolve(
        s,
        setup=attrs.evolve(
            s.setup, melds=((DeclareMeld(Seat.NORTH, Meld(MeldKind.SIXES_WIDE)).meld,),) * 4
        ),
    ),
]


@pytest.mark.parametrize("corrupt", CORRUPTIONS)
def test_more_corruptions_are_caught(corrupt: Callable[[GameState], GameState]) -> None:
    with pytest.raises(InvariantError):
        validate(corrupt(PHASES[Phase.PLAY]))


def test_new_game_is_valid() -> None:
    validate(new_game())


def test_a_trick_played_out_of_turn() -> None:
    """Two plays of a trick swapped: the replay refuses a card played out of turn, which is
    the tricks' fault (their order), not the play rule's; the message names the action, by
    its number in the hand (the deal is action 1)."""
    state = PHASES[Phase.PLAY]
    first = state.tricks[0]
    plays = (first.plays[1], first.plays[0], *first.plays[2:])
    broken(state, "tricks", tricks=(Trick(plays, first.winner), *state.tricks[1:]))
    hand = state.history[max(i for i, a in enumerate(state.history) if type(a) is Deal) :]
    number = next(i for i, a in enumerate(hand) if type(a) is PlayCard) + 1
    with pytest.raises(
        InvariantError, match=rf"action {number} of the hand \({plays[0][0].name[0]} plays"
    ):
        validate(attrs.evolve(state, tricks=(Trick(plays, first.winner), *state.tricks[1:])))


def test_an_illegal_action_in_the_history_is_named_by_its_number() -> None:
    state = PHASES[Phase.PLAY]
    actions = list(state.history)
    actions[4] = actions[3]  # the same call twice: the second is out of turn
    log = None
    for action in actions:
        log = History(log, action)
    broken(state, "history", log=log)
    with pytest.raises(InvariantError, match="action 5 of the history is illegal"):
        validate(attrs.evolve(state, log=log))


def _record(state: GameState, index: int, **changes: Any) -> tuple[Any, ...]:
    records = list(state.completed_hands)
    records[index] = attrs.evolve(records[index], **changes)
    return tuple(records)


_G = PHASES[Phase.GAME_OVER]
_P = PHASES[Phase.PLAY]
_D = PHASES[Phase.DEAL]
_FIRST = _G.completed_hands[0]
_B = PHASES[Phase.BIDDING]
_CARD = _B.hand(Seat.NORTH)[0]


@pytest.mark.parametrize(
    ("state", "changes", "invariant", "message"),
    [
        (_P, {"trick": _P.tricks[0].plays}, "types", "a hand has at most 14 tricks, and a trick"),
        (
            _P,
            {"tricks": (Trick(_P.tricks[0].plays[:3], _P.tricks[0].winner), *_P.tricks[1:])},
            "types",
            "a completed trick has four plays, not ((<Seat.",
        ),
        (
            _G,
            {"rules": Rules(target_score=100)},
            "records",
            "the game should have ended after hand 1",
        ),
        (
            _G,  # the totals reach the target after the second of three hands
            {"rules": Rules(target_score=max(_G.completed_hands[1].totals))},
            "records",
            "the game should have ended after hand 2",
        ),
        (_G, {"rules": Rules(target_score=5000)}, "game-over", "the game is over but the totals ("),
        (_G, {"dealer": _G.dealer.left}, "dealer", "after the game the dealer is the last hand's"),
        (
            _G,
            {"completed_hands": _record(_G, 0, dealer=_FIRST.dealer.left)},
            "records",
            "hand record 2: dealer ",
        ),
        (
            _G,
            {"completed_hands": _record(_G, 0, card_points=(100, 100))},
            "records",
            "hand record 1: card points (100, 100) do not split 250",
        ),
        (
            _G,
            {"completed_hands": _record(_G, 0, meld=(-3, 0))},
            "records",
            "hand record 1: meld (-3, 0) is not a sum of meld values",
        ),
        (
            _G,
            {"completed_hands": _record(_G, 0, totals=(_FIRST.totals[0] + 10, _FIRST.totals[1]))},
            "records",
            f"hand record 1: totals ({_FIRST.totals[0] + 10}, {_FIRST.totals[1]}) should be "
            f"{_FIRST.totals}",
        ),
        (_D, {"to_act": Seat.NORTH}, "phase", "nobody acts at a deal (to_act must be None)"),
        (_D, {"trick": _P.tricks[0].plays[:1]}, "phase", "before the deal the hands and the table"),
        (_D, {"setup": _P.setup}, "phase", "before the deal the hand's setup is empty"),
        (_G, {"to_act": Seat.NORTH}, "phase", "nobody acts once the game is over (to_act must be"),
        (_G, {"tricks": _G.tricks[:-1]}, "phase", "a finished game has empty hands and 14 tricks"),
        (_P, {"to_act": None}, "phase", "some seat must act in the play phase"),
        (
            _P,
            {"log": History(None, shuffled_deal(1))},
            "history",
            "the history replays to a state with a different phase",
        ),
        (
            _B,
            {"packed_hands": move_card(_B, Seat.NORTH, Seat.EAST, _B.hand(Seat.NORTH)[0])},
            "hand-sizes",
            "NORTH holds 13 cards in the bidding phase: it would have been dealt 13, not 14",
        ),
        (
            _B,
            {"packed_hands": (_B.packed_hands[0] + (1 << (2 * _CARD)), *_B.packed_hands[1:])},
            "cards",
            f"{_CARD.ascii} is accounted for 3 times (hands, passes in flight and tricks must "
            "hold each card exactly twice)",
        ),
    ],
)
def test_each_refusal_names_its_invariant_and_the_fault(
    state: GameState, changes: dict[str, Any], invariant: str, message: str
) -> None:
    """What a broken state breaks is named (the invariant) and said (the fault, in words)."""
    with pytest.raises(InvariantError) as caught:
        validate(attrs.evolve(state, **changes))
    assert caught.value.invariant == invariant
    assert str(caught.value).startswith(f"invalid state ({invariant}): {message}"), str(
        caught.value
    )


# -- score sheets consistent in themselves ---------------------------------------------------------


def _resheet(state: GameState, index: int, **changes: Any) -> tuple[Any, ...]:
    """The score sheet with one line changed and everything that follows from it recomputed
    (the line's net, scores and made; the running totals): consistent in itself."""
    records, totals = [], (0, 0)
    for number, original in enumerate(state.completed_hands):
        record = original
        if number == index:
            changed = attrs.evolve(original, **changes)
            outcome = score_hand(
                changed.bidder.team, changed.bid, changed.card_points, changed.meld, state.rules
            )
            record = attrs.evolve(
                changed, net=outcome.net, scores=outcome.scores, made=outcome.made
            )
        totals = (totals[0] + record.scores[0], totals[1] + record.scores[1])
        records.append(attrs.evolve(record, totals=totals))
    return tuple(records)


@pytest.mark.parametrize("points", [(0, 250), (250, 0)])
def test_a_team_may_take_no_card_points(points: tuple[int, int]) -> None:
    """A hand in which one team takes every card point is legal: its score-sheet line is valid."""
    records = _resheet(_G, 0, card_points=points)
    validate(attrs.evolve(_G, log=None, completed_hands=records, scores=records[-1].totals))


def test_card_points_below_zero_are_refused() -> None:
    records = _resheet(_G, 0, card_points=(-10, 260))
    with pytest.raises(InvariantError, match=r"card points \(-10, 260\) do not split 250"):
        validate(attrs.evolve(_G, log=None, completed_hands=records, scores=records[-1].totals))


def test_a_last_record_that_is_not_the_hand_played() -> None:
    """A finished game's last line, consistent in itself and scoring the same (another bid on
    the ladder the team also made), is not the hand its tricks played: refused."""
    last = _G.completed_hands[-1]
    rules = _G.rules
    played = score_hand(last.bidder.team, last.bid, last.card_points, last.meld, rules)
    other = next(
        bid
        for bid in range(rules.lowest_bid, rules.opening_bid_limit + 1, rules.bid_step)
        if bid != last.bid
        and score_hand(last.bidder.team, bid, last.card_points, last.meld, rules) == played
    )
    records = (*_G.completed_hands[:-1], attrs.evolve(last, bid=other))
    bad = attrs.evolve(_G, log=None, completed_hands=records)
    with pytest.raises(InvariantError) as caught:
        validate(bad)
    assert caught.value.invariant == "game-over"
    assert str(caught.value).endswith("the last hand record does not match the hand played")
