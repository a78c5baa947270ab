"""Deep Six as an OpenSpiel game (``pip install "deepsix[openspiel]"``).

Importing this module registers the game ``python_deep_six`` with
``pyspiel``::

    import pyspiel
    import deepsix.adapters.openspiel  # registers python_deep_six

    game = pyspiel.load_game("python_deep_six", {"mode": "game", "target_score": 300})

The adapter is thin.  Legal actions, transitions and scores come from
:func:`deepsix.legal_actions` and :func:`deepsix.apply`; every observation
and information state is computed from :func:`deepsix.view` for the
observing seat; the integer action encoding and the tensor layouts are
:mod:`deepsix.adapters._encoding`'s.

**Chance.**  The deal is 56 chance nodes, one card at a time: the outcomes
are the distinct cards still in the deck, each with probability (copies
left) / (cards left).  Seat ``s`` receives the cards dealt
``14 * s`` to ``14 * s + 13`` (the layout of :class:`deepsix.Deal`); once
the 56th card is dealt the engine applies that :class:`~deepsix.Deal`.  No
one sees a card before the deal is complete.

**Returns.**  ``utility="margin"`` (the default): a player's return is the
other team's recorded points minus its own team's -- for the hand in
``mode="hand"``, for the final totals in ``mode="game"``.  Lower scores
are better in Deep Six, so a larger return is better, and the four returns
sum to zero (partners get the same return).  Raw points are *not*
zero-sum (both teams can score, or both score 0); the margin is.
``utility="win"``: +1 to each player of the team with the lower total,
-1 to the other, 0 for a tie.  Rewards are terminal: ``rewards()`` is zero
until the end.

**Game mode.**  ``mode="game"`` plays hands until the engine ends the game
(:attr:`deepsix.Rules.target_score`), or until ``max_hands`` hands have
been played: OpenSpiel needs a bounded game, and the rules alone do not
bound it (a hand can leave both totals unchanged).  A game stopped at
``max_hands`` is terminal; its returns are computed from the totals as
they stand.
"""

from __future__ import annotations

import enum
import functools
import operator
import random
from collections.abc import Callable, Mapping
from typing import Any, Final, SupportsIndex

import attrs

from deepsix.actions import Deal
from deepsix.cards import CARDS, HAND_SIZE, Card, Seat
from deepsix.engine import apply, legal_actions, new_game
from deepsix.errors import IllegalActionError, ParseError, Reason, missing_extra
from deepsix.rules import Rules
from deepsix.sampling import sample_state
from deepsix.state import GameState
from deepsix.views import PlayerView, view

try:  # the openspiel extra; without it, one line says what to install
    import numpy as np
    import pyspiel
except ImportError as _missing:
    raise missing_extra("deepsix.adapters.openspiel", "openspiel", _missing) from None

from ._encoding import (
    ActionCodec,
    Entries,
    ObservationLayout,
    max_decisions_per_hand,
    max_hand_score,
    state_text,
    view_text,
)

__all__ = [
    "DEFAULT_PARAMETERS",
    "SHORT_NAME",
    "DeepSixGame",
    "DeepSixObserver",
    "DeepSixState",
    "GameConfig",
]

SHORT_NAME: Final = "python_deep_six"
"""The name to give :func:`pyspiel.load_game`."""

_DECK_SIZE: Final = 4 * HAND_SIZE
_MODES: Final = ("hand", "game")
_UTILITIES: Final = ("margin", "win")


def _rules_defaults() -> dict[str, int | bool | str]:
    """Every simple-valued field of :class:`~deepsix.Rules`, with its default."""
    defaults: dict[str, int | bool | str] = {}
    standard = Rules()
    for field in attrs.fields(Rules):
        value = getattr(standard, field.name)
        if isinstance(value, enum.Enum):
            defaults[field.name] = value.value
        elif isinstance(value, bool | int | str):
            defaults[field.name] = value
    return defaults


DEFAULT_PARAMETERS: Final[dict[str, int | bool | str]] = {
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


def _rules_from(params: Mapping[str, object]) -> Rules:
    fields = {field.name: field for field in attrs.fields(Rules)}
    values: dict[str, Any] = {}
    for name, value in params.items():
        field = fields.get(name)
        if field is None:
            continue
        default = getattr(Rules(), name)
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
    if value not in choices:
        raise ParseError(f"{name}={value!r} is not one of {', '.join(map(repr, choices))}")
    assert isinstance(value, str)
    return value


def _integer(params: Mapping[str, object], name: str, low: int, high: int) -> int:
    value = params[name]
    if type(value) is not int or not low <= value <= high:
        raise ParseError(f"{name}={value!r} must be an int from {low} to {high}")
    return value


@attrs.frozen(eq=False, repr=False)
class GameConfig:
    """A game's parameters, checked and turned into the objects the adapter uses.

    >>> config = GameConfig.from_parameters({"mode": "game", "lowest_bid": -100})
    >>> config.mode, config.rules.lowest_bid, config.codec.num_actions
    ('game', -100, 140)
    """

    parameters: tuple[tuple[str, int | bool | str], ...]
    """Every parameter (defaults filled in), sorted by name."""
    rules: Rules
    """The rules of play."""
    mode: str
    """``"hand"`` or ``"game"``."""
    utility: str
    """``"margin"`` or ``"win"``."""
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
            merged[name] = value
        return _config(tuple(sorted(merged.items())))

    @property
    def max_game_length(self) -> int:
        """An upper bound on player decisions in one game (chance steps excluded)."""
        hands = 1 if self.mode == "hand" else self.max_hands
        return hands * max_decisions_per_hand(self.rules)

    @property
    def max_utility(self) -> float:
        """The largest return a player can get."""
        if self.utility == "win":
            return 1.0
        top = max_hand_score(self.rules)
        return float(top if self.mode == "hand" else self.rules.target_score + top)

    def game_info(self) -> pyspiel.GameInfo:
        """OpenSpiel's ``GameInfo`` for this configuration."""
        return pyspiel.GameInfo(
            num_distinct_actions=self.codec.num_actions,
            max_chance_outcomes=len(CARDS),
            num_players=4,
            min_utility=-self.max_utility,
            max_utility=self.max_utility,
            utility_sum=0.0,
            max_game_length=self.max_game_length,
        )

    def __deepcopy__(self, memo: dict[int, object]) -> GameConfig:
        return self  # immutable

    def __reduce__(self) -> tuple[Callable[..., GameConfig], tuple[object, ...]]:
        return (_config, (self.parameters,))

    def __repr__(self) -> str:
        changed = [f"{k}={v!r}" for k, v in self.parameters if DEFAULT_PARAMETERS[k] != v]
        return f"<GameConfig {' '.join(changed) or 'defaults'}>"


@functools.lru_cache(maxsize=64)
def _config(parameters: tuple[tuple[str, int | bool | str], ...]) -> GameConfig:
    params = dict(parameters)
    rules = _rules_from(params)
    return GameConfig(
        parameters=parameters,
        rules=rules,
        mode=_choice(params, "mode", _MODES),
        utility=_choice(params, "utility", _UTILITIES),
        max_hands=_integer(params, "max_hands", 1, 10_000),
        dealer=Seat(_integer(params, "dealer", 0, 3)),
        codec=ActionCodec.for_rules(rules),
    )


_GAME_TYPE: Final = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Deep Six",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=4,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=False,
    parameter_specification=DEFAULT_PARAMETERS,
)


class DeepSixGame(pyspiel.Game):
    """The OpenSpiel game; build it with ``pyspiel.load_game("python_deep_six", params)``."""

    def __init__(self, params: Mapping[str, object] | None = None) -> None:
        config = GameConfig.from_parameters(params)
        super().__init__(_GAME_TYPE, config.game_info(), dict(config.parameters))
        self.config: GameConfig = config

    def new_initial_state(self) -> DeepSixState:
        """The state before the first card is dealt."""
        return DeepSixState(self)

    def make_py_observer(
        self,
        iig_obs_type: pyspiel.IIGObservationType | None = None,
        params: Mapping[str, object] | None = None,
    ) -> DeepSixObserver:
        """An observer (the default one, without perfect recall, when ``iig_obs_type`` is None)."""
        return DeepSixObserver(
            self.config, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


@attrs.frozen(eq=False)
class _PastHand:
    """A finished hand, as each seat last saw it (the view just before the last card)."""

    before_last: GameState
    """The state before the hand's final card was played."""
    texts: tuple[str, str, str, str, str]
    """``view_text`` of that state for seats 0..3, then for a spectator."""


@attrs.frozen(eq=False)
class _Core:
    """Everything an OpenSpiel state holds; immutable, so clones share it."""

    config: GameConfig
    state: GameState
    dealt: tuple[Card, ...]
    past: tuple[_PastHand, ...]
    terminal: bool
    _views: dict[int, PlayerView] = attrs.field(factory=dict, init=False)
    _view_texts: dict[int, str] = attrs.field(factory=dict, init=False)
    _entries: dict[tuple[ObservationLayout, int], Entries] = attrs.field(factory=dict, init=False)
    _text: list[str] = attrs.field(factory=list, init=False)
    _last_child: list[Any] = attrs.field(factory=list, init=False)

    def view_for(self, seat: int | None) -> PlayerView:
        """``deepsix.view(self.state, seat)``, computed once."""
        key = -1 if seat is None else seat
        found = self._views.get(key)
        if found is None:
            found = self._views[key] = view(self.state, seat)
        return found

    def entries_for(self, layout: ObservationLayout, player: int) -> Entries:
        """``player``'s observation in ``layout``, encoded once.  (OpenSpiel asks for the
        tensor sizes by encoding the initial state, whose core is shared: this keeps that cheap.)"""
        key = (layout, player)
        found = self._entries.get(key)
        if found is None:
            seen = self.view_for(player if layout.private else None)
            found = self._entries[key] = layout.entries(seen, player)
        return found

    def view_text_for(self, seat: int | None) -> str:
        """``view_text`` of :meth:`view_for`, computed once."""
        key = -1 if seat is None else seat
        found = self._view_texts.get(key)
        if found is None:
            found = self._view_texts[key] = view_text(self.view_for(seat))
        return found

    def text(self) -> str:
        """``state_text`` of the whole state, computed once."""
        if not self._text:
            self._text.append(state_text(self.state, self.dealt))
        return self._text[0]

    def child(self, action: int) -> _Core:
        """The core after ``action``.  The last one is kept: a state and its clone that
        take the same action (as OpenSpiel's tests and searches do) share the result."""
        last = self._last_child
        if last and last[0] == action:
            child: _Core = last[1]
            return child
        child = _step(self, action)
        last[:] = [action, child]
        return child

    def __deepcopy__(self, memo: dict[int, object]) -> _Core:
        return self  # immutable

    def __getstate__(self) -> dict[str, object]:
        return {
            "config": self.config,
            "state": self.state,
            "dealt": self.dealt,
            "past": self.past,
            "terminal": self.terminal,
        }

    def __setstate__(self, fields: dict[str, Any]) -> None:
        for name, value in fields.items():
            object.__setattr__(self, name, value)
        object.__setattr__(self, "_views", {})
        object.__setattr__(self, "_view_texts", {})
        object.__setattr__(self, "_entries", {})
        object.__setattr__(self, "_text", [])
        object.__setattr__(self, "_last_child", [])


@functools.lru_cache(maxsize=64)
def _initial_core(config: GameConfig) -> _Core:
    return _Core(config, new_game(config.rules, config.dealer), (), (), False)


def _step(core: _Core, action: int) -> _Core:
    """The core after ``action``: a card of the deal, or a player's action id."""
    config = core.config
    if core.terminal:
        raise IllegalActionError(Reason.GAME_OVER, f"action {action} after the end", action)
    state = core.state
    if state.to_act is None:
        return _Core(config, *_deal(core, action), core.past, False)
    after = apply(state, config.codec.decode(action, state.to_act))
    past = core.past
    if len(after.completed_hands) > len(state.completed_hands):
        north, east, south, west, spectator = (
            view_text(view(state, seat)) for seat in (0, 1, 2, 3, None)
        )
        past = (*past, _PastHand(state, (north, east, south, west, spectator)))
    return _Core(config, after, (), past, _finished(config, after))


def _deal(core: _Core, outcome: object) -> tuple[GameState, tuple[Card, ...]]:
    """The state and the cards dealt so far after one more card of the deal."""
    if type(outcome) is int:
        action = outcome
    elif isinstance(outcome, bool) or not isinstance(outcome, SupportsIndex):  # numpy ints pass
        raise IllegalActionError(Reason.BAD_DEAL, f"{outcome!r} is not a card index", outcome)
    else:
        action = operator.index(outcome)
    if not 0 <= action < len(CARDS) or core.dealt.count(CARDS[action]) >= 2:
        raise IllegalActionError(
            Reason.BAD_DEAL, f"chance outcome {action} is not a card left in the deck", action
        )
    dealt = (*core.dealt, CARDS[action])
    if len(dealt) < _DECK_SIZE:
        return core.state, dealt
    return apply(core.state, Deal(dealt)), ()


def _finished(config: GameConfig, state: GameState) -> bool:
    if state.is_over:
        return True
    hands = len(state.completed_hands)
    return hands >= (1 if config.mode == "hand" else config.max_hands)


class DeepSixState(pyspiel.State):
    """A position in OpenSpiel's terms: chance nodes for the deal, then the engine's state."""

    def __init__(self, game: DeepSixGame) -> None:
        super().__init__(game)
        self._core = _initial_core(game.config)

    # -- the game's own objects ------------------------------------------------------

    @property
    def engine_state(self) -> GameState:
        """The engine's :class:`~deepsix.GameState` (at a deal: the state before it)."""
        return self._core.state

    @property
    def dealt(self) -> tuple[Card, ...]:
        """The cards dealt so far while the deal is in progress (hidden from every player)."""
        return self._core.dealt

    # -- OpenSpiel's API ------------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to act (0..3), or OpenSpiel's chance or terminal player id."""
        core = self._core
        if core.terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        seat = core.state.to_act
        if seat is None:
            return int(pyspiel.PlayerId.CHANCE)
        return int(seat)

    def is_terminal(self) -> bool:
        """Whether the hand (``mode="hand"``) or the game is over."""
        return self._core.terminal

    def _legal_actions(self, player: int) -> list[int]:
        return self._core.config.codec.legal_ids(self._core.state)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each distinct card still in the deck, with probability (copies left) / (cards left)."""
        core = self._core
        if core.terminal or core.state.to_act is not None:
            raise IllegalActionError(
                Reason.NOT_CHANCE_STEP, "chance_outcomes() at a non-chance node"
            )
        left = [2] * len(CARDS)
        for card in core.dealt:
            left[card] -= 1
        total = _DECK_SIZE - len(core.dealt)
        return [(card, n / total) for card, n in enumerate(left) if n]

    def _apply_action(self, action: int) -> None:
        self._core = self._core.child(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if not 0 <= action < len(CARDS):
                raise IllegalActionError(Reason.BAD_DEAL, f"chance outcome {action}", action)
            return f"Deal {CARDS[action].ascii}"
        return self._core.config.codec.action_string(action, player)

    def returns(self) -> list[float]:
        """Each player's return: zero until the end, then as the module documentation says."""
        core = self._core
        if not core.terminal:
            return [0.0, 0.0, 0.0, 0.0]
        state = core.state
        if core.config.mode == "hand":
            ns, ew = state.completed_hands[0].scores
        else:
            ns, ew = state.scores
        margin = float(ew - ns)
        if core.config.utility == "win":
            margin = float((margin > 0) - (margin < 0))
        return [margin, -margin, margin, -margin]

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float] | random.Random
    ) -> DeepSixState:
        """A state drawn from ``player_id``'s information set (for IS-MCTS and the like).

        Every hand so far is redrawn with :func:`deepsix.sample_state` from
        what the player saw of it, and the draws are replayed through this
        game from its first chance node, so the returned state has a
        history of its own and the same information state for the player.
        ``probability_sampler`` is OpenSpiel's (a callable returning
        uniform floats in [0, 1)) or a :class:`random.Random`.  Only Python
        callers see this method (OpenSpiel's C++ algorithms do not).
        """
        if isinstance(probability_sampler, random.Random):
            rng = probability_sampler
        else:
            rng = random.Random(int(probability_sampler() * 2**53))
        if not isinstance(player_id, int) or not 0 <= player_id <= 3:
            raise ParseError(f"{player_id!r} is not a player (0..3)")
        core = self._core
        game = self.get_game()
        codec = core.config.codec
        ids: list[int] = []
        for hand in core.past:
            sampled = sample_state(view(hand.before_last, player_id), rng)
            (last,) = legal_actions(sampled)  # the last card: the only one left
            ids += _hand_ids(codec, (*sampled.history, last))
        state = core.state
        if state.to_act is None and not core.terminal:
            deck = [card for card in CARDS for _ in range(2)]
            ids += rng.sample(deck, len(core.dealt))
        elif not core.terminal:
            sampled = sample_state(view(state, player_id), rng)
            ids += _hand_ids(codec, sampled.history)
        result: DeepSixState = game.new_initial_state()
        for action in ids:
            result.apply_action(action)
        return result

    def __str__(self) -> str:
        return self._core.text()


def _hand_ids(codec: ActionCodec, history: tuple[Any, ...]) -> list[int]:
    """OpenSpiel action ids for one hand's actions (its deal as 56 chance outcomes)."""
    ids: list[int] = []
    for action in history:
        if type(action) is Deal:
            ids += [int(card) for card in action.cards]
        else:
            ids.append(codec.encode(action))
    return ids


class DeepSixObserver:
    """OpenSpiel's observer interface (``tensor``, ``dict``, ``set_from``, ``string_from``).

    Supported observation types: private information of the observing
    player or none (``pyspiel.PrivateInfoType.SINGLE_PLAYER`` or ``NONE``),
    public information on or off, and perfect recall on (the information
    state: the tricks in order, and in ``mode="game"`` the text of every
    finished hand) or off.
    """

    def __init__(
        self,
        config: GameConfig,
        iig_obs_type: pyspiel.IIGObservationType,
        params: Mapping[str, object] | None,
    ) -> None:
        if params:
            raise ParseError(f"python_deep_six observers take no parameters, got {dict(params)}")
        private_info = iig_obs_type.private_info
        if private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ParseError("python_deep_six has no observation of every player's private cards")
        self.private = private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.public = bool(iig_obs_type.public_info)
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.layout = ObservationLayout.build(
            config.rules,
            perfect_recall=self.perfect_recall,
            private=self.private,
            public=self.public,
            max_hands=config.max_hands if config.mode == "game" else 1,
        )
        self.tensor = np.zeros(self.layout.size, np.float32)
        self.dict = {
            piece.name: self.tensor[piece.offset : piece.offset + piece.size].reshape(piece.shape)
            for piece in self.layout.pieces
        }

    def set_from(self, state: DeepSixState, player: int) -> None:
        """Write ``player``'s observation of ``state`` into :attr:`tensor`."""
        self.layout.fill(self.tensor, state._core.entries_for(self.layout, player))

    def string_from(self, state: DeepSixState, player: int) -> str:
        """``player``'s observation of ``state`` as text."""
        core = state._core
        seat = player if self.private else None
        if not self.public:
            mine = core.view_for(seat)
            return " | ".join(
                [
                    f"seat {Seat(player)}",
                    f"cards {' '.join(card.ascii for card in mine.hand) or '-'}",
                    f"gave {' '.join(card.ascii for card in mine.passed) or '-'}",
                    f"got {' '.join(card.ascii for card in mine.received) or '-'}",
                ]
            )
        text = core.view_text_for(seat)
        if self.perfect_recall and core.past:
            index = 4 if seat is None else seat
            text = "\n".join([*(hand.texts[index] for hand in core.past), text])
        return text


pyspiel.register_game(_GAME_TYPE, DeepSixGame)
