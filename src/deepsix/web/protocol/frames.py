"""The server's frames, the lobby's and the HTTP API's bodies (see :mod:`deepsix.web.protocol`)."""

from __future__ import annotations

from typing import ClassVar, Final, Literal

import attrs

from deepsix.web.protocol.messages import JSON, wire_field

__all__ = [
    "HTTP_BODIES",
    "LOBBY_MESSAGES",
    "SERVER_MESSAGES",
    "ChatFrame",
    "ChatLine",
    "Clock",
    "Error",
    "History",
    "HistoryStep",
    "Holder",
    "LobbyFrame",
    "Notice",
    "Pong",
    "Presence",
    "Quarantined",
    "ReplayPage",
    "ReplayStep",
    "Result",
    "SeatInfo",
    "TableInfo",
    "Update",
    "Welcome",
]

# -- server to client ------------------------------------------------------------------------

Presence = Literal["online", "away", "offline"]
Kind = Literal["open", "human", "bot"]
Status = Literal["waiting", "running", "finished", "quarantined"]


@attrs.frozen
class Holder:
    """Who held a seat: a person, by her name, or a bot, by its name."""

    kind: Literal["human", "bot"]
    """``human`` or ``bot``."""
    name: str
    """The person's name, or the bot's (``heuristic``)."""


@attrs.frozen
class SeatInfo:
    """One seat as everyone may see it."""

    seat: str
    """``N``, ``E``, ``S`` or ``W``."""
    kind: Kind
    """``open`` (waiting for a player), ``human`` or ``bot``."""
    bot: str | None
    """The bot's name, for a bot seat."""
    name: str
    """The name shown."""
    online: bool
    """Whether someone plays the seat now (a bot always does)."""
    presence: Presence
    """``online`` (heartbeats arriving), ``away`` (connected but silent) or ``offline``."""
    standin: str | None
    """The bot playing this human's seat while she is away, if one is."""
    played: tuple[Holder, ...] = ()
    """Everyone who has held the seat in this game, in order (the last holds it now, while
    the table lives): more than one once the seat changed hands (a person replaced by a
    bot, say).  A stand-in playing for an absent person does not count: the seat is hers."""


@attrs.frozen
class Result:
    """How a table ended."""

    winner: Literal["NS", "EW"] | None
    """The winning side, if any."""
    reason: Literal["game-over", "resigned", "abandoned", "closed"]
    """``game-over`` (a side reached the target), ``resigned``, ``abandoned`` (by the host)
    or ``closed`` (nobody came back)."""
    by: str | None
    """The seat that resigned, if one did."""


@attrs.frozen
class TableInfo:
    """A table's public description: in every update and in the lobby (never a secret)."""

    id: str
    """The table's id (its address is ``/table/{id}``)."""
    status: Status
    """``waiting`` (seats open), ``running``, ``finished`` or ``quarantined``."""
    started: bool
    """Whether the game has started."""
    private: bool
    """Unlisted: reachable with its invite link only."""
    seeded: bool
    """The deals follow a seed given when the table was made (a server option for tests and
    puzzles): such a table is not a fair game."""
    seq: int
    """How many actions the game has had (deals included): the version of its state."""
    phase: str
    """The phase (as in the view)."""
    hand_number: int
    """The current hand's number."""
    scores: tuple[int, int]
    """Running totals, NS then EW."""
    seats: tuple[SeatInfo, ...]
    """The four seats, N E S W."""
    spectators: int
    """How many connections are watching."""
    clock: float | None
    """Seconds a human has for each decision, or ``None`` (no turn clock)."""
    standin: str
    """The bot that plays an absent human's seat."""
    created: float
    """When the table was made (seconds since the epoch)."""
    result: Result | None
    """How it ended, once it has."""
    next: str | None
    """The rematch's table id, once one is made."""
    hint: bool = False
    """Seated players may ask for the quick search bot's choice on their turn
    (``GET /api/tables/{id}/hint``); set when the table is made."""


@attrs.frozen
class Clock:
    """The turn clock of the seat to act."""

    seat: str
    """The seat whose clock runs."""
    limit: float
    """Seconds it had when the turn began."""
    remaining: float
    """Seconds left when this frame was sent."""
    deadline: float
    """When it runs out (seconds since the epoch, server time)."""
    reason: Literal["turn", "absent"]
    """``turn``: the table's turn clock; ``absent``: the seat is offline, and a stand-in takes
    it when this runs out."""


@attrs.frozen
class Welcome:
    """The answer to ``hello``: who the connection is."""

    OP: ClassVar[str] = "welcome"
    protocol: int
    """The server's ``PROTOCOL_VERSION``."""
    table: str
    """The table's id."""
    seat: str | None
    """The connection's seat, or ``None`` for a spectator."""
    host: bool
    """Whether the connection holds the table's host credential."""
    invite: str | None
    """The table's invite code, for its players and host (``/table/{id}#invite={code}``)."""
    melds: JSON
    """Each meld code's name, value and cards, for drawing melds."""


@attrs.frozen
class Update:
    """The table after a step, for one seat: its own view, the step's events, the clock."""

    OP: ClassVar[str] = "update"
    seq: int
    """The version of the game this frame shows."""
    table: TableInfo
    """The table's public description."""
    view: JSON = attrs.field(metadata=wire_field("PlayerView"))
    """``view(state, seat)`` in wire form (the public view for a spectator)."""
    events: tuple[JSON, ...] = attrs.field(metadata=wire_field("Event", many=True))
    """The public events of the step that led here (none for a re-sent frame)."""
    winning: str | None
    """The seat winning the trick in progress, by the rules (``null`` between tricks), so that
    no client reimplements the rule of the last suit introduced."""
    clock: Clock | None
    """The clock of the seat to act, if one runs."""


@attrs.frozen
class HistoryStep:
    """The events of one past step."""

    seq: int
    """The step's ``seq``."""
    events: tuple[JSON, ...] = attrs.field(metadata=wire_field("Event", many=True))
    """Its public events."""


@attrs.frozen
class History:
    """The events of the steps after ``since`` (the answer to a hello's ``since``)."""

    OP: ClassVar[str] = "history"
    since: int
    """The client's last ``seq``."""
    seq: int
    """The current ``seq``."""
    steps: tuple[HistoryStep, ...]
    """Every step after ``since`` that had events, in order."""


@attrs.frozen
class Error:
    """A refusal: nothing changed.  ``code`` is one of ``ERROR_CODES``."""

    OP: ClassVar[str] = "error"
    code: str
    """What went wrong, for programs."""
    message: str
    """What went wrong, for people."""
    seq: int | None = None
    """The table's current ``seq``."""
    rule: str | None = None
    """The rule an illegal move breaks (``R-BID-3`` ...)."""
    reason: str | None = None
    """The library's :class:`~deepsix.Reason` name, for an illegal move."""
    id: int | None = None
    """The ``id`` of the client message this answers."""


@attrs.frozen
class Pong:
    """The answer to a ping."""

    OP: ClassVar[str] = "pong"
    id: int | None = None
    """The ping's ``id``."""


@attrs.frozen
class ChatLine:
    """One stored line of table chat."""

    seat: str | None
    """Who said it (a seat letter)."""
    name: str
    """Her name when she said it."""
    text: str
    """The line, plain text."""
    at: float
    """When (seconds since the epoch)."""
    seq: int
    """The game's ``seq`` when it was said."""


@attrs.frozen
class ChatFrame:
    """Lines of table chat: the latest ones after a hello, then each new one."""

    OP: ClassVar[str] = "chat"
    messages: tuple[ChatLine, ...]
    """The lines, oldest first."""


@attrs.frozen
class Notice:
    """Something the table should know that is not a move (shown to people, not applied)."""

    OP: ClassVar[str] = "notice"
    kind: Literal[
        "bot-fallback",
        "standin",
        "returned",
        "left",
        "resigned",
        "abandoned",
        "closed",
        "rematch",
        "storage",
        "storage-back",
        "revoked",
        "seat-changed",
    ]
    """``bot-fallback`` (a bot failed: another made its move), ``standin`` (a bot now plays an
    absent human), ``returned`` (she took her seat back), ``left``, ``resigned``,
    ``abandoned``, ``closed`` (idle), ``rematch`` (see ``table``), ``storage`` (a move could
    not be stored: the table waits for storage), ``storage-back``, ``revoked`` (this
    connection's credential was re-issued: it is closed), ``seat-changed``."""
    message: str
    """A sentence for people."""
    seat: str | None = None
    """The seat concerned, if any."""
    table: str | None = None
    """For ``rematch``: the new table's id."""


SERVER_MESSAGES: Final[tuple[type, ...]] = (
    Welcome,
    Update,
    History,
    Error,
    Pong,
    ChatFrame,
    Notice,
)
"""The server's messages on a table's socket."""


@attrs.frozen
class Quarantined:
    """A stored table the server could not rebuild: kept untouched, not served."""

    id: str
    """The table's id."""
    reason: str
    """Why it could not be rebuilt."""


@attrs.frozen
class LobbyFrame:
    """The lobby, pushed whenever a listed table changes."""

    OP: ClassVar[str] = "lobby"
    open: tuple[TableInfo, ...]
    """Public tables with open seats, newest first (50 at most; more:
    ``GET /api/tables?status=open``)."""
    running: tuple[TableInfo, ...]
    """Public tables being played, newest first (50 at most; more:
    ``GET /api/tables?status=running``)."""
    finished: tuple[TableInfo, ...]
    """The latest finished public tables (more: ``GET /api/tables?status=finished``)."""
    quarantined: tuple[Quarantined, ...]
    """Stored tables that could not be rebuilt."""


LOBBY_MESSAGES: Final[tuple[type, ...]] = (LobbyFrame, Error, Pong)
"""The server's messages on the lobby's socket."""


# -- HTTP bodies -----------------------------------------------------------------------------


@attrs.frozen
class ReplayStep:
    """One step of a finished game, as a replay page shows it."""

    seq: int
    """The step's number: the position after ``seq`` actions (1 is the first deal)."""
    hand: int
    """The number of the hand the step belongs to."""
    phase: str
    """The phase the action was taken in."""
    action: str
    """The action in the record's notation (``deal`` for a deal)."""
    move: JSON = attrs.field(metadata=wire_field("Action", nullable=True))
    """The action in wire form (``null`` for a deal, which would show every hand)."""
    events: tuple[JSON, ...] = attrs.field(metadata=wire_field("Event", many=True))
    """Its public events."""
    view: JSON = attrs.field(metadata=wire_field("PlayerView", nullable=True))
    """The position after the step as the asked seat saw it (with ``seat``; else ``null``)."""
    hands: tuple[tuple[str, ...], ...] | None
    """Every seat's cards after the step, N E S W (with ``seat=open``; else ``null``)."""


@attrs.frozen
class ReplayPage:
    """``GET /api/tables/{id}/replay``: the steps of a finished game (a page at a time)."""

    table: TableInfo
    """The table's description."""
    seat: str | None
    """Whose view the steps carry: a seat letter, ``open`` (every hand), or ``null`` (none)."""
    total: int
    """How many actions the game had (its steps are 1 to ``total``)."""
    hands: tuple[JSON, ...] = attrs.field(metadata=wire_field("HandRecord", many=True))
    """The score sheet: every completed hand's record."""
    steps: tuple[ReplayStep, ...]
    """The steps asked for, in order."""
    holders: tuple[tuple[tuple[Holder, ...], ...], ...] = ()
    """Who held each seat in each hand: ``holders[0]`` is hand 1's, four lists N E S W, each
    the seat's holders in the order they took it (two when it changed hands during the
    hand)."""


HTTP_BODIES: Final[tuple[type, ...]] = (TableInfo, ReplayPage)
"""Declared bodies of the HTTP API's answers."""
