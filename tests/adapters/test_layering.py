"""The adapters sit on top of the package: nothing imports them, and the core needs no framework.

These tests need neither OpenSpiel nor PettingZoo: they check what *not*
having them means.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import deepsix

PACKAGE = Path(deepsix.__file__).resolve().parent
ADAPTERS = PACKAGE / "adapters"
HEAVY = ("numpy", "pyspiel", "open_spiel", "pettingzoo", "gymnasium")


def run(code: str) -> None:
    subprocess.run([sys.executable, "-c", code], check=True)


def test_import_deepsix_loads_no_framework_and_no_adapter() -> None:
    # Every public name resolves (the lazy ones too) with the frameworks made unimportable.
    run(
        f"import sys\n"
        f"for name in {HEAVY!r}:\n"
        f"    sys.modules[name] = None\n"
        f"import deepsix\n"
        f"for name in deepsix.__all__:\n"
        f"    getattr(deepsix, name)\n"
        f"loaded = [m for m in sys.modules if sys.modules[m] is not None]\n"
        f"assert not [m for m in loaded if m.split('.')[0] in {HEAVY!r}], loaded\n"
        f"assert not [m for m in loaded if m.startswith('deepsix.adapters')], loaded\n"
    )


def test_the_adapters_package_itself_is_light() -> None:
    run(
        f"import sys\n"
        f"for name in {HEAVY!r}:\n"
        f"    sys.modules[name] = None\n"
        f"import deepsix.adapters\n"
        f"assert deepsix.adapters.__all__ == []\n"
    )


def imported_modules(path: Path) -> set[str]:
    """The absolute module names ``path`` imports (relative imports resolved)."""
    package = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts[:-1])
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parent = ".".join(parts[: len(parts) - node.level + 1])
                base = f"{parent}.{base}" if base else parent
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def test_nothing_outside_the_adapters_imports_them() -> None:
    offenders = [
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if ADAPTERS not in path.parents
        and any(name.startswith("deepsix.adapters") for name in imported_modules(path))
    ]
    assert offenders == []


def test_the_adapters_reach_the_layers_above_the_core_by_their_public_modules_only() -> None:
    # io and play by their public modules (each name from the module that defines it, not
    # through the package facade); never a private module of theirs, never the command line.
    for path in ADAPTERS.rglob("*.py"):
        for name in imported_modules(path):
            assert not name.startswith("deepsix.cli"), (path, name)
            if name.startswith(("deepsix.io", "deepsix.play")):
                assert not any(part.startswith("_") for part in name.split(".")), (path, name)


def test_the_scan_sees_imports() -> None:
    found = imported_modules(ADAPTERS / "openspiel.py")
    assert "deepsix.engine" in found
    assert "deepsix.adapters.actions" in found
    assert "pyspiel" in found
