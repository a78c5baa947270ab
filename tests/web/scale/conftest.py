"""Fixtures of the scale tests: one real PostgreSQL server per test process."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.web.scale.postgres import PostgresCluster, require_bindir, require_driver


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresCluster]:
    """A PostgreSQL server of the test process's own, stopped and removed at the end."""
    cluster = PostgresCluster(require_bindir())
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="session")
def _scratch(postgres: PostgresCluster) -> str:
    return postgres.database()


@pytest.fixture
def database(_scratch: str) -> str:
    """An empty database of that server (the test process's own, emptied): its URL.

    Emptying one (dropping its schemas) takes milliseconds where making a
    database takes seconds on a loaded machine.
    """
    with require_driver().connect(_scratch, autocommit=True) as db:
        db.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        db.execute("DROP SCHEMA IF EXISTS deepsix CASCADE")
        db.execute("DROP SCHEMA public CASCADE")
        db.execute("CREATE SCHEMA public")
    return _scratch
