"""``deepsix analyze``: runs on a game saved by ``deepsix play --save``, prints each hand's
costly moments, writes JSON, repeats itself with a seed and refuses bad arguments in one line."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from deepsix import HeuristicBot, Seat, view
from deepsix.cli import load_game, main
from tests.cli.test_cli import natural


def one_hand_at_the_prompt(save: Path) -> None:
    """A person at East types the heuristic's moves for one hand, then the input ends."""
    rng = random.Random(2)

    def read() -> str:
        state = load_game(save).state  # saved before every prompt
        if state.completed_hands:
            raise EOFError
        assert state.to_act is Seat.EAST
        return natural(HeuristicBot().choose(view(state, Seat.EAST), rng))

    argv = ["--no-color", "play", "--seed", "5", "--seat", "E", "--save", str(save)]
    assert main(argv, read=read) == 0


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    save = tmp_path_factory.mktemp("analyze") / "game.rec"
    one_hand_at_the_prompt(save)
    assert len(load_game(save).state.completed_hands) == 1
    return save


def test_analyze_a_game_saved_by_play(
    played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_json = tmp_path / "analysis.json"
    argv = ["--no-color", "analyze", str(played), "--budget", "quick", "--json", str(out_json)]
    assert main([*argv, "--threshold", "0", "--all"]) == 0
    out = capsys.readouterr().out
    assert f"{played}: 1 finished hand, budget quick, seed 0" in out
    assert "Hand 1: " in out
    assert "cost by seat: North " in out
    data = json.loads(out_json.read_text())
    decisions = data["hands"][0]["decisions"]
    # --all lists every decision analysed, one line each, with its step
    for decision in decisions:
        assert f"step {decision['step']:>3}  " in out
    assert {d["method"] for d in decisions} == {"exact", "estimate"}
    history = load_game(played).state.history
    assert all(d["played"] == _notation(history[d["step"] - 1]) for d in decisions)
    # the same record, budget and seed: the same analysis
    again = tmp_path / "again.json"
    assert main(["analyze", str(played), "--budget", "quick", "--json", str(again)]) == 0
    repeat = json.loads(again.read_text())
    for hand in (data, repeat):
        for entry in hand["hands"]:
            entry.pop("seconds")
    assert repeat == data


def _notation(action: object) -> str:
    from deepsix.io.notation import format_action

    return format_action(action)  # type: ignore[arg-type]  # an Action from the history


def test_analyze_with_a_time_limit_says_what_it_skipped(
    played: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["analyze", str(played), "--time-limit", "0.000001"]) == 0
    assert "skipped (time limit)" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "status", "words"),
    [
        (["--hand", "2"], 2, ["--hand 2", "1 to 1"]),
        (["--time-limit", "0"], 2, ["--time-limit"]),
        (["--budget", "huge"], 2, ["--budget", "invalid choice"]),
        (["--threshold", "-5"], 2, ["--threshold"]),
        (["--json", "{missing}/a.json"], 2, ["--json", "does not exist"]),
        (["--exact-tricks", "15"], 2, ["--exact-tricks 15", "0 to 14"]),
        (["--kernel", "fast"], 2, ["--kernel", "invalid choice"]),
    ],
)
def test_bad_arguments_are_one_line(
    played: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    *,
    argv: list[str],
    status: int,
    words: list[str],
) -> None:
    filled = [a.format(missing=tmp_path / "missing") for a in argv]
    assert main(["--no-color", "analyze", str(played), *filled]) == status
    captured = capsys.readouterr()
    assert captured.out == ""
    (line,) = captured.err.splitlines()
    for word in words:
        assert word in line


def test_a_missing_record_or_one_without_a_finished_hand_fails_with_status_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["analyze", str(tmp_path / "nope.rec")]) == 1
    assert "cannot read" in capsys.readouterr().err
    fresh = tmp_path / "fresh.rec"
    assert main(["--no-color", "play", "--seed", "1", "--save", str(fresh)], read=_quit) == 0
    capsys.readouterr()
    assert main(["analyze", str(fresh)]) == 1
    assert "no hand of this game is finished" in capsys.readouterr().err


def _quit() -> str:
    return "quit"


def test_analyze_shows_a_progress_bar_over_the_decisions(
    played: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """As simulate and match do: a bar labelled ``analysing`` whose total is the decisions to
    value and which reaches it (``--no-progress`` hides it)."""
    import contextlib
    from collections.abc import Callable, Iterator

    from deepsix.cli.terminal import Terminal
    from deepsix.search.analysis import decision_count

    seen: list[tuple[str, int, bool]] = []
    updates: list[int] = []

    @contextlib.contextmanager
    def progress(
        self: Terminal, label: str, total: int, *, show: bool = True
    ) -> Iterator[Callable[[int], None]]:
        seen.append((label, total, show))
        yield updates.append

    monkeypatch.setattr(Terminal, "progress", progress)
    assert main(["analyze", str(played), "--budget", "quick"]) == 0
    total = decision_count(load_game(played).state)
    assert seen == [("analysing", total, True)]
    assert updates == list(range(1, total + 1))
    assert main(["analyze", str(played), "--budget", "quick", "--no-progress"]) == 0
    assert seen[-1] == ("analysing", total, False)
    capsys.readouterr()


def test_the_native_kernel_asked_for_and_missing_is_one_line(
    played: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from deepsix.search import _native

    monkeypatch.setattr(_native, "AVAILABLE", False)
    assert main(["--no-color", "analyze", str(played), "--kernel", "native"]) == 1
    (line,) = capsys.readouterr().err.splitlines()
    assert "--kernel native" in line
    assert "pip install ./native" in line


def test_the_native_kernel_gives_the_same_analysis(
    played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The exact decisions' values are the kernels' exact values: the same analysis, further
    exact with ``--exact-tricks`` (the native kernel where installed; else the Python one
    twice, which still checks the options)."""
    from deepsix.search import KERNEL

    runs = []
    for kernel in ("python", "auto"):
        out_json = tmp_path / f"{kernel}.json"
        argv = ["analyze", str(played), "--budget", "quick", "--exact-tricks", "7"]
        assert main([*argv, "--kernel", kernel, "--json", str(out_json)]) == 0
        data = json.loads(out_json.read_text())
        for entry in data["hands"]:
            entry.pop("seconds")
        runs.append(data)
    capsys.readouterr()
    assert runs[0] == runs[1], KERNEL
    decisions = runs[0]["hands"][0]["decisions"]
    exact = [d for d in decisions if d["method"] == "exact"]
    assert min(d["trick"] for d in exact) == 8  # seven tricks left (the quick budget: six)
