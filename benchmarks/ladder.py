"""The bots' ladder (issue 26): adjacent rungs in duplicate, on seeds registered here in advance.

Not a unit test.  Each rung is played against the one below it with the
arena (:func:`deepsix.arena.run_match`): duplicate *hands* -- every seeded
deal played twice, the sides' seats swapped, one hand each
(``max_hands=1``) -- so the luck of the cards cancels, and the difference
per hand (side A's recorded points minus side B's; negative: A is better)
comes with a 95% interval clustered by deal.  The cheap rungs also play
whole games (``max_hands`` at its default) for win rates with Wilson
intervals.

The rungs, bottom to top::

    random < heuristic < search-endgame < search-quick < search-deep

``search-endgame`` is the search bot as issue 11 left it (``SearchBot.endgame()``:
only the last seven tricks searched); ``search-quick`` and ``search-deep`` search
every phase (``SearchBot.quick()``, ``SearchBot.deep()``).  The external rung is
OpenSpiel's own IS-MCTS (``open_spiel.python.algorithms.ismcts``, its
``RandomRolloutEvaluator``-style interface) driven through the project's adapter
(:mod:`deepsix.adapters.openspiel`): it plays the cards, at
:data:`ISMCTS_SIMULATIONS` simulations a decision, each simulation a world
resampled from its information state (``resample_from_infostate``) and evaluated
by a play-out of the heuristic bot; every other phase is the heuristic's, since
vanilla IS-MCTS bids at random.  It is matched against the heuristic.

The seeds are :data:`LADDER_SEED` (deal ``i`` of every pair is
``game_seed(LADDER_SEED, i)``: every pair plays the same deals) and the
numbers of deals are :data:`PAIRS`, both fixed before the report run.  Each
pair's games are written to ``--out/<pair>`` as they finish, so an
interrupted run resumes.

    python benchmarks/ladder.py --out ladder-run              # the report (compiled build)
    python benchmarks/ladder.py --out /tmp/x --scale 0.1      # a smoke run, a tenth of it
    python benchmarks/ladder.py --out ladder-run --report     # the table of the games so far

``--from K`` plays a pair's registered deals from deal ``K`` on, in a directory of
its own (``<pair>-from-K``), so that a second process can share a slow pair;
``--report`` merges the parts (a run stopped at a deadline reports the deals it
finished, which the table counts); ``--to K`` stops before deal ``K``.

``--recheck`` plays (or reports) :data:`RECHECK_PAIRS` on :data:`RECHECK_SEED`
instead, the re-measurement of the figures the README quotes; its report gives the
first run, the confirmation and their union on rows of their own::

    python benchmarks/ladder.py --out recheck --recheck --to 200 --workers 2
    python benchmarks/ladder.py --out recheck --recheck --from 200 --workers 2
    python benchmarks/ladder.py --out recheck --recheck --report
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

import attrs

import deepsix.compiled
from deepsix import Action, HeuristicBot, PlayerView, apply
from deepsix.arena.match import GameOutcome, MatchConfig, MatchResult, MatchSummary, run_match
from deepsix.play.bots import register_bot
from deepsix.play.simulate import game_seed
from deepsix.search import SearchBot
from deepsix.state import Phase
from deepsix.views import view

LADDER_SEED = 20261125
"""The master seed of every pair's deals (registered before the report run)."""

ISMCTS_SIMULATIONS = 40
"""OpenSpiel IS-MCTS's simulations per card decision."""

PAIRS: tuple[tuple[str, str, int, int], ...] = (
    ("heuristic", "random", 200, 40),
    ("search-endgame", "heuristic", 120, 20),
    ("search-quick", "search-endgame", 120, 20),
    ("search-deep", "search-quick", 50, 10),
    ("ismcts", "heuristic", 16, 0),
    ("search-deep", "search-endgame", 160, 10),
    ("search-phases", "search-deep", 80, 0),
    ("search-deep-pool", "search-deep", 360, 0),
    ("search-deep-wide", "search-deep", 120, 0),
    ("search-deep-perfect", "search-deep", 120, 0),
    ("search-deep-perfect-playouts", "search-deep", 120, 0),
    ("search-deep-all-cards", "search-deep", 120, 0),
)
"""Each pair (upper rung, lower rung) with its duplicate deals and whole-game deals
(each whole-game deal is two games, the seats swapped), sized to what two shared
cores could play in the hour before the deadline.  The last pair is issue 26's
target, whole-hand ``search-deep`` against today's search-deep (``search-endgame``)
directly, not through the chain; its 160 deals were registered before its run
(a run stopped at the deadline reports the deals it finished, in seed order).  The
search rungs' whole-game deals (20, 20, 10, 10) were registered before their run, in
the same way; ``--games`` plays only the whole games.

The budgets changed during the run (``docs/experiments.md``): the first
``search-quick`` (every phase searched) played its 120 deals against
``search-endgame``, and the first whole-hand ``search-deep`` 18 deals
against it (stopped there, losing); both presets were then changed to search
the card play only, and the pairs ``search-quick``/``search-endgame`` and
``search-deep``/``search-endgame`` were played again from deal 0 on the same
registered deals.

``search-phases`` (:func:`search_phases`, issue 26 item 1) is ``search-deep`` that also
searches the auction, the sunk suit, the invitation and the passes, with many more,
cheaper play-outs than the first budgets and deals constrained by the auction; its
80 deals against ``search-deep`` were registered here before its run.

Two questions the pairs above left open, registered on 29 November before their
runs, once the compiled card play had made the play-outs cheaper (``docs/experiments.md``):
``search-deep-pool`` (:func:`search_deep_pool`) is ``search-deep`` with only the deals
constrained by the auction (``world_pool`` 4): does that alone help the card play?
``search-deep-wide`` (:func:`search_deep_wide`) is ``search-deep`` with twice the
play-outs per candidate card before the endgame, in about the time ``search-deep``
took before the card play was compiled: is a larger budget for the card play worth
it?  120 deals each.

``search-deep-perfect`` (:func:`search_deep_perfect`), registered the same day before
its run, searches the card play without the heuristic (issue 26 item 1): every
distinct legal card a candidate, the lowest mean wins, and the play-outs the search's
own perfect-information ones; 120 deals against ``search-deep``.  It lost 7.9 points
a hand (-1.4 to +17.2); the two halves of that change were then registered apart, 120
deals each, before their runs: ``search-deep-perfect-playouts``
(:func:`search_deep_perfect_playouts`, the search's own play-outs, the heuristic's
candidates and the departure rule kept) and ``search-deep-all-cards``
(:func:`search_deep_all_cards`, every card a candidate, the heuristic's play-outs).

``search-deep-pool`` came closest to a gain over its first 120 deals (-6.7, -15.2 to
+1.7); its deals 120 to 359, which no pair had played, were then registered (the 360
above, at 07:50 on 29 November) as a confirmation run, played with ``--from 120`` into
a directory of its own and reported on its own, not pooled with the first 120."""

RECHECK_SEED = 20261203
"""The master seed of the re-check (issue 41 item 12), registered on 3 December 2026
before its run: deals no earlier pair has played."""

RECHECK_PAIRS: tuple[tuple[str, str, int, int], ...] = (
    ("search-quick", "heuristic", 400, 0),
    ("search-endgame", "heuristic", 400, 0),
    ("search-deep", "search-quick", 400, 0),
)
"""The pairs whose figures the README and the bots' page quote, re-measured with
``--recheck`` on :data:`RECHECK_SEED`'s deals: deals 0 to 199 are the first run, deals
200 to 399 (``--from 200``) its confirmation, each reported on its own (``--report
--recheck`` prints both halves and their union), so a figure is quoted only when the
second half confirms the first."""


_LOCAL = (
    "ismcts",
    "search-phases",
    "search-deep-pool",
    "search-deep-wide",
    "search-deep-perfect",
    "search-deep-perfect-playouts",
    "search-deep-all-cards",
)
"""The rungs registered by this script (not known by name to worker processes)."""


def search_phases() -> SearchBot:
    """``search-deep`` searching every phase: 24 play-outs a call, 16 a sunk suit, 12 an
    invitation or pass card (each solved from five tricks left), a departure from the
    heuristic's choice only at two standard errors, and every sampled deal the one
    kept of four by how well the other seats' calls and sunk suit fit it
    (:func:`deepsix.search.worlds.sample_worlds`)."""
    return attrs.evolve(
        SearchBot.deep(),
        auction_rollouts=24,
        sunk_rollouts=16,
        exchange_rollouts=12,
        setup_solve=5,
        setup_confidence=2.0,
        world_pool=4,
    )


def search_deep_pool() -> SearchBot:
    """``search-deep`` whose every sampled deal is the one kept of four by how well the
    other seats' calls and sunk suit fit it (:func:`deepsix.search.worlds.sample_worlds`);
    nothing else changed (the card play is still the only phase searched)."""
    return attrs.evolve(SearchBot.deep(), world_pool=4)


def search_deep_wide() -> SearchBot:
    """``search-deep`` with 32 play-outs a candidate card before the endgame instead of 16."""
    return attrs.evolve(SearchBot.deep(), rollout_worlds=32)


def search_deep_perfect() -> SearchBot:
    """``search-deep`` whose card play before the endgame asks nothing of the heuristic:
    every distinct legal card compared (``card_candidates="all"``, the lowest mean wins)
    over 32 sampled deals, each played out by the search's own perfect-information
    play-out (``card_playouts="perfect"``) and solved from five tricks left."""
    return attrs.evolve(
        SearchBot.deep(),
        card_playouts="perfect",
        card_candidates="all",
        rollout_worlds=32,
        playout_solve=5,
    )


def search_deep_perfect_playouts() -> SearchBot:
    """:func:`search_deep_perfect` with the heuristic's candidates and departure rule back:
    only the play-outs are the search's own."""
    return attrs.evolve(search_deep_perfect(), card_candidates="heuristic")


def search_deep_all_cards() -> SearchBot:
    """``search-deep`` comparing every distinct legal card, none privileged, with the
    heuristic's play-outs (``search-deep``'s deals and play-out depth)."""
    return attrs.evolve(SearchBot.deep(), card_candidates="all")


class ISMCTSCards:
    """OpenSpiel's Python IS-MCTS for the cards, the heuristic for everything else.

    The search starts from a state of OpenSpiel's game (``python_deep_six``,
    one hand) whose history is a deal drawn consistently with the view
    (:func:`deepsix.sample_state`); IS-MCTS only ever reads the acting
    player's information state from it and resamples the rest itself.
    """

    def __init__(self, simulations: int = ISMCTS_SIMULATIONS) -> None:
        import pyspiel  # type: ignore[import-not-found,unused-ignore]  # no stubs
        from open_spiel.python.algorithms import (  # type: ignore[import-not-found,unused-ignore]  # no stubs
            ismcts,
        )

        import deepsix.adapters.openspiel  # noqa: F401  # registers python_deep_six

        self.game = pyspiel.load_game("python_deep_six", {"mode": "hand"})
        self.codec = _codec(self.game)
        self.heuristic = HeuristicBot()
        self.rng = random.Random(0)
        self.bot = ismcts.ISMCTSBot(
            game=self.game,
            evaluator=_HeuristicPlayouts(self.heuristic),
            uct_c=2.0,
            max_simulations=simulations,
            random_state=_numpy_state(0),
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        )

    def choose(self, view_: PlayerView, rng: random.Random) -> Action:
        """The heuristic's action, or IS-MCTS's card in the play phase."""
        if view_.phase is not Phase.PLAY or len(view_.legal_actions) == 1:
            return self.heuristic.choose(view_, rng)
        from deepsix import sample_state
        from deepsix.adapters.openspiel import _hand_ids

        world = sample_state(view_, rng)
        state = self.game.new_initial_state()
        for action_id in _hand_ids(self.codec, world.history):
            state.apply_action(action_id)
        seat = view_.seat
        assert seat is not None
        return self.codec.decode(self.bot.step(state), seat)  # type: ignore[no-any-return]  # untyped OpenSpiel


def _codec(game: Any) -> Any:
    return game.new_initial_state()._core.config.codec  # the adapter's own codec


def _numpy_state(seed: int) -> Any:
    import numpy as np  # type: ignore[import-not-found,unused-ignore]  # the openspiel extra

    return np.random.RandomState(seed)


class _HeuristicPlayouts:
    """An OpenSpiel MCTS evaluator: a play-out by the heuristic bot at every seat."""

    def __init__(self, policy: HeuristicBot) -> None:
        self.policy = policy
        self.rng = random.Random(0)

    def evaluate(self, state: Any) -> Any:
        import numpy as np  # type: ignore[import-not-found,unused-ignore]  # the openspiel extra

        if state.is_terminal():
            return np.array(state.returns())
        game_state = state.engine_state
        hands = len(game_state.completed_hands)
        while len(game_state.completed_hands) == hands:
            seat = game_state.to_act
            assert seat is not None
            game_state = apply(game_state, self.policy.choose(view(game_state, seat), self.rng))
        scores = game_state.completed_hands[-1].scores
        north_south = float(scores[1] - scores[0])
        return np.array([north_south, -north_south, north_south, -north_south])

    def prior(self, state: Any) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


def _row(upper: str, lower: str, summary: MatchSummary, seconds: float) -> str:
    diff = summary.difference
    a, b = summary.sides
    return (
        f"| {upper} vs {lower} | {diff.clusters} | {diff.mean:+.1f} | "
        f"{diff.low:+.1f} to {diff.high:+.1f} | {a.mean_hand:.1f} / {b.mean_hand:.1f} | "
        f"{a.mean_seconds:.3f} / {b.mean_seconds:.3f} | {seconds / 60:.0f} |"
    )


def _games_row(upper: str, lower: str, summary: MatchSummary) -> str:
    low, high = summary.win_interval
    return (
        f"| {upper} vs {lower} | {summary.games} | {summary.wins[0]}-{summary.wins[1]} | "
        f"{summary.win_rate:.1%} | {low:.1%} to {high:.1%} |"
    )


def _played(folder: str, offset: int) -> list[GameOutcome]:
    """The games finished in a pair's directory, their deals numbered from ``offset``."""
    path = os.path.join(folder, "games.jsonl")
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as lines:
        games = [GameOutcome.from_json(json.loads(line)) for line in lines if line.strip()]
    return [attrs.evolve(game, deal=game.deal + offset) for game in games]


def _report(
    out: str,
    upper: str,
    lower: str,
    games: bool,
    *,
    seed: int = LADDER_SEED,
    parts: set[int] | None = None,
) -> MatchSummary | None:
    """The summary of every finished game of a pair, all parts merged (or only the
    parts starting at the deals in ``parts``)."""
    stem = f"{upper}-vs-{lower}" + ("-games" if games else "")
    outcomes: list[GameOutcome] = []
    for name in sorted(os.listdir(out)) if os.path.isdir(out) else []:
        start = 0 if name == stem else None
        if name.startswith(f"{stem}-from-"):
            start = int(name.rsplit("-", 1)[1])
        if start is not None and (parts is None or start in parts):
            outcomes += _played(os.path.join(out, name), start)
    unique = {(game.deal, game.swapped): game for game in reversed(outcomes)}
    outcomes = sorted(unique.values(), key=lambda game: (game.deal, game.swapped))
    if not outcomes:  # a deal both parts played is counted once (seeded: the same games)
        return None
    config = MatchConfig((upper, lower), deals=1, seed=seed)
    return MatchResult(config=config, outcomes=tuple(outcomes), elapsed=0.0, workers=0).summary()


def main(argv: Sequence[str] | None = None) -> int:  # the two modes
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", required=True, help="directory for the matches' games")
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of the deals to play")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--only", nargs="*", default=None, help="upper rungs to play")
    parser.add_argument("--pairs", nargs="*", default=None, help="pairs to play, as A-vs-B")
    parser.add_argument("--from", dest="start", type=int, default=0, help="first deal to play")
    parser.add_argument("--to", dest="stop", type=int, default=None, help="stop before this deal")
    parser.add_argument("--recheck", action="store_true", help="the re-check's pairs and seed")
    parser.add_argument("--report", action="store_true", help="report the games so far")
    parser.add_argument("--games", action="store_true", help="play only the whole games")
    args = parser.parse_args(argv)
    register_bot("ismcts", ISMCTSCards)
    register_bot("search-phases", search_phases)
    register_bot("search-deep-pool", search_deep_pool)
    register_bot("search-deep-wide", search_deep_wide)
    register_bot("search-deep-perfect", search_deep_perfect)
    register_bot("search-deep-perfect-playouts", search_deep_perfect_playouts)
    register_bot("search-deep-all-cards", search_deep_all_cards)
    seed, pairs = (RECHECK_SEED, RECHECK_PAIRS) if args.recheck else (LADDER_SEED, PAIRS)
    if args.report:
        print(f"seed {seed}")
        for upper, lower, deals, game_deals in pairs:
            if args.recheck:
                half = deals // 2
                for label, parts in (("first", {0}), ("confirmation", {half}), ("both", None)):
                    summary = _report(args.out, upper, lower, False, seed=seed, parts=parts)
                    if summary is not None:
                        print(_row(upper, lower, summary, 0.0), label)
                continue
            summary = _report(args.out, upper, lower, games=False)
            if summary is not None:
                print(_row(upper, lower, summary, 0.0))
            summary = _report(args.out, upper, lower, games=True) if game_deals else None
            if summary is not None:
                print(_games_row(upper, lower, summary))
        return 0
    print(f"build: {deepsix.compiled.BUILD}; seed {seed}; {os.cpu_count()} cores")
    hands = ["| pair (A vs B) | deals | A - B per hand | 95% interval | mean hand A / B "
             "| s/decision A / B | minutes |", "|---|---|---|---|---|---|---|"]  # fmt: skip
    games = ["| pair (A vs B) | games | wins A-B | A's win rate | 95% Wilson |",
             "|---|---|---|---|---|"]  # fmt: skip
    for upper, lower, deals, game_deals in pairs:
        if args.only is not None and upper not in args.only:
            continue
        if args.pairs is not None and f"{upper}-vs-{lower}" not in args.pairs:
            continue
        n = max(2, round(deals * args.scale))
        if args.stop is not None:
            n = min(n, args.stop)
        # the rungs this script registers exist in this process only: one worker
        workers = 1 if upper in _LOCAL else args.workers
        load = os.getloadavg()[0]
        start = time.perf_counter()
        suffix = f"-from-{args.start}" if args.start else ""
        if not args.games:
            if args.start:  # the same registered deals, from deal args.start on
                seeds = [game_seed(seed, deal) for deal in range(args.start, n)]
                config = MatchConfig((upper, lower), deals=len(seeds), seeds=seeds, max_hands=1)
            else:
                config = MatchConfig((upper, lower), deals=n, seed=seed, max_hands=1)
            folder = os.path.join(args.out, f"{upper}-vs-{lower}{suffix}")
            summary = run_match(config, folder, workers=workers).summary()
            row = _row(upper, lower, summary, time.perf_counter() - start)
            hands.append(f"{row} load {load:.1f}-{os.getloadavg()[0]:.1f}")
            print(hands[-1], flush=True)
        if game_deals:
            m = max(2, round(game_deals * args.scale))
            if args.start:  # the same registered deals, from deal args.start on
                seeds = [game_seed(seed, deal) for deal in range(args.start, m)]
                config = MatchConfig((upper, lower), deals=len(seeds), seeds=seeds)
            else:
                config = MatchConfig((upper, lower), deals=m, seed=seed)
            folder = os.path.join(args.out, f"{upper}-vs-{lower}-games{suffix}")
            result = run_match(config, folder, workers=workers)
            games.append(_games_row(upper, lower, result.summary()))
            print(games[-1], flush=True)
    print("\n".join(["", *hands, "", *games]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
