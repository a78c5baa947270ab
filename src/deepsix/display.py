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

__all__ = ["Renderer", "bind_display", "html_of", "svg_of"]

Renderer: TypeAlias = Callable[[object], "str | None"]
"""Draws a value (as SVG or HTML), or answers ``None`` for a value it does not draw."""


def _nothing(value: object) -> str | None:
    return None


class _Hooks:
    """The two renderers, as bound by :func:`bind_display`."""

    svg: Renderer = _nothing
    html: Renderer = _nothing


_HOOKS = _Hooks()


def bind_display(svg: Renderer, html: Renderer) -> None:
    """Make ``_repr_svg_`` and ``_repr_html_`` of the core's values call ``svg`` and ``html``."""
    _HOOKS.svg = svg
    _HOOKS.html = html


def svg_of(value: object) -> str | None:
    """``value`` as an SVG picture, or ``None`` when no picture is bound."""
    return _HOOKS.svg(value)


def html_of(value: object) -> str | None:
    """``value`` as HTML, or ``None`` when no picture is bound."""
    return _HOOKS.html(value)
