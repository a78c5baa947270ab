"""Colours and type for pictures: a light and a dark theme, or your own.

A :class:`Theme` is a frozen record of colours; pass one (or ``"light"`` /
``"dark"``) as ``theme=`` to any drawing function.  The four suits have
four colours, as in the web table's deck (clubs green, diamonds blue,
hearts red, spades black), so that a suit is told by colour as well as by
shape.

>>> from deepsix.svg import DARK, theme_named
>>> theme_named("dark") is DARK
True
>>> import attrs
>>> mine = attrs.evolve(DARK, felt="#202a44")
>>> mine.felt
'#202a44'
"""

from __future__ import annotations

import re
from typing import Final

import attrs

from deepsix.cards import Suit
from deepsix.errors import ParseError, WrongTypeError

__all__ = ["DARK", "LIGHT", "THEMES", "Theme", "theme_named"]

_COLOUR: Final = re.compile(r"#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?|[a-z]{3,20}")
_FONT: Final = re.compile(r"[A-Za-z0-9 ,'\-]{1,200}")


def _colour(instance: object, attribute: attrs.Attribute[str], value: object) -> None:
    if not isinstance(value, str) or not _COLOUR.fullmatch(value):
        raise ParseError(
            f"Theme.{attribute.name} must be a colour such as '#1f5e3b' or 'white', not {value!r}"
        )


def _font(instance: object, attribute: attrs.Attribute[str], value: object) -> None:
    if not isinstance(value, str) or not _FONT.fullmatch(value):
        raise ParseError(f"Theme.{attribute.name} must be a CSS font list, not {value!r}")


@attrs.frozen
class Theme:
    """The colours (CSS colour names or ``#rgb``/``#rrggbb``) and fonts of a picture."""

    name: str
    """What the theme is called (``light``, ``dark``, or your own)."""
    background: str = attrs.field(validator=_colour)
    """Behind everything."""
    ink: str = attrs.field(validator=_colour)
    """Text."""
    muted: str = attrs.field(validator=_colour)
    """Secondary text and thin rules."""
    panel: str = attrs.field(validator=_colour)
    """The background of a seat's or a table's panel."""
    line: str = attrs.field(validator=_colour)
    """Panel borders."""
    felt: str = attrs.field(validator=_colour)
    """The table's centre."""
    felt_ink: str = attrs.field(validator=_colour)
    """Text on the felt."""
    card_face: str = attrs.field(validator=_colour)
    """A card's face."""
    card_edge: str = attrs.field(validator=_colour)
    """A card's border."""
    face_ink: str = attrs.field(validator=_colour)
    """Text on a card's face colour (meld chips)."""
    card_back: str = attrs.field(validator=_colour)
    """A card's back (a hidden card)."""
    card_back_mark: str = attrs.field(validator=_colour)
    """The pattern on a card's back."""
    clubs: str = attrs.field(validator=_colour)
    """Clubs, on a card's face."""
    diamonds: str = attrs.field(validator=_colour)
    """Diamonds, on a card's face."""
    hearts: str = attrs.field(validator=_colour)
    """Hearts, on a card's face."""
    spades: str = attrs.field(validator=_colour)
    """Spades, on a card's face."""
    accent: str = attrs.field(validator=_colour)
    """The winning card of a trick, the seat to act, the dealer's badge."""
    legal: str = attrs.field(validator=_colour)
    """The outline of a card that may be played now."""
    shown_face: str = attrs.field(validator=_colour)
    """The face of a card the bidder showed in her invitation."""
    received_face: str = attrs.field(validator=_colour)
    """The face of a card received from partner."""
    font: str = attrs.field(
        default="system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif",
        validator=_font,
    )
    """The font list (CSS ``font-family``)."""

    def suit(self, suit: Suit) -> str:
        """The colour of ``suit``."""
        return (self.clubs, self.diamonds, self.hearts, self.spades)[suit]


LIGHT: Final = Theme(
    name="light",
    background="#f5f3ee",
    ink="#1d1d1f",
    muted="#5b6470",
    panel="#ffffff",
    line="#d9d4c7",
    felt="#1f5e3b",
    felt_ink="#ffffff",
    card_face="#ffffff",
    card_edge="#8c8c8c",
    face_ink="#1d1d1f",
    card_back="#24457a",
    card_back_mark="#4a6fa8",
    clubs="#1b7f3b",
    diamonds="#1565c0",
    hearts="#c8102e",
    spades="#1d1d1f",
    accent="#b8860b",
    legal="#e08e00",
    shown_face="#fff1c2",
    received_face="#dcebff",
)
"""Paper and green felt: the web table's colours."""

DARK: Final = Theme(
    name="dark",
    background="#16181d",
    ink="#e8e6e3",
    muted="#a0a8b4",
    panel="#23262d",
    line="#3a3f49",
    felt="#173d29",
    felt_ink="#f2f2f2",
    card_face="#f4f1ea",
    card_edge="#6b6b6b",
    face_ink="#1d1d1f",
    card_back="#3b5c94",
    card_back_mark="#6f8fc7",
    clubs="#147033",
    diamonds="#0f58b0",
    hearts="#b80d29",
    spades="#1d1d1f",
    accent="#f0b429",
    legal="#ffa51f",
    shown_face="#f7e3a1",
    received_face="#c9dcf5",
)
"""A dark page; the cards keep light faces so the suits read as on the light theme."""

THEMES: Final = {"light": LIGHT, "dark": DARK}
"""The built-in themes by name."""


def theme_named(theme: Theme | str) -> Theme:
    """``theme`` itself, or the built-in theme of that name (``"light"``, ``"dark"``)."""
    if isinstance(theme, Theme):
        return theme
    if not isinstance(theme, str):
        raise WrongTypeError(f"a theme is a Theme or 'light'/'dark', not {type(theme).__name__}")
    found = THEMES.get(theme.strip().lower())
    if found is None:
        raise ParseError(f"unknown theme {theme!r}: choose from {', '.join(THEMES)}")
    return found
