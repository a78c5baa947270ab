"""Program bots: a C program, the docs' dozen-line bots and any registered Python bot play
through the protocol; garbage, illegal, late and dead programs lose the game nothing else."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from deepsix import GameState, Seat, play_game, replay
from deepsix.arena import ExternalBot, FaultKind, program_command
from deepsix.arena.protocol import PROTOCOL
from deepsix.errors import ParseError, WrongTypeError
from deepsix.io.record import record_of
from deepsix.play.bots import is_program, make_bot
from tests.arena.programs import EXAMPLES, NODE, faulty, python_bot, serve

LIMIT = 2.0
"""Seconds per decision in these tests: generous, so that a loaded machine never makes a
well-behaved bot late."""


def play(bot: ExternalBot, seed: int = 5, seat: Seat = Seat.NORTH) -> GameState:
    """A whole game with ``bot`` at ``seat`` and heuristic bots elsewhere; the bot closed."""
    bots: list[object] = ["heuristic"] * 4
    bots[seat] = bot
    try:
        return play_game(bots, seed)  # type: ignore[arg-type]  # bots and names
    finally:
        bot.close()


def program(spec: str, **options: object) -> ExternalBot:
    """The bot ``spec`` names, with :data:`LIMIT` seconds a decision unless told otherwise."""
    options.setdefault("time_limit", LIMIT)
    return ExternalBot(program_command(spec), **options)  # type: ignore[arg-type]  # keywords


def test_the_c_reference_bot_plays_a_whole_game(refbot: Path) -> None:
    bot = program(str(refbot))
    final = play(bot)
    assert final.is_over
    assert bot.faults == []
    assert bot.fallback_decisions == 0
    assert bot.decisions == len(bot.think_times) > 20
    assert bot.program_name == "refbot (C)"
    replay(record_of(final))  # every one of its actions was legal


@pytest.mark.parametrize("name", ["minimal.py", "minimal.js"])
def test_the_docs_dozen_line_bots_play_a_whole_game(name: str) -> None:
    if name.endswith(".js") and NODE is None:
        pytest.skip("no node on the PATH for the JavaScript example")
    # Run by their interpreters, not by their #! lines: an unpacked sdist may not keep the
    # executable bit (the docs tell a reader to chmod +x).
    if name.endswith(".js"):
        assert NODE is not None
        bot = program("exec:" + shlex.join([NODE, str(EXAMPLES / name)]))
    else:
        bot = program(python_bot(EXAMPLES / name))
    assert play(bot, seat=Seat.EAST).is_over
    assert bot.faults == []
    assert bot.fallback_decisions == 0
    assert code_lines(EXAMPLES / name) <= 12


def code_lines(path: Path) -> int:
    """Lines of code: neither blank, nor a comment, nor the docstring."""
    return sum(
        1
        for line in path.read_text().splitlines()
        if line.strip() and not line.lstrip().startswith(("#", "//", '"""'))
    )


def test_a_registered_python_bot_runs_as_a_program() -> None:
    bot = program(serve("heuristic"), start_limit=30.0)
    assert play(bot, seed=11).is_over
    assert bot.faults == []
    assert bot.program_name == "heuristic"


def log_of(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_garbage_is_refused_with_a_reason_and_the_game_goes_on(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    bot = program(faulty("--garbage", "3", "--log", str(log)))
    assert play(bot).is_over
    assert [(f.kind, f.decision) for f in bot.faults] == [
        (FaultKind.GARBAGE, 3),
        (FaultKind.GARBAGE, 3),
    ]
    assert "not JSON" in bot.faults[0].detail
    assert "an action message needs action" in bot.faults[1].detail
    refusals = [m for m in log_of(log) if m["type"] == "refused"]
    assert [(m["id"], m["tries_left"]) for m in refusals] == [(3, 2), (3, 1)]
    assert bot.fallback_decisions == 0  # its third reply, the legal one, was taken


def test_an_illegal_action_is_refused_naming_the_rule(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    bot = program(faulty("--illegal", "2", "--log", str(log)), tries=2)
    assert play(bot).is_over
    assert [(f.kind, f.decision) for f in bot.faults] == [(FaultKind.ILLEGAL, 2)]
    (refusal,) = [m for m in log_of(log) if m["type"] == "refused"]
    assert "R-" in str(refusal["reason"])  # the rule it breaks
    assert bot.fallback_decisions == 0


def test_tries_run_out_and_the_fallback_decides(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    bot = program(faulty("--garbage", "4", "--log", str(log)), tries=1)
    assert play(bot).is_over
    assert [(f.kind, f.decision) for f in bot.faults] == [(FaultKind.GARBAGE, 4)]
    assert bot.fallback_decisions == 1
    (told,) = [m for m in log_of(log) if m["type"] == "fallback"]
    assert told["id"] == 4
    assert told["reason"] == "garbage"
    assert isinstance(told["action"], dict)


def test_a_late_reply_is_played_by_the_fallback_and_then_dropped(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    # It answers half a second after the deadline: the late answer is dropped, and it has the
    # whole limit less that half second for its next decision.
    bot = program(faulty("--late", "5", "--sleep", str(LIMIT + 0.5), "--log", str(log)))
    assert play(bot).is_over
    assert [(f.kind, f.decision) for f in bot.faults] == [(FaultKind.LATE, 5)]
    assert bot.fallback_decisions == 1
    assert not bot.dead
    assert bot.decisions == len(bot.think_times) + 1  # every other decision was its own
    assert any(m["type"] == "fallback" and m["reason"] == "late" for m in log_of(log))


def test_a_bot_that_dies_is_replaced_for_the_rest_of_the_game() -> None:
    bot = program(faulty("--crash", "7"))
    final = play(bot)
    assert final.is_over
    assert [(f.kind, f.decision) for f in bot.faults] == [(FaultKind.CRASHED, 7)]
    assert "exit status 3" in bot.faults[0].detail
    assert "crashing on purpose" in bot.faults[0].detail  # its last words, from stderr
    assert bot.dead
    assert bot.fallback_decisions == bot.decisions - 6


@pytest.mark.parametrize(
    ("options", "detail"),
    [
        (("--protocol", "deepsix-bot/0"), "speaks 'deepsix-bot/0'"),
        (("--silent",), "no ready in"),
    ],
)
def test_a_failed_handshake_leaves_the_game_to_the_fallback(
    options: tuple[str, ...], detail: str
) -> None:
    bot = program(faulty(*options), start_limit=1.0)
    assert play(bot).is_over
    assert [f.kind for f in bot.faults] == [FaultKind.HANDSHAKE]
    assert detail in bot.faults[0].detail
    assert bot.dead
    assert bot.fallback_decisions == bot.decisions


def test_a_program_that_cannot_start(tmp_path: Path) -> None:
    script = tmp_path / "notabot"
    script.write_text("#!/nonexistent/interpreter\n")
    script.chmod(0o755)
    bot = program(str(script))
    assert play(bot).is_over
    assert [f.kind for f in bot.faults] == [FaultKind.HANDSHAKE]
    assert "cannot start" in bot.faults[0].detail


def test_program_specs_are_bots_wherever_a_bot_name_is(tmp_path: Path) -> None:
    assert is_program("./mybot")
    assert is_program("exec:node bot.js")
    assert not is_program("heuristic")
    made = make_bot(python_bot(EXAMPLES / "minimal.py"))
    assert isinstance(made, ExternalBot)
    final = play_game([python_bot(EXAMPLES / "minimal.py"), "heuristic"] * 2, seed=3)
    assert final.is_over
    with pytest.raises(ParseError, match="does not exist"):
        make_bot("./no-such-bot")
    plain = tmp_path / "plain"
    plain.write_text("not a program")
    with pytest.raises(ParseError, match="not executable"):
        make_bot(str(plain))
    with pytest.raises(ParseError, match="no command"):
        program_command("exec:")
    with pytest.raises(WrongTypeError):
        ExternalBot("./mybot")  # a string, not a command list
    with pytest.raises(ParseError):
        ExternalBot(["x"], time_limit=0)


def test_play_game_stops_the_programs_it_started(tmp_path: Path) -> None:
    """A game started from specs ends its programs with the game: nothing is left running."""
    log = tmp_path / "log.jsonl"
    play_game([faulty("--log", str(log)), "heuristic"] * 2, seed=3)
    assert sum(1 for m in log_of(log) if m["type"] == "quit") == 2


def test_the_protocol_version_is_named_in_the_handshake(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    play(program(faulty("--log", str(log))))
    hello = log_of(log)[0]
    assert hello["type"] == "hello"
    assert hello["protocol"] == PROTOCOL
    assert hello["seat"] == "N"
    assert hello["time_limit"] == LIMIT
    decide = log_of(log)[1]
    assert decide["type"] == "decide"
    assert decide["legal"] == decide["view"]["legal_actions"]  # type: ignore[index]  # a dict


def test_a_flood_of_lines_costs_nothing_and_the_game_goes_on() -> None:
    # Twenty times the lines the referee reads ahead; the limit is generous because reading
    # them is not the point (on a loaded machine it takes seconds).
    bot = program(faulty("--flood", "20000"), time_limit=60.0)
    assert play(bot).is_over
    assert bot.faults == []


def test_what_a_program_leaves_behind_is_stopped_with_it(tmp_path: Path) -> None:
    """A program that starts a child (which keeps its output open): closing the bot ends the
    child too, at once."""
    import os
    import time

    log = tmp_path / "log.jsonl"
    bot = program(faulty("--child", "--log", str(log)))
    play(bot)
    child = int((tmp_path / "log.jsonl.child").read_text())
    deadline = time.monotonic() + 5
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.1)
    alive = _alive(child)
    if alive:
        os.kill(child, 9)  # the test's own child: do not leave it running
    assert not alive


def _alive(pid: int) -> bool:
    """Whether process ``pid`` is running (a zombie, reaped by nobody here, counts as gone)."""
    import os

    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/stat")
    return not (status.exists() and status.read_text().split()[2] == "Z")
