"""Scoring a hand and ending the game (R-SCORE-*, R-END-*)."""

from __future__ import annotations

import pytest

from deepsix import Rules, Team, game_winner, score_hand
from deepsix.scoring import LAST_TRICK_BONUS, TOTAL_CARD_POINTS

NS, EW = Team.NORTH_SOUTH, Team.EAST_WEST


def test_card_point_total() -> None:
    """R-SCORE-1: eight 2s at 20, eight 3s at 10 and the last trick at 10 make 250."""
    assert 8 * 20 + 8 * 10 + LAST_TRICK_BONUS == TOTAL_CARD_POINTS == 250


def test_made_bid_records_net() -> None:
    """R-SCORE-2, R-SCORE-3: a made bid records card points plus meld."""
    result = score_hand(NS, 60, (90, 160), (-45, -20))
    assert result.net == (45, 140)
    assert result.made
    assert result.scores == (45, 140)


def test_bid_is_made_at_equality() -> None:
    """R-SCORE-3: a net equal to the bid makes it."""
    assert score_hand(NS, 40, (60, 190), (-20, 0)).made


def test_failed_bid_scores_200_minus_bid_and_ignores_meld() -> None:
    """R-SCORE-3: a failed bid records 200 minus the bid; the meld is ignored."""
    result = score_hand(EW, 20, (150, 100), (-10, -50))
    assert result.net == (140, 50)
    assert not result.made
    assert result.scores == (140, 180)


def test_failed_negative_bid() -> None:
    """R-SCORE-3: a failed negative bid records 200 minus the (negative) bid."""
    result = score_hand(NS, -60, (0, 250), (-50, 0))
    assert not result.made
    assert result.scores == (260, 250)


def test_negative_net_records_zero() -> None:
    """R-SCORE-4: a team never scores below zero in a hand, bidders or not."""
    made = score_hand(NS, -60, (0, 250), (-80, -300))
    assert made.net == (-80, -50)
    assert made.made
    assert made.scores == (0, 0)


@pytest.mark.parametrize("failed_bid_score", [200, 300])
def test_failed_bid_base_is_a_rule(failed_bid_score: int) -> None:
    """R-SCORE-3: the failed-bid base is Rules.failed_bid_score."""
    rules = Rules(failed_bid_score=failed_bid_score)
    assert score_hand(NS, 100, (250, 0), (0, 0), rules).scores[0] == failed_bid_score - 100


def test_game_end_at_or_above_target() -> None:
    """R-END-1: once a team has 500 or more, the lower total wins."""
    assert game_winner((500, 300)) is EW
    assert game_winner((300, 520)) is NS
    assert game_winner((499, 480)) is None


def test_game_end_variant_strictly_above() -> None:
    """R-END-1 (variant): with end_at_target off, only more than 500 ends the game."""
    rules = Rules(end_at_target=False)
    assert game_winner((500, 300), rules) is None
    assert game_winner((501, 300), rules) is EW


def test_equal_totals_play_on() -> None:
    """R-END-2: equal totals past the target continue the game."""
    assert game_winner((510, 510)) is None
    assert game_winner((600, 510)) is EW
