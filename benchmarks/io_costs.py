"""Costs of the issue-6 machinery: JSON round trips, validation, views and sampling.

Plays a few seeded games with a cautious random policy and times, per
state (median of several runs, in microseconds):

* ``to_json`` and ``from_json`` of the state (loading includes
  ``validate``, which replays the state's history), with and without the
  history;
* ``validate(state, history=False)`` and ``validate(state)``;
* ``view`` for one seat, and ``sample_state`` from that view;
* ``write_record`` / ``read_record`` of the finished game.

Run: ``python benchmarks/io_costs.py``.  Figures depend on the machine;
they are for comparison, not tests.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

import attrs

from deepsix import (
    Action,
    GameState,
    Phase,
    Seat,
    from_json,
    legal_actions,
    new_game,
    read_record,
    record_of,
    sample_state,
    shuffled_deal,
    to_json,
    validate,
    view,
    write_record,
)


def play(seed: int) -> list[GameState]:
    """Every state of one game: random legal actions, passing three times in four in the auction."""
    rng = random.Random(seed)
    state = new_game()
    states = [state]
    while not state.is_over:
        action: Action
        if state.is_chance:
            action = shuffled_deal(rng)
        else:
            legal = legal_actions(state)
            calls = state.phase is Phase.BIDDING and len(legal) > 1
            action = legal[0] if calls and rng.random() < 0.75 else rng.choice(legal)
        state = state.apply(action)
        states.append(state)
    return states


def per_call(
    function: Callable[[GameState], object], states: list[GameState], runs: int = 3
) -> float:
    """Median over ``runs`` of the mean time per state, in microseconds."""
    timings = []
    for _ in range(runs):
        start = time.perf_counter()
        for state in states:
            function(state)
        timings.append((time.perf_counter() - start) / len(states) * 1e6)
    return statistics.median(timings)


def main() -> None:
    games = [play(seed) for seed in range(3)]
    states = [state for game in games for state in game[::5]]
    bare = [attrs.evolve(state, log=None) for state in states]
    texts = {id(state): to_json(state) for state in states}
    bare_texts = {id(state): to_json(state) for state in bare}
    rng = random.Random(0)
    lengths = [len(game) - 1 for game in games]
    print(f"{len(games)} games of {lengths} actions; {len(states)} states sampled")
    print(f"state JSON size: median {statistics.median(len(t) for t in texts.values())} chars")
    rows = [
        ("to_json(state)", per_call(to_json, states)),
        (
            "from_json(state) incl. validate + history replay",
            per_call(lambda s: from_json(texts[id(s)], GameState), states),
        ),
        ("to_json(state without history)", per_call(to_json, bare)),
        (
            "from_json(state without history)",
            per_call(lambda s: from_json(bare_texts[id(s)], GameState), bare),
        ),
        ("validate(state, history=False)", per_call(lambda s: validate(s, history=False), states)),
        ("validate(state)", per_call(validate, states)),
        ("view(state, seat)", per_call(lambda s: view(s, Seat.EAST), states)),
        ("sample_state(view)", per_call(lambda s: sample_state(view(s, Seat.EAST), rng), states)),
    ]
    for name, micros in rows:
        print(f"{name:50s} {micros:10.1f} us")
    record = record_of(games[0][-1])
    text = write_record(record)
    start = time.perf_counter()
    read_record(text)
    print(
        f"{'read_record(whole game, verified)':50s} {(time.perf_counter() - start) * 1e3:10.1f} ms"
    )


if __name__ == "__main__":
    main()
