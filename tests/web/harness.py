"""A real server in a subprocess, WebSocket clients, and the audit of every frame a seat receives.

The server under test is the one users run (``python -m deepsix.web``), on a
free port of 127.0.0.1, with its SQLite file in a temporary directory.  Every
frame a test client receives is checked against the protocol's JSON Schema
(the one the server publishes); the audit rebuilds the game from the SQLite
file (the actions the server stored) and checks each frame pushed to a seat
against the full state at that moment.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import attrs
import jsonschema
from websockets.sync.client import ClientConnection, connect

from deepsix import (
    GameState,
    PlayCard,
    Rules,
    Seat,
    ShowCard,
    apply,
    from_json,
    new_game,
    view,
)
from deepsix.events import events
from deepsix.io.wire import action_from_wire, to_wire
from deepsix.rebuild import walk
from deepsix.tricks import trick_winner
from deepsix.web.protocol import (
    LOBBY_MESSAGES,
    PROTOCOL_VERSION,
    SERVER_MESSAGES,
    protocol_schema,
)
from deepsix.web.sockets import legend
from tests.core.test_views import json_cards, seen_by

SEATS = "NESW"

_SCHEMA = protocol_schema()
_DEFS = _SCHEMA["$defs"]
assert isinstance(_DEFS, dict)
_FRAMES = {
    cls.OP: jsonschema.Draft202012Validator({"$defs": _DEFS, **_DEFS[cls.__name__]})  # type: ignore[attr-defined]  # each message class has OP
    for cls in (*SERVER_MESSAGES, *LOBBY_MESSAGES)
}
_OPS = {cls.OP for cls in SERVER_MESSAGES}  # type: ignore[attr-defined]  # as above
_LOBBY_OPS = {cls.OP for cls in LOBBY_MESSAGES}  # type: ignore[attr-defined]  # as above


def check_frame(frame: dict[str, Any], lobby: bool = False) -> None:
    """Check a frame the server sent against the protocol's published schema."""
    assert frame.get("op") in (_LOBBY_OPS if lobby else _OPS), frame
    _FRAMES[frame["op"]].validate(frame)


OPEN_LIMITS = (
    "--tables-per-address", "100000", "--bot-tables-per-address", "100000",
    "--tables-per-minute", "1000000", "--requests-per-second", "100000",
    "--bot-moves-per-second", "100000",
)  # fmt: skip
"""Per-address limits out of the way."""

TEST_OPTIONS = (
    "--public-clock", "0", "--absent-grace", "3600", "--summary-limit", "30",
    "--bot", "sleepy=tests.web.bots:SleepyBot", "--bot", "failing=tests.web.bots:FailingBot",
    "--bot", "chatty=tests.web.bots:ChattyBot", *OPEN_LIMITS,
)  # fmt: skip
"""The test server's options: no clocks unless a test asks, the test bots, and no limits per
address (every test client is 127.0.0.1; the hostile tests set their own, after these)."""


def _body(data: bytes) -> Any:
    try:
        return json.loads(data)
    except ValueError:
        return data.decode("utf-8", "replace")


def cookie_of(headers: Any, name: str = "deepsix-seat") -> str:
    """The ``Cookie`` header a browser would send back for cookie ``name`` of a response."""
    for value in headers.get_all("set-cookie") or ():
        if value.startswith(f"{name}="):
            return str(value.split(";", 1)[0])
    raise AssertionError(f"no {name} cookie set")


def seat_link(made: dict[str, Any]) -> str:
    """A page address that hands a browser the seat a table was made with.

    The page trades the token in the fragment for the table's cookie and
    takes it out of the address bar at once (the way old links still work);
    a browser that makes its own table never sees its token at all.
    """
    return f"{made['url']}#seat={made['seat']}&token={made['token']}"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """``python -m deepsix.web`` on 127.0.0.1; kill it and start it again on the same file."""

    def __init__(
        self, directory: Path, *, bot_delay: float = 0.0, options: tuple[str, ...] = (),
        log_level: str = "warning", env: dict[str, str] | None = None, seeded: bool = True,
        files: int | None = None, entry: tuple[str, ...] = ("-m", "deepsix.web"),
    ) -> None:  # fmt: skip
        self.db = directory / "tables.sqlite3"
        self.port = free_port()
        self.bot_delay = bot_delay
        self.options = options
        self.log_level = log_level
        self.env = env
        self.seeded = seeded
        """Started with ``--seeded-tables`` (most tests replay seeded games)."""
        self.files = files
        """The server's open-file limit (``ulimit -n``), if the test sets one."""
        self.entry = entry
        """How Python starts the server: ``python -m deepsix.web``, or ``("-m", "deepsix",
        "serve")`` for the command users type."""
        self.log = directory / "server.log"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def socket(self, table: str) -> str:
        """The address of a table's WebSocket."""
        return f"ws://127.0.0.1:{self.port}/api/tables/{table}/socket"

    def start(self) -> None:
        command = [
            sys.executable, *self.entry, "--db", str(self.db), "--port", str(self.port),
            "--bot-delay", str(self.bot_delay), "--hand-pause", "0",
            "--log-level", self.log_level, *TEST_OPTIONS, *self.options,
            *(("--seeded-tables",) if self.seeded else ()),
        ]  # fmt: skip
        if self.files is not None:  # as under ``ulimit -n``: the soft and the hard limit
            command = ["sh", "-c", f'ulimit -n {self.files} && exec "$@"', "sh", *command]
        env = None if self.env is None else {**os.environ, **self.env}
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.base + "/api/bots", timeout=2):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start in 30 s")

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, so only what was committed survives."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    # -- HTTP ----------------------------------------------------------------------------

    def call(
        self, method: str, path: str, body: object = None, token: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, Any]:  # fmt: skip
        status, answer, _ = self.request(method, path, body, token, headers)
        return status, answer

    def request(
        self, method: str, path: str, body: object = None, token: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, Any, Any]:  # fmt: skip
        """An HTTP request: the status, the JSON body (or text) and the response's headers."""
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json", **(headers or {})}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        request = urllib.request.Request(self.base + path, data, headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, _body(response.read()), response.headers
        except urllib.error.HTTPError as error:
            return error.code, _body(error.read() or b"{}"), error.headers

    def create(
        self, seats: dict[str, str], me: str | None = "S", **extra: object
    ) -> dict[str, Any]:
        status, body = self.call("POST", "/api/tables", {"seats": seats, "me": me, **extra})
        assert status == 201, body
        return dict(body)

    def join(self, table: str, seat: str, name: str = "") -> str:
        status, body = self.call("POST", f"/api/tables/{table}/join", {"seat": seat, "name": name})
        assert status == 200, body
        return str(body["token"])

    def four_humans(self, seed: int = 1) -> tuple[str, dict[str, str]]:
        """A table with four open seats, each joined: its id and each seat's token."""
        made = self.create({}, me="N", seed=seed)
        table = made["table"]["id"]
        tokens = {"N": made["token"]}
        for seat in "ESW":
            tokens[seat] = self.join(table, seat)
        return table, tokens

    # -- the stored game -----------------------------------------------------------------

    def states(self, table: str) -> list[GameState]:
        """Every state of the table's game, from the stored actions (index = seq)."""
        db = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True)
        try:
            rules, dealer = db.execute(
                "SELECT rules, dealer FROM tables WHERE id = ?", (table,)
            ).fetchone()
            rows = db.execute(
                "SELECT action FROM actions WHERE table_id = ? ORDER BY seq", (table,)
            ).fetchall()
        finally:
            db.close()
        state = new_game(from_json(rules, Rules), Seat(SEATS.index(dealer)))
        states = [state]
        for (text,) in rows:
            state = apply(state, action_from_wire(json.loads(text)))
            states.append(state)
        return states

    def count(self, table: str) -> int:
        db = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True)
        try:
            row = db.execute("SELECT COUNT(*) FROM actions WHERE table_id = ?", (table,)).fetchone()
        finally:
            db.close()
        return int(row[0])


@attrs.define
class Audit:
    """Every frame each seat received; :meth:`check` compares them with the full states."""

    frames: list[tuple[str, Seat | None, dict[str, Any]]] = attrs.field(factory=list)

    def add(self, table: str, seat: Seat | None, frame: dict[str, Any]) -> None:
        self.frames.append((table, seat, frame))

    def check(self, server: Server) -> int:
        """Assert that no frame holds a card its seat may not see; returns the frames checked."""
        states: dict[str, list[GameState]] = {}
        checked = 0
        for table, seat, frame in self.frames:
            if frame.get("op") == "history":
                if table not in states:
                    states[table] = server.states(table)
                self._check_history(states[table], frame)
                continue
            if frame.get("op") != "update":
                rest = dict(frame)
                if rest["op"] == "welcome":  # the meld legend: the same for everyone
                    assert rest.pop("melds") == legend()
                assert json_cards(json.dumps(rest)) == set(), frame  # no card outside updates
                continue
            if table not in states:
                states[table] = server.states(table)
            seq = frame["seq"]
            state = states[table][seq]
            # The view is exactly the library's view for this seat, which hides every hidden card.
            assert frame["view"] == to_wire(view(state, seat)), (seat, seq)
            # The seat winning the trick in progress is the library's answer (public).
            winning = trick_winner(state.trick, state.sunk_suit) if state.trick else None
            assert frame["winning"] == (None if winning is None else SEATS[winning]), (seat, seq)
            # And independently: every card anywhere in the frame is one this seat has seen
            # (a step's events may name the cards of a trick the step just closed and cleared).
            visible = {card.ascii for card in seen_by(state, seat)}
            if seq > 0:
                before = states[table][seq - 1]
                visible |= {card.ascii for card in seen_by(before, seat)}
                action = state.history[-1]
                if isinstance(action, PlayCard | ShowCard):
                    visible.add(action.card.ascii)
            assert json_cards(json.dumps(frame)) <= visible, (seat, seq)
            if frame["events"]:
                before, after = states[table][seq - 1], state
                expected = events(before, after.history[-1], after)
                assert frame["events"] == [to_wire(event) for event in expected]
            checked += 1
        print(f"audit: {checked} update frames checked for leaks ({len(self.frames)} frames)")
        return checked

    @staticmethod
    def _check_history(states: list[GameState], frame: dict[str, Any]) -> None:
        """A history frame holds exactly the public events of the steps after ``since``."""
        expected = []
        for number, step in enumerate(walk(states[0], states[frame["seq"]].history), 1):
            found = events(*step)
            if number > frame["since"] and found:
                expected.append({"seq": number, "events": [to_wire(e) for e in found]})
        assert frame["steps"] == expected


class Client:
    """A WebSocket client of one seat (or a spectator), recording every frame for the audit.

    Every frame it receives is checked against the protocol's published schema.
    """

    def __init__(
        self, server: Server, table: str, token: str | None, audit: Audit | None = None,
        *, since: int | None = None, invite: str | None = None, cookie: str | None = None,
    ) -> None:  # fmt: skip
        self.table = table
        self.audit = audit
        self.seat: Seat | None = None
        self.frames: list[dict[str, Any]] = []
        self.checked = True
        """Whether each frame received is checked against the protocol's schema."""
        self.auto_ready = True
        """Whether a seat sends ``ready`` as soon as it sees a hand scored (the next deal waits
        for every player who is online)."""
        headers = {"Cookie": cookie} if cookie is not None else None
        # entered as a context manager (websockets 17.1 deprecates connecting otherwise)
        self.socket: ClientConnection = connect(
            server.socket(table),
            max_size=None,
            max_queue=None,
            ping_interval=None,
            additional_headers=headers,
        ).__enter__()
        hello: dict[str, object] = {"op": "hello", "protocol": PROTOCOL_VERSION}
        for key, value in (("token", token), ("since", since), ("invite", invite)):
            if value is not None:
                hello[key] = value
        self.send(hello)
        self.welcome = self.recv()
        assert self.welcome["op"] == "welcome", self.welcome
        letter = self.welcome["seat"]
        self.seat = None if letter is None else Seat(SEATS.index(letter))
        self.last: dict[str, Any] = self.until(lambda frame: frame["op"] == "update")

    def send(self, message: object) -> None:
        self.socket.send(json.dumps(message))

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(self.socket.recv(timeout))
        if self.checked:
            check_frame(frame)
        self.frames.append(frame)
        if self.audit is not None:
            self.audit.add(self.table, self.seat, frame)
        if frame["op"] == "update":
            self.last = frame
            scored = [e for e in frame["events"] if e["type"] == "HandScored"]
            if scored and self.seat is not None and self.auto_ready:
                self.send({"op": "ready", "hand": scored[0]["record"]["number"]})
        return frame

    def until(self, condition: Any, timeout: float = 10) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            frame = self.recv(max(0.01, deadline - time.monotonic()))
            if condition(frame):
                return frame

    def reach(self, seq: int, timeout: float = 10) -> dict[str, Any]:
        """The latest update, once it is of version ``seq`` or later."""
        if self.last["seq"] >= seq:
            return self.last
        return self.until(lambda frame: frame["op"] == "update" and frame["seq"] >= seq, timeout)

    def turn(self, timeout: float = 20) -> dict[str, Any]:
        """The latest update once it is this seat's turn (or the game is over)."""

        def mine(frame: dict[str, Any]) -> bool:
            view = frame["view"]
            return bool(view["phase"] == "game-over" or view["to_act"] == SEATS[self.seat or 0])

        if mine(self.last):
            return self.last
        return self.until(lambda frame: frame["op"] == "update" and mine(frame), timeout)

    def drain(self, quiet: float = 0.3) -> None:
        """Read frames until none comes for ``quiet`` seconds."""
        while True:
            try:
                self.recv(quiet)
            except TimeoutError:
                return

    def ready(self) -> None:
        """Dismiss the summary of the hand just scored (the next deal waits for it)."""
        self.send({"op": "ready", "hand": len(self.last["view"]["completed_hands"])})

    def act(self, action: object, seq: int | None = None) -> dict[str, Any]:
        """Send an action chosen at ``seq`` (default: the last update's); the first error frame,
        or the first update past ``seq``."""
        chosen = self.last["seq"] if seq is None else seq
        self.send({"op": "act", "action": action, "seq": chosen})
        return self.until(
            lambda frame: (
                frame["op"] == "error" or (frame["op"] == "update" and frame["seq"] > chosen)
            )
        )

    def close(self) -> None:
        self.socket.close()
