"""The numbered rules of Deep Six as this library implements them.

Each rule has a stable identifier (``R-PLAY-3``) that the documentation's
rules reference, the error messages (:class:`deepsix.errors.Reason`) and the
tests cite.  The text here is a one-line summary; the docs give the full
rule, the rulings, and examples.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

__all__ = ["RULEBOOK"]

RULEBOOK: Final[Mapping[str, str]] = MappingProxyType(
    {
        "R-DECK-1": "The deck is ranks 2 to 8 in four suits, each card twice: 56 cards.",
        "R-SEAT-1": "Four players in two partnerships; partners sit across (seats 0+2, 1+3).",
        "R-CARD-1": "A player can only play, show or pass a card (copy) they hold.",
        "R-TURN-1": "Only the seat whose turn it is may act.",
        "R-PHASE-1": "Each phase accepts only its own kind of action.",
        "R-DEAL-1": "Each hand starts with a shuffled deal of 14 cards to every seat.",
        "R-DEAL-2": "The deal passes one seat clockwise after each hand.",
        "R-BID-1": "The auction starts left of the dealer and goes clockwise.",
        "R-BID-2": "A call is a bid or a pass; a pass is final for the hand.",
        "R-BID-3": "Bids are multiples of 10.",
        "R-BID-4": "The opening bid is at most 120.",
        "R-BID-5": "Every later bid is strictly lower than the standing bid; jumps are allowed.",
        "R-BID-6": "Bids may be negative, down to the lowest legal bid.",
        "R-BID-7": "If the first three players pass, the dealer must bid 120.",
        "R-BID-8": "The auction ends when the other three players have passed after a bid.",
        "R-SUNK-1": "The bid winner names any suit as the sunk suit.",
        "R-INVITE-1": "The bidder may show any number of cards face up as an invitation.",
        "R-INVITE-2": "Only cards that could belong to a meld, given the sunk suit, may be shown.",
        "R-PASS-1": "The bidder's partner passes her exactly three cards, face down.",
        "R-PASS-2": "The bidder passes exactly three unmelded cards back to her partner.",
        "R-MELD-1": "Melds are runs, echoes and wides, valued as in the scoring table.",
        "R-MELD-2": "A run may not be scored in the sunk suit.",
        "R-MELD-3": "A card copy serves at most one meld of each family (runs, echoes, wides).",
        "R-MELD-4": "The bidder melds from her 17 cards, keeping at least three unmelded.",
        "R-MELD-5": "The others then meld, clockwise from the bidder's left (a library "
        "convention); melding is optional.",
        "R-MELD-6": "Identical melds each count: two deep runs in one suit score twice.",
        "R-MELD-7": "A grand run scores alone, not also the deep or shallow run inside it.",
        "R-PLAY-1": "The bidder leads the first trick; each trick's winner leads the next.",
        "R-PLAY-2": "A player must follow the suit led if able; otherwise any card may be played.",
        "R-PLAY-3": "A player who follows suit must play a card that wins the trick, if able.",
        "R-PLAY-4": "A trick goes to the high card of the last suit introduced (but see R-PLAY-5).",
        "R-PLAY-5": "The sunk suit counts as introduced before every other suit, even when led.",
        "R-PLAY-6": "Of two identical cards, the one played second is higher.",
        "R-SCORE-1": "2s take 20 points, 3s 10, the last trick 10: 250 points per hand.",
        "R-SCORE-2": "A team's net is its card points plus its (negative) meld.",
        "R-SCORE-3": "The bidding team must net at most its bid, or it scores 200 minus the bid.",
        "R-SCORE-4": "A team never scores below zero for a hand.",
        "R-END-1": "When a team reaches 500 after a hand, the team with the lower total wins.",
        "R-END-2": "If the totals are equal, another hand is played.",
    }
)
