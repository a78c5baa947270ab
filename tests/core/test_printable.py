"""A position you can print (issue 41 item 1): ``print(state)`` and ``print(view)`` show the
table on several lines, ``unicode()`` with suit symbols; the reprs of big values are short."""

from __future__ import annotations

import random
import tempfile

from deepsix import (
    Seat,
    apply,
    new_game,
    play_game,
    record_of,
    shuffled_deal,
    simulate,
    view,
)
from deepsix.adapters.text import state_text, view_text
from deepsix.arena.match import MatchConfig, run_match
from tests.support.strategies import choose_action

GAME = play_game(["heuristic"] * 4, 3)
DEALT = apply(new_game(), shuffled_deal(5))


def test_a_state_prints_every_hand_and_the_table() -> None:
    text = str(DEALT)
    lines = text.splitlines()
    assert [line[:2] for line in lines[:4]] == ["N:", "E:", "S:", "W:"]
    assert lines[0] == "N: " + " ".join(card.ascii for card in DEALT.hand(Seat.NORTH))
    assert "phase bidding | to act E" in lines
    assert text == state_text(DEALT)  # the adapters' renderer: one, not two
    assert "♠" not in text


def test_unicode_writes_the_suits_as_symbols() -> None:
    shown = DEALT.unicode().splitlines()
    assert shown[0] == "N: " + " ".join(str(card) for card in DEALT.hand(Seat.NORTH))
    assert "♠" in shown[0]
    assert all(letter not in shown[0][3:] for letter in "CDHS")
    finished = GAME.unicode()
    assert any(f"sunk {symbol}" in finished for symbol in "♣♦♥♠")


def test_a_view_prints_what_its_seat_sees() -> None:
    seen = view(DEALT, "E")
    text = str(seen)
    assert text == view_text(seen)
    assert text.splitlines()[0].startswith("seat E | hand 1")
    assert "cards " + " ".join(card.ascii for card in DEALT.hand(Seat.EAST)) in text
    assert "N:" not in text  # no other seat's cards
    assert "♦" in seen.unicode()


def test_reprs_are_short() -> None:
    assert repr(view(DEALT, "E")) == (
        "<PlayerView seat E: hand 1 bidding, to act: E, 14 cards, scores 0-0>"
    )
    record = repr(record_of(GAME))
    assert record.startswith("<GameRecord dealer N, ")
    assert " deals" in record
    assert len(record) < 200
    result = simulate(2, ["random"] * 4, 1, workers=1)
    assert repr(result).startswith("<SimulationResult 2 games, random random random random, seed 1")
    assert len(repr(result)) < 200
    with tempfile.TemporaryDirectory() as folder:
        match = run_match(MatchConfig(("heuristic", "random"), deals=1), folder, workers=1)
    assert repr(match).startswith("<MatchResult heuristic vs random: 2 games of 1 deal, seed 0")


def test_a_hand_and_a_trick_have_a_text_of_several_lines() -> None:
    """Issue 41 item 1: a hand and a trick print as a person reads them, not as one line."""
    from deepsix.io.text import hand_text, trick_text

    state = new_game().apply(shuffled_deal(5))
    text = hand_text(state.hand(Seat.NORTH))
    assert text.splitlines()[3] == "S 2 3 4 5 8"
    assert [line[0] for line in text.splitlines()] == ["C", "D", "H", "S"]
    assert "♠ 2 3 4 5 8" in hand_text(state.hand(Seat.NORTH), unicode=True)
    assert sum(len(line.split()) - 1 for line in text.splitlines()) == 14
    rng = random.Random(4)
    state = new_game()
    while not state.tricks:
        state = state.apply(choose_action(rng, state, "cautious"))
    (trick,) = state.tricks
    lines = trick_text(trick).splitlines()
    assert len(lines) == 5
    assert lines[0].endswith("led")
    assert [line.split()[0] for line in lines[:4]] == [str(seat) for seat, _ in trick.plays]
    assert sum("took it" in line for line in lines) == 1
    assert lines[-1] == f"points {trick.points}"
    while not state.trick:
        state = state.apply(choose_action(rng, state, "cautious"))
    assert trick_text(state.trick).splitlines()[0].endswith("led")
    assert "took it" not in trick_text(state.trick)
