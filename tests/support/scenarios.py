"""Hand-built deals and action scripts shared by the unit tests."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from deepsix import (
    DECK,
    Action,
    Bid,
    Deal,
    GameState,
    Pass,
    Rules,
    Seat,
    apply,
    new_game,
    parse_cards,
)


def deal_of(north: str, east: str, south: str, west: str | None = None) -> Deal:
    """A deal giving each seat the listed cards; ``west`` defaults to the rest of the deck."""
    hands = [list(parse_cards(text)) for text in (north, east, south)]
    if west is None:
        rest = Counter(DECK)
        for hand in hands:
            rest.subtract(hand)
        hands.append(sorted(rest.elements()))
    else:
        hands.append(list(parse_cards(west)))
    cards = [card for hand in hands for card in hand]
    return Deal(cards)


def play_script(state: GameState, actions: Iterable[Action]) -> GameState:
    """Apply actions in order (each must be legal)."""
    for action in actions:
        state = apply(state, action)
    return state


# North holds a spade fortress: two grand runs' worth of spades, four eights, a 7♥.
NORTH = "8S 8S 7S 7S 6S 6S 5S 4S 8H 8D 8C 7H 2C 3C"
EAST = "2S 2S 3S 3S 2H 2H 3H 3H 4H 4H 5H 5H 6H 6H"
SOUTH = "7C 7C 6C 6C 5C 5C 4C 4C 8C 2D 2D 3D 3D 7D"
FORTRESS = deal_of(NORTH, EAST, SOUTH)


def auction_won_by_north(rules: Rules | None = None, bid: int = 100) -> GameState:
    """The fortress deal with North (dealer West) winning the auction at ``bid``."""
    state = apply(new_game(rules, dealer=Seat.WEST), FORTRESS)
    return play_script(
        state,
        [Bid(Seat.NORTH, bid), Pass(Seat.EAST), Pass(Seat.SOUTH), Pass(Seat.WEST)],
    )
