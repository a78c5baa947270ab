"""A server's side of a shared PostgreSQL database: announcements in and out, and table leases.

Every write of :class:`~deepsix.web.store.postgres.PostgresStore` is
announced on the database's ``LISTEN``/``NOTIFY`` channel in its own
transaction; :class:`PostgresExchange` listens to the other servers'
announcements, publishes what needs no storage (presence, notices), and
holds the *leases* that make one server at a time run a table's deals, bots
and clocks (:mod:`deepsix.web.cluster`).  A lease counts only while its
server holds its own session-level advisory lock (see
:mod:`deepsix.web.store.postgres`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import AsyncIterator, Collection, Mapping, Sequence
from typing import Any, Final

from deepsix.errors import missing_extra
from deepsix.web.store.base import StoreUnavailable
from deepsix.web.store.postgres import CHANNEL, LOCK_SPACE, announcement_text, one_line, redacted

try:  # the postgres extra; without it, one line says what to install
    import psycopg
except ImportError as _missing:
    raise missing_extra("deepsix.web.store.exchange", "postgres", _missing) from None

__all__ = ["PostgresExchange"]

_log = logging.getLogger("deepsix.web")


class PostgresExchange:
    """A server's side of the shared database: announcements in and out, and table leases.

    ``origin`` is the store's (announcements of its own writes are skipped).
    :meth:`messages` yields the other servers' announcements as dicts (a
    ``{"k": "resync"}`` after the listening connection was lost and made
    again: announcements may have been missed).
    """

    RETRY: Final = (0.2, 0.5, 1.0, 2.0, 5.0)

    def __init__(self, url: str, origin: str) -> None:
        self.url = url
        self.origin = origin
        self.location = redacted(url)
        self.server = 0
        """This server's number (its advisory lock's second key); 0 until :meth:`open`."""
        self._control: psycopg.AsyncConnection[tuple[Any, ...]] | None = None
        self._closed = False

    async def open(self) -> None:
        """Connect, and take a server number of our own (its lock held while we live)."""
        control = await psycopg.AsyncConnection.connect(
            self.url, autocommit=True, connect_timeout=10, application_name="deepsix serve"
        )
        while True:
            number = secrets.randbelow(2**31 - 1) + 1
            found = await (
                await control.execute("SELECT pg_try_advisory_lock(%s, %s)", (LOCK_SPACE, number))
            ).fetchone()
            if found is not None and found[0]:
                break
        self.server = number
        self._control = control

    async def close(self) -> None:
        """Let go of everything (the leases lapse with the lock at once)."""
        self._closed = True
        if self._control is not None:
            with contextlib.suppress(psycopg.Error):
                await self._control.close()
            self._control = None

    def _live(self) -> psycopg.AsyncConnection[tuple[Any, ...]]:
        if self._control is None or self._control.closed or self._control.broken:
            raise StoreUnavailable(f"{self.location}: the server's connection is lost")
        return self._control

    async def alive(self) -> bool:
        """Whether our connection (so our lock, so our leases) still holds."""
        try:
            await self._live().execute("SELECT 1")
        except (psycopg.Error, StoreUnavailable):
            return False
        return True

    async def publish(self, message: Mapping[str, object]) -> None:
        """Tell the other servers ``message`` (nothing is stored; lost if nobody listens)."""
        try:
            await self._live().execute(
                "SELECT pg_notify(%s, %s)", (CHANNEL, announcement_text(self.origin, message))
            )
        except (psycopg.Error, StoreUnavailable) as error:
            _log.warning("cluster: an announcement was not sent: %s", one_line(error))

    async def claim(self, table_ids: Sequence[str]) -> set[str]:
        """Take the leases of these tables that no live server holds; the ones we hold now."""
        if not table_ids:
            return set()
        cursor = await self._live().execute(
            """
            WITH live AS (
                SELECT objid::bigint AS server FROM pg_locks
                WHERE locktype = 'advisory' AND classid = %(space)s AND objsubid = 2 AND granted
            )
            INSERT INTO deepsix.leases (table_id, server)
            SELECT id, %(me)s FROM deepsix.tables WHERE id = ANY(%(ids)s)
            ON CONFLICT (table_id) DO UPDATE SET server = EXCLUDED.server,
                since = extract(epoch FROM now())
            WHERE deepsix.leases.server = %(me)s
                OR deepsix.leases.server NOT IN (SELECT server FROM live)
            RETURNING table_id
            """,
            {"space": LOCK_SPACE, "me": self.server, "ids": list(table_ids)},
        )
        return {str(row[0]) for row in await cursor.fetchall()}

    async def release(self, table_ids: Collection[str]) -> None:
        """Give up these leases (finished tables, a server stopping)."""
        if table_ids:
            with contextlib.suppress(psycopg.Error, StoreUnavailable):
                await self._live().execute(
                    "DELETE FROM deepsix.leases WHERE server = %s AND table_id = ANY(%s)",
                    (self.server, list(table_ids)),
                )

    async def messages(self) -> AsyncIterator[dict[str, Any]]:
        """The other servers' announcements, for ever (reconnecting when the line drops)."""
        failures = 0
        first = True
        while not self._closed:
            try:
                listener = await psycopg.AsyncConnection.connect(
                    self.url, autocommit=True, connect_timeout=10, application_name="deepsix listen"
                )
            except psycopg.Error as error:
                _log.warning("cluster: cannot listen (%s); trying again", one_line(error))
                await asyncio.sleep(self.RETRY[min(failures, len(self.RETRY) - 1)])
                failures += 1
                continue
            try:
                await listener.execute(f"LISTEN {CHANNEL}")
                if not first:
                    yield {"k": "resync"}
                first = False
                failures = 0
                async for notice in listener.notifies():
                    try:
                        message = json.loads(notice.payload)
                    except ValueError:
                        continue
                    if type(message) is dict and message.get("o") != self.origin:
                        yield message
            except psycopg.Error as error:
                if not self._closed:
                    _log.warning("cluster: the listening connection dropped (%s)", one_line(error))
            finally:
                with contextlib.suppress(psycopg.Error):
                    await listener.close()
