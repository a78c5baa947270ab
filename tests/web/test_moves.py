"""Every move names the position it was chosen in: stale moves are refused, never misapplied.

Guards issue 23's "a stale move lands in a later position": a click in a
tab that had not seen the latest update was applied to a later trick, and
a ``Pass`` sent in hand 1's auction, sent again in hand 2's, was applied
there without a word.  Also: a reconnecting client catches up from the
``seq`` it has.
"""

from __future__ import annotations

import json
import random
from typing import Any

from tests.web.harness import SEATS, Audit, Client, Server


def _choose(view: dict[str, Any], rng: random.Random) -> object:
    legal = view["legal_actions"]
    passes = [action for action in legal if action["type"] == "Pass"]
    if passes and rng.random() < 0.7:
        return passes[0]
    return rng.choice(legal)


def _table(server: Server, seed: int) -> tuple[str, dict[str, str]]:
    return server.four_humans(seed=seed)


def test_a_move_from_a_tab_that_has_not_seen_the_latest_update_is_refused(
    server: Server,
) -> None:
    table, tokens = _table(server, 21)
    audit = Audit()
    first = Client(server, table, tokens["E"], audit)  # two tabs of the same seat
    second = Client(server, table, tokens["E"], audit)
    seq = first.reach(1)["seq"]
    chosen = first.last["view"]["legal_actions"][1]  # a bid, in the auction's first position
    answer = first.act(chosen)
    assert answer["op"] == "update"
    assert answer["seq"] == seq + 1
    # The other tab still shows the earlier position: its click names that position ...
    second.send({"op": "act", "action": second.last["view"]["legal_actions"][0], "seq": seq})
    stale = second.until(lambda frame: frame["op"] == "error")
    assert stale["code"] == "stale"
    assert stale["seq"] == seq + 1
    # ... and is followed by the position the table is in now
    current = second.until(lambda frame: frame["op"] == "update" and frame["seq"] == seq + 1)
    assert current["view"]["to_act"] == "S"
    assert server.count(table) == seq + 1  # nothing was stored for it
    for client in (first, second):
        client.close()
    assert audit.check(server) > 0


def test_a_frame_re_sent_across_a_hand_boundary_is_refused(server: Server) -> None:
    table, tokens = _table(server, 4)
    audit = Audit()
    clients = {seat: Client(server, table, tokens[seat], audit) for seat in SEATS}
    rng = random.Random(4)
    kept: str | None = None  # East's first pass of hand 1, word for word
    while True:
        seq = max(client.last["seq"] for client in clients.values())
        frames = {seat: client.reach(seq) for seat, client in clients.items()}  # all caught up
        view = frames["N"]["view"]
        in_hand_two = len(view["completed_hands"]) == 1 and view["phase"] == "bidding"
        if in_hand_two and view["to_act"] == "E":
            break
        if view["to_act"] is None:  # the next deal, once everyone has seen the hand's end
            clients["N"].reach(seq + 1)
            continue
        client = clients[view["to_act"]]
        client.reach(seq)
        action = _choose(client.last["view"], rng)
        if kept is None and view["to_act"] == "E" and action == {"type": "Pass", "seat": "E"}:
            kept = json.dumps({"op": "act", "action": action, "seq": client.last["seq"]})
        answer = client.act(action)
        assert answer["op"] == "update", answer
    assert kept is not None  # East passed in hand 1's auction
    east = clients["E"]
    east.reach(seq)
    assert east.last["view"]["to_act"] == "E"  # East is to act in hand 2's auction ...
    assert {"type": "Pass", "seat": "E"} in east.last["view"]["legal_actions"]  # ... may pass
    stored = server.count(table)
    east.socket.send(kept)  # the same frame again
    refused = east.until(lambda frame: frame["op"] in ("update", "error"))
    assert refused["op"] == "error"
    assert refused["code"] == "stale"
    assert server.count(table) == stored  # not applied to hand 2
    assert server.states(table)[-1].to_act is not None
    for client in clients.values():
        client.close()
    assert audit.check(server) > 0


def test_a_reconnecting_client_catches_up_from_its_seq(server: Server) -> None:
    made = server.create({"N": "random", "E": "random", "W": "random"}, me="S", seed=12)
    table = made["table"]["id"]
    audit = Audit()
    south = Client(server, table, made["token"], audit)
    rng = random.Random(12)
    for _ in range(12):
        if south.turn()["view"]["phase"] == "game-over":
            break
        assert south.act(_choose(south.last["view"], rng))["op"] == "update"
    seen = south.last["seq"]
    south.close()
    # a reload: nothing kept, so from 0 -- the whole log, then the current position
    again = Client(server, table, made["token"], audit, since=0)
    history = next(frame for frame in again.frames if frame["op"] == "history")
    assert history["since"] == 0
    assert history["seq"] >= seen
    assert history["steps"][0]["seq"] == 1  # the first deal
    assert again.frames.index(history) < again.frames.index(again.last)  # before the update
    # a short drop: only what was missed
    partial = Client(server, table, None, audit, since=seen - 3)
    missed = next(frame for frame in partial.frames if frame["op"] == "history")
    assert all(step["seq"] > seen - 3 for step in missed["steps"])
    for client in (again, partial):
        client.close()
    assert audit.check(server) > 0  # the events are exactly the steps' (the audit replays them)
