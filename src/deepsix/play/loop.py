"""The game loop: four seats, one seeded game, every step reported.

:func:`play_game` is the one loop that drives a game forward.  The command
line's ``watch`` and ``play``, the simulator and the web server's bot
seats all run through it, and see the game through its ``on_action``
callback, called with ``(before, action, after)`` after every step.  The
loop is a :func:`deepsix.rebuild.walk` whose actions are chosen as the game
goes, and ``on_action`` one of its visitors -- the same walk, and the same
step, that replays a record or a history, and that
:class:`~deepsix.io.transcript.TranscriptWriter` and
:func:`deepsix.events.events` read.

A seat is taken by an *agent*: a :class:`~deepsix.play.bots.Bot`, or
anything else with ``choose(view, rng)`` -- a human at a terminal, say.
Bots must return legal actions; an agent that may not (a person) also
defines ``refused(view, action, error)``, and the loop then reports the
:class:`~deepsix.IllegalActionError` to it and asks again, as a referee
at a real table would.  The game is never changed by a refused action.

:class:`GameDriver` is the step under the loop: the seeded deal stream and
each seat's bot stream of one game, and one step at a time.  A program that
cannot run the whole loop in one call -- the web server, whose bots think
in other processes while people play -- drives its games with it, so that
its games follow the same seeding scheme as :func:`play_game`'s.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from deepsix.actions import Action, Deal
from deepsix.cards import Seat
from deepsix.engine import apply, new_game, shuffled_deal
from deepsix.errors import IllegalActionError, ParseError, WrongTypeError
from deepsix.play.bots import Bot, bot_rng, make_bot
from deepsix.rebuild import Visitor, visit
from deepsix.rules import Rules
from deepsix.state import GameState
from deepsix.views import PlayerView, view

__all__ = ["GameDriver", "OnAction", "Refusable", "deal_stream", "play_game"]

OnAction = Visitor
"""A callback that sees every step of a game: ``on_action(before, action, after)`` (a
:data:`~deepsix.rebuild.Visitor` of the game's walk)."""


@runtime_checkable
class Refusable(Protocol):
    """An agent that may choose an illegal action and wants to be told so (a person)."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """The action this agent takes; it may be illegal."""
        ...

    def refused(self, view: PlayerView, action: Action, error: IllegalActionError) -> None:
        """``action`` was refused for ``error``; the loop asks again with the same view."""
        ...


def deal_stream(seed: int, state: GameState | None = None) -> random.Random:
    """The deal stream of the game with ``seed``, advanced past the deals ``state`` already had.

    Deals come from ``shuffled_deal(random.Random(seed))`` in turn, so a
    game resumed from ``state`` gets the same later deals as the game that
    was never interrupted.
    """
    deals = random.Random(seed)
    if state is not None:
        for action in state.history:
            if type(action) is Deal:
                shuffled_deal(deals)
    return deals


class GameDriver:
    """The seeded sources of one game, and its step: the deals in turn, each seat's bot stream.

    ``GameDriver(seed)`` starts a game; ``GameDriver(seed, state)`` continues
    one of this seed from ``state`` (the deals it already had are skipped).
    The bot streams are :func:`~deepsix.play.bots.bot_rng`'s for ``seed``
    unless ``streams`` gives them by seat.

    >>> from deepsix import RandomBot, new_game
    >>> driver = GameDriver(7)
    >>> state = new_game()
    >>> action, state = driver.step(state, [RandomBot()] * 4)
    >>> type(action).__name__, state.phase.value
    ('Deal', 'bidding')
    """

    def __init__(
        self,
        seed: int,
        state: GameState | None = None,
        *,
        streams: Sequence[random.Random] | None = None,
    ) -> None:
        self.seed = seed
        self.deals = deal_stream(seed, state)
        self.streams: list[random.Random] = (
            [bot_rng(seed, seat) for seat in Seat] if streams is None else list(streams)
        )

    def deal(self) -> Deal:
        """The game's next deal."""
        return shuffled_deal(self.deals)

    def choose(self, state: GameState, players: Sequence[Bot]) -> Action:
        """The next action of ``state``: the next deal, or ``players[seat]``'s choice.

        An agent that may be refused (:class:`Refusable`) is asked again until
        its action is legal; a bot's action is returned as it is (applying an
        illegal one raises).
        """
        if state.is_chance:
            return self.deal()
        seat = state.to_act
        assert seat is not None
        return _choice(players[seat], state, seat, self.streams[seat])

    def step(self, state: GameState, players: Sequence[Bot]) -> tuple[Action, GameState]:
        """The next action of ``state`` (see :meth:`choose`) and its result."""
        action = self.choose(state, players)
        return action, apply(state, action)


def play_game(  # noqa: PLR0913  # public signature; options are keywords
    bots: Sequence[Bot | str],
    seed: int,
    rules: Rules | None = None,
    *,
    dealer: Seat = Seat.NORTH,
    on_action: OnAction | None = None,
    max_hands: int = 1000,
    start: GameState | None = None,
    streams: Sequence[random.Random] | None = None,
) -> GameState:
    """Play a game with ``bots[seat]`` at each seat; return the final state.

    Deals come from ``shuffled_deal(random.Random(seed))`` in turn, and each
    bot draws from its own stream (:func:`~deepsix.play.bots.bot_rng`, or
    ``streams`` given by seat), so a seed always gives the same game.  Each
    bot sees only ``deepsix.view(state, seat)``.  ``on_action(before,
    action, after)`` is called after every action (deals included).
    ``start`` continues a game of this seed from one of its states (the
    deals it already had are skipped).  Should the game last more than
    ``max_hands`` hands (it can only if both teams keep scoring zero), the
    unfinished state is returned: check ``state.is_over``.

    >>> final = play_game(["heuristic", "random", "heuristic", "random"], seed=7)
    >>> final.is_over, final.winner
    (True, <Team.NORTH_SOUTH: 0>)
    """
    if isinstance(bots, str) or len(bots) != 4:
        raise ParseError(f"a game needs four bots, one per seat, not {bots!r}")
    players = [make_bot(bot) for bot in bots]
    made = [player for bot, player in zip(bots, players, strict=True) if isinstance(bot, str)]
    try:
        return _play(players, seed, rules, dealer, on_action, max_hands, start, streams)
    finally:
        for player in made:  # bots made here from names: a program bot stops its program
            close = getattr(player, "close", None)
            if callable(close):
                close()


def _play(  # noqa: PLR0913, PLR0917  # play_game's arguments, its players made
    players: list[Bot],
    seed: int,
    rules: Rules | None,
    dealer: Seat,
    on_action: OnAction | None,
    max_hands: int,
    start: GameState | None,
    streams: Sequence[random.Random] | None,
) -> GameState:
    """The loop of :func:`play_game`."""
    if start is None:
        state = new_game(rules, dealer)
    elif isinstance(start, GameState):
        state = start
    else:
        raise WrongTypeError(f"start must be a GameState, not {type(start).__name__}")
    driver = GameDriver(seed, start, streams=streams)

    def next_action(state: GameState) -> Action | None:
        if state.is_over or (state.is_chance and len(state.completed_hands) >= max_hands):
            return None
        return driver.choose(state, players)

    return visit(state, next_action) if on_action is None else visit(state, next_action, on_action)


def _choice(agent: Bot, state: GameState, seat: Seat, rng: random.Random) -> Action:
    """``agent``'s action; one that may be refused is asked until the engine accepts it."""
    seen = view(state, seat)
    action = agent.choose(seen, rng)
    # A Refusable agent is one with ``refused``; isinstance() against the protocol would cost
    # more than a bot's whole turn.
    refused = getattr(agent, "refused", None)
    if not callable(refused):
        return action  # a bot gets one try: the walk applies its action, and raises if illegal
    while True:
        try:
            apply(state, action)
        except IllegalActionError as error:
            refused(seen, action, error)
            action = agent.choose(seen, rng)
        else:
            return action
