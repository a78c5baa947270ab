"""States, views and records show themselves as pictures in a notebook, and the core loads
no drawing code until one is asked for."""

from __future__ import annotations

import subprocess
import sys

from deepsix import Seat, record_of, view
from deepsix import svg as pictures
from deepsix.svg.notebook import NOTEBOOK_WIDTH
from tests.svg.positions import positions


def test_a_state_and_a_view_show_their_table() -> None:
    state = positions()["play-mid-trick"]
    assert state._repr_svg_() == pictures.table(state, size=NOTEBOOK_WIDTH)
    south = view(state, Seat.SOUTH)
    assert south._repr_svg_() == pictures.table(south, size=NOTEBOOK_WIDTH)
    html = south._repr_html_()
    assert html is not None
    assert pictures.table(south, size=NOTEBOOK_WIDTH) in html
    assert "<figcaption><code>PlayerView of S: hand 1, play</code></figcaption>" in html
    state_html = state._repr_html_()
    assert state_html is not None
    assert "&lt;GameState hand 1 play" in state_html


def test_a_record_shows_its_score_sheet_and_last_table() -> None:
    final = positions()["game-over"]
    record = record_of(final, tags=[("Event", "Club night"), ("North", "ann")])
    picture = record._repr_svg_()
    assert picture == pictures.score_sheet(final, title="Club night (ann)", size=NOTEBOOK_WIDTH)
    html = record._repr_html_()
    assert pictures.table(final, size=NOTEBOOK_WIDTH) in html
    assert picture in html


def test_pictures_load_only_when_first_asked_for() -> None:
    code = (
        "import sys, deepsix\n"
        "state = deepsix.new_game()\n"
        "print('deepsix.svg' in sys.modules)\n"
        "print(state._repr_svg_().startswith('<svg'))\n"
        "print('deepsix.svg' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.split() == ["False", "True", "True"]


def test_an_unbound_hook_shows_no_picture() -> None:
    from deepsix import display

    state = positions()["deal"]
    saved = (display._HOOKS.svg, display._HOOKS.html)
    try:
        display.bind_display(lambda value: None, lambda value: None)
        assert state._repr_svg_() is None
        assert state._repr_html_() is None
    finally:
        display.bind_display(*saved)
    assert state._repr_svg_() is not None
