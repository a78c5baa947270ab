"""Every optional dependency is behind its extra: without it, one line names the extra to install.

The install matrix (``nox -s install_matrix``) checks the same with real installs; these tests
hide packages from a fresh interpreter (``sys.modules[name] = None``) so they run anywhere.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
RUNTIME = {"deepsix", "attrs", "attr", "__future__"}
"""What every install has: the package itself and its one runtime dependency."""

LAZY_AFTER_A_CHECK = {
    ("deepsix.cli.terminal", "rich"): "imported only when rich_available() said rich is there",
    ("deepsix.io.codec", "cattrs"): "imported only after _build_converter() found cattrs",
}
"""Imports of optional packages that are not guarded where they stand, and why that is safe."""


def _modules() -> list[tuple[str, Path]]:
    found = []
    for path in sorted((SRC / "deepsix").rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found.append((".".join(parts), path))
    return found


def _guarded(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """Inside ``try: ... except ImportError`` or ``if TYPE_CHECKING:``."""
    while node in parents:
        parent = parents[node]
        if isinstance(parent, ast.Try) and node in parent.body:
            for handler in parent.handlers:
                names = ast.unparse(handler.type) if handler.type is not None else ""
                if "ImportError" in names or "ModuleNotFoundError" in names:
                    return True
        if isinstance(parent, ast.If) and "TYPE_CHECKING" in ast.unparse(parent.test):
            return True
        node = parent
    return False


def test_every_optional_import_is_guarded() -> None:
    unguarded = []
    for module, path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                roots = [alias.name.partition(".")[0] for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                roots = [node.module.partition(".")[0]]
            else:
                continue
            for root in roots:
                if root in RUNTIME or root in sys.stdlib_module_names:
                    continue
                if _guarded(node, parents) or (module, root) in LAZY_AFTER_A_CHECK:
                    continue
                unguarded.append(f"{path.relative_to(SRC)}:{node.lineno}: {root}")
    assert unguarded == [], f"optional imports without a missing-extra message: {unguarded}"


@pytest.mark.parametrize(
    ("hidden", "code", "extra"),
    [
        ("numpy", "import deepsix.adapters.openspiel", "openspiel"),
        ("pyspiel", "import deepsix.adapters.openspiel", "openspiel"),
        ("numpy", "import deepsix.adapters.pettingzoo", "pettingzoo"),
        ("pettingzoo", "import deepsix.adapters.pettingzoo", "pettingzoo"),
        ("starlette", "import deepsix.web.app", "web"),
        ("uvicorn", "from deepsix.web.server import serve; serve()", "web"),
        ("cattrs", "import deepsix; deepsix.to_json(deepsix.Card('7S'))", "json"),
    ],
)
def test_a_missing_extra_is_one_line_naming_it(hidden: str, code: str, extra: str) -> None:
    script = (
        f"import sys; sys.modules[{hidden!r}] = None\n"
        "import deepsix.errors\n"
        "try:\n"
        + "".join(f"    {line}\n" for line in code.split("; "))
        + "except deepsix.DeepSixError as error:\n"
        "    assert isinstance(error, ImportError), type(error)\n"
        "    print(error)\n"
        "else:\n"
        "    raise SystemExit('no error')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 1
    assert f"deepsix[{extra}]" in lines[0]


@pytest.mark.parametrize(
    ("hidden", "code", "extra"),
    [
        ("numpy", "import deepsix.adapters.openspiel", "openspiel"),
        ("gymnasium", "import deepsix.adapters.pettingzoo", "pettingzoo"),
        ("starlette", "import deepsix.web.app", "web"),
        ("cattrs", "import deepsix; deepsix.to_json(deepsix.Card('7S'))", "json"),
    ],
)
def test_uncaught_the_traceback_is_short_and_ends_naming_the_extra(
    hidden: str, code: str, extra: str
) -> None:
    """No chained traceback ("the above exception was the direct cause ..."): one error."""
    script = f"import sys; sys.modules[{hidden!r}] = None\n" + code.replace("; ", "\n")
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 1
    assert done.stderr.count("Traceback") == 1, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.partition(": ")[0].endswith(".MissingDependencyError"), last
    assert f'pip install "deepsix[{extra}]"' in last


@pytest.mark.parametrize(
    ("hidden", "argv", "extra"),
    [
        ("uvicorn", ["-m", "deepsix.web"], "web"),
        ("starlette", ["-m", "deepsix", "serve"], "web"),
        (
            "distributed",
            ["-m", "deepsix", "simulate", "-n", "1", "--scheduler", "local"],
            "distributed",
        ),
    ],
)
def test_a_command_without_its_extra_exits_1_with_one_line(
    hidden: str, argv: list[str], extra: str
) -> None:
    code = f"import runpy, sys; sys.modules[{hidden!r}] = None; sys.argv = {argv[1:]!r}; "
    code += f"runpy.run_module({argv[1]!r}, run_name='__main__', alter_sys=True)"
    argv_for = [sys.executable, "-c", code]
    done = subprocess.run(argv_for, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 1, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert f'pip install "deepsix[{extra}]"' in lines[0]


def _extras() -> dict[str, list[str]]:
    import tomllib

    project = tomllib.loads((SRC.parent / "pyproject.toml").read_text("utf-8"))["project"]
    return dict(project["optional-dependencies"])


def _self_extras(requirements: list[str]) -> set[str]:
    """The package's own extras that a list of requirements pulls in (``deepsix[a,b]``)."""
    named: set[str] = set()
    for requirement in requirements:
        if requirement.startswith("deepsix["):
            named |= {part.strip() for part in requirement[8:].split("]")[0].split(",")}
    return named


def test_all_brings_every_extra_and_postgres_the_web_table() -> None:
    """``pip install "deepsix[all]"`` installs every extra; ``[postgres]`` alone runs
    ``deepsix serve --db postgresql://...`` (it needs the web table)."""
    extras = _extras()
    assert _self_extras(extras["all"]) == set(extras) - {"all"}
    assert "web" in _self_extras(extras["postgres"])


def test_the_readme_says_what_the_test_command_needs() -> None:
    """The test command's machine needs are said next to it, and the list of the default
    sessions names each of them (rl included)."""
    readme = (SRC.parent / "README.md").read_text("utf-8")
    command = readme.index('pip install -q "nox[uv]" && .venv/bin/nox')
    after = readme[command : command + 600]
    for need in ("postgresql", "chromium", "PyTorch", "skip"):
        assert need in after, need
    sessions = readme[readme.index("`nox -l` lists the sessions") :].split("the default set")[0]
    noxfile = (SRC.parent / "noxfile.py").read_text("utf-8")
    listed = noxfile.split("nox.options.sessions = [", 1)[1].split("]", 1)[0]
    for name in (part.strip().strip('",') for part in listed.split()):
        if name:
            assert f"`{name}`" in sessions, name


def test_the_readme_links_the_docs() -> None:
    """Every docs page the README names is a link that works on GitHub (a relative path that
    exists), and the built site's address (pyproject's Documentation) is there."""
    import re
    import tomllib

    root = SRC.parent
    readme = (root / "README.md").read_text("utf-8")
    assert not re.findall(r"`docs/[\w/-]+\.md`", readme), "a docs page named, not linked"
    links = re.findall(r"\]\((docs/[\w/-]+\.md)\)", readme)
    assert len(links) >= 8
    for link in links:
        assert (root / link).is_file(), link
    urls = tomllib.loads((root / "pyproject.toml").read_text("utf-8"))["project"]["urls"]
    assert urls["Documentation"] in readme


def test_the_bot_page_says_where_make_bot_is_and_what_follows_a_refusal() -> None:
    page = (SRC.parent / "docs" / "external-bots.md").read_text("utf-8")
    import re

    where = re.search(r"`from (deepsix[\w.]*) import make_bot`", page)
    assert where is not None
    module = __import__(where.group(1), fromlist=["make_bot"])
    assert callable(module.make_bot)
    assert "After a `refused`, send another `action` with the same `id`" in page
