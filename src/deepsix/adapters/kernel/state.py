"""The games' state as arrays, and the tables every phase of the kernel reads.

:class:`KernelState` allocates one array per fact of the games -- each
seat's hand as 28 copy counts, the auction, the sunk suit, the invitation,
both passes, the melds, the tricks and the scores -- with the games on the
first axis.  The phase modules beside this one (``deal``, ``auction``,
``contract``, ``passing``, ``melding``, ``play``) read and write these
arrays for the games in their phase; :class:`~deepsix.adapters.kernel.Kernel`
is this state with the public API on top.

The module also holds what the phases share: the phases' indices, the
cards' suits, ranks and points, the melds as card tables, and sets of
cards as bits of an integer (bit ``c`` for card ``c``): each seat's hand is
also kept as the cards it holds once and twice (:func:`take_card`,
:func:`give_cards`), and its melds' usage as the cards each family uses
once and twice (:func:`tied_bits`), so that the masks are a few bit
operations per game (the play window, the meld fits, the bidder's pass).
"""

from __future__ import annotations

from typing import Any, Final

from deepsix.errors import missing_extra

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as _missing:
    raise missing_extra("deepsix.adapters.kernel", "openspiel", _missing) from None

from deepsix.adapters.config import GameConfig
from deepsix.adapters.observations import ObservationLayout
from deepsix.cards import CARD_POINTS, HAND_SIZE
from deepsix.melds import ALL_MELDS, MeldFamily
from deepsix.state import Phase

__all__ = [
    "BIDDER_MELD",
    "BIDDER_PASS",
    "BIDDING",
    "BIDS",
    "CARD",
    "CARD_BIT",
    "DECK",
    "FROM_CARD",
    "GAVE",
    "GOT",
    "HAND",
    "INVITATION",
    "MELDING",
    "MELDS",
    "MELD_FAMILY",
    "MELD_NEED",
    "MELD_RUN_SUIT",
    "MELD_VALUE",
    "NEED_ONCE",
    "NEED_TOTAL",
    "NEED_TWICE",
    "NUM_CARDS",
    "NUM_MELDS",
    "NUM_PHASES",
    "PARTNER_PASS",
    "PASSED",
    "PLAY",
    "PLAYED",
    "POINTS",
    "SEATS",
    "SIZE",
    "SUIT_BITS",
    "SUIT_OF",
    "SUNK_SUIT",
    "TRICK_CARDS",
    "VOIDS",
    "Array",
    "KernelState",
    "bit_flags",
    "card_bits",
    "give_cards",
    "set_hand_bits",
    "take_card",
    "tied_bits",
]

Array = npt.NDArray[Any]
"""A NumPy array of any dtype (the kernel's arrays are typed by their docs)."""

NUM_CARDS: Final = 28
"""Distinct cards (seven ranks in four suits); a card's index is ``7 * suit + rank - 2``."""
NUM_MELDS: Final = len(ALL_MELDS)
"""The melds a seat can declare, in :data:`~deepsix.melds.ALL_MELDS`' order."""
NUM_PHASES: Final = len(Phase)
"""How many phases there are."""
_PH: Final = {phase: i for i, phase in enumerate(Phase)}
BIDDING: Final = _PH[Phase.BIDDING]
"""The phases' indices in :class:`~deepsix.Phase` (the kernel's ``phase`` array holds them)."""
SUNK_SUIT: Final = _PH[Phase.SUNK_SUIT]
INVITATION: Final = _PH[Phase.INVITATION]
PARTNER_PASS: Final = _PH[Phase.PARTNER_PASS]
BIDDER_MELD: Final = _PH[Phase.BIDDER_MELD]
BIDDER_PASS: Final = _PH[Phase.BIDDER_PASS]
MELDING: Final = _PH[Phase.MELDING]
PLAY: Final = _PH[Phase.PLAY]

CARD: Final = np.arange(NUM_CARDS)
"""Every card's index."""
SUIT_OF: Final = CARD // 7
"""Each card's suit."""
RANK_OF: Final = CARD % 7 + 2
"""Each card's rank (2 to 8)."""
POINTS: Final = np.array(CARD_POINTS, dtype=np.int32)
"""Each card's points in a trick (R-SCORE-1)."""
DECK: Final = np.repeat(CARD, 2).astype(np.int8)
"""The whole deck, every card twice, sorted."""
SEATS: Final = np.arange(4)
"""The seats North, East, South, West."""
_FAMILY: Final = {MeldFamily.RUN: 0, MeldFamily.ECHO: 1, MeldFamily.WIDE: 2}
MELD_FAMILY: Final = np.array([_FAMILY[m.kind.family] for m in ALL_MELDS])
"""Each meld's family: 0 runs, 1 echoes, 2 wides."""
MELD_NEED: Final = np.array(
    [[m.cards.count(c) for c in range(NUM_CARDS)] for m in ALL_MELDS], dtype=np.int8
)
"""``MELD_NEED[meld, card]``: the copies of the card the meld takes."""
MELD_RUN_SUIT: Final = np.array(
    [
        int(m.suit) if m.kind.family is MeldFamily.RUN and m.suit is not None else -1
        for m in ALL_MELDS
    ]
)
"""A run's suit (no run in the sunk suit, R-MELD-1); -1 for the other melds."""
MELD_VALUE: Final = np.array([m.value for m in ALL_MELDS], dtype=np.int32)
"""Each meld's (negative) value."""


# The columns of :attr:`KernelState.seat_facts`, one row per seat: what the observations
# show seat by seat, side by side, so that one gather puts every game's rows in its
# observer's order (the bids last: their number depends on the rules).
HAND: Final = 0
"""``seat_facts[..., HAND : HAND + 28]``: the seat's cards as copy counts."""
SIZE: Final = 28
"""The number of cards the seat holds."""
PASSED: Final = 29
"""1 once the seat has passed in the auction."""
VOIDS: Final = 30
"""Four columns: 1 for each suit the seat has shown it lacks (R-PLAY-2)."""
MELDS: Final = VOIDS + 4
"""Twenty-seven columns: how many times the seat declared each meld."""
PLAYED: Final = MELDS + NUM_MELDS
"""Twenty-eight columns: the copies of each card the seat played to completed tricks."""
TRICK_CARDS: Final = PLAYED + NUM_CARDS
"""Fourteen columns: the card the seat played to each trick of the hand (-1: none yet)."""
GAVE: Final = TRICK_CARDS + HAND_SIZE
"""Twenty-eight columns: the cards the seat passed this hand, as copy counts."""
GOT: Final = GAVE + NUM_CARDS
"""Twenty-eight columns: the cards the seat received, once the whole pass has come."""
BIDS: Final = GOT + NUM_CARDS
"""One column per bid amount: 1 if the seat bid it."""


class KernelState:
    """The state of ``num_games`` games as arrays, the games on the first axis.

    What the observations show seat by seat is one ``int8`` array,
    :attr:`seat_facts` ``(num_games, 4, columns)``; :attr:`hands`,
    :attr:`sizes`, :attr:`auction_passed`, :attr:`voids`, :attr:`melds`,
    :attr:`played`, :attr:`trick_cards`, :attr:`gave`, :attr:`got` and
    :attr:`auction_bids` are views of
    its columns (the flags as ``bool``).  The arrays are public so that tests
    and users can read them; only the kernel's phase modules write them.  A
    hand's setup is reset by :func:`deepsix.adapters.kernel.deal.deal`.
    """

    def __init__(  # noqa: PLR0915  # one statement per array of the games' state
        self, num_games: int, config: GameConfig, layout: ObservationLayout
    ) -> None:
        self.config = config
        """The game parameters."""
        self.layout = layout
        """The observations' layout."""
        self.num_games = num_games
        """How many games are stepped together."""
        self.num_actions = config.codec.num_actions
        """The size of the action space."""
        rules = config.rules
        self.amounts = np.array(config.codec.bid_amounts, dtype=np.int64)
        """The bids in the action ids' order (``bid`` holds an index into it)."""
        self.forced = config.codec.bid_amounts.index(rules.forced_bid)
        """The forced dealer bid's index in :attr:`amounts` (R-BID-5)."""
        n, nb = num_games, len(self.amounts)
        self.rows = np.arange(n)
        """``0 .. num_games - 1``."""
        self.decks = np.zeros((n, 4 * HAND_SIZE), dtype=np.int8)
        """The deck each game's current hand was dealt from: seat ``s`` got
        ``decks[i, 14 * s : 14 * s + 14]`` (card indices)."""
        self.dealt = np.zeros(n, dtype=bool)
        """Which games were dealt a new hand by the last :meth:`reset` or :meth:`step`."""
        self.phase = np.zeros(n, dtype=np.int64)
        """Each game's phase (its index in :class:`~deepsix.Phase`)."""
        self.to_act = np.zeros(n, dtype=np.int64)
        """The seat to act in each game."""
        self.dealer = np.zeros(n, dtype=np.int64)
        self.tallies = np.zeros((n, 3, 2), dtype=np.int64)
        """Per game and team (North-South, East-West): the tricks taken and the points taken
        this hand, and the game's scores; the three are the views below."""
        self.tricks_taken = self.tallies[:, 0]
        self.points = self.tallies[:, 1]
        self.scores = self.tallies[:, 2]
        self.hands_done = np.zeros(n, dtype=np.int64)
        self.seat_facts = np.zeros((n, 4, BIDS + nb), dtype=np.int8)
        """Each seat's row of facts (the columns are this module's ``HAND`` to ``BIDS``)."""
        flags = self.seat_facts.view(bool)
        self.hands = self.seat_facts[:, :, HAND : HAND + NUM_CARDS]
        """Each seat's cards as copy counts (cards in flight between partners excluded)."""
        self.sizes = self.seat_facts[:, :, SIZE]
        """The cards each seat holds."""
        self.auction_passed = flags[:, :, PASSED]
        self.voids = flags[:, :, VOIDS : VOIDS + 4]  # suits each seat has shown it lacks
        self.melds = self.seat_facts[:, :, MELDS : MELDS + NUM_MELDS]
        self.played = self.seat_facts[:, :, PLAYED : PLAYED + NUM_CARDS]  # to completed tricks
        self.trick_cards = self.seat_facts[:, :, TRICK_CARDS:GAVE]  # by seat; -1: none
        self.gave = self.seat_facts[:, :, GAVE : GAVE + NUM_CARDS]
        """The cards each seat passed to its partner (only the bidder and her partner pass)."""
        self.got = self.seat_facts[:, :, GOT : GOT + NUM_CARDS]
        """The cards each seat received from its partner, once the pass is complete."""
        self.auction_bids = flags[:, :, BIDS:]
        self.held = np.zeros((n, 4), dtype=np.int32)
        """The cards each seat holds at least one copy of, as bits (bit ``c``: card ``c``; 28 bits
        fit an int32)."""
        self.doubled = np.zeros((n, 4), dtype=np.int32)
        """The cards each seat holds both copies of, as bits."""
        self.meld_once = np.zeros((n, 4, 3), dtype=np.int32)
        """Per family (runs, echoes, wides), the cards each seat's melds use, as bits."""
        self.meld_twice = np.zeros((n, 4, 3), dtype=np.int32)
        """Per family, the cards each seat's melds use both copies of, as bits."""
        self.bidder = np.zeros(n, dtype=np.int64)
        self.bid = np.zeros(n, dtype=np.int64)  # the standing bid's index in bid_amounts
        self.calls = np.zeros(n, dtype=np.int64)
        self.sunk = np.zeros(n, dtype=np.int64)
        self.invitation = np.zeros((n, NUM_CARDS), dtype=np.int8)
        self.pass_counts = np.zeros((n, 2), dtype=np.int64)
        self.trick_leaders = np.zeros((n, HAND_SIZE), dtype=np.int8)
        self.trick_winners = np.zeros((n, HAND_SIZE), dtype=np.int8)
        self.trick = np.zeros((n, 7), dtype=np.int64)
        """The hand's tricks so far, one row per game: completed tricks, cards in the trick
        in progress, and what the trick in progress stands at (R-PLAY-4 to R-PLAY-6): the
        suit led, the card winning it, its seat, the last suit introduced and the suits
        introduced (bits).  The columns are the views below (one gather and one scatter
        move them all)."""
        self.tricks = self.trick[:, 0]  # completed tricks this hand
        self.trick_length = self.trick[:, 1]  # cards in the trick in progress
        self.led = self.trick[:, 2]
        self.best = self.trick[:, 3]
        self.best_seat = self.trick[:, 4]
        self.winning_suit = self.trick[:, 5]
        self.introduced = self.trick[:, 6]


# Sets of cards as bits: bit ``c`` of an int64 for card ``c``.
SUIT_BITS: Final = np.array([0x7F << (7 * suit) for suit in range(4)], dtype=np.int64)
"""The cards of each suit, as bits."""
FROM_CARD: Final = np.array(
    [((1 << NUM_CARDS) - 1) & ~((1 << c) - 1) for c in range(NUM_CARDS)], dtype=np.int64
)
"""``FROM_CARD[c]``: the cards ``c`` and above, as bits (within a suit: ``c`` and higher)."""
CARD_BIT: Final = (1 << CARD).astype(np.int64)
"""Each card's bit."""
NEED_ONCE: Final = (MELD_NEED >= 1).astype(np.int64) @ CARD_BIT
"""The cards each meld takes, as bits."""
NEED_TWICE: Final = (MELD_NEED >= 2).astype(np.int64) @ CARD_BIT
"""The cards each meld takes both copies of (the echoes'), as bits."""
NEED_TOTAL: Final = MELD_NEED.sum(axis=1).astype(np.int64)
"""The card copies each meld takes."""


def card_bits(flags: Array) -> Array:
    """A set of cards, ``(..., 28)`` bool, as int64 bits ``(...)``."""
    bits: Array = flags.astype(np.int64) @ CARD_BIT
    return bits


def bit_flags(bits: Array) -> Array:
    """``(k,)`` bits as the ``(k, 28)`` set of cards, uint8 0 or 1 (the inverse of
    :func:`card_bits`)."""
    octets = bits.astype("<u4").view(np.uint8).reshape(len(bits), 4)
    flags: Array = np.unpackbits(octets, axis=1, count=NUM_CARDS, bitorder="little")
    return flags


def set_hand_bits(state: KernelState, games: Array) -> None:
    """:attr:`KernelState.held` and :attr:`KernelState.doubled` of every seat of ``games``,
    from their cards' counts."""
    counts = state.hands[games]
    state.held[games] = card_bits(counts >= 1)
    state.doubled[games] = card_bits(counts >= 2)


def take_card(state: KernelState, games: Array, seat: Array, card: Array) -> None:
    """One copy of ``card`` leaves each seat's hand (a pass or a play); ``games`` distinct."""
    cell = games * 4 + seat  # the seat's row among all games' seats
    facts = state.seat_facts.reshape(-1)
    row = cell * state.seat_facts.shape[2]
    facts[row + (HAND + card)] -= 1
    facts[row + SIZE] -= 1
    bit = CARD_BIT[card]
    held, doubled = state.held.reshape(-1), state.doubled.reshape(-1)
    had = doubled[cell]
    doubled[cell] = had & ~bit
    once = held[cell]
    held[cell] = np.where((had & bit) != 0, once, once & ~bit)


def give_cards(state: KernelState, games: Array, seat: Array, cards: Array) -> None:
    """``cards`` (copy counts, ``(k, 28)``) join each seat's hand (a completed pass)."""
    state.hands[games, seat] += cards
    state.sizes[games, seat] += cards.sum(axis=1, dtype=np.int8)
    counts = state.hands[games, seat]
    state.held[games, seat] = card_bits(counts >= 1)
    state.doubled[games, seat] = card_bits(counts >= 2)


def tied_bits(state: KernelState, games: Array, seat: Array) -> tuple[Array, Array]:
    """The cards the seat's melds tie up at least once and twice, as bits ``(k,)``: the
    families' maximum with meld sharing (a copy serves one meld of each family), else their
    sum (R-MELD-3)."""
    once = state.meld_once[games, seat]  # (k, 3)
    twice = state.meld_twice[games, seat]
    runs, echoes, wides = once[:, 0], once[:, 1], once[:, 2]
    tied_once = runs | echoes | wides
    tied_twice = twice[:, 0] | twice[:, 1] | twice[:, 2]
    if not state.config.rules.meld_sharing:
        tied_twice |= (runs & echoes) | (runs & wides) | (echoes & wides)
    return tied_once, tied_twice
