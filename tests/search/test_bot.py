"""SearchBot: plays legally from its view alone, is deterministic, checks its budgets."""

from __future__ import annotations

import importlib.util
import math
import random
import statistics
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import attrs
import pytest

from deepsix import (
    Action,
    Bot,
    Card,
    HeuristicBot,
    InvalidStateError,
    NameSunkSuit,
    PassCard,
    Phase,
    PlayCard,
    PlayerView,
    Rules,
    Suit,
    apply,
    legal_actions,
    new_game,
    play_game,
    sample_state,
    shuffled_deal,
    view,
)
from deepsix.errors import WrongTypeError
from deepsix.play.bots import BOT_NAMES, make_bot
from deepsix.play.melding import next_declaration
from deepsix.search import SearchBot, SearchError
from deepsix.search.playout import perfect_playout_cost, playout_cost
from deepsix.search.worlds import sample_worlds
from tests.search.endgames import endgame, score_after

QUICK = SearchBot(
    worlds=2,
    solve_tricks=3,
    rollout_worlds=1,
    auction_rollouts=1,
    sunk_rollouts=1,
    exchange_rollouts=1,
    candidates=2,
    playout_solve=3,
)
"""A tiny budget that still takes every searching path (play-outs, solves, every phase)."""


CONSTRAINED = attrs.evolve(QUICK, world_pool=3, setup_solve=0, setup_confidence=0.5)
"""The tiny budget with constrained dealing and the setup phases' own play-outs and rule."""


def test_constrained_dealing_plays_a_whole_hand_legally_and_deterministically() -> None:
    first = play_game([CONSTRAINED, "heuristic", CONSTRAINED, "heuristic"], seed=4, max_hands=1)
    second = play_game([CONSTRAINED, "heuristic", CONSTRAINED, "heuristic"], seed=4, max_hands=1)
    assert len(first.completed_hands) == 1
    assert first.history == second.history


def test_the_setup_phases_have_their_own_play_outs_and_rule() -> None:
    """``setup_solve`` and ``setup_confidence`` replace ``playout_solve`` and ``confidence``
    in the auction (and the phases before the play) only: a bot whose auction rule is
    "the lowest mean wins" can leave the heuristic's call where the default rule keeps it."""
    state = apply(new_game(), shuffled_deal(12))
    assert state.to_act is not None
    mine = view(state, state.to_act)
    base = SearchBot(auction_rollouts=6, playout_solve=3, confidence=50.0)
    assert base.choose(mine, random.Random(2)) == HeuristicBot().choose(mine, random.Random(2))
    picks = {
        attrs.evolve(base, setup_confidence=0.0, setup_solve=solve).choose(
            mine, random.Random(seed)
        )
        for seed in range(6)
        for solve in (0, 3)
    }
    assert len(picks) == 2  # the lowest mean wins sometimes, on some deals, for each call


class _Counting:
    """A play-out policy that plays as the heuristic and counts its decisions."""

    def __init__(self) -> None:
        self.calls = 0
        self.inner = HeuristicBot()

    def choose(self, view_: PlayerView, rng: random.Random) -> Action:
        self.calls += 1
        return self.inner.choose(view_, rng)


def test_the_play_out_policy_is_a_parameter() -> None:
    """``policy`` plays the play-outs (any Bot); ``None`` means the heuristic, and a
    policy that plays as the heuristic decides exactly as the default does."""
    state = apply(new_game(), shuffled_deal(12))
    assert state.to_act is not None
    mine = view(state, state.to_act)
    counting = _Counting()
    bot = SearchBot(auction_rollouts=3, playout_solve=3, confidence=0.0)
    mirrored = attrs.evolve(bot, policy=counting)
    assert bot.policy is None
    assert bot.playout_policy is bot.heuristic
    assert mirrored.playout_policy is counting
    for seed in range(3):
        assert mirrored.choose(mine, random.Random(seed)) == bot.choose(mine, random.Random(seed))
    assert counting.calls > 100  # three deals, two calls, each played to the endgame
    random_policy = attrs.evolve(bot, policy=make_bot("random"))
    assert random_policy.choose(mine, random.Random(0)) in mine.legal_actions


def test_is_a_bot() -> None:
    assert isinstance(SearchBot(), Bot)


def test_plays_a_whole_hand_legally_and_deterministically() -> None:
    """Through play_game (which applies every action with the engine, refusing illegal
    ones) the same seed gives the same hand, action for action."""
    first = play_game([QUICK, "heuristic", QUICK, "heuristic"], seed=4, max_hands=1)
    second = play_game([QUICK, "heuristic", QUICK, "heuristic"], seed=4, max_hands=1)
    assert len(first.completed_hands) == 1
    assert first.history == second.history


def test_each_search_path_is_taken() -> None:
    """The bidding, sunk-suit and play searches run (the bot is asked, and answers
    legally, in each phase it searches)."""
    phases: set[Phase] = set()

    class Spy:
        def choose(self, view_: object, rng: random.Random) -> object:
            assert hasattr(view_, "phase")
            phases.add(view_.phase)
            return QUICK.choose(view_, rng)  # type: ignore[arg-type]  # a PlayerView

    play_game([Spy(), Spy(), Spy(), Spy()], seed=9, max_hands=1)  # type: ignore[list-item]  # duck-typed bots
    assert {Phase.BIDDING, Phase.SUNK_SUIT, Phase.PLAY} <= phases


def test_endgame_choice_is_optimal_when_the_deal_is_known() -> None:
    """When the view pins down every hidden card (late positions where voids and play
    leave one consistent deal), the bot's card minimises the exact double-dummy hand
    outcome: its team's recorded score minus the opponents', under best play for the score
    (the minimax oracle's, not card points converted after the fact)."""
    checked = 0
    for seed in range(80):
        state = endgame(Rules(), seed, 2, seed % 4)
        seat = state.to_act
        assert seat is not None
        mine = view(state, seat)
        sign = 1 if seat.team == 0 else -1
        memo: dict[tuple[object, ...], int] = {}
        costs = {
            action.card: sign * score_after(state, action, memo)
            for action in legal_actions(state)
            if isinstance(action, PlayCard)
        }
        if len(set(costs.values())) < 2:
            continue
        deals = {sample_state(mine, random.Random(k)).packed_hands for k in range(12)}
        if len(deals) != 1:
            continue
        action = SearchBot(worlds=4, solve_tricks=3).choose(mine, random.Random(seed))
        assert isinstance(action, PlayCard)
        assert costs[action.card] == min(costs.values())
        checked += 1
    assert checked > 0


def test_budget_overflow_falls_back_to_the_heuristic() -> None:
    """A node limit too small for any solve: no deal votes, and the heuristic's card
    (a legal one) is played."""
    state = endgame(Rules(), 21, 4, 1)
    seat = state.to_act
    assert seat is not None
    mine = view(state, seat)
    bot = SearchBot(worlds=2, solve_tricks=4, node_limit=1)
    action = bot.choose(mine, random.Random(1))
    assert action == HeuristicBot().choose(mine, random.Random(1))
    assert action in mine.legal_actions


def test_mid_game_rollouts_choose_a_legal_card() -> None:
    """The optional rollout search before the endgame plays legal cards."""
    state = endgame(Rules(), 8, 9, 2)
    seat = state.to_act
    assert seat is not None
    mine = view(state, seat)
    action = SearchBot(rollout_worlds=1, solve_tricks=3).choose(mine, random.Random(2))
    assert action in mine.legal_actions


def test_refuses_states_and_other_seats_views() -> None:
    state = apply(new_game(), shuffled_deal(3))
    with pytest.raises(WrongTypeError, match="PlayerView"):
        SearchBot().choose(state, random.Random(0))  # type: ignore[arg-type]  # the error path under test
    assert state.to_act is not None
    with pytest.raises(InvalidStateError):
        SearchBot().choose(view(state, state.to_act.left), random.Random(0))


@pytest.mark.parametrize(
    "changes",
    [
        {"worlds": 0},
        {"worlds": 2.5},
        {"solve_tricks": 15},
        {"solve_tricks": -1},
        {"node_limit": 0},
        {"rollout_worlds": -1},
        {"auction_rollouts": "many"},
        {"sunk_rollouts": -2},
        {"exchange_rollouts": -1},
        {"candidates": 0},
        {"playout_solve": 15},
        {"playout_node_limit": 0},
        {"confidence": -1.0},
        {"confidence": "sure"},
        {"heuristic": "heuristic"},
        {"world_pool": 0},
        {"call_model": "heuristic"},
        {"setup_solve": 15},
        {"setup_solve": 2.0},
        {"setup_confidence": -0.5},
        {"setup_confidence": "sure"},
        {"policy": "heuristic"},
        {"card_playouts": "solver"},
        {"card_playouts": None},
        {"card_candidates": "some"},
        {"card_candidates": 3},
    ],
)
def test_bad_budgets_raise_search_error(changes: dict[str, object]) -> None:
    with pytest.raises(SearchError):
        SearchBot(**changes)  # type: ignore[arg-type]  # the error path under test


def test_known_by_name_everywhere_bots_are() -> None:
    """The registry resolves "search" (play_game, simulate and the CLI's --bots and
    --hint-bot all go through it), and play_game accepts the name."""
    assert isinstance(make_bot("search"), SearchBot)
    assert "search" in BOT_NAMES
    final = play_game(["search", "heuristic", "search", "heuristic"], seed=2, max_hands=1)
    assert len(final.completed_hands) == 1


def test_the_named_budgets() -> None:
    """ "search-quick" (also "search": ``SearchBot()``), "search-deep" and "search-endgame"
    are the presets; the endgame preset is the budget ``benchmarks/evaluate_search.py``
    fixed before the issue-11 report run (docs/search-bot.md), and quick is lighter than
    deep in every count."""
    assert make_bot("search-deep") == SearchBot.deep()
    assert make_bot("search-quick") == SearchBot.quick() == SearchBot() == make_bot("search")
    assert make_bot("search-endgame") == SearchBot.endgame()
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "evaluate_search.py"
    spec = importlib.util.spec_from_file_location("evaluate_search", script)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert SearchBot.endgame() == module.EVALUATION_BUDGET
    quick, deep = SearchBot.quick(), SearchBot.deep()
    for field in attrs.fields(SearchBot):
        if field.type in ("int", int):
            assert getattr(quick, field.name) <= getattr(deep, field.name), field.name
    assert quick != deep


def test_with_no_budget_before_the_endgame_it_is_the_policy() -> None:
    """Every phase's budget at 0 (the endgame preset): before the last seven tricks the
    bot takes exactly the heuristic's actions -- the explicit fallback."""
    bot = SearchBot.endgame()
    heuristic = HeuristicBot()
    rng = random.Random(3)
    state = apply(new_game(), shuffled_deal(31))
    while not (state.phase is Phase.PLAY and 14 - len(state.tricks) <= bot.solve_tricks):
        assert state.to_act is not None
        mine = view(state, state.to_act)
        action = bot.choose(mine, random.Random(1))
        assert action == heuristic.choose(mine, rng)
        state = apply(state, action)


@pytest.mark.parametrize("preset", [SearchBot.quick, SearchBot.deep], ids=["quick", "deep"])
def test_the_presets_leave_every_phase_before_the_play_to_the_policy(
    preset: Callable[[], SearchBot],
) -> None:
    """The named budgets search the card play only: the auction, the sunk suit, the
    invitation, the passes and the melds are exactly the heuristic's (their budgets are 0:
    the explicit fallback); the card play before the endgame has deals to search."""
    bot = preset()
    assert (bot.auction_rollouts, bot.sunk_rollouts, bot.exchange_rollouts) == (0, 0, 0)
    assert bot.rollout_worlds > 0
    heuristic = HeuristicBot()
    for seed in (31, 32):
        state = apply(new_game(), shuffled_deal(seed))
        while state.phase is not Phase.PLAY:
            assert state.to_act is not None
            mine = view(state, state.to_act)
            action = bot.choose(mine, random.Random(1))
            assert action == heuristic.choose(mine, random.Random(0))
            state = apply(state, action)


def _compared(bot: SearchBot, mine: PlayerView, candidates: list[Action], seed: int) -> Action:
    """What the documented comparison picks: the candidate with the lowest mean play-out
    cost over ``bot``'s sampled deals, if its mean gain over the first candidate (the
    policy's), deal by deal, exceeds ``bot.confidence`` standard errors; else the first."""
    rng = random.Random(seed)
    seat = mine.seat
    assert seat is not None
    deals = [sample_state(mine, rng) for _ in range(bot.exchange_rollouts)]
    costs = [
        [
            playout_cost(apply(deal, action), seat.team, bot.heuristic,
                         solve_tricks=bot.playout_solve, node_limit=bot.playout_node_limit)
            for deal in deals
        ]
        for action in candidates
    ]  # fmt: skip
    means = [statistics.mean(row) for row in costs]
    best = min(range(len(means)), key=lambda index: (means[index], index))
    gains = [first - other for first, other in zip(costs[0], costs[best], strict=True)]
    error = statistics.stdev(gains) / math.sqrt(len(gains))
    if best and statistics.mean(gains) > bot.confidence * error + 1e-6:
        return candidates[best]
    return candidates[0]


def test_passes_are_chosen_by_play_outs_of_the_candidates() -> None:
    """Each pass the bot makes is the candidate (the heuristic's card first, then the
    cards it would spare next) with the lowest mean play-out cost over the sampled deals;
    and somewhere the search disagrees with the heuristic."""
    bot = SearchBot(exchange_rollouts=3, candidates=3, playout_solve=3)
    heuristic = HeuristicBot()
    checked = 0
    disagreed = 0
    for seed in range(6):
        state = apply(new_game(), shuffled_deal(40 + seed))
        rng = random.Random(0)
        while state.phase is not Phase.PLAY:
            assert state.to_act is not None
            mine = view(state, state.to_act)
            if state.phase in (Phase.PARTNER_PASS, Phase.BIDDER_PASS):
                seat = state.to_act
                first = heuristic.choose(mine, rng)
                order = [PassCard(seat, card) for card in heuristic.pass_order(mine)]
                candidates = [first, *(action for action in order if action != first)][:3]
                action = bot.choose(mine, random.Random(seed))
                assert action == _compared(bot, mine, candidates, seed)
                checked += 1
                disagreed += action != first
            else:
                action = heuristic.choose(mine, rng)
            state = apply(state, action)
    assert checked == 6 * 6
    assert disagreed > 0


def test_the_sunk_suit_is_chosen_by_play_outs_of_every_suit() -> None:
    bot = SearchBot(sunk_rollouts=2, exchange_rollouts=2, playout_solve=3)
    heuristic = HeuristicBot()
    for seed in range(3):
        state = apply(new_game(), shuffled_deal(60 + seed))
        while state.phase is not Phase.SUNK_SUIT:
            assert state.to_act is not None
            state = apply(state, heuristic.choose(view(state, state.to_act), random.Random(0)))
        seat = state.to_act
        assert seat is not None
        mine = view(state, seat)
        first = heuristic.choose(mine, random.Random(0))
        candidates = [first, *(NameSunkSuit(seat, suit) for suit in Suit)]
        candidates = [a for k, a in enumerate(candidates) if a not in candidates[:k]]
        assert bot.choose(mine, random.Random(seed)) == _compared(bot, mine, candidates, seed)


def test_cli_hint_asks_the_search_bot() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "deepsix", "--no-color", "play", "--seed", "1",
         "--hint-bot", "search"],
        input="hint\nquit\n", capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "The search bot would:" in done.stdout


def test_another_candidate_needs_clear_evidence() -> None:
    """The significance rule: the policy's choice (candidate 0) stays unless the best mean
    gains more than ``confidence`` standard errors over it, deal by deal."""
    from deepsix.search._choices import significant as _significant

    always_better = [[30.0, 50.0, 10.0], [20.0, 40.0, 0.0]]  # 10 better in every deal
    assert _significant(always_better, 1.0) == 1
    assert _significant(always_better, 100.0) == 1  # no spread: any confidence is met
    once = [[0.0, 20.0, 0.0], [0.0, 0.0, 0.0]]  # a mean gain of exactly one standard error
    assert _significant(once, 1.0) == 0
    assert _significant(once, 0.99) == 1
    assert _significant(once, 0.0) == 1  # confidence 0: the lowest mean
    worse = [[0.0, 0.0], [10.0, -5.0], [1.0, 1.0]]
    assert _significant(worse, 0.0) == 0  # the policy's choice has the lowest mean
    assert _significant([[5.0], [0.0]], 1.0) == 0  # one deal: no standard error, no switch


def test_the_docs_budget_table_gives_the_presets_fields() -> None:
    # docs/search-bot.md's table of budgets: its columns for quick(), deep() and endgame()
    # are the presets' fields (the deep() column once went stale, showing the first budget).
    docs = Path(__file__).resolve().parents[2] / "docs" / "search-bot.md"
    lines = docs.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| field | `quick()`"))
    header = [cell.strip() for cell in lines[start].strip("|").split("|")]
    assert header[1:4] == ["`quick()` = `SearchBot()`", "`deep()`", "`endgame()`"]
    presets = (SearchBot.quick(), SearchBot.deep(), SearchBot.endgame())
    rows = 0
    for line in lines[start + 2 :]:
        if not line.startswith("| `"):
            break
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        field_list = cells[0].split("(")[0].replace(" x ", ", ")
        names = [name.strip("` ") for name in field_list.split(", ")]
        for preset, cell in zip(presets, cells[1:4], strict=True):
            if cell == "--":  # a field the preset never reaches (no play-outs)
                assert preset.rollout_worlds == 0, (names, cell)
                continue
            if cell == "0" and names == ["rollout_worlds", "candidates"]:
                assert preset.rollout_worlds == 0
                continue
            values = [value.strip() for value in cell.replace(" x ", ", ").split(", ")]
            assert len(values) == len(names), (names, cell)
            for name, value in zip(names, values, strict=True):
                expected = getattr(preset, name)
                shown = None if value == "None" else float(value.replace(",", ""))
                assert shown == expected, (name, preset, value)
        rows += 1
    assert rows == 8


class _Refuses(HeuristicBot):
    """A heuristic that fails the test if the search asks it anything."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        raise AssertionError("the search asked the heuristic")

    def pass_order(self, view: PlayerView) -> list[Card]:
        raise AssertionError("the search asked the heuristic")


def test_the_card_play_can_be_searched_without_the_heuristic(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # card_playouts="perfect" and card_candidates="all": before the endgame every distinct
    # legal card is played out by the search's own perfect-information play-outs, the
    # lowest mean cost wins; neither the heuristic, nor its card costs, nor a play-out
    # policy is consulted (each of them fails the test if asked).
    import deepsix.search.bot as bot_module

    def no_costs(view: PlayerView) -> list[tuple[float, Card]]:
        raise AssertionError("the search asked for the heuristic's card costs")

    searched = SearchBot(
        worlds=2,
        solve_tricks=3,
        rollout_worlds=3,
        playout_solve=2,
        card_playouts="perfect",
        card_candidates="all",
        heuristic=_Refuses(),
        policy=_Refuses(),
    )
    decided = 0
    for seed in range(4):
        state = endgame(Rules(), 200 + seed, 11 - seed, seed % 4)
        seat = state.to_act
        assert seat is not None
        with monkeypatch.context() as patch:
            patch.setattr(bot_module, "card_costs", no_costs)
            action = searched.choose(view(state, seat), random.Random(seed))
        assert action in legal_actions(state)
        decided += 1
    assert decided == 4


def test_with_every_card_a_candidate_the_lowest_mean_wins() -> None:
    # No candidate is privileged: the card with the lowest mean play-out cost over the
    # sampled deals is played, even where the heuristic's choice is within noise of it.
    searched = SearchBot(
        worlds=2, solve_tricks=3, rollout_worlds=4, card_playouts="perfect", card_candidates="all"
    )
    for seed in range(3):
        state = endgame(Rules(), 300 + seed, 10, 0)
        seat = state.to_act
        assert seat is not None
        seen = view(state, seat)
        cards = [a.card for a in legal_actions(state) if isinstance(a, PlayCard)]
        distinct = list(dict.fromkeys(cards))
        if len(distinct) < 2:
            continue
        worlds = sample_worlds(seen, random.Random(seed), 4)
        means = [
            sum(
                perfect_playout_cost(
                    apply(world, PlayCard(seat, card)),
                    seat.team,
                    solve_tricks=5,
                    node_limit=20_000,
                )
                for world in worlds
            )
            for card in distinct
        ]
        best = next(k for k in range(len(distinct)) if means[k] <= min(means) + 1e-9)
        chosen = searched.choose(seen, random.Random(seed))
        assert chosen == PlayCard(seat, distinct[best])


def test_the_search_melds_by_the_best_declaration_without_the_heuristic() -> None:
    # Melding has one candidate worth considering, the best declaration: the search
    # declares it itself, asking the heuristic nothing.
    searched = SearchBot(heuristic=_Refuses())
    rng = random.Random(8)
    declared = 0
    for seed in range(6):
        state = apply(new_game(), shuffled_deal(seed))
        while state.phase is not Phase.PLAY and not state.completed_hands:
            seat = state.to_act
            assert seat is not None
            seen = view(state, seat)
            if state.phase in (Phase.BIDDER_MELD, Phase.MELDING):
                action = searched.choose(seen, rng)
                assert action == next_declaration(seen)
                declared += 1
            else:
                action = HeuristicBot().choose(seen, rng)
            state = apply(state, action)
    assert declared > 6
