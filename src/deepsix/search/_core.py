"""The double-dummy solver's search: plain integers, no objects in the hot path.

:mod:`deepsix.search.solver` is the public face (states in, results out);
this module is the search it runs, written so that it runs well both as
plain Python and compiled with mypyc: every local is an ``int``, a
``bool``, a tuple or a list of them, and the position lives in four packed
hands (:mod:`deepsix.hands`) that the search changes in place and puts back.

A trick in progress is an integer *code*: card + 1 in five bits per card,
in play order, so that the floors of the follow and play-over rules' windows
(:func:`deepsix.tricks.play_window`, see :meth:`Engine.floor`) and the trick
winners (:func:`deepsix.tricks.winning_position`) can be cached by it.  The rules
are never re-implemented here: every window and winner comes from those
two functions, once per distinct trick.

Values are the card points North-South take from the start of the current
trick to the end of the hand, the last-trick bonus included.
North-South minimise them, East-West maximise them.  Every search is
fail-soft alpha-beta; :meth:`Engine.exact` drives it with null windows
(MTD(f)).  The techniques, each of which can be switched off (:class:`Engine`'s flags)
so that the tests can check that none of them changes a value:

* **Alpha-beta** over single card plays (fail-soft), driven by
  **MTD(f)**: null-window probes ask "can North-South hold their take to
  at most ``t``?", which prunes far more than a full window; a few probes
  pin the exact value (every value is a multiple of 10).  The first probe
  asks about the value of a quick play-out (every player plays the card
  the move ordering tries first), not about 0: fewer probes, fewer nodes.
  From seven tricks left it asks about the exact value after one trick of
  that play-out instead (found the same way), nearer the value.
* **Static bounds.**  From a trick boundary North-South take between 0 and
  the points left (cards in hand plus the last-trick bonus).  A probe whose
  window lies outside those bounds -- once the points already won along
  the line have been counted -- is answered without a search; at the
  trick's last card, where each card's trick is decided, this is checked
  before the position after it is even looked up.
* A **transposition table** at trick boundaries (hands + leader) stores a
  lower and an upper bound on the points North-South take from there, and
  the lead that proved it (tried first next time).  Keys are in
  **relative-rank** form: pointless ranks (4 to 8) that nobody holds any
  more are squeezed out, and touching pointless ranks held by one player
  alone count as one rank held that many times, so positions that differ
  only in which equivalent cards are left share an entry.
* **The last two tricks are solved exactly** by four nested loops (the
  last trick is forced) and cached by position, so the many null-window
  probes that reach them pay once.
* **Equivalent cards** are searched once: two pointless cards of one suit in
  the mover's hand are interchangeable when no card ranking between them,
  or equal to either, is held by another player or lies in the current
  trick.  Then every other card compares the same way with both (including
  "of two identical cards the later wins"), both obey the follow and
  play-over rules alike, and both carry the same (zero) points, so swapping
  them maps the rest of the game onto itself.  A 2 and a 3 are never merged
  with anything but their own copy: their points differ.  At the root,
  :func:`~deepsix.search.solver.solve` and :func:`~deepsix.search.solver.move_values`
  search one card of each class and give the others its result.
* **Move ordering**, measured on solved positions: the table's lead
  first, then the *killer* (the card that last cut the search off at the
  same tricks left, seat in the trick and previous card); leads of a card
  an opponent can beat (in a suit not sunk) before sunk cards before the
  rest, points first and low first; a follower that leaves the trick to
  its own side tries its cheapest, lowest card first; the second seat
  otherwise its pointless, high cards; the third and last seats shed
  points on a trick the opponents take.
"""

from __future__ import annotations

from typing import Final, final

from deepsix.cards import CARD_POINTS, CARDS, Card
from deepsix.hands import BIT, SUIT_MASK, distinct_cards, suit_cards
from deepsix.rules import PlayOver
from deepsix.scoring import LAST_TRICK_BONUS
from deepsix.tricks import play_window, winning_position

__all__ = ["INF", "Budget", "Engine"]

INF: Final = 1 << 30
"""Larger than any value."""
_BONUS: Final = int(LAST_TRICK_BONUS)
_POINTS: Final[tuple[int, ...]] = tuple(int(points) for points in CARD_POINTS)
_BIT: Final[tuple[int, ...]] = tuple(int(bit) for bit in BIT)
_SPAN: Final[tuple[int, ...]] = tuple(
    sum(3 * BIT[k] for k in range(low, high + 1)) for low in range(28) for high in range(28)
)
"""``_SPAN[28 * i + j]``: both bits of every card from ``i`` to ``j`` (inclusive), packed."""
_UPWARD: Final[tuple[int, ...]] = tuple(
    _SPAN[28 * card + 7 * (card // 7) + 6] for card in range(28)
)
"""Both bits of every card of a card's suit from that card up: the cards that beat it."""
# The ordering's scores (Engine.order, Engine.option), each as ``score * 32 + card`` with
# the score biased to stay positive (compiled, a product with a negative operand leaves
# mypyc's fast path for a boxed one):
_LEAD: Final[tuple[int, ...]] = tuple(
    (64 - 2 * _POINTS[card] + card % 7) * 32 + card for card in range(28)
)
"""A lead: points first, low first (plus 100 * 32 for a sunk card, 200 * 32 for a card no
opponent can beat)."""
_WIN_LED: Final[tuple[int, ...]] = tuple(
    (128 + 8 * _POINTS[card] + card % 7) * 32 + card for card in range(28)
)
"""A follower's card of the led suit leaving the trick to its side: cheapest, lowest first."""
_SECOND: Final[tuple[int, ...]] = tuple(
    (128 + 8 * _POINTS[card] - card % 7) * 32 + card for card in range(28)
)
"""The second seat's other cards: pointless and high first."""
_KEEP: Final[tuple[int, ...]] = tuple(
    (128 + 4 * _POINTS[card] - card % 7) * 32 + card for card in range(28)
)
"""A later seat's card leaving the trick to its side: add little."""
_SHED: Final[tuple[int, ...]] = tuple(
    (128 - 4 * _POINTS[card] - card % 7) * 32 + card for card in range(28)
)
"""A later seat's card leaving the trick to the opponents: shed points."""
_SUITS: Final[list[int]] = [
    (1 << (first - 1) // 7 if first else 0) | (1 << (second - 1) // 7 if second else 0)
    for second in range(32)
    for first in range(32)
]
"""Two cards of a trick code (``code & 1023``, ``code >> 10`` of a trick's four) -> the bit
of each one's suit."""
_RESIDUES: Final = 67
"""Cards are named by their bits modulo 67: a card's bit is ``2**k`` (one copy) or
``2**(k + 1)`` (two) with ``k < 56``, ``2**k % 67`` differs for every ``k < 66`` (2 is
a primitive root modulo the prime 67) and is never 0.  So a hand of one card is named
by ``hand % 67`` and a hand of two cards by its lowest bit and the rest (0 for two
equal cards), each modulo 67: ``67 * 67 < 2**13`` numbers (:meth:`Engine.two`'s key)."""
_CARD_OF: Final[tuple[int, ...]] = tuple(
    next((card for card in range(28) if int(BIT[card]) % _RESIDUES == residue), -1)
    for residue in range(_RESIDUES)
)
"""The card of a one-card packed hand ``hand``: ``_CARD_OF[hand % _RESIDUES]``."""
_KILLER_SLOTS: Final = 64 + 128 * 15
"""Killer slots: one per tricks left, seat in the trick and previous card (see ``play``)."""


_SMALL_KEYS: Final = (1 << 62) - 1
"""The largest :meth:`Engine.key` of the small form (and the largest int mypyc keeps
unboxed: compared with ``1 << 62`` itself, every key would take the slow, boxed path)."""
_DEEPEN: Final = 7
"""From this many tricks left :meth:`Engine.exact` guesses by :meth:`Engine.deepened`."""
_UNASKED: Final[list[int]] = [0] * 32
"""The winners of the tricks after a three-card prefix nobody asked about yet (never written)."""
_WINNERS: Final[dict[int, list[list[int]]]] = {}
"""Sunk suit -> trick code's first three cards (``code & 32767``) -> its fourth card + 1 (0 for
a trick of fewer cards: ``code >> 15``) -> 1 + the position (0 to 3) winning that trick so far,
0 while not yet asked; shared by every engine, since a trick's winner depends on its cards and
the sunk suit only.  Lists, not a dict or a byte array: compiled, indexing a list of ints costs
neither a boxed key nor a hash, and split by the prefix the lists hold only the prefixes
searched (a list of all 2**20 codes costs the garbage collector's traversals more)."""


_FLOORS: Final[dict[tuple[int, PlayOver], list[int]]] = {}
"""Sunk suit and play-over rule -> trick code -> 1 + its floor (:meth:`Engine.floor`).  A
list, not a byte array: compiled, indexing a list of ints is native, while a byte array's
subscript boxes the index (and the list is small, 32,768 entries, for the collector)."""
_ABOVE: Final[tuple[int, ...]] = tuple(
    sum(3 << (2 * higher) for higher in range(rank, 7)) for rank in range(7)
)
"""``_ABOVE[rank]``: the bits of a suit's 14-bit block from ``rank`` up."""
_FOLLOWING: Final[list[tuple[int, ...] | None]] = [None] * (4 << 14)
"""Led suit and a block of it (``suit << 14 | block``) -> its distinct cards, low to high."""


@final
class _IntMap:
    """A map from non-negative ``int`` keys to non-negative ``int`` values: open addressing
    with linear probing over two lists, kept at most half full.

    It replaces a dict in the search's caches (the table, the two-trick values, the suit
    forms, the hands' cards).  Compiled, a dict lookup boxes its key (a new ``int``
    object above 256, freed after), hashes it and compares the found key as an object:
    about 350 instructions; here the key stays an unboxed ``int`` and a probe reads one
    list item.  Nothing is ever removed.
    """

    def __init__(self) -> None:
        self.mask = 1023
        """The number of slots minus one (a power of two minus one)."""
        self.size = 0
        """Keys held."""
        self.keys: list[int] = [-1] * 1024
        """Each slot's key (-1: empty)."""
        self.values: list[int] = [0] * 1024

    def get(self, key: int) -> int:
        """The value of ``key``, or -1 if it has none."""
        keys = self.keys
        mask = self.mask
        slot = (((key ^ (key >> 23) ^ (key >> 46)) & 0x1FFFFFFF) * 0x2545F491 >> 16) & mask  # _slot
        while True:
            found = keys[slot]
            if found == key:
                return self.values[slot]
            if found < 0:
                return -1
            slot = (slot + 1) & mask

    def put(self, key: int, value: int) -> None:
        """Set the value of ``key``."""
        keys = self.keys
        mask = self.mask
        slot = _slot(key) & mask
        while True:
            found = keys[slot]
            if found == key:
                self.values[slot] = value
                return
            if found < 0:
                break
            slot = (slot + 1) & mask
        keys[slot] = key
        self.values[slot] = value
        self.size += 1
        if 2 * self.size > mask:
            self.grow()

    def grow(self) -> None:
        """Four times the slots (twice from ``2**21``) and put every key back.

        The two lists are resized in place, from copies of their old items: a new list
        of millions of slots would be young to the garbage collector, which traverses
        every young list at its next collections (about 3% of a ten-trick solve); the
        copies are freed before any collection can see them.
        """
        keys = self.keys
        values = self.values
        old_keys = keys.copy()
        old_values = values.copy()
        mask = self.mask
        mask = 4 * mask + 3 if mask < 1 << 20 else 2 * mask + 1  # fewer copies while small
        self.mask = mask
        keys[:] = [-1] * (mask + 1)
        values[:] = [0] * (mask + 1)
        for index in range(len(old_keys)):
            key = old_keys[index]
            if key >= 0:
                slot = _slot(key) & mask
                while keys[slot] >= 0:
                    slot = (slot + 1) & mask
                keys[slot] = key
                values[slot] = old_values[index]

    def __len__(self) -> int:
        return self.size


_POINTLESS: Final = 0x1550
"""The lower bit of each pointless rank's two (ranks 2 to 6) in a suit's 14-bit block."""
_KEPT: Final[list[int]] = [-1] * (1 << 14)
"""``_KEPT[mine | theirs << 1]`` (each the lower bits of the ranks held in a 14-bit block,
see ``_merged``): both bits of every rank of ``mine`` kept by the merge, -1 while not
yet asked."""


def _suit_cards(suit: int, block: int) -> tuple[int, ...]:
    """The distinct cards of a suit's 14-bit block, low to high (cached)."""
    index = suit << 14 | block
    found = _FOLLOWING[index]
    if found is None:
        found = tuple(int(card) for card in suit_cards(suit, block))
        _FOLLOWING[index] = found
    return found


def _merged(block: int, theirs: int) -> int:
    """The cards of a suit's 14-bit block ``block`` without the cards interchangeable
    with the next lower card of the block.

    Two pointless cards are interchangeable when no card ranking between them or equal
    to either is in ``theirs`` (the suit's block of the other hands and the trick).  The
    block holds the cards a player may play (for a follower, its play window), so only
    cards next to each other there are compared, as :meth:`Engine.classes` promises.
    """
    index = (block | block >> 1) & 0x1555 | ((theirs | theirs >> 1) & 0x1555) << 1
    kept = _KEPT[index]
    if kept < 0:
        kept = _KEPT[index] = _kept_ranks(index)
    return block & kept


def _kept_ranks(index: int) -> int:
    """``_KEPT``'s entry ``index``, worked out rank by rank, low to high."""
    kept = 0
    previous = -1  # the rank of the next lower card held
    blocked = True  # whether a card of theirs lies between it and this rank
    for rank in range(7):
        mine = (index >> (2 * rank)) & 1
        theirs = (index >> (2 * rank + 1)) & 1
        if mine:
            if rank < 2 or previous < 2 or blocked or theirs:  # not interchangeable
                kept |= 3 << (2 * rank)
            previous = rank
            blocked = theirs == 1
        elif theirs:
            blocked = True
    return kept


class Budget(Exception):  # a signal inside the search, never seen by users
    """The node budget ran out (the solver turns it into ``SearchBudgetError``)."""


def _cards(code: int) -> list[Card]:
    """The cards of a trick code, in play order."""
    cards: list[Card] = []
    while code:
        cards.append(CARDS[(code & 31) - 1])
        code >>= 5
    return cards


class Engine:
    """The search over one root's positions, and the tables its searches share.

    The flags switch techniques off for the tests (every one is on by
    default, and none changes a value): ``squeeze`` (relative-rank table
    keys), ``runs`` (a run of touching cards held by one player only is
    keyed by its length), ``merge`` (equivalent cards searched once),
    ``bounds`` (static cutoffs: every value from a trick boundary lies
    between 0 and the points left) and ``killers`` (the card that last cut
    off at the same place -- the same tricks left, seat in the trick and
    previous card -- is tried first, after the table's card), ``guess``
    (the first null-window probe at the value of a quick play-out, not at 0)
    and ``deepen`` (from seven tricks left, at the exact value after one trick of
    play-out instead: :meth:`deepened`).
    """

    def __init__(  # noqa: PLR0913  # one switch per technique, for the tests
        self,
        sunk: int,
        play_over: PlayOver,
        *,
        squeeze: bool = True,
        runs: bool = True,
        merge: bool = True,
        bounds: bool = True,
        killers: bool = True,
        guess: bool = True,
        deepen: bool = True,
    ) -> None:
        self.sunk = sunk
        self.play_over = play_over
        self.squeeze = squeeze
        self.runs = runs and squeeze
        self.merge = merge
        self.bounds = bounds
        self.use_killers = killers
        self.guess = guess
        self.deepen = deepen
        self.h0 = 0
        """North's packed hand (:meth:`hand`); East's, South's and West's follow.  Four
        attributes, not a list: compiled, a hand of 56 bits then lives unboxed in the engine
        and changing it allocates nothing."""
        self.h1 = 0
        self.h2 = 0
        self.h3 = 0
        self.table = _IntMap()
        """Trick boundaries: position key -> lower bound, upper bound and best lead, packed
        (``low | high << 10 | (lead + 1) << 20``; values never exceed 250)."""
        self.forms: dict[int, int] = {}
        """One suit's relative-rank form -> its number (see :meth:`suit_key`)."""
        self.squeezed = _IntMap()
        """One suit of the four hands -> the number of its relative-rank form."""
        self.endgame = _IntMap()
        """Exact values of positions with two tricks left (hands and leader)."""
        winners = _WINNERS.get(sunk)
        if winners is None:
            winners = _WINNERS[sunk] = [_UNASKED] * (1 << 15)
        self.winners = winners
        """Trick code -> 1 + the position winning it so far (see ``_WINNERS``)."""
        floors = _FLOORS.get((sunk, play_over))
        if floors is None:
            floors = _FLOORS[sunk, play_over] = [0] * (1 << 15)
        self.floors = floors
        """Trick code (one to three cards) -> 1 + the rank a follower must play from if it
        can (:meth:`floor`), 0 while not yet asked (shared like ``_WINNERS``)."""
        self.free = _IntMap()
        """Packed hand -> the index of its distinct cards in ``distinct``."""
        self.distinct: list[tuple[int, ...]] = []
        self.killers: list[int] = [-1] * _KILLER_SLOTS
        self.current = -1
        """:meth:`key` of the hands in the trick being searched: the suits its cards do not
        touch keep their numbers to its end (-1: unknown)."""
        self.nodes = 0
        """Positions searched (an exact two-trick endgame counts as one)."""
        self.limit = INF
        """Raise :class:`Budget` once ``nodes`` passes this."""
        self.best = -1
        """The best card found by the latest ``play`` (read by its caller)."""

    # -- the hands ---------------------------------------------------------------------

    @property
    def hands(self) -> list[int]:
        """The four packed hands, North first (a copy)."""
        return [self.h0, self.h1, self.h2, self.h3]

    def load(self, hands: list[int]) -> None:
        """Set the four packed hands, North first."""
        self.h0, self.h1, self.h2, self.h3 = hands[0], hands[1], hands[2], hands[3]

    def hand(self, seat: int) -> int:
        """``seat``'s packed hand."""
        if seat == 0:
            return self.h0
        if seat == 1:
            return self.h1
        if seat == 2:
            return self.h2
        return self.h3

    def add(self, seat: int, bits: int) -> None:
        """Add the packed cards ``bits`` to ``seat``'s hand (negative: take them away)."""
        if seat == 0:
            self.h0 = self.h0 + bits
        elif seat == 1:
            self.h1 = self.h1 + bits
        elif seat == 2:
            self.h2 = self.h2 + bits
        else:
            self.h3 = self.h3 + bits

    # -- the rules, cached -------------------------------------------------------------

    def winner(self, code: int) -> int:
        """The position (0 to 3, in play order) winning the trick coded ``code`` so far."""
        position = self.winners[code & 32767][code >> 15] - 1
        if position < 0:
            position = winning_position(_cards(code), self.sunk)
            known = self.winners[code & 32767]
            if known is _UNASKED:
                known = self.winners[code & 32767] = [0] * 32
            known[code >> 15] = position + 1
        return position

    def every(self, hand: int) -> tuple[int, ...]:
        """The distinct cards of a packed hand."""
        index = self.free.get(hand)
        if index < 0:
            index = len(self.distinct)
            self.distinct.append(tuple(int(card) for card in distinct_cards(hand)))
            self.free.put(hand, index)
        return self.distinct[index]

    def legal(self, seat: int, code: int) -> tuple[int, ...]:
        """The distinct cards ``seat`` may play to the trick coded ``code``.

        Following suit, the play-over rule's window is a threshold: the cards of
        the led suit from the trick's *floor* up if the hand holds one, else all
        of them (:func:`deepsix.tricks.play_window`).  So the floor is cached by the
        trick alone (:meth:`floor`) and the cards by the suit's block.
        """
        hand = self.hand(seat)
        if not code:
            return self.every(hand)
        led = ((code & 31) - 1) // 7
        block = (hand >> (14 * led)) & SUIT_MASK
        if not block:
            return self.every(hand)
        return self.following(led, block, code)

    def following(self, led: int, block: int, code: int) -> tuple[int, ...]:
        """The cards of the led suit's block ``block`` that may be played to the trick
        coded ``code``, low to high (``block`` not empty)."""
        return _suit_cards(led, self.window(block, code))

    def window(self, block: int, code: int) -> int:
        """The cards of the led suit's block ``block`` that may be played to the trick
        coded ``code`` (``block`` not empty), as a block."""
        rank = self.floors[code] - 1
        if rank < 0:
            rank = self.floor(code)
        above = block & _ABOVE[rank]
        return above if above else block

    def floor(self, code: int) -> int:
        """The rank (0 to 6) from which a hand following the trick coded ``code`` must play,
        if it holds such a card (cached in :attr:`floors`).

        Asked of :func:`deepsix.tricks.play_window` for a hand holding every card of the
        led suit: its window starts at the floor (or at the suit's lowest card, when
        every card may be played).
        """
        led = ((code & 31) - 1) // 7
        every = sum(_BIT[card] for card in range(7 * led, 7 * led + 7))  # one copy of each
        window = play_window(every, _cards(code), self.sunk, self.play_over)
        rank = 0 if window is None else window[1] % 7  # None only for an empty led suit
        self.floors[code] = rank + 1
        return rank

    def classes(self, seat: int, code: int, tbits: int) -> tuple[int, ...]:  # merging inlined
        """``seat``'s legal cards, one per class of interchangeable cards (low to high).

        Two pointless cards of one suit are interchangeable when no card
        ranking between them or equal to either is held by another player or
        lies in the trick (``tbits``).  The merge is done on the packed cards,
        a suit at a time (``_merged``), so that the answer is always a
        cached tuple: the legal cards of the hand with the merged cards left out.
        """
        hand = self.hand(seat)
        if code:
            led = ((code & 31) - 1) // 7
            shift = 14 * led
            block = (hand >> shift) & SUIT_MASK
            if block:  # following suit: the window, merged
                block = self.window(block, code)
                pointless = (block | block >> 1) & _POINTLESS
                if self.merge and pointless & (pointless - 1):  # two pointless cards at least
                    others = self.hand((seat + 1) & 3) | self.hand((seat + 2) & 3)
                    others |= self.hand((seat + 3) & 3) | tbits
                    block = _merged(block, (others >> shift) & SUIT_MASK)
                return _suit_cards(led, block)
        if self.merge:
            others = -1  # the other hands and the trick, packed: found when first needed
            kept = hand
            for shift in range(0, 56, 14):
                block = (hand >> shift) & SUIT_MASK
                pointless = (block | block >> 1) & _POINTLESS
                if pointless & (pointless - 1):  # two pointless cards at least
                    if others < 0:
                        others = self.hand((seat + 1) & 3) | self.hand((seat + 2) & 3)
                        others |= self.hand((seat + 3) & 3) | tbits
                    kept ^= (block ^ _merged(block, (others >> shift) & SUIT_MASK)) << shift
            hand = kept
        return self.every(hand)

    # -- table keys ------------------------------------------------------------------

    def suit_key(self, shift: int) -> int:
        """The number of one suit of the four hands in relative-rank form.

        Ranks 2 and 3 keep their places (they carry points); a pointless rank
        nobody holds is squeezed out; with ``runs``, touching pointless ranks
        held by one player only (and by nobody else) are one place holding
        all their copies.  Each distinct form (the suit's cards themselves
        without ``squeeze``) gets the next number, so that equal forms, and
        only they, share a number.
        """
        whole = (
            (self.h0 >> shift) & SUIT_MASK
            | ((self.h1 >> shift) & SUIT_MASK) << 14
            | ((self.h2 >> shift) & SUIT_MASK) << 28
            | ((self.h3 >> shift) & SUIT_MASK) << 42
        )
        found = self.squeezed.get(whole)
        if found < 0:
            form = _squeeze(whole, self.runs) if self.squeeze else whole
            number = self.forms.get(form)
            if number is None:
                number = len(self.forms)
                self.forms[form] = number
            self.squeezed.put(whole, number)
            found = number
        return found

    def key(self) -> int:
        """The table key of the hands, times four (the caller adds the leader).

        The four suits' numbers (:meth:`suit_key`) side by side: a small
        integer while every number is below ``2**15``, a larger one (marked by
        a bit above every small key) after that.
        """
        k0 = self.suit_key(0)
        k1 = self.suit_key(14)
        k2 = self.suit_key(28)
        k3 = self.suit_key(42)
        if k0 | k1 | k2 | k3 < 32768:
            return (k0 | k1 << 15 | k2 << 30 | k3 << 45) << 2
        return (1 << 62 | k0 | k1 << 32 | k2 << 64 | k3 << 96) << 2

    def after(self, code: int) -> int:
        """:meth:`key` of the hands after the trick coded ``code``, from :attr:`current`.

        Only the suits of the trick's cards can have changed: the others keep
        their numbers.
        """
        shape = self.current
        if shape < 0 or shape > _SMALL_KEYS:  # unknown, or not the small form
            return self.key()
        suits = _SUITS[code & 1023] | _SUITS[code >> 10]  # the suits of the trick's cards
        for suit in range(4):
            if suits >> suit & 1:
                number = self.suit_key(14 * suit)
                if number >= 32768:
                    return self.key()
                place = 15 * suit + 2
                shape = shape & ~(32767 << place) | number << place
        return shape

    # -- the search ------------------------------------------------------------------

    def exact(  # noqa: PLR0913, PLR0917  # the position, spelled out
        self, seat: int, leader: int, left: int, tricks_left: int, code: int, guess: int
    ) -> int:
        """North-South's exact points from here, by null-window probes (MTD(f)).

        ``left``: the card points in the hands and the trick; ``guess``: where
        the probes start (negative: at the value of :meth:`playout`).
        """
        low = 0
        high = left + _BONUS
        if guess < 0:
            if not self.guess:
                guess = 0
            elif self.deepen and tricks_left >= _DEEPEN:
                guess = self.deepened(seat, leader, left, tricks_left, code)
            else:
                guess = self.playout(seat, leader, tricks_left, code)
        value = min(max(guess, low), high)
        while low < high:
            beta = value + 1 if value == low else value
            value = self.root(seat, leader, beta - 1, beta, left, tricks_left, code)
            if value < beta:
                high = value
            else:
                low = value
        return low

    def deepened(self, seat: int, leader: int, left: int, tricks_left: int, code: int) -> int:
        """North-South's points if the current trick is played by the cards :meth:`order`
        tries first and the rest of the hand exactly.

        The first guess of :meth:`exact` from ``_DEEPEN`` tricks left: the exact
        value after one trick of play-out (itself found by :meth:`exact`, so each
        level starts from the next) is nearer the value than a whole play-out, and
        its search leaves the table full of bounds along that line.  The hands are
        put back.
        """
        saved = (self.h0, self.h1, self.h2, self.h3)
        try:
            code = self.play_out_trick(seat, leader, code)
            taken = _trick_points(code)
            winner = (leader + self.winner(code)) & 3
            ns = 0 if winner & 1 else taken
            return ns + self.exact(winner, winner, left - taken, tricks_left - 1, 0, -1)
        finally:
            self.h0, self.h1, self.h2, self.h3 = saved

    def first(self, seat: int, leader: int, played: int, code: int, tbits: int) -> int:
        """The card :meth:`order` tries first for ``seat`` (the play-outs' choice)."""
        return self.order(self.classes(seat, code, tbits), seat, leader, played, code, -1)[0]

    def play_out_trick(self, seat: int, leader: int, code: int) -> int:
        """The current trick (``seat`` to play) completed by the cards :meth:`order` tries
        first, each taken from its player's hand: the completed trick's code."""
        tbits = _trick_bits(code)
        while True:
            played = (seat - leader) & 3
            card = self.first(seat, leader, played, code, tbits)
            self.add(seat, -_BIT[card])
            code |= (card + 1) << (5 * played)
            if played == 3:
                return code
            tbits |= _BIT[card]
            seat = (seat + 1) & 3

    def playout(self, seat: int, leader: int, tricks_left: int, code: int) -> int:
        """North-South's points if every player plays the card :meth:`order` tries first.

        A cheap estimate of the value (on 30 random positions at eight tricks
        left, within 20 points of the exact value in 23), so that the
        null-window probes of :meth:`exact` start near the value: about a
        quarter fewer nodes than starting at 0.  The hands are put back.
        """
        return self.estimate(seat, leader, 0, tricks_left, code, 0)  # nothing solved

    def estimate(  # noqa: PLR0913, PLR0917  # the position, spelled out
        self, seat: int, leader: int, left: int, tricks_left: int, code: int, solve: int
    ) -> int:
        """North-South's points if every player plays the card :meth:`order` tries first
        until at most ``solve`` tricks are left, and best play from there (:meth:`exact`).

        The search's own perfect-information play-out (no bot plays it); with
        ``solve`` 0, :meth:`playout`.  ``left`` (the card points in the hands and
        the trick) is read by the exact part only.  If the exact part runs out of
        budget (:class:`Budget`), the rest is played out too (:meth:`playout`), so
        an estimate is always returned.  The hands are put back.
        """
        saved = (self.h0, self.h1, self.h2, self.h3)
        ns = 0
        try:
            while tricks_left > solve:
                code = self.play_out_trick(seat, leader, code)
                taken = _trick_points(code)
                winner = (leader + self.winner(code)) & 3
                tricks_left -= 1
                left -= taken
                if not winner & 1:
                    ns += taken + (0 if tricks_left else _BONUS)
                if not tricks_left:
                    return ns
                leader = seat = winner
                code = 0
            cut = (self.h0, self.h1, self.h2, self.h3)
            try:
                return ns + self.exact(seat, leader, left, tricks_left, code, -1)
            except Budget:
                self.h0, self.h1, self.h2, self.h3 = cut
                return ns + self.playout(seat, leader, tricks_left, code)
        finally:
            self.h0, self.h1, self.h2, self.h3 = saved

    def root(  # noqa: PLR0913, PLR0917  # the position, spelled out
        self, seat: int, leader: int, alpha: int, beta: int, left: int, tricks_left: int, code: int
    ) -> int:
        """North-South's points from the start of the current trick (fail-soft)."""
        tbits = _trick_bits(code)
        taken = _trick_points(code)
        self.current = self.key()
        return self.play(seat, leader, alpha, beta, left, tricks_left, code, tbits, taken, -1)

    def boundary(  # noqa: PLR0911, PLR0912, PLR0913, PLR0917  # the table's and the static cutoffs
        self, leader: int, alpha: int, beta: int, left: int, tricks_left: int, code: int
    ) -> int:
        """North-South's points from a trick boundary, after the trick coded ``code``.

        ``left``: the card points in the hands.
        """
        if tricks_left == 2:
            return self.two(leader, left)
        if tricks_left == 1:  # every card is forced
            self.nodes += 1
            code = 0
            for k in range(4):
                code |= (_CARD_OF[self.hand((leader + k) & 3) % _RESIDUES] + 1) << (5 * k)
            return 0 if (leader + self.winner(code)) & 1 else left + _BONUS
        shape = self.after(code)
        key = shape | leader
        entry = self.table.get(key)
        if entry < 0:
            low = 0
            high = left + _BONUS
            hint = -1
            if self.bounds:  # a static cutoff: every value lies in [0, high]
                if beta <= 0:
                    return 0
                if alpha >= high:
                    return high
        else:
            low = entry & 1023
            high = (entry >> 10) & 1023
            hint = (entry >> 20) - 1
            if low >= beta:
                return low
            if high <= alpha:
                return high
        a = alpha if alpha > low else low
        b = beta if beta < high else high
        trick = self.current
        self.current = shape
        value = self.play(leader, leader, a, b, left, tricks_left, 0, 0, 0, hint)
        self.current = trick
        if value <= a:
            high = min(high, value)
        elif value >= b:
            low = max(low, value)
        else:
            low = high = value
        self.table.put(key, low | high << 10 | (self.best + 1) << 20)
        return value

    def two(self, leader: int, left: int) -> int:  # noqa: PLR0912, PLR0915  # four plies, unrolled
        """North-South's exact points from a boundary with two tricks left (cached).

        Each player holds two cards: the first trick is searched by four
        nested loops (alpha-beta between them), the last is forced.
        """
        key = leader << 13 | _pair_key(self.h0)
        key = key << 13 | _pair_key(self.h1)
        key = key << 13 | _pair_key(self.h2)
        key = key << 13 | _pair_key(self.h3)
        known = self.endgame.get(key)
        if known >= 0:
            return known
        self.nodes += 1
        seat1 = (leader + 1) & 3
        seat2 = (leader + 2) & 3
        seat3 = (leader + 3) & 3
        x0, y0 = _two_cards(self.hand(leader))
        x1, y1 = _two_cards(self.hand(seat1))
        x2, y2 = _two_cards(self.hand(seat2))
        x3, y3 = _two_cards(self.hand(seat3))
        total = left + _BONUS
        winners = self.winners
        lead_ns = not leader & 1  # the leader's side minimises at levels 0 and 2
        best0 = INF if lead_ns else -1
        for i0 in range(1 if y0 < 0 else 2):  # the leader's one or two cards
            c0 = y0 if i0 else x0
            r0 = (y0 if c0 == x0 and y0 >= 0 else x0) + 1
            code0 = c0 + 1
            points0 = _POINTS[c0]
            best1 = -1 if lead_ns else INF
            p1, q1 = self.pair(seat1, x1, y1, code0)
            for i1 in range(1 if q1 < 0 else 2):
                c1 = q1 if i1 else p1
                r1 = (y1 if c1 == x1 and y1 >= 0 else x1) + 1
                code1 = code0 | (c1 + 1) << 5
                points1 = points0 + _POINTS[c1]
                best2 = INF if lead_ns else -1
                p2, q2 = self.pair(seat2, x2, y2, code1)
                for i2 in range(1 if q2 < 0 else 2):
                    c2 = q2 if i2 else p2
                    r2 = (y2 if c2 == x2 and y2 >= 0 else x2) + 1
                    code2 = code1 | (c2 + 1) << 10
                    points2 = points1 + _POINTS[c2]
                    row = winners[code2]  # the winners of the tricks after these three cards
                    best3 = -1 if lead_ns else INF
                    p3, q3 = self.pair(seat3, x3, y3, code2)
                    for i3 in range(1 if q3 < 0 else 2):
                        c3 = q3 if i3 else p3
                        r3 = (y3 if c3 == x3 and y3 >= 0 else x3) + 1
                        position = row[c3 + 1] - 1
                        if position < 0:
                            position = self.winner(code2 | (c3 + 1) << 15)
                        points = points2 + _POINTS[c3]
                        if position == 0:  # the last trick, led by the first one's winner
                            last = r0 | r1 << 5 | r2 << 10 | r3 << 15
                        elif position == 1:
                            last = r1 | r2 << 5 | r3 << 10 | r0 << 15
                        elif position == 2:
                            last = r2 | r3 << 5 | r0 << 10 | r1 << 15
                        else:
                            last = r3 | r0 << 5 | r1 << 10 | r2 << 15
                        won = leader + position
                        ends = winners[last & 32767][last >> 15] - 1
                        if ends < 0:
                            ends = self.winner(last)
                        final = won + ends
                        value = (0 if won & 1 else points) + (0 if final & 1 else total - points)
                        if lead_ns:
                            if value > best3:
                                best3 = value
                                if best3 >= best2:
                                    break
                        elif value < best3:
                            best3 = value
                            if best3 <= best2:
                                break
                    if lead_ns:
                        if best3 < best2:
                            best2 = best3
                            if best2 <= best1:
                                break
                    elif best3 > best2:
                        best2 = best3
                        if best2 >= best1:
                            break
                if lead_ns:
                    if best2 > best1:
                        best1 = best2
                        if best1 >= best0:
                            break
                elif best2 < best1:
                    best1 = best2
                    if best1 <= best0:
                        break
            if lead_ns:
                best0 = min(best0, best1)
            elif best1 > best0:
                best0 = best1
        self.endgame.put(key, best0)
        return best0

    def pair(self, seat: int, low: int, high: int, code: int) -> tuple[int, int]:
        """The distinct cards ``seat`` may play to the trick coded ``code``, from two cards.

        ``low`` and ``high`` are the seat's two cards (``high`` -1 for two copies of
        ``low``); so is the answer, in :meth:`legal`'s order (-1: one card only).  A seat
        holding one of them in the led suit must play it, one holding neither may play
        either (rule 1); only when both are in the led suit does the play-over rule
        choose, and :meth:`legal` asks it.
        """
        if high < 0:
            return low, -1
        led = ((code & 31) - 1) // 7
        if low // 7 == led:
            if high // 7 != led:
                return low, -1
            window = self.legal(seat, code)
            return (window[0], window[1]) if len(window) > 1 else (window[0], -1)
        return (high, -1) if high // 7 == led else (low, high)

    def play(  # noqa: PLR0912, PLR0913, PLR0915, PLR0917  # the hot loop, inlined
        self,
        seat: int,
        leader: int,
        alpha: int,
        beta: int,
        left: int,
        tricks_left: int,
        code: int,
        tbits: int,
        taken: int,
        hint: int,
    ) -> int:
        """North-South's points from the start of the trick, ``seat`` to play (fail-soft).

        ``code``/``tbits``/``taken``: the trick so far as a code, as packed
        cards, and its card points; ``left``: the card points in the hands
        and the trick; ``hint``: a card to try first.  Sets :attr:`best`.
        """
        self.nodes += 1
        if self.nodes > self.limit:
            raise Budget
        played = (seat - leader) & 3
        if played == 3:
            return self.last(seat, leader, alpha, beta, left, tricks_left, code, tbits, taken)
        found = self.classes(seat, code, tbits)
        shift = 5 * played
        count = len(found)
        slot = 0
        # The killer, when the other cards are still to be put in order: it is tried
        # first, and the rest ordered only if it does not cut off (order() scores each
        # card alone, so the order is the one of ordering all and promoting the killer).
        unordered = -1
        if count == 1:
            moves = _SINGLE[found[0]]  # never changed
        else:
            killer = -1
            if self.use_killers:  # the killer first (second after the table's card)
                previous = (code >> (shift - 5)) & 31 if played else 0
                slot = 64 + 128 * tricks_left + 32 * played + previous
                killer = self.killers[slot]
                if killer >= 0 and not _holds(found, killer):
                    killer = -1
            if hint >= 0 and _holds(found, hint):
                moves = _promoted(found, hint, killer)
            elif killer >= 0:
                moves = _SINGLE[killer]
                unordered = killer
            else:
                moves = self.order(found, seat, leader, played, code, -1)
        minimising = not seat & 1
        best = INF if minimising else -INF
        best_card = moves[0]
        following = (seat + 1) & 3
        held = self.hand(seat)  # taken from and put back below: add() inlined, a call saved
        cut = False
        index = 0
        while index < count:
            card = moves[index]
            index += 1
            bit = _BIT[card]
            if seat == 0:
                self.h0 = held - bit
            elif seat == 1:
                self.h1 = held - bit
            elif seat == 2:
                self.h2 = held - bit
            else:
                self.h3 = held - bit
            value = self.play(
                following,
                leader,
                alpha,
                beta,
                left,
                tricks_left,
                code | (card + 1) << shift,
                tbits | bit,
                taken + _POINTS[card],
                -1,
            )
            if seat == 0:
                self.h0 = held
            elif seat == 1:
                self.h1 = held
            elif seat == 2:
                self.h2 = held
            else:
                self.h3 = held
            if minimising:
                if value < best:
                    best = value
                    best_card = card
                    if value < beta:
                        beta = value
                        if beta <= alpha:
                            cut = True
                            break
            elif value > best:
                best = value
                best_card = card
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        cut = True
                        break
            if unordered >= 0:  # the killer did not cut off: the others, in order
                moves = self.order(found, seat, leader, played, code, unordered)
                unordered = -1
                index = 0
                count -= 1
        if cut and slot:
            self.killers[slot] = best_card
        self.best = best_card
        return best

    def order(  # noqa: PLR0912, PLR0913, PLR0917  # two orderings (leads, followers), inlined
        self, found: tuple[int, ...], seat: int, leader: int, played: int, code: int, skip: int
    ) -> list[int]:
        """The cards ``found`` but ``skip`` (-1: none) in the order to try them (measured
        on solved positions; see the docs).

        Leads: cards an opponent can beat first (of a suit not sunk), then sunk
        cards, then the rest; within each, points first, low first.
        Followers: a card that leaves the trick to the mover's side, cheapest and
        lowest first; at the second seat otherwise pointless and high first; at
        the third, a card that leaves the trick to the opponents sheds points.
        """
        # score * 32 + card (the tables _LEAD to _SHED): sorts by score, then card, so the
        # order does not depend on the order of ``found``.  Two or three moves (the usual
        # cases) are compared without a list of keys: an int in a list is boxed.
        count = len(found) - 1 if skip >= 0 else len(found)
        scored: list[int] = []
        k0 = k1 = k2 = -1
        sunk = self.sunk
        opponents = self.hand((seat + 1) & 3) | self.hand((seat + 3) & 3) if not played else 0
        team = seat & 1
        led = ((code & 31) - 1) // 7
        shift = 5 * played
        winners = self.winners
        for card in found:
            if card == skip:
                continue
            if not played:
                if card // 7 == sunk:
                    key = _LEAD[card] + 100 * 32
                elif opponents & _UPWARD[card]:
                    key = _LEAD[card]
                else:
                    key = _LEAD[card] + 200 * 32
            else:
                full = code | (card + 1) << shift
                position = winners[full & 32767][full >> 15] - 1
                if position < 0:
                    position = self.winner(full)
                mine = (leader + position) & 1 == team
                if mine and card // 7 == led:
                    key = _WIN_LED[card]
                elif played == 1:
                    key = _SECOND[card]
                elif mine:
                    key = _KEEP[card]
                else:
                    key = _SHED[card]
            if count > 3:
                scored.append(key)
            elif k0 < 0:
                k0 = key
            elif k1 < 0:
                k1 = key
            else:
                k2 = key
        if count < 2:
            return [k0 & 31]
        if count == 2:
            return [k0 & 31, k1 & 31] if k0 < k1 else [k1 & 31, k0 & 31]
        if count == 3:
            k0, k1, k2 = _sort3(k0, k1, k2)
            return [k0 & 31, k1 & 31, k2 & 31]
        scored.sort()
        for index in range(len(scored)):
            scored[index] = scored[index] & 31
        return scored

    def last(  # noqa: PLR0912, PLR0913, PLR0917  # the hot loop, inlined
        self,
        seat: int,
        leader: int,
        alpha: int,
        beta: int,
        left: int,
        tricks_left: int,
        code: int,
        tbits: int,
        taken: int,
    ) -> int:
        """The trick's last card: each card's trick is decided, the rest is searched."""
        found = self.classes(seat, code, tbits)
        team = seat & 1
        row = self.winners[code]  # the winners of the tricks after the first three cards
        first = self.option(found[0], leader, team, code, row)
        count = len(found)
        if count == 1:  # one card (or class): no order to find
            card = found[0]
            value = self.settle(seat, card, first & 3, alpha, beta, left, tricks_left, code, taken)
            self.best = card
            return value
        minimising = not seat & 1
        # Two or three cards (the usual cases) are put in order without a list: an int in a
        # list is boxed, and the list sorted; more are sorted in a list.
        second = self.option(found[1], leader, team, code, row)
        third = -1
        options: list[int] | None = None
        if count == 2:
            if second < first:
                first, second = second, first
        elif count == 3:
            first, second, third = _sort3(
                first, second, self.option(found[2], leader, team, code, row)
            )
        else:
            options = [first, second]
            for index in range(2, count):
                options.append(self.option(found[index], leader, team, code, row))
            options.sort()
            first = options[0]
        best = INF if minimising else -INF
        best_card = (first >> 2) & 31
        for step in range(count):
            if options is not None:
                option = options[step]
            else:
                option = first if step == 0 else second if step == 1 else third
            card = (option >> 2) & 31
            value = self.settle(seat, card, option & 3, alpha, beta, left, tricks_left, code, taken)
            if minimising:
                if value < best:
                    best = value
                    best_card = card
                    if value < beta:
                        beta = value
                        if beta <= alpha:
                            break
            elif value > best:
                best = value
                best_card = card
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        self.best = best_card
        return best

    def option(self, card: int, leader: int, team: int, code: int, row: list[int]) -> int:
        """The last card ``card`` of the trick coded ``code`` as ``(score * 32 + card) * 4 +
        winner``: options sort by score, then card (scores biased as in :meth:`order`).

        ``row``: the winners of the tricks after ``code`` (``winners[code]``, read once by
        :meth:`last`).  The mover's side (``team``) takes the trick: add little; else shed
        points.
        """
        position = row[card + 1] - 1
        if position < 0:
            position = self.winner(code | (card + 1) << 15)
        winner = (leader + position) & 3
        return ((_KEEP[card] if winner & 1 == team else _SHED[card]) << 2) + winner

    def settle(  # noqa: PLR0913, PLR0917  # the position, spelled out
        self,
        seat: int,
        card: int,
        winner: int,
        alpha: int,
        beta: int,
        left: int,
        tricks_left: int,
        code: int,
        taken: int,
    ) -> int:
        """North-South's points from the trick's start if ``seat`` ends it with ``card``.

        ``winner`` takes the trick; the rest of the hand is searched from the
        next trick boundary, unless the static bounds decide.
        """
        now = 0 if winner & 1 else taken + _POINTS[card]
        rest = left - taken - _POINTS[card]
        after = tricks_left - 1
        if not after:  # the hand's last trick
            return now + (0 if winner & 1 else _BONUS)
        if self.bounds:  # static cutoffs: the rest is worth 0 to rest + bonus
            if beta <= now:
                return now
            if alpha >= now + rest + _BONUS:
                return now + rest + _BONUS
        bit = _BIT[card]
        self.add(seat, -bit)
        value = now + self.boundary(
            winner, alpha - now, beta - now, rest, after, code | (card + 1) << 15
        )
        self.add(seat, bit)
        return value


_SINGLE: Final[tuple[list[int], ...]] = tuple([card] for card in range(28))
"""A one-card list of moves for each card (never changed)."""


def _sort3(a: int, b: int, c: int) -> tuple[int, int, int]:
    """Three numbers in increasing order (compiled, a tuple of ints returned is no object)."""
    if b < a:
        a, b = b, a
    if c < b:
        b, c = c, b
        if b < a:
            a, b = b, a
    return a, b, c


def _holds(found: tuple[int, ...], card: int) -> bool:
    """Whether ``card`` is one of ``found``."""
    for index in range(len(found)):  # noqa: SIM110  # compiled, any() over a generator is slower
        if found[index] == card:
            return True
    return False


def _promoted(found: tuple[int, ...], first: int, second: int) -> list[int]:
    """The cards ``found`` with ``first`` (one of them) first and ``second`` (one of them
    or -1) next, the others in their order."""
    moves = [first]
    if second >= 0 and second != first:
        moves.append(second)
    for card in found:
        if card not in (first, second):
            moves.append(card)
    return moves


def _slot(key: int) -> int:
    """Where an ``_IntMap`` starts looking for ``key`` (before masking).

    The keys are packed fields (suits, hands), and linear probing needs slots
    spread evenly: the key folded to 29 bits, times an odd constant, and bits 16
    up of the product, which depend on every bit folded in.  Both factors stay
    below ``2**30``: compiled, a larger one takes mypyc's slow, boxed product.
    (``_IntMap.get`` spells this out, to save a call.)
    """
    folded = (key ^ (key >> 23) ^ (key >> 46)) & 0x1FFFFFFF
    return (folded * 0x2545F491) >> 16


def _pair_key(hand: int) -> int:
    """A number below ``2**13`` naming a packed hand of two cards: its lowest bit and the
    rest, each modulo 67 (see ``_RESIDUES``)."""
    low = hand & -hand
    return (low % _RESIDUES) * _RESIDUES + (hand - low) % _RESIDUES


def _two_cards(hand: int) -> tuple[int, int]:
    """The distinct cards of a packed hand of two cards, low first (-1 for the second of
    two copies of one card): by their bits modulo 67 (see ``_RESIDUES``)."""
    low = hand & -hand
    first = _CARD_OF[low % _RESIDUES]
    if first < 0:  # the bit of a card's second copy: two copies of one card
        return _CARD_OF[(low >> 1) % _RESIDUES], -1
    return first, _CARD_OF[(hand - low) % _RESIDUES]


def _trick_points(code: int) -> int:
    """The card points of a trick code."""
    points = 0
    while code:
        points += _POINTS[(code & 31) - 1]
        code >>= 5
    return points


def _trick_bits(code: int) -> int:
    """The cards of a trick code, packed."""
    bits = 0
    while code:
        bits |= _BIT[(code & 31) - 1]
        code >>= 5
    return bits


def _squeeze(whole: int, runs: bool) -> int:
    """One suit of four hands (four 14-bit blocks) in relative-rank form (see ``suit_key``)."""
    found = 0
    place = 0
    holder = -1  # the one player holding the run in progress, if any
    for rank in range(7):
        shift = 2 * rank  # each hand's count of the rank: two bits of its 14-bit block
        c0 = (whole >> shift) & 3
        c1 = (whole >> (shift + 14)) & 3
        c2 = (whole >> (shift + 28)) & 3
        c3 = (whole >> (shift + 42)) & 3
        if rank >= 2:
            if not c0 | c1 | c2 | c3:
                continue  # a pointless rank nobody holds: squeezed out
            single = -1  # the one player holding the rank, if only one does
            if not c1 | c2 | c3:
                single = 0
            elif not c0 | c2 | c3:
                single = 1
            elif not c0 | c1 | c3:
                single = 2
            elif not c0 | c1 | c2:
                single = 3
            if runs and single >= 0 and single == holder:
                found += (c0 | c1 | c2 | c3) << (4 * holder + 16 * (place - 1))
                continue
            holder = single
        found |= (c0 | c1 << 4 | c2 << 8 | c3 << 12) << (16 * place)
        place += 1
    return found
