"""Melds: optimality of ``best_meld``, the sunk-suit and sharing rules, and the largest melds
(issue 3, invariant 8).

* :func:`brute_force_best` enumerates *every* feasible declaration -- every
  sub-multiset of the candidate melds, each taken 0, 1 or 2 times -- from
  the rules text's meld table (:mod:`tests.checks`), and ``best_meld`` must
  match its optimum on random and adversarial hands, both sharing variants,
  with and without the bidder's ``max_melded`` cap.
* :func:`largest_meld` is an exact dynamic programme over the four suits
  that proves the largest meld of one 14-card hand and of a partnership.
  It is itself checked against brute force on small capacities.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import Counter
from collections.abc import Callable, Sequence
from typing import NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deepsix import (
    ALL_MELDS,
    DECK,
    Action,
    Bid,
    Card,
    Deal,
    DeclareMeld,
    Done,
    IllegalActionError,
    Meld,
    MeldFamily,
    MeldKind,
    NameSunkSuit,
    ParseError,
    Pass,
    PassCard,
    Phase,
    Reason,
    Rules,
    Seat,
    Suit,
    apply,
    best_meld,
    candidate_melds,
    legal_actions,
    new_game,
    parse_cards,
)
from deepsix.hands import pack
from deepsix.melds import (
    available_melds,
    meld_blocker,
    melded_copies,
    packed_available_melds,
    packed_meld_blocker,
    tied_up_packed,
)
from deepsix.rules import LARGEST_PARTNERSHIP_MELD, LOWEST_BID
from tests.support.checks import (
    naive_copies_needed,
    naive_meld_cards,
    naive_meld_problems,
    naive_meld_value,
)
from tests.support.strategies import deep_only, hands, meld_rich_hands, suits

# -- brute force ------------------------------------------------------------------


class BruteForce(NamedTuple):
    """The optimum found by enumerating every feasible declaration."""

    value: int
    """The most negative total."""
    copies: int
    """The fewest card copies tied up by a declaration of that total."""
    declaration: tuple[Meld, ...]
    """The optimum itself: of those, the one whose melds come first in ``ALL_MELDS`` order."""
    declarations: int
    """How many feasible declarations (sub-multisets of candidates) were enumerated."""


def brute_force_best(
    cards: Sequence[Card], sunk: Suit, *, sharing: bool, max_melded: int | None = None
) -> BruteForce:
    """Enumerate every sub-multiset of the candidate melds (each 0, 1 or 2 times) and keep the best.

    A candidate is a meld whose cards the hand holds and that is not a run
    in the sunk suit.  Feasibility is monotone (adding a meld never frees a
    copy), so a branch stops as soon as it becomes infeasible: every
    feasible declaration is still visited exactly once.
    """
    held = Counter(cards)
    candidates = [
        meld
        for meld in ALL_MELDS
        if not (naive_meld_cards(meld)[0] == "run" and meld.suit == sunk)
        and all(held[card] >= n for card, n in naive_meld_cards(meld)[1].items())
    ]
    best: tuple[int, int, list[int]] = (0, 0, [])
    declarations = 0
    chosen: list[Meld] = []

    def copies_if_feasible() -> int | None:
        if naive_meld_problems(held, chosen, sunk, sharing=sharing, max_melded=max_melded):
            return None
        return sum(naive_copies_needed(chosen, sharing=sharing).values())

    def search(index: int, value: int, copies: int) -> None:
        nonlocal best, declarations
        if index == len(candidates):
            declarations += 1
            if (value, copies) <= best[:2]:  # only then can the meld order decide
                best = min(best, (value, copies, sorted(ALL_MELDS.index(m) for m in chosen)))
            return
        search(index + 1, value, copies)
        meld = candidates[index]
        taken = 0
        for times in (1, 2):
            chosen.append(meld)
            taken += 1
            used = copies_if_feasible()
            if used is None:
                break
            search(index + 1, value + times * naive_meld_value(meld), used)
        del chosen[len(chosen) - taken :]

    search(0, 0, 0)
    return BruteForce(best[0], best[1], tuple(ALL_MELDS[i] for i in best[2]), declarations)


def _assert_optimal(
    cards: tuple[Card, ...], sunk: Suit, sharing: bool, max_melded: int | None
) -> None:
    rules = Rules(meld_sharing=sharing)
    declared = best_meld(cards, sunk, rules, max_melded=max_melded)
    truth = brute_force_best(cards, sunk, sharing=sharing, max_melded=max_melded)
    held = Counter(cards)
    assert not naive_meld_problems(held, declared, sunk, sharing=sharing, max_melded=max_melded)
    assert sum(naive_meld_value(meld) for meld in declared) == truth.value
    copies = sum(naive_copies_needed(declared, sharing=sharing).values())
    assert copies == truth.copies, "ties go to the declaration tying up fewer copies"
    assert declared == truth.declaration, "then to the one whose melds come first in order"
    # The declaration can be made one meld at a time, each step legal for the engine.
    counts = [held[card] for card in sorted(set(DECK))]
    for i, meld in enumerate(declared):
        prefix = declared[:i]
        assert meld in available_melds(counts, prefix, sunk, sharing=sharing, max_melded=max_melded)


@given(hands(0, 17), suits(), st.booleans(), st.sampled_from([None, 14, 11]))
def test_best_meld_is_optimal_on_random_hands(
    cards: tuple[Card, ...], sunk: Suit, sharing: bool, max_melded: int | None
) -> None:
    """Invariant 8: melds -- ``best_meld`` equals brute force over every subset of candidate melds.

    Random hands of 0 to 17 cards, both sharing variants (R-MELD-3), with
    and without the bidder's cap on melded copies (R-MELD-4).
    """
    _assert_optimal(cards, sunk, sharing, max_melded)


@given(meld_rich_hands(8, 17), suits(), st.booleans(), st.sampled_from([None, 14, 10]))
def test_best_meld_is_optimal_on_adversarial_hands(
    cards: tuple[Card, ...], sunk: Suit, sharing: bool, max_melded: int | None
) -> None:
    """Invariant 8: melds -- ``best_meld`` equals brute force on meld-dense hands (4s-8s or 6s-8s).

    These hands have many overlapping runs, echoes and wides (up to a few
    thousand feasible declarations), where greedy choices fail (R-MELD-1..4).
    """
    _assert_optimal(cards, sunk, sharing, max_melded)


@pytest.mark.parametrize(
    ("text", "sunk", "sharing", "value"),
    [
        ("8S 8S 7S 6S 8H 8D 8C 2C", Suit.HEARTS, True, -80),
        ("8S 8S 7S 6S 8H 8D 8C 2C", Suit.HEARTS, False, -60),
        ("8S 8S 8H 8H 8D 8D 8C 8C", Suit.CLUBS, True, -140),
        ("8S 8S 8H 8H 8D 8D 8C 8C", Suit.CLUBS, False, -80),
        ("8S 7S 6S 5S 4S 8S 7S 6S 5S 4S", Suit.HEARTS, True, -145),
        ("8S 7S 6S 5S 4S 8S 7S 6S 5S 4S", Suit.SPADES, True, -45),
        ("8S 7S 6S 5S 4S 8S 7S 6S 5S 4S", Suit.HEARTS, False, -100),
    ],
)
def test_sharing_rule_examples(text: str, sunk: Suit, sharing: bool, value: int) -> None:
    """Invariant 8: melds -- a copy serves one meld per family (R-MELD-3); no sunk run (R-MELD-2).

    Two 8♠ and the other 8s: with sharing the pair is a deep echo and each
    8♠ also sits in an eights wide; without, each copy serves once.
    """
    cards = parse_cards(text)
    declared = best_meld(cards, sunk, Rules(meld_sharing=sharing))
    assert sum(meld.value for meld in declared) == value
    assert brute_force_best(cards, sunk, sharing=sharing).value == value


@pytest.mark.parametrize(
    ("text", "sunk", "sharing", "cap"),
    [
        ("6C 6D 6D 8D 8D 6H 6H 7H 8H 8H 6S 6S", Suit.CLUBS, True, 8),
        ("6C 7C 8C 6D 6D 7D 7D 8D 8D 7H 8H 6S 7S 8S 8S", Suit.CLUBS, False, 10),
        ("6C 6C 7C 7C 6D 6D 7D 8D 6H 6H 8H 8H 6S 6S 7S 8S 8S", Suit.CLUBS, True, 14),
    ],
)
def test_best_meld_tie_breaks(text: str, sunk: Suit, sharing: bool, cap: int) -> None:
    """Invariant 8: melds -- among equally valuable declarations ``best_meld`` ties up the fewest
    copies, then takes the melds first in ``ALL_MELDS`` order (R-MELD-3, R-MELD-4).

    Hands found by hunting mutants of the search: each has several
    declarations of the best value that tie up different numbers of copies.
    """
    _assert_optimal(parse_cards(text), sunk, sharing, cap)


@given(st.one_of(hands(0, 17), meld_rich_hands(8, 17)), suits(), st.booleans(), st.data())
def test_meld_blocker_matches_the_sharing_rule(
    cards: tuple[Card, ...], sunk: Suit, sharing: bool, data: st.DataObject
) -> None:
    """Invariant 8: melds -- the engine's per-meld checks agree with the rules text's sharing rule.

    For a declaration so far that the hand can hold (mostly built from the
    hand's own candidate melds) and any next meld, ``meld_blocker`` refuses
    exactly when the rules text's feasibility check does, ``available_melds``
    offers exactly the melds it accepts, in canonical order, and
    ``melded_copies`` counts copies the same way (R-MELD-2, R-MELD-3,
    R-MELD-4).  Leaving ``sharing`` out means sharing.
    """
    held = Counter(cards)
    counts = [held[card] for card in sorted(set(DECK))]
    pool = list(candidate_melds(cards, None)) or list(ALL_MELDS)
    declared: list[Meld] = []
    for wanted in data.draw(st.lists(st.sampled_from(pool), max_size=6)):
        # Keep the declaration so far one the hand can legally hold (the functions' precondition).
        if not naive_meld_problems(held, [*declared, wanted], sunk, sharing=sharing):
            declared.append(wanted)
    meld = data.draw(st.sampled_from(pool + list(ALL_MELDS)))
    cap = data.draw(st.sampled_from([None, 3, 6, 8, 14]))
    problems = naive_meld_problems(held, [*declared, meld], sunk, sharing=sharing, max_melded=cap)
    reason = meld_blocker(counts, declared, meld, sunk, sharing=sharing, max_melded=cap)
    assert (reason is None) == (not problems)
    if reason is not None:
        assert reason in problems
    offered = available_melds(counts, declared, sunk, sharing=sharing, max_melded=cap)
    assert list(offered) == [
        m
        for m in ALL_MELDS
        if not naive_meld_problems(held, [*declared, m], sunk, sharing=sharing, max_melded=cap)
    ]
    tied = melded_copies(declared, sharing=sharing)
    needed = naive_copies_needed(declared, sharing=sharing)
    assert tied == [needed[card] for card in sorted(set(DECK))]
    if sharing:
        assert melded_copies(declared) == tied
        assert meld_blocker(counts, declared, meld, sunk, max_melded=cap) == reason
        assert available_melds(counts, declared, sunk, max_melded=cap) == offered


SHARED_HAND = "8S 8S 7S 6S 8H 8H 8D 8D 8C 8C"
"""Both copies of every 8, and the 7♠ and 6♠: a deep run, two eights wides and four deep echoes
overlap on the 8s."""


def test_meld_functions_on_a_shared_hand() -> None:
    """Invariant 8: melds -- the sharing ruling, its variant, the bidder's cap and the sunk suit
    in ``meld_blocker``, ``available_melds`` and ``melded_copies`` (R-MELD-2..4).

    With sharing, after a deep run of spades and an eights wide the second
    eights wide and the spade echo still fit (each 8♠ serves one meld per
    family); without sharing neither does.  Sharing is the default.
    """
    held = Counter(parse_cards(SHARED_HAND))
    counts = [held[card] for card in sorted(set(DECK))]
    run, wide = Meld(MeldKind.DEEP_RUN, Suit.SPADES), Meld(MeldKind.EIGHTS_WIDE)
    echo = Meld(MeldKind.DEEP_ECHO, Suit.SPADES)
    declared = [run, wide]
    for meld in (wide, echo):
        assert meld_blocker(counts, declared, meld, Suit.HEARTS) is None
        assert meld_blocker(counts, declared, meld, Suit.HEARTS, sharing=True) is None
        assert meld in available_melds(counts, declared, Suit.HEARTS)
        blocked = meld_blocker(counts, declared, meld, Suit.HEARTS, sharing=False)
        assert blocked is Reason.MELD_UNAVAILABLE
        assert meld not in available_melds(counts, declared, Suit.HEARTS, sharing=False)
    # The cap counts copies tied up: run + wide tie up 3 + 3 others = 6 copies.
    assert sum(melded_copies(declared)) == 6
    assert sum(melded_copies(declared, sharing=False)) == 7
    assert meld_blocker(counts, declared, echo, Suit.HEARTS, max_melded=7) is None
    capped = meld_blocker(counts, declared, wide, Suit.HEARTS, max_melded=9)
    assert capped is Reason.TOO_FEW_UNMELDED
    assert wide not in available_melds(counts, declared, Suit.HEARTS, max_melded=9)
    assert run not in available_melds(counts, (), Suit.SPADES)
    assert run in available_melds(counts, (), Suit.HEARTS)
    assert run not in candidate_melds(parse_cards(SHARED_HAND), Suit.SPADES)
    assert run in candidate_melds(parse_cards(SHARED_HAND), Suit.HEARTS)
    # The engine's bit-packed variants agree, and also default to sharing.
    packed = pack(parse_cards(SHARED_HAND))
    for sharing in (True, False):
        assert tied_up_packed(declared, sharing=sharing) == sum(
            n << (2 * i) for i, n in enumerate(melded_copies(declared, sharing=sharing))
        )
        assert packed_available_melds(packed, declared, Suit.HEARTS, sharing=sharing) == (
            available_melds(counts, declared, Suit.HEARTS, sharing=sharing)
        )
        for meld in (wide, echo):
            assert packed_meld_blocker(
                packed, declared, meld, Suit.HEARTS, sharing=sharing
            ) == meld_blocker(counts, declared, meld, Suit.HEARTS, sharing=sharing)
    assert tied_up_packed(declared) == tied_up_packed(declared, sharing=True)
    assert packed_meld_blocker(packed, declared, wide, Suit.HEARTS) is None
    assert packed_available_melds(packed, declared, Suit.HEARTS) == available_melds(
        counts, declared, Suit.HEARTS
    )


def test_sharing_rule_in_the_engine() -> None:
    """Invariant 8: melds -- the engine applies the sharing ruling and its variant (R-MELD-3).

    South melds from both copies of every 8 and the 7♠ 6♠.  After a deep
    run of spades and an eights wide, the second eights wide and the spade
    echo are legal with sharing and refused without it.
    """
    north = parse_cards("2C 2C 3C 3C 2D 2D 3D 3D 4C 4C 5C 5C 4D 4D")
    south = parse_cards(SHARED_HAND + " 2H 2H 3H 3H")
    run, wide = Meld(MeldKind.DEEP_RUN, Suit.SPADES), Meld(MeldKind.EIGHTS_WIDE)
    echo = Meld(MeldKind.DEEP_ECHO, Suit.SPADES)
    for sharing in (True, False):
        rules = Rules(meld_sharing=sharing)
        state = apply(new_game(rules, dealer=Seat.WEST), _deal_for(north, south))
        opening: list[Action] = [
            Bid(Seat.NORTH, 120),
            Pass(Seat.EAST),
            Pass(Seat.SOUTH),
            Pass(Seat.WEST),
            NameSunkSuit(Seat.NORTH, Suit.CLUBS),
            Done(Seat.NORTH),
            *(PassCard(Seat.SOUTH, Card.parse(text)) for text in ("2H", "2H", "3H")),
            Done(Seat.NORTH),
            *(PassCard(Seat.NORTH, Card.parse(text)) for text in ("2C", "2C", "3C")),
            Done(Seat.EAST),
            DeclareMeld(Seat.SOUTH, run),
            DeclareMeld(Seat.SOUTH, wide),
        ]
        for action in opening:
            state = apply(state, action)
        for meld in (wide, echo):
            declare = DeclareMeld(Seat.SOUTH, meld)
            assert (declare in legal_actions(state)) is sharing
            if not sharing:
                with pytest.raises(IllegalActionError) as caught:
                    apply(state, declare)
                assert caught.value.reason is Reason.MELD_UNAVAILABLE


@given(hands(0, 17), suits())
def test_no_run_in_the_sunk_suit(cards: tuple[Card, ...], sunk: Suit) -> None:
    """Invariant 8: melds -- a run is never offered, found or scored in the sunk suit (R-MELD-2)."""
    held = Counter(cards)
    counts = [held[card] for card in sorted(set(DECK))]
    offered = (
        *candidate_melds(cards, sunk),
        *available_melds(counts, (), sunk),
        *best_meld(cards, sunk),
        *best_meld(cards, sunk, Rules(meld_sharing=False)),
    )
    assert not [m for m in offered if m.family is MeldFamily.RUN and m.suit == sunk]
    for meld in ALL_MELDS:
        if meld.family is MeldFamily.RUN and meld.suit == sunk:
            assert meld_blocker([2] * 28, (), meld, sunk) is Reason.RUN_IN_SUNK_SUIT


def test_meld_table_matches_the_rules_text() -> None:
    """Invariant 8: melds -- each meld's cards, family, value as in the table (R-MELD-1)."""
    assert len(ALL_MELDS) == 27 == 3 * 4 + 3 * 4 + 3
    assert len(set(ALL_MELDS)) == 27
    for meld in ALL_MELDS:
        family, cards = naive_meld_cards(meld)
        assert meld.family.value == family
        assert Counter(meld.cards) == cards
        assert meld.value == naive_meld_value(meld) == meld.kind.points
        assert Meld.parse(meld.code) == meld


# -- the largest melds, by exact search ----------------------------------------------

MELD_RANKS = (4, 5, 6, 7, 8)
"""Only these ranks can meld; 2s and 3s never do, so they never change a maximum."""

SUIT_VECTORS = tuple(itertools.product(range(3), repeat=5))
"""The 243 ways to hold 0-2 copies of each of one suit's 4, 5, 6, 7, 8."""

_RUN_USES = tuple(
    ((g, g + s, g + d + s, g + d + s, g + d), -50 * g - 30 * d - 15 * s)
    for g, d, s in itertools.product(range(3), repeat=3)
)
"""Runs of one suit: g grand (4-8), d deep (6-8), s shallow (5-7) runs, each 0-2 times:
copies used per rank 4..8, and value (rules text, MELDING)."""

_ECHO_USES = tuple(
    ((0, 0, 2 * e6, 2 * e7, 2 * e8), -10 * e6 - 15 * e7 - 20 * e8)
    for e6, e7, e8 in itertools.product(range(2), repeat=3)
)
"""Echoes of one suit: both copies of the 6, 7 or 8."""

_WIDE_VALUES = (-10, -20, -30)
"""Sixes, sevens, eights wide."""


def _suit_value(counts: tuple[int, ...], sunk: bool, sharing: bool) -> int:
    """The best runs-and-echoes declaration of one suit holding ``counts`` copies of 4..8."""
    best = 0
    for run_use, run_value in _RUN_USES if not sunk else _RUN_USES[:1]:
        for echo_use, echo_value in _ECHO_USES:
            if sharing:
                fits = all(
                    max(r, e) <= c for r, e, c in zip(run_use, echo_use, counts, strict=True)
                )
            else:
                fits = all(r + e <= c for r, e, c in zip(run_use, echo_use, counts, strict=True))
            if fits:
                best = min(best, run_value + echo_value)
    return best


Holdings = tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]
"""Per suit, the bidder's and the partner's counts of ranks 4..8."""
Table = dict[tuple[int, int], tuple[int, Holdings]]
"""(bidder copies, partner copies) -> (best value, the per-suit holdings that reach it)."""


def _pareto(table: Table, cap: int) -> Table:
    """Drop entries that another entry beats with no more copies on either side."""
    kept: Table = {}
    best_below = [[1] * (cap + 2) for _ in range(cap + 2)]
    for u in range(cap + 1):
        for v in range(cap + 1):
            dominated = min(best_below[u][v + 1], best_below[u + 1][v])
            entry = table.get((u, v))
            here = dominated
            if entry is not None and entry[0] < dominated:
                kept[(u, v)] = entry
                here = entry[0]
            best_below[u + 1][v + 1] = here
    return kept


def _combine(a: Table, b: Table, cap: int) -> Table:
    out: Table = {}
    for (u1, v1), (x, wa) in a.items():
        for (u2, v2), (y, wb) in b.items():
            key = (u1 + u2, v1 + v2)
            if key[0] <= cap and key[1] <= cap and x + y < out.get(key, (1, ()))[0]:
                out[key] = (x + y, wa + wb)
    return _pareto(out, cap)


class MeldMaximum(NamedTuple):
    """The result of :func:`largest_meld`."""

    value: int
    """The most negative total meld."""
    bidder: tuple[Card, ...]
    """A hand (the melded copies) reaching it: the bidder's, or the one hand."""
    partner: tuple[Card, ...]
    """The partner's melded copies (empty for a single hand)."""
    targets: int
    """How many wide combinations were searched (all of them: the search is exhaustive)."""


@functools.cache
def largest_meld(
    *, partnership: bool, sharing: bool, capacity: int = 14, sunk_suit: Suit = Suit.SPADES
) -> MeldMaximum:
    """The largest meld one hand (or a partnership) can declare, by exact exhaustive search.

    Holdings are count vectors over the 20 meldable cards (ranks 4-8).  A
    hand melds at most ``capacity`` copies: 14 for any hand, and for the
    bidder too (she melds from 17 cards but keeps 3 to pass back,
    R-MELD-4).  The partners' copies are disjoint (at most two of a card
    between them), and they share the sunk suit.

    With the sharing ruling (R-MELD-3) a hand's runs, echoes and wides are
    independent given its cards; without it, wides use up copies first.
    The search fixes the number of eights, sevens and sixes wides each
    partner declares (every combination), which makes the suits
    independent, tabulates each suit's best runs and echoes for every
    pair of holdings (6^5 per suit), and combines the four suits'
    tables over the copies used -- an exact max-plus convolution with
    dominated entries removed.  Nothing is sampled or bounded away.
    """
    zero = (0,) * 5
    pairs = [
        (b, p)
        for b in SUIT_VECTORS
        for p in (SUIT_VECTORS if partnership else (zero,))
        if all(x + y <= 2 for x, y in zip(b, p, strict=True))
    ]
    free = {
        sunk: {counts: _suit_value(counts, sunk, sharing) for counts in SUIT_VECTORS}
        for sunk in (False, True)
    }
    wide_levels = tuple(itertools.product(range(3), repeat=3))
    targets = [
        (tb, tp)
        for tb in wide_levels
        for tp in (wide_levels if partnership else ((0, 0, 0),))
        if all(x + y <= 2 for x, y in zip(tb, tp, strict=True))
    ]

    # Per pair of holdings: the wide-rank counts (6s, 7s, 8s of each partner), the copies used.
    records = [(b[2], b[3], b[4], p[2], p[3], p[4], sum(b), sum(p), b, p) for b, p in pairs]
    # With sharing a suit's runs and echoes do not depend on the wides, so the pairs can be
    # grouped by their wide-rank counts once: a target's table merges the groups that hold
    # at least the target's wides.
    groups: dict[tuple[int, ...], tuple[Table, Table]] = {}
    if sharing:
        for *profile, ub, up, b, p in records:
            tables = groups.setdefault(tuple(profile), ({}, {}))
            for sunk in (False, True):
                value = free[sunk][b] + free[sunk][p]
                if value < tables[sunk].get((ub, up), (1, ()))[0]:
                    tables[sunk][(ub, up)] = (value, ((b, p),))
        groups = {
            profile: (_pareto(plain, capacity), _pareto(sunk, capacity))
            for profile, (plain, sunk) in groups.items()
        }

    def suit_table(tb: tuple[int, ...], tp: tuple[int, ...], sunk: bool) -> Table:
        table: Table = {}
        t6, t7, t8 = tb
        u6, u7, u8 = tp
        if sharing:
            for (b6, b7, b8, p6, p7, p8), tables in groups.items():
                if b6 >= t6 and b7 >= t7 and b8 >= t8 and p6 >= u6 and p7 >= u7 and p8 >= u8:
                    for key, entry in tables[sunk].items():
                        if entry[0] < table.get(key, (1, ()))[0]:
                            table[key] = entry
            return _pareto(table, capacity)
        values = free[sunk]
        for b6, b7, b8, p6, p7, p8, ub, up, b, p in records:
            if b6 < t6 or b7 < t7 or b8 < t8 or p6 < u6 or p7 < u7 or p8 < u8:
                continue
            # Without sharing the wides use up their copies first.
            value = values[(b[0], b[1], b6 - t6, b7 - t7, b8 - t8)]
            value += values[(p[0], p[1], p6 - u6, p7 - u7, p8 - u8)]
            if value < table.get((ub, up), (1, ()))[0]:
                table[(ub, up)] = (value, ((b, p),))
        return _pareto(table, capacity)

    best: tuple[int, Holdings] = (0, ((zero, zero),) * 4)
    for tb, tp in targets:
        wides = sum(_WIDE_VALUES[i] * (tb[i] + tp[i]) for i in range(3))
        plain = suit_table(tb, tp, sunk=False)
        sunk_table = suit_table(tb, tp, sunk=True)
        whole = _combine(
            _combine(plain, plain, capacity), _combine(plain, sunk_table, capacity), capacity
        )
        for value, holdings in whole.values():
            if value + wides < best[0]:
                best = (value + wides, holdings)
    others = [suit for suit in Suit if suit != sunk_suit]
    suits_in_order = [*others, sunk_suit]
    bidder: list[Card] = []
    partner: list[Card] = []
    for suit, (b, p) in zip(suits_in_order, best[1], strict=True):
        for rank, nb, np_ in zip(MELD_RANKS, b, p, strict=True):
            bidder.extend([Card.of(rank, suit)] * nb)
            partner.extend([Card.of(rank, suit)] * np_)
    return MeldMaximum(best[0], tuple(sorted(bidder)), tuple(sorted(partner)), len(targets))


def _meld_total(cards: Sequence[Card], sunk: Suit, sharing: bool = True) -> int:
    return sum(m.value for m in best_meld(cards, sunk, Rules(meld_sharing=sharing)))


def test_largest_single_hand_meld_is_255() -> None:
    """Invariant 8: melds -- the largest meld of one 14-card hand is -255, proved by exact search.

    Witness (sunk spades): 8♣ 8♣, 6♦ 7♦ 8♦ 8♦, 6♥ 6♥ 7♥ 7♥ 8♥ 8♥, 8♠ 8♠ --
    two eights wides, four deep echoes, two deep runs in hearts and one in
    diamonds, a shallow echo and a Mark Twain (R-MELD-1, R-MELD-3).
    """
    found = largest_meld(partnership=False, sharing=True)
    assert found.value == -255
    assert len(found.bidder) == 14
    assert not found.partner
    assert found.targets == 27
    for sunk in Suit:
        # The witness is for spades sunk; rotating the suits gives one for every sunk suit.
        shift = (sunk - Suit.SPADES) % 4
        rotated = [Card.of(card.rank, Suit((card.suit + shift) % 4)) for card in found.bidder]
        assert _meld_total(rotated, sunk) == -255


def test_largest_partnership_meld_is_410_and_sets_the_lowest_bid() -> None:
    """Invariant 8: melds -- the largest partnership meld is -410, proved by exact search (R-BID-6).

    The bidder melds at most 14 copies, her partner melds from his 14 cards,
    the two are disjoint and share the sunk suit.  All 216 combinations of
    the partners' wides are searched.  The lowest bid is that figure
    rounded up to a multiple of 10: ``Rules().lowest_bid == LOWEST_BID == -410``.
    """
    found = largest_meld(partnership=True, sharing=True)
    assert found.value == -410 == LARGEST_PARTNERSHIP_MELD
    assert found.targets == 216
    assert len(found.bidder) <= 14
    assert len(found.partner) <= 14
    assert not Counter(found.bidder) + Counter(found.partner) - Counter(DECK)
    total = _meld_total(found.bidder, Suit.SPADES) + _meld_total(found.partner, Suit.SPADES)
    assert total == -410
    rounded_up = math.ceil(found.value / 10) * 10
    assert Rules().lowest_bid == LOWEST_BID == rounded_up == -410


@deep_only
def test_largest_melds_without_sharing() -> None:
    """Invariant 8: melds -- without sharing (a copy serves one meld) the maxima are -140 and -275.

    Deep run only.  Exact search as above for ``Rules(meld_sharing=False)``
    (R-MELD-3 variant); the default lowest bid of -410 stays a valid floor.
    """
    single = largest_meld(partnership=False, sharing=False)
    assert single.value == -140 == _meld_total(single.bidder, Suit.SPADES, sharing=False)
    pair = largest_meld(partnership=True, sharing=False)
    assert pair.value == -275
    total = _meld_total(pair.bidder, Suit.SPADES, False) + _meld_total(
        pair.partner, Suit.SPADES, False
    )
    assert total == -275 >= LOWEST_BID


def _small_holdings(capacity: int) -> list[tuple[Card, ...]]:
    """Every holding of at most ``capacity`` meldable copies (ranks 4-8), sorted."""
    meldable = sorted({card for card in DECK if card.rank >= 4})
    found: list[tuple[Card, ...]] = []

    def extend(start: int, cards: list[Card]) -> None:
        found.append(tuple(cards))
        if len(cards) == capacity:
            return
        for i in range(start, len(meldable)):
            card = meldable[i]
            if cards.count(card) < 2:
                extend(i, [*cards, card])

    extend(0, [])
    return found


def _holdings_count(capacity: int) -> int:
    """How many multisets of at most ``capacity`` of the 20 meldable cards (0-2 copies each) exist:
    the coefficients of (1 + x + x^2)^20 up to x^capacity."""
    poly = [1]
    for _ in range(20):
        poly = [
            sum(poly[k - j] for j in range(3) if 0 <= k - j < len(poly))
            for k in range(len(poly) + 2)
        ]
    return sum(poly[: capacity + 1])


def _check_search_on_small_hands(capacity: int, sharing: bool) -> int:
    holdings = _small_holdings(capacity)
    assert len(holdings) == _holdings_count(capacity)
    best_by_size = [0] * (capacity + 1)
    for cards in holdings:
        value = _meld_total(cards, Suit.SPADES, sharing)
        best_by_size[len(cards)] = min(best_by_size[len(cards)], value)
    best_so_far = 0
    for size in range(capacity + 1):
        best_so_far = min(best_so_far, best_by_size[size])
        assert largest_meld(partnership=False, sharing=sharing, capacity=size).value == best_so_far
    return len(holdings)


@pytest.mark.parametrize("sharing", [True, False])
def test_exact_search_agrees_with_brute_force_on_small_hands(sharing: bool) -> None:
    """Invariant 8: melds -- the exact search is right: for capacities 0-4 it equals brute force.

    Brute force: every holding of at most 4 meldable copies (10,206 of
    them), valued by ``best_meld`` (itself checked against enumeration
    above), spades sunk (R-MELD-1..3).
    """
    assert _check_search_on_small_hands(4, sharing) == 10_206


@deep_only
@pytest.mark.parametrize("sharing", [True, False])
def test_exact_search_agrees_with_brute_force_on_six_card_hands(sharing: bool) -> None:
    """Invariant 8: melds -- deep run only: the exact search equals brute force for capacities 0-6
    (every holding of at most 6 meldable copies), R-MELD-1..3."""
    assert _check_search_on_small_hands(6, sharing) == _holdings_count(6)


def _check_partnership_search(capacity: int) -> None:
    holdings = _small_holdings(capacity)
    values = {cards: _meld_total(cards, Suit.SPADES) for cards in holdings}
    useful = sorted((cards for cards in holdings if values[cards] < 0), key=values.__getitem__)
    best = 0
    for a in useful:
        count_a = Counter(a)
        for b in useful:
            if values[a] + values[b] >= best:
                break  # `useful` is sorted, so no later b does better with this a
            if all(count_a[card] + n <= 2 for card, n in Counter(b).items()):
                best = values[a] + values[b]
    assert best < 0
    assert largest_meld(partnership=True, sharing=True, capacity=capacity).value == best


def test_exact_partnership_search_agrees_with_brute_force_on_small_hands() -> None:
    """Invariant 8: melds -- the partnership search equals brute force on small disjoint hands.

    Every pair of holdings of at most 3 meldable copies each, disjoint (no
    card more than twice between them), spades sunk, with sharing (R-MELD-3).
    """
    _check_partnership_search(3)


@deep_only
def test_exact_partnership_search_agrees_with_brute_force_on_four_card_hands() -> None:
    """Invariant 8: melds -- deep run only: the partnership search equals brute force on every
    disjoint pair of holdings of at most 4 meldable copies each (R-MELD-3)."""
    _check_partnership_search(4)


def _deal_for(north: Sequence[Card], south: Sequence[Card]) -> Deal:
    rest = Counter(DECK) - Counter(north) - Counter(south)
    others = sorted(rest.elements())
    return Deal([*north, *others[:14], *south, *others[14:]])


def test_largest_partnership_meld_is_declared_through_the_engine() -> None:
    """Invariant 8: melds -- the -410 partnership meld is declared in a real hand (R-MELD-4).

    North starts with 11 of her melding cards and 3 of South's; South with
    11 of his and 3 of hers.  South passes her three (R-PASS-1), she melds
    14 copies from 17 cards and passes his three back (R-PASS-2); he then
    melds (R-MELD-5).
    """
    found = largest_meld(partnership=True, sharing=True)
    sunk = Suit.SPADES
    bidder, partner = list(found.bidder), list(found.partner)
    assert len(bidder) == len(partner) == 14, "the maximum uses every card of both hands"
    north = bidder[3:] + partner[:3]
    south = partner[3:] + bidder[:3]
    state = apply(new_game(dealer=Seat.WEST), _deal_for(north, south))
    opening: list[Action] = [
        Bid(Seat.NORTH, 120),
        Pass(Seat.EAST),
        Pass(Seat.SOUTH),
        Pass(Seat.WEST),
        NameSunkSuit(Seat.NORTH, sunk),
        Done(Seat.NORTH),
        *(PassCard(Seat.SOUTH, card) for card in bidder[:3]),
    ]
    for action in opening:
        state = apply(state, action)
    for meld in best_meld(found.bidder, sunk):
        state = apply(state, DeclareMeld(Seat.NORTH, meld))
    state = apply(state, Done(Seat.NORTH))
    for card in partner[:3]:
        state = apply(state, PassCard(Seat.NORTH, card))
    assert state.phase is Phase.MELDING
    assert state.to_act == Seat.EAST
    state = apply(state, Done(Seat.EAST))
    for meld in best_meld(state.hand(Seat.SOUTH), sunk):
        state = apply(state, DeclareMeld(Seat.SOUTH, meld))
    state = apply(state, Done(Seat.SOUTH))
    assert state.team_meld[0] == -410
    assert all(isinstance(a, (DeclareMeld, Done)) for a in legal_actions(state))


def test_meld_totals_are_multiples_of_five_down_to_the_maximum() -> None:
    """Invariant 8: melds -- every meld total is a multiple of 5 between -410 and 0, never -5.

    Every meld value is a multiple of 5 and at most -10, so -5 is never a
    total; the domain the scoring proof uses (tests/core/test_exhaustive.py)
    covers every reachable team meld (R-MELD-1).
    """
    assert all(meld.value % 5 == 0 and meld.value <= -10 for meld in ALL_MELDS)
    kinds = {kind.points for kind in MeldKind}
    assert kinds == {-50, -30, -15, -20, -10}


@deep_only
@settings(max_examples=1200)
@given(meld_rich_hands(12, 17), suits(), st.booleans(), st.sampled_from([None, 14]))
def test_best_meld_is_optimal_deep(
    cards: tuple[Card, ...], sunk: Suit, sharing: bool, max_melded: int | None
) -> None:
    """Invariant 8: melds -- deep run: 1,200 more dense hands against brute force (R-MELD-1..4)."""
    _assert_optimal(cards, sunk, sharing, max_melded)


def test_meld_inputs_are_validated() -> None:
    """R-MELD-1: melds are read leniently from their codes, and malformed melds or hands are refused
    with a ParseError that says what was wrong.

    Codes parse in any case, with or without the dash, with a suit letter or
    symbol; a wide has no suit and a run or echo needs one; a hand is 28
    counts of 0 to 2, and a declaration must fit in it.
    """
    for text in ("DR-S", "dr-s", " DR♠ ", "DRS"):
        assert Meld.parse(text) == Meld(MeldKind.DEEP_RUN, Suit.SPADES)
    assert Meld.parse("8w") == Meld(MeldKind.EIGHTS_WIDE)

    def message(call: Callable[[], object]) -> str:
        with pytest.raises(ParseError) as caught:
            call()
        return str(caught.value)

    assert message(lambda: Meld.parse("XX")) == (
        "'XX' is not a meld: use a code such as GR-S, DR-H, SR-C, DE-S, SE-D, MT-C, 8W, 7W or 6W"
    )
    not_text = message(lambda: Meld.parse(7))
    assert not_text == "a meld must be given as text, not int"
    wide_suit = message(lambda: Meld(MeldKind.EIGHTS_WIDE, Suit.SPADES))
    assert wide_suit == "a eights wide has no suit"
    assert message(lambda: Meld(MeldKind.DEEP_RUN)) == "a deep run needs a Suit, not None"
    not_kind = message(lambda: Meld("DR", Suit.SPADES))  # type: ignore[arg-type]  # a non-kind
    assert not_kind == "a meld's kind must be a MeldKind, not 'DR'"
    deep_run = Meld(MeldKind.DEEP_RUN, Suit.SPADES)
    bad_counts = "a hand's counts must be 28 numbers from 0 to 2"
    text_count = ["1", *[0] * 27]
    assert message(lambda: available_melds(text_count, (), None)) == bad_counts  # type: ignore[arg-type]  # a count given as text
    for counts in ([0] * 27, [0] * 29, [3] + [0] * 27, [-1] + [0] * 27):
        blocker = functools.partial(meld_blocker, counts, (), deep_run, Suit.HEARTS)
        assert message(blocker) == bad_counts
        assert message(functools.partial(available_melds, counts, (), Suit.HEARTS)) == bad_counts
    not_meld = "the declared melds must all be Meld values"
    declared_text = ("DR-S",)
    assert message(lambda: available_melds([0] * 28, declared_text, None)) == not_meld  # type: ignore[arg-type]  # text, not a Meld
    assert message(lambda: meld_blocker([0] * 28, (), "DR-S", None)) == "'DR-S' is not a Meld"
    not_suit = "'S' is not a Suit (or None)"
    assert message(lambda: available_melds([0] * 28, (), "S")) == not_suit  # type: ignore[arg-type]  # text, not a Suit
    assert message(lambda: meld_blocker([0] * 28, (), deep_run, "S")) == not_suit  # type: ignore[arg-type]  # text, not a Suit
    assert message(lambda: best_meld((), 4)) == "4 is not a Suit (or None)"  # type: ignore[arg-type]  # an int, not a Suit
    assert message(lambda: candidate_melds((), "S")) == "'S' is not a Suit (or None)"  # type: ignore[arg-type]  # text, not a Suit
    too_many = "the declared melds need more cards than the hand holds"
    assert message(lambda: meld_blocker([0] * 28, (deep_run,), deep_run, Suit.HEARTS)) == too_many
    # Without sharing, a run and two eights wides need three 8♠ (the hand has two).
    held = Counter(parse_cards(SHARED_HAND))
    counts = [held[card] for card in sorted(set(DECK))]
    over = (deep_run, Meld(MeldKind.EIGHTS_WIDE), Meld(MeldKind.EIGHTS_WIDE))
    assert meld_blocker(counts, over, deep_run, Suit.HEARTS) is Reason.MELD_UNAVAILABLE
    assert message(lambda: meld_blocker(counts, over, deep_run, Suit.HEARTS, sharing=False)) == (
        too_many
    )
    hand = parse_cards("8S 8S")
    assert message(lambda: best_meld([*hand, hand[0]], Suit.HEARTS)) == (
        "a hand holds at most two copies of a card"
    )
    assert message(lambda: best_meld([8], Suit.HEARTS)) == "8 is not a Card"  # type: ignore[list-item]  # a plain int
