"""Rebuilding and replaying: states from actions, and a hand from where its cards are now.

Several parts of the library need to run the engine over actions they
did not choose: reading a game record, printing a transcript, checking a
state from outside (:func:`deepsix.validate`), building a state that fits
a player's view (:func:`deepsix.sample_state`).  They all do it here:

* :func:`walk` is the one way to walk a game: it applies actions one by
  one -- given in advance (a record, a history) or chosen as the game goes
  (the play loop's seats) -- and yields each step ``(before, action,
  after)``; :func:`visit` shows each step to *visitors* (callables taking
  ``(before, action, after)``, like the play loop's ``on_action``, a
  :class:`~deepsix.io.transcript.TranscriptWriter` or
  :func:`deepsix.events.events`) and returns the state it ends at;
  :func:`history_steps` walks the game that led to a state;
* :func:`history_start` finds the state a state's history replays from
  (a fresh game, or the start of a later hand for trimmed histories);
* :func:`dealt_counts` recovers the cards each seat was dealt from the
  cards it holds now, the cards it played and the passes;
* :func:`hand_script` lists the actions of the current hand, which the
  rules fix completely once the deal, the auction, the passes, the melds
  and the tricks are known; :func:`replay_hand` applies them.

Every action goes through :func:`deepsix.apply`: nothing here knows a rule.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Final, NamedTuple, Protocol

import attrs

from deepsix.actions import (
    Action,
    Deal,
    DeclareMeld,
    Done,
    NameSunkSuit,
    PassCard,
    PlayCard,
    ShowCard,
)
from deepsix.cards import Card, Seat
from deepsix.engine import apply, new_game
from deepsix.errors import InvariantError
from deepsix.hands import cards_of, counts_of
from deepsix.rules import Rules
from deepsix.state import GameState, HandRecord, HandSetup, Phase
from deepsix.tricks import Trick

__all__ = [
    "PHASE_ORDER",
    "Chooser",
    "Position",
    "Step",
    "Visitor",
    "dealt_counts",
    "first_dealer",
    "hand_script",
    "hand_start",
    "history_start",
    "history_steps",
    "replay_hand",
    "visit",
    "walk",
]

PHASE_ORDER: Final[dict[Phase, int]] = {phase: i for i, phase in enumerate(Phase)}
"""Phases in the order a hand goes through them (``GAME_OVER`` last)."""

_SEATS: Final = tuple(Seat)


class Step(NamedTuple):
    """One step of a game: the state before, the action, the state after."""

    before: GameState
    action: Action
    after: GameState


Chooser = Callable[[GameState], "Action | None"]
"""Where a game being played gets its actions: ``chooser(state)`` is the action to apply to
``state`` (a deal, a seat's choice), or ``None`` to stop the walk there."""

Visitor = Callable[[GameState, Action, GameState], None]
"""What watches a walk: ``visitor(before, action, after)`` is called with every step."""


def walk(start: GameState, actions: Iterable[Action] | Chooser) -> Iterator[Step]:
    """Apply actions from ``start``, yielding every step: the one way to walk a game.

    ``actions`` are the actions themselves (a record's, a history, a hand's
    script) or a :data:`Chooser`, asked for each action with the state it
    will be applied to (the play loop's seats).  Every action goes through
    :func:`deepsix.apply`: an illegal one raises
    :class:`~deepsix.IllegalActionError` when it is reached, after the steps
    before it have been yielded.

    >>> from deepsix import Pass, Seat, new_game, shuffled_deal
    >>> steps = list(walk(new_game(), [shuffled_deal(1), Pass(Seat.EAST)]))
    >>> [type(step.action).__name__ for step in steps], steps[1].before is steps[0].after
    (['Deal', 'Pass'], True)
    """
    state = start
    if callable(actions):
        while (chosen := actions(state)) is not None:
            following = apply(state, chosen)
            yield Step(state, chosen, following)
            state = following
        return
    for action in actions:  # the same loop, without a call per step for given actions
        following = apply(state, action)
        yield Step(state, action, following)
        state = following


def visit(start: GameState, actions: Iterable[Action] | Chooser, *visitors: Visitor) -> GameState:
    """:func:`walk` from ``start``, showing every step to each visitor in turn; the state the
    walk ends at (``start`` itself when there is no action)."""
    steps = walk(start, actions)
    if not visitors:
        last = deque(steps, maxlen=1)  # run the walk at C speed, keeping the last step
        return last[0].after if last else start
    state = start
    for before, action, after in steps:
        for visitor in visitors:
            visitor(before, action, after)
        state = after
    return state


def history_steps(state: GameState) -> Iterator[Step]:
    """The steps of the game that led to ``state``: a :func:`walk` of ``state.history`` from
    :func:`history_start`."""
    return walk(history_start(state), state.history)


def first_dealer(state: GameState) -> Seat:
    """The dealer of the game's first hand."""
    return state.completed_hands[0].dealer if state.completed_hands else state.dealer


def hand_start(
    rules: Rules, dealer: Seat, scores: tuple[int, int], completed: tuple[HandRecord, ...]
) -> GameState:
    """The state just before a hand's deal, after the ``completed`` hands, with no history."""
    return attrs.evolve(new_game(rules, dealer), scores=scores, completed_hands=completed, log=None)


def history_start(state: GameState) -> GameState:
    """The state ``state.history`` replays from.

    A history is either the whole game (it replays from ``new_game(rules,
    first dealer)``) or, for states made by :func:`deepsix.sample_state`
    or trimmed on purpose, the tail of the game from the deal of some hand
    on (it replays from the start of that hand).  Raises
    :class:`~deepsix.InvariantError` (``history``) when it is neither.
    """
    actions = state.history
    deals = sum(1 for action in actions if type(action) is Deal)
    records = state.completed_hands
    dealt = len(records) + (state.phase not in (Phase.DEAL, Phase.GAME_OVER))
    if deals > dealt:
        raise InvariantError("history", f"the history holds {deals} deals but {dealt} were dealt")
    skipped = dealt - deals
    first = first_dealer(state)
    if skipped == 0:
        return new_game(state.rules, first)
    if not actions or type(actions[0]) is not Deal:
        raise InvariantError(
            "history", "a history that omits the first hands must start with a deal"
        )
    dealer = _SEATS[(first + skipped) % 4]
    return hand_start(state.rules, dealer, records[skipped - 1].totals, records[:skipped])


def dealt_counts(  # noqa: PLR0913  # the named parts of a hand: clearer than a bundle
    phase: Phase,
    *,
    current: Sequence[Sequence[int]],
    played: Sequence[Sequence[int]],
    bidder: Seat | None,
    partner_pass: Sequence[Card],
    bidder_pass: Sequence[Card],
) -> list[list[int]]:
    """The count vectors of the hands each seat was dealt, recovered from where the cards are now.

    ``current`` and ``played`` are per-seat count vectors of the cards held
    and the cards played this hand.  Entries may come out negative when the
    passes do not fit the hands (the caller reports that).
    """
    dealt = [[current[s][i] + played[s][i] for i in range(28)] for s in range(4)]
    order = PHASE_ORDER[phase]
    if bidder is None or order < PHASE_ORDER[Phase.PARTNER_PASS]:
        return dealt
    b, p = int(bidder), int(bidder.partner)
    to_bidder = counts_of(partner_pass)
    for i in range(28):
        dealt[p][i] += to_bidder[i]
        if phase is not Phase.PARTNER_PASS:
            dealt[b][i] -= to_bidder[i]
    if order >= PHASE_ORDER[Phase.BIDDER_PASS]:
        back = counts_of(bidder_pass)
        for i in range(28):
            dealt[b][i] += back[i]
            if phase is not Phase.BIDDER_PASS:
                dealt[p][i] -= back[i]
    return dealt


class Position(Protocol):
    """Where a hand stands: what both a :class:`~deepsix.GameState` and a
    :class:`~deepsix.PlayerView` say about it."""

    @property
    def phase(self) -> Phase: ...
    @property
    def to_act(self) -> Seat | None: ...
    @property
    def tricks(self) -> tuple[Trick, ...]: ...
    @property
    def trick(self) -> tuple[tuple[Seat, Card], ...]: ...


def hand_script(deal: Deal, setup: HandSetup, at: Position) -> list[Action]:  # noqa: PLR0911  # one exit per phase the hand has reached
    """Every action of the current hand, in order, rebuilt from its public record and the deal.

    The order of a hand is fixed by the rules, so the setup and where the
    hand stands (``at``: its phase, the seat to act, the tricks) say
    exactly which actions were taken: the deal, the calls, the sunk suit,
    the cards shown then done, the partner's passes, the bidder's melds then
    done, her passes, each other seat's melds then done (clockwise from the
    bidder's left, up to the seat to act), then the plays.
    """
    phase, to_act, tricks, trick = at.phase, at.to_act, at.tricks, at.trick
    order = PHASE_ORDER[phase]
    script: list[Action] = [deal, *setup.bids]
    bidder = setup.bidder
    if order <= PHASE_ORDER[Phase.SUNK_SUIT] or bidder is None or setup.sunk_suit is None:
        return script
    partner = bidder.partner
    script.append(NameSunkSuit(bidder, setup.sunk_suit))
    script.extend(ShowCard(bidder, card) for card in setup.invitation)
    if order <= PHASE_ORDER[Phase.INVITATION]:
        return script
    script.append(Done(bidder))
    script.extend(PassCard(partner, card) for card in setup.partner_pass)
    if order <= PHASE_ORDER[Phase.PARTNER_PASS]:
        return script
    script.extend(DeclareMeld(bidder, meld) for meld in setup.melds[bidder])
    if order <= PHASE_ORDER[Phase.BIDDER_MELD]:
        return script
    script.append(Done(bidder))
    script.extend(PassCard(bidder, card) for card in setup.bidder_pass)
    if order <= PHASE_ORDER[Phase.BIDDER_PASS]:
        return script
    for step in (1, 2, 3):
        seat = _SEATS[(bidder + step) % 4]
        script.extend(DeclareMeld(seat, meld) for meld in setup.melds[seat])
        if phase is Phase.MELDING and seat == to_act:
            return script
        script.append(Done(seat))
    for done in tricks:
        script.extend(PlayCard(seat, card) for seat, card in done.plays)
    script.extend(PlayCard(seat, card) for seat, card in trick)
    return script


def replay_hand(
    start: GameState, dealt: Sequence[Sequence[int]], setup: HandSetup, at: Position
) -> Iterator[Step]:
    """Replay the current hand from ``start`` (the state before its deal), step by step.

    ``dealt`` are the four dealt hands as count vectors (see
    :func:`dealt_counts`); ``setup`` and ``at`` are the hand's record (see
    :func:`hand_script`).  The last step's ``after`` is the rebuilt state.
    """
    deal = Deal([card for row in dealt for card in cards_of(row)])
    return walk(start, hand_script(deal, setup, at))
