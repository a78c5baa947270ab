"""The pre-commit hooks run the same ruff and mypy commands as CI's ``lint`` and ``typecheck``."""

from __future__ import annotations

import ast
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def hooks() -> dict[str, str]:
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    return {hook["id"]: hook["entry"] for repo in config["repos"] for hook in repo["hooks"]}


def noxfile_linted() -> list[str]:
    """The noxfile's ``LINTED`` list (read from its source: nox need not be installed here)."""
    tree = ast.parse((ROOT / "noxfile.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.AnnAssign | ast.Assign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "LINTED" for t in targets):
                return list(ast.literal_eval(node.value))  # type: ignore[arg-type]  # a list literal
    raise AssertionError("noxfile.py has no LINTED")


def test_the_hooks_lint_what_ci_lints() -> None:
    linted = " ".join(noxfile_linted())
    assert hooks()["ruff-check"] == f"ruff check {linted}"
    assert hooks()["ruff-format"] == f"ruff format --check {linted}"


def test_the_hooks_type_check_what_ci_does() -> None:
    source = (ROOT / "noxfile.py").read_text(encoding="utf-8")
    assert '"mypy", "--strict", "src", "tests"' in source
    assert hooks()["mypy"] == "mypy --strict src tests"
