"""A real PostgreSQL server for the tests, started from the machine's binaries and removed after.

:class:`PostgresCluster` runs ``initdb`` once per machine and version into a
template directory (it takes seconds), copies it for each cluster, and
starts ``postgres`` with ``pg_ctl`` on a free port of 127.0.0.1, its socket
in its own directory.  PostgreSQL refuses to run as root: as root (CI, this
machine's sessions) every command runs as the ``postgres`` user with
``runuser``.  The binaries are found in ``DEEPSIX_PG_BINDIR``, Debian's
``/usr/lib/postgresql/*/bin``, or on the ``PATH``.

Without binaries the PostgreSQL tests are skipped with the reason shown,
unless ``DEEPSIX_REQUIRE_POSTGRES`` is set (nox sets it, so CI fails instead).
"""

from __future__ import annotations

import contextlib
import importlib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from types import ModuleType

import pytest

REQUIRE = "DEEPSIX_REQUIRE_POSTGRES"
FAST = ("-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off")
"""Settings for a test cluster whose data nobody keeps (a server's process can still be killed:
what it committed stays; only a power cut would lose it)."""


def bindir() -> Path | None:
    """Where ``initdb``, ``pg_ctl`` and ``postgres`` are, or ``None``."""
    given = os.environ.get("DEEPSIX_PG_BINDIR")
    if given:
        return Path(given)
    debian = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda path: int(path.parent.parent.name) if path.parent.parent.name.isdigit() else 0,
    )
    if debian:
        return debian[-1].parent
    found = shutil.which("initdb")
    return Path(found).parent if found else None


def require_driver() -> ModuleType:
    """psycopg; a skip of the calling test module (or, under ``DEEPSIX_REQUIRE_POSTGRES``, an
    import error) without it, so a contributor without the postgres extra sees why."""
    if os.environ.get(REQUIRE):
        return importlib.import_module("psycopg")
    module: ModuleType = pytest.importorskip(
        "psycopg", reason='the PostgreSQL tests need psycopg: pip install "deepsix[postgres]"'
    )
    return module


def require_bindir() -> Path:
    """The binaries; a skip (or, under ``DEEPSIX_REQUIRE_POSTGRES``, a failure) without them."""
    found = bindir()
    if found is None or not (found / "pg_ctl").exists():
        reason = (
            "PostgreSQL's server binaries (initdb, pg_ctl) are not installed:"
            " apt-get install postgresql, or set DEEPSIX_PG_BINDIR"
        )
        if os.environ.get(REQUIRE):
            pytest.fail(reason)
        pytest.skip(reason)
    return found


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PostgresCluster:
    """One throwaway PostgreSQL server: :meth:`start`, :meth:`database`, :meth:`stop`."""

    def __init__(self, binaries: Path, options: tuple[str, ...] = FAST) -> None:
        self.bin = binaries
        self.options = options
        self.root = Path(tempfile.mkdtemp(prefix="deepsix-pg-"))
        self.data = self.root / "data"
        self.port = 0
        self.user: pwd.struct_passwd | None = None
        if os.geteuid() == 0:
            try:
                self.user = pwd.getpwnam("postgres")
            except KeyError:
                pytest.fail("running as root, PostgreSQL needs a 'postgres' user to run as")
            os.chown(self.root, self.user.pw_uid, self.user.pw_gid)
        self._made = 0

    def _run(self, *command: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        prefix = ["runuser", "-u", "postgres", "--"] if self.user is not None else []
        return subprocess.run(
            [*prefix, *command], capture_output=True, text=True, timeout=timeout, check=False
        )

    def _template(self) -> Path:
        """``initdb``'s output for these binaries, made once per machine."""
        version = self._run(str(self.bin / "postgres"), "--version").stdout.split()[-1]
        owner = "root" if self.user is None else "postgres"
        template = Path(tempfile.gettempdir()) / f"deepsix-pg-template-{version}-{owner}"
        if (template / "PG_VERSION").exists():
            return template
        scratch = self.root / "template"
        done = self._run(
            str(self.bin / "initdb"), "-D", str(scratch), "-U", "postgres", "--auth", "trust",
            "-E", "UTF8", "--no-sync", "--no-instructions",
        )  # fmt: skip
        if done.returncode:
            raise RuntimeError(f"initdb failed: {done.stderr[-2000:]}")
        with contextlib.suppress(OSError):  # another test process made it first: use theirs
            scratch.rename(template)
        shutil.rmtree(scratch, ignore_errors=True)
        return template

    def start(self) -> None:
        template = self._template()
        copied = subprocess.run(
            ["cp", "-a", str(template), str(self.data)], capture_output=True, text=True, check=False
        )
        if copied.returncode:
            raise RuntimeError(f"copying the cluster failed: {copied.stderr}")
        for _ in range(5):
            self.port = free_port()
            started = self._run(
                str(self.bin / "pg_ctl"), "-D", str(self.data), "-w", "-t", "60", "-s",
                "-l", str(self.root / "log"), "-o",
                " ".join(
                    ("-p", str(self.port), "-k", str(self.root), "-c",
                     "listen_addresses=127.0.0.1", "-c", "max_connections=300", *self.options)
                ),
                "start",
            )  # fmt: skip
            if started.returncode == 0:
                return
            time.sleep(0.2)  # the port was taken meanwhile: another one
        log = (self.root / "log").read_text(errors="replace")[-2000:]
        raise RuntimeError(f"PostgreSQL did not start: {started.stderr} {log}")

    @property
    def url(self) -> str:
        """The server's maintenance database."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def database(self, name: str | None = None) -> str:
        """A new, empty database; its URL."""
        import psycopg

        self._made += 1
        name = name or f"test_{os.getpid()}_{self._made}"
        with psycopg.connect(self.url, autocommit=True) as db:
            db.execute(f'CREATE DATABASE "{name}"')
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        """Stop the server at once and remove its files."""
        if (self.data / "postmaster.pid").exists():
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-w", "-s", "-m",
                      "immediate", "stop")  # fmt: skip
        shutil.rmtree(self.root, ignore_errors=True)
