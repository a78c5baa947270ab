"""A bot program that runs another and records every line either way (``> `` from the
referee, ``< `` from the bot) in a file: what the referee and a bot really said.

Usage: ``tee.py LOG COMMAND...``.
"""

import subprocess
import sys
import threading

log = open(sys.argv[1], "a", encoding="utf-8")  # noqa: SIM115  # open for the program's life
lock = threading.Lock()
child = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)


def note(direction: str, line: bytes) -> None:
    with lock:
        log.write(direction + line.decode("utf-8"))
        log.flush()


def down() -> None:
    assert child.stdin is not None
    for line in sys.stdin.buffer:
        note("> ", line)
        child.stdin.write(line)
        child.stdin.flush()
    child.stdin.close()


threading.Thread(target=down, daemon=True).start()
assert child.stdout is not None
for line in child.stdout:
    note("< ", line)
    sys.stdout.buffer.write(line)
    sys.stdout.buffer.flush()
child.wait()
