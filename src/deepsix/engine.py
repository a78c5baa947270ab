"""The state-transition engine: ``apply(state, action) -> state``.

This module wires the rule modules (:mod:`~deepsix.bidding`,
:mod:`~deepsix.melds`, :mod:`~deepsix.tricks`, :mod:`~deepsix.scoring`)
into the phases of a hand.  Its public face is four functions:

* :func:`new_game` -- the state before the first deal;
* :func:`shuffled_deal` -- the chance step: a seeded, shuffled :class:`Deal`;
* :func:`legal_actions` -- every legal action in a state, in a fixed order;
* :func:`apply` -- the state after an action; raises
  :class:`~deepsix.errors.IllegalActionError` (naming the rule) otherwise.

``apply`` accepts an action exactly when it is in ``legal_actions``: both
are computed from the same per-phase generator, and the legal list is
computed once per state and cached.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final, overload

from deepsix import bidding
from deepsix.actions import (
    ACTION_TYPES,
    Action,
    Bid,
    Deal,
    DeclareMeld,
    Done,
    LegalActions,
    NameSunkSuit,
    Pass,
    PassCard,
    PlayCard,
    ShowCard,
)
from deepsix.cards import DECK, HAND_SIZE, Card, Seat, seat_of
from deepsix.diagnosis import diagnose, has_fields
from deepsix.errors import (
    DeepSixError,
    IllegalActionError,
    NotAnActionError,
    ParseError,
    Reason,
    WrongTypeError,
)
from deepsix.hands import (
    BIT,
    pack,
    without,
)
from deepsix.history import History
from deepsix.legal import (
    bidder_pass_actions,
    bidding_actions,
    invitation_actions,
    meld_actions,
    partner_pass_actions,
    play_actions,
    sunk_suit_actions,
)
from deepsix.melds import (
    meld_value,
)
from deepsix.rules import Rules
from deepsix.scoring import card_points, game_winner, score_hand
from deepsix.state import (
    EMPTY_SETUP,
    GameState,
    HandRecord,
    HandSetup,
    Phase,
    bind_engine,
)
from deepsix.tricks import Trick, winning_position

__all__ = ["LegalActions", "apply", "legal_actions", "new_game", "shuffled_deal"]

_SORTED_DECK: Final = list(DECK)
_NO_HANDS: Final = (0, 0, 0, 0)


_NONE: Final = LegalActions()
# Module constants: the compiled build reads these without a lookup by name.
_LEGAL_ACTIONS: Final = LegalActions
_LEFT: Final = tuple(seat.left for seat in Seat)
_PLAY_CARD: Final = PlayCard
_P_BIDDING: Final = Phase.BIDDING
_P_SUNK_SUIT: Final = Phase.SUNK_SUIT
_P_INVITATION: Final = Phase.INVITATION
_P_PARTNER_PASS: Final = Phase.PARTNER_PASS
_P_BIDDER_MELD: Final = Phase.BIDDER_MELD
_P_BIDDER_PASS: Final = Phase.BIDDER_PASS
_P_MELDING: Final = Phase.MELDING
_P_PLAY: Final = Phase.PLAY


def new_game(rules: Rules | None = None, dealer: Seat | int | str = Seat.NORTH) -> GameState:
    """The state before the first deal of a game."""
    if rules is None:
        rules = _DEFAULT_RULES
    elif not isinstance(rules, Rules):
        raise ParseError(f"rules must be a Rules, not {type(rules).__name__}")
    if type(dealer) is not Seat:
        try:
            dealer = seat_of(dealer)
        except DeepSixError:
            raise ParseError(f"dealer must be a Seat, not {dealer!r}") from None
    return GameState(
        rules, dealer, Phase.DEAL, None, (0, 0), (), EMPTY_SETUP, _NO_HANDS, (), (), None
    )


@overload
def shuffled_deal() -> Deal: ...
@overload
def shuffled_deal(seed: int | random.Random | None) -> Deal: ...
def shuffled_deal(seed: object = None) -> Deal:
    """A uniformly shuffled deal.

    The algorithm, fixed so that a seed always gives the same deal: take the
    sorted deck (:data:`deepsix.cards.DECK`), shuffle it with
    ``random.Random(seed).shuffle`` (or the given ``random.Random``), and
    give seat ``s`` the cards at positions ``14*s`` to ``14*s + 13``.
    ``seed`` is an int, a ``random.Random`` or ``None`` (a fresh, unseeded
    one); anything else raises :class:`~deepsix.errors.WrongTypeError`.
    """
    if isinstance(seed, random.Random):
        rng = seed
    elif seed is None or (type(seed) is int):
        rng = random.Random(seed)
    else:
        raise WrongTypeError(
            f"shuffled_deal() needs an int, a random.Random or None, not {type(seed).__name__}"
        )
    deck = list(DECK)
    if type(rng) is random.Random:
        _shuffle(deck, rng)
    else:
        rng.shuffle(deck)  # a subclass may draw its numbers differently
    return Deal(deck)


def _shuffle(deck: list[Card], rng: random.Random) -> None:
    """``rng.shuffle(deck)`` for a plain ``random.Random``, step for step.

    CPython's ``Random.shuffle`` swaps each position ``i``, from the last
    down to 1, with ``j = rng._randbelow(i + 1)``, and ``_randbelow(n)``
    draws ``getrandbits(n.bit_length())`` until the draw is below ``n``.
    This is the same loop, written out so that the compiled build runs it
    natively; ``tests/core/test_engine.py`` checks that the deals are the
    same as ``random.Random.shuffle``'s.
    """
    getrandbits = rng.getrandbits
    for i in range(len(deck) - 1, 0, -1):
        n = i + 1
        bits = n.bit_length()
        j = getrandbits(bits)
        while j >= n:
            j = getrandbits(bits)
        deck[i], deck[j] = deck[j], deck[i]


@overload
def legal_actions(state: GameState, /) -> LegalActions: ...
@overload
def legal_actions(*, state: GameState) -> LegalActions: ...
def legal_actions(state: object) -> LegalActions:
    """Every legal action in ``state``, in a deterministic order.

    Empty at a chance step (deal with :func:`shuffled_deal`) and once the
    game is over.
    """
    if type(state) is not GameState:
        raise _not_a_state("legal_actions", state)
    legal = state._legal
    if legal is None:
        legal = state._remember_legal(tuple.__new__(_LEGAL_ACTIONS, _generate(state)))
    return legal


@overload
def apply(state: GameState, action: Action) -> GameState: ...
@overload
def apply(state: GameState, action: Action, *, seat: Seat | int | str | None) -> GameState: ...
def apply(state: object, action: object, *, seat: object = None) -> GameState:
    """The state that follows ``action``; ``state`` itself never changes.

    Raises :class:`~deepsix.errors.IllegalActionError` when the action is not
    legal, with the reason and the rule it breaks.

    ``seat`` is for front ends that act on behalf of an authenticated
    player: the action is then refused (``Reason.NOT_YOUR_SEAT``) unless it
    is that seat's own action -- a deal, chance's action, is never anyone's.

    >>> state = new_game().apply(shuffled_deal(7))
    >>> apply(state, Pass(Seat.EAST), seat=Seat.WEST)
    Traceback (most recent call last):
    ...
    deepsix.errors.IllegalActionError: R-TURN-1: a player may act only for her own seat (...)
    """
    if type(state) is not GameState:
        raise _not_a_state("apply", state)
    if seat is not None:
        _check_sender(action, seat)
    phase = state.phase
    if phase is Phase.DEAL:
        if type(action) is not Deal or not has_fields(action):
            raise diagnose(state, action)
        return _deal(state, action)
    legal = state._legal
    if legal is None:
        legal = legal_actions(state)
    for candidate in legal:
        if candidate is action:
            return _transition(state, candidate, phase)
    if type(action) not in ACTION_TYPES or not has_fields(action):
        raise diagnose(state, action)
    try:
        index = legal.index(action)
    except ValueError:
        raise diagnose(state, action) from None
    return _transition(state, legal[index], phase)


def _not_a_state(function: str, value: object) -> WrongTypeError:
    """The error for a call with something that is not a state (in both builds: the public
    functions take ``object`` at run time, so the compiled build's own argument check never
    answers first)."""
    return WrongTypeError(f"{function}() needs a GameState, not {type(value).__name__}")


def _check_sender(action: object, seat: object) -> None:
    """Refuse ``action`` unless ``seat`` (a front end's authenticated player) may send it."""
    if type(seat) is not Seat:
        try:
            seat = seat_of(seat)
        except DeepSixError:
            raise ParseError(f"seat must be a Seat, not {seat!r}") from None
    if type(action) not in ACTION_TYPES:
        raise NotAnActionError(action)
    sender = getattr(action, "seat", None)
    if sender != seat:
        raise IllegalActionError(Reason.NOT_YOUR_SEAT, f"{seat} sent {action}", action)


def _generate(state: GameState) -> Sequence[Action]:  # noqa: PLR0911  # one branch per phase
    """The legal actions of ``state``: the phase's own generator (a branch each, no table,
    so that the compiled build calls them directly)."""
    phase = state.phase
    if phase is _P_PLAY:
        return play_actions(state)
    if phase is _P_BIDDING:
        return bidding_actions(state)
    if phase is _P_MELDING or phase is _P_BIDDER_MELD:
        return meld_actions(state)
    if phase is _P_PARTNER_PASS:
        return partner_pass_actions(state)
    if phase is _P_BIDDER_PASS:
        return bidder_pass_actions(state)
    if phase is _P_INVITATION:
        return invitation_actions(state)
    if phase is _P_SUNK_SUIT:
        return sunk_suit_actions(state)
    return _NONE


# -- transitions, one per phase (the action is already known to be legal) -----


def _step(  # noqa: PLR0913, PLR0917  # one positional call per transition keeps the hot path cheap
    state: GameState,
    action: Action,
    phase: Phase,
    to_act: Seat | None,
    setup: HandSetup,
    packed_hands: tuple[int, int, int, int],
) -> GameState:
    """A successor state in the same hand's trick-free phases."""
    return GameState.__new__(
        GameState,
        state.rules,
        state.dealer,
        phase,
        to_act,
        state.scores,
        state.completed_hands,
        setup,
        packed_hands,
        state.trick,
        state.tricks,
        History(state.log, action),
    )


def _deal(state: GameState, action: Deal) -> GameState:
    cards = action.cards
    if len(cards) != 56 or sorted(cards) != _SORTED_DECK:
        raise IllegalActionError(
            Reason.BAD_DEAL, f"got {len(cards)} cards, not the 56-card deck", action
        )
    hands = (pack(cards[0:14]), pack(cards[14:28]), pack(cards[28:42]), pack(cards[42:56]))
    return GameState.__new__(
        GameState,
        state.rules,
        state.dealer,
        Phase.BIDDING,
        state.dealer.left,
        state.scores,
        state.completed_hands,
        EMPTY_SETUP,
        hands,
        (),
        (),
        History(state.log, action),
    )


def _bidding(state: GameState, action: Action) -> GameState:
    assert isinstance(action, (Bid, Pass))
    setup = state.setup
    outcome = bidding.after_call(setup.bids, setup.bidder, setup.bid, action)
    phase = Phase.SUNK_SUIT if outcome.finished else Phase.BIDDING
    new_setup = HandSetup.__new__(HandSetup, outcome.bids, outcome.bidder, outcome.bid)
    return _step(state, action, phase, outcome.next_seat, new_setup, state.packed_hands)


def _sunk_suit(state: GameState, action: Action) -> GameState:
    assert isinstance(action, NameSunkSuit)
    old = state.setup
    setup = HandSetup.__new__(HandSetup, old.bids, old.bidder, old.bid, action.suit)
    return _step(state, action, Phase.INVITATION, action.seat, setup, state.packed_hands)


def _invitation(state: GameState, action: Action) -> GameState:
    if type(action) is Done:
        partner = action.seat.partner
        return _step(state, action, Phase.PARTNER_PASS, partner, state.setup, state.packed_hands)
    assert isinstance(action, ShowCard)
    old = state.setup
    setup = HandSetup.__new__(
        HandSetup, old.bids, old.bidder, old.bid, old.sunk_suit, (*old.invitation, action.card)
    )
    return _step(state, action, Phase.INVITATION, action.seat, setup, state.packed_hands)


def _passing(state: GameState, action: Action) -> GameState:
    """A card passed between partners, partner first (R-PASS-1) then bidder (R-PASS-2)."""
    assert isinstance(action, PassCard)
    seat = action.seat
    hands = list(state.packed_hands)
    hands[seat] -= BIT[action.card]
    old = state.setup
    from_partner = state.phase is Phase.PARTNER_PASS
    if from_partner:
        in_flight = (*old.partner_pass, action.card)
        partner_pass, bidder_pass = in_flight, old.bidder_pass
    else:
        in_flight = (*old.bidder_pass, action.card)
        partner_pass, bidder_pass = old.partner_pass, in_flight
    setup = HandSetup.__new__(
        HandSetup,
        old.bids, old.bidder, old.bid, old.sunk_suit, old.invitation, partner_pass, bidder_pass,
        old.melds,
    )  # fmt: skip
    phase, to_act = state.phase, seat
    if len(in_flight) == state.rules.pass_size:
        receiver = seat.partner
        hands[receiver] += pack(in_flight)
        if from_partner:
            phase, to_act = Phase.BIDDER_MELD, receiver
        else:
            phase, to_act = Phase.MELDING, seat.left
    return _step(state, action, phase, to_act, setup, (hands[0], hands[1], hands[2], hands[3]))


def _melding(state: GameState, action: Action) -> GameState:
    seat = action.seat
    assert seat is not None
    setup = state.setup
    if type(action) is DeclareMeld:
        melds = list(setup.melds)
        melds[seat] = (*melds[seat], action.meld)
        new_setup = HandSetup.__new__(
            HandSetup,
            setup.bids, setup.bidder, setup.bid, setup.sunk_suit, setup.invitation,
            setup.partner_pass, setup.bidder_pass, (melds[0], melds[1], melds[2], melds[3]),
        )  # fmt: skip
        return _step(state, action, state.phase, seat, new_setup, state.packed_hands)
    bidder = setup.bidder
    assert bidder is not None
    if state.phase is Phase.BIDDER_MELD:
        return _step(state, action, Phase.BIDDER_PASS, seat, setup, state.packed_hands)
    following = seat.left
    if following == bidder:
        return _step(state, action, Phase.PLAY, bidder, setup, state.packed_hands)
    return _step(state, action, Phase.MELDING, following, setup, state.packed_hands)


def _play(state: GameState, action: Action) -> GameState:
    assert type(action) is _PLAY_CARD
    seat = action.seat
    card = action.card
    hands = without(state.packed_hands, seat, BIT[card])
    trick = state.trick + ((seat, card),)  # noqa: RUF005  # concatenation compiles to less work
    tricks = state.tricks
    if len(trick) < 4:
        to_act: Seat | None = _LEFT[seat]
    else:
        position = winning_position([c for _, c in trick], state.setup.sunk_suit)
        winner = trick[position][0]
        tricks = tricks + (Trick.__new__(Trick, trick, winner),)  # noqa: RUF005  # as above
        trick = ()
        to_act = winner
        if len(tricks) == HAND_SIZE:
            return _finish_hand(state, action, tricks)
    return GameState.__new__(
        GameState,
        state.rules,
        state.dealer,
        _P_PLAY,
        to_act,
        state.scores,
        state.completed_hands,
        state.setup,
        hands,
        trick,
        tricks,
        History(state.log, action),
    )


def _finish_hand(state: GameState, action: Action, tricks: tuple[Trick, ...]) -> GameState:
    """Score the hand (R-SCORE-*), then deal again or end the game (R-END-*)."""
    rules = state.rules
    setup = state.setup
    bidder, bid, sunk = setup.bidder, setup.bid, setup.sunk_suit
    assert bidder is not None
    assert bid is not None
    assert sunk is not None
    points = card_points(tricks)
    meld_values = [meld_value(melds) for melds in setup.melds]
    meld = (meld_values[0] + meld_values[2], meld_values[1] + meld_values[3])
    outcome = score_hand(bidder.team, bid, points, meld, rules)
    totals = (state.scores[0] + outcome.scores[0], state.scores[1] + outcome.scores[1])
    record = HandRecord(
        number=len(state.completed_hands) + 1,
        dealer=state.dealer,
        bidder=bidder,
        bid=bid,
        sunk_suit=sunk,
        card_points=points,
        meld=meld,
        net=outcome.net,
        scores=outcome.scores,
        made=outcome.made,
        totals=totals,
    )
    log = History(state.log, action)
    completed = (*state.completed_hands, record)
    if game_winner(totals, rules) is not None:
        return GameState.__new__(
            GameState, rules, state.dealer, Phase.GAME_OVER, None, totals, completed, setup,
            _NO_HANDS, (), tricks, log,
        )  # fmt: skip
    return GameState.__new__(
        GameState, rules, state.dealer.left, Phase.DEAL, None, totals, completed, EMPTY_SETUP,
        _NO_HANDS, (), (), log,
    )  # fmt: skip


def _transition(
    state: GameState, action: Action, phase: Phase
) -> GameState:  # one branch per phase
    """Apply a legal ``action``: the phase's own transition (a branch each, no table)."""
    if phase is _P_PLAY:
        return _play(state, action)
    if phase is _P_BIDDING:
        return _bidding(state, action)
    if phase is _P_MELDING or phase is _P_BIDDER_MELD:
        return _melding(state, action)
    if phase is _P_PARTNER_PASS or phase is _P_BIDDER_PASS:
        return _passing(state, action)
    if phase is _P_INVITATION:
        return _invitation(state, action)
    if phase is _P_SUNK_SUIT:
        return _sunk_suit(state, action)
    raise diagnose(state, action)


_DEFAULT_RULES: Final = Rules()

bind_engine(apply, legal_actions)
