"""The melds (R-MELD-*) over the kernel's games: the bidder's, then the others' in turn.

A seat declares melds one at a time from the cards its declared melds do
not use yet (with meld sharing, a card may serve one meld of each family),
never a run in the sunk suit, and says Done.  The bidder's melds must
leave her ``pass_size`` cards to pass back (R-MELD-4); after her the seats
from her left meld, and the bidder's Done-turn comes round to play.
"""

from __future__ import annotations

from typing import Final

from deepsix.errors import Reason, missing_extra

try:
    import numpy as np
except ImportError as _missing:
    raise missing_extra("deepsix.adapters.kernel.melding", "openspiel", _missing) from None

from deepsix.adapters.actions import DONE_ID, MELD_BASE

from .state import (
    BIDDER_MELD,
    BIDDER_PASS,
    MELD_FAMILY,
    MELD_RUN_SUIT,
    MELDING,
    NEED_ONCE,
    NEED_TOTAL,
    NEED_TWICE,
    PLAY,
    Array,
    KernelState,
    tied_bits,
)

__all__ = ["PHASES", "legal", "meld_fits", "refusal", "step"]

PHASES: Final = (BIDDER_MELD, MELDING)
"""The phases this module steps."""


def meld_fits(state: KernelState, games: Array, seat: Array, *, capped: bool) -> Array:
    """Which of the 27 melds the seat may declare next (R-MELD-2 to R-MELD-4): (k, 27).

    A meld fits if the cards its family's melds leave free (with meld sharing; else the cards
    no meld uses) hold what it takes: bit operations on the hand and the usage, as bits."""
    held = state.held[games, seat][:, None]  # (k, 1)
    doubled = state.doubled[games, seat][:, None]
    if state.config.rules.meld_sharing:
        once = state.meld_once[games, seat][:, MELD_FAMILY]  # (k, 27): the meld's family
        twice = state.meld_twice[games, seat][:, MELD_FAMILY]
    else:
        tied_once, tied_twice = tied_bits(state, games, seat)
        once, twice = tied_once[:, None], tied_twice[:, None]
    free_once = (doubled & ~twice) | (held & ~once)  # at least one copy left
    free_twice = doubled & ~once  # both copies left
    fits: Array = ((free_once & NEED_ONCE) == NEED_ONCE) & ((free_twice & NEED_TWICE) == NEED_TWICE)
    fits &= MELD_RUN_SUIT[None, :] != state.sunk[games][:, None]
    if capped:  # the bidder keeps enough unmelded cards to pass back (R-MELD-4)
        cap = state.sizes[games, seat].astype(np.int64) - state.config.rules.pass_size
        tied_once, tied_twice = tied_bits(state, games, seat)
        if state.config.rules.meld_sharing:
            grown_once = tied_once[:, None] | NEED_ONCE
            grown_twice = tied_twice[:, None] | (once & NEED_ONCE) | NEED_TWICE
            tied = np.bitwise_count(grown_once) + np.bitwise_count(grown_twice)
        else:
            now = np.bitwise_count(tied_once) + np.bitwise_count(tied_twice)
            tied = now[:, None] + NEED_TOTAL
        fits &= tied <= cap[:, None]
    return fits


def legal(state: KernelState, out: Array, games: Array, phase: int) -> None:
    """Write the melds ``games``' seats to act may declare, and Done, into the masks ``out``."""
    seat = state.to_act[games]
    fits = meld_fits(state, games, seat, capped=phase == BIDDER_MELD)
    out[games, MELD_BASE:DONE_ID] = fits
    out[games, DONE_ID] = True


def step(state: KernelState, games: Array, ids: Array, seat: Array, phase: int) -> None:
    """A meld declared, or Done: the bidder then passes back; the others in turn; play."""
    declaring = ids != DONE_ID
    game, who, meld = games[declaring], seat[declaring], ids[declaring] - MELD_BASE
    state.melds[game, who, meld] += 1
    family = MELD_FAMILY[meld]
    once = state.meld_once[game, who, family]
    state.meld_twice[game, who, family] |= (once & NEED_ONCE[meld]) | NEED_TWICE[meld]
    state.meld_once[game, who, family] = once | NEED_ONCE[meld]
    done = games[~declaring]
    if phase == BIDDER_MELD:
        state.phase[done] = BIDDER_PASS
        return
    following = (seat[~declaring] + 1) & 3
    playing = following == state.bidder[done]
    state.phase[done[playing]] = PLAY
    state.to_act[done] = following


def refusal(state: KernelState, i: int, index: int) -> Reason:
    """Why action ``index`` is refused in game ``i`` (the error path: one game)."""
    if not MELD_BASE <= index < DONE_ID:
        return Reason.WRONG_PHASE
    meld = index - MELD_BASE
    if MELD_RUN_SUIT[meld] == state.sunk[i]:
        return Reason.RUN_IN_SUNK_SUIT
    seat = np.array([state.to_act[i]])
    fits = meld_fits(state, np.array([i]), seat, capped=False)
    return Reason.MELD_UNAVAILABLE if not fits[0, meld] else Reason.TOO_FEW_UNMELDED
