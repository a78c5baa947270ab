"""deepsix: the rules of Deep Six as an immutable, typed state machine.

>>> import deepsix
>>> state = deepsix.new_game()
>>> state = deepsix.apply(state, deepsix.shuffled_deal(2026))
>>> state.phase, state.to_act
(<Phase.BIDDING: 'bidding'>, <Seat.EAST: 1>)
"""

from deepsix._version import __version__
from deepsix.actions import (
    Action,
    Bid,
    Deal,
    DeclareMeld,
    Done,
    NameSunkSuit,
    Pass,
    PassCard,
    PlayCard,
    ShowCard,
)
from deepsix.cards import CARDS, DECK, Card, Rank, Seat, Suit, Team, format_cards, parse_cards
from deepsix.engine import LegalActions, apply, legal_actions, new_game, shuffled_deal
from deepsix.errors import (
    DeepSixError,
    IllegalActionError,
    InvalidStateError,
    ParseError,
    Reason,
    SerializationError,
)
from deepsix.melds import ALL_MELDS, Meld, MeldFamily, MeldKind, best_meld, candidate_melds
from deepsix.rulebook import RULEBOOK
from deepsix.rules import LOWEST_BID, PlayOver, Rules
from deepsix.scoring import HandScore, card_points, game_winner, score_hand
from deepsix.state import GameState, HandRecord, HandSetup, Phase
from deepsix.tricks import Trick, legal_plays, trick_winner
from deepsix.views import PlayerView, public_view, view

__all__ = [
    "ALL_MELDS",
    "CARDS",
    "DECK",
    "LOWEST_BID",
    "RULEBOOK",
    "Action",
    "Bid",
    "Card",
    "Deal",
    "DeclareMeld",
    "DeepSixError",
    "Done",
    "GameState",
    "HandRecord",
    "HandScore",
    "HandSetup",
    "IllegalActionError",
    "InvalidStateError",
    "LegalActions",
    "Meld",
    "MeldFamily",
    "MeldKind",
    "NameSunkSuit",
    "ParseError",
    "Pass",
    "PassCard",
    "Phase",
    "PlayCard",
    "PlayOver",
    "PlayerView",
    "Rank",
    "Reason",
    "Rules",
    "Seat",
    "SerializationError",
    "ShowCard",
    "Suit",
    "Team",
    "Trick",
    "__version__",
    "apply",
    "best_meld",
    "candidate_melds",
    "card_points",
    "format_cards",
    "game_winner",
    "legal_actions",
    "legal_plays",
    "new_game",
    "parse_cards",
    "public_view",
    "score_hand",
    "shuffled_deal",
    "trick_winner",
    "view",
]
