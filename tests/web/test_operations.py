"""Operations (issue 25 item 6): the health endpoint, structured logs without secrets, and a
graceful stop that makes every write already asked for."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path

from tests.web.harness import Client, Server


def test_the_health_endpoint_says_the_server_and_its_storage_answer(server: Server) -> None:
    status, body = server.call("GET", "/healthz")
    assert status == 200
    assert body["status"] == "ok"
    assert body["storage"] == "ok"
    assert type(body["tables"]) is int
    assert type(body["connections"]) is int


def test_json_logs_are_one_object_a_line_and_hold_no_secret(tmp_path: Path) -> None:
    server = Server(tmp_path, log_level="debug", options=("--log-format", "json"))
    server.start()
    try:
        table, tokens = server.four_humans(seed=3)
        host = server.create({}, me="N")["host_token"]
        client = Client(server, table, tokens["E"])
        client.act(client.turn()["view"]["legal_actions"][0])
        client.close()
    finally:
        server.stop()
    lines = server.log.read_text().splitlines()
    assert lines
    for line in lines:
        entry = json.loads(line)  # every line is one JSON object
        assert {"time", "level", "logger", "message"} <= set(entry), entry
    text = server.log.read_text()
    for secret in (*tokens.values(), host):
        assert secret not in text
    assert any(json.loads(line)["message"].startswith("stopped:") for line in lines)


def test_what_bot_workers_write_is_logged_in_the_servers_format(tmp_path: Path) -> None:
    """Issue 39 item 7: the bot workers wrote to the server's standard error themselves, raw
    lines and ``BrokenPipeError`` tracebacks past ``--log-format json``."""
    server = Server(
        tmp_path, options=("--log-format", "json"), bot_delay=0.05,
        env={"DEEPSIX_TEST_SLEEP": "1.5"},
    )  # fmt: skip
    server.start()
    seats = {"N": "chatty", "E": "random", "S": "random", "W": "random"}
    made = server.create(seats, me=None, seed=4)
    watcher = Client(server, made["table"]["id"], None)
    watcher.until(lambda frame: frame.get("op") == "update" and frame["view"]["to_act"] == "N")
    time.sleep(0.5)  # North thinks, as the server is killed: her answer has no one to go to
    server.kill()
    watcher.close()
    time.sleep(2.5)  # the worker wakes, writes, and finds its pipes broken
    server.start()  # North thinks again (and prints), now under a server that stops cleanly
    watcher = Client(server, made["table"]["id"], None)
    watcher.until(lambda frame: frame.get("op") == "update" and frame["view"]["to_act"] != "N")
    watcher.close()
    server.stop()
    entries = [json.loads(line) for line in server.log.read_text().splitlines()]  # each JSON
    printed = [e for e in entries if e["logger"] == "deepsix.web.bots"]
    assert any("chatty thinks about its move" in e["message"] for e in printed), entries
    assert any('a line with a } and a " in it' in e["message"] for e in printed)
    assert not any("Traceback" in e["message"] or "Error" in e["message"] for e in entries)


def test_a_stopped_server_makes_every_write_it_was_asked_for(tmp_path: Path) -> None:
    """SIGTERM in the middle of a game: the server stops cleanly, having stored
    every move any client was shown, and a restarted one goes on from there."""
    server = Server(tmp_path, log_level="info")
    server.start()
    table, tokens = server.four_humans(seed=5)
    clients = {seat: Client(server, table, token) for seat, token in tokens.items()}
    seen = 0
    for _ in range(12):
        to_act = clients["N"].last["view"]["to_act"]
        if to_act is None:
            break
        mover = clients[to_act]
        answer = mover.act(mover.turn()["view"]["legal_actions"][0])
        seen = max(seen, answer.get("seq", 0))
        for client in clients.values():
            client.drain(0.05)
    last = clients["N"].last
    mover = clients[last["view"]["to_act"]]
    mover.send({"op": "act", "action": last["view"]["legal_actions"][0], "seq": last["seq"]})
    assert server.process is not None
    server.process.send_signal(signal.SIGTERM)  # with that move in flight
    try:
        # a graceful stop, status 0 (issue 39 item 7: it was -15, killed by the signal
        # uvicorn raises again once it has shut down, before the file was let go)
        assert server.process.wait(60) == 0
    except subprocess.TimeoutExpired:  # pragma: no cover - the failure this test is about
        server.kill()
        raise
    for client in clients.values():
        client.close()
    assert "stopped:" in server.log.read_text()
    assert not Path(f"{server.db}-wal").exists()  # the file let go: its log folded in
    stored = server.count(table)
    assert stored >= max(seen, *(client.last["seq"] for client in clients.values()))
    server.start()  # the same file: every stored move replays
    try:
        again = Client(server, table, tokens["N"])
        assert again.last["seq"] == stored
        again.close()
    finally:
        server.stop()
