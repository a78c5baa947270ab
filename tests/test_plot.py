"""Plots (issue 41 item 3): one call each draws a game's scores, a match's per-deal
differences with its interval, a pool's ratings and an analysis's decision costs; ``deepsix
match --plot FILE`` writes the match's."""

from __future__ import annotations

from pathlib import Path

import pytest

from deepsix import play_game, record_of
from deepsix.arena.match import MatchConfig, run_match, run_pool
from deepsix.cli import main
from deepsix.search.analysis import AnalysisBudget, analyze_game

pytest.importorskip("matplotlib")

from deepsix import plot  # after the skip: it needs matplotlib


def test_a_games_scores_are_one_line_per_team() -> None:
    game = play_game(["heuristic"] * 4, 3)
    figure = plot.score_progression(record_of(game))
    (axes,) = figure.axes
    lines = {line.get_label(): line for line in axes.get_lines()}
    ns = lines["North–South"].get_ydata()
    assert list(ns) == [0, *(record.totals[0] for record in game.completed_hands)]
    assert list(lines["East–West"].get_ydata())[-1] == game.scores[1]


def test_a_match_pool_and_analysis_plot(tmp_path: Path) -> None:
    result = run_match(MatchConfig(("heuristic", "random"), deals=2), tmp_path / "m", workers=1)
    figure = plot.match_differences(result)
    (axes,) = figure.axes
    summary = result.summary()
    assert [bar.get_height() for bar in axes.patches[: len(summary.per_deal)]] == [
        value for _, value in summary.per_deal
    ]
    assert len(summary.per_deal) == 2
    mean_line = next(line for line in axes.get_lines() if line.get_label().startswith("mean"))
    assert list(mean_line.get_ydata()) == [summary.difference.mean] * 2
    config = MatchConfig(("heuristic", "random"), deals=1)
    pool = run_pool(["random", "heuristic"], config, tmp_path / "p", workers=1)
    rated = plot.pool_ratings(pool)
    labels = [tick.get_text() for tick in rated.axes[0].get_yticklabels()]
    assert labels == [rating.name for rating in pool.ratings]
    game = play_game(["heuristic"] * 4, 5, max_hands=1)
    analysis = analyze_game(game, budget=AnalysisBudget(worlds=1, exact_tricks=5, max_candidates=2))
    costs = plot.decision_costs(analysis)
    decisions = [d for hand in analysis.hands for d in hand.decisions]
    bars = costs.axes[0].patches
    assert [bar.get_height() for bar in bars] == [d.cost for d in decisions]
    # exact costs and estimates are told apart, and only estimates carry a whisker
    exact = {bar.get_facecolor() for bar, d in zip(bars, decisions, strict=True) if d.worlds == 0}
    guessed = {bar.get_facecolor() for bar, d in zip(bars, decisions, strict=True) if d.worlds}
    assert exact
    assert guessed
    assert exact.isdisjoint(guessed)
    (whiskers,) = costs.axes[0].collections
    tops = sorted(segment[1][1] for segment in whiskers.get_segments())
    assert tops == sorted(d.cost + 2 * d.margin for d in decisions if d.worlds)
    legend = [text.get_text() for text in costs.axes[0].get_legend().get_texts()]
    assert legend == ["exact", "estimate (whisker: 2 standard errors)"]


def test_match_writes_its_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    picture = tmp_path / "match.png"
    argv = ["match", "heuristic", "random", "--deals", "1", "--out", str(tmp_path / "m")]
    assert main([*argv, "--workers", "1", "--no-progress", "--plot", str(picture)]) == 0
    assert picture.read_bytes().startswith(b"\x89PNG")
    assert f"Wrote {picture}" in capsys.readouterr().out


def test_replay_and_analyze_write_their_plots(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from deepsix.io.record import write_record

    game = play_game(["heuristic"] * 4, 5, max_hands=1)
    saved = tmp_path / "game.rec"
    saved.write_text(write_record(record_of(game)), encoding="utf-8")
    scores = tmp_path / "scores.png"
    assert main(["replay", str(saved), "--hide-hands", "--plot", str(scores)]) == 0
    assert scores.read_bytes().startswith(b"\x89PNG")
    costs = tmp_path / "costs.svg"
    argv = ["analyze", str(saved), "--budget", "quick", "--no-progress", "--plot", str(costs)]
    assert main(argv) == 0
    assert costs.read_text(encoding="utf-8").lstrip().startswith(("<?xml", "<svg"))
    out = capsys.readouterr().out
    assert f"Wrote {scores}" in out
    assert f"Wrote {costs}" in out
