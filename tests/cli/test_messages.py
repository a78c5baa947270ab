"""The command line's messages, checked as the text a person reads (issue 41 item 8): each says
a thing once, counts agree with their nouns, and a stop is one line."""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path

import pytest

import deepsix.cli.match
from deepsix.arena.match import MatchConfig, report_markdown, run_match
from deepsix.cli import main
from deepsix.cli.terminal import Terminal


def errors(capsys: pytest.CaptureFixture[str]) -> list[str]:
    return capsys.readouterr().err.splitlines()


def test_usage_errors_name_the_program_once(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert errors(capsys) == [
        "deepsix: error: the following arguments are required: COMMAND (see 'deepsix --help')"
    ]
    assert main(["watch", "--seed", "x"]) == 2
    assert errors(capsys) == [
        "deepsix: error: watch: argument --seed: invalid int value: 'x' "
        "(see 'deepsix watch --help')"
    ]


def test_a_missing_file_is_said_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "none.rec"
    assert main(["replay", str(missing)]) == 1
    assert errors(capsys) == [f"deepsix: error: cannot read {missing}: No such file or directory"]


def test_a_database_refused_is_named_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as db:
        db.execute("PRAGMA application_id = 1234")
        db.execute("CREATE TABLE t (x)")
    assert main(["serve", "--db", str(other)]) == 2
    (line,) = errors(capsys)
    assert line == f"deepsix: error: --db {other} is another program's SQLite database"


def test_nothing_to_play_is_refused_alike(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "-n", "0"]) == 2
    assert errors(capsys) == ["deepsix: error: -n 0: play at least one game"]
    assert main(["match", "heuristic", "random", "--deals", "0"]) == 2
    assert errors(capsys) == ["deepsix: error: --deals 0: play at least one deal"]


def test_one_of_a_thing_is_singular(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "-n", "1", "--workers", "1", "--no-progress", "--no-color"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("1 game, seed 0, seats alternated, on 1 worker process: ")
    result = run_match(MatchConfig(("heuristic", "random"), deals=1), tmp_path / "m", workers=1)
    report = report_markdown(result)
    assert " of 1 deal (interval clustered by deal; " in report
    assert "process(es)" not in report
    assert "1 hands" not in report
    assert "1 paired hands" not in report


def test_ctrl_c_in_a_match_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def stopped(*args: object, **kwargs: object) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(deepsix.cli.match, "_play", stopped)
    out = tmp_path / "m"
    assert main(["match", "heuristic", "random", "--deals", "1", "--out", str(out)]) == 130
    assert errors(capsys) == [
        f"deepsix: error: stopped: the finished deals are in {out}; run the same command to resume"
    ]


class _Screen(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_markdown_is_rendered_on_a_terminal_and_kept_in_a_pipe() -> None:
    text = "## heuristic vs random\n\n| | A | B |\n|---|---:|---:|\n| games won | 3 | 1 |\n"
    screen = _Screen()
    Terminal(out=screen, use_rich=True).markdown(text)
    shown = screen.getvalue()
    assert "heuristic vs random" in shown
    assert "games won" in shown
    assert "##" not in shown
    assert "|---" not in shown
    pipe = io.StringIO()
    Terminal(out=pipe, use_rich=True).markdown(text)
    assert pipe.getvalue() == text
