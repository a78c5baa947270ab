"""The SVG writer under every picture: elements as text, numbers formatted one way.

Deterministic by construction (the same picture always gives the same
bytes, so pictures can be compared with golden files), and safe: every
piece of text is escaped, control characters are dropped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from html import escape
from typing import Final

from deepsix.errors import ParseError, WrongTypeError
from deepsix.svg.theme import Theme

__all__ = ["Canvas", "Svg", "attr_text", "fmt", "text_width"]

_CONTROL: Final = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


class Svg(str):
    """An SVG document: a ``str`` in every way, which a notebook shows as the picture.

    IPython asks a value for ``_repr_svg_``; a plain string has none, so a
    notebook would print the document's text.  Write it to a file or a web page as
    any string.
    """

    __slots__ = ()
    __module__ = "deepsix.svg"  # documented, and pickled, where users import it

    def _repr_svg_(self) -> str:
        return str(self)


def fmt(value: float) -> str:
    """A coordinate with at most one decimal and no trailing zero (``12``, ``12.5``)."""
    text = f"{value:.1f}"
    if text.endswith(".0"):
        text = text[:-2]
    return "0" if text == "-0" else text


def attr_text(text: str) -> str:
    """``text`` safe inside an attribute or an element (escaped, control characters dropped)."""
    return escape(_CONTROL.sub("", text), quote=True)


def text_width(text: str, size: float, *, bold: bool = False) -> float:
    """A generous estimate of the width of ``text`` set at ``size`` (for layout only)."""
    return len(text) * size * (0.62 if bold else 0.57)


def check_size(size: object) -> int | None:
    """``size`` as a pixel width: ``None`` (the picture's own) or an int from 16 to 10000."""
    if size is None:
        return None
    if isinstance(size, bool) or not isinstance(size, int):
        raise WrongTypeError(f"size is a width in pixels (an int), not {size!r}")
    if not 16 <= size <= 10_000:
        raise ParseError(f"size must be between 16 and 10000 pixels, not {size}")
    return size


class Canvas:
    """One picture being drawn: a fixed coordinate box, drawn into in order."""

    def __init__(  # noqa: PLR0913  # all keywords but the box
        self,
        width: float,
        height: float,
        theme: Theme,
        *,
        title: str,
        description: Iterable[str] = (),
        size: int | None = None,
        kind: str = "picture",
    ) -> None:
        self.width = width
        self.height = height
        self.theme = theme
        self.title = title
        self.description = [line for line in description if line]
        self.size = check_size(size)
        self.kind = kind
        self.parts: list[str] = []

    # -- elements -----------------------------------------------------------------------
    def add(self, element: str) -> None:
        """Append raw SVG (already escaped)."""
        self.parts.append(element)

    def rect(  # noqa: PLR0913  # geometry, then style keywords
        self,
        x: float,
        y: float,
        width: float,
        height: float,
        *,
        fill: str,
        stroke: str | None = None,
        stroke_width: float = 1,
        radius: float = 0,
        dash: str | None = None,
        opacity: float | None = None,
    ) -> None:
        """A rectangle, optionally rounded, outlined or dashed."""
        extra = ""
        if radius:
            extra += f' rx="{fmt(radius)}"'
        if stroke is not None:
            extra += f' stroke="{stroke}" stroke-width="{fmt(stroke_width)}"'
        if dash is not None:
            extra += f' stroke-dasharray="{dash}"'
        if opacity is not None:
            extra += f' opacity="{fmt(opacity) if opacity >= 0.1 else opacity}"'
        self.parts.append(
            f'<rect x="{fmt(x)}" y="{fmt(y)}" width="{fmt(width)}" height="{fmt(height)}" '
            f'fill="{fill}"{extra}/>'
        )

    def text(  # noqa: PLR0913  # position and text, then style keywords
        self,
        x: float,
        y: float,
        text: str,
        *,
        size: float = 14,
        fill: str | None = None,
        bold: bool = False,
        anchor: str = "start",
        italic: bool = False,
    ) -> None:
        """A line of text; ``y`` is its baseline."""
        style = ' font-weight="700"' if bold else ""
        if italic:
            style += ' font-style="italic"'
        if anchor != "start":
            style += f' text-anchor="{anchor}"'
        self.parts.append(
            f'<text x="{fmt(x)}" y="{fmt(y)}" font-size="{fmt(size)}" '
            f'fill="{fill or self.theme.ink}"{style}>{attr_text(text)}</text>'
        )

    def open_group(self, label: str | None = None, *, transform: str | None = None) -> None:
        """Start a group; ``label`` becomes its ``<title>`` (a tooltip, and its name)."""
        extra = f' transform="{transform}"' if transform else ""
        self.parts.append(f"<g{extra}>")
        if label:
            self.parts.append(f"<title>{attr_text(label)}</title>")

    def close_group(self) -> None:
        """End the group opened last."""
        self.parts.append("</g>")

    # -- the document ---------------------------------------------------------------------
    def render(self) -> Svg:
        """The finished SVG document, one element per line."""
        theme = self.theme
        width = self.size if self.size is not None else self.width
        height = width * self.height / self.width
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {fmt(self.width)} '
            f'{fmt(self.height)}" width="{fmt(width)}" height="{fmt(height)}" role="img" '
            f'font-family="{attr_text(theme.font)}" class="deepsix-{self.kind}" '
            f'data-theme="{attr_text(theme.name)}">'
        )
        lines = [head, f"<title>{attr_text(self.title)}</title>"]
        if self.description:
            lines.append(f"<desc>{attr_text(' '.join(self.description))}</desc>")
        lines.append(
            f'<rect width="{fmt(self.width)}" height="{fmt(self.height)}" '
            f'fill="{theme.background}"/>'
        )
        lines.extend(self.parts)
        lines.append("</svg>")
        return Svg("\n".join(lines) + "\n")
