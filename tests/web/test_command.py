"""``deepsix serve``: a subcommand the web package adds to the command line as a plug-in."""

from __future__ import annotations

import subprocess
import sys
import time
import urllib.request

import pytest

from deepsix.cli import main
from tests.web.harness import free_port


def test_serve_is_listed_with_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    assert "serve" in capsys.readouterr().out
    assert main(["serve", "--help"]) == 0
    out = capsys.readouterr().out
    for option in ("--port", "--db", "--bot-delay", "--hand-pause", "--durable"):
        assert option in out


def test_serve_without_the_web_extra_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if uvicorn were not installed
    assert main(["--no-color", "serve", "--port", "1"]) == 1
    out = capsys.readouterr().err
    assert 'pip install "deepsix[web]"' in out
    assert "uvicorn" in out


def test_the_command_line_does_not_need_the_web_extra() -> None:
    code = (
        "import sys\n"
        "for name in ('starlette', 'uvicorn', 'websockets'):\n"
        "    sys.modules[name] = None\n"
        "from deepsix.cli import main\n"
        "assert main(['--help']) == 0\n"
        "assert main(['--no-color', 'serve']) == 1\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert "serve" in result.stdout
    assert "deepsix[web]" in result.stderr


def test_deepsix_serve_serves(tmp_path: object) -> None:
    port = free_port()
    command = [sys.executable, "-m", "deepsix", "serve", "--port", str(port),
               "--db", f"{tmp_path}/t.sqlite3", "--log-level", "warning"]  # fmt: skip
    server = subprocess.Popen(command)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/bots", timeout=2) as r:
                    assert b"heuristic" in r.read()
                    break
            except OSError:
                assert time.monotonic() < deadline, "deepsix serve did not start"
                assert server.poll() is None, "deepsix serve exited"
                time.sleep(0.1)
    finally:
        server.terminate()
        server.wait(15)
    assert server.returncode == 0  # issue 39 item 7: SIGTERM is a clean stop, not -15
