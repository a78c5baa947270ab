"""The trust boundary (issue 15): every reproducer found by the outside probe fails fast with a
typed error, every exception is a DeepSixError, and every cache is bounded.

Each reproducer has a test named after it.  Work is bounded by counting calls and peak memory
(:mod:`tests.support.budget`), never by wall time.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from deepsix import (
    Bid,
    Card,
    DeepSixError,
    GameState,
    HeuristicBot,
    IllegalActionError,
    InvalidStateError,
    Meld,
    ParseError,
    Pass,
    Phase,
    PlayerView,
    RandomBot,
    Reason,
    Rules,
    SamplingError,
    Seat,
    Suit,
    Team,
    apply,
    from_json,
    hands,
    legal_actions,
    new_game,
    parse_action,
    read_record,
    record_of,
    sample_state,
    shuffled_deal,
    to_json,
    validate,
    view,
    write_record,
)
from deepsix.cli import parse_command
from deepsix.errors import NotAnActionError, WrongTypeError
from deepsix.melds import MeldFamily, MeldKind
from deepsix.phases import auction
from deepsix.rules import MAX_CALLS, MOST_CARD_POINTS
from deepsix.scoring import TOTAL_CARD_POINTS
from tests.support.budget import Budget, bounded_work, loader_budget


def _bidding_state() -> GameState:
    return new_game().apply(shuffled_deal(1)).apply(Pass(Seat.EAST))


# -- reproducer 1 (high): a tiny document could cost seconds and a gigabyte ---------------------


@pytest.mark.parametrize("floor", [-(10**8), -(10**12), -(10**18), -(10**100), -415, 255])
def test_reproducer_1_state_document_with_a_huge_bid_floor(floor: int) -> None:
    """R-BID-6: a state document whose rules set an absurd bid floor is refused at once."""
    document = json.loads(to_json(_bidding_state()))
    document["data"]["rules"]["lowest_bid"] = floor
    text = json.dumps(document)
    from_json(to_json(_bidding_state()), GameState)  # the converter's one-time setup
    with bounded_work(loader_budget(text)), pytest.raises(DeepSixError, match="lowest_bid"):
        from_json(text, GameState)


def test_reproducer_1_record_with_a_huge_bid_floor() -> None:
    """R-BID-6: the 952-character record with ``lowest_bid=-999990`` and 100 bids fails fast."""
    calls = " ".join(
        f"{seat}:B{amount}"
        for seat, amount in zip("ESWN" * 25, range(-10, -1010, -10), strict=True)
    )
    text = f'[Rules "lowest_bid=-999990"]\n{shuffled_deal_text()}\n{calls}\n'
    with bounded_work(loader_budget(text)), pytest.raises(DeepSixError, match="lowest_bid"):
        read_record(text)


def shuffled_deal_text() -> str:
    return write_record(record_of(new_game().apply(shuffled_deal(1)))).splitlines()[-1]


def test_reproducer_1_new_game_with_a_huge_bid_floor() -> None:
    """R-BID-6: ``Rules(lowest_bid=-10**12)`` is refused, so no auction can list 10**11 calls."""
    with pytest.raises(InvalidStateError, match="lowest_bid must be from -410 to 250"):
        Rules(lowest_bid=-(10**12))


@given(
    st.sampled_from([f.name for f in attrs.fields(Rules) if "bounds" in f.metadata]),
    st.integers(-(10**30), 10**30) | st.sampled_from([-411, 251, 0, 4, 10_001, -(2**63)]),
)
def test_every_rules_number_is_bounded(name: str, value: int) -> None:
    """R-BID-3..R-BID-7: a number out of its bounds is refused; in bounds, the auction is short."""
    low, high = Rules.bounds()[name]
    try:
        rules = Rules(**{name: value})  # type: ignore[arg-type]  # one int field, by name
    except InvalidStateError:
        return
    assert low <= value <= high
    state = new_game(rules).apply(shuffled_deal(2))
    assert len(legal_actions(state)) <= MAX_CALLS


def test_bid_bounds_follow_the_game() -> None:
    """R-BID-6, R-SCORE-1: no contract above all the points of a hand; no floor below the
    largest partnership meld; the most calls an auction can offer is 134."""
    assert MOST_CARD_POINTS == TOTAL_CARD_POINTS
    assert Rules.bounds()["lowest_bid"] == (-410, 250)
    widest = Rules(bid_step=5, opening_bid_limit=250, forced_bid=250, lowest_bid=-410,
                   failed_bid_score=250)  # fmt: skip
    state = new_game(widest).apply(shuffled_deal(3))
    assert len(legal_actions(state)) == MAX_CALLS == 134


# -- reproducer 2 (medium): a view whose scores contradict its score sheet --------------------


def test_reproducer_2_view_scores_contradicting_the_score_sheet() -> None:
    """R-SCORE-*: such a view does not load, and cannot be sampled into an invalid state."""
    mine = view(new_game().apply(shuffled_deal(3)), Seat.EAST)
    document = json.loads(to_json(mine))
    document["data"]["scores"] = [0, -5]
    with pytest.raises(DeepSixError, match="scores"):
        from_json(json.dumps(document), PlayerView)
    with pytest.raises(SamplingError, match="scores"):
        sample_state(attrs.evolve(mine, scores=(0, -5)), random.Random(1))


# -- reproducer 3 (medium): a line of only commas ----------------------------------------------


@pytest.mark.parametrize("line", [",", ",,,", " , , ", "\t,\n", ",;,"])
def test_reproducer_3_a_line_of_only_commas(line: str) -> None:
    """R-TURN-1: the prompt answers a line with no move with a typed error, not a crash."""
    state = new_game().apply(shuffled_deal(3))
    seat = state.to_act
    assert seat is not None
    with pytest.raises(ParseError):
        parse_command(line, view(state, seat))


# -- reproducer 4 (medium): bytes that are not UTF-8 on stdin -----------------------------------


def test_reproducer_4_non_utf8_stdin() -> None:
    """R-TURN-1: ``deepsix play`` reads any bytes under a strict UTF-8 stdin without a traceback."""
    result = subprocess.run(
        [sys.executable, "-m", "deepsix", "--no-color", "play", "--seed", "3"],
        input=b"x\n\xff\n\xc3\x28\n,,,\nquit\n",
        capture_output=True,
        env={"PYTHONIOENCODING": "utf-8:strict", "PATH": "/usr/bin:/bin"},
        timeout=120,
        check=False,
    )
    out = result.stdout.decode("utf-8", "replace") + result.stderr.decode("utf-8", "replace")
    assert "Traceback" not in out
    assert result.returncode == 0
    assert "Game stopped (quit)" in out


# -- reproducer 5 (low): an action built without its constructor -------------------------------


@pytest.mark.parametrize("kind", [Bid, Pass])
def test_reproducer_5_action_without_its_constructor(kind: type) -> None:
    """R-PHASE-1: ``object.__new__(Bid)`` is refused with a typed error; the state is unchanged."""
    state = new_game().apply(shuffled_deal(1))
    before = to_json(state)
    with pytest.raises(NotAnActionError) as caught:
        apply(state, object.__new__(kind))
    assert isinstance(caught.value, TypeError)
    assert not isinstance(caught.value, IllegalActionError)
    assert caught.value.reason is Reason.UNKNOWN_ACTION
    assert to_json(state) == before
    with pytest.raises(NotAnActionError):
        apply(new_game(), object.__new__(type(shuffled_deal(1))))


# -- every exception is a DeepSixError ---------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "also"),
    [
        (lambda: Seat(7), ValueError),
        (lambda: Suit(9), ValueError),
        (lambda: Team(2), ValueError),
        (lambda: Phase("nope"), ValueError),
        (lambda: MeldKind(1), ValueError),
        (lambda: MeldFamily("x"), ValueError),
        (lambda: Reason(1), ValueError),  # type: ignore[call-arg, arg-type]  # the point
        (lambda: Card(28), ValueError),  # type: ignore[arg-type]  # the point
        (lambda: Meld.parse(None), ValueError),
        (lambda: HeuristicBot().choose(_bidding_state(), random.Random(0)), TypeError),  # type: ignore[arg-type]  # the point
        (lambda: RandomBot().choose(_bidding_state(), random.Random(0)), TypeError),  # type: ignore[arg-type]  # the point
        (lambda: apply(_bidding_state(), "E:P"), TypeError),  # type: ignore[call-overload]  # the point
        (lambda: view(_bidding_state(), 2.5), TypeError),  # type: ignore[arg-type]  # the point
        (lambda: view(_bidding_state(), "X"), ValueError),
        (lambda: _bidding_state().hand(None), TypeError),  # type: ignore[arg-type]  # the point
        (lambda: Card(7), ValueError),  # type: ignore[arg-type]  # the point
        (lambda: view(_bidding_state(), 5), ValueError),
        (lambda: parse_action("E:B" + "9" * 41), ValueError),
    ],
)
def test_errors_are_deepsix_errors(call: object, also: type[Exception]) -> None:
    """R-PHASE-1: what a caller gets wrong raises a DeepSixError (and the builtin it is)."""
    with pytest.raises(DeepSixError) as caught:
        call()  # type: ignore[operator]  # a zero-argument lambda
    assert isinstance(caught.value, also)


@pytest.mark.parametrize("junk", ["E:P", None, 7])
def test_something_that_is_not_a_state(junk: object) -> None:
    """R-PHASE-1: ``apply`` and ``legal_actions`` given something that is not a state raise
    ``WrongTypeError`` -- in both builds (the compiled one too takes anything at run time)."""
    with pytest.raises(WrongTypeError, match="needs a GameState"):
        apply(junk, Pass(Seat.EAST))  # type: ignore[call-overload]  # the point
    with pytest.raises(WrongTypeError, match="needs a GameState"):
        legal_actions(junk)  # type: ignore[call-overload]  # the point


@pytest.mark.parametrize("seed", ["x", 1.5, b"7", True, [1]])
def test_a_seed_that_is_not_a_seed(seed: object) -> None:
    """``shuffled_deal`` takes an int, a ``random.Random`` or ``None``; anything else is a
    ``WrongTypeError`` in both builds (the pure build once dealt from a string seed)."""
    with pytest.raises(WrongTypeError, match="shuffled_deal"):
        shuffled_deal(seed)  # type: ignore[call-overload]  # the point


def test_a_value_that_is_not_an_action_is_a_type_error_not_a_rule() -> None:
    state = _bidding_state()
    with pytest.raises(NotAnActionError) as caught:
        apply(state, "E:P")  # type: ignore[call-overload]  # the point
    assert not str(caught.value).startswith("R-")
    assert "parse_action" in str(caught.value)


def test_a_41_digit_bid_is_called_too_long() -> None:
    with pytest.raises(ParseError, match="at most 6 digits, not 41"):
        parse_action("E:B" + "9" * 41)


# -- every cache is bounded ---------------------------------------------------------------------


def test_the_auction_cache_is_bounded_in_entries_and_size() -> None:
    """R-BID-3: however many rule sets are loaded, the auction cache stays small."""
    auction._CALLS.clear()
    rng = random.Random(7)
    for _ in range(3000):
        step = rng.choice((5, 10, 20))
        rules = Rules(bid_step=step, lowest_bid=-step * rng.randrange(1, 410 // step))
        auction.legal_calls(rules, (), Seat(rng.randrange(4)), None)
    assert len(auction._CALLS) <= auction._MAX_CACHED_AUCTIONS
    assert max(map(len, auction._CALLS.values())) <= MAX_CALLS
    assert len(auction._BIDS) <= 4 * (250 + 410) // 5 + 4


def test_the_suit_block_cache_is_bounded_by_its_keys() -> None:
    """R-DECK-1: a suit block has 4**7 values, so the decoded-suit cache has at most 4 x 4**7."""
    for suit in range(4):
        for block in range(0, 4**7, 97):
            hands.suit_cards(suit, block)
    assert len(hands._SUIT_CARDS) <= 4 * 4**7
    assert all(len(cards) <= 7 for cards in hands._SUIT_CARDS.values())


def test_a_work_budget_can_fail() -> None:
    # The budget used above is a real check: loading a whole state is well within it, and a
    # budget far too small for the same load fails.
    state = new_game().apply(shuffled_deal(4))
    text = to_json(state)
    from_json(text, GameState)
    with bounded_work(loader_budget(text)):
        from_json(text, GameState)
    with pytest.raises(AssertionError), bounded_work(Budget(calls=100, peak_bytes=10**9)):
        validate(from_json(text, GameState))
