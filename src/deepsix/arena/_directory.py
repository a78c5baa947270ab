"""A match's directory: its configuration, the games played so far, a lock, atomic writes.

The directory is what lets a stopped match resume (see :mod:`deepsix.arena.match`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from deepsix._version import __version__
from deepsix.arena._outcome import GameOutcome, MatchConfig, MatchError

if TYPE_CHECKING:
    pass

__all__ = ["Directory"]

# -- the match directory --------------------------------------------------------------------


class Directory:
    """A match's files: ``match.json``, ``games.jsonl``, ``games/*.rec``, ``report.md``."""

    def __init__(self, path: Path, config: MatchConfig, *, resume: bool) -> None:
        self.path = path
        self._lock: IO[str] | None = None
        self.games = path / "games.jsonl"
        self.version = __version__
        path.mkdir(parents=True, exist_ok=True)
        self._take_lock()
        try:
            self._open(config, resume=resume)
        except BaseException:
            self.release()
            raise

    def _open(self, config: MatchConfig, *, resume: bool) -> None:
        path = self.path
        (path / "games").mkdir(exist_ok=True)
        settings = path / "match.json"
        wanted = config.to_json()
        if settings.exists():
            try:
                found = json.loads(settings.read_text(encoding="utf-8"))
            except (OSError, ValueError) as error:
                raise MatchError(f"{settings} cannot be read: {error}") from None
            if not resume:
                raise MatchError(f"{path} holds a match already (resume it, or use a new one)")
            self.version = str(found.get("deepsix", "?"))
            if {k: v for k, v in found.items() if k != "deepsix"} != wanted:
                raise MatchError(
                    f"{path} holds another match ({_differences(found, wanted)}): "
                    "use a new directory, or the same settings to resume it"
                )
        else:
            _write_atomic(settings, json.dumps({**wanted, "deepsix": __version__}, indent=2))

    def _take_lock(self) -> None:
        """Hold ``DIR/.lock`` while the match runs: a second run in the same directory is
        refused (the lock goes with the process, however it ends)."""
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not on POSIX: no lock
            return
        handle = (self.path / ".lock").open("w", encoding="utf-8")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise MatchError(f"another deepsix match is running in {self.path}") from None
        handle.write(str(os.getpid()))
        handle.flush()
        self._lock = handle

    def release(self) -> None:
        """Let another run use the directory."""
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def done(self) -> list[GameOutcome]:
        """The games already played (a torn last line, from a stop mid-write, is dropped)."""
        if not self.games.exists():
            return []
        outcomes: dict[tuple[int, bool], GameOutcome] = {}
        lines = self.games.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, 1):
            try:
                outcome = GameOutcome.from_json(json.loads(line))
            except (ValueError, MatchError):
                if number == len(lines):
                    break  # the line being written when the match stopped
                raise MatchError(f"{self.games}:{number} is not a game of this match") from None
            outcomes[outcome.deal, outcome.swapped] = outcome
        # Keep only whole duplicate pairs: a lone game is played again with its twin.
        pairs = {deal for deal, swapped in outcomes if (deal, not swapped) in outcomes}
        return [o for key, o in sorted(outcomes.items()) if key[0] in pairs]

    def save(self, played: list[tuple[GameOutcome, str]]) -> None:
        """Write the games' records, then append their lines (a pair's two lines at once)."""
        for outcome, text in played:
            _write_atomic(self.path / outcome.record, text)
        lines = "".join(json.dumps(o.to_json(), separators=(",", ":")) + "\n" for o, _ in played)
        with self.games.open("a", encoding="utf-8") as out:
            out.write(lines)
            out.flush()
            os.fsync(out.fileno())


def _differences(found: dict[str, Any], wanted: dict[str, Any]) -> str:
    keys = sorted(k for k in {*found, *wanted} - {"deepsix"} if found.get(k) != wanted.get(k))
    return ", ".join(f"{k}: {found.get(k)!r} there, {wanted.get(k)!r} here" for k in keys[:3])


def _write_atomic(path: Path, text: str) -> None:
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(path)
