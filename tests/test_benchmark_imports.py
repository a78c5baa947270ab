"""The benchmarks reach deepsix by its public paths: nothing they import is deprecated.

Each benchmark's deepsix imports (at any depth: module level, inside functions) run in a
fresh interpreter with ``-W error::DeprecationWarning``, and the quickest benchmark runs
whole under the same flag.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
STRICT = (sys.executable, "-W", "error::DeprecationWarning")


def deepsix_imports(path: Path) -> list[str]:
    """The source of every import statement of ``path`` that names a deepsix module."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        else:
            continue
        if any(name == "deepsix" or name.startswith("deepsix.") for name in names):
            found.append(ast.unparse(node))
    return found


def test_most_benchmarks_use_the_library_directly() -> None:
    """The skip below is the exception: most benchmarks import deepsix themselves."""
    files = sorted(BENCHMARKS.glob("*.py"))
    assert sum(bool(deepsix_imports(path)) for path in files) >= len(files) - 2


def test_the_scanner_finds_imports_at_every_depth() -> None:
    found = deepsix_imports(BENCHMARKS / "adapters_speed.py")
    assert "import deepsix.compiled" in found
    assert "from deepsix.adapters.vector import DeepSixVectorEnv" in found  # inside a function


@pytest.mark.parametrize("name", sorted(path.name for path in BENCHMARKS.glob("*.py")))
def test_a_benchmark_imports_nothing_deprecated(name: str) -> None:
    statements = deepsix_imports(BENCHMARKS / name)
    if not statements:  # it drives deepsix from outside (a server, a subprocess)
        pytest.skip(f"{name} imports nothing from deepsix")
    result = subprocess.run(
        [*STRICT, "-c", "\n".join(statements)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    missing = re.search(
        r"ModuleNotFoundError: No module named '([\w.]+)'|MissingDependencyError: .*\((\w+) is not",
        result.stderr,
    )
    if result.returncode and missing:
        module = missing.group(1) or missing.group(2)
        if not module.startswith("deepsix"):
            pytest.skip(f"{name} needs {module}, which is not installed here")
    assert result.returncode == 0, result.stderr


def test_a_benchmark_runs_with_deprecations_as_errors() -> None:
    result = subprocess.run(
        [*STRICT, str(BENCHMARKS / "random_hands.py"), "--hands", "3", "--runs", "1"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "hands" in result.stdout
