"""Styled text and tables, as the command line builds them before printing.

The subcommands build :class:`Text` (a line with styled spans) and
:class:`Table` values; the :class:`~deepsix.cli.terminal.Terminal` prints
them with rich's colours when rich is installed (the ``cli`` extra) and as
plain text otherwise.  Nothing here imports rich.

>>> line = Text("7♠ wins", style="bold")
>>> line = line.append(" (14 points)", style="dim")
>>> line.plain
'7♠ wins (14 points)'
>>> table = Table("Score")
>>> table.add_column("team")
>>> table.add_column("points", justify="right")
>>> table.add_row("NS", "90")
>>> print(table.plain())
Score
team  points
----  ------
NS        90
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

import attrs

__all__ = ["Column", "Span", "Table", "Text"]


@attrs.frozen
class Span:
    """A style over ``plain[start:end]`` (rich's style names: ``"bold red"``, ``"dim"``)."""

    start: int
    end: int
    style: str


class Text:
    """One piece of text with styled spans: what rich calls a ``Text``, without rich."""

    def __init__(self, text: str = "", style: str = "") -> None:
        self.plain = text
        self.style = style
        """The style of the whole text (under the spans)."""
        self.spans: list[Span] = []

    def __len__(self) -> int:
        return len(self.plain)

    def __str__(self) -> str:
        return self.plain

    def __repr__(self) -> str:
        return f"Text({self.plain!r})"

    def append(self, text: str, style: str = "") -> Text:
        """Add ``text`` at the end, in ``style``; returns this text."""
        start = len(self.plain)
        self.plain += text
        if style and text:
            self.spans.append(Span(start, len(self.plain), style))
        return self

    def append_text(self, other: Text) -> Text:
        """Add another styled text at the end, keeping its styles; returns this text."""
        start = len(self.plain)
        self.plain += other.plain
        if other.style and other.plain:
            self.spans.append(Span(start, len(self.plain), other.style))
        self.spans.extend(Span(start + s.start, start + s.end, s.style) for s in other.spans)
        return self

    def stylize(self, style: str, start: int = 0, end: int | None = None) -> None:
        """Style ``plain[start:end]``."""
        stop = len(self.plain) if end is None else min(end, len(self.plain))
        if style and 0 <= start < stop:
            self.spans.append(Span(start, stop, style))

    @classmethod
    def assemble(cls, *parts: str | Text) -> Text:
        """A text made of plain strings and styled texts, in order."""
        text = cls()
        for part in parts:
            if isinstance(part, Text):
                text.append_text(part)
            else:
                text.append(part)
        return text


@attrs.frozen
class Column:
    """A table column: its header and how its cells line up."""

    header: str
    justify: Literal["left", "right"] = "left"


class Table:
    """A titled table of text cells (rich draws it with borders; plain text lines it up)."""

    def __init__(self, title: str = "") -> None:
        self.title = title
        self.columns: list[Column] = []
        self.rows: list[list[Text]] = []

    def add_column(self, header: str, justify: Literal["left", "right"] = "left") -> None:
        """Add a column (before any row)."""
        self.columns.append(Column(header, justify))

    def add_row(self, *cells: str | Text) -> None:
        """Add a row of one cell per column."""
        if len(cells) != len(self.columns):
            raise ValueError(f"a row of {len(cells)} cells in a table of {len(self.columns)}")
        self.rows.append([cell if isinstance(cell, Text) else Text(cell) for cell in cells])

    def lines(self) -> Iterator[str]:
        """The table as plain text lines: the title, the header, a rule, the rows."""
        widths = [len(column.header) for column in self.columns]
        for row in self.rows:
            widths = [max(width, len(cell)) for width, cell in zip(widths, row, strict=True)]

        def line(cells: list[str]) -> str:
            padded = (
                cell.rjust(width) if column.justify == "right" else cell.ljust(width)
                for cell, width, column in zip(cells, widths, self.columns, strict=True)
            )
            return "  ".join(padded).rstrip()

        if self.title:
            yield self.title
        yield line([column.header for column in self.columns])
        yield line(["-" * width for width in widths])
        for row in self.rows:
            yield line([cell.plain for cell in row])

    def plain(self) -> str:
        """The table as plain text (:meth:`lines` joined)."""
        return "\n".join(self.lines())
