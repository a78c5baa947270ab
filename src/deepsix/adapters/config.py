"""The adapters' shared configuration: game parameters, checked once, for every framework.

OpenSpiel's game parameters, PettingZoo's keyword arguments and the batched
environment's all become a :class:`GameConfig`: the rules, whether a game
is one hand or hands until the end, how the result is scored, how many
hands a game may last, who deals first, and the bounds that follow from
them.  It needs no framework.

>>> config = GameConfig.from_parameters({"mode": "game", "lowest_bid": -100})
>>> config.mode, config.rules.lowest_bid, config.codec.num_actions
('game', -100, 140)
>>> GameConfig.create(mode="game", max_hands=1).max_utility
610.0
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable, Mapping
from typing import Any, Final

import attrs

from deepsix.cards import HAND_SIZE, Seat
from deepsix.errors import ParseError
from deepsix.melds import ALL_MELDS
from deepsix.rules import Rules
from deepsix.scoring import TOTAL_CARD_POINTS
from deepsix.state import GameState

from .actions import ActionCodec

__all__ = [
    "DEFAULT_PARAMETERS",
    "MODES",
    "UTILITIES",
    "GameConfig",
    "Parameter",
    "max_decisions_per_hand",
    "max_hand_score",
]

Parameter = int | bool | str
"""The type of a game parameter's value."""

MODES: Final = ("hand", "game")
"""``"hand"``: a game is one hand; ``"game"``: hands until the engine ends the game."""
UTILITIES: Final = ("margin", "win")
"""How a finished game is scored (see :attr:`GameConfig.utility`)."""

_DECK_SIZE: Final = 4 * HAND_SIZE


def max_hand_score(rules: Rules) -> int:
    """The most a team can record for one hand under ``rules``.

    A team that is not bound by a bid records at most its card points
    (melds only lower it); a bidding team that makes its bid records at
    most the bid; one that fails records ``failed_bid_score - bid``, largest
    for the lowest bid.
    """
    return max(TOTAL_CARD_POINTS, rules.failed_bid_score - rules.lowest_bid)


def max_decisions_per_hand(rules: Rules) -> int:
    """An upper bound on the player decisions in one hand (chance steps excluded).

    The auction has at most one call per bid amount plus three passes; the
    invitation shows at most the bidder's whole hand, then Done; each pass
    is ``pass_size`` cards each way; a seat declares each meld at most
    twice (it holds at most two copies of a card), then Done; and there
    are 56 card plays.
    """
    meld_turn = 2 * len(ALL_MELDS) + 1
    return (
        len(rules.bid_amounts) + 3  # auction
        + 1  # sunk suit
        + HAND_SIZE + 1  # invitation
        + 2 * rules.pass_size  # the two passes
        + 4 * meld_turn  # the bidder's melds, then the other three seats'
        + 4 * HAND_SIZE  # tricks
    )  # fmt: skip


def _rules_defaults() -> dict[str, Parameter]:
    """Every simple-valued field of :class:`~deepsix.Rules`, with its default."""
    defaults: dict[str, Parameter] = {}
    standard = Rules()
    for field in attrs.fields(Rules):
        value = getattr(standard, field.name)
        if isinstance(value, enum.Enum):
            defaults[field.name] = value.value
        elif isinstance(value, bool | int | str):
            defaults[field.name] = value
    return defaults


DEFAULT_PARAMETERS: Final[dict[str, Parameter]] = {
    "mode": "hand",
    "utility": "margin",
    "max_hands": 100,
    "dealer": 0,
    **_rules_defaults(),
}
"""The game parameters and their defaults.

``mode`` ("hand": one hand; "game": hands until the game ends),
``utility`` ("margin" or "win"), ``max_hands`` (the bound on a game's
hands), ``dealer`` (0..3, the first hand's dealer), then every simple
field of :class:`~deepsix.Rules` under its own name (enums by value, e.g.
``play_over="beat-led-suit"``).
"""

_RULES_FIELDS: Final = {field.name for field in attrs.fields(Rules)}


def _rules_from(params: Mapping[str, object]) -> Rules:
    values: dict[str, Any] = {}
    standard = Rules()
    for name, value in params.items():
        if name not in _RULES_FIELDS:
            continue
        default = getattr(standard, name)
        if isinstance(default, enum.Enum):
            try:
                values[name] = type(default)(value)
            except ValueError:
                choices = ", ".join(repr(member.value) for member in type(default))
                raise ParseError(f"{name}={value!r} is not one of {choices}") from None
        else:
            values[name] = value
    return Rules(**values)


def _choice(params: Mapping[str, object], name: str, choices: tuple[str, ...]) -> str:
    value = params[name]
    if not isinstance(value, str) or value not in choices:
        raise ParseError(f"{name}={value!r} is not one of {', '.join(map(repr, choices))}")
    return value


def _integer(params: Mapping[str, object], name: str, low: int, high: int) -> int:
    value = params[name]
    if type(value) is not int or not low <= value <= high:
        raise ParseError(f"{name}={value!r} must be an int from {low} to {high}")
    return value


@attrs.frozen(eq=False, repr=False)
class GameConfig:
    """A game's parameters, checked and turned into the objects the adapters use."""

    parameters: tuple[tuple[str, Parameter], ...]
    """Every parameter (defaults filled in), sorted by name."""
    rules: Rules
    """The rules of play."""
    mode: str
    """``"hand"`` or ``"game"``."""
    utility: str
    """``"margin"``: a player's result is the other team's points minus its own team's;
    ``"win"``: +1 for the team with the lower total, -1 for the other, 0 for a tie."""
    max_hands: int
    """How many hands a game may last (``mode="game"``)."""
    dealer: Seat
    """The first hand's dealer."""
    codec: ActionCodec
    """The action encoding."""

    @classmethod
    def from_parameters(cls, params: Mapping[str, object] | None = None) -> GameConfig:
        """Check ``params`` (missing ones take their defaults) and build the configuration.

        Raises :class:`~deepsix.ParseError` for an unknown parameter or a
        value of the wrong kind, and :class:`~deepsix.InvalidStateError` for
        rules that do not fit together.
        """
        merged: dict[str, Any] = dict(DEFAULT_PARAMETERS)
        for name, value in (params or {}).items():
            if name not in DEFAULT_PARAMETERS:
                known = ", ".join(sorted(DEFAULT_PARAMETERS))
                raise ParseError(f"python_deep_six has no parameter {name!r} (known: {known})")
            if not isinstance(value, bool | int | str):
                raise ParseError(f"{name}={value!r} is not an int, a bool or a str")
            merged[name] = value
        return _config(tuple(sorted(merged.items())))

    @classmethod
    def create(
        cls,
        *,
        rules: Rules | None = None,
        mode: str = "hand",
        utility: str = "margin",
        max_hands: int = 100,
        dealer: int = 0,
    ) -> GameConfig:
        """The configuration from keyword arguments and a :class:`~deepsix.Rules`."""
        if rules is None:
            rules = Rules()
        elif not isinstance(rules, Rules):
            raise ParseError(f"rules must be a Rules, not {type(rules).__name__}")
        params: dict[str, object] = {
            name: value.value if isinstance(value, enum.Enum) else value
            for name, value in ((name, getattr(rules, name)) for name in _rules_defaults())
        }
        params |= {"mode": mode, "utility": utility, "max_hands": max_hands, "dealer": dealer}
        return cls.from_parameters(params)

    @property
    def hands(self) -> int:
        """The most hands a game lasts: 1 in ``mode="hand"``, else :attr:`max_hands`."""
        return 1 if self.mode == "hand" else self.max_hands

    @property
    def max_game_length(self) -> int:
        """An upper bound on player decisions in one game (chance steps excluded)."""
        return self.hands * max_decisions_per_hand(self.rules)

    @property
    def max_chance_nodes_in_history(self) -> int:
        """An upper bound on chance steps in one game: 56 cards dealt one at a time per hand."""
        return self.hands * _DECK_SIZE

    @property
    def max_utility(self) -> float:
        """The largest result a player can get (the smallest is its negative).

        A margin is at most what one team records: at most
        :func:`max_hand_score` per hand, and, in ``mode="game"``, at most the
        target score plus one hand's (the game ends once a total reaches the
        target).
        """
        if self.utility == "win":
            return 1.0
        top = max_hand_score(self.rules)
        return float(min(self.hands * top, top + self.rules.target_score))

    def is_finished(self, state: GameState) -> bool:
        """Whether a game in ``state`` is over for the adapters: the engine ended it, or it
        has played its :attr:`hands`."""
        return state.is_over or len(state.completed_hands) >= self.hands

    def results(self, state: GameState) -> tuple[float, float, float, float]:
        """Each seat's result of a finished game (see :attr:`utility`); zero-sum."""
        if self.mode == "hand":
            ns, ew = state.completed_hands[0].scores
        else:
            ns, ew = state.scores
        margin = float(ew - ns)
        if self.utility == "win":
            margin = float((margin > 0) - (margin < 0))
        return (margin, -margin, margin, -margin)

    def __deepcopy__(self, memo: dict[int, object]) -> GameConfig:
        return self  # immutable

    def __reduce__(self) -> tuple[Callable[..., GameConfig], tuple[object, ...]]:
        return (_config, (self.parameters,))

    def __repr__(self) -> str:
        changed = [f"{k}={v!r}" for k, v in self.parameters if DEFAULT_PARAMETERS[k] != v]
        return f"<GameConfig {' '.join(changed) or 'defaults'}>"


@functools.lru_cache(maxsize=64)
def _config(parameters: tuple[tuple[str, Parameter], ...]) -> GameConfig:
    params = dict(parameters)
    rules = _rules_from(params)
    return GameConfig(
        parameters=parameters,
        rules=rules,
        mode=_choice(params, "mode", MODES),
        utility=_choice(params, "utility", UTILITIES),
        max_hands=_integer(params, "max_hands", 1, 10_000),
        dealer=Seat(_integer(params, "dealer", 0, 3)),
        codec=ActionCodec.for_rules(rules),
    )
