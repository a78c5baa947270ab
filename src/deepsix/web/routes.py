"""The HTTP API and pages (all JSON but the pages and the record).

Every answer that is not a page is JSON; a refusal is ``{"error": {"code":
..., "message": ...}}`` with a 4xx or 5xx status (``ERROR_CODES``),
never a plain-text traceback.  Requests that act for a seat or the host
prove it with the table's cookie (browsers) or ``Authorization: Bearer
TOKEN`` (other programs); requests from another site's pages are refused.

* ``GET /``, ``/table/{id}``: the browser client.
* ``GET /healthz``: whether the server serves and its storage answers (200, else 503).
* ``GET /api/bots``: the bots a seat can be given.
* ``GET /api/tables``: the lobby (the newest 50 open and 50 running tables, the latest finished
  ones; ``next`` holds the cursor where the open and the running go on);
  ``?status=open|running|finished&limit=N&before=CURSOR``: one kind page by page, newest first
  (``limit`` 1 to 100, 20 by default; each page's ``next`` is the cursor of the following
  one, ``null`` on the last).
* ``POST /api/tables``: make a table (sets the seat and host cookies); ``"hint": true`` lets its
  players ask for hints.
* ``GET /api/tables/{id}``: one table's public description.
* ``POST /api/tables/{id}/join``: take an open seat (with ``invite`` at a private table).
* ``POST /api/tables/{id}/session``: trade a seat's token for its cookie; ``DELETE``: forget
  the seat in this browser.
* ``POST /api/tables/{id}/fill``: a player or the host gives the open seats to bots.
* ``POST /api/tables/{id}/settings``: the host sets ``private``, ``clock``, ``standin``.
* ``POST /api/tables/{id}/seats/{seat}/credential``: the host or the seat's player gets a new
  credential for it (the old one stops working).
* ``POST /api/tables/{id}/seats/{seat}/bot``: the host gives the seat to a bot.
* ``POST /api/tables/{id}/invite``: the host makes a new invite link (the old one stops working).
* ``POST /api/tables/{id}/abandon``: the host ends the table.
* ``POST /api/tables/{id}/rematch``: a player or the host of a finished table starts the next.
* ``GET /api/tables/{id}/record``: the finished game's record (text).
* ``GET /api/tables/{id}/replay?seat=&start=&count=``: the finished game step by step (JSON).
* ``GET /api/tables/{id}/replay/{seq}.svg?seat=``: a position of the finished game, drawn.
* ``GET /replay/{id}``: the replay page.
* ``GET /api/tables/{id}/hint``: the quick bot's choice for the asker's seat, on her turn, at a
  table made with ``hint`` (:mod:`deepsix.web.hint`).
* ``GET /api/tables/{id}/analysis/{hand}``: a finished hand's costly moments, or ``pending``.
* ``GET /api/rules``: the numbered rules, one line each (:data:`deepsix.rulebook.RULEBOOK`).
* ``GET /api/schema/{Action|Event|PlayerView|protocol}``: the JSON Schemas.
* ``WS /api/tables/{id}/socket``, ``WS /api/lobby``: see :mod:`deepsix.web.protocol`.
"""

from __future__ import annotations

import hmac
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Final

from deepsix.cards import Seat
from deepsix.errors import missing_extra
from deepsix.io.wire import wire_schema
from deepsix.rulebook import RULEBOOK
from deepsix.web import protocol as p
from deepsix.web import rematch as rematches
from deepsix.web import seating
from deepsix.web.analysis import Analyses
from deepsix.web.archive import MAX_STEPS, picture, record_text, replay_page
from deepsix.web.credentials import (
    HOST_COOKIE,
    SEAT_COOKIE,
)
from deepsix.web.hint import hint
from deepsix.web.lobby import LOBBY_SHOWN, Lobby
from deepsix.web.protocol import WebError
from deepsix.web.requests import (
    as_json,
    client_address,
    clock_of,
    cursor_of,
    endpoint,
    error_body,
    flag,
    json_body,
    player_name,
    require_host,
    require_player,
    require_visible,
    secret_of,
    set_cookie,
    who,
    whole_number,
)
from deepsix.web.rooms import Room
from deepsix.web.slots import bot_names, check_bot, letter, seat_of

try:  # the web extra; without it, one line says what to install
    from starlette.requests import Request
    from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
    from starlette.types import ASGIApp, Message, Receive, Scope, Send
except ImportError as _missing:
    raise missing_extra("deepsix.web.routes", "web", _missing) from None

__all__ = ["STATIC", "SecurityHeaders", "endpoints", "http_error", "page"]

_log = logging.getLogger("deepsix.web")

STATIC: Final = Path(__file__).parent / "static"
"""The browser client's files."""
PAGE_SIZE: Final = 20
MAX_PAGE: Final = 100
"""Finished tables per page, unless asked otherwise (at most 100)."""


# -- the lobby and tables ---------------------------------------------------------------------


async def _bots(request: Request, lobby: Lobby) -> object:
    return {"bots": list(bot_names()), "default": "heuristic"}


async def _tables(request: Request, lobby: Lobby) -> object:
    status = request.query_params.get("status")
    limit = whole_number(request.query_params.get("limit"), PAGE_SIZE, 1, MAX_PAGE)
    before = cursor_of(request.query_params.get("before"))
    if status == "finished":
        tables, cursor = await lobby.finished_page(limit, before)
        return {"tables": [as_json(info) for info in tables], "next": cursor}
    if status in ("open", "running"):
        tables, cursor = lobby.live_page(status, limit, before)
        return {"tables": [as_json(info) for info in tables], "next": cursor}
    if status is not None:
        raise WebError(
            "bad-request", "status is open, running or finished, or left out for the lobby"
        )
    frame = lobby.frame()
    listed = [*frame.open, *frame.running]
    data = as_json(frame)
    del data["op"]
    data["tables"] = [as_json(info) for info in listed]
    data["next"] = {kind: lobby.next_after(kind, LOBBY_SHOWN) for kind in ("open", "running")}
    return data


async def _create(request: Request, lobby: Lobby) -> Response:
    config = request.app.state.config
    data = await json_body(
        request, {"seats", "me", "name", "seed", "private", "clock", "standin", "hint"}
    )
    seats = data.get("seats", {})
    if type(seats) is not dict:
        raise WebError("bad-request", 'seats must be an object such as {"E": "heuristic"}')
    chosen = {}
    for key, bot in seats.items():
        seat_of(key)
        chosen[key] = "open" if bot in ("open", None) else check_bot(bot)
    me = data.get("me")
    if me is not None:
        seat_of(me)
    seed = data.get("seed")
    if seed is not None:
        if not config.seeded_tables:
            raise WebError(
                "seeded-off",
                "this server deals from its own randomness: seeded tables are a server option"
                " (deepsix serve --seeded-tables), for tests and puzzles",
            )
        if type(seed) is not int or not 0 <= seed < 2**63:
            raise WebError("bad-seed", "a seed is a whole number from 0 to 2**63 - 1")
    private = flag(data, "private", False)
    hint = flag(data, "hint", False)
    clock = clock_of(data, None if private else config.public_clock)
    standin = check_bot(data.get("standin", "heuristic"))
    name = player_name(data.get("name"), seat_of(me) if me is not None else Seat.NORTH)
    room, secret, host = await lobby.create(
        seats=chosen, me=me, name=name, seed=seed, private=private, clock=clock, standin=standin,
        hint=hint,
        maker=client_address(request),
    )  # fmt: skip
    body: dict[str, object] = {
        "table": as_json(room.info()),
        "url": f"/table/{room.id}",
        "invite": _invite_link(room),
        "host_token": host,
    }
    if secret is not None:
        body.update(seat=me, token=secret)
    response = JSONResponse(body, 201)
    set_cookie(response, request, HOST_COOKIE, host, room.id)
    if secret is not None:
        set_cookie(response, request, SEAT_COOKIE, secret, room.id)
    return response


def _invite_link(room: Room) -> str:
    return f"/table/{room.id}#invite={room.invite}"


async def _table(request: Request, lobby: Lobby) -> object:
    room = await lobby.room(request.path_params["table_id"])
    require_visible(request, room)
    return as_json(room.info())


async def _join(request: Request, lobby: Lobby) -> Response:
    data = await json_body(request, {"seat", "name", "invite"})
    room = await lobby.room(request.path_params["table_id"])
    invite = data.get("invite")
    invited = type(invite) is str and hmac.compare_digest(invite, room.invite)
    if room.private and not invited:
        require_visible(request, room)
    seat = seat_of(data.get("seat"))
    secret = await seating.join(room, seat, player_name(data.get("name"), seat))
    response = JSONResponse(
        {
            "table": as_json(room.info()),
            "seat": letter(seat),
            "token": secret,
            "url": f"/table/{room.id}",
        }
    )
    set_cookie(response, request, SEAT_COOKIE, secret, room.id)
    return response


async def _session(request: Request, lobby: Lobby) -> Response:
    room = await lobby.room(request.path_params["table_id"])
    if request.method == "DELETE":
        response = JSONResponse({"seat": None})
        set_cookie(response, request, SEAT_COOKIE, None, room.id)
        set_cookie(response, request, HOST_COOKIE, None, room.id)
        return response
    secret = secret_of(request, SEAT_COOKIE)
    seat = room.seat_holding(secret)
    if seat is None or secret is None:
        raise WebError("unauthorized", "this token holds no seat at this table", 401)
    response = JSONResponse({"seat": letter(seat)})
    set_cookie(response, request, SEAT_COOKIE, secret, room.id)
    return response


async def _fill(request: Request, lobby: Lobby) -> object:
    data = await json_body(request, {"bot"})
    room = await lobby.room(request.path_params["table_id"])
    require_player(request, room)
    if not room.has_bots:
        lobby.guard.bot_table(room.maker, lobby.live())
    await seating.fill(room, check_bot(data.get("bot", "heuristic")))
    return {"table": as_json(room.info())}


async def _settings(request: Request, lobby: Lobby) -> object:
    data = await json_body(request, {"private", "clock", "standin"})
    room = await lobby.room(request.path_params["table_id"])
    require_host(request, room)
    await seating.configure(
        room,
        private=flag(data, "private", room.private) if "private" in data else None,
        clock=clock_of(data, None) if "clock" in data else False,
        standin=check_bot(data["standin"]) if "standin" in data else None,
    )
    return {"table": as_json(room.info())}


async def _credential(request: Request, lobby: Lobby) -> Response:
    room = await lobby.room(request.path_params["table_id"])
    seat = seat_of(request.path_params["seat"])
    mine, host = who(request, room)
    if not host and mine != seat:
        raise WebError("forbidden", "only the host or the seat's own player may do this", 403)
    secret = await seating.reissue(room, seat)
    response = JSONResponse({"seat": letter(seat), "token": secret})
    if mine == seat:
        set_cookie(response, request, SEAT_COOKIE, secret, room.id)
    return response


async def _invite(request: Request, lobby: Lobby) -> object:
    room = await lobby.room(request.path_params["table_id"])
    require_host(request, room)
    await seating.new_invite_code(room)
    return {"invite": _invite_link(room)}


async def _to_bot(request: Request, lobby: Lobby) -> object:
    data = await json_body(request, {"bot"})
    room = await lobby.room(request.path_params["table_id"])
    require_host(request, room)
    seat = seat_of(request.path_params["seat"])
    await seating.give_to_bot(room, seat, check_bot(data.get("bot", room.standin)))
    return {"table": as_json(room.info())}


async def _abandon(request: Request, lobby: Lobby) -> object:
    room = await lobby.room(request.path_params["table_id"])
    require_host(request, room)
    async with room.runner.lock:
        if room.status == "finished":
            raise WebError("finished", "the table has ended")
        await room.finish(p.Result(None, "abandoned", None))
    room.tell(p.Notice("abandoned", "the host ended the table"))
    return {"table": as_json(room.info())}


async def _rematch(request: Request, lobby: Lobby) -> Response:
    data = await json_body(request, {"seating"})
    room = await lobby.room(request.path_params["table_id"])
    _seat, host = require_player(request, room)
    seating = data.get("seating", "NESW")
    if type(seating) is not str:
        raise WebError("bad-seat", 'seating is a string such as "NSEW"')
    await rematches.rematch(lobby, room, seating)
    new, new_seat, fresh = await rematches.claim(lobby, room, secret_of(request, SEAT_COOKIE))
    body = {
        "table": as_json(new.info()),
        "url": f"/table/{new.id}",
        "seat": None if new_seat is None else letter(new_seat),
    }
    if fresh is not None:
        body["token"] = fresh  # for programs; a browser keeps the cookie
    response = JSONResponse(body, 201)
    if fresh is not None:
        set_cookie(response, request, SEAT_COOKIE, fresh, new.id)
    host_secret = secret_of(request, HOST_COOKIE)
    if host and host_secret is not None:
        set_cookie(response, request, HOST_COOKIE, host_secret, new.id)
    return response


async def _record(request: Request, lobby: Lobby) -> Response:
    room = await lobby.room(request.path_params["table_id"])
    require_visible(request, room)
    return PlainTextResponse(
        record_text(room),
        headers={"Content-Disposition": f'attachment; filename="deepsix-{room.id}.txt"'},
    )


async def _replay(request: Request, lobby: Lobby) -> object:
    room = await lobby.room(request.path_params["table_id"])
    require_visible(request, room)
    query = request.query_params
    start = whole_number(query.get("start"), 1, 1, 10**6)
    count = (
        None if query.get("count") is None else whole_number(query.get("count"), 1, 1, MAX_STEPS)
    )
    return as_json(replay_page(room, query.get("seat"), start, count))


async def _analysis(request: Request, lobby: Lobby) -> object:
    """A finished hand's costly moments (:mod:`deepsix.web.analysis`), or ``pending``."""
    room = await lobby.room(request.path_params["table_id"])
    require_visible(request, room)
    state = request.app.state
    if getattr(state, "analyses", None) is None:
        state.analyses = Analyses()
    return state.analyses.of(room, request.path_params["hand"])


async def _hint(request: Request, lobby: Lobby) -> object:
    """The quick bot's choice for the asker's seat (:mod:`deepsix.web.hint`)."""
    room = await lobby.room(request.path_params["table_id"])
    return await hint(room, who(request, room)[0])


async def _picture(request: Request, lobby: Lobby) -> Response:
    """One position of a finished game as SVG: ``?seat=N`` as that seat saw it, else open."""
    room = await lobby.room(request.path_params["table_id"])
    require_visible(request, room)
    drawn = picture(room, request.path_params["seq"], request.query_params.get("seat") or None)
    return Response(drawn, media_type="image/svg+xml", headers={"Cache-Control": "max-age=3600"})


async def _health(request: Request, lobby: Lobby) -> Response:
    """``GET /healthz``: 200 while the server serves and its storage answers, else 503."""
    try:
        await lobby.services.store.table("healthz")  # a read through the writer thread
    except Exception as error:
        _log.error("health check: storage does not answer (%s)", " ".join(str(error).split()))
        return JSONResponse({"status": "unavailable", "storage": "failing"}, 503)
    return JSONResponse(
        {
            "status": "ok",
            "storage": "ok",
            "tables": len(lobby.live()),
            "quarantined": len(lobby.quarantined),
            "connections": lobby.guard.open,
        }
    )


async def _rules(request: Request, lobby: Lobby) -> object:
    return {"rules": dict(RULEBOOK)}


async def _schema(request: Request, lobby: Lobby) -> object:
    name = request.path_params["name"]
    if name == "protocol":
        return p.protocol_schema()
    if name not in ("Action", "Event", "PlayerView"):
        raise WebError("no-such-schema", "schemas: Action, Event, PlayerView, protocol", 404)
    return wire_schema(name)


async def http_error(request: Request, error: Exception) -> Response:
    """Starlette's own refusals (no such route, wrong method) as JSON error bodies under /api."""
    status = getattr(error, "status_code", 500)
    if not request.url.path.startswith("/api/"):
        return PlainTextResponse(str(getattr(error, "detail", "error")), status)
    code = {404: "no-such-route", 405: "method-not-allowed"}.get(status, "bad-request")
    message = "no such route" if status == 404 else str(getattr(error, "detail", "refused"))
    return JSONResponse(error_body(code, message), status)


async def page(request: Request) -> Response:
    """The browser client's page."""
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


def endpoints() -> list[tuple[str, Callable[[Request], Awaitable[Response]], list[str]]]:
    """Every HTTP route: ``(path, endpoint, methods)``."""
    table = "/api/tables/{table_id}"
    return [
        ("/healthz", endpoint(_health), ["GET"]),
        ("/api/bots", endpoint(_bots), ["GET"]),
        ("/api/tables", endpoint(_tables), ["GET"]),
        ("/api/tables", endpoint(_create, 201), ["POST"]),
        (table, endpoint(_table), ["GET"]),
        (f"{table}/join", endpoint(_join), ["POST"]),
        (f"{table}/session", endpoint(_session), ["POST", "DELETE"]),
        (f"{table}/fill", endpoint(_fill), ["POST"]),
        (f"{table}/settings", endpoint(_settings), ["POST"]),
        (f"{table}/seats/{{seat}}/credential", endpoint(_credential), ["POST"]),
        (f"{table}/seats/{{seat}}/bot", endpoint(_to_bot), ["POST"]),
        (f"{table}/invite", endpoint(_invite), ["POST"]),
        (f"{table}/abandon", endpoint(_abandon), ["POST"]),
        (f"{table}/rematch", endpoint(_rematch, 201), ["POST"]),
        (f"{table}/record", endpoint(_record), ["GET"]),
        (f"{table}/replay", endpoint(_replay), ["GET"]),
        (f"{table}/replay/{{seq:int}}.svg", endpoint(_picture), ["GET"]),
        (f"{table}/analysis/{{hand:int}}", endpoint(_analysis), ["GET"]),
        (f"{table}/hint", endpoint(_hint), ["GET"]),
        ("/api/rules", endpoint(_rules), ["GET"]),
        ("/api/schema/{name}", endpoint(_schema), ["GET"]),
    ]


class SecurityHeaders:
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
