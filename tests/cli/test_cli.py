"""The ``deepsix`` command line, driven through its real entry points."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from deepsix import (
    Action,
    Bid,
    DeclareMeld,
    Done,
    NameSunkSuit,
    Pass,
    PassCard,
    PlayCard,
    Seat,
    ShowCard,
    view,
)
from deepsix.cli import SavedGame, load_game, main, parse_command, save_game
from deepsix.errors import ParseError
from deepsix.io.transcript import format_transcript
from deepsix.play.heuristic import HeuristicBot
from deepsix.play.loop import play_game


def run_module(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``python -m deepsix ARGS`` in a subprocess, with ``stdin`` as its input."""
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "100", "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "deepsix", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        env=env,
        check=False,
    )


def scripted(lines: list[str]) -> Callable[[], str]:
    """A ``read`` function returning the lines in turn, then raising EOFError."""
    feed: Iterator[str] = iter(lines)

    def read() -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return read


# -- watch ---------------------------------------------------------------------------------


def test_watch_prints_a_whole_game_and_the_final_score() -> None:
    done = run_module("watch", "--seed", "2026", "--hide-hands")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    expected = play_game(["heuristic"] * 4, 2026)
    assert "seed 2026" in out
    assert out.count("Trick 14:") == len(expected.completed_hands)
    assert f"NS {expected.scores[0]}, EW {expected.scores[1]}. {expected.winner} wins" in out
    assert "Score sheet" in out
    transcript = format_transcript(expected, show_hands=False)
    first_trick = next(line for line in transcript.splitlines() if "Trick  1:" in line)
    assert first_trick.strip() in out


def test_watch_with_chosen_bots_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--no-color", "watch", "--seed", "7", "--bots", "heuristic", "random"]) == 0
    first = capsys.readouterr().out
    assert main(["--no-color", "watch", "--seed", "7", "--bots", "heuristic", "random"]) == 0
    assert capsys.readouterr().out == first
    assert "N: heuristic, E: random, S: heuristic, W: random" in first
    assert "N  " in first  # the hands are listed


def test_watch_refuses_unknown_bots(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["watch", "--seed", "1", "--bots", "heuristic", "oracle"]) == 2
    assert "--bots: unknown bot 'oracle'" in capsys.readouterr().err
    assert main(["watch", "--bots", "random", "random", "random"]) == 2


def test_usage_errors_and_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fly"]) == 2
    assert "invalid choice" in capsys.readouterr().err
    assert main([]) == 2
    assert main(["--version"]) == 0
    assert "deepsix" in capsys.readouterr().out


# -- play ------------------------------------------------------------------------------------


def test_play_survives_bad_input_and_stops_cleanly_at_end_of_input(tmp_path: Path) -> None:
    save = tmp_path / "game.rec"
    done = run_module(
        "play", "--seed", "1", "--save", str(save),
        stdin="hello\n\n?\nbid 125\nbid 1e9\nplay 7S\n7Z\nhint\nscore\ntable\nbid 90\n",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Traceback" not in out + done.stderr
    assert "you are South" in out
    assert "Your hand:" in out
    assert "Not understood" in out  # hello, an empty line, 1e9
    assert "Illegal: S bids 125: R-BID-3" in out
    assert "Legal now: 'pass', or 'bid N' with N from 110 down to -410" in out
    assert "Commands: ? or help" in out
    assert "The heuristic bot would:" in out
    assert "You bid 90" in out
    assert "Game stopped (end of input)" in out
    assert "--resume" in out
    saved = load_game(save)
    assert saved.seed == 1
    assert saved.bots[Seat.SOUTH] == "human"
    assert any(str(action) == "S bids 90" for action in saved.state.history)

    resumed = run_module("play", "--resume", str(save), stdin="quit\n")
    assert resumed.returncode == 0, resumed.stderr
    assert "Resuming" in resumed.stdout
    assert "Game stopped (quit)" in resumed.stdout
    assert load_game(save).state.history[: len(saved.state.history)] == saved.state.history


def test_play_without_input_stops_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--seed", "3"], read=scripted([])) == 0
    out = capsys.readouterr().out
    assert "Game stopped (end of input)." in out


def natural(action: Action) -> str:
    """How a person would type ``action`` at the prompt."""
    if isinstance(action, Bid):
        return f"bid {action.amount}"
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, NameSunkSuit):
        return f"sink {action.suit.symbol}"
    if isinstance(action, ShowCard):
        return f"show {action.card.ascii}"
    if isinstance(action, PassCard):
        return f"give {action.card.ascii.lower()}"
    if isinstance(action, DeclareMeld):
        return f"meld {action.meld.code}"
    if isinstance(action, Done):
        return "done"
    assert isinstance(action, PlayCard)
    return str(action.card)


@pytest.mark.parametrize("bots", [["random"], ["heuristic"]])
def test_a_whole_game_can_be_played_at_the_prompt(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bots: list[str]
) -> None:
    """A scripted human (the heuristic's moves, typed as words, with junk in between) plays East."""
    save = tmp_path / "game.rec"
    rng = random.Random(4)
    junk = ["", "???", "help", "bid", "meld XX-Q", "give", "play 9S", "sink Q", "7S 8S"]
    prompts = 0

    def read() -> str:
        nonlocal prompts
        prompts += 1
        if prompts > 5000:
            raise EOFError
        if rng.random() < 0.1:
            return rng.choice(junk)
        state = load_game(save).state  # the game is saved before every prompt
        assert state.to_act is Seat.EAST
        action = HeuristicBot().choose(view(state, Seat.EAST), rng)
        return natural(action)

    argv = ["--no-color", "play", "--seed", "12", "--seat", "E", "--save", str(save)]
    code = main([*argv, "--bots", *bots], read=read)
    out = capsys.readouterr().out
    assert code == 0
    final = load_game(save).state
    assert final.is_over
    assert "Game over:" in out
    assert "You win!" in out or "You lose." in out
    assert out.count("Score sheet") >= len(final.completed_hands)


def test_parse_command_reads_each_phase() -> None:
    state = play_game(["heuristic"] * 4, 5, max_hands=0)
    from deepsix import apply, shuffled_deal

    state = apply(state, shuffled_deal(5))
    east = view(state, Seat.EAST)
    assert parse_command("pass", east) == [Pass(Seat.EAST)]
    assert parse_command("bid -40", east) == [Bid(Seat.EAST, -40)]
    assert parse_command("\N{MINUS SIGN}40", east) == [Bid(Seat.EAST, -40)]
    assert parse_command("E:B90", east) == [Bid(Seat.EAST, 90)]
    with pytest.raises(ParseError, match="you play East"):
        parse_command("N:B90", east)
    with pytest.raises(ParseError):
        parse_command("sink hearts", east)
    command = parse_command("?", east)
    assert not isinstance(command, list)
    assert command.name == "help"


# -- simulate ---------------------------------------------------------------------------------


def test_simulate_prints_a_summary_and_writes_json_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_file = tmp_path / "hands.jsonl"
    argv = ["--no-color", "simulate", "-n", "6", "--workers", "1", "--seed", "4"]
    assert main([*argv, "--jsonl", str(out_file), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "6 games, seed 4" in out
    assert "Results by side" in out
    assert "heuristic+heuristic" in out
    assert "random+random" in out
    assert "95% interval" in out
    assert "bids failed" in out
    assert "Meld frequency" in out
    assert "Average game:" in out
    rows = [json.loads(line) for line in out_file.read_text(encoding="utf-8").splitlines()]
    assert rows
    assert {row["game"] for row in rows} == set(range(6))
    assert f"Wrote {len(rows)} hands" in out


def test_simulate_in_a_subprocess_with_csv_and_two_workers(tmp_path: Path) -> None:
    out_file = tmp_path / "hands.csv"
    done = run_module(
        "simulate", "-n", "4", "--workers", "2", "--bots", "random", "--csv", str(out_file)
    )
    assert done.returncode == 0, done.stderr
    assert "random+random (A)" in done.stdout
    assert out_file.read_text(encoding="utf-8").startswith("game,game_seed,hand,")


def test_simulate_rejects_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "-n", "-3"]) == 2
    assert main(["simulate", "-n", "2", "--workers", "0"]) == 2
    assert main(["simulate", "-n", "2", "--csv", "a", "--jsonl", "b"]) == 2
    assert "not allowed with" in capsys.readouterr().err


# -- replay ------------------------------------------------------------------------------------


def test_replay_prints_a_saved_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "watched.rec"
    assert main(["--no-color", "watch", "--seed", "9", "--save", str(record)]) == 0
    watched = capsys.readouterr().out
    assert main(["--no-color", "replay", str(record)]) == 0
    replayed = capsys.readouterr().out
    tricks = [line for line in watched.splitlines() if "Trick" in line]
    assert tricks
    assert tricks == [line for line in replayed.splitlines() if "Trick" in line]
    assert "seed 9" in replayed
    assert "Game over after" in replayed


def test_replay_steps_and_stops_at_end_of_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "game.rec"
    game = play_game(["random"] * 4, 3)
    save_game(record, SavedGame(3, ("random", "random", "random", "random"), game))
    assert main(["replay", str(record), "--step"], read=scripted(["", ""])) == 0
    out = capsys.readouterr().out
    assert out.count("Enter: next") == 3
    assert "Trick 14" not in out  # stopped before the end
    assert main(["replay", str(record), "--step"], read=scripted(["", "q"])) == 0
    assert "Trick 14" in capsys.readouterr().out


def test_replay_reports_missing_and_corrupt_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(tmp_path / "none.rec")]) == 1
    assert "cannot read" in capsys.readouterr().err
    bad = tmp_path / "bad.rec"
    bad.write_text('[Format "deepsix/1"]\n\nE:B90\n', encoding="utf-8")
    assert main(["replay", str(bad)]) == 1
    assert "illegal" in capsys.readouterr().err
    assert main(["play", "--resume", str(bad)]) == 1
    unfinished = tmp_path / "bots.rec"
    bots = ("heuristic", "heuristic", "heuristic", "heuristic")
    save_game(unfinished, SavedGame(None, bots, play_game(["random"] * 4, 1)))
    assert main(["play", "--resume", str(unfinished)]) == 1
    assert "was not saved by 'deepsix play'" in capsys.readouterr().err
