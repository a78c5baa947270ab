"""The client's messages, the version and the errors (see :mod:`deepsix.web.protocol`)."""

from __future__ import annotations

from typing import ClassVar, Final, Union

import attrs

from deepsix.errors import DeepSixError
from deepsix.io.messages import JSON, RawJSON, limit, wire_field

__all__ = [
    "CLIENT_MESSAGES",
    "ERROR_CODES",
    "JSON",
    "MAX_CHAT_CHARS",
    "MAX_MESSAGE_CHARS",
    "PROTOCOL_VERSION",
    "Act",
    "Chat",
    "ClientMessage",
    "Hello",
    "Leave",
    "LobbyHello",
    "Ping",
    "ProtocolError",
    "RawJSON",
    "Ready",
    "Resign",
    "Return",
    "WebError",
    "wire_field",
]

PROTOCOL_VERSION: Final = 2
"""The version of this protocol (1 was the unversioned protocol of the first web table)."""

MAX_MESSAGE_CHARS: Final = 4096
"""A client message longer than this is refused with ``too-large`` (the connection stays open)."""

MAX_CHAT_CHARS: Final = 300
"""The longest chat line, in characters."""


class WebError(DeepSixError):
    """A request the server refuses: ``code`` (one of ``ERROR_CODES``) for programs,
    ``message`` for people, ``status`` the HTTP status of an HTTP answer."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


class ProtocolError(WebError, ValueError):
    """A message that is not one of the protocol's (``bad-message``, ``too-large`` ...)."""

    def __init__(self, message: str, code: str = "bad-message") -> None:
        super().__init__(code, message)


def _limit(maximum: int, *, minimum: int = 0) -> dict[str, object]:
    return limit(maximum, minimum=minimum)


# -- client to server ------------------------------------------------------------------------


@attrs.frozen
class Hello:
    """The first message of a connection: who is connecting, and what the client already has.

    A browser proves its seat with the table's cookie; other clients may
    send the seat's ``token`` instead.  Without either, the connection
    watches (a private table then needs its ``invite`` code).  ``since`` is
    the last ``seq`` the client has seen: the server answers with a
    :class:`History` of the events after it, so a reconnecting client's log
    has no gap (``0`` asks for the whole game).
    """

    OP: ClassVar[str] = "hello"
    protocol: int = attrs.field(metadata=_limit(1_000_000))
    """The protocol version the client speaks (``PROTOCOL_VERSION``)."""
    token: str | None = attrs.field(default=None, metadata=_limit(200, minimum=1))
    """A seat's secret, for clients that do not keep cookies."""
    invite: str | None = attrs.field(default=None, metadata=_limit(100, minimum=1))
    """The table's invite code (watching a private table)."""
    since: int | None = attrs.field(default=None, metadata=_limit(1_000_000))
    """The last ``seq`` the client has seen."""


@attrs.frozen
class Act:
    """A move: one of the view's ``legal_actions``, unchanged, and the ``seq`` it was chosen at.

    A move for any other ``seq`` than the table's current one is refused
    with a ``stale`` error, followed by the current :class:`Update`: it is
    never applied to a later position.
    """

    OP: ClassVar[str] = "act"
    action: JSON = attrs.field(metadata=wire_field("Action"))
    """The action, in wire form."""
    seq: int = attrs.field(metadata=_limit(1_000_000))
    """The ``seq`` of the update the move was chosen in."""
    id: int | None = attrs.field(default=None, metadata=_limit(2**31))
    """Echoed in the error frame that may answer this message."""


@attrs.frozen
class Ping:
    """A heartbeat: keeps the seat's presence ``online``; answered by :class:`Pong`."""

    OP: ClassVar[str] = "ping"
    id: int | None = attrs.field(default=None, metadata=_limit(2**31))
    """Echoed in the pong."""


@attrs.frozen
class Chat:
    """A line of table chat (seated players only; plain text, stored with the game)."""

    OP: ClassVar[str] = "chat"
    text: str = attrs.field(metadata=_limit(MAX_CHAT_CHARS, minimum=1))
    """The line (plain text: clients must show it as text, never as markup)."""


@attrs.frozen
class Ready:
    """The seat has looked at the end of hand ``hand``: the next deal may come.

    The next deal waits until every human seat that is online has sent it
    (or the table's summary pause runs out).
    """

    OP: ClassVar[str] = "ready"
    hand: int = attrs.field(metadata=_limit(100_000))
    """The number of the hand just scored."""


@attrs.frozen
class Return:
    """Take the seat back from the stand-in bot that has been playing it."""

    OP: ClassVar[str] = "return"


@attrs.frozen
class Resign:
    """Concede the game for one's side: the table ends, the other side wins."""

    OP: ClassVar[str] = "resign"


@attrs.frozen
class Leave:
    """Give up one's seat for good: the table's stand-in bot plays it to the end."""

    OP: ClassVar[str] = "leave"


ClientMessage = Union[Hello, Act, Ping, Chat, Ready, Return, Resign, Leave]  # noqa: UP007  # a runtime value
"""Any message a client may send on a table's socket."""

CLIENT_MESSAGES: Final[tuple[type, ...]] = (Hello, Act, Ping, Chat, Ready, Return, Resign, Leave)
"""The client's messages on a table's socket, by class."""


@attrs.frozen
class LobbyHello:
    """The first message on the lobby's socket."""

    OP: ClassVar[str] = "hello"
    protocol: int = attrs.field(metadata=_limit(1_000_000))
    """The protocol version the client speaks."""


ERROR_CODES: Final = {
    "bad-message": "the message is not JSON, or not a message of this protocol",
    "too-large": "the message is longer than the protocol allows",
    "protocol-version": "the client speaks another version of the protocol",
    "rate-limited": "too many messages: they are dropped until the client slows down",
    "unauthorized": "no credential, or one that holds no seat at this table",
    "no-such-table": "the table does not exist (or is private)",
    "spectator": "only a seated player may do this",
    "not-started": "the game has not started: seats are still open",
    "finished": "the table has ended",
    "stale": "the move was chosen at another seq: the current update follows",
    "illegal": "the rules refuse the move (see rule and reason)",
    "standin": "a stand-in bot plays this seat: send return first",
    "chat-limit": "too many chat lines: wait a little",
    "storage": "the server could not store the move: nothing changed, try again",
    "revoked": "this credential was re-issued: the connection is closed",
    "seat-taken": "the seat is taken",
    "bad-seat": "not a seat letter, or a seat that cannot be used so",
    "bad-name": "a player's name must be printable text",
    "unknown-bot": "no bot of that name is installed",
    "forbidden": "only the table's host (or the seat's own player) may do this",
    "seeded-off": "this server does not make seeded tables",
    "full": "the server has no room for another table",
    "too-many-tables": "this address made too many tables (lately, or live at once)",
    "timeout": "the request came too slowly",
    "idle": "the connection said nothing for too long: reconnect",
    "quarantined": "the stored table could not be rebuilt: it is kept, not served",
    "bad-request": "the request is malformed",
    "not-finished": "the game is not over: its record would show hidden cards",
    "no-such-route": "no API route at this path",
    "method-not-allowed": "the route does not take this method",
    "internal": "the server failed (logged); try again",
}
"""Every error frame's ``code``, with its meaning."""
