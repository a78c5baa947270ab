"""The pages a newcomer opens first read on GitHub too (issue 41 item 11).

GitHub renders Markdown, not MyST: a directive shows as a code block holding
its arguments, so ``{literalinclude}``, ``{include}``, ``{figure}`` and
``{image}`` show a file name where the code, the report or the picture should
be, and a ``{doc}`` role shows as markup.  These pages use plain Markdown
instead (fenced code, images, relative links), which Sphinx renders the same;
what they copy from a file (the example bots, the match report) must stay
that file's text.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final

import pytest

ROOT: Final = Path(__file__).resolve().parents[1]
DOCS: Final = ROOT / "docs"

HIDDEN_ON_GITHUB: Final = re.compile(
    r"^\s*(```+|:::+)\{(literalinclude|include|figure|image)\}", re.M
)
"""A directive whose content GitHub does not show."""


def first_pages() -> list[Path]:
    """The README, the docs' front page and every docs page the README links."""
    readme = (ROOT / "README.md").read_text("utf-8")
    linked = sorted({ROOT / link for link in re.findall(r"\]\((docs/[\w/-]+\.md)\)", readme)})
    return [ROOT / "README.md", DOCS / "index.md", *linked]


def test_the_first_pages_include_the_ones_the_issue_names() -> None:
    names = {path.relative_to(ROOT).as_posix() for path in first_pages()}
    assert {"docs/external-bots.md", "docs/matches.md", "docs/pictures.md"} <= names
    assert len(names) >= 10


@pytest.mark.parametrize("page", first_pages(), ids=lambda path: path.relative_to(ROOT).as_posix())
def test_nothing_on_the_page_is_hidden_on_github(page: Path) -> None:
    text = page.read_text("utf-8")
    assert HIDDEN_ON_GITHUB.findall(text) == []
    assert "{doc}`" not in text, "a {doc} role: use a Markdown link to the page's .md file"
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):  # links work from GitHub
        if not re.match(r"[a-z]+:", target):
            assert _there(page.parent / target), target
    for target in re.findall(r'<img [^>]*src="([^"]+)"', text):
        assert _there(page.parent / target), target


SCREENSHOTS = DOCS / "_static" / "screenshots"
"""The docs' screenshots: in the repository, left out of the sdist (pyproject.toml)."""


def _there(target: Path) -> bool:
    """Whether a linked file exists (a screenshot counts as there in an unpacked sdist,
    which leaves them all out on purpose; in the repository each one is checked)."""
    if not SCREENSHOTS.is_dir() and SCREENSHOTS in target.resolve().parents:
        return True
    return target.exists()


@pytest.mark.parametrize("name", ["minimal.py", "minimal.js", "refbot.c"])
def test_the_bot_page_shows_each_example_bot_as_it_is(name: str) -> None:
    """The page's code is the program the tests run (docs/examples/bots), line for line."""
    page = (DOCS / "external-bots.md").read_text("utf-8")
    shown = re.search(
        rf"\(examples/bots/{re.escape(name)}\):\n\n```\w+\n(.*?)^```$", page, re.S | re.M
    )
    assert shown is not None, f"the page does not show {name}"
    assert shown.group(1) == (DOCS / "examples" / "bots" / name).read_text("utf-8"), (
        f"docs/external-bots.md shows an old {name}: paste the file into the page"
    )


def test_the_match_page_shows_the_report_as_it_is() -> None:
    """The report on the page is the report file (kept equal to what ``deepsix match`` makes
    of its games by tests/arena/test_docs_report.py), its headings one level down."""
    page = (DOCS / "matches.md").read_text("utf-8")
    shown = re.search(
        r"report\.md, with its headings.*?-->\n\n(.*?)\n<!-- end of the report -->", page, re.S
    )
    assert shown is not None
    report = (DOCS / "matches" / "heuristic-vs-random" / "report.md").read_text("utf-8")
    lines = report.splitlines(keepends=True)
    assert shown.group(1) == "".join(
        "#" + line if line.startswith("#") else line for line in lines
    ), "docs/matches.md shows an old report: paste report.md into the page, headings one level down"


def test_the_pictures_page_is_a_notebook_with_a_picture_github_shows() -> None:
    """docs/pictures.md runs in a real kernel when the docs are built (myst-nb), and shows a
    picture on GitHub as well: one of the golden pictures the library must draw exactly."""
    page = (DOCS / "pictures.md").read_text("utf-8")
    assert page.startswith("---\nfile_format: mystnb\n")
    assert page.count("```{code-cell} ipython3") >= 5
    pictures = re.findall(r"!\[[^\]]+\]\(([^)]+\.svg)\)", page)
    assert pictures
    for picture in pictures:
        assert (DOCS / picture).resolve().parent == ROOT / "tests" / "svg" / "golden"
