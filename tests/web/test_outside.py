"""Other programs on a live server's SQLite file: a reader, a writer, a backup (issue 39 item 1).

An admin's ``sqlite3 tables.sqlite3 'select count(*) ...'`` once made the
server lose every later move without a word: the server's lock code opened
and closed a second descriptor of the database file, which dropped SQLite's
own locks, so the outside reader took the write-ahead log for its own,
folded it in and deleted it, and the server went on committing to a deleted
log.  The outside processes here are Debian's ``sqlite3`` command when it is
installed (``.ci/run`` installs it), else a Python subprocess doing the same
through the standard library (the test says so in its output).
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests.web.harness import Server

SQLITE3 = shutil.which("sqlite3")
"""The SQLite command-line shell, if installed."""

_PYTHON_SHELL = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], timeout=5, isolation_level=None)
if sys.argv[2].startswith(".backup "):
    target = sqlite3.connect(sys.argv[2].removeprefix(".backup "))
    db.backup(target)
    target.close()
else:
    run = db.executescript if ";" in sys.argv[2] else db.execute
    for row in run(sys.argv[2]):
        print("|".join(map(str, row)))
db.close()
"""


def outside(db: Path, command: str) -> str:
    """Run one SQL statement (or script, or ``.backup FILE``) on ``db`` in another process,
    as an admin would; its output."""
    if SQLITE3 is not None:
        argv = [SQLITE3, "-cmd", ".timeout 5000", str(db), command]
    else:
        argv = [sys.executable, "-c", _PYTHON_SHELL, str(db), command]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _table(server: Server, table: str) -> dict[str, Any]:
    status, body = server.call("GET", f"/api/tables/{table}")
    assert status == 200, body
    return dict(body)


def _seq(server: Server, table: str) -> int:
    return int(_table(server, table)["seq"])


def _stored(db: Path, table: str) -> int:
    return int(outside(db, f"SELECT COUNT(*) FROM actions WHERE table_id = '{table}'"))


def _more(server: Server, tables: list[str], seen: dict[str, int], moves: int = 8) -> None:
    """Wait until every table has played ``moves`` more moves than ``seen`` (or has ended)."""
    deadline = time.monotonic() + 20
    for table in tables:
        body = _table(server, table)
        while body["seq"] < seen[table] + moves and body["status"] != "finished":
            assert time.monotonic() < deadline, f"table {table} stopped at {body['seq']}"
            time.sleep(0.05)
            body = _table(server, table)
        seen[table] = body["seq"]


def test_an_outside_reader_writer_and_backup_lose_no_move(tmp_path: Path) -> None:
    if SQLITE3 is None:
        print("no sqlite3 command: the outside processes are Python's sqlite3 module")
    server = Server(tmp_path, bot_delay=0.03, entry=("-m", "deepsix", "serve"))
    server.start()
    try:
        tables = [
            server.create(dict.fromkeys("NESW", "random"), me=None, seed=seed)["table"]["id"]
            for seed in (1, 2)
        ]
        seen = dict.fromkeys(tables, 0)
        _more(server, tables, seen)
        # a reader, as in the issue
        first = {table: _stored(server.db, table) for table in tables}
        _more(server, tables, seen)
        # a writer: a table of its own, written and dropped in transactions of its own
        outside(server.db, "CREATE TABLE admin_note (x); INSERT INTO admin_note VALUES (1);")
        outside(server.db, "DROP TABLE admin_note;")
        _more(server, tables, seen)
        # a backup, then more play
        backup = tmp_path / "backup.sqlite3"
        outside(server.db, f".backup {backup}")
        _more(server, tables, seen)
        for table in tables:  # the file goes on growing while outside readers come and go
            assert _stored(server.db, table) >= seen[table] > first[table]
        assert Path(f"{server.db}-wal").exists()  # the server's log is still the file's
        reported = {table: _seq(server, table) for table in tables}
        server.kill()  # nothing is flushed at the end: only what was committed counts
        for table in tables:
            assert _stored(server.db, table) >= reported[table]
        copy = sqlite3.connect(backup)
        try:
            for table in tables:
                count = copy.execute(
                    "SELECT COUNT(*) FROM actions WHERE table_id = ?", (table,)
                ).fetchone()[0]
                assert first[table] < count <= reported[table]
        finally:
            copy.close()
        server.start()
        for table in tables:  # every move the API reported, replayed by the restarted server
            assert _seq(server, table) >= reported[table]
            assert len(server.states(table)) - 1 >= reported[table]
    finally:
        server.stop()
