"""Run a Python bot as a program that speaks ``deepsix-bot/1`` (``deepsix bot NAME``).

    python -m deepsix.arena.serve heuristic      # the same as: deepsix bot heuristic

It answers ``hello`` with ``ready``, each ``decide`` with the bot's action,
and stops at ``quit`` or at the end of its input.  Views are read with the
library's own wire format, so the bot sees exactly the
:class:`~deepsix.PlayerView` it would see in process; its random stream is
seeded from ``hello``.  Anything the referee says that is not for it to
answer (``refused``, ``fallback``, ``error``) is noted on standard error.
"""

from __future__ import annotations

import random
import sys
from typing import IO

from deepsix.arena.protocol import PROTOCOL, Answer, Decide, Hello, Ready, decode, encode, read
from deepsix.errors import DeepSixError
from deepsix.play.bots import Bot, make_bot
from deepsix.views import PlayerView

__all__ = ["main", "serve"]


def serve(bot: Bot, source: IO[bytes], sink: IO[bytes], *, name: str, log: IO[str]) -> int:
    """Play ``bot`` over the protocol: read messages from ``source``, write replies to ``sink``.

    Returns 0 after ``quit`` or the end of input, 1 after a message it cannot
    read (the referee is not speaking the protocol).
    """
    from deepsix.io.wire import from_wire, to_wire

    rng = random.Random(0)
    for line in iter(source.readline, b""):
        try:
            message = decode(line)
        except DeepSixError as error:
            print(f"deepsix bot: cannot read the referee: {error}", file=log)
            return 1
        kind = message["type"]
        reply: Ready | Answer | None = None
        try:
            if kind == "hello":
                hello: Hello = read(message, Hello)
                if hello.protocol != PROTOCOL:
                    print(f"deepsix bot: the referee speaks {hello.protocol!r}", file=log)
                rng = random.Random(hello.seed)
                reply = Ready(PROTOCOL, name)
            elif kind == "decide":
                decide: Decide = read(message, Decide)
                view = from_wire(decide.view, PlayerView, trusted=True)
                reply = Answer(decide.id, to_wire(bot.choose(view, rng)))
            elif kind == "quit":
                return 0
            else:
                print(f"deepsix bot: {kind}: {message.get('reason', '')}", file=log)
        except DeepSixError as error:
            print(f"deepsix bot: cannot {'decide' if kind == 'decide' else 'start'}: {error}",
                  file=log)  # fmt: skip
            return 1
        if reply is not None:
            sink.write(encode(reply))
            sink.flush()
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m deepsix.arena.serve NAME``: run the registered bot ``NAME``."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m deepsix.arena.serve BOT", file=sys.stderr)
        return 2
    try:
        bot = make_bot(args[0])
    except DeepSixError as error:
        print(f"deepsix bot: {error}", file=sys.stderr)
        return 2
    return serve(bot, sys.stdin.buffer, sys.stdout.buffer, name=args[0], log=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
