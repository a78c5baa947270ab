"""What a state, a view or a game record shows in a notebook (Jupyter's ``_repr_svg_`` and
``_repr_html_``).

The core's classes answer those two calls through :mod:`deepsix.display`,
bound by the package to :func:`repr_svg` and :func:`repr_html` here the
first time a picture is asked for; :class:`~deepsix.GameRecord` calls
:func:`record_svg` and :func:`record_html`.
"""

from __future__ import annotations

from html import escape

from deepsix.state import GameState
from deepsix.svg.pictures import score_sheet
from deepsix.svg.table import table
from deepsix.views import PlayerView

__all__ = ["NOTEBOOK_WIDTH", "record_html", "record_svg", "repr_html", "repr_svg"]

NOTEBOOK_WIDTH = 720
"""The width in pixels of a table in a notebook cell."""


def repr_svg(value: object) -> str | None:
    """The table of a state or a view; ``None`` for anything else (the notebook then shows
    the text repr)."""
    if isinstance(value, (GameState, PlayerView)):
        return table(value, size=NOTEBOOK_WIDTH)
    return None


def repr_html(value: object) -> str | None:
    """The table of a state or a view with its text repr as the caption."""
    picture = repr_svg(value)
    if picture is None:
        return None
    return _figure(picture, repr(value) if isinstance(value, GameState) else _view_caption(value))


def _view_caption(value: object) -> str:
    assert isinstance(value, PlayerView)
    seat = "a spectator" if value.seat is None else str(value.seat)
    return f"PlayerView of {seat}: hand {value.hand_number}, {value.phase.value}"


def _figure(picture: str, caption: str) -> str:
    return (
        '<figure class="deepsix" style="margin:0">'
        f"{picture}<figcaption><code>{escape(caption)}</code></figcaption></figure>"
    )


def record_svg(final: GameState, title: str) -> str:
    """A game record's picture: the score sheet of the game it replays to."""
    return score_sheet(final, title=title, size=NOTEBOOK_WIDTH)


def record_html(final: GameState, title: str) -> str:
    """A game record in HTML: the final table and the score sheet."""
    return (
        '<div class="deepsix-record">'
        f"{table(final, size=NOTEBOOK_WIDTH)}{record_svg(final, title)}"
        f"<p><code>{escape(repr(final))}</code></p></div>"
    )
