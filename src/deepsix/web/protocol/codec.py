"""Reading, writing and describing the protocol's messages (see :mod:`deepsix.web.protocol`).

The work is the package's message kit's (:mod:`deepsix.io.messages`); this module says
what is the web protocol's own: the ``op`` tag, its error, the keys whose need it explains,
the frames that leave out an empty ``id``, and the schema's parts.
"""

from __future__ import annotations

from typing import Any, Final, cast

import attrs

from deepsix.errors import DeepSixError
from deepsix.io.messages import MessageKit, MessageSchema
from deepsix.io.wire import wire_schema
from deepsix.web.protocol.frames import (
    HTTP_BODIES,
    LOBBY_MESSAGES,
    SERVER_MESSAGES,
    Error,
    Pong,
)
from deepsix.web.protocol.messages import (
    CLIENT_MESSAGES,
    MAX_MESSAGE_CHARS,
    PROTOCOL_VERSION,
    Act,
    Hello,
    LobbyHello,
    Ping,
    ProtocolError,
)

__all__ = ["KIT", "encode", "parse_client", "protocol_schema"]


def _refuse(text: str, code: str) -> DeepSixError:
    return ProtocolError(text, code)


def _reason(cls: type, name: str) -> str:
    if cls is Act and name == "seq":
        return " (the seq of the update the move was chosen in)"
    if cls is Hello and name == "protocol":
        return f" (the protocol version: {PROTOCOL_VERSION})"
    return ""


def _omit_none(cls: type, field: attrs.Attribute[Any]) -> bool:
    """Optional fields of the small frames are left out when empty (the schema says so)."""
    return cls in (Pong, Error) and field.name == "id"


KIT: Final = MessageKit(
    tag="op",
    tag_attr="OP",
    max_chars=MAX_MESSAGE_CHARS,
    refuse=_refuse,
    omit_none=_omit_none,
    reason=_reason,
)
"""The web protocol's reader, writer and describer of messages."""

_CLIENT_BY_OP: Final = {KIT.tag_of(cls): cls for cls in CLIENT_MESSAGES}
_LOBBY_BY_OP: Final = {"hello": LobbyHello, "ping": Ping}


def parse_client(text: str | bytes, *, lobby: bool = False) -> Any:
    """The client message in ``text``; raises :class:`ProtocolError` for anything else."""
    return KIT.parse(text, _LOBBY_BY_OP if lobby else _CLIENT_BY_OP)


def encode(message: object) -> str:
    """The JSON text of a server message (``op`` first, then the fields in declared order)."""
    return KIT.encode(message)


def protocol_schema() -> dict[str, object]:
    """The JSON Schema of the protocol: ``ClientMessage``, ``ServerMessage`` and ``LobbyMessage``.

    Its ``$defs`` hold each message class, and the library's wire types
    (``Action``, ``PlayerView``, ``Event`` and their parts) that the
    messages carry.
    """
    builder = MessageSchema(KIT, readers=(*CLIENT_MESSAGES, LobbyHello))
    for cls in (*CLIENT_MESSAGES, LobbyHello, *SERVER_MESSAGES, *LOBBY_MESSAGES, *HTTP_BODIES):
        builder.record(cls)
    for name in ("Action", "PlayerView", "Event"):
        wire = wire_schema(name)
        builder.defs.update(cast("dict[str, object]", wire["$defs"]))
        if "oneOf" in wire:
            builder.defs[name] = {"oneOf": wire["oneOf"]}
    return builder.document(
        f"urn:deepsix:web-protocol:{PROTOCOL_VERSION}",
        f"deepsix web table protocol, version {PROTOCOL_VERSION}",
        {
            "ClientMessage": CLIENT_MESSAGES,
            "ServerMessage": SERVER_MESSAGES,
            "LobbyClientMessage": (LobbyHello, Ping),
            "LobbyMessage": LOBBY_MESSAGES,
        },
    )
