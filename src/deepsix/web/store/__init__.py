"""Storage of the web tables: one small interface, and its back ends.

The server keeps everything it must not lose -- each table, its seats (with
the hashes of their credentials, never the credentials), every move, the
chat -- behind the :class:`~deepsix.web.store.base.Store` protocol;
:mod:`deepsix.web.store.sqlite` is the embedded default,
:mod:`deepsix.web.store.postgres` the database several servers share, and
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
    Exchange,
    HolderRow,
    RowChanged,
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
from deepsix.web.store.location import SHARED_SCHEMES, is_shared, public_location

__all__ = [
    "LIVE",
    "SCHEMA_VERSION",
    "SHARED_SCHEMES",
    "ChatRow",
    "Exchange",
    "HolderRow",
    "RowChanged",
    "SeatRow",
    "SeqTaken",
    "Store",
    "StoreError",
    "StoreRefused",
    "StoreUnavailable",
    "TableCorrupt",
    "TableRow",
    "TableStatus",
    "is_shared",
    "open_exchange",
    "open_store",
    "public_location",
    "seat_rows",
]


def open_store(location: str | Path, *, durable: bool = False, exclusive: bool = False) -> Store:
    """The store at ``location``: an SQLite file (``":memory:"`` for a throwaway one), or a
    PostgreSQL database (``postgresql://user@host:port/name``, the ``postgres`` extra).

    Raises :class:`StoreRefused` for a database this server must not use.
    ``durable`` asks SQLite to fsync every move; PostgreSQL keeps its own
    setting (``synchronous_commit``).  ``exclusive`` locks an SQLite file for this process (a
    server's): another process asking for it so is refused (:mod:`deepsix.web.store.lock`).
    """
    if is_shared(location):
        from deepsix.web.store.postgres import PostgresStore

        return PostgresStore(str(location))
    from deepsix.web.store.sqlite import SQLiteStore

    return SQLiteStore(location, durable=durable, exclusive=exclusive)


def open_exchange(store: Store) -> Exchange | None:
    """What ``store`` lets several servers share (announcements, leases), or ``None`` when
    only one server may use it (an SQLite file)."""
    if not is_shared(store.location):
        return None
    from deepsix.web.store.exchange import PostgresExchange
    from deepsix.web.store.postgres import PostgresStore

    if isinstance(store, PostgresStore):
        return PostgresExchange(store.url, store.origin)
    return None
