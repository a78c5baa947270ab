"""Reading the HTTP API's requests and answering them: the pieces every route uses.

:func:`endpoint` makes a route of a handler (JSON in and out, every refusal a
JSON error body, the per-address request rate, requests from other sites'
pages refused); the rest read a request's body and parameters and prove who
asks -- a seat's or the host's credential from the table's cookie (browsers)
or ``Authorization: Bearer TOKEN`` (other programs).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Final

from deepsix.cards import Seat
from deepsix.errors import DeepSixError, SerializationError, missing_extra
from deepsix.io.wire import parse
from deepsix.web import protocol as p
from deepsix.web.credentials import HOST_COOKIE, SEAT_COOKIE, SEAT_NAMES, clean_name, cookie
from deepsix.web.lobby import Lobby
from deepsix.web.protocol import WebError
from deepsix.web.rooms import Room
from deepsix.web.sockets import same_origin

try:  # the web extra; without it, one line says what to install
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response
except ImportError as _missing:
    raise missing_extra("deepsix.web.requests", "web", _missing) from None

__all__ = [
    "MAX_BODY_BYTES",
    "MAX_CLOCK",
    "Handler",
    "as_json",
    "client_address",
    "clock_of",
    "cursor_of",
    "endpoint",
    "error_body",
    "flag",
    "json_body",
    "player_name",
    "read_body",
    "require_host",
    "require_player",
    "require_visible",
    "secret_of",
    "set_cookie",
    "who",
    "whole_number",
]

_log = logging.getLogger("deepsix.web")

MAX_BODY_BYTES: Final = 8192
"""The largest HTTP request body accepted."""
MAX_CLOCK: Final = 24 * 3600.0
"""The longest turn clock, in seconds."""

Handler = Callable[[Request, Lobby], Awaitable[Response | object]]
"""A route's work: the request and the lobby in, a response or JSON data out."""


def error_body(code: str, message: str) -> dict[str, object]:
    return {"error": {"code": code, "message": message}}


def endpoint(handler: Handler, status: int = 200) -> Callable[[Request], Awaitable[Response]]:
    """A route from a handler: JSON in and out, every refusal a JSON error body."""

    async def run(request: Request) -> Response:
        lobby: Lobby = request.app.state.lobby
        try:
            lobby.guard.request(client_address(request))
            if request.method != "GET" and not same_origin(request.headers):
                raise WebError("forbidden", "requests from other sites' pages are refused", 403)
            result = await handler(request, lobby)
        except WebError as error:
            return JSONResponse(error_body(error.code, error.message), error.status)
        except DeepSixError as error:
            return JSONResponse(error_body("bad-request", str(error)), 400)
        except Exception:
            _log.exception("%s %s failed", request.method, request.url.path)
            return JSONResponse(error_body("internal", "the server failed; try again"), 500)
        if isinstance(result, Response):
            if "cache-control" not in result.headers:
                result.headers["cache-control"] = "no-store"
            return result
        return JSONResponse(result, status, headers={"Cache-Control": "no-store"})

    return run


def as_json(value: object) -> Any:
    """A declared class as plain JSON data."""
    return json.loads(p.encode(value))


def client_address(request: Request) -> str | None:
    """The address of the request's client (the peer; a proxy's, behind one)."""
    return None if request.client is None else request.client.host


async def read_body(request: Request) -> bytes:
    size = 0
    chunks: list[bytes] = []
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise WebError("too-large", f"request bodies are at most {MAX_BODY_BYTES} bytes", 413)
        chunks.append(chunk)
    return b"".join(chunks)


async def json_body(request: Request, allowed: set[str]) -> dict[str, Any]:
    try:  # a body sent a byte at a time holds a connection: it has as long as headers have
        async with asyncio.timeout(request.app.state.config.header_timeout):
            body = await read_body(request)
    except TimeoutError:
        raise WebError("timeout", "the request's body came too slowly", 408) from None
    if not body:
        return {}
    try:
        data = parse(body, max_chars=MAX_BODY_BYTES)
    except SerializationError as error:
        raise WebError("bad-request", f"the body is not valid JSON: {error}") from None
    if type(data) is not dict:
        raise WebError("bad-request", "the body must be a JSON object")
    unknown = set(data) - allowed
    if unknown:
        raise WebError("bad-request", f"unknown keys: {', '.join(sorted(unknown))[:80]}")
    return data


def secret_of(request: Request, name: str) -> str | None:
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip() or None
    return request.cookies.get(name)


def who(request: Request, room: Room) -> tuple[Seat | None, bool]:
    """The request's seat at this table, and whether it holds the host's credential."""
    seat = room.seat_holding(secret_of(request, SEAT_COOKIE))
    host = room.is_host(secret_of(request, HOST_COOKIE)) or room.is_host(
        request.cookies.get(HOST_COOKIE)
    )
    return seat, host


def require_visible(request: Request, room: Room) -> None:
    """A private table exists only for its players, its host and those with its invite."""
    if not room.private:
        return
    seat, host = who(request, room)
    invite = request.headers.get("x-invite")
    if seat is None and not host and not (invite and hmac.compare_digest(invite, room.invite)):
        raise WebError("no-such-table", f"no table {room.id!r}", 404)


def require_host(request: Request, room: Room) -> None:
    if not who(request, room)[1]:
        raise WebError("forbidden", "only the table's host may do this", 403)


def require_player(request: Request, room: Room) -> tuple[Seat | None, bool]:
    """:func:`who` for what only a player seated at the table, or its host, may do."""
    seat, host = who(request, room)
    if seat is None and not host:
        raise WebError("unauthorized", "a seat's credential (or the host's) is required", 401)
    return seat, host


def set_cookie(
    response: Response, request: Request, name: str, secret: str | None, table_id: str
) -> None:
    secure = request.app.state.config.secure_cookies or request.url.scheme == "https"
    response.headers.append("set-cookie", cookie(name, secret, table_id, secure=secure))


def flag(data: dict[str, Any], key: str, default: bool) -> bool:
    value = data.get(key, default)
    if type(value) is not bool:
        raise WebError("bad-request", f"{key} must be true or false")
    return value


def clock_of(data: dict[str, Any], default: float | None) -> float | None:
    value = data.get("clock", default)
    if value is None:
        return None
    if type(value) not in (int, float) or not 1 <= value <= MAX_CLOCK:
        raise WebError("bad-request", f"clock is a number of seconds from 1 to {MAX_CLOCK:.0f}")
    return float(value)


def player_name(value: object, seat: Seat) -> str:
    try:
        return clean_name(value, SEAT_NAMES[seat])
    except ValueError as error:
        raise WebError("bad-name", str(error)) from None


def whole_number(text: str | None, default: int, low: int, high: int) -> int:
    if text is None:
        return default
    if not text.isdigit() or not low <= int(text) <= high:
        raise WebError("bad-request", f"expected a whole number from {low} to {high}")
    return int(text)


def cursor_of(text: str | None) -> tuple[float, str] | None:
    if text is None:
        return None
    when, _, table_id = text.partition(":")
    try:
        return float(when), table_id[:40]
    except ValueError:
        raise WebError("bad-request", "before is the next cursor of the previous page") from None
