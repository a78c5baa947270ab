"""Who held each seat, and for which hands: a web table's seat history.

A table's seats say who holds them *now*; once a person's seat goes to a
bot (she left, or the host gave it away), they would forget that she
played the first hands.  So each table also keeps its seats' history
(:attr:`~deepsix.web.store.base.TableRow.holders`): an entry each time a seat
changed hands, with the ``seq`` it changed at, stored with the seats
themselves.  :func:`advanced` brings the history up to date with the seats
(every change of seats goes through it when the row is stored);
:func:`hand_holders` says who held each seat in each hand; the record
(:mod:`deepsix.web.archive`), the replay page and the lobby's listing show
that.

What counts as holding a seat:

* a person holds her seat from when she took it until it is given to a bot
  (by her leaving, or by the host); a stand-in bot that plays for her while
  she is away does not take her seat from her (she may take it back), so
  the hands it played for her are still hers;
* a bot holds its seat from when it was given it until it is given to
  another;
* a seat that changed hands *during* a hand is held, for that hand, by both
  (the one who began it, then the one who took over), in that order: the
  record and the replay name both, so no one who sat there is forgotten;
  a change between two hands (after one is scored, before the next deal)
  belongs to the next hand only;
* a table stored before the history was kept (layout 3 and older) has none:
  its seats, as they were then, are taken as held from the start.

A re-issued credential does not change who holds a seat: the history names
the seat's holder by her name, as the table does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from deepsix.actions import Action, Deal
from deepsix.web.slots import SeatSlot
from deepsix.web.store import HolderRow, SeatRow

__all__ = ["advanced", "hand_holders", "holder_label", "played"]


def holder_label(slot: SeatSlot | SeatRow) -> tuple[Literal["human", "bot"], str] | None:
    """Who holds ``slot``: ``("human", her name)``, ``("bot", its name)``, or ``None`` (open)."""
    if slot.kind == "open":
        return None
    if slot.kind == "bot":
        return "bot", slot.bot or "?"
    return "human", slot.name


def advanced(
    history: Sequence[HolderRow], seats: Sequence[SeatSlot | SeatRow], seq: int
) -> tuple[HolderRow, ...]:
    """``history`` brought up to date with ``seats`` at ``seq``: an entry for each seat whose
    holder is not its last entry's.

    A seat with no entry gets one from the start (``since`` 0: nobody else is known to have
    held it).  A change at the ``seq`` of the seat's last entry replaces that entry (nobody
    played between them); a seat that is open drops the entries it got at ``seq`` (they held
    nothing).  The entries come out by seat, then ``since``.
    """
    entries = list(history)
    for index, slot in enumerate(seats):
        mine = [entry for entry in entries if entry.seat == index]
        holder = holder_label(slot)
        if holder is None:
            entries = [e for e in entries if e.seat != index or e.since < seq]
            continue
        last = mine[-1] if mine else None
        if last is not None and (last.kind, last.name) == holder:
            continue
        since = seq if mine else 0
        if last is not None and last.since >= since:
            entries.remove(last)
            mine.pop()
            if mine and (mine[-1].kind, mine[-1].name) == holder:
                continue  # back to the one before, with nothing played between
        entries.append(HolderRow(index, since, holder[0], holder[1]))
    entries.sort(key=lambda entry: (entry.seat, entry.since))
    return tuple(entries)


def _spans(history: Sequence[HolderRow], seat: int, end: int) -> list[tuple[int, int, HolderRow]]:
    """The seat's entries with the actions each held: ``(first, after last, entry)`` as
    0-based action indices (an entry held up to the next one, the last up to ``end``)."""
    mine = sorted((entry for entry in history if entry.seat == seat), key=lambda e: e.since)
    spans = []
    for position, entry in enumerate(mine):
        until = mine[position + 1].since if position + 1 < len(mine) else max(end, entry.since)
        spans.append((entry.since, until, entry))
    return spans


def hand_holders(
    history: Sequence[HolderRow], actions: Sequence[Action]
) -> tuple[tuple[tuple[HolderRow, ...], ...], ...]:
    """Who held each seat in each hand of the game ``actions`` (a finished game's history):
    per hand (hand 1 first), per seat N E S W, the entries that held the seat for at least
    one of the hand's actions, in the order they took it.

    ``history`` must be up to date (:func:`advanced`).  A hand is its deal and every action
    up to the next deal.
    """
    deals = [index for index, action in enumerate(actions) if type(action) is Deal]
    bounds = list(zip(deals, [*deals[1:], len(actions)][: len(deals)], strict=True))
    seats = [_spans(history, seat, len(actions)) for seat in range(4)]
    return tuple(
        tuple(
            tuple(entry for first, until, entry in spans if first < end and until > start)
            for spans in seats
        )
        for start, end in bounds
    )


def played(
    history: Sequence[HolderRow], seat: int, seq: int, *, finished: bool
) -> tuple[HolderRow, ...]:
    """Everyone who held ``seat`` in a game at ``seq``, in order: the entries that held it
    for at least one action, and, while the table lives, whoever holds it now.

    ``history`` must be up to date (:func:`advanced`).  Each entry so named holds the seat
    in at least one hand of :func:`hand_holders` (the lobby and the record agree).
    """
    spans = _spans(history, seat, seq)
    found = [entry for first, until, entry in spans if first < until]
    if not finished and spans and (not found or found[-1] is not spans[-1][2]):
        found.append(spans[-1][2])
    return tuple(found)
