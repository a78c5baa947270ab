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

It is a face over the array kernel (:mod:`deepsix.adapters.kernel`): the
games are stepped as arrays, and only the deals are drawn game by game, from
each game's own generator.

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

from deepsix.errors import InvalidStateError, ParseError, missing_extra

try:
    import numpy as np
    import numpy.typing as npt
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode
except ImportError as _missing:
    raise missing_extra("deepsix.adapters.vector", "pettingzoo", _missing) from None

from deepsix.engine import shuffled_deal
from deepsix.rules import Rules

from .config import GameConfig
from .kernel import Kernel
from .observations import ObservationLayout

__all__ = ["DeepSixVectorEnv"]

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
        self._rngs: list[random.Random] = []
        self._kernel = Kernel(num_envs, config, observation=observation, deck_source=self._decks)
        self._ready = False

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
        self._kernel.reset(seed=seed)
        self._ready = True
        return self._kernel.observations(), self._info()

    def step(
        self, actions: Sequence[int] | Array
    ) -> tuple[Array, Array, Array, Array, dict[str, Array]]:
        """One action per game, for its seat to act; returns
        ``(observations, rewards, terminations, truncations, info)``.

        An illegal action raises :class:`~deepsix.IllegalActionError` and
        leaves every game as it was.
        """
        if not self._ready:
            raise InvalidStateError("reset() must be called before step()")
        rewards, terminations, truncations = self._kernel.step(actions)
        return self._kernel.observations(), rewards, terminations, truncations, self._info()

    def close(self) -> None:
        """Nothing to release."""

    @property
    def kernel(self) -> Kernel:
        """The array kernel holding the games (read its arrays; step through :meth:`step`)."""
        return self._kernel

    # -- inside ---------------------------------------------------------------------------------

    def _decks(self, games: Array) -> Array:
        """The next deal of each of ``games``, from its own generator (``shuffled_deal``)."""
        decks = np.empty((len(games), 56), dtype=np.int8)
        for row, i in enumerate(games.tolist()):
            decks[row] = shuffled_deal(self._rngs[i]).cards
        return decks

    def _info(self) -> dict[str, Array]:
        kernel = self._kernel
        return {"action_mask": kernel.masks(), "to_act": kernel.to_act.astype(np.int8)}
