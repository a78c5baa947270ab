"""The native (C++) kernel gives the Python solver's answers, and bad input never crashes it.

The kernel is the optional package ``deepsix-native`` (``pip install ./native``,
``nox -s native``).  Without it these tests are skipped with the reason, except the ones
about choosing a kernel; ``DEEPSIX_REQUIRE_NATIVE=1`` (``nox -s native``) makes a missing
kernel an error instead.  The 10,000-position comparison is ``tools/native_exactness.py``
(``nox -s native_exactness``).
"""

from __future__ import annotations

import os
import random

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deepsix import (
    GameState,
    PlayCard,
    PlayOver,
    Rules,
    apply,
    legal_actions,
    new_game,
    shuffled_deal,
    view,
)
from deepsix.search import (
    KERNEL,
    SearchBot,
    SearchBudgetError,
    SearchError,
    _native,
    move_values,
    points,
    solve,
    solve_many,
)
from deepsix.search.solver import _native_solve
from tests.search.endgames import _continuations, endgame, minimax
from tests.support.strategies import examples, rules_variants

REQUIRED = os.environ.get("DEEPSIX_REQUIRE_NATIVE", "") not in ("", "0")
needs_native = pytest.mark.skipif(
    not _native.AVAILABLE and not REQUIRED,
    reason="the native kernel is not installed (pip install ./native)",
)
FRESH = 7_340_000
"""The first seed of these tests' positions (no other test uses seeds from here)."""


def test_the_kernel_that_runs_is_named() -> None:
    """KERNEL says what "auto" runs, and the result names the kernel that answered."""
    if REQUIRED:
        assert _native.AVAILABLE, "DEEPSIX_REQUIRE_NATIVE is set but deepsix_native does not load"
    expected = "native" if _native.AVAILABLE else "python"
    assert expected == KERNEL
    state = endgame(Rules(), FRESH, 3, 1)
    assert solve(state, kernel="python").kernel == "python"
    assert solve(state).kernel == KERNEL


def test_a_bad_kernel_choice_is_a_search_error(monkeypatch: pytest.MonkeyPatch) -> None:
    state = endgame(Rules(), FRESH + 1, 2, 0)
    with pytest.raises(SearchError, match="kernel must be"):
        solve(state, kernel="fast")  # type: ignore[arg-type]  # the error path under test
    monkeypatch.setattr(_native, "AVAILABLE", False)
    with pytest.raises(SearchError, match="not installed"):
        points(state, kernel="native")
    assert solve(state).kernel == "python"  # "auto" falls back to the Python search


def _positions(count: int, seed: int, depths: tuple[int, ...]) -> list[tuple[int, GameState]]:
    rng = random.Random(seed)
    found: list[tuple[int, GameState]] = []
    for index in range(count):
        rules = Rules(play_over=rng.choice(list(PlayOver)))
        found.append((index, endgame(rules, seed + index, rng.choice(depths), rng.randrange(4))))
    return found


@needs_native
def test_values_and_best_cards_equal_the_python_solver() -> None:
    """On 300 fresh positions (one to six tricks left, any card of the trick, both
    play-over rules): the same points and the same set of best cards."""
    for index, state in _positions(300, FRESH + 1000, (1, 2, 3, 4, 5, 5, 6)):
        python = solve(state, kernel="python")
        native = solve(state, kernel="native")
        assert (native.points, native.best, native.seat) == (
            python.points,
            python.best,
            python.seat,
        ), index


@needs_native
def test_move_values_equal_the_python_solver() -> None:
    for index, state in _positions(60, FRESH + 2000, (1, 2, 3, 4, 5)):
        assert move_values(state, kernel="native") == move_values(state, kernel="python"), index


@needs_native
@settings(max_examples=examples(ci=60, deep=800), deadline=None)
@given(rules=rules_variants(), seed=st.integers(0, 2**32 - 1), tricks=st.integers(1, 3),
       played=st.integers(0, 3))  # fmt: skip
def test_the_kernel_equals_minimax_over_the_engine(
    rules: Rules, seed: int, tricks: int, played: int
) -> None:
    """The value, the best cards and every card's value equal plain minimax over the
    engine's legal_actions and apply (tests.search.endgames.minimax)."""
    state = endgame(rules, seed, tricks, played)
    memo: dict[tuple[object, ...], int] = {}
    value = minimax(state, memo)
    result = solve(state, kernel="native")
    assert result.points[0] == value
    expected = {}
    for action, (gained, after) in zip(legal_actions(state), _continuations(state), strict=True):
        assert isinstance(action, PlayCard)
        expected[action.card] = gained + (0 if after is None else minimax(after, memo))
    assert {m.card: m.points[0] for m in move_values(state, kernel="native")} == expected
    assert set(result.best) == {card for card, v in expected.items() if v == value}


@needs_native
@pytest.mark.parametrize("switch", _native.FLAGS)
def test_each_technique_leaves_the_value_unchanged(switch: str) -> None:
    """Every technique of the kernel switched off alone, and all of them at once: the same
    value and best cards on positions of four to seven tricks left (``deepen`` acts from
    seven)."""
    assert _native.kernel().FLAGS == _native.FLAGS
    for index, state in _positions(12, FRESH + 3000, (4, 5, 6, 7)):
        full = _native_solve(state, 1, None)
        without = _native_solve(state, 1, None, _native.flags(**{switch: False}))
        assert without[:3] == full[:3], (index, switch)
    for index, state in _positions(6, FRESH + 3100, (3, 4)):
        bare = _native_solve(state, 1, None, 0)
        assert bare[:3] == _native_solve(state, 1, None)[:3], index


@needs_native
def test_the_batch_call_equals_one_call_each() -> None:
    states = [state for _, state in _positions(24, FRESH + 4000, (3, 4, 5, 6))]
    batch = solve_many(states, threads=2)
    for state, found in zip(states, batch, strict=True):
        assert found is not None
        single = solve(state, kernel="native")
        assert (found.points, found.best, found.kernel) == (single.points, single.best, "native")
    assert solve_many(states[:3], kernel="python", node_limit=1) == [None, None, None]


@needs_native
def test_the_node_budget_is_a_search_budget_error() -> None:
    state = endgame(Rules(), FRESH + 5000, 8, 0)
    with pytest.raises(SearchBudgetError):
        solve(state, node_limit=10, kernel="native")
    with pytest.raises(SearchError, match="node_limit"):
        points(state, node_limit=0, kernel="native")
    assert solve_many([state], node_limit=10, kernel="native") == [None]


# -- bad input at the binding: a typed error, never a crash ---------------------------------

_KERNEL_ERRORS = (ValueError, TypeError, OverflowError)


def _raw(
    hands: list[int], trick: list[int], leader: int, sunk: int, rule: int
) -> tuple[int, int, list[int], list[int], list[int], int] | None:
    module = _native.kernel()
    try:
        found: tuple[int, int, list[int], list[int], list[int], int] = module.solve(
            hands, trick, leader, sunk, rule, 1, _native.flags(), 20_000, 12
        )
    except module.BudgetExceeded:
        return None
    return found


@needs_native
@settings(max_examples=examples(ci=300, deep=5000), deadline=None)
@given(
    hands=st.lists(st.integers(-(2**64), 2**64), min_size=0, max_size=5),
    trick=st.lists(st.integers(-5, 40), max_size=5),
    leader=st.integers(-3, 6),
    sunk=st.integers(-3, 6),
    rule=st.integers(-2, 3),
)
def test_arbitrary_arguments_raise_or_answer(
    hands: list[int], trick: list[int], leader: int, sunk: int, rule: int
) -> None:
    """Any ints at all: a ValueError/TypeError/OverflowError naming the problem, or an answer."""
    try:
        found = _raw(hands, trick, leader, sunk, rule)
    except _KERNEL_ERRORS as error:
        message = str(error)
        assert message
        return
    if found is not None:
        assert 0 <= found[0] <= found[1]


@needs_native
@settings(
    max_examples=examples(ci=300, deep=5000),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    seed=st.integers(0, 2**32 - 1),
    tricks=st.integers(1, 6),
    played=st.integers(0, 3),
    edits=st.lists(
        st.tuples(st.integers(0, 3), st.integers(0, 27), st.sampled_from([-1, 1])), max_size=3
    ),
    leader_shift=st.integers(0, 3),
)
def test_damaged_positions_raise_value_errors(
    seed: int,
    tricks: int,
    played: int,
    edits: list[tuple[int, int, int]],
    leader_shift: int,
) -> None:
    """Real positions with cards added or taken away and the leader moved: each is either
    still a Deep Six position (then solved, within its bounds) or refused with a
    ValueError naming the rule it breaks (a TypeError for a hand made negative) -- never
    searched wrongly or crashed."""
    state = endgame(Rules(), seed, tricks, played)
    hands, trick, leader, sunk, rule = _native.arguments(state)
    for seat, card, sign in edits:
        hands[seat] += sign << (2 * card)
    leader = (leader + leader_shift) & 3
    try:
        found = _raw(hands, trick, leader, sunk, rule)
    except (ValueError, TypeError) as error:
        message = str(error)
        assert message
        return
    if found is not None:
        assert 0 <= found[0] <= found[1]
    if not edits and not leader_shift:
        assert found is None or found[0] == solve(state, kernel="python").points[0]


@needs_native
def test_named_refusals() -> None:
    """Each broken rule is named."""
    state = endgame(Rules(), FRESH + 6000, 4, 2)
    hands, trick, leader, sunk, rule = _native.arguments(state)
    cases = {
        "four hands": ([*hands[:3]], trick, leader, sunk, rule),
        "sunk suit": (hands, trick, leader, 4, rule),
        "play-over": (hands, trick, leader, sunk, 2),
        "leader": (hands, trick, 7, sunk, rule),
        "0 to 27": (hands, [trick[0], 31], leader, sunk, rule),
        "one card per trick": (hands, trick, (leader + 1) & 3, sunk, rule),
        "56 bits": ([1 << 60, *hands[1:]], trick, leader, sunk, rule),
        "at most twice": ([hands[0] | 3, *hands[1:]], trick, leader, sunk, rule),
    }
    for words, arguments in cases.items():
        with pytest.raises(ValueError, match=words):
            _raw(*arguments)
    full = shuffled_deal(1)
    assert full is not None
    game = apply(new_game(), full)
    with pytest.raises(SearchError, match="play phase"):
        solve(game, kernel="native")


def test_the_search_bot_checks_its_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """A kernel that is not one, or the native one where it is not installed, is refused when
    the bot is made, not in the middle of a game."""
    with pytest.raises(SearchError, match="kernel must be"):
        SearchBot(kernel="fast")  # type: ignore[arg-type]  # the error path under test
    assert SearchBot(kernel="auto").kernel == "auto"
    monkeypatch.setattr(_native, "AVAILABLE", False)
    with pytest.raises(SearchError, match=r"pip install \./native"):
        SearchBot(kernel="native")
    assert SearchBot(kernel="auto").kernel == "auto"  # runs the Python kernel then


@needs_native
def test_the_search_bot_plays_the_same_endgame_on_either_kernel() -> None:
    """Where no budget runs out the two kernels' values are the same, and so are the bot's
    choices in the endgame, deal by deal."""
    python = SearchBot(worlds=3, solve_tricks=4, node_limit=10**7)
    native = attrs.evolve(python, kernel="native")
    for index, state in _positions(12, FRESH + 5000, (2, 3, 4)):
        seat = state.to_act
        assert seat is not None
        seen = view(state, seat)
        chosen = python.choose(seen, random.Random(index))
        assert native.choose(seen, random.Random(index)) == chosen, index
