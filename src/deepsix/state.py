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
from collections.abc import Callable
from typing import Final, NoReturn, Optional, TypeVar, cast

import attr
import attrs

from deepsix.actions import Action, Bid, LegalActions, Pass
from deepsix.cards import Card, Seat, Suit, Team, seat_of
from deepsix.compiled import COMPILED, fast_new, keep_annotations
from deepsix.display import html_of, svg_of, text_of
from deepsix.errors import InvalidStateError, RefusesUnknownValues
from deepsix.hands import unpack
from deepsix.handsetup import EMPTY_SETUP, HandSetup, SeatMelds
from deepsix.history import History
from deepsix.rules import Rules
from deepsix.scoring import card_points
from deepsix.table import team_meld, tricks_taken
from deepsix.tricks import Trick
from deepsix.typecheck import check_kinds

_T = TypeVar("_T", bound=attrs.AttrsInstance)

__all__ = [
    "EMPTY_SETUP",
    "GameState",
    "HandRecord",
    "HandSetup",
    "Phase",
    "SeatMelds",
    "bind_engine",
    "make_state",
    "successor",
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

    def __str__(self) -> str:
        return str(self.value)  # "bidding", as the notation and JSON write it


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

    # <generated: value methods>
    # fmt: off
    def __new__(  # noqa: PLR0913, PLR0917  # one parameter per field
        cls, rules: Rules, dealer: Seat, phase: Phase, to_act: Optional[Seat],
        scores: tuple[int, int], completed_hands: tuple[HandRecord, ...], setup: HandSetup,
        packed_hands: tuple[int, int, int, int], trick: tuple[tuple[Seat, Card], ...],
        tricks: tuple[Trick, ...], log: Optional[History],
    ) -> GameState:
        """Build a GameState from its fields, unchecked (the engine's path)."""
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

    def __init__(  # noqa: PLR0913, PLR0917  # one parameter per field
        self, rules: Rules, dealer: Seat, phase: Phase, to_act: Optional[Seat],
        scores: tuple[int, int], completed_hands: tuple[HandRecord, ...], setup: HandSetup,
        packed_hands: tuple[int, int, int, int], trick: tuple[tuple[Seat, Card], ...],
        tricks: tuple[Trick, ...], log: Optional[History],
    ) -> None:
        """The fields, set by ``__new__``; ``GameState(...)`` also checks their kinds."""

    def _fields(self) -> tuple[object, ...]:
        return (self.rules, self.dealer, self.phase, self.to_act, self.scores, self.completed_hands,
            self.setup, self.packed_hands, self.trick, self.tricks, self.log)

    def __eq__(self, other: object) -> bool:
        if type(other) is not GameState:
            return NotImplemented
        return self._fields() == other._fields()

    def __ne__(self, other: object) -> bool:
        if type(other) is not GameState:
            return NotImplemented
        return self._fields() != other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __reduce__(self) -> tuple[object, ...]:
        return (GameState, self._fields())

    def __setattr__(self, name: str, value: object) -> None:
        raise attrs.exceptions.FrozenInstanceError

    def __delattr__(self, name: str) -> None:
        raise attrs.exceptions.FrozenInstanceError
    # fmt: on
    # </generated>

    def _remember_legal(self, legal: LegalActions) -> LegalActions:
        """Store the legal-action list (a cache, not part of the state's value)."""
        object.__setattr__(self, "_legal", legal)
        return legal

    # -- the hand ---------------------------------------------------------
    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Each seat's cards as a sorted tuple (cards in flight between partners excluded)."""
        return tuple(unpack(packed) for packed in self.packed_hands)

    def hand(self, seat: Seat | int | str) -> tuple[Card, ...]:
        """One seat's cards, sorted; ``seat`` is a :class:`Seat`, its number or its letter."""
        return unpack(self.packed_hands[seat if type(seat) is Seat else seat_of(seat)])

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

    # -- what a state and a PlayerView answer alike (tools/value_methods.py) --
    # <generated: shared properties>
    @property
    def is_chance(self) -> bool:
        """Whether the next step is chance's (a deal)."""
        return self.phase is Phase.DEAL

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.phase is Phase.GAME_OVER

    @property
    def tricks_taken(self) -> tuple[int, int]:
        """How many tricks each team has taken this hand."""
        return tricks_taken(self.tricks)

    @property
    def card_points(self) -> tuple[int, int]:
        """Card points each team has taken this hand (the last-trick bonus included at the end)."""
        return card_points(self.tricks)

    @property
    def team_meld(self) -> tuple[int, int]:
        """Each team's declared meld total this hand."""
        return team_meld(self.melds)

    # </generated>

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

    def __str__(self) -> str:
        """The position as text, every hand open (ASCII; :meth:`unicode` for suit symbols)."""
        return text_of(self, False) or repr(self)

    def unicode(self) -> str:
        """The position as text with suit symbols (``7♠``), every hand open."""
        return text_of(self, True) or repr(self)

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


# -- how GameState(...) is wired in each build ---------------------------------------
#
# The class bodies above are what the compiled build (mypyc) makes native: the
# engine calls ``GameState.__new__`` directly (or ``make_state``), which fills
# the fields' slots with no checks.  ``GameState(...)`` from outside --
# callers, ``attrs.evolve``, unpickling -- must refuse a value of the wrong
# kind with the library's own error (:func:`deepsix.typecheck.check_kinds`),
# in both builds alike:
#
# * compiled: mypyc would check the parameters' declared types itself and
#   raise a bare ``TypeError``, so ``__new__`` is replaced, for calls through
#   the class object only, by ``_checked_new_*``, which takes anything, checks
#   it, then calls the native ``__new__`` (the engine's calls still go to the
#   native one directly);
# * pure Python: ``__new__`` is replaced by a generated equivalent that fills
#   the slots through their descriptors (faster in the interpreter than
#   ``object.__setattr__``), and ``__init__`` makes the check.


# <generated: constructors of GameState>
# fmt: off
def _checked_new_GameState(  # noqa: PLR0913, PLR0917  # one parameter per field
    cls: type[GameState], rules: object, dealer: object, phase: object, to_act: object,
    scores: object, completed_hands: object, setup: object, packed_hands: object, trick: object,
    tricks: object, log: object,
) -> GameState:
    """``GameState.__new__`` as called from outside in the compiled build: check, then build."""
    check_kinds(GameState, (
        rules, dealer, phase, to_act, scores, completed_hands, setup, packed_hands, trick,
        tricks, log,
    ))
    return GameState.__new__(
        cls, cast("Rules", rules), cast("Seat", dealer), cast("Phase", phase),
        cast("Optional[Seat]", to_act), cast("tuple[int, int]", scores),
        cast("tuple[HandRecord, ...]", completed_hands), cast("HandSetup", setup),
        cast("tuple[int, int, int, int]", packed_hands),
        cast("tuple[tuple[Seat, Card], ...]", trick), cast("tuple[Trick, ...]", tricks),
        cast("Optional[History]", log)
    )


def _checking_init_GameState(  # noqa: PLR0913, PLR0917  # one parameter per field
    self: GameState, rules: object, dealer: object, phase: object, to_act: object,
    scores: object, completed_hands: object, setup: object, packed_hands: object, trick: object,
    tricks: object, log: object,
) -> None:
    """The pure build's ``GameState.__init__``: refuse values of the wrong kind."""
    check_kinds(GameState, (
        rules, dealer, phase, to_act, scores, completed_hands, setup, packed_hands, trick,
        tricks, log,
    ))


def make_state(  # noqa: PLR0913, PLR0917  # one parameter per field
    rules: Rules, dealer: Seat, phase: Phase, to_act: Optional[Seat], scores: tuple[int, int],
    completed_hands: tuple[HandRecord, ...], setup: HandSetup,
    packed_hands: tuple[int, int, int, int], trick: tuple[tuple[Seat, Card], ...],
    tricks: tuple[Trick, ...], log: Optional[History],
) -> GameState:
    """``GameState(...)`` for the engine's hot path: the same arguments, unchecked and faster.

    The engine's values are right by construction, so this skips the kind
    checks that ``GameState(...)`` makes on values from outside.
    """
    return GameState.__new__(
        GameState, rules, dealer, phase, to_act, scores, completed_hands, setup,
        packed_hands, trick, tricks, log
    )
# fmt: on
# </generated>


def successor(  # noqa: PLR0913, PLR0917  # one positional call per step keeps the hot path cheap
    state: GameState,
    action: Action,
    phase: Phase,
    to_act: Optional[Seat],
    setup: HandSetup,
    packed_hands: tuple[int, int, int, int],
) -> GameState:
    """The state after ``action`` within the same hand and before its play: a phase's step
    names what changed, the rest is carried over."""
    return GameState.__new__(
        GameState, state.rules, state.dealer, phase, to_act, state.scores,
        state.completed_hands, setup, packed_hands, state.trick, state.tricks,
        History(state.log, action),
    )  # fmt: skip


keep_annotations(
    GameState,
    {
        "completed_hands": "tuple[HandRecord, ...]",
        "trick": "tuple[tuple[Seat, Card], ...]",
        "tricks": "tuple[Trick, ...]",
    },
)


def _pure_remember_legal(self: GameState, legal: LegalActions) -> LegalActions:
    """The pure build's ``GameState._remember_legal``, filling the slot directly."""
    _SET_LEGAL(self, legal)
    return legal


_SET_LEGAL: Final = vars(GameState)["_legal"].__set__


if COMPILED:
    setattr(GameState, "__new__", staticmethod(_checked_new_GameState))  # noqa: B010  # see above
else:
    setattr(GameState, "__new__", staticmethod(fast_new(GameState)))  # noqa: B010  # see above
    setattr(GameState, "__init__", _checking_init_GameState)  # noqa: B010  # see above
    setattr(GameState, "_remember_legal", _pure_remember_legal)  # noqa: B010  # see above
