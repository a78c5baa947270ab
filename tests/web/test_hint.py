"""The per-table hint: off by default, for a seated player on her turn, the quick bot's legal
choice from her own view, and it changes nothing in the game."""

from __future__ import annotations

import time

from deepsix import Seat, legal_actions
from deepsix.io.notation import parse_action
from tests.web.harness import Server


def wait_for_turn(server: Server, table: str, seat: Seat, timeout: float = 60) -> int:
    """Wait until ``seat`` is to act; the table's seq then."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        states = server.states(table)
        if states[-1].to_act is seat:
            return len(states) - 1
        time.sleep(0.2)  # polling the stored game, not a page
    raise AssertionError(f"{seat} never got a turn")


def test_a_hint_is_the_quick_bots_legal_choice_on_your_turn(server: Server) -> None:
    bots = {"N": "heuristic", "E": "heuristic", "W": "heuristic"}
    made = server.create(bots, me="S", seed=5, hint=True)
    table, token = made["table"]["id"], made["token"]
    assert made["table"]["hint"] is True
    seq = wait_for_turn(server, table, Seat.SOUTH)
    status, answer = server.call("GET", f"/api/tables/{table}/hint", token=token)
    assert status == 200, answer
    assert answer["seq"] == seq
    assert answer["bot"] == "search-quick"
    action = parse_action(answer["text"])
    state = server.states(table)[-1]
    assert action in legal_actions(state)
    assert answer["action"]["type"] == type(action).__name__
    # asking again gives the same hint (its own seeded stream), and the game did not move
    again = server.call("GET", f"/api/tables/{table}/hint", token=token)[1]
    assert again == answer
    assert len(server.states(table)) - 1 == seq
    # a spectator gets no hint
    status, body = server.call("GET", f"/api/tables/{table}/hint")
    assert status == 403
    assert body["error"]["code"] == "forbidden"


def test_hints_are_off_unless_the_table_was_made_with_them(server: Server) -> None:
    bots = {"N": "heuristic", "E": "heuristic", "W": "heuristic"}
    made = server.create(bots, me="S", seed=5)
    table = made["table"]["id"]
    assert made["table"]["hint"] is False
    wait_for_turn(server, table, Seat.SOUTH)
    status, body = server.call("GET", f"/api/tables/{table}/hint", token=made["token"])
    assert status == 403
    assert body["error"]["code"] == "no-hints"


def test_no_hint_out_of_turn_or_without_a_seat(server: Server) -> None:
    """East bids first (North deals) and thinks for 20 s: South asks meanwhile."""
    made = server.create({"N": "heuristic", "E": "sleepy", "W": "heuristic"}, me="S", hint=True)
    table = made["table"]["id"]
    wait_for_turn(server, table, Seat.EAST)
    status, body = server.call("GET", f"/api/tables/{table}/hint", token=made["token"])
    assert status == 409
    assert body["error"]["code"] == "not-your-turn"
    status, body = server.call("GET", f"/api/tables/{table}/hint", token="not-a-seat")
    assert status == 403
