"""Golden tensors: the observation encodings of one fixed game, as digests.

``tests/adapters/golden_tensors.json`` holds, for every state of a fixed
seeded game of two hands and each layout, the SHA-256 of the four seats'
float32 vectors, North's first.  Both builds must reproduce it bit for bit (the test runs in
``nox -s tests`` and ``nox -s tests_compiled``).  It was written by the
encoder before the incremental one replaced it, so it also shows that the
encodings did not change.  Regenerate (only for an intended change of the
encodings) with ``python -m tests.adapters.golden``.
"""

from __future__ import annotations

import hashlib
import json
import random
import struct
from collections.abc import Callable, Iterator
from pathlib import Path

from deepsix import GameState, Rules, apply, legal_actions, new_game, shuffled_deal

__all__ = ["GOLDEN", "LAYOUTS", "digest", "fixed_game", "golden_digests"]

GOLDEN = Path(__file__).with_name("golden_tensors.json")
LAYOUTS: dict[str, dict[str, bool]] = {
    "information_state": {"perfect_recall": True},
    "observation": {"perfect_recall": False},
    "public_information_state": {"perfect_recall": True, "private": False},
    "private_only": {"private": True, "public": False},
}
RULES = Rules(target_score=5000)
SEED = 2027


def fixed_game() -> Iterator[GameState]:
    """Every state of two hands of a seeded random game (actions chosen in a fixed order)."""
    rng = random.Random(SEED)
    state = new_game(RULES)
    yield state
    while len(state.completed_hands) < 2:
        if state.is_chance:
            state = apply(state, shuffled_deal(rng))
        else:
            options = sorted(legal_actions(state), key=repr)
            state = apply(state, rng.choice(options))
        yield state


def digest(vector: list[float]) -> str:
    """SHA-256 of a vector as little-endian float32."""
    return hashlib.sha256(struct.pack(f"<{len(vector)}f", *vector)).hexdigest()


Encode = Callable[[str, GameState, int], list[float]]
"""(layout name, state, seat) -> the dense vector."""


def golden_digests(encode: Encode) -> dict[str, list[str]]:
    """Per layout, the digest of each state's four vectors, in order."""
    out: dict[str, list[str]] = {name: [] for name in LAYOUTS}
    for state in fixed_game():
        for name in LAYOUTS:
            out[name].append(digest([x for seat in range(4) for x in encode(name, state, seat)]))
    return out


def _encode_with_views(name: str, state: GameState, seat: int) -> list[float]:
    from deepsix import view
    from deepsix.adapters.observations import ObservationLayout

    layout = ObservationLayout.build(state.rules, **LAYOUTS[name])
    return layout.dense(view(state, seat if layout.private else None), seat)


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(golden_digests(_encode_with_views), indent=0) + "\n")
    print(f"wrote {GOLDEN}")
