"""Developer tasks.  ``nox`` runs the default sessions (what CI runs); ``nox -s NAME`` one."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import nox

nox.needs_version = ">=2024.4.15"
nox.options.default_venv_backend = "uv|virtualenv"
nox.options.sessions = ["lint", "typecheck", "tests", "docs"]
nox.options.reuse_existing_virtualenvs = True

PYPROJECT = nox.project.load_toml("pyproject.toml")
ROOT = Path(__file__).parent

# The framework adapters' extras (issue 12): the tests and the type check need them, and
# DEEPSIX_REQUIRE_ADAPTERS turns a missing framework into an error instead of a skip.
ADAPTER_EXTRAS = "openspiel,pettingzoo"
REQUIRE_ADAPTERS = {"DEEPSIX_REQUIRE_ADAPTERS": "1"}


def install(session: nox.Session, *groups: str, extras: str = "") -> None:
    """Install the project (editable) and the named dependency groups."""
    requirements: list[str] = []
    for group in groups:
        requirements.extend(nox.project.dependency_groups(PYPROJECT, group))
    session.install("-e", f".{extras}", *requirements)


@nox.session
def tests(session: nox.Session) -> None:
    """The whole test suite with the cheap hypothesis profile (what CI runs).

    The web extra comes along: the server's tests drive it over real sockets and,
    where a Chromium is installed, through a real browser.  So do the adapters' extras.
    """
    install(session, "test", extras=f"[web,{ADAPTER_EXTRAS}]")
    session.run(
        "pytest", "-p", "no:cacheprovider", "-n", "auto", *session.posargs, env=REQUIRE_ADAPTERS
    )


@nox.session
def verify(session: nox.Session) -> None:
    """The deep verification run: many more hypothesis examples (12 minutes on two cores)."""
    install(session, "test")
    session.run(
        "pytest", "-p", "no:cacheprovider", "--hypothesis-profile=deep", "-n", "2",
        *session.posargs,
    )  # fmt: skip


@nox.session
def crosshair(session: nox.Session) -> None:
    """The rule functions' properties (tests/core/test_crosshair.py), run symbolically by CrossHair.

    hypothesis-crosshair pulls in z3 (~110 MB), so it lives in this session only.
    """
    install(session, "test")
    session.install("hypothesis-crosshair")
    session.run(
        "python", "-m", "pytest", "-p", "no:cacheprovider", "-p", "tools.crosshair_report",
        "--hypothesis-profile=crosshair", "-m", "crosshair", "tests/core/test_crosshair.py",
        *session.posargs,
    )  # fmt: skip


@nox.session
def fuzz(session: nox.Session) -> None:
    """Fuzz the loaders, the text parsers and the prompt for FUZZ_SECONDS (default 600).

    Coverage-guided with atheris where it installs, random mutations otherwise; not part of
    the default run.  Crashes land in fuzz-crashes/.
    """
    install(session, "test")
    try:
        session.install("atheris")
    except nox.command.CommandFailed:
        session.log("atheris does not install here: using the mutation engine")
    seconds = os.environ.get("FUZZ_SECONDS", "600")
    session.run("python", "tools/fuzz.py", "--seconds", seconds, *session.posargs)


@nox.session
def typecheck(session: nox.Session) -> None:
    """mypy --strict over the library and the tests."""
    install(session, "typecheck", extras=f"[web,{ADAPTER_EXTRAS}]")
    session.run("mypy", "--strict", "src", "tests", *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    """ruff: lint and formatting."""
    session.install(*nox.project.dependency_groups(PYPROJECT, "lint"))
    session.run(
        "ruff", "check", "src", "tests", "noxfile.py", "conftest.py", "benchmarks", "docs", "tools"
    )
    session.run(
        "ruff", "format", "--check", "src", "tests", "noxfile.py", "conftest.py", "benchmarks",
        "docs", "tools",
    )  # fmt: skip


@nox.session
def docs(session: nox.Session) -> None:
    """Build the HTML docs with warnings as errors, then run every doctest in them."""
    install(session, "docs", extras="[web]")
    out = ROOT / "docs" / "_build"
    shutil.rmtree(out, ignore_errors=True)
    session.run("sphinx-build", "-W", "--keep-going", "-b", "html", "docs", str(out / "html"))
    session.run("sphinx-build", "-W", "--keep-going", "-b", "doctest", "docs", str(out / "doctest"))


@nox.session
def build(session: nox.Session) -> None:
    """Build the sdist and the wheel, check them with twine, install the wheel in a clean venv."""
    session.install("build", "twine")
    dist = ROOT / "dist"
    shutil.rmtree(dist, ignore_errors=True)
    session.run("python", "-m", "build", "--outdir", str(dist))
    session.run("twine", "check", "--strict", *map(str, dist.glob("*")))
    check = session.create_tmp()
    session.run("python", "-m", "venv", f"{check}/venv")
    wheel = next(dist.glob("*.whl"))
    session.run(f"{check}/venv/bin/pip", "install", "-q", str(wheel), external=True)
    session.run(
        f"{check}/venv/bin/python", "-c",
        "import deepsix; print('deepsix', deepsix.__version__, 'imports from a clean venv')",
        external=True,
    )  # fmt: skip
