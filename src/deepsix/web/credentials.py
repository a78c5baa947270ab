"""Secrets of the web tables: seat credentials, host credentials and invite codes.

A *credential* is a random secret (:func:`new_secret`) that holds one seat
of one table (or the table's host rights).  The server keeps only its
SHA-256 (:func:`digest`) and compares in constant time (:func:`holds`).  A
browser keeps it in an ``HttpOnly``, ``SameSite=Strict`` cookie scoped to
the table's API path (:func:`cookie`), so it never appears in an address,
a page's script or a log line; other clients send it in a header
(``Authorization: Bearer ...``) or in their ``hello``.

An *invite code* is meant to be shared: it lets whoever has it watch a
private table and take an *empty* seat, never a taken one.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Final

from deepsix.errors import ParseError

__all__ = [
    "HOST_COOKIE",
    "MAX_NAME",
    "SEAT_COOKIE",
    "SEAT_LETTERS",
    "SEAT_NAMES",
    "clean_name",
    "cookie",
    "digest",
    "holds",
    "new_invite",
    "new_secret",
    "table_path",
]

SEAT_LETTERS: Final = "NESW"
"""The seats' letters, in seat order."""

SEAT_NAMES: Final = ("North", "East", "South", "West")
"""The seats' names, the default names of their players."""

SEAT_COOKIE: Final = "deepsix-seat"
"""The cookie holding a seat's credential (one per table: its path is the table's)."""

HOST_COOKIE: Final = "deepsix-host"
"""The cookie holding a table's host credential."""

MAX_NAME: Final = 24
"""The longest player name, in characters."""

COOKIE_AGE: Final = 60 * 60 * 24 * 30
"""How long a browser keeps a seat's cookie (30 days)."""


def new_secret() -> str:
    """A fresh credential: 192 random bits, URL-safe text."""
    return secrets.token_urlsafe(24)


def new_invite() -> str:
    """A fresh invite code: 96 random bits."""
    return secrets.token_urlsafe(12)


def digest(secret: str) -> str:
    """The SHA-256 (hex) under which a credential is stored."""
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


def holds(stored: str | None, secret: str | None) -> bool:
    """Whether ``secret`` is the credential whose digest is ``stored`` (constant time)."""
    if stored is None or secret is None or not 0 < len(secret) <= 200:
        return False
    return hmac.compare_digest(stored, digest(secret))


def table_path(table_id: str) -> str:
    """The path a table's cookies are scoped to: its API (HTTP and socket)."""
    return f"/api/tables/{table_id}"


def cookie(name: str, secret: str | None, table_id: str, *, secure: bool) -> str:
    """A ``Set-Cookie`` value for a table's credential (``secret=None`` deletes it)."""
    attributes = [
        f"{name}={secret or ''}",
        f"Path={table_path(table_id)}",
        "HttpOnly",
        "SameSite=Strict",
        f"Max-Age={COOKIE_AGE if secret else 0}",
    ]
    if secure:
        attributes.append("Secure")
    return "; ".join(attributes)


def clean_name(name: object, default: str) -> str:
    """A player's name: printable text, spaces folded, at most :data:`MAX_NAME` characters.

    Raises :class:`~deepsix.ParseError` (a :class:`ValueError`) for something that is not
    printable text.
    """
    if name is None or name == "":
        return default
    if type(name) is not str:
        raise ParseError("a player's name must be text")
    text = " ".join(name.split())[:MAX_NAME]
    if not text.isprintable():
        raise ParseError("a player's name must be printable text")
    return text or default
