"""Persistence: every table and every action in an SQLite database (the standard library's).

One row per table (its rules, seats and the hashes of its seats' tokens)
and one row per action, written and committed *before* the action is
pushed to any client.  A server that is killed loses nothing a client has
seen; on start it rebuilds every game by replaying its actions with the
engine, which checks each of them again.

Actions are stored in the wire form of :mod:`deepsix.io.wire` (the same
JSON objects the clients send).  Tokens are never stored, only their
SHA-256 hashes.

The database runs in WAL mode with ``synchronous=NORMAL`` by default: a
commit survives the server process being killed, though not a power cut
(``durable=True`` sets ``synchronous=FULL`` for that, at the cost of an
fsync per move).
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import attrs

__all__ = ["SCHEMA_VERSION", "Store", "TableRow"]

SCHEMA_VERSION: Final = 1
"""The database layout version (SQLite's ``user_version``)."""

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    rules TEXT NOT NULL,
    dealer TEXT NOT NULL,
    seed TEXT NOT NULL,
    seats TEXT NOT NULL,
    started INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;
"""


@attrs.frozen
class TableRow:
    """One table as stored."""

    id: str
    """The table's public id."""
    created: float
    """When it was created (seconds since the epoch)."""
    rules: str
    """Its rules, as a deepsix JSON document."""
    dealer: str
    """The first dealer's letter."""
    seed: str
    """The secret seed of its deals and bots (never sent to a client)."""
    seats: str
    """Its four seats, as JSON (kind, bot, name, token hash)."""
    started: bool
    """Whether the game has started."""


class Store:
    """An SQLite database of tables and their actions; ``":memory:"`` for a throwaway one."""

    def __init__(self, path: str | Path, *, durable: bool = False) -> None:
        self.path = str(path)
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
        self._db.execute("PRAGMA foreign_keys=ON")
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version not in (0, SCHEMA_VERSION):
            raise sqlite3.DatabaseError(
                f"{self.path}: database layout {version}, this server knows {SCHEMA_VERSION}"
            )
        self._db.executescript(_SCHEMA)
        self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def close(self) -> None:
        """Close the database."""
        self._db.close()

    def add_table(self, row: TableRow) -> None:
        """Store a new table."""
        self._db.execute(
            "INSERT INTO tables (id, created, rules, dealer, seed, seats, started)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (row.id, row.created, row.rules, row.dealer, row.seed, row.seats, int(row.started)),
        )

    def update_seats(self, table_id: str, seats: str, started: bool) -> None:
        """Store a table's seats after a join, and whether it has started."""
        self._db.execute(
            "UPDATE tables SET seats = ?, started = ? WHERE id = ?",
            (seats, int(started), table_id),
        )

    def append(self, table_id: str, seq: int, action: str) -> None:
        """Commit the ``seq``-th action (1 for the first) of a table.

        Raises :class:`sqlite3.IntegrityError` if that action is already
        stored: two writers never both get to append the same move.
        """
        self._db.execute(
            "INSERT INTO actions (table_id, seq, action, at) VALUES (?, ?, ?, ?)",
            (table_id, seq, action, time.time()),
        )

    def tables(self) -> Iterator[TableRow]:
        """Every stored table, oldest first."""
        rows = self._db.execute(
            "SELECT id, created, rules, dealer, seed, seats, started FROM tables ORDER BY created"
        ).fetchall()
        for row in rows:
            yield TableRow(row[0], row[1], row[2], row[3], row[4], row[5], bool(row[6]))

    def actions(self, table_id: str) -> list[str]:
        """A table's actions in order (wire-form JSON text)."""
        rows = self._db.execute(
            "SELECT seq, action FROM actions WHERE table_id = ? ORDER BY seq", (table_id,)
        ).fetchall()
        for expected, (seq, _) in enumerate(rows, start=1):
            if seq != expected:
                raise sqlite3.DatabaseError(f"table {table_id}: action {expected} is missing")
        return [text for _, text in rows]

    def count(self, table_id: str) -> int:
        """How many actions a table has."""
        row = self._db.execute(
            "SELECT COUNT(*) FROM actions WHERE table_id = ?", (table_id,)
        ).fetchone()
        return int(row[0])


def seats_json(seats: list[dict[str, object]]) -> str:
    """The stored form of a table's seats."""
    return json.dumps(seats, separators=(",", ":"), sort_keys=True)
