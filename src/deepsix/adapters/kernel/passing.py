"""The passes (R-PASS-*) over the kernel's games: the partner's, then the bidder's.

The partner passes ``pass_size`` cards to the bidder one at a time; the
last brings them to her hand and she melds.  After her melds she passes
as many back, never a card her melds tie up (R-PASS-2); the last brings
them to the partner, and the others meld from the bidder's left.
"""

from __future__ import annotations

from typing import Final

from deepsix.adapters.actions import GIVE_BASE, SHOW_BASE
from deepsix.errors import Reason

from .state import (
    BIDDER_MELD,
    BIDDER_PASS,
    GAVE,
    MELDING,
    PARTNER_PASS,
    Array,
    KernelState,
    bit_flags,
    give_cards,
    take_card,
    tied_bits,
)

__all__ = ["PHASES", "legal", "refusal", "step"]

PHASES: Final = (PARTNER_PASS, BIDDER_PASS)
"""The phases this module steps."""


def legal(state: KernelState, out: Array, games: Array, phase: int) -> None:
    """Write the cards ``games``' seats to act may pass into the masks ``out``."""
    seat = state.to_act[games]
    if phase == PARTNER_PASS:
        out[games, GIVE_BASE : GIVE_BASE + 28] = bit_flags(state.held[games, seat])
        return
    tied_once, tied_twice = tied_bits(state, games, seat)
    free = (state.held[games, seat] & ~tied_once) | (state.doubled[games, seat] & ~tied_twice)
    out[games, GIVE_BASE : GIVE_BASE + 28] = bit_flags(free)  # a copy no meld ties up


def step(state: KernelState, games: Array, ids: Array, seat: Array, phase: int) -> None:
    """A card passed; the last one of a pass brings the cards to the other partner."""
    card = ids - GIVE_BASE
    take_card(state, games, seat, card)
    which = 0 if phase == PARTNER_PASS else 1
    state.seat_facts.reshape(-1)[(games * 4 + seat) * state.seat_facts.shape[2] + GAVE + card] += 1
    state.pass_counts[games, which] += 1
    size = state.config.rules.pass_size
    full = state.pass_counts[games, which] == size
    done = games[full]
    if not len(done):
        return
    partner = seat[full] ^ 2
    cards = state.gave[done, seat[full]]
    give_cards(state, done, partner, cards)
    state.got[done, partner] = cards
    if phase == PARTNER_PASS:
        state.phase[done] = BIDDER_MELD
        state.to_act[done] = partner
    else:
        state.phase[done] = MELDING
        state.to_act[done] = (seat[full] + 1) & 3


def refusal(state: KernelState, i: int, index: int) -> Reason:
    """Why action ``index`` is refused in game ``i`` (the error path: one game)."""
    if GIVE_BASE <= index < SHOW_BASE:
        card = index % 28
        held = state.hands[i, state.to_act[i], card]
        return Reason.CARD_NOT_IN_HAND if held == 0 else Reason.CARD_MELDED
    return Reason.WRONG_PHASE
