"""The observation encoder: the non-zero entries of one seat's observation, in one pass.

:class:`deepsix.adapters.observations.ObservationLayout` owns one
:class:`Encoder` and documents what each entry means; this module only
computes them.  It is plain typed Python, with no numpy and no attrs, so
that the compiled build can compile it.

What a seat may see is what :func:`deepsix.view` shows it: the encoder reads
the :class:`~deepsix.adapters._facts.Facts` of a view, or the same facts
read straight from the state.

The work that does not change from one state to the next is not done
again: the entries of the completed tricks, the auction, the melds and the
tallies are kept per seat, keyed on the identity of the immutable tuples
they come from (the engine shares them between successive states), and a
new completed trick extends the entries of the ones before it.  Writing a
vector step by step, changing only what changed, is
:mod:`deepsix.adapters._stepwise`'s; this one-pass encoding is its reference.
"""

from __future__ import annotations

from typing import Final

from deepsix.actions import Bid, Pass
from deepsix.melds import ALL_MELDS, Meld
from deepsix.state import GameState, Phase
from deepsix.tricks import Trick
from deepsix.views import PlayerView

from ._facts import Facts, facts_of_state, facts_of_view
from ._tally import EMPTY_TALLY, add_cards, add_pair, extended_tally

__all__ = ["NUM_CARDS", "PHASE_INDEX", "RELATIVE", "TRICK_ROW", "Encoder", "Entries"]

Entries = tuple[list[int], dict[int, int]]
"""An encoded observation: the indices equal to 1, and the other non-zero entries."""

NUM_CARDS: Final = 28
_NUM_MELDS: Final = len(ALL_MELDS)
PHASE_INDEX: Final = {phase: i for i, phase in enumerate(Phase)}
_MELD_INDEX: Final = {meld: i for i, meld in enumerate(ALL_MELDS)}
RELATIVE: Final = tuple(tuple((seat - me) & 3 for seat in range(4)) for me in range(4))
"""``RELATIVE[me][seat]``: ``seat``'s position seen from ``me`` (0 = me, 2 = my partner)."""
TRICK_ROW: Final = 4 * NUM_CARDS
"""The entries of one completed trick in ``tricks``."""
# Module constants: the compiled build reads them without looking the names up.
_PASS: Final = Pass
_BID: Final = Bid


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
        self._tally_memo: tuple[tuple[Trick, ...], list[int]] = ((), list(EMPTY_TALLY))
        self.size = size

    # -- the two ways in -----------------------------------------------------------------------

    def from_state(self, state: GameState, me: int) -> Entries:
        """``me``'s entries, read from ``state`` the way :func:`deepsix.view` reads them."""
        return self.encode(
            me, facts_of_state(state, me, private=self.private, pass_size=self.pass_size)
        )

    def from_view(self, view: PlayerView, me: int) -> Entries:
        """``me``'s entries, read from ``view`` (``deepsix.view(state, me)``, or the public
        view for a layout without private pieces)."""
        return self.encode(me, facts_of_view(view))

    # -- the encoding ----------------------------------------------------------------------------

    def encode(self, me: int, facts: Facts) -> Entries:  # noqa: PLR0912, PLR0915  # one pass: the hot path
        """``me``'s entries for ``facts``."""
        trick = facts.trick
        tricks = facts.tricks
        rel = RELATIVE[me]
        ones = [
            self.player + me,
            self.phase + PHASE_INDEX[facts.phase],
            self.dealer + rel[facts.dealer],
        ]
        if facts.to_act is not None:
            ones.append(self.to_act + rel[facts.to_act])
        counted: dict[int, int] = {}
        if self.private:
            base = self.hand
            for card in range(NUM_CARDS):
                n = (facts.hand >> (2 * card)) & 3
                if n:
                    counted[base + card] = n
            add_cards(counted, self.passed, facts.passed)
            add_cards(counted, self.received, facts.received)
        if not self.public:
            return ones, counted
        base = self.hand_sizes
        for seat in range(4):
            n = facts.hand_sizes[seat]
            if n:
                counted[base + rel[seat]] = n
        ones += self.auction(me, facts.bids)
        if facts.bidder is not None and facts.bid is not None:
            ones.append(self.bidder + rel[facts.bidder])
            ones.append(self.contract + self.bid_index[facts.bid])
        if facts.sunk_suit is not None:
            ones.append(self.sunk_suit + facts.sunk_suit)
        add_cards(counted, self.invitation, facts.invitation)
        if facts.pass_counts[0]:
            counted[self.pass_counts] = facts.pass_counts[0]
        if facts.pass_counts[1]:
            counted[self.pass_counts + 1] = facts.pass_counts[1]
        counted.update(self.meld_counts(me, facts.melds))
        if self.perfect_recall:
            ones += self._completed_tricks(me, tricks)
            if trick:
                row = self.tricks + len(tricks) * TRICK_ROW
                for seat, card in trick:
                    ones.append(row + rel[seat] * NUM_CARDS + card)
                ones.append(self.trick_leaders + len(tricks) * 4 + rel[trick[0][0]])
        else:
            if trick:
                for seat, card in trick:
                    ones.append(self.trick + rel[seat] * NUM_CARDS + card)
                ones.append(self.trick_leader + rel[trick[0][0]])
            counted.update(self._played(me, tricks))
        tally = self.tally(tricks)
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
        add_pair(counted, self.tricks_taken, tally[team], tally[1 - team])
        add_pair(counted, self.points_taken, tally[2 + team], tally[3 - team])
        add_pair(counted, self.scores, facts.scores[team], facts.scores[1 - team])
        counted[self.hand_number] = facts.hand_number
        return ones, counted

    def auction(self, me: int, bids: tuple[Bid | Pass, ...]) -> list[int]:
        """``auction_bids`` and ``auction_passed``."""
        memo = self._auction_memo[me]
        if memo[0] is bids:
            return memo[1]
        rel = RELATIVE[me]
        ones = []
        for call in bids:
            if type(call) is _PASS:
                ones.append(self.auction_passed + rel[call.seat])
            else:
                assert type(call) is _BID
                row = self.auction_bids + rel[call.seat] * self.n_bids
                ones.append(row + self.bid_index[call.amount])
        self._auction_memo[me] = (bids, ones)
        return ones

    def meld_counts(self, me: int, melds: tuple[tuple[Meld, ...], ...]) -> dict[int, int]:
        """``melds``: how many times each seat declared each meld."""
        memo = self._meld_memo[me]
        if memo[0] is melds:
            return memo[1]
        rel = RELATIVE[me]
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
            ones = memo[1] + self.trick_rows(me, tricks, start)
        else:
            ones = self.trick_rows(me, tricks, 0)
        self._trick_memo[me] = (tricks, ones)
        return ones

    def trick_rows(self, me: int, tricks: tuple[Trick, ...], start: int) -> list[int]:
        """The entries of the completed tricks from ``tricks[start]`` on."""
        rel = RELATIVE[me]
        ones = []
        for k in range(start, len(tricks)):
            trick = tricks[k]
            row = self.tricks + k * TRICK_ROW
            plays = trick.plays
            for seat, card in plays:
                ones.append(row + rel[seat] * NUM_CARDS + card)
            ones.append(self.trick_leaders + k * 4 + rel[plays[0][0]])
            ones.append(self.trick_winners + k * 4 + rel[trick.winner])
        return ones

    def _played(self, me: int, tricks: tuple[Trick, ...]) -> dict[int, int]:
        """``played``: the cards each seat played to the completed tricks."""
        memo = self._played_memo[me]
        if memo[0] is tricks:
            return memo[1]
        rel = RELATIVE[me]
        played: dict[int, int] = {}
        for trick in tricks:
            for seat, card in trick.plays:
                key = self.played + rel[seat] * NUM_CARDS + card
                played[key] = played.get(key, 0) + 1
        self._played_memo[me] = (tricks, played)
        return played

    def tally(self, tricks: tuple[Trick, ...]) -> list[int]:
        """Tricks taken (2), card points (2) and per seat a bit set of void suits (4), from
        the completed tricks: the same for every observer, so kept once."""
        memo = self._tally_memo
        if memo[0] is tricks:
            return memo[1]
        tally = extended_tally(memo[0], memo[1], tricks)
        self._tally_memo = (tricks, tally)
        return tally

    def dense(self, entries: Entries, size: int) -> list[float]:
        """The entries as a list of ``size`` floats."""
        out = [0.0] * size
        for index in entries[0]:
            out[index] = 1.0
        for index, n in entries[1].items():
            out[index] = float(n)
        return out
