"""Fixtures of the web tests: a real server (a subprocess) and the frame audit."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web.harness import Audit, Server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for a test module; its tables do not interfere with each other."""
    running = Server(tmp_path_factory.mktemp("server"))
    running.start()
    yield running
    running.stop()


@pytest.fixture
def fresh_server(tmp_path: Path) -> Iterator[Server]:
    """A server of one's own (to kill and restart)."""
    running = Server(tmp_path)
    running.start()
    yield running
    running.stop()


@pytest.fixture
def audit(server: Server) -> Iterator[Audit]:
    """Every frame the test's clients receive, checked for leaks when the test ends."""
    recorded = Audit()
    yield recorded
    recorded.check(server)
