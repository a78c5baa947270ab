"""A bot that is a program: :class:`ExternalBot` runs it and speaks ``deepsix-bot/1`` to it.

>>> import sys
>>> bot = ExternalBot.from_spec(f"exec:{sys.executable} -m deepsix.arena.serve random")
>>> bot.command[-2:]
('deepsix.arena.serve', 'random')

An :class:`ExternalBot` is a :class:`~deepsix.play.bots.Bot` like any other
(``choose(view, rng)``), so it plays wherever bots do: in
:func:`~deepsix.play.loop.play_game`, the simulator, the match runner, and
the command line, where a bot given as a path (``--bots ./mybot``) or as
``exec:COMMAND`` is run this way.  The program starts at the bot's first
decision and stops at :meth:`ExternalBot.close` (or when the bot is
collected).  Whatever the program does -- garbage, illegal actions,
silence, dying -- the game goes on: see :mod:`deepsix.arena.protocol`.
"""

from __future__ import annotations

import contextlib
import os
import queue
import random
import shlex
import signal
import subprocess
import threading
import time
import weakref
from collections import deque
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any, Final

from deepsix._version import __version__
from deepsix.actions import Action
from deepsix.arena.protocol import (
    MAX_REPLY_CHARS,
    PROTOCOL,
    Answer,
    Decide,
    Fallback,
    Fault,
    FaultKind,
    Hello,
    Mismatch,
    Quit,
    Ready,
    Refused,
    decode,
    encode,
    read,
)
from deepsix.errors import DeepSixError, IllegalActionError, ParseError, WrongTypeError
from deepsix.play.bots import Bot, acting_seat, make_bot
from deepsix.views import PlayerView

__all__ = ["DEFAULT_FALLBACK", "ExternalBot", "program_command"]

DEFAULT_FALLBACK: Final = "random"
"""The bot that decides for a program that could not (a late reply, a dead program)."""

_QUEUED_LINES: Final = 1000
"""Lines read ahead from a program; past that it blocks on its own output (a flood of lines
costs the referee no memory)."""
_EOF: Final = b""
_TOO_LONG: Final = b"\x00too long"


def program_command(spec: str) -> tuple[str, ...]:
    """The command line a bot spec names: ``./mybot --fast``, ``exec:node bot.js``.

    A spec is split as a shell would split it (no shell runs).  Raises
    :class:`~deepsix.ParseError` for an empty command or a path that is not an
    executable file.
    """
    if not isinstance(spec, str):
        raise WrongTypeError(f"a program is named by text, not {type(spec).__name__}")
    text = spec.strip().removeprefix("exec:").strip()
    try:
        command = tuple(shlex.split(text))
    except ValueError as error:
        raise ParseError(f"cannot read the command {spec!r}: {error}") from None
    if not command:
        raise ParseError(f"no command in the bot {spec!r}")
    program = command[0]
    if os.sep in program or "/" in program:
        if not os.path.isfile(program):
            raise ParseError(f"the bot program {program!r} does not exist")
        if not os.access(program, os.X_OK):
            raise ParseError(f"the bot program {program!r} is not executable (chmod +x)")
    return command


_HEAD_LINES: Final = 6
"""How many of a program's first lines on its error output a fault quotes."""


class _Process:
    """The running program: its pipes, a thread reading each of its outputs."""

    def __init__(self, command: tuple[str, ...], cwd: str | None, log: Path | None) -> None:
        posix = os.name == "posix"
        self.log = log
        self.popen = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            start_new_session=posix,  # its own process group: stopping it stops its children
        )
        self.lines: queue.Queue[bytes] = queue.Queue(maxsize=_QUEUED_LINES)
        self.stderr: deque[str] = deque(maxlen=20)
        """The last lines of the program's error output."""
        self.stderr_head: list[str] = []
        """Its first lines (the cause of a crash at start is there: ``Cannot find module``)."""
        self.stderr_lines = 0
        assert self.popen.stdout is not None
        assert self.popen.stderr is not None
        self._threads = [
            threading.Thread(target=self._read, args=(self.popen.stdout,), daemon=True),
            threading.Thread(target=self._drain, args=(self.popen.stderr,), daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def _read(self, stream: IO[bytes]) -> None:
        try:
            while True:
                line = stream.readline(MAX_REPLY_CHARS + 1)
                if not line:
                    break
                if len(line) > MAX_REPLY_CHARS and not line.endswith(b"\n"):
                    while (rest := stream.readline(MAX_REPLY_CHARS)) and not rest.endswith(b"\n"):
                        pass
                    self.lines.put(_TOO_LONG)
                    continue
                self.lines.put(line)
        except (OSError, ValueError):
            pass
        self.lines.put(_EOF)

    def _drain(self, stream: IO[bytes]) -> None:
        with contextlib.ExitStack() as stack:
            out = stack.enter_context(self.log.open("ab")) if self.log is not None else None
            with contextlib.suppress(OSError, ValueError):
                for line in iter(lambda: stream.readline(4096), b""):
                    text = line.decode("utf-8", errors="replace").rstrip()
                    self.stderr.append(text)
                    self.stderr_lines += 1
                    if len(self.stderr_head) < _HEAD_LINES:
                        self.stderr_head.append(text)
                    if out is not None:
                        out.write(line)
                        out.flush()

    def send(self, message: object) -> bool:
        """Write one message; ``False`` if the program no longer reads."""
        stdin = self.popen.stdin
        try:
            assert stdin is not None
            stdin.write(encode(message))
            stdin.flush()
        except (OSError, ValueError):
            return False
        return True

    def receive(self, deadline: float) -> bytes | None:
        """The next line the program wrote before ``deadline`` (``None``: none in time;
        ``b""``: its output is closed)."""
        remaining = deadline - time.monotonic()
        try:
            return self.lines.get(timeout=max(0.0, remaining))
        except queue.Empty:
            return None

    def why_dead(self) -> str:
        """How the program ended, with the last lines it wrote on its error output."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout=0.5)
        code = self.popen.poll()
        status = "it is still running" if code is None else f"exit status {code}"
        return f"its output closed ({status})" + (
            f"; stderr: {said}" if (said := self.said()) else ""
        )

    def said(self) -> str:
        """The program's error output in one line: its first lines, then its last two."""
        head = [line for line in self.stderr_head if line.strip()]
        shown = " | ".join(head)
        if self.stderr_lines > len(self.stderr_head):
            tail = [line for line in list(self.stderr)[-2:] if line.strip() and line not in head]
            shown = " | ".join([*head, "...", *tail]) if tail else shown
        return shown

    def stop(self, grace: float = 1.0) -> None:
        """Ask the program to quit, then end it (and its process group) if it does not."""
        self.send(Quit())
        with contextlib.suppress(OSError, ValueError):
            if self.popen.stdin is not None:
                self.popen.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout=grace)
        _kill(self.popen)  # it, or whatever it started and left behind
        for thread, stream in zip(
            self._threads, (self.popen.stdout, self.popen.stderr), strict=True
        ):
            thread.join(timeout=1.0)
            # A process outside its group (one that made itself a session leader) may still
            # hold the pipe: then the reading thread, a daemon, is left to end with it, since
            # closing a stream another thread is reading would wait for that process.
            if not thread.is_alive() and stream is not None:
                with contextlib.suppress(OSError, ValueError):
                    stream.close()


def _kill(popen: subprocess.Popen[bytes]) -> None:
    """End ``popen`` and its process group (its children too), whatever they are doing."""
    with contextlib.suppress(OSError):
        if os.name == "posix":
            os.killpg(popen.pid, signal.SIGKILL)
        else:  # pragma: no cover - not on Linux
            popen.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        popen.wait(timeout=2.0)


class _Refused(Exception):
    """A reply the referee refuses, and why."""

    def __init__(self, kind: FaultKind, why: str) -> None:
        super().__init__(why)
        self.kind = kind
        self.why = why


class ExternalBot:
    """A bot played by a program speaking ``deepsix-bot/1`` on its standard input and output.

    ``command`` is the program and its arguments.  Each decision must be
    answered within ``time_limit`` seconds (``start_limit`` for the
    handshake, which includes starting the program), in at most ``tries``
    replies.  ``fallback`` (a bot or a registered bot's name) decides when
    the program could not, and plays the rest of the game once the program
    is dead.  :attr:`faults` lists what went wrong, in order.
    """

    def __init__(  # noqa: PLR0913  # the command, then keywords
        self,
        command: Sequence[str],
        *,
        time_limit: float = 5.0,
        start_limit: float = 10.0,
        tries: int = 3,
        fallback: str | Bot = DEFAULT_FALLBACK,
        label: str | None = None,
        cwd: str | None = None,
        log: str | Path | None = None,
    ) -> None:
        if isinstance(command, str) or not command or not all(isinstance(p, str) for p in command):
            raise WrongTypeError(f"command is a list of strings, not {command!r}")
        for name, value in (("time_limit", time_limit), ("start_limit", start_limit)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
                raise ParseError(f"{name} must be a positive number of seconds, not {value!r}")
        if isinstance(tries, bool) or not isinstance(tries, int) or tries < 1:
            raise ParseError(f"tries must be a positive int, not {tries!r}")
        self.command: tuple[str, ...] = tuple(command)
        self.time_limit = float(time_limit)
        self.start_limit = float(start_limit)
        self.tries = tries
        self.fallback: Bot = make_bot(fallback)
        self.label = label if label is not None else shlex.join(self.command)
        self.cwd = cwd
        self.log = None if log is None else Path(log)
        """Where the program's standard error is appended (``None``: kept in memory, the
        last lines only, for the fault report)."""
        self.faults: list[Fault] = []
        """What went wrong, in order."""
        self.decisions = 0
        """Decisions asked of this bot so far (the program's and the fallback's)."""
        self.fallback_decisions = 0
        """Decisions the fallback made for the program."""
        self.think_times: list[float] = []
        """Seconds the program took for each decision it answered with a legal action."""
        self.program_name: str | None = None
        """The name the program gave in its ``ready`` message."""
        self.dead = False
        """Whether the program is gone (the fallback plays for it)."""
        self._process: _Process | None = None
        self._finalizer: weakref.finalize[Any, Any] | None = None

    @classmethod
    def from_spec(cls, spec: str) -> ExternalBot:
        """The bot a spec such as ``./mybot`` or ``exec:node bot.js`` names, with the defaults."""
        return cls(program_command(spec), label=spec.strip())

    def __repr__(self) -> str:
        return f"ExternalBot({self.label!r})"

    # -- the game ---------------------------------------------------------------------
    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """The program's action for ``view`` (the fallback's if the program cannot give one)."""
        seat = acting_seat(view)
        self.decisions += 1
        decision = self.decisions
        if self._process is None and not self.dead:
            self._start(view, rng)
        process = self._process
        if self.dead or process is None:
            return self._fallback(view, rng, decision, None)
        from deepsix.io.wire import to_wire

        legal = [to_wire(action) for action in view.legal_actions]
        asked = time.monotonic()
        deadline = asked + self.time_limit
        sent = process.send(
            Decide(
                decision, to_wire(view), tuple(legal), seat=seat.name[0], time_limit=self.time_limit
            )
        )
        if not sent:
            return self._die(view, rng, decision, process)
        tries = self.tries
        while True:
            line = process.receive(deadline)
            if line is None:
                self._fault(FaultKind.LATE, decision, f"no legal action in {self.time_limit:g} s")
                return self._fallback(view, rng, decision, "late")
            if line == _EOF:
                return self._die(view, rng, decision, process)
            try:
                action = self._read_reply(line, decision, view)
            except _Refused as refusal:
                self._fault(refusal.kind, decision, refusal.why)
                tries -= 1
                if tries <= 0:
                    return self._fallback(view, rng, decision, refusal.kind.value)
                process.send(Refused(decision, refusal.why, tries))
                continue
            if action is not None:
                self.think_times.append(time.monotonic() - asked)
                return action

    def _read_reply(self, line: bytes, decision: int, view: PlayerView) -> Action | None:
        """The action one line gives, or ``None`` for a line that is not an answer to this
        decision (a note, a late answer); :class:`_Refused` for a reply to refuse."""
        if line == _TOO_LONG:
            raise _Refused(FaultKind.GARBAGE, f"a line over {MAX_REPLY_CHARS} characters")
        try:
            message = decode(line)
        except DeepSixError as error:
            raise _Refused(FaultKind.GARBAGE, str(error)) from None
        kind = message["type"]
        reply_id = message.get("id")
        stale = isinstance(reply_id, int) and not isinstance(reply_id, bool) and reply_id < decision
        if kind == "info" or (kind == "action" and stale):
            return None  # a bot may say what it thinks; an answer already settled is dropped
        try:
            answer: Answer = read(message, Answer)
        except DeepSixError as error:
            raise _Refused(FaultKind.GARBAGE, str(error)) from None
        if answer.id != decision:
            raise _Refused(FaultKind.GARBAGE, f'"id" must be {decision}, not {answer.id!r}')
        from deepsix.io.wire import action_from_wire

        try:
            action = action_from_wire(answer.action)
        except DeepSixError as error:
            raise _Refused(FaultKind.GARBAGE, f"not an action: {error}") from None
        if action not in view.legal_actions:
            raise _Refused(FaultKind.ILLEGAL, _why_illegal(view, action))
        return action

    # -- what goes wrong ----------------------------------------------------------------
    def _fault(self, kind: FaultKind, decision: int, detail: str) -> None:
        self.faults.append(Fault(kind, decision, detail))

    def _fallback(
        self, view: PlayerView, rng: random.Random, decision: int, reason: str | None
    ) -> Action:
        self.fallback_decisions += 1
        action = self.fallback.choose(view, rng)
        if reason is not None and self._process is not None and not self.dead:
            from deepsix.io.wire import to_wire

            self._process.send(Fallback(decision, reason, to_wire(action)))
        return action

    def _die(
        self, view: PlayerView, rng: random.Random, decision: int, process: _Process
    ) -> Action:
        self._fault(FaultKind.CRASHED, decision, process.why_dead())
        self._bury()
        return self._fallback(view, rng, decision, None)

    def _bury(self) -> None:
        """The program is dead to the game: stop it; the fallback plays from now on."""
        self.dead = True
        if self._process is not None:
            self._process.stop(grace=0.2)
            self._process = None

    # -- starting and stopping ------------------------------------------------------------
    def _start(self, view: PlayerView, rng: random.Random) -> None:
        try:
            process = _Process(self.command, self.cwd, self.log)
        except OSError as error:
            self._fault(FaultKind.HANDSHAKE, 0, f"cannot start {self.command[0]!r}: {error}")
            self.dead = True
            return
        self._process = process
        self._finalizer = weakref.finalize(self, _kill, process.popen)
        from deepsix.io.wire import to_wire

        seat = view.seat
        assert seat is not None
        hello = Hello(
            PROTOCOL, __version__, seat.name[0], to_wire(view.rules), self.time_limit,
            rng.getrandbits(63),
        )  # fmt: skip
        deadline = time.monotonic() + self.start_limit
        if not process.send(hello):
            self._fault(FaultKind.HANDSHAKE, 0, process.why_dead())
            self._bury()
            return
        while True:
            line = process.receive(deadline)
            if line is None:
                problem = f"no ready in {self.start_limit:g} s"
                break
            if line == _EOF:
                problem = process.why_dead()
                break
            try:
                message = decode(line) if line != _TOO_LONG else {"type": "(too long)"}
            except DeepSixError as error:
                problem = f"expected ready: {error}"
                break
            if message["type"] == "info":
                continue
            try:
                ready: Ready = read(message, Ready)
            except DeepSixError as error:
                problem = str(error)
                break
            if ready.protocol != PROTOCOL:
                problem = f"the bot speaks {ready.protocol!r}; this referee {PROTOCOL!r}"
                process.send(Mismatch(problem))
                break
            self.program_name = ready.name
            return
        self._fault(FaultKind.HANDSHAKE, 0, problem)
        self._bury()

    def close(self) -> None:
        """Stop the program (it is sent ``quit`` first).  The bot can still play: the program
        is started again at its next decision."""
        if self._process is not None:
            self._process.stop()
            self._process = None
        if self._finalizer is not None:
            self._finalizer.detach()
            self._finalizer = None

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _why_illegal(view: PlayerView, action: Action) -> str:
    """Why ``action`` is not legal in ``view``: the rule it breaks, where the engine can say."""
    from deepsix import engine
    from deepsix.sampling import SamplingError, sample_state

    shown = str(action)
    if view.seat is not None and getattr(action, "seat", view.seat) != view.seat:
        return f"{shown} is not your action: you play {view.seat.name.lower()}"
    try:
        engine.apply(sample_state(view, random.Random(0)), action)
    except IllegalActionError as error:
        return f"{shown} is illegal: {error}"
    except (SamplingError, DeepSixError):
        pass
    return f"{shown} is not one of the legal actions"
