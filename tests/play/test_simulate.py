"""The simulator: seeded, identical whatever runs it, and summarised correctly."""

from __future__ import annotations

import concurrent.futures
import csv
import json
from pathlib import Path

import pytest

from deepsix import MeldKind, ParseError, Seat, Team
from deepsix.play.bots import RandomBot
from deepsix.play.heuristic import HeuristicBot
from deepsix.play.loop import play_game
from deepsix.play.simulate import (
    SimulationResult,
    game_seed,
    play_one,
    simulate,
    wilson_interval,
    write_csv,
    write_jsonl,
)

LINEUP = ("heuristic", "random")


@pytest.fixture(scope="module")
def serial() -> SimulationResult:
    """Twelve games in this process: the reference every other run must match."""
    return simulate(12, LINEUP, seed=99, workers=1)


def test_one_process_and_two_processes_give_identical_results(serial: SimulationResult) -> None:
    pooled = simulate(12, LINEUP, seed=99, workers=2, chunk_size=2)
    assert pooled.workers == 2
    assert pooled == serial
    assert [game.index for game in pooled.games] == list(range(12))


def test_any_executor_gives_identical_results(serial: SimulationResult) -> None:
    with concurrent.futures.ThreadPoolExecutor(3) as executor:
        threaded = simulate(12, LINEUP, seed=99, executor=executor, chunk_size=5)
    assert threaded == serial


def test_a_dask_local_cluster_gives_identical_results(
    serial: SimulationResult, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    distributed = pytest.importorskip("distributed")
    monkeypatch.setenv("DASK_TEMPORARY_DIRECTORY", str(tmp_path))
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        result = simulate(12, LINEUP, seed=99, executor=client.get_executor(), workers=2)
    assert result == serial


def test_games_are_seeded_from_the_master_seed_and_index(serial: SimulationResult) -> None:
    other = simulate(4, LINEUP, seed=100, workers=1)
    assert other.games != serial.games[:4]
    assert game_seed(99, 3) == game_seed(99, 3) != game_seed(99, 4)
    # Paired games share their deals; the second swaps the sides' seats.
    first, second = serial.games[0], serial.games[1]
    assert first.seed == second.seed
    assert not first.swapped
    assert second.swapped
    assert first.seats == ("heuristic", "random", "heuristic", "random")
    assert second.seats == ("random", "heuristic", "random", "heuristic")
    again = play_game(list(first.seats), first.seed)
    assert again.scores == first.scores
    assert again.winner == first.winner


def test_results_describe_the_games(serial: SimulationResult) -> None:
    for game in serial.games:
        assert game.winner is not None
        assert game.hands
        assert game.hands[-1].totals == game.scores
        assert max(game.scores) >= 500
        for hand in game.hands:
            assert sum(hand.card_points) == 250
            assert len(hand.melds) == 4
    replayed = play_one(list(serial.lineup), 99, 5)
    assert replayed == serial.games[5]


def test_summary_counts_wins_bids_and_melds(serial: SimulationResult) -> None:
    summary = serial.summary()
    heuristic, random_side = summary.sides
    assert summary.games == 12
    assert summary.unfinished == 0
    assert heuristic.wins + random_side.wins == 12
    assert heuristic.wins == sum(1 for game in serial.games if game.winner == game.team_of(0))
    assert heuristic.label == "heuristic+heuristic"
    assert heuristic.win_interval[0] <= heuristic.win_rate <= heuristic.win_interval[1]
    hands = [hand for game in serial.games for hand in game.hands]
    assert summary.hands == len(hands)
    assert heuristic.bids_won + random_side.bids_won == len(hands)
    declared = sum(len(melds) for hand in hands for melds in hand.melds)
    assert sum(count for _, count in summary.meld_counts) == declared
    assert summary.meld_rate(MeldKind.DEEP_ECHO) >= 0
    assert summary.mean_actions > 50


def test_heuristic_pair_beats_the_random_pair(serial: SimulationResult) -> None:
    assert serial.summary().sides[0].wins >= 11


def test_identical_sides_split_paired_games_evenly() -> None:
    result = simulate(4, ("heuristic", "heuristic"), seed=3, workers=1)
    a, b = result.summary().sides
    assert a.label.endswith("(A)")
    assert b.label.endswith("(B)")
    assert a.wins == b.wins == 2  # deterministic bots, same deals, seats swapped


def test_bot_instances_and_four_seat_lineups_are_accepted() -> None:
    result = simulate(2, (HeuristicBot(), RandomBot(), "heuristic", "random"), seed=1, workers=1)
    assert result.lineup == ("heuristic", "random", "heuristic", "random")


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ParseError, match="unknown bot"):
        simulate(2, ("heuristic", "genius"), workers=1)
    with pytest.raises(ValueError, match="line-up"):
        simulate(2, ("heuristic", "random", "random"), workers=1)
    with pytest.raises(TypeError):
        simulate(2, "heuristic", workers=1)
    with pytest.raises(ValueError, match="n_games"):
        simulate(-1, LINEUP, workers=1)
    with pytest.raises(ValueError, match="workers"):
        simulate(2, LINEUP, workers=0)


def test_progress_is_reported() -> None:
    seen: list[tuple[int, int]] = []
    simulate(3, LINEUP, seed=2, workers=1, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 3), (2, 3), (3, 3)]


def test_per_hand_rows_as_csv_and_json_lines(serial: SimulationResult, tmp_path: Path) -> None:
    hands = sum(len(game.hands) for game in serial.games)
    assert write_csv(serial, tmp_path / "hands.csv") == hands
    with (tmp_path / "hands.csv").open(encoding="utf-8") as source:
        rows = list(csv.DictReader(source))
    assert len(rows) == hands
    first = serial.games[0].hands[0]
    assert rows[0]["bid"] == str(first.bid)
    assert rows[0]["bidder"] == str(first.bidder)
    assert int(rows[0]["points_ns"]) + int(rows[0]["points_ew"]) == 250
    assert write_jsonl(serial, tmp_path / "hands.jsonl") == hands
    lines = (tmp_path / "hands.jsonl").read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[0])
    assert record["game"] == 0
    assert record["hand"] == 1
    assert isinstance(record["melds_n"], list)
    assert record["side_ns"] == "heuristic+heuristic"
    assert json.loads(lines[-1])["game"] == 11


def test_wilson_interval() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4)
    assert high == pytest.approx(0.5962, abs=1e-4)
    assert wilson_interval(10, 10)[1] == 1.0
    assert wilson_interval(0, 10)[0] == 0.0


def test_game_results_map_sides_to_teams(serial: SimulationResult) -> None:
    swapped = serial.games[1]
    assert swapped.team_of(0) is Team.EAST_WEST
    assert swapped.side_of(Team.EAST_WEST) == 0
    assert swapped.seats[Seat.EAST] == "heuristic"


def test_ctrl_c_stops_a_simulation_of_search_bots_at_once() -> None:
    """A chunk of search-bot games takes half a minute or more: Ctrl-C (the terminal's, to the
    whole process group) stops the workers in the middle of it, exit 130 and one line; it
    used to wait for every chunk handed to a worker (33 s measured)."""
    import os
    import signal
    import subprocess
    import sys
    import time

    command = [sys.executable, "-m", "deepsix", "simulate", "-n", "8", "--bots", "search",
               "heuristic", "--workers", "2", "--no-progress"]  # fmt: skip
    running = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    time.sleep(6.0)  # the workers start and are well into their first chunks
    assert running.poll() is None, running.communicate()
    sent = time.monotonic()
    os.killpg(running.pid, signal.SIGINT)
    _, errors = running.communicate(timeout=180)
    took = time.monotonic() - sent
    assert running.returncode == 130, errors
    assert errors.splitlines() == ["deepsix: error: interrupted"]
    assert took < 5.0, f"{took:.1f} s to stop"
