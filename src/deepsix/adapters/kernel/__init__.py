"""The whole game as array programs over N games (``pip install "deepsix[openspiel]"``).

:class:`Kernel` holds ``num_games`` games of Deep Six as NumPy arrays --
each seat's hand as 28 copy counts, the auction, the sunk suit, the
invitation, both passes, the melds, the tricks and the scores as counters
-- and :meth:`Kernel.step` advances every game by one decision in array
operations, with no Python loop over the games.  Every phase is here: the
deal, the auction with the forced dealer bid, the sunk suit, the
invitation, both passes, the meld declarations, fourteen tricks (follow
suit, play over, the last suit introduced wins, sunk-suit cards rank
below every other suit, the second of two identical cards beats the
first), scoring with the zero floor and the set contract, and games of
several hands to the target score.

The package mirrors the rules' phases (:mod:`deepsix.phases`): the games'
arrays are :mod:`~deepsix.adapters.kernel.state`'s; each phase module --
:mod:`~deepsix.adapters.kernel.deal`, :mod:`~deepsix.adapters.kernel.auction`,
:mod:`~deepsix.adapters.kernel.contract`, :mod:`~deepsix.adapters.kernel.passing`,
:mod:`~deepsix.adapters.kernel.melding`, :mod:`~deepsix.adapters.kernel.play` --
exports the phases it steps (``PHASES``), their legal actions (``legal``),
why an action is refused (``refusal``) and the step (``step``), for the
games in its phases only; :mod:`~deepsix.adapters.kernel.encode` writes the
observations.  :class:`Kernel` checks the input and dispatches.

The action ids are the adapters' (:mod:`deepsix.adapters.actions`);
:meth:`Kernel.masks` and :meth:`Kernel.observations` are bit-identical to
:meth:`~deepsix.adapters.actions.ActionCodec.legal_mask` and to the
adapters' observation layouts (:mod:`deepsix.adapters.observations`) for
the seat to act; ``tests/adapters/test_kernel.py`` drives kernel games and
engine games with the same actions and compares them.

Conventions, as :class:`~deepsix.adapters.vector.DeepSixVectorEnv`'s:
every game always waits for a decision (the deals are made inside the
step); a step returns per-seat rewards ``(num_games, 4)`` -- the hand's
margin, zero-sum, when a hand ends -- and terminations and truncations;
a finished game is replaced by a new one in the same step.  The deals
come from a NumPy generator seeded by :meth:`Kernel.reset` (the deck of
each game's current hand is :attr:`Kernel.decks`).

>>> from deepsix.adapters.config import GameConfig
>>> games = Kernel(8, GameConfig.create())
>>> games.reset(seed=1)
>>> masks = games.masks()
>>> masks.shape, games.observations().shape, games.to_act.tolist()
((8, 171), (8, 2233), [1, 1, 1, 1, 1, 1, 1, 1])
>>> rewards, terminations, truncations = games.step(masks.argmax(axis=1))
>>> rewards.shape, bool(terminations.any())
((8, 4), False)
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Final

from deepsix.errors import IllegalActionError, ParseError, Reason, missing_extra

try:
    import numpy as np
except ImportError as _missing:
    raise missing_extra("deepsix.adapters.kernel", "openspiel", _missing) from None

from deepsix.adapters.config import GameConfig
from deepsix.adapters.observations import ObservationLayout

from . import auction, contract, deal, encode, melding, passing, play
from .state import NUM_PHASES, PLAY, Array, KernelState

__all__ = ["Kernel"]

_PHASES: Final[tuple[ModuleType, ...]] = (auction, contract, passing, melding, play)
_MODULE_OF: Final = {phase: module for module in _PHASES for phase in module.PHASES}
_ORDER: Final = sorted(_MODULE_OF)


class Kernel(KernelState):
    """``num_games`` games of Deep Six as arrays, stepped together (see the module docs).

    ``config`` gives the rules, the mode (``"hand"`` or ``"game"``), the
    most hands a game lasts and the first dealer; ``observation`` is
    ``"information_state"`` or ``"observation"``, as the environments'.
    ``deck_source``, if given, deals instead of the kernel's generator: called
    with the indices of the games to deal, it returns one deck per game (card
    indices in dealing order, shape ``(len(games), 56)``); a deck that is not
    the whole deck raises :class:`~deepsix.IllegalActionError` (``BAD_DEAL``).
    """

    def __init__(
        self,
        num_games: int,
        config: GameConfig,
        *,
        observation: str = "information_state",
        deck_source: Callable[[Array], Array] | None = None,
    ) -> None:
        if type(num_games) is not int or num_games < 1:
            raise ParseError(f"num_games={num_games!r} must be a positive int")
        if not isinstance(config, GameConfig):
            raise ParseError(f"config must be a GameConfig, not {type(config).__name__}")
        super().__init__(num_games, config, ObservationLayout.named(observation, config))
        self._rng = np.random.default_rng(0)
        self._deck_source = deck_source
        self._ready = False
        self._masks: Array | None = None

    # -- the API --------------------------------------------------------------------------------

    def reset(self, *, seed: int | None = None) -> None:
        """Start a new game in every slot, dealt from a generator seeded with ``seed``."""
        if seed is not None and type(seed) is not int:
            raise ParseError(f"seed={seed!r} must be an int or None")
        self._rng = np.random.default_rng(seed)
        self._masks = None
        deal.new_games(self, self.rows, self._rng, self._deck_source)
        self.dealt[:] = True
        self._ready = True

    def masks(self) -> Array:
        """The legal-action mask of the seat to act in every game, ``(num_games,
        num_actions)`` bool: :meth:`ActionCodec.legal_mask`'s, for all games at once."""
        return self._legal().copy()

    def _legal(self) -> Array:
        """The masks, computed once per position (:meth:`masks` hands out copies)."""
        self._check_ready()
        if self._masks is not None:
            return self._masks
        out = np.zeros((self.num_games, self.num_actions), dtype=bool)
        phase = self.phase
        present = np.bincount(phase, minlength=NUM_PHASES)  # games per phase
        for value in _ORDER:
            if present[value]:
                _MODULE_OF[value].legal(self, out, (phase == value).nonzero()[0], value)
        self._masks = out
        return out

    def step(self, actions: object) -> tuple[Array, Array, Array]:
        """One action id per game, for its seat to act; returns ``(rewards, terminations,
        truncations)``: rewards ``(num_games, 4)`` float32 per seat, the flags bool.

        Anything but ``num_games`` integer ids, an id out of range, or an id
        that is not legal in its game raises :class:`~deepsix.IllegalActionError`
        naming the first offending game and the rule; every game is then left
        as it was.
        """
        self._check_ready()
        ids = self._checked(actions)
        n = self.num_games
        outcome = play.Outcome(
            np.zeros((n, 4), dtype=np.float32), np.zeros(n, dtype=bool), np.zeros(n, dtype=bool)
        )
        self.dealt[:] = False
        self._masks = None
        phase = self.phase.copy()
        seat = self.to_act.copy()
        present = np.bincount(phase, minlength=NUM_PHASES)  # games per phase
        for value in _ORDER:
            if present[value] and value != PLAY:
                games = (phase == value).nonzero()[0]
                _MODULE_OF[value].step(self, games, ids[games], seat[games], value)
        if present[PLAY]:
            games = (phase == PLAY).nonzero()[0]
            ended = play.step(self, games, ids[games], seat[games], PLAY)
            if len(ended):
                finished = play.score(self, ended, outcome)
                deal.new_games(self, ended[finished], self._rng, self._deck_source)
                deal.deal(self, ended[~finished], self._rng, self._deck_source)
        return outcome

    def observations(self, out: Array | None = None) -> Array:
        """The observation of the seat to act in every game, ``(num_games, size)`` float32:
        the layout's encoding, bit-identical to the adapters'.

        ``out``, a writable C-contiguous float32 array of that shape, is
        overwritten and returned instead of a new array (no allocation per step;
        the caller then owns the reuse).
        """
        self._check_ready()
        shape = (self.num_games, self.layout.size)
        if out is None:
            out = np.empty(shape, dtype=np.float32)
        elif (
            not isinstance(out, np.ndarray)
            or out.shape != shape
            or out.dtype != np.float32
            or not out.flags.writeable
            or not out.flags.c_contiguous
        ):
            raise ParseError(f"out must be a writable C-contiguous float32 array of shape {shape}")
        encode.observe(self, out)
        return out

    @property
    def memory_per_game(self) -> int:
        """Bytes of game state per game (the arrays above, views counted once, divided by
        ``num_games``)."""
        total = sum(
            value.nbytes
            for value in vars(self).values()
            if isinstance(value, np.ndarray)
            and value.shape[:1] == (self.num_games,)
            and value.base is None
        )
        return total // self.num_games

    # -- checks ---------------------------------------------------------------------------------

    def _check_ready(self) -> None:
        if not self._ready:
            raise IllegalActionError(Reason.CHANCE_STEP, "call reset() before anything else")

    def _checked(self, actions: object) -> Array:
        """The action ids as int64, once their shape, type, range and legality are checked."""
        ids = np.asarray(actions)
        if ids.shape != (self.num_games,) or ids.dtype.kind not in "iu":
            raise IllegalActionError(
                Reason.UNKNOWN_ACTION,
                f"step() takes {self.num_games} integer action ids, got {ids.dtype} {ids.shape}",
                actions,
            )
        ids = ids.astype(np.int64)
        outside = ((ids < 0) | (ids >= self.num_actions)).nonzero()[0]
        if len(outside):
            i = int(outside[0])
            raise IllegalActionError(
                Reason.UNKNOWN_ACTION,
                f"game {i}: action id {int(ids[i])} (ids are 0..{self.num_actions - 1})",
                int(ids[i]),
            )
        illegal = (~self._legal().reshape(-1)[self.rows * self.num_actions + ids]).nonzero()[0]
        if len(illegal):
            i = int(illegal[0])
            index = int(ids[i])
            raise IllegalActionError(
                _MODULE_OF[int(self.phase[i])].refusal(self, i, index),
                f"game {i}: action id {index} is not legal for seat {int(self.to_act[i])}",
                index,
            )
        return ids
