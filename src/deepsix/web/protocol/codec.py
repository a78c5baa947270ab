"""Reading, writing and describing the protocol's messages (see :mod:`deepsix.web.protocol`)."""

from __future__ import annotations

import functools
import json
import math
import types
import typing
from collections.abc import Iterable
from typing import Any, Final, Union, cast

import attrs

from deepsix.errors import SerializationError
from deepsix.io.schema import SchemaBuilder
from deepsix.io.wire import parse, wire_schema
from deepsix.web.protocol import frames, messages
from deepsix.web.protocol.frames import (
    HTTP_BODIES,
    LOBBY_MESSAGES,
    SERVER_MESSAGES,
    Error,
    Pong,
)
from deepsix.web.protocol.messages import (
    CLIENT_MESSAGES,
    JSON,
    MAX_MESSAGE_CHARS,
    PROTOCOL_VERSION,
    Act,
    Hello,
    LobbyHello,
    Ping,
    ProtocolError,
    RawJSON,
)

__all__ = ["encode", "parse_client", "protocol_schema"]

# -- reading ---------------------------------------------------------------------------------


def _op(cls: type) -> str:
    op: str = getattr(cls, "OP", "")
    return op


_CLIENT_BY_OP: Final = {_op(cls): cls for cls in CLIENT_MESSAGES}


def parse_client(text: str | bytes, *, lobby: bool = False) -> Any:
    """The client message in ``text``; raises :class:`ProtocolError` for anything else."""
    if len(text) > MAX_MESSAGE_CHARS:
        raise ProtocolError(
            f"the message has {len(text)} characters; at most {MAX_MESSAGE_CHARS}", "too-large"
        )
    try:
        data = parse(text, max_chars=MAX_MESSAGE_CHARS)
    except SerializationError as error:
        raise ProtocolError(str(error)) from None
    if type(data) is not dict:
        raise ProtocolError("a message is a JSON object with an op")
    op = data.get("op")
    classes = {"hello": LobbyHello, "ping": Ping} if lobby else _CLIENT_BY_OP
    cls = classes.get(op) if type(op) is str else None
    if cls is None:
        raise ProtocolError(f"unknown op {str(op)[:20]!r}: use {', '.join(classes)}")
    return _structure(cls, data)


def _structure(cls: type, data: dict[str, Any]) -> Any:
    fields = attrs.fields_dict(cls)
    hints = _hints(cls)
    unknown = sorted(set(data) - set(fields) - {"op"})
    if unknown:
        keys = ", ".join(["op", *fields])
        raise ProtocolError(
            f"a {_op(cls)} message has the keys {keys} only, not {', '.join(unknown)[:60]}"
        )
    values: dict[str, object] = {}
    for name, field in fields.items():
        if name not in data:
            if field.default is attrs.NOTHING:
                raise ProtocolError(
                    f"a{_n(_op(cls))} {_op(cls)} message needs {name}{_why(cls, name)}"
                )
            continue
        values[name] = _check(_op(cls), name, data[name], hints[name], field.metadata)
    return cls(**values)


def _n(word: str) -> str:
    return "n" if word[0] in "aeiou" else ""


def _why(cls: type, name: str) -> str:
    if cls is Act and name == "seq":
        return " (the seq of the update the move was chosen in)"
    if cls is Hello and name == "protocol":
        return f" (the protocol version: {PROTOCOL_VERSION})"
    return ""


def _check(op: str, name: str, value: object, hint: Any, metadata: Any) -> object:
    options = _options(hint)
    if value is None and type(None) in options:
        return None
    if hint is JSON or hint is Any:
        return value
    expected = [option for option in options if option is not type(None)]
    kind = expected[0]
    where = f"{op}.{name}"
    if kind is int:
        if type(value) is not int:
            raise ProtocolError(f"{where} must be an integer, not {_brief(value)}")
        if not metadata.get("min", 0) <= value <= metadata.get("max", 2**31):
            raise ProtocolError(f"{where} is out of range ({value})")
        return value
    if kind is str:
        if type(value) is not str:
            raise ProtocolError(f"{where} must be text, not {_brief(value)}")
        if len(value) > metadata.get("max", MAX_MESSAGE_CHARS):
            code = "too-large" if name == "text" else "bad-message"
            raise ProtocolError(f"{where} is longer than {metadata['max']} characters", code)
        if len(value) < metadata.get("min", 0):
            raise ProtocolError(f"{where} is empty")
        return value
    raise AssertionError(f"no reader for {kind!r}")  # pragma: no cover - declarations above


def _brief(value: object) -> str:
    return f"{type(value).__name__} {json.dumps(value)[:20]}" if value is not None else "null"


# -- writing ---------------------------------------------------------------------------------


def encode(message: object) -> str:
    """The JSON text of a server message (``op`` first, then the fields in declared order)."""
    return _encode(message)


_SCALARS: Final = {True: "true", False: "false", None: "null"}


def _encode(value: object) -> str:  # noqa: PLR0911  # one answer per kind of value
    kind = type(value)
    if kind is RawJSON:
        return str(value)
    if kind is str:
        return _string(cast(str, value))
    if kind is int:
        return str(value)
    if kind is bool or value is None:
        return _SCALARS[value]  # type: ignore[index]  # True, False or None
    if kind is float:
        number = cast(float, value)
        return repr(number) if math.isfinite(number) else "null"
    if kind is tuple or kind is list:
        items = cast("tuple[object, ...] | list[object]", value)
        return "[" + ",".join(_encode(item) for item in items) + "]"
    plan = _PLANS.get(kind)
    if plan is None:
        if not attrs.has(kind):
            return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
        plan = _PLANS[kind] = _plan(kind)
    head, fields = plan
    parts = [head] if head else []
    for name, key, omit in fields:
        item = getattr(value, name)
        if omit and item is None:
            continue
        parts.append(key + _encode(item))
    return "{" + ",".join(parts) + "}"


_string: Final = json.encoder.encode_basestring  # the C encoder of JSON strings (no ASCII escaping)

_PLANS: dict[type, tuple[str, tuple[tuple[str, str, bool], ...]]] = {}
"""Per class: its ``"op"`` part, and each field's name, key text and whether to leave out null."""


def _plan(kind: type) -> tuple[str, tuple[tuple[str, str, bool], ...]]:
    op = getattr(kind, "OP", None)
    head = "" if op is None else f'"op":{_string(op)}'
    fields = tuple(
        (field.name, f"{_string(field.name)}:", op is not None and _omit_class(kind, field))
        for field in attrs.fields(cast(Any, kind))
    )
    return head, fields


# -- the schema ------------------------------------------------------------------------------


_NAMESPACE: Final = {**vars(messages), **vars(frames)}
"""Where the declarations' annotations are read (the classes are shown as the package's)."""


@functools.cache  # read once a class: evaluating them took 7.5% of a busy server's time
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls, globalns=_NAMESPACE)


def _options(hint: Any) -> tuple[Any, ...]:
    origin = typing.get_origin(hint)
    if origin is Union or origin is types.UnionType:
        return typing.get_args(hint)
    return (hint,)


_CLIENT_CLASSES: Final = frozenset((*CLIENT_MESSAGES, LobbyHello))


class _Schema(SchemaBuilder):
    """JSON Schema (draft 2020-12) of the message classes: the package's builder, with the
    messages' ``op`` tags, first docstring lines, the bounds of the client's fields and the
    wire values' schemas given in their metadata."""

    def name_of(self, kind: type) -> str:
        return _def_name(kind)

    def hints_of(self, kind: type) -> dict[str, Any]:
        return _hints(kind)

    def fixed_tuple(self, items: list[dict[str, object]]) -> dict[str, object]:
        return {
            "type": "array",
            "prefixItems": items,
            "minItems": len(items),
            "maxItems": len(items),
        }

    def notes(self, kind: type) -> dict[str, object]:
        return {"description": (kind.__doc__ or "").strip().split("\n")[0]}

    def member(self, kind: type, field: attrs.Attribute[Any], hint: Any) -> dict[str, object]:
        if "schema" in field.metadata:
            return dict(field.metadata["schema"])
        schema = self.of(hint)
        if kind in _CLIENT_CLASSES and "max" in field.metadata:
            bounds = ("maxLength", "minLength") if _is_text(hint) else ("maximum", "minimum")
            options = schema.get("anyOf")
            target = cast("dict[str, object]", options[0] if isinstance(options, list) else schema)
            target[bounds[0]] = field.metadata["max"]
            target[bounds[1]] = field.metadata.get("min", 0)
        return schema

    def members(self, kind: type) -> tuple[dict[str, object], list[str]]:
        properties, _ = super().members(kind)
        op = getattr(kind, "OP", None)
        client = kind in _CLIENT_CLASSES
        required = []
        for field in attrs.fields(kind):
            omitted = op is not None and field.default is None and _omit_class(kind, field)
            if field.default is attrs.NOTHING or (not client and not omitted):
                required.append(field.name)
        if op is None:
            return properties, required
        return {"op": {"const": op}, **properties}, ["op", *required]


def _is_text(hint: Any) -> bool:
    return str in _options(hint)


def _omit_class(cls: type, field: attrs.Attribute[Any]) -> bool:
    """Optional fields of the small frames are left out when empty (the schema says so)."""
    return cls in (Pong, Error) and field.name == "id"


def _def_name(cls: type) -> str:
    if cls is LobbyHello:
        return "LobbyHello"
    return cls.__name__


def protocol_schema() -> dict[str, object]:
    """The JSON Schema of the protocol: ``ClientMessage``, ``ServerMessage`` and ``LobbyMessage``.

    Its ``$defs`` hold each message class, and the library's wire types
    (``Action``, ``PlayerView``, ``Event`` and their parts) that the
    messages carry.
    """
    builder = _Schema()
    for cls in (*CLIENT_MESSAGES, LobbyHello, *SERVER_MESSAGES, *LOBBY_MESSAGES, *HTTP_BODIES):
        builder.record(cls)
    defs: dict[str, object] = {}
    for name in ("Action", "PlayerView", "Event"):
        wire = wire_schema(name)
        defs.update(cast("dict[str, object]", wire["$defs"]))
        if "oneOf" in wire:
            defs[name] = {"oneOf": wire["oneOf"]}
    defs.update(builder.defs)

    def one_of(classes: Iterable[type]) -> dict[str, object]:
        return {"oneOf": [{"$ref": f"#/$defs/{_def_name(cls)}"} for cls in classes]}

    defs["ClientMessage"] = one_of(CLIENT_MESSAGES)
    defs["ServerMessage"] = one_of(SERVER_MESSAGES)
    defs["LobbyClientMessage"] = one_of((LobbyHello, Ping))
    defs["LobbyMessage"] = one_of(LOBBY_MESSAGES)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"urn:deepsix:web-protocol:{PROTOCOL_VERSION}",
        "title": f"deepsix web table protocol, version {PROTOCOL_VERSION}",
        "$defs": dict(sorted(defs.items())),
    }
