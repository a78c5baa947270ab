"""deepsix: the rules of Deep Six as an immutable, typed state machine.

>>> import deepsix
>>> state = deepsix.new_game()
>>> state = deepsix.apply(state, deepsix.shuffled_deal(2026))
>>> state.phase, state.to_act
(<Phase.BIDDING: 'bidding'>, <Seat.EAST: 1>)

Every public name is importable from here.  The rules core (cards,
actions, state, engine, views, ...) is imported with the package; the
layers above it -- :mod:`deepsix.io` (notation, records, JSON) and
:mod:`deepsix.play` (bots, simulation) -- are imported the first time one
of their names is used, so a front end that needs only the rules loads
only the rules.  ``docs/architecture.md`` draws the layers.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Final

from deepsix._version import __version__
from deepsix.actions import (
    Action,
    Bid,
    Deal,
    DeclareMeld,
    Done,
    LegalActions,
    NameSunkSuit,
    Pass,
    PassCard,
    PlayCard,
    ShowCard,
)
from deepsix.cards import CARDS, DECK, Card, Rank, Seat, Suit, Team, format_cards, parse_cards
from deepsix.display import bind_display, bind_text
from deepsix.engine import apply, legal_actions, new_game, shuffled_deal
from deepsix.errors import (
    DeepSixError,
    IllegalActionError,
    InvalidStateError,
    MissingDependencyError,
    ParseError,
    Reason,
    SerializationError,
    WrongTypeError,
)
from deepsix.melds import ALL_MELDS, Meld, MeldFamily, MeldKind, best_meld, candidate_melds
from deepsix.rulebook import RULEBOOK
from deepsix.rules import LOWEST_BID, PlayOver, Rules
from deepsix.sampling import SamplingError, sample_state
from deepsix.scoring import HandScore, card_points, game_winner, score_hand
from deepsix.state import GameState, HandRecord, HandSetup, Phase
from deepsix.tricks import Trick, legal_plays, trick_winner
from deepsix.validation import InvariantError, validate
from deepsix.views import PlayerView, public_view, view

_LAZY: Final[dict[str, tuple[str, ...]]] = {
    "deepsix.io.notation": ("format_action", "format_actions", "parse_action", "parse_actions"),
    "deepsix.io.record": (
        "GameRecord", "RecordError", "read_record", "record_of", "replay", "write_record",
    ),
    "deepsix.io.serialization": ("from_json", "to_json"),
    "deepsix.io.schema": ("json_schema",),
    "deepsix.io.transcript": ("format_transcript",),
    "deepsix.play.bots": ("Bot", "RandomBot"),
    "deepsix.play.heuristic": ("HeuristicBot",),
    "deepsix.play.loop": ("play_game",),
    "deepsix.play.simulate": ("SimulationResult", "simulate"),
}  # fmt: skip
"""The public names of the layers above the core, by the module that defines them: the one
list of them (``tools/facade.py`` writes the imports for type checkers and ``__all__``)."""

_MODULE_OF: Final = {name: module for module, names in _LAZY.items() for name in names}

# <generated: facade>
if TYPE_CHECKING:
    from deepsix.io.notation import format_action, format_actions, parse_action, parse_actions
    from deepsix.io.record import (
        GameRecord,
        RecordError,
        read_record,
        record_of,
        replay,
        write_record,
    )
    from deepsix.io.schema import json_schema
    from deepsix.io.serialization import from_json, to_json
    from deepsix.io.transcript import format_transcript
    from deepsix.play.bots import Bot, RandomBot
    from deepsix.play.heuristic import HeuristicBot
    from deepsix.play.loop import play_game
    from deepsix.play.simulate import SimulationResult, simulate

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
    "WrongTypeError",
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
# </generated>


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'deepsix' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_MODULE_OF})


def _picture_svg(value: object) -> str | None:
    """A notebook's picture of a state or a view (the drawing code is imported on first use)."""
    from deepsix.svg.notebook import repr_svg

    return repr_svg(value)


def _picture_html(value: object) -> str | None:
    """A notebook's HTML of a state or a view (the drawing code is imported on first use)."""
    from deepsix.svg.notebook import repr_html

    return repr_html(value)


def _text(value: object, unicode: bool) -> str | None:
    """A state's or a view's printable text (the one renderer, imported on first use)."""
    from deepsix.io.text import printable

    return printable(value, unicode=unicode)


bind_display(_picture_svg, _picture_html)
bind_text(_text)
