"""The external bot protocol, ``deepsix-bot/1``: JSON lines between a referee and a bot.

A bot is any program that reads one JSON object per line on its standard
input and writes one per line on its standard output.  The referee (the
library, playing the game) speaks first:

======================  ==============================================================
referee → bot           bot → referee
======================  ==============================================================
``hello``               ``ready`` (the same ``protocol``), within the start-up limit
``decide`` (``id`` n)   ``action`` (``id`` n), within ``time_limit`` seconds
``refused`` (``id`` n)  another ``action`` for decision n (same deadline), if tries remain
``fallback`` (``id``)   -- (the referee played ``action`` for the bot; it goes on)
``quit``                -- (exit; the referee closes the pipes)
======================  ==============================================================

Every message is an object with a ``"type"``.  Views, actions and rules
are in the library's wire format (:mod:`deepsix.io.wire`): a view is what
``deepsix.io.wire.to_wire(view)`` gives, an action is an object such as
``{"type": "PlayCard", "seat": "S", "card": "7S"}`` (or its notation,
``"S:7S"``).  The simplest correct bot echoes one element of
``decide.legal`` back as its ``action``.

A reply that is not JSON, not an ``action`` for the decision asked, or an
illegal action is *refused*: the bot is told why (the rule an illegal
action breaks) and may try again until its tries or its time run out; the
referee then plays a *fallback* bot's action for that decision and tells
the bot which.  A reply to an earlier decision (a late one) is dropped.  A
bot that exits, closes its output, or fails the handshake is *dead*: the
fallback bot plays the rest of the game for it.  Every such event is
recorded as a :class:`Fault`.

The referee always sends every key of its messages; a bot built with this
library (``deepsix bot``) needs only those it uses (``protocol`` in
``hello``; ``id``, ``view`` and ``legal`` in ``decide``), so a referee of
your own can start small.

Each message is declared once below, as a class of the package's message kit
(:mod:`deepsix.io.messages`): the referee and ``deepsix bot`` write them with
:func:`encode` and read them with :func:`read`, and :func:`bot_protocol_schema`
derives the protocol's JSON Schema from the same classes (shipped as
``deepsix/arena/deepsix-bot-1.schema.json``; ``deepsix bot --schema`` prints it).
Messages may carry keys the protocol does not name (they are ignored),
so that either side can say more than this version asks.
"""

from __future__ import annotations

import enum
import json
from importlib.resources import files
from typing import Any, ClassVar, Final, Union, cast

import attrs

from deepsix.errors import DeepSixError, SerializationError
from deepsix.io.messages import JSON, MessageKit, MessageSchema, wire_field
from deepsix.io.notation import ACTION_PATTERN
from deepsix.io.wire import wire_schema

__all__ = [
    "BOT_MESSAGES",
    "MAX_REPLY_CHARS",
    "PROTOCOL",
    "REFEREE_MESSAGES",
    "Answer",
    "Decide",
    "Fallback",
    "Fault",
    "FaultKind",
    "Hello",
    "Info",
    "Mismatch",
    "Quit",
    "Ready",
    "Refused",
    "bot_protocol_schema",
    "decode",
    "encode",
    "read",
    "shipped_schema",
]

PROTOCOL: Final = "deepsix-bot/1"
"""The protocol's name and version, exchanged in ``hello`` and ``ready``."""

MAX_REPLY_CHARS: Final = 64 * 1024
"""The longest line a bot may write; a longer one is refused unread (an action needs < 100)."""

_SEAT: Final = {"schema": {"enum": ["N", "E", "S", "W"]}}


class FaultKind(enum.Enum):
    """What went wrong with an external bot."""

    HANDSHAKE = "handshake"
    """No ``ready`` in time, or a ``ready`` for another protocol: the bot is dead."""
    GARBAGE = "garbage"
    """A reply that is not JSON, not an object, or not an ``action`` for this decision."""
    ILLEGAL = "illegal"
    """An action the rules do not allow here (the reply names the rule)."""
    LATE = "late"
    """No legal action within the time limit: the fallback decided."""
    CRASHED = "crashed"
    """The program exited or closed its output: the fallback plays on."""


@attrs.frozen
class Fault:
    """One thing an external bot did wrong, and what the referee did about it."""

    kind: FaultKind
    """What went wrong."""
    decision: int
    """The decision's ``id`` (0 for the handshake)."""
    detail: str
    """What the referee saw and said, in words."""

    def __str__(self) -> str:
        return f"{self.kind.value} at decision {self.decision}: {self.detail}"


# -- referee to bot --------------------------------------------------------------------------


@attrs.frozen
class Hello:
    """The referee's first message: who the bot is, under which rules, and how fast it must be."""

    TYPE: ClassVar[str] = "hello"
    protocol: str
    """The protocol spoken (``PROTOCOL``)."""
    deepsix: str = ""
    """The library's version."""
    seat: str = attrs.field(default="", metadata=_SEAT)
    """The bot's seat: ``N``, ``E``, ``S`` or ``W``."""
    rules: JSON = attrs.field(default=None, metadata=wire_field("Rules"))
    """The house rules, in wire form."""
    time_limit: float = 5.0
    """Seconds the bot has for each decision."""
    seed: int = 0
    """A seed for the bot's random choices (the match's own, so games replay)."""


@attrs.frozen
class Decide:
    """The bot's turn: its view of the game and the legal actions; answered by an ``action``."""

    TYPE: ClassVar[str] = "decide"
    id: int
    """The decision's number (1, 2, ...), echoed in the answer."""
    seat: str = attrs.field(default="", kw_only=True, metadata=_SEAT)
    """The seat to act."""
    time_limit: float = attrs.field(default=5.0, kw_only=True)
    """Seconds the bot has for this decision."""
    view: JSON = attrs.field(metadata=wire_field("PlayerView"))
    """The seat's view, in wire form."""
    legal: tuple[JSON, ...] = attrs.field(metadata=wire_field("Action", many=True))
    """The legal actions (``view.legal_actions``), in wire form."""


@attrs.frozen
class Refused:
    """The last answer was refused: why, and how many tries the bot has left for the decision."""

    TYPE: ClassVar[str] = "refused"
    id: int
    """The decision."""
    reason: str
    """What was wrong (for an illegal action, the rule it breaks)."""
    tries_left: int
    """Answers the bot may still give for this decision, before the same deadline."""


@attrs.frozen
class Fallback:
    """The referee played for the bot (its answer was late, garbage or illegal too often)."""

    TYPE: ClassVar[str] = "fallback"
    id: int
    """The decision."""
    reason: str = attrs.field(metadata={"schema": {"enum": ["late", "garbage", "illegal"]}})
    """Why the referee decided: ``late``, ``garbage`` or ``illegal``."""
    action: JSON = attrs.field(metadata=wire_field("Action"))
    """The action played for the bot, in wire form."""


@attrs.frozen
class Mismatch:
    """The bot's ``ready`` named another protocol: the referee will not play it."""

    TYPE: ClassVar[str] = "error"
    reason: str
    """What the referee expected."""


@attrs.frozen
class Quit:
    """The game is over: the bot exits (the referee then closes the pipes)."""

    TYPE: ClassVar[str] = "quit"


# -- bot to referee --------------------------------------------------------------------------


@attrs.frozen
class Ready:
    """The bot's answer to ``hello``, within the start-up limit."""

    TYPE: ClassVar[str] = "ready"
    protocol: str
    """The protocol the bot speaks: ``PROTOCOL``."""
    name: str | None = None
    """The bot's name, for the records (optional)."""


@attrs.frozen
class Answer:
    """The bot's action for a decision: one of ``decide.legal``, as an object or in notation."""

    TYPE: ClassVar[str] = "action"
    id: int
    """The decision answered."""
    action: JSON = attrs.field(
        metadata={
            "schema": {"anyOf": [{"$ref": "#/$defs/Action"}, {"$ref": "#/$defs/ActionNotation"}]}
        }
    )
    """The action: ``{"type": "PlayCard", "seat": "S", "card": "7S"}`` or ``"S:7S"``."""


@attrs.frozen
class Info:
    """A note the bot may write at any time (what it is thinking); the referee ignores it."""

    TYPE: ClassVar[str] = "info"


REFEREE_MESSAGES: Final[tuple[type, ...]] = (Hello, Decide, Refused, Fallback, Mismatch, Quit)
"""What the referee sends, by class."""

BOT_MESSAGES: Final[tuple[type, ...]] = (Ready, Answer, Info)
"""What a bot sends, by class."""

RefereeMessage = Union[Hello, Decide, Refused, Fallback, Mismatch, Quit]  # noqa: UP007  # a runtime value
"""Any message of the referee's."""

BotMessage = Union[Ready, Answer, Info]  # noqa: UP007  # a runtime value
"""Any message of a bot's."""


def _refuse(text: str, code: str) -> DeepSixError:
    return SerializationError(text)


KIT: Final = MessageKit(
    tag="type",
    tag_attr="TYPE",
    max_chars=MAX_REPLY_CHARS,
    refuse=_refuse,
    open_classes=(*REFEREE_MESSAGES, *BOT_MESSAGES),
)
"""The protocol's reader, writer and describer of messages."""

_BY_TYPE: Final = {KIT.tag_of(cls): cls for cls in (*REFEREE_MESSAGES, *BOT_MESSAGES)}


def encode(message: object) -> bytes:
    """One message as a line of JSON (compact, ASCII, ``\\n``-terminated).

    ``message`` is one of the classes above, or a plain ``dict`` (a bot written with
    this library may send what it likes; the referee writes only the classes).
    """
    if isinstance(message, dict):
        text = json.dumps(message, separators=(",", ":"), ensure_ascii=True)
    else:
        text = KIT.encode(message)
        if not text.isascii():  # a refusal's reason names a card by its suit symbol, say
            text = json.dumps(json.loads(text), separators=(",", ":"), ensure_ascii=True)
    return (text + "\n").encode()


def decode(line: bytes | str) -> dict[str, Any]:
    """One message read from a line, as a JSON object with a ``"type"``, its keys unchecked;
    :class:`~deepsix.SerializationError` says why not."""
    text = line.decode("utf-8", errors="replace") if isinstance(line, bytes) else line
    text = text.strip()
    if len(text) > MAX_REPLY_CHARS:
        raise SerializationError(f"a line of {len(text)} characters, over {MAX_REPLY_CHARS}")
    if not text:
        raise SerializationError("an empty line")
    try:
        message = json.loads(text, parse_constant=_refuse_constant)
    except (ValueError, RecursionError) as error:
        shown = text if len(text) <= 80 else text[:77] + "..."
        raise SerializationError(f"not JSON ({error}): {shown!r}") from None
    if not isinstance(message, dict):
        raise SerializationError(f"a message is a JSON object, not {type(message).__name__}")
    kind = message.get("type")
    if not isinstance(kind, str):
        raise SerializationError('a message needs a "type" (a string)')
    return message


def read(message: dict[str, Any], *expected: type) -> Any:
    """``message`` (from :func:`decode`) as one of the ``expected`` classes, every key it
    declares checked; :class:`~deepsix.SerializationError` says what is wrong."""
    kind = message.get("type")
    cls = _BY_TYPE.get(kind) if isinstance(kind, str) else None
    if cls is None or cls not in expected:
        names = ", ".join(f'"{KIT.tag_of(cls)}"' for cls in expected)
        raise SerializationError(f"expected {names}, not {kind!r}")
    return KIT.structure(cls, message)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def bot_protocol_schema() -> dict[str, object]:
    """The JSON Schema (draft 2020-12) of ``deepsix-bot/1``: ``RefereeMessage`` (what a bot
    reads) and ``BotMessage`` (what it writes), with the wire types they carry."""
    builder = MessageSchema(KIT, readers=BOT_MESSAGES)
    for cls in (*REFEREE_MESSAGES, *BOT_MESSAGES):
        builder.record(cls)
    for name in ("Action", "PlayerView", "Rules"):
        builder.defs.update(cast("dict[str, object]", wire_schema(name)["$defs"]))
    builder.defs["ActionNotation"] = {
        "type": "string",
        "pattern": ACTION_PATTERN,
        "description": 'An action in notation, such as "S:7S" or "E:P".',
    }
    return builder.document(
        f"urn:deepsix:bot-protocol:{PROTOCOL}",
        f"{PROTOCOL}, the external bot protocol of deepsix",
        {"RefereeMessage": REFEREE_MESSAGES, "BotMessage": BOT_MESSAGES},
    )


def shipped_schema() -> str:
    """The schema as shipped with the package (``deepsix/arena/deepsix-bot-1.schema.json``)."""
    return (files("deepsix.arena") / "deepsix-bot-1.schema.json").read_text(encoding="utf-8")
