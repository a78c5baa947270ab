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
:class:`deepsix.adapters._encoding.ObservationLayout`: by default the
information state, with every trick of the hand in order) and
``action_mask`` (int8, one entry per action id, 1 where the action is
legal for the agent to act; all zero for the others).  The action ids are
the OpenSpiel adapter's (:mod:`deepsix.adapters._encoding`).

The environment deals the cards itself, from a :class:`random.Random`
seeded by ``reset(seed=...)``.  Every rule comes from the engine: an
illegal action raises :class:`~deepsix.IllegalActionError` and leaves the
environment as it was.

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

from deepsix.cards import Seat
from deepsix.engine import apply, new_game, shuffled_deal
from deepsix.errors import ParseError, missing_extra
from deepsix.rules import Rules
from deepsix.state import GameState
from deepsix.views import view

try:  # the pettingzoo extra; without it, one line says what to install
    import gymnasium
    import numpy as np
    import numpy.typing as npt
    from gymnasium import spaces
    from gymnasium.utils import EzPickle
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as _missing:
    raise missing_extra("deepsix.adapters.pettingzoo", "pettingzoo", _missing) from None

from ._encoding import ActionCodec, ObservationLayout, state_text

__all__ = ["AGENTS", "env", "raw_env"]

AGENTS: Final = ("player_0", "player_1", "player_2", "player_3")
"""The agents, one per seat: North, East, South, West."""

_OBSERVATIONS: Final = ("information_state", "observation")
_MODES: Final = ("hand", "game")


def env(**kwargs: Any) -> AECEnv:
    """The environment wrapped as PettingZoo's classic environments are.

    ``AssertOutOfBoundsWrapper`` checks that every action is in the action
    space; ``OrderEnforcingWrapper`` that ``reset`` comes first.  The
    keyword arguments are :class:`raw_env`'s.
    """
    wrapped: AECEnv = raw_env(**kwargs)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv, EzPickle):  # PettingZoo's naming convention
    """The unwrapped AEC environment.

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
        if mode not in _MODES:
            raise ParseError(f"mode={mode!r} is not 'hand' or 'game'")
        if observation not in _OBSERVATIONS:
            raise ParseError(f"observation={observation!r} is not one of {_OBSERVATIONS}")
        if type(max_hands) is not int or max_hands < 1:
            raise ParseError(f"max_hands={max_hands!r} must be a positive int")
        if rules is None:
            rules = Rules()
        elif not isinstance(rules, Rules):
            raise ParseError(f"rules must be a Rules, not {type(rules).__name__}")
        self.render_mode = render_mode
        self.mode = mode
        self.rules = rules
        self.max_hands = max_hands
        if type(dealer) is not int or not 0 <= dealer <= 3:
            raise ParseError(f"dealer={dealer!r} must be a seat number 0..3")
        self.first_dealer = Seat(dealer)
        self.codec = ActionCodec.for_rules(rules)
        self.layout = ObservationLayout.build(
            rules,
            perfect_recall=observation == "information_state",
            max_hands=max_hands if mode == "game" else 1,
        )
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        mask = spaces.Box(low=0, high=1, shape=(self.codec.num_actions,), dtype=np.int8)
        box = spaces.Box(low=0.0, high=self.layout.high, dtype=np.float32)
        self.observation_spaces = {
            agent: spaces.Dict({"observation": box, "action_mask": mask}) for agent in AGENTS
        }
        self.action_spaces = {agent: spaces.Discrete(self.codec.num_actions) for agent in AGENTS}
        self._rng: random.Random | None = None
        self._state: GameState = new_game(rules, self.first_dealer)
        self.agent_selection = AGENTS[0]
        self._clear()

    # -- spaces --------------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The ``Dict`` space of ``agent``'s observations (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
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

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """``agent``'s observation: computed from ``deepsix.view(state, seat)`` only."""
        seat = _SEAT[agent]
        vector = np.zeros(self.layout.size, dtype=np.float32)
        self.layout.write(vector, view(self._state, seat), seat)
        mask = np.zeros(self.codec.num_actions, dtype=np.int8)
        if self._state.to_act == seat and not self.terminations.get(agent, True):
            mask[self.codec.legal_ids(self._state)] = 1
        return {"observation": vector, "action_mask": mask}

    def step(self, action: int | None) -> None:
        """The agent to act takes ``action`` (an action id; ``None`` once it is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ParseError(f"{agent} must act: None is only for terminated agents")
        before = self._state
        after = apply(before, self.codec.decode(action, _SEAT[agent]))
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if len(after.completed_hands) > len(before.completed_hands):
            ns, ew = after.completed_hands[-1].scores
            for name in self.agents:
                own, other = (ns, ew) if _SEAT[name] & 1 == 0 else (ew, ns)
                self.rewards[name] = float(other - own)
            if self.mode == "hand" or after.is_over:
                self.terminations = dict.fromkeys(self.agents, True)
            elif len(after.completed_hands) >= self.max_hands:
                self.truncations = dict.fromkeys(self.agents, True)
            else:
                assert self._rng is not None
                after = apply(after, shuffled_deal(self._rng))
        self._state = after
        self._accumulate_rewards()
        if after.to_act is not None:
            self.agent_selection = _agent(after)
        if self.render_mode == "human":
            self.render()

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


_SEAT: Final = {agent: Seat(i) for i, agent in enumerate(AGENTS)}


def _agent(state: GameState) -> str:
    seat = state.to_act
    assert seat is not None
    return AGENTS[seat]
