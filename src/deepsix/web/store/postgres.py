"""The shared back end: the tables in a PostgreSQL database, for one server or several.

:class:`PostgresStore` keeps the same rows as the SQLite file (the schema
``deepsix`` holds them, so the database may hold other things too), with
the same contract: a move is stored under ``(table, seq)``, a primary key,
so of two servers racing to store move 57 one succeeds and the other is
refused with :class:`~deepsix.web.store.base.SeqTaken`.

Every write is announced to the other servers in its own transaction
(``pg_notify``): the announcement is delivered if and only if the write
committed, in commit order.  :class:`~deepsix.web.store.exchange.PostgresExchange`
is a server's side of that channel -- it listens, publishes what needs no storage (presence,
notices), and holds the *leases* that make one server at a time run a
table's deals, bots and clocks (:mod:`deepsix.web.cluster`).

A lease is a row ``(table, server)`` that counts only while its server
holds its own session-level advisory lock: a server that dies (or loses
its connection) loses its lock at once, and the next server to look takes
its tables over.  One advisory lock per server, whatever the number of
tables, so the database's lock table never fills.

Layout versions are numbered as the SQLite file's
(:data:`~deepsix.web.store.base.SCHEMA_VERSION`); the first PostgreSQL
layout is version 2.  An older database is migrated when opened, under a
transaction lock so that servers starting together migrate it once; a
newer one is refused.
"""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
from collections.abc import Callable, Collection, Mapping
from typing import Any, Final, TypeVar

import attrs

from deepsix.errors import missing_extra
from deepsix.web.store.base import (
    LIVE,
    SCHEMA_VERSION,
    ChatRow,
    RowChanged,
    SeqTaken,
    StoreRefused,
    StoreUnavailable,
    TableCorrupt,
    TableRow,
    TableStatus,
)
from deepsix.web.store.location import public_location
from deepsix.web.store.rows import (
    COLUMNS,
    finished_filter,
    read_rows,
    row_of_values,
    values_of_row,
)

try:  # the postgres extra; without it, one line says what to install
    import psycopg
    from psycopg import errors as pg_errors
except ImportError as _missing:
    raise missing_extra("deepsix.web.store.postgres", "postgres", _missing) from None

__all__ = [
    "CHANNEL",
    "LOCK_SPACE",
    "MIGRATIONS",
    "PostgresStore",
    "announcement_text",
    "one_line",
    "redacted",
]

_log = logging.getLogger("deepsix.web")

CHANNEL: Final = "deepsix"
"""The ``LISTEN``/``NOTIFY`` channel of the servers of one database."""
LOCK_SPACE: Final = int.from_bytes(b"Ds6w", "big")
"""The first key of this application's advisory locks (the second: a server's number)."""
APPLICATION: Final = "deepsix-web"
"""What the ``meta`` table says this database is."""
MAX_PAYLOAD: Final = 7900
"""An announcement longer than this (PostgreSQL's limit is 8000 bytes) says only what changed."""

_VERSION_2: Final = """
CREATE SCHEMA IF NOT EXISTS deepsix;
CREATE TABLE deepsix.meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE deepsix.tables (
    id TEXT PRIMARY KEY,
    created DOUBLE PRECISION NOT NULL,
    rules TEXT NOT NULL,
    dealer TEXT NOT NULL,
    seed BIGINT NOT NULL,
    seats TEXT NOT NULL,
    status TEXT NOT NULL,
    seeded BOOLEAN NOT NULL DEFAULT FALSE,
    private BOOLEAN NOT NULL DEFAULT FALSE,
    clock DOUBLE PRECISION,
    standin TEXT NOT NULL DEFAULT 'heuristic',
    host TEXT,
    invite TEXT NOT NULL DEFAULT '',
    result TEXT,
    finished DOUBLE PRECISION,
    next_table TEXT,
    version INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX tables_by_status ON deepsix.tables (status, created, id);
CREATE INDEX tables_finished ON deepsix.tables (status, private, finished DESC, id DESC);
CREATE TABLE deepsix.moves (
    table_id TEXT NOT NULL REFERENCES deepsix.tables (id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE TABLE deepsix.chat (
    n BIGSERIAL PRIMARY KEY,
    table_id TEXT NOT NULL REFERENCES deepsix.tables (id),
    seat TEXT,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    seq INTEGER NOT NULL
);
CREATE INDEX chat_by_table ON deepsix.chat (table_id, n);
CREATE TABLE deepsix.leases (
    table_id TEXT PRIMARY KEY REFERENCES deepsix.tables (id),
    server INTEGER NOT NULL,
    since DOUBLE PRECISION NOT NULL DEFAULT extract(epoch FROM now())
);
INSERT INTO deepsix.meta (key, value) VALUES ('application', 'deepsix-web');
INSERT INTO deepsix.meta (key, value) VALUES ('layout', '0');
"""

_VERSION_3: Final = """
ALTER TABLE deepsix.tables ADD COLUMN hint BOOLEAN NOT NULL DEFAULT FALSE;
"""

_VERSION_4: Final = """
ALTER TABLE deepsix.tables ADD COLUMN holders TEXT NOT NULL DEFAULT '[]';
"""
"""The seats' history (:attr:`~deepsix.web.store.base.TableRow.holders`); a table stored before
has none, and its seats are taken as held from the start."""

MIGRATIONS: Final[tuple[tuple[int, str], ...]] = (
    (2, _VERSION_2),
    (3, _VERSION_3),
    (4, _VERSION_4),
)
"""Each layout version's script, applied in order to a database older than it."""

T = TypeVar("T")


def redacted(url: str) -> str:
    """A connection URL as it may be shown: without its password."""
    return public_location(url)


def one_line(error: BaseException) -> str:
    """An error as one line of at most 300 characters (for the log and for errors)."""
    return " ".join(str(error).split())[:300] or type(error).__name__


class PostgresStore:
    """The :class:`~deepsix.web.store.Store` in a PostgreSQL database (``postgresql://...``).

    Opening it checks the database (migrating an older layout, refusing a
    newer or a foreign one).  Calls are made from one thread at a time;
    a lost connection is made again at the next call.
    """

    def __init__(self, url: str) -> None:
        self.url = url
        self.location = redacted(url)
        self.origin = secrets.token_hex(4)
        """This process's name in announcements (it ignores its own)."""
        self._damaged: list[tuple[str, str]] = []
        self._db: psycopg.Connection[tuple[Any, ...]] | None = None
        try:
            self._open()
        except psycopg.Error as error:
            self.close()
            raise StoreRefused(f"{self.location}: cannot use it ({one_line(error)})") from None
        except StoreRefused:
            self.close()
            raise

    # -- the connection and the layout ---------------------------------------------------

    def _connection(self) -> psycopg.Connection[tuple[Any, ...]]:
        if self._db is None or self._db.closed or self._db.broken:
            self._db = psycopg.connect(
                self.url, autocommit=True, connect_timeout=10, application_name="deepsix serve"
            )
        return self._db

    def _open(self) -> None:
        db = self._connection()
        with db.transaction():
            db.execute("SELECT pg_advisory_xact_lock(%s, 0)", (LOCK_SPACE,))
            version = self._version(db)
            if version > SCHEMA_VERSION:
                raise StoreRefused(
                    f"{self.location} was written by a newer deepsix (layout {version}; this one"
                    f" knows {SCHEMA_VERSION}): upgrade deepsix to serve it"
                )
            for target, script in MIGRATIONS:
                if version < target:
                    for statement in script.split(";"):
                        if statement.strip():
                            db.execute(statement.strip())
                    version = target
            db.execute(
                "UPDATE deepsix.meta SET value = %s WHERE key = 'layout'", (str(SCHEMA_VERSION),)
            )

    def _version(self, db: psycopg.Connection[tuple[Any, ...]]) -> int:
        """The layout version of the database (0: nothing of ours is there yet)."""
        found = db.execute(
            "SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = 'deepsix'),"
            " to_regclass('deepsix.meta') IS NOT NULL"
        ).fetchone()
        schema, meta = found if found is not None else (False, False)
        if not schema:
            return 0
        if not meta:
            raise StoreRefused(
                f"{self.location} has a schema named deepsix that is not a deepsix server's"
            )
        values = dict(db.execute("SELECT key, value FROM deepsix.meta").fetchall())
        if values.get("application") != APPLICATION or not str(values.get("layout")).isdigit():
            raise StoreRefused(f"{self.location}: its deepsix schema belongs to another program")
        return int(values["layout"])

    def _call(self, what: str, work: Callable[[psycopg.Connection[tuple[Any, ...]]], T]) -> T:
        """Run ``work`` on the connection; any failure is one :class:`StoreUnavailable` line."""
        try:
            return work(self._connection())
        except (SeqTaken, TableCorrupt, StoreUnavailable, pg_errors.IntegrityError):
            raise  # an integrity error is the caller's to name (SeqTaken, an unknown table)
        except psycopg.Error as error:
            if self._db is not None and (self._db.broken or self._db.closed):
                self._db = None
            raise StoreUnavailable(f"{self.location}: {what} failed: {one_line(error)}") from None

    def _announce(
        self, db: psycopg.Connection[tuple[Any, ...]], message: Mapping[str, object]
    ) -> None:
        db.execute("SELECT pg_notify(%s, %s)", (CHANNEL, announcement_text(self.origin, message)))

    # -- the interface ---------------------------------------------------------------------

    def close(self) -> None:
        """Close the connection."""
        if self._db is not None:
            with contextlib.suppress(psycopg.Error):
                self._db.close()
            self._db = None

    def add_table(self, row: TableRow) -> None:
        """Store a new table (and announce it)."""

        def work(db: psycopg.Connection[tuple[Any, ...]]) -> None:
            marks = ", ".join(["%s"] * 18)
            with db.transaction():
                db.execute(
                    f"INSERT INTO deepsix.tables ({COLUMNS}) VALUES ({marks})",
                    values_of_row(row),
                )
                self._announce(db, {"k": "table", "t": row.id})

        try:
            self._call("storing a new table", work)
        except StoreUnavailable:
            raise
        except pg_errors.UniqueViolation:  # pragma: no cover - 48 random bits
            raise StoreUnavailable(f"{self.location}: table {row.id} exists") from None

    def save_table(self, row: TableRow) -> None:
        """Replace a stored table's row (and announce it)."""

        def work(db: psycopg.Connection[tuple[Any, ...]]) -> int:
            with db.transaction():
                saved = db.execute(
                    "UPDATE deepsix.tables SET created = %s, rules = %s, dealer = %s, seed = %s,"
                    " seats = %s, status = %s, seeded = %s, private = %s, clock = %s,"
                    " standin = %s, host = %s, invite = %s, result = %s, finished = %s,"
                    " next_table = %s, hint = %s, holders = %s, version = version + 1"
                    " WHERE id = %s AND version = %s",
                    (*values_of_row(row)[1:], row.id, row.version),
                ).rowcount
                if saved:
                    self._announce(db, {"k": "table", "t": row.id})
                return saved

        if not self._call(f"saving table {row.id}", work):
            raise RowChanged(
                f"{self.location}: table {row.id} was changed by another server meanwhile"
            )

    def table(self, table_id: str) -> TableRow | None:
        """One table, or ``None``."""
        found = self._call(
            f"reading table {table_id}",
            lambda db: db.execute(
                f"SELECT {COLUMNS}, version FROM deepsix.tables WHERE id = %s",
                (table_id,),
            ).fetchone(),
        )
        if found is None:
            return None
        try:
            return _versioned(found)
        except (ValueError, TypeError, KeyError, TableCorrupt) as error:
            raise TableCorrupt(f"{self.location}: table {table_id}: {error}") from None

    def tables(self, statuses: Collection[TableStatus] = LIVE) -> list[TableRow]:
        """The tables of these statuses, oldest first (unreadable rows: see :meth:`damaged`)."""
        found = self._call(
            "reading the tables",
            lambda db: db.execute(
                f"SELECT {COLUMNS}, version FROM deepsix.tables"
                " WHERE status = ANY(%s) ORDER BY created, id",
                (list(statuses),),
            ).fetchall(),
        )
        rows, self._damaged = read_rows(found, _versioned)
        return rows

    def damaged(self) -> list[tuple[str, str]]:
        """The live rows the last :meth:`tables` could not read."""
        return list(self._damaged)

    def finished(
        self, limit: int, before: tuple[float, str] | None = None, *, listed_only: bool = True
    ) -> list[TableRow]:
        """Finished tables, the latest first, ``limit`` at a time."""
        where, parameters = finished_filter(
            before, listed_only=listed_only, mark="%s", listed="NOT private"
        )
        sql = (
            f"SELECT {COLUMNS}, version FROM deepsix.tables WHERE {where}"
            " ORDER BY finished DESC, id DESC LIMIT %s"
        )
        found = self._call(
            "listing finished tables",
            lambda db: db.execute(sql, (*parameters, limit)).fetchall(),
        )
        rows = []
        for values in found:
            try:
                rows.append(_versioned(values))
            except (ValueError, TypeError, KeyError, TableCorrupt):
                continue  # an unreadable archived row is not listed
        return rows

    def append(self, table_id: str, seq: int, action: str, at: float) -> None:
        """Commit the ``seq``-th move of a table and announce it, or raise
        :class:`~deepsix.web.store.base.SeqTaken`."""

        def work(db: psycopg.Connection[tuple[Any, ...]]) -> None:
            with db.transaction():
                db.execute(
                    "INSERT INTO deepsix.moves (table_id, seq, action, at) VALUES (%s, %s, %s, %s)",
                    (table_id, seq, action, at),
                )
                self._announce(db, {"k": "move", "t": table_id, "s": seq, "a": action})

        try:
            self._call(f"storing move {seq} of table {table_id}", work)
        except pg_errors.UniqueViolation:
            raise SeqTaken(f"{self.location}: move {seq} of table {table_id} is stored") from None
        except pg_errors.ForeignKeyViolation:
            raise StoreUnavailable(
                f"{self.location}: move {seq} of an unknown table {table_id}"
            ) from None

    def moves(self, table_id: str) -> list[str]:
        """A table's moves in order."""
        found = self._call(
            f"reading the moves of table {table_id}",
            lambda db: db.execute(
                "SELECT seq, action FROM deepsix.moves WHERE table_id = %s ORDER BY seq",
                (table_id,),
            ).fetchall(),
        )
        for expected, (seq, _) in enumerate(found, start=1):
            if seq != expected:
                raise TableCorrupt(f"move {expected} is missing (the next stored is {seq})")
        return [str(text) for _, text in found]

    def add_chat(self, table_id: str, line: ChatRow) -> None:
        """Store a chat line (and announce it)."""

        def work(db: psycopg.Connection[tuple[Any, ...]]) -> None:
            with db.transaction():
                db.execute(
                    "INSERT INTO deepsix.chat (table_id, seat, name, text, at, seq)"
                    " VALUES (%s, %s, %s, %s, %s, %s)",
                    (table_id, line.seat, line.name, line.text, line.at, line.seq),
                )
                self._announce(
                    db,
                    {
                        "k": "chat",
                        "t": table_id,
                        "line": [line.seat, line.name, line.text, line.at, line.seq],
                    },
                )

        try:
            self._call(f"storing a chat line of table {table_id}", work)
        except pg_errors.ForeignKeyViolation:
            raise StoreUnavailable(
                f"{self.location}: chat of an unknown table {table_id}"
            ) from None

    def chat(self, table_id: str, limit: int) -> list[ChatRow]:
        """A table's latest chat lines, oldest first."""
        found = self._call(
            f"reading the chat of table {table_id}",
            lambda db: db.execute(
                "SELECT seat, name, text, at, seq FROM deepsix.chat WHERE table_id = %s"
                " ORDER BY n DESC LIMIT %s",
                (table_id, limit),
            ).fetchall(),
        )
        return [ChatRow(seat, name, text, at, seq) for seat, name, text, at, seq in reversed(found)]


def _versioned(values: tuple[Any, ...]) -> TableRow:
    """A row read with its version (the last column)."""
    return attrs.evolve(row_of_values(values[:-1]), version=int(values[-1]))


def announcement_text(origin: str, message: Mapping[str, object]) -> str:
    """An announcement as sent: the message and its origin, cut to what changed if too long."""
    text = json.dumps({**message, "o": origin}, separators=(",", ":"))
    if len(text.encode()) > MAX_PAYLOAD:  # too long to carry: say what changed, readers fetch it
        text = json.dumps(
            {"k": message.get("k"), "t": message.get("t"), "o": origin, "cut": True},
            separators=(",", ":"),
        )
    return text
