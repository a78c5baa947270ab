"""Refit the heuristic bot's auction forecast on self-play (how its defaults were chosen).

Plays seeded games of four ``HeuristicBot``s and, for every hand, records
the bid winner's dealt hand -- its best meld and static danger with the
suit it sank -- and the partnership's net for the hand.  Then it fits
``net = intercept + meld_weight * meld + danger_weight * danger`` by least
squares and prints the coefficients, the residual standard deviation
(the bot's ``sigma``) and how often the bids were made.  Run it again
after changing the bot's play: the forecast describes the bot's own play.

    python benchmarks/calibrate_heuristic.py [--games 150] [--seed 0]
"""

from __future__ import annotations

import argparse
import math
import sys

from deepsix import Action, Deal, GameState
from deepsix.play.heuristic import HeuristicBot
from deepsix.play.loop import play_game


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Solve a small linear system by Gaussian elimination with partial pivoting."""
    n = len(vector)
    rows = [[*row, value] for row, value in zip(matrix, vector, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(n):
            if r != col:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    return [rows[i][n] / rows[i][i] for i in range(n)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    bot = HeuristicBot()
    samples: list[tuple[float, float, float]] = []
    made = 0
    deal: list[Deal] = []

    def record(before: GameState, action: Action, after: GameState) -> None:
        nonlocal made
        if isinstance(action, Deal):
            deal[:] = [action]
        if len(after.completed_hands) > len(before.completed_hands):
            hand = after.completed_hands[-1]
            cards = deal[0].hand(hand.bidder)
            estimate = bot.estimate(cards, after.rules)  # the bidder sank estimate.sunk_suit
            net = float(hand.net[hand.bidder.team])
            samples.append((float(estimate.meld), estimate.danger, net))
            made += hand.made

    for game in range(args.games):
        play_game([bot] * 4, args.seed + game, on_action=record)
    features = [(1.0, meld, danger) for meld, danger, _ in samples]
    nets = [net for _, _, net in samples]
    normal = [[sum(f[i] * f[j] for f in features) for j in range(3)] for i in range(3)]
    rhs = [sum(f[i] * y for f, y in zip(features, nets, strict=True)) for i in range(3)]
    intercept, meld_weight, danger_weight = solve(normal, rhs)
    residuals = [
        y - (intercept + meld_weight * f[1] + danger_weight * f[2])
        for f, y in zip(features, nets, strict=True)
    ]
    sigma = math.sqrt(sum(r * r for r in residuals) / max(1, len(residuals) - 3))
    print(f"{len(samples)} hands from {args.games} games; bids made {made / len(samples):.1%}")
    print(f"net = {intercept:.1f} + {meld_weight:.3f} * meld + {danger_weight:.3f} * danger")
    print(f"residual standard deviation (sigma): {sigma:.1f}")
    print(
        f"current defaults: net_intercept={bot.net_intercept}, meld_weight={bot.meld_weight}, "
        f"danger_weight={bot.danger_weight}, sigma={bot.sigma}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
