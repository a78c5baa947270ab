"""The repository's own checks (``tools/``) catch what they exist for."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ["src", "tests", "noxfile.py", "conftest.py", "benchmarks", "docs", "tools"]


def _script(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


compile_all = _script("compile_all")
check_site = _script("check_site")


def test_no_source_warns_when_compiled() -> None:
    """An invalid escape such as ``b"\\u2660"`` in tools/fuzz.py compiled with a warning."""
    assert compile_all.problems([ROOT / path for path in SOURCES]) == []


def test_the_compile_check_catches_an_invalid_escape_in_bytes(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text('TOKEN = b"\\u2660"\n', encoding="utf-8")
    assert len(compile_all.problems([tmp_path])) == 1


def test_the_link_check_finds_missing_pages_and_anchors(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text(
        '<a href="page.html#here">ok</a> <a href="page.html#gone">anchor</a>'
        '<a href="nowhere.html">page</a> <a href="https://example.org/">external</a>'
        '<img src="_static/x.png">',
        encoding="utf-8",
    )
    (tmp_path / "page.html").write_text('<h1 id="here">Here</h1>', encoding="utf-8")
    (tmp_path / "_static").mkdir()
    (tmp_path / "_static" / "x.png").write_bytes(b"")
    assert sorted(check_site.broken_links(tmp_path)) == [
        "index.html: nowhere.html (no such file)",
        "index.html: page.html#gone (no such anchor)",
    ]


def test_the_site_check_finds_raw_rest_outside_code(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text(
        "<p>see :data:`LOWEST_BID` and ``x``</p><pre>:func:`fine in code`</pre>",
        encoding="utf-8",
    )
    found = check_site.raw_markup(tmp_path)
    assert len(found) == 2
    assert all(line.startswith("index.html: raw reST") for line in found)


_BARE_IGNORE = re.compile(r"#\s*type:\s*ignore(\[[^\]]*\])?\s*$")


def bare_ignores(paths: list[Path]) -> list[str]:
    """``# type: ignore`` comments with no reason after them on their line."""
    found = []
    for top in paths:
        for path in [top] if top.is_file() else sorted(top.rglob("*.py")):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if _BARE_IGNORE.search(line):
                    found.append(f"{path}:{number}")
    return found


def test_every_type_ignore_gives_its_reason() -> None:
    """The project's rule: no ``# type: ignore`` without a reason on its line."""
    assert bare_ignores([ROOT / path for path in SOURCES]) == []


def test_the_ignore_check_finds_a_bare_ignore(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("x: int = 'a'  # type: ignore[assignment]\ny = 1  # type: ignore  # why\n")
    assert bare_ignores([bad]) == [f"{bad}:1"]
