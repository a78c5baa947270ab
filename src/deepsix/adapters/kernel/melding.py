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
    MELD_NEED,
    MELD_RUN_SUIT,
    MELDING,
    PLAY,
    Array,
    KernelState,
    tied_up,
    usage,
)

__all__ = ["PHASES", "legal", "meld_fits", "refusal", "step"]

PHASES: Final = (BIDDER_MELD, MELDING)
"""The phases this module steps."""


def meld_fits(state: KernelState, games: Array, seat: Array, *, capped: bool) -> Array:
    """Which of the 27 melds the seat may declare next (R-MELD-2 to R-MELD-4): (k, 27)."""
    hand = state.hands[games, seat].astype(np.int64)
    used = usage(state, games, seat)
    if state.config.rules.meld_sharing:
        remaining = hand[:, None, :] - used  # (k, 3, 28)
    else:
        remaining = np.repeat((hand - used.sum(axis=1))[:, None, :], 3, axis=1)
    fits: Array = np.all(remaining[:, MELD_FAMILY, :] >= MELD_NEED[None], axis=2)
    fits &= MELD_RUN_SUIT[None, :] != state.sunk[games][:, None]
    if capped:
        family = np.eye(3, dtype=np.int64)[MELD_FAMILY]  # (27, 3)
        grown = used[:, None, :, :] + family[None, :, :, None] * MELD_NEED[None, :, None, :]
        cap = hand.sum(axis=1) - state.config.rules.pass_size
        fits &= tied_up(state, grown).sum(axis=2) <= cap[:, None]
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
    state.melds[games[declaring], seat[declaring], ids[declaring] - MELD_BASE] += 1
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
