"""The ASGI application: HTTP routes, the WebSocket protocol and the browser client's files.

Routes (all JSON but the pages):

``GET /``, ``GET /table/{id}``
    The browser client (one page; the seat's token travels in the URL
    fragment, which browsers never send to a server).
``GET /api/bots``
    The bots a seat can be given, by name.
``GET /api/tables``, ``GET /api/tables/{id}``
    Public descriptions of tables.
``POST /api/tables``
    Create a table: ``{"seats": {"E": "heuristic", ...}, "me": "S", "name": "Ann"}``.
``POST /api/tables/{id}/join``
    Claim an open seat: ``{"seat": "N", "name": "Bob"}`` gives ``{"token": ...}``.
``POST /api/tables/{id}/fill``
    A seated player (``Authorization: Bearer TOKEN``) fills the open seats with
    ``{"bot": "heuristic"}`` and the game starts.
``GET /api/tables/{id}/record``
    A finished game's record (:mod:`deepsix.web.replay`).
``GET /api/tables/{id}/replay``
    Its steps, with their public events.
``GET /api/tables/{id}/replay/{seq}.svg?seat=S``
    Any position as a picture: every hand open, or as one seat saw it.
``GET /replay/{id}``
    The replay page.
``GET /api/rules``
    The numbered rules, one line each (:data:`deepsix.rulebook.RULEBOOK`).
``GET /api/schema/{Action|Event|PlayerView}``
    The JSON Schemas of the wire format.
``WS /ws/{id}``
    The game: see :data:`~deepsix.web.app.PROTOCOL`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, Final, NamedTuple

from deepsix.cards import Seat
from deepsix.errors import DeepSixError, IllegalActionError, SerializationError, missing_extra
from deepsix.io.wire import action_from_wire, parse, wire_schema
from deepsix.rulebook import RULEBOOK
from deepsix.web import replay
from deepsix.web.store import Store
from deepsix.web.tables import SEAT_LETTERS, Lobby, Table, WebError, bot_names, legend

try:  # the web extra; without it, one line says what to install
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
    from starlette.routing import Mount, Route, WebSocketRoute
    from starlette.staticfiles import StaticFiles
    from starlette.types import ASGIApp, Message, Receive, Scope, Send
    from starlette.websockets import WebSocket
except ImportError as _missing:
    raise missing_extra("deepsix.web.app", "web", _missing) from None

__all__ = ["PROTOCOL", "create_app"]

STATIC: Final = Path(__file__).parent / "static"

MAX_MESSAGE_CHARS: Final = 4096
"""A client message longer than this is refused with an error (the connection stays open)."""
MAX_FRAME_BYTES: Final = 64 * 1024
"""A WebSocket frame larger than this closes the connection (1009, message too big)."""
MAX_BODY_BYTES: Final = 8192
"""The largest HTTP request body accepted."""
RATE: Final = 100.0
"""Messages per second a connection may send on average ..."""
BURST: Final = 200
"""... and in a burst; past that, messages are dropped with one error per burst."""
MAX_DROPPED: Final = 1000
"""A connection that drops this many messages before calming down is closed (1008)."""
QUEUE: Final = 256
"""Frames waiting for a slow client; past that it is disconnected (1013)."""
HELLO_TIMEOUT: Final = 15.0
CLOSE_TIMEOUT: Final = 5.0
"""How long the frames still queued for a closing connection may take to send."""

PROTOCOL: Final = """\
Client to server (JSON text frames, at most 4096 characters):
  {"op": "hello", "token": "..."}   first message; no token: watch as a spectator
  {"op": "act", "action": {...}, "id": 7}   an action in wire form (one of view.legal_actions)
  {"op": "ping"}
Server to client:
  {"op": "welcome", "seat": "S" | null, "melds": {...}}
  {"op": "update", "seq": n, "table": {...}, "winning": "E" | null, "view": {...}, "events": [...]}
  {"op": "error", "code": "...", "message": "...", "rule": "R-..." | null, "seq": n, "id": 7}
  {"op": "pong"}
"""
"""The WebSocket protocol, message by message."""


def _error_body(code: str, message: str) -> dict[str, object]:
    return {"error": {"code": code, "message": message}}


async def _json_body(request: Request) -> dict[str, Any]:
    size = 0
    chunks: list[bytes] = []
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise WebError("too-large", f"request bodies are at most {MAX_BODY_BYTES} bytes", 413)
        chunks.append(chunk)
    body = b"".join(chunks)
    if not body:
        return {}
    try:
        data = parse(body, max_chars=MAX_BODY_BYTES)
    except SerializationError as error:
        raise WebError("bad-request", f"the body is not valid JSON: {error}") from None
    if type(data) is not dict:
        raise WebError("bad-request", "the body must be a JSON object")
    return data


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip()
    return None


def _endpoint(
    handler: Callable[[Request, Lobby], Awaitable[object]], status: int = 200
) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        lobby: Lobby = request.app.state.lobby
        try:
            result = await handler(request, lobby)
        except WebError as error:
            return JSONResponse(_error_body(error.code, error.message), error.status)
        except DeepSixError as error:
            return JSONResponse(_error_body("bad-request", str(error)), 400)
        return JSONResponse(result, status, headers={"Cache-Control": "no-store"})

    return endpoint


async def _bots(request: Request, lobby: Lobby) -> object:
    return {"bots": list(bot_names()), "default": "heuristic"}


async def _tables(request: Request, lobby: Lobby) -> object:
    return {"tables": lobby.listing()[:200]}


async def _table(request: Request, lobby: Lobby) -> object:
    return lobby.table(request.path_params["table_id"]).info()


def _seat_link(table: Table, seat: str, token: str) -> str:
    return f"/table/{table.id}#seat={seat}&token={token}"


async def _create(request: Request, lobby: Lobby) -> object:
    body = await _json_body(request)
    unknown = set(body) - {"seats", "me", "name", "seed"}
    if unknown:
        raise WebError("bad-request", f"unknown keys: {', '.join(sorted(unknown))}")
    seats = body.get("seats", {})
    if type(seats) is not dict:
        raise WebError("bad-request", 'seats must be an object such as {"E": "heuristic"}')
    me = body.get("me")
    if me is not None and type(me) is not str:
        raise WebError("bad-seat", "me must be a seat letter")
    table, token = lobby.create(seats, me=me, name=body.get("name"), seed=body.get("seed"))
    result: dict[str, object] = {"table": table.info()}
    if token is not None and me is not None:
        result.update(seat=me, token=token, url=_seat_link(table, me, token))
    return result


async def _join(request: Request, lobby: Lobby) -> object:
    body = await _json_body(request)
    unknown = set(body) - {"seat", "name"}
    if unknown:
        raise WebError("bad-request", f"unknown keys: {', '.join(sorted(unknown))}")
    seat = body.get("seat")
    table, token = lobby.join(request.path_params["table_id"], seat, body.get("name"))
    assert isinstance(seat, str)
    return {
        "table": table.info(),
        "seat": seat,
        "token": token,
        "url": _seat_link(table, seat, token),
    }


async def _fill(request: Request, lobby: Lobby) -> object:
    body = await _json_body(request)
    table = lobby.fill(
        request.path_params["table_id"], _bearer(request), body.get("bot", "heuristic")
    )
    return {"table": table.info()}


async def _schema(request: Request, lobby: Lobby) -> object:
    name = request.path_params["name"]
    if name not in ("Action", "Event", "PlayerView"):
        raise WebError("no-such-schema", "schemas: Action, Event, PlayerView", 404)
    return wire_schema(name)


async def _rules(request: Request, lobby: Lobby) -> object:
    return {"rules": dict(RULEBOOK)}


async def _replay_steps(request: Request, lobby: Lobby) -> object:
    return replay.steps(lobby.table(request.path_params["table_id"]))


async def _record(request: Request) -> Response:
    """The finished game's record, as a file to save (``deepsix replay FILE`` reads it)."""
    lobby: Lobby = request.app.state.lobby
    try:
        table = lobby.table(request.path_params["table_id"])
        text = replay.record_text(table)
    except WebError as error:
        return JSONResponse(_error_body(error.code, error.message), error.status)
    disposition = f'attachment; filename="deepsix-{table.id}.txt"'
    return PlainTextResponse(text, headers={"Content-Disposition": disposition})


async def _picture(request: Request) -> Response:
    """One position of a finished game as SVG: ``?seat=N`` as that seat saw it, else open."""
    lobby: Lobby = request.app.state.lobby
    seat = request.query_params.get("seat") or None
    try:
        table = lobby.table(request.path_params["table_id"])
        picture = replay.picture(table, request.path_params["seq"], seat)
    except WebError as error:
        return JSONResponse(_error_body(error.code, error.message), error.status)
    return Response(picture, media_type="image/svg+xml", headers={"Cache-Control": "max-age=3600"})


async def _page(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


# -- the WebSocket ------------------------------------------------------------------------


class _Close(NamedTuple):
    """The last item of a connection's queue: close once the frames before it are sent."""

    code: int
    reason: str


class Connection:
    """One WebSocket: its seat, and a queue of frames written in order by its own task."""

    def __init__(self, socket: WebSocket, seat: Seat | None) -> None:
        self.socket = socket
        self.seat = seat
        self.queue: asyncio.Queue[str | _Close] = asyncio.Queue(QUEUE)
        self.closing = False

    def push(self, text: str) -> None:
        """Queue a frame; a client that lets :data:`QUEUE` frames pile up is disconnected."""
        if self.closing:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            while not self.queue.empty():
                self.queue.get_nowait()
            self.end(1013, "too slow: reconnect")

    def end(self, code: int, reason: str) -> None:
        """Close the connection after the frames already queued."""
        if not self.closing:
            self.closing = True
            self.queue.put_nowait(_Close(code, reason))

    def error(  # noqa: PLR0913  # the fields of an error frame, keywords after the first two
        self,
        code: str,
        message: str,
        *,
        seq: int,
        ref: object = None,
        rule: str | None = None,
        reason: str | None = None,
    ) -> None:
        """Push an error frame (``ref``: the id of the client message it answers)."""
        frame: dict[str, object] = {
            "op": "error",
            "code": code,
            "message": message,
            "rule": rule,
            "reason": reason,
            "seq": seq,
        }
        if type(ref) is int:
            frame["id"] = ref
        self.push(json.dumps(frame))

    async def write(self) -> None:
        """Send the queued frames in order, until a close."""
        while True:
            item = await self.queue.get()
            if isinstance(item, _Close):
                await self.socket.close(item.code, item.reason)
                return
            await self.socket.send_text(item)


class _Bucket:
    """A token bucket: ``RATE`` messages a second on average, ``BURST`` at once."""

    def __init__(self) -> None:
        self.tokens = float(BURST)
        self.last = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.last) * RATE)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


async def _hello(socket: WebSocket, lobby: Lobby, table: Table) -> Seat | None:
    message = await asyncio.wait_for(socket.receive(), HELLO_TIMEOUT)
    if message["type"] != "websocket.receive":
        raise WebSocketGone
    text = message.get("text")
    if text is None:
        raise WebError("bad-message", "send text frames holding JSON")
    data = parse(text, max_chars=MAX_MESSAGE_CHARS)
    if type(data) is not dict or data.get("op") != "hello" or set(data) - {"op", "token"}:
        raise WebError("bad-message", 'the first message must be {"op": "hello", "token": ...}')
    return lobby.authenticate(table, data.get("token"))


class WebSocketGone(Exception):
    """The client went away."""


async def _handle(connection: Connection, lobby: Lobby, table: Table, text: str) -> None:
    data = parse(text, max_chars=MAX_MESSAGE_CHARS)
    if type(data) is not dict:
        raise WebError("bad-message", "a message is a JSON object with an op")
    op = data.get("op")
    if op == "ping" and set(data) <= {"op", "id"}:
        connection.push('{"op":"pong"}')
        return
    if op != "act":
        raise WebError("bad-message", f"unknown op {str(op)[:20]!r}: use act or ping")
    if set(data) - {"op", "action", "id"}:
        raise WebError("bad-message", "an act message has the keys op, action and id only")
    if connection.seat is None:
        raise WebError("spectator", "spectators cannot act: join a seat to play", 403)
    await lobby.act(table, connection.seat, action_from_wire(data.get("action")))


async def _socket(socket: WebSocket) -> None:
    lobby: Lobby = socket.app.state.lobby
    await socket.accept()
    try:
        table = lobby.table(socket.path_params["table_id"])
        seat = await _hello(socket, lobby, table)
    except (WebError, SerializationError) as error:
        code = error.code if isinstance(error, WebError) else "bad-message"
        await socket.send_text(json.dumps({"op": "error", "code": code, "message": str(error)}))
        await socket.close(1008, code)
        return
    except (TimeoutError, WebSocketGone):
        with contextlib.suppress(Exception):
            await socket.close(1008, "no hello")
        return
    connection = Connection(socket, seat)
    connection.push(
        json.dumps(
            {
                "op": "welcome",
                "seat": None if seat is None else SEAT_LETTERS[seat],
                "table": table.id,
                "melds": legend(),
            }
        )
    )
    writer = asyncio.create_task(connection.write())
    lobby.subscribe(table, connection)
    try:
        await _read(socket, connection, lobby, table)
    finally:
        lobby.unsubscribe(table, connection)
        connection.end(1000, "bye")  # after the frames still queued (a no-op if already ending)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, CLOSE_TIMEOUT)
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer


async def _read(socket: WebSocket, connection: Connection, lobby: Lobby, table: Table) -> None:
    bucket = _Bucket()
    dropped = 0  # messages dropped since the client last calmed down
    while not connection.closing:
        message = await socket.receive()
        if message["type"] != "websocket.receive":
            return
        if not bucket.take():
            dropped += 1
            if dropped == 1:
                connection.error(
                    "rate-limited",
                    f"too many messages (over {BURST} at once, {RATE:.0f} a second): "
                    "messages are dropped until you slow down",
                    seq=table.seq,
                )
            elif dropped > MAX_DROPPED:
                connection.end(1008, "flood")
                return
            continue
        if bucket.tokens >= BURST / 2:  # calm again: the next flood gets a new warning
            dropped = 0
        text = message.get("text")
        if text is None:
            connection.error("bad-message", "send text frames holding JSON", seq=table.seq)
            continue
        if len(text) > MAX_MESSAGE_CHARS:
            connection.error(
                "too-large",
                f"the message has {len(text)} characters; at most {MAX_MESSAGE_CHARS}",
                seq=table.seq,
            )
            continue
        try:
            await _handle(connection, lobby, table, text)
        except IllegalActionError as error:
            connection.error(
                "illegal",
                str(error),
                seq=table.seq,
                ref=_id(text),
                rule=error.rule,
                reason=error.reason.name,
            )
        except WebError as error:
            connection.error(error.code, error.message, seq=table.seq, ref=_id(text))
        except DeepSixError as error:
            connection.error("bad-message", str(error), seq=table.seq, ref=_id(text))


def _id(text: str) -> object:
    with contextlib.suppress(Exception):
        data = json.loads(text)
        if type(data) is dict:
            return data.get("id")
    return None


# -- the application ---------------------------------------------------------------------


class _Headers:
    """Security headers on every HTTP response: only this server's own files may load."""

    POLICY: Final = (
        "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; "
        "style-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; "
        "frame-ancestors 'none'"
    )

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [
                    (b"content-security-policy", self.POLICY.encode()),
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                ]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def create_app(
    database: str | Path = ":memory:",
    *,
    bot_delay: float = 0.0,
    hand_pause: float = 0.0,
    durable: bool = False,
) -> Starlette:
    """The server's ASGI application, its tables stored in the SQLite file ``database``.

    On start-up every stored table is rebuilt and its bots resume.
    """

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = Store(database, durable=durable)
        lobby = Lobby(store, bot_delay=bot_delay, hand_pause=hand_pause)
        lobby.load()
        app.state.lobby = lobby
        lobby.resume()
        try:
            yield
        finally:
            await lobby.close()
            store.close()

    routes = [
        Route("/", _page),
        Route("/table/{table_id}", _page),
        Route("/replay/{table_id}", _page),
        Route("/api/bots", _endpoint(_bots)),
        Route("/api/tables", _endpoint(_tables)),
        Route("/api/tables", _endpoint(_create, 201), methods=["POST"]),
        Route("/api/tables/{table_id}", _endpoint(_table)),
        Route("/api/tables/{table_id}/join", _endpoint(_join), methods=["POST"]),
        Route("/api/tables/{table_id}/fill", _endpoint(_fill), methods=["POST"]),
        Route("/api/schema/{name}", _endpoint(_schema)),
        Route("/api/rules", _endpoint(_rules)),
        Route("/api/tables/{table_id}/record", _record),
        Route("/api/tables/{table_id}/replay", _endpoint(_replay_steps)),
        Route("/api/tables/{table_id}/replay/{seq:int}.svg", _picture),
        WebSocketRoute("/ws/{table_id}", _socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.add_middleware(_Headers)
    return app
