"""Rebuilding and replaying: every reachable hand is recovered from where its cards are now."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given, settings

from deepsix import (
    Action,
    Deal,
    GameState,
    IllegalActionError,
    InvariantError,
    Phase,
    Rules,
    new_game,
    play_game,
)
from deepsix.hands import counts, counts_of
from deepsix.history import History
from deepsix.io.record import iter_states, record_of
from deepsix.rebuild import (
    Step,
    dealt_counts,
    first_dealer,
    hand_start,
    history_start,
    history_steps,
    replay_hand,
    visit,
    walk,
)
from deepsix.table import played_counts, plays_by_trick
from tests.support.strategies import GameSpec, examples, game_specs


def _dealt(state: GameState) -> list[list[int]]:
    setup = state.setup
    return dealt_counts(
        state.phase,
        current=[counts(packed) for packed in state.packed_hands],
        played=played_counts(plays_by_trick(state.tricks, state.trick)),
        bidder=setup.bidder,
        partner_pass=setup.partner_pass,
        bidder_pass=setup.bidder_pass,
    )


@given(game_specs(max_steps=400))
@settings(max_examples=examples(ci=40, deep=400))
def test_the_dealt_hands_are_recovered(spec: GameSpec) -> None:
    states = spec.states()
    final = states[-1]
    if final.phase in (Phase.DEAL, Phase.GAME_OVER):
        return
    deal = next(a for a in reversed(final.history) if type(a) is Deal)
    expected = [counts_of(deal.cards[14 * s : 14 * s + 14]) for s in range(4)]
    assert _dealt(final) == expected


@given(game_specs(max_steps=400))
@settings(max_examples=examples(ci=40, deep=400))
def test_replaying_the_hand_reproduces_the_state(spec: GameSpec) -> None:
    final = spec.final()
    if final.phase in (Phase.DEAL, Phase.GAME_OVER):
        return
    start = hand_start(final.rules, final.dealer, final.scores, final.completed_hands)
    steps = list(replay_hand(start, _dealt(final), final.setup, final))
    rebuilt = steps[-1].after
    assert attrs.evolve(rebuilt, log=final.log) == final


@given(game_specs(max_steps=900))
@settings(max_examples=examples(ci=30, deep=300))
def test_walk_and_history_start_replay_a_whole_history(spec: GameSpec) -> None:
    final = spec.final()
    start = history_start(final)
    assert start == new_game(final.rules, first_dealer(final))
    last = start
    for before, action, after in walk(start, final.history):
        assert before.apply(action) == after
        last = after
    assert last == final


def test_a_trimmed_history_replays_from_its_hand() -> None:
    # Rules of its own: the replay starts the hand under the game's rules, not the defaults.
    rules = Rules(target_score=400, failed_bid_score=250)
    spec = GameSpec(rules, new_game().dealer, seed=3, style="cautious", steps=500)
    final = spec.final()
    assert len(final.completed_hands) >= 1
    actions = final.history
    start_at = max(i for i, a in enumerate(actions) if type(a) is Deal)
    log = None
    for action in actions[start_at:]:
        log = History(log, action)
    trimmed = attrs.evolve(final, log=log)
    start = history_start(trimmed)
    assert start.completed_hands == final.completed_hands[: len(start.completed_hands)]
    last = start
    for step in walk(start, trimmed.history):
        last = step.after
    assert attrs.evolve(last, log=None) == attrs.evolve(final, log=None)
    # A history that skips hands must start with their first deal.
    no_deal = None
    for action in actions[start_at + 1 :]:
        no_deal = History(no_deal, action)
    with pytest.raises(
        InvariantError,
        match=r"\(history\): a history that omits the first hands must start with a deal$",
    ):
        history_start(attrs.evolve(final, log=no_deal))
    # ... and hold no more deals than there were.
    extra = None
    for action in (actions[0], *actions):
        extra = History(extra, action)
    deals = sum(type(a) is Deal for a in actions)
    with pytest.raises(
        InvariantError, match=rf"\(history\): the history holds {deals + 1} deals but {deals} "
    ):
        history_start(attrs.evolve(final, log=extra))


def test_walk_stops_at_an_illegal_action() -> None:
    spec = GameSpec(new_game().rules, new_game().dealer, seed=1, style="uniform", steps=5)
    actions = spec.final().history
    seen: list[Step] = []
    steps = walk(new_game(), (*actions, actions[-1]))
    seen.extend(next(steps) for _ in actions)
    with pytest.raises(IllegalActionError):
        next(steps)
    assert len(seen) == len(actions)


# -- the one walk: actions given, actions chosen, visitors ------------------------------------


@given(game_specs(max_steps=900))
@settings(max_examples=examples(ci=30, deep=300))
def test_walking_a_record_gives_the_states_of_applying_its_actions(spec: GameSpec) -> None:
    """Whatever walks a game -- the actions given, the same actions chosen one state at a
    time, a record's states, a history's steps, a visitor -- sees the states that applying
    the actions one by one gives."""
    final = spec.final()
    actions = final.history
    start = new_game(final.rules, first_dealer(final))
    applied = [start]
    for action in actions:
        applied.append(applied[-1].apply(action))
    given_steps = list(walk(start, actions))
    assert [step.before for step in given_steps] == applied[:-1]
    assert [step.action for step in given_steps] == list(actions)
    assert [step.after for step in given_steps] == applied[1:]
    queue = iter(actions)
    assert list(walk(start, lambda _state: next(queue, None))) == given_steps
    assert list(history_steps(final)) == given_steps
    assert list(iter_states(record_of(final))) == applied
    seen: list[Step] = []
    assert visit(start, actions, lambda *step: seen.append(Step(*step))) == final
    assert seen == given_steps


def test_a_chooser_sees_the_state_it_acts_on_and_stops_the_walk() -> None:
    """A chooser is asked with the state its action will be applied to; ``None`` ends the
    walk there, and :func:`visit` returns that state (the start, when nothing was chosen)."""
    final = GameSpec(new_game().rules, new_game().dealer, seed=4, style="uniform", steps=40).final()
    actions = final.history
    asked: list[GameState] = []

    def chooser(state: GameState) -> Action | None:
        asked.append(state)
        return actions[len(asked) - 1] if len(asked) <= 10 else None

    steps = list(walk(new_game(), chooser))
    assert len(steps) == 10
    assert asked[:10] == [step.before for step in steps]
    assert asked[10] == steps[-1].after
    assert visit(new_game(), lambda _state: None) == new_game()
    assert visit(final, ()) is final


def test_the_play_loop_is_a_walk_of_the_game_it_plays() -> None:
    """The steps ``play_game`` shows its ``on_action`` are the walk of the final history."""
    shown: list[Step] = []
    final = play_game(
        ["random"] * 4, seed=5, on_action=lambda *step: shown.append(Step(*step)), max_hands=2
    )
    assert shown == list(history_steps(final))
    assert shown[-1].after == final
