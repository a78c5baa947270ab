"""The match's statistics against values worked out by hand."""

from __future__ import annotations

import math
import random

import pytest

from deepsix import ParseError
from deepsix.arena.stats import (
    Z95,
    clustered_mean,
    elo_difference,
    pool_ratings,
    student_t,
    t_coverage,
    t_quantile,
)


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


# Student's t quantiles for 0.975 and 0.995, as printed in the NIST/SEMATECH e-Handbook of
# Statistical Methods, section 1.3.6.7.2 ("Critical values of the Student's t distribution").
T_TABLE = {
    1: (12.706, 63.657), 2: (4.303, 9.925), 3: (3.182, 5.841), 4: (2.776, 4.604),
    5: (2.571, 4.032), 6: (2.447, 3.707), 7: (2.365, 3.499), 8: (2.306, 3.355),
    9: (2.262, 3.250), 10: (2.228, 3.169), 11: (2.201, 3.106), 12: (2.179, 3.055),
    13: (2.160, 3.012), 14: (2.145, 2.977), 15: (2.131, 2.947), 16: (2.120, 2.921),
    17: (2.110, 2.898), 18: (2.101, 2.878), 19: (2.093, 2.861), 20: (2.086, 2.845),
    21: (2.080, 2.831), 22: (2.074, 2.819), 23: (2.069, 2.807), 24: (2.064, 2.797),
    25: (2.060, 2.787), 26: (2.056, 2.779), 27: (2.052, 2.771), 28: (2.048, 2.763),
    29: (2.045, 2.756), 30: (2.042, 2.750), 40: (2.021, 2.704), 60: (2.000, 2.660),
    120: (1.980, 2.617),
}  # fmt: skip


@pytest.mark.parametrize("freedom", sorted(T_TABLE))
def test_t_quantiles_are_the_published_ones(freedom: int) -> None:
    """The quantiles match the table to its three decimals, at 1 and 2 degrees of freedom too
    (the old Cornish-Fisher series gave 9.711 for 12.706 at one)."""
    at_975, at_995 = T_TABLE[freedom]
    assert round(t_quantile(0.975, freedom), 3) == at_975
    assert round(t_quantile(0.995, freedom), 3) == at_995
    assert round(student_t(Z95, freedom), 3) == at_975
    assert t_quantile(0.025, freedom) == -t_quantile(0.975, freedom)
    assert t_coverage(t_quantile(0.975, freedom), freedom) == pytest.approx(0.95, abs=1e-12)


def test_t_quantiles_far_out_and_at_many_degrees_of_freedom() -> None:
    """Closed forms at 1 and 2 degrees of freedom; the normal's quantile in the limit; one
    value on each side of the switch to the series at 5,000."""
    for p in (0.6, 0.9, 0.999, 0.99995):
        assert t_quantile(p, 1) == pytest.approx(math.tan(math.pi * (p - 0.5)), rel=1e-11)
        assert t_quantile(p, 2) == pytest.approx(
            (2 * p - 1) / math.sqrt(2 * p * (1 - p)), rel=1e-11
        )
    assert t_quantile(0.975, 5_000) == pytest.approx(t_quantile(0.975, 5_001), rel=1e-6)
    assert t_quantile(0.975, 10**9) == pytest.approx(1.959963984540054, abs=1e-8)  # the normal
    assert t_quantile(0.5, 7) == 0.0
    assert student_t(Z95, 0) == math.inf


@pytest.mark.parametrize(("probability", "freedom"), [(0.0, 3), (1.0, 3), (1.5, 3), (0.9, 0)])
def test_t_quantiles_refuse_what_has_none(probability: float, freedom: int) -> None:
    with pytest.raises(ParseError):
        t_quantile(probability, freedom)


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
