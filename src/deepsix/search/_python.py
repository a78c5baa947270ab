"""The pure-Python (or mypyc-compiled) kernel's side of :mod:`deepsix.search.solver`.

A :class:`Solver` is one play-phase position in the form
:class:`deepsix.search._core.Engine` searches (packed hands, the trick as a
code, the card points still to be taken), bound to an engine that the
positions after each root card share.  :mod:`deepsix.search.solver` checks
the states it is handed before it makes one.
"""

from __future__ import annotations

from deepsix.actions import PLAY
from deepsix.cards import CARD_POINTS, CARDS, HAND_SIZE, Card, Seat
from deepsix.engine import apply
from deepsix.hands import count, pack
from deepsix.scoring import LAST_TRICK_BONUS
from deepsix.search._core import INF, Engine
from deepsix.state import GameState
from deepsix.tricks import winning_position

__all__ = ["Solver", "after", "representatives"]

_POINTS = CARD_POINTS


class Solver:
    """One position to search, and the :class:`~deepsix.search._core.Engine` that searches it.

    The children of a root card share the root's engine: its tables, its
    node count and its budget.  The keyword switches turn the search's
    techniques off (for the tests; none of them changes a value).
    """

    def __init__(  # noqa: PLR0913  # one switch per technique, for the tests
        self,
        state: GameState,
        *,
        squeeze: bool = True,
        runs: bool = True,
        merge: bool = True,
        bounds: bool = True,
        killers: bool = True,
        guess: bool = True,
        deepen: bool = True,
        shared: Solver | None = None,
    ) -> None:
        sunk = state.setup.sunk_suit
        assert sunk is not None
        assert state.to_act is not None
        self.seat: Seat = state.to_act
        self.hands = list(state.packed_hands)
        self.trick: list[Card] = [card for _, card in state.trick]
        self.leader = int(state.trick[0][0]) if state.trick else int(state.to_act)
        self.tricks_left = HAND_SIZE - len(state.tricks)
        self.code = 0
        for k, card in enumerate(self.trick):
            self.code |= (card + 1) << (5 * k)
        self.left = sum(
            _POINTS[card] * count(hand, card) for hand in self.hands for card in range(28)
        ) + sum(_POINTS[card] for card in self.trick)
        """Card points in the hands and the trick."""
        self.sunk = int(sunk)
        self.engine: Engine
        if shared is not None:
            self.engine = shared.engine
        else:
            self.engine = Engine(
                self.sunk,
                state.rules.play_over,
                squeeze=squeeze,
                runs=runs,
                merge=merge,
                bounds=bounds,
                killers=killers,
                guess=guess,
                deepen=deepen,
            )

    @property
    def nodes(self) -> int:
        """Positions searched so far (by every search sharing the engine)."""
        return self.engine.nodes

    @property
    def limit(self) -> int:
        """The node budget of the engine."""
        return self.engine.limit

    @limit.setter
    def limit(self, value: int) -> None:
        self.engine.limit = value

    def value(self, alpha: int = -INF, beta: int = INF) -> int:
        """North-South's points from here (fail-soft within ``alpha``, ``beta``)."""
        engine = self.engine
        engine.load(self.hands)
        return engine.root(
            int(self.seat), self.leader, alpha, beta, self.left, self.tricks_left, self.code
        )

    def exact(self, guess: int = -1) -> int:
        """North-South's exact points from here, by null-window probes (MTD(f)).

        The probes start at ``guess`` (negative: at a quick play-out's value).
        """
        engine = self.engine
        engine.load(self.hands)
        return engine.exact(
            int(self.seat), self.leader, self.left, self.tricks_left, self.code, guess
        )

    def classes(self) -> list[Card]:
        """The seat to act's candidate cards: one per class of interchangeable cards."""
        engine = self.engine
        engine.load(self.hands)
        seat = int(self.seat)
        return [CARDS[card] for card in engine.classes(seat, self.code, pack(self.trick))]


def representatives(root: Solver, cards: tuple[Card, ...]) -> dict[Card, Card]:
    """Each of ``cards`` (the root's legal cards) -> the card of its class.

    Interchangeable cards (see :meth:`Solver.classes`) have the same value, so
    only the lowest card of each class -- the one the search keeps -- is
    searched at the root; the others take its result.
    """
    kept = set(root.classes())
    representatives: dict[Card, Card] = {}
    current = -1
    for card in sorted(cards):
        if card in kept or card // 7 != current // 7:
            current = card
        representatives[card] = CARDS[current]
    return representatives


def after(root: Solver, state: GameState, card: Card) -> tuple[int, Solver | None]:
    """North-South's points in the trick ``card`` completes (if any) and the solver after it.

    The solver is ``None`` when ``card`` ends the hand; the points then include
    the last-trick bonus.
    """
    seat = root.seat
    if len(state.trick) == 3 and root.tricks_left == 1:
        cards = [*root.trick, card]
        winner = (root.leader + winning_position(cards, root.sunk)) & 3
        taken = sum(_POINTS[c] for c in cards) + LAST_TRICK_BONUS
        return (0 if winner & 1 else taken), None
    following = apply(state, PLAY[seat][card])
    taken = following.card_points[0] - state.card_points[0]
    return taken, Solver(following, shared=root)
