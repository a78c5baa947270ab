"""The score objective: what the hand records, solved exactly (double dummy).

The card-point search (:mod:`deepsix.search._core`) minimises one number, the
points North-South take.  A hand is recorded on more than its points: the
bidding team records its net (card points plus meld, floored at zero) if it
brings it to the bid or below, else ``failed_bid_score - bid`` whatever it
took; the other team records its floored net (:func:`deepsix.score_hand`).
This module solves the hand's *score*: North-South's recorded score minus
East-West's, which North-South minimise and East-West maximise.

As a function of the points North-South take from here, that score rises
with them except at one place: where the bidding team's net passes its bid,
it jumps to the set score -- down, for a bid over about half the failed-bid
score (bid 120: set 80, made at 115 records 115).  So the two optima can
differ, and the score is not the card-point value read after the fact.

How it is solved, on the card-point search's own engine (its tables too):

* The card-point value ``v`` bounds the score: North-South can hold their
  take to ``v`` and East-West can force ``v``, so the score lies between the
  least score from ``v`` up and the greatest up to ``v``.  Where the score
  rises over that range (every bid up to about half the failed-bid score,
  and most positions of the rest) the two bounds meet: the score is the one
  of ``v``, with no search beyond the card-point one.
* Otherwise, a *target search* answers "can North-South force the points
  they take into the set ``M``?" for the set of outcomes whose score is at
  most ``c``, and a binary search over ``c`` finds the value.  ``M`` is a
  bit mask over the points in tens (a hand's points are multiples of 10);
  a trick North-South win shifts it by the trick's points.  At a trick
  boundary the card-point value decides the question where it can (``M``
  holds every outcome up to ``v``: yes; none from ``v`` up: no), and the
  answers are kept by position and target.  Equivalent cards are searched
  once, as in the card-point search: swapping them changes no point.

The same target search exists in the native kernel (``Search::score`` in
``native/src/search.hpp``): with card points from the native kernel, it settles what the
bounds leave open (:func:`native_score`); with the Python kernel, :class:`ScoreSearch`
does, on the card-point search's own engine and tables.
"""

from __future__ import annotations

from collections.abc import Sequence

from deepsix.actions import PLAY
from deepsix.cards import CARD_POINTS, Card
from deepsix.engine import apply
from deepsix.hands import BIT
from deepsix.scoring import LAST_TRICK_BONUS, score_hand
from deepsix.search._core import Budget, Engine
from deepsix.search._native import arguments, flags, kernel
from deepsix.search._python import Solver, after
from deepsix.state import GameState
from deepsix.tricks import winning_position

__all__ = [
    "ScoreSearch",
    "bounded",
    "bounds",
    "card_scores",
    "for_team",
    "native_score",
    "outcomes",
    "position_score",
]

_TEN = 10


def outcomes(state: GameState, left: int) -> list[int]:
    """The hand's score (North-South's recorded score minus East-West's) for each number of
    points North-South take from here, in tens: entry ``f`` is for ``10 * f`` points of the
    ``left`` still to be taken (the last-trick bonus included)."""
    bidder, bid = state.bidder, state.bid
    assert bidder is not None  # the play phase has a contract
    assert bid is not None
    taken = state.card_points
    meld = state.team_meld
    found: list[int] = []
    for future in range(0, left + 1, _TEN):
        points = (taken[0] + future, taken[1] + left - future)
        scores = score_hand(bidder.team, bid, points, meld, state.rules).scores
        found.append(scores[0] - scores[1])
    return found


class ScoreSearch:
    """The score of positions of one hand, on the engine of a card-point :class:`Solver`.

    ``outcome`` is :func:`outcomes` of the root; a position after the root is asked about
    with how many points North-South took on the way (``gained``).
    """

    def __init__(self, engine: Engine, outcome: Sequence[int]) -> None:
        self.engine = engine
        self.outcome = list(outcome)
        self.forced: dict[int, list[int]] = {}
        """Position key with the leader -> targets North-South can force from there."""
        self.refuted: dict[int, list[int]] = {}
        """Position key with the leader -> targets North-South cannot force from there."""
        self.values: dict[int, int] = {}
        """Position key with the leader -> North-South's card-point value from there."""
        self.probes = 0
        """Target searches made (positions the card-point bounds did not settle)."""

    def value(self, position: Solver, gained: int, points: int) -> int:
        """The score of ``position`` (North-South having taken ``gained`` points since the
        root), whose card-point value is ``points``."""
        span = self.outcome[gained // _TEN :][: (position.left + LAST_TRICK_BONUS) // _TEN + 1]
        low, high = bounds(span, points)
        if low == high:
            return low
        candidates = sorted({score for score in span if low <= score <= high})
        lo, hi = 0, len(candidates) - 1  # North-South can force the score to candidates[hi]
        while lo < hi:
            middle = (lo + hi) // 2
            target = candidates[middle]
            mask = 0
            for index, score in enumerate(span):
                if score <= target:
                    mask |= 1 << index
            if self.forces(position, mask):
                hi = middle
            else:
                lo = middle + 1
        return candidates[lo]

    def forces(self, position: Solver, mask: int) -> bool:
        """Whether North-South can force their points from ``position`` into ``mask``."""
        self.probes += 1
        engine = self.engine
        engine.load(position.hands)
        tbits = 0
        taken = 0
        for card in position.trick:
            tbits |= BIT[card]
            taken += CARD_POINTS[card]
        return self._node(
            int(position.seat),
            position.leader,
            position.left,
            position.tricks_left,
            position.code,
            tbits,
            taken,
            mask,
        )

    def _boundary(self, leader: int, left: int, tricks_left: int, mask: int) -> bool:
        """At a trick boundary, ``leader`` to lead, ``left`` card points in the hands."""
        reach = (left + LAST_TRICK_BONUS) // _TEN
        every = (2 << reach) - 1
        mask &= every
        if not mask:
            return False
        if mask == every:
            return True
        engine = self.engine
        position = engine.key() | leader
        # A target holding one North-South can force is forced too; one inside a target
        # they cannot force is not: the answers are kept by position, as the targets found
        forced, refuted = self.forced.get(position), self.refuted.get(position)
        if forced is not None and any(not known & ~mask for known in forced):
            return True
        if refuted is not None and any(not mask & ~known for known in refuted):
            return False
        # The card-point value decides where it can: North-South can hold their take to v
        # (every outcome up to v in the target: yes), East-West can force v (none from v up: no)
        v = self.values.get(position, -1)
        if v < 0:
            v = self.values[position] = engine.exact(leader, leader, left, tricks_left, 0, -1)
        v //= _TEN
        below = (2 << v) - 1
        if mask & below == below or not mask >> v:
            return mask & below == below
        answer = self._node(leader, leader, left, tricks_left, 0, 0, 0, mask)
        (self.forced if answer else self.refuted).setdefault(position, []).append(mask)
        return answer

    def _node(  # noqa: PLR0913, PLR0917  # the position, spelled out
        self,
        seat: int,
        leader: int,
        left: int,
        tricks_left: int,
        code: int,
        tbits: int,
        taken: int,
        mask: int,
    ) -> bool:
        """Within a trick, ``seat`` to play: whether North-South force their points into
        ``mask``; ``code``/``tbits``/``taken`` as in the card-point search."""
        engine = self.engine
        engine.nodes += 1
        if engine.nodes > engine.limit:
            raise Budget
        played = (seat - leader) & 3
        moves = engine.order(engine.classes(seat, code, tbits), seat, leader, played, code, -1)
        north_south = not seat & 1
        held = engine.hand(seat)
        shift = 5 * played
        for card in moves:
            bit = BIT[card]
            engine.add(seat, -bit)
            try:
                after = code | (card + 1) << shift
                points = taken + CARD_POINTS[card]
                if played == 3:
                    winner = (leader + engine.winner(after)) & 3
                    rest = tricks_left - 1
                    won = points + (0 if rest else LAST_TRICK_BONUS)
                    target = mask if winner & 1 else mask >> (won // _TEN)
                    if rest:
                        answer = self._boundary(winner, left - points, rest, target)
                    else:
                        answer = bool(target & 1)
                else:
                    answer = self._node(
                        (seat + 1) & 3,
                        leader,
                        left,
                        tricks_left,
                        after,
                        tbits | bit,
                        points,
                        mask,
                    )
            finally:
                engine.add(seat, bit)
            if answer == north_south:  # North-South found a way, or East-West a refutation
                return answer
        assert engine.hand(seat) == held
        return not north_south


def bounds(span: Sequence[int], points: int) -> tuple[int, int]:
    """The least and the greatest score a position can have whose card-point value is
    ``points``, ``span`` its :func:`outcomes`: East-West can force at least ``points``, and
    North-South can hold their take to it."""
    v = points // _TEN
    return min(span[v:]), max(span[: v + 1])


def bounded(outcome: Sequence[int], left: int, points: int) -> int | None:
    """The score where the card-point value ``points`` settles it (``outcome`` from the
    position on, ``left`` the points still to be taken), else ``None``."""
    low, high = bounds(outcome[: left // _TEN + 1], points)
    return low if low == high else None


def native_score(state: GameState, left: int, limit: int) -> tuple[int, int]:
    """The score of ``state`` (``left`` points still to be taken, the last-trick bonus
    included) by the native kernel's target search, and its nodes."""
    module = kernel()
    try:
        found: tuple[int, int] = module.score(
            *arguments(state), outcomes(state, left), flags(), limit, 0
        )
    except module.BudgetExceeded:
        raise Budget from None
    return found


def for_team(score: int, team: int) -> int:
    """``team``'s view of a hand's score: the solver's (North-South's recorded score minus
    East-West's) for North-South, negated for East-West."""
    return score if team == 0 else -score


def _step(root: Solver, card: Card) -> tuple[int, int, bool]:
    """After ``card`` at ``root``: North-South's points in the trick it completes (0 if it
    completes none; the last-trick bonus included at the hand's end), the points then
    still to be taken (the bonus included), and whether the hand is over.  The rules'
    :func:`~deepsix.tricks.winning_position` decides the trick, as in :func:`after`."""
    if len(root.trick) < 3:
        return 0, root.left + LAST_TRICK_BONUS, False
    cards = [*root.trick, card]
    points = sum(CARD_POINTS[c] for c in cards)
    winner = (root.leader + winning_position(cards, root.sunk)) & 3
    over = root.tricks_left == 1
    bonus = LAST_TRICK_BONUS if over else 0
    taken = 0 if winner & 1 else points + bonus
    return taken, 0 if over else root.left - points + LAST_TRICK_BONUS, over


def card_scores(
    state: GameState,
    values: Sequence[tuple[Card, int]],
    limit: int,
    root: Solver | None,
) -> tuple[list[int], int]:
    """The score after each ``(card, points)`` of ``state`` (its legal cards, each with
    North-South's card points from here after it, as :func:`~deepsix.search.move_values`
    gives them), under best play for the score, and the nodes the target searches took.

    ``root``: the Python kernel's root, whose engine and tables the target searches then
    share; ``None``: the card points came from the native kernel, whose target search then
    settles what the bounds leave open.  ``limit`` caps the nodes
    (:class:`~deepsix.search._core.Budget`).
    """
    native = root is None
    if root is None:
        root = Solver(state)
    root.limit = limit
    start = root.nodes
    more = 0
    search = ScoreSearch(root.engine, outcomes(state, root.left + LAST_TRICK_BONUS))
    found: list[int] = []
    for card, points in values:
        taken, left, over = _step(root, card)
        settled = (
            search.outcome[taken // _TEN]
            if over
            else bounded(search.outcome[taken // _TEN :], left, points - taken)
        )
        if settled is None and native:  # the position after the card, for the C++ search
            following = apply(state, PLAY[root.seat][card])
            settled, nodes = native_score(following, left, limit)
            more += nodes
        elif settled is None:
            child = after(root, state, card)[1]
            assert child is not None  # the hand goes on after the card
            settled = search.value(child, taken, points - taken)
        found.append(settled)
    return found, root.nodes - start + more


def position_score(state: GameState, points: tuple[int, int], limit: int, native: bool) -> int:
    """The score of ``state`` under best play for the score, ``points`` each team's card-point
    value from there; ``limit`` caps the target searches' nodes; ``native``: by the native
    kernel's target search where the bounds leave it open."""
    left = points[0] + points[1]  # every point still to be taken
    outcome = outcomes(state, left)
    settled = bounded(outcome, left, points[0])
    if settled is not None:
        return settled
    if native:
        return native_score(state, left, limit)[0]
    root = Solver(state)
    root.limit = limit
    return ScoreSearch(root.engine, outcome).value(root, 0, points[0])
