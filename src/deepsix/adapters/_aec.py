"""The PettingZoo environment's hot path -- ``observe``, ``last`` and ``step`` -- compiled.

:class:`deepsix.adapters.pettingzoo.raw_env` derives from PettingZoo's
``AECEnv``, which a compiled (native) class cannot derive from; so the
environment keeps PettingZoo's side (its spaces, the dead steps, the
rewards at the end of a hand, rendering) and hands each call of the
agent-iteration loop to an :class:`AECCore`, which holds the game (the
engine's state, the agents' vectors and the masks).  PettingZoo's
bookkeeping (``agent_selection``, ``terminations``, ``rewards``...) stays
on the environment, where PettingZoo's own methods and wrappers read and
write it: the core reaches it through the environment on each call.

**Recycled arrays.**  Each observation is a new array that the
environment never changes afterwards -- unless nothing but the
environment can reach it any more: an observation (and a mask) handed out
is kept per agent, and when that agent next observes, if the array's
reference count shows that only the environment holds it (the user
dropped the dict, or stored a copy) and no weak reference points to it, it
is overwritten with the new observation (a memory copy into it, or the
mask set again from zeros) instead of allocating another.  A user who
keeps an observation (a replay buffer, a list, a tensor made by
``torch.from_numpy``, a view: each holds a reference) gets a new array
next time, so what a user can still read never changes.  Recycling is
cheaper than allocating, and above all it keeps the loop's memory in
the CPU's caches: a new 9 KB array for every decision pushed the engine's
own objects out of the first-level cache (see ``docs/adapters``).

Plain typed Python with no numpy import (the arrays are objects whose
methods it calls), compiled in the compiled build.
"""

from __future__ import annotations

import sys
from typing import Any, Final
from weakref import getweakrefcount

from deepsix.actions import Action
from deepsix.engine import apply, legal_actions
from deepsix.errors import InvalidStateError, ParseError
from deepsix.state import GameState
from deepsix.views import PlayerView

from ._masks import set_legal
from ._stepwise import StepWriter
from ._written import Vector, Written

__all__ = ["AECCore"]

# Module constants: the compiled build reads them without looking the names up (an imported
# name is looked up in the module's dictionary at every use).
_REFERENCE_COUNT: Final = sys.getrefcount
_WEAK_REFERENCES: Final = getweakrefcount


def _references(arrays: list[Any], seat: int) -> int:
    """The reference count of ``arrays[seat]``, as seen from here (the core calibrates
    what its own references add up to with this very function)."""
    array = arrays[seat]
    return _REFERENCE_COUNT(array)


def _lend(arrays: list[Any], views: list[Any], seat: int, array: Any) -> None:
    """Keep ``array`` (handed out) as ``arrays[seat]`` and its memoryview in ``views``."""
    arrays[seat] = array
    views[seat] = array.data


class AECCore:
    """One environment's game and the agents' vectors; ``env`` is the environment (it must
    have PettingZoo's bookkeeping attributes, ``codec`` and ``_end_of_hand``)."""

    def __init__(  # noqa: PLR0913  # what the environment built, handed over once
        self,
        env: Any,
        *,
        agents: tuple[str, ...],
        moves: tuple[tuple[Action, ...], ...],
        by_identity: dict[int, tuple[Action, int]],
        writer: StepWriter,
        vectors: list[Any],
        new_mask: Any,
        state: GameState,
        own_observe: bool,
    ) -> None:
        self.env = env
        self.agents = agents
        self.seats = {agent: seat for seat, agent in enumerate(agents)}
        self.moves = moves
        """Per seat and id, the action (the codec's interned objects)."""
        self.by_identity = by_identity
        self.writer = writer
        self.vectors = vectors
        """Per seat, the numpy vector its observations are copied from."""
        # The writer sets entries one at a time through a float32 memoryview of each vector.
        self.entries: list[Vector] = [vector.data for vector in vectors]
        self.written = [Written(seat) for seat in range(len(agents))]
        self.new_mask = new_mask
        """``() -> array``: a new zeroed int8 array of one entry per action id."""
        count = len(agents)
        # Per seat, the observation vector and the mask last handed out, and their
        # memoryviews (see the module's docstring: recycled once no one else holds them).
        self.lent_vectors: list[Any] = [None] * count
        self.lent_vector_views: list[Any] = [None] * count
        self.lent_masks: list[Any] = [None] * count
        self.lent_mask_views: list[Any] = [None] * count
        self.zero_flags: Any = new_mask().data
        """A memoryview of zeros of the masks' format, to clear a recycled mask with."""
        # What the core's own references to a lent array (the list and its memoryview)
        # count, seen through _references: measured on a probe lent exactly as arrays are,
        # in the core's own lists, so that it holds in either build.
        _lend(self.lent_masks, self.lent_mask_views, 0, new_mask())
        self.own_references = _references(self.lent_masks, 0)
        self.lent_masks[0] = self.lent_mask_views[0] = None
        self.state = state
        self.finished: Any = None
        """Once an episode ends: the finished hand (a ``PastHand``), whose views the
        agents' last observations show."""
        self.has_reset = False
        self.rewarded = False
        self.own_observe = own_observe
        """Whether ``last`` may call :meth:`observe` itself (False when a subclass of the
        environment overrides ``observe``: then ``last`` calls the override)."""

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s observation (see ``raw_env.observe``)."""
        if not self.has_reset:
            raise InvalidStateError("reset() must be called before observe()")
        seat = self.seats[agent]
        finished = self.finished
        state = self.state
        # The engine's legal actions first, while the state's objects are still in the CPU's
        # caches: copying out the 9 KB vector below pushes them out.
        legal = legal_actions(state) if finished is None and state.to_act == seat else None
        # The agent's vector is brought from its last observation to this one, changing only
        # the entries that differ (StepWriter), then copied out.
        if finished is None:
            self._update(seat, state)
        else:
            self._update(seat, finished.view(seat))
        observation = self._vector_out(seat)
        mask = self._mask_out(seat)
        # The legal ids set through a memoryview: cheaper than keeping one array per
        # distinct mask (there are thousands) to copy out.
        if legal is not None and not set_legal(
            self.by_identity, legal, self.lent_mask_views[seat]
        ):  # an action the tables do not know: the codec's slow way
            mask = self.env._slow_mask(state)
        return {"observation": observation, "action_mask": mask}

    def _recyclable(self, arrays: list[Any], seat: int) -> bool:
        """Whether only the core holds ``arrays[seat]`` (False for None)."""
        return (
            _references(arrays, seat) <= self.own_references and _WEAK_REFERENCES(arrays[seat]) == 0
        )

    def _vector_out(self, seat: int) -> Any:
        """A copy of ``seat``'s vector that no one else holds: the last one handed out,
        overwritten, if no one else holds it any more, else a new one."""
        lent = self.lent_vectors
        if self._recyclable(lent, seat):
            self.lent_vector_views[seat][:] = self.entries[seat]
            return lent[seat]
        array = self.vectors[seat].copy()
        _lend(lent, self.lent_vector_views, seat, array)
        return array

    def _mask_out(self, seat: int) -> Any:
        """An all-zero mask that no one else holds: the last one handed out to ``seat``,
        cleared, if no one else holds it any more, else a new one."""
        lent = self.lent_masks
        if self._recyclable(lent, seat):
            self.lent_mask_views[seat][:] = self.zero_flags
            return lent[seat]
        mask = self.new_mask()
        _lend(lent, self.lent_mask_views, seat, mask)
        return mask

    def _update(self, seat: int, source: GameState | PlayerView) -> None:
        written = self.written[seat]
        try:
            self.writer.write(written, source, self.entries[seat])
        except BaseException:  # half-written: start again from zeros next time
            written.forget()
            self.vectors[seat].fill(0.0)
            raise

    def forget(self) -> None:
        """Every agent's vector back to zeros (and known to be): at a new hand, zeroing four
        vectors at once costs less than clearing the last hand's entries one by one."""
        for seat in range(len(self.written)):
            self.written[seat].forget()
            self.vectors[seat].fill(0.0)

    def last(self, observe: bool = True) -> tuple[Any, Any, Any, Any, Any]:
        """PettingZoo's ``last``: the acting agent's observation (if ``observe``), cumulative
        reward, termination, truncation and info."""
        env = self.env
        agent = env.agent_selection
        assert agent is not None
        observation: Any = None
        if observe:
            observation = self.observe(agent) if self.own_observe else env.observe(agent)
        return (
            observation,
            env._cumulative_rewards[agent],
            env.terminations[agent],
            env.truncations[agent],
            env.infos[agent],
        )

    def step(self, action: object) -> None:
        """The agent to act takes ``action`` (see ``raw_env.step``)."""
        env = self.env
        if not self.has_reset:
            raise InvalidStateError("reset() must be called before step()")
        if not env.agents:
            raise InvalidStateError("the episode is over: call reset() to start another")
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env._was_dead_step(action)
            return
        if action is None:
            raise ParseError(f"{agent} must act: None is only for terminated agents")
        before = self.state
        seat = self.seats[agent]
        moves = self.moves[seat]
        if type(action) is int and 0 <= action < len(moves):
            move = moves[action]
        else:  # numpy integers, and anything that is no action id (an error)
            move = env.codec.decode(action, seat)
        after = apply(before, move)
        env._cumulative_rewards[agent] = 0.0
        if self.rewarded:
            env._clear_rewards()
            self.rewarded = False
        if len(after.completed_hands) > len(before.completed_hands):
            after = env._end_of_hand(before, move, after)
        self.state = after
        to_act = after.to_act
        if to_act is not None:
            env.agent_selection = self.agents[to_act]
        if env.render_mode == "human":
            env.render()
