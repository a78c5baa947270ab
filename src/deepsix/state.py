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
import importlib.machinery
from collections.abc import Callable, Iterator
from typing import Final, NoReturn, Optional, TypeAlias, TypeVar, Union, cast

import attr
import attrs

from deepsix.actions import Action, Bid, LegalActions, Pass
from deepsix.cards import Card, Seat, Suit, Team
from deepsix.compiled import keep_annotations
from deepsix.display import html_of, svg_of
from deepsix.errors import InvalidStateError, RefusesUnknownValues, WrongTypeError
from deepsix.hands import unpack
from deepsix.melds import Meld
from deepsix.rules import Rules
from deepsix.scoring import card_points
from deepsix.table import team_meld, tricks_taken
from deepsix.tricks import Trick

_T = TypeVar("_T", bound=attrs.AttrsInstance)
_COMPILED: Final = __file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
"""Whether this module runs compiled (mypyc): see the end of the module."""

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


@attr.s(frozen=True, slots=True, auto_attribs=True, init=False, eq=False, repr=False)
class HandSetup:
    """What the auction, the passes and the melds of the current hand settled.

    ``HandSetup(...)`` refuses a value of the wrong kind (a list for a tuple,
    melds not given for four seats, a bid that is not an int) with
    :class:`~deepsix.errors.WrongTypeError`, as :class:`GameState` does.
    """

    bids: "tuple[Union[Bid, Pass], ...]" = ()
    """The auction so far: every call in order."""
    bidder: "Optional[Seat]" = None
    """The high bidder so far (the bid winner once the auction ends)."""
    bid: "Optional[int]" = None
    """The standing (finally, the winning) bid."""
    sunk_suit: "Optional[Suit]" = None
    """The sunk suit, once named."""
    invitation: "tuple[Card, ...]" = ()
    """The bidder's invitation: the cards she laid face up, in order."""
    partner_pass: "tuple[Card, ...]" = ()
    """The cards the partner passed to the bidder (in flight until all are passed)."""
    bidder_pass: "tuple[Card, ...]" = ()
    """The cards the bidder passed back (in flight until all are passed)."""
    melds: "SeatMelds" = ((), (), (), ())
    """Each seat's declared melds, indexed by seat."""

    def __new__(  # noqa: PLR0913, PLR0917  # one parameter per field, as attrs would have it
        cls,
        bids: tuple[Bid | Pass, ...] = (),
        bidder: Seat | None = None,
        bid: int | None = None,
        sunk_suit: Suit | None = None,
        invitation: tuple[Card, ...] = (),
        partner_pass: tuple[Card, ...] = (),
        bidder_pass: tuple[Card, ...] = (),
        melds: SeatMelds = ((), (), (), ()),
    ) -> HandSetup:
        """Build a setup from its fields, unchecked (the engine's path)."""
        self = object.__new__(cls)
        object.__setattr__(self, "bids", bids)
        object.__setattr__(self, "bidder", bidder)
        object.__setattr__(self, "bid", bid)
        object.__setattr__(self, "sunk_suit", sunk_suit)
        object.__setattr__(self, "invitation", invitation)
        object.__setattr__(self, "partner_pass", partner_pass)
        object.__setattr__(self, "bidder_pass", bidder_pass)
        object.__setattr__(self, "melds", melds)
        return self

    def __init__(  # noqa: PLR0913, PLR0917  # one parameter per field, as attrs would have it
        self,
        bids: tuple[Bid | Pass, ...] = (),
        bidder: Seat | None = None,
        bid: int | None = None,
        sunk_suit: Suit | None = None,
        invitation: tuple[Card, ...] = (),
        partner_pass: tuple[Card, ...] = (),
        bidder_pass: tuple[Card, ...] = (),
        melds: SeatMelds = ((), (), (), ()),
    ) -> None:
        """The fields, set by ``__new__``; ``HandSetup(...)`` also checks their kinds."""

    def _fields(self) -> tuple[object, ...]:
        return (
            self.bids, self.bidder, self.bid, self.sunk_suit, self.invitation,
            self.partner_pass, self.bidder_pass, self.melds,
        )  # fmt: skip

    def __eq__(self, other: object) -> bool:
        if type(other) is not HandSetup:
            return NotImplemented
        return self._fields() == other._fields()

    def __ne__(self, other: object) -> bool:
        if type(other) is not HandSetup:
            return NotImplemented
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (
            f"HandSetup(bids={self.bids!r}, bidder={self.bidder!r}, bid={self.bid!r}, "
            f"sunk_suit={self.sunk_suit!r}, invitation={self.invitation!r}, "
            f"partner_pass={self.partner_pass!r}, bidder_pass={self.bidder_pass!r}, "
            f"melds={self.melds!r})"
        )

    def __reduce__(self) -> tuple[object, ...]:
        return (HandSetup, self._fields())

    def __setattr__(self, name: str, value: object) -> None:
        raise attrs.exceptions.FrozenInstanceError

    def __delattr__(self, name: str) -> None:
        raise attrs.exceptions.FrozenInstanceError


def _check_setup(  # noqa: PLR0913, PLR0917  # one parameter per field of HandSetup
    bids: object = (),
    bidder: object = None,
    bid: object = None,
    sunk_suit: object = None,
    invitation: object = (),
    partner_pass: object = (),
    bidder_pass: object = (),
    melds: object = ((), (), (), ()),
) -> None:
    """Refuse a field value of the wrong kind for :class:`HandSetup` (shallow, like GameState's)."""
    kinds = (
        ("bids", bids, isinstance(bids, tuple), "a tuple"),
        ("bid", bid, bid is None or isinstance(bid, int), "an int or None"),
        ("invitation", invitation, isinstance(invitation, tuple), "a tuple"),
        ("partner_pass", partner_pass, isinstance(partner_pass, tuple), "a tuple"),
        ("bidder_pass", bidder_pass, isinstance(bidder_pass, tuple), "a tuple"),
        ("melds", melds, _four_tuples(melds), "a tuple of four tuples"),
    )
    for name, value, fits, kind in kinds:
        if not fits:
            shown = repr(value)
            shown = shown if len(shown) <= 60 else shown[:60] + "..."
            raise WrongTypeError(f"HandSetup.{name} must be {kind}, not {shown}")


def _four_tuples(value: object) -> bool:
    return (
        isinstance(value, tuple)
        and len(value) == 4
        and all(isinstance(item, tuple) for item in value)
    )


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
    card_points: "tuple[int, int]"
    """Card points each team took (they add up to 250)."""
    meld: "tuple[int, int]"
    """Each team's declared meld (zero or negative)."""
    net: "tuple[int, int]"
    """Card points plus meld, per team."""
    scores: "tuple[int, int]"
    """What each team recorded for the hand."""
    made: bool
    """Whether the bidding team made its bid."""
    totals: "tuple[int, int]"
    """Running totals after this hand."""

    @property
    def bidding_team(self) -> Team:
        """The bidder's team."""
        return self.bidder.team


class History:
    """The actions applied so far, as a persistent linked list.

    Appending shares the whole earlier history, so every state carries its
    full history at constant cost per action.  Iterating yields the actions
    from the first to the last.  Nodes are immutable: ``previous`` (the
    history before the last action, or ``None``) and ``action``; equality
    and hashing walk the list without recursion, however long the game.
    """

    __slots__ = ("_length", "action", "previous")

    previous: History | None
    """The history before the last action."""
    action: Action
    """The last action."""
    _length: int

    def __init__(self, previous: History | None, action: Action) -> None:
        object.__setattr__(self, "previous", previous)
        object.__setattr__(self, "action", action)
        object.__setattr__(self, "_length", 1 if previous is None else previous._length + 1)

    def __len__(self) -> int:
        return self._length

    def __iter__(self) -> Iterator[Action]:
        return iter(self.to_tuple())

    def to_tuple(self) -> tuple[Action, ...]:
        """The actions, first to last."""
        actions: list[Action] = []
        node: History | None = self
        while node is not None:
            actions.append(node.action)
            node = node.previous
        actions.reverse()
        return tuple(actions)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, History):
            return NotImplemented
        if self._length != other._length:
            return False
        a: History | None = self
        b: History | None = other
        while a is not None and b is not None and a is not b:
            if a.action != b.action:
                return False
            a, b = a.previous, b.previous
        return True

    def __ne__(self, other: object) -> bool:
        if not isinstance(other, History):
            return NotImplemented
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(self.to_tuple())

    def __repr__(self) -> str:
        return f"<History of {self._length} actions>"

    def __reduce__(self) -> tuple[object, ...]:
        return (_history_from, (self.to_tuple(),))

    def __setattr__(self, name: str, value: object) -> None:
        raise attrs.exceptions.FrozenInstanceError

    def __delattr__(self, name: str) -> None:
        raise attrs.exceptions.FrozenInstanceError


def _history_from(actions: tuple[Action, ...]) -> History | None:
    node: History | None = None
    for action in actions:
        node = History(node, action)
    return node


def _equal(a: object, b: object) -> bool:
    """``a == b`` through ``__eq__``: the compiled build compares two instances of a
    class it compiled as non-native (an attrs class such as :class:`HandSetup`) by
    identity when they are typed as that class, never calling attrs' ``__eq__``."""
    return a == b


def _check_kinds(  # noqa: PLR0913, PLR0917  # one parameter per field of GameState
    rules: object,
    dealer: object,
    phase: object,
    to_act: object,
    scores: object,
    completed_hands: object,
    setup: object,
    packed_hands: object,
    trick: object,
    tricks: object,
    log: object,
) -> None:
    """Refuse a field value of the wrong kind for :class:`GameState` (a cheap, shallow check)."""
    if (
        type(phase) is Phase
        and type(dealer) is Seat
        and (to_act is None or type(to_act) is Seat)
        and _ints(packed_hands, 4)
        and isinstance(trick, tuple)
        and isinstance(setup, HandSetup)
        and isinstance(tricks, tuple)
        and _ints(scores, 2)
        and isinstance(completed_hands, tuple)
        and (log is None or type(log) is History)
        and isinstance(rules, Rules)
    ):
        return
    raise _kind_error(
        rules, dealer, phase, to_act, scores, completed_hands, setup, packed_hands, trick,
        tricks, log,
    )  # fmt: skip


def _ints(value: object, length: int) -> bool:
    """Whether ``value`` is a tuple of ``length`` ints."""
    return (
        isinstance(value, tuple)
        and len(value) == length
        and all(type(item) is int for item in value)
    )


def _kind_error(*values: object) -> WrongTypeError:  # the slow path: name the first bad field
    kinds: tuple[tuple[str, str, Callable[[object], bool]], ...] = (
        ("rules", "a Rules", lambda v: isinstance(v, Rules)),
        ("dealer", "a Seat", lambda v: type(v) is Seat),
        ("phase", "a Phase", lambda v: type(v) is Phase),
        ("to_act", "a Seat or None", lambda v: v is None or type(v) is Seat),
        ("scores", "a tuple of two ints", lambda v: _ints(v, 2)),
        ("completed_hands", "a tuple", lambda v: isinstance(v, tuple)),
        ("setup", "a HandSetup", lambda v: isinstance(v, HandSetup)),
        ("packed_hands", "a tuple of four ints", lambda v: _ints(v, 4)),
        ("trick", "a tuple", lambda v: isinstance(v, tuple)),
        ("tricks", "a tuple", lambda v: isinstance(v, tuple)),
        ("log", "a History or None", lambda v: v is None or type(v) is History),
    )
    for (name, kind, fits), value in zip(kinds, values, strict=True):
        if not fits(value):
            shown = repr(value)
            shown = shown if len(shown) <= 60 else shown[:60] + "..."
            return WrongTypeError(f"GameState.{name} must be {kind}, not {shown}")
    raise AssertionError("unreachable: some field was of the wrong kind")


# The field annotations of the classes below are quoted: the compiled build
# (mypyc) turns an unquoted ``X | None`` or ``tuple[...]`` into a bare class
# in the annotations that attrs, typing and cattrs read at run time, and keeps
# a quoted ``Optional[X]`` or ``tuple[...]`` as written.


@attr.s(frozen=True, slots=True, auto_attribs=True, init=False, eq=False, repr=False)
class GameState:
    """A position in a game of Deep Six: the state the rules act on.

    Build the first one with :func:`deepsix.new_game` and the next ones with
    :func:`deepsix.apply`.  The fields are the representation; the
    properties are the public view of it.  ``packed_hands`` holds each
    seat's cards bit-packed (see :mod:`deepsix.hands`); read them through
    :attr:`hands`.

    ``GameState(...)`` (and so ``attrs.evolve`` and unpickling) checks that
    each field holds a value of its declared kind -- a :class:`Phase` for
    ``phase``, a tuple of four ints for ``packed_hands``, and so on -- and
    raises :class:`~deepsix.errors.WrongTypeError` otherwise;
    :func:`deepsix.validate` checks everything else.
    """

    rules: Rules
    """The rules this game is played under."""
    dealer: Seat
    """Who deals (dealt) the current hand."""
    phase: Phase
    """The current phase."""
    to_act: "Optional[Seat]"
    """The seat to act; ``None`` at a chance step and when the game is over."""
    scores: "tuple[int, int]"
    """Running totals per team, after the finished hands."""
    completed_hands: "tuple[HandRecord, ...]"
    """One record per finished hand."""
    setup: HandSetup
    """The current hand's auction, sunk suit, invitation, passes and melds."""
    packed_hands: "tuple[int, int, int, int]"
    """Each seat's cards, bit-packed."""
    trick: "tuple[tuple[Seat, Card], ...]"
    """The trick in progress, as ``(seat, card)`` plays in order."""
    tricks: "tuple[Trick, ...]"
    """The completed tricks of the current hand."""
    log: "Optional[History]"
    """Every action applied so far (see :attr:`history`)."""
    _legal: "Optional[LegalActions]" = attr.ib(
        default=None, init=False, eq=False, hash=False, repr=False
    )

    def __new__(  # noqa: PLR0913, PLR0917  # one parameter per field, as attrs would have it
        cls,
        rules: Rules,
        dealer: Seat,
        phase: Phase,
        to_act: Seat | None,
        scores: tuple[int, int],
        completed_hands: tuple[HandRecord, ...],
        setup: HandSetup,
        packed_hands: tuple[int, int, int, int],
        trick: tuple[tuple[Seat, Card], ...],
        tricks: tuple[Trick, ...],
        log: History | None,
    ) -> GameState:
        """Build a state from its fields, unchecked (the engine's path, see :func:`make_state`)."""
        self = object.__new__(cls)
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "dealer", dealer)
        object.__setattr__(self, "phase", phase)
        object.__setattr__(self, "to_act", to_act)
        object.__setattr__(self, "scores", scores)
        object.__setattr__(self, "completed_hands", completed_hands)
        object.__setattr__(self, "setup", setup)
        object.__setattr__(self, "packed_hands", packed_hands)
        object.__setattr__(self, "trick", trick)
        object.__setattr__(self, "tricks", tricks)
        object.__setattr__(self, "log", log)
        object.__setattr__(self, "_legal", None)
        return self

    def __init__(  # noqa: PLR0913, PLR0917  # one parameter per field, as attrs would have it
        self,
        rules: Rules,
        dealer: Seat,
        phase: Phase,
        to_act: Seat | None,
        scores: tuple[int, int],
        completed_hands: tuple[HandRecord, ...],
        setup: HandSetup,
        packed_hands: tuple[int, int, int, int],
        trick: tuple[tuple[Seat, Card], ...],
        tricks: tuple[Trick, ...],
        log: History | None,
    ) -> None:
        """The fields, set by ``__new__``; ``GameState(...)`` also checks their kinds."""

    # -- value semantics --------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if type(other) is not GameState:
            return NotImplemented
        return (
            self.phase is other.phase
            and self.packed_hands == other.packed_hands
            and self.to_act == other.to_act
            and self.trick == other.trick
            and self.dealer == other.dealer
            and self.scores == other.scores
            and _equal(self.setup, other.setup)
            and self.tricks == other.tricks
            and self.completed_hands == other.completed_hands
            and self.rules == other.rules
            and self.log == other.log
        )

    def __ne__(self, other: object) -> bool:
        if type(other) is not GameState:
            return NotImplemented
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(self._fields())

    def __reduce__(self) -> tuple[object, ...]:
        return (GameState, self._fields())

    def __setattr__(self, name: str, value: object) -> None:
        raise attrs.exceptions.FrozenInstanceError

    def __delattr__(self, name: str) -> None:
        raise attrs.exceptions.FrozenInstanceError

    def _fields(self) -> tuple[object, ...]:
        return (
            self.rules, self.dealer, self.phase, self.to_act, self.scores, self.completed_hands,
            self.setup, self.packed_hands, self.trick, self.tricks, self.log,
        )  # fmt: skip

    def _remember_legal(self, legal: LegalActions) -> LegalActions:
        """Store the legal-action list (a cache, not part of the state's value)."""
        object.__setattr__(self, "_legal", legal)
        return legal

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

    def _repr_svg_(self) -> str | None:
        """The table with every hand open, as an SVG picture (what a notebook shows)."""
        return svg_of(self)

    def _repr_html_(self) -> str | None:
        """The table with every hand open, in HTML (what a notebook shows)."""
        return html_of(self)

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

    apply: "Callable[[GameState, Action], GameState]" = _engine_missing
    legal_actions: "Callable[[GameState], LegalActions]" = _engine_missing


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


def make_state(  # noqa: PLR0913, PLR0917  # one parameter per field of GameState
    rules: Rules,
    dealer: Seat,
    phase: Phase,
    to_act: Seat | None,
    scores: tuple[int, int],
    completed_hands: tuple[HandRecord, ...],
    setup: HandSetup,
    packed_hands: tuple[int, int, int, int],
    trick: tuple[tuple[Seat, Card], ...],
    tricks: tuple[Trick, ...],
    log: History | None,
) -> GameState:
    """``GameState(...)`` for the engine's hot path: the same arguments, unchecked and faster.

    The engine's states are right by construction, so this skips the kind
    checks that ``GameState(...)`` makes on values from outside.
    """
    return GameState.__new__(
        GameState, rules, dealer, phase, to_act, scores, completed_hands, setup, packed_hands,
        trick, tricks, log,
    )  # fmt: skip


# -- how GameState(...) is wired in each build -----------------------------------
#
# The class body above is what the compiled build (mypyc) makes native: the
# engine calls ``GameState.__new__`` directly (through ``make_state``), which
# fills the fields' slots with no checks.  ``GameState(...)`` from outside --
# callers, ``attrs.evolve``, unpickling -- must refuse a value of the wrong
# kind with the library's own error, in both builds alike:
#
# * compiled: mypyc would check the parameters' declared types itself and
#   raise a bare ``TypeError``, so ``__new__`` is replaced, for calls through
#   the class object only, by ``_checked_new``, which takes anything, checks
#   it, then calls the native ``__new__`` (the engine's calls still go to the
#   native one directly);
# * pure Python: ``__new__`` is replaced by a generated equivalent that fills
#   the slots through their descriptors (faster in the interpreter than
#   ``object.__setattr__``), and ``__init__`` makes the check.


def _checked_new(  # noqa: PLR0913, PLR0917  # one parameter per field of GameState
    cls: type[GameState],
    rules: object,
    dealer: object,
    phase: object,
    to_act: object,
    scores: object,
    completed_hands: object,
    setup: object,
    packed_hands: object,
    trick: object,
    tricks: object,
    log: object,
) -> GameState:
    """``GameState.__new__`` as called from outside: check the kinds, then build."""
    _check_kinds(rules, dealer, phase, to_act, scores, completed_hands, setup, packed_hands,
                 trick, tricks, log)  # fmt: skip
    return GameState.__new__(
        cls,
        cast("Rules", rules),
        cast("Seat", dealer),
        cast("Phase", phase),
        cast("Seat | None", to_act),
        cast("tuple[int, int]", scores),
        cast("tuple[HandRecord, ...]", completed_hands),
        cast("HandSetup", setup),
        cast("tuple[int, int, int, int]", packed_hands),
        cast("tuple[tuple[Seat, Card], ...]", trick),
        cast("tuple[Trick, ...]", tricks),
        cast("History | None", log),
    )


def _checking_init(self: GameState, *fields: object, **named: object) -> None:
    """The pure build's ``GameState.__init__``: refuse values of the wrong kind."""
    _check_kinds(*fields, **named)


def _fast_new(cls: type[_T]) -> Callable[..., _T]:
    """The pure build's ``__new__`` for one of these classes: the class body's, with the
    same parameters and defaults, filling the slots through their descriptors."""
    namespace: dict[str, object] = {"_new": object.__new__}
    params: list[str] = []
    body = ["    self = _new(cls)"]
    for index, field in enumerate(attrs.fields(cls)):
        namespace[f"_set{index}"] = vars(cls)[field.name].__set__
        if field.init:
            if field.default is attrs.NOTHING:
                params.append(field.name)
            else:
                namespace[f"_default{index}"] = field.default
                params.append(f"{field.name}=_default{index}")
            body.append(f"    _set{index}(self, {field.name})")
        else:
            namespace[f"_default{index}"] = field.default
            body.append(f"    _set{index}(self, _default{index})")
    lines = [f"def __new__(cls, {', '.join(params)}):", *body, "    return self"]
    exec("\n".join(lines), namespace)  # code generated from the class's own field list
    fast = cast("Callable[..., _T]", namespace["__new__"])
    fast.__doc__ = cls.__new__.__doc__
    return fast


keep_annotations(
    HandSetup,
    {
        "bids": "tuple[Union[Bid, Pass], ...]",
        "invitation": "tuple[Card, ...]",
        "partner_pass": "tuple[Card, ...]",
        "bidder_pass": "tuple[Card, ...]",
    },
)
keep_annotations(
    GameState,
    {
        "completed_hands": "tuple[HandRecord, ...]",
        "trick": "tuple[tuple[Seat, Card], ...]",
        "tricks": "tuple[Trick, ...]",
    },
)
_INIT_FIELDS: Final = tuple(field.name for field in attrs.fields(GameState) if field.init)


def _pure_history_init(self: History, previous: History | None, action: Action) -> None:
    """The pure build's ``History.__init__``: the class body's, filling slots directly."""
    _SET_PREVIOUS(self, previous)
    _SET_ACTION(self, action)
    _SET_LENGTH(self, 1 if previous is None else previous._length + 1)


def _pure_remember_legal(self: GameState, legal: LegalActions) -> LegalActions:
    """The pure build's ``GameState._remember_legal``, filling the slot directly."""
    _SET_LEGAL(self, legal)
    return legal


_SET_PREVIOUS: Final = vars(History)["previous"].__set__
_SET_ACTION: Final = vars(History)["action"].__set__
_SET_LENGTH: Final = vars(History)["_length"].__set__
_SET_LEGAL: Final = vars(GameState)["_legal"].__set__


def _checked_setup_new(  # noqa: PLR0913, PLR0917  # one parameter per field of HandSetup
    cls: type[HandSetup],
    bids: object = (),
    bidder: object = None,
    bid: object = None,
    sunk_suit: object = None,
    invitation: object = (),
    partner_pass: object = (),
    bidder_pass: object = (),
    melds: object = ((), (), (), ()),
) -> HandSetup:
    """``HandSetup.__new__`` as called from outside in the compiled build: check, then build."""
    _check_setup(bids, bidder, bid, sunk_suit, invitation, partner_pass, bidder_pass, melds)
    return HandSetup.__new__(
        cls,
        cast("tuple[Bid | Pass, ...]", bids),
        cast("Seat | None", bidder),
        cast("int | None", bid),
        cast("Suit | None", sunk_suit),
        cast("tuple[Card, ...]", invitation),
        cast("tuple[Card, ...]", partner_pass),
        cast("tuple[Card, ...]", bidder_pass),
        cast("SeatMelds", melds),
    )


def _checking_setup_init(self: HandSetup, *fields: object, **named: object) -> None:
    """The pure build's ``HandSetup.__init__``: refuse values of the wrong kind."""
    _check_setup(*fields, **named)


if _COMPILED:
    setattr(GameState, "__new__", staticmethod(_checked_new))  # noqa: B010  # see above
    setattr(HandSetup, "__new__", staticmethod(_checked_setup_new))  # noqa: B010  # see above
else:
    setattr(HandSetup, "__init__", _checking_setup_init)  # noqa: B010  # see above
    setattr(GameState, "__new__", staticmethod(_fast_new(GameState)))  # noqa: B010  # see above
    setattr(HandSetup, "__new__", staticmethod(_fast_new(HandSetup)))  # noqa: B010  # see above
    setattr(GameState, "__init__", _checking_init)  # noqa: B010  # see above
    setattr(GameState, "_remember_legal", _pure_remember_legal)  # noqa: B010  # see above
    setattr(History, "__init__", _pure_history_init)  # noqa: B010  # see above
