"""A pytest plugin for ``nox -s crosshair``: report what CrossHair proved about each test.

Under hypothesis's CrossHair backend a test ends in one of three ways:

* **verified** -- CrossHair explored every path through the test and the
  code it calls and found no counterexample: the property is proved for
  every input the strategies allow;
* **exhausted** -- CrossHair ran out of paths it could explore exactly
  (some path used a feature it cannot model, or it stopped discovering
  new code), and hypothesis finished the budget with random examples;
* **budget spent** -- ``max_examples`` ran out while CrossHair still had
  paths to explore.

Hypothesis does not print which one happened, so this plugin records it
from the engine (its ``_verified_by_backend`` attribute and each test
case's ``cannot_proceed_scope``, read defensively: they are private) and
prints a table at the end of the session.  The nox session loads it
with ``-p tests.crosshair_report``; the normal test run never does.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis.internal.conjecture import engine

_VERDICTS: dict[str, str] = {}
_CURRENT: list[str] = []


_SWITCHED_AT: dict[int, int] = {}
"""Runner id -> the test case at which the backend handed over to hypothesis's own."""


def _patched_test_function(original: Any) -> Any:
    def test_function(self: Any, data: Any) -> None:
        try:
            original(self, data)
        finally:
            if getattr(data, "cannot_proceed_scope", None) in ("verified", "exhausted"):
                _SWITCHED_AT.setdefault(id(self), self.call_count)

    return test_function


def _patched_run(original: Any) -> Any:
    def run(self: Any) -> None:
        original(self)
        if not _CURRENT:
            return
        at = _SWITCHED_AT.pop(id(self), None)
        if getattr(self, "_verified_by_backend", None):
            verdict = f"verified: every path explored after {at} test cases"
        elif at is not None:
            verdict = f"exhausted after {at} test cases; then {self.call_count - at} random ones"
        else:
            verdict = f"budget spent: paths left unexplored after {self.call_count} test cases"
        _VERDICTS[_CURRENT[-1]] = verdict

    return run


def pytest_configure(config: pytest.Config) -> None:
    """Wrap the hypothesis engine so that each test's ending is recorded."""
    runner = engine.ConjectureRunner
    runner.test_function = _patched_test_function(runner.test_function)  # type: ignore[method-assign]  # a report-only wrapper
    runner.run = _patched_run(runner.run)  # type: ignore[method-assign]  # a report-only wrapper


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> object:
    """Remember which test the engine is running for."""
    _CURRENT.append(item.nodeid)
    try:
        return (yield)
    finally:
        _CURRENT.pop()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Print the verdicts."""
    terminalreporter.section("CrossHair verdicts")
    for nodeid, verdict in sorted(_VERDICTS.items()):
        terminalreporter.write_line(f"{nodeid.rsplit('::', 1)[-1]}: {verdict}")
