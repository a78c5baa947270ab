"""Duplicate matches: the same deals for both seatings, resumable, the same games on one core
or many, every game recorded; a program's faults stay in its own games."""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest

from deepsix import Deal, ParseError, read_record, replay
from deepsix.arena.match import (
    GameOutcome,
    MatchConfig,
    MatchError,
    MatchResult,
    play_deal,
    pool_markdown,
    report_markdown,
    run_match,
    run_pool,
)
from tests.arena.programs import faulty

CONFIG = MatchConfig(("heuristic", "random"), deals=3, seed=2026)


def games(result: MatchResult) -> list[tuple[object, ...]]:
    """Each game's deal, seating, seed, scores, winner and hands (its times left out)."""
    return [(o.deal, o.swapped, o.seed, o.scores, o.winner, o.hands) for o in result.outcomes]


def deals_of(record_text: str) -> list[Deal]:
    return [a for a in read_record(record_text).actions if isinstance(a, Deal)]


def test_both_games_of_a_deal_are_dealt_the_same_cards_with_the_seats_swapped() -> None:
    (first, first_text), (second, second_text) = play_deal(CONFIG, 0)
    assert (first.swapped, second.swapped) == (False, True)
    assert first.seed == second.seed == CONFIG.seed_of(0)
    shared = min(len(first.hands), len(second.hands))
    assert deals_of(first_text)[:shared] == deals_of(second_text)[:shared]
    assert read_record(first_text).tag("North") == "heuristic"
    assert read_record(second_text).tag("North") == "random"
    assert first.team_of(0) != second.team_of(0)


def test_a_match_writes_every_game_and_its_report(tmp_path: Path) -> None:
    result = run_match(CONFIG, tmp_path, workers=1)
    assert len(result.outcomes) == 6
    lines = (tmp_path / "games.jsonl").read_text().splitlines()
    assert len(lines) == 6
    for outcome in result.outcomes:
        final = replay(read_record((tmp_path / outcome.record).read_text()))
        assert final.scores == outcome.scores
        assert final.winner == outcome.winner
        assert len(final.completed_hands) == len(outcome.hands)
    assert GameOutcome.from_json(json.loads(lines[0])) == result.outcomes[0]
    report = report_markdown(result, command="deepsix match heuristic random --deals 3")
    summary = result.summary()
    assert f"| games won | {summary.wins[0]} | {summary.wins[1]} |" in report
    assert "95% Wilson interval" in report
    assert "Produced by `deepsix match heuristic random --deals 3`" in report


def test_one_core_or_two_play_the_same_games(tmp_path: Path) -> None:
    one = run_match(CONFIG, workers=1)
    two = run_match(CONFIG, workers=2)
    assert games(one) == games(two)


def test_a_stopped_match_resumes_where_it_stopped(tmp_path: Path) -> None:
    whole = run_match(CONFIG, workers=1)
    run_match(CONFIG, tmp_path, workers=1)
    saved = tmp_path / "games.jsonl"
    lines = saved.read_text().splitlines()
    # Stopped in the middle of the last deal: its first game saved, the second torn mid-line.
    saved.write_text("\n".join(lines[:5]) + "\n" + lines[5][:40])
    seen: list[tuple[int, int]] = []
    resumed = run_match(CONFIG, tmp_path, workers=1, progress=lambda d, t: seen.append((d, t)))
    assert resumed.resumed == 4  # two whole deals; the lone game is played again with its twin
    assert seen[0] == (4, 6)
    assert seen[-1] == (6, 6)
    assert games(resumed) == games(whole)


def test_a_directory_of_another_match_is_refused(tmp_path: Path) -> None:
    run_match(attrs.evolve(CONFIG, deals=1), tmp_path, workers=1)
    with pytest.raises(MatchError, match="holds another match"):
        run_match(attrs.evolve(CONFIG, deals=1, seed=1), tmp_path, workers=1)
    with pytest.raises(MatchError, match="holds a match already"):
        run_match(attrs.evolve(CONFIG, deals=1), tmp_path, workers=1, resume=False)


def test_seeds_registered_in_advance() -> None:
    config = attrs.evolve(CONFIG, deals=2, seeds=(11, 12))
    assert [config.seed_of(i) for i in range(2)] == [11, 12]
    with pytest.raises(ParseError, match="2 seeds registered for 3 deals"):
        attrs.evolve(CONFIG, seeds=(11, 12))


@pytest.mark.parametrize(
    "change",
    [
        {"sides": ("heuristic",)},
        {"sides": ("heuristic", "heuristic")},
        {"sides": ("heuristic", "nobot")},
        {"sides": ("heuristic", "./no-such-program")},
        {"deals": 0},
        {"time_limit": -1.0},
        {"fallback": "nobot"},
    ],
)
def test_bad_settings_are_refused(change: dict[str, object]) -> None:
    with pytest.raises(ParseError):
        attrs.evolve(CONFIG, **change)  # type: ignore[arg-type]  # the point


def test_a_programs_faults_stay_in_its_own_games(tmp_path: Path) -> None:
    """A program that crashes whenever it sits North: each such game is finished by the
    fallback and recorded; the games where it sat elsewhere, and its opponents, are clean."""
    config = MatchConfig((faulty("--crash", "3", "--seat", "N"), "heuristic"), deals=2, seed=5)
    result = run_match(config, tmp_path, workers=1)
    assert len(result.outcomes) == 4
    for outcome in result.outcomes:
        north = outcome.seats[0]
        if not outcome.swapped:  # the program sat North (and South)
            assert north.dead
            assert north.faults[0].startswith("crashed at decision 3")
            assert outcome.seats[2].faults == ()
        assert all(not log.faults for log in outcome.seats[1::2]) or outcome.swapped
        if outcome.swapped:
            assert all(not log.faults for log in outcome.seats)
        text = (tmp_path / outcome.record).read_text()
        replay(read_record(text))
        assert ("FaultsNorth" in text) == (not outcome.swapped)
    summary = result.summary()
    assert summary.sides[0].dead == 2
    assert summary.sides[1].faults == 0


def test_a_pool_is_rated(tmp_path: Path) -> None:
    config = MatchConfig(("heuristic", "random"), deals=2, seed=3)
    pool = run_pool(["random", "heuristic", faulty()], config, tmp_path, workers=1)
    assert len(pool.matches) == 3
    ratings = {rating.name: rating for rating in pool.ratings}
    assert ratings["random"].elo == 0.0
    assert ratings["heuristic"].elo > ratings["random"].elo
    assert ratings["heuristic"].low > 0  # it beat random in every game
    assert (tmp_path / "random-vs-heuristic" / "games.jsonl").exists()
    text = pool_markdown(pool)
    assert "| random | +0 | anchor |" in text
    assert text.count(" vs ") == 3


def test_a_dask_cluster_plays_the_same_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A program bot included: each Dask worker starts its own program for each game."""
    distributed = pytest.importorskip("distributed")
    monkeypatch.setenv("DASK_TEMPORARY_DIRECTORY", str(tmp_path))
    config = MatchConfig((faulty(), "random"), deals=2, seed=8)
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        remote = run_match(config, tmp_path / "dask", executor=client.get_executor())
    local = run_match(config, workers=1)
    assert games(remote) == games(local)
    assert len(list((tmp_path / "dask" / "games").glob("*.rec"))) == 4


def test_two_runs_never_share_a_directory(tmp_path: Path) -> None:
    from deepsix.arena.match import _Directory

    config = attrs.evolve(CONFIG, deals=1)
    holder = _Directory(tmp_path, config, resume=True)
    try:
        with pytest.raises(MatchError, match="another deepsix match is running"):
            run_match(config, tmp_path, workers=1)
    finally:
        holder.release()
    assert len(run_match(config, tmp_path, workers=1).outcomes) == 2


def test_ctrl_c_stops_a_match_cleanly(tmp_path: Path) -> None:
    """Interrupted, the command exits 130 saying how to resume; what it saved is whole pairs,
    and the directory is free for the run that resumes it."""
    import signal
    import subprocess
    import sys
    import time

    from deepsix.arena.match import _Directory

    out = tmp_path / "m"
    command = [sys.executable, "-m", "deepsix", "match", "heuristic", "random", "--deals", "400",
               "--seed", "3", "--out", str(out), "--workers", "2", "--no-progress"]  # fmt: skip
    running = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    games = out / "games.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and running.poll() is None:
        if games.exists() and len(games.read_text().splitlines()) >= 4:
            break
        time.sleep(0.2)
    running.send_signal(signal.SIGINT)
    _, errors = running.communicate(timeout=120)
    assert running.returncode == 130, errors
    assert "run the same command to resume" in errors
    config = MatchConfig(("heuristic", "random"), deals=400, seed=3)
    directory = _Directory(out, config, resume=True)  # not locked any more
    try:
        saved = directory.done()
    finally:
        directory.release()
    assert 4 <= len(saved) < 800
    assert len(saved) % 2 == 0


def _interrupt_while_playing(
    out: Path, bots: list[str], *, whole_group: bool, extra: tuple[str, ...] = ()
) -> tuple[float, int, str]:
    """Start ``deepsix match BOTS`` on two workers in a process group of its own, let its
    workers play for a few seconds, then Ctrl-C it (the whole group, as a terminal does, or
    the main process alone, as ``kill -INT`` does).  The seconds it took to exit after the
    signal, its exit status and its error output."""
    import os
    import signal
    import subprocess
    import sys
    import time

    command = [sys.executable, "-m", "deepsix", "match", *bots, "--deals", "4", "--seed", "5",
               "--out", str(out), "--workers", "2", "--no-progress", *extra]  # fmt: skip
    running = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and running.poll() is None and not out.exists():
        time.sleep(0.1)
    time.sleep(4.0)  # the workers start and are well into their first deals
    assert running.poll() is None, running.communicate()
    sent = time.monotonic()
    if whole_group:
        os.killpg(running.pid, signal.SIGINT)
    else:
        running.send_signal(signal.SIGINT)
    _, errors = running.communicate(timeout=180)
    return time.monotonic() - sent, running.returncode, errors


@pytest.mark.parametrize("whole_group", [True, False], ids=["terminal", "main-process"])
def test_ctrl_c_stops_search_bots_at_once(tmp_path: Path, whole_group: bool) -> None:
    """Search bots take a minute or more a deal: Ctrl-C stops their workers in the middle of
    a deal (it used to wait for every deal already handed to a worker, over 60 s), with exit
    130 and one line, and leaves the directory free and whole for the run that resumes."""
    from deepsix.arena.match import _Directory

    out = tmp_path / "m"
    took, status, errors = _interrupt_while_playing(
        out, ["search", "heuristic"], whole_group=whole_group
    )
    assert status == 130, errors
    assert errors.splitlines() == [
        f"deepsix: error: stopped: the finished deals are in {out}; run the same command to resume"
    ]
    assert took < 5.0, f"{took:.1f} s to stop"
    directory = _Directory(out, MatchConfig(("search", "heuristic"), deals=4, seed=5), resume=True)
    try:
        assert len(directory.done()) % 2 == 0  # whole deals only
    finally:
        directory.release()


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="finds the processes left in /proc")
def test_ctrl_c_stops_a_program_bot_that_does_not_answer(tmp_path: Path) -> None:
    """A program bot lost in thought when the match is interrupted is stopped with its
    children (its process group), not left running, and the match exits at once."""
    log = tmp_path / "bot.log"
    slow = faulty("--late", "1", "--sleep", "600", "--child", "--log", str(log))
    took, status, errors = _interrupt_while_playing(
        tmp_path / "m", [slow, "heuristic"], whole_group=False, extra=("--time-limit", "300")
    )
    assert status == 130, errors
    assert took < 8.0, f"{took:.1f} s to stop"
    child = int(Path(str(log) + ".child").read_text())
    alive = []  # the bot programs (their command names the test's directory) and a child
    for entry in Path("/proc").iterdir():
        try:
            words = (entry / "cmdline").read_bytes()
            state = (entry / "stat").read_text().rpartition(")")[2].split()[0]
        except (OSError, IndexError):
            continue
        if state != "Z" and (str(tmp_path).encode() in words or entry.name == str(child)):
            alive.append((entry.name, words))
    assert alive == []
