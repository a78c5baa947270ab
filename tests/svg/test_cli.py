"""``deepsix replay --svg``: any position of a saved game as a picture, open or one seat's."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from deepsix import Seat, record_of, view, write_record
from deepsix import svg as pictures
from deepsix.cli import main
from deepsix.io.record import iter_states, read_record
from tests.svg.positions import positions


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("replay") / "game.rec"
    path.write_text(write_record(record_of(positions()["game-over"])))
    return path


def test_the_svg_of_a_position_is_the_librarys_picture(saved: Path, tmp_path: Path) -> None:
    out = tmp_path / "p.svg"
    assert main(["replay", str(saved), "--svg", str(out), "--at", "60", "--seat", "E"]) == 0
    states = list(iter_states(read_record(saved.read_text())))
    assert out.read_text() == pictures.table(view(states[60], Seat.EAST))
    assert main(["replay", str(saved), "--svg", str(out), "--theme", "dark", "--size", "500"]) == 0
    assert out.read_text() == pictures.table(states[-1], theme="dark", size=500)
    assert main(["replay", str(saved), "--svg", str(out), "--at", "-2"]) == 0
    assert out.read_text() == pictures.table(states[-2])
    ET.fromstring(out.read_text())


def test_bad_picture_options_are_usage_errors(
    saved: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = str(tmp_path / "p.svg")
    assert main(["replay", str(saved), "--svg", out, "--at", "99999"]) == 2
    assert "--at 99999" in capsys.readouterr().err
    assert main(["replay", str(saved), "--seat", "E"]) == 2
    assert main(["replay", str(saved), "--svg", out, "--size", "3"]) == 2
    assert main(["replay", str(saved), "--svg", str(tmp_path / "no" / "p.svg")]) == 2


def test_a_finished_games_picture_shows_the_records_card_points_and_the_last_trick(
    saved: Path, tmp_path: Path
) -> None:
    """One picture, one number: the header's card points are the score sheet's (the last
    trick's bonus counted), and a finished game shows its last trick and who won."""
    final = positions()["game-over"]
    out = tmp_path / "end.svg"
    assert main(["replay", str(saved), "--svg", str(out)]) == 0
    picture = out.read_text(encoding="utf-8")
    ns, ew = final.completed_hands[-1].card_points
    assert f"card points {ns}–{ew}" in picture
    for _, card in final.tricks[-1].plays:
        assert pictures.card_name(card) in picture
    assert "last trick" in picture
    assert f"win {final.scores[0]}–{final.scores[1]}" in picture
