"""The observations of the kernel's games: the adapters' layouts, for every game at once.

:func:`observe` writes the observation of each game's seat to act in the
layout's encoding (:mod:`deepsix.adapters.observations`): seats relative
to the observer, teams as (own, other), the cards a seat passed and
received only for the two partners who exchanged them, and the tricks in
order (``information_state``) or summarised (``observation``).  It reads
only what the seat to act may see.
"""

from __future__ import annotations

from deepsix.errors import missing_extra

try:
    import numpy as np
except ImportError as _missing:
    raise missing_extra("deepsix.adapters.kernel.encode", "openspiel", _missing) from None

from deepsix.cards import HAND_SIZE

from .state import SEATS, Array, KernelState

__all__ = ["observe"]


def observe(state: KernelState, out: Array) -> None:  # noqa: PLR0915  # one block per piece
    """Write every game's observation into ``out`` (``(num_games, size)`` float32, zeroed)."""
    n = state.num_games
    at = {piece.name: piece.offset for piece in state.layout.pieces}
    rows = state.rows
    me = state.to_act
    # Row (4 * i + seat) of an array shaped (n, 4, ...): the rows in the observer's order.
    order = ((rows * 4)[:, None] + ((SEATS[None, :] + me[:, None]) & 3)).ravel()

    def rotated(values: Array) -> Array:
        flat: Array = values.reshape(n * 4, -1)[order].reshape(n, -1)
        return flat

    def block(name: str, values: Array) -> None:
        start = at[name]
        out[:, start : start + values.shape[1]] = values

    out[rows, at["player"] + me] = 1.0
    out[rows, at["phase"] + state.phase] = 1.0
    out[rows, at["dealer"] + ((state.dealer - me) & 3)] = 1.0
    out[rows, at["to_act"]] = 1.0
    block("hand", state.hands.reshape(n * 4, 28)[rows * 4 + me])
    bidder = state.bidder
    size = state.config.rules.pass_size
    passes = state.pass_counts
    for own, first, then, done in (
        (bidder ^ 2, state.partner_pass, state.bidder_pass, passes[:, 1] == size),
        (bidder, state.bidder_pass, state.partner_pass, passes[:, 0] == size),
    ):
        seen = ((bidder >= 0) & (me == own) & (passes[:, 0] > 0)).nonzero()[0]
        out[seen, at["passed"] : at["passed"] + 28] = first[seen]
        seen = seen[done[seen]]
        out[seen, at["received"] : at["received"] + 28] = then[seen]
    block("hand_sizes", rotated(state.sizes))
    block("auction_bids", rotated(state.auction_bids))
    block("auction_passed", rotated(state.auction_passed))
    has_bid = (bidder >= 0).nonzero()[0]
    out[has_bid, at["bidder"] + ((bidder[has_bid] - me[has_bid]) & 3)] = 1.0
    out[has_bid, at["contract"] + state.bid[has_bid]] = 1.0
    named = (state.sunk >= 0).nonzero()[0]
    out[named, at["sunk_suit"] + state.sunk[named]] = 1.0
    block("invitation", state.invitation)
    block("pass_counts", passes)
    block("melds", rotated(state.melds))
    cards = rotated(state.trick_cards).reshape(n, 4, HAND_SIZE)  # (n, rel seat, trick)
    if state.layout.perfect_recall:
        game, r, trick = np.nonzero(cards >= 0)
        card = cards[game, r, trick].astype(np.int64)
        out[game, at["tricks"] + trick * 112 + r * 28 + card] = 1.0
        game, trick = np.nonzero(state.trick_leaders >= 0)
        leader = state.trick_leaders[game, trick].astype(np.int64)
        out[game, at["trick_leaders"] + trick * 4 + ((leader - me[game]) & 3)] = 1.0
        game, trick = np.nonzero(state.trick_winners >= 0)
        winner = state.trick_winners[game, trick].astype(np.int64)
        out[game, at["trick_winners"] + trick * 4 + ((winner - me[game]) & 3)] = 1.0
    else:
        going = (state.trick_length > 0).nonzero()[0]
        current = cards[going, :, state.tricks[going]]  # (k, rel seat)
        game, r = np.nonzero(current >= 0)
        card = current[game, r].astype(np.int64)
        out[going[game], at["trick"] + r * 28 + card] = 1.0
        leader = state.trick_leaders[going, state.tricks[going]].astype(np.int64)
        out[going, at["trick_leader"] + ((leader - me[going]) & 3)] = 1.0
        block("played", rotated(state.played))
    block("voids", rotated(state.voids))
    team = me & 1
    for name, pair in (
        ("tricks_taken", state.tricks_taken),
        ("points_taken", state.points),
        ("scores", state.scores),
    ):
        flat = pair.reshape(-1)
        out[:, at[name]] = flat[rows * 2 + team]
        out[:, at[name] + 1] = flat[rows * 2 + 1 - team]
    out[:, at["hand_number"]] = state.hands_done + 1
