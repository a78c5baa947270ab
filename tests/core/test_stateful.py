"""Whole games as a hypothesis state machine, for every rules variant (issue 3).

:class:`DeepSixGames` plays games through the public API -- single random
legal actions, random runs of many actions, whole remaining games -- and
interleaves illegal-action attempts.  After every step it checks the
per-state invariants (:func:`tests.support.checks.assert_state`: conservation, card
points, zero floor, liveness, game end, the setup and trick rules) and, for
every applied action, the transition (history, hand scoring, dealer
rotation).  At the end of every game and of every run it replays the
history (invariant 12).
"""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from deepsix import (
    Action,
    GameState,
    IllegalActionError,
    Rules,
    Seat,
    apply,
    legal_actions,
    new_game,
    shuffled_deal,
)
from tests.support.checks import assert_immutable, assert_state, assert_transition, replay
from tests.support.strategies import (
    RULES_VARIANTS,
    STYLES,
    examples,
    illegal_actions,
    play_random,
    rules_ids,
    rules_variants,
    seats,
)


class DeepSixGames(RuleBasedStateMachine):
    """Plays Deep Six games under one rules variant (or a drawn one), checking everything."""

    def __init__(self, rules: Rules | None = None, tally: list[int] | None = None) -> None:
        super().__init__()
        self.fixed_rules = rules
        self.tally = tally if tally is not None else []
        self.state: GameState = new_game(rules)
        self.games_finished = 0
        self.actions = 0
        self.rejected = 0
        self.seen: set[int] = set()

    @initialize(dealer=seats(), drawn=rules_variants())
    def start(self, dealer: Seat, drawn: Rules) -> None:
        """A fresh game (the drawn rules are used only when no variant is fixed)."""
        self.state = new_game(self.fixed_rules or drawn, dealer)

    def _step(self, action: Action) -> None:
        before = self.state
        after = apply(before, action)
        assert_transition(before, action, after)
        self.state = after
        self.actions += 1
        if after.is_over:
            self._game_over()

    def _game_over(self) -> None:
        assert replay(self.state) == self.state, "Invariant 12: replay"
        assert_immutable(self.state, self.seen)
        self.games_finished += 1

    @precondition(lambda self: self.state.is_chance)
    @rule(seed=st.integers(0, 2**32 - 1))
    def deal(self, seed: int) -> None:
        """The chance step: a seeded deal."""
        self._step(shuffled_deal(seed))

    @precondition(lambda self: not self.state.is_chance and not self.state.is_over)
    @rule(choice=st.integers(0, 2**16))
    def act(self, choice: int) -> None:
        """One legal action, chosen by the drawn index."""
        legal = legal_actions(self.state)
        self._step(legal[choice % len(legal)])

    @precondition(lambda self: not self.state.is_over)
    @rule(seed=st.integers(0, 2**32 - 1), steps=st.integers(1, 200), style=st.sampled_from(STYLES))
    def play_on(self, seed: int, steps: int, style: str) -> None:
        """A run of random legal actions (deals included), every step checked."""
        rng = random.Random(seed)
        for action, after in play_random(self.state, rng, steps, style):
            assert_transition(self.state, action, after)
            assert_state(after)
            self.state = after
            self.actions += 1
        if self.state.is_over:
            self._game_over()

    @precondition(lambda self: not self.state.is_over)
    @rule(seed=st.integers(0, 2**32 - 1))
    def finish_game(self, seed: int) -> None:
        """Play the rest of the game (cautious bidding), every step checked."""
        self.play_on(seed, 100_000, "cautious")
        assert self.state.is_over, "Invariant 5: the game did not end"

    @rule(data=st.data())
    def attempt_illegal(self, data: st.DataObject) -> None:
        """An illegal action raises with a reason; the state stays equal, same hash, usable."""
        state = self.state
        snapshot = pickle.loads(pickle.dumps(state))
        action = data.draw(illegal_actions(state))
        with pytest.raises(IllegalActionError) as caught:
            apply(state, action)
        assert caught.value.rule == caught.value.reason.rule
        assert state == snapshot
        assert hash(state) == hash(snapshot)
        assert legal_actions(state) == legal_actions(snapshot)
        self.rejected += 1

    @precondition(lambda self: self.state.is_over)
    @rule(dealer=seats())
    def next_game(self, dealer: Seat) -> None:
        """After a game, start another under the same rules."""
        self.state = new_game(self.state.rules, dealer)

    @invariant()
    def state_invariants(self) -> None:
        """Invariants 1, 2, 3, 5 and 10 on the current state."""
        assert_state(self.state)

    def teardown(self) -> None:
        """Finish the game if no game was finished yet; Invariant 12 on the final state."""
        if not self.games_finished and not self.state.is_over:
            self.finish_game(0)
        assert replay(self.state) == self.state
        self.tally.append(self.games_finished)
        event("whole games finished in a run", str(self.games_finished))


def _machine_settings() -> settings:
    return settings(
        max_examples=examples(ci=2, deep=25),
        stateful_step_count=25,
        deadline=None,
    )


@pytest.mark.parametrize(
    "rules", [*RULES_VARIANTS, None], ids=[*map(rules_ids, RULES_VARIANTS), "drawn"]
)
def test_whole_games_for_every_rules_variant(rules: Rules | None) -> None:
    """Invariants 1, 2, 3, 4, 5, 10, 11 and 12: a state machine plays whole games, this variant.

    Legal steps (single, in runs, and whole remaining games) interleave with
    illegal attempts (Invariant 4: rejected, state equal and same hash);
    every state is checked, every finished game replayed (Invariant 12)
    and walked for mutable parts (Invariant 11).  ``drawn`` draws any valid
    ``Rules`` per run.
    """
    finished: list[int] = []

    class Games(DeepSixGames):
        def __init__(self) -> None:
            super().__init__(rules, finished)

    run_state_machine_as_test(Games, settings=_machine_settings())
    assert sum(finished) > 0, "no run played a game to its end"
