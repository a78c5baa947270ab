"""SearchBot: a bot that samples the cards it cannot see and searches the samples, in every phase.

The recipe is *perfect-information Monte Carlo* (PIMC), as in strong bridge
and Skat programs: deal the unseen cards at random, consistently with
everything the seat knows (:func:`deepsix.sample_state`), look at each
sampled deal as if all cards were face up, and take the option whose
average outcome over the samples is best.  Every phase can be searched that way
(the named budgets, :meth:`SearchBot.quick` and :meth:`SearchBot.deep`, search the
card play and leave the other phases to the heuristic: a few play-outs a decision
cannot tell calls or passes apart):

* **Play, endgame** (at most :attr:`SearchBot.solve_tricks` tricks left):
  every sampled deal is solved exactly for every legal card
  (:func:`~deepsix.search.solver.move_values`, double dummy).  A deal that
  needs more than :attr:`SearchBot.node_limit` nodes does not vote.
* **Play, earlier** (:attr:`SearchBot.rollout_worlds` deals): each
  candidate card is followed, in each sampled deal, by a *play-out*
  (:func:`deepsix.search.playout.playout_cost`): the play-out policy plays
  all four seats until :attr:`SearchBot.playout_solve` tricks are left, and
  the rest is solved exactly.
* **Auction** (:attr:`SearchBot.auction_rollouts` deals): passing and the
  highest bid open to the seat are each played out -- the rest of the
  auction, the exchange, the melds and the play -- in the same sampled deals.
* **Sunk suit** (:attr:`SearchBot.sunk_rollouts` deals): each of the four
  suits is played out in the same sampled deals.
* **Invitation and both passes** (:attr:`SearchBot.exchange_rollouts`
  deals): the candidates worth considering are played out -- for a pass,
  the cards the heuristic would spare first; for the invitation, the heuristic's
  next card to show against showing no more.
* **Melding**: the best declaration (:func:`deepsix.best_meld`, declared one
  meld at a time by :func:`deepsix.play.melding.next_declaration`) is the only
  candidate worth considering.  Meld only lowers a team's score, melded
  cards stay in the hand and are played as usual, and which cards the
  bidder keeps unmelded is decided by her pass, which is searched; the one
  thing a smaller declaration could buy -- hiding cards from the opponents
  -- a double-dummy play-out cannot value.

The candidates compared in one decision are taken in the same sampled deals
(common random numbers), and play-outs are deterministic, so two candidates
differ only by what they do.  Ties go to the candidate the heuristic
itself would take.  What "best" means: the outcome is scored as the hand
would be scored -- each team's card points plus meld against the contract
(:func:`deepsix.score_hand`) -- and the bot minimises its partnership's
recorded score minus the opponents'.

A budget of 0 deals for a phase means that phase is not searched: the bot
then takes the heuristic's action there (an explicit fallback, as is the
heuristic's card when no sampled deal of an endgame could be solved).

**What the heuristic still does**, exactly: its choice is the first
candidate of every comparison and the one kept without clear evidence
against it; it is the fallback above; its card costs and spare order pick
the other candidates of the early card play and the passes; and it plays
the play-outs unless :attr:`SearchBot.policy` names another bot.  The other
candidates (passing and the highest bid open, the four suits, showing no
more) are the search's own.  In the card play it can
be left out altogether: :attr:`SearchBot.card_playouts` ``"perfect"`` plays
the play-outs by the solver's own perfect-information choice
(:func:`deepsix.search.playout.perfect_playout_cost`) and
:attr:`SearchBot.card_candidates` ``"all"`` compares every distinct legal
card, none privileged; with both, only the explicit fallback remains there.

**Constrained dealing** (:attr:`SearchBot.world_pool` > 1): every sampled
deal is the one kept of several, weighted by how well the other seats'
calls and sunk suit fit the hands they hold there
(:func:`deepsix.search.worlds.sample_worlds`).

Budgets are counts (deals, candidates, search nodes), never seconds, so a
bot given the same random stream makes the same decisions: seeded games
replay exactly.  :meth:`SearchBot.quick` (live tables) and
:meth:`SearchBot.deep` (analysis and evaluation) are the named budgets;
``docs/search-bot.md`` has their measured times and strength.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any, Literal

import attrs

from deepsix.actions import Action, Done, NameSunkSuit, PassCard, PlayCard
from deepsix.cards import HAND_SIZE, Card, Seat, Suit
from deepsix.engine import apply
from deepsix.play.bots import Bot, acting_seat
from deepsix.play.cardplay import card_costs
from deepsix.play.heuristic import HeuristicBot
from deepsix.play.melding import next_declaration
from deepsix.search._choices import auction_candidates as _auction_candidates
from deepsix.search._choices import cheapest as _cheapest
from deepsix.search._choices import distinct as _distinct
from deepsix.search._choices import distinct_cards as _distinct_cards
from deepsix.search._choices import lowest as _lowest
from deepsix.search._choices import significant as _significant
from deepsix.search._score import for_team
from deepsix.search.playout import perfect_playout_cost, playout_cost
from deepsix.search.solver import (
    KernelChoice,
    SearchBudgetError,
    SearchError,
    check_kernel,
    move_values,
)
from deepsix.search.worlds import CallModel, sample_worlds
from deepsix.state import GameState, Phase
from deepsix.views import PlayerView

__all__ = ["SearchBot"]


def _positive(instance: SearchBot, attribute: attrs.Attribute[int], value: int) -> None:
    if type(value) is not int or value < 1:
        raise SearchError(f"SearchBot.{attribute.name} must be a positive int, not {value!r}")


def _non_negative(instance: SearchBot, attribute: attrs.Attribute[int], value: int) -> None:
    if type(value) is not int or value < 0:
        raise SearchError(f"SearchBot.{attribute.name} must be a non-negative int, not {value!r}")


def _tricks(instance: SearchBot, attribute: attrs.Attribute[int], value: int) -> None:
    if type(value) is not int or not 0 <= value <= 14:
        raise SearchError(f"SearchBot.{attribute.name} must be an int from 0 to 14, not {value!r}")


def _non_negative_float(
    instance: SearchBot, attribute: attrs.Attribute[float], value: float
) -> None:
    if type(value) not in (int, float) or not 0 <= value < math.inf:
        raise SearchError(f"SearchBot.{attribute.name} must be a number from 0 up, not {value!r}")


def _optional_tricks(
    instance: SearchBot, attribute: attrs.Attribute[int | None], value: int | None
) -> None:
    if value is not None and (type(value) is not int or not 0 <= value <= 14):
        raise SearchError(
            f"SearchBot.{attribute.name} must be None or an int from 0 to 14, not {value!r}"
        )


def _optional_number(
    instance: SearchBot, attribute: attrs.Attribute[float | None], value: float | None
) -> None:
    if value is not None and (type(value) not in (int, float) or not 0 <= value < math.inf):
        raise SearchError(
            f"SearchBot.{attribute.name} must be None or a number from 0 up, not {value!r}"
        )


def _playout_policy(
    instance: SearchBot, attribute: attrs.Attribute[Bot | None], value: object
) -> None:
    if value is not None and not isinstance(value, Bot):
        raise SearchError(f"SearchBot.policy must be a Bot or None, not {value!r}")


def _one_of(*choices: str) -> Callable[[SearchBot, attrs.Attribute[Any], object], None]:
    """A validator: the value must be one of ``choices`` (a :class:`SearchError` if not)."""

    def check(instance: SearchBot, attribute: attrs.Attribute[Any], value: object) -> None:
        if value not in choices or type(value) is not str:
            raise SearchError(
                f"SearchBot.{attribute.name} must be one of {', '.join(map(repr, choices))},"
                f" not {value!r}"
            )

    return check


def _call_model(instance: SearchBot, attribute: attrs.Attribute[CallModel], value: object) -> None:
    if not isinstance(value, CallModel):
        raise SearchError(f"SearchBot.call_model must be a CallModel, not {value!r}")


def _policy(instance: SearchBot, attribute: attrs.Attribute[HeuristicBot], value: object) -> None:
    if not isinstance(value, HeuristicBot):
        raise SearchError(f"SearchBot.heuristic must be a HeuristicBot, not {value!r}")


def _kernel(instance: SearchBot, attribute: attrs.Attribute[KernelChoice], value: object) -> None:
    check_kernel(value, "SearchBot.kernel")


@attrs.frozen
class SearchBot:
    """A perfect-information Monte Carlo player for every phase (see the module documentation).

    The fields are its budgets; every one is a count, so the bot is
    deterministic given its random stream.  ``SearchBot()`` is
    :meth:`quick`.

    >>> import random
    >>> from deepsix import play_game
    >>> tiny = SearchBot(worlds=2, solve_tricks=2, rollout_worlds=1, auction_rollouts=1,
    ...                  sunk_rollouts=1, exchange_rollouts=1, candidates=2)
    >>> final = play_game([tiny, "heuristic", tiny, "heuristic"], seed=1, max_hands=1)
    >>> len(final.completed_hands)
    1
    """

    worlds: int = attrs.field(default=10, validator=_positive)
    """Deals sampled per play decision in the endgame (each solved double dummy)."""
    solve_tricks: int = attrs.field(default=7, validator=_tricks)
    """Solve exactly when at most this many tricks are left (the current one included)."""
    node_limit: int = attrs.field(default=200_000, validator=_positive)
    """Search nodes allowed per sampled deal in the endgame; a deal that needs more does
    not vote (if none is solved, the heuristic's card is played)."""
    rollout_worlds: int = attrs.field(default=8, validator=_non_negative)
    """Deals sampled per play decision before the endgame, each candidate card played
    out in each; 0 plays the heuristic's card there."""
    auction_rollouts: int = attrs.field(default=0, validator=_non_negative)
    """Deals played out per auction decision (passing and the highest bid open); 0 bids
    as the policy does."""
    sunk_rollouts: int = attrs.field(default=0, validator=_non_negative)
    """Deals played out per suit when choosing the sunk suit; 0 sinks as the policy does."""
    exchange_rollouts: int = attrs.field(default=0, validator=_non_negative)
    """Deals played out per invitation or pass decision; 0 shows and passes as the policy
    does."""
    candidates: int = attrs.field(default=2, validator=_positive)
    """How many cards are compared before the endgame and in a pass: the heuristic's own
    choice and the next ones in its order of preference."""
    playout_solve: int = attrs.field(default=5, validator=_tricks)
    """A play-out is solved exactly from this many tricks left (0: the policy plays it to
    the end)."""
    confidence: float = attrs.field(default=1.0, validator=_non_negative_float)
    """How sure a comparison must be to leave the heuristic's own choice: another candidate
    is taken only if its mean advantage over the heuristic's choice, deal by deal, exceeds
    this many standard errors (0: the lowest mean wins)."""
    playout_node_limit: int = attrs.field(default=20_000, validator=_positive)
    """Search nodes allowed to a play-out's endgame (beyond them the policy plays on)."""
    heuristic: HeuristicBot = attrs.field(factory=HeuristicBot, validator=_policy)
    """The heuristic: its choice is the first candidate of every comparison (kept unless
    another beats it clearly) and the explicit fallback where a phase's budget is 0; its
    card costs (:func:`~deepsix.play.cardplay.card_costs`) and spare order
    (:meth:`~deepsix.HeuristicBot.pass_order`) pick the other candidates of the card play
    and the passes.  It is also the play-out policy unless ``policy`` names another."""
    world_pool: int = attrs.field(default=1, validator=_positive)
    """Constrained dealing: every sampled deal is the one kept of this many, drawn with
    probability proportional to how well the other seats' calls and sunk suit fit the
    hands they were dealt there (:func:`deepsix.search.worlds.sample_worlds`); 1 deals
    uniformly among the deals the view allows."""
    call_model: CallModel = attrs.field(factory=CallModel, validator=_call_model)
    """The model of the other seats' calls that weighs the deals when ``world_pool`` > 1."""
    setup_solve: int | None = attrs.field(default=None, validator=_optional_tricks)
    """``playout_solve`` for the play-outs of the auction, the sunk suit, the invitation
    and the passes (``None``: ``playout_solve``; 0: the policy plays them to the end, the
    cheapest play-out, so that many more deals fit the budget)."""
    setup_confidence: float | None = attrs.field(default=None, validator=_optional_number)
    """``confidence`` for the auction, the sunk suit, the invitation and the passes
    (``None``: ``confidence``), whose play-outs are noisier than the card play's."""
    policy: Bot | None = attrs.field(default=None, validator=_playout_policy)
    """The play-out policy, any :class:`~deepsix.Bot`: it decides for all four seats inside
    every play-out (``None``: ``heuristic``).  Play-outs must be deterministic for the
    candidates to be compared on equal terms: each play-out hands the policy a fresh
    ``random.Random(0)``."""
    card_playouts: Literal["policy", "perfect"] = attrs.field(
        default="policy", validator=_one_of("policy", "perfect")
    )
    """How the card play's play-outs before the endgame are played: ``"policy"`` by
    :attr:`playout_policy`; ``"perfect"`` by the search itself, every seat playing, with
    all the cards of the sampled deal in view, the card the solver would try first
    (:func:`deepsix.search.playout.perfect_playout_cost`), no bot involved."""
    card_candidates: Literal["heuristic", "all"] = attrs.field(
        default="heuristic", validator=_one_of("heuristic", "all")
    )
    """Which cards are compared before the endgame: ``"heuristic"``, the heuristic's
    choice and the next ones in its order of preference (``candidates`` of them), the
    heuristic's kept unless another beats it by ``confidence`` standard errors;
    ``"all"``, every distinct legal card, none privileged: the lowest mean cost wins
    (``candidates`` and ``confidence`` do not apply)."""

    kernel: KernelChoice = attrs.field(default="python", validator=_kernel)
    """Which solver kernel solves the endgame and the play-outs' last tricks: ``"python"``
    (the presets' node budgets and golden digests are counted in its nodes), ``"native"``
    (the C++ kernel, ``deepsix-native``: the same exact values many times faster; it counts
    its nodes alike but not identically, so a choice can differ where a budget runs out) or
    ``"auto"`` (the native kernel when it is installed)."""

    @property
    def playout_policy(self) -> Bot:
        """The bot that plays the play-outs: ``policy``, or ``heuristic`` if it is ``None``."""
        return self.heuristic if self.policy is None else self.policy

    @classmethod
    def quick(cls) -> SearchBot:
        """The budget for live tables, a decision about 0.1 s or less (median) on the
        compiled build: the card play searched from the first trick (play-outs over 8
        deals, the endgame solved as :meth:`endgame` solves it); the auction, the sunk
        suit, the invitation and the passes are the heuristic's, since a few play-outs
        cannot tell their options apart (``docs/search-bot.md``).  Known by name as
        ``"search-quick"`` and as ``"search"`` (it is ``SearchBot()``).

        >>> SearchBot.quick() == SearchBot()
        True
        """
        return cls()

    @classmethod
    def deep(cls) -> SearchBot:
        """The budget for analysis and evaluation, a decision about a second or less (median)
        on the compiled build: the card play searched from the first trick with twice the
        deals of :meth:`quick` and three candidates, the endgame on 16 deals; like
        :meth:`quick` it leaves the auction, the sunk suit, the invitation and the passes to
        the heuristic (searching them at 6 to 12 play-outs a decision lost points against
        :meth:`endgame`, ``docs/search-bot.md``).  Known by name as ``"search-deep"``.

        >>> SearchBot.deep().solve_tricks
        7
        """
        return cls(
            worlds=16,
            solve_tricks=7,
            node_limit=200_000,
            rollout_worlds=16,
            auction_rollouts=0,
            sunk_rollouts=0,
            exchange_rollouts=0,
            candidates=3,
            playout_solve=6,
            playout_node_limit=50_000,
        )

    @classmethod
    def endgame(cls) -> SearchBot:
        """The search bot before issue 26: only the last seven tricks searched, the rest
        the heuristic's.  Known by name as ``"search-endgame"``; the ladder's rung
        between the heuristic and the whole-hand budgets (``docs/search-bot.md``).

        >>> SearchBot.endgame().rollout_worlds
        0
        """
        return cls(
            worlds=10,
            solve_tricks=7,
            node_limit=200_000,
            rollout_worlds=0,
            auction_rollouts=0,
            sunk_rollouts=0,
            exchange_rollouts=0,
        )

    def choose(self, view_: PlayerView, rng: random.Random) -> Action:
        """One of ``view_.legal_actions``, chosen by sampling and search."""
        seat = acting_seat(view_)
        legal = view_.legal_actions
        if len(legal) == 1:
            return legal[0]
        phase = view_.phase
        if phase is Phase.PLAY:
            return PlayCard(seat, self._play(view_, seat, rng))
        if phase in (Phase.BIDDER_MELD, Phase.MELDING):
            return next_declaration(view_)  # the one candidate worth considering (see above)
        fallback = self.heuristic.choose(view_, rng)
        candidates: list[Action] = [fallback]
        budget = 0
        if phase is Phase.BIDDING:
            budget = self.auction_rollouts
            candidates = _auction_candidates(view_, fallback)
        elif phase is Phase.SUNK_SUIT:
            budget = self.sunk_rollouts
            candidates = [fallback] + [NameSunkSuit(seat, suit) for suit in Suit]
        elif phase is Phase.INVITATION:
            budget = self.exchange_rollouts
            candidates = [fallback, Done(seat)]
        elif phase in (Phase.PARTNER_PASS, Phase.BIDDER_PASS):
            budget = self.exchange_rollouts
            order = self.heuristic.pass_order(view_)
            candidates = [fallback] + [PassCard(seat, card) for card in order]
            candidates = _distinct(candidates)[: self.candidates]
        candidates = _distinct(candidates)
        if not budget or len(candidates) < 2:
            return fallback
        return candidates[self._compare(view_, seat, candidates, budget, rng)]

    # -- comparing candidates by play-outs --------------------------------------------

    def _compare(  # noqa: PLR0913  # the decision, spelled out
        self,
        view_: PlayerView,
        seat: Seat,
        candidates: Sequence[Action],
        deals: int,
        rng: random.Random,
        *,
        privileged: bool = True,
    ) -> int:
        """The index of the candidate with the lowest mean play-out cost over ``deals``
        sampled deals (ties: the earliest).  If ``privileged``, candidate 0 (the
        heuristic's own choice) is kept unless another beats it by ``confidence``
        standard errors."""
        solve, confidence = self.playout_solve, self.confidence
        perfect = False
        if view_.phase is Phase.PLAY:
            perfect = self.card_playouts == "perfect"
        else:
            if self.setup_solve is not None:
                solve = self.setup_solve
            if self.setup_confidence is not None:
                confidence = self.setup_confidence
        if not privileged:
            confidence = 0.0
        costs: list[list[float]] = [[] for _ in candidates]
        for world in self._worlds(view_, deals, rng):
            for index, action in enumerate(candidates):
                after = apply(world, action)
                if perfect:
                    cost = perfect_playout_cost(
                        after, seat.team, solve_tricks=solve, node_limit=self.playout_node_limit
                    )
                else:
                    cost = playout_cost(
                        after,
                        seat.team,
                        self.playout_policy,
                        solve_tricks=solve,
                        node_limit=self.playout_node_limit,
                        kernel=self.kernel,
                    )
                costs[index].append(cost)
        return _significant(costs, confidence)

    def _worlds(self, view_: PlayerView, deals: int, rng: random.Random) -> list[GameState]:
        """``deals`` sampled deals, constrained by the auction when ``world_pool`` > 1."""
        return sample_worlds(view_, rng, deals, pool=self.world_pool, model=self.call_model)

    # -- play ---------------------------------------------------------------------

    def _play(self, view_: PlayerView, seat: Seat, rng: random.Random) -> Card:
        """The card with the best total over the sampled deals (see the module docs)."""
        tricks_left = HAND_SIZE - len(view_.tricks)
        if tricks_left > self.solve_tricks:
            if not self.rollout_worlds:
                return _cheapest(card_costs(view_))
            privileged = self.card_candidates == "heuristic"
            if privileged:
                costs = card_costs(view_)
                ranked = sorted(range(len(costs)), key=lambda index: (costs[index][0], index))
                cards = [costs[index][1] for index in ranked[: self.candidates]]
            else:
                cards = _distinct_cards(view_)
            if len(cards) == 1:
                return cards[0]
            actions = [PlayCard(seat, card) for card in cards]
            index = self._compare(
                view_, seat, actions, self.rollout_worlds, rng, privileged=privileged
            )
            return cards[index]
        cards = [action.card for action in view_.legal_actions if isinstance(action, PlayCard)]
        totals = dict.fromkeys(cards, 0.0)
        solved = 0
        for world in self._worlds(view_, self.worlds, rng):
            try:
                values = move_values(
                    world, node_limit=self.node_limit, kernel=self.kernel, objective="score"
                )
            except SearchBudgetError:
                continue  # too hard to solve within budget: this deal does not vote
            solved += 1
            for value in values:
                assert value.score is not None  # the score objective scores every card
                totals[value.card] += for_team(value.score, seat.team)
        if not solved:
            return _cheapest(card_costs(view_))
        return cards[_lowest([totals[card] for card in cards])]
