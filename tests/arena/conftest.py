"""The C reference bot, built once per test run."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.arena.programs import C_COMPILER, build_refbot

collect_ignore = ["bots"]  # programs the tests run, not modules to import


@pytest.fixture(scope="session")
def refbot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The C reference bot, compiled (skipped, saying why, where no C compiler is found)."""
    if C_COMPILER is None:
        pytest.skip("no C compiler (cc, gcc or clang) to build the reference bot")
    return build_refbot(tmp_path_factory.mktemp("refbot"))
