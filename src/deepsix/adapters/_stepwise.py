"""Observation vectors written step by step: a step costs what it changed, not the vector.

:class:`~deepsix.adapters._written.Written` remembers, for one observing
seat, which facts a vector holds, group by group (the head, the hand, the auction and melds, the
completed tricks, the current trick, the voids, the tallies...);
:meth:`StepWriter.changes` compares the next state's facts with them and
returns only the entries to clear and to set -- a card leaving a hand, a
card joining a trick, a new completed trick.  A state of the hand already
written (the same hand setup object) skips the setup's facts altogether
(:meth:`StepWriter._same_hand`).  The one-pass
:class:`~deepsix.adapters._encoder.Encoder` stays the reference: the tests
check that vectors written step by step equal it, in every phase and after
any jump between unrelated states.

Plain typed Python with no numpy and no attrs, compiled in the compiled build.
"""

from __future__ import annotations

from threading import get_ident
from typing import Final

from deepsix.cards import Seat
from deepsix.hands import SUIT_MASK, size
from deepsix.state import GameState, Phase
from deepsix.tricks import Trick
from deepsix.views import PlayerView

from ._encoder import NUM_CARDS, PHASE_INDEX, RELATIVE, TRICK_ROW, Encoder
from ._facts import Facts, facts_of_state, facts_of_view
from ._tally import add_cards, add_pair, extended_tally
from ._written import UNSET, Recorder, Vector, Written

__all__ = ["Changes", "StepWriter"]

Changes = tuple[list[int], list[int], list[float]]
"""Entries to clear, then entries to set and their values (:meth:`StepWriter.changes`)."""

Plays = tuple[tuple[Seat, int], ...]
"""The plays of a trick: (seat, card) in order."""

_SHARED_TALLIES: Final = 8192
"""How many tallies of completed tricks a :class:`StepWriter` shares between seats."""
_SMALL: Final = 64
"""Values below this are written from :attr:`StepWriter.small` (counts, sizes, tricks)."""


class StepWriter:
    """Brings vectors of one layout (its :class:`Encoder`) from one state to the next."""

    def __init__(self, encoder: Encoder) -> None:
        self.encoder = encoder
        """The layout's encoder: its offsets, and its memos of entries per seat."""
        self.boxed: list[object] = list(range(encoder.size))
        """Every index of the vector, as an int object (written without boxing it again)."""
        self.small: list[object] = [float(n) for n in range(_SMALL)]
        """The values 0.0 .. ``_SMALL - 1`` as float objects (``small[0]`` clears an entry,
        ``small[1]`` sets one)."""
        self._tallies: dict[int, tuple[tuple[Trick, ...], list[int]]] = {}
        # Per (thread, observing seat): a list vector and what it holds, for :meth:`tensor`.
        self._vectors: dict[tuple[int, int], tuple[Written, list[float]]] = {}

    def changes(self, written: Written, source: GameState | PlayerView) -> Changes:
        """What to clear and set in a vector holding ``written`` so that it holds the
        encoding of ``source`` (a state, or the seat's view) for ``written.me``;
        ``written`` is updated to match (forgotten if this raises)."""
        recorder = Recorder()
        self.write(written, source, recorder)
        return recorder.clear, recorder.at, recorder.values

    def write(self, written: Written, source: GameState | PlayerView, vector: Vector) -> None:
        """Bring ``vector``, which holds ``written``, to the encoding of ``source`` (a state,
        or the seat's view) for ``written.me``, writing only the entries that change.

        If this raises, ``written`` is forgotten and ``vector`` is half-written:
        zero it before its next use.
        """
        encoder = self.encoder
        try:
            if type(source) is GameState:
                if written.setup is source.setup and self._same_hand(written, source, vector):
                    return
                facts = facts_of_state(
                    source, written.me, private=encoder.private, pass_size=encoder.pass_size
                )
            else:
                assert type(source) is PlayerView
                facts = facts_of_view(source)
            self._write(written, facts, vector)
        except BaseException:  # forget what is written: the next call writes it all
            written.forget()
            raise

    def _same_hand(self, w: Written, state: GameState, out: Vector) -> bool:
        """The short way, for a state whose hand setup is the one written (the same
        object): then the auction, contract, invitation, melds and the seat's passes are
        those written, and only the head, the hands and the tricks can differ.  False (and
        nothing written) if the scores or the hand number differ too."""
        # The scores and the packed hands are fixed-length tuples of ints: compiled, their
        # items are read one by one (comparing or indexing the tuples would box them anew).
        scores = state.scores
        written = w.scores
        if w.hand_number != state.hand_number or written[0] != scores[0] or written[1] != scores[1]:
            return False
        self._head(w, state.phase, state.dealer, state.to_act, out)
        p0, p1, p2, p3 = state.packed_hands
        if self.encoder.private:
            me = w.me
            self._hand(w, p0 if me == 0 else p1 if me == 1 else p2 if me == 2 else p3, out)
        self._sizes(w, _held(p0), _held(p1), _held(p2), _held(p3), out)
        self._cards(w, state.tricks, state.trick, out)
        return True

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

    def _write(self, w: Written, f: Facts, out: Vector) -> None:
        """Write into ``out`` what differs between ``w`` and ``f``, group after group.

        Each group of entries is its own part of the vector (the groups never
        share an entry), so the order of the writes between groups does not
        matter; within a group the old entries are cleared before the new set.
        """
        e = self.encoder
        me = w.me
        self._head(w, f.phase, f.dealer, f.to_act, out)
        if e.private:
            self._hand(w, f.hand, out)
            passed = f.passed
            received = f.received
            old = w.passes
            if (old[0] is not passed or old[1] is not received) and (
                old[0] != passed or old[1] != received
            ):
                counted: dict[int, int] = {}
                add_cards(counted, e.passed, passed)
                add_cards(counted, e.received, received)
                self._swap(old[2], counted, out)
                w.passes = (passed, received, counted)
        if not e.public:
            return
        n0, n1, n2, n3 = f.hand_sizes
        self._sizes(w, n0, n1, n2, n3, out)
        setup = f.setup
        # From a state, its hand setup stands for these facts: the same one, the same facts.
        if setup is None or w.setup is not setup:
            self._setup(w, f, out)
            w.setup = UNSET if setup is None else setup
        scores = f.scores
        hand_number = f.hand_number
        written = w.scores
        if w.hand_number != hand_number or written[0] != scores[0] or written[1] != scores[1]:
            team = me & 1
            boxed = self.boxed
            out[boxed[e.scores]] = float(scores[team])
            out[boxed[e.scores + 1]] = float(scores[1 - team])
            out[boxed[e.hand_number]] = float(hand_number)
            w.scores = scores
            w.hand_number = hand_number
        self._cards(w, f.tricks, f.trick, out)

    def _setup(self, w: Written, f: Facts, out: Vector) -> None:
        """The hand's setup, part by part: the auction (a new call is one more entry), the
        contract, sunk suit and pass counts, the invitation, the melds."""
        e = self.encoder
        me = w.me
        bids = f.bids
        auction = w.auction
        done = auction[0]
        if done is not bids:
            ones = e.auction(me, bids)  # the encoder's memo: read, never changed
            if type(done) is tuple and len(done) <= len(bids) and _starts(bids, done):
                one = self.small[1]
                for k in range(len(done), len(ones)):
                    out[self.boxed[ones[k]]] = one
            else:
                self._replace(auction[1], ones, out)
            w.auction = (bids, ones)
        terms = (f.bidder, f.bid, f.sunk_suit, f.pass_counts)
        old = w.terms
        if old[0] != terms:
            counted: dict[int, int] = {}
            bidder = f.bidder
            bid = f.bid
            if bidder is not None and bid is not None:
                counted[e.bidder + RELATIVE[me][bidder]] = 1
                counted[e.contract + e.bid_index[bid]] = 1
            sunk_suit = f.sunk_suit
            if sunk_suit is not None:
                counted[e.sunk_suit + sunk_suit] = 1
            add_pair(counted, e.pass_counts, f.pass_counts[0], f.pass_counts[1])
            self._swap(old[1], counted, out)
            w.terms = (terms, counted)
        invitation = f.invitation
        old = w.invitation
        if old[0] is not invitation and old[0] != invitation:
            counted = {}
            add_cards(counted, e.invitation, invitation)
            self._swap(old[1], counted, out)
            w.invitation = (invitation, counted)
        melds = f.melds
        old = w.melds
        if old[0] is not melds and old[0] != melds:
            counted = e.meld_counts(me, melds)  # the encoder's memo: read, never changed
            self._swap(old[1], counted, out)
            w.melds = (melds, counted)

    def _head(self, w: Written, phase: Phase, dealer: int, to_act: int | None, out: Vector) -> None:
        """``player``, ``phase``, ``dealer`` and ``to_act``."""
        if w.phase is not phase or w.dealer != dealer or w.to_act != to_act:
            e = self.encoder
            rel = RELATIVE[w.me]
            ones = [e.player + w.me, e.phase + PHASE_INDEX[phase], e.dealer + rel[dealer]]
            if to_act is not None:
                ones.append(e.to_act + rel[to_act])
            self._replace(w.head, ones, out)
            w.head = ones
            w.phase = phase
            w.dealer = dealer
            w.to_act = to_act

    def _hand(self, w: Written, hand: int, out: Vector) -> None:
        """``hand``: the seat's own cards (``hand`` packed), the changed cards only."""
        before = w.hand
        if hand != before:
            base = self.encoder.hand
            boxed = self.boxed
            small = self.small
            diff = hand ^ before
            while diff:
                card = ((diff & -diff).bit_length() - 1) >> 1
                out[boxed[base + card]] = small[(hand >> (2 * card)) & 3]
                diff &= ~(3 << (2 * card))
            w.hand = hand

    def _sizes(  # noqa: PLR0913, PLR0917  # four ints, never a tuple to box
        self, w: Written, n0: int, n1: int, n2: int, n3: int, out: Vector
    ) -> None:
        """``hand_sizes`` (seat ``k`` holds ``nk`` cards), the changed seats only."""
        o0, o1, o2, o3 = w.sizes
        if n0 != o0 or n1 != o1 or n2 != o2 or n3 != o3:
            base = self.encoder.hand_sizes
            rel = RELATIVE[w.me]
            if n0 != o0:
                self._count(base + rel[0], n0, out)
            if n1 != o1:
                self._count(base + rel[1], n1, out)
            if n2 != o2:
                self._count(base + rel[2], n2, out)
            if n3 != o3:
                self._count(base + rel[3], n3, out)
            w.sizes = (n0, n1, n2, n3)

    def _count(self, index: int, n: int, out: Vector) -> None:
        """Write the count ``n`` (at least 0) at ``index``."""
        out[self.boxed[index]] = self.small[n] if n < _SMALL else float(n)

    def _cards(self, w: Written, tricks: tuple[Trick, ...], trick: Plays, out: Vector) -> None:
        """The tricks (in order, or summarised), the voids, the tricks and points taken."""
        e = self.encoder
        me = w.me
        if e.perfect_recall:
            self._plays(w, tricks, trick, out)
        else:
            self._summary(w, tricks, trick, out)
        tally = self._tally(w, tricks)
        self._voids(w, tally, trick, out)
        if w.taken is not tricks:
            team = me & 1
            boxed = self.boxed
            small = self.small
            out[boxed[e.tricks_taken]] = small[tally[team]]
            out[boxed[e.tricks_taken + 1]] = small[tally[1 - team]]
            out[boxed[e.points_taken]] = float(tally[2 + team])
            out[boxed[e.points_taken + 1]] = float(tally[3 - team])
            w.taken = tricks

    def _tally(self, w: Written, tricks: tuple[Trick, ...]) -> list[int]:
        """The tally of ``tricks`` (:mod:`deepsix.adapters._tally`), extended from the one
        written or shared by another seat of the game."""
        known = w.tally
        if known[0] is tricks:
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
        return tally

    def _voids(self, w: Written, tally: list[int], trick: Plays, out: Vector) -> None:
        """``voids``: the completed tricks' (``tally``) and the current trick's."""
        e = self.encoder
        rel = RELATIVE[w.me]
        v0 = tally[4]
        v1 = tally[5]
        v2 = tally[6]
        v3 = tally[7]
        if len(trick) > 1:
            led = trick[0][1] // 7
            for k in range(1, len(trick)):
                seat, card = trick[k]
                if card // 7 != led:
                    bit = 1 << led
                    if seat == 0:
                        v0 |= bit
                    elif seat == 1:
                        v1 |= bit
                    elif seat == 2:
                        v2 |= bit
                    else:
                        v3 |= bit
        voids = w.voids
        if voids[0] != v0 or voids[1] != v1 or voids[2] != v2 or voids[3] != v3:
            ones = []
            base = e.voids
            for who, suits in enumerate((v0, v1, v2, v3)):
                if suits:
                    row = base + rel[who] * 4
                    for suit in range(4):
                        if suits >> suit & 1:
                            ones.append(row + suit)
            self._replace(w.void_entries, ones, out)
            w.void_entries = ones
            w.voids = [v0, v1, v2, v3]

    def _plays(self, w: Written, tricks: tuple[Trick, ...], trick: Plays, out: Vector) -> None:
        """With perfect recall: ``tricks``, ``trick_leaders`` and ``trick_winners``, the
        completed tricks and the current one, a row per trick.

        Within a hand, plays only ever add entries: the current trick's cards
        stay where they are when it completes.  So when the written plays are
        the start of the new ones, only the new plays, leaders and winners are
        set; anything else clears what was written and writes it all.
        """
        done = w.tricks[0]
        was = w.trick[0]
        if done is tricks and was is trick:
            return
        start, skip = _growth(done, was, tricks, trick)
        ones = w.plays
        boxed = self.boxed
        one = self.small[1]
        if start < 0:
            zero = self.small[0]
            for index in ones:
                out[boxed[index]] = zero
            ones = w.plays = []
            start = 0
        e = self.encoder
        rel = RELATIVE[w.me]
        count = len(tricks)
        # Each new entry is set as it is found, and kept to be cleared on a jump.
        for k in range(start, count + 1):
            plays = tricks[k].plays if k < count else trick
            row = e.tricks + k * TRICK_ROW
            first = skip if k == start else 0
            for j in range(first, len(plays)):
                play = plays[j]
                index = row + rel[play[0]] * NUM_CARDS + play[1]
                out[boxed[index]] = one
                ones.append(index)
            if first == 0 and plays:
                index = e.trick_leaders + k * 4 + rel[plays[0][0]]
                out[boxed[index]] = one
                ones.append(index)
            if k < count:
                index = e.trick_winners + k * 4 + rel[tricks[k].winner]
                out[boxed[index]] = one
                ones.append(index)
        w.tricks = (tricks, ones)
        w.trick = (trick, ones)

    def _summary(self, w: Written, tricks: tuple[Trick, ...], trick: Plays, out: Vector) -> None:
        """Without perfect recall: ``played``, the cards each seat played to the completed
        tricks (counts), and the current ``trick`` with its ``trick_leader``."""
        e = self.encoder
        rel = RELATIVE[w.me]
        old = w.tricks
        done = old[0]
        if done is not tricks:
            # A hand's completed tricks grow one at a time: add only the new ones.
            start = len(done) if type(done) is tuple else 0
            grown = 0 < start < len(tricks) and tricks[:start] == done
            played = w.played
            if not grown:
                zero = self.small[0]
                for index in old[1]:
                    out[self.boxed[index]] = zero
                played = {}
                start = 0
            base = e.played
            for k in range(start, len(tricks)):
                for seat, played_card in tricks[k].plays:
                    index = base + rel[seat] * NUM_CARDS + played_card
                    played[index] = n = played.get(index, 0) + 1
                    out[self.boxed[index]] = self.small[n]
            w.played = played
            w.tricks = (tricks, list(played))
        key = (trick, len(tricks))
        old = w.trick
        if old[0] != key:
            ones = []
            for seat, card in trick:
                ones.append(e.trick + rel[seat] * NUM_CARDS + card)
            if trick:
                ones.append(e.trick_leader + rel[trick[0][0]])
            self._replace(old[1], ones, out)
            w.trick = (key, ones)

    def _replace(self, old: list[int], ones: list[int], out: Vector) -> None:
        """Clear a group's ``old`` entries and set its new ``ones`` to 1."""
        boxed = self.boxed
        zero = self.small[0]
        one = self.small[1]
        for index in old:
            out[boxed[index]] = zero
        for index in ones:
            out[boxed[index]] = one

    def _swap(self, old: dict[int, int], counted: dict[int, int], out: Vector) -> None:
        """Bring a group of counted entries from ``old`` to ``counted`` (entry: value),
        writing only the entries whose value changes: a bid added to the auction is one."""
        boxed = self.boxed
        small = self.small
        for index in old:
            if index not in counted:
                out[boxed[index]] = small[0]
        for index, n in counted.items():
            if old.get(index, 0) != n:
                out[boxed[index]] = small[n] if 0 <= n < _SMALL else float(n)


def _growth(
    done: object, was: object, tricks: tuple[Trick, ...], trick: tuple[tuple[Seat, int], ...]
) -> tuple[int, int]:
    """Where the plays of (``tricks``, ``trick``) go on from those of (``done``, ``was``),
    the last ones written: (the trick, the play in it), or (-1, 0) when they do not
    start with them."""
    if type(done) is not tuple or type(was) is not tuple:
        return -1, 0
    n = len(done)
    if done is tricks:
        current = trick
    elif n < len(tricks) and _starts(tricks, done):
        current = tricks[n].plays
    else:
        return -1, 0
    if len(was) <= len(current) and _starts(current, was):
        return n, len(was)
    return -1, 0


def _starts(items: tuple[object, ...], start: tuple[object, ...]) -> bool:
    """Whether ``items`` begins with ``start`` (no longer than it); the engine shares the
    items of successive states, so most are the same objects and compare at once."""
    for k in range(len(start)):
        a = items[k]
        b = start[k]
        if a is not b and a != b:
            return False
    return True


_SUIT_SIZES: Final = tuple(size(block) for block in range(SUIT_MASK + 1))
"""How many cards each 14-bit block of one suit (:func:`deepsix.hands.suit_block`) holds."""


def _held(packed: int) -> int:
    """:func:`deepsix.hands.size` by table: the cards of each suit's block looked up."""
    return (
        _SUIT_SIZES[packed & SUIT_MASK]
        + _SUIT_SIZES[(packed >> 14) & SUIT_MASK]
        + _SUIT_SIZES[(packed >> 28) & SUIT_MASK]
        + _SUIT_SIZES[packed >> 42]
    )
