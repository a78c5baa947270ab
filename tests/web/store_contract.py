"""The contract of a web store, as tests every back end must pass.

A back end's test module subclasses :class:`StoreContract` (the class name
must start with ``Test``) and defines the fixture ``open_database``: a
function that opens *the same* database each time it is called (a fresh,
empty one per test), ``make_newer``: a function that marks that
database as written by a newer server, and ``make_layout_3``: a function
that writes a table into that (empty) database as a server of layout 3
did, before the seats' history was kept.  Every test below then runs
against it; see ``tests/web/test_store_sqlite.py``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import attrs
import pytest

from deepsix.web.store import (
    ChatRow,
    HolderRow,
    SeatRow,
    SeqTaken,
    Store,
    StoreError,
    StoreRefused,
    TableCorrupt,
    TableRow,
    TableStatus,
)

Opener = Callable[[], Store]
OldWriter = Callable[[TableRow], None]

HISTORY = (
    HolderRow(0, 0, "human", "Ann ♥ Zoë"),
    HolderRow(1, 0, "human", "Bob"),
    HolderRow(1, 57, "bot", "heuristic"),
    HolderRow(3, 0, "human", "Bob"),
)
"""A seat history: East was Bob's, then the heuristic bot's from move 58 on."""


def table_row(table_id: str = "t1", created: float = 1000.0, **changes: object) -> TableRow:
    """A table row with every field set to something other than its default."""
    fields: dict[str, object] = {
        "id": table_id,
        "created": created,
        "rules": '{"format": "deepsix/1", "type": "Rules", "data": {}}',
        "dealer": "E",
        "seed": 2**63 - 1,
        "seats": (
            SeatRow("human", None, "Ann ♥ Zoë", "a" * 64),
            SeatRow("bot", "heuristic", "East"),
            SeatRow("open"),
            SeatRow("human", None, "Bob", "b" * 64),
        ),
        "status": "running",
        "seeded": True,
        "private": True,
        "clock": 45.5,
        "standin": "random",
        "host": "c" * 64,
        "invite": "invite-code",
        "result": None,
        "finished": None,
        "next": None,
        "holders": HISTORY,
    }
    fields.update(changes)
    return TableRow(**fields)  # type: ignore[arg-type]  # the fields above, by name


class StoreContract:
    """Tests of the :class:`~deepsix.web.store.Store` protocol, for any back end."""

    @pytest.fixture
    def open_database(self) -> Opener:
        raise NotImplementedError  # pragma: no cover - each back end defines it

    @pytest.fixture
    def make_newer(self) -> Callable[[], None]:
        raise NotImplementedError  # pragma: no cover - each back end defines it

    @pytest.fixture
    def make_layout_3(self) -> OldWriter:
        raise NotImplementedError  # pragma: no cover - each back end defines it

    @pytest.fixture
    def store(self, open_database: Opener) -> Store:
        return open_database()

    def test_a_table_reads_back_as_written_and_survives_a_reopen(
        self, open_database: Opener
    ) -> None:
        store = open_database()
        row = table_row()
        store.add_table(row)
        assert store.table("t1") == row
        assert store.tables() == [row]
        store.close()
        again = open_database()
        assert again.table("t1") == row
        assert again.table("nope") is None
        again.close()

    def test_a_saved_table_replaces_its_row(self, store: Store) -> None:
        store.add_table(table_row(private=False, host=None))
        later = table_row(
            status="finished",
            private=False,
            result='{"winner":"NS"}',
            finished=2000.5,
            next="t2",
            seats=(SeatRow("bot", "random", "N"),) * 4,
            clock=None,
        )
        store.save_table(later)
        assert store.table("t1") == later

    def test_the_seat_history_is_kept_with_the_row_and_survives_a_reopen(
        self, open_database: Opener
    ) -> None:
        store = open_database()
        store.add_table(table_row(holders=()))
        assert store.table("t1") == table_row(holders=())
        longer = (*HISTORY, HolderRow(2, 0, "human", "Cat"), HolderRow(2, 200, "bot", "random"))
        store.save_table(table_row(holders=longer))
        store.close()
        again = open_database()
        read = again.table("t1")
        assert read is not None
        assert read.holders == longer
        assert [row.holders for row in again.tables()] == [longer]
        again.save_table(attrs.evolve(read, status="finished", finished=9.0))
        assert [row.holders for row in again.finished(5, listed_only=False)] == [longer]
        again.close()

    def test_a_layout_3_database_upgrades_without_loss(
        self, open_database: Opener, make_layout_3: OldWriter
    ) -> None:
        """A database of the server before the seats' history: every table reads back as it
        was, with no history (its seats are taken as held from the start), and keeps one."""
        old = table_row(holders=())
        make_layout_3(old)
        store = open_database()
        read = store.table("t1")
        assert read == old
        store.save_table(attrs.evolve(read, holders=HISTORY))
        store.close()
        again = open_database()
        assert again.table("t1") == table_row()
        again.close()

    def test_live_tables_are_listed_oldest_first_and_by_status(self, store: Store) -> None:
        store.add_table(table_row("b", 2.0, status="waiting"))
        store.add_table(table_row("a", 1.0, status="running"))
        store.add_table(table_row("c", 3.0, status="finished", finished=5.0))
        assert [row.id for row in store.tables()] == ["a", "b"]
        finished: tuple[TableStatus, ...] = ("finished",)
        assert [row.id for row in store.tables(finished)] == ["c"]
        assert [row.id for row in store.tables(("waiting", "running", "finished"))] == [
            "a",
            "b",
            "c",
        ]
        assert store.damaged() == []

    def test_finished_tables_come_page_by_page_latest_first(self, store: Store) -> None:
        for index in range(25):
            store.add_table(
                table_row(
                    f"t{index:02}",
                    float(index),
                    status="finished",
                    finished=float(index // 2),
                    private=index % 5 == 0,
                )
            )
        store.add_table(table_row("live", 99.0, status="running", private=False))
        pages: list[list[str]] = []
        before: tuple[float, str] | None = None
        while True:
            page = store.finished(7, before)
            if not page:
                break
            pages.append([row.id for row in page])
            last = page[-1]
            assert last.finished is not None
            before = (last.finished, last.id)
        listed = [table_id for page in pages for table_id in page]
        expected = [f"t{i:02}" for i in reversed(range(25)) if i % 5 != 0]
        assert listed == expected  # ties on the time broken by id, no repeat, no gap
        assert [len(page) for page in pages] == [7, 7, 6]
        everything = store.finished(100, listed_only=False)
        assert len(everything) == 25

    def test_moves_are_kept_in_order_and_each_seq_once(self, open_database: Opener) -> None:
        store = open_database()
        store.add_table(table_row("t1"))
        store.add_table(table_row("t2"))
        for seq in range(1, 6):
            store.append("t1", seq, f'{{"n":{seq}}}', 10.0 + seq)
        store.append("t2", 1, '"other"', 1.0)
        with pytest.raises(SeqTaken):
            store.append("t1", 3, '"late"', 20.0)
        assert store.moves("t1") == [f'{{"n":{seq}}}' for seq in range(1, 6)]
        assert store.moves("t2") == ['"other"']
        assert store.moves("none") == []
        store.close()
        assert open_database().moves("t1")[2] == '{"n":3}'

    def test_a_missing_move_is_reported_not_skipped(self, store: Store) -> None:
        store.add_table(table_row())
        store.append("t1", 1, '"a"', 1.0)
        store.append("t1", 3, '"c"', 3.0)
        with pytest.raises(TableCorrupt, match="move 2 is missing"):
            store.moves("t1")

    def test_two_writers_racing_for_one_seq_store_exactly_one(self, open_database: Opener) -> None:
        first, second = open_database(), open_database()
        first.add_table(table_row())
        outcomes: list[str] = []
        barrier = threading.Barrier(2)

        def write(store: Store, text: str) -> None:
            barrier.wait()
            try:
                store.append("t1", 1, text, 1.0)
                outcomes.append("stored")
            except SeqTaken:
                outcomes.append("refused")

        threads = [
            threading.Thread(target=write, args=(store, text))
            for store, text in ((first, '"first"'), (second, '"second"'))
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert sorted(outcomes) == ["refused", "stored"]
        assert first.moves("t1") in (['"first"'], ['"second"'])
        assert second.moves("t1") == first.moves("t1")

    def test_chat_keeps_the_latest_lines_per_table(self, store: Store) -> None:
        store.add_table(table_row("t1"))
        store.add_table(table_row("t2"))
        for n in range(8):
            store.add_chat("t1", ChatRow("N" if n % 2 else None, "Ann", f"line {n} <b>", n, n * 3))
        store.add_chat("t2", ChatRow("S", "Bob", "elsewhere", 1.0, 0))
        lines = store.chat("t1", 3)
        assert [line.text for line in lines] == ["line 5 <b>", "line 6 <b>", "line 7 <b>"]
        assert lines[0] == ChatRow("N", "Ann", "line 5 <b>", 5.0, 15)
        assert [line.text for line in store.chat("t2", 10)] == ["elsewhere"]
        assert store.chat("none", 10) == []

    def test_errors_are_store_errors_that_name_the_database(self, store: Store) -> None:
        store.add_table(table_row())
        store.append("t1", 1, '"a"', 1.0)
        with pytest.raises(StoreError) as refused:
            store.append("t1", 1, '"b"', 1.0)
        assert store.location in str(refused.value)
        assert "\n" not in str(refused.value)

    def test_a_database_from_a_newer_server_is_refused(
        self, open_database: Opener, make_newer: Callable[[], None]
    ) -> None:
        store = open_database()
        store.add_table(table_row())
        store.close()
        make_newer()
        with pytest.raises(StoreRefused, match="newer"):
            open_database()
