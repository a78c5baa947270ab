"""The invariants of Deep Six and the tests that verify them (issue 3).

``INVARIANTS`` maps each invariant's number, as numbered in the issue, to
its title and the pytest node ids of the tests that verify it.  The docs'
invariants page is generated from this mapping, and
``tests/core/test_invariants.py::test_invariants_index_matches_the_tests`` keeps
it honest: every listed test exists and names its invariant in its
docstring, and every test naming an invariant is listed here.
"""

from __future__ import annotations

from typing import Final

__all__ = ["INVARIANTS"]

_INV = "tests/core/test_invariants.py"
_LEGAL = "tests/core/test_legality.py"
_STATE = "tests/core/test_stateful.py::test_whole_games_for_every_rules_variant"
_EXH = "tests/core/test_exhaustive.py"
_MELD = "tests/core/test_meld_optimality.py"
_XH = "tests/core/test_crosshair.py"
_ALL_STATE = f"{_INV}::test_all_state_invariants_along_random_games"

INVARIANTS: Final[dict[int, tuple[str, list[str]]]] = {
    1: (
        "Conservation: the 56 cards are accounted for exactly once; 14 each at the start of play",
        [
            f"{_INV}::test_conservation_in_every_reachable_state",
            f"{_INV}::test_fourteen_cards_each_at_start_of_play",
            _ALL_STATE,
            _STATE,
        ],
    ),
    2: (
        "Card points: every completed hand distributes exactly 250 points",
        [
            f"{_INV}::test_deck_holds_250_card_points",
            f"{_INV}::test_every_hand_distributes_250_card_points",
            _ALL_STATE,
            _STATE,
        ],
    ),
    3: (
        "Zero floor: no negative hand score; a failed bid records 200 minus the bid",
        [
            f"{_INV}::test_zero_floor_on_the_score_sheet",
            f"{_INV}::test_zero_floor_of_score_hand",
            _ALL_STATE,
            _STATE,
        ],
    ),
    4: (
        "Legality is exact: apply succeeds iff the action is legal; illegal ones change nothing",
        [
            f"{_LEGAL}::test_apply_succeeds_iff_action_is_legal",
            f"{_LEGAL}::test_illegal_action_leaves_state_unchanged_and_usable",
            f"{_LEGAL}::test_values_that_are_not_actions_are_rejected",
            f"{_LEGAL}::test_any_ordering_of_the_deck_is_a_deal",
            f"{_LEGAL}::test_every_call_in_every_auction_position_is_judged_right",
            _STATE,
        ],
    ),
    5: (
        "Liveness: a move or a chance step in every live state; games end; hands are bounded",
        [
            f"{_INV}::test_every_live_state_has_a_move",
            f"{_INV}::test_hand_action_bound_of_default_rules",
            f"{_INV}::test_hands_respect_the_action_bound_and_games_end",
            _ALL_STATE,
            _STATE,
        ],
    ),
    6: (
        "Auction: decreasing multiples of 10 in range; always a bidder; the forced dealer bid",
        [
            f"{_INV}::test_auction_invariants_in_random_games",
            f"{_EXH}::test_every_auction_on_short_ladders",
            f"{_EXH}::test_bid_ladder_for_every_step",
            f"{_EXH}::test_forced_bid_only_after_three_passes",
            f"{_EXH}::test_auction_step_records_the_outcome",
        ],
    ),
    7: (
        "Tricks: the winner and the follow/play-over rule, exhaustively against the rules text",
        [
            f"{_EXH}::test_trick_winner_exhaustive_over_every_trick",
            f"{_EXH}::test_partial_trick_winner_exhaustive",
            f"{_EXH}::test_trick_winner_without_a_sunk_suit_exhaustive",
            f"{_EXH}::test_follow_rule_exhaustive_short_tricks",
            f"{_EXH}::test_follow_rule_exhaustive_three_card_tricks",
            f"{_XH}::test_winning_position_symbolic",
            f"{_XH}::test_legal_plays_symbolic",
        ],
    ),
    8: (
        "Melds: best_meld is optimal; no run in the sunk suit; sharing; the largest melds",
        [
            f"{_MELD}::test_best_meld_is_optimal_on_random_hands",
            f"{_MELD}::test_best_meld_is_optimal_on_adversarial_hands",
            f"{_MELD}::test_best_meld_is_optimal_deep",
            f"{_MELD}::test_best_meld_tie_breaks",
            f"{_MELD}::test_sharing_rule_examples",
            f"{_MELD}::test_meld_blocker_matches_the_sharing_rule",
            f"{_MELD}::test_sharing_rule_in_the_engine",
            f"{_MELD}::test_meld_functions_on_a_shared_hand",
            f"{_MELD}::test_no_run_in_the_sunk_suit",
            f"{_MELD}::test_meld_table_matches_the_rules_text",
            f"{_MELD}::test_largest_single_hand_meld_is_255",
            f"{_MELD}::test_largest_partnership_meld_is_410_and_sets_the_lowest_bid",
            f"{_MELD}::test_largest_melds_without_sharing",
            f"{_MELD}::test_exact_search_agrees_with_brute_force_on_small_hands",
            f"{_MELD}::test_exact_search_agrees_with_brute_force_on_six_card_hands",
            f"{_MELD}::test_exact_partnership_search_agrees_with_brute_force_on_small_hands",
            f"{_MELD}::test_exact_partnership_search_agrees_with_brute_force_on_four_card_hands",
            f"{_MELD}::test_largest_partnership_meld_is_declared_through_the_engine",
            f"{_MELD}::test_meld_totals_are_multiples_of_five_down_to_the_maximum",
            f"{_XH}::test_meld_values_symbolic",
        ],
    ),
    9: (
        "Scoring: score_hand over its whole finite domain",
        [
            f"{_EXH}::test_reachable_card_point_totals",
            f"{_EXH}::test_score_hand_exhaustive_bidding_team",
            f"{_EXH}::test_score_hand_exhaustive_full_domain",
            f"{_XH}::test_score_hand_symbolic",
        ],
    ),
    10: (
        "Game end: the lower total wins once a team reaches the target; equal totals continue",
        [
            f"{_INV}::test_game_winner_exhaustive",
            f"{_INV}::test_equal_totals_play_on",
            _ALL_STATE,
            _STATE,
            f"{_XH}::test_game_winner_symbolic",
        ],
    ),
    11: (
        "Determinism and purity: same seed and actions, equal states; hashable; nothing mutable",
        [
            f"{_INV}::test_same_seed_same_actions_same_states",
            f"{_INV}::test_apply_never_mutates_its_input",
            f"{_INV}::test_states_are_hashable_and_equal_by_value",
            f"{_INV}::test_nothing_reachable_is_mutable",
            _STATE,
        ],
    ),
    12: (
        "Replay: replaying state.history from new_game reproduces the state exactly",
        [
            f"{_INV}::test_replaying_history_reproduces_the_state",
            _STATE,
        ],
    ),
}
"""Invariant number -> (title, pytest node ids of the tests that verify it)."""
