"""The adapters' documentation agrees with the code, table by table."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from deepsix import Rules

from .frameworks import require

require("numpy", "openspiel")

from deepsix.adapters import actions  # noqa: E402  (after the framework check)
from deepsix.adapters.actions import ActionCodec  # noqa: E402
from deepsix.adapters.observations import ObservationLayout  # noqa: E402

DOCS = Path(__file__).resolve().parents[2] / "docs"
PAGES = DOCS / "adapters"


def table_rows(page: Path, header: str) -> list[list[str]]:
    """The cells of the markdown table whose header row starts with ``header``."""
    lines = page.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {header} |"))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def test_the_pages_are_in_the_table_of_contents() -> None:
    assert "adapters/index" in (DOCS / "index.md").read_text(encoding="utf-8")
    index = (PAGES / "index.md").read_text(encoding="utf-8")
    assert "\nopenspiel\npettingzoo\nvector\n" in index


def test_every_page_includes_the_encodings() -> None:
    for page in ("index.md", "openspiel.md", "pettingzoo.md"):
        assert "```{include} encodings.inc" in (PAGES / page).read_text(encoding="utf-8")


def test_the_action_table_is_the_encoding() -> None:
    rows = table_rows(PAGES / "encodings.inc", "ids")
    starts = [int(row[0].split("-")[0]) for row in rows]
    assert starts == [
        actions.PLAY_BASE,
        actions.GIVE_BASE,
        actions.SHOW_BASE,
        actions.MELD_BASE,
        actions.DONE_ID,
        actions.SINK_BASE,
        actions.PASS_ID,
        actions.BID_BASE,
    ]
    ends = [row[0].split("-")[1] if "-" in row[0] else row[0] for row in rows]
    assert ends[:-1] == [str(n - 1) for n in starts[1:]]
    text = (PAGES / "encodings.inc").read_text(encoding="utf-8")
    assert f"{ActionCodec.for_rules(Rules()).num_actions} actions in all" in text


def test_the_observation_table_is_the_layout() -> None:
    rows = table_rows(PAGES / "encodings.inc", "piece")
    documented = {row[0].strip("`"): (row[1], row[2], row[3]) for row in rows}
    recall = ObservationLayout.build(Rules(), perfect_recall=True)
    summary = ObservationLayout.build(Rules(), perfect_recall=False)
    expected: dict[str, tuple[str, str, str]] = {}
    for piece in (*recall.pieces, *summary.pieces):
        shape = " x ".join(map(str, piece.shape))
        offsets = []
        for layout in (recall, summary):
            names = [p.name for p in layout.pieces]
            offsets.append(str(layout.piece(piece.name).offset) if piece.name in names else "")
        expected[piece.name] = (shape, offsets[0], offsets[1])
    assert documented == expected
    order = [row[0].strip("`") for row in rows]
    assert [name for name in order if name in [p.name for p in recall.pieces]] == [
        p.name for p in recall.pieces
    ]
    text = (PAGES / "encodings.inc").read_text(encoding="utf-8")
    assert f"information state has {recall.size:,} entries, the observation {summary.size}" in text


def test_the_openspiel_parameter_table_is_complete() -> None:
    require("pyspiel", "openspiel")
    from deepsix.adapters.openspiel import DEFAULT_PARAMETERS

    rows = table_rows(PAGES / "openspiel.md", "parameter")
    documented = {row[0].strip("`"): row[1].strip("`") for row in rows}

    def shown(value: object) -> str:
        return f'"{value}"' if isinstance(value, str) else str(value)

    assert documented == {name: shown(value) for name, value in DEFAULT_PARAMETERS.items()}


def test_the_pettingzoo_argument_table_is_the_signature() -> None:
    require("pettingzoo", "pettingzoo")
    from deepsix.adapters.pettingzoo import raw_env

    rows = table_rows(PAGES / "pettingzoo.md", "argument")
    documented = [row[0].strip("`") for row in rows]
    parameters = inspect.signature(raw_env).parameters
    assert documented == list(parameters)
    for row in rows:
        default = parameters[row[0].strip("`")].default
        if isinstance(default, str | int) or default is None:
            assert row[1].strip("`") == (
                f'"{default}"' if isinstance(default, str) else str(default)
            )


@pytest.mark.parametrize("page", ["openspiel.md", "pettingzoo.md"])
def test_the_examples_the_pages_include_exist(page: str) -> None:
    text = (PAGES / page).read_text(encoding="utf-8")
    included = re.findall(r"```\{literalinclude\} (\S+)", text)
    assert included
    for name in included:
        assert (PAGES / name).is_file()


@pytest.mark.parametrize(
    ("page", "framework", "extra"),
    [
        ("openspiel.md", "pyspiel", "openspiel"),
        ("pettingzoo.md", "pettingzoo", "pettingzoo"),
        ("vector.md", "gymnasium", "pettingzoo"),
        ("kernel.md", "numpy", "openspiel"),
    ],
)
def test_the_pages_code_runs(
    page: str, framework: str, extra: str, capsys: pytest.CaptureFixture[str]
) -> None:
    require(framework, extra)
    blocks = re.findall(r"```python\n(.*?)```", (PAGES / page).read_text(encoding="utf-8"), re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, f"{page} example", "exec"), {})  # the page's own code
    assert capsys.readouterr().out
