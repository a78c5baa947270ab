"""A golden digest of the search: every build must search exactly alike.

The solver's budget (``node_limit``) and the bot's are counts of nodes and
deals, so that seeded games replay exactly; that holds across builds only if
the pure-Python search and the compiled one (``nox -s tests_compiled``)
visit the same nodes.  They pin the Python search (``kernel="python"``): the native
kernel's node counts are its own (``tests/search/test_native.py`` checks its answers).
These digests pin the values, the best cards, the
node counts and a seeded game of search bots; any change to the search that
is meant to change none of them must keep them.
"""

from __future__ import annotations

import hashlib

from deepsix import PlayOver, Rules, play_game
from deepsix.search import SearchBot, move_values, solve
from tests.search.endgames import endgame

SOLVER_DIGEST = "c43896a3ed075529d14e0b81a7bdff9cb291c9984c4753594849f7b26eed3c20"
"""sha256 over :func:`solver_transcript`."""

GAME_DIGEST = "6e0ea6fd1586ff7cf8f6836e1861aa9401af7899c1338297d7c9a06f3a5d5e46"
"""sha256 over :func:`game_transcript`."""

RULE_SETS = (Rules(), Rules(play_over=PlayOver.BEAT_LED_SUIT))


def solver_transcript() -> str:
    """Forty positions, 4 to 6 tricks left, at each place in the trick: every solve's
    value, best cards and node count, and every card's value."""
    lines = []
    for seed in range(40):
        state = endgame(RULE_SETS[seed % 2], seed, 4 + seed % 3, seed % 4)
        result = solve(state, kernel="python")
        values = [(str(value.card), value.points) for value in move_values(state, kernel="python")]
        best = [str(card) for card in result.best]
        lines.append(f"{seed} {result.points} {best} {result.nodes} {values}")
    return "\n".join(lines)


def game_transcript() -> str:
    """Two seeded hands: search bots (a small budget that searches every phase) at
    North-South against the heuristic."""
    bot = SearchBot(
        worlds=4,
        solve_tricks=5,
        node_limit=20_000,
        rollout_worlds=2,
        auction_rollouts=2,
        sunk_rollouts=1,
        exchange_rollouts=2,
        candidates=2,
        playout_solve=4,
        playout_node_limit=20_000,
        confidence=1.0,
    )
    final = play_game([bot, "heuristic", bot, "heuristic"], 2026, max_hands=2)
    return "\n".join([*map(str, final.history), *map(repr, final.completed_hands)])


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def test_the_solver_matches_the_golden_digest() -> None:
    assert _sha(solver_transcript()) == SOLVER_DIGEST


def test_a_seeded_search_game_matches_the_golden_digest() -> None:
    transcript = game_transcript()
    assert transcript.count("HandRecord(") == 2
    assert _sha(transcript) == GAME_DIGEST
