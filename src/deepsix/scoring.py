"""Scoring a hand and deciding the game.

Card points (R-SCORE-1): each 2 taken is worth 20, each 3 is worth 10, and
the last trick is worth 10 -- 250 points per hand.  A team's *net* is its
card points plus its (negative) meld (R-SCORE-2).

The bidding team must bring its net to its bid or below.  If it does, it
records its net; if it does not, it records ``failed_bid_score - bid``
(200 minus the bid by default) and its meld is ignored (R-SCORE-3).  A
recorded score below zero becomes zero: no team ever loses points in a hand
(R-SCORE-4).  The ruling on the rules text's two sentences: the zero floor
applies to nets, and a failed bid's ``200 - bid`` is recorded as it is
(it is at least 80 for any legal bid, so the floor never touches it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import attrs

from deepsix.cards import Team
from deepsix.rules import Rules
from deepsix.tricks import Trick, trick_points

__all__ = [
    "LAST_TRICK_BONUS",
    "TOTAL_CARD_POINTS",
    "HandScore",
    "card_points",
    "game_winner",
    "score_hand",
]

LAST_TRICK_BONUS: Final = 10
"""Points for taking the last trick."""

TOTAL_CARD_POINTS: Final = 250
"""Card points in a complete hand: eight 2s, eight 3s and the last trick."""


def card_points(tricks: Sequence[Trick], *, tricks_per_hand: int = 14) -> tuple[int, int]:
    """Card points taken by each team in ``tricks``; the last-trick bonus counts
    once the final (14th) trick is among them."""
    points = [0, 0]
    for trick in tricks:
        points[trick.winner & 1] += trick_points([card for _, card in trick.plays])
    if len(tricks) == tricks_per_hand:
        points[tricks[-1].winner & 1] += LAST_TRICK_BONUS
    return (points[0], points[1])


@attrs.frozen
class HandScore:
    """The outcome of scoring one hand."""

    net: "tuple[int, int]"
    """Each team's card points plus meld."""
    scores: "tuple[int, int]"
    """What each team records for the hand (never negative)."""
    made: bool
    """Whether the bidding team made its bid."""


def score_hand(
    bidding_team: Team | int,
    bid: int,
    points: tuple[int, int],
    meld: tuple[int, int],
    rules: Rules | None = None,
) -> HandScore:
    """Score a hand from the bid, each team's card points and each team's meld.

    >>> score_hand(Team.NORTH_SOUTH, 40, (30, 220), (-45, -20)).scores
    (0, 200)
    >>> score_hand(Team.NORTH_SOUTH, 40, (90, 160), (-45, -20)).scores
    (160, 140)
    """
    rules = rules or _DEFAULT_RULES
    net = (points[0] + meld[0], points[1] + meld[1])
    made = net[bidding_team] <= bid
    scores = [max(net[0], 0), max(net[1], 0)]
    if not made:
        scores[bidding_team] = rules.failed_bid_score - bid
    return HandScore(net=net, scores=(scores[0], scores[1]), made=made)


def game_winner(totals: tuple[int, int], rules: Rules | None = None) -> Team | None:
    """The winning team if these totals end the game, else ``None`` (R-END-1, R-END-2).

    >>> game_winner((510, 320)), game_winner((480, 490)), game_winner((520, 520))
    (<Team.EAST_WEST: 1>, None, None)
    """
    rules = rules or _DEFAULT_RULES
    if not rules.is_game_over(totals) or totals[0] == totals[1]:
        return None
    return Team.NORTH_SOUTH if totals[0] < totals[1] else Team.EAST_WEST


_DEFAULT_RULES: Final = Rules()
