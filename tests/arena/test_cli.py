"""``deepsix match`` and ``deepsix bot``: the reference C bot plays heuristic through the
command; a stopped match resumes; bad arguments are usage errors; ``deepsix bot`` speaks the
protocol on standard input and output."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from deepsix import read_record, replay
from deepsix.arena.protocol import PROTOCOL
from deepsix.cli import main
from tests.arena.programs import faulty


def test_the_reference_bot_plays_heuristic_through_deepsix_match(
    refbot: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "match"
    report = tmp_path / "report.md"
    argv = ["match", str(refbot), "heuristic", "--deals", "1", "--seed", "4", "--out", str(out)]
    assert main([*argv, "--report", str(report), "--no-progress", "--workers", "1"]) == 0
    printed = capsys.readouterr().out
    assert "Mean difference per hand" in printed
    text = report.read_text()
    assert text == (out / "report.md").read_text()
    assert f"| {refbot} (A) | heuristic (B) |" in text
    assert "| faults (program bots) | 0 | 0 |" in text
    assert "| decisions made by the fallback | 0 | 0 |" in text
    games = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert len(games) == 2
    for game in games:
        final = replay(read_record((out / game["record"]).read_text()))
        assert final.is_over  # a whole game, every action checked again
        assert final.scores == tuple(game["scores"])
    # Run again: the match is done, nothing is played, the report is the same.
    assert main([*argv, "--no-progress", "--workers", "1"]) == 0
    assert (out / "report.md").read_text() == text


def test_a_faulty_program_loses_only_its_own_decisions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bot = faulty("--late", "4", "--sleep", "2.5", "--garbage", "6", "--crash", "9", "--seat", "S")
    out = tmp_path / "m"
    argv = ["match", bot, "random", "--deals", "1", "--out", str(out), "--time-limit", "2"]
    assert main([*argv, "--no-progress", "--workers", "1", "--bot-logs"]) == 0
    report = (out / "report.md").read_text()
    assert "| games its program died in | 1 | 0 |" in report
    # Its standard error, game by game and seat by seat, for its author:
    assert "crashing on purpose" in (out / "logs" / "deal-00000-a-S.log").read_text()
    assert (out / "logs" / "deal-00000-a-N.log").read_text() == ""
    assert "| faults (program bots) | 4 | 0 |" in report  # late, garbage twice, crashed
    assert "--time-limit 2 --fallback random" in report  # the command names its limits


def test_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "heuristic"]) == 2
    assert "a match is between two bots" in capsys.readouterr().err
    assert main(["match", "heuristic", "nobot"]) == 2
    assert "unknown bot" in capsys.readouterr().err
    assert main(["match", "heuristic", "random", "--deals", "0"]) == 2
    assert main(["match", "heuristic", "random", "--seeds", str(tmp_path / "none")]) == 2
    (tmp_path / "seeds").write_text("1 2 x")
    assert main(["match", "heuristic", "random", "--seeds", str(tmp_path / "seeds")]) == 2
    assert "not a list of integers" in capsys.readouterr().err
    (tmp_path / "afile").write_text("")
    assert main(["match", "heuristic", "random", "--out", str(tmp_path / "afile")]) == 2
    assert main(["bot", "nobot"]) == 2
    assert main(["bot", "./mybot"]) == 2


def test_another_match_in_the_same_directory_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["match", "heuristic", "random", "--deals", "1", "--out", str(tmp_path), "--no-progress"]
    assert main([*base, "--workers", "1"]) == 0
    capsys.readouterr()
    assert main([*base, "--workers", "1", "--seed", "9"]) == 1
    assert "holds another match" in capsys.readouterr().err


def test_a_pool_from_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["match", "--pool", "random", "heuristic", "--deals", "1", "--out", str(tmp_path)]
    assert main([*argv, "--no-progress", "--workers", "1"]) == 0
    report = (tmp_path / "report.md").read_text()
    assert report.startswith("## Ratings")
    assert "| random | +0 | anchor |" in report


def test_deepsix_bot_speaks_the_protocol() -> None:
    """``deepsix bot random`` in a subprocess: hello, a decision, quit."""
    from deepsix import Seat, new_game, shuffled_deal, view
    from deepsix.io.wire import to_wire

    state = new_game().apply(shuffled_deal(3))
    seen = view(state, Seat.EAST)
    messages = [
        {"type": "hello", "protocol": PROTOCOL, "seat": "E", "seed": 1, "time_limit": 5},
        {"type": "decide", "id": 1, "view": to_wire(seen), "legal": to_wire(seen.legal_actions)},
        {"type": "quit"},
    ]
    stdin = "".join(json.dumps(m) + "\n" for m in messages)
    command = [sys.executable, "-m", "deepsix", "bot", "random"]
    done = subprocess.run(
        command, input=stdin, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    ready, action = (json.loads(line) for line in done.stdout.splitlines())
    assert ready == {"type": "ready", "protocol": PROTOCOL, "name": "random"}
    assert action["id"] == 1
    assert action["action"] in to_wire(seen.legal_actions)


def test_a_program_wherever_a_bot_name_is(capsys: pytest.CaptureFixture[str]) -> None:
    from tests.arena.programs import EXAMPLES, python_bot

    program = python_bot(EXAMPLES / "minimal.py")
    assert main(["--no-color", "watch", "--seed", "3", "--bots", program, "heuristic"]) == 0
    assert "wins" in capsys.readouterr().out
    argv = ["simulate", "-n", "2", "--bots", program, "random", "--workers", "1", "--no-progress"]
    assert main(argv) == 0


def test_a_bot_that_fails_its_handshake_stops_the_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A program that dies before ``ready`` is no result: the match stops at once with exit 1,
    and the error quotes the first lines of its error output (where the cause is), not only
    the last ones."""
    script = tmp_path / "dies.py"
    script.write_text(
        "import sys\n"
        "print('Error: Cannot find module /x/nosuch.js', file=sys.stderr)\n"
        "for i in range(40):\n"
        "    print(f'    at frame {i}', file=sys.stderr)\n"
        "print('Node.js v20', file=sys.stderr)\n"
        "sys.exit(3)\n"
    )
    bot = "exec:" + sys.executable + " " + str(script)
    out = tmp_path / "m"
    argv = ["match", bot, "heuristic", "--deals", "2", "--out", str(out), "--workers", "1"]
    assert main([*argv, "--no-progress"]) == 1
    captured = capsys.readouterr()
    (line,) = captured.err.splitlines()
    assert "failed its handshake, so the match stops" in line
    assert "exit status 3" in line
    assert "Error: Cannot find module /x/nosuch.js" in line
    assert "Node.js v20" in line
    assert "Mean difference per hand" not in captured.out
    assert not (out / "report.md").exists()
