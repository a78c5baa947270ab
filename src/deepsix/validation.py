"""Checking every invariant of a game state: :func:`validate`.

States made by :func:`deepsix.apply` are always valid.  States that come
from outside -- loaded from JSON, built by hand, sampled for a bot -- are
checked here, and loading calls :func:`validate` on every state it returns.

The invariants, each with the name that :class:`InvariantError` reports
(its ``.invariant``):

``types``
    Every field holds a value of the right type (seats are
    :class:`~deepsix.Seat`, cards :class:`~deepsix.Card`, hands four
    bit-packed ints with at most two copies of a card, ...).
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
    state exactly (a catch-all behind the specific checks).
``history``
    When the state carries a history it replays to the state (see
    :func:`validate` for histories that start at a later deal).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import attrs

from deepsix.actions import (
    Action,
    Bid,
    Deal,
    DeclareMeld,
    Done,
    NameSunkSuit,
    Pass,
    PassCard,
    PlayCard,
    ShowCard,
)
from deepsix.bidding import after_call, legal_calls
from deepsix.cards import CARDS, Card, Seat, Suit
from deepsix.engine import apply, new_game
from deepsix.errors import DeepSixError, IllegalActionError, InvalidStateError
from deepsix.hands import counts
from deepsix.melds import Meld, MeldFamily, can_show, melded_copies
from deepsix.rules import Rules
from deepsix.scoring import TOTAL_CARD_POINTS, game_winner, score_hand
from deepsix.state import GameState, HandRecord, HandSetup, History, Phase
from deepsix.tricks import Trick, legal_plays, trick_winner

__all__ = ["INVARIANTS", "InvariantError", "validate"]

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


class InvariantError(InvalidStateError):
    """A state breaks an invariant; ``.invariant`` names it (one of :data:`INVARIANTS`)."""

    def __init__(self, invariant: str, detail: str) -> None:
        self.invariant = invariant
        self.detail = detail
        super().__init__(f"invalid state ({invariant}): {detail}")


PHASE_ORDER: Final[dict[Phase, int]] = {phase: i for i, phase in enumerate(Phase)}
"""Phases in the order a hand goes through them (``GAME_OVER`` last)."""

_SEATS: Final = tuple(Seat)
_HAND_SIZE: Final = 14
_MAX_PACKED: Final = 1 << 56


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
    if not isinstance(state, GameState):
        raise InvariantError("types", f"expected a GameState, got {type(state).__name__}")
    _check_types(state)
    _check_game(state)
    if state.phase is Phase.DEAL:
        _check_deal_phase(state)
    else:
        hand = _Hand(state)
        hand.check()
    if history and state.log is not None:
        _check_history(state)


# -- types ---------------------------------------------------------------------


def _fail(invariant: str, detail: str) -> InvariantError:
    return InvariantError(invariant, detail)


def _is_int(value: object) -> bool:
    return type(value) is int


def _is_pair(value: object) -> bool:
    return type(value) is tuple and len(value) == 2 and all(type(v) is int for v in value)


def _is_seat(value: object) -> bool:
    return type(value) is Seat


def _is_card(value: object) -> bool:
    return type(value) is Card


def _check_types(state: GameState) -> None:
    def need(ok: bool, what: str) -> None:
        if not ok:
            raise _fail("types", what)

    need(isinstance(state.rules, Rules), f"rules must be a Rules, not {state.rules!r}")
    need(_is_seat(state.dealer), f"dealer must be a Seat, not {state.dealer!r}")
    need(isinstance(state.phase, Phase), f"phase must be a Phase, not {state.phase!r}")
    need(
        state.to_act is None or _is_seat(state.to_act),
        f"to_act must be a Seat or None, not {state.to_act!r}",
    )
    need(_is_pair(state.scores), f"scores must be two ints, not {state.scores!r}")
    need(type(state.completed_hands) is tuple, "completed_hands must be a tuple")
    for record in state.completed_hands:
        _check_record_types(record)
    _check_setup_types(state.setup)
    packed = state.packed_hands
    need(
        type(packed) is tuple and len(packed) == 4,
        "packed_hands must be a tuple of four ints",
    )
    for seat, hand in zip(_SEATS, packed, strict=True):
        need(
            _is_int(hand) and 0 <= hand < _MAX_PACKED,
            f"{seat.name}'s packed hand must be an int in [0, 2**56), not {hand!r}",
        )
    need(type(state.trick) is tuple and len(state.trick) <= 3, "trick must be a tuple of 0-3 plays")
    for play in state.trick:
        need(_is_play(play), f"a play must be a (Seat, Card) pair, not {play!r}")
    need(type(state.tricks) is tuple and len(state.tricks) <= 14, "tricks must be a tuple of 0-14")
    for trick in state.tricks:
        need(isinstance(trick, Trick), f"tricks must hold Trick records, not {trick!r}")
        need(
            type(trick.plays) is tuple and len(trick.plays) == 4,
            f"a completed trick has four plays, not {trick.plays!r}",
        )
        for play in trick.plays:
            need(_is_play(play), f"a play must be a (Seat, Card) pair, not {play!r}")
        need(_is_seat(trick.winner), f"a trick's winner must be a Seat, not {trick.winner!r}")
    need(
        state.log is None or isinstance(state.log, History),
        f"log must be a History or None, not {type(state.log).__name__}",
    )


def _is_play(play: object) -> bool:
    return type(play) is tuple and len(play) == 2 and _is_seat(play[0]) and _is_card(play[1])


def _check_record_types(record: object) -> None:
    if not isinstance(record, HandRecord):
        raise _fail("types", f"completed_hands must hold HandRecords, not {record!r}")
    ok = (
        _is_int(record.number)
        and _is_seat(record.dealer)
        and _is_seat(record.bidder)
        and _is_int(record.bid)
        and type(record.sunk_suit) is Suit
        and all(
            _is_pair(getattr(record, name))
            for name in ("card_points", "meld", "net", "scores", "totals")
        )
        and type(record.made) is bool
    )
    if not ok:
        raise _fail("types", f"hand record has a field of the wrong type: {record!r}")


def _check_setup_types(setup: object) -> None:
    if not isinstance(setup, HandSetup):
        raise _fail("types", f"setup must be a HandSetup, not {setup!r}")
    problems = []
    if type(setup.bids) is not tuple or not all(type(c) in (Bid, Pass) for c in setup.bids):
        problems.append("bids must be a tuple of Bid and Pass")
    if setup.bidder is not None and not _is_seat(setup.bidder):
        problems.append("bidder must be a Seat or None")
    if setup.bid is not None and not _is_int(setup.bid):
        problems.append("bid must be an int or None")
    if setup.sunk_suit is not None and type(setup.sunk_suit) is not Suit:
        problems.append("sunk_suit must be a Suit or None")
    for name in ("shown", "partner_pass", "bidder_pass"):
        value = getattr(setup, name)
        if type(value) is not tuple or not all(_is_card(c) for c in value):
            problems.append(f"{name} must be a tuple of Cards")
    melds = setup.melds
    if (
        type(melds) is not tuple
        or len(melds) != 4
        or not all(type(m) is tuple and all(isinstance(x, Meld) for x in m) for m in melds)
    ):
        problems.append("melds must be four tuples of Melds")
    if problems:
        raise _fail("types", "; ".join(problems))


# -- the game: records, scores, dealer, end ------------------------------------------------


def _seat_after(seat: Seat, steps: int) -> Seat:
    return _SEATS[(seat + steps) % 4]


def first_dealer(state: GameState) -> Seat:
    """The dealer of the game's first hand."""
    return state.completed_hands[0].dealer if state.completed_hands else state.dealer


def _check_game(state: GameState) -> None:
    rules = state.rules
    records = state.completed_hands
    totals = (0, 0)
    first = first_dealer(state)
    for index, record in enumerate(records):
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
            raise _fail(
                "records", f"{where}: card points {points} do not split {TOTAL_CARD_POINTS}"
            )
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


def _check_deal_phase(state: GameState) -> None:
    if state.to_act is not None:
        raise _fail("phase", "nobody acts at a deal (to_act must be None)")
    if any(state.packed_hands) or state.trick or state.tricks:
        raise _fail("phase", "before the deal the hands and the table are empty")
    if state.setup != HandSetup():
        raise _fail("phase", "before the deal the hand's setup is empty")


# -- the current hand ----------------------------------------------------------------


def _counts_of(cards: Sequence[Card]) -> list[int]:
    result = [0] * 28
    for card in cards:
        result[card] += 1
    return result


def _format_counts(row: Sequence[int]) -> str:
    return " ".join(CARDS[i].ascii for i in range(28) for _ in range(row[i])) or "nothing"


def dealt_counts(
    phase: Phase,
    *,
    current: Sequence[Sequence[int]],
    played: Sequence[Sequence[int]],
    bidder: Seat | None,
    partner_pass: Sequence[Card],
    bidder_pass: Sequence[Card],
) -> list[list[int]]:
    """The count vectors of the hands each seat was dealt, recovered from where the cards are now.

    ``current`` and ``played`` are per-seat count vectors of the cards held
    and the cards played this hand.  Entries may come out negative when the
    passes do not fit the hands (the caller reports that).
    """
    dealt = [[current[s][i] + played[s][i] for i in range(28)] for s in range(4)]
    order = PHASE_ORDER[phase]
    if bidder is None or order < PHASE_ORDER[Phase.PARTNER_PASS]:
        return dealt
    b, p = int(bidder), int(bidder.partner)
    to_bidder = _counts_of(partner_pass)
    for i in range(28):
        dealt[p][i] += to_bidder[i]
        if phase is not Phase.PARTNER_PASS:
            dealt[b][i] -= to_bidder[i]
    if order >= PHASE_ORDER[Phase.BIDDER_PASS]:
        back = _counts_of(bidder_pass)
        for i in range(28):
            dealt[b][i] += back[i]
            if phase is not Phase.BIDDER_PASS:
                dealt[p][i] -= back[i]
    return dealt


def hand_script(
    deal: Deal,
    setup: HandSetup,
    *,
    phase: Phase,
    to_act: Seat | None,
    tricks: Sequence[Trick],
    trick: Sequence[tuple[Seat, Card]],
) -> list[Action]:
    """Every action of the current hand, in order, rebuilt from its public record and the deal.

    The order of a hand is fixed by the rules, so the setup, the phase and
    the tricks say exactly which actions were taken: the deal, the calls,
    the sunk suit, the cards shown then done, the partner's passes, the
    bidder's melds then done, her passes, each other seat's melds then done
    (clockwise from the bidder's left, up to the seat to act), then the
    plays.
    """
    order = PHASE_ORDER[phase]
    script: list[Action] = [deal, *setup.bids]
    bidder = setup.bidder
    if order <= PHASE_ORDER[Phase.SUNK_SUIT] or bidder is None or setup.sunk_suit is None:
        return script
    partner = bidder.partner
    script.append(NameSunkSuit(bidder, setup.sunk_suit))
    script.extend(ShowCard(bidder, card) for card in setup.shown)
    if order <= PHASE_ORDER[Phase.INVITATION]:
        return script
    script.append(Done(bidder))
    script.extend(PassCard(partner, card) for card in setup.partner_pass)
    if order <= PHASE_ORDER[Phase.PARTNER_PASS]:
        return script
    script.extend(DeclareMeld(bidder, meld) for meld in setup.melds[bidder])
    if order <= PHASE_ORDER[Phase.BIDDER_MELD]:
        return script
    script.append(Done(bidder))
    script.extend(PassCard(bidder, card) for card in setup.bidder_pass)
    if order <= PHASE_ORDER[Phase.BIDDER_PASS]:
        return script
    for step in (1, 2, 3):
        seat = _seat_after(bidder, step)
        script.extend(DeclareMeld(seat, meld) for meld in setup.melds[seat])
        if phase is Phase.MELDING and seat == to_act:
            return script
        script.append(Done(seat))
    for done in tricks:
        script.extend(PlayCard(seat, card) for seat, card in done.plays)
    script.extend(PlayCard(seat, card) for seat, card in trick)
    return script


def hand_start(
    rules: Rules, dealer: Seat, scores: tuple[int, int], completed: tuple[HandRecord, ...]
) -> GameState:
    """The state just before a hand's deal, with no history."""
    return attrs.evolve(new_game(rules, dealer), scores=scores, completed_hands=completed, log=None)


class _Hand:
    """The facts of the current (dealt) hand of a state, and the checks on them."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.rules = state.rules
        self.setup = state.setup
        self.phase = state.phase
        self.order = PHASE_ORDER[state.phase]
        self.current = [counts(packed) for packed in state.packed_hands]
        self.sizes = [sum(row) for row in self.current]
        self.played = [[0] * 28 for _ in range(4)]
        self.plays: list[tuple[Seat, Card]] = []
        for trick in state.tricks:
            self.plays.extend(trick.plays)
        self.plays.extend(state.trick)
        for seat, card in self.plays:
            self.played[seat][card] += 1

    def at_least(self, phase: Phase) -> bool:
        return self.order >= PHASE_ORDER[phase]

    def check(self) -> None:
        self.check_phase_basics()
        self.check_cards()
        self.check_auction()
        self.check_setup()
        self.check_hand_sizes()
        self.check_tricks()
        self.check_passes()
        self.check_melds()
        self.check_play()
        self.check_replay()

    # -- individual invariants ------------------------------------------------------

    def check_phase_basics(self) -> None:
        state = self.state
        if self.phase is Phase.GAME_OVER:
            if state.to_act is not None:
                raise _fail("phase", "nobody acts once the game is over (to_act must be None)")
            if any(state.packed_hands) or state.trick or len(state.tricks) != 14:
                raise _fail("phase", "a finished game has empty hands and 14 tricks on the table")
        elif state.to_act is None:
            raise _fail("phase", f"some seat must act in the {self.phase.value} phase")
        if self.phase not in (Phase.PLAY, Phase.GAME_OVER) and (state.trick or state.tricks):
            raise _fail("phase", f"no card is played before the play ({self.phase.value})")

    def check_cards(self) -> None:
        total = [0] * 28
        for s in range(4):
            for i in range(28):
                total[i] += self.current[s][i] + self.played[s][i]
        in_flight: tuple[Card, ...] = ()
        if self.phase is Phase.PARTNER_PASS:
            in_flight = self.setup.partner_pass
        elif self.phase is Phase.BIDDER_PASS:
            in_flight = self.setup.bidder_pass
        for card in in_flight:
            total[card] += 1
        for i, n in enumerate(total):
            if n != 2:
                raise _fail(
                    "cards",
                    f"{CARDS[i].ascii} is accounted for {n} times (hands, passes in flight "
                    "and tricks must hold each card exactly twice)",
                )

    def check_auction(self) -> None:
        state, setup, rules = self.state, self.setup, self.rules
        expected = state.dealer.left
        bidder: Seat | None = None
        bid: int | None = None
        finished = False
        calls: tuple[Bid | Pass, ...] = ()
        for index, call in enumerate(setup.bids, start=1):
            if finished:
                raise _fail("auction", f"call {index} ({call}) comes after the auction ended")
            if call.seat != expected:
                raise _fail("auction", f"call {index} ({call}) should be {expected.name}'s")
            if call not in legal_calls(rules, calls, call.seat, bid):
                raise _fail("auction", f"call {index} ({call}) is not a legal call")
            step = after_call(calls, bidder, bid, call)
            calls, bidder, bid, finished, expected = (
                step.bids,
                step.bidder,
                step.bid,
                step.finished,
                step.next_seat,
            )
        if (setup.bidder, setup.bid) != (bidder, bid):
            raise _fail(
                "auction",
                f"bidder {setup.bidder} and bid {setup.bid} should be those of the last bid "
                f"({bidder}, {bid})",
            )
        if self.phase is Phase.BIDDING:
            if finished:
                raise _fail("auction", "the auction is over but the phase is still bidding")
            if state.to_act != expected:
                raise _fail("phase", f"{expected.name} calls next, not {state.to_act}")
        elif not finished:
            raise _fail("auction", f"the auction is still open in the {self.phase.value} phase")

    def check_setup(self) -> None:
        setup, rules, state = self.setup, self.rules, self.state
        k = rules.pass_size
        if self.at_least(Phase.INVITATION) != (setup.sunk_suit is not None):
            raise _fail(
                "setup", f"the sunk suit is named from the invitation on ({setup.sunk_suit})"
            )
        if setup.shown and not self.at_least(Phase.INVITATION):
            raise _fail("setup", "cards are shown only from the invitation on")
        sunk = setup.sunk_suit
        for card in setup.shown:
            if sunk is not None and not can_show(card, sunk):
                raise _fail("setup", f"{card.ascii} cannot belong to a meld, so it can't be shown")
        expected_pp = (
            range(k)
            if self.phase is Phase.PARTNER_PASS
            else range(k, k + 1)
            if self.at_least(Phase.BIDDER_MELD)
            else range(1)
        )
        if len(setup.partner_pass) not in expected_pp:
            raise _fail(
                "setup",
                f"{len(setup.partner_pass)} cards passed to the bidder in the "
                f"{self.phase.value} phase (pass size {k})",
            )
        expected_bp = (
            range(k)
            if self.phase is Phase.BIDDER_PASS
            else range(k, k + 1)
            if self.at_least(Phase.MELDING)
            else range(1)
        )
        if len(setup.bidder_pass) not in expected_bp:
            raise _fail(
                "setup",
                f"{len(setup.bidder_pass)} cards passed back by the bidder in the "
                f"{self.phase.value} phase (pass size {k})",
            )
        bidder = setup.bidder
        if self.phase in (Phase.SUNK_SUIT, Phase.INVITATION, Phase.BIDDER_MELD, Phase.BIDDER_PASS):
            if state.to_act != bidder:
                raise _fail("phase", f"the bidder acts in the {self.phase.value} phase")
        elif self.phase is Phase.PARTNER_PASS:
            assert bidder is not None
            if state.to_act != bidder.partner:
                raise _fail("phase", "the bidder's partner acts in the partner-pass phase")
        elif self.phase is Phase.MELDING and state.to_act == bidder:
            raise _fail("phase", "the bidder has melded already; another seat must act")

    def meld_turn_came(self, seat: Seat) -> bool:
        bidder = self.setup.bidder
        if bidder is None or not self.at_least(Phase.BIDDER_MELD):
            return False
        if seat == bidder or self.at_least(Phase.PLAY):
            return True
        if self.phase is not Phase.MELDING:
            return False
        to_act = self.state.to_act
        assert to_act is not None
        return (seat - bidder) % 4 <= (to_act - bidder) % 4

    def check_hand_sizes(self) -> None:
        k = self.rules.pass_size
        expected = [_HAND_SIZE] * 4
        bidder = self.setup.bidder
        if self.phase is Phase.GAME_OVER:
            expected = [0] * 4
        elif bidder is not None and self.at_least(Phase.PARTNER_PASS):
            b, p = int(bidder), int(bidder.partner)
            if self.phase is Phase.PARTNER_PASS:
                expected[p] -= len(self.setup.partner_pass)
            elif self.phase is Phase.BIDDER_MELD:
                expected[b] += k
                expected[p] -= k
            elif self.phase is Phase.BIDDER_PASS:
                expected[b] += k - len(self.setup.bidder_pass)
                expected[p] -= k
            elif self.phase is Phase.PLAY:
                for s in range(4):
                    expected[s] = _HAND_SIZE - sum(self.played[s])
        for seat in _SEATS:
            if self.sizes[seat] != expected[seat]:
                raise _fail(
                    "hand-sizes",
                    f"{seat.name} holds {self.sizes[seat]} cards; the {self.phase.value} phase "
                    f"needs {expected[seat]}",
                )

    def check_tricks(self) -> None:
        state = self.state
        sunk = self.setup.sunk_suit
        leader = self.setup.bidder
        for number, trick in enumerate(state.tricks, start=1):
            assert leader is not None
            seats = [seat for seat, _ in trick.plays]
            if seats != [_seat_after(leader, i) for i in range(4)]:
                raise _fail(
                    "tricks",
                    f"trick {number} should be led by {leader.name} and go clockwise: {trick}",
                )
            winner = trick_winner(trick.plays, sunk)
            if trick.winner != winner:
                raise _fail("tricks", f"trick {number} ({trick}) is won by {winner.name}")
            leader = trick.winner
        if self.phase is Phase.PLAY:
            assert leader is not None
            seats = [seat for seat, _ in state.trick]
            if seats != [_seat_after(leader, i) for i in range(len(seats))]:
                raise _fail(
                    "tricks", f"the current trick should be led by {leader.name} and go clockwise"
                )
            if len(state.tricks) >= 14:
                raise _fail("tricks", "a hand has 14 tricks; the 14th ends the play")
            if state.to_act != _seat_after(leader, len(seats)):
                raise _fail(
                    "phase",
                    f"{_seat_after(leader, len(seats)).name} plays next, not {state.to_act}",
                )

    def dealt(self) -> list[list[int]]:
        setup = self.setup
        return dealt_counts(
            self.phase,
            current=self.current,
            played=self.played,
            bidder=setup.bidder,
            partner_pass=setup.partner_pass,
            bidder_pass=setup.bidder_pass,
        )

    def check_passes(self) -> None:
        dealt = self.dealt()
        for seat in _SEATS:
            row = dealt[seat]
            if min(row) < 0:
                card = CARDS[min(range(28), key=row.__getitem__)]
                raise _fail(
                    "passes",
                    f"the passes do not fit {seat.name}'s cards ({card.ascii} would have been "
                    "dealt a negative number of times)",
                )
            if sum(row) != _HAND_SIZE:
                raise _fail("passes", f"{seat.name} would have been dealt {sum(row)} cards")
        bidder = self.setup.bidder
        if bidder is not None and self.setup.shown:
            shown = _counts_of(self.setup.shown)
            for i in range(28):
                if shown[i] > dealt[bidder][i]:
                    raise _fail(
                        "passes",
                        f"the bidder showed {shown[i]} x {CARDS[i].ascii} but was dealt "
                        f"{dealt[bidder][i]}",
                    )
        if bidder is not None and self.at_least(Phase.PARTNER_PASS):
            # The partner passed from his dealt hand; the bidder passed back from her 17.
            pp = _counts_of(self.setup.partner_pass)
            partner = bidder.partner
            for i in range(28):
                if pp[i] > dealt[partner][i]:
                    raise _fail("passes", f"{partner.name} passed {CARDS[i].ascii} without it")

    def check_melds(self) -> None:
        setup, rules = self.setup, self.rules
        sunk = setup.sunk_suit
        bidder = setup.bidder
        for seat in _SEATS:
            melds = setup.melds[seat]
            if not melds:
                continue
            if not self.meld_turn_came(seat):
                raise _fail("melds", f"{seat.name} has melds before its turn to meld")
            for meld in melds:
                if meld.family is MeldFamily.RUN and meld.suit == sunk:
                    raise _fail("melds", f"{seat.name} melds {meld.code}, a run in the sunk suit")
            need = melded_copies(melds, sharing=rules.meld_sharing)
            have = [self.current[seat][i] + self.played[seat][i] for i in range(28)]
            for i in range(28):
                if need[i] > have[i]:
                    raise _fail(
                        "melds",
                        f"{seat.name}'s melds ({' '.join(m.code for m in melds)}) need "
                        f"{need[i]} x {CARDS[i].ascii}; it has {have[i]} (melded cards stay "
                        "in the hand until played)",
                    )
            if seat == bidder and sum(need) > _HAND_SIZE:
                raise _fail(
                    "melds",
                    f"the bidder's melds tie up {sum(need)} cards; she must keep "
                    f"{rules.pass_size} of her {_HAND_SIZE + rules.pass_size} unmelded",
                )

    def check_play(self) -> None:
        if not self.plays:
            return
        sunk = self.setup.sunk_suit
        play_over = self.rules.play_over
        holding = list(self.state.packed_hands)
        # The trick each play was made to: the cards played before it in that trick.
        positions = [i % 4 for i in range(len(self.plays))]
        for index in range(len(self.plays) - 1, -1, -1):
            seat, card = self.plays[index]
            holding[seat] += 1 << (2 * card)
            start = index - positions[index]
            before = [c for _, c in self.plays[start:index]]
            if card not in legal_plays(holding[seat], before, sunk, play_over):
                number = index // 4 + 1
                raise _fail(
                    "play",
                    f"{seat.name}'s {card.ascii} in trick {number} was not a legal play for the "
                    "cards it held then (follow suit, play over)",
                )

    def check_replay(self) -> None:
        state = self.state
        dealt = self.dealt()
        cards = [CARDS[i] for s in range(4) for i in range(28) for _ in range(dealt[s][i])]
        script = hand_script(
            Deal(cards),
            self.setup,
            phase=self.phase,
            to_act=state.to_act,
            tricks=state.tricks,
            trick=state.trick,
        )
        if self.phase is Phase.GAME_OVER:
            records = state.completed_hands
            before = records[-2].totals if len(records) > 1 else (0, 0)
            start = hand_start(state.rules, state.dealer, before, records[:-1])
        else:
            start = hand_start(state.rules, state.dealer, state.scores, state.completed_hands)
        replayed = start
        for index, action in enumerate(script):
            try:
                replayed = apply(replayed, action)
            except IllegalActionError as error:
                raise _fail(
                    "hand", f"the hand does not replay: action {index + 1} ({action}): {error}"
                ) from error
        for field in ("phase", "to_act", "setup", "packed_hands", "trick", "tricks"):
            if getattr(replayed, field) != getattr(state, field):
                raise _fail("hand", f"replaying the hand gives a different {field}")
        if replayed.completed_hands != state.completed_hands or replayed.scores != state.scores:
            raise _fail("game-over", "the last hand record does not match the hand played")


# -- history ------------------------------------------------------------------------


def _check_history(state: GameState) -> None:
    log = state.log
    assert log is not None
    actions = log.to_tuple()
    deals = sum(1 for action in actions if type(action) is Deal)
    records = state.completed_hands
    dealt = len(records) + (state.phase not in (Phase.DEAL, Phase.GAME_OVER))
    if deals > dealt:
        raise _fail("history", f"the history holds {deals} deals but {dealt} hands were dealt")
    skipped = dealt - deals
    if skipped == 0:
        replayed = new_game(state.rules, first_dealer(state))
    else:
        if type(actions[0]) is not Deal:
            raise _fail("history", "a history that omits the first hands must start with a deal")
        first = first_dealer(state)
        before = records[skipped - 1].totals
        replayed = hand_start(state.rules, _seat_after(first, skipped), before, records[:skipped])
    for index, action in enumerate(actions):
        try:
            replayed = apply(replayed, action)
        except (IllegalActionError, TypeError, AttributeError) as error:
            raise _fail(
                "history", f"action {index + 1} of the history ({action}) is illegal: {error}"
            ) from error
        except DeepSixError as error:
            raise _fail("history", f"action {index + 1} of the history: {error}") from error
    if replayed != state:
        field = next(
            (
                f.name
                for f in attrs.fields(GameState)
                if getattr(replayed, f.name) != getattr(state, f.name)
            ),
            "log",
        )
        raise _fail("history", f"the history replays to a state with a different {field}")
