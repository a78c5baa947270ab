"""Which build the suite runs against, and the compiled build's two traps.

CI runs the whole suite twice (``nox``): ``tests`` against the pure-Python
sources and ``tests_compiled`` against the installed compiled wheel.  Each
session sets ``DEEPSIX_EXPECT_BUILD``, and the first test below fails if the
build loaded is not the one expected -- a compiled run that silently
imported the pure sources (or the reverse) is caught here.

The other tests pin the two ways in which compiling with mypyc changes what
Python code sees, whichever build runs them:

* the field annotations that ``typing``, attrs and cattrs read at run time
  (mypyc writes some of them as bare classes unless told otherwise);
* the error for an argument of the wrong type (mypyc checks the declared
  parameter types itself and raises a bare ``TypeError`` before the
  library's own check could raise its ``ParseError``).
"""

from __future__ import annotations

import collections.abc
import importlib
import importlib.machinery
import os
import tomllib
import typing
from pathlib import Path

import attrs
import pytest

import deepsix.compiled
from deepsix import (
    Bid,
    Card,
    GameState,
    HandRecord,
    HandSetup,
    Meld,
    MeldKind,
    Pass,
    Seat,
    Suit,
    Trick,
    apply,
    legal_actions,
    new_game,
    shuffled_deal,
)
from deepsix.actions import Action, LegalActions
from deepsix.errors import DeepSixError, ParseError, WrongTypeError
from deepsix.hands import pack_counts
from deepsix.history import History
from deepsix.melds import available_melds, best_meld, candidate_melds, meld_blocker
from deepsix.phases.auction import AuctionStep
from deepsix.scoring import HandScore
from deepsix.state import Phase, _Engine

ROOT = Path(__file__).resolve().parent.parent


def test_the_expected_build_is_loaded() -> None:
    """``DEEPSIX_EXPECT_BUILD`` (set by the nox sessions) names the build that must be loaded."""
    expected = os.environ.get("DEEPSIX_EXPECT_BUILD")
    build = deepsix.compiled.BUILD
    if expected is None:
        pytest.skip(f"DEEPSIX_EXPECT_BUILD is not set (this run loaded the {build} build)")
    assert build == expected
    if expected == "mypyc":
        assert deepsix.compiled.MODULES == deepsix.compiled.CANDIDATES
    else:
        assert deepsix.compiled.MODULES == ()


def test_the_build_report_matches_the_loaded_modules() -> None:
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    for name in deepsix.compiled.CANDIDATES:
        module = importlib.import_module(name)
        assert (name in deepsix.compiled.MODULES) == str(module.__file__).endswith(suffixes)
    assert bool(deepsix.compiled.MODULES) == deepsix.compiled.COMPILED


def test_the_compiled_modules_are_the_ones_the_build_compiles() -> None:
    """``deepsix.compiled.CANDIDATES`` lists the files of the mypyc build hook, no more."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    hook = project["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["mypyc"]
    files = [
        path.removeprefix("src/").removesuffix(".py").replace("/", ".") for path in hook["include"]
    ]
    assert tuple(files) == deepsix.compiled.CANDIDATES
    assert hook["enable-by-default"] is False


# -- trap 1: the annotations that typing, attrs and cattrs read ----------------------

Plays = tuple[tuple[Seat, Card], ...]
Melds = tuple[Meld, ...]
ANNOTATIONS: dict[type, dict[str, object]] = {
    GameState: {
        "rules": deepsix.Rules,
        "dealer": Seat,
        "phase": Phase,
        "to_act": Seat | None,
        "scores": tuple[int, int],
        "completed_hands": tuple[HandRecord, ...],
        "setup": HandSetup,
        "packed_hands": tuple[int, int, int, int],
        "trick": Plays,
        "tricks": tuple[Trick, ...],
        "log": History | None,
        "_legal": LegalActions | None,
    },
    HandSetup: {
        "bids": tuple[Bid | Pass, ...],
        "bidder": Seat | None,
        "bid": int | None,
        "sunk_suit": Suit | None,
        "invitation": tuple[Card, ...],
        "partner_pass": tuple[Card, ...],
        "bidder_pass": tuple[Card, ...],
        "melds": tuple[Melds, Melds, Melds, Melds],
    },
    HandRecord: {
        "number": int,
        "dealer": Seat,
        "bidder": Seat,
        "bid": int,
        "sunk_suit": Suit,
        "card_points": tuple[int, int],
        "meld": tuple[int, int],
        "net": tuple[int, int],
        "scores": tuple[int, int],
        "made": bool,
        "totals": tuple[int, int],
    },
    Trick: {"plays": Plays, "winner": Seat},
    Meld: {"kind": MeldKind, "suit": Suit | None},
    HandScore: {"net": tuple[int, int], "scores": tuple[int, int], "made": bool},
    _Engine: {
        "apply": collections.abc.Callable[[GameState, Action], GameState],
        "legal_actions": collections.abc.Callable[[GameState], LegalActions],
    },
    AuctionStep: {
        "bids": tuple[Bid | Pass, ...],
        "bidder": Seat | None,
        "bid": int | None,
        "finished": bool,
        "next_seat": Seat,
    },
}


@pytest.mark.parametrize("cls", list(ANNOTATIONS), ids=lambda cls: cls.__name__)
def test_field_annotations_are_what_the_source_declares(cls: type) -> None:
    """Every attrs class of a compiled module: typing and attrs see the declared types."""
    assert typing.get_type_hints(cls) == ANNOTATIONS[cls]
    hints = typing.get_type_hints(cls)
    for field in attrs.fields(cls):
        assert field.type is not None
        assert field.type in (hints[field.name], str(field.type))
        assert field.type not in (tuple, type), f"{cls.__name__}.{field.name} was flattened"


def test_every_attrs_class_of_the_compiled_modules_is_pinned() -> None:
    found = {
        value
        for name in deepsix.compiled.CANDIDATES
        for value in vars(importlib.import_module(name)).values()
        if isinstance(value, type) and attrs.has(value) and value.__module__ == name
    }
    assert found == set(ANNOTATIONS)


# -- trap 2: ParseError for bad arguments, not a bare TypeError ------------------------

STATE = apply(new_game(), shuffled_deal(1))
COUNTS = [0] * 28


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda: new_game(rules="standard"), ParseError),  # type: ignore[arg-type]  # wrong on purpose
        (lambda: new_game(dealer=7), ParseError),
        (lambda: apply(STATE, Pass(Seat.EAST), seat="X"), ParseError),
        (lambda: apply(STATE, "E passes"), DeepSixError),  # type: ignore[call-overload]  # wrong on purpose
        (lambda: apply(STATE, None), DeepSixError),  # type: ignore[call-overload]  # wrong on purpose
        (lambda: pack_counts(["2"] * 28), ParseError),  # type: ignore[list-item]  # wrong on purpose
        (lambda: pack_counts([0] * 27), ParseError),
        (lambda: available_melds(["x"] * 28, (), None), ParseError),  # type: ignore[list-item]  # wrong on purpose
        (lambda: available_melds(COUNTS, ("DR-S",), None), ParseError),  # type: ignore[arg-type]  # wrong on purpose
        (lambda: available_melds(COUNTS, (), "S"), ParseError),  # type: ignore[arg-type]  # wrong on purpose
        (lambda: meld_blocker(COUNTS, (), "DR-S", None), ParseError),
        (lambda: candidate_melds(["7S"], None), ParseError),  # type: ignore[list-item]  # wrong on purpose
        (lambda: best_meld([Card("7S")], "S"), ParseError),  # type: ignore[arg-type]  # wrong on purpose
        (lambda: Meld("DR", Suit.SPADES), ParseError),  # type: ignore[arg-type]  # wrong on purpose
        (lambda: GameState(*(None,) * 11), WrongTypeError),  # type: ignore[arg-type]  # wrong on purpose
        (lambda: HandSetup(bids=[]), WrongTypeError),  # type: ignore[arg-type]  # wrong on purpose
        (lambda: Trick([], Seat.NORTH), WrongTypeError),  # type: ignore[arg-type]  # wrong on purpose
    ],
)
def test_bad_arguments_raise_the_library_error(
    call: typing.Callable[[], object], error: type
) -> None:
    with pytest.raises(error):
        call()


def test_the_engine_still_plays_after_refusals() -> None:
    moves = legal_actions(STATE)
    action: Action = moves[0]
    assert apply(STATE, action).history[-1] == action
