"""Mutation check of the rule modules (issue 3): how many mutants does the verification suite kill?

Run it by hand (it takes about an hour on two cores; it is not a test)::

    .venv/bin/python tools/mutation/run_mutants.py --workdir /tmp/mutwork --jobs 2

It never touches the source tree: everything happens in copies under
``--workdir``.  The steps:

1. copy ``src/`` and the verification suite's test files into the work
   directory, with a pytest plugin registering a ``mutation`` hypothesis
   profile (fixed examples, no shrinking, no database) so runs are
   reproducible and failures stop fast;
2. let ``mutmut run`` generate the mutants of ``tricks``, ``melds``,
   ``scoring`` and ``bidding`` and record which tests reach each function
   (its own run of the mutants is then interrupted: mutmut forks its
   workers from a process that has already run the suite, so module-level
   caches -- ``legal_calls``' table, the meld tables built at import -- are
   warm and mutants behind them look like survivors);
3. for every mutant, ``mutmut apply`` it to a private copy of ``src/`` and
   run the tests that reach it (or the whole suite) in a *fresh* Python
   process with ``pytest -x``, under a time limit;
4. write one JSON line per mutant to ``results.jsonl`` and print a summary
   with the survivors' diffs.

A second stage faces the survivors with more tests: ``--reuse
--survivors-of results.jsonl --results survivors.jsonl --whole-suite
--with-unit-tests`` runs each survivor against the verification suite plus
the core modules' unit tests (``test_melds.py``, ``test_engine.py``, ...).

A mutant is *killed* when pytest fails, *timed out* when it runs past the
limit (counted as killed: the suite noticed), and *survived* when every
selected test passes.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parents[2]
MODULES: Final = ("tricks", "melds", "scoring", "bidding")
TEST_FILES: Final = (
    "test_examples_of_play.py",
    "test_crosshair.py",
    "test_exhaustive.py",
    "test_meld_optimality.py",
    "test_legality.py",
    "test_invariants.py",
    "test_stateful.py",
)
"""The verification suite, cheapest first (``-x`` stops at the first failure)."""
UNIT_TEST_FILES: Final = (
    "test_cards.py",
    "test_rules.py",
    "test_melds.py",
    "test_tricks.py",
    "test_scoring.py",
    "test_state.py",
    "test_engine.py",
    "test_full_game.py",
)
"""The unit tests of the core modules: ``--with-unit-tests`` adds them to the whole suite."""
SHORT_SELECTION: Final = 10
"""A mutant whose function fewer tests reach than this is also run against the whole suite."""
SUPPORT_FILES: Final = (
    "__init__.py",
    "conftest.py",
    "strategies.py",
    "checks.py",
    "invariants_index.py",
    "scenarios.py",
)
PROGRESS: Final = re.compile(r"\d+/\d+ +\S+ \d+")
"""mutmut's progress line: it has started running mutants, so generation and stats are done."""
PLUGIN: Final = '''"""The mutation run's hypothesis profile: fixed examples, no shrinking."""
from hypothesis import HealthCheck, Phase, settings

settings.register_profile(
    "mutation",
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow],
)
'''
PYPROJECT: Final = """[project]
name = "deepsix-mutation-work"
version = "0"

[tool.pytest.ini_options]
testpaths = ["tests"]
markers = ["crosshair: symbolic checks"]

[tool.mutmut]
source_paths = ["src"]
only_mutate = [{modules}]
pytest_add_cli_args_test_selection = ["tests/"]
"""


def mutmut(workdir: Path, *args: str, timeout: float | None = None) -> str:
    """Run a mutmut command in ``workdir`` and return its output."""
    executable = Path(sys.executable).with_name("mutmut")
    done = subprocess.run(
        [str(executable), *args],
        cwd=workdir,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    return done.stdout + done.stderr


def prepare(workdir: Path) -> None:
    """Copy the sources and tests into ``workdir`` and generate the mutants there."""
    if workdir.resolve() == ROOT or ROOT in workdir.resolve().parents:
        raise SystemExit("the work directory must lie outside the source tree")
    shutil.rmtree(workdir, ignore_errors=True)
    (workdir / "tests").mkdir(parents=True)
    shutil.copytree(ROOT / "src", workdir / "src", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(
        ROOT / "src", workdir / "pristine", ignore=shutil.ignore_patterns("__pycache__")
    )
    for name in (*SUPPORT_FILES, *TEST_FILES):
        shutil.copy2(ROOT / "tests" / name, workdir / "tests" / name)
    (workdir / "mutation_profile.py").write_text(PLUGIN, encoding="utf-8")
    modules = ", ".join(f'"src/deepsix/{module}.py"' for module in MODULES)
    (workdir / "pyproject.toml").write_text(PYPROJECT.format(modules=modules), encoding="utf-8")
    # mutmut generates the mutants and collects its test statistics, then starts running
    # mutants; stop it as soon as the first results appear.
    executable = Path(sys.executable).with_name("mutmut")
    log = (workdir / "mutmut-generate.log").open("w", encoding="utf-8")
    process = subprocess.Popen(
        [str(executable), "run", "--max-children", "1"],
        cwd=workdir,
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONPATH": str(workdir)},
    )
    try:
        while process.poll() is None:
            time.sleep(5)
            if any(workdir.glob("mutants/src/deepsix/*.meta")) and PROGRESS.search(_tail(workdir)):
                break
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(timeout=60)
        log.close()


def _tail(workdir: Path) -> str:
    return (workdir / "mutmut-generate.log").read_text(encoding="utf-8", errors="replace")[-400:]


def mutant_names(workdir: Path) -> list[str]:
    """Every mutant mutmut generated, from its meta files."""
    names: list[str] = []
    for meta in sorted(workdir.glob("mutants/src/deepsix/*.meta")):
        names.extend(json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"])
    return names


def run_mutant(
    workdir: Path,
    slot: Path,
    name: str,
    limit: float,
    *,
    whole_suite: bool = False,
    test_files: tuple[str, ...] = TEST_FILES,
) -> dict[str, object]:
    """Apply one mutant in ``slot`` (a private copy of the work directory) and run its tests."""
    for other in MODULES:  # undo whatever an interrupted earlier run may have left behind
        shutil.copy2(workdir / "pristine" / "deepsix" / f"{other}.py", slot / "src" / "deepsix")
    module = name.split(".")[1]
    source = slot / "src" / "deepsix" / f"{module}.py"
    pristine = workdir / "pristine" / "deepsix" / f"{module}.py"
    mutmut(slot, "apply", name, timeout=120)
    diff = "".join(
        difflib.unified_diff(
            pristine.read_text(encoding="utf-8").splitlines(keepends=True),
            source.read_text(encoding="utf-8").splitlines(keepends=True),
            n=0,
        )
    )
    selected = [
        line.strip()
        for line in mutmut(workdir, "tests-for-mutant", name, timeout=120).splitlines()
        if line.startswith("tests/") and not whole_suite
    ]
    everything = [f"tests/core/{file}" for file in test_files]
    env = {**os.environ, "PYTHONPATH": f"{slot / 'src'}{os.pathsep}{slot}"}
    env["HYPOTHESIS_PROFILE"] = "mutation"
    started = time.monotonic()
    # mutmut's selection misses tests that reach a function only at import time (the meld
    # tables build theirs from a handful of tests' imports), so a mutant that survives a
    # short selection faces the whole suite too.
    plans = (selected, everything) if 0 < len(selected) < SHORT_SELECTION else (everything,)
    if len(selected) >= SHORT_SELECTION:
        plans = (selected,)
    for targets in plans:
        command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider"]
        command += ["-p", "mutation_profile", *targets]
        try:
            done = subprocess.run(
                command,
                cwd=slot,
                env=env,
                capture_output=True,
                text=True,
                timeout=limit,
                check=False,
            )
            # 1: a test failed; 2, 3, 4: the mutant broke the import or collection: all kills.
            code: int | None = done.returncode
            status = {0: "survived", 5: "no tests"}.get(done.returncode, "killed")
            tail = done.stdout[-600:]
        except subprocess.TimeoutExpired:
            code, status, tail = None, "timeout", ""
        if status != "survived":
            break
    shutil.copy2(pristine, source)
    return {
        "mutant": name,
        "status": status,
        "exit_code": code,
        "seconds": round(time.monotonic() - started, 1),
        "tests": len(targets),
        "whole_suite": targets == everything,
        "diff": diff,
        "tail": tail if status != "timeout" else "",
    }


def main() -> None:
    """Parse arguments, prepare, run every mutant, summarise."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/deepsix-mutation"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--limit", type=float, default=400.0, help="seconds per mutant")
    parser.add_argument("--reuse", action="store_true", help="keep an already prepared workdir")
    parser.add_argument("--only", nargs="*", default=None, help="mutant names to run")
    parser.add_argument(
        "--whole-suite", action="store_true", help="run every mutant against the whole suite"
    )
    parser.add_argument(
        "--with-unit-tests",
        action="store_true",
        help="make the whole suite the verification suite plus the core modules' unit tests",
    )
    parser.add_argument(
        "--survivors-of",
        default=None,
        help="run the mutants that survived in this results file (in the work directory)",
    )
    parser.add_argument("--results", default="results.jsonl", help="results file name")
    args = parser.parse_args()
    workdir: Path = args.workdir
    if not args.reuse:
        prepare(workdir)
    names = args.only or mutant_names(workdir)
    if args.survivors_of:
        earlier = (workdir / args.survivors_of).read_text(encoding="utf-8").splitlines()
        survivors = {
            row["mutant"] for row in map(json.loads, earlier) if row["status"] == "survived"
        }
        names = [name for name in names if name in survivors]
    test_files: tuple[str, ...] = TEST_FILES
    if args.with_unit_tests:
        # Survivors have passed the verification tests that reach them: unit tests go first.
        test_files = (*UNIT_TEST_FILES, *TEST_FILES)
        for name in (*SUPPORT_FILES, *UNIT_TEST_FILES):
            shutil.copy2(ROOT / "tests" / name, workdir / "tests" / name)
    results_path = workdir / args.results
    done_before = set()
    if results_path.exists():
        for line in results_path.read_text(encoding="utf-8").splitlines():
            done_before.add(json.loads(line)["mutant"])
    todo = [name for name in names if name not in done_before]
    slots = []
    for index in range(args.jobs):
        slot = workdir / f"slot{index}"
        if not slot.exists():
            slot.mkdir()
            shutil.copytree(workdir / "src", slot / "src")
            shutil.copytree(workdir / "mutants", slot / "mutants")
            shutil.copytree(workdir / "tests", slot / "tests")
            shutil.copy2(workdir / "pyproject.toml", slot / "pyproject.toml")
            shutil.copy2(workdir / "mutation_profile.py", slot / "mutation_profile.py")
        for name in (*SUPPORT_FILES, *test_files):  # the work directory's snapshot of the tests
            if (workdir / "tests" / name).exists():
                shutil.copy2(workdir / "tests" / name, slot / "tests" / name)
        slots.append(slot)
    print(f"{len(todo)} mutants to run ({len(done_before)} already done) in {workdir}", flush=True)

    def work(index: int) -> None:
        slot = slots[index]
        for name in todo[index :: args.jobs]:
            result = run_mutant(
                workdir,
                slot,
                name,
                args.limit,
                whole_suite=args.whole_suite,
                test_files=test_files,
            )
            with results_path.open("a", encoding="utf-8") as out:
                out.write(json.dumps(result) + "\n")
            print(f"{result['status']:>9} {result['seconds']:>6}s {name}", flush=True)

    with ThreadPoolExecutor(args.jobs) as pool:
        list(pool.map(work, range(args.jobs)))
    results = [json.loads(line) for line in results_path.read_text(encoding="utf-8").splitlines()]
    summary: Counter[tuple[str, str]] = Counter()
    for result in results:
        summary[(result["mutant"].split(".")[1], result["status"])] += 1
    for (module, status), count in sorted(summary.items()):
        print(f"{module:>8} {status:>9}: {count}")
    for result in results:
        if result["status"] == "survived":
            print(f"\n--- {result['mutant']}\n{result['diff']}")


if __name__ == "__main__":
    main()
