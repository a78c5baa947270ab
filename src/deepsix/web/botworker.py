"""A bot worker process (``python -m deepsix.web.botworker``), started by the bot pool.

See :class:`~deepsix.web.botpool.BotPool`.

It reads jobs from standard input -- each a 4-byte length and a pickled
``(name, factory, view, stream)`` -- and writes back ``("ok", action,
stream)`` or ``("error", message, stream)`` the same way, until its input
closes.  A bot's own output goes to standard error, so that nothing it
prints can break the pipe's framing; the pool reads it and logs it in the
server's own format.  Bots are made once per worker and kept by name.  The
server alone stops a worker: it ignores Ctrl-C, and ends quietly when the
server has gone (its pipes broken).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import struct
import sys
from typing import BinaryIO, Final

__all__ = ["READY", "serve"]

HEADER: Final = struct.Struct("!I")
READY: Final = b"deepsix-bot-worker ready\n"
"""What a worker writes once, when it has started and can take moves."""


def _read(source: BinaryIO, size: int) -> bytes | None:
    data = b""
    while len(data) < size:
        chunk = source.read(size - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def serve(source: BinaryIO, sink: BinaryIO) -> None:
    """Answer jobs from ``source`` on ``sink`` until ``source`` ends."""
    bots: dict[str, object] = {}
    while True:
        header = _read(source, HEADER.size)
        if header is None:
            return
        (size,) = HEADER.unpack(header)
        body = _read(source, size)
        if body is None:
            return
        stream = None
        try:
            name, factory, seen, stream = pickle.loads(body)  # from our own server
            bot = bots.get(name)
            if bot is None:
                bot = bots[name] = factory()
            answer: tuple[object, ...] = ("ok", bot.choose(seen, stream), stream)  # type: ignore[attr-defined]  # a Bot
        except Exception as error:  # a bot's failure is reported, never fatal to the worker
            answer = ("error", f"{type(error).__name__}: {error}"[:300], stream)
        data = pickle.dumps(answer, pickle.HIGHEST_PROTOCOL)
        sink.write(HEADER.pack(len(data)) + data)
        sink.flush()


def main() -> None:
    """Serve on the process's own pipes, with the bots' prints sent to standard error."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    with contextlib.suppress(OSError, AttributeError):
        os.nice(5)  # people at the tables come first: the server's loop before bots' thinking
    sink = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # whatever a bot prints goes to standard error
    try:
        import deepsix.play.heuristic  # noqa: F401  # the usual bots, loaded before any move

        sink.write(READY)  # started: from now on a move's time is the bot's own
        sink.flush()
        serve(sys.stdin.buffer, sink)
    except OSError:  # a pipe broken: the server has gone, and no one is left to tell
        os._exit(0)  # (at exit, flushing the broken pipe would print a complaint)


if __name__ == "__main__":
    main()
