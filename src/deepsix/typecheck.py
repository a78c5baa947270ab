"""Checking values against the types their attrs classes declare.

The library's value classes (:class:`~deepsix.GameState`,
:class:`~deepsix.HandSetup`, :class:`~deepsix.HandRecord`, ...) declare
their field types once, as annotations.  A state built by hand or loaded
from outside may hold anything in those fields; :func:`type_problem` walks
a value and its annotations and names the first field that does not hold
what the annotation says -- strictly: ``True`` is not an ``int``, an
``int`` is not a :class:`~deepsix.Card`, a list is not a tuple.
:func:`deepsix.validate` starts with it, so the field list is never
written out a second time.

>>> from deepsix import HandSetup, Seat
>>> type_problem(HandSetup(bidder=Seat.EAST), HandSetup) is None
True
>>> type_problem(HandSetup(invitation=(7,)), HandSetup)
'invitation[0]: expected Card, got 7'

:func:`check_kinds` is the shallow check the value classes' constructors
make on what callers give them (``GameState(...)``, ``attrs.evolve``,
unpickling): each field's outer kind only -- a tuple where a tuple is
declared, a :class:`~deepsix.Seat` or ``None`` where ``Optional[Seat]``
is -- read from the same annotations, so it costs little and never needs a
list of its own.
"""

from __future__ import annotations

import functools
import types
import typing
from collections.abc import Callable, Sequence
from typing import Any, Final

import attrs

from deepsix.errors import WrongTypeError

__all__ = ["check_kinds", "type_problem"]

_MAX_SHOWN = 60


def type_problem(value: object, kind: Any, where: str = "") -> str | None:  # noqa: PLR0911  # one answer per kind of annotation
    """The first place where ``value`` does not match the type ``kind``, or ``None``.

    ``kind`` is a class (an attrs class is checked field by field, its
    ``init=False`` fields skipped), ``X | None``, a union, ``tuple[X, ...]``
    or ``tuple[X, Y]``.  The answer reads ``"field.sub[2]: expected ..., got ..."``.
    """
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType):
        for option in typing.get_args(kind):
            if type_problem(value, option, where) is None:
                return None
        return _mismatch(where, kind, value)
    if origin is tuple:
        return _tuple_problem(value, kind, where)
    if kind is type(None):
        return None if value is None else _mismatch(where, kind, value)
    if not isinstance(kind, type):
        raise WrongTypeError(f"type_problem() cannot check against {kind!r}")  # a programming error
    if attrs.has(kind):
        if not isinstance(value, kind):
            return _mismatch(where, kind, value)
        return _fields_problem(value, kind, where)
    # Everything else -- int, bool, str, enums, Card, History -- must be exactly that type.
    return None if type(value) is kind else _mismatch(where, kind, value)


def _tuple_problem(value: object, kind: Any, where: str) -> str | None:
    if not isinstance(value, tuple):
        return _mismatch(where, kind, value)
    args = typing.get_args(kind)
    if len(args) == 2 and args[1] is Ellipsis:
        items = [args[0]] * len(value)
    elif len(args) != len(value):
        return f"{where or 'value'}: expected {len(args)} items, got {len(value)}"
    else:
        items = list(args)
    for index, (item, item_kind) in enumerate(zip(value, items, strict=True)):
        problem = type_problem(item, item_kind, f"{where or 'value'}[{index}]")
        if problem is not None:
            return problem
    return None


def _fields_problem(value: object, kind: type, where: str) -> str | None:
    for name, field_kind in _field_types(kind):
        place = f"{where}.{name}" if where else name
        problem = type_problem(getattr(value, name), field_kind, place)
        if problem is not None:
            return problem
    return None


@functools.lru_cache(maxsize=64)
def _field_types(kind: type) -> tuple[tuple[str, Any], ...]:
    hints = typing.get_type_hints(kind)
    return tuple((field.name, hints[field.name]) for field in attrs.fields(kind) if field.init)


def _mismatch(where: str, kind: Any, value: object) -> str:
    return f"{where or 'value'}: expected {_name(kind)}, got {_brief(value)}"


def _name(kind: Any) -> str:
    if isinstance(kind, type) and typing.get_origin(kind) is None:
        return "None" if kind is type(None) else kind.__name__
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType):
        return " | ".join(_name(arg) for arg in typing.get_args(kind))
    if origin is tuple:
        args = typing.get_args(kind)
        if len(args) == 2 and args[1] is Ellipsis:
            return f"tuple[{_name(args[0])}, ...]"
        return f"tuple[{', '.join(_name(arg) for arg in args)}]"
    return str(kind)


_NUMBERS: Final = ("no", "one", "two", "three", "four")


def check_kinds(kind: type, values: Sequence[object]) -> None:
    """Refuse a value of the wrong outer kind for one of ``kind``'s fields.

    ``values`` are the ``init`` fields' values in declaration order.  Raises
    :class:`~deepsix.errors.WrongTypeError` naming the first field that does
    not fit (``"GameState.phase must be a Phase, not 'play'"``).
    """
    for (name, description, fits), value in zip(_shallow_kinds(kind), values, strict=True):
        if not fits(value):
            raise WrongTypeError(
                f"{kind.__name__}.{name} must be {description}, not {_brief(value)}"
            )


@functools.lru_cache(maxsize=16)
def _shallow_kinds(kind: type) -> tuple[tuple[str, str, Callable[[object], bool]], ...]:
    return tuple((name, *_shallow(field_kind)) for name, field_kind in _field_types(kind))


def _shallow(kind: Any) -> tuple[str, Callable[[object], bool]]:  # noqa: PLR0911  # one answer per kind of annotation
    """How a field of type ``kind`` is described and tested by :func:`check_kinds`."""
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType):
        options = [arg for arg in typing.get_args(kind) if arg is not type(None)]
        if len(options) == 1:
            description, fits = _shallow(options[0])
            return f"{description} or None", lambda v: v is None or fits(v)
        return "a value of " + _name(kind), lambda v: type_problem(v, kind) is None
    if origin is tuple:
        args = typing.get_args(kind)
        if len(args) == 2 and args[1] is Ellipsis:
            return "a tuple", lambda v: isinstance(v, tuple)
        count = len(args)
        if all(arg is int for arg in args):
            return f"a tuple of {_NUMBERS[count]} ints", lambda v: _all_of(v, count, int)
        if all(typing.get_origin(arg) is tuple for arg in args):
            return f"a tuple of {_NUMBERS[count]} tuples", lambda v: _all_of(v, count, tuple)
        return f"a tuple of {count}", lambda v: isinstance(v, tuple) and len(v) == count
    if kind is int:
        return "an int", lambda v: isinstance(v, int)
    if isinstance(kind, type) and attrs.has(kind):
        return f"a {kind.__name__}", lambda v: isinstance(v, kind)
    article = "an" if _name(kind)[:1].lower() in "aeiou" else "a"
    return f"{article} {_name(kind)}", lambda v: type(v) is kind


def _all_of(value: object, count: int, item: type) -> bool:
    """Whether ``value`` is a tuple of ``count`` items, each an instance of ``item``."""
    return (
        isinstance(value, tuple)
        and len(value) == count
        and all(isinstance(part, item) and type(part) is not bool for part in value)
    )


def _brief(value: object) -> str:
    shown = repr(value)
    return shown if len(shown) <= _MAX_SHOWN else shown[:_MAX_SHOWN] + "..."
