"""The double-dummy solver is exact, legal and honours every rules variant.

The oracle is plain minimax over the engine's own ``legal_actions`` and
``apply`` (:func:`tests.search.endgames.minimax`): no search trick of the
solver (null-window probes, the transposition table, relative ranks, card
merging, the last-two-tricks endgame) is shared with it.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deepsix import (
    Card,
    DeepSixError,
    GameState,
    PlayCard,
    PlayOver,
    Rules,
    apply,
    legal_actions,
    new_game,
    shuffled_deal,
)
from deepsix.cards import CARDS
from deepsix.hands import pack
from deepsix.scoring import LAST_TRICK_BONUS
from deepsix.search import SearchBudgetError, SearchError, move_values, solve
from deepsix.search._core import Engine, _IntMap, _merged
from deepsix.search._python import Solver as _Solver
from deepsix.tricks import legal_plays
from tests.search.endgames import endgame, minimax
from tests.support.strategies import examples, rules_variants

SEEDS = st.integers(0, 2**32 - 1)
PLAYED = st.integers(0, 3)


def _total_left(state: GameState) -> int:
    solver = _Solver(state)
    return solver.left + LAST_TRICK_BONUS


@settings(max_examples=examples(ci=80, deep=1500))
@given(rules=rules_variants(), seed=SEEDS, tricks_left=st.integers(1, 3), played=PLAYED)
def test_value_equals_minimax_over_the_engine(
    rules: Rules, seed: int, tricks_left: int, played: int
) -> None:
    """solve() gives North-South exactly what minimax over legal_actions/apply gives,
    and the two teams' points add up to every point still to be taken."""
    state = endgame(rules, seed, tricks_left, played)
    result = solve(state)
    assert result.points[0] == minimax(state)
    assert sum(result.points) == _total_left(state)
    assert result.seat == state.to_act


@settings(max_examples=examples(ci=60, deep=1000))
@given(
    play_over=st.sampled_from(PlayOver),
    seed=SEEDS,
    tricks_left=st.integers(1, 3),
    played=PLAYED,
)
def test_best_cards_are_exactly_the_legal_cards_that_achieve_the_value(
    play_over: PlayOver, seed: int, tricks_left: int, played: int
) -> None:
    """Every card solve() names is legal and achieves the value; every legal card it
    leaves out does worse for the seat to act."""
    state = endgame(Rules(play_over=play_over), seed, tricks_left, played)
    result = solve(state)
    seat = state.to_act
    assert seat is not None
    memo: dict[tuple[object, ...], int] = {}
    before = state.card_points[0]
    for action in legal_actions(state):
        assert isinstance(action, PlayCard)
        after = apply(state, action)
        if after.phase.value == "play":
            value = after.card_points[0] - before + minimax(after, memo)
        else:
            value = after.completed_hands[-1].card_points[0] - before
        assert (action.card in result.best) == (value == result.points[0])
    assert result.best
    assert set(result.best) <= {action.card for action in legal_actions(state)}  # type: ignore[union-attr]  # in the card play every legal action is a card


@settings(max_examples=examples(ci=40, deep=600))
@given(rules=rules_variants(), seed=SEEDS, tricks_left=st.integers(1, 3), played=PLAYED)
def test_move_values_equal_minimax_after_each_card(
    rules: Rules, seed: int, tricks_left: int, played: int
) -> None:
    """move_values() lists every legal card once, with its exact minimax value."""
    state = endgame(rules, seed, tricks_left, played)
    values = move_values(state)
    legal = [action.card for action in legal_actions(state)]  # type: ignore[union-attr]  # in the card play every legal action is a card
    assert [value.card for value in values] == legal
    before = state.card_points[0]
    memo: dict[tuple[object, ...], int] = {}
    for value in values:
        assert state.to_act is not None
        after = apply(state, PlayCard(state.to_act, value.card))
        if after.phase.value == "play":
            expected = after.card_points[0] - before + minimax(after, memo)
        else:
            expected = after.completed_hands[-1].card_points[0] - before
        assert value.points[0] == expected
        assert sum(value.points) == _total_left(state)


@settings(max_examples=examples(ci=25, deep=400))
@given(
    play_over=st.sampled_from(PlayOver),
    seed=SEEDS,
    tricks_left=st.integers(4, 5),
    played=PLAYED,
)
def test_merging_and_relative_ranks_do_not_change_the_value(
    play_over: PlayOver, seed: int, tricks_left: int, played: int
) -> None:
    """Deeper positions (beyond the oracle's reach): the solver with card merging and
    relative-rank keys agrees with the same search without either."""
    state = endgame(Rules(play_over=play_over), seed, tricks_left, played)
    plain = _Solver(state, merge=False, squeeze=False).exact()
    assert solve(state).points[0] == plain


SWITCHES = ("bounds", "runs", "killers", "merge", "squeeze", "guess")
"""The search's techniques that the engine can switch off (none may change a value)."""


def _without(state: GameState, switch: str) -> _Solver:
    """A solver for ``state`` with one technique switched off."""
    return _Solver(
        state,
        bounds=switch != "bounds",
        runs=switch != "runs",
        killers=switch != "killers",
        merge=switch != "merge",
        squeeze=switch != "squeeze",
        guess=switch != "guess",
    )


@pytest.mark.parametrize("switch", SWITCHES)
@settings(max_examples=examples(ci=15, deep=250), deadline=None)
@given(
    play_over=st.sampled_from(PlayOver),
    seed=SEEDS,
    tricks_left=st.integers(4, 6),
    played=PLAYED,
)
def test_each_technique_leaves_the_value_unchanged(
    switch: str, play_over: PlayOver, seed: int, tricks_left: int, played: int
) -> None:
    """Four to six tricks left (beyond the oracle's reach): the search with every
    technique on agrees with the same search with one switched off -- the static
    bounds, the touching-run keys, the killer ordering, card merging, relative ranks,
    the play-out's first guess."""
    state = endgame(Rules(play_over=play_over), seed, tricks_left, played)
    assert _Solver(state).exact() == _without(state, switch).exact()


@pytest.mark.parametrize("switch", SWITCHES)
def test_each_technique_saves_work(switch: str) -> None:
    """No technique is vacuous: over a few positions, switching it off costs nodes."""
    on = off = 0
    for seed in range(12):
        state = endgame(Rules(), seed, 6, 0)
        with_it = _Solver(state)
        with_it.exact()
        without = _without(state, switch)
        without.exact()
        on += with_it.nodes
        off += without.nodes
    assert on < off


@settings(max_examples=examples(ci=8, deep=150), deadline=None)
@given(play_over=st.sampled_from(PlayOver), seed=SEEDS, played=PLAYED)
def test_the_deepened_first_guess_leaves_the_value_unchanged(
    play_over: PlayOver, seed: int, played: int
) -> None:
    """Seven tricks left, where the first probe starts at the exact value after one
    trick of play-out (``Engine.deepened``): the same value as the search that starts
    at the play-out's, and ``solve``'s best cards are exactly the cards whose own
    value (``move_values``) is it."""
    state = endgame(Rules(play_over=play_over), seed, 7, played)
    value = _Solver(state, deepen=False).exact()
    assert _Solver(state).exact() == value
    result = solve(state)
    assert result.points[0] == value
    assert result.best == tuple(each.card for each in move_values(state) if each.points[0] == value)


def test_the_deepened_first_guess_saves_work() -> None:
    """Over a few positions seven tricks left, the deepened first guess costs fewer
    nodes than the play-out's alone (its own searches counted)."""
    on = off = 0
    for seed in range(12):
        state = endgame(Rules(), seed, 7, 0)
        with_it = _Solver(state)
        with_it.exact()
        without = _Solver(state, deepen=False)
        without.exact()
        on += with_it.nodes
        off += without.nodes
    assert on < off


@settings(max_examples=examples(ci=40, deep=600))
@given(
    play_over=st.sampled_from(PlayOver),
    seed=SEEDS,
    tricks_left=st.integers(2, 8),
    runs=st.booleans(),
    squeeze=st.booleans(),
)
def test_the_key_after_a_trick_equals_the_key_computed_afresh(
    play_over: PlayOver, seed: int, tricks_left: int, runs: bool, squeeze: bool
) -> None:
    """The table key after a trick, rebuilt from the suits its cards touched only
    (``Engine.after``), is the key of the hands computed from scratch, over a random
    legal trick from a random position."""
    state = endgame(Rules(play_over=play_over), seed, tricks_left, 0)
    engine = Engine(int(state.setup.sunk_suit or 0), play_over, runs=runs, squeeze=squeeze)
    engine.load(list(state.packed_hands))
    engine.current = engine.key()
    code = 0
    seat = int(state.to_act or 0)
    for played in range(4):
        card = engine.legal(seat, code)[seed % len(engine.legal(seat, code))]
        engine.add(seat, -pack([CARDS[card]]))
        code |= (card + 1) << (5 * played)
        seat = (seat + 1) & 3
        seed //= 3
    assert engine.after(code) == engine.key()


@settings(max_examples=examples(ci=200, deep=3000))
@given(
    play_over=st.sampled_from(PlayOver),
    sunk=st.integers(0, 3),
    trick=st.lists(st.integers(0, 27), min_size=0, max_size=3),
    hand=st.lists(st.integers(0, 27), min_size=1, max_size=10),
)
def test_the_legal_cards_are_the_rules_legal_plays(
    play_over: PlayOver, sunk: int, trick: list[int], hand: list[int]
) -> None:
    """The engine's legal cards, cached by the trick's floor and the led suit's cards
    (``Engine.legal``), are :func:`deepsix.tricks.legal_plays` of the hand and trick."""
    packed = pack([CARDS[card] for index, card in enumerate(hand) if hand[:index].count(card) < 2])
    engine = Engine(sunk, play_over)
    engine.load([packed, 0, 0, 0])
    code = 0
    for played, card in enumerate(trick):
        code |= (card + 1) << (5 * played)
    expected = legal_plays(packed, [CARDS[card] for card in trick], sunk, play_over)
    assert engine.legal(0, code) == tuple(int(card) for card in expected)


def test_touching_cards_of_one_player_share_a_key() -> None:
    """The run keys: 5♠ 6♠ in one hand, with no other 5♠ or 6♠ out, is keyed like 5♠ 5♠
    (and like 6♠ 6♠); not so once another player holds a card between or equal."""
    five, six, seven = (Card.parse(text) for text in ("5S", "6S", "7S"))
    engine = Engine(0, PlayOver.WIN_TRICK)

    def key(*hands: list[Card]) -> int:
        engine.load([pack(hand) for hand in hands])
        return engine.key()

    low = Card.parse("2H")
    assert key([five, six], [low], [seven], []) == key([five, five], [low], [seven], [])
    assert key([five, six], [low], [seven], []) == key([six, six], [low], [seven], [])
    assert key([five, seven], [low], [six], []) != key([five, five], [low], [six], [])
    assert key([five, six], [five], [seven], []) != key([five, five], [six], [seven], [])
    plain = Engine(0, PlayOver.WIN_TRICK, runs=False)
    plain.load([pack([five, six]), pack([low]), pack([seven]), 0])
    first = plain.key()
    plain.load([pack([five, five]), pack([low]), pack([seven]), 0])
    assert plain.key() != first


@settings(max_examples=examples(ci=40, deep=600))
@given(
    play_over=st.sampled_from(PlayOver),
    seed=SEEDS,
    tricks_left=st.integers(2, 4),
    played=PLAYED,
)
def test_cards_merged_as_interchangeable_have_equal_values(
    play_over: PlayOver, seed: int, tricks_left: int, played: int
) -> None:
    """Each legal card the merge rule drops is worth exactly what the card it was merged
    into is worth (the soundness of the equivalence, card by card)."""
    state = endgame(Rules(play_over=play_over), seed, tricks_left, played)
    kept = _Solver(state).classes()
    values = {value.card: value.points for value in move_values(state)}
    assert set(kept) <= set(values)
    representative = None
    for card, points in values.items():  # legal cards, low to high
        if card in kept:
            representative = card
        else:
            assert representative is not None
            assert representative.suit == card.suit
            assert points == values[representative]


def test_a_merge_is_found_when_cards_touch() -> None:
    """The merge rule is not vacuous: across many positions it merges some cards."""
    merged = 0
    for seed in range(40):
        state = endgame(Rules(), seed, 6, 0)
        merged += len(_Solver(state, merge=False).classes()) - len(_Solver(state).classes())
    assert merged > 0


def _merged_by_the_loop(block: int, theirs: int) -> int:
    """What the merge keeps of a suit's block, by the rule as stated: a held card is
    dropped when it and the next lower held card are both pointless (ranks 2 to 6) and
    no rank from that card to it is in ``theirs``."""
    held = [rank for rank in range(7) if (block >> (2 * rank)) & 3]
    kept = 0
    for index, rank in enumerate(held):
        lower = held[index - 1] if index else -1
        if lower < 2 or theirs & sum(3 << (2 * between) for between in range(lower, rank + 1)):
            kept |= 3 << (2 * rank)
    return block & kept


def test_the_merge_table_keeps_what_the_rule_keeps() -> None:
    """_merged (by its lazily filled table) keeps exactly the cards the rule keeps, for
    random blocks of one or two copies per rank held by the player and by the others."""
    rng = random.Random(26)
    for _ in range(20_000):
        block = sum(rng.choice((0, 0, 1, 2)) << (2 * rank) for rank in range(7))
        theirs = sum(rng.choice((0, 0, 1, 2, 3)) << (2 * rank) for rank in range(7))
        assert _merged(block, theirs) == _merged_by_the_loop(block, theirs), (block, theirs)


def test_the_cache_map_agrees_with_a_dict() -> None:
    """_IntMap, the search's open-addressing map, answers what a dict answers: the last
    value put under each key, -1 for a key never put; across its growth, for keys of a
    few bits up to beyond 2**62 (the table's large keys)."""
    rng = random.Random(6)
    table = _IntMap()
    expected: dict[int, int] = {}
    for step in range(30_000):
        bits = rng.choice((8, 20, 56, 62, 70))
        key = rng.getrandbits(bits) if step % 3 else rng.choice([*expected, 5] if expected else [5])
        value = rng.getrandbits(26)
        table.put(key, value)
        expected[key] = value
    assert len(table) == len(expected)
    assert table.mask > 2 * len(expected) - 1  # grown, and at most half full
    for key, value in expected.items():
        assert table.get(key) == value
    for _ in range(2_000):
        key = rng.getrandbits(56)
        assert table.get(key) == expected.get(key, -1)


def test_errors_are_typed() -> None:
    """States outside the play phase, non-states and bad budgets raise SearchError."""
    assert issubclass(SearchError, DeepSixError)
    bidding = apply(new_game(), shuffled_deal(1))
    with pytest.raises(SearchError, match="play phase"):
        solve(bidding)
    with pytest.raises(SearchError, match="GameState"):
        solve("not a state")  # type: ignore[arg-type]  # the error path under test
    state = endgame(Rules(), 3, 5, 0)
    for bad in (0, -5, 1.5, "many"):
        with pytest.raises(SearchError, match="node_limit"):
            solve(state, node_limit=bad)  # type: ignore[arg-type]  # the error path under test
        with pytest.raises(SearchError, match="node_limit"):
            move_values(state, node_limit=bad)  # type: ignore[arg-type]  # the error path under test
    with pytest.raises(SearchBudgetError):
        solve(state, node_limit=10)
    with pytest.raises(SearchBudgetError):
        move_values(state, node_limit=10)


def test_the_state_is_not_changed() -> None:
    """Solving works on copies: the state's hands and trick are untouched."""
    state = endgame(Rules(), 5, 4, 2)
    hands, trick = state.packed_hands, state.trick
    solve(state)
    move_values(state)
    assert (state.packed_hands, state.trick) == (hands, trick)
