"""The documentation agrees with the code.

* Every rule of :data:`deepsix.RULEBOOK` is stated, numbered, exactly once in
  the rules reference (``docs/rules``), in rulebook order, and nothing else is.
* Every rule is cited by at least one test in ``tests/``, and no test cites a
  rule that does not exist.
* The scoring tables in ``docs/rules/scoring.md`` match the code, number by
  number.
* The committed SVG diagrams are exactly what ``docs/_scripts/make_diagrams.py``
  draws, and the phase diagram's arrows are exactly the transitions that real
  games make.
* Every Ruling box has its four parts, and the rulings the documentation
  promises are there.

The doctests in the pages themselves run in ``nox -s docs`` (the Sphinx
doctest builder), not here.
"""

from __future__ import annotations

import importlib.util
import random
import re
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

from deepsix import (
    DECK,
    RULEBOOK,
    Action,
    Card,
    GameState,
    MeldKind,
    Pass,
    Phase,
    Rank,
    Suit,
    apply,
    legal_actions,
    new_game,
    shuffled_deal,
)
from deepsix.scoring import LAST_TRICK_BONUS, TOTAL_CARD_POINTS

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
RULES_DIR = DOCS / "rules"
TESTS = ROOT / "tests"

RULE_ID = re.compile(r"R-[A-Z]+-\d+")
RULE_DIRECTIVE = re.compile(r"^```\{rule\}[ \t]+(\S+)[ \t]*$", re.MULTILINE)
TOCTREE = re.compile(r"```\{toctree\}\n(.*?)```", re.DOTALL)
RULING = re.compile(r"^:::\{ruling\}[ \t]+(.+?)\n(.*?)^:::[ \t]*$", re.MULTILINE | re.DOTALL)


def doc_sources() -> list[Path]:
    """Every page of the docs (built output excluded)."""
    return sorted(p for p in DOCS.rglob("*.md") if "_build" not in p.parts)


def rules_pages() -> list[Path]:
    """The rules reference's pages in reading order: the index, then its table of contents."""
    index = RULES_DIR / "index.md"
    toctree = TOCTREE.search(index.read_text(encoding="utf-8"))
    assert toctree is not None, "docs/rules/index.md has no toctree"
    entries = [
        line.strip()
        for line in toctree.group(1).splitlines()
        if line.strip() and not line.strip().startswith(":")
    ]
    return [index, *(RULES_DIR / f"{entry}.md" for entry in entries)]


def numbered_rules() -> list[str]:
    """The rule ids stated with the ``rule`` directive, in reading order."""
    ids: list[str] = []
    for page in rules_pages():
        ids.extend(RULE_DIRECTIVE.findall(page.read_text(encoding="utf-8")))
    return ids


# -- (1) the rules reference states every rule exactly once -----------------------


def test_rules_reference_states_every_rule_once_in_rulebook_order() -> None:
    """Every RULEBOOK id is a numbered rule of the reference, once, in order; no other id is."""
    stated = numbered_rules()
    duplicates = sorted(rule for rule, n in Counter(stated).items() if n > 1)
    assert not duplicates, f"rules stated more than once: {duplicates}"
    unknown = sorted(set(stated) - set(RULEBOOK))
    assert not unknown, f"rules in the reference but not in RULEBOOK: {unknown}"
    missing = [rule for rule in RULEBOOK if rule not in stated]
    assert not missing, f"RULEBOOK rules missing from docs/rules: {missing}"
    assert stated == list(RULEBOOK), "the reference states the rules in another order"


def test_rule_directives_only_in_the_rules_reference() -> None:
    """Rules are numbered in docs/rules only, so the reference is the one place to read them."""
    for page in doc_sources():
        if page.parent != RULES_DIR:
            found = RULE_DIRECTIVE.findall(page.read_text(encoding="utf-8"))
            assert not found, f"{page.relative_to(ROOT)} states rules {found}"


def test_every_rules_page_is_in_the_reference() -> None:
    """No page under docs/rules is left out of the rules reference's table of contents."""
    assert set(rules_pages()) == set(RULES_DIR.glob("*.md"))


# -- (2) the tests cite every rule, and only real rules -------------------------------


def citing_sources() -> list[Path]:
    """Test sources other than this file."""
    return sorted(p for p in TESTS.rglob("*.py") if p.resolve() != Path(__file__).resolve())


def cited_rules() -> dict[str, set[str]]:
    """Each rule id cited in the test sources, with the files that cite it."""
    cited: dict[str, set[str]] = {}
    for path in citing_sources():
        for rule in RULE_ID.findall(path.read_text(encoding="utf-8")):
            cited.setdefault(rule, set()).add(path.name)
    return cited


def test_every_rule_is_cited_by_a_test() -> None:
    """Every numbered rule is cited by at least one test in tests/ (this file excluded)."""
    cited = cited_rules()
    uncited = [rule for rule in RULEBOOK if rule not in cited]
    assert not uncited, f"rules no test cites: {uncited}"


def test_no_test_cites_an_unknown_rule() -> None:
    """No test cites a rule id that the rulebook does not define."""
    unknown = {rule: sorted(files) for rule, files in cited_rules().items() if rule not in RULEBOOK}
    assert not unknown, f"tests cite rules that do not exist: {unknown}"


# -- (3) the scoring tables match the code ---------------------------------------------


def table_after(label: str, path: Path) -> list[list[str]]:
    """The rows (header and separator dropped) of the first pipe table after ``(label)=``."""
    text = path.read_text(encoding="utf-8")
    start = text.index(f"({label})=")
    rows: list[list[str]] = []
    for line in text[start:].splitlines()[1:]:
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
        elif rows:
            break
    assert len(rows) > 2, f"no table after ({label})= in {path.name}"
    header, separator, *body = rows
    assert set("".join(separator)) <= set("-: "), f"malformed table after ({label})="
    assert all(len(row) == len(header) for row in body)
    return body


def number(cell: str) -> int:
    """A table cell as an integer; the typographic minus sign counts."""
    return int(cell.replace("\u2212", "-").replace("`", "").strip())


SCORING = RULES_DIR / "scoring.md"


def test_meld_table_matches_meld_kinds() -> None:
    """R-MELD-1: each meld's name, code, family, ranks and points in the table are the code's."""
    rows = table_after("meld-table", SCORING)
    kinds = {kind.code: kind for kind in MeldKind}
    seen = []
    for name, code, family, cards, points in rows:
        kind = kinds[code.strip("`")]
        seen.append(kind)
        assert name.lower() == kind.label.lower(), (name, kind)
        assert family == kind.family.value, (family, kind)
        assert tuple(int(d) for d in re.findall(r"\b[2-8]\b", cards)) == kind.ranks, (cards, kind)
        assert number(points) == kind.points, (points, kind)
        if kind.family.value == "run":
            assert "not the sunk suit" in cards, f"the {kind.label} row must say R-MELD-2"
    assert sorted(seen, key=list(MeldKind).index) == list(MeldKind), "each kind exactly once"


def test_card_points_table_matches_card_values() -> None:
    """R-SCORE-1: the card-points table's values, counts and totals are the code's."""
    rows = table_after("card-points-table", SCORING)
    covered: set[Rank] = set()
    total = 0
    for what, points, count, subtotal in rows:
        if what == "Total":
            assert number(subtotal) == total == TOTAL_CARD_POINTS
            continue
        if what == "Last trick":
            assert (number(points), number(count)) == (LAST_TRICK_BONUS, 1)
        else:
            ranks = [Rank(int(d)) for d in re.findall(r"\b[2-8]\b", what)]
            assert ranks, what
            assert not covered & set(ranks), what
            covered |= set(ranks)
            for rank in ranks:
                values = {Card.of(rank, suit).points for suit in Suit}
                assert values == {number(points)}, (what, values)
            assert number(count) == sum(1 for card in DECK if card.rank in ranks)
        assert number(subtotal) == number(points) * number(count)
        total += number(subtotal)
    assert covered == set(Rank), "every rank has a row"


# -- (4) the diagrams ----------------------------------------------------------------------


def diagrams() -> ModuleType:
    """The diagram script, loaded from docs/_scripts."""
    path = DOCS / "_scripts" / "make_diagrams.py"
    spec = importlib.util.spec_from_file_location("make_diagrams", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_committed_svgs_match_the_generator() -> None:
    """docs/_static/*.svg are exactly what make_diagrams.py draws (rerun it after a change)."""
    module = diagrams()
    for name, draw in module.DIAGRAMS.items():
        committed = (DOCS / "_static" / name).read_text(encoding="utf-8")
        assert committed == draw(), f"{name} is stale: run python docs/_scripts/make_diagrams.py"


def biased_choice(state: GameState, rng: random.Random) -> Action:
    """A random legal action that passes often in the auction, so forced bids happen too."""
    actions = legal_actions(state)
    if state.phase is Phase.BIDDING and isinstance(actions[0], Pass) and rng.random() < 0.6:
        return actions[0]
    return rng.choice(actions)


def test_phase_diagram_draws_exactly_the_engine_transitions() -> None:
    """R-PHASE-1: the phase diagram's boxes are the phases, its arrows the transitions of play."""
    module = diagrams()
    assert {box.phase for box in module.BOXES} == set(Phase)
    drawn = {(edge.source, edge.target, edge.action) for edge in module.EDGES}
    assert len(drawn) == len(module.EDGES)
    assert {(e.source, e.target) for e in module.EDGES} == set(module.LABELS)
    seen: set[tuple[Phase, Phase, str]] = set()
    for seed in range(40):
        rng = random.Random(seed)
        state = new_game()
        while not state.is_over:
            action = shuffled_deal(rng) if state.is_chance else biased_choice(state, rng)
            after = apply(state, action)
            seen.add((state.phase, after.phase, type(action).__name__))
            state = after
        if seen == drawn:
            break
    assert seen <= drawn, f"transitions missing from the diagram: {sorted(map(str, seen - drawn))}"
    assert seen == drawn, f"arrows no game took: {sorted(map(str, drawn - seen))}"


# -- rulings ---------------------------------------------------------------------------------

RULING_PARTS = ("The rules text", "What the library does", "Why", "Switch")

REQUIRED_RULINGS = (
    "The opening bid",
    "The lowest bid",
    "The dealer's forced bid",
    "What an invitation may show",
    "The order of passes and melds",
    "Passed cards and melded cards",
    "Sharing cards between melds",
    'The meaning of "play over"',
    "500, or more than 500",
    "Who wins, and ties",
    "The zero floor and a failed bid",
    "Failing can record less than making",
)


def rulings() -> dict[str, str]:
    """Every Ruling box in the docs: title -> body."""
    found: dict[str, str] = {}
    for page in doc_sources():
        for title, body in RULING.findall(page.read_text(encoding="utf-8")):
            assert title not in found, f"two rulings titled {title!r}"
            found[title] = body
    return found


def test_every_ruling_has_its_four_parts() -> None:
    """Each Ruling box quotes the text, says what the library does and why, and names the switch."""
    for title, body in rulings().items():
        terms = [line for line in body.splitlines() if line and not line.startswith((" ", ":"))]
        assert terms == list(RULING_PARTS), f"ruling {title!r} has parts {terms}"
        assert re.search(r"^:rules: R-", body, re.MULTILINE), f"ruling {title!r} cites no rule"


@pytest.mark.parametrize("title", REQUIRED_RULINGS)
def test_required_ruling_is_documented(title: str) -> None:
    """Each point the rules text leaves open, as listed in the documentation issue, has a ruling."""
    assert title in rulings()


SPHINX_PAGES = ("search", "genindex", "py-modindex")
"""Pages the HTML builder writes itself, over any document of the same name."""


def test_no_page_is_overwritten_by_one_sphinx_writes() -> None:
    """A document called ``search`` would be built and then replaced by Sphinx's own
    search page (as the search bot's page once was), silently."""
    clashes = [
        path.relative_to(DOCS)
        for path in DOCS.glob("*.*")
        if path.suffix in {".md", ".rst"} and path.stem in SPHINX_PAGES
    ]
    assert clashes == []
