"""The auction (R-BID-*) over the kernel's games.

Starting on the dealer's left, each seat passes (and is out of the
auction) or bids lower than the standing bid; three passes before any bid
force the dealer to bid the forced amount.  The auction ends when one bid
stands against three passes, and the bidder names the sunk suit.
"""

from __future__ import annotations

from typing import Final

from deepsix.errors import Reason, missing_extra

try:
    import numpy as np
except ImportError as _missing:
    raise missing_extra("deepsix.adapters.kernel.auction", "openspiel", _missing) from None

from deepsix.adapters.actions import BID_BASE, PASS_ID

from .state import BIDDING, SUNK_SUIT, Array, KernelState

__all__ = ["PHASES", "legal", "refusal", "step"]

PHASES: Final = (BIDDING,)
"""The phase this module steps."""


def legal(state: KernelState, out: Array, games: Array, phase: int) -> None:
    """Write the auction's legal calls of ``games`` into the masks ``out``."""
    forced = (state.bidder[games] < 0) & (state.calls[games] == 3)
    free = games[~forced]
    out[games[forced], BID_BASE + state.forced] = True
    out[free, PASS_ID] = True
    k = np.arange(len(state.amounts))[None, :]
    out[free, BID_BASE:] = k > state.bid[free][:, None]  # lower than the standing bid


def step(state: KernelState, games: Array, ids: Array, seat: Array, phase: int) -> None:
    """A call (R-BID-*): pass, or bid lower than the standing bid."""
    passing = ids == PASS_ID
    state.auction_passed[games[passing], seat[passing]] = True
    bids = ~passing
    won = games[bids]
    k = ids[bids] - BID_BASE
    state.auction_bids[won, seat[bids], k] = True
    state.bidder[won] = seat[bids]
    state.bid[won] = k
    state.calls[games] += 1
    passed = state.auction_passed[games]
    over = (state.bidder[games] >= 0) & (passed.sum(axis=1) == 3)
    following = (seat + 3) & 3
    for turn in (3, 2, 1):
        candidate = (seat + turn) & 3
        following = np.where(passed[np.arange(len(games)), candidate], following, candidate)
    state.phase[games[over]] = SUNK_SUIT
    state.to_act[games] = np.where(over, state.bidder[games], following)


def refusal(state: KernelState, i: int, index: int) -> Reason:
    """Why action ``index`` is refused in game ``i``'s auction (the error path: one game)."""
    if index != PASS_ID and index < BID_BASE:
        return Reason.WRONG_PHASE
    if state.bidder[i] < 0 and state.calls[i] == 3:
        return Reason.DEALER_MUST_BID
    return Reason.BID_NOT_LOWER
