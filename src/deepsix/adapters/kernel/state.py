"""The games' state as arrays, and the tables every phase of the kernel reads.

:class:`KernelState` allocates one array per fact of the games -- each
seat's hand as 28 copy counts, the auction, the sunk suit, the invitation,
both passes, the melds, the tricks and the scores -- with the games on the
first axis.  The phase modules beside this one (``deal``, ``auction``,
``contract``, ``passing``, ``melding``, ``play``) read and write these
arrays for the games in their phase; :class:`~deepsix.adapters.kernel.Kernel`
is this state with the public API on top.

The module also holds what the phases share: the phases' indices, the
cards' suits, ranks and points, the melds as card-count tables, and the
melds' usage of a seat's cards (:func:`usage`, :func:`tied_up`), which
both the meld masks and the bidder's pass read (R-MELD-2, R-PASS-2).
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
    "CARD",
    "DECK",
    "INVITATION",
    "MELDING",
    "MELD_FAMILY",
    "MELD_NEED",
    "MELD_RUN_SUIT",
    "MELD_VALUE",
    "NUM_CARDS",
    "NUM_MELDS",
    "NUM_PHASES",
    "PARTNER_PASS",
    "PLAY",
    "POINTS",
    "SEATS",
    "SUIT_OF",
    "SUNK_SUIT",
    "Array",
    "KernelState",
    "tied_up",
    "usage",
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


class KernelState:
    """The state of ``num_games`` games as arrays, the games on the first axis.

    The arrays are public so that tests and users can read them; only the
    kernel's phase modules write them.  A hand's setup is reset by
    :func:`deepsix.adapters.kernel.deal.deal`.
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
        self.scores = np.zeros((n, 2), dtype=np.int64)
        self.hands_done = np.zeros(n, dtype=np.int64)
        self.hands = np.zeros((n, 4, NUM_CARDS), dtype=np.int8)
        """Each seat's cards as copy counts (cards in flight between partners excluded)."""
        self.bidder = np.zeros(n, dtype=np.int64)
        self.bid = np.zeros(n, dtype=np.int64)  # the standing bid's index in bid_amounts
        self.calls = np.zeros(n, dtype=np.int64)
        self.auction_bids = np.zeros((n, 4, nb), dtype=bool)
        self.auction_passed = np.zeros((n, 4), dtype=bool)
        self.sunk = np.zeros(n, dtype=np.int64)
        self.invitation = np.zeros((n, NUM_CARDS), dtype=np.int8)
        self.partner_pass = np.zeros((n, NUM_CARDS), dtype=np.int8)
        self.bidder_pass = np.zeros((n, NUM_CARDS), dtype=np.int8)
        self.pass_counts = np.zeros((n, 2), dtype=np.int64)
        self.melds = np.zeros((n, 4, NUM_MELDS), dtype=np.int8)
        self.trick_cards = np.zeros((n, 4, HAND_SIZE), dtype=np.int8)  # by seat; -1: none
        self.sizes = np.zeros((n, 4), dtype=np.int64)  # cards held
        self.trick_leaders = np.zeros((n, HAND_SIZE), dtype=np.int8)
        self.trick_winners = np.zeros((n, HAND_SIZE), dtype=np.int8)
        self.tricks = np.zeros(n, dtype=np.int64)  # completed tricks this hand
        self.trick_length = np.zeros(n, dtype=np.int64)  # cards in the trick in progress
        self.played = np.zeros((n, 4, NUM_CARDS), dtype=np.int8)  # to completed tricks
        self.voids = np.zeros((n, 4, 4), dtype=bool)  # suits each seat has shown it lacks
        # The trick in progress: the suit led, and what wins it so far (R-PLAY-4 to R-PLAY-6):
        # the card, its seat, the last suit introduced, and the suits introduced (bits).
        self.led = np.zeros(n, dtype=np.int64)
        self.best = np.zeros(n, dtype=np.int64)
        self.best_seat = np.zeros(n, dtype=np.int64)
        self.winning_suit = np.zeros(n, dtype=np.int64)
        self.introduced = np.zeros(n, dtype=np.int64)
        self.tricks_taken = np.zeros((n, 2), dtype=np.int64)
        self.points = np.zeros((n, 2), dtype=np.int64)


def usage(state: KernelState, games: Array, seat: Array) -> Array:
    """Per family (runs, echoes, wides), the card copies the seat's melds use: (k, 3, 28)."""
    declared = state.melds[games, seat].astype(np.int64)
    return np.stack(
        [declared[:, f == MELD_FAMILY] @ MELD_NEED[f == MELD_FAMILY] for f in range(3)],
        axis=1,
    )


def tied_up(state: KernelState, used: Array) -> Array:
    """The copies of each card the families' usage ties up (the last axis is the card,
    the one before it the family): their maximum with sharing, else their sum."""
    if state.config.rules.meld_sharing:
        tied: Array = used.max(axis=-2)
        return tied
    summed: Array = used.sum(axis=-2)
    return summed
