"""The WebSockets: a table's (``/api/tables/{id}/socket``) and the lobby's (``/api/lobby``).

A table connection starts with a ``hello`` (:class:`~deepsix.web.protocol.Hello`):
the seat is proven by the table's cookie (browsers) or the hello's
``token`` (other programs), and no proof means watching -- a private table
then asks for its invite code.  Every later message is read with
:func:`~deepsix.web.protocol.parse_client` and handed to the
:class:`~deepsix.web.rooms.Room`; what it refuses comes back as an error
frame, and nothing changes.

Each connection has its own queue of frames, written in order by its own
task: a client that reads slowly is disconnected (1013) rather than
holding up its table, and one that floods is throttled, then cut off (1008).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import time
from typing import Any, Final, NamedTuple

from deepsix.cards import Seat
from deepsix.errors import DeepSixError, IllegalActionError, missing_extra
from deepsix.io.wire import action_from_wire
from deepsix.melds import ALL_MELDS
from deepsix.web import chat, seating
from deepsix.web import protocol as p
from deepsix.web.credentials import HOST_COOKIE, SEAT_COOKIE
from deepsix.web.limits import Bucket
from deepsix.web.lobby import Lobby
from deepsix.web.protocol import ProtocolError, WebError
from deepsix.web.rooms import Room
from deepsix.web.slots import letter

try:  # the web extra; without it, one line says what to install
    from starlette.websockets import WebSocket
except ImportError as _missing:
    raise missing_extra("deepsix.web.sockets", "web", _missing) from None

__all__ = ["Connection", "legend", "lobby_socket", "table_socket"]

MAX_FRAME_BYTES: Final = 64 * 1024
"""A WebSocket frame larger than this closes the connection (1009, message too big)."""
RATE: Final = 100.0
"""Messages per second a connection may send on average ..."""
BURST: Final = 200
"""... and in a burst; past that, messages are dropped with one error per burst."""
MAX_DROPPED: Final = 1000
"""A connection that drops this many messages before calming down is closed (1008)."""
QUEUE: Final = 256
"""Frames waiting for a slow client; past that it is disconnected (1013)."""
DRAIN_TIMEOUT: Final = 5.0
"""Seconds a client has to take in half a queue of frames before it is disconnected."""
HELLO_TIMEOUT: Final = 15.0
"""Seconds a new connection has to say hello."""
CLOSE_TIMEOUT: Final = 5.0
"""How long the frames still queued for a closing connection may take to send."""


def legend() -> dict[str, Any]:
    """What a client needs to draw melds: each meld code's name, value and cards."""
    return {
        meld.code: {"name": str(meld), "value": meld.value, "cards": [c.ascii for c in meld.cards]}
        for meld in ALL_MELDS
    }


class _Close(NamedTuple):
    """The last item of a connection's queue: close once the frames before it are sent."""

    code: int
    reason: str


class Connection:
    """One WebSocket: its seat, and a queue of frames written in order by its own task."""

    def __init__(self, socket: WebSocket, seat: Seat | None, host: bool = False) -> None:
        self.socket = socket
        self.seat = seat
        self.host = host
        self.heard = time.monotonic()
        self.queue: asyncio.Queue[str | _Close] = asyncio.Queue(QUEUE)
        self.closing = False

    def push(self, text: str) -> None:
        """Queue a frame; a client that lets ``QUEUE`` frames pile up is disconnected."""
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

    async def drained(self) -> bool:
        """Let the writer catch up before the next message is read (back-pressure).

        A client whose frames pile up past half the queue is read no further
        until they go out; one that does not take them in ``DRAIN_TIMEOUT``
        seconds is disconnected (1013).  Returns whether the connection goes on.
        """
        await asyncio.sleep(0)  # the writer's turn
        deadline = time.monotonic() + DRAIN_TIMEOUT
        while self.queue.qsize() > QUEUE // 2 and not self.closing:
            if time.monotonic() > deadline:
                self.end(1013, "too slow: reconnect")
                return False
            await asyncio.sleep(0.01)
        return not self.closing

    def error(self, error: p.Error) -> None:
        """Push an error frame."""
        self.push(p.encode(error))

    async def write(self) -> None:
        """Send the queued frames in order, until a close."""
        while True:
            item = await self.queue.get()
            if isinstance(item, _Close):
                await self.socket.close(item.code, item.reason)
                return
            await self.socket.send_text(item)


class _Gone(Exception):
    """The client went away."""


def same_origin(headers: Any) -> bool:
    """Whether a request comes from a page of this server (or from no page at all)."""
    origin = headers.get("origin")
    if origin is None:
        return True  # not a browser page: programs prove themselves with a token
    host = headers.get("host", "")
    return bool(origin.split("://", 1)[-1] == host)


async def _receive_text(socket: WebSocket, timeout: float | None = None) -> str:
    message = await asyncio.wait_for(socket.receive(), timeout)
    if message["type"] != "websocket.receive":
        raise _Gone
    text = message.get("text")
    if text is None:
        raise ProtocolError("send text frames holding JSON")
    return str(text)


async def _turn_away(socket: WebSocket, error: Exception) -> None:
    """Close a connection that did not start well: with an error frame if it said something."""
    with contextlib.suppress(Exception):
        if isinstance(error, WebError):
            await socket.send_text(p.encode(p.Error(error.code, error.message)))
            await socket.close(1008, error.code)
        else:  # it said nothing in time, or went away
            await socket.close(1008, "no hello")


async def _finish(connection: Connection, writer: asyncio.Task[None]) -> None:
    """Close a connection after the frames still queued (a no-op if it is already ending)."""
    connection.end(1000, "bye")
    with contextlib.suppress(Exception):
        await asyncio.wait_for(writer, CLOSE_TIMEOUT)
    writer.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await writer


# -- a table's socket ------------------------------------------------------------------------


async def table_socket(socket: WebSocket) -> None:
    """``/api/tables/{id}/socket``: play or watch a table."""
    lobby: Lobby = socket.app.state.lobby
    await socket.accept()
    try:
        if not same_origin(socket.headers):
            raise WebError("unauthorized", "this socket serves this server's own pages only")
        room = await lobby.room(socket.path_params["table_id"])
        hello = p.parse_client(await _receive_text(socket, HELLO_TIMEOUT))
        if not isinstance(hello, p.Hello):
            raise ProtocolError('the first message must be {"op": "hello", "protocol": 2, ...}')
        await _catch_up_seats(room, hello.token or socket.cookies.get(SEAT_COOKIE))
        connection = _greet(socket, room, hello)
    except (WebError, TimeoutError, _Gone) as error:
        await _turn_away(socket, error)
        return
    writer = asyncio.create_task(connection.write())
    try:
        lines = await chat.chat_history(room)
    except Exception:  # storage is down: the game still opens, without its chat
        lines = p.encode(p.ChatFrame(()))
    if hello.since is not None:
        connection.push(p.encode(room.history(hello.since)))
    connection.push(lines)
    room.subscribe(connection)
    try:
        await _read(socket, connection, room)
    finally:
        room.unsubscribe(connection)
        await _finish(connection, writer)


async def _catch_up_seats(room: Room, secret: str | None) -> None:
    """At a site of several servers, a seat taken at another server a moment ago may not have
    reached this one yet: a credential that holds no seat here has the row read again."""
    if secret is None or not room.services.peers.shared or room.seat_holding(secret) is not None:
        return
    with contextlib.suppress(Exception):  # storage down: the credential is judged as it is
        row = await room.services.store.table(room.id)
        if row is not None:
            room.take_row(row)


def _greet(socket: WebSocket, room: Room, hello: p.Hello) -> Connection:
    """Who is connecting: check the hello, make the connection and welcome it."""
    if hello.protocol != p.PROTOCOL_VERSION:
        raise WebError(
            "protocol-version",
            f"this server speaks protocol {p.PROTOCOL_VERSION}, not {hello.protocol}: reload",
        )
    secret = hello.token if hello.token is not None else socket.cookies.get(SEAT_COOKIE)
    seat = room.seat_holding(secret)
    if hello.token is not None and seat is None and not room.is_host(hello.token):
        raise WebError("unauthorized", "this token holds no seat at this table")
    host = room.is_host(hello.token) or room.is_host(socket.cookies.get(HOST_COOKIE))
    invited = hello.invite is not None and hmac.compare_digest(hello.invite, room.invite)
    if room.private and seat is None and not host and not invited:
        raise WebError("no-such-table", f"no table {room.id!r}")
    connection = Connection(socket, seat, host)
    connection.push(
        p.encode(
            p.Welcome(
                protocol=p.PROTOCOL_VERSION,
                table=room.id,
                seat=None if seat is None else letter(seat),
                host=host,
                invite=room.invite if seat is not None or host else None,
                melds=legend(),
            )
        )
    )
    return connection


def _idle(connection: Connection, idle: float) -> None:
    """Close a connection that said nothing for ``idle`` seconds (a browser reconnects)."""
    connection.error(p.Error("idle", f"nothing heard for {idle:g} s: reconnect"))
    connection.end(1001, "idle")


async def _next(socket: WebSocket, connection: Connection, idle: float) -> Any | None:
    """The next message received, or ``None`` when the client went away or said nothing for
    ``idle`` seconds (then the connection is closing)."""
    try:
        message = await asyncio.wait_for(socket.receive(), idle)
    except TimeoutError:
        _idle(connection, idle)
        return None
    return message if message["type"] == "websocket.receive" else None


async def _read(socket: WebSocket, connection: Connection, room: Room) -> None:
    idle = socket.app.state.config.socket_idle
    bucket = Bucket(RATE, BURST)
    dropped = 0  # messages dropped since the client last calmed down
    while not connection.closing:
        if not await connection.drained():
            return
        message = await _next(socket, connection, idle)
        if message is None:
            return
        connection.heard = time.monotonic()
        if not bucket.take():
            dropped += 1
            if dropped == 1:
                connection.error(
                    p.Error(
                        "rate-limited",
                        f"too many messages (over {BURST} at once, {RATE:.0f} a second): "
                        "messages are dropped until you slow down",
                        room.seq,
                    )
                )
            elif dropped > MAX_DROPPED:
                connection.end(1008, "flood")
                return
            continue
        if bucket.tokens >= BURST / 2:  # calm again: the next flood gets a new warning
            dropped = 0
        text = message.get("text")
        try:
            if text is None:
                raise ProtocolError("send text frames holding JSON")
            await _handle(connection, room, p.parse_client(text))
        except IllegalActionError as error:
            connection.error(
                p.Error("illegal", str(error), room.seq, error.rule, error.reason.name, _id(text))
            )
        except WebError as error:
            connection.error(p.Error(error.code, error.message, room.seq, id=_id(text)))
            if error.code == "stale" and connection.seat is not None:
                connection.push(room.frames()(connection.seat))
        except DeepSixError as error:
            connection.error(p.Error("bad-message", str(error), room.seq, id=_id(text)))


async def _handle(
    connection: Connection, room: Room, message: object
) -> None:  # one answer per message
    if isinstance(message, p.Ping):
        connection.push(p.encode(p.Pong(message.id)))
        room.runner.wake()  # a heartbeat may bring a seat back online
        return
    if isinstance(message, p.Hello):
        raise ProtocolError("hello was already said on this connection")
    seat = connection.seat
    if seat is None:
        raise WebError("spectator", "spectators cannot act: join a seat to play", 403)
    if isinstance(message, p.Act):
        await room.act(seat, action_from_wire(message.action), message.seq)
    elif isinstance(message, p.Chat):
        await chat.say(room, seat, message.text)
    elif isinstance(message, p.Ready):
        await room.mark_ready(seat, message.hand)
    elif isinstance(message, p.Return):
        await room.take_back(seat)
    elif isinstance(message, p.Resign):
        await room.resign(seat)
    elif isinstance(message, p.Leave):
        await seating.give_to_bot(room, seat, room.standin, left=True)


def _id(text: str | None) -> int | None:
    if text is None:
        return None
    with contextlib.suppress(Exception):
        data = json.loads(text)
        if type(data) is dict and type(data.get("id")) is int:
            return int(data["id"])
    return None


# -- the lobby's socket ----------------------------------------------------------------------


async def lobby_socket(socket: WebSocket) -> None:
    """``/api/lobby``: the lobby, pushed whenever a listed table changes."""
    lobby: Lobby = socket.app.state.lobby
    await socket.accept()
    try:
        hello = p.parse_client(await _receive_text(socket, HELLO_TIMEOUT), lobby=True)
        if not isinstance(hello, p.LobbyHello):
            raise ProtocolError('the first message must be {"op": "hello", "protocol": 2}')
        if hello.protocol != p.PROTOCOL_VERSION:
            raise WebError(
                "protocol-version", f"this server speaks protocol {p.PROTOCOL_VERSION}: reload"
            )
    except (WebError, TimeoutError, _Gone) as error:
        await _turn_away(socket, error)
        return
    listener = Connection(socket, None)
    writer = asyncio.create_task(listener.write())
    lobby.watch(listener)
    bucket = Bucket(RATE, BURST)
    try:
        idle = socket.app.state.config.socket_idle
        while not listener.closing:
            try:
                text = await _receive_text(socket, idle)
            except TimeoutError:
                _idle(listener, idle)
                break
            except ProtocolError as error:
                listener.error(p.Error(error.code, error.message))
                continue
            if not bucket.take():
                listener.end(1008, "flood")
                break
            try:
                message = p.parse_client(text, lobby=True)
                if not isinstance(message, p.Ping):
                    raise ProtocolError("the lobby's socket takes pings only")
                listener.push(p.encode(p.Pong(message.id)))
            except WebError as error:
                listener.error(p.Error(error.code, error.message))
    except _Gone:
        pass
    finally:
        lobby.unwatch(listener)
        await _finish(listener, writer)
