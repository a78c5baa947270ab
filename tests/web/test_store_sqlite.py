"""The SQLite back end: the shared store contract, and what only a file can get wrong."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from deepsix.web.store import (
    SCHEMA_VERSION,
    SeatRow,
    StoreRefused,
    StoreUnavailable,
    TableRow,
    open_store,
)
from deepsix.web.store.rows import STATUSES, values_of_row
from deepsix.web.store.sqlite import _MIGRATIONS, APPLICATION_ID, SQLiteStore
from tests.web.store_contract import OldWriter, Opener, StoreContract, table_row

LAYOUT_3_COLUMNS = (
    "id, created, rules, dealer, seed, seats, status, seeded, private, clock, standin, host,"
    " invite, result, finished, next_table, hint, started"
)
"""The columns of a table in an SQLite file of layout 3 (before the seats' history)."""


class TestSQLiteStore(StoreContract):
    @pytest.fixture
    def path(self, tmp_path: Path) -> Path:
        return tmp_path / "tables.sqlite3"

    @pytest.fixture
    def open_database(self, path: Path) -> Opener:
        return lambda: SQLiteStore(path)

    @pytest.fixture
    def make_newer(self, path: Path) -> Callable[[], None]:
        def bump() -> None:
            db = sqlite3.connect(path)
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
            db.commit()
            db.close()

        return bump

    @pytest.fixture
    def make_layout_3(self, path: Path) -> OldWriter:
        def write(row: TableRow) -> None:
            db = sqlite3.connect(path, isolation_level=None)
            for version, script, data in _MIGRATIONS:
                if version > 3:
                    break
                db.executescript(script)
                if data is not None:
                    data(db)
            db.execute("PRAGMA user_version=3")
            db.execute(f"PRAGMA application_id={APPLICATION_ID}")
            values = values_of_row(row)[:-1]  # every column but the seats' history
            marks = ", ".join("?" for _ in range(len(values) + 1))
            db.execute(
                f"INSERT INTO tables ({LAYOUT_3_COLUMNS}) VALUES ({marks})",
                (*values, int(row.status != "waiting")),
            )
            db.close()

        return write


def test_an_empty_file_is_refused_not_taken_for_a_new_database(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    path.write_bytes(b"")
    with pytest.raises(StoreRefused, match=r"games\.sqlite3 is empty \(0 bytes\)"):
        open_store(path)
    assert path.stat().st_size == 0  # left as it was


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite3"
    path.write_text("these are my notes, not a database\n" * 50)
    with pytest.raises(StoreRefused, match="not a usable database"):
        open_store(path)
    assert path.read_text().startswith("these are my notes")


def test_another_programs_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
    db.commit()
    db.close()
    with pytest.raises(StoreRefused, match="not a deepsix one"):
        open_store(path)
    db = sqlite3.connect(path)
    db.execute("PRAGMA application_id=12345")
    db.commit()
    db.close()
    with pytest.raises(StoreRefused, match="another program's"):
        open_store(path)


def test_a_damaged_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    store = SQLiteStore(path)
    store.add_table(table_row())
    store.close()
    data = bytearray(path.read_bytes())
    data[100:4096] = b"\xff" * (4096 - 100)  # the first page's b-tree after the header
    path.write_bytes(bytes(data))
    with pytest.raises(StoreRefused) as refused:
        SQLiteStore(path).tables()
    assert str(path) in str(refused.value)


def test_a_damaged_index_of_ids_hides_no_table(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A flipped byte in the index of table ids: looking the table up by its id through the
    index misses it, but the store finds its intact row (and says the index is damaged)
    instead of answering "no such table"."""
    path = tmp_path / "t.sqlite3"
    store = SQLiteStore(path)
    store.add_table(table_row("table-to-damage"))
    store.add_table(table_row("table-kept", created=2000.0))
    store.close()
    db = sqlite3.connect(path)
    [(page,)] = db.execute(
        "SELECT rootpage FROM sqlite_master WHERE type = 'index' AND tbl_name = 'tables'"
        " AND sql IS NULL"  # the primary key's own index
    )
    [(size,)] = db.execute("PRAGMA page_size")
    db.close()
    data = bytearray(path.read_bytes())
    start = (page - 1) * size
    at = data.index(b"table-to-damage", start, start + size)
    data[at + 6] ^= 0x01  # "table-to-damage" -> "table,to-damage" in the index only
    path.write_bytes(bytes(data))
    db = sqlite3.connect(path)
    assert db.execute("SELECT id FROM tables WHERE id = 'table-to-damage'").fetchall() == []
    db.close()  # the index misses it
    store = SQLiteStore(path)
    try:
        assert {row.id for row in store.tables(STATUSES)} == {"table-kept", "table-to-damage"}
        assert store.table("table-kept") is not None
        assert store.table("table-to-damage") == table_row("table-to-damage")
        assert store.table("no-such-table") is None
        assert "table table-to-damage is missing from the index" in caplog.text
    finally:
        store.close()


def test_a_new_file_is_marked_as_ours(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    open_store(path).close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    db.close()


def test_a_first_version_file_is_migrated(tmp_path: Path) -> None:
    """The first web table's layout: no application id, hex seeds, "token" hashes in seats."""
    path = tmp_path / "v1.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(
        """
        CREATE TABLE tables (id TEXT PRIMARY KEY, created REAL NOT NULL, rules TEXT NOT NULL,
            dealer TEXT NOT NULL, seed TEXT NOT NULL, seats TEXT NOT NULL,
            started INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE actions (table_id TEXT NOT NULL REFERENCES tables(id), seq INTEGER NOT NULL,
            action TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (table_id, seq)) WITHOUT ROWID;
        PRAGMA user_version=1;
        """
    )
    seats = [
        {"kind": "human", "bot": None, "name": "Ann", "token": "d" * 64},
        {"kind": "bot", "bot": "random", "name": "East", "token": None},
        {"kind": "open", "bot": None, "name": "", "token": None},
        {"kind": "open", "bot": None, "name": "", "token": None},
    ]
    db.execute(
        "INSERT INTO tables VALUES ('old', 5.0, '{}', 'N', ?, ?, 0)",
        ("0123456789abcdef0123456789abcdef", json.dumps(seats)),
    )
    db.execute(
        "INSERT INTO tables VALUES ('mine', 6.0, '{}', 'N', '7', ?, 1)", (json.dumps(seats),)
    )
    db.execute("INSERT INTO actions VALUES ('mine', 1, '\"x\"', 1.0)")
    db.commit()
    db.close()
    store = open_store(path)
    old, mine = store.tables()
    assert old.seats[0] == SeatRow("human", None, "Ann", "d" * 64)
    assert (old.status, old.seeded, old.seed) == (
        "waiting",
        False,
        0x0123456789ABCDEF0123456789ABCDEF % 2**63,
    )
    assert (mine.status, mine.seeded, mine.seed) == ("running", True, 7)
    assert old.invite
    assert mine.invite
    assert old.invite != mine.invite
    assert store.moves("mine") == ['"x"']
    store.close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    db.close()


def test_an_unreadable_row_is_named_not_fatal(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    store = SQLiteStore(path)
    store.add_table(table_row("good", 1.0))
    store.add_table(table_row("bad", 2.0))
    store.close()
    db = sqlite3.connect(path)
    db.execute("UPDATE tables SET seats = 'not json' WHERE id = 'bad'")
    db.commit()
    db.close()
    store = SQLiteStore(path)
    assert [row.id for row in store.tables()] == ["good"]
    [(table_id, reason)] = store.damaged()
    assert table_id == "bad"
    assert "cannot be read" in reason


def test_a_full_disk_is_one_line_naming_the_file_and_nothing_is_stored(tmp_path: Path) -> None:
    path = tmp_path / "full.sqlite3"
    store = SQLiteStore(path)
    store.add_table(table_row())
    pages = store._db.execute("PRAGMA page_count").fetchone()[0]
    store._db.execute(f"PRAGMA max_page_count={pages}")  # as if the disk were full

    def fill_the_disk() -> None:
        for seq in range(1, 2000):
            store.append("t1", seq, '"' + "x" * 500 + '"', 1.0)

    with pytest.raises(StoreUnavailable) as full:
        fill_the_disk()
    message = str(full.value)
    assert str(path) in message
    assert "full" in message
    assert "\n" not in message
    stored = len(store.moves("t1"))
    store._db.execute("PRAGMA max_page_count=1073741823")  # space again
    store.append("t1", stored + 1, '"y"', 2.0)
    assert len(store.moves("t1")) == stored + 1
