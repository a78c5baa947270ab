"""The PostgreSQL back end on a real server: the shared store contract, and what only it does."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

import attrs
import pytest

from deepsix.web.store import (
    SCHEMA_VERSION,
    ChatRow,
    RowChanged,
    StoreRefused,
    StoreUnavailable,
    TableRow,
    open_exchange,
    open_store,
)
from deepsix.web.store.rows import values_of_row
from tests.web.scale.postgres import PostgresCluster, require_driver
from tests.web.store_contract import OldWriter, Opener, StoreContract, table_row

psycopg = require_driver()  # before the modules that need it: a skip with the reason, not an error

# These need psycopg; imported after the check above, on purpose.
from deepsix.web.store.exchange import PostgresExchange  # noqa: E402
from deepsix.web.store.postgres import MIGRATIONS, PostgresStore, redacted  # noqa: E402


class TestPostgresStore(StoreContract):
    @pytest.fixture
    def open_database(self, database: str) -> Opener:
        return lambda: PostgresStore(database)

    @pytest.fixture
    def make_newer(self, database: str) -> Callable[[], None]:
        def bump() -> None:
            with psycopg.connect(database, autocommit=True) as db:
                db.execute(
                    "UPDATE deepsix.meta SET value = %s WHERE key = 'layout'",
                    (str(SCHEMA_VERSION + 1),),
                )

        return bump

    @pytest.fixture
    def make_layout_3(self, database: str) -> OldWriter:
        def write(row: TableRow) -> None:
            columns = (
                "id, created, rules, dealer, seed, seats, status, seeded, private, clock,"
                " standin, host, invite, result, finished, next_table, hint"
            )  # layout 3's: no seats' history
            values = values_of_row(row)[:-1]
            with psycopg.connect(database, autocommit=True) as db, db.transaction():
                for version, script in MIGRATIONS:
                    if version <= 3:
                        for statement in script.split(";"):
                            if statement.strip():
                                db.execute(statement.strip())
                db.execute("UPDATE deepsix.meta SET value = '3' WHERE key = 'layout'")
                marks = ", ".join(["%s"] * len(values))
                db.execute(f"INSERT INTO deepsix.tables ({columns}) VALUES ({marks})", values)

        return write


def test_the_migrations_reach_this_layout_version() -> None:
    assert [version for version, _ in MIGRATIONS] == sorted({v for v, _ in MIGRATIONS})
    assert MIGRATIONS[-1][0] == SCHEMA_VERSION  # a new layout needs its PostgreSQL migration


def test_open_store_takes_a_postgresql_url(database: str) -> None:
    store = open_store(database)
    assert isinstance(store, PostgresStore)
    assert store.location == database  # no password in it to hide
    store.close()


def test_the_password_never_shows(postgres: PostgresCluster) -> None:
    url = f"postgresql://deepsix:s3cret-Pass@127.0.0.1:{postgres.port}/nowhere"
    assert redacted(url) == f"postgresql://deepsix@127.0.0.1:{postgres.port}/nowhere"
    with pytest.raises(StoreRefused) as refused:
        open_store(url)
    message = str(refused.value)
    assert "s3cret" not in message
    assert message.startswith(f"postgresql://deepsix@127.0.0.1:{postgres.port}/nowhere: ")
    assert "\n" not in message


def test_a_foreign_schema_is_refused_and_left_alone(database: str) -> None:
    with psycopg.connect(database, autocommit=True) as db:
        db.execute("CREATE SCHEMA deepsix")
        db.execute("CREATE TABLE deepsix.invoices (id INTEGER PRIMARY KEY)")
    with pytest.raises(StoreRefused, match="not a deepsix server's"):
        open_store(database)
    with psycopg.connect(database, autocommit=True) as db:
        found = db.execute("SELECT to_regclass('deepsix.invoices') IS NOT NULL").fetchone()
        assert found == (True,)


def test_other_schemas_of_the_database_are_not_touched(database: str) -> None:
    with psycopg.connect(database, autocommit=True) as db:
        db.execute("CREATE TABLE public.tables (id TEXT PRIMARY KEY, mine BOOLEAN)")
        db.execute("INSERT INTO public.tables VALUES ('x', true)")
    store = open_store(database)
    store.add_table(table_row("x"))
    assert store.tables()[0].id == "x"
    store.close()
    with psycopg.connect(database, autocommit=True) as db:
        assert db.execute("SELECT id, mine FROM public.tables").fetchall() == [("x", True)]


def test_servers_starting_together_migrate_once(database: str) -> None:
    opened: list[object] = []
    barrier = threading.Barrier(4)

    def start() -> None:
        barrier.wait()
        try:
            opened.append(PostgresStore(database))
        except Exception as error:  # the test reports what went wrong
            opened.append(error)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert all(isinstance(store, PostgresStore) for store in opened), opened
    with psycopg.connect(database, autocommit=True) as db:
        assert db.execute("SELECT value FROM deepsix.meta WHERE key = 'layout'").fetchone() == (
            str(SCHEMA_VERSION),
        )


def test_a_row_changed_by_another_server_is_not_saved_over(database: str) -> None:
    mine, theirs = PostgresStore(database), PostgresStore(database)
    mine.add_table(table_row())
    read = mine.table("t1")
    assert read is not None
    assert read.version == 0
    theirs.save_table(attrs.evolve(read, private=False))  # the other server's change first
    with pytest.raises(RowChanged, match="changed by another server"):
        mine.save_table(attrs.evolve(read, clock=None))  # made from the row before it
    fresh = mine.table("t1")
    assert fresh is not None
    assert (fresh.private, fresh.clock, fresh.version) == (False, 45.5, 1)
    mine.save_table(attrs.evolve(fresh, clock=None))
    assert mine.table("t1") == attrs.evolve(fresh, clock=None)
    mine.close()
    theirs.close()


def test_a_lost_connection_is_one_line_then_made_again(database: str) -> None:
    store = PostgresStore(database)
    store.add_table(table_row())
    with psycopg.connect(database, autocommit=True) as admin:
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    with pytest.raises(StoreUnavailable) as lost:
        store.append("t1", 1, '"a"', 1.0)
    assert str(lost.value).startswith(store.location)
    assert "\n" not in str(lost.value)
    store.append("t1", 1, '"a"', 1.0)  # the next call connects again
    assert store.moves("t1") == ['"a"']
    store.close()


async def _collect(exchange: PostgresExchange, count: int, into: list[dict[str, Any]]) -> None:
    async for message in exchange.messages():
        into.append(message)
        if len(into) >= count:
            return


def test_writes_are_announced_to_the_other_servers_in_commit_order(database: str) -> None:
    writer = PostgresStore(database)
    reader = PostgresStore(database)
    exchange = open_exchange(reader)
    assert isinstance(exchange, PostgresExchange)
    heard: list[dict[str, Any]] = []

    async def scenario() -> None:
        listening = asyncio.create_task(_collect(exchange, 5, heard))
        await asyncio.sleep(0.5)  # LISTEN is in place
        await asyncio.to_thread(writer.add_table, table_row())
        for seq in (1, 2):
            await asyncio.to_thread(writer.append, "t1", seq, f'"m{seq}"', 1.0)
        await asyncio.to_thread(reader.append, "t1", 3, '"mine"', 1.0)  # its own: not heard
        await asyncio.to_thread(writer.save_table, table_row(status="finished", finished=2.0))
        await asyncio.to_thread(writer.add_chat, "t1", ChatRow("N", "Ann", "hi", 3.0, 3))
        await asyncio.wait_for(listening, 30)
        await exchange.close()

    asyncio.run(scenario())
    assert [(m["k"], m.get("s")) for m in heard] == [
        ("table", None), ("move", 1), ("move", 2), ("table", None), ("chat", None),
    ]  # fmt: skip
    assert heard[1]["a"] == '"m1"'
    assert heard[4]["line"] == ["N", "Ann", "hi", 3.0, 3]
    assert {m["o"] for m in heard} == {writer.origin}
    writer.close()
    reader.close()


def test_a_lease_is_held_by_one_live_server_and_taken_over_when_it_dies(database: str) -> None:
    store = PostgresStore(database)
    for name in ("a", "b"):
        store.add_table(table_row(name))

    async def scenario() -> None:
        first = PostgresExchange(database, "one")
        second = PostgresExchange(database, "two")
        await first.open()
        await second.open()
        assert first.server != second.server
        assert await first.claim(["a"]) == {"a"}
        assert await second.claim(["a", "b"]) == {"b"}  # a is held by a live server
        assert await first.claim(["a", "b"]) == {"a"}  # still ours; b is the second's
        await first.close()  # as if it died: its lock goes with its connection
        for _ in range(100):  # the server process ends a moment after the connection
            if await second.claim(["a", "b"]) == {"a", "b"}:
                break
            await asyncio.sleep(0.05)
        assert await second.claim(["a", "b"]) == {"a", "b"}
        await second.release(["a"])
        third = PostgresExchange(database, "three")
        await third.open()
        assert await third.claim(["a", "b"]) == {"a"}
        assert await second.alive()
        await second.close()
        await third.close()
        assert not await third.alive()

    asyncio.run(scenario())
    store.close()
