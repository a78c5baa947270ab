"""Many games at once: a batched environment for learners (``pip install "deepsix[pettingzoo]"``).

:class:`DeepSixVectorEnv` steps ``num_envs`` games together.  Each step
takes one action per game -- for the seat whose turn it is in that game --
and returns the observations and the action masks of the next seats to
act as one NumPy array each, so that a policy evaluates all the games in
one batch.  It follows Gymnasium's vector API where a turn-based game of
four players allows:

* ``reset(seed=...) -> (observations, info)`` and
  ``step(actions) -> (observations, rewards, terminations, truncations, info)``;
  ``num_envs``, ``single_observation_space``, ``single_action_space``,
  ``observation_space``, ``action_space``;
* automatic reset in the same step (``metadata["autoreset_mode"]`` is
  Gymnasium's ``SAME_STEP``): when a game ends, the step that ended it
  reports its rewards and ``terminations[i]`` (or ``truncations[i]``), and
  row ``i`` of the observations is already the next game's first decision;
* seeding: ``reset(seed=s)`` deals game ``i`` from ``random.Random(s + i)``,
  and each game goes on dealing from its own generator.

What differs, because there are four players: ``rewards`` has one row per
game and one column per seat, ``(num_envs, 4)`` (the hand's margin for
every seat, zero-sum, when a hand ends; else zero), and ``info`` always
holds ``"to_act"`` (the seat whose observation row ``i`` is, and who acts
next in game ``i``) and ``"action_mask"`` (``(num_envs, num_actions)``,
bool).  The observations and actions are the adapters' own
(:mod:`deepsix.adapters.observations`, :mod:`deepsix.adapters.actions`),
so game ``i`` is the PettingZoo environment reset with seed ``s + i`` and
driven with the same actions; the tests check exactly that.

>>> import numpy as np
>>> games = DeepSixVectorEnv(8)
>>> observations, info = games.reset(seed=1)
>>> observations.shape, info["action_mask"].shape, info["to_act"].tolist()
((8, 2233), (8, 171), [1, 1, 1, 1, 1, 1, 1, 1])
>>> actions = info["action_mask"].argmax(axis=1)    # the first legal action of each game
>>> observations, rewards, terminations, truncations, info = games.step(actions)
>>> rewards.shape, bool(terminations.any())
((8, 4), False)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

from deepsix.errors import IllegalActionError, InvalidStateError, ParseError, Reason, missing_extra

try:
    import numpy as np
    import numpy.typing as npt
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode
except ImportError as _missing:
    raise missing_extra("deepsix.adapters.vector", "pettingzoo", _missing) from None

from deepsix.actions import PlayCard
from deepsix.engine import apply, new_game, shuffled_deal
from deepsix.rules import Rules
from deepsix.state import GameState

from .config import GameConfig
from .observations import ObservationLayout

__all__ = ["DeepSixVectorEnv"]

_MARGIN_SIGNS: Final = np.array([1.0, -1.0, 1.0, -1.0], dtype=np.float32)

Array = npt.NDArray[Any]


class DeepSixVectorEnv:
    """``num_envs`` games of Deep Six stepped together (see the module documentation).

    Keyword arguments as :func:`deepsix.adapters.pettingzoo.env`'s: ``mode``
    (``"hand"``: a game is one hand; ``"game"``: hands until the engine
    ends the game), ``rules``, ``max_hands``, ``dealer``, ``observation``
    (``"information_state"`` or ``"observation"``).
    """

    metadata: Final[dict[str, Any]] = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(  # noqa: PLR0913  # the environment's keyword options
        self,
        num_envs: int,
        *,
        mode: str = "hand",
        rules: Rules | None = None,
        max_hands: int = 100,
        dealer: int = 0,
        observation: str = "information_state",
    ) -> None:
        if type(num_envs) is not int or num_envs < 1:
            raise ParseError(f"num_envs={num_envs!r} must be a positive int")
        config = GameConfig.create(rules=rules, mode=mode, max_hands=max_hands, dealer=dealer)
        self.layout = ObservationLayout.named(observation, config)
        """The observations' layout."""
        self.config = config
        """The checked game parameters."""
        self.num_envs = num_envs
        """How many games are stepped together."""
        self.num_agents = 4
        """Players per game (the seats North, East, South, West)."""
        self.codec = config.codec
        """The action ids."""
        high = self.layout.high
        self.single_observation_space = spaces.Box(0.0, high, dtype=np.float32)
        self.single_action_space = spaces.Discrete(self.codec.num_actions)
        self.observation_space = spaces.Box(0.0, np.tile(high, (num_envs, 1)), dtype=np.float32)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, self.codec.num_actions))
        # Per game and seat, that seat's last observation, kept up to date step by step.
        self._vectors = np.zeros((num_envs, 4, self.layout.size), dtype=np.float32)
        self._tracked = [
            [self.layout.tracked(seat, self._vectors[i, seat]) for seat in range(4)]
            for i in range(num_envs)
        ]
        self._rows = np.arange(num_envs)
        self._masks = np.zeros((num_envs, self.codec.num_actions), dtype=bool)
        self._to_act = np.zeros(num_envs, dtype=np.int8)
        self._states: list[GameState] = []
        self._rngs: list[random.Random] = []

    # -- the API --------------------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Array, dict[str, Array]]:
        """Deal a new game in every slot; returns ``(observations, info)``."""
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        elif type(seed) is not int:
            raise ParseError(f"seed={seed!r} must be an int or None")
        self._rngs = [random.Random(seed + i) for i in range(self.num_envs)]
        self._states = [self._deal(i) for i in range(self.num_envs)]
        self._write(range(self.num_envs))
        return self._observations(), self._info()

    def step(
        self, actions: Sequence[int] | Array
    ) -> tuple[Array, Array, Array, Array, dict[str, Array]]:
        """One action per game, for its seat to act; returns
        ``(observations, rewards, terminations, truncations, info)``.

        An illegal action raises :class:`~deepsix.IllegalActionError` and
        leaves every game as it was.
        """
        if not self._states:
            raise InvalidStateError("reset() must be called before step()")
        ids = np.asarray(actions)
        if ids.shape != (self.num_envs,) or ids.dtype.kind not in "iu":
            raise IllegalActionError(
                Reason.UNKNOWN_ACTION,
                f"step() takes {self.num_envs} integer action ids, got {ids.dtype} {ids.shape}",
                actions,
            )
        codec = self.codec
        moves = [
            codec.decode(int(index), state.to_act)  # type: ignore[arg-type]  # always a seat
            for index, state in zip(ids.tolist(), self._states, strict=True)
        ]
        after = [apply(state, move) for state, move in zip(self._states, moves, strict=True)]
        rewards = np.zeros((self.num_envs, 4), dtype=np.float32)
        terminations = np.zeros(self.num_envs, dtype=bool)
        truncations = np.zeros(self.num_envs, dtype=bool)
        config = self.config
        for i, (before, state) in enumerate(zip(self._states, after, strict=True)):
            if len(state.completed_hands) == len(before.completed_hands):
                continue
            assert type(moves[i]) is PlayCard
            ns, ew = state.completed_hands[-1].scores
            rewards[i] = _MARGIN_SIGNS * float(ew - ns)
            if config.is_finished(state):
                if config.mode == "hand" or state.is_over:
                    terminations[i] = True
                else:
                    truncations[i] = True
                after[i] = self._deal(i)
            else:
                after[i] = apply(state, shuffled_deal(self._rngs[i]))
        self._states = after
        self._write(range(self.num_envs))
        return self._observations(), rewards, terminations, truncations, self._info()

    def close(self) -> None:
        """Nothing to release."""

    @property
    def engine_states(self) -> tuple[GameState, ...]:
        """The engine's state of every game (hidden cards included)."""
        return tuple(self._states)

    # -- inside ---------------------------------------------------------------------------------

    def _deal(self, i: int) -> GameState:
        """A new game in slot ``i``, dealt from its generator."""
        return apply(new_game(self.config.rules, self.config.dealer), shuffled_deal(self._rngs[i]))

    def _write(self, games: range) -> None:
        """The observation row and the mask row of each game in ``games``.

        Every seat of every game keeps its own vector (``_vectors[i, seat]``),
        brought from its last observation to the new one by changing only the
        entries that differ (:meth:`ObservationLayout.tracked`); the rows of
        the seats to act are then gathered.
        """
        codec = self.codec
        mask_at: list[int] = []
        tracked = self._tracked
        for i in games:
            state = self._states[i]
            seat = state.to_act
            assert seat is not None
            self._to_act[i] = seat
            tracked[i][seat].update(state)
            mask_base = i * codec.num_actions
            mask_at += [mask_base + j for j in codec.legal_ids(state)]
        self._masks.fill(False)
        self._masks.reshape(-1)[mask_at] = True

    def _observations(self) -> Array:
        """The observation of the seat to act in each game, one row per game (a new array)."""
        return self._vectors[self._rows, self._to_act]

    def _info(self) -> dict[str, Array]:
        return {"action_mask": self._masks.copy(), "to_act": self._to_act.copy()}
