"""Typed JSON messages: one class per message, read, written and described from that one class.

The package's two JSON protocols -- the web table's (:mod:`deepsix.web.protocol`) and
``deepsix-bot/1``, the external bot protocol (:mod:`deepsix.arena.protocol`) -- declare
their messages with this kit.  A message is a frozen attrs class whose class attribute
(``OP`` or ``TYPE``, the protocol's *tag attribute*) names its tag; a field's bounds and
the schema of a value in the library's wire format go in its metadata (:func:`limit`,
:func:`wire_field`).  A :class:`MessageKit` then

* reads untrusted text into a message (:meth:`MessageKit.parse`): over-long text, text
  that is not a JSON object, an unknown tag, a missing or unknown key, a wrong type and an
  out-of-bounds value are refused with the protocol's own error, saying which;
* writes a message as compact JSON, its tag first, then its fields in declared order
  (:meth:`MessageKit.encode`);
* describes messages as JSON Schema (draft 2020-12), from the same classes
  (:class:`MessageSchema`), so the schema cannot drift from what is read and written.

>>> import attrs
>>> from deepsix.io.messages import MessageKit, limit
>>> @attrs.frozen
... class Nudge:
...     '''Ask the other side to hurry.'''
...     seconds: int = attrs.field(metadata=limit(60, minimum=1))
>>> Nudge.TYPE = "nudge"  # the tag: a class attribute (declared as a ClassVar in a module)
>>> kit = MessageKit(tag="type", tag_attr="TYPE")
>>> kit.encode(Nudge(5))
'{"type":"nudge","seconds":5}'
>>> kit.parse('{"type": "nudge", "seconds": 5}', {"nudge": Nudge})
Nudge(seconds=5)
>>> kit.parse('{"type": "nudge", "seconds": 500}', {"nudge": Nudge})
Traceback (most recent call last):
...
deepsix.errors.SerializationError: nudge.seconds is out of range (500)
"""

from __future__ import annotations

import json
import math
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final, Union, cast

import attrs

from deepsix.errors import DeepSixError, SerializationError
from deepsix.io.schema import DRAFT, SchemaBuilder
from deepsix.io.wire import parse as parse_json

__all__ = [
    "JSON",
    "MessageKit",
    "MessageSchema",
    "RawJSON",
    "limit",
    "wire_field",
]

JSON = Any
"""A JSON value given in the library's wire format (an action, a view, an event)."""


class RawJSON(str):
    """Text that is already JSON (a view or an event encoded once for many messages)."""

    __slots__ = ()


def limit(maximum: int, *, minimum: int = 0) -> dict[str, object]:
    """A field's bounds: a number's range, or a text's length."""
    return {"max": maximum, "min": minimum}


def wire_field(name: str, *, many: bool = False, nullable: bool = False) -> dict[str, object]:
    """A field holding a value of the library's wire format (its schema is ``name``'s)."""
    reference: dict[str, object] = {"$ref": f"#/$defs/{name}"}
    if many:
        return {"schema": {"type": "array", "items": reference}}
    if nullable:
        return {"schema": {"anyOf": [reference, {"type": "null"}]}}
    return {"schema": reference}


def _refuse(text: str, code: str) -> DeepSixError:
    return SerializationError(text)


def _never(cls: type, field: attrs.Attribute[Any]) -> bool:
    return False


def _no_reason(cls: type, name: str) -> str:
    return ""


BAD: Final = "bad-message"
"""The code of a refusal for a message that is not one of the protocol's."""

_SCALARS: Final = {True: "true", False: "false", None: "null"}
_string: Final = json.encoder.encode_basestring  # the C encoder of JSON strings (no ASCII escaping)


class MessageKit:
    """One protocol's way of reading and writing its messages (see the module's documentation).

    ``tag`` is the key that names a message (``"op"``, ``"type"``), ``tag_attr`` the class
    attribute that holds it; ``max_chars`` bounds what :meth:`parse` reads.  ``refuse``
    makes the protocol's error from a text and a code (``bad-message``, ``too-large``);
    ``omit_none`` says which fields :meth:`encode` leaves out when they are ``None``;
    ``reason`` adds why a required key is needed to the refusal that names it;
    ``namespace`` resolves the declarations' string annotations; ``open_classes`` are read
    with keys they do not declare ignored (for messages a protocol lets grow).
    """

    def __init__(  # noqa: PLR0913  # keyword-only settings, each with a default
        self,
        *,
        tag: str,
        tag_attr: str,
        max_chars: int = 64 * 1024,
        refuse: Callable[[str, str], DeepSixError] = _refuse,
        omit_none: Callable[[type, attrs.Attribute[Any]], bool] = _never,
        reason: Callable[[type, str], str] = _no_reason,
        namespace: Mapping[str, object] | None = None,
        open_classes: Iterable[type] = (),
    ) -> None:
        self.tag = tag
        self.tag_attr = tag_attr
        self.max_chars = max_chars
        self.refuse = refuse
        self.omit_none = omit_none
        self.reason = reason
        self.namespace = None if namespace is None else dict(namespace)
        self.open_classes = frozenset(open_classes)
        self._plans: dict[type, tuple[str, tuple[tuple[str, str, bool], ...]]] = {}
        self._hints: dict[type, dict[str, Any]] = {}

    def tag_of(self, cls: type) -> str:
        """The tag of a message class (``""`` for a part that is not a message of its own)."""
        value: str = getattr(cls, self.tag_attr, "")
        return value

    # -- reading ----------------------------------------------------------------------------

    def parse(self, text: str | bytes, classes: Mapping[str, type]) -> Any:
        """The message in ``text``, one of ``classes`` (by tag); the protocol's error if not."""
        if len(text) > self.max_chars:
            raise self.refuse(
                f"the message has {len(text)} characters; at most {self.max_chars}", "too-large"
            )
        data = self.load(text)
        kind = data.get(self.tag)
        cls = classes.get(kind) if type(kind) is str else None
        if cls is None:
            raise self.refuse(
                f"unknown {self.tag} {str(kind)[:20]!r}: use {', '.join(classes)}", BAD
            )
        return self.structure(cls, data)

    def load(self, text: str | bytes) -> dict[str, Any]:
        """The JSON object in ``text`` (bounded, no ``NaN``, no duplicate keys), unchecked."""
        try:
            data = parse_json(text, max_chars=self.max_chars)
        except SerializationError as error:
            raise self.refuse(str(error), BAD) from None
        if type(data) is not dict:
            raise self.refuse(f"a message is a JSON object with {_a(self.tag)} {self.tag}", BAD)
        return cast("dict[str, Any]", data)

    def structure(self, cls: type, data: Mapping[str, Any]) -> Any:
        """``data`` (a parsed JSON object) as a ``cls``, every key and value checked."""
        fields = attrs.fields_dict(cls)
        hints = self.hints(cls)
        tag = self.tag_of(cls)
        if cls not in self.open_classes:
            unknown = sorted(set(data) - set(fields) - {self.tag})
            if unknown:
                keys = ", ".join([self.tag, *fields])
                raise self.refuse(
                    f"a{_n(tag)} {tag} message has the keys {keys} only,"
                    f" not {', '.join(unknown)[:60]}",
                    BAD,
                )
        values: dict[str, object] = {}
        for name, field in fields.items():
            if name not in data:
                if field.default is attrs.NOTHING:
                    raise self.refuse(
                        f"a{_n(tag)} {tag} message needs {name}{self.reason(cls, name)}",
                        BAD,
                    )
                continue
            values[name] = self._check(tag, name, data[name], hints[name], field.metadata)
        return cls(**values)

    def hints(self, cls: type) -> dict[str, Any]:
        """The resolved annotations of a message class's fields."""
        found = self._hints.get(cls)
        if found is None:
            found = self._hints[cls] = typing.get_type_hints(cls, globalns=self.namespace)
        return found

    def _check(
        self, tag: str, name: str, value: object, hint: Any, metadata: Mapping[str, Any]
    ) -> object:
        options = _options(hint)
        if value is None and type(None) in options:
            return None
        if hint is JSON:
            return value
        kind = next(option for option in options if option is not type(None))
        where = f"{tag}.{name}"
        if typing.get_origin(kind) is typing.Literal:
            choices = typing.get_args(kind)
            if value not in choices or type(value) is bool:
                listed = ", ".join(json.dumps(choice) for choice in choices)
                raise self.refuse(f"{where} is one of {listed}, not {_brief(value)}", BAD)
            return value
        if typing.get_origin(kind) is tuple:  # a list of wire values
            if type(value) is not list:
                raise self.refuse(f"{where} must be a list, not {_brief(value)}", BAD)
            return tuple(cast("list[object]", value))
        if kind is str:
            return self._text(where, name, value, metadata)
        if kind is int or kind is float:
            return self._number(where, kind, value, metadata)
        raise AssertionError(f"no reader for {kind!r}")  # pragma: no cover - declarations above

    def _number(self, where: str, kind: type, value: object, metadata: Mapping[str, Any]) -> object:
        if kind is int:
            if type(value) is not int:
                raise self.refuse(f"{where} must be an integer, not {_brief(value)}", BAD)
            top = metadata.get("max")
            if value < metadata.get("min", 0) or (top is not None and value > top):
                raise self.refuse(f"{where} is out of range ({value})", BAD)
            return value
        if type(value) not in (int, float) or not math.isfinite(cast(float, value)):
            raise self.refuse(f"{where} must be a number, not {_brief(value)}", BAD)
        return float(cast(float, value))

    def _text(self, where: str, name: str, value: object, metadata: Mapping[str, Any]) -> str:
        if type(value) is not str:
            raise self.refuse(f"{where} must be text, not {_brief(value)}", BAD)
        if len(value) > metadata.get("max", self.max_chars):
            code = "too-large" if name == "text" else BAD
            raise self.refuse(f"{where} is longer than {metadata['max']} characters", code)
        if len(value) < metadata.get("min", 0):
            raise self.refuse(f"{where} is empty", BAD)
        return value

    # -- writing ----------------------------------------------------------------------------

    def encode(self, message: object) -> str:
        """The compact JSON text of ``message``: its tag first, then its fields in order."""
        return self._encode(message)

    def _encode(self, value: object) -> str:  # noqa: PLR0911  # one answer per kind of value
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
            return "[" + ",".join(self._encode(item) for item in items) + "]"
        plan = self._plans.get(kind)
        if plan is None:
            if not attrs.has(kind):
                return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
            plan = self._plans[kind] = self._plan(kind)
        head, fields = plan
        parts = [head] if head else []
        for name, key, omit in fields:
            item = getattr(value, name)
            if omit and item is None:
                continue
            parts.append(key + self._encode(item))
        return "{" + ",".join(parts) + "}"

    def _plan(self, kind: type) -> tuple[str, tuple[tuple[str, str, bool], ...]]:
        tag = self.tag_of(kind)
        head = f"{_string(self.tag)}:{_string(tag)}" if tag else ""
        fields = tuple(
            (field.name, f"{_string(field.name)}:", bool(tag) and self.omit_none(kind, field))
            for field in attrs.fields(cast(Any, kind))
        )
        return head, fields


class MessageSchema(SchemaBuilder):
    """The JSON Schema of a kit's messages: the package's schema builder, with each message's
    tag, its docstring's first line, the bounds of the fields the kit reads (``readers``:
    their fields with defaults are optional) and the wire values' schemas from the fields'
    metadata.  Messages the kit only writes require every field it always writes."""

    def __init__(self, kit: MessageKit, readers: Iterable[type] = ()) -> None:
        super().__init__()
        self.kit = kit
        self.readers = frozenset(readers)

    def name_of(self, kind: type) -> str:
        return kind.__name__

    def hints_of(self, kind: type) -> dict[str, Any]:
        return self.kit.hints(kind)

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
        if kind in self.readers and "max" in field.metadata:
            text = str in _options(hint)
            bounds = ("maxLength", "minLength") if text else ("maximum", "minimum")
            options = schema.get("anyOf")
            target = cast("dict[str, object]", options[0] if isinstance(options, list) else schema)
            target[bounds[0]] = field.metadata["max"]
            target[bounds[1]] = field.metadata.get("min", 0)
        return schema

    def members(self, kind: type) -> tuple[dict[str, object], list[str]]:
        properties, _ = super().members(kind)
        tag = self.kit.tag_of(kind)
        read = kind in self.readers
        required = []
        for field in attrs.fields(kind):
            omitted = bool(tag) and field.default is None and self.kit.omit_none(kind, field)
            if field.default is attrs.NOTHING or (not read and not omitted):
                required.append(field.name)
        if not tag:
            return properties, required
        return {self.kit.tag: {"const": tag}, **properties}, [self.kit.tag, *required]

    def record(self, kind: type) -> dict[str, object]:
        reference = super().record(kind)
        name = self.name_of(kind)
        definition = self.defs.get(name)
        if kind in self.kit.open_classes and isinstance(definition, dict):
            definition.pop("additionalProperties", None)
        return reference

    def document(
        self, identifier: str, title: str, unions: Mapping[str, Iterable[type]]
    ) -> dict[str, object]:
        """The whole schema: every recorded class and each named union of message classes."""
        defs = dict(self.defs)
        for name, classes in unions.items():
            defs[name] = {"oneOf": [self.record(cls) for cls in classes]}
            defs.update(self.defs)
        return {
            "$schema": DRAFT,
            "$id": identifier,
            "title": title,
            "$defs": dict(sorted(defs.items())),
        }


def _options(hint: Any) -> tuple[Any, ...]:
    origin = typing.get_origin(hint)
    if origin is Union or origin is types.UnionType:
        return typing.get_args(hint)
    return (hint,)


def _n(word: str) -> str:
    return "n" if word[:1] in ("a", "e", "i", "o", "u") else ""


def _a(word: str) -> str:
    return "an" if _n(word) else "a"


def _brief(value: object) -> str:
    return f"{type(value).__name__} {json.dumps(value)[:20]}" if value is not None else "null"
