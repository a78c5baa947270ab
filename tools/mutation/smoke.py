"""The mutation smoke (issue 24): a fixed list of mutants of the core that the tests must kill.

``nox -s mutation_smoke`` runs it with the tests, so the mutation score cannot
decay silently between two full runs of ``run_mutants.py`` (an hour and more).
Each mutant below is one that the full run's mutmut made and the suite killed:
one small change to a rule of a core module (a comparison moved by one, a seat
or a suit swapped, a check dropped), with the tests that state that rule.

For every mutant, in a copy of ``src/`` (never the source tree):

1. the module's text must hold the ``before`` snippet exactly once (else the
   code moved and the list needs its snippet updated: that fails too, by name);
2. the snippet is replaced by ``after``, and the mutant's tests run in a fresh
   Python process with ``pytest -x``;
3. they must *fail* with exit code 1: a failing test, not an import or
   collection error (exit codes 2-4), which any broken file would give.

First of all, the same tests must pass on the unmutated copy, so a kill is the
mutant's doing.  Run by hand::

    python tools/mutation/smoke.py            # every mutant
    python tools/mutation/smoke.py --list     # the list, with the rule each one breaks
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Final, NamedTuple

ROOT: Final = Path(__file__).resolve().parents[2]
PROFILE: Final = '''"""The smoke's hypothesis profile: fixed examples, no database."""
from hypothesis import HealthCheck, settings

settings.register_profile(
    "mutation-smoke",
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
'''
LIMIT: Final = 300.0
"""Seconds one mutant's tests may run (a hang counts as a kill: the suite noticed)."""


class Mutant(NamedTuple):
    """One mutant: where, what it changes, which rule that breaks, which tests must fail."""

    module: str
    before: str
    after: str
    rule: str
    tests: tuple[str, ...]


_TRICKS: Final = "tests/core/test_tricks.py"
_SCORING: Final = "tests/core/test_scoring.py"
_LEGALITY: Final = "tests/core/test_legality.py"
_MELDS: Final = "tests/core/test_melds.py"
_VIEWS: Final = "tests/core/test_views.py"
_TABLE: Final = "tests/core/test_table.py"
_EVENTS: Final = "tests/core/test_events.py"
_VALIDATION: Final = "tests/core/test_validation.py"
_REBUILD: Final = "tests/core/test_rebuild.py"
_SAMPLING: Final = "tests/core/test_sampling.py"
_ENGINE: Final = "tests/core/test_engine.py"
_DIAGNOSIS: Final = "tests/core/test_diagnosis.py"

MUTANTS: Final[tuple[Mutant, ...]] = (
    Mutant(
        "tricks",
        "            if card >= best:",
        "            if card > best:",
        "the second of two identical cards beats the first (R-PLAY-6)",
        (f"{_TRICKS}::test_trick_winner",),
    ),
    Mutant(
        "tricks",
        "elif suit != sunk_suit and not introduced & (1 << suit):",
        "elif not introduced & (1 << suit):",
        "a card of the sunk suit never takes a trick over (R-PLAY-5)",
        (f"{_TRICKS}::test_trick_winner",),
    ),
    Mutant(
        "tricks",
        "    return (led, bar)",
        "    return (led, following[0])",
        "a follower who can play over must (R-PLAY-3)",
        (f"{_TRICKS}::test_must_play_over_when_following",),
    ),
    Mutant(
        "scoring",
        "made = net[bidding_team] <= bid",
        "made = net[bidding_team] < bid",
        "a bid is made when the net equals it",
        (f"{_SCORING}::test_bid_is_made_at_equality",),
    ),
    Mutant(
        "scoring",
        "scores[bidding_team] = rules.failed_bid_score - bid",
        "scores[bidding_team] = rules.failed_bid_score + bid",
        "a failed bid scores 200 minus the bid",
        (f"{_SCORING}::test_failed_bid_scores_200_minus_bid_and_ignores_meld",),
    ),
    Mutant(
        "scoring",
        "return Team.NORTH_SOUTH if totals[0] < totals[1] else Team.EAST_WEST",
        "return Team.NORTH_SOUTH if totals[0] > totals[1] else Team.EAST_WEST",
        "the lower total wins the game",
        (f"{_SCORING}::test_game_end_at_or_above_target",),
    ),
    Mutant(
        "phases/auction",
        "    forced = standing is None and len(bids) == 3",
        "    forced = standing is None and len(bids) == 2",
        "after three passes the dealer must bid (R-BID-7)",
        (f"{_LEGALITY}::test_every_call_in_every_auction_position_is_judged_right",),
    ),
    Mutant(
        "phases/auction",
        "if bidder is not None and passed.bit_count() == 3:",
        "if bidder is not None and passed.bit_count() == 2:",
        "the auction ends when the other three have passed after a bid (R-BID-8)",
        ("tests/core/test_engine.py::test_auction_ends_when_three_pass_after_a_bid",),
    ),
    Mutant(
        "melds",
        "return rank >= Rank.SIX or (rank >= Rank.FOUR and card.suit != sunk_suit)",
        "return rank >= Rank.SIX or (rank >= Rank.FOUR and card.suit == sunk_suit)",
        "4s and 5s may be shown only outside the sunk suit (R-INVITE-2)",
        (f"{_MELDS}::test_can_show",),
    ),
    Mutant(
        "melds",
        "    combine = max if sharing else sum",
        "    combine = sum if sharing else max",
        "melds of different families may share a copy, of one family may not",
        (f"{_MELDS}::test_sharing_across_families_not_within",),
    ),
    Mutant(
        "views",
        "    own = seat is not None and seat == state.to_act",
        "    own = seat is not None",
        "a seat sees its legal actions only on its turn",
        (f"{_VIEWS}::test_view_legal_actions_are_the_seats_legal_actions",),
    ),
    Mutant(
        "visibility",
        "        passed = setup.partner_pass\n",
        "        passed = setup.bidder_pass\n",
        "the partner sees the cards she passed",
        (
            f"{_VIEWS}::test_passes_are_seen_by_the_partners_only",
            "tests/test_visibility.py::test_every_consumer_shows_the_rule",
        ),
    ),
    Mutant(
        "views",
        "hand_number=state.hand_number,",
        "hand_number=state.hand_number + 1,",
        "every viewer sees the public facts as the state has them",
        (f"{_VIEWS}::test_a_view_shows_the_public_facts_as_the_state_has_them",),
    ),
    Mutant(
        "table",
        "    return (north + south, east + west)",
        "    return (north + east, south + west)",
        "partners' melds count for their team",
        (f"{_TABLE}::test_team_meld_adds_partners",),
    ),
    Mutant(
        "table",
        "        won[trick.winner & 1] += 1",
        "        won[trick.winner & 1] += 2",
        "each trick counts once, for the taker's team",
        (f"{_TABLE}::test_views_and_states_agree_on_public_facts",),
    ),
    Mutant(
        "table",
        "            if card.suit != led:\n                void[seat].add(led)",
        "            if card.suit == led:\n                void[seat].add(led)",
        "a seat that does not follow suit is void in it (R-PLAY-2)",
        (f"{_VIEWS}::test_voids_are_the_failures_to_follow_suit",),
    ),
    Mutant(
        "events",
        "forced = len(bids) == 4 and all(",
        "forced = len(bids) == 4 or all(",
        "a bid is forced only after three passes (R-BID-7)",
        (f"{_EVENTS}::test_forced_bid_is_flagged",),
    ),
    Mutant(
        "events",
        "    if number == HAND_SIZE:\n        points += LAST_TRICK_BONUS",
        "    if number != HAND_SIZE:\n        points += LAST_TRICK_BONUS",
        "only the last trick carries the bonus",
        (f"{_EVENTS}::test_each_hand_yields_its_moments_once",),
    ),
    Mutant(
        "events",
        "and before.phase is not Phase.GAME_OVER:",
        "and before.phase is Phase.GAME_OVER:",
        "the step that ends the game says so",
        (f"{_EVENTS}::test_a_whole_game_ends_with_one_game_over",),
    ),
    Mutant(
        "validation",
        "    if state.scores != totals:",
        "    if state.scores == totals:",
        "the scores are the score sheet's totals",
        (f"{_VALIDATION}::test_scores",),
    ),
    Mutant(
        "validation",
        "        if records and state.dealer != _seat_after(first, len(records)):",
        "        if records and state.dealer != _seat_after(first, len(records) + 1):",
        "the deal passes to the left after every hand",
        (f"{_VALIDATION}::test_dealer",),
    ),
    Mutant(
        "rebuild",
        "    dealer = _SEATS[(first + skipped) % 4]",
        "    dealer = _SEATS[(first + skipped + 1) % 4]",
        "the deal passes to the left after every hand",
        (f"{_REBUILD}::test_a_trimmed_history_replays_from_its_hand",),
    ),
    Mutant(
        "rebuild",
        "    return state.completed_hands[0].dealer if state.completed_hands else state.dealer",
        "    return state.dealer",
        "a history replays from the game's first dealer",
        (f"{_REBUILD}::test_walk_and_history_start_replay_a_whole_history",),
    ),
    Mutant(
        "sampling",
        "unknown = [2 - own[i] - sum(self.played[s][i] for s in range(4)) for i in range(28)]",
        "unknown = [2 - own[i] for i in range(28)]",
        "a played card is seen: the sample deals it to no hand",
        (f"{_SAMPLING}::test_sampled_states_are_consistent_and_valid",),
    ),
    Mutant(
        "sampling",
        "            bounds.at_least(seat, knowledge.melded[seat])",
        "            bounds.at_least(seat, [0] * 28)",
        "a declared meld stays in its owner's hand in every sample",
        (f"{_SAMPLING}::test_sampled_states_are_consistent_and_valid",),
    ),
    Mutant(
        "sampling",
        "    flight = _FLIGHT if in_flight else -1",
        "    flight = _FLIGHT if (in_flight) and False else -1",
        "what the bidder cannot hold any more is in the pass back in flight",
        (
            f"{_SAMPLING}::test_the_partner_knows_the_pass_back_in_flight_holds_what_the_bidder_cannot",
        ),
    ),
    Mutant(
        "phases/deal",
        "Phase.BIDDING, state.dealer.left,",
        "Phase.BIDDING, state.dealer,",
        "the auction begins on the dealer's left (R-BID-1)",
        (f"{_ENGINE}::test_auction_starts_left_of_dealer",),
    ),
    Mutant(
        "phases/play",
        "GameState, rules, state.dealer.left, Phase.DEAL",
        "GameState, rules, state.dealer, Phase.DEAL",
        "the deal passes one seat clockwise after each hand (R-DEAL-2)",
        (f"{_ENGINE}::test_dealer_rotates_clockwise",),
    ),
    Mutant(
        "phases/passing",
        "            phase, to_act = Phase.MELDING, seat.left",
        "            phase, to_act = Phase.MELDING, seat.partner",
        "the others meld clockwise from the bidder's left",
        (f"{_ENGINE}::test_others_meld_clockwise_from_bidders_left",),
    ),
    Mutant(
        "phases/melding",
        "        return size(packed) - state.rules.pass_size",
        "        return size(packed)",
        "the bidder keeps enough unmelded cards to pass back (R-MELD-4)",
        (f"{_ENGINE}::test_bidder_cap_refuses_a_meld_that_leaves_too_few",),
    ),
    Mutant(
        "phases/passing",
        "    return GIVES[seat].all(held - melded)",
        "    return GIVES[seat].all(held)",
        "the bidder passes back only unmelded cards",
        (f"{_ENGINE}::test_bidder_passes_back_unmelded_only",),
    ),
    Mutant(
        "diagnosis",
        "    if action.seat != state.to_act:",
        "    if action.seat == state.to_act:",
        "an action out of turn is refused as such (R-TURN-1)",
        (f"{_ENGINE}::test_wrong_phase_and_wrong_seat",),
    ),
    Mutant(
        "phases/play",
        "    led = state.trick[0][1].suit",
        "    led = state.trick[1][1].suit",
        "the suit to follow is the first card's (R-PLAY-2)",
        (f"{_DIAGNOSIS}::test_the_suit_to_follow_is_the_first_cards_even_after_a_seat_failed_to",),
    ),
    Mutant(
        "history",
        "        if self._length != other._length:\n            return False",
        "        if self._length != other._length:\n            return True",
        "a history is equal to another only when it holds the same actions",
        ("tests/core/test_history.py::test_a_history_is_not_equal_to_a_longer_one_it_begins",),
    ),
    Mutant(
        "handsetup",
        "        return self._fields() == other._fields()",
        "        return self._fields() != other._fields()",
        "a setup is equal to its copy (the generated value methods)",
        ("tests/core/test_value_methods.py::test_a_value_pickles_and_hashes_with_every_field",),
    ),
    # mutmut does not mutate decorated functions (properties included): these are written by
    # hand, of the kinds it makes, for the properties that state a rule.
    Mutant(
        "state",
        "if self.scores[0] < self.scores[1] else",
        "if self.scores[0] > self.scores[1] else",
        "the lower total wins the game (R-END-1), as the state's winner says",
        ("tests/core/test_full_game.py::test_random_games_reach_a_winner",),
    ),
    Mutant(
        "state",
        "(self.phase is not Phase.GAME_OVER)",
        "(self.phase is Phase.GAME_OVER)",
        "the hand number counts the hand being played",
        ("tests/core/test_state.py::test_the_hand_number_counts_the_hand_being_played",),
    ),
    Mutant(
        "views",
        "return self.seat is not None and self.seat == self.to_act",
        "return self.seat is not None or self.seat == self.to_act",
        "a view says it is the seat's turn only when it is",
        (f"{_VIEWS}::test_view_legal_actions_are_the_seats_legal_actions",),
    ),
    Mutant(
        "tricks",
        "        return self.plays[0][0]",
        "        return self.plays[1][0]",
        "a trick's leader is the seat that played first",
        (f"{_TRICKS}::test_trick_record",),
    ),
    Mutant(
        "events",
        "        return self.number == HAND_SIZE",
        "        return self.number != HAND_SIZE",
        "the hand's fourteenth trick is its last",
        (f"{_EVENTS}::test_each_hand_yields_its_moments_once",),
    ),
)
"""The smoke's mutants, a few per core module."""


def run_pytest(src: Path, tests: tuple[str, ...]) -> tuple[int | None, str]:
    """Run ``tests`` against the sources in ``src`` in a fresh process: exit code, output tail."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(src), str(src.parent)))}
    env["HYPOTHESIS_PROFILE"] = "mutation-smoke"
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider"]
    command += ["-p", "no:xdist", "-p", "smoke_profile", *tests]
    try:
        done = subprocess.run(
            command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=LIMIT, check=False
        )
    except subprocess.TimeoutExpired:
        return None, "timed out"
    return done.returncode, (done.stdout + done.stderr)[-1500:]


def imported_from(src: Path) -> str:
    """Where a fresh process with ``src`` on the path imports ``deepsix`` from."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    command = [sys.executable, "-c", "import deepsix; print(deepsix.__file__)"]
    return subprocess.run(
        command, env=env, capture_output=True, text=True, check=True
    ).stdout.strip()


def main() -> int:
    """Check every mutant; print one line each; exit 1 if any survived or no longer applies."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--list", action="store_true", help="print the mutants and stop")
    parser.add_argument("--module", default=None, help="only this module's mutants")
    args = parser.parse_args()
    mutants = [m for m in MUTANTS if args.module in (None, m.module)]
    if args.list:
        for mutant in mutants:
            print(f"{mutant.module}: {mutant.rule}\n  - {mutant.before}\n  + {mutant.after}")
        return 0
    if not mutants:
        print("no mutants to check")
        return 1
    failures = []
    with tempfile.TemporaryDirectory(prefix="deepsix-smoke-") as scratch:
        work = Path(scratch)
        src = work / "src"
        shutil.copytree(
            ROOT / "src", src, ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd")
        )
        (work / "smoke_profile.py").write_text(PROFILE, encoding="utf-8")
        where = imported_from(src)
        if not where.startswith(str(src)):
            print(f"deepsix is imported from {where}, not from the mutated copy")
            return 1
        every_test = tuple(dict.fromkeys(test for m in mutants for test in m.tests))
        code, tail = run_pytest(src, every_test)
        if code != 0:
            print(f"the smoke's tests fail on the unmutated sources (exit {code}):\n{tail}")
            return 1
        print(f"{len(every_test)} tests pass on the unmutated sources; {len(mutants)} mutants")
        for mutant in mutants:
            path = src / "deepsix" / f"{mutant.module}.py"
            original = path.read_text(encoding="utf-8")
            found = original.count(mutant.before)
            if found != 1:
                failures.append(mutant)
                print(f"STALE     {mutant.module}: {mutant.before!r} occurs {found} times")
                continue
            path.write_text(original.replace(mutant.before, mutant.after), encoding="utf-8")
            started = time.monotonic()
            code, tail = run_pytest(src, mutant.tests)
            path.write_text(original, encoding="utf-8")
            seconds = time.monotonic() - started
            status = {1: "killed", None: "timeout"}.get(code, f"exit {code}")
            print(f"{status:>9} {seconds:5.1f}s {mutant.module}: {mutant.rule}")
            if code not in (1, None):
                failures.append(mutant)
                print(tail)
    if failures:
        print(f"\n{len(failures)} of {len(mutants)} mutants were not killed as they should be")
        return 1
    print(f"\nall {len(mutants)} mutants killed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
