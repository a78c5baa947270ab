"""The bot programs the tests run: the docs' examples, the C reference bot, a faulty bot."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parents[2]
EXAMPLES: Final = ROOT / "docs" / "examples" / "bots"
FAULTY: Final = Path(__file__).resolve().parent / "bots" / "faulty.py"
C_COMPILER: Final = next(
    (found for name in ("cc", "gcc", "clang") if (found := shutil.which(name))), None
)
NODE: Final = shutil.which("node")


def python_bot(script: Path, *args: str) -> str:
    """The bot spec that runs ``script`` with this interpreter."""
    return "exec:" + shlex.join([sys.executable, str(script), *args])


def faulty(*args: str) -> str:
    """The faulty test bot with these options."""
    return python_bot(FAULTY, *args)


def serve(name: str) -> str:
    """A registered bot run as a program (what ``deepsix bot NAME`` does)."""
    return "exec:" + shlex.join([sys.executable, "-m", "deepsix.arena.serve", name])


def build_refbot(directory: Path) -> Path:
    """Compile the C reference bot into ``directory``; return the program."""
    assert C_COMPILER is not None
    program = directory / "refbot"
    subprocess.run(
        [C_COMPILER, "-std=c99", "-O2", "-Wall", "-Wextra", "-Werror", "-pedantic",
         "-o", str(program), str(EXAMPLES / "refbot.c")],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    return program
