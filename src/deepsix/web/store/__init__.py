"""Storage of the web tables: one small interface, and its back ends.

The server keeps everything it must not lose -- each table, its seats (with
the hashes of their credentials, never the credentials), every move, the
chat -- behind the :class:`~deepsix.web.store.base.Store` protocol;
:mod:`deepsix.web.store.sqlite` is the embedded default, and
:func:`open_store` opens a store by its location.  Another database plugs
in by implementing the same methods and passing the shared test suite
(``tests/web/store_contract.py``).  The contract is written on
:mod:`deepsix.web.store.base`.
"""

from __future__ import annotations

from pathlib import Path

from deepsix.web.store.base import (
    LIVE,
    SCHEMA_VERSION,
    ChatRow,
    SeatRow,
    SeqTaken,
    Store,
    StoreError,
    StoreRefused,
    StoreUnavailable,
    TableCorrupt,
    TableRow,
    TableStatus,
    seat_rows,
)

__all__ = [
    "LIVE",
    "SCHEMA_VERSION",
    "ChatRow",
    "SeatRow",
    "SeqTaken",
    "Store",
    "StoreError",
    "StoreRefused",
    "StoreUnavailable",
    "TableCorrupt",
    "TableRow",
    "TableStatus",
    "open_store",
    "seat_rows",
]


def open_store(location: str | Path, *, durable: bool = False) -> Store:
    """The store at ``location``: an SQLite file (``":memory:"`` for a throwaway one).

    Raises :class:`StoreRefused` for a database this server must not use.
    """
    from deepsix.web.store.sqlite import SQLiteStore

    return SQLiteStore(location, durable=durable)
