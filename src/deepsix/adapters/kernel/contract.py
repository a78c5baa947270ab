"""The contract (R-SUNK-1, R-INVITE-*) over the kernel's games: the sunk suit, the invitation.

The bidder names the sunk suit, then shows cards of the melds she invites
her partner to complete (only cards that could belong to a meld with that
suit sunk), one at a time, and says Done; her partner then passes.
"""

from __future__ import annotations

from typing import Final

from deepsix.errors import Reason, missing_extra

try:
    import numpy as np
except ImportError as _missing:
    raise missing_extra("deepsix.adapters.kernel.contract", "openspiel", _missing) from None

from deepsix.adapters.actions import DONE_ID, MELD_BASE, SHOW_BASE, SINK_BASE

from .state import INVITATION, PARTNER_PASS, RANK_OF, SUIT_OF, SUNK_SUIT, Array, KernelState

__all__ = ["PHASES", "SHOWABLE", "legal", "refusal", "step"]

PHASES: Final = (SUNK_SUIT, INVITATION)
"""The phases this module steps."""

SHOWABLE: Final = np.array(
    [(RANK_OF >= 6) | ((RANK_OF >= 4) & (sunk != SUIT_OF)) for sunk in range(4)]
)
"""``SHOWABLE[sunk, card]``: the card could belong to a meld with that suit sunk (R-INVITE-2)."""


def legal(state: KernelState, out: Array, games: Array, phase: int) -> None:
    """Write the legal actions of ``games`` (all in ``phase``) into the masks ``out``."""
    if phase == SUNK_SUIT:
        out[games, SINK_BASE : SINK_BASE + 4] = True
        return
    seat = state.to_act[games]
    unshown = state.hands[games, seat] > state.invitation[games]
    out[games, SHOW_BASE : SHOW_BASE + 28] = unshown & SHOWABLE[state.sunk[games]]
    out[games, DONE_ID] = True


def step(state: KernelState, games: Array, ids: Array, seat: Array, phase: int) -> None:
    """The sunk suit named; a card shown, or Done (the partner passes next)."""
    if phase == SUNK_SUIT:
        state.sunk[games] = ids - SINK_BASE
        state.phase[games] = INVITATION
        return
    done = ids == DONE_ID
    state.phase[games[done]] = PARTNER_PASS
    state.to_act[games[done]] = seat[done] ^ 2
    showing = ~done
    state.invitation[games[showing], ids[showing] - SHOW_BASE] += 1


def refusal(state: KernelState, i: int, index: int) -> Reason:
    """Why action ``index`` is refused in game ``i`` (the error path: one game)."""
    if state.phase[i] == INVITATION and SHOW_BASE <= index < MELD_BASE:
        card = index % 28
        if state.hands[i, state.to_act[i], card] <= state.invitation[i, card]:
            return Reason.CARD_NOT_IN_HAND
        return Reason.NOT_MELDABLE
    return Reason.WRONG_PHASE
