"""The writer thread: every storage call leaves the event loop, in order, on one thread.

A store's methods block (a commit waits for the disk); the server's event
loop must not.  :class:`Writer` runs each call of a
:class:`~deepsix.web.store.Store` on its own single thread, in the order the
calls were made, and the coroutine that asked waits for the result -- so a
move is still stored *before* it is pushed, while other tables go on.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable, Collection
from typing import TypeVar

from deepsix.web.store.base import LIVE, ChatRow, Store, TableRow, TableStatus

__all__ = ["Writer"]

T = TypeVar("T")


class Writer:
    """A :class:`~deepsix.web.store.Store` whose calls run on one thread of their own."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.location = store.location
        self._thread = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="deepsix-store")

    async def _call(self, function: Callable[..., T], *args: object) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._thread, function, *args)

    def close(self) -> None:
        """Finish the calls already made, then close the store."""
        self._thread.shutdown(wait=True)
        self.store.close()

    async def add_table(self, row: TableRow) -> None:
        """:meth:`Store.add_table <deepsix.web.store.Store.add_table>`, off the loop."""
        await self._call(self.store.add_table, row)

    async def save_table(self, row: TableRow) -> None:
        """:meth:`Store.save_table <deepsix.web.store.Store.save_table>`, off the loop."""
        await self._call(self.store.save_table, row)

    async def table(self, table_id: str) -> TableRow | None:
        """:meth:`Store.table <deepsix.web.store.Store.table>`, off the loop."""
        return await self._call(self.store.table, table_id)

    async def tables(self, statuses: Collection[TableStatus] = LIVE) -> list[TableRow]:
        """:meth:`Store.tables <deepsix.web.store.Store.tables>`, off the loop."""
        return await self._call(self.store.tables, statuses)

    async def damaged(self) -> list[tuple[str, str]]:
        """:meth:`Store.damaged <deepsix.web.store.Store.damaged>`, off the loop."""
        return await self._call(self.store.damaged)

    async def finished(
        self, limit: int, before: tuple[float, str] | None = None, *, listed_only: bool = True
    ) -> list[TableRow]:
        """:meth:`Store.finished <deepsix.web.store.Store.finished>`, off the loop."""
        return await self._call(lambda: self.store.finished(limit, before, listed_only=listed_only))

    async def append(self, table_id: str, seq: int, action: str, at: float) -> None:
        """:meth:`Store.append <deepsix.web.store.Store.append>`, off the loop."""
        await self._call(self.store.append, table_id, seq, action, at)

    async def moves(self, table_id: str) -> list[str]:
        """:meth:`Store.moves <deepsix.web.store.Store.moves>`, off the loop."""
        return await self._call(self.store.moves, table_id)

    async def add_chat(self, table_id: str, line: ChatRow) -> None:
        """:meth:`Store.add_chat <deepsix.web.store.Store.add_chat>`, off the loop."""
        await self._call(self.store.add_chat, table_id, line)

    async def chat(self, table_id: str, limit: int) -> list[ChatRow]:
        """:meth:`Store.chat <deepsix.web.store.Store.chat>`, off the loop."""
        return await self._call(self.store.chat, table_id, limit)
