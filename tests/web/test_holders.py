"""Issue 39 item 12: the record, the replay and the lobby keep the people who played.

Ann, Bob, Cat and Dan play hands 1 and 2; then the host gives Bob's and Cat's
seats to the heuristic bot, the server is killed and started again, and
during hand 3 Dan's seat goes to the bot too.  The finished table's record,
its replay data and the lobby's listing still name Bob, Cat and Dan for the
hands they held -- and still do after another restart, when the table is
read back from storage.  The seat history's rules themselves
(:mod:`deepsix.web.holders`) are tested first, on their own.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from deepsix import shuffled_deal
from deepsix.actions import Deal, Pass
from deepsix.cards import Seat
from deepsix.io.record import read_record
from deepsix.io.seats import seat_holders
from deepsix.web.holders import advanced, hand_holders, played
from deepsix.web.slots import SeatSlot
from deepsix.web.store import HolderRow
from tests.web.harness import Client, Server

PEOPLE = {"N": "Ann", "E": "Bob", "S": "Cat", "W": "Dan"}


# -- the rules of the seat history -------------------------------------------------------


def _seats(*names: str) -> list[SeatSlot]:
    """Seats from names: a bot's as ``bot:NAME``, an open seat as ``""``."""
    slots = []
    for name in names:
        if not name:
            slots.append(SeatSlot("open"))
        elif name.startswith("bot:"):
            slots.append(SeatSlot("bot", bot=name[4:], name="East"))
        else:
            slots.append(SeatSlot("human", name=name))
    return slots


def test_the_history_starts_with_the_first_seats_and_adds_each_change() -> None:
    start = advanced((), _seats("Ann", "Bob", "Cat", "Dan"), 0)
    assert start == tuple(HolderRow(i, 0, "human", n) for i, n in enumerate(PEOPLE.values()))
    assert advanced(start, _seats("Ann", "Bob", "Cat", "Dan"), 40) == start  # no change
    later = advanced(start, _seats("Ann", "bot:heuristic", "Cat", "Dan"), 40)
    assert later == (*start[:2], HolderRow(1, 40, "bot", "heuristic"), *start[2:])
    # a second change at the same seq replaces the first (nobody played in between) ...
    again = advanced(later, _seats("Ann", "bot:random", "Cat", "Dan"), 40)
    assert HolderRow(1, 40, "bot", "random") in again
    assert HolderRow(1, 40, "bot", "heuristic") not in again
    # ... and a change back to the holder before leaves no trace
    assert advanced(later, _seats("Ann", "Bob", "Cat", "Dan"), 40) == start


def test_a_seat_left_before_the_game_began_holds_nothing() -> None:
    joined = advanced((), _seats("Ann", "Bob", "", ""), 0)
    left = advanced(joined, _seats("Ann", "", "", ""), 0)
    assert left == (HolderRow(0, 0, "human", "Ann"),)
    assert advanced(left, _seats("Ann", "Zed", "", ""), 0)[1] == HolderRow(1, 0, "human", "Zed")


def _game(hands: int) -> list[Deal | Pass]:
    """A game's actions for the history's arithmetic: each hand a deal and three moves."""
    deal = shuffled_deal(1)  # (the cards do not matter to who held a seat)
    return [deal, Pass(Seat.EAST), Pass(Seat.SOUTH), Pass(Seat.WEST)] * hands


def test_a_change_between_hands_belongs_to_the_next_and_one_during_a_hand_to_both() -> None:
    history = (
        HolderRow(0, 0, "human", "Ann"),
        HolderRow(1, 0, "human", "Bob"),
        HolderRow(1, 8, "bot", "heuristic"),  # after hand 2's last action, before deal 3
        HolderRow(3, 0, "human", "Dan"),
        HolderRow(3, 10, "bot", "random"),  # after two actions of hand 3
    )
    hands = hand_holders(history, _game(3))
    assert [[[e.name for e in seat] for seat in hand] for hand in hands] == [
        [["Ann"], ["Bob"], [], ["Dan"]],
        [["Ann"], ["Bob"], [], ["Dan"]],
        [["Ann"], ["heuristic"], [], ["Dan", "random"]],
    ]
    assert [e.name for e in played(history, 1, 12, finished=True)] == ["Bob", "heuristic"]
    # a holder who took the seat as the game ended held nothing, and is not listed
    ended = (*history, HolderRow(0, 12, "bot", "random"))
    assert [e.name for e in played(ended, 0, 12, finished=True)] == ["Ann"]
    assert [e.name for e in played(ended, 0, 12, finished=False)] == ["Ann", "random"]
    assert [[e.name for e in hand[0]] for hand in hand_holders(ended, _game(3))] == [["Ann"]] * 3
    assert hand_holders(history, []) == ()  # not one deal: no hand to hold


# -- at a real server --------------------------------------------------------------------


def _hand_of(frame: dict[str, Any]) -> int:
    return len(frame["view"]["completed_hands"])


def _play(
    clients: dict[str, Client], stop: Callable[[dict[str, Any], str | None], bool]
) -> dict[str, Any]:
    """The people at ``clients`` play their first legal move each turn, and dismiss each
    hand's summary, until ``stop(latest update, the seat that just moved)``."""
    moved: str | None = None
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        front = max(clients.values(), key=lambda client: client.last["seq"])
        latest = front.last
        if stop(latest, moved):
            return latest
        moved = None
        view = latest["view"]
        assert view["phase"] != "game-over", "the game ended before the test was done"
        seat = view["to_act"]
        if seat in clients:
            player = clients[seat]
            player.reach(latest["seq"])
            answer = player.act(player.last["view"]["legal_actions"][0])
            assert answer["op"] == "update", answer
            moved = seat
            continue
        if view["phase"] == "deal" and view["completed_hands"]:
            for client in clients.values():  # the next deal waits for everyone's "ready"
                client.reach(latest["seq"])
                client.ready()
        seq = latest["seq"]
        front.until(lambda f, seq=seq: f["op"] == "update" and f["seq"] > seq, 30)
    raise AssertionError("the game did not get there in 120 s")


def _connect(server: Server, table: str, tokens: dict[str, str]) -> dict[str, Client]:
    clients = {seat: Client(server, table, token) for seat, token in tokens.items()}
    for client in clients.values():
        client.auto_ready = False  # each hand's summary is dismissed when the test says
    return clients


def _give_to_bot(server: Server, table: str, seat: str, host: str) -> None:
    status, body = server.call(
        "POST", f"/api/tables/{table}/seats/{seat}/bot", {"bot": "heuristic"}, host
    )
    assert status == 200, body


HUMAN = "human"
EXPECTED_TAGS = [
    ("North", "Ann"),
    ("East", "Bob"),
    ("EastHand3", "heuristic"),
    ("South", "Cat"),
    ("SouthHand3", "heuristic"),
    ("West", "Dan"),
    ("WestDuringHand3", "heuristic"),
]


def _person(name: str) -> dict[str, str]:
    return {"kind": HUMAN, "name": name}


BOT = {"kind": "bot", "name": "heuristic"}
EXPECTED_HOLDERS = [
    [[_person(name)] for name in PEOPLE.values()],
    [[_person(name)] for name in PEOPLE.values()],
    [[_person("Ann")], [BOT], [BOT], [_person("Dan"), BOT]],
]


def _check_the_archive(server: Server, table: str) -> None:
    """The record, the replay data and the lobby name who held each seat for each hand."""
    status, text, _ = server.request("GET", f"/api/tables/{table}/record")
    assert status == 200, text
    record = read_record(text)
    seat_tags = [(name, value) for name, value in record.tags if name.startswith(
        ("North", "East", "South", "West"))]  # fmt: skip
    assert seat_tags == EXPECTED_TAGS
    assert not [name for name, _ in record.tags if name.endswith("Player")]
    assert [[list(seat) for seat in hand] for hand in seat_holders(record)] == [
        [[_["name"] for _ in seat] for seat in hand] for hand in EXPECTED_HOLDERS
    ]
    status, page = server.call("GET", f"/api/tables/{table}/replay?count=1")
    assert status == 200, page
    assert page["holders"] == EXPECTED_HOLDERS
    assert [seat["name"] for seat in page["table"]["seats"]] == ["Ann", "East", "South", "West"]
    status, listed = server.call("GET", "/api/tables?status=finished")
    assert status == 200, listed
    [info] = [info for info in listed["tables"] if info["id"] == table]
    assert [seat["played"] for seat in info["seats"]] == [
        [_person("Ann")],
        [_person("Bob"), BOT],
        [_person("Cat"), BOT],
        [_person("Dan"), BOT],
    ]


def people_then_bots(server: Server, restart: Callable[[], None] = lambda: None) -> str:
    """Ann, Bob, Cat and Dan play hands 1 and 2; Bob's and Cat's seats go to the heuristic
    bot; ``restart`` (between hands 2 and 3); Dan's seat goes to the bot during hand 3, which
    it holds for a move; Ann resigns.  The table's id."""
    made = server.create({}, me="N", name="Ann", seed=5)
    table, host = made["table"]["id"], made["host_token"]
    tokens = {"N": made["token"]}
    for seat in "ESW":
        tokens[seat] = server.join(table, seat, PEOPLE[seat])
    clients = _connect(server, table, tokens)
    last = _play(clients, lambda frame, _: _hand_of(frame) == 2)
    assert last["view"]["phase"] == "deal"  # hand 2 is scored; hand 3 is not dealt yet
    for seat in "ES":  # Bob and Cat are replaced between hands 2 and 3
        _give_to_bot(server, table, seat, host)
    status, info = server.call("GET", f"/api/tables/{table}")
    assert status == 200, info
    assert [seat["played"] for seat in info["seats"]][1] == [_person("Bob"), BOT]
    for client in clients.values():
        client.close()
    restart()
    clients = _connect(server, table, {"N": tokens["N"], "W": tokens["W"]})

    def dan_played_in_hand_3(frame: dict[str, Any], moved: str | None) -> bool:
        return moved == "W" and frame["view"]["hand_number"] == 3

    _play(clients, dan_played_in_hand_3)
    _give_to_bot(server, table, "W", host)  # during hand 3
    clients.pop("W").close()
    given = server.call("GET", f"/api/tables/{table}")[1]["seq"]
    _play(clients, lambda frame, _: frame["seq"] > given)  # the bot holds West for a move
    clients["N"].send({"op": "resign"})
    clients["N"].until(lambda f: f["op"] == "update" and f["table"]["status"] == "finished")
    clients["N"].close()
    return str(table)


def test_the_people_who_played_are_kept_when_their_seats_go_to_bots(
    fresh_server: Server,
) -> None:
    server = fresh_server

    def kill_and_start() -> None:  # the seat history is stored, not only kept in memory
        server.kill()
        server.start()

    table = people_then_bots(server, kill_and_start)
    _check_the_archive(server, table)
    server.stop()  # the finished table is read back from storage now
    server.start()
    _check_the_archive(server, table)
