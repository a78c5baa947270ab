"""A double-dummy solver for the play phase: exact points under best play by both teams.

*Double dummy* means every hand is visible (as in bridge's DDS).  Given a
:class:`~deepsix.GameState` in the play phase, :func:`solve` finds how many
card points each team takes from here to the end of the hand when both
teams play perfectly -- each team taking as few as it can -- and which
cards achieve that.  The points left (the 2s and 3s not yet taken, plus the
last-trick bonus) are split between the two teams, so the game from here is
zero-sum: one number, the points North-South take, is minimised by
North-South and maximised by East-West.

How it is searched:

* **Alpha-beta** over single card plays (fail-soft), driven by
  **MTD(f)**: null-window probes ask "can North-South hold their take to
  at most ``t``?", which prunes far more than a full window; a few probes
  pin the exact value (every value is a multiple of 10).
* A **transposition table** at trick boundaries (hands + leader) stores a
  lower and an upper bound on the points North-South take from there, and
  the lead that proved it (tried first next time).  Keys are in
  **relative-rank** form: pointless ranks (4 to 8) that nobody holds any
  more are squeezed out, so positions that differ only by which
  already-played cards they lack share an entry.  The sound static bounds
  at a boundary are 0 and the points left (cards in hand plus the
  last-trick bonus); the table narrows them.
* **The last two tricks are solved exactly** (plain minimax over the
  second-to-last trick; the last trick is forced) and cached by position,
  so the many null-window probes that reach them pay once.
* **Equivalent cards** are searched once: two pointless cards of one suit in
  the mover's hand are interchangeable when no card ranking between them,
  or equal to either, is held by another player or lies in the current
  trick.  Then every other card compares the same way with both (including
  "of two identical cards the later wins"), both obey the follow and
  play-over rules alike, and both carry the same (zero) points, so swapping
  them maps the rest of the game onto itself.  A 2 and a 3 are never merged
  with anything but their own copy: their points differ.
* **Move ordering**: the table's lead first; other leads pointless, high
  and non-sunk first; a follower tries first the cards that shed points on
  a trick the opponents are winning, then the cards that add least to a
  trick its own side is winning.

The rules are not re-implemented: legality comes from
:func:`deepsix.tricks.play_window` (both meanings of the play-over rule,
:class:`~deepsix.PlayOver`), trick winners from
:func:`deepsix.tricks.winning_position` (the sunk suit included), and the
last-trick bonus from :data:`deepsix.scoring.LAST_TRICK_BONUS`.
``tests/search`` proves the solver exact against plain minimax over the
engine's own :func:`~deepsix.legal_actions` and :func:`~deepsix.apply`.

>>> import random
>>> from deepsix import new_game, shuffled_deal, apply, Phase, RandomBot, view
>>> state = apply(new_game(), shuffled_deal(11))
>>> rng = random.Random(1)
>>> while state.phase is not Phase.PLAY or len(state.tricks) < 10:
...     state = apply(state, RandomBot().choose(view(state, state.to_act), rng))
>>> result = solve(state)
>>> result.points, [str(card) for card in result.best]
((20, 90), ['4♥', '5♥', '8♥'])
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Final

import attrs

from deepsix.actions import PLAY, PlayCard
from deepsix.cards import CARD_POINTS, CARDS, HAND_SIZE, Card, Seat
from deepsix.engine import apply
from deepsix.errors import DeepSixError
from deepsix.hands import BIT, SUIT_MASK, count, distinct_cards, suit_cards
from deepsix.rules import PlayOver
from deepsix.scoring import LAST_TRICK_BONUS
from deepsix.state import GameState, Phase
from deepsix.tricks import play_window, winning_position

__all__ = [
    "MoveValue",
    "SearchBudgetError",
    "SearchError",
    "SolveResult",
    "move_values",
    "solve",
]


class SearchError(DeepSixError, ValueError):
    """A search was asked about a state it cannot search, or given a bad argument."""


_INF: Final = 1 << 30
_POINTS: Final = CARD_POINTS
_PLAIN: Final = tuple(card % 7 >= 2 for card in range(28))
"""Whether a card carries no points (ranks 4 to 8): only such cards are ever merged."""
# Range masks: bits of every card index from i to j (inclusive), 2 bits per card.
_RANGE: Final = tuple(
    tuple(sum(3 * BIT[k] for k in range(i, j + 1)) for j in range(28)) for i in range(28)
)


@attrs.frozen
class SolveResult:
    """The outcome of :func:`solve`."""

    points: tuple[int, int]
    """Card points each team (North-South, East-West) takes from here to the end of
    the hand under best play, the last-trick bonus included (points already taken
    in completed tricks are not)."""
    best: tuple[Card, ...]
    """Every distinct card the seat to act may play that achieves ``points``."""
    seat: Seat
    """The seat to act."""
    nodes: int
    """Search nodes visited (card plays tried)."""
    seconds: float
    """Wall-clock time of the search."""


@attrs.frozen
class MoveValue:
    """One legal card and the points each team takes after it, under best play."""

    card: Card
    """The card played now."""
    points: tuple[int, int]
    """Card points each team takes from now (this card's trick included) to the end."""


_Play = Callable[[int, int], int]


class _Budget(Exception):
    """Raised inside the search when its node budget runs out."""


class _Caches:
    """Tables that depend only on the position, shared by a root's searches.

    ``endgame`` holds exact values of two-trick positions; ``winners`` and
    ``windows`` the trick winners and legal windows by trick code (they
    depend on the sunk suit and the play-over rule, which one root fixes);
    ``free`` a hand's distinct cards; ``squeezed`` suits in relative-rank form.
    """

    __slots__ = ("endgame", "free", "squeezed", "windows", "winners")

    def __init__(self) -> None:
        self.squeezed: dict[int, int] = {}
        self.endgame: dict[tuple[int, int, int, int, int], int] = {}
        self.winners: dict[int, int] = {}
        self.free: dict[int, tuple[Card, ...]] = {}
        self.windows: dict[int, tuple[Card, ...]] = {}


class _Solver:
    """One position's search: the hands and the trick, mutated in place, and the tables."""

    def __init__(
        self,
        state: GameState,
        *,
        squeeze: bool = True,
        merge: bool = True,
        shared: _Solver | None = None,
    ) -> None:
        if not isinstance(state, GameState):
            raise SearchError(f"the solver needs a GameState, not {type(state).__name__}")
        if state.phase is not Phase.PLAY or state.to_act is None:
            raise SearchError(
                "the solver searches the play phase only; this state is in the "
                f"{state.phase.value} phase"
            )
        sunk = state.setup.sunk_suit
        if sunk is None:  # pragma: no cover - the engine names it before play starts
            raise SearchError("the state has no sunk suit")
        self.seat: Seat = state.to_act
        self.hands = list(state.packed_hands)
        self.trick: list[Card] = [card for _, card in state.trick]
        self.leader = int(state.trick[0][0]) if state.trick else int(state.to_act)
        self.tricks_left = HAND_SIZE - len(state.tricks)
        self.left = sum(
            _POINTS[card] * count(hand, card) for hand in self.hands for card in range(28)
        ) + sum(_POINTS[card] for card in self.trick)
        self.sunk = int(sunk)
        self.play_over: PlayOver = state.rules.play_over
        self.table: dict[tuple[int, ...], tuple[int, int, int]] = {}
        self.caches = _Caches()
        self.counter = [0]
        self.limit = _INF
        if shared is not None:  # a child of a root move: share its tables and its budget
            self.table = shared.table
            self.caches = shared.caches
            self.counter = shared.counter
            self.limit = shared.limit
        self.squeeze = squeeze
        self.merge = merge
        self.classes: Callable[[], list[Card]] = list
        self.play = self._make_play()

    @property
    def nodes(self) -> int:
        """Card plays tried so far."""
        return self.counter[0]

    def value(self, alpha: int = -_INF, beta: int = _INF) -> int:
        """North-South's points from here (fail-soft within ``alpha``, ``beta``)."""
        return self.play(alpha, beta)

    def exact(self, guess: int = 0) -> int:
        """North-South's exact points from here, by a series of null-window probes (MTD(f))."""
        low, high = 0, self.left + LAST_TRICK_BONUS
        value = min(max(guess, low), high)
        while low < high:
            beta = value + 1 if value == low else value
            value = self.value(beta - 1, beta)
            if value < beta:
                high = value
            else:
                low = value
        return low

    def _make_play(self) -> _Play:  # noqa: PLR0915  # the search's closures share fast locals
        """Build the recursive search as closures over the mutable position (fast locals).

        The trick in progress is mirrored in an integer code (card + 1 in five
        bits per position) so that the legal windows and the trick winners
        found by :func:`~deepsix.tricks.play_window` and
        :func:`~deepsix.tricks.winning_position` can be cached by it.
        """
        hands = self.hands
        trick = self.trick
        sunk = self.sunk
        play_over = self.play_over
        table = self.table
        counter = self.counter
        points = _POINTS
        plain = _PLAIN
        span = _RANGE
        bonus = LAST_TRICK_BONUS
        window_of = play_window
        cards_of = suit_cards
        bits = BIT
        winner_of = winning_position
        merge = self.merge
        squeezing = self.squeeze
        caches = self.caches
        squeezed = caches.squeezed
        endgame = caches.endgame
        winners = caches.winners
        free = caches.free
        windows = caches.windows
        solver = self

        def winner_at(code: int) -> int:
            """The position winning the trick so far (cached by its code)."""
            position = winners.get(code)
            if position is None:
                position = winner_of(trick, sunk)
                winners[code] = position
            return position

        def every_card(hand: int) -> tuple[Card, ...]:
            found = free.get(hand)
            if found is None:
                found = distinct_cards(hand)
                free[hand] = found
            return found

        def candidates(seat: int, code: int, tbits: int) -> list[Card]:
            """The distinct legal cards of ``seat``, one per class of equivalent cards."""
            hand = hands[seat]
            if not code:
                found = every_card(hand)
            else:
                led = trick[0] // 7
                block = (hand >> (14 * led)) & SUIT_MASK
                if not block:
                    found = every_card(hand)
                else:
                    key = code << 14 | block
                    cached = windows.get(key)
                    if cached is None:
                        window = window_of(hand, trick, sunk, play_over)
                        if window is None:  # pragma: no cover - a block in the led suit
                            cached = every_card(hand)
                        else:
                            suit, lowest = window
                            cached = tuple(card for card in cards_of(suit, block) if card >= lowest)
                        windows[key] = cached
                    found = cached
            if len(found) < 2 or not merge:
                return list(found)
            others = hands[(seat + 1) & 3] | hands[(seat + 2) & 3] | hands[(seat + 3) & 3] | tbits
            previous = found[0]
            kept = [previous]
            for card in found[1:]:
                if (
                    plain[card]
                    and plain[previous]
                    and card // 7 == previous // 7
                    and not others & span[previous][card]
                ):
                    continue  # interchangeable with the previous card kept
                kept.append(card)
                previous = card
            return kept

        def squeeze_suit(shift: int, h0: int, h1: int, h2: int, h3: int) -> int:
            """One suit of the four hands in relative-rank form, as one integer."""
            b0 = (h0 >> shift) & SUIT_MASK
            b1 = (h1 >> shift) & SUIT_MASK
            b2 = (h2 >> shift) & SUIT_MASK
            b3 = (h3 >> shift) & SUIT_MASK
            whole = b0 | b1 << 14 | b2 << 28 | b3 << 42
            found = squeezed.get(whole)
            if found is None:
                present = b0 | b1 | b2 | b3
                found = 0
                position = 0
                for rank in range(7):
                    if rank < 2 or count(present, rank):  # a block reads like clubs
                        for index, block in enumerate((b0, b1, b2, b3)):
                            found |= count(block, rank) << (2 * position + 14 * index)
                        position += 1
                squeezed[whole] = found
            return found

        def last_trick(leader: int) -> int:
            """The position (from ``leader``) winning the hand's forced last trick."""
            trick[:] = [CARD_OF[hands[(leader + k) & 3]] for k in range(4)]
            code = 0
            for k in range(4):
                code |= (trick[k] + 1) << (5 * k)
            position = winner_at(code)
            trick.clear()
            return position

        def boundary(leader: int, alpha: int, beta: int, left: int, tricks_left: int) -> int:
            """North-South's points from a trick boundary (``left``: card points in hands)."""
            h0, h1, h2, h3 = hands
            if tricks_left == 1:  # every card is forced
                counter[0] += 4
                return 0 if (leader + last_trick(leader)) & 1 else left + bonus
            if tricks_left == 2:
                return exact(leader, left, tricks_left)
            if squeezing:
                key: tuple[int, ...] = (
                    squeeze_suit(0, h0, h1, h2, h3),
                    squeeze_suit(14, h0, h1, h2, h3),
                    squeeze_suit(28, h0, h1, h2, h3),
                    squeeze_suit(42, h0, h1, h2, h3),
                    leader,
                )
            else:
                key = (h0, h1, h2, h3, leader)
            entry = table.get(key)
            if entry is None:
                low, high, hint = 0, left + bonus, -1
            else:
                low, high, hint = entry
                if low >= beta:
                    return low
                if high <= alpha:
                    return high
            a = max(alpha, low)
            b = min(beta, high)
            value, card = play(leader, leader, a, b, left, tricks_left, 0, 0, 0, hint)
            if value <= a:
                high = min(high, value)
            elif value >= b:
                low = max(low, value)
            else:
                low = high = value
            table[key] = (low, high, card)
            return value

        def exact(leader: int, left: int, tricks_left: int) -> int:
            """North-South's exact points from a boundary near the end (cached by position)."""
            key = (hands[0], hands[1], hands[2], hands[3], leader)
            known = endgame.get(key)
            if known is None:
                known = exhaust(leader, leader, -1, _INF, left, tricks_left, 0, 0, 0)
                endgame[key] = known
            return known

        def exhaust(  # noqa: PLR0913, PLR0917  # positional parameters keep the recursion cheap
            seat: int,
            leader: int,
            alpha: int,
            beta: int,
            left: int,
            tricks_left: int,
            code: int,
            tbits: int,
            taken: int,
        ) -> int:
            """Alpha-beta over one trick whose continuations are exact (cached) values."""
            counter[0] += 1
            minimising = not seat & 1
            best = _INF if minimising else -1
            played = len(trick)
            shift = 5 * played
            for card in candidates(seat, code, tbits):
                bit = bits[card]
                hands[seat] -= bit
                trick.append(card)
                if played < 3:
                    value = exhaust(
                        (seat + 1) & 3,
                        leader,
                        alpha,
                        beta,
                        left,
                        tricks_left,
                        code | (card + 1) << shift,
                        tbits | bit,
                        taken + points[card],
                    )
                else:
                    winner = (leader + winner_at(code | (card + 1) << 15)) & 3
                    total = taken + points[card]
                    saved = trick[:]
                    trick.clear()
                    if tricks_left == 2:
                        last = (winner + last_trick(winner)) & 3
                        rest = 0 if last & 1 else left - total + bonus
                    else:
                        rest = exact(winner, left - total, tricks_left - 1)
                    trick.extend(saved)
                    value = (0 if winner & 1 else total) + rest
                trick.pop()
                hands[seat] += bit
                if minimising:
                    if value < best:
                        best = value
                        if value < beta:
                            beta = value
                            if beta <= alpha:
                                break
                elif value > best:
                    best = value
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            break
            return best

        def play(  # noqa: PLR0912, PLR0913, PLR0915, PLR0917  # the hot loop, inlined (a helper call costs per node)
            seat: int,
            leader: int,
            alpha: int,
            beta: int,
            left: int,
            tricks_left: int,
            code: int,
            tbits: int,
            taken: int,
            hint: int = -1,
        ) -> tuple[int, int]:
            """Best value for ``seat`` to move, and a card achieving it.

            ``code``/``tbits``/``taken``: the trick so far as a code, as packed
            cards, and its card points; ``hint``: a card to try first.
            """
            counter[0] += 1
            if counter[0] > solver.limit:
                raise _Budget
            moves = candidates(seat, code, tbits)
            played = len(trick)
            shift = 5 * played
            if hint >= 0 and hint in moves:
                if moves[0] != hint:
                    first = CARDS[hint]
                    moves.remove(first)
                    moves.insert(0, first)
            elif len(moves) > 1:
                if played:
                    scored = []
                    team = seat & 1
                    for card in moves:
                        position = winner_at_card(code | (card + 1) << shift, card)
                        if (leader + position) & 1 == team:  # my side would be winning
                            scored.append((4 * points[card] - card % 7, card))
                        else:
                            scored.append((-4 * points[card] - card % 7, card))
                    scored.sort()
                    moves = [card for _, card in scored]
                else:
                    moves.sort(key=lambda c: (c // 7 == sunk, points[c], -(c % 7)))
            minimising = not seat & 1
            best = _INF if minimising else -_INF
            best_card = moves[0]
            following = (seat + 1) & 3
            for card in moves:
                bit = bits[card]
                hands[seat] -= bit
                trick.append(card)
                if played == 3:
                    winner = (leader + winner_at(code | (card + 1) << 15)) & 3
                    total = taken + points[card]
                    saved = trick[:]
                    trick.clear()
                    if tricks_left == 1:  # the hand's last trick
                        value = 0 if winner & 1 else total + bonus
                    elif winner & 1:
                        value = boundary(winner, alpha, beta, left - total, tricks_left - 1)
                    else:
                        value = total + boundary(
                            winner, alpha - total, beta - total, left - total, tricks_left - 1
                        )
                    trick.extend(saved)
                else:
                    value = play(
                        following,
                        leader,
                        alpha,
                        beta,
                        left,
                        tricks_left,
                        code | (card + 1) << shift,
                        tbits | bit,
                        taken + points[card],
                    )[0]
                trick.pop()
                hands[seat] += bit
                if minimising:
                    if value < best:
                        best, best_card = value, card
                        if value < beta:
                            beta = value
                            if beta <= alpha:
                                break
                elif value > best:
                    best, best_card = value, card
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            break
            return best, best_card

        def winner_at_card(code: int, card: Card) -> int:
            """The position winning the trick if ``card`` were added to it."""
            position = winners.get(code)
            if position is None:
                trick.append(card)
                position = winner_of(trick, sunk)
                trick.pop()
                winners[code] = position
            return position

        def classes() -> list[Card]:
            """The root seat's candidate cards: one per class of interchangeable cards."""
            code = 0
            tbits = 0
            for k, card in enumerate(trick):
                code |= (card + 1) << (5 * k)
                tbits |= bits[card]
            return candidates(int(solver.seat), code, tbits)

        solver.classes = classes

        def root(alpha: int, beta: int) -> int:
            code = 0
            tbits = 0
            for k, card in enumerate(trick):
                code |= (card + 1) << (5 * k)
                tbits |= bits[card]
            taken = sum(points[card] for card in trick)
            return play(
                int(solver.seat),
                solver.leader,
                alpha,
                beta,
                solver.left,
                solver.tricks_left,
                code,
                tbits,
                taken,
            )[0]

        return root


CARD_OF: Final[dict[int, Card]] = {BIT[card]: card for card in CARDS}
"""A one-card packed hand's card."""


def _check_budget(node_limit: int | None) -> int:
    if node_limit is None:
        return _INF
    if type(node_limit) is not int or node_limit < 1:
        raise SearchError(f"node_limit must be a positive int or None, not {node_limit!r}")
    return node_limit


def _root_cards(state: GameState) -> tuple[Card, ...]:
    """The distinct cards the seat to act may play (from the engine's legal actions)."""
    return tuple(action.card for action in state.legal_actions() if isinstance(action, PlayCard))


def _after(root: _Solver, state: GameState, card: Card) -> tuple[int, _Solver | None]:
    """North-South's points in the trick ``card`` completes (if any) and the solver after it.

    The solver is ``None`` when ``card`` ends the hand; the points then include
    the last-trick bonus.
    """
    seat = root.seat
    if len(state.trick) == 3 and root.tricks_left == 1:
        cards = [*root.trick, card]
        winner = (root.leader + winning_position(cards, root.sunk)) & 3
        taken = sum(_POINTS[c] for c in cards) + LAST_TRICK_BONUS
        return (0 if winner & 1 else taken), None
    following = apply(state, PLAY[seat][card])
    taken = following.card_points[0] - state.card_points[0]
    return taken, _Solver(following, squeeze=root.squeeze, merge=root.merge, shared=root)


def move_values(state: GameState, *, node_limit: int | None = None) -> tuple[MoveValue, ...]:
    """Every distinct legal card of the seat to act, with each team's points after it.

    The points are exact under best play by both teams from then on (double
    dummy).  Raises :class:`SearchError` for a state not in the play phase,
    and :class:`SearchBudgetError` if ``node_limit`` nodes do not suffice.
    """
    root = _Solver(state)
    root.limit = _check_budget(node_limit)
    total = root.left + LAST_TRICK_BONUS
    values: list[MoveValue] = []
    guess = 0
    try:
        for card in _root_cards(state):
            taken, child = _after(root, state, card)
            ns = taken if child is None else taken + child.exact(guess)
            guess = ns - taken
            values.append(MoveValue(card, (ns, total - ns)))
    except _Budget:
        raise SearchBudgetError(f"the search needs more than {node_limit} nodes") from None
    return tuple(values)


def solve(state: GameState, *, node_limit: int | None = None) -> SolveResult:
    """Each team's points from here under best play, and every card that achieves them.

    ``state`` must be in the play phase (else :class:`SearchError`).  The
    search is exact; ``node_limit`` caps its work (:class:`SearchBudgetError`
    if it runs out).
    """
    start = time.perf_counter()
    root = _Solver(state)
    root.limit = _check_budget(node_limit)
    total = root.left + LAST_TRICK_BONUS
    minimising = not root.seat & 1
    try:
        ns = root.exact()
        best: list[Card] = []
        for card in _root_cards(state):
            taken, child = _after(root, state, card)
            if child is None:
                achieves = taken == ns
            else:  # a null-window probe: does the card hold North-South to ns (or force it)?
                target = ns - taken
                if minimising:
                    achieves = child.value(target, target + 1) <= target
                else:
                    achieves = child.value(target - 1, target) >= target
            if achieves:
                best.append(card)
    except _Budget:
        raise SearchBudgetError(f"the search needs more than {node_limit} nodes") from None
    return SolveResult(
        points=(ns, total - ns),
        best=tuple(best),
        seat=root.seat,
        nodes=root.nodes,
        seconds=time.perf_counter() - start,
    )


class SearchBudgetError(SearchError):
    """The search ran out of its node budget before finding the exact value."""
