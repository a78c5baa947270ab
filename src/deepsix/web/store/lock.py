"""One server per SQLite file: an exclusive lock the serving process holds beside the file.

SQLite lets two processes write one file, so two servers started on the
same file would both run -- each serving its own copy of the tables in
memory, the second stale until a write fails.  A server therefore holds an
exclusive ``flock`` for as long as it runs; a second server (another
process) is refused at once with one line.  Within one process the lock is
counted, so the server's start-up check and its store share it.

The lock is taken on a file of its own, the database's name with
:data:`SUFFIX` (``tables.sqlite3-lock``), never on the database file:
closing *any* descriptor of a file drops every POSIX lock the process holds
on it, SQLite's own included, and an outside reader (an admin's
``sqlite3``, a backup script) would then take the write-ahead log for its
own, fold it into the file and delete it under the server, which goes on
writing moves to a log no one will read again (SQLite's "How To Corrupt An
SQLite Database File", section 2.2).  So this module never opens the
database file; the lock file is left in place when the lock is let go (a
waiting server must find the same file).  On systems without ``flock``
(Windows) no lock is taken.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Final

from deepsix.web.store.base import StoreRefused

try:
    import fcntl

    LOCKING = True
except ImportError:  # pragma: no cover - not on POSIX: no lock
    LOCKING = False

__all__ = ["LOCKING", "SUFFIX", "FileLock", "lock_path"]

SUFFIX: Final = "-lock"
"""What the lock file's name adds to the database file's (as SQLite's ``-wal`` and ``-shm``)."""

_held: dict[tuple[int, int], tuple[int, int]] = {}
"""The lock files this process holds by ``(device, inode)``: the descriptor and a count."""
_guard = threading.Lock()


def lock_path(database: str | Path) -> Path:
    """The lock file of a database file: beside the file a symbolic link points to, so two
    names of one database share one lock."""
    return Path(os.path.realpath(database) + SUFFIX)


class FileLock:
    """An exclusive lock on a database file, held until :meth:`release` (counted per process)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._key: tuple[int, int] | None = None
        if not LOCKING:  # pragma: no cover - not on POSIX
            return
        where = lock_path(path)
        try:
            descriptor = os.open(where, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as error:
            raise StoreRefused(
                f"{self.path}: cannot open its lock file {where} ({error.strerror})"
            ) from None
        status = os.fstat(descriptor)
        key = (status.st_dev, status.st_ino)
        with _guard:
            if key in _held:  # this process holds it already (on another descriptor)
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
