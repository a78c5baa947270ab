"""Compile every Python source under the given paths; any warning is an error.

``python -W error tools/compile_all.py src tests tools`` (``nox -s lint`` runs it) catches
what compiles today but is deprecated -- an invalid escape sequence such as ``b"\\u2660"``
(``\\u`` means nothing in bytes), which ruff does not report in bytes literals.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path


def problems(paths: list[Path]) -> list[str]:
    """Every source under ``paths`` whose compilation warns or fails, with the reason."""
    found = []
    files = [
        f for path in paths for f in ([path] if path.is_file() else sorted(path.rglob("*.py")))
    ]
    for file in files:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            try:
                compile(file.read_bytes(), str(file), "exec", dont_inherit=True)
            except (SyntaxError, Warning) as error:
                found.append(f"{file}: {type(error).__name__}: {error}")
    return found


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: compile_all.py PATH ...", file=sys.stderr)
        return 2
    found = problems([Path(arg) for arg in argv])
    for line in found:
        print(line, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
