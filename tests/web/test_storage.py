"""Storage that fails, files that must not be used, tables that cannot be rebuilt.

Guards issue 23's "one damaged table takes down the site": one bad row made
the whole server refuse to start (with a traceback that often did not name
the table); an empty file was taken for a new database; a full disk ended a
table's runner for good, closed the socket of the player on turn without an
error frame, and answered ``POST /api/tables`` with a plain-text 500.
"""

from __future__ import annotations

import logging
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from deepsix.web.store.sqlite import APPLICATION_ID
from tests.web.harness import Client, Server
from tests.web.inprocess import ServerInThread

BOTS3 = {"N": "random", "E": "random", "W": "random"}


@pytest.fixture
def in_thread(tmp_path: Path) -> Iterator[ServerInThread]:
    running = ServerInThread(tmp_path)
    running.start()
    yield running
    running.stop()


def test_a_storage_failure_refuses_with_frames_and_json_and_the_tables_resume_by_themselves(
    in_thread: ServerInThread, caplog: pytest.LogCaptureFixture
) -> None:
    server = in_thread
    made = server.create(BOTS3, me="S")
    table = made["table"]["id"]
    south = Client(server, table, made["token"])
    robots = server.create(dict.fromkeys("NESW", "random"), me=None)["table"]["id"]  # bots only
    watcher = Client(server, robots, None)
    watcher.reach(3)
    before = south.turn()
    stored = server.count(table)
    with caplog.at_level(logging.WARNING, logger="deepsix.web"):
        server.break_storage()
        # the player on turn: an error frame, her socket open, nothing changed
        answer = south.act(before["view"]["legal_actions"][0])
        assert (answer["op"], answer["code"]) == ("error", "storage")
        assert server.count(table) == stored
        south.send({"op": "ping"})
        assert south.until(lambda frame: frame["op"] == "pong")  # still connected
        # the table of bots waits, and says why
        assert watcher.until(lambda frame: frame.get("kind") == "storage")
        # HTTP: a JSON body, not a plain-text 500
        status, body, headers = server.request("POST", "/api/tables", {"me": "S"})
        assert status == 503
        assert headers["content-type"] == "application/json"
        assert body["error"]["code"] == "storage"
        seq = watcher.last["seq"]
        server.mend_storage()
        # storage is back: the table of bots goes on by itself, the player's move goes in
        assert watcher.until(lambda frame: frame.get("kind") == "storage-back")
        watcher.reach(seq + 5)
        assert south.act(before["view"]["legal_actions"][0])["op"] == "update"
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("storage: ")]
    failing = [line for line in lines if "waits for it" in line or "was refused" in line]
    assert failing  # one line per outage and table, naming the file
    assert all(str(server.db) in line and "\n" not in line for line in failing)
    assert len(failing) <= 3  # not one per retry
    for client in (south, watcher):
        client.close()


def _damage(server: Server, table: str, sql: str) -> None:
    db = sqlite3.connect(server.db)
    db.execute(sql, (table,))
    db.commit()
    db.close()


def test_a_table_that_cannot_be_rebuilt_is_quarantined_and_the_others_are_served(
    fresh_server: Server,
) -> None:
    server = fresh_server
    good = server.create(BOTS3, me="S", seed=2)
    bad = server.create(BOTS3, me="S", seed=3)
    Client(server, bad["table"]["id"], None).reach(2)
    server.stop()
    _damage(server, bad["table"]["id"],
            "UPDATE actions SET action = 'not json' WHERE table_id = ? AND seq = 2")  # fmt: skip
    server.start()
    log = server.log.read_text()
    assert f"table {bad['table']['id']} quarantined" in log
    assert "move 2 cannot be replayed" in log
    assert "Traceback" not in log
    listing = server.call("GET", "/api/tables")[1]
    [quarantined] = listing["quarantined"]
    assert quarantined["id"] == bad["table"]["id"]
    assert quarantined["reason"].startswith("move 2 cannot be replayed")
    status, body = server.call("GET", f"/api/tables/{bad['table']['id']}")
    assert (status, body["error"]["code"]) == (503, "quarantined")
    south = Client(server, good["table"]["id"], good["token"])  # the good table plays on
    assert south.seat is not None
    south.close()


def _serve(db: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "deepsix.web", "--db", str(db), "--port", "1"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


def test_an_empty_or_foreign_database_is_refused_in_one_line_and_left_alone(
    tmp_path: Path,
) -> None:
    empty = tmp_path / "club.sqlite3"
    empty.write_bytes(b"")
    foreign = tmp_path / "invoices.sqlite3"
    db = sqlite3.connect(foreign)
    db.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    db.commit()
    db.close()
    newer = tmp_path / "newer.sqlite3"
    db = sqlite3.connect(newer)
    db.execute(f"PRAGMA application_id={APPLICATION_ID}")  # deepsix's
    db.execute("PRAGMA user_version=99")
    db.execute("CREATE TABLE x (y)")
    db.commit()
    db.close()
    for path, words in ((empty, "empty (0 bytes)"), (foreign, "not a deepsix one"),
                        (newer, "newer deepsix")):  # fmt: skip
        before = path.read_bytes()
        done = _serve(path)
        assert done.returncode == 2, done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1, done.stderr  # one line, no traceback
        assert str(path) in lines[0]
        assert words in lines[0]
        assert path.read_bytes() == before  # never taken for a new database
