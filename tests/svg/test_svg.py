"""Pictures: golden files, well-formed accessible SVG, no hidden card in a view's picture,
typed errors for bad input."""

from __future__ import annotations

import os
import random
import re
import xml.etree.ElementTree as ET

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import deepsix
from deepsix import (
    Card,
    GameState,
    Meld,
    MeldKind,
    ParseError,
    Seat,
    Suit,
    Trick,
    WrongTypeError,
    sample_state,
    view,
)
from deepsix import svg as pictures
from deepsix.svg._cards import card_name
from deepsix.svg._describe import PHASE_NAMES
from tests.support.strategies import examples, reachable_states
from tests.svg.golden import GOLDEN, drawings
from tests.svg.positions import positions

SVG = "{http://www.w3.org/2000/svg}"
CARD_WORDS = re.compile(r"\b([2-8]) of (clubs|diamonds|hearts|spades)\b")
DRAWINGS = drawings()


@pytest.mark.parametrize("name", sorted(DRAWINGS))
def test_pictures_match_the_golden_files(name: str) -> None:
    drawn = DRAWINGS[name]()
    path = GOLDEN / name
    if os.environ.get("DEEPSIX_UPDATE_GOLDEN") == "1":
        path.write_text(drawn, encoding="utf-8")
    assert path.exists(), f"no golden file {name}: run DEEPSIX_UPDATE_GOLDEN=1 pytest tests/svg"
    assert drawn == path.read_text(encoding="utf-8"), (
        f"{name} changed: look at it (python -m tests.svg.look), then "
        "DEEPSIX_UPDATE_GOLDEN=1 pytest tests/svg"
    )


def test_no_stale_golden_files() -> None:
    assert {path.name for path in GOLDEN.glob("*.svg")} == set(DRAWINGS)


@pytest.mark.parametrize("name", sorted(DRAWINGS))
def test_every_picture_is_well_formed_and_titled(name: str) -> None:
    root = ET.fromstring(DRAWINGS[name]())
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img"
    title = root.find(f"{SVG}title")
    assert title is not None
    assert title.text
    assert len(title.text) > 10
    width, height = float(root.get("width", "0")), float(root.get("height", "0"))
    box = [float(part) for part in root.get("viewBox", "").split()]
    assert width > 0
    assert height > 0
    assert abs(width / height - box[2] / box[3]) < 0.01  # sized without distortion


def test_every_phase_is_drawn() -> None:
    """The positions cover every phase of the game, and each one's picture says its phase."""
    found = positions()
    assert {state.phase for state in found.values()} == set(deepsix.Phase)
    for state in found.values():
        title = ET.fromstring(pictures.table(state)).find(f"{SVG}title")
        assert title is not None
        assert title.text is not None
        assert PHASE_NAMES[state.phase] in title.text


def test_the_description_names_every_card_of_an_open_table() -> None:
    state = positions()["play-mid-trick"]
    desc = ET.fromstring(pictures.table(state)).find(f"{SVG}desc")
    assert desc is not None
    assert desc.text is not None
    named = CARD_WORDS.findall(desc.text)
    expected = [card for hand in state.hands for card in hand] + [c for _, c in state.trick]
    for card in expected:
        assert (str(card.rank), card_name(card).split(" of ")[1]) in named


def _named_cards(picture: str) -> set[str]:
    return {f"{rank} of {suit}" for rank, suit in CARD_WORDS.findall(picture)}


def _visible(seen: deepsix.PlayerView) -> set[str]:
    cards: list[Card] = [*seen.hand, *seen.invitation, *seen.passed, *seen.received]
    cards += [c for _, c in seen.trick]
    cards += [c for trick in seen.tricks for c in trick.cards]
    cards += [c for melds in seen.melds for meld in melds for c in meld.cards]
    return {card_name(card) for card in cards}


@settings(max_examples=examples(ci=25, deep=300))
@given(reachable_states(), st.sampled_from([*Seat, None]), st.integers(0, 2**32))
def test_a_views_picture_shows_nothing_the_view_hides(
    state: GameState, seat: Seat | None, seed: int
) -> None:
    """The picture of a seat's view is the same for every state that seat cannot tell apart,
    and names no card the seat has not seen."""
    seen = view(state, seat)
    picture = pictures.table(seen)
    other = sample_state(seen, random.Random(seed)) if seat is not None else state
    assert pictures.table(view(other, seat)) == picture
    assert _named_cards(picture) <= _visible(seen)


def test_a_states_picture_shows_every_hand() -> None:
    state = positions()["bidding"]
    picture = pictures.table(state)
    for hand in state.hands:
        assert {card_name(c) for c in hand} <= _named_cards(picture)
    assert picture.count("hidden") == 0
    hidden = pictures.table(view(state, Seat.SOUTH))
    assert "North holds 14 hidden cards" in hidden


def test_the_view_picture_is_drawn_from_the_seats_side() -> None:
    state = positions()["play-mid-trick"]
    assert "(you)" in pictures.table(view(state, Seat.EAST))
    assert "as East sees it" in pictures.table(view(state, Seat.EAST))
    assert "as a spectator sees it" in pictures.table(view(state, None))
    # Turning the table does not change what is shown, only where.
    assert pictures.table(state, seat=Seat.NORTH) != pictures.table(state)
    assert pictures.describe(state) == pictures.describe(state)


def test_size_and_theme() -> None:
    state = positions()["bidding"]
    small = ET.fromstring(pictures.table(state, size=500))
    assert small.get("width") == "500"
    assert small.get("height") == "380"
    dark = pictures.table(state, theme="dark")
    assert pictures.DARK.felt in dark
    assert pictures.LIGHT.felt not in dark
    mine = attrs.evolve(pictures.LIGHT, name="club", felt="#123456")
    assert 'fill="#123456"' in pictures.table(state, theme=mine)


def test_the_trick_marks_the_rules_winner() -> None:
    plays = list(zip(Seat, [Card.parse(c) for c in ("6S", "8S", "2S", "5H")], strict=True))
    picture = pictures.trick(plays, Suit.HEARTS)
    assert "East takes the trick" in picture  # the sunk 5♥ counts as introduced first
    plays[3] = (Seat.WEST, Card.parse("5D"))
    assert "West takes the trick" in pictures.trick(plays, Suit.HEARTS)
    assert "is winning so far" in pictures.trick(plays[:2], Suit.HEARTS)
    done = Trick(tuple(plays), Seat.WEST)
    assert pictures.trick(done, Suit.HEARTS) == pictures.trick(plays, Suit.HEARTS)


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda: pictures.table("state"), WrongTypeError),  # type: ignore[arg-type]  # the point
        (lambda: pictures.table(positions()["deal"], size=0), ParseError),
        (lambda: pictures.table(positions()["deal"], size=2.5), WrongTypeError),  # type: ignore[arg-type]  # the point
        (lambda: pictures.table(positions()["deal"], theme="neon"), ParseError),
        (lambda: pictures.table(positions()["deal"], seat=9), ParseError),
        (lambda: pictures.table(positions()["deal"], seat="Q"), ParseError),
        (lambda: pictures.hand("7S 9S"), ParseError),
        (lambda: pictures.hand(b"7S"), WrongTypeError),  # type: ignore[arg-type]  # the point
        (lambda: pictures.hand([7]), WrongTypeError),  # type: ignore[list-item]  # the point
        (lambda: pictures.trick([(Seat.NORTH, 7)], None), WrongTypeError),  # type: ignore[list-item]  # the point
        (lambda: pictures.trick([("X", "7S")], None), ParseError),
        (lambda: pictures.trick([(Seat.NORTH, Card.parse("7S"))], "Z"), ParseError),
        (lambda: pictures.trick([(Seat.NORTH, Card.parse("7S"))] * 5, None), ParseError),
        (
            lambda: pictures.trick(
                Trick(
                    tuple(
                        zip(Seat, [Card.parse(c) for c in ("6S", "8S", "2S", "5H")], strict=True)
                    ),
                    Seat.WEST,
                ),
                Suit.HEARTS,
            ),
            ParseError,
        ),
        (lambda: pictures.meld(["DR-S"]), WrongTypeError),  # type: ignore[list-item]  # the point
        (lambda: pictures.score_sheet(42), WrongTypeError),  # type: ignore[arg-type]  # the point
        (lambda: pictures.card("7Z"), ParseError),
        (lambda: pictures.card(7), WrongTypeError),  # type: ignore[arg-type]  # the point
        (lambda: pictures.theme_named(3), WrongTypeError),  # type: ignore[arg-type]  # the point
        (lambda: attrs.evolve(pictures.LIGHT, hearts="red; fill: url(x)"), ParseError),
        (lambda: attrs.evolve(pictures.LIGHT, font='a"b'), ParseError),
    ],
)
def test_bad_input_is_refused_with_a_typed_error(call: object, error: type[Exception]) -> None:
    assert callable(call)
    with pytest.raises(error):
        call()


def test_the_notation_draws_the_same_pictures() -> None:
    """Seats, cards and suits are taken as a person writes them, as everywhere else."""
    deal = positions()["deal"]
    assert pictures.table(deal, seat="S") == pictures.table(deal, seat=Seat.SOUTH)
    assert pictures.table(deal, seat=2) == pictures.table(deal, seat=Seat.SOUTH)
    cards = [Card.parse(text) for text in ("7S", "8H", "2C")]
    assert pictures.hand("7S 8H 2C", legal=["8H"]) == pictures.hand(sorted(cards), legal=[cards[1]])
    assert pictures.hand(["7S", "8♥", "2c"]) == pictures.hand(cards)
    plays = [(Seat.NORTH, cards[0]), (Seat.EAST, cards[1])]
    assert pictures.trick([("N", "7S"), ("E", "8H")], "H") == pictures.trick(plays, Suit.HEARTS)
    assert pictures.card("7♠") == pictures.card(cards[0])


def test_text_is_escaped() -> None:
    picture = pictures.hand([Card.parse("7S")], label='<script>"x"</script>\x00')
    assert "<script>" not in picture
    assert "\x00" not in picture
    ET.fromstring(picture)


def test_meld_and_score_sheet_words() -> None:
    picture = pictures.meld(Meld(MeldKind.DEEP_RUN, Suit.SPADES))
    assert "deep run of spades, −30" in picture
    sheet = pictures.score_sheet(positions()["game-over"])
    final = positions()["game-over"]
    assert f"{final.scores[0]} · {final.scores[1]}" in sheet
    assert "East–West win" in sheet or "North–South win" in sheet
    assert "No hand finished yet." in pictures.score_sheet(())
