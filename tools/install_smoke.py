"""Smoke-test an installed deepsix as a newcomer would, in the environment that runs this script.

``python tools/install_smoke.py --extras web,json`` checks every feature of
every extra: those installed (``--extras``) must work -- ``deepsix watch``, a
JSON round trip, ``deepsix serve`` answering an HTTP request, a simulation on
a local Dask cluster, an OpenSpiel and a PettingZoo step -- and those not
installed must fail cleanly: one line naming the extra to install (and exit
status 1 for a command).  ``nox -s install_matrix`` runs it in a fresh
environment per case.  Only the standard library is imported here; the
package is exercised through subprocesses of the environment's own Python.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

EXTRAS = ("json", "cli", "web", "postgres", "distributed", "openspiel", "pettingzoo", "plot")
BRINGS = {"postgres": {"web"}}
"""Extras that bring others with them (pyproject's optional dependencies)."""
PYTHON = sys.executable
BIN = Path(sys.executable).parent
DEEPSIX = str(BIN / ("deepsix.exe" if os.name == "nt" else "deepsix"))
TIMEOUT = 300


class SmokeError(Exception):
    """A check failed."""


def run(*argv: str, expect: int = 0) -> subprocess.CompletedProcess[str]:
    """Run a command of the environment; fail unless it exits with ``expect``."""
    done = subprocess.run(
        argv, capture_output=True, text=True, encoding="utf-8", errors="replace",
        timeout=TIMEOUT, check=False, env={**os.environ, "NO_COLOR": "1", "COLUMNS": "100"},
    )  # fmt: skip
    if done.returncode != expect:
        raise SmokeError(
            f"{' '.join(argv)}: exit status {done.returncode}, expected {expect}\n"
            f"{done.stdout[-1500:]}{done.stderr[-1500:]}"
        )
    return done


def python(code: str, expect: int = 0) -> subprocess.CompletedProcess[str]:
    return run(PYTHON, "-c", code, expect=expect)


def one_line_naming(text: str, extra: str) -> None:
    """``text`` (standard error, or an exception's message) is one line naming the extra."""
    lines = text.strip().splitlines()
    if len(lines) != 1 or f'pip install "deepsix[{extra}]"' not in lines[0]:
        raise SmokeError(f"expected one line naming deepsix[{extra}], got:\n{text}")


def missing(code: str, extra: str) -> None:
    """``code`` raises the library's MissingDependencyError naming ``extra``."""
    done = python(
        "import deepsix.errors\n"
        f"try:\n    {code}\n"
        "except deepsix.errors.MissingDependencyError as error:\n    print(error)\n"
        "else:\n    raise SystemExit('no MissingDependencyError')\n"
    )
    one_line_naming(done.stdout, extra)


# -- the checks, one per feature ------------------------------------------------------------


def check_command(installed: set[str]) -> None:
    listed = run(DEEPSIX, "--help").stdout
    for name in ("watch", "play", "simulate", "replay", "serve"):
        if name not in listed:
            raise SmokeError(f"deepsix --help does not list {name}")
    watched = run(DEEPSIX, "watch", "--seed", "1").stdout
    if "Score sheet" not in watched or "wins" not in watched:
        raise SmokeError("deepsix watch --seed 1 did not print a whole game")
    rich = python("from deepsix.cli.terminal import Terminal; print(Terminal().rich)").stdout
    if rich.strip() != str("cli" in installed or "distributed" in installed):
        raise SmokeError(f"the terminal uses rich: {rich.strip()}, extras {sorted(installed)}")


def check_json(installed: set[str]) -> None:
    code = "import deepsix; deepsix.to_json(deepsix.new_game())"
    if installed & {"json", "cli", "web", "distributed"}:
        python(
            "import deepsix\n"
            "state = deepsix.apply(deepsix.new_game(), deepsix.shuffled_deal(3))\n"
            "assert deepsix.from_json(deepsix.to_json(state), deepsix.GameState) == state\n"
        )
    else:
        done = python(
            f"import deepsix\ntry:\n    {code.split('; ')[1]}\n"
            "except deepsix.DeepSixError as error:\n    print(error)\n"
        )
        if "deepsix[json]" not in done.stdout or len(done.stdout.strip().splitlines()) != 1:
            raise SmokeError(f"to_json without the json extra: {done.stdout!r}")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def check_web(installed: set[str]) -> None:
    if "web" not in installed:
        one_line_naming(run(DEEPSIX, "serve", expect=1).stderr, "web")
        one_line_naming(run(PYTHON, "-m", "deepsix.web", expect=1).stderr, "web")
        missing("import deepsix.web.app", "web")
        return
    port = _free_port()
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "smoke.sqlite3")
        argv = [DEEPSIX, "serve", "--port", str(port), "--db", db, "--log-level", "warning"]
        server = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    url = f"http://127.0.0.1:{port}/api/bots"
                    with urllib.request.urlopen(url, timeout=5) as answer:
                        if b"heuristic" not in answer.read():
                            raise SmokeError("GET /api/bots does not list the heuristic bot")
                        break
                except OSError:
                    if server.poll() is not None or time.monotonic() > deadline:
                        output = server.stdout.read().decode() if server.stdout else ""
                        raise SmokeError(f"deepsix serve did not answer:\n{output}") from None
                    time.sleep(0.2)
        finally:
            server.terminate()
            server.wait(30)


def check_postgres(installed: set[str]) -> None:
    """The PostgreSQL back end: psycopg (with its libpq) imports; ``deepsix serve`` names an
    unreachable database in one line, without its password (no server is started here)."""
    url = "postgresql://smoke:not-shown@127.0.0.1:1/none"
    if "postgres" not in installed:
        missing("import deepsix.web.store.postgres", "postgres")
        if "web" in installed:
            one_line_naming(run(DEEPSIX, "serve", "--db", url, expect=1).stderr, "postgres")
        return
    python("import deepsix.web.store.postgres, psycopg; psycopg.pq.version()")
    if "web" in installed:
        error = run(DEEPSIX, "serve", "--db", url, expect=2).stderr
        lines = error.strip().splitlines()
        if len(lines) != 1 or "not-shown" in error or "postgresql://smoke@127.0.0.1:1" not in error:
            raise SmokeError(f"deepsix serve --db on an unreachable database said:\n{error}")


def check_distributed(installed: set[str]) -> None:
    argv = [DEEPSIX, "simulate", "-n", "2", "--workers", "1", "--scheduler", "local"]
    if "distributed" in installed:
        out = run(*argv, "--no-progress").stdout
        if "local Dask cluster" not in out:
            raise SmokeError("deepsix simulate --scheduler local did not use Dask")
    else:
        one_line_naming(run(*argv, expect=1).stderr, "distributed")


def check_openspiel(installed: set[str]) -> None:
    if "openspiel" not in installed:
        missing("import deepsix.adapters.openspiel", "openspiel")
        return
    python(
        "import pyspiel, deepsix.adapters.openspiel\n"
        "game = pyspiel.load_game('python_deep_six')\n"
        "state = game.new_initial_state()\n"
        "while state.is_chance_node():\n"
        "    state.apply_action(state.chance_outcomes()[0][0])\n"
        "state.apply_action(state.legal_actions()[0])\n"
        "assert not state.is_terminal()\n"
    )


def check_pettingzoo(installed: set[str]) -> None:
    if "pettingzoo" not in installed:
        missing("import deepsix.adapters.pettingzoo", "pettingzoo")
        return
    python(
        "from deepsix.adapters.pettingzoo import env\n"
        "table = env()\n"
        "table.reset(seed=1)\n"
        "observation, *_ = table.last()\n"
        "table.step(int(observation['action_mask'].argmax()))\n"
    )


def check_plot(installed: set[str]) -> None:
    """The plots draw a game's scores with matplotlib; without it, one line naming the extra."""
    code = "import deepsix; from deepsix import plot; plot.score_progression(deepsix.new_game())"
    if "plot" not in installed:
        missing(code, "plot")
        return
    python("import matplotlib; matplotlib.use('Agg')\n" + code)


CHECKS: dict[str, Callable[[set[str]], None]] = {
    "command": check_command,
    "json": check_json,
    "web": check_web,
    "postgres": check_postgres,
    "distributed": check_distributed,
    "openspiel": check_openspiel,
    "pettingzoo": check_pettingzoo,
    "plot": check_plot,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--extras",
        default="",
        help="the extras installed, comma-separated (none: the bare package)",
    )
    args = parser.parse_args(argv)
    installed = {extra for extra in args.extras.split(",") if extra}
    unknown = installed - set(EXTRAS)
    if unknown:
        parser.error(f"unknown extras: {', '.join(sorted(unknown))}")
    for extra in list(installed):
        installed |= BRINGS.get(extra, set())
    failures = []
    for name, check in CHECKS.items():
        started = time.monotonic()
        try:
            check(installed)
        except (SmokeError, subprocess.TimeoutExpired) as error:
            failures.append(f"{name}: {error}")
            print(f"  FAIL {name} ({time.monotonic() - started:.1f} s)", flush=True)
        else:
            print(f"  ok   {name} ({time.monotonic() - started:.1f} s)", flush=True)
    for failure in failures:
        print(failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
