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
from deepsix.bots import Bot, HeuristicBot, RandomBot, play_game
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
from deepsix.notation import format_action, format_actions, parse_action, parse_actions
from deepsix.record import (
    GameRecord,
    RecordError,
    read_record,
    record_of,
    replay,
    write_record,
)
from deepsix.rulebook import RULEBOOK
from deepsix.rules import LOWEST_BID, PlayOver, Rules
from deepsix.sampling import SamplingError, sample_state
from deepsix.scoring import HandScore, card_points, game_winner, score_hand
from deepsix.serialization import MissingDependencyError, from_json, json_schema, to_json
from deepsix.simulate import SimulationResult, simulate
from deepsix.state import GameState, HandRecord, HandSetup, Phase
from deepsix.transcript import format_transcript
from deepsix.tricks import Trick, legal_plays, trick_winner
from deepsix.validation import InvariantError, validate
from deepsix.views import PlayerView, public_view, view

__all__ = [
    "ALL_MELDS",
    "CARDS",
    "DECK",
    "LOWEST_BID",
    "RULEBOOK",
    "Action",
    "Bid",
    "Bot",
    "Card",
    "Deal",
    "DeclareMeld",
    "DeepSixError",
    "Done",
    "GameRecord",
    "GameState",
    "HandRecord",
    "HandScore",
    "HandSetup",
    "HeuristicBot",
    "IllegalActionError",
    "InvalidStateError",
    "InvariantError",
    "LegalActions",
    "Meld",
    "MeldFamily",
    "MeldKind",
    "MissingDependencyError",
    "NameSunkSuit",
    "ParseError",
    "Pass",
    "PassCard",
    "Phase",
    "PlayCard",
    "PlayOver",
    "PlayerView",
    "RandomBot",
    "Rank",
    "Reason",
    "RecordError",
    "Rules",
    "SamplingError",
    "Seat",
    "SerializationError",
    "ShowCard",
    "SimulationResult",
    "Suit",
    "Team",
    "Trick",
    "__version__",
    "apply",
    "best_meld",
    "candidate_melds",
    "card_points",
    "format_action",
    "format_actions",
    "format_cards",
    "format_transcript",
    "from_json",
    "game_winner",
    "json_schema",
    "legal_actions",
    "legal_plays",
    "new_game",
    "parse_action",
    "parse_actions",
    "parse_cards",
    "play_game",
    "public_view",
    "read_record",
    "record_of",
    "replay",
    "sample_state",
    "score_hand",
    "shuffled_deal",
    "simulate",
    "to_json",
    "trick_winner",
    "validate",
    "view",
    "write_record",
]
