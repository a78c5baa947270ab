"""``python -m deepsix.io.schemas --schema [DIR] [--check]``: write, print or check the schemas."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from deepsix.io.schema import SCHEMA_KINDS, schema_text


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m deepsix.io.schemas --schema [DIR] [--check]``: write or check the schemas."""
    parser = argparse.ArgumentParser(
        prog="python -m deepsix.io.schemas", description="deepsix JSON Schema files"
    )
    parser.add_argument(
        "--schema",
        metavar="DIR",
        nargs="?",
        const="-",
        required=True,
        help="write <kind>.schema.json files to DIR (default: print them)",
    )
    parser.add_argument(
        "--check", action="store_true", help="compare with the files in DIR instead of writing"
    )
    args = parser.parse_args(argv)
    stale = []
    for kind in SCHEMA_KINDS:
        text = schema_text(kind)
        if args.schema == "-":
            sys.stdout.write(text)
            continue
        path = Path(args.schema) / f"{kind}.schema.json"
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(str(path))
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    if stale:
        sys.stderr.write("out of date: " + ", ".join(stale) + "\n")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
