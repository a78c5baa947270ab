"""The statistics of a match: a mean with its interval, a win rate's, and a pool's ratings.

Pure Python (no numpy): a match has hundreds of games, a pool a handful of bots.

>>> low, high = wilson_interval(150, 200)
>>> round(low, 3), round(high, 3)
(0.686, 0.805)
>>> round(elo_difference(0.75), 1)
190.8
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist
from typing import Final

import attrs

from deepsix.errors import ParseError
from deepsix.play.simulate import wilson_interval

__all__ = [
    "Estimate",
    "Rating",
    "clustered_mean",
    "elo_difference",
    "pool_ratings",
    "student_t",
    "t_coverage",
    "t_quantile",
    "wilson_interval",
]

Z95: Final = 1.959964
"""The two-sided 95% quantile of the normal distribution."""


@attrs.frozen
class Estimate:
    """A mean and its 95% confidence interval."""

    mean: float
    """The estimate."""
    low: float
    """The interval's lower end."""
    high: float
    """The interval's upper end."""
    count: int
    """How many observations it rests on."""
    clusters: int
    """How many independent groups they came in (deal pairs)."""

    @property
    def half_width(self) -> float:
        """Half the interval's width (the ``±`` figure)."""
        return (self.high - self.low) / 2


def t_coverage(t: float, freedom: int) -> float:
    """``P(|T| <= t)`` for Student's t with ``freedom`` (a whole number >= 1) degrees of freedom.

    Exact: the finite series in ``θ = atan(t / sqrt(freedom))`` of Abramowitz and Stegun
    26.7.3-4, one term per two degrees of freedom, summed from the smallest term up.

    >>> round(t_coverage(12.706204736, 1), 6), round(t_coverage(2.228138852, 10), 6)
    (0.95, 0.95)
    """
    if freedom < 1:
        raise ParseError(f"Student's t needs at least 1 degree of freedom, not {freedom}")
    if t <= 0.0:
        return 0.0
    if math.isinf(t):
        return 1.0
    theta = math.atan(t / math.sqrt(freedom))
    cos2 = math.cos(theta) ** 2
    # The series' terms, each the last times cos^2 and a ratio of odd and even numbers.
    start, first = (2, 1.0) if freedom % 2 == 0 else (3, 1.0)
    terms = [first] if freedom > 2 or freedom % 2 == 0 else []
    for k in range(start, freedom - 1, 2):
        terms.append(terms[-1] * cos2 * (k - 1) / k)
    total = math.fsum(reversed(terms))
    if freedom % 2 == 0:
        return math.sin(theta) * total
    if freedom == 1:
        return 2.0 * theta / math.pi
    return 2.0 / math.pi * (theta + math.sin(theta) * math.cos(theta) * total)


def t_quantile(probability: float, freedom: int) -> float:
    """The quantile of Student's t: the ``t`` with ``P(T <= t) = probability`` (0 < p < 1).

    Exact to about 1e-12 (Newton's method on :func:`t_coverage`, kept inside a bracket);
    beyond 5,000 degrees of freedom the Cornish-Fisher series, whose error there is below
    1e-12 (out to the 0.99995 quantile).

    >>> round(t_quantile(0.975, 1), 3), round(t_quantile(0.995, 30), 3)
    (12.706, 2.75)
    """
    if not 0.0 < probability < 1.0:
        raise ParseError(f"a quantile's probability must be between 0 and 1, not {probability}")
    if freedom < 1:
        raise ParseError(f"Student's t needs at least 1 degree of freedom, not {freedom}")
    if probability < 0.5:
        return -t_quantile(1.0 - probability, freedom)
    if probability == 0.5:
        return 0.0
    z = _normal_quantile(probability)
    guess = _cornish_fisher(z, freedom)
    if freedom > 5_000:
        return guess
    target = 2.0 * probability - 1.0  # P(|T| <= t)
    low, high = 0.0, max(guess, 1.0)
    while t_coverage(high, freedom) < target:
        low, high = high, 2.0 * high
    t = min(max(guess, low), high)
    v = float(freedom)
    log_scale = (
        math.lgamma((v + 1) / 2) - math.lgamma(v / 2) - 0.5 * math.log(v * math.pi) + math.log(2)
    )
    for _ in range(200):
        gap = t_coverage(t, freedom) - target
        if gap > 0:
            high = t
        else:
            low = t
        density = math.exp(log_scale - (v + 1) / 2 * math.log1p(t * t / v))  # of |T|
        step = t - gap / density if density > 0 else (low + high) / 2
        if not low < step < high:
            step = (low + high) / 2  # Newton left the bracket: bisect
        if abs(step - t) <= 1e-13 * max(1.0, t):
            return step
        t = step
    return t


def student_t(z: float, freedom: int) -> float:
    """The Student-t quantile at the probability of the normal quantile ``z``, at
    ``freedom`` degrees of freedom: ``student_t(Z95, m - 1)`` widens a 95% interval of
    ``m`` clusters.  Infinite below 1 degree of freedom.

    >>> round(student_t(Z95, 10), 3), round(student_t(Z95, 1), 3)
    (2.228, 12.706)
    """
    if freedom < 1:
        return math.inf
    return t_quantile(0.5 * (1.0 + math.erf(z / math.sqrt(2.0))), freedom)


def _cornish_fisher(z: float, freedom: int) -> float:
    """An approximate t quantile from the normal one (good for many degrees of freedom)."""
    v = float(freedom)
    z3, z5, z7 = z**3, z**5, z**7
    return (
        z
        + (z3 + z) / (4 * v)
        + (5 * z5 + 16 * z3 + 3 * z) / (96 * v * v)
        + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * v**3)
    )


def _normal_quantile(probability: float) -> float:
    """The standard normal quantile (statistics.NormalDist's, exact to double precision)."""
    return NormalDist().inv_cdf(probability)


def clustered_mean(clusters: Sequence[tuple[float, int]]) -> Estimate:
    """The mean per observation of ``(sum, count)`` clusters, with a cluster-robust 95% interval.

    Observations in one cluster (the hands of one pair of duplicate games)
    need not be independent; the clusters must be.  The variance is the
    ratio estimator's, ``m/(m-1) * sum((s_i - mean*n_i)^2) / N^2``, and the
    interval uses Student's t with ``m - 1`` degrees of freedom.

    >>> clustered_mean([(10.0, 2), (-2.0, 2), (4.0, 2)]).mean
    2.0
    """
    used = [(total, count) for total, count in clusters if count > 0]
    m = len(used)
    n = sum(count for _, count in used)
    if n == 0:
        return Estimate(0.0, -math.inf, math.inf, 0, 0)
    mean = sum(total for total, _ in used) / n
    if m < 2:
        return Estimate(mean, -math.inf, math.inf, n, m)
    residual = sum((total - mean * count) ** 2 for total, count in used)
    error = math.sqrt(m / (m - 1) * residual) / n
    half = student_t(Z95, m - 1) * error
    return Estimate(mean, mean - half, mean + half, n, m)


def elo_difference(score: float) -> float:
    """The Elo difference that predicts ``score`` (a share of wins, 0 to 1; infinite at 0 or 1)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return 400.0 * math.log10(score / (1.0 - score))


@attrs.frozen
class Rating:
    """One bot's rating in a pool."""

    name: str
    """The bot."""
    elo: float
    """Its rating, on the Elo scale (400 points: 10 to 1 odds), the anchor at 0."""
    low: float
    """The 95% interval's lower end (relative to the anchor)."""
    high: float
    """The 95% interval's upper end."""
    games: int
    """Games it played (unfinished games aside)."""
    score: float
    """Its share of wins in them."""


def pool_ratings(  # one fit, written out
    names: Sequence[str],
    results: Sequence[tuple[int, int, float]],
    *,
    anchor: str | None = None,
    prior_games: float = 2.0,
) -> tuple[Rating, ...]:
    """Bradley-Terry ratings of a pool on the Elo scale, by maximum likelihood.

    ``results`` are ``(i, j, score)`` per game: bot ``i`` against bot ``j``,
    ``score`` 1 if ``i`` won, 0 if ``j`` won, 0.5 for a draw.  Each bot also
    gets ``prior_games`` virtual games, drawn, against a virtual bot of
    rating 0: that keeps a bot that won (or lost) every game at a finite
    rating, and barely moves the others.  Ratings are shifted so that
    ``anchor`` (default: the first name) is 0; the intervals, from the
    likelihood's curvature, are of each bot's difference from the anchor.
    """
    count = len(names)
    if count < 2:
        raise ParseError(f"a pool needs at least two bots, not {count}")
    if len(set(names)) != count:
        raise ParseError(f"the bots of a pool must have different names: {list(names)}")
    base = names.index(anchor) if anchor is not None and anchor in names else 0
    scale = math.log(10) / 400.0
    ratings = [0.0] * count  # natural units: the win chance of i over j is 1/(1+exp(rj-ri))
    games = [0] * count
    wins = [0.0] * count
    for i, j, score in results:
        games[i] += 1
        games[j] += 1
        wins[i] += score
        wins[j] += 1.0 - score
    for _ in range(200):  # Newton's method on the log-likelihood
        gradient = [0.0] * count
        hessian = [[0.0] * count for _ in range(count)]
        for i, j, score in results:
            p = 1.0 / (1.0 + math.exp(ratings[j] - ratings[i]))
            gradient[i] += score - p
            gradient[j] -= score - p
            w = p * (1 - p)
            hessian[i][i] -= w
            hessian[j][j] -= w
            hessian[i][j] += w
            hessian[j][i] += w
        for i in range(count):
            p = 1.0 / (1.0 + math.exp(-ratings[i]))
            gradient[i] += prior_games * (0.5 - p)
            hessian[i][i] -= prior_games * p * (1 - p)
        step = _solve([[-value for value in row] for row in hessian], gradient)
        ratings = [r + s for r, s in zip(ratings, step, strict=True)]
        if max(abs(s) for s in step) < 1e-10:
            break
    covariance = _inverse([[-value for value in row] for row in hessian])
    out = []
    for i, name in enumerate(names):
        diff = (ratings[i] - ratings[base]) / scale
        var = covariance[i][i] + covariance[base][base] - 2 * covariance[i][base]
        half = Z95 * math.sqrt(max(0.0, var)) / scale
        out.append(
            Rating(
                name=name,
                elo=diff,
                low=diff - half,
                high=diff + half,
                games=games[i],
                score=wins[i] / games[i] if games[i] else 0.0,
            )
        )
    return tuple(out)


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``x`` with ``matrix @ x == vector`` (Gauss-Jordan; the matrix is small and definite)."""
    size = len(vector)
    rows = [[*row, value] for row, value in zip(matrix, vector, strict=True)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [value / lead for value in rows[col]]
        for r in range(size):
            if r != col and rows[r][col]:
                factor = rows[r][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    return [row[size] for row in rows]


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    size = len(matrix)
    columns = [_solve(matrix, [1.0 if r == c else 0.0 for r in range(size)]) for c in range(size)]
    return [[columns[c][r] for c in range(size)] for r in range(size)]
