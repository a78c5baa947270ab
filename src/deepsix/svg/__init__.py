"""Pictures of Deep Six as SVG: a table, a hand, a trick, melds, the score sheet.

Every function returns an SVG document as a string (:class:`Svg`, a ``str``
that a notebook shows as the picture) -- write it to a file, put it in a web
page, or let a notebook show it.  Any position can be
drawn, from a :class:`~deepsix.GameState` (every hand open) or from a
:class:`~deepsix.PlayerView` (what that seat may see: other hands as card
backs), so a front end that draws views can never show a hidden card.

>>> import deepsix, deepsix.svg
>>> state = deepsix.apply(deepsix.new_game(), deepsix.shuffled_deal(2026))
>>> picture = deepsix.svg.table(deepsix.view(state, deepsix.Seat.SOUTH), size=600)
>>> picture.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
True
>>> print(picture.splitlines()[1])
<title>Deep Six table, hand 1, the auction, East to act (as South sees it)</title>

Every picture is sized (``size=``: its width in pixels; the height
follows), themed (``theme="light"``, ``"dark"`` or your own
:class:`~deepsix.svg.theme.Theme`), and accessible: its ``<title>`` says what it shows, its
``<desc>`` lists every visible card in words, and each card carries its
own title.  The output is deterministic: the same position always gives
the same bytes.

States, views and game records display themselves as these pictures in
Jupyter (``_repr_svg_`` and ``_repr_html_``).
"""

from __future__ import annotations

from deepsix.svg._canvas import Svg
from deepsix.svg._cards import CARD_RATIO, Mark, card_name
from deepsix.svg._scene import Position
from deepsix.svg.pictures import SEAT_NAMES, TEAM_NAMES, card, hand, meld, score_sheet, trick
from deepsix.svg.table import describe, table
from deepsix.svg.theme import DARK, LIGHT, THEMES, Theme, theme_named

__all__ = [
    "CARD_RATIO",
    "DARK",
    "LIGHT",
    "SEAT_NAMES",
    "TEAM_NAMES",
    "THEMES",
    "Mark",
    "Position",
    "Svg",
    "Theme",
    "card",
    "card_name",
    "describe",
    "hand",
    "meld",
    "score_sheet",
    "table",
    "theme_named",
    "trick",
]
