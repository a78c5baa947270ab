"""A table's row as a database holds it: the columns every back end stores, in one order.

Both back ends keep the same columns (:data:`COLUMNS`), the seats and the
seats' history each as one JSON text, and read a row back through
:func:`row_of_values`, which refuses
what no server wrote (an unknown seat kind or status) with
:class:`~deepsix.web.store.base.TableCorrupt`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any, Final

from deepsix.web.store.base import HolderRow, SeatRow, TableCorrupt, TableRow, seat_rows

__all__ = [
    "COLUMNS",
    "KINDS",
    "STATUSES",
    "finished_filter",
    "holders_json",
    "printable",
    "read_rows",
    "row_of_values",
    "seats_json",
    "values_of_row",
]

COLUMNS: Final = (
    "id, created, rules, dealer, seed, seats, status, seeded, private, clock, standin, host,"
    " invite, result, finished, next_table, hint, holders"
)
"""The stored columns of a table, in the order of :func:`values_of_row`."""
KINDS: Final = ("open", "human", "bot")
STATUSES: Final = ("waiting", "running", "finished")
_SEAT_LETTERS: Final = "NESW"
MAX_HOLDERS: Final = 10_000
"""The most entries a stored seat history may hold (a game has a few changes at most)."""


def seats_json(seats: tuple[SeatRow, ...]) -> str:
    """The four seats as one JSON text (credential hashes included, never credentials)."""
    return json.dumps(
        [
            {"kind": seat.kind, "bot": seat.bot, "name": seat.name, "credential": seat.credential}
            for seat in seats
        ],
        separators=(",", ":"),
        sort_keys=True,
    )


def holders_json(holders: tuple[HolderRow, ...]) -> str:
    """The seats' history as one JSON text: ``[{"seat": "E", "since": 57, "kind": "bot",
    "name": "heuristic"}, ...]`` (no credential: the history names who, never proves it)."""
    return json.dumps(
        [
            {"seat": _SEAT_LETTERS[h.seat], "since": h.since, "kind": h.kind, "name": h.name}
            for h in holders
        ],
        separators=(",", ":"),
        sort_keys=True,
        ensure_ascii=False,
    )


def _holders_of(text: str) -> tuple[HolderRow, ...]:
    """The seats' history read back; :class:`TableCorrupt` if no server wrote it."""
    found = json.loads(text)
    if type(found) is not list or len(found) > MAX_HOLDERS:
        raise TableCorrupt("its seat history is not a list of entries (damaged)")
    holders = []
    for entry in found:
        if type(entry) is not dict:
            raise TableCorrupt("an entry of its seat history is damaged")
        seat, since, kind, name = (entry.get(k) for k in ("seat", "since", "kind", "name"))
        if (
            type(seat) is not str
            or seat not in tuple(_SEAT_LETTERS)
            or type(since) is not int
            or since < 0
            or kind not in ("human", "bot")
            or type(name) is not str
        ):
            raise TableCorrupt("an entry of its seat history is damaged")
        holders.append(HolderRow(_SEAT_LETTERS.index(seat), since, kind, name))
    return tuple(holders)


def values_of_row(row: TableRow) -> tuple[Any, ...]:
    """The row's values in the order of :data:`COLUMNS` (plain ints, floats, bools, text)."""
    return (
        row.id,
        row.created,
        row.rules,
        row.dealer,
        row.seed,
        seats_json(row.seats),
        row.status,
        row.seeded,
        row.private,
        row.clock,
        row.standin,
        row.host,
        row.invite,
        row.result,
        row.finished,
        row.next,
        row.hint,
        holders_json(row.holders),
    )


def row_of_values(values: tuple[Any, ...]) -> TableRow:
    """A stored row read back; :class:`~deepsix.web.store.base.TableCorrupt` (or
    ``ValueError``) if it cannot be."""
    (
        table_id,
        created,
        rules,
        dealer,
        seed,
        seats_text,
        status,
        seeded,
        private,
        clock,
        standin,
        host,
        invite,
        result,
        finished,
        next_table,
        hint,
        holders_text,
    ) = values
    texts = {"id": table_id, "rules": rules, "dealer": dealer, "seats": seats_text,
             "stand-in": standin, "invite": invite, "seat history": holders_text}  # fmt: skip
    optional = {"host": host, "result": result, "rematch": next_table}
    for name, value in (*texts.items(), *optional.items()):
        if type(value) is not str and (value is not None or name in texts):
            raise TableCorrupt(f"its {name} is not text (damaged)")
    seats = []
    for slot in json.loads(seats_text):
        kind = slot["kind"]
        if kind not in KINDS:  # (the value is not shown: a damaged row may hold anything)
            raise TableCorrupt("a seat of an unknown kind")
        credential = slot.get("credential")
        if credential is not None and not _is_digest(credential):
            raise TableCorrupt("a seat's credential hash is damaged")
        seats.append(SeatRow(kind, slot.get("bot"), str(slot.get("name") or ""), credential))
    if status not in STATUSES:
        raise TableCorrupt("an unknown status")
    if host is not None and not _is_digest(host):
        raise TableCorrupt("the host's credential hash is damaged")
    return TableRow(
        id=table_id,
        created=float(created),
        rules=rules,
        dealer=dealer,
        seed=int(seed),
        seats=seat_rows(seats),
        status=status,
        seeded=bool(seeded),
        private=bool(private),
        clock=None if clock is None else float(clock),
        standin=standin,
        host=host,
        invite=invite,
        result=result,
        finished=None if finished is None else float(finished),
        next=next_table,
        hint=bool(hint),
        holders=_holders_of(holders_text),
    )


def _is_digest(value: object) -> bool:
    """Whether ``value`` is a SHA-256 in hex, as every stored credential hash is."""
    return type(value) is str and len(value) == 64 and all(c in "0123456789abcdef" for c in value)


def read_rows(
    found: Iterable[tuple[Any, ...]], read: Callable[[tuple[Any, ...]], TableRow] = row_of_values
) -> tuple[list[TableRow], list[tuple[str, str]]]:
    """The rows read back with ``read``, and the ones that cannot be: ``(id, reason)`` each
    (a damaged row is quarantined by the server, never fatal to the others)."""
    rows: list[TableRow] = []
    damaged: list[tuple[str, str]] = []
    for values in found:
        try:
            rows.append(read(values))
        except (ValueError, TypeError, KeyError, TableCorrupt) as error:
            damaged.append((printable(values[0]), f"its row cannot be read: {error}"))
    return rows, damaged


def printable(value: object) -> str:
    """A stored text as it may be shown: a damaged one (bytes) with its bad bytes escaped."""
    if isinstance(value, bytes):
        return value.decode(errors="backslashreplace")
    return str(value)


def finished_filter(
    before: tuple[float, str] | None, *, listed_only: bool, mark: str, listed: str
) -> tuple[str, tuple[Any, ...]]:
    """The ``WHERE`` clause and parameters of a page of finished tables, the latest first:
    those after the cursor ``before`` (``(finished, id)`` of the previous page's last).
    ``mark`` is the driver's placeholder, ``listed`` its test for a listed table."""
    where = "status = 'finished'" + (f" AND {listed}" if listed_only else "")
    if before is None:
        return where, ()
    where += f" AND (finished < {mark} OR (finished = {mark} AND id < {mark}))"
    return where, (before[0], before[0], before[1])
