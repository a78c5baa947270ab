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
from typing import Any, Final

from deepsix.errors import IllegalActionError, ParseError, Reason, missing_extra

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as _missing:
    raise missing_extra("deepsix.adapters.kernel", "openspiel", _missing) from None

from deepsix.cards import CARD_POINTS, HAND_SIZE
from deepsix.melds import ALL_MELDS, MeldFamily
from deepsix.rules import PlayOver
from deepsix.scoring import LAST_TRICK_BONUS
from deepsix.state import Phase

from .actions import BID_BASE, DONE_ID, GIVE_BASE, MELD_BASE, PASS_ID, SHOW_BASE, SINK_BASE
from .config import GameConfig
from .observations import ObservationLayout

__all__ = ["Kernel"]

Array = npt.NDArray[Any]

_NUM_CARDS: Final = 28
_NUM_MELDS: Final = len(ALL_MELDS)
_PH: Final = {phase: i for i, phase in enumerate(Phase)}
BIDDING: Final = _PH[Phase.BIDDING]
SUNK_SUIT: Final = _PH[Phase.SUNK_SUIT]
INVITATION: Final = _PH[Phase.INVITATION]
PARTNER_PASS: Final = _PH[Phase.PARTNER_PASS]
BIDDER_MELD: Final = _PH[Phase.BIDDER_MELD]
BIDDER_PASS: Final = _PH[Phase.BIDDER_PASS]
MELDING: Final = _PH[Phase.MELDING]
PLAY: Final = _PH[Phase.PLAY]

_CARD: Final = np.arange(_NUM_CARDS)
_SUIT_OF: Final = _CARD // 7
_RANK_OF: Final = _CARD % 7 + 2
_POINTS: Final = np.array(CARD_POINTS, dtype=np.int32)
_DECK: Final = np.repeat(_CARD, 2).astype(np.int8)
_FAMILY: Final = {MeldFamily.RUN: 0, MeldFamily.ECHO: 1, MeldFamily.WIDE: 2}
_MELD_FAMILY: Final = np.array([_FAMILY[m.kind.family] for m in ALL_MELDS])
_MELD_NEED: Final = np.array(
    [[m.cards.count(c) for c in range(_NUM_CARDS)] for m in ALL_MELDS], dtype=np.int8
)
_MELD_RUN_SUIT: Final = np.array(
    [
        int(m.suit) if m.kind.family is MeldFamily.RUN and m.suit is not None else -1
        for m in ALL_MELDS
    ]
)
_MELD_VALUE: Final = np.array([m.value for m in ALL_MELDS], dtype=np.int32)
# _SHOWABLE[sunk, card]: the card could belong to a meld with that suit sunk (R-INVITE-2).
_SHOWABLE: Final = np.array(
    [(_RANK_OF >= 6) | ((_RANK_OF >= 4) & (sunk != _SUIT_OF)) for sunk in range(4)]
)
_SIGNS: Final = np.array([1.0, -1.0, 1.0, -1.0], dtype=np.float32)
_SEATS: Final = np.arange(4)


class Kernel:
    """``num_games`` games of Deep Six as arrays, stepped together (see the module docs).

    ``config`` gives the rules, the mode (``"hand"`` or ``"game"``), the
    most hands a game lasts and the first dealer; ``observation`` is
    ``"information_state"`` or ``"observation"``, as the environments'.
    ``deck_source``, if given, deals instead of the kernel's generator: called
    with the indices of the games to deal, it returns one deck per game (card
    indices in dealing order, shape ``(len(games), 56)``); a deck that is not
    the whole deck raises :class:`~deepsix.IllegalActionError` (``BAD_DEAL``).
    """

    def __init__(  # noqa: PLR0915  # one statement per array of the games' state
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
        self.config = config
        """The game parameters."""
        self.layout = ObservationLayout.named(observation, config)
        """The observations' layout."""
        self.num_games = num_games
        """How many games are stepped together."""
        self.num_actions = config.codec.num_actions
        """The size of the action space."""
        rules = config.rules
        self._amounts = np.array(config.codec.bid_amounts, dtype=np.int64)
        self._forced = config.codec.bid_amounts.index(rules.forced_bid)
        self._offsets = {piece.name: piece.offset for piece in self.layout.pieces}
        n, nb = num_games, len(self._amounts)
        self._rows = np.arange(n)
        self._rng = np.random.default_rng(0)
        self._deck_source = deck_source
        self.decks = np.zeros((n, 4 * HAND_SIZE), dtype=np.int8)
        """The deck each game's current hand was dealt from: seat ``s`` got
        ``decks[i, 14 * s : 14 * s + 14]`` (card indices)."""
        self.dealt = np.zeros(n, dtype=bool)
        """Which games were dealt a new hand by the last :meth:`reset` or :meth:`step`."""
        self.phase = np.zeros(n, dtype=np.int64)
        """Each game's phase (its index in :class:`~deepsix.Phase`)."""
        self.to_act = np.zeros(n, dtype=np.int64)
        """The seat to act in each game."""
        self.dealer = np.zeros(n, dtype=np.int64)
        self.scores = np.zeros((n, 2), dtype=np.int64)
        self.hands_done = np.zeros(n, dtype=np.int64)
        self.hands = np.zeros((n, 4, _NUM_CARDS), dtype=np.int8)
        """Each seat's cards as copy counts (cards in flight between partners excluded)."""
        self.bidder = np.zeros(n, dtype=np.int64)
        self.bid = np.zeros(n, dtype=np.int64)  # the standing bid's index in bid_amounts
        self.calls = np.zeros(n, dtype=np.int64)
        self.auction_bids = np.zeros((n, 4, nb), dtype=bool)
        self.auction_passed = np.zeros((n, 4), dtype=bool)
        self.sunk = np.zeros(n, dtype=np.int64)
        self.invitation = np.zeros((n, _NUM_CARDS), dtype=np.int8)
        self.partner_pass = np.zeros((n, _NUM_CARDS), dtype=np.int8)
        self.bidder_pass = np.zeros((n, _NUM_CARDS), dtype=np.int8)
        self.pass_counts = np.zeros((n, 2), dtype=np.int64)
        self.melds = np.zeros((n, 4, _NUM_MELDS), dtype=np.int8)
        self.trick_cards = np.zeros((n, 4, HAND_SIZE), dtype=np.int8)  # by seat; -1: none
        self.sizes = np.zeros((n, 4), dtype=np.int64)  # cards held
        self.trick_leaders = np.zeros((n, HAND_SIZE), dtype=np.int8)
        self.trick_winners = np.zeros((n, HAND_SIZE), dtype=np.int8)
        self.tricks = np.zeros(n, dtype=np.int64)  # completed tricks this hand
        self.trick_length = np.zeros(n, dtype=np.int64)  # cards in the trick in progress
        self.played = np.zeros((n, 4, _NUM_CARDS), dtype=np.int8)  # to completed tricks
        self.voids = np.zeros((n, 4, 4), dtype=bool)  # suits each seat has shown it lacks
        # The trick in progress: the suit led, and what wins it so far (R-PLAY-4 to R-PLAY-6):
        # the card, its seat, the last suit introduced, and the suits introduced (bits).
        self.led = np.zeros(n, dtype=np.int64)
        self.best = np.zeros(n, dtype=np.int64)
        self.best_seat = np.zeros(n, dtype=np.int64)
        self.winning_suit = np.zeros(n, dtype=np.int64)
        self.introduced = np.zeros(n, dtype=np.int64)
        self.tricks_taken = np.zeros((n, 2), dtype=np.int64)
        self.points = np.zeros((n, 2), dtype=np.int64)
        self._ready = False
        self._masks: Array | None = None

    # -- the API --------------------------------------------------------------------------------

    def reset(self, *, seed: int | None = None) -> None:
        """Start a new game in every slot, dealt from a generator seeded with ``seed``."""
        if seed is not None and type(seed) is not int:
            raise ParseError(f"seed={seed!r} must be an int or None")
        self._rng = np.random.default_rng(seed)
        every = self._rows
        self._masks = None
        self._new_games(every)
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
        present = np.bincount(phase, minlength=len(Phase))  # games per phase
        for value, write in (
            (BIDDING, self._mask_bidding),
            (SUNK_SUIT, self._mask_sunk),
            (INVITATION, self._mask_invitation),
            (PARTNER_PASS, self._mask_partner_pass),
            (BIDDER_MELD, self._mask_melds),
            (MELDING, self._mask_melds),
            (BIDDER_PASS, self._mask_bidder_pass),
            (PLAY, self._mask_play),
        ):
            if present[value]:
                write(out, (phase == value).nonzero()[0], value)
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
        rewards = np.zeros((n, 4), dtype=np.float32)
        terminations = np.zeros(n, dtype=bool)
        truncations = np.zeros(n, dtype=bool)
        self.dealt[:] = False
        self._masks = None
        phase = self.phase.copy()
        seat = self.to_act.copy()
        present = np.bincount(phase, minlength=len(Phase))  # games per phase
        for value, apply in (
            (BIDDING, self._bidding),
            (SUNK_SUIT, self._sunk_suit),
            (INVITATION, self._invitation),
            (PARTNER_PASS, self._partner_pass),
            (BIDDER_MELD, self._declare),
            (MELDING, self._declare),
            (BIDDER_PASS, self._bidder_pass),
        ):
            if present[value]:
                games = (phase == value).nonzero()[0]
                apply(games, ids[games], seat[games], value)
        if present[PLAY]:
            games = (phase == PLAY).nonzero()[0]
            self._play(games, ids[games], seat[games], rewards, terminations, truncations)
        return rewards, terminations, truncations

    def observations(self, out: Array | None = None) -> Array:  # noqa: PLR0915  # one block per piece
        """The observation of the seat to act in every game, ``(num_games, size)`` float32:
        the layout's encoding, bit-identical to the adapters'.

        ``out``, a writable C-contiguous float32 array of that shape, is
        overwritten and returned instead of a new array (no allocation per step;
        the caller then owns the reuse).
        """
        self._check_ready()
        n = self.num_games
        shape = (n, self.layout.size)
        if out is None:
            out = np.zeros(shape, dtype=np.float32)
        elif (
            not isinstance(out, np.ndarray)
            or out.shape != shape
            or out.dtype != np.float32
            or not out.flags.writeable
            or not out.flags.c_contiguous
        ):
            raise ParseError(f"out must be a writable C-contiguous float32 array of shape {shape}")
        else:
            out.fill(0.0)
        at = self._offsets
        rows = self._rows
        me = self.to_act
        # Row (4 * i + seat) of an array shaped (n, 4, ...): the rows in the observer's order.
        order = ((rows * 4)[:, None] + ((_SEATS[None, :] + me[:, None]) & 3)).ravel()

        def rotated(values: Array) -> Array:
            flat: Array = values.reshape(n * 4, -1)[order].reshape(n, -1)
            return flat

        def block(name: str, values: Array) -> None:
            start = at[name]
            out[:, start : start + values.shape[1]] = values

        out[rows, at["player"] + me] = 1.0
        out[rows, at["phase"] + self.phase] = 1.0
        out[rows, at["dealer"] + ((self.dealer - me) & 3)] = 1.0
        out[rows, at["to_act"]] = 1.0
        block("hand", self.hands.reshape(n * 4, 28)[rows * 4 + me])
        bidder = self.bidder
        size = self.config.rules.pass_size
        passes = self.pass_counts
        for own, first, then, done in (
            (bidder ^ 2, self.partner_pass, self.bidder_pass, passes[:, 1] == size),
            (bidder, self.bidder_pass, self.partner_pass, passes[:, 0] == size),
        ):
            seen = ((bidder >= 0) & (me == own) & (passes[:, 0] > 0)).nonzero()[0]
            out[seen, at["passed"] : at["passed"] + 28] = first[seen]
            seen = seen[done[seen]]
            out[seen, at["received"] : at["received"] + 28] = then[seen]
        block("hand_sizes", rotated(self.sizes))
        block("auction_bids", rotated(self.auction_bids))
        block("auction_passed", rotated(self.auction_passed))
        has_bid = (bidder >= 0).nonzero()[0]
        out[has_bid, at["bidder"] + ((bidder[has_bid] - me[has_bid]) & 3)] = 1.0
        out[has_bid, at["contract"] + self.bid[has_bid]] = 1.0
        named = (self.sunk >= 0).nonzero()[0]
        out[named, at["sunk_suit"] + self.sunk[named]] = 1.0
        block("invitation", self.invitation)
        block("pass_counts", passes)
        block("melds", rotated(self.melds))
        cards = rotated(self.trick_cards).reshape(n, 4, HAND_SIZE)  # (n, rel seat, trick)
        if self.layout.perfect_recall:
            game, r, trick = np.nonzero(cards >= 0)
            card = cards[game, r, trick].astype(np.int64)
            out[game, at["tricks"] + trick * 112 + r * 28 + card] = 1.0
            game, trick = np.nonzero(self.trick_leaders >= 0)
            leader = self.trick_leaders[game, trick].astype(np.int64)
            out[game, at["trick_leaders"] + trick * 4 + ((leader - me[game]) & 3)] = 1.0
            game, trick = np.nonzero(self.trick_winners >= 0)
            winner = self.trick_winners[game, trick].astype(np.int64)
            out[game, at["trick_winners"] + trick * 4 + ((winner - me[game]) & 3)] = 1.0
        else:
            going = (self.trick_length > 0).nonzero()[0]
            current = cards[going, :, self.tricks[going]]  # (k, rel seat)
            game, r = np.nonzero(current >= 0)
            card = current[game, r].astype(np.int64)
            out[going[game], at["trick"] + r * 28 + card] = 1.0
            leader = self.trick_leaders[going, self.tricks[going]].astype(np.int64)
            out[going, at["trick_leader"] + ((leader - me[going]) & 3)] = 1.0
            block("played", rotated(self.played))
        block("voids", rotated(self.voids))
        team = me & 1
        for name, pair in (
            ("tricks_taken", self.tricks_taken),
            ("points_taken", self.points),
            ("scores", self.scores),
        ):
            flat = pair.reshape(-1)
            out[:, at[name]] = flat[rows * 2 + team]
            out[:, at[name] + 1] = flat[rows * 2 + 1 - team]
        out[:, at["hand_number"]] = self.hands_done + 1
        return out

    @property
    def memory_per_game(self) -> int:
        """Bytes of game state per game (the arrays above, divided by ``num_games``)."""
        total = sum(
            value.nbytes
            for value in vars(self).values()
            if isinstance(value, np.ndarray) and value.shape[:1] == (self.num_games,)
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
        illegal = (~self._legal()[self._rows, ids]).nonzero()[0]
        if len(illegal):
            i = int(illegal[0])
            index = int(ids[i])
            raise IllegalActionError(
                self._why(i, index),
                f"game {i}: action id {index} is not legal for seat {int(self.to_act[i])}",
                index,
            )
        return ids

    def _why(self, i: int, index: int) -> Reason:  # noqa: PLR0911  # one answer per case
        """Why action ``index`` is illegal in game ``i`` (the error path: one game)."""
        phase = int(self.phase[i])
        seat = int(self.to_act[i])
        hand = self.hands[i, seat]
        card = index % 28
        if phase == BIDDING:
            if index != PASS_ID and index < BID_BASE:
                return Reason.WRONG_PHASE
            if self.bidder[i] < 0 and self.calls[i] == 3:
                return Reason.DEALER_MUST_BID
            return Reason.BID_NOT_LOWER
        if phase == INVITATION and SHOW_BASE <= index < MELD_BASE:
            if hand[card] <= self.invitation[i, card]:
                return Reason.CARD_NOT_IN_HAND
            return Reason.NOT_MELDABLE
        if phase in (PARTNER_PASS, BIDDER_PASS) and GIVE_BASE <= index < SHOW_BASE:
            return Reason.CARD_NOT_IN_HAND if hand[card] == 0 else Reason.CARD_MELDED
        if phase in (BIDDER_MELD, MELDING) and MELD_BASE <= index < DONE_ID:
            meld = index - MELD_BASE
            if _MELD_RUN_SUIT[meld] == self.sunk[i]:
                return Reason.RUN_IN_SUNK_SUIT
            games = np.array([i])
            fits = self._meld_fits(games, np.array([seat]), capped=False)
            return Reason.MELD_UNAVAILABLE if not fits[0, meld] else Reason.TOO_FEW_UNMELDED
        if phase == PLAY and index < GIVE_BASE:
            if hand[card] == 0:
                return Reason.CARD_NOT_IN_HAND
            lead = int(self.trick_cards[i, self.trick_leaders[i, self.tricks[i]], self.tricks[i]])
            if card // 7 != lead // 7:
                return Reason.MUST_FOLLOW_SUIT
            return Reason.MUST_PLAY_OVER
        return Reason.WRONG_PHASE

    # -- dealing --------------------------------------------------------------------------------

    def _new_games(self, games: Array) -> None:
        self.dealer[games] = int(self.config.dealer)
        self.scores[games] = 0
        self.hands_done[games] = 0
        self._deal(games)

    def _deal(self, games: Array) -> None:
        """Deal a new hand in ``games`` (R-DEAL-1) and clear the hand's setup."""
        k = len(games)
        if not k:
            return
        if self._deck_source is None:
            decks = _DECK[np.argsort(self._rng.random((k, 4 * HAND_SIZE)), axis=1)]
        else:
            decks = np.asarray(self._deck_source(games))
            if decks.shape != (k, 4 * HAND_SIZE) or not np.array_equal(
                np.sort(decks, axis=1), np.broadcast_to(_DECK, decks.shape)
            ):
                raise IllegalActionError(
                    Reason.BAD_DEAL, f"the deck source gave {decks.shape}, not whole decks"
                )
            decks = decks.astype(np.int8)
        self.decks[games] = decks
        seat_of = np.repeat(_SEATS, HAND_SIZE)[None, :]
        flat = (np.arange(k)[:, None] * 112 + seat_of * 28 + decks).ravel()
        counts = np.bincount(flat, minlength=k * 112).reshape(k, 4, 28)
        self.hands[games] = counts
        self.sizes[games] = HAND_SIZE
        self.dealt[games] = True
        self.phase[games] = BIDDING
        self.to_act[games] = (self.dealer[games] + 1) & 3
        self.bidder[games] = -1
        self.bid[games] = -1
        self.calls[games] = 0
        self.auction_bids[games] = False
        self.auction_passed[games] = False
        self.sunk[games] = -1
        self.invitation[games] = 0
        self.partner_pass[games] = 0
        self.bidder_pass[games] = 0
        self.pass_counts[games] = 0
        self.melds[games] = 0
        self.trick_cards[games] = -1
        self.trick_leaders[games] = -1
        self.trick_winners[games] = -1
        self.tricks[games] = 0
        self.trick_length[games] = 0
        self.played[games] = 0
        self.voids[games] = False
        self.tricks_taken[games] = 0
        self.points[games] = 0

    # -- masks ----------------------------------------------------------------------------------

    def _mask_bidding(self, out: Array, games: Array, phase: int) -> None:
        forced = (self.bidder[games] < 0) & (self.calls[games] == 3)
        free = games[~forced]
        out[games[forced], BID_BASE + self._forced] = True
        out[free, PASS_ID] = True
        k = np.arange(len(self._amounts))[None, :]
        out[free, BID_BASE:] = k > self.bid[free][:, None]  # lower than the standing bid

    def _mask_sunk(self, out: Array, games: Array, phase: int) -> None:
        out[games, SINK_BASE : SINK_BASE + 4] = True

    def _mask_invitation(self, out: Array, games: Array, phase: int) -> None:
        seat = self.to_act[games]
        unshown = self.hands[games, seat] > self.invitation[games]
        out[games, SHOW_BASE : SHOW_BASE + 28] = unshown & _SHOWABLE[self.sunk[games]]
        out[games, DONE_ID] = True

    def _mask_partner_pass(self, out: Array, games: Array, phase: int) -> None:
        out[games, GIVE_BASE : GIVE_BASE + 28] = self.hands[games, self.to_act[games]] > 0

    def _usage(self, games: Array, seat: Array) -> Array:
        """Per family (runs, echoes, wides), the card copies the seat's melds use: (k, 3, 28)."""
        declared = self.melds[games, seat].astype(np.int64)
        return np.stack(
            [declared[:, f == _MELD_FAMILY] @ _MELD_NEED[f == _MELD_FAMILY] for f in range(3)],
            axis=1,
        )

    def _tied_up(self, usage: Array) -> Array:
        """The copies of each card the families' usage ties up (the last axis is the card,
        the one before it the family): their maximum with sharing, else their sum."""
        if self.config.rules.meld_sharing:
            tied: Array = usage.max(axis=-2)
            return tied
        summed: Array = usage.sum(axis=-2)
        return summed

    def _meld_fits(self, games: Array, seat: Array, *, capped: bool) -> Array:
        """Which of the 27 melds the seat may declare next (R-MELD-2 to R-MELD-4): (k, 27)."""
        hand = self.hands[games, seat].astype(np.int64)
        usage = self._usage(games, seat)
        if self.config.rules.meld_sharing:
            remaining = hand[:, None, :] - usage  # (k, 3, 28)
        else:
            remaining = np.repeat((hand - usage.sum(axis=1))[:, None, :], 3, axis=1)
        fits: Array = np.all(remaining[:, _MELD_FAMILY, :] >= _MELD_NEED[None], axis=2)
        fits &= _MELD_RUN_SUIT[None, :] != self.sunk[games][:, None]
        if capped:
            family = np.eye(3, dtype=np.int64)[_MELD_FAMILY]  # (27, 3)
            grown = usage[:, None, :, :] + family[None, :, :, None] * _MELD_NEED[None, :, None, :]
            cap = hand.sum(axis=1) - self.config.rules.pass_size
            fits &= self._tied_up(grown).sum(axis=2) <= cap[:, None]
        return fits

    def _mask_melds(self, out: Array, games: Array, phase: int) -> None:
        seat = self.to_act[games]
        fits = self._meld_fits(games, seat, capped=phase == BIDDER_MELD)
        out[games, MELD_BASE:DONE_ID] = fits
        out[games, DONE_ID] = True

    def _mask_bidder_pass(self, out: Array, games: Array, phase: int) -> None:
        seat = self.to_act[games]
        tied = self._tied_up(self._usage(games, seat))
        out[games, GIVE_BASE : GIVE_BASE + 28] = self.hands[games, seat] > tied

    def _ordered_trick(self, games: Array) -> Array:
        """The trick in progress of each game, in play order: (k, 4) cards (-1: not yet)."""
        k = self.tricks[games]
        current = np.minimum(k, HAND_SIZE - 1)
        leader = self.trick_leaders[games, current].astype(np.int64)
        order = (leader[:, None] + _SEATS[None, :]) & 3
        cards: Array = self.trick_cards[games[:, None], order, current[:, None]]
        return cards

    def _mask_play(self, out: Array, games: Array, phase: int) -> None:
        seat = self.to_act[games]
        hand = self.hands[games, seat]
        held = hand > 0
        length = self.trick_length[games]
        cards = self._ordered_trick(games)
        lead = cards[:, 0].astype(np.int64)
        led = np.where(length > 0, lead // 7, 0)
        in_led = _SUIT_OF[None, :] == led[:, None]
        following = held & in_led
        can_follow = (length > 0) & following.any(axis=1)
        if self.config.rules.play_over is PlayOver.WIN_TRICK:
            bar = self.best[games]
            lowest = np.where(bar // 7 == led, bar, 7 * led)
        else:
            trick = cards.astype(np.int64)
            ledcards = np.where(
                (np.arange(4)[None, :] < length[:, None]) & (trick // 7 == led[:, None]), trick, -1
            )
            lowest = ledcards.max(axis=1)
        highest = np.where(following, _CARD[None, :], -1).max(axis=1)
        lowest = np.where(highest < lowest, 7 * led, lowest)
        window = following & (_CARD[None, :] >= lowest[:, None])
        out[games, :28] = np.where(can_follow[:, None], window, held)

    # -- transitions ----------------------------------------------------------------------------

    def _bidding(self, games: Array, ids: Array, seat: Array, phase: int) -> None:
        """A call (R-BID-*): pass, or bid lower than the standing bid."""
        passing = ids == PASS_ID
        self.auction_passed[games[passing], seat[passing]] = True
        bids = ~passing
        won = games[bids]
        k = ids[bids] - BID_BASE
        self.auction_bids[won, seat[bids], k] = True
        self.bidder[won] = seat[bids]
        self.bid[won] = k
        self.calls[games] += 1
        passed = self.auction_passed[games]
        over = (self.bidder[games] >= 0) & (passed.sum(axis=1) == 3)
        following = (seat + 3) & 3
        for step in (3, 2, 1):
            candidate = (seat + step) & 3
            following = np.where(passed[np.arange(len(games)), candidate], following, candidate)
        self.phase[games[over]] = SUNK_SUIT
        self.to_act[games] = np.where(over, self.bidder[games], following)

    def _sunk_suit(self, games: Array, ids: Array, seat: Array, phase: int) -> None:
        self.sunk[games] = ids - SINK_BASE
        self.phase[games] = INVITATION

    def _invitation(self, games: Array, ids: Array, seat: Array, phase: int) -> None:
        done = ids == DONE_ID
        self.phase[games[done]] = PARTNER_PASS
        self.to_act[games[done]] = seat[done] ^ 2
        showing = ~done
        self.invitation[games[showing], ids[showing] - SHOW_BASE] += 1

    def _partner_pass(self, games: Array, ids: Array, seat: Array, phase: int) -> None:
        """A card from the partner (R-PASS-1); the last one brings the cards to the bidder."""
        card = ids - GIVE_BASE
        self.hands[games, seat, card] -= 1
        self.sizes[games, seat] -= 1
        self.partner_pass[games, card] += 1
        self.pass_counts[games, 0] += 1
        full = self.pass_counts[games, 0] == self.config.rules.pass_size
        done = games[full]
        bidder = seat[full] ^ 2
        self.hands[done, bidder] += self.partner_pass[done]
        self.sizes[done, bidder] += self.config.rules.pass_size
        self.phase[done] = BIDDER_MELD
        self.to_act[done] = bidder

    def _bidder_pass(self, games: Array, ids: Array, seat: Array, phase: int) -> None:
        """A card back from the bidder (R-PASS-2); then the others meld, from her left."""
        card = ids - GIVE_BASE
        self.hands[games, seat, card] -= 1
        self.sizes[games, seat] -= 1
        self.bidder_pass[games, card] += 1
        self.pass_counts[games, 1] += 1
        full = self.pass_counts[games, 1] == self.config.rules.pass_size
        done = games[full]
        self.hands[done, seat[full] ^ 2] += self.bidder_pass[done]
        self.sizes[done, seat[full] ^ 2] += self.config.rules.pass_size
        self.phase[done] = MELDING
        self.to_act[done] = (seat[full] + 1) & 3

    def _declare(self, games: Array, ids: Array, seat: Array, phase: int) -> None:
        """A meld declared, or Done: the bidder then passes back; the others in turn; play."""
        declaring = ids != DONE_ID
        self.melds[games[declaring], seat[declaring], ids[declaring] - MELD_BASE] += 1
        done = games[~declaring]
        if phase == BIDDER_MELD:
            self.phase[done] = BIDDER_PASS
            return
        following = (seat[~declaring] + 1) & 3
        playing = following == self.bidder[done]
        self.phase[done[playing]] = PLAY
        self.to_act[done] = following

    def _play(  # noqa: PLR0913, PLR0917  # the step's outputs, written in place
        self,
        games: Array,
        ids: Array,
        seat: Array,
        rewards: Array,
        terminations: Array,
        truncations: Array,
    ) -> None:
        """A card played (R-PLAY-*); a fourth card completes the trick, a fourteenth trick
        ends the hand."""
        card = ids
        self.hands[games, seat, card] -= 1
        k = self.tricks[games]
        leading = self.trick_length[games] == 0
        self.trick_leaders[games[leading], k[leading]] = seat[leading]
        self.trick_cards[games, seat, k] = card
        self.sizes[games, seat] -= 1
        self.trick_length[games] += 1
        self.to_act[games] = (seat + 1) & 3
        suit = card // 7
        first = games[leading]
        self.led[first] = suit[leading]
        self.best[first] = card[leading]
        self.best_seat[first] = seat[leading]
        self.winning_suit[first] = suit[leading]
        self.introduced[first] = np.left_shift(1, suit[leading])
        following = ~leading
        later, card, seat, suit = (
            games[following],
            card[following],
            seat[following],
            suit[following],
        )
        same = suit == self.winning_suit[later]
        new = ~same & (suit != self.sunk[later]) & ((self.introduced[later] >> suit) & 1 == 0)
        take = (same & (card >= self.best[later])) | new  # the second identical card wins
        self.best[later[take]] = card[take]
        self.best_seat[later[take]] = seat[take]
        self.winning_suit[later[new]] = suit[new]
        self.introduced[later[new]] |= np.left_shift(1, suit[new])
        off = suit != self.led[later]  # R-PLAY-2: this seat holds none of the suit led
        self.voids[later[off], seat[off], self.led[later[off]]] = True
        full = self.trick_length[games] == 4
        done = games[full]
        if not len(done):
            return
        k = k[full]
        winner = self.best_seat[done]
        team = winner & 1
        self.trick_winners[done, k] = winner
        self.tricks_taken[done, team] += 1
        cards = self.trick_cards[done, :, k].astype(np.int64)  # (k, seat)
        self.points[done, team] += _POINTS[cards].sum(axis=1)
        for player in range(4):
            self.played[done, player, cards[:, player]] += 1
        self.tricks[done] += 1
        self.trick_length[done] = 0
        self.to_act[done] = winner
        last = self.tricks[done] == HAND_SIZE
        if last.any():
            ended = done[last]
            self.points[ended, team[last]] += LAST_TRICK_BONUS
            self._finish(ended, rewards, terminations, truncations)

    def _finish(
        self, games: Array, rewards: Array, terminations: Array, truncations: Array
    ) -> None:
        """Score the hand (R-SCORE-*); then a new hand, or the game ends (R-END-*)."""
        rules = self.config.rules
        values = self.melds[games].astype(np.int64) @ _MELD_VALUE  # (k, 4 seats)
        meld = values[:, [0, 1]] + values[:, [2, 3]]
        net = self.points[games] + meld
        team = self.bidder[games] & 1
        bid = self._amounts[self.bid[games]]
        rows = np.arange(len(games))
        made = net[rows, team] <= bid
        hand_scores = np.maximum(net, 0)
        hand_scores[rows[~made], team[~made]] = rules.failed_bid_score - bid[~made]
        totals = self.scores[games] + hand_scores
        self.scores[games] = totals
        self.hands_done[games] += 1
        margin = (hand_scores[:, 1] - hand_scores[:, 0]).astype(np.float32)
        rewards[games] = _SIGNS[None, :] * margin[:, None]
        top = totals.max(axis=1)
        reached = top >= rules.target_score if rules.end_at_target else top > rules.target_score
        over = reached & (totals[:, 0] != totals[:, 1])
        finished = over | (self.hands_done[games] >= self.config.hands)
        ending = over if self.config.mode == "game" else finished
        terminations[games] = finished & ending
        truncations[games] = finished & ~ending
        self._new_games(games[finished])
        going = games[~finished]
        self.dealer[going] = (self.dealer[going] + 1) & 3
        self._deal(going)
