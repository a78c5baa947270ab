"""Mutation check of the core (issues 3 and 24): how many mutants does the core's suite kill?

Run it by hand (it is not a test; ``nox -s mutation_smoke`` is the short check
that runs with the tests)::

    nice -n 19 python tools/mutation/run_mutants.py --workdir /tmp/mutwork --jobs 1

It never touches the source tree: everything happens in copies under
``--workdir``.  The steps:

1. copy ``src/`` and the core's tests (``tests/core`` with ``tests/support``)
   into the work directory, with a pytest plugin registering a ``mutation``
   hypothesis profile (fixed examples, no shrinking, no database) so runs are
   reproducible and failures stop fast;
2. *forked stage*: ``mutmut run`` generates the mutants of the chosen core
   modules (``--modules``; all of them by default), records which tests reach
   each function, and runs every mutant against those tests in workers
   forked from its own warm process.  A failing test there is a kill;
3. *fresh stage*: a warm process may hide some mutants -- module-level caches
   (``legal_calls``' table, the meld tables built at import) were filled by
   the unmutated code before the fork, and functions run only at import time
   reach no test -- so every mutant the forked stage did not kill is applied
   to a private copy of ``src/`` (``mutmut apply``) and run in a *fresh*
   Python process with ``pytest -x``, under a time limit: first against the
   tests that reach it, then against the whole of ``tests/core``;
   (``--recheck untested`` runs only the mutants no test reached there again:
   for modules without caches, where a fresh process changes nothing else);
4. write one JSON line per mutant to ``results.jsonl`` and print a summary
   per module with the survivors' diffs.

``--fresh-only`` skips the forked stage and runs every mutant in a fresh
process (what the first version of this driver did; an hour for the four rule
modules on two cores).

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
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parents[2]
CORE_MODULES: Final = (
    "tricks",
    "melds",
    "scoring",
    "phases/deal",
    "phases/auction",
    "phases/contract",
    "phases/passing",
    "phases/melding",
    "phases/play",
    "engine",
    "legal",
    "diagnosis",
    "state",
    "handsetup",
    "history",
    "views",
    "sampling",
    "validation",
    "rebuild",
    "events",
    "table",
)
"""The core's modules with rules in them (those that do not exist are skipped)."""
TESTS: Final = "tests/core"
"""The core's suite: the verification tests and the unit tests of every core module."""
KILLED_CODES: Final = {1: "killed", 3: "killed", 36: "timeout", 24: "timeout", -24: "timeout"}
"""mutmut's exit codes that settle a mutant in the forked stage (the rest go to the fresh one)."""
GENERATORS: Final = ("value_methods.py",)
"""The tools that write generated regions of the core, which a test checks are current."""
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
pytest_add_cli_args_test_selection = [{select}]
pytest_add_cli_args = ["-p", "mutation_profile"]
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
        env={**os.environ, "HYPOTHESIS_PROFILE": "mutation"},
    )
    return done.stdout + done.stderr


def prepare(workdir: Path, modules: tuple[str, ...], select: tuple[str, ...] = (TESTS,)) -> None:
    """Copy the sources and the core's tests into ``workdir``."""
    if workdir.resolve() == ROOT or ROOT in workdir.resolve().parents:
        raise SystemExit("the work directory must lie outside the source tree")
    shutil.rmtree(workdir, ignore_errors=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.so")
    (workdir / "tests").mkdir(parents=True)
    shutil.copytree(ROOT / "src", workdir / "src", ignore=ignore)
    shutil.copytree(ROOT / "src", workdir / "pristine", ignore=ignore)
    for name in ("__init__.py", "conftest.py"):
        shutil.copy2(ROOT / "tests" / name, workdir / "tests" / name)
    for folder in ("support", "core"):
        shutil.copytree(ROOT / "tests" / folder, workdir / "tests" / folder, ignore=ignore)
    # The currency check of the generated regions (test_value_methods) reads the sources
    # through tools/value_methods.py, relative to where the tool lies: a copy next to the
    # work directory's src/ (and each slot's) reads the mutated file, not the worktree's.
    (workdir / "tools").mkdir()
    for tool in GENERATORS:
        shutil.copy2(ROOT / "tools" / tool, workdir / "tools" / tool)
    # mutmut puts its copy of src/ on the path (and the fresh stage puts the slot's src/):
    # the profile plugin lives there so that ``-p mutation_profile`` finds it in both.
    (workdir / "src" / "mutation_profile.py").write_text(PLUGIN, encoding="utf-8")
    names = ", ".join(f'"src/deepsix/{module}.py"' for module in modules)
    tests = ", ".join(f'"{path}"' for path in select)
    (workdir / "pyproject.toml").write_text(
        PYPROJECT.format(modules=names, select=tests), encoding="utf-8"
    )


def forked_stage(workdir: Path, jobs: int, *, finish: bool, names: Sequence[str] = ()) -> None:
    """Let mutmut generate the mutants and their test statistics; with ``finish``, run them too.

    Without ``finish`` its run is interrupted as soon as it starts on the mutants (the
    statistics are then on disk), for ``--fresh-only``.
    """
    executable = Path(sys.executable).with_name("mutmut")
    log = (workdir / _LOG).open("w", encoding="utf-8")
    process = subprocess.Popen(
        [str(executable), "run", "--max-children", str(jobs), *names],
        cwd=workdir,
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "HYPOTHESIS_PROFILE": "mutation"},
    )
    try:
        while process.poll() is None:
            time.sleep(5)
            if finish:
                continue
            if any(workdir.glob("mutants/src/deepsix/*.meta")) and PROGRESS.search(_tail(workdir)):
                break
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(timeout=60)
        log.close()


_LOG: Final = "mutmut-run.log"


def _tail(workdir: Path) -> str:
    return (workdir / _LOG).read_text(encoding="utf-8", errors="replace")[-400:]


def forked_codes(workdir: Path, modules: tuple[str, ...]) -> dict[str, int | None]:
    """Every mutant of ``modules`` mutmut generated, with the exit code of its forked run."""
    codes: dict[str, int | None] = {}
    for module in modules:
        meta = workdir / "mutants" / "src" / "deepsix" / f"{module}.py.meta"
        if meta.exists():
            codes.update(json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"])
    return codes


def run_mutant(
    workdir: Path,
    slot: Path,
    name: str,
    limit: float,
    modules: tuple[str, ...],
    *,
    whole_suite: bool = False,
    suite: tuple[str, ...] = (TESTS,),
    first: tuple[str, ...] = (),
) -> dict[str, object]:
    """Apply one mutant in ``slot`` (a private copy of the work directory) and run its tests."""
    for other in modules:  # undo whatever an interrupted earlier run may have left behind
        shutil.copy2(
            workdir / "pristine" / "deepsix" / f"{other}.py",
            slot / "src" / "deepsix" / f"{other}.py",
        )
    module = module_of(name, modules)
    source = slot / "src" / "deepsix" / f"{module}.py"
    pristine = workdir / "pristine" / "deepsix" / f"{module}.py"
    if not apply_shown(workdir, name, pristine, source):
        mutmut(slot, "apply", name, timeout=120)
    diff = "".join(
        difflib.unified_diff(
            pristine.read_text(encoding="utf-8").splitlines(keepends=True),
            source.read_text(encoding="utf-8").splitlines(keepends=True),
            n=0,
        )
    )
    shown = "" if whole_suite else mutmut(workdir, "tests-for-mutant", name, timeout=120)
    selected = [line.strip() for line in shown.splitlines() if line.startswith("tests/")]
    everything = list(suite)
    env = {**os.environ, "PYTHONPATH": f"{slot / 'src'}{os.pathsep}{slot}"}
    env["HYPOTHESIS_PROFILE"] = "mutation"
    started = time.monotonic()
    # A fresh process: no cache filled by the unmutated code.  mutmut's selection misses
    # tests that reach a function only at import time, so a survivor of the selection
    # faces the whole suite too.
    # ``first``: cheap tests that kill whole classes of mutants (the currency check of the
    # generated regions, the files that state what the last survivors showed), run before
    # the tests that reach the mutant and the long whole-suite run.
    plans = [plan for plan in (list(first), selected) if plan] + [everything]
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
            # 1: a test failed: a kill.  2, 3, 4: the collection or the run broke -- a mutant
            # that breaks an import, or a test file that cannot import outside the work
            # directory: an "error", read by hand, never counted as a kill unread.
            code: int | None = done.returncode
            status = {0: "survived", 1: "killed", 5: "no tests"}.get(done.returncode, "error")
            tail = done.stdout[-600:]
        except subprocess.TimeoutExpired:
            code, status, tail = None, "timeout", ""
        if status != "survived":
            break
    shutil.copy2(pristine, source)
    return {
        "mutant": name,
        "stage": "fresh",
        "status": status,
        "exit_code": code,
        "seconds": round(time.monotonic() - started, 1),
        "tests": len(targets),
        "whole_suite": targets == everything,
        "diff": diff,
        "tail": tail if status != "timeout" else "",
    }


def module_of(name: str, modules: tuple[str, ...]) -> str:
    """The module (``"engine"``, ``"phases/play"``) that the mutant ``name`` mutates."""
    dotted = name.removeprefix("deepsix.")
    return max((m for m in modules if dotted.startswith(m.replace("/", ".") + ".")), key=len)


def apply_shown(workdir: Path, name: str, pristine: Path, source: Path) -> bool:
    """Write the mutant into ``source``: the pristine text with the hunk ``mutmut show`` prints
    replaced, where that hunk (context included, at some indentation) occurs exactly once.

    ``mutmut apply`` rewrites a function that has ``@overload`` declarations wrongly (the
    declarations vanish and the unmutated definition stays in force, so the mutant never
    runs); this writes only the changed lines.  ``False`` when the hunk cannot be placed.
    """
    shown = mutmut(workdir, "show", name, timeout=120).splitlines()
    hunks = [i for i, line in enumerate(shown) if line.startswith("@@")]
    if len(hunks) != 1:
        return False
    before, after = [], []
    for line in shown[hunks[0] + 1 :]:
        if line.startswith("-"):
            before.append(line[1:])
        elif line.startswith("+"):
            after.append(line[1:])
        else:
            before.append(line[1:])
            after.append(line[1:])
    text = pristine.read_text(encoding="utf-8")
    for indent in ("", "    ", "        "):
        old = "\n".join(indent + line if line else line for line in before) + "\n"
        if text.count(old) == 1:
            new = "\n".join(indent + line if line else line for line in after) + "\n"
            source.write_text(text.replace(old, new), encoding="utf-8")
            return True
    return False


def copy_tests(place: Path, path: str) -> None:
    """Copy the tests at ``path`` (a file with its package's setup, or a folder) into ``place``.

    A test's node id (``file::name``) copies its file.
    """
    path = path.split("::", maxsplit=1)[0]
    source, target = ROOT / path, place / path
    if target.exists():
        return
    if source.is_dir():
        shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(source, target)
    for name in ("__init__.py", "conftest.py"):
        if (source.parent / name).exists():
            shutil.copy2(source.parent / name, target.parent / name)


def make_slot(workdir: Path, index: int) -> Path:
    """A private copy of the work directory for one fresh-stage worker."""
    slot = workdir / f"slot{index}"
    if not slot.exists():
        slot.mkdir()
        for folder in ("src", "mutants", "tests", "tools"):
            if (workdir / folder).exists():
                shutil.copytree(workdir / folder, slot / folder)
        shutil.copy2(workdir / "pyproject.toml", slot / "pyproject.toml")
    return slot


def main() -> None:
    """Parse arguments, prepare, run every mutant, summarise."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/deepsix-mutation"))
    parser.add_argument("--modules", nargs="*", default=None, help="core modules to mutate")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--limit", type=float, default=400.0, help="seconds per mutant")
    parser.add_argument("--reuse", action="store_true", help="keep an already prepared workdir")
    parser.add_argument("--fresh-only", action="store_true", help="skip the forked stage")
    parser.add_argument(
        "--sample", type=int, default=1, help="run every n-th mutant only (sorted by name)"
    )
    parser.add_argument(
        "--select",
        nargs="*",
        default=[TESTS],
        help="the tests mutmut may pick from for each mutant (default: all of tests/core; the "
        "mirrored test files keep a run of the widely used modules feasible)",
    )
    parser.add_argument(
        "--recheck",
        choices=("all", "untested"),
        default="all",
        help="which mutants the forked stage did not kill run again fresh: all of them, or "
        "only those no test reached (for modules without import-time caches)",
    )
    parser.add_argument("--only", nargs="*", default=None, help="mutant names to run")
    parser.add_argument(
        "--names",
        type=Path,
        default=None,
        help="a file of mutant names, one a line: count only these (a sample drawn by hand, "
        "run by mutmut in a reused work directory), with the usual forked and fresh stages",
    )
    parser.add_argument(
        "--whole-suite", action="store_true", help="run fresh mutants against the whole suite"
    )
    parser.add_argument(
        "--survivors-of",
        default=None,
        help="run the mutants that survived in this results file (in the work directory)",
    )
    parser.add_argument("--results", default="results.jsonl", help="results file name")
    parser.add_argument(
        "--refresh-tests",
        action="store_true",
        help="copy the current tests into a reused workdir (survivors against new tests)",
    )
    parser.add_argument(
        "--suite",
        nargs="*",
        default=[TESTS],
        help="the whole suite of the fresh stage (test paths; other than tests/core are copied)",
    )
    parser.add_argument(
        "--first",
        nargs="*",
        default=[],
        help="tests the fresh stage runs before the whole suite (after the selected ones): "
        "cheap checks such as the generated regions' currency test",
    )
    args = parser.parse_args()
    workdir: Path = args.workdir
    modules = tuple(
        module
        for module in (args.modules or CORE_MODULES)
        if (ROOT / "src" / "deepsix" / f"{module}.py").exists()
    )
    if not args.reuse:
        prepare(workdir, modules, tuple(args.select))
        forked_stage(workdir, args.jobs, finish=not args.fresh_only and args.sample == 1)
        if args.sample > 1:  # every n-th mutant, in mutmut's order
            every = sorted(forked_codes(workdir, modules))[:: args.sample]
            forked_stage(workdir, args.jobs, finish=not args.fresh_only, names=every)
    codes = forked_codes(workdir, modules)
    if args.sample > 1:
        codes = {name: codes[name] for name in sorted(codes)[:: args.sample]}
    if args.names is not None:
        wanted = set(args.names.read_text(encoding="utf-8").split())
        codes = {name: code for name, code in codes.items() if name in wanted}
    if not args.reuse and not args.fresh_only and all(code is None for code in codes.values()):
        raise SystemExit(f"mutmut ran no mutant (its test run failed?): see {_LOG} in {workdir}")
    results_path = workdir / args.results
    done_before = set()
    if results_path.exists():
        for line in results_path.read_text(encoding="utf-8").splitlines():
            done_before.add(json.loads(line)["mutant"])
    names = args.only or list(codes)
    if args.survivors_of:
        earlier = (workdir / args.survivors_of).read_text(encoding="utf-8").splitlines()
        survivors = {
            row["mutant"] for row in map(json.loads, earlier) if row["status"] == "survived"
        }
        names = [name for name in names if name in survivors]
    todo = []
    with results_path.open("a", encoding="utf-8") as out:
        for name in names:
            if name in done_before:
                continue
            code = codes.get(name)
            fresh = args.fresh_only or args.only or args.survivors_of
            if fresh or (code not in KILLED_CODES and (args.recheck == "all" or code != 0)):
                todo.append(name)
                continue
            status = KILLED_CODES.get(code, "survived")
            row = {"mutant": name, "stage": "forked", "status": status, "exit_code": code}
            if status == "survived":
                row["diff"] = mutmut(workdir, "show", name, timeout=120)
            out.write(json.dumps(row) + "\n")
    slots = [make_slot(workdir, index) for index in range(args.jobs)]
    if args.refresh_tests:
        for place in (workdir, *slots):
            for folder in ("support", "core"):
                shutil.rmtree(place / "tests" / folder)
            for path in ("tests/support", TESTS):
                copy_tests(place, path)
            # the tests read the generators (test_value_methods): keep them in step too.  The
            # sources themselves are not refreshed: new tests must suit the work directory's.
            for tool in GENERATORS:
                shutil.copy2(ROOT / "tools" / tool, place / "tools" / tool)
    for path in args.suite:  # tests outside the core's suite, for the survivors
        for place in (workdir, *slots):
            copy_tests(place, path)
    print(f"{len(todo)} mutants for the fresh stage in {workdir}", flush=True)

    def work(index: int) -> None:
        for name in todo[index :: args.jobs]:
            result = run_mutant(
                workdir,
                slots[index],
                name,
                args.limit,
                modules,
                whole_suite=args.whole_suite,
                suite=tuple(args.suite),
                first=tuple(args.first),
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
        print(f"{module:>10} {status:>9}: {count}")
    for result in results:
        if result["status"] in ("survived", "no tests", "error"):
            print(f"\n--- {result['mutant']}\n{result['diff']}")


if __name__ == "__main__":
    main()
