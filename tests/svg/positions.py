"""Seeded positions of every phase, for the golden pictures and the docs' gallery."""

from __future__ import annotations

from typing import Final

from deepsix import GameState, Phase, new_game, play_game
from deepsix.actions import Action

SEED: Final = 2026
"""The game the positions come from (four heuristic bots)."""

NAMES: Final = (
    "deal",
    "bidding",
    "sunk-suit",
    "invitation",
    "partner-pass",
    "bidder-meld",
    "bidder-pass",
    "melding",
    "play-lead",
    "play-mid-trick",
    "play-trick-done",
    "hand-two",
    "game-over",
)
"""The positions, in the order they come up."""


def positions(seed: int = SEED) -> dict[str, GameState]:
    """One state per name of :data:`NAMES`, taken from one seeded game of heuristic bots.

    Each phase's state is the one a few actions into it (so that the auction
    has calls, the invitation shows cards, a pass is under way); the play
    positions are: before the first lead, the fourth trick half played, the
    fifth trick just taken.
    """
    found: dict[str, GameState] = {}
    states: list[GameState] = []

    def keep(before: GameState, action: Action, after: GameState) -> None:
        states.append(after)

    final = play_game(["heuristic"] * 4, seed, on_action=keep)
    found["deal"] = new_game()
    by_phase: dict[Phase, list[GameState]] = {}
    for state in states:
        if not state.completed_hands:
            by_phase.setdefault(state.phase, []).append(state)
    found["bidding"] = by_phase[Phase.BIDDING][min(3, len(by_phase[Phase.BIDDING]) - 1)]
    found["sunk-suit"] = by_phase[Phase.SUNK_SUIT][0]
    found["invitation"] = by_phase[Phase.INVITATION][-1]
    found["partner-pass"] = by_phase[Phase.PARTNER_PASS][-1]
    found["bidder-meld"] = by_phase[Phase.BIDDER_MELD][-1]
    found["bidder-pass"] = by_phase[Phase.BIDDER_PASS][-1]
    found["melding"] = by_phase[Phase.MELDING][-1]
    play = by_phase[Phase.PLAY]
    found["play-lead"] = play[0]
    found["play-mid-trick"] = next(s for s in play if len(s.tricks) == 3 and len(s.trick) == 2)
    found["play-trick-done"] = next(s for s in play if len(s.tricks) == 5 and not s.trick)
    second = [s for s in states if len(s.completed_hands) == 1 and s.phase is Phase.PLAY]
    found["hand-two"] = next(s for s in second if len(s.tricks) == 7 and len(s.trick) == 3)
    found["game-over"] = final
    assert tuple(found) == NAMES
    return found
