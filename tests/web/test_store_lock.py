"""One server per SQLite file: the lock beside the file, and SQLite's own locks left alone."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from deepsix.web.store import StoreRefused
from deepsix.web.store.lock import LOCKING, FileLock, lock_path
from deepsix.web.store.sqlite import SQLiteStore
from tests.web.store_contract import table_row

pytestmark = pytest.mark.skipif(not LOCKING, reason="no flock on this system: no lock is taken")


def _elsewhere(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Python ``code`` in another process (``sys.argv[1:]`` are ``args``)."""
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=60, check=False
    )


_READ = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
print(db.execute("SELECT COUNT(*) FROM tables").fetchone()[0])
db.close()
"""

_TAKE = """
import sys
from deepsix.web.store import StoreRefused, open_store
try:
    open_store(sys.argv[1], exclusive=True).close()
except StoreRefused as error:
    print(error)
"""


def test_taking_the_lock_again_in_the_process_leaves_sqlites_locks_alone(tmp_path: Path) -> None:
    """Issue 39 item 1: a second holder in the server's process opened and closed a descriptor
    of the database, which dropped SQLite's locks: the next outside reader to close deleted
    the write-ahead log under the server, and every later move was lost."""
    path = tmp_path / "tables.sqlite3"
    store = SQLiteStore(path, exclusive=True)
    store.add_table(table_row("t1", 1.0))
    again = FileLock(path)  # as the server's start-up check and its store both hold it
    again.release()
    assert _elsewhere(_READ, str(path)).stdout.split() == ["1"]
    assert Path(f"{path}-wal").exists()  # the outside reader did not take the log for its own
    store.add_table(table_row("t2", 2.0))
    assert _elsewhere(_READ, str(path)).stdout.split() == ["2"]
    store.close()
    assert _elsewhere(_READ, str(path)).stdout.split() == ["2"]


def test_the_lock_is_a_file_of_its_own_shared_by_every_name_of_the_database(
    tmp_path: Path,
) -> None:
    path = tmp_path / "tables.sqlite3"
    link = tmp_path / "club.sqlite3"
    link.symlink_to(path)
    store = SQLiteStore(path, exclusive=True)
    try:
        assert lock_path(link) == lock_path(path) == tmp_path / "tables.sqlite3-lock"
        for name in (path, link):
            refused = _elsewhere(_TAKE, str(name)).stdout
            assert f"{name} is in use by another deepsix server" in refused
    finally:
        store.close()
    assert _elsewhere(_TAKE, str(link)).stdout == ""  # free once the holder lets go
    assert lock_path(path).exists()  # left in place: a waiting server finds the same file


def test_a_lock_file_that_cannot_be_made_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    SQLiteStore(path).close()
    lock_path(path).mkdir()  # a directory where the lock file goes
    with pytest.raises(StoreRefused, match="cannot open its lock file") as refused:
        SQLiteStore(path, exclusive=True)
    assert "\n" not in str(refused.value)
