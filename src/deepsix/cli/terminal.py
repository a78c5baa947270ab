"""Where the command line prints and reads: colour with rich, plain text without it.

The subcommands print :class:`~deepsix.cli.text.Text` lines and
:class:`~deepsix.cli.text.Table` values to a :class:`Terminal`.  With rich
installed (``pip install "deepsix[cli]"``) the terminal shows colours,
bordered tables and a progress bar; without it (``pip install deepsix``)
the same output comes as plain text.  Either way a console whose encoding
cannot show the suit symbols gets letters (``7S`` for ``7♠``), so no
output ever fails to encode.
"""

from __future__ import annotations

import contextlib
import importlib.util
import sys
from collections.abc import Callable, Iterator
from typing import Any, Final, TextIO

from deepsix.cli.text import Table, Text

__all__ = ["FALLBACK", "MAX_LINE", "SafeWriter", "Terminal", "read_line", "rich_available"]

FALLBACK: Final = {
    "♣": "C",
    "♦": "D",
    "♥": "H",
    "♠": "S",
    "·": "-",
    "\N{MINUS SIGN}": "-",
    "\N{EN DASH}": "-",
    "\N{EM DASH}": "--",
    "\N{RIGHTWARDS ARROW}": "->",
}
"""What a console that cannot encode a character prints instead (suits as their letters)."""


def rich_available() -> bool:
    """Whether rich (the ``cli`` extra) is installed."""
    try:
        return importlib.util.find_spec("rich") is not None
    except (ImportError, ValueError):  # a module set to None in sys.modules
        return False


def _can_encode(text: str, encoding: str) -> bool:
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


class SafeWriter:
    """A text stream that never fails to encode: what its encoding lacks becomes letters.

    >>> import io
    >>> raw = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    >>> writer = SafeWriter(raw)
    >>> writer.write("7♠ 8♥ · ok")
    10
    >>> writer.flush(); raw.buffer.getvalue()
    b'7S 8H - ok'
    """

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        encoding = getattr(stream, "encoding", None) or "utf-8"
        self.encoding: str = encoding
        table = {ch: sub for ch, sub in FALLBACK.items() if not _can_encode(ch, encoding)}
        self._table = str.maketrans(table) if table else None
        self._strict = not _can_encode("".join(FALLBACK), encoding)

    def write(self, text: str) -> int:
        """Write ``text``, with substitutes for the characters the stream cannot encode."""
        if self._table is not None:
            text = text.translate(self._table)
        if self._strict and not _can_encode(text, self.encoding):
            text = text.encode(self.encoding, "replace").decode(self.encoding, "replace")
        self.stream.write(text)
        return len(text)

    def flush(self) -> None:
        """Flush the stream."""
        self.stream.flush()

    def isatty(self) -> bool:
        """Whether the stream is a terminal."""
        isatty = getattr(self.stream, "isatty", None)
        return bool(isatty()) if isatty is not None else False

    def fileno(self) -> int:
        """The stream's file descriptor (rich asks for it to size the terminal)."""
        return self.stream.fileno()


MAX_LINE: Final = 4096
"""Standard input is read in lines of at most this many characters; the rest of a longer
line is read and dropped, so a line of any length costs bounded memory."""


def read_line() -> str:
    """One line of standard input, decoded leniently, at most :data:`MAX_LINE` characters.

    Bytes that are not UTF-8 become U+FFFD instead of crashing the decoder; a
    terminal keeps its line editing (``input``).  Raises ``EOFError`` at the end.
    """
    stream = sys.stdin
    if stream is None:
        raise EOFError
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None and getattr(stream, "errors", "replace") != "replace":
        with contextlib.suppress(ValueError, OSError):
            reconfigure(errors="replace")
    if stream.isatty():
        return input()
    line = stream.readline(MAX_LINE)
    if not line:
        raise EOFError
    if not line.endswith("\n") and len(line) == MAX_LINE:
        while True:  # drop the rest of an over-long line
            rest = stream.readline(MAX_LINE)
            if not rest or rest.endswith("\n"):
                break
    return line.rstrip("\n")


class Terminal:
    """The command line's output (standard output, errors on standard error) and input.

    ``color=False`` (``--no-color`` or ``NO_COLOR``) prints no colours;
    ``use_rich=False`` prints plain text even where rich is installed;
    ``read`` reads one line of the person's input (``EOFError`` at the end).
    """

    def __init__(
        self,
        *,
        color: bool = True,
        use_rich: bool | None = None,
        out: TextIO | None = None,
        err: TextIO | None = None,
        read: Callable[[], str] | None = None,
    ) -> None:
        self.out = SafeWriter(out if out is not None else sys.stdout)
        self.err = SafeWriter(err if err is not None else sys.stderr)
        self.read: Callable[[], str] = read if read is not None else read_line
        self.color = color
        self._console: Any = None
        if use_rich if use_rich is not None else rich_available():
            from rich.console import Console

            stream: Any = self.out  # a file-like writer: rich needs write, flush, isatty
            self._console = Console(
                file=stream, highlight=False, no_color=not color, soft_wrap=True
            )

    @property
    def rich(self) -> bool:
        """Whether this terminal prints through rich."""
        return self._console is not None

    def print(self, *parts: str | Text | Table, end: str = "\n") -> None:
        """Print text (plain strings are never read as markup) and tables."""
        if self._console is None:
            shown = [part.plain() if isinstance(part, Table) else str(part) for part in parts]
            self.out.write(" ".join(shown) + end)
            if end != "\n":
                self.out.flush()
            return
        self._console.print(*(self._rich(part) for part in parts), end=end)

    def markdown(self, text: str) -> None:
        """Print a Markdown document: rendered by rich on a terminal, as it is written
        elsewhere (a file or a pipe gets the Markdown itself, to paste or keep)."""
        if self._console is None or not self.out.isatty():
            self.out.write(text if text.endswith("\n") else text + "\n")
            self.out.flush()
            return
        from rich.markdown import Markdown

        self._console.print(Markdown(text))

    def rule(self, title: str) -> None:
        """A horizontal rule with a title (a new hand)."""
        if self._console is None:
            self.out.write(f"\n-- {title} --\n")
        else:
            self._console.rule(title)

    def error(self, message: str) -> None:
        """One line on standard error: ``deepsix: error: MESSAGE``."""
        self.err.write(f"deepsix: error: {message}\n")
        self.err.flush()

    @contextlib.contextmanager
    def progress(
        self, label: str, total: int, *, show: bool = True
    ) -> Iterator[Callable[[int], None]]:
        """A progress bar (rich only) for the duration; yields ``update(done)``."""
        if self._console is None or not show:
            yield lambda done: None
            return
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
        )

        bar = Progress(
            TextColumn(label),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=self._console,
            transient=True,
        )
        with bar:
            task = bar.add_task(label, total=total)
            yield lambda done: bar.update(task, completed=done)

    def _rich(self, part: str | Text | Table) -> Any:
        """``part`` as the rich object that prints it."""
        from rich import table as rich_table
        from rich import text as rich_text

        if isinstance(part, Table):
            table = rich_table.Table(title=part.title or None, title_justify="left")
            for column in part.columns:
                table.add_column(column.header, justify=column.justify)
            for row in part.rows:
                table.add_row(*(self._rich(cell) for cell in row))
            return table
        if isinstance(part, Text):
            spans = [rich_text.Span(s.start, s.end, s.style) for s in part.spans]
            return rich_text.Text(part.plain, style=part.style, spans=spans)
        return rich_text.Text(part)
