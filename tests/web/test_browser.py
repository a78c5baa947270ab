"""The browser client in a real Chromium against a real server: whole hands by clicks.

Skipped, with the reason shown, only where no Chromium is installed
(``apt-get install chromium``; CI installs it when missing).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from tests.web.browser import CHROMIUM

if CHROMIUM is None:  # pragma: no cover - machines without a browser
    pytest.skip(
        "no Chromium on this machine (apt-get install chromium): browser tests skipped",
        allow_module_level=True,
    )

from playwright.sync_api import Browser, sync_playwright

from deepsix import PassCard, PlayCard, Seat, ShowCard, legal_actions
from tests.web.browser import Player, frames_to, launch, local_only, mostly_pass, no_errors
from tests.web.harness import SEATS, Audit, Server, seat_link

BOTS = {"N": "heuristic", "E": "heuristic", "W": "heuristic"}


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        running = launch(playwright)
        yield running
        running.close()


def _play_until(player: Player, rng: random.Random, done: object, limit: int = 400) -> int:
    """Click legal controls whenever it is the page's turn until ``done()``; returns the clicks."""
    clicks = 0
    for _ in range(limit):
        if done():  # type: ignore[operator]  # a zero-argument callable
            return clicks
        now = player.data()  # read once: the bots may move at any moment
        if player.seat is not None and now["toAct"] == SEATS[player.seat]:
            player.click_legal(rng, mostly_pass(rng))
            clicks += 1
        else:
            player.wait_seq(int(now["seq"]) + 1)
    raise AssertionError(f"not done after {limit} steps")


def _hands(player: Player) -> int:
    return int(player.data()["hands"])


def test_a_person_plays_a_whole_hand_by_clicks_against_three_bots(
    server: Server, browser: Browser
) -> None:
    made = server.create(BOTS, me="S", name="Ann", seed=21)
    audit = Audit()
    player = Player(browser, server.base, seat_link(made), audit)
    rng = random.Random(21)
    kinds: set[str] = set()

    def done() -> bool:
        if player.my_turn():
            # only the legal actions are enabled: as many card buttons as legal card actions
            state = server.states(player.table)[player.seq()]
            legal_cards = {action.card.ascii for action in legal_actions(state)
                           if isinstance(action, PlayCard | PassCard | ShowCard)}  # fmt: skip
            enabled = player.page.eval_on_selector_all(
                ".hand-cards [data-act]:enabled", "nodes => nodes.map(n => n.dataset.card)"
            )
            assert set(enabled) == legal_cards
            disabled = player.page.locator(".hand-cards button:disabled").count()
            assert len(enabled) + disabled == len(state.hand(Seat.SOUTH))
        return _hands(player) >= 1

    clicks = _play_until(player, rng, done)
    kinds.add(player.data()["phase"])
    assert clicks >= 14  # at least the fourteen cards of the hand
    state = server.states(player.table)[player.seq()]
    record = state.completed_hands[0]
    sheet = player.page.locator(".sheet tbody tr").first.inner_text()
    assert str(record.scores[0]) in sheet
    assert str(record.scores[1]) in sheet
    assert no_errors(player) == []
    assert local_only(player, server.base) == []  # every asset from this server
    player.close()
    checked = audit.check(server)
    assert checked > 60
    assert frames_to(audit) == {player.seat: len(audit.frames)}


def test_four_browsers_play_a_hand_against_each_other(server: Server, browser: Browser) -> None:
    table, tokens = server.four_humans(seed=8)
    audit = Audit()
    players = {
        seat: Player(
            browser, server.base, f"/table/{table}#seat={seat}&token={tokens[seat]}", audit
        )
        for seat in SEATS
    }
    spectator = Player(browser, server.base, f"/table/{table}", audit)
    rng = random.Random(8)
    clicks = 0
    while True:
        seq = server.count(table)
        for player in (*players.values(), spectator):
            player.wait_seq(seq)
        data = players["N"].data()
        if int(data["hands"]) >= 1:
            break
        if not data["toAct"]:  # the server deals
            players["N"].wait_seq(seq + 1)
            continue
        players[data["toAct"]].click_legal(rng, mostly_pass(rng))
        clicks += 1
        assert clicks < 400
    assert spectator.page.locator(".hand").count() == 0  # a spectator has no hand
    assert spectator.page.locator("[data-act]").count() == 0  # ... and no control
    for player in (*players.values(), spectator):
        assert no_errors(player) == []
        player.close()
    assert clicks >= 56  # every card of the hand was played by a click
    checked = audit.check(server)
    assert checked >= 5 * clicks


def test_a_reload_mid_hand_resumes(server: Server, browser: Browser) -> None:
    made = server.create(BOTS, me="S", seed=33)
    audit = Audit()
    player = Player(browser, server.base, seat_link(made), audit)
    rng = random.Random(33)
    _play_until(player, rng, lambda: player.data()["phase"] == "play" and player.my_turn())
    seq, hand = player.seq(), player.hand()
    player.page.reload()
    player.wait_seq(seq)
    assert player.seq() == seq
    assert player.hand() == hand
    assert player.page.locator(".hand-cards [data-act]:enabled").count() > 0  # still my turn
    _play_until(player, rng, lambda: _hands(player) >= 1)
    assert no_errors(player) == []
    player.close()
    assert audit.check(server) > 30


def test_a_server_restart_mid_hand_loses_nothing(fresh_server: Server, browser: Browser) -> None:
    server = fresh_server
    made = server.create(BOTS, me="S", seed=44)
    audit = Audit()
    player = Player(browser, server.base, seat_link(made), audit)
    rng = random.Random(44)
    _play_until(
        player,
        rng,
        lambda: player.data()["phase"] == "play" and player.my_turn() and rng.random() < 0.3,
    )
    seq, hand = player.seq(), player.hand()
    assert server.count(player.table) == seq  # every move the page has seen is stored
    before = server.states(player.table)[-1]
    server.kill()  # SIGKILL: no shutdown code runs
    player.page.wait_for_selector(".conn.pending")  # the page says it is reconnecting
    server.start()  # the same file, the same port
    player.page.wait_for_selector(".conn.up", timeout=20_000)
    player.wait_seq(seq)
    assert player.seq() == seq
    assert player.hand() == hand
    assert server.states(player.table)[-1] == before  # the restarted server has the same game
    _play_until(player, rng, lambda: _hands(player) >= 1)
    assert no_errors(player) == []
    player.close()
    assert audit.check(server) > 30  # frames from both server processes
