"""The deal (R-DEAL-1) over the kernel's games: a new game, a new hand, a fresh setup.

The kernel has no chance step: a hand is dealt inside the step that ends
the one before (or in :meth:`~deepsix.adapters.kernel.Kernel.reset`), and
its first decision is the auction's.  The decks come from the kernel's
NumPy generator or from a deck source (the vector environment's
``shuffled_deal`` per game), which is checked: a deck that is not the whole
deck is refused with ``BAD_DEAL``.
"""

from __future__ import annotations

from collections.abc import Callable

from deepsix.errors import IllegalActionError, Reason, missing_extra

try:
    import numpy as np
except ImportError as _missing:
    raise missing_extra("deepsix.adapters.kernel.deal", "openspiel", _missing) from None

from deepsix.cards import HAND_SIZE

from .state import (
    BIDDING,
    DECK,
    GAVE,
    HAND,
    NUM_CARDS,
    SEATS,
    SIZE,
    TRICK_CARDS,
    Array,
    KernelState,
    set_hand_bits,
)

__all__ = ["DeckSource", "deal", "new_games"]

DeckSource = Callable[[Array], Array]
"""Called with the indices of the games to deal, returns one deck per game (card indices in
dealing order, shape ``(len(games), 56)``)."""


def new_games(
    state: KernelState, games: Array, rng: np.random.Generator, source: DeckSource | None
) -> None:
    """Start a new game in ``games``: the first dealer, no scores, the first hand dealt."""
    state.dealer[games] = int(state.config.dealer)
    state.scores[games] = 0
    state.hands_done[games] = 0
    deal(state, games, rng, source)


def deal(
    state: KernelState, games: Array, rng: np.random.Generator, source: DeckSource | None
) -> None:
    """Deal a new hand in ``games`` (R-DEAL-1) and clear the hand's setup."""
    k = len(games)
    if not k:
        return
    if source is None:
        decks = DECK[np.argsort(rng.random((k, 4 * HAND_SIZE)), axis=1)]
    else:
        decks = np.asarray(source(games))
        if decks.shape != (k, 4 * HAND_SIZE) or not np.array_equal(
            np.sort(decks, axis=1), np.broadcast_to(DECK, decks.shape)
        ):
            raise IllegalActionError(
                Reason.BAD_DEAL, f"the deck source gave {decks.shape}, not whole decks"
            )
        decks = decks.astype(np.int8)
    state.decks[games] = decks
    seat_of = np.repeat(SEATS, HAND_SIZE)[None, :]
    flat = (np.arange(k)[:, None] * 112 + seat_of * 28 + decks).ravel()
    counts = np.bincount(flat, minlength=k * 112).reshape(k, 4, 28)
    facts = np.zeros((k, *state.seat_facts.shape[1:]), dtype=np.int8)
    facts[:, :, HAND : HAND + NUM_CARDS] = counts
    facts[:, :, SIZE] = HAND_SIZE
    facts[:, :, TRICK_CARDS:GAVE] = -1
    state.seat_facts[games] = facts
    set_hand_bits(state, games)
    state.meld_once[games] = 0
    state.meld_twice[games] = 0
    state.dealt[games] = True
    state.phase[games] = BIDDING
    state.to_act[games] = (state.dealer[games] + 1) & 3
    state.bidder[games] = -1
    state.bid[games] = -1
    state.calls[games] = 0
    state.sunk[games] = -1
    state.invitation[games] = 0
    state.pass_counts[games] = 0
    state.trick_leaders[games] = -1
    state.trick_winners[games] = -1
    state.trick[games] = 0
    state.tallies[games, :2] = 0  # the tricks and points taken
