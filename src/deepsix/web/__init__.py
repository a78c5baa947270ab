"""A multiplayer web server and browser client for Deep Six (``pip install "deepsix[web]"``).

``deepsix serve`` (or ``python -m deepsix.web``) starts it;
:func:`~deepsix.web.app.create_app`
gives the ASGI application to run under any ASGI server.  Tables are
created and joined over HTTP, games are played over a WebSocket per
connection, each seat holding a secret token; empty seats are played by
bots; every move is stored in SQLite before anyone sees it.  See the
"Build a front end" page of the documentation for the whole walk-through.

``import deepsix`` never imports this package: it needs the ``web`` extra
(Starlette, uvicorn, websockets).
"""

from __future__ import annotations

try:
    import starlette  # noqa: F401  # checked here for a clear message
    import uvicorn  # noqa: F401
except ImportError as error:  # pragma: no cover - exercised without the extra
    from deepsix import MissingDependencyError

    raise MissingDependencyError(
        'the web server needs the web extra: pip install "deepsix[web]"'
    ) from error

from deepsix.web.app import PROTOCOL, create_app
from deepsix.web.server import main, serve
from deepsix.web.store import Store
from deepsix.web.tables import Lobby, Table, WebError, bot_names

__all__ = [
    "PROTOCOL",
    "Lobby",
    "Store",
    "Table",
    "WebError",
    "bot_names",
    "create_app",
    "main",
    "serve",
]
