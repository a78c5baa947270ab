"""What an observation vector holds, group by group: the memory of the step-by-step writer.

:class:`Written` describes, for one observing seat, the facts a vector was
last written from and the entries written for each group (the head, the
hand, the auction and melds, the tricks, the voids, the tallies...);
:class:`~deepsix.adapters._stepwise.StepWriter` compares the next state's
facts with it and writes only what changed.  :class:`Vector` is what it
writes to, :class:`Recorder` a vector that records the writes instead.

Plain typed Python with no numpy and no attrs, compiled in the compiled build.
"""

from __future__ import annotations

from typing import Any, Final, Protocol

__all__ = ["UNSET", "Counted", "Record", "Recorder", "Vector", "Written"]

Record = tuple[object, list[int]]
"""A group of entries as written: the facts it was written from, and its indices."""
Counted = tuple[object, dict[int, int]]
"""A group of counted entries as written: the facts it was written from, its entries and
their values."""
UNSET: Final = object()
"""The key of a group a vector does not hold yet."""


class Vector(Protocol):
    """A float vector that entries can be written to: a list, a numpy array's memoryview...

    The writer passes an ``int`` index and a ``float`` value, both as objects it keeps
    boxed (:attr:`StepWriter.boxed`, :attr:`StepWriter.small`): boxing them anew for
    every entry cost about as much as writing it."""

    def __setitem__(self, index: Any, value: Any, /) -> None: ...


class Written:
    """What one observing seat's vector holds: per group of entries, the facts it was
    written from (its key) and the entries written (indices, values).

    A new one describes an all-zero vector.  Only :meth:`StepWriter.changes`
    reads and updates it, and only as it returns the changes that make the
    vector hold the new facts: apply every one of them to the vector, or drop
    both (:meth:`forget`).
    """

    __slots__ = (
        "auction",
        "dealer",
        "hand",
        "hand_number",
        "head",
        "invitation",
        "me",
        "melds",
        "passes",
        "phase",
        "played",
        "plays",
        "scores",
        "setup",
        "sizes",
        "taken",
        "tally",
        "terms",
        "to_act",
        "trick",
        "tricks",
        "void_entries",
        "voids",
    )

    def __init__(self, me: int) -> None:
        self.me = me
        """The observing seat."""
        self.forget()

    def forget(self) -> None:
        """Describe an all-zero vector again."""
        unset: Record = (UNSET, [])
        self.phase: object = UNSET
        self.dealer = -1
        self.to_act: int | None = -1
        self.head: list[int] = []
        """The entries of ``player``, ``phase``, ``dealer`` and ``to_act``, as written."""
        self.hand = 0
        self.passes: tuple[object, object, dict[int, int]] = (UNSET, UNSET, {})
        """The passed and received cards written, and their entries."""
        self.sizes: tuple[int, int, int, int] = (0, 0, 0, 0)
        self.setup: object = UNSET
        """The state's hand setup whose facts are written (the auction, contract, sunk
        suit, invitation, pass counts and melds, and the seat's passes)."""
        self.auction: Record = unset
        self.terms: Counted = (UNSET, {})
        """The contract, sunk suit and pass counts written, and their entries."""
        self.invitation: Counted = (UNSET, {})
        self.melds: Counted = (UNSET, {})
        self.tricks: Record = unset
        self.trick: Record = unset
        self.voids = [0, 0, 0, 0]
        """Per seat, a bit set of the suits written as void."""
        self.void_entries: list[int] = []
        self.taken: object = UNSET
        """The completed tricks whose ``tricks_taken`` and ``points_taken`` are written."""
        self.scores: tuple[int, int] = (0, 0)
        """The scores written (meaningless while ``hand_number`` is -1: nothing is)."""
        self.hand_number = -1
        self.played: dict[int, int] = {}
        """Without perfect recall: the counts of the cards each seat played, as written."""
        self.plays: list[int] = []
        """With perfect recall: the entries of the tricks written (completed and current)."""
        self.tally: tuple[object, list[int]] = (UNSET, [])
        """The tally (:meth:`Encoder.tally`) of the completed tricks written."""


class Recorder:
    """A vector that only records what is written to it, as :data:`Changes`."""

    def __init__(self) -> None:
        self.clear: list[int] = []
        self.at: list[int] = []
        self.values: list[float] = []

    def __setitem__(self, index: Any, value: Any) -> None:
        if value == 0.0:
            self.clear.append(index)
        else:
            self.at.append(index)
            self.values.append(value)
