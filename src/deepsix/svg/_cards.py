"""Cards as SVG: faces, backs and suit pips drawn as paths (no font needs the suit symbols)."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from typing import Final

from deepsix.cards import Card, Rank, Suit
from deepsix.svg._canvas import Canvas, fmt

__all__ = [
    "CARD_RATIO",
    "Mark",
    "card_name",
    "draw_back",
    "draw_card",
    "draw_pip",
    "draw_suit_badge",
    "mark_cards",
    "suit_name",
]

CARD_RATIO: Final = 1.4
"""A card's height over its width."""

_CIRCLE: Final = "a21 21 0 1 0 42 0a21 21 0 1 0 -42 0Z"
PIPS: Final = {
    Suit.CLUBS: (
        f"M29 27{_CIRCLE}M6 60{_CIRCLE}M52 60{_CIRCLE}"
        "M46 52C46 77 42 90 31 98H69C58 90 54 77 54 52Z"
    ),
    Suit.DIAMONDS: "M50 2L89 50L50 98L11 50Z",
    Suit.HEARTS: (
        "M50 92C22 70 2 52 2 30C2 14 14 4 28 4C39 4 46 10 50 19C54 10 61 4 72 4C86 4 98 14 98 30"
        "C98 52 78 70 50 92Z"
    ),
    Suit.SPADES: (
        "M50 2C72 24 98 40 98 62C98 78 86 88 72 88C63 88 56 84 53 78C54 87 58 93 66 98H34"
        "C42 93 46 87 47 78C44 84 37 88 28 88C14 88 2 78 2 62C2 40 28 24 50 2Z"
    ),
}
"""Each suit's shape in a 100 by 100 box."""

_SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
_RANK_NAMES: Final = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8"}


def suit_name(suit: Suit) -> str:
    """``spades``, ``hearts`` ... (for titles and descriptions)."""
    return _SUIT_NAMES[suit]


def card_name(card: Card) -> str:
    """A card in words, for a screen reader: ``7 of spades``."""
    return f"{_RANK_NAMES[card.rank]} of {_SUIT_NAMES[card.suit]}"


class Mark(enum.Enum):
    """How a card is set apart from the others."""

    WINNER = "winner"
    """The card that takes (or is taking) the trick: a thick accent border."""
    LEGAL = "legal"
    """A card that may be played, passed or shown now: raised, with a coloured border."""
    SHOWN = "shown"
    """A card in the bidder's invitation: a tinted face."""
    RECEIVED = "received"
    """A card this seat received from its partner: a face tinted another way."""
    FADED = "faded"
    """A card of the last trick, no longer on the table."""


_NOTES: Final = {
    Mark.LEGAL: "may be played now",
    Mark.SHOWN: "shown in the invitation",
    Mark.RECEIVED: "received from partner",
}


def mark_cards(
    cards: Sequence[Card],
    *,
    legal: Iterable[Card] = (),
    shown: Iterable[Card] = (),
    received: Iterable[Card] = (),
) -> list[tuple[Mark | None, str]]:
    """Each card's mark and note, in that order of precedence; a card held twice is marked
    as often as it is listed (one legal 7S marks one of two)."""
    pools = [(Mark.LEGAL, list(legal)), (Mark.SHOWN, list(shown)), (Mark.RECEIVED, list(received))]
    found: list[tuple[Mark | None, str]] = []
    for face in cards:
        for mark, pool in pools:
            if face in pool:
                pool.remove(face)
                found.append((mark, _NOTES[mark]))
                break
        else:
            found.append((None, ""))
    return found


def draw_pip(  # noqa: PLR0913, PLR0917  # where, how big, which suit, what colour
    canvas: Canvas, x: float, y: float, size: float, suit: Suit, fill: str
) -> None:
    """The pip of ``suit`` in the ``size`` square at ``(x, y)``."""
    canvas.add(
        f'<path transform="translate({fmt(x)} {fmt(y)}) scale({size / 100:.4g})" '
        f'd="{PIPS[suit]}" fill="{fill}"/>'
    )


def draw_suit_badge(canvas: Canvas, x: float, y: float, size: float, suit: Suit) -> None:
    """The pip of ``suit`` on a card-coloured tile (readable on any background, dark ones too)."""
    pad = size * 0.18
    canvas.rect(
        x - pad,
        y - pad,
        size + 2 * pad,
        size + 2 * pad,
        fill=canvas.theme.card_face,
        radius=size * 0.25,
    )
    draw_pip(canvas, x, y, size, suit, canvas.theme.suit(suit))


def draw_card(  # noqa: PLR0913  # geometry, then options
    canvas: Canvas,
    x: float,
    y: float,
    width: float,
    card: Card,
    *,
    mark: Mark | None = None,
    note: str = "",
) -> None:
    """The face of ``card`` with its top-left corner at ``(x, y)``; ``note`` adds to its title."""
    theme = canvas.theme
    height = width * CARD_RATIO
    if mark is Mark.LEGAL:
        y -= width * 0.16
    colour = theme.suit(card.suit)
    title = card_name(card) + (f" ({note})" if note else "")
    canvas.open_group(title)
    stroke, stroke_width, face = theme.card_edge, max(1.0, width / 50), theme.card_face
    if mark is Mark.WINNER:
        stroke, stroke_width = theme.accent, max(3.0, width / 14)
    elif mark is Mark.LEGAL:
        stroke, stroke_width = theme.legal, max(2.5, width / 18)
    elif mark is Mark.SHOWN:
        face = theme.shown_face
    elif mark is Mark.RECEIVED:
        face = theme.received_face
    canvas.rect(
        x,
        y,
        width,
        height,
        fill=face,
        stroke=stroke,
        stroke_width=stroke_width,
        radius=width * 0.1,
    )
    index = width * 0.3
    canvas.text(
        x + width * 0.08,
        y + width * 0.36,
        str(Rank(card.rank)),
        size=index,
        fill=colour,
        bold=True,
    )
    draw_pip(canvas, x + width * 0.08, y + width * 0.44, width * 0.24, card.suit, colour)
    big = width * 0.46
    draw_pip(canvas, x + width * 0.42, y + height - big - width * 0.14, big, card.suit, colour)
    if mark is Mark.FADED:
        canvas.rect(x, y, width, height, fill=theme.background, radius=width * 0.1, opacity=0.45)
    canvas.close_group()


def draw_back(canvas: Canvas, x: float, y: float, width: float, *, title: str = "") -> None:
    """The back of a card (a card this picture may not show)."""
    theme = canvas.theme
    height = width * CARD_RATIO
    canvas.open_group(title or None)
    canvas.rect(
        x,
        y,
        width,
        height,
        fill=theme.card_back,
        stroke=theme.card_edge,
        stroke_width=max(1.0, width / 50),
        radius=width * 0.1,
    )
    inset = width * 0.12
    canvas.rect(
        x + inset,
        y + inset,
        width - 2 * inset,
        height - 2 * inset,
        fill="none",
        stroke=theme.card_back_mark,
        stroke_width=max(1.0, width / 40),
        radius=width * 0.06,
    )
    cx, cy, r = x + width / 2, y + height / 2, width * 0.16
    canvas.add(
        f'<path d="M{fmt(cx)} {fmt(cy - r)}L{fmt(cx + r)} {fmt(cy)}L{fmt(cx)} {fmt(cy + r)}'
        f'L{fmt(cx - r)} {fmt(cy)}Z" fill="{theme.card_back_mark}"/>'
    )
    canvas.close_group()
