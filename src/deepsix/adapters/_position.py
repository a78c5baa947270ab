"""A game position as the adapters hold it: the engine's state, a deal in progress, finished hands.

:class:`Position` is immutable, so OpenSpiel's clones share it, and it
keeps what was computed from it (views, encodings, texts) so that a state
and its clones compute each only once.  :func:`finished_view` is what a
seat sees of a hand that has just ended, for the end of a game that the
engine itself did not end (the engine's own state has moved on to the next
hand's deal by then).
"""

from __future__ import annotations

import operator
from typing import Any, Final, SupportsIndex

import attrs

from deepsix.actions import Deal, LegalActions, PlayCard
from deepsix.cards import CARDS, HAND_SIZE, Card
from deepsix.engine import apply
from deepsix.errors import IllegalActionError, Reason
from deepsix.state import GameState, Phase
from deepsix.tricks import Trick, winning_position
from deepsix.views import PlayerView, view

from ._encoder import Entries
from .config import GameConfig
from .observations import ObservationLayout
from .text import state_text, view_text

__all__ = ["PastHand", "Position", "finished_view"]

_DECK_SIZE: Final = 4 * HAND_SIZE
_NO_ACTIONS: Final = LegalActions()
_NO_HANDS: Final = (0, 0, 0, 0)


def finished_view(
    before: GameState, last: PlayCard, after: GameState, seat: int | None
) -> PlayerView:
    """What ``seat`` sees of the hand that ``last`` (its last card) finished.

    ``before`` is the state before that card, ``after`` the engine's state
    after it.  The view shows the whole hand -- the fourteen tricks, the
    auction, the melds, the seat's passes -- the score sheet and the totals
    after scoring, in the play phase with no one to act.
    """
    seen = view(before, seat)
    plays = (*before.trick, (last.seat, last.card))
    winner = plays[winning_position([card for _, card in plays], before.setup.sunk_suit)][0]
    return attrs.evolve(
        seen,
        phase=Phase.PLAY,
        to_act=None,
        hand=(),
        hand_sizes=_NO_HANDS,
        trick=(),
        tricks=(*before.tricks, Trick(plays, winner)),
        scores=after.scores,
        completed_hands=after.completed_hands,
        legal_actions=_NO_ACTIONS,
    )


@attrs.frozen(eq=False)
class PastHand:
    """A finished hand: the state before its last card, that card, and the state after it."""

    before_last: GameState
    """The state before the hand's final card was played."""
    last: PlayCard
    """The final card played."""
    after: GameState
    """The engine's state after it."""

    def view(self, seat: int | None) -> PlayerView:
        """What ``seat`` (``None``: a spectator) saw of the hand at its end."""
        if self.after.is_over:  # the engine's final state still shows the hand
            return view(self.after, seat)
        return finished_view(self.before_last, self.last, self.after, seat)


class Position:
    """Everything an adapter's game position holds; immutable once built."""

    __slots__ = ("_cache", "_last_child", "_text", "config", "dealt", "past", "state", "terminal")

    def __init__(  # noqa: PLR0913  # the fields, and a cache to share
        self,
        config: GameConfig,
        state: GameState,
        dealt: tuple[Card, ...],
        past: tuple[PastHand, ...],
        terminal: bool,
        *,
        cache: dict[Any, Any] | None = None,
    ) -> None:
        self.config = config
        self.state = state
        """The engine's state (during a deal: the state before it)."""
        self.dealt = dealt
        """The cards dealt so far while a deal is in progress."""
        self.past = past
        """The finished hands, in order."""
        self.terminal = terminal
        """Whether the game is over for the adapter."""
        self._cache: dict[Any, Any] = {} if cache is None else cache
        self._text: str | None = None
        self._last_child: tuple[int, Position] | None = None

    def _finished(self) -> PastHand | None:
        """The hand the position shows when the game ended with it, else None."""
        return self.past[-1] if self.terminal and self.past else None

    def view_for(self, seat: int | None) -> PlayerView:
        """What ``seat`` sees (at the end: of the finished hand), computed once."""
        key = ("view", seat)
        found: PlayerView | None = self._cache.get(key)
        if found is None:
            hand = self._finished()
            found = view(self.state, seat) if hand is None else hand.view(seat)
            self._cache[key] = found
        return found

    def entries_for(self, layout: ObservationLayout, player: int) -> Entries:
        """``player``'s observation in ``layout``, encoded once."""
        key = (layout, player)
        found: Entries | None = self._cache.get(key)
        if found is None:
            if self._finished() is None:
                found = layout.state_entries(self.state, player)
            else:
                found = layout.entries(self.view_for(player if layout.private else None), player)
            self._cache[key] = found
        return found

    def tensor_for(self, layout: ObservationLayout, player: int) -> list[float]:
        """``player``'s observation in ``layout`` as a new list (written step by step from
        the last one the layout wrote for ``player``: :meth:`ObservationLayout.tensor`)."""
        if self._finished() is None:
            return layout.tensor(self.state, player)
        return layout.tensor(self.view_for(player if layout.private else None), player)

    def view_text_for(self, seat: int | None) -> str:
        """``view_text`` of :meth:`view_for`, computed once."""
        key = ("text", seat)
        found: str | None = self._cache.get(key)
        if found is None:
            found = self._cache[key] = view_text(self.view_for(seat))
        return found

    def history_text_for(self, seat: int | None) -> str:
        """The text of every hand of the game so far as ``seat`` saw it, the current last."""
        key = ("history", seat)
        found: str | None = self._cache.get(key)
        if found is None:
            earlier = self.past[:-1] if self._finished() is not None else self.past
            texts = [view_text(hand.view(seat)) for hand in earlier]
            found = self._cache[key] = "\n".join([*texts, self.view_text_for(seat)])
        return found

    def text(self) -> str:
        """``state_text`` of the whole state, computed once."""
        if self._text is None:
            self._text = state_text(self.state, self.dealt)
        return self._text

    def child(self, action: int) -> Position:
        """The position after ``action`` (a card of the deal, or a player's action id).  The
        last one is kept: a state and its clone that take the same action share the result."""
        last = self._last_child
        if last is not None and last[0] == action:
            return last[1]
        child = self._step(action)
        self._last_child = (action, child)
        return child

    def _step(self, action: int) -> Position:
        config = self.config
        if self.terminal:
            raise IllegalActionError(Reason.GAME_OVER, f"action {action} after the end", action)
        state = self.state
        seat = state.to_act
        if seat is None:
            return self._deal(action)
        move = config.codec.decode(action, seat)
        after = apply(state, move)
        past = self.past
        if len(after.completed_hands) > len(state.completed_hands):
            assert type(move) is PlayCard
            past = (*past, PastHand(state, move, after))
        return Position(config, after, (), past, config.is_finished(after))

    def _deal(self, outcome: object) -> Position:
        if type(outcome) is int:
            action = outcome
        elif isinstance(outcome, bool) or not isinstance(outcome, SupportsIndex):  # numpy ints pass
            raise IllegalActionError(Reason.BAD_DEAL, f"{outcome!r} is not a card index", outcome)
        else:
            action = operator.index(outcome)
        if not 0 <= action < len(CARDS) or self.dealt.count(CARDS[action]) >= 2:
            raise IllegalActionError(
                Reason.BAD_DEAL, f"chance outcome {action} is not a card left in the deck", action
            )
        dealt = (*self.dealt, CARDS[action])
        if len(dealt) < _DECK_SIZE:  # nobody sees a card yet: the observations are shared
            return Position(self.config, self.state, dealt, self.past, False, cache=self._cache)
        return Position(self.config, apply(self.state, Deal(dealt)), (), self.past, False)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each distinct card still in the deck, with probability (copies left) / (cards left)."""
        left = [2] * len(CARDS)
        for card in self.dealt:
            left[card] -= 1
        total = _DECK_SIZE - len(self.dealt)
        return [(card, n / total) for card, n in enumerate(left) if n]

    def __deepcopy__(self, memo: dict[int, object]) -> Position:
        return self  # immutable

    def __getstate__(self) -> tuple[object, ...]:
        return (self.config, self.state, self.dealt, self.past, self.terminal)

    def __setstate__(self, fields: tuple[Any, ...]) -> None:
        Position.__init__(self, *fields)
