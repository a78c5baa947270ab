"""The observation encoder's kernel: the non-zero entries of one seat's observation, fast.

:class:`deepsix.adapters.observations.ObservationLayout` owns one
:class:`Encoder` and documents what each entry means; this module only
computes them.  It is plain typed Python, with no numpy and no attrs, so
that the compiled build can compile it.

What a seat may see is what :func:`deepsix.view` shows it.  The encoder
reads the same facts from a :class:`~deepsix.PlayerView`
(:meth:`Encoder.from_view`) or, skipping the view, straight from the
state (:meth:`Encoder.from_state`): the public parts of the table, which
the view copies as they are, and the seat's own cards and passes, read
the way the view reads them.  The tests check that both give the same
entries in every phase, and that no hidden card changes them.

The work that does not change from one state to the next is not done
again: the entries of the completed tricks, the auction, the melds and the
tallies are kept per seat, keyed on the identity of the immutable tuples
they come from (the engine shares them between successive states), and a
new completed trick extends the entries of the ones before it.

And a vector already written is not written again: :class:`Written`
remembers, for one observing seat, which facts a vector holds, group by
group (the auction and melds, the completed tricks, the current trick, the
voids...); :meth:`Encoder.changes` compares the next state's facts with
them and returns only the entries to clear and to set -- a card leaving a
hand, a card joining a trick, a new completed trick -- so that a step
costs what it changed, not the size of the vector.  The one-pass
:meth:`Encoder.from_state` stays the reference: the tests check that the
vectors written step by step equal it, in every phase and after any jump
between unrelated states.
"""

from __future__ import annotations

from threading import get_ident
from typing import Final

from deepsix.actions import Bid, Pass
from deepsix.cards import HAND_SIZE, Seat
from deepsix.hands import pack, size
from deepsix.melds import ALL_MELDS, Meld
from deepsix.scoring import card_points
from deepsix.state import GameState, Phase
from deepsix.table import tricks_taken, voids
from deepsix.tricks import Trick
from deepsix.views import PlayerView

__all__ = ["Changes", "Encoder", "Entries", "Written"]

Entries = tuple[list[int], dict[int, int]]
"""An encoded observation: the indices equal to 1, and the other non-zero entries."""

_NUM_CARDS: Final = 28
_NUM_MELDS: Final = len(ALL_MELDS)
_PHASE_INDEX: Final = {phase: i for i, phase in enumerate(Phase)}
_MELD_INDEX: Final = {meld: i for i, meld in enumerate(ALL_MELDS)}
_RELATIVE: Final = tuple(tuple((seat - me) & 3 for seat in range(4)) for me in range(4))
"""``_RELATIVE[me][seat]``: ``seat``'s position seen from ``me`` (0 = me, 2 = my partner)."""
_TRICK_ROW: Final = 4 * _NUM_CARDS

Changes = tuple[list[int], list[int], list[float]]
"""Entries to clear, then entries to set and their values (:meth:`Encoder.changes`)."""

_Record = tuple[object, list[int]]
"""A group of entries as written: the facts it was written from, and its indices."""
_SHARED_TALLIES: Final = 8192
"""How many tallies of completed tricks :meth:`Encoder.changes_from_state` shares between seats."""
_UNSET: Final = object()
"""The key of a group a vector does not hold yet."""


class Written:
    """What one observing seat's vector holds: per group of entries, the facts it was
    written from (its key) and the entries written (indices, values).

    A new one describes an all-zero vector.  Only :meth:`Encoder.changes` reads
    and updates it, and only as it returns the changes that make the vector
    hold the new facts: apply every one of them to the vector, or drop both.
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
        """The tally (:meth:`Encoder._tally`) of the completed tricks written."""


class Encoder:
    """Computes a layout's entries; built by the layout from its pieces' offsets.

    An offset of -1 marks a piece the layout does not have.
    """

    def __init__(  # noqa: PLR0913  # the layout's settings, by name
        self,
        offsets: dict[str, int],
        *,
        bid_amounts: tuple[int, ...],
        pass_size: int,
        perfect_recall: bool,
        private: bool,
        public: bool,
        size: int,
    ) -> None:
        def at(name: str) -> int:
            return offsets.get(name, -1)

        self.player = at("player")
        self.phase = at("phase")
        self.dealer = at("dealer")
        self.to_act = at("to_act")
        self.hand = at("hand")
        self.passed = at("passed")
        self.received = at("received")
        self.hand_sizes = at("hand_sizes")
        self.auction_bids = at("auction_bids")
        self.auction_passed = at("auction_passed")
        self.bidder = at("bidder")
        self.contract = at("contract")
        self.sunk_suit = at("sunk_suit")
        self.invitation = at("invitation")
        self.pass_counts = at("pass_counts")
        self.melds = at("melds")
        self.tricks = at("tricks")
        self.trick_leaders = at("trick_leaders")
        self.trick_winners = at("trick_winners")
        self.trick = at("trick")
        self.trick_leader = at("trick_leader")
        self.played = at("played")
        self.voids = at("voids")
        self.tricks_taken = at("tricks_taken")
        self.points_taken = at("points_taken")
        self.scores = at("scores")
        self.hand_number = at("hand_number")
        self.n_bids = len(bid_amounts)
        self.bid_index = {amount: i for i, amount in enumerate(bid_amounts)}
        self.pass_size = pass_size
        self.perfect_recall = perfect_recall
        self.private = private
        self.public = public
        # Per observing seat: (source tuple, its entries).  Each slot is replaced whole,
        # never changed in place, so a reader always sees a consistent pair.
        self._auction_memo: list[tuple[object, list[int]]] = [((), [])] * 4
        self._meld_memo: list[tuple[object, dict[int, int]]] = [((), {})] * 4
        self._trick_memo: list[tuple[tuple[Trick, ...], list[int]]] = [((), [])] * 4
        self._played_memo: list[tuple[tuple[Trick, ...], dict[int, int]]] = [((), {})] * 4
        self._tally_memo: tuple[tuple[Trick, ...], list[int]] = ((), [0, 0, 0, 0, 0, 0, 0, 0])
        self.size = size
        self._tallies: dict[int, tuple[tuple[Trick, ...], list[int]]] = {}
        # Per (thread, observing seat): a list vector and what it holds, for :meth:`tensor`.
        self._vectors: dict[tuple[int, int], tuple[Written, list[float]]] = {}

    # -- the two ways in -----------------------------------------------------------------------

    def from_state(self, state: GameState, me: int) -> Entries:
        """``me``'s entries, read from ``state`` the way :func:`deepsix.view` reads them."""
        setup = state.setup
        packed = state.packed_hands
        passed: tuple[int, ...] = ()
        received: tuple[int, ...] = ()
        bidder = setup.bidder
        if self.private and bidder is not None:
            if me == (bidder + 2) & 3:
                passed = setup.partner_pass
                if len(setup.bidder_pass) == self.pass_size:
                    received = setup.bidder_pass
            elif me == bidder:
                passed = setup.bidder_pass
                if len(setup.partner_pass) == self.pass_size:
                    received = setup.partner_pass
        return self._encode(
            me,
            state.phase,
            state.dealer,
            state.to_act,
            state.hand_number,
            state.scores,
            packed[me],
            passed,
            received,
            (size(packed[0]), size(packed[1]), size(packed[2]), size(packed[3])),
            setup.bids,
            bidder,
            setup.bid,
            setup.sunk_suit,
            setup.invitation,
            (len(setup.partner_pass), len(setup.bidder_pass)),
            setup.melds,
            state.trick,
            state.tricks,
        )

    def from_view(self, view: PlayerView, me: int) -> Entries:
        """``me``'s entries, read from ``view`` (``deepsix.view(state, me)``, or the public
        view for a layout without private pieces)."""
        return self._encode(
            me,
            view.phase,
            view.dealer,
            view.to_act,
            view.hand_number,
            view.scores,
            pack(view.hand),
            view.passed,
            view.received,
            view.hand_sizes,
            view.bids,
            view.bidder,
            view.bid,
            view.sunk_suit,
            view.invitation,
            view.pass_counts,
            view.melds,
            view.trick,
            view.tricks,
        )

    # -- the encoding ----------------------------------------------------------------------------

    def _encode(  # noqa: PLR0912, PLR0913, PLR0915, PLR0917  # one pass over a view's facts: the hot path
        self,
        me: int,
        phase: Phase,
        dealer: int,
        to_act: int | None,
        hand_number: int,
        scores: tuple[int, int],
        hand: int,
        passed: tuple[int, ...],
        received: tuple[int, ...],
        hand_sizes: tuple[int, int, int, int],
        bids: tuple[Bid | Pass, ...],
        bidder: int | None,
        bid: int | None,
        sunk_suit: int | None,
        invitation: tuple[int, ...],
        pass_counts: tuple[int, int],
        melds: tuple[tuple[Meld, ...], ...],
        trick: tuple[tuple[Seat, int], ...],
        tricks: tuple[Trick, ...],
    ) -> Entries:
        rel = _RELATIVE[me]
        ones = [self.player + me, self.phase + _PHASE_INDEX[phase], self.dealer + rel[dealer]]
        if to_act is not None:
            ones.append(self.to_act + rel[to_act])
        counted: dict[int, int] = {}
        if self.private:
            base = self.hand
            for card in range(_NUM_CARDS):
                n = (hand >> (2 * card)) & 3
                if n:
                    counted[base + card] = n
            _add_cards(counted, self.passed, passed)
            _add_cards(counted, self.received, received)
        if not self.public:
            return ones, counted
        base = self.hand_sizes
        for seat in range(4):
            n = hand_sizes[seat]
            if n:
                counted[base + rel[seat]] = n
        ones += self._auction(me, bids)
        if bidder is not None and bid is not None:
            ones.append(self.bidder + rel[bidder])
            ones.append(self.contract + self.bid_index[bid])
        if sunk_suit is not None:
            ones.append(self.sunk_suit + sunk_suit)
        _add_cards(counted, self.invitation, invitation)
        if pass_counts[0]:
            counted[self.pass_counts] = pass_counts[0]
        if pass_counts[1]:
            counted[self.pass_counts + 1] = pass_counts[1]
        counted.update(self._melds(me, melds))
        if self.perfect_recall:
            ones += self._completed_tricks(me, tricks)
            if trick:
                row = self.tricks + len(tricks) * _TRICK_ROW
                for seat, card in trick:
                    ones.append(row + rel[seat] * _NUM_CARDS + card)
                ones.append(self.trick_leaders + len(tricks) * 4 + rel[trick[0][0]])
        else:
            if trick:
                for seat, card in trick:
                    ones.append(self.trick + rel[seat] * _NUM_CARDS + card)
                ones.append(self.trick_leader + rel[trick[0][0]])
            counted.update(self._played(me, tricks))
        tally = self._tally(tricks)
        void_rows = tally[4:]
        if len(trick) > 1:
            led = trick[0][1] // 7
            for seat, card in trick[1:]:
                if card // 7 != led:
                    void_rows[seat] |= 1 << led
        base = self.voids
        for seat in range(4):
            suits = void_rows[seat]
            if suits:
                row = base + rel[seat] * 4
                for suit in range(4):
                    if suits >> suit & 1:
                        ones.append(row + suit)
        team = me & 1
        _add_pair(counted, self.tricks_taken, tally[team], tally[1 - team])
        _add_pair(counted, self.points_taken, tally[2 + team], tally[3 - team])
        _add_pair(counted, self.scores, scores[team], scores[1 - team])
        counted[self.hand_number] = hand_number
        return ones, counted

    def _auction(self, me: int, bids: tuple[Bid | Pass, ...]) -> list[int]:
        """``auction_bids`` and ``auction_passed``."""
        memo = self._auction_memo[me]
        if memo[0] is bids:
            return memo[1]
        rel = _RELATIVE[me]
        ones = []
        for call in bids:
            if type(call) is Pass:
                ones.append(self.auction_passed + rel[call.seat])
            else:
                assert type(call) is Bid
                row = self.auction_bids + rel[call.seat] * self.n_bids
                ones.append(row + self.bid_index[call.amount])
        self._auction_memo[me] = (bids, ones)
        return ones

    def _melds(self, me: int, melds: tuple[tuple[Meld, ...], ...]) -> dict[int, int]:
        """``melds``: how many times each seat declared each meld."""
        memo = self._meld_memo[me]
        if memo[0] is melds:
            return memo[1]
        rel = _RELATIVE[me]
        counted: dict[int, int] = {}
        for seat in range(4):
            row = self.melds + rel[seat] * _NUM_MELDS
            for meld in melds[seat]:
                key = row + _MELD_INDEX[meld]
                counted[key] = counted.get(key, 0) + 1
        self._meld_memo[me] = (melds, counted)
        return counted

    def _completed_tricks(self, me: int, tricks: tuple[Trick, ...]) -> list[int]:
        """``tricks``, ``trick_leaders`` and ``trick_winners`` of the completed tricks.

        A hand's tuple of completed tricks grows by one trick at a time, so the
        entries of the tuple before it are extended rather than recomputed.
        """
        memo = self._trick_memo[me]
        done = memo[0]
        if done is tricks:
            return memo[1]
        start = len(done)
        if start and start < len(tricks) and tricks[start - 1] is done[start - 1]:
            ones = memo[1] + self._trick_rows(me, tricks, start)
        else:
            ones = self._trick_rows(me, tricks, 0)
        self._trick_memo[me] = (tricks, ones)
        return ones

    def _trick_rows(self, me: int, tricks: tuple[Trick, ...], start: int) -> list[int]:
        """The entries of the completed tricks from ``tricks[start]`` on."""
        rel = _RELATIVE[me]
        ones = []
        for k in range(start, len(tricks)):
            trick = tricks[k]
            row = self.tricks + k * _TRICK_ROW
            plays = trick.plays
            for seat, card in plays:
                ones.append(row + rel[seat] * _NUM_CARDS + card)
            ones.append(self.trick_leaders + k * 4 + rel[plays[0][0]])
            ones.append(self.trick_winners + k * 4 + rel[trick.winner])
        return ones

    def _played(self, me: int, tricks: tuple[Trick, ...]) -> dict[int, int]:
        """``played``: the cards each seat played to the completed tricks."""
        memo = self._played_memo[me]
        if memo[0] is tricks:
            return memo[1]
        rel = _RELATIVE[me]
        played: dict[int, int] = {}
        for trick in tricks:
            for seat, card in trick.plays:
                key = self.played + rel[seat] * _NUM_CARDS + card
                played[key] = played.get(key, 0) + 1
        self._played_memo[me] = (tricks, played)
        return played

    def _tally(self, tricks: tuple[Trick, ...]) -> list[int]:
        """Tricks taken (2), card points (2) and per seat a bit set of void suits (4), from
        the completed tricks: the same for every observer, so kept once."""
        memo = self._tally_memo
        if memo[0] is tricks:
            return memo[1]
        tally = _extended_tally(memo[0], memo[1], tricks)
        self._tally_memo = (tricks, tally)
        return tally

    # -- step by step ---------------------------------------------------------------------------

    def changes_from_state(self, written: Written, state: GameState) -> Changes:
        """What to clear and set in a vector holding ``written`` so that it holds the
        encoding of ``state`` for ``written.me`` (as :meth:`from_state`'s); ``written``
        is updated to match."""
        me = written.me
        setup = state.setup
        packed = state.packed_hands
        passed: tuple[int, ...] = ()
        received: tuple[int, ...] = ()
        bidder = setup.bidder
        if self.private and bidder is not None:
            if me == (bidder + 2) & 3:
                passed = setup.partner_pass
                if len(setup.bidder_pass) == self.pass_size:
                    received = setup.bidder_pass
            elif me == bidder:
                passed = setup.bidder_pass
                if len(setup.partner_pass) == self.pass_size:
                    received = setup.partner_pass
        try:
            return self._changes(
                written,
                state.phase,
                state.dealer,
                state.to_act,
                state.hand_number,
                state.scores,
                packed[me],
                passed,
                received,
                (size(packed[0]), size(packed[1]), size(packed[2]), size(packed[3])),
                setup.bids,
                bidder,
                setup.bid,
                setup.sunk_suit,
                setup.invitation,
                (len(setup.partner_pass), len(setup.bidder_pass)),
                setup.melds,
                state.trick,
                state.tricks,
                setup,
            )
        except BaseException:  # forget what is written: the next changes write it all
            Written.__init__(written, written.me)
            raise

    def changes_from_view(self, written: Written, view: PlayerView) -> Changes:
        """The same as :meth:`changes_from_state`, from ``view`` (see :meth:`from_view`)."""
        try:
            return self._changes(
                written,
                view.phase,
                view.dealer,
                view.to_act,
                view.hand_number,
                view.scores,
                pack(view.hand),
                view.passed,
                view.received,
                view.hand_sizes,
                view.bids,
                view.bidder,
                view.bid,
                view.sunk_suit,
                view.invitation,
                view.pass_counts,
                view.melds,
                view.trick,
                view.tricks,
                None,
            )
        except BaseException:  # forget what is written: the next changes write it all
            Written.__init__(written, written.me)
            raise

    def tensor(self, source: GameState | PlayerView, me: int) -> list[float]:
        """``me``'s encoding of ``source`` (a state, or ``me``'s view) as a new list.

        Kept per thread and seat, one list vector is brought to ``source`` by
        :meth:`changes_from_state` (or ``_from_view``) and copied out: a step
        of a game costs the entries it changed and one copy.
        """
        slot = (get_ident(), me)
        found = self._vectors.get(slot)
        if found is None:
            found = self._vectors[slot] = (Written(me), [0.0] * self.size)
        written, vector = found
        try:
            if type(source) is GameState:
                clear, at, values = self.changes_from_state(written, source)
            else:
                assert type(source) is PlayerView
                clear, at, values = self.changes_from_view(written, source)
            for index in clear:
                vector[index] = 0.0
            for index, value in zip(at, values, strict=True):
                vector[index] = value
        except BaseException:  # half-written: start again from zeros next time
            del self._vectors[slot]
            raise
        return vector.copy()

    def _changes(  # noqa: PLR0912, PLR0913, PLR0915, PLR0917  # one pass over the groups: the hot path
        self,
        w: Written,
        phase: Phase,
        dealer: int,
        to_act: int | None,
        hand_number: int,
        scores: tuple[int, int],
        hand: int,
        passed: tuple[int, ...],
        received: tuple[int, ...],
        hand_sizes: tuple[int, int, int, int],
        bids: tuple[Bid | Pass, ...],
        bidder: int | None,
        bid: int | None,
        sunk_suit: int | None,
        invitation: tuple[int, ...],
        pass_counts: tuple[int, int],
        melds: tuple[tuple[Meld, ...], ...],
        trick: tuple[tuple[Seat, int], ...],
        tricks: tuple[Trick, ...],
        setup: object,
    ) -> Changes:
        """The changes; ``setup`` is the state's hand setup, from which the auction, contract,
        invitation, pass counts and melds come (None: compare those facts themselves)."""
        me = w.me
        rel = _RELATIVE[me]
        clear: list[int] = []
        at: list[int] = []
        values: list[float] = []
        changes = (clear, at, values)
        # Each group: if its facts differ from the written ones, clear what was written and
        # set the new entries.  Every clear is applied before every set, so a group may set
        # an entry another group clears (the current trick becoming a completed one).
        key: object = (phase, dealer, to_act)
        old = w.head
        if old[0] != key:
            ones = [self.player + me, self.phase + _PHASE_INDEX[phase], self.dealer + rel[dealer]]
            if to_act is not None:
                ones.append(self.to_act + rel[to_act])
            clear += old[1]
            at += ones
            values += [1.0] * len(ones)
            w.head = (key, ones)
        if self.private:
            before = w.hand
            if hand != before:
                base = self.hand
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
            key = (passed, received)
            old = w.passes
            if old[0] != key:
                counted: dict[int, int] = {}
                _add_cards(counted, self.passed, passed)
                _add_cards(counted, self.received, received)
                w.passes = _swap(key, old, counted, changes)
        if not self.public:
            return changes
        sizes = w.sizes
        if sizes != hand_sizes:
            base = self.hand_sizes
            for seat in range(4):
                n = hand_sizes[seat]
                if n != sizes[seat]:
                    if n:
                        at.append(base + rel[seat])
                        values.append(float(n))
                    else:
                        clear.append(base + rel[seat])
            w.sizes = hand_sizes
        key = (
            setup
            if setup is not None
            else (bids, bidder, bid, sunk_suit, invitation, pass_counts, melds)
        )
        old = w.setup
        if old[0] is not key and old[0] != key:
            counted = dict.fromkeys(self._auction(me, bids), 1)
            if bidder is not None and bid is not None:
                counted[self.bidder + rel[bidder]] = 1
                counted[self.contract + self.bid_index[bid]] = 1
            if sunk_suit is not None:
                counted[self.sunk_suit + sunk_suit] = 1
            _add_cards(counted, self.invitation, invitation)
            if pass_counts[0]:
                counted[self.pass_counts] = pass_counts[0]
            if pass_counts[1]:
                counted[self.pass_counts + 1] = pass_counts[1]
            counted.update(self._melds(me, melds))
            w.setup = _swap(key, old, counted, changes)
        key = (scores, hand_number)
        old = w.totals
        if old[0] != key:
            team = me & 1
            counted = {}
            _add_pair(counted, self.scores, scores[team], scores[1 - team])
            counted[self.hand_number] = hand_number
            w.totals = _swap(key, old, counted, changes)
        old = w.tricks
        done = old[0]
        if done is not tricks:
            # A hand's completed tricks grow one at a time: set only the new one's entries.
            start = len(done) if type(done) is tuple else 0
            grown = 0 < start < len(tricks) and tricks[:start] == done
            start = start if grown else 0
            if self.perfect_recall:
                if grown:
                    new = self._trick_rows(me, tricks, start)
                    ones = old[1] + new
                    at += new
                    values += [1.0] * len(new)
                else:
                    ones = self._trick_rows(me, tricks, 0)
                    clear += old[1]
                    at += ones
                    values += [1.0] * len(ones)
                w.tricks = (tricks, ones)
            else:
                played = dict(w.played) if grown else {}
                base = self.played
                for k in range(start, len(tricks)):
                    for seat, card in tricks[k].plays:
                        index = base + rel[seat] * _NUM_CARDS + card
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
        key = (trick, len(tricks))
        old = w.trick
        same_trick = old[0] == key
        if not same_trick:
            ones = []
            if trick:
                if self.perfect_recall:
                    row = self.tricks + len(tricks) * _TRICK_ROW
                    leader = self.trick_leaders + len(tricks) * 4
                else:
                    row = self.trick
                    leader = self.trick_leader
                for seat, card in trick:
                    ones.append(row + rel[seat] * _NUM_CARDS + card)
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
                tally = _extended_tally(known[0], known[1], tricks)
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
            base = self.voids
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
            _add_pair(counted, self.tricks_taken, tally[team], tally[1 - team])
            _add_pair(counted, self.points_taken, tally[2 + team], tally[3 - team])
            w.taken = _swap(tricks, old, counted, changes)
        return changes

    def dense(self, entries: Entries, size: int) -> list[float]:
        """The entries as a list of ``size`` floats."""
        out = [0.0] * size
        for index in entries[0]:
            out[index] = 1.0
        for index, n in entries[1].items():
            out[index] = float(n)
        return out


def _add_cards(counted: dict[int, int], base: int, cards: tuple[int, ...]) -> None:
    """Count each card's copies into ``counted`` at ``base + card``."""
    for card in cards:
        counted[base + card] = counted.get(base + card, 0) + 1


def _add_pair(counted: dict[int, int], base: int, own: int, other: int) -> None:
    """A (own team, other team) pair at ``base``, zeros left out."""
    if own:
        counted[base] = own
    if other:
        counted[base + 1] = other


def _swap(key: object, old: _Record, counted: dict[int, int], changes: Changes) -> _Record:
    """Add to ``changes`` the clearing of a group's old entries and the setting of
    ``counted``; returns the group's new record, ``counted`` under ``key``."""
    indices = list(counted)
    changes[0].extend(old[1])
    changes[1].extend(indices)
    changes[2].extend(map(float, counted.values()))
    return (key, indices)


def _extended_tally(done: object, before: list[int], tricks: tuple[Trick, ...]) -> list[int]:
    """:meth:`Encoder._tally` of ``tricks``, knowing ``before``, the tally of ``done``:
    a hand's tricks grow one at a time, so the tally of the tricks before is extended
    by the new ones when ``done`` starts ``tricks``."""
    start = len(done) if type(done) is tuple else 0
    if not (start and start < len(tricks) and tricks[:start] == done):
        before = [0, 0, 0, 0, 0, 0, 0, 0]
        start = 0
    new = tricks[start:]
    taken = tricks_taken(new)
    # The last-trick bonus counts when the new tricks end the hand.
    points = card_points(new, tricks_per_hand=HAND_SIZE - start)
    tally = [
        before[0] + taken[0],
        before[1] + taken[1],
        before[2] + points[0],
        before[3] + points[1],
    ]
    for seat, suits in enumerate(voids([trick.plays for trick in new])):
        bits = before[4 + seat]
        for suit in suits:
            bits |= 1 << suit
        tally.append(bits)
    return tally
