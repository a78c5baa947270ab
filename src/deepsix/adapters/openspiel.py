"""Deep Six as an OpenSpiel game (``pip install "deepsix[openspiel]"``).

Importing this module registers the game ``python_deep_six`` with
``pyspiel``::

    import pyspiel
    import deepsix.adapters.openspiel  # registers python_deep_six

    game = pyspiel.load_game("python_deep_six", {"mode": "game", "target_score": 300})

The adapter is thin.  Legal actions, transitions and scores come from
:func:`deepsix.legal_actions` and :func:`deepsix.apply`; every observation
and information state is what :func:`deepsix.view` lets the observing seat
see; the parameters are :mod:`deepsix.adapters.config`'s, the action ids
:mod:`deepsix.adapters.actions`', the tensors
:mod:`deepsix.adapters.observations`' and the strings
:mod:`deepsix.adapters.text`'.

**Speed.**  Python callers of ``legal_actions``, ``is_chance_node``, the
information-state and observation tensors and strings reach the adapter
directly: :class:`DeepSixState` answers them itself, from a position
that keeps what it has computed, instead of going through OpenSpiel's
C++ bridge for Python games and its observer (which encodes the initial
state again to learn a tensor's size, then copies the tensor piece by
piece).  OpenSpiel's C++ code still goes through the bridge and the
observer, and gets the same values: the tests compare the two paths.

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

**The end.**  At the end of a game the engine did not end (a one-hand
game, or one stopped at ``max_hands``), the engine's state has already
moved on to the next hand's deal; every observation, string and tensor
then describes the hand that was just finished, as each seat saw it at
its end (:func:`deepsix.adapters._position.finished_view`): its fourteen
tricks, the score sheet and the totals, no one to act.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping
from typing import Any, Final

from deepsix.errors import IllegalActionError, ParseError, Reason, missing_extra

try:
    import numpy as np
    import pyspiel
except ImportError as _missing:
    raise missing_extra("deepsix.adapters.openspiel", "openspiel", _missing) from None

from deepsix.actions import Deal
from deepsix.cards import CARDS, Card, Seat
from deepsix.engine import legal_actions, new_game
from deepsix.sampling import sample_state
from deepsix.state import GameState
from deepsix.views import view

from ._position import Position
from .actions import ActionCodec
from .config import DEFAULT_PARAMETERS, GameConfig
from .observations import ObservationLayout

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


def game_info(config: GameConfig) -> pyspiel.GameInfo:
    """OpenSpiel's ``GameInfo`` for a configuration."""
    return pyspiel.GameInfo(
        num_distinct_actions=config.codec.num_actions,
        max_chance_outcomes=len(CARDS),
        num_players=4,
        min_utility=-config.max_utility,
        max_utility=config.max_utility,
        utility_sum=0.0,
        max_game_length=config.max_game_length,
    )


class DeepSixGame(pyspiel.Game):
    """The OpenSpiel game; build it with ``pyspiel.load_game("python_deep_six", params)``."""

    def __init__(self, params: Mapping[str, object] | None = None) -> None:
        config = GameConfig.from_parameters(params)
        super().__init__(_GAME_TYPE, game_info(config), dict(config.parameters))
        self.config: GameConfig = config

    def new_initial_state(self) -> DeepSixState:
        """The state before the first card is dealt."""
        return DeepSixState(self)

    def max_chance_nodes_in_history(self) -> int:
        """The most chance steps a game has: 56 per hand."""
        return self.config.max_chance_nodes_in_history

    def make_py_observer(
        self,
        iig_obs_type: pyspiel.IIGObservationType | None = None,
        params: Mapping[str, object] | None = None,
    ) -> DeepSixObserver:
        """An observer (the default one, without perfect recall, when ``iig_obs_type`` is None)."""
        return DeepSixObserver(
            self.config, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


def _layout(
    config: GameConfig, *, perfect_recall: bool, private: bool = True, public: bool = True
) -> ObservationLayout:
    return ObservationLayout.build(
        config.rules,
        perfect_recall=perfect_recall,
        private=private,
        public=public,
        max_hands=config.hands,
    )


@functools.lru_cache(maxsize=64)
def _tensor_layouts(config: GameConfig) -> tuple[ObservationLayout, ObservationLayout]:
    """The information-state and observation tensors' layouts."""
    return _layout(config, perfect_recall=True), _layout(config, perfect_recall=False)


@functools.lru_cache(maxsize=64)
def _initial_position(config: GameConfig) -> Position:
    return Position(config, new_game(config.rules, config.dealer), (), (), False)


class DeepSixState(pyspiel.State):
    """A position in OpenSpiel's terms: chance nodes for the deal, then the engine's state."""

    def __init__(self, game: DeepSixGame) -> None:
        super().__init__(game)
        self._core = _initial_position(game.config)

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
            return _TERMINAL
        seat = core.state.to_act
        return _CHANCE if seat is None else int(seat)

    def is_terminal(self) -> bool:
        """Whether the hand (``mode="hand"``) or the game is over."""
        return self._core.terminal

    def is_chance_node(self) -> bool:
        """Whether the next step is chance's (a card of the deal)."""
        core = self._core
        return core.state.to_act is None and not core.terminal

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal action ids, ascending: the player's to act, the chance outcomes at a
        deal, none for another player or at the end (as OpenSpiel's own answers)."""
        core = self._core
        if core.terminal:
            return []
        seat = core.state.to_act
        if seat is None:
            return [card for card, _ in core.chance_outcomes()]
        if player is None or player == seat:
            return core.config.codec.legal_ids(core.state)
        _check_player(player)
        return []

    def _legal_actions(self, player: int) -> list[int]:
        return self._core.config.codec.legal_ids(self._core.state)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each distinct card still in the deck, with probability (copies left) / (cards left)."""
        core = self._core
        if core.terminal or core.state.to_act is not None:
            raise IllegalActionError(
                Reason.NOT_CHANCE_STEP, "chance_outcomes() at a non-chance node"
            )
        return core.chance_outcomes()

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
        return list(core.config.results(core.state))

    # -- observations, answered here for Python callers --------------------------------------

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """The information-state tensor of ``player`` (default: the player to act)."""
        core = self._core
        seat = core.state.to_act
        if player is None and seat is not None and not core.terminal:  # the hot path
            return _tensor_layouts(core.config)[0].tensor(core.state, seat)
        return core.tensor_for(_tensor_layouts(core.config)[0], self._player(player))

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """The observation tensor of ``player`` (default: the player to act)."""
        core = self._core
        return core.tensor_for(_tensor_layouts(core.config)[1], self._player(player))

    def information_state_string(self, player: int | None = None) -> str:
        """The information-state string of ``player`` (default: the player to act)."""
        return self._core.history_text_for(self._player(player))

    def observation_string(self, player: int | None = None) -> str:
        """The observation string of ``player`` (default: the player to act)."""
        return self._core.view_text_for(self._player(player))

    def _player(self, player: int | None) -> int:
        return _check_player(self.current_player() if player is None else player)

    # -- searching over information sets ------------------------------------------------------

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
        _check_player(player_id)
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


_TERMINAL: Final = int(pyspiel.PlayerId.TERMINAL)
_CHANCE: Final = int(pyspiel.PlayerId.CHANCE)


def _check_player(player: object) -> int:
    """``player`` as a plain int, if it is a player (0..3)."""
    if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player <= 3:
        raise ParseError(f"{player!r} is not a player (0..3)")
    return int(player)


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
        self.layout = _layout(
            config, perfect_recall=self.perfect_recall, private=self.private, public=self.public
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
        if self.perfect_recall:
            return core.history_text_for(seat)
        return core.view_text_for(seat)


pyspiel.register_game(_GAME_TYPE, DeepSixGame)
