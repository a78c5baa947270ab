"""The table protocol, declared once: every message either side may send, as typed classes.

A WebSocket carries JSON text frames, each one object whose ``"op"`` names
its message class.  Each class below is the single declaration of one
message: the server reads client messages with :func:`parse_client`
(unknown ops, unknown or missing keys, wrong types and oversized values are
refused with a :class:`ProtocolError`), writes its own with :func:`encode`,
and :func:`protocol_schema` derives the JSON Schema of both directions from
the same classes (served at ``GET /api/schema/protocol``; the test suite
checks every frame it receives against it).

The moves themselves, the views and the events inside the frames are the
library's wire format (:mod:`deepsix.io.wire`), referenced by the schema.

>>> from deepsix.web.protocol import Pong, encode, parse_client
>>> message = parse_client('{"op": "act", "seq": 3, "action": {"type": "Pass", "seat": "E"}}')
>>> message
Act(action={'type': 'Pass', 'seat': 'E'}, seq=3, id=None)
>>> encode(Pong(id=7))
'{"op":"pong","id":7}'
>>> parse_client('{"op": "act", "action": {}}')
Traceback (most recent call last):
...
deepsix.web.protocol.messages.ProtocolError: an act message needs seq (the seq of the update ...)

Version ``PROTOCOL_VERSION`` of the protocol; a client names the
version it speaks in its ``hello`` and is refused (``protocol-version``) if
the server speaks another.
"""

from deepsix.web.protocol.codec import encode, parse_client, protocol_schema
from deepsix.web.protocol.frames import (
    HTTP_BODIES,
    LOBBY_MESSAGES,
    SERVER_MESSAGES,
    ChatFrame,
    ChatLine,
    Clock,
    Error,
    History,
    HistoryStep,
    Holder,
    LobbyFrame,
    Notice,
    Pong,
    Presence,
    Quarantined,
    ReplayPage,
    ReplayStep,
    Result,
    SeatInfo,
    TableInfo,
    Update,
    Welcome,
)
from deepsix.web.protocol.messages import (
    CLIENT_MESSAGES,
    ERROR_CODES,
    MAX_CHAT_CHARS,
    MAX_MESSAGE_CHARS,
    PROTOCOL_VERSION,
    Act,
    Chat,
    ClientMessage,
    Hello,
    Leave,
    LobbyHello,
    Ping,
    ProtocolError,
    RawJSON,
    Ready,
    Resign,
    Return,
    WebError,
)

__all__ = [
    "CLIENT_MESSAGES",
    "ERROR_CODES",
    "HTTP_BODIES",
    "LOBBY_MESSAGES",
    "MAX_CHAT_CHARS",
    "MAX_MESSAGE_CHARS",
    "PROTOCOL_VERSION",
    "SERVER_MESSAGES",
    "Act",
    "Chat",
    "ChatFrame",
    "ChatLine",
    "ClientMessage",
    "Clock",
    "Error",
    "Hello",
    "History",
    "HistoryStep",
    "Holder",
    "Leave",
    "LobbyFrame",
    "LobbyHello",
    "Notice",
    "Ping",
    "Pong",
    "Presence",
    "ProtocolError",
    "Quarantined",
    "RawJSON",
    "Ready",
    "ReplayPage",
    "ReplayStep",
    "Resign",
    "Result",
    "Return",
    "SeatInfo",
    "TableInfo",
    "Update",
    "WebError",
    "Welcome",
    "encode",
    "parse_client",
    "protocol_schema",
]
