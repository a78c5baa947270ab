"""The game state: an immutable record of everything about a game so far.

A :class:`GameState` holds data only; the rules that move it live in
:mod:`deepsix.engine` (and the rule modules it calls).  This module does
not import the engine: the engine binds itself to the state's
:meth:`GameState.apply` and :meth:`GameState.legal_actions` conveniences
when it is imported (``import deepsix`` does that).  States are frozen,
hashable and equal by value; successive states share everything that did
not change (the rules, the finished hands, the history up to the last
action), so stepping a state is cheap and keeping old states around costs
little.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator
from typing import Any, Final, NoReturn, TypeAlias, cast

import attrs

from deepsix.actions import Action, Bid, LegalActions, Pass
from deepsix.cards import Card, Seat, Suit, Team
from deepsix.errors import InvalidStateError, RefusesUnknownValues
from deepsix.hands import unpack
from deepsix.melds import Meld
from deepsix.rules import Rules
from deepsix.scoring import card_points
from deepsix.table import team_meld, tricks_taken
from deepsix.tricks import Trick

__all__ = [
    "GameState",
    "HandRecord",
    "HandSetup",
    "History",
    "Phase",
    "SeatMelds",
    "bind_engine",
    "make_state",
]


class Phase(RefusesUnknownValues, enum.Enum):
    """The phases of a hand, in order, and the end of the game."""

    __hash__ = object.__hash__  # identity hash in C; Enum's own is a slow Python method

    DEAL = "deal"
    """Chance deals the cards (apply a :class:`~deepsix.actions.Deal`)."""
    BIDDING = "bidding"
    """The auction (R-BID-*)."""
    SUNK_SUIT = "sunk-suit"
    """The bidder names the sunk suit (R-SUNK-1)."""
    INVITATION = "invitation"
    """The bidder may show cards as an invitation (R-INVITE-*)."""
    PARTNER_PASS = "partner-pass"
    """The bidder's partner passes three cards (R-PASS-1)."""
    BIDDER_MELD = "bidder-meld"
    """The bidder declares her melds from 17 cards (R-MELD-4)."""
    BIDDER_PASS = "bidder-pass"
    """The bidder passes three unmelded cards back (R-PASS-2)."""
    MELDING = "melding"
    """The other three players declare melds in turn (R-MELD-5)."""
    PLAY = "play"
    """Fourteen tricks (R-PLAY-*)."""
    GAME_OVER = "game-over"
    """A team has won; no action is legal."""


SeatMelds: TypeAlias = tuple[tuple[Meld, ...], tuple[Meld, ...], tuple[Meld, ...], tuple[Meld, ...]]
"""Each seat's declared melds, indexed by seat (N, E, S, W)."""


@attrs.frozen
class HandSetup:
    """What the auction, the passes and the melds of the current hand settled."""

    bids: tuple[Bid | Pass, ...] = ()
    """The auction so far: every call in order."""
    bidder: Seat | None = None
    """The high bidder so far (the bid winner once the auction ends)."""
    bid: int | None = None
    """The standing (finally, the winning) bid."""
    sunk_suit: Suit | None = None
    """The sunk suit, once named."""
    invitation: tuple[Card, ...] = ()
    """The bidder's invitation: the cards she laid face up, in order."""
    partner_pass: tuple[Card, ...] = ()
    """The cards the partner passed to the bidder (in flight until all are passed)."""
    bidder_pass: tuple[Card, ...] = ()
    """The cards the bidder passed back (in flight until all are passed)."""
    melds: SeatMelds = ((), (), (), ())
    """Each seat's declared melds, indexed by seat."""

    @property
    def shown(self) -> tuple[Card, ...]:
        """Deprecated name of :attr:`invitation`."""
        return self.invitation


EMPTY_SETUP: Final = HandSetup()


@attrs.frozen
class HandRecord:
    """The score sheet line of one finished hand."""

    number: int
    """1 for the first hand of the game, and so on."""
    dealer: Seat
    """Who dealt."""
    bidder: Seat
    """Who won the auction."""
    bid: int
    """The winning bid."""
    sunk_suit: Suit
    """The sunk suit."""
    card_points: tuple[int, int]
    """Card points each team took (they add up to 250)."""
    meld: tuple[int, int]
    """Each team's declared meld (zero or negative)."""
    net: tuple[int, int]
    """Card points plus meld, per team."""
    scores: tuple[int, int]
    """What each team recorded for the hand."""
    made: bool
    """Whether the bidding team made its bid."""
    totals: tuple[int, int]
    """Running totals after this hand."""

    @property
    def bidding_team(self) -> Team:
        """The bidder's team."""
        return self.bidder.team


class History(tuple):  # type: ignore[type-arg]  # a (previous, action, length) node
    """The actions applied so far, as a persistent linked list.

    Appending shares the whole earlier history, so every state carries its
    full history at constant cost per action.  Iterating yields the actions
    from the first to the last.  Nodes are immutable tuples
    ``(previous, action, length)``; equality and hashing walk the list
    without recursion, however long the game.
    """

    __slots__ = ()

    def __new__(cls, previous: History | None, action: Action) -> History:
        length = 1 if previous is None else previous[2] + 1
        return tuple.__new__(cls, (previous, action, length))

    @property
    def previous(self) -> History | None:
        """The history before the last action."""
        previous: History | None = self[0]
        return previous

    @property
    def action(self) -> Action:
        """The last action."""
        action: Action = self[1]
        return action

    def __len__(self) -> int:
        length: int = self[2]
        return length

    def __iter__(self) -> Iterator[Action]:
        return iter(self.to_tuple())

    def to_tuple(self) -> tuple[Action, ...]:
        """The actions, first to last."""
        actions: list[Action] = []
        node: History | None = self
        while node is not None:
            actions.append(node[1])
            node = node[0]
        actions.reverse()
        return tuple(actions)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, History):
            return NotImplemented
        if self[2] != other[2]:
            return False
        a: History | None = self
        b: History | None = other
        while a is not None and b is not None and a is not b:
            if a[1] != b[1]:
                return False
            a, b = a[0], b[0]
        return True

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash(self.to_tuple())

    def __repr__(self) -> str:
        return f"<History of {self[2]} actions>"

    def __reduce__(self) -> tuple[object, ...]:
        return (_history_from, (self.to_tuple(),))


def _history_from(actions: tuple[Action, ...]) -> History | None:
    node: History | None = None
    for action in actions:
        node = History(node, action)
    return node


@attrs.frozen(repr=False)
class GameState:
    """A position in a game of Deep Six: the state the rules act on.

    Build the first one with :func:`deepsix.new_game` and the next ones with
    :func:`deepsix.apply`.  The fields are the representation; the
    properties are the public view of it.  ``packed_hands`` holds each
    seat's cards bit-packed (see :mod:`deepsix.hands`); read them through
    :attr:`hands`.
    """

    rules: Rules
    """The rules this game is played under."""
    dealer: Seat
    """Who deals (dealt) the current hand."""
    phase: Phase
    """The current phase."""
    to_act: Seat | None
    """The seat to act; ``None`` at a chance step and when the game is over."""
    scores: tuple[int, int]
    """Running totals per team, after the finished hands."""
    completed_hands: tuple[HandRecord, ...]
    """One record per finished hand."""
    setup: HandSetup
    """The current hand's auction, sunk suit, invitation, passes and melds."""
    packed_hands: tuple[int, int, int, int]
    """Each seat's cards, bit-packed."""
    trick: tuple[tuple[Seat, Card], ...]
    """The trick in progress, as ``(seat, card)`` plays in order."""
    tricks: tuple[Trick, ...]
    """The completed tricks of the current hand."""
    log: History | None
    """Every action applied so far (see :attr:`history`)."""
    _legal: LegalActions | None = attrs.field(
        default=None, init=False, eq=False, hash=False, repr=False
    )

    # -- the hand ---------------------------------------------------------
    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Each seat's cards as a sorted tuple (cards in flight between partners excluded)."""
        return tuple(unpack(packed) for packed in self.packed_hands)

    def hand(self, seat: Seat) -> tuple[Card, ...]:
        """One seat's cards, sorted."""
        return unpack(self.packed_hands[seat])

    @property
    def bids(self) -> tuple[Bid | Pass, ...]:
        """The calls of the auction so far."""
        return self.setup.bids

    @property
    def bidder(self) -> Seat | None:
        """The high bidder so far; after the auction, the bid winner."""
        return self.setup.bidder

    @property
    def bid(self) -> int | None:
        """The standing bid; after the auction, the contract."""
        return self.setup.bid

    @property
    def sunk_suit(self) -> Suit | None:
        """The sunk suit, once named."""
        return self.setup.sunk_suit

    @property
    def invitation(self) -> tuple[Card, ...]:
        """The cards the bidder showed face up."""
        return self.setup.invitation

    @property
    def melds(self) -> SeatMelds:
        """Each seat's declared melds."""
        return self.setup.melds

    @property
    def team_meld(self) -> tuple[int, int]:
        """Each team's declared meld total so far."""
        return team_meld(self.setup.melds)

    @property
    def tricks_taken(self) -> tuple[int, int]:
        """How many tricks each team has taken this hand."""
        return tricks_taken(self.tricks)

    @property
    def card_points(self) -> tuple[int, int]:
        """Card points each team has taken this hand."""
        return card_points(self.tricks)

    # -- the game ---------------------------------------------------------
    @property
    def history(self) -> tuple[Action, ...]:
        """Every action applied since :func:`deepsix.new_game`, deals included."""
        return () if self.log is None else self.log.to_tuple()

    @property
    def hand_number(self) -> int:
        """The number of the current hand (1 for the first)."""
        return len(self.completed_hands) + (self.phase is not Phase.GAME_OVER)

    @property
    def is_chance(self) -> bool:
        """Whether the next step is chance's (a deal)."""
        return self.phase is Phase.DEAL

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.phase is Phase.GAME_OVER

    @property
    def winner(self) -> Team | None:
        """The winning team once the game is over (the lower total, R-END-1)."""
        if self.phase is not Phase.GAME_OVER:
            return None
        return Team.NORTH_SOUTH if self.scores[0] < self.scores[1] else Team.EAST_WEST

    # -- sugar ------------------------------------------------------------
    def legal_actions(self) -> LegalActions:
        """Same as :func:`deepsix.legal_actions`."""
        return _ENGINE.legal_actions(self)

    def apply(self, action: Action) -> GameState:
        """Same as :func:`deepsix.apply`."""
        return _ENGINE.apply(self, action)

    def __repr__(self) -> str:
        who = "chance" if self.is_chance else ("nobody" if self.to_act is None else self.to_act)
        return (
            f"<GameState hand {self.hand_number} {self.phase.value}, to act: {who}, "
            f"scores {self.scores[0]}-{self.scores[1]}>"
        )


def _engine_missing(*args: object) -> NoReturn:
    raise InvalidStateError("the engine is not loaded: import deepsix")


@attrs.define
class _Engine:
    """The engine's two entry points, as bound by :func:`bind_engine`."""

    apply: Callable[[GameState, Action], GameState] = _engine_missing
    legal_actions: Callable[[GameState], LegalActions] = _engine_missing


_ENGINE: Final = _Engine()


def bind_engine(
    apply: Callable[[GameState, Action], GameState],
    legal_actions: Callable[[GameState], LegalActions],
) -> None:
    """Make :meth:`GameState.apply` and :meth:`GameState.legal_actions` call the engine.

    :mod:`deepsix.engine` calls this once, when it is imported; the state
    module itself knows nothing of the rules.
    """
    _ENGINE.apply = apply
    _ENGINE.legal_actions = legal_actions


def _fast_constructor(cls: type[Any]) -> Callable[..., Any]:
    """A positional constructor for a frozen slotted attrs class without validators.

    It takes the ``init`` fields in declaration order, like ``cls(...)``,
    and fills the slots directly (the fields with ``init=False`` get their
    defaults), which is about a quarter faster than attrs' own ``__init__``.
    The field list is read from the class, so it is declared only once.
    """
    fields = attrs.fields(cls)
    if any(field.validator or field.converter for field in fields):
        raise TypeError(f"{cls.__name__} has validators or converters; use its __init__")
    names = [field.name for field in fields if field.init]
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    lines = [f"def make({', '.join(names)}):", "    obj = _new(_cls)"]
    for index, field in enumerate(fields):
        namespace[f"_set{index}"] = cls.__dict__[field.name].__set__
        if field.init:
            lines.append(f"    _set{index}(obj, {field.name})")
        else:
            default = field.default
            if isinstance(default, attrs.Factory):  # type: ignore[arg-type]  # Factory is a class
                raise TypeError(f"{cls.__name__}.{field.name} has a factory default")
            namespace[f"_default{index}"] = default
            lines.append(f"    _set{index}(obj, _default{index})")
    lines.append("    return obj")
    exec("\n".join(lines), namespace)  # code generated from the class's own fields
    make: Callable[..., Any] = namespace["make"]
    make.__doc__ = f"``{cls.__name__}(...)`` for the engine's hot path (positional, unchecked)."
    return make


# Typed as the class itself, so that every call is checked against GameState's own fields.
make_state: Final = cast("type[GameState]", _fast_constructor(GameState))
"""``GameState(...)`` for the engine's hot path: the same positional arguments, faster."""
