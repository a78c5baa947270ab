"""Fixtures of the web tests: a real server (a subprocess) and the frame audit."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.web.harness import Audit, Server

if TYPE_CHECKING:
    from playwright.sync_api import Browser


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


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless, for a test module's pages (the browser tests skip
    themselves where there is none)."""
    from playwright.sync_api import sync_playwright

    from tests.web.browser import launch

    with sync_playwright() as playwright:
        running = launch(playwright)
        yield running
        running.close()
