"""How the core's values show themselves in a notebook, without the core drawing anything.

Jupyter asks an object for ``_repr_svg_()`` and ``_repr_html_()``.
:class:`~deepsix.GameState` and :class:`~deepsix.PlayerView` answer through
the two hooks here, which answer ``None`` (show the text repr) until
:func:`bind_display` fills them.  The package binds them when it is
imported (``deepsix/__init__.py``) to functions that import the pictures
(:mod:`deepsix.svg`) the first time one is asked for: the rules core never
names the layer that draws, and ``import deepsix`` loads no drawing code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeAlias

__all__ = [
    "Renderer",
    "TextRenderer",
    "bind_display",
    "bind_text",
    "html_of",
    "plural",
    "svg_of",
    "text_of",
]

Renderer: TypeAlias = Callable[[object], "str | None"]
"""Draws a value (as SVG or HTML), or answers ``None`` for a value it does not draw."""


TextRenderer: TypeAlias = Callable[[object, bool], "str | None"]
"""Writes a value as multi-line text (Unicode suits if the flag is set), or answers ``None``."""


def _nothing(value: object) -> str | None:
    return None


def _no_text(value: object, unicode: bool) -> str | None:
    return None


class _Hooks:
    """The two renderers, as bound by :func:`bind_display`."""

    svg: Renderer = _nothing
    html: Renderer = _nothing
    text: TextRenderer = _no_text


_HOOKS = _Hooks()


def bind_display(svg: Renderer, html: Renderer) -> None:
    """Make ``_repr_svg_`` and ``_repr_html_`` of the core's values call ``svg`` and ``html``."""
    _HOOKS.svg = svg
    _HOOKS.html = html


def bind_text(text: TextRenderer) -> None:
    """Make ``str()`` and ``unicode()`` of the core's values call ``text``: the printable
    position is written by the one text renderer (:mod:`deepsix.io.text`)."""
    _HOOKS.text = text


def text_of(value: object, unicode: bool = False) -> str | None:
    """``value`` as multi-line text, or ``None`` when no renderer is bound."""
    return _HOOKS.text(value, unicode)


def svg_of(value: object) -> str | None:
    """``value`` as an SVG picture, or ``None`` when no picture is bound."""
    return _HOOKS.svg(value)


def html_of(value: object) -> str | None:
    """``value`` as HTML, or ``None`` when no picture is bound."""
    return _HOOKS.html(value)


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``1 hand``, ``2 hands``: the count and the noun, singular for one (``many`` for an
    irregular plural, e.g. ``plural(n, "process", "processes")``).

    >>> plural(1, "deal"), plural(3, "deal"), plural(2, "worker process", "worker processes")
    ('1 deal', '3 deals', '2 worker processes')
    """
    return f"{count} {noun}" if count == 1 else f"{count} {many or noun + 's'}"
