"""Pictures that show themselves (issue 41 item 2): IPython's own display formatter gets an
``image/svg+xml`` picture from every svg function, which stays a ``str`` in every other way."""

from __future__ import annotations

import pytest

import deepsix.svg
from deepsix import Card, Meld, Seat, apply, new_game, parse_cards, play_game, shuffled_deal, view

formatters = pytest.importorskip("IPython.core.formatters")

STATE = apply(new_game(), shuffled_deal(2026))
GAME = play_game(["heuristic"] * 4, 2)
PICTURES = {
    "table": lambda: deepsix.svg.table(view(STATE, Seat.SOUTH)),
    "hand": lambda: deepsix.svg.hand(parse_cards("7S 8S 2H")),
    "trick": lambda: deepsix.svg.trick([(Seat.NORTH, Card("7S")), (Seat.EAST, Card("8S"))]),
    "meld": lambda: deepsix.svg.meld([Meld.parse("8W")]),
    "score_sheet": lambda: deepsix.svg.score_sheet(GAME),
    "card": lambda: deepsix.svg.card(parse_cards("7S")[0]),
}


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_ipython_shows_the_picture(name: str) -> None:
    picture = PICTURES[name]()
    data, _ = formatters.DisplayFormatter().format(picture)
    assert data["image/svg+xml"] == str(picture)
    assert data["image/svg+xml"].startswith("<svg ")


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_a_picture_is_still_a_string(name: str) -> None:
    picture = PICTURES[name]()
    assert isinstance(picture, str)
    assert picture == str(picture)
    assert type(picture + "") is str
    assert picture.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
