"""Pictures of the parts of a game: a card, a hand, a trick, melds, the score sheet."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from deepsix.cards import Card, Seat, Suit, Team, parse_cards, seat_of
from deepsix.errors import ParseError, WrongTypeError
from deepsix.melds import Meld
from deepsix.scoring import LAST_TRICK_BONUS
from deepsix.state import GameState, HandRecord
from deepsix.svg._canvas import Canvas, Svg
from deepsix.svg._cards import (
    CARD_RATIO,
    Mark,
    card_name,
    draw_back,
    draw_card,
    draw_suit_badge,
    mark_cards,
    suit_name,
)
from deepsix.svg.theme import Theme, theme_named
from deepsix.tricks import Trick, trick_points, winning_position
from deepsix.views import PlayerView

__all__ = [
    "SEAT_NAMES",
    "TEAM_NAMES",
    "card",
    "check_cards",
    "check_seat",
    "hand",
    "meld",
    "meld_label",
    "score_sheet",
    "trick",
]

SEAT_NAMES: Final = ("North", "East", "South", "West")
"""Each seat's name in pictures."""
TEAM_NAMES: Final = ("North–South", "East–West")
"""Each team's name in pictures."""

_GAP: Final = 8.0
_PAD: Final = 16.0


def check_cards(cards: object, what: str = "cards") -> tuple[Card, ...]:
    """``cards`` as a tuple of cards (each a :class:`~deepsix.Card` or its notation, or all
    of them as one text such as ``"7S 8H"``), or a typed error naming what is wrong."""
    if isinstance(cards, str):
        return parse_cards(cards)
    if isinstance(cards, bytes) or not isinstance(cards, Iterable):
        raise WrongTypeError(f"{what} must be a sequence of Card, not {type(cards).__name__}")
    return tuple(_card_of(item, f"{what} must hold Card values") for item in cards)


def _card_of(value: object, what: str) -> Card:
    if isinstance(value, (Card, str)):
        return Card(value)
    raise WrongTypeError(f"{what}, not {value!r}")


def check_seat(value: object, what: str = "seat") -> Seat:
    """``value`` as a :class:`~deepsix.Seat` (a seat, 0..3 or ``"S"``), or a typed error
    naming ``what``."""
    try:
        return seat_of(value)
    except ParseError as error:
        raise ParseError(f"{what}: {error}") from None
    except WrongTypeError as error:
        raise WrongTypeError(f"{what}: {error}") from None


def _suit(value: object, what: str = "sunk_suit") -> Suit | None:
    if value is None:
        return None
    if isinstance(value, str):
        return Suit.parse(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise WrongTypeError(f"{what} must be a Suit or None, not {value!r}")
    if not 0 <= value <= 3:
        raise ParseError(f"{what} must be a Suit, not {value!r}")
    return Suit(value)


# -- one card ---------------------------------------------------------------------------


def card(
    face: Card | str | None,
    *,
    mark: Mark | None = None,
    size: int | None = None,
    theme: Theme | str = "light",
) -> Svg:
    """One card, or its back (``face=None``); ``mark`` sets it apart (:class:`Mark`)."""
    look = theme_named(theme)
    if face is not None:
        face = _card_of(face, "a card picture needs a Card or None")
    if mark is not None and not isinstance(mark, Mark):
        raise WrongTypeError(f"mark must be a Mark or None, not {mark!r}")
    width = 100.0
    title = "the back of a card" if face is None else card_name(face)
    lift = width * 0.16 if mark is Mark.LEGAL else 0.0
    canvas = Canvas(
        width + 12, width * CARD_RATIO + 12 + lift, look, title=title, size=size, kind="card"
    )
    if face is None:
        draw_back(canvas, 6, 6, width)
    else:
        draw_card(canvas, 6, 6 + lift, width, face, mark=mark)
    return canvas.render()


# -- a hand -----------------------------------------------------------------------------


def hand(  # noqa: PLR0913  # the cards, then keywords
    cards: Iterable[Card | str] | str,
    *,
    legal: Iterable[Card | str] | str = (),
    shown: Iterable[Card | str] | str = (),
    label: str = "",
    overlap: bool = False,
    size: int | None = None,
    theme: Theme | str = "light",
) -> Svg:
    """A row of cards, in the order given; ``legal`` ones raised, ``shown`` ones outlined.

    ``overlap=True`` fans the cards so that only each card's corner shows (as
    a hand is held); by default they sit side by side.
    """
    look = theme_named(theme)
    held = check_cards(cards)
    raised = list(check_cards(legal, "legal"))
    outlined = list(check_cards(shown, "shown"))
    width = 64.0
    step = width * 0.42 if overlap else width + _GAP
    count = max(1, len(held))
    top = _PAD + (26.0 if label else 0.0) + width * 0.16
    box_w = 2 * _PAD + (count - 1) * step + width
    box_h = top + width * CARD_RATIO + _PAD
    words = ", ".join(card_name(c) for c in held) or "no cards"
    title = f"{label}: {words}" if label else f"A hand of {len(held)} cards: {words}"
    notes = []
    if raised:
        notes.append("May be played now: " + ", ".join(card_name(c) for c in raised) + ".")
    canvas = Canvas(box_w, box_h, look, title=title, description=notes, size=size, kind="hand")
    if label:
        canvas.text(_PAD, _PAD + 16, label, size=17, bold=True)
    marks = mark_cards(held, legal=raised, shown=outlined)
    for i, (item, (mark, note)) in enumerate(zip(held, marks, strict=True)):
        draw_card(canvas, _PAD + i * step, top, width, item, mark=mark, note=note)
    return canvas.render()


# -- a trick ----------------------------------------------------------------------------


def _plays_of(plays: object) -> tuple[tuple[tuple[Seat, Card], ...], Seat | None]:
    """The plays of a trick (and its recorded winner, for a completed :class:`Trick`)."""
    if isinstance(plays, Trick):
        return plays.plays, plays.winner
    if isinstance(plays, (str, bytes)) or not isinstance(plays, Iterable):
        raise WrongTypeError(
            f"a trick is a Trick or a sequence of (seat, card) plays, not {type(plays).__name__}"
        )
    found = []
    for play in plays:
        if not isinstance(play, tuple) or len(play) != 2:
            raise WrongTypeError(f"a play is a (seat, card) pair, not {play!r}")
        card_ = _card_of(play[1], f"a play is a (seat, card) pair, not {play!r}: a card")
        found.append((check_seat(play[0], "a play's seat"), card_))
    if len(found) > 4:
        raise ParseError(f"a trick has at most four plays, not {len(found)}")
    return tuple(found), None


def trick(
    plays: Trick | Sequence[tuple[Seat | str, Card | str]],
    sunk_suit: Suit | str | None = None,
    *,
    size: int | None = None,
    theme: Theme | str = "light",
) -> Svg:
    """A trick in play order, the card that takes it (or is taking it so far) marked.

    ``plays`` is a completed :class:`~deepsix.Trick` or ``(seat, card)`` pairs
    in order; the winner is the library's own
    (:func:`~deepsix.tricks.winning_position`) given ``sunk_suit``.
    """
    look = theme_named(theme)
    found, recorded = _plays_of(plays)
    sunk = _suit(sunk_suit)
    width = 76.0
    slot = width + 28
    box_w = 2 * _PAD + 4 * slot - 28
    box_h = 2 * _PAD + 24 + 18 + 26 + width * CARD_RATIO + 28
    winner = None
    if found:
        position = winning_position([c for _, c in found], sunk)
        winner = found[position][0]
        if recorded is not None and recorded != winner:
            raise ParseError(
                f"the trick says {SEAT_NAMES[recorded]} won it, but the rules give it to "
                f"{SEAT_NAMES[winner]}: is the sunk suit right?"
            )
    complete = len(found) == 4
    points = trick_points([c for _, c in found])
    words = [
        f"{SEAT_NAMES[seat]} {'leads' if i == 0 else 'plays'} {card_name(c)}"
        for i, (seat, c) in enumerate(found)
    ]
    if winner is None:
        headline = "An empty trick"
    else:
        verb = "takes the trick" if complete else "is winning so far"
        headline = f"{SEAT_NAMES[winner]} {verb} ({points} points)"
    sunk_words = f"{suit_name(sunk)} sunk" if sunk is not None else "no sunk suit"
    title = f"A trick, {sunk_words}: " + ("; ".join(words) or "no cards yet") + f". {headline}."
    canvas = Canvas(box_w, box_h, look, title=title, size=size, kind="trick")
    canvas.text(_PAD, _PAD + 18, headline, size=18, bold=True)
    left = _PAD
    if sunk is not None:
        draw_suit_badge(canvas, _PAD + 3, _PAD + 30, 14, sunk)
        left += 24
    canvas.text(left, _PAD + 43, sunk_words.capitalize(), size=14, fill=look.muted)
    top = _PAD + 24 + 22 + 26
    for i in range(4):
        x = _PAD + i * slot
        if i < len(found):
            seat, face = found[i]
            role = "leads" if i == 0 else f"plays {('2nd', '3rd', '4th')[i - 1]}"
            canvas.text(
                x + width / 2,
                top - 8,
                f"{SEAT_NAMES[seat]} {role}",
                size=13,
                anchor="middle",
                fill=look.muted,
            )
            mark = Mark.WINNER if seat == winner else None
            note = ("takes the trick" if complete else "winning so far") if mark else ""
            draw_card(canvas, x, top, width, face, mark=mark, note=note)
            if mark is not None:
                canvas.text(
                    x + width / 2,
                    top + width * CARD_RATIO + 22,
                    "takes it" if complete else "winning",
                    size=14,
                    bold=True,
                    anchor="middle",
                    fill=look.accent,
                )
        else:
            canvas.rect(
                x,
                top,
                width,
                width * CARD_RATIO,
                fill="none",
                stroke=look.line,
                stroke_width=1.5,
                radius=width * 0.1,
                dash="6 4",
            )
    return canvas.render()


# -- melds ------------------------------------------------------------------------------


def meld_label(item: Meld) -> str:
    """A meld in words with its value: ``deep run of spades, −30``."""
    suit = f" of {suit_name(item.suit)}" if item.suit is not None else ""
    return f"{item.kind.label}{suit}, {item.value:+d}".replace("-", "−")


def meld(
    melds: Meld | Iterable[Meld],
    *,
    label: str = "",
    size: int | None = None,
    theme: Theme | str = "light",
) -> Svg:
    """Melds, one row each: the meld's name and value, then its cards (an echo's card twice)."""
    look = theme_named(theme)
    items = (melds,) if isinstance(melds, Meld) else tuple(melds)
    for item in items:
        if not isinstance(item, Meld):
            raise WrongTypeError(f"a meld picture needs Meld values, not {item!r}")
    width = 52.0
    row_h = width * CARD_RATIO + 34
    widest = max((len(item.cards) for item in items), default=0)
    box_w = max(2 * _PAD + widest * (width + 6) + 220, 360)
    top = _PAD + (28.0 if label else 0.0)
    box_h = top + max(1, len(items)) * row_h + _PAD - 8
    total = sum(item.value for item in items)
    words = "; ".join(meld_label(item) for item in items) or "no melds"
    title = (f"{label}: " if label else "Melds: ") + f"{words}. Total {total}.".replace("-", "−")
    canvas = Canvas(box_w, box_h, look, title=title, size=size, kind="meld")
    if label:
        canvas.text(_PAD, _PAD + 18, label, size=17, bold=True)
    if not items:
        canvas.text(_PAD, top + 24, "No melds.", size=15, fill=look.muted)
    for row, item in enumerate(items):
        y = top + row * row_h
        canvas.text(_PAD, y + 26, item.kind.label.capitalize(), size=16, bold=True)
        if item.suit is not None:
            draw_suit_badge(canvas, _PAD, y + 36, 18, item.suit)
            canvas.text(_PAD + 24, y + 51, suit_name(item.suit), size=14, fill=look.muted)
        canvas.text(
            _PAD + 190, y + 26, f"{item.value}".replace("-", "−"), size=18, bold=True, anchor="end"
        )
        for i, face in enumerate(item.cards):
            draw_card(canvas, _PAD + 210 + i * (width + 6), y + 4, width, face)
    return canvas.render()


# -- the score sheet --------------------------------------------------------------------

_COLUMNS: Final = (
    ("hand", 52, "end"),
    ("dealer", 70, "middle"),
    ("bid", 100, "middle"),
    ("sunk", 62, "middle"),
    ("points", 104, "middle"),
    ("meld", 104, "middle"),
    ("score", 104, "middle"),
    ("total", 120, "middle"),
)


def _hands_of(source: object) -> tuple[tuple[HandRecord, ...], tuple[int, int], Team | None]:
    if isinstance(source, (GameState, PlayerView)):
        return source.completed_hands, source.scores, source.winner
    if isinstance(source, (str, bytes)) or not isinstance(source, Iterable):
        raise WrongTypeError(
            "a score sheet is drawn from a GameState, a PlayerView or HandRecord values, "
            f"not {type(source).__name__}"
        )
    hands = tuple(source)
    for record in hands:
        if not isinstance(record, HandRecord):
            raise WrongTypeError(f"a score sheet holds HandRecord values, not {record!r}")
    totals = hands[-1].totals if hands else (0, 0)
    return hands, totals, None


def score_sheet(
    source: GameState | PlayerView | Iterable[HandRecord],
    *,
    title: str = "",
    size: int | None = None,
    theme: Theme | str = "light",
) -> Svg:
    """The score sheet: one line per finished hand, each team's points, meld, score, total.

    ``source`` is a state or a view (its finished hands) or the
    :class:`~deepsix.HandRecord` lines themselves.  A failed contract is
    marked, and the running totals end the sheet.
    """
    look = theme_named(theme)
    hands, totals, winner = _hands_of(source)
    row_h = 30.0
    box_w = 2 * _PAD + sum(width for _, width, _ in _COLUMNS)
    head = _PAD + (34.0 if title else 0.0)
    box_h = head + row_h * (len(hands) + 2) + 50 + _PAD
    lines = []
    for record in hands:
        verdict = "made" if record.made else "failed"
        lines.append(
            f"Hand {record.number}: {SEAT_NAMES[record.bidder]} bid {record.bid} with "
            f"{suit_name(record.sunk_suit)} sunk and {verdict} it; scored "
            f"{record.scores[0]} to {record.scores[1]}, totals {record.totals[0]} to "
            f"{record.totals[1]}."
        )
    result = f"Totals: {TEAM_NAMES[0]} {totals[0]}, {TEAM_NAMES[1]} {totals[1]}."
    if winner is not None:
        result += f" {TEAM_NAMES[winner]} win."
    canvas = Canvas(
        box_w,
        box_h,
        look,
        size=size,
        kind="score-sheet",
        title=(title or "Score sheet") + f", {len(hands)} hands finished. {result}",
        description=lines,
    )
    if title:
        canvas.text(_PAD, _PAD + 20, title, size=19, bold=True)
    canvas.rect(
        _PAD - 6,
        head,
        box_w - 2 * _PAD + 12,
        box_h - head - _PAD + 6,
        fill=look.panel,
        stroke=look.line,
        radius=8,
    )
    x = _PAD
    y = head + 22
    for name, width, anchor in _COLUMNS:
        cx = x + (width - 10 if anchor == "end" else width / 2)
        canvas.text(cx, y, name, size=13, bold=True, anchor=anchor, fill=look.muted)
        if name in ("points", "meld", "score", "total"):
            canvas.text(cx, y + 16, "NS · EW", size=11, anchor=anchor, fill=look.muted)
        x += width
    y += 28
    for record in hands:
        y += row_h
        cells = (
            str(record.number),
            str(record.dealer),
            f"{record.bidder} {record.bid}",
            "",
            f"{record.card_points[0]} · {record.card_points[1]}",
            f"{record.meld[0]} · {record.meld[1]}".replace("-", "−"),
            f"{record.scores[0]} · {record.scores[1]}",
            f"{record.totals[0]} · {record.totals[1]}",
        )
        x = _PAD
        for (name, width, anchor), cell in zip(_COLUMNS, cells, strict=True):
            cx = x + (width - 10 if anchor == "end" else width / 2)
            if name == "sunk":
                draw_suit_badge(canvas, cx - 9, y - 15, 18, record.sunk_suit)
            elif name == "bid" and not record.made:
                canvas.text(cx, y, cell + " ✗", size=15, anchor=anchor, fill=look.hearts, bold=True)
            else:
                canvas.text(cx, y, cell, size=15, anchor=anchor, bold=name == "total")
            x += width
        canvas.rect(_PAD, y + 9, box_w - 2 * _PAD, 1, fill=look.line)
    y += row_h + 8
    verdict = f"{TEAM_NAMES[winner]} win" if winner is not None else "Totals"
    canvas.text(
        _PAD + 8,
        y,
        verdict,
        size=16,
        bold=True,
        fill=look.accent if winner is not None else look.ink,
    )
    canvas.text(
        box_w - _PAD - 60, y, f"{totals[0]} · {totals[1]}", size=16, bold=True, anchor="middle"
    )
    if not hands:
        canvas.text(_PAD + 8, y - row_h, "No hand finished yet.", size=15, fill=look.muted)
    bonus = f"Card points include {LAST_TRICK_BONUS} for the last trick; ✗ marks a failed bid."
    canvas.text(_PAD + 8, y + 26, bonus, size=12, fill=look.muted)
    return canvas.render()
