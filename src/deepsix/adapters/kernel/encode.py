"""The observations of the kernel's games: the adapters' layouts, for every game at once.

:func:`observe` writes the observation of each game's seat to act in the
layout's encoding (:mod:`deepsix.adapters.observations`): seats relative
to the observer, teams as (own, other), the cards a seat passed and
received only for the two partners who exchanged them, and the tricks in
order (``information_state``) or summarised (``observation``).  It reads
only what the seat to act may see.

The work is a fixed number of array operations per block of games (the
blocks sized to stay in the processor's cache, :data:`CHUNK_BYTES`): one
gather puts every game's seat rows (:attr:`KernelState.seat_facts`) in its
observer's order, each seat-by-seat piece is then one strided copy of its
columns, and every one-hot entry of the block is one scatter of ones.
"""

from __future__ import annotations

from typing import Final

from deepsix.errors import missing_extra

try:
    import numpy as np
except ImportError as _missing:
    raise missing_extra("deepsix.adapters.kernel.encode", "openspiel", _missing) from None

from deepsix.cards import HAND_SIZE

from .state import (
    BIDS,
    GAVE,
    GOT,
    HAND,
    MELDS,
    NUM_CARDS,
    NUM_MELDS,
    PASSED,
    PLAYED,
    SEATS,
    SIZE,
    TRICK_CARDS,
    VOIDS,
    Array,
    KernelState,
)

__all__ = ["observe"]

# The pieces written seat by seat from the observer's rows: (name, first column, width).
_SEAT_PIECES: Final = (
    ("hand_sizes", SIZE, 1),
    ("auction_passed", PASSED, 1),
    ("melds", MELDS, NUM_MELDS),
    ("voids", VOIDS, 4),
)
_CARD_PLACE: Final = np.array(
    [trick * 4 * NUM_CARDS + r * NUM_CARDS for r in range(4) for trick in range(HAND_SIZE)]
)
"""Where in the ``tricks`` piece the card a relative seat played to a trick goes, by
``relative seat * 14 + trick``: ``trick * 112 + relative seat * 28`` (plus the card)."""


CHUNK_BYTES: Final = 1 << 22
"""The games are encoded in blocks of about this many bytes of observations, so that each
block's rows stay in the processor's cache while all the pieces are written into them."""


def observe(state: KernelState, out: Array) -> None:
    """Write every game's observation into ``out`` (``(num_games, size)`` float32)."""
    n = state.num_games
    chunk = max(64, CHUNK_BYTES // (4 * state.layout.size))
    at = {piece.name: piece.offset for piece in state.layout.pieces}
    for start in range(0, n, chunk):
        stop = min(n, start + chunk)
        block = out[start:stop]
        block.fill(0.0)
        _observe(state, slice(start, stop), block, at)


def _observe(state: KernelState, games: slice, out: Array, at: dict[str, int]) -> None:  # noqa: PLR0915  # one block per piece
    """Write the observations of the games ``games`` (a range) into their rows ``out``."""
    n, size = out.shape
    rows = state.rows[:n]
    me = state.to_act[games]
    facts = state.seat_facts[games]
    width = facts.shape[2]
    # Every game's seat rows in its observer's order: (n, relative seat, column).
    order = ((rows * 4)[:, None] + ((SEATS[None, :] + me[:, None]) & 3)).ravel()
    seen = np.take(facts.reshape(n * 4, width), order, axis=0).reshape(n, 4, width)

    def seat_piece(name: str, first: int, columns: int) -> None:
        start = at[name]
        block = out[:, start : start + 4 * columns].reshape(n, 4, columns)
        block[...] = seen[:, :, first : first + columns]

    out[:, at["hand"] : at["hand"] + NUM_CARDS] = seen[:, 0, HAND : HAND + NUM_CARDS]
    # The cards the observer passed and received: only the two partners of an exchange have
    # any (cards are passed face down), the second pass once it is complete.
    out[:, at["passed"] : at["passed"] + NUM_CARDS] = seen[:, 0, GAVE : GAVE + NUM_CARDS]
    out[:, at["received"] : at["received"] + NUM_CARDS] = seen[:, 0, GOT : GOT + NUM_CARDS]
    for name, first, columns in _SEAT_PIECES:
        seat_piece(name, first, columns)
    seat_piece("auction_bids", BIDS, width - BIDS)
    if not state.layout.perfect_recall:
        seat_piece("played", PLAYED, NUM_CARDS)
    phase, dealer, bidder, bid, sunk = (
        state.phase[games],
        state.dealer[games],
        state.bidder[games],
        state.bid[games],
        state.sunk[games],
    )
    base = rows * size
    has_bid = bidder >= 0
    ones = [  # flat indices into ``out`` of the one-hot entries; -1: none (dropped below)
        base + (at["player"] + me),
        base + (at["phase"] + phase),
        base + (at["dealer"] + ((dealer - me) & 3)),
        base + at["to_act"],
        np.where(has_bid, base + (at["bidder"] + ((bidder - me) & 3)), -1),
        np.where(has_bid, base + (at["contract"] + bid), -1),
        np.where(sunk >= 0, base + (at["sunk_suit"] + sunk), -1),
    ]
    cards = seen[:, :, TRICK_CARDS : TRICK_CARDS + HAND_SIZE]  # (n, rel seat, trick)
    leaders = state.trick_leaders[games]
    if state.layout.perfect_recall:
        # Flat positions of the cards played so far: game * 56 + relative seat * 14 + trick.
        played = np.ascontiguousarray(cards).reshape(-1)
        where = (played >= 0).nonzero()[0]
        card = played[where].astype(np.int64)
        ones.append(base[where // 56] + (at["tricks"] + _CARD_PLACE[where % 56]) + card)
        for name, seats in (
            ("trick_leaders", leaders),
            ("trick_winners", state.trick_winners[games]),
        ):
            flat = seats.reshape(-1)
            where = (flat >= 0).nonzero()[0]
            game = where // HAND_SIZE
            relative = (flat[where].astype(np.int64) - me[game]) & 3
            ones.append(base[game] + at[name] + (where % HAND_SIZE) * 4 + relative)
    else:
        tricks = state.tricks[games]
        going = (state.trick_length[games] > 0).nonzero()[0]
        current = cards[going, :, tricks[going]]  # (k, rel seat)
        game, r = (current >= 0).nonzero()
        card = current[game, r].astype(np.int64)
        ones.append(base[going[game]] + at["trick"] + r * 28 + card)
        leader = leaders[going, tricks[going]].astype(np.int64)
        ones.append(base[going] + at["trick_leader"] + ((leader - me[going]) & 3))
    flat = np.concatenate(ones)
    out.reshape(-1)[flat[flat >= 0]] = 1.0
    # tricks_taken, points_taken and scores, side by side in the layout: own team first.
    tallies = state.tallies[games]  # (n, 3, 2)
    start = at["tricks_taken"]
    out[:, start : start + 6].reshape(n, 3, 2)[...] = np.where(
        (me & 1)[:, None, None] == 0, tallies, tallies[:, :, ::-1]
    )
    start = at["pass_counts"]
    out[:, start : start + 2] = state.pass_counts[games]
    start = at["invitation"]
    out[:, start : start + NUM_CARDS] = state.invitation[games]
    out[:, at["hand_number"]] = state.hands_done[games] + 1
