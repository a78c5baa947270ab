"""Symbolic checks of the pure rule functions (issue 3): trick winner, play-over rule, scoring,
meld values.

Each test is an ordinary hypothesis property over plain integers, marked
``crosshair``: the normal run executes it with hypothesis's default
(random) backend; ``nox -s crosshair`` runs the same tests with
``--hypothesis-profile=crosshair``, where CrossHair explores the code paths
symbolically (with z3) and reports when it has exhausted them.  The
properties compare the library with the rules-text formulations in
:mod:`tests.checks`.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from deepsix import (
    ALL_MELDS,
    CARDS,
    PlayOver,
    Rules,
    Suit,
    Team,
    game_winner,
    score_hand,
)
from deepsix.hands import pack
from deepsix.melds import meld_value, melded_copies
from deepsix.tricks import legal_plays, winning_position
from tests.support.checks import (
    naive_copies_needed,
    naive_game_winner,
    naive_hand_scores,
    naive_legal_plays,
    naive_meld_value,
    naive_winning_position,
)

pytestmark = pytest.mark.crosshair

_RULES = Rules()


@given(st.lists(st.integers(0, 27), min_size=1, max_size=4), st.integers(0, 3))
def test_winning_position_symbolic(indices: list[int], sunk: int) -> None:
    """Invariant 7: tricks -- any (partial) trick's winner is the rules text's (R-PLAY-4..6)."""
    assume(all(indices.count(i) <= 2 for i in indices))
    cards = [CARDS[i] for i in indices]
    assert winning_position(cards, sunk) == naive_winning_position(cards, Suit(sunk))


@given(
    st.lists(st.integers(0, 27), min_size=1, max_size=3),
    st.lists(st.integers(0, 27), min_size=1, max_size=8),
    st.integers(0, 3),
    st.booleans(),
)
def test_legal_plays_symbolic(trick: list[int], hand: list[int], sunk: int, beat: bool) -> None:
    """Invariant 7: tricks -- following and playing over per the rules text (R-PLAY-2, R-PLAY-3)."""
    everything = trick + hand
    assume(all(everything.count(i) <= 2 for i in everything))
    play_over = PlayOver.BEAT_LED_SUIT if beat else PlayOver.WIN_TRICK
    trick_cards = [CARDS[i] for i in trick]
    hand_cards = [CARDS[i] for i in hand]
    got = legal_plays(pack(hand_cards), trick_cards, sunk, play_over)
    assert set(got) == naive_legal_plays(hand_cards, trick_cards, Suit(sunk), play_over)
    assert list(got) == sorted(set(got))


@given(
    st.integers(-41, 12),
    st.integers(0, 25),
    st.integers(-82, 0),
    st.integers(-82, 0),
    st.booleans(),
)
def test_score_hand_symbolic(tens: int, points: int, own: int, other: int, east_west: bool) -> None:
    """Invariant 9: scoring -- a hand's scores match the rules text over the reachable domain.

    Bids -410..120 in tens, card points 0..250 in tens, meld totals
    0..-410 in fives, either bidder team (R-SCORE-2, R-SCORE-3, R-SCORE-4).
    """
    team = Team.EAST_WEST if east_west else Team.NORTH_SOUTH
    pair = (points * 10, 250 - points * 10) if team == 0 else (250 - points * 10, points * 10)
    melds = (own * 5, other * 5) if team == 0 else (other * 5, own * 5)
    outcome = score_hand(team, tens * 10, pair, melds, _RULES)
    net, scores, made = naive_hand_scores(_RULES, team, tens * 10, pair, melds)
    assert (outcome.net, outcome.scores, outcome.made) == (net, scores, made)
    assert min(outcome.scores) >= 0


@given(st.integers(0, 1500), st.integers(0, 1500), st.booleans())
def test_game_winner_symbolic(first: int, second: int, at_target: bool) -> None:
    """Invariant 10: game end -- at 500 the lower total wins; ties play on (R-END-1, R-END-2)."""
    rules = _RULES if at_target else Rules(end_at_target=False)
    expected = naive_game_winner(rules, (first, second))
    got = game_winner((first, second), rules)
    assert got == (None if expected is None else Team(expected))


@given(st.lists(st.integers(0, 26), max_size=5), st.booleans())
def test_meld_values_symbolic(indices: list[int], sharing: bool) -> None:
    """Invariant 8: melds -- values and copies tied up as in the rules text (R-MELD-1, R-MELD-3)."""
    melds = [ALL_MELDS[i] for i in indices]
    assert meld_value(melds) == sum(naive_meld_value(meld) for meld in melds)
    needed = naive_copies_needed(melds, sharing=sharing)
    assert melded_copies(melds, sharing=sharing) == [needed[card] for card in CARDS]
