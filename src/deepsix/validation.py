"""Checking every invariant of a game state: :func:`validate`.

States made by :func:`deepsix.apply` are always valid.  States that come
from outside -- loaded from JSON, built by hand, sampled for a bot -- are
checked here, and loading calls :func:`validate` on every state it returns.

Validation is not a second rules engine.  It checks what the engine cannot
see -- the field types, the score sheet of finished hands (whose deals are
gone), the conservation of the 56 cards -- and then *replays* the current
hand: the dealt hands are recovered from where the cards are now
(:mod:`deepsix.rebuild`), the hand's actions are rebuilt from its public
record, and :func:`deepsix.apply` judges every one of them.  An action
the engine refuses, or a replayed state that differs from the one given,
is reported under the invariant it breaks:

``types``
    Every field holds a value of the type its class declares (seats are
    :class:`~deepsix.Seat`, cards :class:`~deepsix.Card`, hands four
    bit-packed ints with at most two copies of a card, ...); the check
    reads the declarations (:mod:`deepsix.typecheck`).
``records``
    The finished hands' records are numbered 1, 2, ...; their dealers rotate
    clockwise; their bids are on the ladder; card points add up to 250;
    net, score and made are what :func:`~deepsix.score_hand` gives; totals
    are running sums; and no hand but the last ended the game.
``scores``
    The scores equal the last record's totals (zero before the first).
``dealer``
    The dealer is the one after the last record's dealer (the same one once
    the game is over).
``game-over``
    The phase is :attr:`~deepsix.Phase.GAME_OVER` exactly when the totals
    end the game, and then the last record describes the hand on the table.
``phase``
    The seat to act fits the phase (``None`` at a deal and after the game;
    the bidder, her partner or the next seat as the phase requires), and a
    deal phase has an empty table.
``cards``
    Once dealt, the 56 cards -- each of the 28 cards twice -- are
    accounted for exactly once across the hands, the cards in flight
    between partners, the current trick and the completed tricks.
``auction``
    Every call is the legal call of the right seat; the bidder and bid are
    those of the last bid; the auction is open exactly in the bidding phase.
``setup``
    The sunk suit, the invitation and the passes exist exactly from the
    phases that create them on; no more than ``pass_size`` cards go each
    way; shown cards could belong to a meld.
``hand-sizes``
    Each seat holds as many cards as the phase, the passes and the tricks
    played imply.
``passes``
    The cards passed were in the passer's hand when passed: the hand each
    seat was dealt, recovered from the current hands, the cards played and
    the passes, is a real 14-card hand; the invitation came from the
    bidder's dealt hand.
``melds``
    Only seats whose turn to meld has come have melds; no run is in the
    sunk suit; each seat's melds can be formed from its cards under the
    sharing rule (melded cards stay in the hand until played); the bidder
    kept ``pass_size`` cards unmelded.
``tricks``
    Tricks have four plays clockwise from the leader; the bidder led the
    first, each winner led the next, and each winner is the one
    :func:`~deepsix.trick_winner` names.
``play``
    Every card played was a legal play for the hand the seat held then.
``hand``
    The current hand replays: rebuilding the deal and every action of the
    hand from the state and applying them with the engine reproduces the
    state exactly.
``history``
    When the state carries a history it replays to the state (see
    :func:`validate` for histories that start at a later deal).
"""

from __future__ import annotations

from typing import Final

import attrs

from deepsix.actions import Bid, NameSunkSuit, Pass, PassCard, PlayCard, ShowCard
from deepsix.cards import CARDS, HAND_SIZE, Seat
from deepsix.errors import (
    DeepSixError,
    IllegalActionError,
    InvariantError,
    NotAnActionError,
    Reason,
)
from deepsix.hands import counts, counts_of, is_packed_hand
from deepsix.rebuild import (
    dealt_counts,
    first_dealer,
    hand_start,
    history_start,
    replay_hand,
    walk,
)
from deepsix.rules import Rules
from deepsix.scoring import TOTAL_CARD_POINTS, game_winner, score_hand
from deepsix.state import GameState, HandRecord, HandSetup, Phase
from deepsix.table import played_counts, plays_by_trick
from deepsix.typecheck import type_problem

__all__ = ["INVARIANTS", "InvariantError", "check_score_sheet", "validate"]

INVARIANTS: Final = (
    "types",
    "records",
    "scores",
    "dealer",
    "game-over",
    "phase",
    "cards",
    "auction",
    "setup",
    "hand-sizes",
    "passes",
    "melds",
    "tricks",
    "play",
    "hand",
    "history",
)
"""The names of the invariants :func:`validate` checks, in the order it checks them."""

_SEATS: Final = tuple(Seat)


def validate(state: GameState, *, history: bool = True) -> None:
    """Check every invariant of ``state``; raise :class:`InvariantError` naming the broken one.

    The checks are listed in this module's documentation.  ``history=False``
    skips replaying the state's history (the one check whose cost grows
    with the length of the game); everything else costs about as much as
    replaying one hand (a millisecond or so).

    A state's history (``state.history``) is either the whole game, which
    replays from ``new_game(rules, first dealer)``, or -- for states built
    by :func:`deepsix.sample_state` or trimmed on purpose -- the tail of the
    game from the deal of some hand on, which replays from the start of that
    hand (its dealer, the totals and records of the hands before it).  A
    state without history (``state.log is None``) is checked on everything
    else.

    >>> from deepsix import new_game, shuffled_deal
    >>> validate(new_game().apply(shuffled_deal(1)))
    """
    _check_types(state)
    _check_game(state)
    _check_phase(state)
    if state.phase is not Phase.DEAL:
        _check_hand(state)
    if history and state.log is not None:
        _check_history(state)


def _fail(invariant: str, detail: str) -> InvariantError:
    return InvariantError(invariant, detail)


# -- types ---------------------------------------------------------------------------


def _check_types(state: object) -> None:
    if not isinstance(state, GameState):
        raise _fail("types", f"expected a GameState, got {type(state).__name__}")
    problem = type_problem(state, GameState)
    if problem is not None:
        raise _fail("types", problem)
    for seat, packed in zip(_SEATS, state.packed_hands, strict=True):
        if not is_packed_hand(packed):
            raise _fail("types", f"{seat.name}'s packed hand {packed!r} is not a hand of cards")
    if len(state.trick) > 3 or len(state.tricks) > HAND_SIZE:
        raise _fail("types", "a hand has at most 14 tricks, and a trick in progress 0-3 plays")
    for trick in state.tricks:
        if len(trick.plays) != 4:
            raise _fail("types", f"a completed trick has four plays, not {trick.plays!r}")


# -- the game: records, scores, dealer, end --------------------------------------------------


def _seat_after(seat: Seat, steps: int) -> Seat:
    return _SEATS[(seat + steps) % 4]


def check_score_sheet(state: GameState) -> None:
    """The cheap part of :func:`validate`: the score sheet of finished hands, the totals, the
    dealer and the end of the game agree (``records``, ``scores``, ``dealer``, ``game-over``).

    :func:`deepsix.sample_state` runs it on every state it builds, so a forged view's score
    sheet cannot pass into a bot's search.
    """
    _check_game(state)


def _check_game(state: GameState) -> None:
    """The score sheet, the totals, the dealer and the end of the game agree."""
    rules = state.rules
    records = state.completed_hands
    totals = (0, 0)
    first = first_dealer(state)
    for index, record in enumerate(records):
        totals = _check_record(rules, first, index, record, totals)
        if index < len(records) - 1 and game_winner(totals, rules) is not None:
            raise _fail("records", f"the game should have ended after hand {index + 1}")
    if state.scores != totals:
        raise _fail("scores", f"scores {state.scores} should be the records' totals {totals}")
    over = game_winner(totals, rules) is not None
    if state.phase is Phase.GAME_OVER:
        if not over:
            raise _fail("game-over", f"the game is over but the totals {totals} do not end it")
        if state.dealer != records[-1].dealer:
            raise _fail("dealer", "after the game the dealer is the last hand's dealer")
    else:
        if over:
            raise _fail(
                "game-over",
                f"the totals {totals} end the game, but the phase is {state.phase.value}",
            )
        if records and state.dealer != _seat_after(first, len(records)):
            raise _fail(
                "dealer",
                f"hand {len(records) + 1} should be dealt by "
                f"{_seat_after(first, len(records)).name}, not {state.dealer.name}",
            )


def _check_record(
    rules: Rules, first: Seat, index: int, record: HandRecord, totals: tuple[int, int]
) -> tuple[int, int]:
    """One score-sheet line is consistent; the running totals after it."""
    where = f"hand record {index + 1}"
    if record.number != index + 1:
        raise _fail("records", f"{where} is numbered {record.number}")
    if record.dealer != _seat_after(first, index):
        raise _fail(
            "records", f"{where}: dealer {record.dealer.name} breaks the clockwise rotation"
        )
    bid = record.bid
    if bid % rules.bid_step or not rules.lowest_bid <= bid <= rules.opening_bid_limit:
        raise _fail("records", f"{where}: bid {bid} is not on the rules' bid ladder")
    points = record.card_points
    if min(points) < 0 or sum(points) != TOTAL_CARD_POINTS or points[0] % 10:
        raise _fail("records", f"{where}: card points {points} do not split {TOTAL_CARD_POINTS}")
    if max(record.meld) > 0 or record.meld[0] % 5 or record.meld[1] % 5:
        raise _fail("records", f"{where}: meld {record.meld} is not a sum of meld values")
    outcome = score_hand(record.bidder.team, bid, points, record.meld, rules)
    if (record.net, record.scores, record.made) != (outcome.net, outcome.scores, outcome.made):
        raise _fail(
            "records",
            f"{where}: net {record.net}, scores {record.scores}, made {record.made} "
            f"should be {outcome.net}, {outcome.scores}, {outcome.made}",
        )
    totals = (totals[0] + record.scores[0], totals[1] + record.scores[1])
    if record.totals != totals:
        raise _fail("records", f"{where}: totals {record.totals} should be {totals}")
    return totals


def _check_phase(state: GameState) -> None:
    """Who acts fits the phase, and nothing is on the table before the deal."""
    if state.phase is Phase.DEAL:
        if state.to_act is not None:
            raise _fail("phase", "nobody acts at a deal (to_act must be None)")
        if any(state.packed_hands) or state.trick or state.tricks:
            raise _fail("phase", "before the deal the hands and the table are empty")
        if state.setup != HandSetup():
            raise _fail("phase", "before the deal the hand's setup is empty")
    elif state.phase is Phase.GAME_OVER:
        if state.to_act is not None:
            raise _fail("phase", "nobody acts once the game is over (to_act must be None)")
        if any(state.packed_hands) or state.trick or len(state.tricks) != HAND_SIZE:
            raise _fail("phase", "a finished game has empty hands and 14 tricks on the table")
    elif state.to_act is None:
        raise _fail("phase", f"some seat must act in the {state.phase.value} phase")


# -- the current hand: conservation, then the replay -------------------------------------


def _check_hand(state: GameState) -> None:
    setup = state.setup
    current = [counts(packed) for packed in state.packed_hands]
    played = played_counts(plays_by_trick(state.tricks, state.trick))
    _check_cards(state, current, played)
    dealt = dealt_counts(
        state.phase,
        current=current,
        played=played,
        bidder=setup.bidder,
        partner_pass=setup.partner_pass,
        bidder_pass=setup.bidder_pass,
    )
    for seat in _SEATS:
        row = dealt[seat]
        if min(row) < 0:
            card = CARDS[min(range(28), key=row.__getitem__)]
            raise _fail(
                "passes",
                f"the passes do not fit {seat.name}'s cards ({card.ascii} would have been "
                "dealt a negative number of times)",
            )
    for seat in _SEATS:
        if sum(dealt[seat]) != HAND_SIZE:
            raise _fail(
                "hand-sizes",
                f"{seat.name} holds {sum(current[seat])} cards in the {state.phase.value} "
                f"phase: it would have been dealt {sum(dealt[seat])}, not {HAND_SIZE}",
            )
    _check_replay(state, dealt)


def _check_cards(state: GameState, current: list[list[int]], played: list[list[int]]) -> None:
    in_flight = counts_of(
        state.setup.partner_pass
        if state.phase is Phase.PARTNER_PASS
        else state.setup.bidder_pass
        if state.phase is Phase.BIDDER_PASS
        else ()
    )
    for i in range(28):
        held = sum(current[s][i] + played[s][i] for s in range(4)) + in_flight[i]
        if held != 2:
            raise _fail(
                "cards",
                f"{CARDS[i].ascii} is accounted for {held} times (hands, passes in flight "
                "and tricks must hold each card exactly twice)",
            )


_REFUSED: Final[dict[type, str]] = {
    Bid: "auction",
    Pass: "auction",
    NameSunkSuit: "auction",
    ShowCard: "setup",
    PassCard: "passes",
    PlayCard: "play",
}
"""The invariant a refused action of each kind breaks (melds: ``melds``)."""
_REFUSED_FOR: Final[dict[Reason, str]] = {
    Reason.CARD_NOT_IN_HAND: "passes",
    Reason.CARD_MELDED: "melds",
    Reason.NOT_YOUR_TURN: "tricks",
}
"""Reasons that name the invariant whatever the action (a play out of turn: the tricks)."""

_COMPARED: Final = (
    ("bids", "auction"),
    ("bidder", "auction"),
    ("bid", "auction"),
    ("sunk_suit", "setup"),
    ("invitation", "setup"),
    ("partner_pass", "setup"),
    ("bidder_pass", "setup"),
    ("melds", "melds"),
)
"""The setup fields the replay must reproduce, and the invariant each belongs to."""


def _check_replay(state: GameState, dealt: list[list[int]]) -> None:
    """Replay the hand through the engine; it must reproduce ``state`` exactly."""
    records = state.completed_hands
    if state.phase is Phase.GAME_OVER:
        before = records[-2].totals if len(records) > 1 else (0, 0)
        start = hand_start(state.rules, state.dealer, before, records[:-1])
    else:
        start = hand_start(state.rules, state.dealer, state.scores, records)
    replayed = start
    done = 0
    steps = replay_hand(start, dealt, state.setup, state)
    try:
        for step in steps:
            replayed = step.after
            done += 1
    except (IllegalActionError, NotAnActionError) as error:
        raise _refused(error, done + 1) from error
    setup, again = state.setup, replayed.setup
    for name, invariant in _COMPARED:
        if getattr(setup, name) != getattr(again, name):
            raise _fail(invariant, f"the hand's {name} does not follow from its actions")
    if replayed.phase is not state.phase:
        invariant = "tricks" if state.phase is Phase.PLAY else "setup"
        raise _fail(
            invariant,
            f"the hand's record leads to the {replayed.phase.value} phase, not {state.phase.value}",
        )
    if replayed.to_act != state.to_act:
        raise _fail("phase", f"{replayed.to_act} acts next, not {state.to_act}")
    if replayed.packed_hands != state.packed_hands:
        raise _fail("hand-sizes", "the hands do not follow from the deal and the passes")
    if replayed.tricks != state.tricks or replayed.trick != state.trick:
        raise _fail("tricks", "the tricks do not follow from the plays (leader, order or winner)")
    if replayed.completed_hands != records or replayed.scores != state.scores:
        raise _fail("game-over", "the last hand record does not match the hand played")
    different = _first_difference(replayed, state, skip=("log",))
    if different is not None:
        # A safety net behind the named checks above: they compare every field.
        raise _fail("hand", f"replaying the hand gives a different {different}")


def _first_difference(a: GameState, b: GameState, skip: tuple[str, ...] = ()) -> str | None:
    """The first init field in which two states differ (``None`` if they agree)."""
    for field in attrs.fields(GameState):
        name = field.name
        if field.init and name not in skip and getattr(a, name) != getattr(b, name):
            return name
    return None


def _refused(error: IllegalActionError | NotAnActionError, index: int) -> InvariantError:
    """The invariant an action refused during the replay breaks."""
    action = error.action
    invariant = _REFUSED_FOR.get(error.reason) or _REFUSED.get(type(action), "melds")
    detail = f"action {index} of the hand ({action}) is refused: {error}"
    if invariant == "play":
        detail = f"{action} in the hand was not a legal play for the cards held then: {error}"
    return _fail(invariant, detail)


# -- history ------------------------------------------------------------------------


def _check_history(state: GameState) -> None:
    replayed = history_start(state)
    done = 0
    try:
        for step in walk(replayed, state.history):
            replayed = step.after
            done += 1
    except DeepSixError as error:
        raise _fail("history", f"action {done + 1} of the history is illegal: {error}") from error
    if replayed != state:
        field = _first_difference(replayed, state) or "log"
        raise _fail("history", f"the history replays to a state with a different {field}")
