"""The embedded back end: every table, move and chat line in one SQLite file (stdlib sqlite3).

Moves are appended and committed one by one, *before* anyone is shown
them: a server that is killed loses nothing a client has seen.  The file
runs in WAL mode with ``synchronous=NORMAL`` by default: a commit survives
the process being killed, though not a power cut (``durable=True`` sets
``synchronous=FULL`` for that, at the cost of an fsync per move).

A file is taken only if it is one of ours: the SQLite header's
``application_id`` says so (files of the first web table, which had none,
are recognised by their layout and migrated).  An empty file, another
program's database, a damaged file or one written by a newer server is
refused with a :class:`~deepsix.web.store.StoreRefused` naming the file and
what to do -- never taken for a new database.
"""

from __future__ import annotations

import json
import logging
import secrets
import sqlite3
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any, Final

from deepsix.web.store.base import (
    LIVE,
    SCHEMA_VERSION,
    ChatRow,
    SeqTaken,
    StoreRefused,
    StoreUnavailable,
    TableCorrupt,
    TableRow,
    TableStatus,
)
from deepsix.web.store.lock import FileLock
from deepsix.web.store.rows import (
    COLUMNS,
    STATUSES,
    finished_filter,
    printable,
    read_rows,
    row_of_values,
    values_of_row,
)

_log = logging.getLogger("deepsix.web")

__all__ = ["APPLICATION_ID", "SQLiteStore"]

APPLICATION_ID: Final = int.from_bytes(b"Ds6w", "big")
"""The ``application_id`` in the header of the server's SQLite files."""

_VERSION_1: Final = """
CREATE TABLE tables (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    rules TEXT NOT NULL,
    dealer TEXT NOT NULL,
    seed TEXT NOT NULL,
    seats TEXT NOT NULL,
    started INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;
"""

_VERSION_2: Final = """
ALTER TABLE tables ADD COLUMN status TEXT NOT NULL DEFAULT 'waiting';
ALTER TABLE tables ADD COLUMN seeded INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tables ADD COLUMN private INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tables ADD COLUMN clock REAL;
ALTER TABLE tables ADD COLUMN standin TEXT NOT NULL DEFAULT 'heuristic';
ALTER TABLE tables ADD COLUMN host TEXT;
ALTER TABLE tables ADD COLUMN invite TEXT NOT NULL DEFAULT '';
ALTER TABLE tables ADD COLUMN result TEXT;
ALTER TABLE tables ADD COLUMN finished REAL;
ALTER TABLE tables ADD COLUMN next_table TEXT;
CREATE INDEX tables_by_status ON tables (status, created);
CREATE INDEX tables_finished ON tables (status, private, finished DESC, id DESC);
CREATE TABLE chat (
    n INTEGER PRIMARY KEY,
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat TEXT,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    at REAL NOT NULL,
    seq INTEGER NOT NULL
);
CREATE INDEX chat_by_table ON chat (table_id, n);
"""


def _migrate_seats_and_seeds(db: sqlite3.Connection) -> None:
    """Version 1 kept seeds as text (hex, or a client's number) and seat hashes under "token"."""
    rows = db.execute("SELECT id, seed, seats, started FROM tables").fetchall()
    for table_id, seed_text, seats_text, started in rows:
        text = str(seed_text)
        seeded = not (len(text) == 32 and all(c in "0123456789abcdef" for c in text))
        seed = int(text) if seeded and text.lstrip("-").isdigit() else int(text, 16)
        seats = [
            {
                "kind": slot.get("kind"),
                "bot": slot.get("bot"),
                "name": slot.get("name") or "",
                "credential": slot.get("token"),
            }
            for slot in json.loads(seats_text)
        ]
        db.execute(
            "UPDATE tables SET seed = ?, seeded = ?, seats = ?, status = ?, invite = ?"
            " WHERE id = ?",
            (
                str(seed % 2**63),
                int(seeded),
                json.dumps(seats, separators=(",", ":"), sort_keys=True),
                "running" if started else "waiting",
                secrets.token_urlsafe(12),
                table_id,
            ),
        )


_VERSION_3: Final = """
ALTER TABLE tables ADD COLUMN hint INTEGER NOT NULL DEFAULT 0;
"""

_VERSION_4: Final = """
ALTER TABLE tables ADD COLUMN holders TEXT NOT NULL DEFAULT '[]';
"""
"""The seats' history (:attr:`~deepsix.web.store.base.TableRow.holders`).  A table stored before
has none: its seats, as they are, are taken as held from the start (all a server knew)."""


_MIGRATIONS: Final[tuple[tuple[int, str, Callable[[sqlite3.Connection], None] | None], ...]] = (
    (1, _VERSION_1, None),
    (2, _VERSION_2, _migrate_seats_and_seeds),
    (3, _VERSION_3, None),
    (4, _VERSION_4, None),
)
"""Each version's layout change (a script, then a data migration), applied in order."""


class SQLiteStore:
    """The :class:`~deepsix.web.store.Store` in an SQLite file (``":memory:"``: a throwaway one)."""

    def __init__(self, path: str | Path, *, durable: bool = False, exclusive: bool = False) -> None:
        self.location = str(path)
        self._damaged: list[tuple[str, str]] = []
        self._lock: FileLock | None = None
        memory = self.location == ":memory:"
        if not memory:
            file = Path(path)
            if file.is_dir():
                raise StoreRefused(f"{self.location} is a directory, not a database file")
            if file.exists() and file.stat().st_size == 0:
                raise StoreRefused(
                    f"{self.location} is empty (0 bytes): refusing to take it for a new database"
                    " (remove it to start afresh, or restore it from a backup)"
                )
        try:
            self._db = sqlite3.connect(self.location, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as error:
            raise StoreRefused(f"{self.location}: cannot open it ({error})") from None
        self._db.text_factory = _text
        try:
            self._check()
            if exclusive and not memory:  # a file of ours: lock it before it is migrated
                self._lock = FileLock(self.location)
            self._open(durable)
        except (sqlite3.DatabaseError, UnicodeDecodeError) as error:  # (a damaged schema's
            self.close()  # message may not be UTF-8 either)
            raise StoreRefused(
                f"{self.location}: not a usable database ({error}); restore it from a backup"
            ) from None
        except StoreRefused:
            self.close()
            raise

    def _check(self) -> None:
        """Refuse a file that is not ours, or one too new."""
        db = self._db
        application = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        names = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
        if application not in (0, APPLICATION_ID):
            raise StoreRefused(f"{self.location} is another program's SQLite database")
        if application == 0 and names and not (version == 1 and {"tables", "actions"} <= names):
            raise StoreRefused(
                f"{self.location} is an SQLite database, but not a deepsix one"
                f" ({len(names)} objects of other names)"
            )
        if version > SCHEMA_VERSION:
            raise StoreRefused(
                f"{self.location} was written by a newer deepsix (layout {version}; this one"
                f" knows {SCHEMA_VERSION}): upgrade deepsix to serve it"
            )

    def _open(self, durable: bool) -> None:
        """Set the file's modes and migrate it to today's layout."""
        db = self._db
        version = db.execute("PRAGMA user_version").fetchone()[0]
        db.execute("PRAGMA journal_mode=WAL")
        db.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
        db.execute("PRAGMA foreign_keys=ON")
        for target, script, data in _MIGRATIONS:
            if version >= target:
                continue
            db.execute("BEGIN IMMEDIATE")
            try:
                for statement in script.split(";"):
                    if statement.strip():
                        db.execute(statement)
                if data is not None:
                    data(db)
                db.execute(f"PRAGMA user_version={target}")
                db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
            version = target

    # -- the interface ---------------------------------------------------------------------

    def _run(self, what: str, sql: str, parameters: tuple[Any, ...] = ()) -> sqlite3.Cursor:
        try:
            return self._db.execute(sql, parameters)
        except sqlite3.IntegrityError:
            raise
        except sqlite3.Error as error:
            raise StoreUnavailable(f"{self.location}: {what} failed: {error}") from None

    def close(self) -> None:
        """Close the file (and let go of its lock)."""
        self._db.close()
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def add_table(self, row: TableRow) -> None:
        """Store a new table."""
        try:
            self._run(
                "storing a new table",
                f"INSERT INTO tables ({COLUMNS}, started) VALUES"
                " (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (*values_of_row(row), int(row.status != "waiting")),
            )
        except sqlite3.IntegrityError as error:
            raise StoreUnavailable(f"{self.location}: table {row.id}: {error}") from None

    def save_table(self, row: TableRow) -> None:
        """Replace a stored table's row."""
        values = values_of_row(row)
        self._run(
            f"saving table {row.id}",
            "UPDATE tables SET created = ?, rules = ?, dealer = ?, seed = ?, seats = ?,"
            " status = ?, seeded = ?, private = ?, clock = ?, standin = ?, host = ?, invite = ?,"
            " result = ?, finished = ?, next_table = ?, hint = ?, holders = ?, started = ?"
            " WHERE id = ?",
            (*values[1:], int(row.status != "waiting"), row.id),
        )

    def _read(self, what: str, sql: str, parameters: tuple[Any, ...] = ()) -> list[Any]:
        """The rows of a query; a damaged file is :class:`TableCorrupt`, any other failure
        :class:`StoreUnavailable` (one line each, never holding what was stored)."""
        try:
            return self._db.execute(sql, parameters).fetchall()
        except (sqlite3.Error, UnicodeDecodeError) as error:
            failure = TableCorrupt if _damage(error) else StoreUnavailable
            raise failure(f"{self.location}: {what} failed: {error}") from None

    def table(self, table_id: str) -> TableRow | None:
        """One table, or ``None``."""
        found = self._read(
            f"reading table {table_id}", f"SELECT {COLUMNS} FROM tables WHERE id = ?", (table_id,)
        )
        if not found:
            # a damaged index of ids may hide the row: look through every row (a table scan,
            # only for an id the index does not know), so that no table is lost to it
            found = self._read(
                f"reading table {table_id}",
                f"SELECT {COLUMNS} FROM tables NOT INDEXED WHERE id = ?",
                (table_id,),
            )
            if not found:
                return None
            _log.warning("%s: table %s is missing from the index of ids", self.location, table_id)
        try:
            row = row_of_values(found[0])
        except (ValueError, TypeError, KeyError, TableCorrupt) as error:
            raise TableCorrupt(f"{self.location}: table {table_id}: {error}") from None
        if row.id != table_id:  # a damaged index led to another row
            raise TableCorrupt(f"{self.location}: table {table_id}: its index is damaged")
        return row

    def tables(self, statuses: Collection[TableStatus] = LIVE) -> list[TableRow]:
        """The tables of these statuses, oldest first (unreadable rows: see :meth:`damaged`).

        Every row is read (no index is trusted, so a damaged index hides no table); in a
        damaged file the rows are read one by one, and those that cannot be are named.
        """
        wanted = tuple(statuses)
        known = ", ".join("?" for _ in STATUSES)  # and those of no known status: damaged
        where = f"status IN ({', '.join('?' for _ in wanted)}) OR status NOT IN ({known})"
        try:
            found = self._read(
                "reading the tables",
                f"SELECT {COLUMNS} FROM tables NOT INDEXED WHERE {where}",
                (*wanted, *STATUSES),
            )
            unreadable: list[tuple[str, str]] = []
        except TableCorrupt:
            found, unreadable = self._salvage()
            found = [v for v in found if v[6] in wanted or v[6] not in STATUSES]
        rows, damaged = read_rows(found)
        rows.sort(key=lambda row: (row.created, row.id))
        self._damaged = unreadable + damaged
        return rows

    def _salvage(self) -> tuple[list[Any], list[tuple[str, str]]]:
        """The rows of a damaged list of tables that can be read, one by one (found by the
        index of their ids), and the ids of those that cannot.  If that index is damaged too,
        the file is (:class:`TableCorrupt`)."""
        keys = self._read(
            "reading the ids of the tables",
            "SELECT id, rowid FROM tables INDEXED BY sqlite_autoindex_tables_1",
        )
        found, unreadable = [], []
        for table_id, number in keys:
            try:
                found += self._read(
                    "reading a table", f"SELECT {COLUMNS} FROM tables WHERE rowid = ?", (number,)
                )
            except TableCorrupt:
                unreadable.append((printable(table_id), "its row cannot be read (damaged)"))
        return found, unreadable

    def damaged(self) -> list[tuple[str, str]]:
        """The live rows the last :meth:`tables` could not read."""
        return list(self._damaged)

    def finished(
        self, limit: int, before: tuple[float, str] | None = None, *, listed_only: bool = True
    ) -> list[TableRow]:
        """Finished tables, the latest first, ``limit`` at a time."""
        where, parameters = finished_filter(
            before, listed_only=listed_only, mark="?", listed="private = 0"
        )
        order = "ORDER BY finished DESC, id DESC LIMIT ?"
        try:
            found = self._read(
                "listing finished tables",
                f"SELECT {COLUMNS} FROM tables WHERE {where} {order}",
                (*parameters, limit),
            )
        except TableCorrupt:  # a damaged index, perhaps: read every row, then
            found = self._read(
                "listing finished tables",
                f"SELECT {COLUMNS} FROM tables NOT INDEXED WHERE {where} {order}",
                (*parameters, limit),
            )
        rows = []
        for values in found:
            try:
                rows.append(row_of_values(values))
            except (ValueError, TypeError, KeyError, TableCorrupt):
                continue  # an unreadable archived row is not listed
        return rows

    def append(self, table_id: str, seq: int, action: str, at: float) -> None:
        """Commit the ``seq``-th move of a table."""
        try:
            self._run(
                f"storing move {seq} of table {table_id}",
                "INSERT INTO actions (table_id, seq, action, at) VALUES (?, ?, ?, ?)",
                (table_id, seq, action, at),
            )
        except sqlite3.IntegrityError as error:
            if "FOREIGN KEY" in str(error):
                raise StoreUnavailable(
                    f"{self.location}: move {seq} of an unknown table {table_id}"
                ) from None
            raise SeqTaken(f"{self.location}: move {seq} of table {table_id} is stored") from None

    def moves(self, table_id: str) -> list[str]:
        """A table's moves in order."""
        found = self._read(
            f"reading the moves of table {table_id}",
            "SELECT seq, action FROM actions WHERE table_id = ? ORDER BY seq",
            (table_id,),
        )
        for expected, (seq, text) in enumerate(found, start=1):
            if seq != expected:
                raise TableCorrupt(f"move {expected} is missing (the next stored is {seq})")
            if type(text) is not str:
                raise TableCorrupt(f"move {seq} is not text (damaged)")
        return [text for _, text in found]

    def add_chat(self, table_id: str, line: ChatRow) -> None:
        """Store a chat line."""
        try:
            self._run(
                f"storing a chat line of table {table_id}",
                "INSERT INTO chat (table_id, seat, name, text, at, seq) VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, line.seat, line.name, line.text, line.at, line.seq),
            )
        except sqlite3.IntegrityError as error:
            raise StoreUnavailable(f"{self.location}: table {table_id}: {error}") from None

    def chat(self, table_id: str, limit: int) -> list[ChatRow]:
        """A table's latest chat lines, oldest first."""
        found = self._read(
            f"reading the chat of table {table_id}",
            "SELECT seat, name, text, at, seq FROM chat WHERE table_id = ? ORDER BY n DESC LIMIT ?",
            (table_id, limit),
        )
        return [
            ChatRow(seat, printable(name), printable(text), at, seq)
            for seat, name, text, at, seq in reversed(found)
            if seat is None or type(seat) is str
        ]


class _NotText(bytes):
    """A stored text that is not UTF-8 (a damaged byte): the row readers refuse it."""


def _text(data: bytes) -> str | _NotText:
    """How the file's texts are read (``text_factory``): a text that is not UTF-8 is not an
    error that stops the whole query (and prints the row, credential hashes and all)."""
    try:
        return data.decode()
    except UnicodeDecodeError:
        return _NotText(data)


def _damage(error: Exception) -> bool:
    """Whether SQLite says the file is damaged (not full, busy or failing to write); a message
    of SQLite's that is not UTF-8 is a damaged schema's."""
    if isinstance(error, UnicodeDecodeError):
        return True
    code = getattr(error, "sqlite_errorcode", 0) & 0xFF
    return code in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)
