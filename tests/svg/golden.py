"""The golden pictures: which SVGs are checked in, and how to draw each one.

``DEEPSIX_UPDATE_GOLDEN=1 pytest tests/svg`` rewrites them (look at what
changed before committing: ``python -m tests.svg.look`` renders them in
Chromium).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, partial
from pathlib import Path
from typing import Final

from deepsix import Card, GameState, Meld, MeldKind, Seat, Suit, view
from deepsix import svg as pictures
from tests.svg.positions import NAMES, positions

GOLDEN: Final = Path(__file__).resolve().parent / "golden"


@cache
def _positions() -> dict[str, GameState]:
    return positions()


def _cards(text: str) -> tuple[Card, ...]:
    """Cards in the order written (``parse_cards`` sorts them)."""
    return tuple(Card.parse(part) for part in text.split())


def _table(name: str, seat: Seat | None) -> str:
    """The table of position ``name``: the whole state (``seat=None``), or a seat's view."""
    state = _positions()[name]
    return pictures.table(state if seat is None else view(state, seat))


def drawings() -> dict[str, Callable[[], str]]:
    """Each golden file's name and the call that draws it."""
    found: dict[str, Callable[[], str]] = {}
    for name in NAMES:
        found[f"table-{name}.svg"] = partial(_table, name, None)
        found[f"view-{name}.svg"] = partial(_table, name, Seat.SOUTH)
    found["spectator-play-mid-trick.svg"] = lambda: pictures.table(
        view(_positions()["play-mid-trick"], None)
    )
    found["view-east-partner-pass.svg"] = lambda: pictures.table(
        view(_positions()["partner-pass"], Seat.EAST)
    )
    found["view-west-partner-pass.svg"] = lambda: pictures.table(
        view(_positions()["partner-pass"], Seat.WEST), size=640
    )
    found["dark-play-mid-trick.svg"] = lambda: pictures.table(
        view(_positions()["play-mid-trick"], Seat.SOUTH), theme="dark"
    )
    found["hand.svg"] = lambda: pictures.hand(
        _cards("2C 5D 5D 7H 8H 6S 7S 8S"), legal=_cards("5D 7H"), label="South"
    )
    found["hand-fanned.svg"] = lambda: pictures.hand(
        _positions()["play-lead"].hand(Seat.SOUTH), overlap=True
    )
    found["trick.svg"] = lambda: pictures.trick(
        list(zip(Seat, _cards("6S 8S 2S 5D"), strict=True)), Suit.HEARTS
    )
    found["trick-partial.svg"] = lambda: pictures.trick(
        [(Seat.EAST, Card.parse("6S")), (Seat.SOUTH, Card.parse("5H"))], Suit.HEARTS
    )
    found["meld.svg"] = lambda: pictures.meld(
        [Meld(MeldKind.GRAND_RUN, Suit.SPADES), Meld(MeldKind.DEEP_ECHO, Suit.HEARTS),
         Meld(MeldKind.SEVENS_WIDE)], label="South's melds",
    )  # fmt: skip
    found["score-sheet.svg"] = lambda: pictures.score_sheet(
        _positions()["game-over"], title="A game of four heuristic bots"
    )
    found["card.svg"] = lambda: pictures.card(Card.parse("7H"))
    found["card-back-dark.svg"] = lambda: pictures.card(None, theme="dark", size=60)
    return found
