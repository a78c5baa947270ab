"""The game's invariants on reachable states (issue 3, invariants 1, 2, 3, 5, 10, 11, 12).

Every state checked here is *reachable*: it comes from a random legal
prefix of a game played from a drawn seed through the public API (see
:mod:`tests.strategies`).  The checkers live in :mod:`tests.checks`.

This module also holds the test that keeps :mod:`tests.invariants_index`
honest against the tests that actually exist.
"""

from __future__ import annotations

import ast
import importlib
import itertools
import pickle
import random
import re
from pathlib import Path

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deepsix import (
    DECK,
    RULEBOOK,
    Bid,
    GameState,
    Phase,
    PlayCard,
    Rules,
    Seat,
    Team,
    apply,
    game_winner,
    legal_actions,
    new_game,
    score_hand,
    shuffled_deal,
)
from deepsix.scoring import LAST_TRICK_BONUS, TOTAL_CARD_POINTS
from tests.support.checks import (
    assert_auction,
    assert_conserved,
    assert_hand_sizes,
    assert_immutable,
    assert_live,
    assert_records,
    assert_setup_consistent,
    assert_state,
    assert_transition,
    assert_tricks,
    hand_action_bound,
    naive_game_winner,
    naive_hand_scores,
    replay,
)
from tests.support.invariants_index import INVARIANTS
from tests.support.strategies import (
    RULES_VARIANTS,
    GameSpec,
    examples,
    game_specs,
    play_random,
    rules_variants,
    seats,
)

WHOLE_GAME = 20_000
"""Enough actions for any random game seen here to finish (the longest seen took about 2,000)."""


def whole_games() -> st.SearchStrategy[GameSpec]:
    """Random games played to the end (or ``WHOLE_GAME`` actions)."""
    return game_specs(max_steps=WHOLE_GAME).map(lambda spec: attrs.evolve(spec, steps=WHOLE_GAME))


# -- Invariant 1: conservation ------------------------------------------------


@given(game_specs(max_steps=900))
@settings(max_examples=examples(ci=60, deep=400))
def test_conservation_in_every_reachable_state(spec: GameSpec) -> None:
    """Invariant 1: conservation -- the 56 cards are accounted for exactly once.

    Hands, passes in flight (``setup.partner_pass`` / ``setup.bidder_pass``
    while their phase lasts), the trick on the table and the taken tricks
    together hold the deck, in every state of a random prefix (R-DECK-1).
    """
    for state in spec.states():
        assert_conserved(state)
        assert_hand_sizes(state)


@given(rules_variants(), seats(), st.integers(0, 2**32 - 1))
@settings(max_examples=examples(ci=60, deep=400))
def test_fourteen_cards_each_at_start_of_play(rules: Rules, dealer: Seat, seed: int) -> None:
    """Invariant 1: conservation -- 14 cards each as play starts (R-DEAL-1, R-PASS-1, R-PASS-2)."""
    rng = random.Random(seed)
    state = new_game(rules, dealer)
    for _, after in play_random(state, rng, WHOLE_GAME):
        state = after
        if state.phase is Phase.PLAY:
            break
    assert state.phase is Phase.PLAY
    assert not state.tricks
    assert not state.trick
    assert [len(hand) for hand in state.hands] == [14, 14, 14, 14]
    assert state.to_act == state.bidder, "R-PLAY-1: the bidder leads the first trick"


# -- Invariant 2: card points -----------------------------------------------------


def test_deck_holds_250_card_points() -> None:
    """Invariant 2: card points -- 8 twos (20), 8 threes (10), last trick (10): 250 (R-SCORE-1)."""
    assert sum(card.points for card in DECK) + LAST_TRICK_BONUS == TOTAL_CARD_POINTS == 250
    assert {card.rank: card.points for card in DECK} == {2: 20, 3: 10, 4: 0, 5: 0, 6: 0, 7: 0, 8: 0}


@given(whole_games())
@settings(max_examples=examples(ci=60, deep=300))
def test_every_hand_distributes_250_card_points(spec: GameSpec) -> None:
    """Invariant 2: card points -- every completed hand shares exactly 250 points between the teams.

    Each hand's recorded card points are recounted from its tricks (the last
    trick's winner found by the rules text's formulation) when it ends.
    """
    states = spec.states()
    for before, after in itertools.pairwise(states):
        assert after.log is not None
        assert_transition(before, after.log.action, after)
    final = states[-1]
    assert final.is_over
    for record in final.completed_hands:
        assert sum(record.card_points) == 250
    assert sum(final.card_points) == 250


# -- Invariant 3: zero floor ----------------------------------------------------


@given(whole_games())
@settings(max_examples=examples(ci=60, deep=300))
def test_zero_floor_on_the_score_sheet(spec: GameSpec) -> None:
    """Invariant 3: zero floor -- no team records a negative hand score (R-SCORE-3, R-SCORE-4).

    A failed bid records exactly ``failed_bid_score - bid``; a made bid
    records ``max(net, 0)``; the other team records ``max(net, 0)``.
    """
    final = spec.final()
    assert_records(final)
    for record in final.completed_hands:
        assert min(record.scores) >= 0
        team = record.bidder.team
        if record.made:
            assert record.scores[team] == max(record.net[team], 0)
        else:
            assert record.scores[team] == final.rules.failed_bid_score - record.bid
        assert record.scores[1 - team] == max(record.net[1 - team], 0)


@given(
    rules_variants(),
    st.sampled_from(tuple(Team)),
    st.integers(-1000, 1000),
    st.tuples(st.integers(-500, 500), st.integers(-500, 500)),
    st.tuples(st.integers(-1000, 0), st.integers(-1000, 0)),
)
def test_zero_floor_of_score_hand(
    rules: Rules, team: Team, bid: int, points: tuple[int, int], meld: tuple[int, int]
) -> None:
    """Invariant 3: zero floor -- ``score_hand`` never records below zero for a bid the rules allow.

    Over arbitrary integers (beyond the reachable domain) it also agrees
    with the rules text's formulation (R-SCORE-2, R-SCORE-3, R-SCORE-4).
    """
    outcome = score_hand(team, bid, points, meld, rules)
    net, scores, made = naive_hand_scores(rules, team, bid, points, meld)
    assert (outcome.net, outcome.scores, outcome.made) == (net, scores, made)
    if rules.lowest_bid <= bid <= rules.opening_bid_limit:
        assert min(outcome.scores) >= 0


# -- Invariant 5: liveness ------------------------------------------------------------


@given(game_specs(max_steps=900))
@settings(max_examples=examples(ci=60, deep=300))
def test_every_live_state_has_a_move(spec: GameSpec) -> None:
    """Invariant 5: liveness -- every non-final state has a legal action or is a chance step."""
    for state in spec.states():
        assert_live(state)


def test_hand_action_bound_of_default_rules() -> None:
    """Invariant 5: liveness -- the stated bound: at most 196 actions per hand (default rules)."""
    assert hand_action_bound(Rules()) == 196
    assert len(Rules().bid_amounts) == 54


@given(whole_games())
@settings(max_examples=examples(ci=60, deep=300))
def test_hands_respect_the_action_bound_and_games_end(spec: GameSpec) -> None:
    """Invariant 5: liveness -- hands stay within ``hand_action_bound(rules)``; random games end.

    A game is not *guaranteed* to end: a hand in which both teams record 0
    (both nets at or below zero, the bid made) changes nothing, and equal
    totals play on.  What the rules do guarantee, and this checks, is
    progress: each hand adds a non-negative amount to each total (a multiple
    of 5 unless it is a failed bid's penalty), so only such 0-0 hands or ties
    can prolong a game.  Every random game
    played here did end.
    """
    states = spec.states()
    final = states[-1]
    assert final.is_over, f"the game did not end in {WHOLE_GAME} actions"
    bound = hand_action_bound(spec.rules)
    per_hand = 0
    for state in states[1:]:
        per_hand += 1
        assert state.log is not None
        if state.phase in (Phase.DEAL, Phase.GAME_OVER) and state.log.action.seat is not None:
            assert per_hand <= bound, f"a hand took {per_hand} > {bound} actions"
            per_hand = 0
    assert per_hand == 0
    for record in final.completed_hands:
        assert min(record.scores) >= 0, "each hand adds a non-negative amount to each total"
        team = record.bidder.team
        steady = record.scores if record.made else (record.scores[1 - team],)
        assert all(score % 5 == 0 for score in steady), "nets are multiples of 5"


# -- Invariant 6: the auction ---------------------------------------------------------


@given(game_specs(max_steps=900))
@settings(max_examples=examples(ci=60, deep=300))
def test_auction_invariants_in_random_games(spec: GameSpec) -> None:
    """Invariant 6: auction -- every auction of a random game, on the full ladder of its rules.

    Bids strictly decrease, are multiples of the step, lie between the floor
    and the opening limit; every finished auction has a bidder; the forced
    dealer bid happens exactly when the first three pass (R-BID-1..8).
    """
    for state in spec.states():
        bids = state.bids
        if state.phase is Phase.BIDDING:
            amounts = [call.amount for call in bids if isinstance(call, Bid)]
            assert amounts == sorted(set(amounts), reverse=True)
            assert state.bid == (amounts[-1] if amounts else None)
        elif state.phase not in (Phase.DEAL, Phase.GAME_OVER):
            assert_auction(state.rules, state.dealer, bids)
            last = [call for call in bids if isinstance(call, Bid)][-1]
            assert (state.bidder, state.bid) == (last.seat, last.amount)


# -- Invariant 10: game end ---------------------------------------------------------


@pytest.mark.parametrize("end_at_target", [True, False])
@pytest.mark.parametrize("target", [50, 500, 505])
def test_game_winner_exhaustive(end_at_target: bool, target: int) -> None:
    """Invariant 10: game end -- the lower total wins once a team reaches the target; ties play on.

    Exhaustive over every pair of totals 0..1000 in steps of 5 (every total
    a game can show is a multiple of 5), against the rules text (R-END-1, R-END-2).
    """
    rules = Rules(target_score=target, end_at_target=end_at_target)
    values = range(0, 1001, 5)
    for first in values:
        for second in values:
            expected = naive_game_winner(rules, (first, second))
            winner = game_winner((first, second), rules)
            assert winner == (None if expected is None else Team(expected)), (first, second)


def _last_play_state(seed: int, rules: Rules) -> GameState:
    """A reachable state in which the next action ends the first hand."""
    rng = random.Random(seed)
    state = new_game(rules)
    for _, after in play_random(state, rng, WHOLE_GAME):
        if after.phase is Phase.PLAY and len(after.tricks) == 13 and len(after.trick) == 3:
            return after
    raise AssertionError("no hand reached its last card")


@given(st.integers(0, 2**32 - 1), st.integers(0, 40), st.sampled_from(RULES_VARIANTS))
@settings(max_examples=examples(ci=20, deep=150))
def test_equal_totals_play_on(seed: int, gap: int, rules: Rules) -> None:
    """Invariant 10: game end -- equal totals at or past the target start a new hand.

    The running totals of a reachable last-card state are set so that the
    hand ends in a tie past the target (R-END-2), or ``gap`` points apart
    (R-END-1: the lower total wins).
    """
    state = _last_play_state(seed, rules)
    action = legal_actions(state)[0]
    assert isinstance(action, PlayCard)
    scored = apply(state, action).completed_hands[-1].scores
    top = rules.target_score + 100
    tied = attrs.evolve(state, scores=(top - scored[0], top - scored[1]))
    after = apply(tied, action)
    assert after.scores == (top, top)
    assert after.phase is Phase.DEAL
    assert not after.is_over
    assert after.winner is None
    assert after.dealer == state.dealer.left
    apart = attrs.evolve(state, scores=(top - scored[0], top + 5 * gap + 5 - scored[1]))
    ended = apply(apart, action)
    assert ended.is_over
    assert ended.winner is Team.NORTH_SOUTH
    assert not legal_actions(ended)


# -- Invariant 11: determinism and purity ------------------------------------------


@given(game_specs(max_steps=700))
@settings(max_examples=examples(ci=30, deep=200))
def test_same_seed_same_actions_same_states(spec: GameSpec) -> None:
    """Invariant 11: determinism -- the same seed and the same actions give equal states.

    Two independent plays of the same prefix give equal states with equal
    hashes and the same legal actions in the same order; the deal from a
    seed is always the same.
    """
    first, second = spec.states(), spec.states()
    assert len(first) == len(second)
    for a, b in zip(first, second, strict=True):
        assert a == b
        assert hash(a) == hash(b)
        assert legal_actions(a) == legal_actions(b)
    assert shuffled_deal(spec.seed) == shuffled_deal(spec.seed)


@given(game_specs(max_steps=700), st.integers(0, 2**32 - 1))
@settings(max_examples=examples(ci=30, deep=300))
def test_apply_never_mutates_its_input(spec: GameSpec, seed: int) -> None:
    """Invariant 11: purity -- ``apply`` leaves its input state exactly as it was.

    A pickled snapshot taken before the step equals the state after it,
    field for field and hash for hash, and applying the same action again
    gives an equal successor.
    """
    state = spec.final()
    if state.is_over:
        return
    snapshot = pickle.loads(pickle.dumps(state))
    rng = random.Random(seed)
    action = shuffled_deal(rng) if state.is_chance else rng.choice(legal_actions(state))
    after = apply(state, action)
    assert state == snapshot
    assert hash(state) == hash(snapshot)

    def fields(value: GameState) -> tuple[object, ...]:
        # Every field that takes part in equality (the legal-actions cache does not).
        return attrs.astuple(value, recurse=False, filter=lambda field, _: bool(field.eq))

    assert fields(state) == fields(snapshot)
    assert apply(state, action) == after


@given(game_specs(max_steps=700))
@settings(max_examples=examples(ci=30, deep=200))
def test_states_are_hashable_and_equal_by_value(spec: GameSpec) -> None:
    """Invariant 11: hashability -- states hash, compare by value, work as dict keys."""
    states = spec.states()
    table = {state: index for index, state in enumerate(states)}
    assert len(table) == len(states), "distinct positions of a game are distinct states"
    sample = sorted({*range(0, len(states), 37), len(states) - 1})
    copies = {index: pickle.loads(pickle.dumps(states[index])) for index in sample}
    for index, copy in copies.items():
        assert copy is not states[index]
        assert copy == states[index]
        assert hash(copy) == hash(states[index])
        assert table[copy] == index
    assert len(set(states) | set(copies.values())) == len(states)


@given(game_specs(max_steps=900))
@settings(max_examples=examples(ci=20, deep=150))
def test_nothing_reachable_is_mutable(spec: GameSpec) -> None:
    """Invariant 11: immutability -- every object reachable from a state is frozen.

    Records are frozen attrs classes whose fields refuse assignment, the
    history refuses assignment, and everything else is a tuple or an
    immutable atom (no lists, dicts or sets anywhere).
    """
    seen: set[int] = set()
    for state in spec.states():
        assert_immutable(state, seen)
        assert_immutable(legal_actions(state), seen)
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            state.phase = Phase.DEAL  # type: ignore[misc]  # the point: assignment must fail


# -- Invariant 12: replay ----------------------------------------------------------


@given(game_specs(max_steps=1500))
@settings(max_examples=examples(ci=30, deep=300))
def test_replaying_history_reproduces_the_state(spec: GameSpec) -> None:
    """Invariant 12: replay -- ``state.history`` from ``new_game(rules, dealer)`` gives it back.

    The replayed state is equal, hashes the same, has the same legal actions
    and the same history.
    """
    state = spec.final()
    again = replay(state)
    assert again == state
    assert hash(again) == hash(state)
    assert again.history == state.history
    assert legal_actions(again) == legal_actions(state)
    assert len(state.history) == spec.steps or state.is_over


# -- rule checks along whole games ------------------------------------------------


@given(game_specs(max_steps=900))
@settings(max_examples=examples(ci=60, deep=300))
def test_tricks_and_setup_follow_the_rules(spec: GameSpec) -> None:
    """R-PLAY-1, R-PLAY-4, R-INVITE-2, R-MELD-2, R-MELD-3, R-MELD-4: the bidder leads first, winners
    lead next, each trick's winner is the rules text's, and shown and melded cards fit the hands."""
    for state in spec.states():
        assert_tricks(state)
        assert_setup_consistent(state)


@given(game_specs(max_steps=900))
@settings(max_examples=examples(ci=20, deep=200))
def test_all_state_invariants_along_random_games(spec: GameSpec) -> None:
    """Invariants 1, 2, 3, 5 and 10: the combined per-state and per-step checks on every step."""
    states = spec.states()
    for before, after in itertools.pairwise(states):
        assert_state(after)
        assert after.log is not None
        assert_transition(before, after.log.action, after)


# -- the invariants index -----------------------------------------------------------

_REPO = Path(__file__).parents[2]
_MY_FILES = (
    "tests/core/test_invariants.py",
    "tests/core/test_legality.py",
    "tests/core/test_stateful.py",
    "tests/core/test_exhaustive.py",
    "tests/core/test_meld_optimality.py",
    "tests/core/test_crosshair.py",
    "tests/core/test_examples_of_play.py",
)
_INVARIANT_RE = re.compile(r"Invariants? (\d+)((?:(?:, | and |-)\d+)*)")


def _test_docstrings(path: str) -> dict[str, str]:
    tree = ast.parse((_REPO / path).read_text(encoding="utf-8"))
    found: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
            found[node.name] = ast.get_docstring(node) or ""
    return found


def _invariants_named(docstring: str) -> set[int]:
    numbers: set[int] = set()
    for match in _INVARIANT_RE.finditer(docstring):
        text = match.group(0)
        bounds = re.findall(r"\d+", text)
        if "-" in text and len(bounds) == 2:
            numbers.update(range(int(bounds[0]), int(bounds[1]) + 1))
        else:
            numbers.update(int(number) for number in bounds)
    return numbers


def test_invariants_index_matches_the_tests(request: pytest.FixtureRequest) -> None:
    """Meta: the invariants index lists all twelve invariants; each listed test exists and names it.

    Every test in the verification files names a rule id from the rulebook
    or an invariant in its docstring; every test that names invariant N is
    listed under N; every listed test exists (and, when its file was
    collected in this run without -k, -m or --deselect, was collected).
    """
    assert sorted(INVARIANTS) == list(range(1, 13))
    collected = {item.nodeid.split("[")[0] for item in request.session.items}
    # With -k, -m or --deselect the session holds only the selected tests.
    option = request.config.option
    selecting = bool(option.keyword or option.markexpr or getattr(option, "deselect", None))
    collected_files = {nodeid.split("::")[0] for nodeid in collected}
    docstrings = {path: _test_docstrings(path) for path in _MY_FILES}
    for number, (title, tests) in INVARIANTS.items():
        assert title, f"invariant {number} has no title"
        assert tests, f"invariant {number} has no test"
        for nodeid in tests:
            path, name = nodeid.split("::")
            assert name in docstrings[path], f"{nodeid} does not exist"
            assert number in _invariants_named(docstrings[path][name]), (
                f"{nodeid} does not name Invariant {number} in its docstring"
            )
            if path in collected_files and not selecting:
                assert nodeid in collected, f"{nodeid} was not collected"
            module = importlib.import_module(path.removesuffix(".py").replace("/", "."))
            assert callable(getattr(module, name))
    rule_ids = set(RULEBOOK)
    for path, documented in docstrings.items():
        for name, doc in documented.items():
            if name == "test_invariants_index_matches_the_tests":
                continue
            ids = set(re.findall(r"R-[A-Z]+-\d+", doc))
            assert ids <= rule_ids, f"{path}::{name} names unknown rules {ids - rule_ids}"
            assert ids or _invariants_named(doc), f"{path}::{name} names no rule or invariant"
            for number in _invariants_named(doc):
                assert f"{path}::{name}" in INVARIANTS[number][1], (
                    f"{path}::{name} names Invariant {number} but is not in the index"
                )
