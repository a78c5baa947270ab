"""Observation vectors written step by step: a step costs what it changed, not the vector.

:class:`Written` remembers, for one observing seat, which facts a vector
holds, group by group (the head, the hand, the auction and melds, the
completed tricks, the current trick, the voids, the tallies...);
:meth:`StepWriter.changes` compares the next state's facts with them and
returns only the entries to clear and to set -- a card leaving a hand, a
card joining a trick, a new completed trick.  The one-pass
:class:`~deepsix.adapters._encoder.Encoder` stays the reference: the tests
check that vectors written step by step equal it, in every phase and after
any jump between unrelated states.

Plain typed Python with no numpy and no attrs, compiled in the compiled build.
"""

from __future__ import annotations

from threading import get_ident
from typing import Final, Protocol

from deepsix.state import GameState
from deepsix.tricks import Trick
from deepsix.views import PlayerView

from ._encoder import NUM_CARDS, PHASE_INDEX, RELATIVE, TRICK_ROW, Encoder
from ._facts import Facts, facts_of_state, facts_of_view
from ._tally import add_cards, add_pair, extended_tally

__all__ = ["Changes", "StepWriter", "Vector", "Written"]

Changes = tuple[list[int], list[int], list[float]]
"""Entries to clear, then entries to set and their values (:meth:`StepWriter.changes`)."""

_Record = tuple[object, list[int]]
"""A group of entries as written: the facts it was written from, and its indices."""
_SHARED_TALLIES: Final = 8192
"""How many tallies of completed tricks a :class:`StepWriter` shares between seats."""
_UNSET: Final = object()
"""The key of a group a vector does not hold yet."""


class Vector(Protocol):
    """A float vector that entries can be written to: a list, a numpy array..."""

    def __setitem__(self, index: int, value: float, /) -> None: ...


class Written:
    """What one observing seat's vector holds: per group of entries, the facts it was
    written from (its key) and the entries written (indices, values).

    A new one describes an all-zero vector.  Only :meth:`StepWriter.changes`
    reads and updates it, and only as it returns the changes that make the
    vector hold the new facts: apply every one of them to the vector, or drop
    both (:meth:`forget`).
    """

    __slots__ = (
        "hand",
        "head",
        "me",
        "passes",
        "played",
        "setup",
        "sizes",
        "taken",
        "tally",
        "totals",
        "trick",
        "tricks",
        "voids",
    )

    def __init__(self, me: int) -> None:
        self.me = me
        """The observing seat."""
        self.forget()

    def forget(self) -> None:
        """Describe an all-zero vector again."""
        unset: _Record = (_UNSET, [])
        self.head: _Record = unset
        self.hand = 0
        self.passes: _Record = unset
        self.sizes: tuple[int, ...] = (0, 0, 0, 0)
        self.setup: _Record = unset
        self.tricks: _Record = unset
        self.trick: _Record = unset
        self.voids: _Record = unset
        self.taken: _Record = unset
        self.totals: _Record = unset
        self.played: dict[int, int] = {}
        """Without perfect recall: the counts of the cards each seat played, as written."""
        self.tally: tuple[object, list[int]] = (_UNSET, [])
        """The tally (:meth:`Encoder.tally`) of the completed tricks written."""


class StepWriter:
    """Brings vectors of one layout (its :class:`Encoder`) from one state to the next."""

    def __init__(self, encoder: Encoder) -> None:
        self.encoder = encoder
        """The layout's encoder: its offsets, and its memos of entries per seat."""
        self._tallies: dict[int, tuple[tuple[Trick, ...], list[int]]] = {}
        # Per (thread, observing seat): a list vector and what it holds, for :meth:`tensor`.
        self._vectors: dict[tuple[int, int], tuple[Written, list[float]]] = {}

    def changes(self, written: Written, source: GameState | PlayerView) -> Changes:
        """What to clear and set in a vector holding ``written`` so that it holds the
        encoding of ``source`` (a state, or the seat's view) for ``written.me``;
        ``written`` is updated to match (forgotten if this raises)."""
        encoder = self.encoder
        try:
            if type(source) is GameState:
                facts = facts_of_state(
                    source, written.me, private=encoder.private, pass_size=encoder.pass_size
                )
            else:
                assert type(source) is PlayerView
                facts = facts_of_view(source)
            return self._changes(written, facts)
        except BaseException:  # forget what is written: the next changes write it all
            written.forget()
            raise

    def write(self, written: Written, source: GameState | PlayerView, vector: Vector) -> None:
        """Apply :meth:`changes` to ``vector``, which holds ``written``; if this raises,
        both are forgotten (``vector`` is then whatever it holds: zero it)."""
        clear, at, values = self.changes(written, source)
        try:
            for index in clear:
                vector[index] = 0.0
            for k in range(len(at)):
                vector[at[k]] = values[k]
        except BaseException:  # half-written
            written.forget()
            raise

    def tensor(self, source: GameState | PlayerView, me: int) -> list[float]:
        """``me``'s encoding of ``source`` (a state, or ``me``'s view) as a new list.

        Kept per thread and seat, one list vector is brought to ``source`` by
        :meth:`write` and copied out: a step of a game costs the entries it
        changed and one copy.
        """
        slot = (get_ident(), me)
        found = self._vectors.get(slot)
        if found is None:
            found = self._vectors[slot] = (Written(me), [0.0] * self.encoder.size)
        written, vector = found
        try:
            self.write(written, source, vector)
        except BaseException:  # half-written: start again from zeros next time
            del self._vectors[slot]
            raise
        return vector.copy()

    def _changes(self, w: Written, f: Facts) -> Changes:  # noqa: PLR0912, PLR0915  # the hot path
        """The changes (see :meth:`changes`), one group after another."""
        e = self.encoder
        me = w.me
        rel = RELATIVE[me]
        clear: list[int] = []
        at: list[int] = []
        values: list[float] = []
        changes = (clear, at, values)
        # Each group: if its facts differ from the written ones, clear what was written and
        # set the new entries.  Every clear is applied before every set, so a group may set
        # an entry another group clears (the current trick becoming a completed one).
        phase = f.phase
        dealer = f.dealer
        to_act = f.to_act
        key: object = (phase, dealer, to_act)
        old = w.head
        if old[0] != key:
            ones = [e.player + me, e.phase + PHASE_INDEX[phase], e.dealer + rel[dealer]]
            if to_act is not None:
                ones.append(e.to_act + rel[to_act])
            clear += old[1]
            at += ones
            values += [1.0] * len(ones)
            w.head = (key, ones)
        if e.private:
            hand = f.hand
            before = w.hand
            if hand != before:
                base = e.hand
                diff = hand ^ before
                while diff:
                    card = ((diff & -diff).bit_length() - 1) >> 1
                    n = (hand >> (2 * card)) & 3
                    if n:
                        at.append(base + card)
                        values.append(float(n))
                    else:
                        clear.append(base + card)
                    diff &= ~(3 << (2 * card))
                w.hand = hand
            key = (f.passed, f.received)
            old = w.passes
            if old[0] != key:
                counted: dict[int, int] = {}
                add_cards(counted, e.passed, f.passed)
                add_cards(counted, e.received, f.received)
                w.passes = _swap(key, old, counted, changes)
        if not e.public:
            return changes
        sizes = w.sizes
        hand_sizes = f.hand_sizes
        if sizes != hand_sizes:
            base = e.hand_sizes
            for seat in range(4):
                n = hand_sizes[seat]
                if n != sizes[seat]:
                    if n:
                        at.append(base + rel[seat])
                        values.append(float(n))
                    else:
                        clear.append(base + rel[seat])
            w.sizes = hand_sizes
        setup = f.setup
        key = (
            setup
            if setup is not None
            else (f.bids, f.bidder, f.bid, f.sunk_suit, f.invitation, f.pass_counts, f.melds)
        )
        old = w.setup
        if old[0] is not key and old[0] != key:
            counted = dict.fromkeys(e.auction(me, f.bids), 1)
            bidder = f.bidder
            bid = f.bid
            if bidder is not None and bid is not None:
                counted[e.bidder + rel[bidder]] = 1
                counted[e.contract + e.bid_index[bid]] = 1
            sunk_suit = f.sunk_suit
            if sunk_suit is not None:
                counted[e.sunk_suit + sunk_suit] = 1
            add_cards(counted, e.invitation, f.invitation)
            pass_counts = f.pass_counts
            if pass_counts[0]:
                counted[e.pass_counts] = pass_counts[0]
            if pass_counts[1]:
                counted[e.pass_counts + 1] = pass_counts[1]
            counted.update(e.meld_counts(me, f.melds))
            w.setup = _swap(key, old, counted, changes)
        scores = f.scores
        key = (scores, f.hand_number)
        old = w.totals
        if old[0] != key:
            team = me & 1
            counted = {}
            add_pair(counted, e.scores, scores[team], scores[1 - team])
            counted[e.hand_number] = f.hand_number
            w.totals = _swap(key, old, counted, changes)
        tricks = f.tricks
        old = w.tricks
        done = old[0]
        if done is not tricks:
            # A hand's completed tricks grow one at a time: set only the new one's entries.
            start = len(done) if type(done) is tuple else 0
            grown = 0 < start < len(tricks) and tricks[:start] == done
            start = start if grown else 0
            if e.perfect_recall:
                if grown:
                    new = e.trick_rows(me, tricks, start)
                    ones = old[1] + new
                    at += new
                    values += [1.0] * len(new)
                else:
                    ones = e.trick_rows(me, tricks, 0)
                    clear += old[1]
                    at += ones
                    values += [1.0] * len(ones)
                w.tricks = (tricks, ones)
            else:
                played = dict(w.played) if grown else {}
                base = e.played
                for k in range(start, len(tricks)):
                    for seat, card in tricks[k].plays:
                        index = base + rel[seat] * NUM_CARDS + card
                        played[index] = n = played.get(index, 0) + 1
                        if grown:
                            at.append(index)
                            values.append(float(n))
                if not grown:
                    clear += old[1]
                    at += played
                    values += map(float, played.values())
                w.played = played
                w.tricks = (tricks, list(played))
        trick = f.trick
        key = (trick, len(tricks))
        old = w.trick
        same_trick = old[0] == key
        if not same_trick:
            ones = []
            if trick:
                if e.perfect_recall:
                    row = e.tricks + len(tricks) * TRICK_ROW
                    leader = e.trick_leaders + len(tricks) * 4
                else:
                    row = e.trick
                    leader = e.trick_leader
                for seat, card in trick:
                    ones.append(row + rel[seat] * NUM_CARDS + card)
                ones.append(leader + rel[trick[0][0]])
            clear += old[1]
            at += ones
            values += [1.0] * len(ones)
            w.trick = (key, ones)
        known = w.tally
        if known[0] is tricks:
            if same_trick:  # the voids come from the tricks and the trick: unchanged
                return changes
            tally = known[1]
        else:
            # The same for every seat: the first seat of a game to see these tricks keeps
            # their tally for the others (by identity, in a table emptied when it fills up).
            shared = self._tallies.get(id(tricks))
            if shared is not None and shared[0] is tricks:
                tally = shared[1]
            else:
                tally = extended_tally(known[0], known[1], tricks)
                if len(self._tallies) >= _SHARED_TALLIES:
                    self._tallies.clear()
                self._tallies[id(tricks)] = (tricks, tally)
            w.tally = (tricks, tally)
        void_rows = tally[4:]
        if len(trick) > 1:
            led = trick[0][1] // 7
            for seat, card in trick[1:]:
                if card // 7 != led:
                    void_rows[seat] |= 1 << led
        key = tuple(void_rows)
        old = w.voids
        if old[0] != key:
            ones = []
            base = e.voids
            for seat in range(4):
                suits = void_rows[seat]
                if suits:
                    row = base + rel[seat] * 4
                    for suit in range(4):
                        if suits >> suit & 1:
                            ones.append(row + suit)
            clear += old[1]
            at += ones
            values += [1.0] * len(ones)
            w.voids = (key, ones)
        old = w.taken
        if old[0] is not tricks:
            counted = {}
            team = me & 1
            add_pair(counted, e.tricks_taken, tally[team], tally[1 - team])
            add_pair(counted, e.points_taken, tally[2 + team], tally[3 - team])
            w.taken = _swap(tricks, old, counted, changes)
        return changes


def _swap(key: object, old: _Record, counted: dict[int, int], changes: Changes) -> _Record:
    """Add to ``changes`` the clearing of a group's old entries and the setting of
    ``counted``; returns the group's new record, ``counted`` under ``key``."""
    indices = list(counted)
    changes[0].extend(old[1])
    changes[1].extend(indices)
    changes[2].extend(map(float, counted.values()))
    return (key, indices)
