"""The command line's conventions: a lazy package, plain output without rich, one-line errors
naming the option at fault before any work, exit statuses, and a reference page written from
the parser."""

from __future__ import annotations

import io
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from deepsix.cli import SavedGame, main, save_game
from deepsix.cli.app import build_parser
from deepsix.cli.reference import option_names, reference
from deepsix.cli.shared import EXIT_STATUSES
from deepsix.cli.subcommands import BUILTIN, load_subcommands
from deepsix.cli.terminal import SafeWriter, Terminal
from deepsix.cli.text import Table, Text
from deepsix.errors import SerializationError
from deepsix.play.loop import play_game

ROOT = Path(__file__).resolve().parents[2]


def python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter (``NAME=None`` in sys.modules hides a package)."""
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        timeout=120,
        env={**os.environ, **env},
        check=False,
    )


# -- the package -------------------------------------------------------------------------------


def test_importing_a_cli_module_loads_neither_rich_nor_the_subcommands() -> None:
    done = python(
        "import sys, deepsix.cli, deepsix.cli.grammar\n"
        "loaded = sorted(m for m in sys.modules if m.startswith('deepsix.cli') or m == 'rich')\n"
        "print(' '.join(loaded))\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["deepsix.cli", "deepsix.cli.grammar"]


def test_builtin_subcommands_are_named_by_full_path_inside_the_package() -> None:
    for name, path in BUILTIN.items():
        assert path == f"deepsix.cli.{name}"
    assert set(BUILTIN) <= set(load_subcommands())


# -- without rich, and on consoles that lack the suit symbols ---------------------------------


def test_the_command_works_without_rich() -> None:
    done = python(
        "import sys; sys.modules['rich'] = None\n"
        "from deepsix.cli import main\n"
        "assert main(['watch', '--seed', '3']) == 0\n"
        "assert main(['simulate', '-n', '2', '--workers', '1']) == 0\n"
        "assert 'rich' not in [m for m in sys.modules if sys.modules[m] is not None]\n"
    )
    assert done.returncode == 0, done.stderr
    assert "Score sheet" in done.stdout
    assert "Results by side" in done.stdout
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("rich", [True, False])
def test_a_console_without_suit_symbols_gets_letters(rich: bool) -> None:
    hide = "" if rich else "import sys; sys.modules['rich'] = None\n"
    code = f"{hide}from deepsix.cli.app import run; run()"
    done = subprocess.run(
        [sys.executable, "-c", code, "watch", "--seed", "1"],
        capture_output=True,
        timeout=120,
        env={**os.environ, "PYTHONIOENCODING": "cp1252"},
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode("cp1252", "replace")
    out = done.stdout.decode("cp1252")
    assert "Trick  1:" in out
    assert "♠" not in out
    assert any(f"{rank}S" in out for rank in "2345678")


def test_the_safe_writer_replaces_what_the_encoding_lacks() -> None:
    raw = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    SafeWriter(raw).write("7♠ → ♥ · ünïcode\n")
    raw.flush()
    assert raw.buffer.getvalue() == b"7S -> H - ?n?code\n"


def test_plain_text_and_tables_without_rich() -> None:
    out = io.StringIO()
    terminal = Terminal(use_rich=False, out=out)
    table = Table("Totals")
    table.add_column("team")
    table.add_column("score", justify="right")
    table.add_row("NS", Text("120", style="bold"))
    terminal.print(Text("hand ", style="bold").append("1", style="red"), table)
    assert out.getvalue() == "hand 1 Totals\nteam  score\n----  -----\nNS      120\n"


# -- options --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv", [["--no-color", "watch"], ["watch", "--no-color"], ["serve", "--no-color"]]
)
def test_no_color_anywhere_on_the_line(argv: list[str]) -> None:
    assert build_parser().parse_args(argv).no_color is True


def test_no_color_defaults_off_and_no_color_variable_is_honoured(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert build_parser().parse_args(["watch"]).no_color is False
    seen: list[bool] = []
    original = Terminal.__init__

    def spy(self: Terminal, **kwargs: object) -> None:
        original(self, **kwargs)  # type: ignore[arg-type]  # the same keywords, passed on
        seen.append(self.color)

    monkeypatch.setattr(Terminal, "__init__", spy)
    monkeypatch.setenv("NO_COLOR", "1")
    assert main(["replay", "/nonexistent/x.rec"]) == 1
    monkeypatch.delenv("NO_COLOR")
    assert main(["replay", "/nonexistent/x.rec"]) == 1
    assert seen == [False, True]


def test_every_subcommand_and_argument_has_a_description() -> None:
    for name, command in load_subcommands().items():
        assert command.help.strip(), name
        assert command.description.strip(), name
        assert command.description != command.help, f"deepsix {name} needs a DESCRIPTION"
    rows = re.findall(r"^\| `([^`]+)` \| (.*) \|$", reference(), flags=re.MULTILINE)
    assert len(rows) > 20
    assert [argument for argument, meaning in rows if not meaning.strip()] == []


# -- errors: one line on stderr, naming the option, before any work ------------------------


def one_error_line(capsys: pytest.CaptureFixture[str], *words: str) -> str:
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("deepsix"), lines
    for word in words:
        assert word in lines[0]
    assert "Traceback" not in captured.err
    return captured.out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["watch", "--seed", "x"], ["--seed", "invalid int"]),
        (["watch", "--save", "{missing}/game.rec"], ["--save", "does not exist"]),
        (["watch", "--save", "{tmp}"], ["--save", "directory"]),
        (["watch", "--bots", "oracle"], ["--bots", "oracle"]),
        (["play", "--save", "{missing}/game.rec"], ["--save", "does not exist"]),
        (["play", "--seat", "Q"], ["--seat"]),
        (["play", "--hint-bot", "oracle"], ["--hint-bot", "oracle"]),
        (["play", "--resume", "{tmp}/g.rec", "--seat", "N"], ["--resume", "--seat"]),
        (["play", "--resume", "{tmp}/g.rec", "--bots", "random"], ["--resume", "--bots"]),
        (["play", "--resume", "{tmp}/g.rec", "--seed", "4"], ["--resume", "--seed"]),
        (["simulate", "-n", "-3"], ["-n"]),
        (["simulate", "--csv", "{missing}/h.csv"], ["--csv", "does not exist"]),
        (["simulate", "--jsonl", "{tmp}"], ["--jsonl", "directory"]),
        (["serve", "--port", "99999"], ["--port", "65535"]),
        (["serve", "--db", "{tmp}"], ["--db", "directory"]),
        (["serve", "--db", "{missing}/x.sqlite3"], ["--db", "does not exist"]),
        (["serve", "--bot-delay", "-1"], ["--bot-delay"]),
        (["fly"], ["invalid choice"]),
    ],
)
def test_usage_errors_are_one_line_naming_the_option_before_any_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], words: list[str]
) -> None:
    filled = [a.format(tmp=tmp_path, missing=tmp_path / "missing") for a in argv]
    assert main(["--no-color", *filled], read=lambda: "quit") == 2
    out = one_error_line(capsys, *words)
    assert out == ""  # nothing started: no game, no simulation
    assert not (tmp_path / "missing").exists()


def test_a_busy_port_is_one_line_and_exit_status_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        argv = ["serve", "--port", str(port), "--db", str(tmp_path / "t.sqlite3")]
        assert main(argv) == 1
    one_error_line(capsys, f"--port {port}")


def test_python_m_deepsix_web_reports_a_bad_db_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "deepsix.web", "--db", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"python -m deepsix.web: error: --db {tmp_path}: is a directory, not a SQLite file"
    ]


def test_missing_extras_are_one_line_and_exit_status_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    assert main(["simulate", "-n", "1", "--scheduler", "local"]) == 1
    assert one_error_line(capsys, 'pip install "deepsix[distributed]"') == ""
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    assert main(["serve"]) == 1
    one_error_line(capsys, 'pip install "deepsix[web]"', "uvicorn")


def test_play_resume_of_a_game_not_saved_by_play_fails_with_status_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "bots.rec"
    save_game(record, SavedGame(None, ("random",) * 4, play_game(["random"] * 4, 1)))
    assert main(["play", "--resume", str(record)]) == 1
    one_error_line(capsys, "was not saved by 'deepsix play'")


def test_a_save_that_fails_names_the_file_not_a_temporary(tmp_path: Path) -> None:
    target = tmp_path / "gone" / "game.rec"
    with pytest.raises(SerializationError) as caught:
        save_game(target, SavedGame(1, ("random",) * 4, play_game(["random"] * 4, 1)))
    assert str(target) in str(caught.value)
    assert ".tmp" not in str(caught.value)


# -- the reference page ------------------------------------------------------------------------


def test_the_reference_shows_every_subcommand_option_and_exit_status() -> None:
    text = reference()
    for name in load_subcommands():
        assert f"## `deepsix {name}`" in text
    sections = text.split("\n## ")
    for command, option in option_names():
        title = f"`deepsix {command}`"
        where = next(s for s in sections if s.startswith(title)) if command else sections[0]
        assert re.search(rf"[`, ]{re.escape(option)}[` ]", where), (command, option)
    for code, _ in EXIT_STATUSES:
        assert f"| `{code}` |" in text
    assert "--hint-bot" in text


def test_the_cli_page_is_the_generated_reference() -> None:
    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert "```{deepsix-cli}" in page
    hand_written = [line for line in page.splitlines() if line.startswith("| `-")]
    assert hand_written == [], "options are documented by the generated reference only"
    assert "four subcommands" not in page
