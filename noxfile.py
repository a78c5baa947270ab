"""Developer tasks.  ``nox`` runs the default sessions (what CI runs); ``nox -s NAME`` one.

The test suite runs twice by default: ``tests`` against the pure-Python
sources, ``tests_compiled`` against the compiled (mypyc) wheel built here
from the sdist.  Each sets ``DEEPSIX_EXPECT_BUILD``, which
``tests/test_build.py`` checks against the build actually loaded.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import nox

nox.needs_version = ">=2024.4.15"
nox.options.default_venv_backend = "uv|virtualenv"
nox.options.sessions = ["lint", "typecheck", "tests", "tests_compiled", "docs", "rl"]
nox.options.reuse_existing_virtualenvs = True

PYPROJECT = nox.project.load_toml("pyproject.toml")
ROOT = Path(__file__).parent
COMPILE = {"HATCH_BUILD_HOOK_ENABLE_MYPYC": "1"}
"""The build flag that switches the mypyc build hook on (``pyproject.toml``)."""

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
    """The whole test suite with the cheap hypothesis profile, against the pure-Python sources.

    The web extra comes along: the server's tests drive it over real sockets and,
    where a Chromium is installed, through a real browser.  So do the adapters' extras.
    """
    install(session, "test", extras=f"[web,{ADAPTER_EXTRAS}]")
    session.run(
        "pytest", "-p", "no:cacheprovider", "-n", "auto", *session.posargs,
        env={**REQUIRE_ADAPTERS, "DEEPSIX_EXPECT_BUILD": "pure"},
    )  # fmt: skip


def build_wheels(session: nox.Session, dist: Path, *, compiled: bool) -> Path:
    """Build the sdist and, from it, a wheel (compiled with mypyc or pure) into ``dist``.

    Building the wheel from the sdist keeps the compiled modules out of ``src/``.
    """
    session.run(
        "python", "-m", "build", "--installer", "uv", "--outdir", str(dist), str(ROOT),
        env=COMPILE if compiled else {},
    )  # fmt: skip
    kind = "cp3" if compiled else "py3-none-any"
    return next(dist.glob(f"deepsix-*-{kind}*.whl"))


@nox.session
def tests_compiled(session: nox.Session) -> None:
    """The whole test suite against the compiled wheel, built here and installed (not editable).

    The tests run from the checkout but import the installed package: ``src/`` is not on
    the path, and its docstring examples, which the ``tests`` session runs, are left out.
    """
    session.install("build[uv]")
    dist = Path(session.create_tmp()) / "dist"
    shutil.rmtree(dist, ignore_errors=True)
    wheel = build_wheels(session, dist, compiled=True)
    requirement = f"deepsix[web,{ADAPTER_EXTRAS}] @ {wheel.resolve().as_uri()}"
    session.install(requirement, *nox.project.dependency_groups(PYPROJECT, "test"))
    session.run(
        "pytest", "-p", "no:cacheprovider", "-n", "auto", "tests", "README.md", *session.posargs,
        env={**REQUIRE_ADAPTERS, "DEEPSIX_EXPECT_BUILD": "mypyc"},
    )  # fmt: skip


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
    """Build the sdist, the pure wheel and the compiled wheel; check them; install each wheel
    in a clean venv and report which build it loads."""
    session.install("build[uv]", "twine")
    dist = ROOT / "dist"
    shutil.rmtree(dist, ignore_errors=True)
    wheels = [build_wheels(session, dist, compiled=compiled) for compiled in (False, True)]
    session.run("twine", "check", "--strict", *map(str, dist.glob("*")))
    for wheel in wheels:
        check = Path(session.create_tmp()) / wheel.name
        session.run("python", "-m", "venv", str(check / "venv"))
        session.run(str(check / "venv/bin/pip"), "install", "-q", str(wheel), external=True)
        session.run(
            str(check / "venv/bin/python"), "-c",
            "import deepsix, deepsix.compiled as c; "
            "print(f'deepsix {deepsix.__version__}: the {c.BUILD} build imports in a clean venv')",
            external=True,
        )  # fmt: skip


@nox.session(venv_backend="virtualenv")
def rl(session: nox.Session) -> None:
    """The learning agent of issue 27 at a tiny budget: OpenSpiel's A2C, PyTorch's CPU build.

    PyTorch is installed with pip as ``torch==2.13.0``, which this machine serves from a local
    CPU-only wheel; uv (nox's default backend here) would download a CUDA build of several GB,
    so this session uses plain virtualenv and pip.  ``DEEPSIX_REQUIRE_TORCH`` makes a missing
    PyTorch an error instead of a skip.
    """
    session.install("torch==2.13.0")
    session.install("-e", ".[openspiel]", "pytest>=8", "hypothesis>=6.100", "matplotlib>=3.8")
    session.run(
        "pytest", "-p", "no:cacheprovider", "tests/adapters/test_training.py", *session.posargs,
        env={**REQUIRE_ADAPTERS, "DEEPSIX_REQUIRE_TORCH": "1", "DEEPSIX_EXPECT_BUILD": "pure"},
    )  # fmt: skip
