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

import functools
import random
from typing import Any, Final

from deepsix.errors import ParseError, missing_extra

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

from ._aec import AECCore
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
        # Per seat and id, the action (codec.decode without its checks, for plain ints).
        moves = tuple(
            tuple(self.codec.decode(index, seat) for index in range(self.codec.num_actions))
            for seat in range(4)
        )
        self._rng: random.Random | None = None
        # observe, last and step run in a compiled core (deepsix.adapters._aec).
        self._core = AECCore(
            self,
            agents=AGENTS,
            moves=moves,
            by_identity=self.codec.identity_table,
            writer=self.layout.writer,
            vectors=[np.zeros(self.layout.size, dtype=np.float32) for _ in AGENTS],
            new_mask=functools.partial(np.zeros, self.codec.num_actions, dtype=np.int8),
            state=new_game(config.rules, config.dealer),
            own_observe=type(self).observe is raw_env.observe,
        )
        # The loop's calls go straight to the core, without a Python method in between (a
        # frame each), unless a subclass overrides them.
        for name in ("observe", "last", "step"):
            if getattr(type(self), name) is getattr(raw_env, name):
                self.__dict__[name] = getattr(self._core, name)
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
        return self._core.state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new episode; ``seed`` reseeds the dealing (else it continues its sequence)."""
        if seed is not None:
            self._rng = random.Random(seed)
        elif self._rng is None:
            self._rng = random.Random()
        core = self._core
        state = new_game(self.rules, self.first_dealer)
        core.state = apply(state, shuffled_deal(self._rng))
        core.forget()  # a new hand shares next to nothing with the last: start from zeros
        core.finished = None
        core.has_reset = True
        self.agents = list(AGENTS)
        self._clear()
        self.agent_selection = _agent(core.state)
        if self.render_mode == "human":
            self.render()

    def _clear(self) -> None:
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._core.rewarded = False

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """``agent``'s observation: what ``deepsix.view(state, seat)`` shows, encoded (once
        the episode is over: of the hand that ended it)."""
        # Each agent's vector is brought from its last observation to this one, changing
        # only the entries that differ (deepsix.adapters._stepwise), then copied out.
        return self._core.observe(agent)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The acting agent's observation (if ``observe``), cumulative reward, termination,
        truncation and info (PettingZoo's ``last``)."""
        return self._core.last(observe)

    def step(self, action: int | None) -> None:
        """The agent to act takes ``action`` (an action id; ``None`` once it is done)."""
        self._core.step(action)

    def _slow_mask(self, state: GameState) -> npt.NDArray[np.int8]:
        """The mask of an action the core's tables do not know, by the codec."""
        return np.frombuffer(self.codec.legal_flags(state), dtype=np.int8).copy()

    def _end_of_hand(self, before: GameState, move: Any, after: GameState) -> GameState:
        """Reward the hand; then end the episode, or deal the next hand."""
        ns, ew = after.completed_hands[-1].scores
        for name in self.agents:
            own, other = (ns, ew) if _SEAT[name] & 1 == 0 else (ew, ns)
            self.rewards[name] = float(other - own)
        self._core.rewarded = True
        self._accumulate_rewards()
        if self.config.is_finished(after):
            assert type(move) is PlayCard
            self._core.finished = PastHand(before, move, after)
            ended = self.terminations if self.mode == "hand" or after.is_over else self.truncations
            for name in self.agents:
                ended[name] = True
            return after
        assert self._rng is not None
        self._core.forget()  # as in reset: the new hand's vectors start from zeros
        return apply(after, shuffled_deal(self._rng))

    # -- rendering -------------------------------------------------------------------------------

    def render(self) -> str | None:
        """The table as text (``"ansi"``), or printed (``"human"``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi'")
            return None
        text = state_text(self._core.state)
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
