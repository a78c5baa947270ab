"""A golden digest of seeded random games: every build must play them exactly alike.

Thirty seeded games of random play (passing more often than not in the
auction, so that games last several hands), under three rule sets, are written out
action by action (``str(action)``), with every hand's score-sheet line and
the final scores, and hashed.  The digest is committed: the pure-Python
build and the compiled one (``nox -s tests_compiled``) must both give it,
and so must any change to the engine that is not meant to change the rules.
"""

from __future__ import annotations

import hashlib
import random

from deepsix import Action, Phase, PlayOver, Rules, apply, legal_actions, new_game, shuffled_deal

GOLDEN_DIGEST = "26695b3929c188a35f3696eab2bccd9cdf15da745348d6fc060a400e39f5b34a"
"""sha256 over the transcripts of :func:`transcript` for seeds 0 to 29."""

RULE_SETS = (Rules(), Rules(play_over=PlayOver.BEAT_LED_SUIT), Rules(meld_sharing=False))


def transcript(seed: int) -> str:
    """One whole random game: its actions, its score sheet and its final scores."""
    rng = random.Random(seed)
    state = new_game(RULE_SETS[seed % len(RULE_SETS)])
    while not state.is_over:
        action: Action
        if state.is_chance:
            action = shuffled_deal(rng)
        else:
            moves = legal_actions(state)
            # Pass three times in four (moves[0] is the pass, or the dealer's forced bid):
            # random bids run far below what a hand can make, and end the game at once.
            bidding = state.phase is Phase.BIDDING and rng.random() < 0.75
            action = moves[0] if bidding else rng.choice(moves)
        state = apply(state, action)
    lines = [f"game {seed}", *map(str, state.history), *map(repr, state.completed_hands)]
    lines.append(f"final {state.scores} winner {state.winner}")
    return "\n".join(lines)


def digest() -> str:
    text = "\n\n".join(transcript(seed) for seed in range(30))
    return hashlib.sha256(text.encode()).hexdigest()


def test_seeded_games_match_the_golden_digest() -> None:
    assert digest() == GOLDEN_DIGEST


def test_the_games_are_whole_games() -> None:
    """The digest covers real play: whole games of several hands each."""
    hands = [transcript(seed).count("HandRecord(") for seed in range(30)]
    assert sum(hands) >= 60
    assert max(hands) >= 4
