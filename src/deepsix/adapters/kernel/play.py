"""The play (R-PLAY-*) and the hand's score (R-SCORE-*, R-END-*) over the kernel's games.

A seat follows the suit led if it can, and then plays over the trick if it
can; the trick goes to the high card of the last suit introduced, the sunk
suit counting as introduced first, the second of two identical cards
beating the first.  The fourteenth trick ends the hand: :func:`score`
scores it and says which games are over; the kernel deals the rest.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from deepsix.errors import Reason, missing_extra

try:
    import numpy as np
except ImportError as _missing:
    raise missing_extra("deepsix.adapters.kernel.play", "openspiel", _missing) from None

from deepsix.adapters.actions import GIVE_BASE
from deepsix.cards import HAND_SIZE
from deepsix.rules import PlayOver
from deepsix.scoring import LAST_TRICK_BONUS

from .state import (
    FROM_CARD,
    MELD_VALUE,
    PLAY,
    PLAYED,
    POINTS,
    SEATS,
    SUIT_BITS,
    TRICK_CARDS,
    VOIDS,
    Array,
    KernelState,
    bit_flags,
    take_card,
)

__all__ = ["PHASES", "Outcome", "legal", "refusal", "score", "step"]

PHASES: Final = (PLAY,)
"""The phase this module steps."""

_SIGNS: Final = np.array([1.0, -1.0, 1.0, -1.0], dtype=np.float32)


class Outcome(NamedTuple):
    """A step's outputs, written in place: per-seat rewards and the terminal flags."""

    rewards: Array
    """``(num_games, 4)`` float32."""
    terminations: Array
    """``(num_games,)`` bool."""
    truncations: Array
    """``(num_games,)`` bool."""


def legal(state: KernelState, out: Array, games: Array, phase: int) -> None:
    """Write the cards ``games``' seats to act may play into the masks ``out``: the seat's
    cards of the suit led from the lowest that plays over the trick (if one does), else all
    its cards of that suit, else all its cards -- bit operations on the hand as bits."""
    seat = state.to_act[games]
    held = state.held[games, seat]
    led = state.led[games]
    following = held & SUIT_BITS[led]
    can_follow = (state.trick_length[games] > 0) & (following != 0)
    if state.config.rules.play_over is PlayOver.WIN_TRICK:
        bar = state.best[games]
        lowest = np.where(bar // 7 == led, bar, 7 * led)
    else:  # over the highest card of the suit led so far
        trick = state.trick_cards[games, :, np.minimum(state.tricks[games], HAND_SIZE - 1)]
        trick = trick.astype(np.int64)  # (k, seat): -1 for a seat yet to play
        lowest = np.where((trick >= 0) & (trick // 7 == led[:, None]), trick, 0).max(axis=1)
    over = following & FROM_CARD[lowest]
    window = np.where(over != 0, over, following)
    out[games, :28] = bit_flags(np.where(can_follow, window, held))


def step(state: KernelState, games: Array, ids: Array, seat: Array, phase: int) -> Array:
    """A card played (R-PLAY-*); a fourth card completes the trick.  Returns the games whose
    hand the fourteenth trick ended (the last trick's bonus counted, not yet scored)."""
    card = ids
    take_card(state, games, seat, card)
    trick = state.trick[games]  # (k, 7): the columns of KernelState.trick, rewritten below
    k, length, led, best, best_seat, winning, introduced = trick.T.copy()
    leading = length == 0
    state.trick_leaders[games[leading], k[leading]] = seat[leading]
    facts = state.seat_facts.reshape(-1)
    width = state.seat_facts.shape[2]
    row = (games * 4 + seat) * width
    facts[row + (TRICK_CARDS + k)] = card
    suit = card // 7
    bit = np.left_shift(1, suit)
    same = ~leading & (suit == winning)
    new = ~leading & ~same & (suit != state.sunk[games]) & ((introduced & bit) == 0)
    take = leading | (same & (card >= best)) | new  # the second identical card wins
    off = ~leading & (suit != led)  # R-PLAY-2: this seat holds none of the suit led
    facts[row[off] + (VOIDS + led[off])] = 1
    best_seat = np.where(take, seat, best_seat)
    trick[:, 2] = np.where(leading, suit, led)
    trick[:, 3] = np.where(take, card, best)
    trick[:, 4] = best_seat
    trick[:, 5] = np.where(leading | new, suit, winning)
    trick[:, 6] = np.where(leading, bit, introduced | np.where(new, bit, 0))
    full = length == 3  # this card is the trick's fourth
    trick[:, 0] = k + full
    trick[:, 1] = np.where(full, 0, length + 1)
    state.trick[games] = trick
    state.to_act[games] = np.where(full, best_seat, (seat + 1) & 3)
    done: Array = games[full]
    if not len(done):
        return done
    k = k[full]
    winner = best_seat[full]
    team = winner & 1
    state.trick_winners[done, k] = winner
    state.tricks_taken[done, team] += 1
    rows = ((done * 4)[:, None] + SEATS[None, :]) * width  # (k, seat)
    cards = facts[rows + (TRICK_CARDS + k)[:, None]].astype(np.int64)
    state.points[done, team] += POINTS[cards].sum(axis=1)
    facts[rows + (PLAYED + cards)] += 1  # one card per seat and game
    last = k == HAND_SIZE - 1
    ended: Array = done[last]
    state.points[ended, team[last]] += LAST_TRICK_BONUS
    return ended


def score(state: KernelState, games: Array, outcome: Outcome) -> Array:
    """Score the hand of ``games`` (R-SCORE-*), write the rewards and flags, and return which
    games are finished (R-END-*, or ``max_hands``); the others' next dealer is set."""
    rules = state.config.rules
    values = state.melds[games].astype(np.int64) @ MELD_VALUE  # (k, 4 seats)
    meld = values[:, [0, 1]] + values[:, [2, 3]]
    net = state.points[games] + meld
    team = state.bidder[games] & 1
    bid = state.amounts[state.bid[games]]
    rows = np.arange(len(games))
    made = net[rows, team] <= bid
    hand_scores = np.maximum(net, 0)
    hand_scores[rows[~made], team[~made]] = rules.failed_bid_score - bid[~made]
    totals = state.scores[games] + hand_scores
    state.scores[games] = totals
    state.hands_done[games] += 1
    margin = (hand_scores[:, 1] - hand_scores[:, 0]).astype(np.float32)
    outcome.rewards[games] = _SIGNS[None, :] * margin[:, None]
    top = totals.max(axis=1)
    reached = top >= rules.target_score if rules.end_at_target else top > rules.target_score
    over = reached & (totals[:, 0] != totals[:, 1])
    finished: Array = over | (state.hands_done[games] >= state.config.hands)
    ending = over if state.config.mode == "game" else finished
    outcome.terminations[games] = finished & ending
    outcome.truncations[games] = finished & ~ending
    going = games[~finished]
    state.dealer[going] = (state.dealer[going] + 1) & 3
    return finished


def refusal(state: KernelState, i: int, index: int) -> Reason:
    """Why action ``index`` is refused in game ``i`` (the error path: one game)."""
    if index >= GIVE_BASE:
        return Reason.WRONG_PHASE
    card = index % 28
    if state.hands[i, state.to_act[i], card] == 0:
        return Reason.CARD_NOT_IN_HAND
    trick = state.tricks[i]
    lead = int(state.trick_cards[i, state.trick_leaders[i, trick], trick])
    if card // 7 != lead // 7:
        return Reason.MUST_FOLLOW_SUIT
    return Reason.MUST_PLAY_OVER
