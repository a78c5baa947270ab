"""Run mutants of code only the compiled build runs against a mypyc-compiled module.

Some of the core runs only when mypyc has compiled its module: the class bodies' methods that
the pure build replaces at import (``GameState._remember_legal``, ``History.__init__``) and the
bit-scanning branches of ``legal._CardActions``.  No pure-Python run can kill their mutants.
This script takes each named mutant from a mutmut work directory (``run_mutants.py`` made it),
writes it into a private copy of ``src``, compiles the modules whose class bodies depend on
``deepsix.compiled.COMPILED`` (:data:`COMPILED_SWITCHED`, the mutated one among them) with mypyc
in one group, with ``--strict`` as the compiled build does, and runs the given tests against
that copy, one mutant at a time.  The rest stays pure Python.  A partial build must compile all
of :data:`COMPILED_SWITCHED`: ``COMPILED`` is true when *any* candidate is an extension module,
and a pure ``handsetup`` in a build that says it is compiled recurses in its own ``__new__``.
Before the mutants, the unmutated sources are built and tested the same way (the control); the
run stops if the control does not pass.

Each mutant ends as one of:

- ``killed``: a test failed (pytest exit 1);
- ``type error``: mypy (run by mypyc, ``--strict``) refused the mutant: it is not a valid
  program of this project (the ``typecheck`` session fails on it in either build);
- ``mypyc error``: mypy accepted it but mypyc could not compile it;
- ``survived``: it built and every test passed;
- ``not applied`` / ``exit N``: the hunk could not be placed, or pytest ended otherwise.

One JSON line per mutant goes to ``--out``.  Usage::

    nice -n 19 python tools/mutation/compiled_check.py --work /tmp/mut/T --module state \\
        --names names.txt --out state.jsonl --mypyc /tmp/venv/bin/mypyc tests/core/test_state.py
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_mutants import ROOT, apply_shown  # the driver sits next to this file

COMPILED_SWITCHED = ("handsetup", "history", "state", "tricks", "legal")
"""The modules that choose their methods by ``COMPILED`` at import."""


def classify_build(output: str) -> str:
    """``type error`` when mypy reported an error, ``mypyc error`` otherwise."""
    if any(": error:" in line for line in output.splitlines()):
        return "type error"
    return "mypyc error"


def check(
    work: Path, module: str, name: str, *, tree: Path, mypyc: Path, tests: list[str]
) -> dict[str, str]:
    """Build and test one mutant in ``tree`` (a copy of ``src``); return its result row."""
    package = tree / "deepsix"
    target = package / f"{module}.py"
    shutil.copy2(ROOT / "src" / "deepsix" / f"{module}.py", target)
    shutil.rmtree(tree / "build", ignore_errors=True)
    if name and not apply_shown(work, name, ROOT / "src" / "deepsix" / f"{module}.py", target):
        return {"mutant": name, "status": "not applied"}
    for built in package.glob("*.so"):
        built.unlink()
    build = subprocess.run(
        [
            str(mypyc),
            "--strict",
            "--follow-imports=silent",
            *(f"deepsix/{each}.py" for each in COMPILED_SWITCHED),
        ],
        cwd=tree,
        capture_output=True,
        text=True,
        check=False,
    )
    if build.returncode != 0:
        output = build.stdout + build.stderr
        return {"mutant": name, "status": classify_build(output), "tail": output[-400:]}
    probe = "import deepsix.compiled as c; print(len(c.MODULES), c.BUILD)"
    loaded = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    test = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "-n", "0", "-p", "no:cacheprovider", *tests],
        cwd=ROOT,
        env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    status = {0: "survived", 1: "killed"}.get(test.returncode, f"exit {test.returncode}")
    return {"mutant": name, "status": status, "loaded": loaded, "tail": test.stdout[-400:]}


def main() -> None:
    """Check each named mutant in turn; append one JSON line per mutant to ``--out``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, required=True, help="the mutmut work directory")
    parser.add_argument("--module", required=True, help="the module, e.g. state")
    parser.add_argument("--names", type=Path, required=True, help="mutant names, one a line")
    parser.add_argument("--out", type=Path, required=True, help="where the JSON lines go")
    parser.add_argument("--mypyc", type=Path, required=True, help="the mypyc executable")
    parser.add_argument("tests", nargs="+", help="the tests to run (paths under the checkout)")
    args = parser.parse_args()
    names = args.names.read_text(encoding="utf-8").split()
    with tempfile.TemporaryDirectory(prefix="compiled-check-") as place:
        tree = Path(place) / "src"
        shutil.copytree(ROOT / "src", tree, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
        control = check(args.work, args.module, "", tree=tree, mypyc=args.mypyc, tests=args.tests)
        print("control:", control["status"], control.get("loaded", ""), flush=True)
        if control["status"] != "survived":
            sys.exit(f"the unmutated build does not pass: {control}")
        with args.out.open("a", encoding="utf-8") as out:
            for name in names:
                row = check(
                    args.work, args.module, name, tree=tree, mypyc=args.mypyc, tests=args.tests
                )
                out.write(json.dumps(row) + "\n")
                out.flush()
                print(row["status"], name, row.get("loaded", ""), flush=True)


if __name__ == "__main__":
    main()
