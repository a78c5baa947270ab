"""Information-set sampling: full game states consistent with what one seat knows.

A bot that searches (Monte Carlo, counterfactual regret, "perfect
information" rollouts) needs concrete states, but a seat only sees a
:class:`~deepsix.PlayerView`.  :func:`sample_state` fills in what the seat
cannot see -- the other hands and the cards passed face down between the
other players -- at random, in a way that every fact the view reveals stays
true:

* every seat holds as many cards as the view says, and the seat's own hand
  is its hand;
* cards already played, and cards the seat knows the location of, are not
  dealt again;
* a seat that failed to follow suit holds no card of that suit, and a seat
  that followed without playing over holds no card that would have played
  over (R-PLAY-2, R-PLAY-3);
* declared melds stay in their owner's hand until played (melds are
  public), and the invitation came from the bidder's hand;
* passed cards are where the passes put them: the partner who passed
  three cards knows they are in the bidder's hand (unless she passed them
  back or played them), the bidder knows what she passed back, and the
  opponents only know that three cards went each way.

The sampled state is a valid state (:func:`deepsix.validate` passes) in
the same phase, with the same seat to act, the same auction, sunk suit,
melds, tricks, scores and finished hands, and ``view(sampled, seat)``
equals the view it was sampled from -- :func:`sample_state` checks this
before returning.  Play continues from it legally.

**History.**  The sampled state's history is synthetic: the current
hand's actions, starting with a made-up :class:`~deepsix.Deal` that gives
each seat the cards the sample says it was dealt, followed by exactly the
public actions of the hand with the hidden passes filled in.  It replays
(the sampler builds the state by replaying it with :func:`deepsix.apply`,
so every action is verified).  The actions of earlier hands cannot be
known from a view, so they are left out: for the first hand the history
is complete; for later hands it is the tail that starts at this hand's
deal, which :func:`deepsix.validate` replays from the start of the hand.
At a deal (no cards dealt yet) the sampled state has no history.

**Distribution.**  The unseen card copies are assigned by a randomized
flow algorithm that always finds an assignment when one exists, followed
by a few hundred random swaps of two copies (a Markov chain whose
stationary distribution is uniform over the consistent ways to place the
copies).  It is therefore close to uniform over the worlds the view
allows, but it does not weigh them by how likely the players' choices
made them (no Bayesian inference about bids or discards).  Where the view
leaves open whether the bidder passed a shown card back to her partner,
the sampler assumes she kept it unless the view proves otherwise.

>>> import random
>>> from deepsix import new_game, shuffled_deal, view, Seat, validate
>>> state = new_game().apply(shuffled_deal(3))
>>> mine = view(state, Seat.EAST)
>>> guess = sample_state(mine, random.Random(1))
>>> guess.hand(Seat.EAST) == state.hand(Seat.EAST), view(guess, Seat.EAST) == mine
(True, True)
>>> validate(guess)
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Iterator, Sequence
from typing import Final

import attrs

from deepsix.allocation import random_allocation
from deepsix.cards import HAND_SIZE, Card, Seat
from deepsix.errors import DeepSixError, InvalidStateError
from deepsix.hands import cards_of, counts_of
from deepsix.rebuild import PHASE_ORDER, dealt_counts, hand_start, replay_hand
from deepsix.state import GameState, HandSetup, Phase
from deepsix.table import SeatKnowledge
from deepsix.validation import check_score_sheet
from deepsix.views import PlayerView, view

__all__ = ["SamplingError", "sample_state"]


class SamplingError(InvalidStateError):
    """No game state is consistent with the view (it is corrupt or forged)."""


_SEATS: Final = tuple(Seat)
_MAX_SPLITS: Final = 20_000

Row = list[int]


def sample_state(view_: PlayerView, rng: random.Random | int | None = None) -> GameState:
    """A random full state consistent with ``view_`` (see the module documentation).

    ``rng`` is a :class:`random.Random`, a seed, or ``None`` for a fresh
    unseeded generator; the same seed and view always give the same state.
    Raises :class:`SamplingError` when no state has this view.
    """
    if not isinstance(view_, PlayerView):
        raise SamplingError(f"sample_state() needs a PlayerView, not {type(view_).__name__}")
    generator = rng if isinstance(rng, random.Random) else random.Random(rng)
    try:
        state = _Sampler(view_, generator).sample()
        check_score_sheet(state)
    except SamplingError:
        raise
    except (DeepSixError, ValueError, TypeError, IndexError, KeyError, AttributeError) as error:
        raise SamplingError(f"the view is inconsistent: {error}") from error
    if view(state, view_.seat) != view_:
        raise SamplingError("the view is inconsistent: no state reproduces it")
    return state


def _pick(rng: random.Random, pool: Row, size: int) -> list[Card]:
    """``size`` random copies from the multiset ``pool`` (a count row), in random order."""
    cards = cards_of(pool)
    if size > len(cards):
        raise SamplingError("the view is inconsistent: too few cards for the passes")
    return rng.sample(cards, size)


_FLIGHT: Final = 4
"""The holder index of a pass in flight that this seat cannot see."""


@attrs.frozen
class _Split:
    """Some ``pool`` copies are in the ``primary`` holder's hand, except for those (at most
    ``budget``) that went to the ``secondary`` holder: a pass the view does not show."""

    pool: Row
    primary: int
    secondary: int
    budget: int


@attrs.frozen
class _Bounds:
    """Per holder and card, how many copies it must hold (``lo``) and may hold (``hi``)."""

    index: dict[int, int]
    lo: list[Row]
    hi: list[Row]
    played: list[Row]

    @classmethod
    def for_holders(cls, holders: Sequence[int], played: list[Row]) -> _Bounds:
        index = {holder: i for i, holder in enumerate(holders)}
        return cls(index, [[0] * 28 for _ in holders], [[2] * 28 for _ in holders], played)

    def forbid(self, seat: int, cards: Iterable[Card]) -> None:
        """``seat`` holds none of ``cards``."""
        if seat in self.index:
            for card in cards:
                self.hi[self.index[seat]][card] = 0

    def at_least(self, seat: int, row: Sequence[int]) -> None:
        """``seat`` holds at least ``row`` now."""
        if seat in self.index:
            lo = self.lo[self.index[seat]]
            for i in range(28):
                lo[i] = max(lo[i], row[i])

    def require(self, seat: int, row: Sequence[int]) -> None:
        """``seat`` held ``row`` this hand; what it has not played of it, it still holds."""
        if seat in self.index:
            lo = self.lo[self.index[seat]]
            for i in range(28):
                lo[i] = max(lo[i], row[i] - self.played[seat][i])

    def with_split(self, split: _Split, n: Row) -> list[Row] | None:
        """The lower bounds once ``n`` of the split's pool is known to be with the secondary
        holder (``None`` if that cannot be)."""
        lo = [row[:] for row in self.lo]
        primary, secondary = split.primary, split.secondary
        for i in range(28):
            need_b = split.pool[i] - n[i] - self.played[primary][i]
            lo[self.index[primary]][i] = max(lo[self.index[primary]][i], need_b)
            need_s = n[i] - (self.played[secondary][i] if secondary < 4 else 0)
            if secondary in self.index:
                h = self.index[secondary]
                lo[h][i] = max(lo[h][i], need_s)
            elif need_s > 0:
                return None
        return lo


class _Sampler:
    """One sampling run: the constraints a view puts on the unseen cards, then a solution."""

    def __init__(self, view_: PlayerView, rng: random.Random) -> None:
        self.view = view_
        self.rng = rng
        self.rules = view_.rules
        self.phase = view_.phase
        self.order = PHASE_ORDER[view_.phase]
        self.me = view_.seat
        self.bidder = view_.bidder
        self.k = view_.rules.pass_size
        self.knowledge = SeatKnowledge.of(view_)
        self.played = [list(row) for row in self.knowledge.played]
        if self.bidder is None or self.me is None:
            self.role = "other"
        elif self.me == self.bidder:
            self.role = "bidder"
        elif self.me == self.bidder.partner:
            self.role = "partner"
        else:
            self.role = "other"

    def at_least(self, phase: Phase) -> bool:
        return self.order >= PHASE_ORDER[phase]

    # -- what is known -----------------------------------------------------------

    def known_passes(self) -> tuple[tuple[Card, ...] | None, tuple[Card, ...] | None]:
        """The partner's and the bidder's passes where this seat knows them (else ``None``)."""
        v = self.view
        pp: tuple[Card, ...] | None = None
        bp: tuple[Card, ...] | None = None
        if self.role == "partner":
            pp = v.passed
            if self.at_least(Phase.MELDING):
                bp = v.received
        elif self.role == "bidder":
            bp = v.passed
            if self.at_least(Phase.BIDDER_MELD):
                pp = v.received
        if not self.at_least(Phase.PARTNER_PASS):
            pp = bp = ()
        elif not self.at_least(Phase.BIDDER_PASS):
            bp = ()
        return pp, bp

    # -- the sample ---------------------------------------------------------------

    def sample(self) -> GameState:
        v = self.view
        rules = self.rules
        if self.phase is Phase.DEAL:
            return hand_start(rules, v.dealer, v.scores, v.completed_hands)
        if self.bidder is None and self.at_least(Phase.SUNK_SUIT):
            raise SamplingError("the view is inconsistent: the auction has no winner")
        pp_known, bp_known = self.known_passes()
        current = self.solve(pp_known, bp_known)
        pp, bp = self.hidden_passes(current, pp_known, bp_known)
        setup = HandSetup(v.bids, v.bidder, v.bid, v.sunk_suit, v.invitation, pp, bp, v.melds)
        dealt = dealt_counts(
            self.phase,
            current=current,
            played=self.played,
            bidder=v.bidder,
            partner_pass=pp,
            bidder_pass=bp,
        )
        if any(min(row) < 0 or sum(row) != HAND_SIZE for row in dealt):
            raise SamplingError("the view is inconsistent: the passes do not fit the hands")
        if self.phase is Phase.GAME_OVER:
            records = v.completed_hands
            if not records:
                raise SamplingError("the view is inconsistent: a finished game has no records")
            before = records[-2].totals if len(records) > 1 else (0, 0)
            state = hand_start(rules, v.dealer, before, records[:-1])
        else:
            state = hand_start(rules, v.dealer, v.scores, v.completed_hands)
        steps = replay_hand(state, dealt, setup, v)
        for step in steps:
            state = step.after
        return state

    def solve(
        self, pp_known: tuple[Card, ...] | None, bp_known: tuple[Card, ...] | None
    ) -> list[Row]:
        """Each seat's current cards (count rows), plus the hidden in-flight passes.

        The unseen copies go to their *holders* -- the other seats, and a
        pass in flight this seat cannot see -- within per-card bounds (what
        the holder must hold, what it cannot); the in-flight passes unknown
        to this seat are stored in ``self.in_flight`` (a count row) for
        :meth:`hidden_passes`.
        """
        v = self.view
        knowledge = self.knowledge
        own = list(knowledge.hand)
        holders, caps = self.holders(pp_known, bp_known)
        unknown = self.unknown_copies(own, pp_known, bp_known)
        bounds = _Bounds.for_holders(holders, self.played)
        for seat, banned in enumerate(knowledge.absent(v.sunk_suit, self.rules.play_over)):
            bounds.forbid(seat, banned)
        for seat in _SEATS:
            bounds.at_least(seat, knowledge.melded[seat])
        split = self.pass_constraints(bounds, pp_known, bp_known, in_flight=_FLIGHT in holders)
        solution = self.search(split, bounds, caps, unknown)
        current = [own[:] if s == self.me else [0] * 28 for s in range(4)]
        self.in_flight = [0] * 28
        for h, holder in enumerate(holders):
            if holder == _FLIGHT:
                self.in_flight = solution[h]
            else:
                current[holder] = solution[h]
        return current

    def holders(
        self, pp_known: tuple[Card, ...] | None, bp_known: tuple[Card, ...] | None
    ) -> tuple[list[int], list[int]]:
        """Who may hold unseen copies (seats, and :data:`_FLIGHT`), and how many each holds."""
        v = self.view
        holders = [s for s in range(4) if s != self.me]
        caps = [v.hand_sizes[s] for s in holders]
        if self.phase is Phase.PARTNER_PASS and pp_known is None:
            holders.append(_FLIGHT)
            caps.append(v.pass_counts[0])
        elif self.phase is Phase.BIDDER_PASS and bp_known is None:
            holders.append(_FLIGHT)
            caps.append(v.pass_counts[1])
        return holders, caps

    def unknown_copies(
        self, own: Row, pp_known: tuple[Card, ...] | None, bp_known: tuple[Card, ...] | None
    ) -> Row:
        """Copies of each card this seat has not seen: not in its hand, not played, and not in
        a pass in flight that it made itself."""
        unknown = [2 - own[i] - sum(self.played[s][i] for s in range(4)) for i in range(28)]
        located: tuple[Card, ...] = ()
        if self.phase is Phase.PARTNER_PASS and pp_known is not None:
            located = pp_known
        elif self.phase is Phase.BIDDER_PASS and bp_known is not None:
            located = bp_known
        for card in located:
            unknown[card] -= 1
        if min(unknown) < 0:
            raise SamplingError("the view is inconsistent: a card is seen more than twice")
        return unknown

    def pass_constraints(
        self,
        bounds: _Bounds,
        pp_known: tuple[Card, ...] | None,
        bp_known: tuple[Card, ...] | None,
        *,
        in_flight: bool,
    ) -> _Split | None:
        """What the invitation and the passes say about the bidder's and her partner's hands.

        Most cases are plain lower bounds.  Where the view leaves open which
        of some cards the bidder passed back, the answer is a :class:`_Split`
        for :meth:`search` to choose.
        """
        v = self.view
        bidder = self.bidder
        if bidder is None or not self.at_least(Phase.INVITATION):
            return None
        b, p = int(bidder), int(bidder.partner)
        shown = counts_of(v.invitation)
        passed = counts_of(pp_known or ())
        back = counts_of(bp_known or ())
        flight = _FLIGHT if in_flight else -1
        if self.order <= PHASE_ORDER[Phase.PARTNER_PASS]:
            bounds.require(b, shown)
        elif self.phase is Phase.BIDDER_MELD:
            extra = passed if self.role == "partner" else [0] * 28
            bounds.require(b, [shown[i] + extra[i] for i in range(28)])
        elif self.phase is Phase.BIDDER_PASS:
            if self.role == "partner" and pp_known is not None:
                pool = [shown[i] + passed[i] for i in range(28)]
                return _Split(pool, b, flight, v.pass_counts[1])
            if self.role == "other":
                return _Split(shown, b, flight, v.pass_counts[1])
        elif self.role == "bidder" and bp_known is not None:
            bounds.require(p, back)
        elif self.role == "partner" and pp_known is not None and bp_known is not None:
            bounds.require(b, [shown[i] + passed[i] - back[i] for i in range(28)])
        elif self.role == "other":
            return _Split(shown, b, p, self.k)
        return None

    def search(
        self, split: _Split | None, bounds: _Bounds, caps: list[int], unknown: Row
    ) -> list[Row]:
        """A random assignment of the unseen copies within the bounds (trying the split's options
        in turn); ``self.split_n`` records the option taken."""
        self.split_n = [0] * 28
        for n in self.splits(split, bounds.index, unknown, bounds.hi):
            lo = bounds.with_split(split, n) if split is not None else bounds.lo
            solution = (
                None if lo is None else random_allocation(caps, unknown, lo, bounds.hi, self.rng)
            )
            if solution is not None:
                self.split_n = n
                return solution
        raise SamplingError(
            "the view is inconsistent: no deal of the unseen cards fits everything it shows"
        )

    def splits(
        self,
        split: _Split | None,
        index: dict[int, int],
        unknown: Row,
        hi: list[Row],
    ) -> Iterator[Row]:
        """Candidate multisets N of pool copies that sit with the secondary holder.

        The forced minimum comes first, then larger ones (smallest first, in
        random order within a size): the bidder keeps her cards unless the
        view proves otherwise.
        """
        if split is None:
            yield [0] * 28
            return
        pool, primary, budget = split.pool, split.primary, split.budget
        h = index[primary]
        minimum = [
            max(0, pool[i] - self.played[primary][i] - min(hi[h][i], unknown[i])) for i in range(28)
        ]
        room = [pool[i] - minimum[i] for i in range(28)]
        spare = budget - sum(minimum)
        if spare < 0:
            return
        extras = [i for i in range(28) for _ in range(room[i])]
        tried = 0
        for size in range(spare + 1):
            options = sorted(set(itertools.combinations(extras, size)))
            self.rng.shuffle(options)
            for option in options:
                n = minimum[:]
                for i in option:
                    n[i] += 1
                tried += 1
                if tried > _MAX_SPLITS:
                    return
                yield n

    def hidden_passes(
        self,
        current: list[Row],
        pp_known: tuple[Card, ...] | None,
        bp_known: tuple[Card, ...] | None,
    ) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        """The cards passed each way, choosing the ones this seat cannot know."""
        v = self.view
        rng = self.rng
        bidder = self.bidder
        shown = counts_of(v.invitation)
        if self.phase is Phase.PARTNER_PASS:
            pp = (
                pp_known
                if pp_known is not None
                else tuple(_pick(rng, self.in_flight, v.pass_counts[0]))
            )
            return pp, ()
        if not self.at_least(Phase.BIDDER_MELD) or bidder is None:
            return (), ()
        b, p = int(bidder), int(bidder.partner)
        # The bidder's passes back: known, in flight, or chosen (containing the split N).
        if bp_known is not None:
            bp = bp_known
        elif self.phase is Phase.BIDDER_PASS:
            bp = tuple(_pick(rng, self.in_flight, v.pass_counts[1]))
        elif not self.at_least(Phase.MELDING):
            bp = ()
        else:
            held = [current[p][i] + self.played[p][i] - self.split_n[i] for i in range(28)]
            bp = tuple(cards_of(self.split_n) + _pick(rng, held, self.k - sum(self.split_n)))
            bp = tuple(rng.sample(bp, len(bp)))
        if pp_known is not None:
            return pp_known, bp
        # The partner's passes, unseen by this seat: any of the bidder's 17 but the shown cards.
        back = counts_of(bp)
        seventeen = [current[b][i] + self.played[b][i] + back[i] for i in range(28)]
        if self.phase is Phase.BIDDER_PASS:
            seventeen = [current[b][i] + back[i] for i in range(28)]
        pool = [seventeen[i] - shown[i] for i in range(28)]
        if min(pool) < 0:
            raise SamplingError("the view is inconsistent: the invitation left the bidder's hand")
        return tuple(_pick(rng, pool, self.k)), bp
