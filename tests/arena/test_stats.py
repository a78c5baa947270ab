"""The match's statistics against values worked out by hand."""

from __future__ import annotations

import math
import random

import pytest

from deepsix import ParseError
from deepsix.arena.stats import Z95, clustered_mean, elo_difference, pool_ratings, student_t


def test_the_clustered_mean_and_its_interval() -> None:
    estimate = clustered_mean([(10.0, 2), (-2.0, 2), (4.0, 2)])
    assert estimate.mean == 2.0
    # residuals 6, -6, 0 -> var = 3/2 * 72 / 36 = 3; se = sqrt(3)... over N: sqrt(108)/6
    error = math.sqrt(3 / 2 * 72) / 6
    assert estimate.half_width == pytest.approx(student_t(Z95, 2) * error)
    assert (estimate.count, estimate.clusters) == (6, 3)
    assert math.isinf(clustered_mean([(5.0, 3)]).low)
    assert clustered_mean([]).count == 0


def test_the_interval_covers_the_true_mean_about_95_times_in_100() -> None:
    rng = random.Random(1)
    covered = 0
    for _ in range(400):
        clusters = []
        for _ in range(30):
            n = rng.randint(1, 4)
            shared = rng.gauss(0, 1)  # hands of one deal are alike
            clusters.append((sum(shared + rng.gauss(0, 1) for _ in range(n)), n))
        estimate = clustered_mean(clusters)
        covered += estimate.low <= 0 <= estimate.high
    assert 360 <= covered <= 396


def test_student_t_quantiles() -> None:
    for freedom, exact in [(5, 2.5706), (10, 2.2281), (30, 2.0423), (200, 1.9719)]:
        assert student_t(Z95, freedom) == pytest.approx(exact, abs=0.003)


def test_elo_differences() -> None:
    assert elo_difference(0.5) == 0.0
    assert elo_difference(10 / 11) == pytest.approx(400.0)
    assert elo_difference(1.0) == math.inf
    assert elo_difference(0.0) == -math.inf


def test_pool_ratings() -> None:
    names = ["a", "b", "c"]
    even = [(0, 1, 1.0), (0, 1, 0.0), (1, 2, 1.0), (1, 2, 0.0), (0, 2, 0.5)]
    ratings = {r.name: r for r in pool_ratings(names, even)}
    assert ratings["a"].elo == 0.0
    assert ratings["b"].elo == pytest.approx(0.0, abs=1e-6)
    assert ratings["c"].elo == pytest.approx(0.0, abs=1e-6)
    # b beats a 10 games to 1: about 400 Elo above it (pulled in a little by the prior).
    lopsided = [(1, 0, 1.0)] * 100 + [(1, 0, 0.0)] * 10
    _, b = pool_ratings(["a", "b"], lopsided, anchor="a")
    assert 330 < b.elo < 400
    assert b.low < b.elo < b.high
    # A clean sweep stays finite.
    _, b = pool_ratings(["a", "b"], [(1, 0, 1.0)] * 50)
    assert math.isfinite(b.elo)
    assert b.elo > 400
    with pytest.raises(ParseError):
        pool_ratings(["a"], [])
    with pytest.raises(ParseError):
        pool_ratings(["a", "a"], [])
