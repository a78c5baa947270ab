"""A double-dummy solver for the play phase: exact points under best play by both teams.

*Double dummy* means every hand is visible (as in bridge's DDS).  Given a
:class:`~deepsix.GameState` in the play phase, :func:`solve` finds how many
card points each team takes from here to the end of the hand when both
teams play perfectly -- each team taking as few as it can -- and which
cards achieve that.  The points left (the 2s and 3s not yet taken, plus the
last-trick bonus) are split between the two teams, so the game from here is
zero-sum: one number, the points North-South take, is minimised by
North-South and maximised by East-West.

How it is searched: alpha-beta over single cards driven by MTD(f) null-window probes;
static bounds and a transposition table at trick boundaries; the last two tricks exact;
equivalent cards searched once; measured move ordering (the source of
``deepsix.search._core`` describes each).  The rules are not re-implemented (legality from
:func:`deepsix.tricks.play_window`, winners from :func:`deepsix.tricks.winning_position`),
and ``tests/search`` proves the solver exact against plain minimax over the engine's own
:func:`~deepsix.legal_actions` and :func:`~deepsix.apply`.  ``objective="score"`` solves
what the hand records instead of its card points (:data:`Objective`).

**Two kernels.**  The same search also exists in C++, the optional package
``deepsix-native`` (``pip install ./native``).  :data:`KERNEL` says which one
``kernel="auto"`` (the default) runs, and :attr:`SolveResult.kernel` which one answered;
``kernel="python"`` asks for :mod:`deepsix.search._core` (the search bots do: their node
budgets are counted in its nodes), ``kernel="native"`` for the C++ one
(:class:`SearchError` if it is not installed).  Without a compiler, Python searches.

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

import os
import time
from collections.abc import Sequence
from typing import Final, Literal

import attrs

from deepsix.actions import PlayCard
from deepsix.cards import CARD_POINTS, CARDS, HAND_SIZE, Card, Seat
from deepsix.errors import DeepSixError
from deepsix.scoring import LAST_TRICK_BONUS
from deepsix.search._core import INF, Budget
from deepsix.search._native import AVAILABLE as _AVAILABLE
from deepsix.search._native import arguments as _arguments
from deepsix.search._native import available as _available
from deepsix.search._native import flags as _flags
from deepsix.search._native import kernel as _kernel
from deepsix.search._python import Solver as _Solver
from deepsix.search._python import after as _after
from deepsix.search._python import representatives as _representatives
from deepsix.search._score import card_scores as _card_scores
from deepsix.search._score import position_score as _position_score
from deepsix.state import GameState, Phase

__all__ = [
    "KERNEL",
    "KernelChoice",
    "MoveValue",
    "Objective",
    "SearchBudgetError",
    "SearchError",
    "SolveResult",
    "check_kernel",
    "move_values",
    "playout_points",
    "points",
    "score",
    "solve",
    "solve_many",
]

KERNEL: Final[Literal["native", "python"]] = "native" if _AVAILABLE else "python"
"""The kernel that ``kernel="auto"`` runs: ``"native"`` when the C++ kernel
(``deepsix-native``) is installed, else ``"python"`` (:mod:`deepsix.search._core`)."""

KernelChoice = Literal["auto", "native", "python"]
"""Which search kernel to run (see :data:`KERNEL`)."""

Objective = Literal["points", "score"]
"""What the solver optimises: ``"points"``, the card points each team takes (each as few as
it can), or ``"score"``, what the hand records -- North-South's recorded score minus
East-West's, with the bid, the meld, the zero floor and the set contract
(the source of ``deepsix.search._score`` says why the two optima can differ)."""


class SearchError(DeepSixError, ValueError):
    """A search was asked about a state it cannot search, or given a bad argument."""


_POINTS: Final = CARD_POINTS


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
    """Positions searched (an exact two-trick endgame counts as one)."""
    seconds: float
    """Wall-clock time of the search."""
    kernel: str = "python"
    """The kernel that searched: ``"native"`` (C++) or ``"python"`` (see :data:`KERNEL`);
    ``nodes`` counts that kernel's positions."""
    score: int | None = None
    """With ``objective="score"``: the hand's score under best play for the score, North-South's
    recorded score minus East-West's (``best`` are the cards that achieve it); else ``None``."""


@attrs.frozen
class MoveValue:
    """One legal card and the points each team takes after it, under best play."""

    card: Card
    """The card played now."""
    points: tuple[int, int]
    """Card points each team takes from now (this card's trick included) to the end."""
    score: int | None = None
    """With ``objective="score"``: the hand's score after this card under best play for the
    score, North-South's recorded score minus East-West's; else ``None``."""


def _check_state(state: object) -> None:
    """Raise :class:`SearchError` unless ``state`` is a :class:`~deepsix.GameState` in play."""
    if not isinstance(state, GameState):
        raise SearchError(f"the solver needs a GameState, not {type(state).__name__}")
    if state.phase is not Phase.PLAY or state.to_act is None:
        raise SearchError(
            "the solver searches the play phase only; this state is in the "
            f"{state.phase.value} phase"
        )
    if state.setup.sunk_suit is None:  # pragma: no cover - the engine names it before play
        raise SearchError("the state has no sunk suit")


def check_kernel(kernel: object, name: str = "kernel") -> None:
    """Raise :class:`SearchError` unless ``kernel`` is a :data:`KernelChoice` that can run
    here (``"native"`` needs the native kernel installed); ``name`` names the setting."""
    if kernel not in ("auto", "native", "python"):
        raise SearchError(f"{name} must be 'auto', 'native' or 'python', not {kernel!r}")
    if kernel == "native" and not _available():
        raise SearchError(
            f"{name} 'native': the native kernel is not installed (pip install ./native from"
            " the repository; 'auto' runs it where it is installed)"
        )


def _native_wanted(kernel: object) -> bool:
    """Whether ``kernel`` (a :data:`KernelChoice`, checked) asks for the native kernel."""
    check_kernel(kernel)
    return kernel == "native" or (kernel == "auto" and _available())


_NO_LIMIT: Final = 1 << 62


def _native_solve(
    state: GameState, what: int, node_limit: int | None, flags: int = -1
) -> tuple[int, int, list[int], list[int], list[int], int]:
    """The native kernel's answer for ``state`` (checked): value, total, best cards, the
    cards and values of :func:`move_values`, nodes (``what`` as the kernel's)."""
    limit = _NO_LIMIT if node_limit is None else _check_budget(node_limit)
    module = _kernel()
    try:
        found: tuple[int, int, list[int], list[int], list[int], int] = module.solve(
            *_arguments(state),
            what,
            _flags() if flags < 0 else flags,
            limit,
            0,
        )
    except module.BudgetExceeded:
        raise SearchBudgetError(f"the search needs more than {node_limit} nodes") from None
    except ValueError as error:  # pragma: no cover - a GameState is always a position
        raise SearchError(f"not a Deep Six position: {error}") from None
    return found


def _check_budget(node_limit: int | None) -> int:
    if node_limit is None:
        return INF
    if type(node_limit) is not int or node_limit < 1:
        raise SearchError(f"node_limit must be a positive int or None, not {node_limit!r}")
    return node_limit


def _root_cards(state: GameState) -> tuple[Card, ...]:
    """The distinct cards the seat to act may play (from the engine's legal actions)."""
    return tuple(action.card for action in state.legal_actions() if isinstance(action, PlayCard))


def move_values(
    state: GameState,
    *,
    node_limit: int | None = None,
    kernel: KernelChoice = "auto",
    objective: Objective = "points",
) -> tuple[MoveValue, ...]:
    """Every distinct legal card of the seat to act, with each team's points after it.

    The points are exact under best play by both teams from then on (double
    dummy).  Raises :class:`SearchError` for a state not in the play phase,
    and :class:`SearchBudgetError` if ``node_limit`` nodes do not suffice.
    ``kernel`` chooses the search (:data:`KERNEL`); the answer is the same.
    With ``objective="score"`` each value also has its :attr:`MoveValue.score`.
    """
    _check_state(state)
    _check_objective(objective)
    if objective == "score":
        return _scored(state, node_limit, kernel)[0]
    return _card_values(state, node_limit, kernel)[0]


def _scored(
    state: GameState, node_limit: int | None, kernel: KernelChoice
) -> tuple[tuple[MoveValue, ...], int]:
    """:func:`move_values` with scores (``state`` checked), and the nodes searched."""
    values, nodes, root = _card_values(state, node_limit, kernel)
    pairs = [(value.card, value.points[0]) for value in values]
    try:
        scores, more = _card_scores(state, pairs, _check_budget(node_limit), root)
    except Budget:
        raise SearchBudgetError(f"the search needs more than {node_limit} nodes") from None
    scored = tuple(attrs.evolve(v, score=score) for v, score in zip(values, scores, strict=True))
    return scored, nodes + more


def _check_objective(objective: object) -> None:
    if objective not in ("points", "score"):
        raise SearchError(f"objective must be 'points' or 'score', not {objective!r}")


def _card_values(
    state: GameState, node_limit: int | None, kernel: KernelChoice
) -> tuple[tuple[MoveValue, ...], int, _Solver | None]:
    """:func:`move_values` for card points (``state`` checked), the nodes searched, and the
    Python kernel's root (``None``: the native kernel searched)."""
    if _native_wanted(kernel):
        _, total, _, searched, found_values, nodes = _native_solve(state, 2, node_limit)
        native = tuple(
            MoveValue(CARDS[card], (ns, total - ns))
            for card, ns in zip(searched, found_values, strict=True)
        )
        return native, nodes, None
    root = _Solver(state)
    root.limit = _check_budget(node_limit)
    total = root.left + LAST_TRICK_BONUS
    values: list[MoveValue] = []
    guess = -1  # the first card's probes start at a play-out's value, the next at the last value
    cards = _root_cards(state)
    found: dict[Card, int] = {}
    try:
        representatives = _representatives(root, cards)
        for card in cards:
            ns = found.get(representatives[card], -1)
            if ns < 0:  # the first card of its class: searched
                taken, child = _after(root, state, card)
                ns = taken if child is None else taken + child.exact(guess)
                guess = ns - taken
                found[card] = ns
            values.append(MoveValue(card, (ns, total - ns)))
    except Budget:
        raise SearchBudgetError(f"the search needs more than {node_limit} nodes") from None
    return tuple(values), root.nodes, root


def points(
    state: GameState, *, node_limit: int | None = None, kernel: KernelChoice = "auto"
) -> tuple[int, int]:
    """Each team's points from here under best play: :func:`solve` without the best cards,
    cheaper (one search, no probe per card).  Raises as :func:`solve` does."""
    _check_state(state)
    if _native_wanted(kernel):
        ns, total, *_ = _native_solve(state, 0, node_limit)
        return (ns, total - ns)
    root = _Solver(state)
    root.limit = _check_budget(node_limit)
    try:
        ns = root.exact()
    except Budget:
        raise SearchBudgetError(f"the search needs more than {node_limit} nodes") from None
    return (ns, root.left + LAST_TRICK_BONUS - ns)


def score(state: GameState, *, node_limit: int | None = None, kernel: KernelChoice = "auto") -> int:
    """The hand's score from here under best play for it (North-South's recorded score minus
    East-West's, :data:`Objective`): :func:`solve` with ``objective="score"`` without the
    best cards, as cheap as :func:`points` wherever the score rises with the card points
    over the range best play can reach.  Raises as :func:`solve` does."""
    found = points(state, node_limit=node_limit, kernel=kernel)
    try:
        return _position_score(state, found, _check_budget(node_limit), _native_wanted(kernel))
    except Budget:
        raise SearchBudgetError(f"the search needs more than {node_limit} nodes") from None


def playout_points(
    state: GameState, *, solve_tricks: int, node_limit: int | None = None
) -> tuple[int, int]:
    """Each team's points from here in a *perfect-information play-out*: every player,
    seeing all the cards, plays the card the solver would try first (its move ordering)
    until at most ``solve_tricks`` tricks are left, and the rest is solved exactly.

    A play-out no bot plays: cheap (the ordering is the compiled solver's) and
    the search's own.  If the exact part needs more than ``node_limit`` nodes,
    the ordering plays on to the end instead, so an estimate is always
    returned.  Raises :class:`SearchError` for a state not in the play phase.

    >>> import random
    >>> from deepsix import HeuristicBot, Phase, apply, new_game, shuffled_deal, view
    >>> state = new_game().apply(shuffled_deal(3))
    >>> while state.phase is not Phase.PLAY or len(state.tricks) < 6:  # eight tricks left
    ...     state = apply(state, HeuristicBot().choose(view(state, state.to_act), random.Random(0)))
    >>> playout_points(state, solve_tricks=8) == points(state)  # all of it solved
    True
    >>> from deepsix.scoring import TOTAL_CARD_POINTS  # the last-trick bonus included
    >>> ns, ew = playout_points(state, solve_tricks=4)
    >>> ns + ew == TOTAL_CARD_POINTS - sum(state.card_points)  # what is still to be taken
    True
    """
    if type(solve_tricks) is not int or not 0 <= solve_tricks <= HAND_SIZE:
        raise SearchError(f"solve_tricks must be an int from 0 to 14, not {solve_tricks!r}")
    _check_state(state)
    root = _Solver(state)
    root.limit = _check_budget(node_limit)
    engine = root.engine
    engine.load(root.hands)
    ns = engine.estimate(
        int(root.seat), root.leader, root.left, root.tricks_left, root.code, solve_tricks
    )
    return (ns, root.left + LAST_TRICK_BONUS - ns)


def solve(
    state: GameState,
    *,
    node_limit: int | None = None,
    kernel: KernelChoice = "auto",
    objective: Objective = "points",
) -> SolveResult:
    """Each team's points from here under best play, and every card that achieves them.

    ``state`` must be in the play phase (else :class:`SearchError`).  The
    search is exact; ``node_limit`` caps its work (:class:`SearchBudgetError`
    if it runs out).  ``kernel`` chooses the search (:data:`KERNEL`); the answer
    is the same, and :attr:`SolveResult.kernel` names the one that ran.  With
    ``objective="score"`` it also solves the hand's score (:data:`Objective`):
    :attr:`SolveResult.score`, and ``best`` the cards that achieve it.
    """
    start = time.perf_counter()
    _check_state(state)
    _check_objective(objective)
    if objective == "score":
        values, nodes = _scored(state, node_limit, kernel)
        assert state.to_act is not None  # checked above
        pick = min if state.to_act.team == 0 else max
        optimum = pick(v.score for v in values if v.score is not None)
        ns = pick(v.points[0] for v in values)
        return SolveResult(
            points=(ns, values[0].points[0] + values[0].points[1] - ns),
            best=tuple(v.card for v in values if v.score == optimum),
            seat=state.to_act,
            nodes=nodes,
            seconds=time.perf_counter() - start,
            kernel="native" if _native_wanted(kernel) else "python",
            score=optimum,
        )
    if _native_wanted(kernel):
        ns, total, native_best, _, _, nodes = _native_solve(state, 1, node_limit)
        assert state.to_act is not None  # checked above
        return SolveResult(
            points=(ns, total - ns),
            best=tuple(CARDS[card] for card in native_best),
            seat=state.to_act,
            nodes=nodes,
            seconds=time.perf_counter() - start,
            kernel="native",
        )
    root = _Solver(state)
    root.limit = _check_budget(node_limit)
    total = root.left + LAST_TRICK_BONUS
    minimising = not root.seat & 1
    try:
        ns = root.exact()
        best: list[Card] = []
        cards = _root_cards(state)
        achieving: dict[Card, bool] = {}
        representatives = _representatives(root, cards)
        for card in cards:
            achieves = achieving.get(representatives[card])
            if achieves is None:  # the first card of its class: probed
                taken, child = _after(root, state, card)
                if child is None:
                    achieves = taken == ns
                else:  # a null-window probe: does the card hold North-South to ns (or force it)?
                    target = ns - taken
                    if minimising:
                        achieves = child.value(target, target + 1) <= target
                    else:
                        achieves = child.value(target - 1, target) >= target
                achieving[card] = achieves
            if achieves:
                best.append(card)
    except Budget:
        raise SearchBudgetError(f"the search needs more than {node_limit} nodes") from None
    return SolveResult(
        points=(ns, total - ns),
        best=tuple(best),
        seat=root.seat,
        nodes=root.nodes,
        seconds=time.perf_counter() - start,
    )


def solve_many(
    states: Sequence[GameState],
    *,
    node_limit: int | None = None,
    threads: int | None = None,
    kernel: KernelChoice = "auto",
) -> list[SolveResult | None]:
    """:func:`solve` of many states at once: ``None`` for one over ``node_limit`` nodes.

    With the native kernel the states are solved on ``threads`` threads (default:
    every core) with the GIL released -- what a sampling bot or an analysis needs,
    many deals of one position; with the Python kernel, one after another.
    Raises :class:`SearchError` for a bad state or argument.
    """
    if threads is not None and (type(threads) is not int or not 1 <= threads <= 256):
        raise SearchError(f"threads must be an int from 1 to 256 or None, not {threads!r}")
    for state in states:
        _check_state(state)
    if not _native_wanted(kernel):
        results: list[SolveResult | None] = []
        for state in states:
            try:
                results.append(solve(state, node_limit=node_limit, kernel="python"))
            except SearchBudgetError:
                results.append(None)
        return results
    limit = _NO_LIMIT if node_limit is None else _check_budget(node_limit)
    workers = threads if threads is not None else os.cpu_count() or 1
    found: list[SolveResult | None] = [None] * len(states)
    groups: dict[tuple[int, int], list[int]] = {}  # one call per sunk suit and rule
    positions = [_arguments(state) for state in states]
    for index, (_, _, _, sunk, rule) in enumerate(positions):
        groups.setdefault((sunk, rule), []).append(index)
    module = _kernel()
    for (sunk, rule), indices in groups.items():
        start = time.perf_counter()
        answers = module.solve_many(
            [positions[i][0] for i in indices],
            [positions[i][1] for i in indices],
            [positions[i][2] for i in indices],
            sunk,
            rule,
            1,
            _flags(),
            limit,
            0,
            workers,
        )
        seconds = (time.perf_counter() - start) / max(1, len(indices))
        for index, answer in zip(indices, answers, strict=True):
            if answer is None:
                continue
            ns, total, best, _, _, nodes = answer
            seat = states[index].to_act
            assert seat is not None  # checked above
            found[index] = SolveResult(
                points=(ns, total - ns),
                best=tuple(CARDS[card] for card in best),
                seat=seat,
                nodes=nodes,
                seconds=seconds,
                kernel="native",
            )
    return found


class SearchBudgetError(SearchError):
    """The search ran out of its node budget before finding the exact value."""
