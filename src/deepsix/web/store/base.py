"""The storage interface of the web tables: rows, errors and the :class:`Store` protocol.

(:mod:`deepsix.web.store` re-exports every name of this module and opens a
store with :func:`~deepsix.web.store.open_store`.)

Storage of the web tables: one small interface, and its back ends.

The server keeps everything it must not lose -- each table, its seats (with
the hashes of their credentials, never the credentials), every move, the
chat -- behind the :class:`Store` protocol.  :mod:`deepsix.web.store.sqlite`
is the embedded default; another database plugs in by implementing the
same methods and passing the shared test suite (``tests/web/store_contract.py``).

The contract every back end keeps:

* A move is stored under ``(table, seq)``, unique: :meth:`Store.append`
  refuses a ``seq`` already stored with :class:`SeqTaken`, so two writers
  racing for the same move end with exactly one stored.
* :meth:`Store.moves` returns a table's moves in order and refuses a gap
  with :class:`TableCorrupt`.
* A table is *live* (``waiting`` or ``running``: loaded when the server
  starts) or *finished* (the archive: kept for ever, listed page by page by
  :meth:`Store.finished`, loaded only when asked for).
* A failure to read or write is a :class:`StoreUnavailable` whose message
  is one line naming the database; the caller may try again later.  A
  database the back end must not use (empty, foreign, corrupt, from a
  newer version) is refused when opened with :class:`StoreRefused`.
* Methods are synchronous and called from one thread at a time (the
  server's writer thread, :class:`~deepsix.web.store.writer.Writer`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Collection, Mapping, Sequence
from typing import Any, Final, Literal, Protocol

import attrs

from deepsix.errors import DeepSixError

__all__ = [
    "LIVE",
    "SCHEMA_VERSION",
    "ChatRow",
    "Exchange",
    "HolderRow",
    "RowChanged",
    "SeatRow",
    "SeqTaken",
    "Store",
    "StoreError",
    "StoreRefused",
    "StoreUnavailable",
    "TableCorrupt",
    "TableRow",
    "TableStatus",
    "seat_rows",
]

SCHEMA_VERSION: Final = 4
"""The layout version of the stored data (1: the first web table's; 4 added the seats'
history, :attr:`TableRow.holders`).  A back end migrates an older database when it opens it
and refuses a newer one."""

TableStatus = Literal["waiting", "running", "finished"]
LIVE: Final[tuple[TableStatus, ...]] = ("waiting", "running")
"""The statuses of the tables a server loads when it starts."""


class StoreError(DeepSixError):
    """Storage failed; the message is one line that names the database."""


class StoreUnavailable(StoreError):
    """A read or write failed (a full disk, an I/O error): nothing was changed; try again later."""


class StoreRefused(StoreError):
    """The database cannot be used: empty, not a deepsix database, damaged, or too new."""


class SeqTaken(StoreError):
    """A move is already stored under this ``(table, seq)``: another writer stored it first."""


class RowChanged(StoreError):
    """A table's row was changed by another server since this one read it: read it again."""


class TableCorrupt(StoreError):
    """A stored table's data is inconsistent (a move missing, say): it cannot be rebuilt."""


@attrs.frozen
class SeatRow:
    """One seat as stored."""

    kind: Literal["open", "human", "bot"]
    """``open``, ``human`` or ``bot``."""
    bot: str | None = None
    """The bot's registry name, for a bot seat."""
    name: str = ""
    """The name shown."""
    credential: str | None = None
    """The SHA-256 (hex) of the seat's credential, for a human seat."""


@attrs.frozen
class HolderRow:
    """Who took a seat, and when: one entry of a table's seat history.

    The history says who held each seat for each hand after the seats changed hands (a
    person replaced by a bot, say), which the seats alone -- the last holders -- forget.
    """

    seat: int
    """The seat, 0 to 3 (N E S W)."""
    since: int
    """The table's ``seq`` when she took the seat: she held it from action ``since + 1`` on,
    until the seat's next entry (0: from the start)."""
    kind: Literal["human", "bot"]
    """A person (``human``) or a bot."""
    name: str
    """The person's name, or the bot's registry name."""


@attrs.frozen
class TableRow:
    """One table as stored (its moves and chat are stored apart)."""

    id: str
    """The table's public id."""
    created: float
    """When it was made (seconds since the epoch)."""
    rules: str
    """Its rules, as a deepsix JSON document."""
    dealer: str
    """The first dealer's letter."""
    seed: int
    """The seed of its deals and bots: the server's secret (never sent to a client before the
    game is over)."""
    seats: tuple[SeatRow, SeatRow, SeatRow, SeatRow]
    """The four seats, N E S W."""
    status: TableStatus = "waiting"
    """``waiting`` (seats open), ``running`` or ``finished``."""
    seeded: bool = False
    """The seed was chosen by whoever made the table (a server option), not by the server."""
    private: bool = False
    """Unlisted: reachable with the invite code only."""
    clock: float | None = None
    """Seconds a human has for each decision (``None``: no turn clock)."""
    standin: str = "heuristic"
    """The bot that plays an absent human's seat, and replaces a failing bot for a move."""
    hint: bool = False
    """Seated players may ask the quick search bot for its choice on their turn."""
    host: str | None = None
    """The SHA-256 (hex) of the host's credential."""
    invite: str = ""
    """The invite code (shared on purpose; it seats no one by itself in a taken seat)."""
    result: str | None = None
    """How it ended, as JSON (``{"winner": "NS", "reason": "game-over", "by": null}``)."""
    finished: float | None = None
    """When it ended."""
    next: str | None = None
    """The rematch's table id."""
    holders: tuple[HolderRow, ...] = ()
    """The seats' history: who took each seat and when, by seat then ``since``.  A seat
    with no entry was held from the start by its holder in :attr:`seats` (a table stored
    before layout 4 has none)."""
    version: int = attrs.field(default=0, eq=False)
    """How many times the row was saved, as read (not part of its value).  A database that
    several servers share refuses to save a row over a newer one
    (:class:`RowChanged`); an SQLite file has one server and keeps none."""


@attrs.frozen
class ChatRow:
    """One line of table chat."""

    seat: str | None
    """Who said it."""
    name: str
    """Her name then."""
    text: str
    """The line."""
    at: float
    """When."""
    seq: int
    """The game's ``seq`` then."""


class Store(Protocol):
    """Where the tables live.  Every method may raise :class:`StoreUnavailable`."""

    location: str
    """The database, as named in messages (a file path; never a password)."""

    def close(self) -> None:
        """Release the database."""
        ...

    def add_table(self, row: TableRow) -> None:
        """Store a new table."""
        ...

    def save_table(self, row: TableRow) -> None:
        """Replace a stored table's row (its seats, status, settings ...).

        A shared database raises :class:`RowChanged` if the stored row is not the version
        ``row`` was made from (another server changed it meanwhile).
        """
        ...

    def table(self, table_id: str) -> TableRow | None:
        """One table, or ``None``."""
        ...

    def tables(self, statuses: Collection[TableStatus] = LIVE) -> list[TableRow]:
        """The tables of these statuses, oldest first.

        A row that cannot even be read is left out of the list and named in
        :meth:`damaged` instead.
        """
        ...

    def damaged(self) -> list[tuple[str, str]]:
        """``(table id, reason)`` of the live rows the last :meth:`tables` could not read."""
        ...

    def finished(
        self, limit: int, before: tuple[float, str] | None = None, *, listed_only: bool = True
    ) -> list[TableRow]:
        """Finished tables, the latest first: at most ``limit``, ended before ``before``
        (``(finished, id)`` of the last row of the previous page); private ones left out
        unless ``listed_only`` is false."""
        ...

    def append(self, table_id: str, seq: int, action: str, at: float) -> None:
        """Store the ``seq``-th move (1 for the first) of a table, in wire-form JSON text.

        Raises :class:`SeqTaken` if that move is already stored.
        """
        ...

    def moves(self, table_id: str) -> list[str]:
        """A table's moves in order; :class:`TableCorrupt` if one is missing."""
        ...

    def add_chat(self, table_id: str, line: ChatRow) -> None:
        """Store a line of a table's chat."""
        ...

    def chat(self, table_id: str, limit: int) -> list[ChatRow]:
        """A table's latest ``limit`` chat lines, oldest first."""
        ...


class Exchange(Protocol):
    """What a database shared by several servers adds to its store: announcements and leases.

    Each write of the store is announced to the other servers (a dict with
    ``k``, the kind -- ``move``, ``table``, ``chat`` -- and ``t``, the
    table); :meth:`publish` announces what is not stored (presence,
    notices).  A *lease* says which live server runs a table's deals, bots
    and clocks; it lapses the moment that server dies.  See
    :mod:`deepsix.web.store.postgres` and :mod:`deepsix.web.cluster`.
    """

    server: int
    """This server's number among those sharing the database."""
    location: str
    """The database, as named in messages (never a password)."""

    async def open(self) -> None:
        """Connect and take a server number."""
        ...

    async def close(self) -> None:
        """Let go of the connection, the number and every lease."""
        ...

    async def alive(self) -> bool:
        """Whether the connection (so the leases) still holds."""
        ...

    async def publish(self, message: Mapping[str, object]) -> None:
        """Announce ``message`` to the other servers."""
        ...

    async def claim(self, table_ids: Sequence[str]) -> set[str]:
        """Take the leases no live server holds; returns those this server holds now."""
        ...

    async def release(self, table_ids: Collection[str]) -> None:
        """Give up leases."""
        ...

    def messages(self) -> AsyncIterator[dict[str, Any]]:
        """The other servers' announcements (``{"k": "resync"}`` after a lost connection)."""
        ...


def seat_rows(rows: Sequence[SeatRow]) -> tuple[SeatRow, SeatRow, SeatRow, SeatRow]:
    """Four seat rows as the fixed-length tuple a :class:`TableRow` holds."""
    if len(rows) != 4:
        raise TableCorrupt(f"a table has four seats, not {len(rows)}")
    return (rows[0], rows[1], rows[2], rows[3])
