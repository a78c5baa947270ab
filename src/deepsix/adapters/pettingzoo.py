"""Deep Six as a PettingZoo AEC environment (``pip install "deepsix[pettingzoo]"``).

>>> from deepsix.adapters.pettingzoo import env
>>> table = env()
>>> table.reset(seed=7)
>>> table.agent_selection, table.num_agents
('player_1', 4)
>>> observation, reward, termination, truncation, info = table.last()
>>> observation["observation"].shape, int(observation["action_mask"].sum())
((2233,), 55)

Four agents, ``player_0`` to ``player_3``: the seats North, East, South and
West (``player_0`` and ``player_2`` are partners).  Each observation is a
``Dict`` with ``observation`` (a float32 vector, the layout of
:class:`deepsix.adapters.observations.ObservationLayout`: by default the
information state, with every trick of the hand in order) and
``action_mask`` (int8, one entry per action id, 1 where the action is
legal for the agent to act; all zero for the others).  The action ids are
the OpenSpiel adapter's (:mod:`deepsix.adapters.actions`).

The environment deals the cards itself, from a :class:`random.Random`
seeded by ``reset(seed=...)``.  Every rule comes from the engine: an
illegal action raises :class:`~deepsix.IllegalActionError` and leaves the
environment as it was.  The arguments are checked by
:class:`deepsix.adapters.config.GameConfig`, as OpenSpiel's parameters are.

:func:`env` makes the checks that PettingZoo's classic games get from
their wrappers (``OrderEnforcingWrapper``: ``reset`` first;
``AssertOutOfBoundsWrapper``: an action in the action space) itself,
without a wrapper's per-attribute forwarding, which cost more than the
whole game.  Once an episode ends, every agent's last observation
describes the finished hand (its fourteen tricks, the totals after
scoring), not the next hand's deal.

**Rewards.**  When a hand is scored each agent receives the other team's
points for the hand minus its own team's (lower is better in Deep Six, so
a larger reward is better; the four rewards sum to zero).  In
``mode="hand"`` (the default) the episode is that one hand; in
``mode="game"`` hands follow one another until the engine ends the game
(every agent terminates) or ``max_hands`` hands have been played (every
agent is truncated), and the rewards of the hands add up to the margin of
the final totals.
"""

from __future__ import annotations

import random
from typing import Any, Final

from deepsix.errors import InvalidStateError, ParseError, missing_extra

try:
    import gymnasium
    import numpy as np
    import numpy.typing as npt
    from gymnasium import spaces
    from gymnasium.utils import EzPickle
    from pettingzoo import AECEnv
except ImportError as _missing:
    raise missing_extra("deepsix.adapters.pettingzoo", "pettingzoo", _missing) from None

from deepsix.actions import PlayCard
from deepsix.cards import Seat
from deepsix.engine import apply, new_game, shuffled_deal
from deepsix.rules import Rules
from deepsix.state import GameState

from ._position import PastHand
from .config import GameConfig
from .observations import OBSERVATION_NAMES, ObservationLayout
from .text import state_text

__all__ = ["AGENTS", "OBSERVATIONS", "env", "raw_env"]

AGENTS: Final = ("player_0", "player_1", "player_2", "player_3")
"""The agents, one per seat: North, East, South, West."""

OBSERVATIONS: Final = OBSERVATION_NAMES
"""The observation layouts: the tricks in order, or summarised."""

_SEAT: Final = {agent: Seat(i) for i, agent in enumerate(AGENTS)}
_MASKS_KEPT: Final = 4096
"""How many distinct action masks an environment keeps as arrays to copy."""


def env(**kwargs: Any) -> raw_env:
    """The environment, with the checks PettingZoo's classic games get from their wrappers.

    ``reset`` must come first (else :class:`~deepsix.InvalidStateError`);
    an action outside the action space raises
    :class:`~deepsix.IllegalActionError`.  The keyword arguments are
    :class:`raw_env`'s.
    """
    return raw_env(**kwargs)


class raw_env(AECEnv, EzPickle):  # PettingZoo's naming convention
    """The AEC environment.

    Arguments (all keyword-only): ``render_mode`` (``None``, ``"ansi"``: :meth:`render`
    returns the table as text, or ``"human"``: it prints it); ``mode``
    (``"hand"`` or ``"game"``); ``rules`` (a :class:`~deepsix.Rules`, the
    standard game by default); ``max_hands`` (the most hands a game may
    last); ``dealer`` (the first dealer, 0..3); ``observation``
    (``"information_state"``: the tricks in order, or ``"observation"``: the
    current trick and the cards each seat has played).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012  # PettingZoo reads it from the class
        "render_modes": ["human", "ansi"],
        "name": "deep_six_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(  # noqa: PLR0913  # PettingZoo's keyword options, one per setting
        self,
        *,
        render_mode: str | None = None,
        mode: str = "hand",
        rules: Rules | None = None,
        max_hands: int = 100,
        dealer: int = 0,
        observation: str = "information_state",
    ) -> None:
        EzPickle.__init__(
            self,
            render_mode=render_mode,
            mode=mode,
            rules=rules,
            max_hands=max_hands,
            dealer=dealer,
            observation=observation,
        )
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ParseError(f"render_mode={render_mode!r} is not None, 'human' or 'ansi'")
        config = GameConfig.create(rules=rules, mode=mode, max_hands=max_hands, dealer=dealer)
        self.layout = ObservationLayout.named(observation, config)
        self.config = config
        """The checked game parameters."""
        self.render_mode = render_mode
        self.mode = config.mode
        self.rules = config.rules
        self.max_hands = config.max_hands
        self.first_dealer = config.dealer
        self.codec = config.codec
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        mask = spaces.Box(low=0, high=1, shape=(self.codec.num_actions,), dtype=np.int8)
        box = spaces.Box(low=0.0, high=self.layout.high, dtype=np.float32)
        self.observation_spaces = {
            agent: spaces.Dict({"observation": box, "action_mask": mask}) for agent in AGENTS
        }
        self.action_spaces = {agent: spaces.Discrete(self.codec.num_actions) for agent in AGENTS}
        self._tracked = tuple(self.layout.tracked(seat) for seat in range(4))
        self._masks: dict[bytes, npt.NDArray[np.int8]] = {}
        self._legal_flags = self.codec.legal_flags
        self._no_flags = bytes(self.codec.num_actions)
        # Per seat and id, the action (codec.decode without its checks, for plain ints).
        self._moves = tuple(
            tuple(self.codec.decode(index, seat) for index in range(self.codec.num_actions))
            for seat in range(4)
        )
        self._rng: random.Random | None = None
        self._state: GameState = new_game(config.rules, config.dealer)
        self._finished: PastHand | None = None
        self._has_reset = False
        self._rewarded = False
        self.agent_selection = AGENTS[0]
        self._clear()

    # -- spaces --------------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Dict:
        """The ``Dict`` space of ``agent``'s observations (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """``Discrete(num_actions)``: every action id."""
        return self.action_spaces[agent]

    # -- the game --------------------------------------------------------------------------------

    @property
    def engine_state(self) -> GameState:
        """The engine's :class:`~deepsix.GameState` (the whole table, hidden cards included)."""
        return self._state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new episode; ``seed`` reseeds the dealing (else it continues its sequence)."""
        if seed is not None:
            self._rng = random.Random(seed)
        elif self._rng is None:
            self._rng = random.Random()
        state = new_game(self.rules, self.first_dealer)
        self._state = apply(state, shuffled_deal(self._rng))
        self._finished = None
        self._has_reset = True
        self.agents = list(AGENTS)
        self._clear()
        self.agent_selection = _agent(self._state)
        if self.render_mode == "human":
            self.render()

    def _clear(self) -> None:
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._rewarded = False

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """``agent``'s observation: what ``deepsix.view(state, seat)`` shows, encoded (once
        the episode is over: of the hand that ended it)."""
        if not self._has_reset:
            self._require_reset("observe")
        seat = _SEAT[agent]
        finished = self._finished
        state = self._state
        # Each agent's vector is brought from its last observation to this one, changing
        # only the entries that differ (ObservationLayout.tracked), then copied out.
        if finished is None:
            vector = self._tracked[seat].update(state).copy()
            flags = self._legal_flags(state) if state.to_act == seat else self._no_flags
        else:
            vector = self._tracked[seat].update(finished.view(seat)).copy()
            flags = self._no_flags
        # One array per distinct mask, copied out (cheaper than building one each time).
        mask = self._masks.get(flags)
        if mask is None:
            if len(self._masks) >= _MASKS_KEPT:
                self._masks.clear()
            mask = self._masks[flags] = np.frombuffer(flags, dtype=np.int8)
        return {"observation": vector, "action_mask": mask.copy()}

    def step(self, action: int | None) -> None:
        """The agent to act takes ``action`` (an action id; ``None`` once it is done)."""
        if not self._has_reset:
            self._require_reset("step")
        if not self.agents:
            raise InvalidStateError("the episode is over: call reset() to start another")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ParseError(f"{agent} must act: None is only for terminated agents")
        before = self._state
        seat = _SEAT[agent]
        if type(action) is int and 0 <= action < len(self._moves[seat]):
            move = self._moves[seat][action]
        else:  # numpy integers, and anything that is no action id (an error)
            move = self.codec.decode(action, seat)
        after = apply(before, move)
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:
            self._clear_rewards()
            self._rewarded = False
        if len(after.completed_hands) > len(before.completed_hands):
            after = self._end_of_hand(before, move, after)
        self._state = after
        if after.to_act is not None:
            self.agent_selection = AGENTS[after.to_act]
        if self.render_mode == "human":
            self.render()

    def _end_of_hand(self, before: GameState, move: Any, after: GameState) -> GameState:
        """Reward the hand; then end the episode, or deal the next hand."""
        ns, ew = after.completed_hands[-1].scores
        for name in self.agents:
            own, other = (ns, ew) if _SEAT[name] & 1 == 0 else (ew, ns)
            self.rewards[name] = float(other - own)
        self._rewarded = True
        self._accumulate_rewards()
        if self.config.is_finished(after):
            assert type(move) is PlayCard
            self._finished = PastHand(before, move, after)
            ended = self.terminations if self.mode == "hand" or after.is_over else self.truncations
            for name in self.agents:
                ended[name] = True
            return after
        assert self._rng is not None
        return apply(after, shuffled_deal(self._rng))

    def _require_reset(self, call: str) -> None:
        if not self._has_reset:
            raise InvalidStateError(f"reset() must be called before {call}()")

    # -- rendering -------------------------------------------------------------------------------

    def render(self) -> str | None:
        """The table as text (``"ansi"``), or printed (``"human"``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi'")
            return None
        text = state_text(self._state)
        if self.render_mode == "ansi":
            return text
        print(text + "\n")
        return None

    def close(self) -> None:
        """Nothing to release."""

    def __str__(self) -> str:
        return str(self.metadata["name"])


def _agent(state: GameState) -> str:
    seat = state.to_act
    assert seat is not None
    return AGENTS[seat]
