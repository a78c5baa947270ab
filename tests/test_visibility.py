"""One visibility rule of the passes (:mod:`deepsix.visibility`), read by every seat's-eye
consumer: the view, the adapters' facts (their observations) and the pictures.

Each consumer's check compares what it shows a seat with the rule as the rules text states
it (R-PASS-1, R-PASS-2: the passes are face down; a seat sees what it passed, and what it
received once the whole pass has arrived).  A leak planted in the one rule makes every
consumer's check fail: there is no second copy of the rule that could still hold.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

from deepsix import GameState, Phase, Seat, new_game, view, visibility
from deepsix.adapters._facts import facts_of_state
from deepsix.cards import Card
from deepsix.handsetup import HandSetup
from deepsix.svg._scene import scene_of
from tests.support.strategies import choose_action

PASSING = (Phase.PARTNER_PASS, Phase.BIDDER_MELD, Phase.BIDDER_PASS, Phase.MELDING, Phase.PLAY)


def states() -> Iterator[GameState]:
    """Positions from the partner's first pass to the first trick, over several deals."""
    for seed in range(6):
        rng = random.Random(seed)
        state = new_game()
        while not state.is_over and state.hand_number <= 2:
            if state.phase in PASSING and not state.tricks:
                yield state
            state = state.apply(choose_action(rng, state, "cautious"))


STATES = list(states())


def expected(state: GameState, seat: Seat) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """The rules text's answer, written here apart from the library."""
    setup, size = state.setup, state.rules.pass_size
    if setup.bidder is None or seat not in (setup.bidder, setup.bidder.partner):
        return (), ()
    mine, theirs = (
        (setup.bidder_pass, setup.partner_pass)
        if seat == setup.bidder
        else (setup.partner_pass, setup.bidder_pass)
    )
    return mine, theirs if len(theirs) == size else ()


def check_views() -> None:
    for state in STATES:
        for seat in Seat:
            seen = view(state, seat)
            assert (seen.passed, seen.received) == expected(state, seat)


def check_adapters() -> None:
    for state in STATES:
        for seat in Seat:
            facts = facts_of_state(state, seat, private=True, pass_size=state.rules.pass_size)
            assert (tuple(facts.passed), tuple(facts.received)) == expected(state, seat)


def check_pictures() -> None:
    for state in STATES:
        whole = scene_of(state)
        for seat in Seat:
            assert whole.received[seat] == expected(state, seat)[1]
            scene = scene_of(view(state, seat))
            assert scene.received[seat] == expected(state, seat)[1]
            hidden = [
                cards
                for cards, owner in ((scene.partner_pass, "partner"), (scene.bidder_pass, "bidder"))
                if cards and state.setup.bidder is not None
                and seat not in (state.setup.bidder, state.setup.bidder.partner)
            ]  # fmt: skip
            assert hidden == [], f"{seat} sees a pass: {hidden}"


CHECKS: list[Callable[[], None]] = [check_views, check_adapters, check_pictures]


def test_the_positions_cover_every_step_of_the_passes() -> None:
    phases = {state.phase for state in STATES}
    assert {Phase.PARTNER_PASS, Phase.BIDDER_PASS, Phase.MELDING} <= phases
    partial = [s for s in STATES if 0 < len(s.setup.partner_pass) < s.rules.pass_size]
    assert partial  # a pass in flight, not yet received


@pytest.mark.parametrize("check", CHECKS, ids=lambda check: check.__name__)
def test_every_consumer_shows_the_rule(check: Callable[[], None]) -> None:
    check()


def _leaky_seen(
    setup: HandSetup, seat: int, pass_size: int
) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """The planted fault: every seat is shown the partner's pass, complete or not."""
    return (), setup.partner_pass


def _leaky_received(setup: HandSetup, seat: int, pass_size: int) -> tuple[Card, ...]:
    """The planted fault: a pass counts as received while its cards are still in flight."""
    bidder = setup.bidder
    if bidder is None:
        return ()
    return (
        setup.partner_pass
        if seat == bidder
        else setup.bidder_pass
        if seat == (bidder + 2) & 3
        else ()
    )


FAULTS = {"passes_seen": _leaky_seen, "received_pass": _leaky_received}


@pytest.mark.parametrize("fault", FAULTS)
@pytest.mark.parametrize("check", CHECKS, ids=lambda check: check.__name__)
def test_a_leak_planted_in_the_one_rule_fails_every_consumer(
    check: Callable[[], None], fault: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(visibility, fault, FAULTS[fault])
    with pytest.raises(AssertionError):
        check()
