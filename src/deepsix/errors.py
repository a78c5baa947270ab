"""The library's exceptions: one base class, each error naming what went wrong.

Every error the library raises derives from :class:`DeepSixError` and from
exactly one builtin exception, the one a generic caller would catch for
that kind of mistake: :class:`ValueError` for bad *values* (a malformed
card, an illegal action, a corrupt saved game), :class:`TypeError` for a
value of the wrong *type* (:class:`WrongTypeError`, and
:class:`NotAnActionError` among them), :class:`ImportError` for a missing
extra, :class:`KeyError` for a name looked up that is not there.  The
hierarchy is flat: no error is two builtins at once.

An :class:`IllegalActionError` carries a machine-readable :class:`Reason`;
each reason names the numbered rule (``R-PLAY-2`` and so on, see
:mod:`deepsix.rulebook`) that the action breaks.
"""

from __future__ import annotations

import enum
from typing import Any

__all__ = [
    "DeepSixError",
    "IllegalActionError",
    "InvalidStateError",
    "InvariantError",
    "MissingDependencyError",
    "NotAnActionError",
    "ParseError",
    "Reason",
    "RefusesUnknownValues",
    "SerializationError",
    "UnknownNameError",
    "WrongTypeError",
    "brief",
    "missing_extra",
]


class DeepSixError(Exception):
    """Base class of every error raised by deepsix."""


class ParseError(DeepSixError, ValueError):
    """Input is malformed: text that is not a card, suit, seat or action, or a
    value of the wrong type where one of those (or a :class:`~deepsix.Rules`) is expected."""


class WrongTypeError(DeepSixError, TypeError):
    """A value of the wrong type was given where the library needs one of its own
    (``view()`` given something that is not a :class:`~deepsix.GameState`, a bot
    given something that is not a :class:`~deepsix.PlayerView`, ...).

    A :class:`TypeError` (not a :class:`ParseError`: nothing was parsed).
    """


class UnknownNameError(DeepSixError, KeyError):
    """A name looked up is not there (a bot in the bot registry, a piece of an
    observation layout).

    A :class:`KeyError`, as a lookup by key promises (``Mapping.get`` and ``in``
    rely on it); not a :class:`ParseError`: the name was read, it is just unknown.
    """

    def __str__(self) -> str:  # KeyError's own would quote the whole message
        return str(self.args[0]) if self.args else ""


class InvalidStateError(DeepSixError, ValueError):
    """A game state breaks an invariant of the game (see :func:`deepsix.validate`)."""


class InvariantError(InvalidStateError):
    """A state breaks an invariant; ``.invariant`` names it (see :func:`deepsix.validate`)."""

    def __init__(self, invariant: str, detail: str) -> None:
        self.invariant = invariant
        self.detail = detail
        super().__init__(f"invalid state ({invariant}): {detail}")


class SerializationError(DeepSixError, ValueError):
    """A saved document (JSON, a game record) is malformed, inconsistent or hostile."""


class MissingDependencyError(DeepSixError, ImportError):
    """A feature needs an optional extra that is not installed (``pip install "deepsix[web]"``).

    ``extra`` names the extra to install and ``name`` the module that is
    missing; the message says both in one line.
    """

    def __init__(self, message: str, *, extra: str = "", name: str | None = None) -> None:
        super().__init__(message, name=name)
        self.extra = extra


def missing_extra(feature: str, extra: str, error: ImportError) -> MissingDependencyError:
    """The error for ``feature`` when importing one of the ``extra``'s dependencies failed.

    >>> str(missing_extra("deepsix serve", "web", ImportError(name="uvicorn")))
    'deepsix serve needs the web extra (uvicorn is not installed): pip install "deepsix[web]"'
    """
    missing = error.name.partition(".")[0] if error.name else str(error)
    return MissingDependencyError(
        f"{feature} needs the {extra} extra ({missing} is not installed): "
        f'pip install "deepsix[{extra}]"',
        extra=extra,
        name=error.name,
    )


class RefusesUnknownValues:
    """Mixed into the library's enums: ``Seat(7)`` raises :class:`ParseError` (still a
    ``ValueError``) naming the values there are, not a bare ``ValueError``.

    An enum with a ``parse`` classmethod reads its notation too: ``Seat("S")`` is
    ``Seat.parse("S")``, ``Suit("♠")`` is ``Suit.parse("♠")``.
    """

    @classmethod
    def _missing_(cls, value: object) -> Any:  # the member parse returns, or no return
        parse = getattr(cls, "parse", None)
        if isinstance(value, str) and parse is not None:
            return parse(value)
        members = list(cls)  # type: ignore[call-overload]  # only ever mixed into an Enum
        simple = all(isinstance(member.value, int | str) for member in members)
        names = ", ".join(repr(member.value) if simple else member.name for member in members)
        raise ParseError(f"{brief(value)} is not a {cls.__name__} (one of {names})")


class Reason(RefusesUnknownValues, enum.Enum):
    """Why an action is illegal.  ``reason.rule`` is the rule it breaks."""

    GAME_OVER = ("R-END-1", "the game is over; no more actions are taken")
    CHANCE_STEP = ("R-DEAL-1", "the cards must be dealt first (a chance step: apply a Deal)")
    NOT_CHANCE_STEP = ("R-DEAL-1", "cards are dealt only at the start of a hand")
    BAD_DEAL = ("R-DEAL-1", "a deal must hand out the whole 56-card deck, each card twice")
    WRONG_PHASE = ("R-PHASE-1", "this kind of action does not belong to the current phase")
    NOT_YOUR_TURN = ("R-TURN-1", "it is another seat's turn")
    NOT_YOUR_SEAT = ("R-TURN-1", "a player may act only for her own seat")
    BID_NOT_MULTIPLE = ("R-BID-3", "bids must be multiples of the bid step")
    BID_ABOVE_OPENING = ("R-BID-4", "the opening bid may be at most the opening limit")
    BID_NOT_LOWER = ("R-BID-5", "each bid must be strictly lower than the standing bid")
    BID_BELOW_FLOOR = ("R-BID-6", "the bid is below the lowest legal bid")
    DEALER_MUST_BID = ("R-BID-7", "after three passes the dealer must bid the forced amount")
    CARD_NOT_IN_HAND = ("R-CARD-1", "the seat does not hold that card (or not enough copies)")
    NOT_MELDABLE = ("R-INVITE-2", "an invitation may show only cards that could belong to a meld")
    CARD_MELDED = ("R-PASS-2", "cards melded on the table cannot be passed back")
    MELD_UNAVAILABLE = ("R-MELD-3", "the seat's cards cannot form that meld beside its other melds")
    RUN_IN_SUNK_SUIT = ("R-MELD-2", "a run may not be melded in the sunk suit")
    TOO_FEW_UNMELDED = ("R-MELD-4", "the bidder must keep enough unmelded cards to pass back")
    MUST_FOLLOW_SUIT = ("R-PLAY-2", "a player who can follow the suit led must do so")
    MUST_PLAY_OVER = ("R-PLAY-3", "a player who follows suit must play over the trick if able")
    UNKNOWN_ACTION = ("R-PHASE-1", "the value is not a deepsix action")

    def __init__(self, rule: str, description: str) -> None:
        self.rule = rule
        self.description = description


class IllegalActionError(DeepSixError, ValueError):
    """An action was applied to a state in which it is not legal.

    The state it was applied to is untouched (states are immutable).
    ``reason`` says why (``rule`` is its rule number), ``detail`` adds the
    particulars, and ``action`` is the action that was refused.
    """

    def __init__(self, reason: Reason, detail: str = "", action: object = None) -> None:
        self.reason = reason
        self.rule = reason.rule
        self.detail = detail
        self.action = action
        message = f"{reason.rule}: {reason.description}"
        if detail:
            message = f"{message} ({detail})"
        super().__init__(message)


class NotAnActionError(WrongTypeError):
    """Something that is not an action was applied to a state (a string, ``None``, an
    action built without its constructor).

    A :class:`WrongTypeError` (so a :class:`TypeError`): the mistake is the value's
    type, not a move against the rules, so it is not an :class:`IllegalActionError`.
    Like one, it carries ``reason`` (``Reason.UNKNOWN_ACTION``), ``rule``, ``detail``
    and ``action``, for a front end that reports both the same way.
    """

    def __init__(self, action: object, detail: str = "") -> None:
        self.reason = Reason.UNKNOWN_ACTION
        self.rule = Reason.UNKNOWN_ACTION.rule
        self.detail = detail
        self.action = action
        what = detail or f"{type(action).__name__} {brief(action)}"
        hint = " (read text with deepsix.parse_action)" if isinstance(action, str) else ""
        super().__init__(f"not a deepsix action: {what}{hint}")


def brief(value: object) -> str:
    """A short repr that never fails (the value may be half-built or hostile)."""
    try:
        shown = repr(value)
    except Exception:  # any failure of a foreign __repr__ must not hide the real error
        return "(unprintable)"
    return shown if len(shown) <= 60 else shown[:60] + "..."
