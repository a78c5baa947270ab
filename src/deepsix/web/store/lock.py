"""One server per SQLite file: an exclusive lock the serving process holds on the file.

SQLite lets two processes write one file, so two servers started on the
same file would both run -- each serving its own copy of the tables in
memory, the second stale until a write fails.  A server therefore holds an
exclusive ``flock`` on its database file for as long as it runs; a second
server (another process) is refused at once with one line.  Within one
process the lock is counted, so the server's start-up check and its store
share it.  ``flock`` is independent of the POSIX locks SQLite itself takes,
and on systems without it (Windows) no lock is taken.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from deepsix.web.store.base import StoreRefused

try:
    import fcntl

    LOCKING = True
except ImportError:  # pragma: no cover - not on POSIX: no lock
    LOCKING = False

__all__ = ["LOCKING", "FileLock"]

_held: dict[tuple[int, int], tuple[int, int]] = {}
"""The locked files of this process by ``(device, inode)``: the descriptor and a count."""
_guard = threading.Lock()


class FileLock:
    """An exclusive lock on a database file, held until :meth:`release` (counted per process)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._key: tuple[int, int] | None = None
        if not LOCKING:  # pragma: no cover - not on POSIX
            return
        try:
            descriptor = os.open(self.path, os.O_RDONLY)
        except OSError as error:
            raise StoreRefused(f"{self.path}: cannot open it ({error.strerror})") from None
        status = os.fstat(descriptor)
        key = (status.st_dev, status.st_ino)
        with _guard:
            if key in _held:  # this process holds it already
                os.close(descriptor)
                held, count = _held[key]
                _held[key] = (held, count + 1)
                self._key = key
                return
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(descriptor)
                raise StoreRefused(
                    f"{self.path} is in use by another deepsix server: one server per SQLite"
                    " file (several servers share a PostgreSQL database instead)"
                ) from None
            _held[key] = (descriptor, 1)
            self._key = key

    def release(self) -> None:
        """Let go (the file is unlocked when the last holder of this process lets go)."""
        key, self._key = self._key, None
        if key is None:
            return
        with _guard:
            descriptor, count = _held[key]
            if count > 1:
                _held[key] = (descriptor, count - 1)
                return
            del _held[key]
            os.close(descriptor)  # closing the descriptor drops the flock
