"""The rules reference for players (issue 16): what its statements claim, pinned.

Each corrected or newly stated rule of ``docs/rules`` has a test here that
checks the behaviour the sentence describes, through the public API:

* R-PLAY-4 and R-PLAY-5: a sunk card never introduces its suit, and a trick
  led with the sunk suit goes to the *last* other suit introduced;
  ``trick_winner`` agrees with the reference's one-sentence summary of
  R-PLAY-4 to R-PLAY-6, written out literally as an oracle.
* R-SCORE-3: failing a contract of 110 or 120 can record less than making
  it, and ``Rules(failed_bid_score=250)`` removes that oddity.
* R-BID-7: an uncontested dealer gains nothing from a bid below 120.
* R-DEAL-1: the 250-point total counts every card of the deck.
* R-MELD-5 to R-MELD-7: the melding order is a convention, identical melds
  each count, a grand run scores alone; melding past a net of zero is
  wasted and declared melds are public.

The rest checks the pages themselves: library material (doctests,
``Rules(...)``, ``Reason`` codes, API references) stays in collapsed
``library`` blocks, every rule statement starts a thought of its own, the
glossary terms are linked from their first use on each page, the variants
table names every ``Rules`` field, and the quick-reference card's numbers
are the code's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path

import attrs
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from deepsix import (
    DECK,
    LOWEST_BID,
    Action,
    Bid,
    Card,
    DeclareMeld,
    Done,
    GameState,
    IllegalActionError,
    Meld,
    MeldKind,
    NameSunkSuit,
    Pass,
    PassCard,
    Phase,
    PlayOver,
    Rank,
    Reason,
    Rules,
    Seat,
    Suit,
    Team,
    apply,
    best_meld,
    candidate_melds,
    legal_actions,
    new_game,
    parse_cards,
    public_view,
    score_hand,
    shuffled_deal,
    trick_winner,
    view,
)
from deepsix.melds import meld_value
from deepsix.scoring import LAST_TRICK_BONUS, TOTAL_CARD_POINTS
from tests.support.scenarios import deal_of, play_script

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
RULES_DIR = DOCS / "rules"

NS, EW = Team.NORTH_SOUTH, Team.EAST_WEST


def in_order(text: str) -> list[Card]:
    """Cards from text in the order written (``parse_cards`` sorts them)."""
    return [Card.parse(part) for part in text.split()]


def led_by_north(text: str) -> list[tuple[Seat, Card]]:
    """A (partial) trick led by North, from its cards in play order."""
    return list(zip(Seat, in_order(text), strict=False))


# -- R-PLAY-4, R-PLAY-5, R-PLAY-6: who takes the trick --------------------------------


@pytest.mark.parametrize(
    ("trick", "sunk", "winner"),
    [
        ("2D 5H 3C 4D", Suit.DIAMONDS, Seat.SOUTH),  # the example: clubs came last
        ("2D 5H 3C 8D", Suit.DIAMONDS, Seat.SOUTH),  # a high sunk card changes nothing
        ("5H 2D 8H 4C", Suit.HEARTS, Seat.WEST),  # diamonds, then clubs: clubs win
        ("5H 2D 8H 8D", Suit.HEARTS, Seat.WEST),  # the later twin of the last suit
        ("5H 2D 8H 3D", Suit.HEARTS, Seat.WEST),  # diamonds only: the higher diamond
        ("3H 8H 3C 6D", Suit.HEARTS, Seat.WEST),  # the story's trick 11, led by North here
    ],
)
def test_sunk_lead_goes_to_the_last_suit_introduced(trick: str, sunk: Suit, winner: Seat) -> None:
    """R-PLAY-5: a trick led with the sunk suit goes to the last other suit introduced,
    not to the first card of another suit."""
    assert trick_winner(led_by_north(trick), sunk) is winner


@given(
    st.lists(st.integers(0, len(DECK) - 1), min_size=1, max_size=3, unique=True),
    st.sampled_from(tuple(Suit)),
    st.integers(0, 3),
    st.integers(0, 6),
)
def test_sunk_card_never_introduces_its_suit(
    positions: list[int], sunk: Suit, where: int, rank_index: int
) -> None:
    """R-PLAY-4: a sunk card played after the lead never introduces its suit: once any other
    suit is in the trick, adding a sunk card anywhere after the lead leaves the same card
    winning."""
    cards = [DECK[i] for i in positions]
    sunk_card = Card.of(Rank(rank_index + 2), sunk)
    assume(cards.count(sunk_card) < 2)
    insert_at = 1 + where % len(cards)
    assume(any(card.suit is not sunk for card in cards[:insert_at]))
    with_sunk = [*cards[:insert_at], sunk_card, *cards[insert_at:]]
    before = trick_winner(list(zip(Seat, cards, strict=False)), sunk)
    after = trick_winner(list(zip(Seat, with_sunk, strict=False)), sunk)
    shifted = before if before < insert_at else before + 1
    assert after == shifted


def stated_winner(cards: Sequence[Card], sunk: Suit | None) -> int:
    """The reference's summary of R-PLAY-4 to R-PLAY-6, literally.

    "A trick goes to the last suit other than the sunk suit to appear in it,
    and within that suit to its highest card (the later one, if both copies
    of that card were played). If every card in the trick is sunk, the
    highest sunk card wins, with the same tie-break."
    """
    others = [card.suit for card in cards if card.suit is not sunk]
    if others:
        first_seen = {suit: others.index(suit) for suit in set(others)}
        suit = max(first_seen, key=first_seen.__getitem__)
    else:
        suit = cards[0].suit
    best = max(card for card in cards if card.suit is suit)
    return max(i for i, card in enumerate(cards) if card == best)


@given(
    st.lists(st.integers(0, len(DECK) - 1), min_size=1, max_size=4, unique=True),
    st.one_of(st.none(), st.sampled_from(tuple(Suit))),
)
def test_trick_winner_follows_the_stated_rules(positions: list[int], sunk: Suit | None) -> None:
    """R-PLAY-4, R-PLAY-5, R-PLAY-6: trick_winner agrees with the rules page's one-sentence
    summary on every (partial) trick drawn from the deck."""
    cards = [DECK[i] for i in positions]
    plays = list(zip(Seat, cards, strict=False))
    assert trick_winner(plays, sunk) is Seat(stated_winner(cards, sunk))


# -- R-SCORE-3: the failed-bid oddity and its switch ------------------------------------

NETS = range(LOWEST_BID, TOTAL_CARD_POINTS + 1, 5)


def bidders_record(bid: int, net: int, rules: Rules | None = None) -> int:
    """What the bidding team records with this net (card points only, or meld for a net below 0)."""
    points = (net, TOTAL_CARD_POINTS - net) if net >= 0 else (0, TOTAL_CARD_POINTS)
    meld = (0, 0) if net >= 0 else (net, 0)
    return score_hand(NS, bid, points, meld, rules).scores[0]


def best_made_and_least_failed(bid: int, rules: Rules | None = None) -> tuple[int, int]:
    """The most a made contract can record at this bid, and the least a failed one records."""
    made = [bidders_record(bid, net, rules) for net in NETS if net <= bid]
    failed = [bidders_record(bid, net, rules) for net in NETS if net > bid]
    return max(made), min(failed)


def test_failing_can_record_less_than_making() -> None:
    """R-SCORE-3: with the standard 200, failing a contract of 110 or 120 can record less
    than making it; from 100 down it never does."""
    assert bidders_record(120, 110) == 110
    assert bidders_record(120, 130) == 80
    assert bidders_record(120, 250) == 80, "a failed contract ignores the net entirely"
    odd = []
    for bid in Rules().bid_amounts:
        best_made, least_failed = best_made_and_least_failed(bid)
        if least_failed < best_made:
            odd.append(bid)
    assert odd == [120, 110]


def test_failed_bid_score_250_removes_the_oddity() -> None:
    """R-SCORE-3 (variant): with failed_bid_score=250 every failed contract records more than
    any made one at the same bid; 240 is not enough, 241 is."""
    house = Rules(failed_bid_score=250)
    assert bidders_record(120, 110, house) == 110
    assert bidders_record(120, 130, house) == 130
    for bid in house.bid_amounts:
        best_made, least_failed = best_made_and_least_failed(bid, house)
        assert least_failed > best_made, bid
    assert best_made_and_least_failed(120, Rules(failed_bid_score=240)) == (120, 120)
    assert best_made_and_least_failed(120, Rules(failed_bid_score=241)) == (120, 121)


@pytest.mark.parametrize(("rules", "recorded"), [(Rules(), 80), (Rules(failed_bid_score=250), 130)])
def test_failed_forced_bid_through_the_engine(rules: Rules, recorded: int) -> None:
    """R-SCORE-3, R-BID-7: a whole hand through the engine -- the dealer's forced 120 fails
    with a net of 130, and records 200 - 120 = 80, or 250 - 120 = 130 with the switch."""
    state = apply(new_game(rules, dealer=Seat.NORTH), shuffled_deal(5))
    state = play_script(
        state, [Pass(Seat.EAST), Pass(Seat.SOUTH), Pass(Seat.WEST), Bid(Seat.NORTH, 120)]
    )
    while state.phase is not Phase.DEAL:
        state = apply(state, legal_actions(state)[0])
    record = state.completed_hands[-1]
    assert (record.bid, record.net[0], record.made) == (120, 130, False)
    assert record.scores[0] == recorded


# -- R-BID-7 and R-DEAL-1: the reasons given for them -----------------------------------


def test_lower_uncontested_bid_pays_only_through_the_oddity() -> None:
    """R-BID-7, R-SCORE-3: for the dealer forced to 120, a lower bid would record less only
    where it fails and 200 minus it is below a net that 120 would have made; with
    failed_bid_score=250 a lower bid never records less than 120 does."""
    house = Rules(failed_bid_score=250)
    better = []
    for bid in Rules().bid_amounts:
        for net in NETS:
            assert bidders_record(bid, net, house) >= bidders_record(120, net, house), (bid, net)
            if bidders_record(bid, net) < bidders_record(120, net):
                assert bid < net <= 120
                assert 200 - bid < net
                better.append((bid, net))
    assert better, "the oddity exists in the standard game"
    assert min(bid for bid, _ in better) == 90


def test_the_250_point_total_counts_the_whole_deck() -> None:
    """R-DEAL-1, R-SCORE-1: the text's 250 points are every 2 and 3 of the 56-card deck plus
    the last trick, so every card is dealt: fourteen to each of four players."""
    assert sum(card.points for card in DECK) + LAST_TRICK_BONUS == TOTAL_CARD_POINTS == 250
    state = apply(new_game(), shuffled_deal(16))
    assert [len(state.hand(seat)) for seat in Seat] == [14, 14, 14, 14]
    assert len(DECK) == 4 * 14


def test_every_score_is_a_multiple_of_5() -> None:
    """R-END-1, R-SCORE-1 to R-SCORE-3: card points, melds and bids move in steps of 5 or 10,
    so a running total can land exactly on 500 -- where the two readings of the 500 ruling
    differ."""
    assert all(card.points % 10 == 0 for card in DECK)
    assert LAST_TRICK_BONUS % 10 == 0
    assert all(kind.points % 5 == 0 for kind in MeldKind)
    assert any(kind.points % 10 for kind in MeldKind), "some melds are odd multiples of 5"
    assert all(bid % 10 == 0 for bid in Rules().bid_amounts)
    hand = score_hand(NS, 60, (50, 200), (-15, 0))  # records 35 and 200
    assert hand.scores == (35, 200)
    totals = (465 + hand.scores[0], 300)
    assert totals[0] == 500
    assert Rules().is_game_over(totals)
    assert not Rules(end_at_target=False).is_game_over(totals)


# -- R-MELD-5, R-MELD-6, R-MELD-7: melds --------------------------------------------------


def bidder_melding(north: str, south_passes: str, sunk: Suit = Suit.CLUBS) -> GameState:
    """North (dealer West) holds ``north``, wins at 100, sinks ``sunk``, shows nothing, and
    receives ``south_passes`` from South; the rest of the deck is dealt in order."""
    rest = list(DECK)
    for card in (*parse_cards(north), *parse_cards(south_passes)):
        rest.remove(card)
    south = " ".join([south_passes, *(str(card) for card in rest[:11])])
    east = " ".join(str(card) for card in rest[11:25])
    state = apply(new_game(dealer=Seat.WEST), deal_of(north, east, south))
    actions: list[Action] = [Bid(Seat.NORTH, 100), Pass(Seat.EAST), Pass(Seat.SOUTH)]
    actions += [Pass(Seat.WEST), NameSunkSuit(Seat.NORTH, sunk), Done(Seat.NORTH)]
    state = play_script(state, actions)
    for card in parse_cards(south_passes):
        state = apply(state, PassCard(Seat.SOUTH, card))
    assert state.phase is Phase.BIDDER_MELD
    return state


def declarable(state: GameState) -> set[str]:
    """The meld codes the seat to act may declare now."""
    return {a.meld.code for a in legal_actions(state) if isinstance(a, DeclareMeld)}


def test_identical_melds_each_count() -> None:
    """R-MELD-6: two deep runs in one suit, and eights wide twice, each score: -120 in all."""
    north = "8S 8S 7S 7S 6S 6S 8H 8H 8D 8D 8C 8C 2S 3S"
    state = bidder_melding(north, "2C 3C 4C")
    for code in ("DR-S", "DR-S", "8W", "8W"):
        assert code in declarable(state)
        state = apply(state, DeclareMeld(Seat.NORTH, Meld.parse(code)))
    assert not {"DR-S", "8W"} & declarable(state), "no third copy of either"
    assert state.team_meld[NS] == 2 * -30 + 2 * -30 == -120
    assert meld_value(state.melds[Seat.NORTH]) == -120


def test_grand_run_does_not_also_score_the_runs_inside() -> None:
    """R-MELD-7: with one copy of 8 7 6 5 4, the grand run scores -50 and the deep and shallow
    runs inside it cannot be declared beside it (R-MELD-3); second copies add them back."""
    north = "8S 7S 6S 5S 4S 2H 3H 4H 5H 2C 3C 4C 5C 6C"
    single = parse_cards("8S 7S 6S 5S 4S")
    assert {m.code for m in candidate_melds(single, Suit.HEARTS)} == {"GR-S", "DR-S", "SR-S"}
    assert [m.code for m in best_meld(single, Suit.HEARTS)] == ["GR-S"]
    assert meld_value(best_meld(single, Suit.HEARTS)) == -50
    state = bidder_melding(north, "2D 3D 4D", sunk=Suit.HEARTS)
    state = apply(state, DeclareMeld(Seat.NORTH, Meld.parse("GR-S")))
    assert not {"DR-S", "SR-S"} & declarable(state)
    with pytest.raises(IllegalActionError) as refused:
        apply(state, DeclareMeld(Seat.NORTH, Meld.parse("DR-S")))
    assert refused.value.reason is Reason.MELD_UNAVAILABLE
    doubled = parse_cards("8S 7S 6S 5S 4S 8S 7S 6S")
    assert meld_value([Meld.parse("GR-S"), Meld.parse("DR-S")]) == -80
    assert {"GR-S", "DR-S"} <= {m.code for m in best_meld(doubled, Suit.HEARTS)}


def melding_phase(seed: int) -> GameState:
    """A random deal played to the start of the others' melding (first legal actions)."""
    state = apply(new_game(dealer=Seat.NORTH), shuffled_deal(seed))
    while state.phase is not Phase.MELDING:
        state = apply(state, legal_actions(state)[0])
    return state


def declare_all(state: GameState) -> GameState:
    """The seat to act declares its best melds and is done."""
    seat = state.to_act
    assert seat is not None
    for meld in best_meld(state.hand(seat), state.sunk_suit, state.rules):
        state = apply(state, DeclareMeld(seat, meld))
    return apply(state, Done(seat))


def declare_none(state: GameState) -> GameState:
    seat = state.to_act
    assert seat is not None
    return apply(state, Done(seat))


@pytest.mark.parametrize("seed", [1, 2, 7])
def test_melding_order_is_a_convention(seed: int) -> None:
    """R-MELD-5: the others meld one at a time from the bidder's left, and what a later
    player may declare does not depend on what the earlier ones declared."""
    state = melding_phase(seed)
    bidder = state.bidder
    assert bidder is not None
    order = [Seat((bidder + step) % 4) for step in (1, 2, 3)]
    assert state.to_act is order[0]
    generous, silent = state, state
    for seat in order:
        assert generous.to_act is seat
        assert silent.to_act is seat
        assert set(legal_actions(generous)) == set(legal_actions(silent))
        generous, silent = declare_all(generous), declare_none(silent)
    assert generous.phase is silent.phase is Phase.PLAY


def test_meld_below_a_net_of_zero_is_wasted() -> None:
    """R-MELD-5, R-SCORE-4: meld that takes a net further below zero changes nothing -- for the
    defenders and for a bidding team that made its contract."""
    for meld in (-40, -60, -200):
        result = score_hand(NS, 0, (30, 220), (meld, 0))
        assert result.made
        assert result.scores[0] == 0
        defending = score_hand(NS, 100, (90, 30), (0, meld))
        assert defending.scores[1] == 0


def test_declared_melds_are_public() -> None:
    """R-MELD-5: a declared meld shows in every seat's view, so it tells the others which
    cards the declarer holds."""
    state = next(
        s
        for s in map(melding_phase, range(40))
        if s.to_act is not None and best_meld(s.hand(s.to_act), s.sunk_suit)
    )
    seat = state.to_act
    assert seat is not None
    state = declare_all(state)
    declared = state.melds[seat]
    assert declared
    assert public_view(state).melds[seat] == declared
    for other in Seat:
        assert view(state, other).melds[seat] == declared


# -- the pages ------------------------------------------------------------------------------

PLAYER_PAGES = (
    *sorted(p for p in RULES_DIR.glob("*.md") if p.name != "glossary.md"),
    DOCS / "examples" / "story.md",
    DOCS / "examples" / "play.md",
)
FENCE = re.compile(r"^(?P<fence>`{3,}|:{3,})\{(?P<name>[\w-]+)\}(?P<argument>.*)$")
PROSE_DIRECTIVES = frozenset({"rule", "ruling", "container", "rubric"})


def directive_blocks(lines: Sequence[str]) -> Iterator[tuple[str, int, int]]:
    """Every directive as ``(name, first line, closing line)``, nested ones included."""
    stack: list[tuple[str, str, int]] = []
    for number, line in enumerate(lines):
        match = FENCE.match(line.rstrip())
        if match:
            stack.append((match["name"], match["fence"], number))
            continue
        stripped = line.rstrip()
        if stack and stripped == stack[-1][1]:
            name, _, start = stack.pop()
            yield name, start, number


def library_lines(lines: Sequence[str]) -> set[int]:
    """The line numbers inside ``library`` blocks."""
    inside: set[int] = set()
    for name, start, end in directive_blocks(lines):
        if name == "library":
            inside.update(range(start, end + 1))
    return inside


def player_text(path: Path) -> str:
    """A page's prose for players: library blocks, code, headings and markup lines removed."""
    lines = path.read_text(encoding="utf-8").splitlines()
    dropped = library_lines(lines)
    for name, start, end in directive_blocks(lines):
        if name in PROSE_DIRECTIVES:
            dropped.add(start)
            dropped.add(end)
            option = start + 1
            while option < end and lines[option].startswith(":"):
                dropped.add(option)
                option += 1
        else:
            dropped.update(range(start, end + 1))
    kept = [
        line
        for number, line in enumerate(lines)
        if number not in dropped
        and not line.startswith("#")
        and not re.match(r"^\([\w-]+\)=$", line.strip())
    ]
    return "\n".join(kept)


@pytest.mark.parametrize("page", PLAYER_PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_library_material_is_folded_away(page: Path) -> None:
    """Player text and library text are separate: every doctest, ``Rules(...)`` switch,
    ``Reason`` code and API reference on a player page sits in a ``library`` block."""
    lines = page.read_text(encoding="utf-8").splitlines()
    inside = library_lines(lines)
    for name, start, _ in directive_blocks(lines):
        if name in {"doctest", "code-block"}:
            assert start in inside, f"{page.name}:{start + 1}: a {name} outside a library block"
    prose = player_text(page)
    for pattern in (r"\bRules\(", r"\bReason\.", r"\{py:", r"\bdeepsix\."):
        found = re.search(pattern, prose)
        assert found is None, f"{page.name}: library text in the player's text: {found}"


RULE_BODY = re.compile(r"^```\{rule\}[ \t]+(\S+)[ \t]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
MID_THOUGHT = re.compile(
    r"^(So|That|This|These|Those|Then|Thus|Also|And|But|Or|Only|She|He|They|It|Its|Her|His"
    r"|Matching|Otherwise|Whose|The other)\b"
)


def rule_bodies() -> Iterator[tuple[str, str]]:
    for page in sorted(RULES_DIR.glob("*.md")):
        yield from RULE_BODY.findall(page.read_text(encoding="utf-8"))


def test_rule_statements_stand_alone() -> None:
    """Each numbered rule's own text states the rule, so a page reads without the build's
    summary line: no statement opens mid-thought ("So bids run...", "That is her...")."""
    bodies = dict(rule_bodies())
    assert len(bodies) >= 38
    for rule_id, body in bodies.items():
        first = body.strip()
        assert first[:1].isupper(), f"{rule_id} starts with {first[:20]!r}"
        assert not MID_THOUGHT.match(first), f"{rule_id} starts mid-thought: {first[:40]!r}"


TEST_CITATION = re.compile(r"`(tests/[\w/]+\.py)(?:::(\w+))?`")


def test_cited_tests_exist() -> None:
    """Every test a player page cites (``tests/<file>.py::<name>``) exists, so a citation
    cannot silently outlive a renamed or moved test."""
    cited = 0
    for page in PLAYER_PAGES:
        for path, name in TEST_CITATION.findall(page.read_text(encoding="utf-8")):
            source = ROOT / path
            assert source.is_file(), f"{page.name} cites {path}, which does not exist"
            if name:
                defined = re.search(rf"^def {name}\(", source.read_text(encoding="utf-8"), re.M)
                assert defined, f"{page.name} cites {path}::{name}, which does not exist"
            cited += 1
    assert cited >= 10


# -- the glossary -------------------------------------------------------------------------------

GLOSSARY = RULES_DIR / "glossary.md"

# The terms the issue lists, with the words that count as a use of each.  "made" and
# "failed" count only in the contract's sense ("is made", "has failed", "a failed bid").
CHECKED_TERMS = {
    "sunk suit": r"\bsunk suits?\b",
    "led suit": r"\bled\b",
    "introduced": r"\bintroduc(?:e|es|ed|ing)\b",
    "play over": r"\bplay(?:s|ing)? over\b",
    "twin": r"\btwins?\b",
    "echo": r"\becho(?:es)?\b",
    "wide": r"\bwides?\b",
    "mark twain": r"\bMark Twains?\b",
    "invitation": r"\binvitations?\b",
    "standing bid": r"\bstanding bids?\b",
    "contract": r"\bcontracts?\b",
    "net": r"\bnets?\b",
    "made": r"\b(?:is|was|be|been|are|were)\s+made\b",
    "failed": r"\b(?:has|have|had)\s+failed\b|\bfailed\s+(?:bids?|contracts?)\b",
    "defenders": r"\bdefenders?\b",
}
TERM_ROLE = re.compile(r"\{term\}`([^`<]*?)(?:\s*<([^>`]+)>)?`")
OTHER_ROLE = re.compile(r"\{[\w:-]+\}`[^`]*`|``[^`]*``|`[^`]*`")


def glossary_entries() -> dict[str, str]:
    """Each glossary term (lower case) -> the first term of its entry."""
    text = GLOSSARY.read_text(encoding="utf-8")
    block = text[text.index("```{glossary}") : text.rindex("```")]
    entries: dict[str, str] = {}
    head: str | None = None
    previous_was_term = False
    for line in block.splitlines()[1:]:
        if line and not line[0].isspace():
            if not previous_was_term:
                head = line.strip().lower()
            assert head is not None
            entries[line.strip().lower()] = head
            previous_was_term = True
        else:
            previous_was_term = False
    return entries


def test_glossary_defines_the_terms_players_need() -> None:
    """The glossary has an entry for every term the issue lists (each with its definition)."""
    entries = glossary_entries()
    for term in CHECKED_TERMS:
        assert term in entries.values(), f"no glossary entry for {term!r}"


def first_uses(text: str) -> dict[str, tuple[int, bool]]:
    """For each checked term, where it is first used in ``text`` and whether that use links it."""
    entries = glossary_entries()
    linked: dict[str, int] = {}
    masked = list(text)
    for match in TERM_ROLE.finditer(text):
        target = (match[2] or match[1]).strip().lower()
        assert target in entries, f"{{term}} role to {target!r}, which the glossary lacks"
        linked.setdefault(entries[target], match.start())
        masked[match.start() : match.end()] = "\x01" * (match.end() - match.start())
    plain = OTHER_ROLE.sub(lambda match: "\x01" * len(match[0]), "".join(masked))
    found: dict[str, tuple[int, bool]] = {}
    for term, pattern in CHECKED_TERMS.items():
        bare = re.search(pattern, plain, re.IGNORECASE)
        role = linked.get(term)
        if bare is None and role is None:
            continue
        if role is not None and (bare is None or role < bare.start()):
            found[term] = (role, True)
        else:
            assert bare is not None
            found[term] = (bare.start(), False)
    return found


@pytest.mark.parametrize("page", PLAYER_PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_glossary_terms_are_linked_from_their_first_use(page: Path) -> None:
    """Every glossary term a player page uses is linked to the glossary at its first use on
    that page (library blocks, code and headings aside), so each page reads on its own."""
    text = player_text(page)
    unlinked = []
    for term, (position, is_link) in first_uses(text).items():
        if not is_link:
            snippet = " ".join(text[max(0, position - 30) : position + 30].split())
            unlinked.append(f"{term!r} near '...{snippet}...'")
    assert not unlinked, f"{page.name}: first uses not linked: {unlinked}"


def test_first_use_check_sees_an_unlinked_term() -> None:
    """Meta: the first-use check reports a bare term before its link, and accepts a link."""
    bare = first_uses("The sunk suit is named; the {term}`sunk suit` then matters.")
    assert bare["sunk suit"][1] is False
    linked = first_uses("The {term}`sunk <sunk suit>` suit; later the sunk suit again.")
    assert linked["sunk suit"][1] is True
    assert first_uses("A contract is made.")["made"][1] is False
    assert "made" not in first_uses("She made a bid.")


# -- the variants table -----------------------------------------------------------------------


def variants_rows() -> list[list[str]]:
    text = (RULES_DIR / "variants.md").read_text(encoding="utf-8")
    start = text.index("(variants-table)=")
    rows = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in text[start:].splitlines()
        if line.startswith("|")
    ]
    header, separator, *body = rows
    assert set("".join(separator)) <= set("-: ")
    assert header[-1].startswith("Library field")
    return body


def default_text(value: object) -> str:
    if isinstance(value, PlayOver):
        return f"PlayOver.{value.name}"
    return str(value)


def test_variants_table_covers_every_rules_field() -> None:
    """The Variants page's table names every field of Rules, once, with its default, and each
    row says where the rules reference discusses it."""
    documented: dict[str, str] = {}
    for row in variants_rows():
        match = re.fullmatch(r"`(\w+)` \(`(.+)`\)", row[-1])
        assert match, row
        assert match[1] not in documented, f"{match[1]} listed twice"
        documented[match[1]] = match[2]
        assert re.search(r"\{(ref|rule)\}`", row[-2]), f"{match[1]}: no rule or ruling cited"
    fields = {field.name: field.default for field in attrs.fields(Rules)}
    assert set(documented) == set(fields)
    for name, default in fields.items():
        assert documented[name] == default_text(default), name


# -- the quick-reference card ----------------------------------------------------------------

QUICKREF = RULES_DIR / "quick-reference.md"


def test_quick_reference_melds_are_the_codes() -> None:
    """R-MELD-1: the card's meld grid names all nine melds, each once, with its points."""
    text = QUICKREF.read_text(encoding="utf-8")
    grid = text[text.index("(quickref-melds)=") :]
    rows = [line for line in grid.splitlines() if line.startswith("|")][2:5]
    cells = [cell.strip() for row in rows for cell in row.strip().strip("|").split("|")]
    labels = {kind.label.lower(): kind for kind in MeldKind}
    seen = []
    for cell in cells:
        match = re.fullmatch(r"(?:\{term\}`)?([A-Za-z ]+?)`? [\d ]*\*\*(−\d+)\*\*", cell)
        assert match, cell
        kind = labels[match[1].strip().lower()]
        assert int(match[2].replace("−", "-")) == kind.points, cell
        seen.append(kind)
    assert sorted(seen, key=list(MeldKind).index) == list(MeldKind)


def test_quick_reference_numbers_are_the_standard_game() -> None:
    """R-SCORE-1, R-BID-3 to R-BID-7, R-PASS-1, R-PASS-2, R-SCORE-3, R-END-1: every number on
    the quick-reference card is the standard game's."""
    text = " ".join(QUICKREF.read_text(encoding="utf-8").split())
    rules = Rules()
    points = re.search(
        r"Each 2 taken is worth \*\*(\d+)\*\*, each 3 \*\*(\d+)\*\*, and the last trick "
        r"\*\*(\d+)\*\*: \*\*(\d+)\*\* in a hand",
        text,
    )
    assert points, "the card-points sentence changed; update this test"
    two, three = Card.parse("2S").points, Card.parse("3S").points
    assert tuple(int(n) for n in points.groups()) == (
        two,
        three,
        LAST_TRICK_BONUS,
        TOTAL_CARD_POINTS,
    )
    assert rules.end_at_target, "the card says '500 or more'"
    for pattern in (
        rf"Multiples of {rules.bid_step}, from {rules.opening_bid_limit} down",
        rf"down to −{-rules.lowest_bid}\)",
        rf"must bid {rules.forced_bid}\*\*",
        rf"passes her \*\*{rules.pass_size}\*\* cards",
        rf"passes \*\*{rules.pass_size}\*\* unmelded",
        rf"\*\*{rules.failed_bid_score} − bid\*\*",
        rf"\*\*{rules.target_score} or more\*\*",
        rf"total reaches {rules.target_score}",
    ):
        assert re.search(pattern, text), pattern
