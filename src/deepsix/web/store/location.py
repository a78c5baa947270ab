"""Where a store is: an SQLite file, or the URL of a database several servers share."""

from __future__ import annotations

import urllib.parse
from pathlib import Path
from typing import Final

__all__ = ["SHARED_SCHEMES", "is_shared", "public_location"]


def public_location(location: str | Path) -> str:
    """How a database may be named in messages and logs: a URL without its password."""
    text = str(location)
    if not is_shared(text):
        return text
    parts = urllib.parse.urlsplit(text)
    try:
        port = parts.port
    except ValueError:
        port = None
    host = parts.hostname or "localhost"
    where = f"{f'[{host}]' if ':' in host else host}{f':{port}' if port else ''}"
    user = f"{urllib.parse.unquote(parts.username)}@" if parts.username else ""
    return f"{parts.scheme}://{user}{where}{parts.path}"


def is_shared(location: str | Path) -> bool:
    """Whether ``location`` names a database several servers may share (a PostgreSQL URL)."""
    return str(location).startswith(SHARED_SCHEMES)


SHARED_SCHEMES: Final = ("postgresql://", "postgres://")
"""The address forms of a shared database (PostgreSQL, the ``postgres`` extra)."""
