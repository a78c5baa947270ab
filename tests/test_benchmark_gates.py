"""A benchmark reports figures and exits 0; a pass/fail gate is behind an explicit flag."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def bench(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(BENCHMARKS / argv[0]), *argv[1:]],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.mark.parametrize(
    ("argv", "gate"),
    [
        (("evaluate_bots.py", "-n", "4", "--workers", "1", "--only", "heuristic vs random"),
         ("--require",)),
        (("random_hands.py", "--hands", "5", "--runs", "1"), ("--target", "1e12")),
    ],
)  # fmt: skip
def test_figures_by_default_and_a_gate_only_when_asked(
    argv: tuple[str, ...], gate: tuple[str, ...]
) -> None:
    report = bench(*argv)
    assert report.returncode == 0, report.stdout + report.stderr
    assert "NOT met" not in report.stdout
    assert report.stdout.strip()
    gated = bench(*argv, *gate)
    assert gated.returncode == 1, gated.stdout + gated.stderr
    assert "not met" in gated.stdout
