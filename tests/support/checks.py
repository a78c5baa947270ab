"""Invariant checkers shared by the property tests and the stateful machine (issue 3).

Each ``assert_*`` function checks one numbered invariant of the game on a
state (or a transition) and fails with a message naming it.  The scoring
and game-end references here are written from the rules text, not from
:mod:`deepsix.scoring`, so that they are a second, independent formulation.
"""

from __future__ import annotations

import enum
import itertools
from collections import Counter
from collections.abc import Sequence
from typing import cast

import attrs

from deepsix import (
    ALL_MELDS,
    DECK,
    Action,
    Bid,
    Card,
    Deal,
    DeclareMeld,
    Done,
    GameState,
    HandRecord,
    Meld,
    MeldFamily,
    NameSunkSuit,
    Pass,
    PassCard,
    Phase,
    PlayCard,
    PlayOver,
    Reason,
    Rules,
    Seat,
    ShowCard,
    Suit,
    Team,
    apply,
    legal_actions,
    new_game,
)
from deepsix.history import History

__all__ = [
    "DECK_COUNTS",
    "assert_auction",
    "assert_conserved",
    "assert_hand_sizes",
    "assert_immutable",
    "assert_live",
    "assert_records",
    "assert_setup_consistent",
    "assert_state",
    "assert_transition",
    "assert_tricks",
    "first_dealer",
    "hand_action_bound",
    "naive_can_show",
    "naive_copies_needed",
    "naive_game_winner",
    "naive_hand_scores",
    "naive_legal_plays",
    "naive_meld_cards",
    "naive_meld_problems",
    "naive_meld_value",
    "naive_plays_over",
    "naive_violations",
    "naive_winning_position",
    "replay",
]

DECK_COUNTS: Counter[Card] = Counter(DECK)
"""The 56-card deck as a multiset."""

_IN_FLIGHT_PHASES = {Phase.PARTNER_PASS: "partner_pass", Phase.BIDDER_PASS: "bidder_pass"}


# -- Invariant 1: conservation ------------------------------------------------


def accounted_cards(state: GameState) -> Counter[Card]:
    """Every card copy the state knows of: hands, passes in flight, the table, taken tricks."""
    held: Counter[Card] = Counter()
    for hand in state.hands:
        held.update(hand)
    attribute = _IN_FLIGHT_PHASES.get(state.phase)
    if attribute is not None:
        held.update(getattr(state.setup, attribute))
    held.update(card for _, card in state.trick)
    for trick in state.tricks:
        held.update(trick.cards)
    return held


def assert_conserved(state: GameState) -> None:
    """Invariant 1: once dealt, the 56 cards are all accounted for exactly once.

    Before a deal (the chance step between hands) no cards are out at all.
    """
    held = accounted_cards(state)
    if state.phase is Phase.DEAL:
        assert not held, f"Invariant 1: cards out before the deal: {held}"
        return
    assert held == DECK_COUNTS, (
        f"Invariant 1: conservation broken in {state!r}: "
        f"extra {held - DECK_COUNTS}, missing {DECK_COUNTS - held}"
    )


def assert_hand_sizes(state: GameState) -> None:
    """Invariant 1: each seat holds the number of cards its phase implies (14 when play starts)."""
    sizes = [len(hand) for hand in state.hands]
    phase = state.phase
    if phase in (Phase.DEAL,):
        assert sizes == [0, 0, 0, 0]
        return
    if phase is Phase.GAME_OVER:
        assert sizes == [0, 0, 0, 0]
        assert len(state.tricks) == 14
        return
    expected = [14, 14, 14, 14]
    bidder = state.bidder
    size = state.rules.pass_size
    if phase is Phase.PARTNER_PASS:
        assert bidder is not None
        expected[bidder.partner] -= len(state.setup.partner_pass)
    elif phase is Phase.BIDDER_MELD:
        assert bidder is not None
        expected[bidder] += size
        expected[bidder.partner] -= size
    elif phase is Phase.BIDDER_PASS:
        assert bidder is not None
        expected[bidder] += size - len(state.setup.bidder_pass)
        expected[bidder.partner] -= size
    elif phase is Phase.PLAY:
        played = {seat for seat, _ in state.trick}
        expected = [14 - len(state.tricks) - (seat in played) for seat in Seat]
        if not state.tricks and not state.trick:
            assert sizes == [14, 14, 14, 14], "Invariant 1: 14 cards each at the start of play"
    assert sizes == expected, f"Invariant 1: hand sizes {sizes}, expected {expected} in {state!r}"


# -- setup consistency (R-INVITE-*, R-MELD-*, R-PASS-2) ------------------------


def assert_setup_consistent(state: GameState) -> None:
    """R-INVITE-2, R-MELD-3, R-MELD-4, R-PASS-2: the invitation and the melds fit the cards held."""
    setup = state.setup
    phase = state.phase
    if phase in (Phase.DEAL, Phase.BIDDING):
        assert setup.sunk_suit is None
        assert not setup.invitation
        assert not any(setup.melds)
        return
    if phase is Phase.GAME_OVER:
        return
    bidder, sunk = setup.bidder, setup.sunk_suit
    assert bidder is not None
    assert setup.bid is not None
    if phase is Phase.SUNK_SUIT:
        assert sunk is None
        assert state.to_act == bidder
        return
    assert sunk is not None
    shown = Counter(setup.invitation)
    assert all(naive_can_show(card, sunk) for card in shown), "R-INVITE-2: shown card can't meld"
    if phase in (Phase.INVITATION, Phase.PARTNER_PASS):
        assert not shown - Counter(state.hand(bidder)), "R-INVITE-1: shown cards left the hand"
    if phase is Phase.PLAY:
        return
    sharing = state.rules.meld_sharing
    for seat in Seat:
        tied = naive_copies_needed(setup.melds[seat], sharing=sharing)
        held = Counter(state.hand(seat))
        assert not tied - held, f"R-MELD-3: {seat} melds cards it lacks"
        if seat == bidder:
            assert sum(tied.values()) <= 14, "R-MELD-4: the bidder melded more than 14 copies"
        for meld in setup.melds[seat]:
            assert not (meld.family is MeldFamily.RUN and meld.suit == sunk), "R-MELD-2"


# -- the rules text's trick winner (R-PLAY-4 to R-PLAY-6) ----------------------


def naive_winning_position(cards: Sequence[Card], sunk: Suit) -> int:
    """Who wins a (partial) trick, written deliberately naively from the rules text.

    "3. A trick is won by the high card of the last suit introduced to the
    trick.  4. Cards in the sunk suit are always treated as if the sunk suit
    was the first suit introduced.  5. If two identical cards are played,
    the second one played is higher."

    The suits are listed in the order they were introduced; the sunk suit,
    if present, is moved to the front; the last suit listed is the winning
    suit; its cards are compared by rank, an identical later card beating
    the earlier one.
    """
    introduced: list[Suit] = []
    for card in cards:
        if card.suit not in introduced:
            introduced.append(card.suit)
    if sunk in introduced:
        introduced.remove(sunk)
        introduced.insert(0, sunk)
    winning_suit = introduced[-1]
    best: int | None = None
    for position, card in enumerate(cards):
        if card.suit != winning_suit:
            continue
        if best is None or card.rank > cards[best].rank:
            best = position
        elif card.rank == cards[best].rank:
            best = position  # rule 5: the second of two identical cards is higher
    assert best is not None
    return best


def naive_plays_over(card: Card, trick: Sequence[Card], sunk: Suit, play_over: PlayOver) -> bool:
    """Whether following with ``card`` "plays over" the partial ``trick`` (R-PLAY-3).

    By default: the card would win the trick as it stands (add it and ask
    :func:`naive_winning_position`).  The variant: it beats the highest card
    of the led suit played so far -- a higher rank, or the identical card,
    which rule 5 makes higher.
    """
    if play_over is PlayOver.WIN_TRICK:
        return naive_winning_position([*trick, card], sunk) == len(trick)
    led = trick[0].suit
    return card.rank >= max(c.rank for c in trick if c.suit == led)


def naive_legal_plays(
    hand: Sequence[Card], trick: Sequence[Card], sunk: Suit, play_over: PlayOver
) -> set[Card]:
    """The cards a player may play, written from the rules text (R-PLAY-2, R-PLAY-3).

    "1. A player must follow suit if possible. If they cannot, they may play
    any card in their hand.  2. If (and only if) a player follows suit, they
    must play over the cards currently in the trick, if possible. (If they
    cannot, they may play any card in suit.)"  See :func:`naive_plays_over`.
    """
    if not trick:
        return set(hand)
    led = trick[0].suit
    following = {card for card in hand if card.suit == led}
    if not following:
        return set(hand)
    over = {card for card in following if naive_plays_over(card, trick, sunk, play_over)}
    return over or following


# -- melds from the rules text (R-MELD-1 .. R-MELD-4) ---------------------------

_RUN_RANKS = {"GR": (8, 7, 6, 5, 4), "DR": (8, 7, 6), "SR": (7, 6, 5)}
_ECHO_RANK = {"DE": 8, "SE": 7, "MT": 6}
_WIDE_RANK = {"8W": 8, "7W": 7, "6W": 6}
_MELD_VALUE = {"GR": -50, "DR": -30, "SR": -15, "DE": -20, "SE": -15, "MT": -10}
_MELD_VALUE.update({"8W": -30, "7W": -20, "6W": -10})


def naive_meld_cards(meld: Meld) -> tuple[str, Counter[Card]]:
    """(family, card copies) of a meld, from the rules text's MELDING section and scoring table.

    "A deep run is a run of 6, 7, 8 of the same suit [...] a shallow run is a
    run of 5, 6, 7 [...] a grand run is 4, 5, 6, 7, 8 all one suit."  "An echo
    is a pair of two identical sixes, sevens, or eights."  "Wide is four cards
    of the same rank and different suits."
    """
    code = meld.kind.code
    if code in _RUN_RANKS:
        assert meld.suit is not None
        return "run", Counter(Card.of(rank, meld.suit) for rank in _RUN_RANKS[code])
    if code in _ECHO_RANK:
        assert meld.suit is not None
        return "echo", Counter({Card.of(_ECHO_RANK[code], meld.suit): 2})
    return "wide", Counter(Card.of(_WIDE_RANK[code], suit) for suit in Suit)


def naive_meld_value(meld: Meld) -> int:
    """A meld's points from the rules text's scoring table."""
    return _MELD_VALUE[meld.kind.code]


def naive_copies_needed(melds: Sequence[Meld], *, sharing: bool) -> Counter[Card]:
    """How many copies of each card some melds tie up under the sharing ruling (R-MELD-3).

    With sharing a copy may serve one meld of each family, so a card needs
    as many copies as its busiest family uses; without, every use needs its
    own copy.
    """
    per_family: dict[str, Counter[Card]] = {"run": Counter(), "echo": Counter(), "wide": Counter()}
    for meld in melds:
        family, cards = naive_meld_cards(meld)
        per_family[family].update(cards)
    needed: Counter[Card] = Counter()
    for usage in per_family.values():
        for card, uses in usage.items():
            needed[card] = max(needed[card], uses) if sharing else needed[card] + uses
    return needed


def naive_meld_problems(
    held: Counter[Card],
    melds: Sequence[Meld],
    sunk: Suit | None,
    *,
    sharing: bool,
    max_melded: int | None = None,
) -> set[Reason]:
    """Every rule a declaration of ``melds`` from ``held`` breaks (empty: it is legal)."""
    problems: set[Reason] = set()
    if any(naive_meld_cards(meld)[0] == "run" and meld.suit == sunk for meld in melds):
        problems.add(Reason.RUN_IN_SUNK_SUIT)
    needed = naive_copies_needed(melds, sharing=sharing)
    if any(uses > held[card] for card, uses in needed.items()):
        problems.add(Reason.MELD_UNAVAILABLE)
    if max_melded is not None and sum(needed.values()) > max_melded:
        problems.add(Reason.TOO_FEW_UNMELDED)
    return problems


def naive_can_show(card: Card, sunk: Suit) -> bool:
    """R-INVITE-2: whether ``card`` belongs to some meld that may be scored with this sunk suit."""
    return any(
        card in naive_meld_cards(meld)[1]
        and not (naive_meld_cards(meld)[0] == "run" and meld.suit == sunk)
        for meld in ALL_MELDS
    )


# -- legality from the rules (Invariant 4) ------------------------------------------

_PHASE_TYPES: dict[Phase, tuple[type, ...]] = {
    Phase.BIDDING: (Bid, Pass),
    Phase.SUNK_SUIT: (NameSunkSuit,),
    Phase.INVITATION: (ShowCard, Done),
    Phase.PARTNER_PASS: (PassCard,),
    Phase.BIDDER_MELD: (DeclareMeld, Done),
    Phase.BIDDER_PASS: (PassCard,),
    Phase.MELDING: (DeclareMeld, Done),
    Phase.PLAY: (PlayCard,),
}


def naive_violations(state: GameState, action: object) -> set[Reason]:
    """Every rule ``action`` breaks in ``state``, judged from the rules, not the engine.

    An empty set means the action is legal.  The engine's error must name
    one of these reasons (when several rules are broken, any of them is a
    correct diagnosis).
    """
    phase = state.phase
    if not isinstance(action, (Deal, Bid, Pass, NameSunkSuit, ShowCard, PassCard, DeclareMeld,
                               Done, PlayCard)):  # fmt: skip
        return {Reason.UNKNOWN_ACTION}
    if phase is Phase.GAME_OVER:
        return {Reason.GAME_OVER}
    if phase is Phase.DEAL:
        if not isinstance(action, Deal):
            return {Reason.CHANCE_STEP}
        return set() if Counter(action.cards) == DECK_COUNTS else {Reason.BAD_DEAL}
    if isinstance(action, Deal):
        return {Reason.NOT_CHANCE_STEP}
    problems: set[Reason] = set()
    if not isinstance(action, _PHASE_TYPES[phase]):
        problems.add(Reason.WRONG_PHASE)
    if action.seat != state.to_act:
        problems.add(Reason.NOT_YOUR_TURN)
    if problems:
        return problems
    rules, setup, seat = state.rules, state.setup, action.seat
    held = Counter(state.hand(seat))
    forced = setup.bid is None and len(setup.bids) == 3
    if isinstance(action, Pass):
        return {Reason.DEALER_MUST_BID} if forced else set()
    if isinstance(action, Bid):
        amount = action.amount
        if forced:
            return set() if amount == rules.forced_bid else {Reason.DEALER_MUST_BID}
        if amount % rules.bid_step:
            problems.add(Reason.BID_NOT_MULTIPLE)
        if amount > rules.opening_bid_limit:
            problems.add(Reason.BID_ABOVE_OPENING)
        if setup.bid is not None and amount >= setup.bid:
            problems.add(Reason.BID_NOT_LOWER)
        if amount < rules.lowest_bid:
            problems.add(Reason.BID_BELOW_FLOOR)
        return problems
    sunk = setup.sunk_suit
    assert sunk is not None or isinstance(action, NameSunkSuit)
    if isinstance(action, ShowCard):
        assert sunk is not None
        if held[action.card] <= setup.invitation.count(action.card):
            problems.add(Reason.CARD_NOT_IN_HAND)
        if not naive_can_show(action.card, sunk):
            problems.add(Reason.NOT_MELDABLE)
        return problems
    if isinstance(action, PassCard):
        if not held[action.card]:
            return {Reason.CARD_NOT_IN_HAND}
        if phase is Phase.BIDDER_PASS:
            tied = naive_copies_needed(setup.melds[seat], sharing=rules.meld_sharing)
            if held[action.card] <= tied[action.card]:
                return {Reason.CARD_MELDED}
        return set()
    if isinstance(action, DeclareMeld):
        max_melded = None
        if phase is Phase.BIDDER_MELD:
            max_melded = sum(held.values()) - rules.pass_size
        return naive_meld_problems(
            held,
            (*setup.melds[seat], action.meld),
            sunk,
            sharing=rules.meld_sharing,
            max_melded=max_melded,
        )
    if isinstance(action, PlayCard):
        assert sunk is not None
        if not held[action.card]:
            return {Reason.CARD_NOT_IN_HAND}
        trick = [card for _, card in state.trick]
        if action.card in naive_legal_plays(list(held), trick, sunk, rules.play_over):
            return set()
        led = trick[0].suit
        if action.card.suit != led:
            return {Reason.MUST_FOLLOW_SUIT}
        return {Reason.MUST_PLAY_OVER}
    return set()  # NameSunkSuit and Done are always legal for the seat to act


# -- Invariants 2, 3, 10: the score sheet -------------------------------------


def naive_hand_scores(
    rules: Rules, bidding_team: int, bid: int, points: Sequence[int], meld: Sequence[int]
) -> tuple[tuple[int, int], tuple[int, int], bool]:
    """(net, recorded scores, made) for a hand, written from the rules text's SCORING section.

    "The partnership then adds their (negative) meld to the points taken, to
    get their net points. [...] The team that won the bid must have net
    points less than or equal to their bid. If they do not, then they score
    200 points minus their bid, and do not subtract their meld from that
    result. [...] if either team has less than zero net points, they record
    0 points for that hand."
    """
    nets = [points[0] + meld[0], points[1] + meld[1]]
    recorded = []
    made = True
    for team in (0, 1):
        net = nets[team]
        if team == bidding_team and not net <= bid:
            made = False
            recorded.append(rules.failed_bid_score - bid)
        elif net < 0:
            recorded.append(0)
        else:
            recorded.append(net)
    return (nets[0], nets[1]), (recorded[0], recorded[1]), made


def naive_game_winner(rules: Rules, totals: Sequence[int]) -> int | None:
    """The winning team (0 or 1) after a hand, or None to play on (rules text, GOAL and SCORING).

    "If one team has a total of 500 points or more, then the other team wins.
    If both teams break 500 points, the team with fewer wins. If it's a tie,
    play another hand."  The variant counts only totals *above* the target.
    """
    reached = [
        total >= rules.target_score if rules.end_at_target else total > rules.target_score
        for total in totals
    ]
    if not any(reached):
        return None
    if totals[0] == totals[1]:
        return None
    return 0 if totals[0] < totals[1] else 1


def assert_records(state: GameState) -> None:
    """Invariants 2, 3 and 10 on the score sheet of a state.

    Every finished hand shared exactly 250 card points; no team recorded a
    negative score; a failed bid recorded exactly ``failed_bid_score - bid``;
    a made bid recorded ``max(net, 0)``; the totals are the running sums; and
    the game is over exactly when the totals say so, won by the lower total.
    """
    totals = (0, 0)
    records = state.completed_hands
    for number, record in enumerate(records, start=1):
        assert record.number == number
        assert sum(record.card_points) == 250, f"Invariant 2: {record.card_points}"
        assert all(points % 10 == 0 and points >= 0 for points in record.card_points)
        net, scores, made = naive_hand_scores(
            state.rules, record.bidder.team, record.bid, record.card_points, record.meld
        )
        assert (record.net, record.scores, record.made) == (net, scores, made), (
            f"Invariant 3: {record} vs naive {net, scores, made}"
        )
        assert min(record.scores) >= 0, "Invariant 3: a negative hand score"
        if not record.made:
            team = record.bidder.team
            assert record.scores[team] == state.rules.failed_bid_score - record.bid
        totals = (totals[0] + record.scores[0], totals[1] + record.scores[1])
        assert record.totals == totals
        over = naive_game_winner(state.rules, totals)
        if number < len(records):
            assert over is None, f"Invariant 10: the game should have ended after hand {number}"
    assert state.scores == totals
    if state.phase is Phase.GAME_OVER:
        winner = naive_game_winner(state.rules, totals)
        assert winner is not None, "Invariant 10: the game ended without a winner"
        assert state.winner == Team(winner)
        assert state.to_act is None
        assert not legal_actions(state)
    else:
        assert state.winner is None
        if records:
            assert naive_game_winner(state.rules, totals) is None


# -- Invariant 6: the auction ---------------------------------------------------


def assert_auction(rules: Rules, dealer: Seat, calls: tuple[Bid | Pass, ...]) -> None:
    """Invariant 6: the auction invariants on one complete auction (R-BID-1..8).

    Bids strictly decrease, are multiples of the step and lie between the
    floor and the opening limit; the auction has a bidder; the forced
    dealer bid happens exactly when the first three pass; calls go
    clockwise from the dealer's left, skipping seats that passed.
    """
    bids = [call for call in calls if isinstance(call, Bid)]
    amounts = [bid.amount for bid in bids]
    assert bids, "R-BID-8: the auction produced a bidder"
    assert all(a > b for a, b in itertools.pairwise(amounts)), "R-BID-5: bids strictly decrease"
    assert all(a % rules.bid_step == 0 for a in amounts), "R-BID-3"
    assert all(rules.lowest_bid <= a <= rules.opening_bid_limit for a in amounts), "R-BID-4/6"
    first_three_pass = all(isinstance(call, Pass) for call in calls[:3])
    assert first_three_pass == (calls[3:] == (Bid(dealer, rules.forced_bid),)), "R-BID-7"
    seat = dealer.left
    passed: set[Seat] = set()
    for call in calls:
        while seat in passed:
            seat = seat.left
        assert call.seat == seat, "R-BID-1: clockwise from the dealer's left, passed seats out"
        if isinstance(call, Pass):
            passed.add(seat)
        seat = seat.left
    assert len(passed) == 3, "R-BID-8: three players passed"
    assert bids[-1].seat not in passed, "R-BID-2: a pass is final"
    assert len(calls) <= len(rules.bid_amounts) + 3


# -- Invariant 5: liveness ----------------------------------------------------


def hand_action_bound(rules: Rules) -> int:
    """Invariant 5: the most actions one hand can take, deal included.

    * the deal: 1;
    * the auction: every bid is strictly lower than the last, so at most
      ``len(rules.bid_amounts)`` bids, plus at most 3 passes;
    * naming the sunk suit: 1;
    * the invitation: at most 14 cards shown, plus done;
    * the partner's pass and the bidder's pass: ``pass_size`` each;
    * melding: four seats, each declaring at most 14 melds plus done -- a
      seat's melds tie up at most 14 copies (the bidder must keep
      ``pass_size`` of her ``14 + pass_size`` cards unmelded), a copy serves
      at most one meld per family and every meld uses at least 2 copies
      (runs 3, echoes 2, wides 4), so at most 4 runs + 7 echoes + 3 wides;
    * play: 56 cards.

    For the default rules that is 1 + 57 + 1 + 15 + 3 + 15 + 3 + 45 + 56 = 196.
    """
    auction = len(rules.bid_amounts) + 3
    melding = 4 * (14 + 1)
    return 1 + auction + 1 + 15 + 2 * rules.pass_size + melding + 56


def assert_live(state: GameState) -> None:
    """Invariant 5: a state that is not over has a legal action or is a chance step."""
    if state.is_over or state.is_chance:
        assert state.to_act is None
        assert not legal_actions(state)
    else:
        legal = legal_actions(state)
        assert legal, f"Invariant 5: no legal action in {state!r}"
        assert all(action.seat == state.to_act for action in legal)


# -- Invariant 11: immutability -------------------------------------------------

_ATOMS = (int, str, bytes, float, type(None), enum.Enum)


def assert_immutable(root: object, seen: set[int] | None = None) -> None:
    """Invariant 11: nothing reachable from ``root`` is mutable.

    Every object reachable through fields is an immutable atom (ints, cards,
    enums, strings, None), a tuple or frozenset of such things, a frozen
    attrs instance whose fields can't be assigned, or a :class:`History`
    node (which refuses assignment).  ``seen`` shares work across the states
    of one game (they share most of their structure).
    """
    seen = set() if seen is None else seen
    stack: list[object] = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, _ATOMS):
            continue
        if isinstance(obj, (tuple, frozenset)):
            stack.extend(obj)
            continue
        if isinstance(obj, History):
            _assert_refuses_assignment(obj, "action")
            stack.append(obj.action)
            if obj.previous is not None:
                stack.append(obj.previous)
            continue
        assert attrs.has(type(obj)), f"Invariant 11: {type(obj).__name__} is not a frozen record"
        fields = attrs.fields(cast("type[attrs.AttrsInstance]", type(obj)))
        if fields:
            _assert_refuses_assignment(obj, fields[0].name)
        stack.extend(getattr(obj, field.name) for field in fields)


def _assert_refuses_assignment(obj: object, name: str) -> None:
    try:
        setattr(obj, name, None)
    except (AttributeError, attrs.exceptions.FrozenInstanceError):
        return
    raise AssertionError(f"Invariant 11: {type(obj).__name__}.{name} could be assigned")


# -- Invariant 12: replay ----------------------------------------------------


def first_dealer(state: GameState) -> Seat:
    """The dealer of the game's first hand."""
    if state.completed_hands:
        return state.completed_hands[0].dealer
    return state.dealer


def replay(state: GameState) -> GameState:
    """Invariant 12: apply ``state.history`` to a fresh game (same rules, same first dealer)."""
    replayed = new_game(state.rules, first_dealer(state))
    for action in state.history:
        replayed = apply(replayed, action)
    return replayed


# -- everything at once ----------------------------------------------------------


def assert_tricks(state: GameState) -> None:
    """R-PLAY-1 and R-PLAY-4..6: who led and who won every trick of the hand so far.

    The bidder leads the first trick, each trick's winner leads the next,
    play goes clockwise, and each winner is the one the rules text names.
    """
    if not state.tricks and not state.trick:
        return
    sunk = state.sunk_suit
    assert sunk is not None
    leader = state.bidder
    for trick in state.tricks:
        seats = [seat for seat, _ in trick.plays]
        assert leader is not None
        assert seats == [Seat((leader + i) % 4) for i in range(4)], "R-PLAY-1: play order"
        assert trick.winner == seats[naive_winning_position(trick.cards, sunk)], "R-PLAY-4"
        leader = trick.winner
    if state.trick:
        assert leader is not None
        seats = [seat for seat, _ in state.trick]
        assert seats == [Seat((leader + i) % 4) for i in range(len(seats))], "R-PLAY-1"
    if state.phase is Phase.PLAY:
        assert state.to_act == (
            Seat((leader + len(state.trick)) % 4) if leader is not None else None
        )


def assert_state(state: GameState) -> None:
    """Invariants 1, 2, 3, 5 and 10 (and the setup and trick rules) on one state."""
    assert_conserved(state)
    assert_tricks(state)
    assert_hand_sizes(state)
    assert_setup_consistent(state)
    assert_records(state)
    assert_live(state)


def assert_transition(before: GameState, action: Action, after: GameState) -> None:
    """What one legal step must do: record the action, and score a finished hand exactly.

    Checks the history (Invariant 12), the dealer rotation (R-DEAL-2), the
    hand record of a finished hand against a recount from the tricks
    (Invariants 2, 3, 9) and the end of the game (Invariant 10).
    """
    assert after.log is not None
    assert after.log.action == action
    assert after.log.previous == before.log
    assert after.rules is before.rules
    if len(after.completed_hands) == len(before.completed_hands):
        assert after.scores == before.scores
        return
    assert len(after.completed_hands) == len(before.completed_hands) + 1
    record: HandRecord = after.completed_hands[-1]
    setup = before.setup
    assert before.phase is Phase.PLAY
    assert len(before.tricks) == 13
    assert len(before.trick) == 3
    assert isinstance(action, PlayCard)
    last = [card for _, card in before.trick] + [action.card]
    points = [0, 0]
    for trick in before.tricks:
        points[trick.winner.team] += sum(card.points for card in trick.cards)
    seats = [seat for seat, _ in before.trick] + [action.seat]
    assert setup.sunk_suit is not None
    last_winner = seats[naive_winning_position(last, setup.sunk_suit)]
    points[last_winner.team] += sum(card.points for card in last) + 10
    assert record.card_points == (points[0], points[1]), "Invariant 2: card points recount"
    assert record.meld == before.team_meld
    assert (record.bidder, record.bid, record.sunk_suit) == (
        setup.bidder,
        setup.bid,
        setup.sunk_suit,
    )
    assert record.dealer == before.dealer
    totals = (before.scores[0] + record.scores[0], before.scores[1] + record.scores[1])
    assert after.scores == totals == record.totals
    winner = naive_game_winner(before.rules, totals)
    if winner is None:
        assert after.phase is Phase.DEAL, "Invariant 10: play on"
        assert after.dealer == before.dealer.left, "R-DEAL-2"
    else:
        assert after.phase is Phase.GAME_OVER, "Invariant 10: the game is over"
        assert after.winner == Team(winner), "Invariant 10: the lower total wins"
