"""Issue 23 in a real browser: the life of a table around the game (protocol 2).

A move from a tab that has not seen the latest update is refused and the
tab shows the table as it is; a player who closes her tab is replaced by
the table's stand-in bot once her grace period is over, and takes her seat
back when she returns; a resigned game ends on the final screen and a
rematch starts a new table with the same seats.

These need the server's protocol 2 (``deepsix.web.protocol``): on a server
that does not speak it they are skipped, with that reason.
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.browser import CHROMIUM

if CHROMIUM is None:  # pragma: no cover - machines without a browser
    pytest.skip(
        "no Chromium on this machine (apt-get install chromium): browser tests skipped",
        allow_module_level=True,
    )

from playwright.sync_api import Browser, BrowserContext, Page, WebSocketRoute

from tests.web.browser import Player, no_errors, seat_url
from tests.web.harness import Server

GRACE = "3"
"""Seconds a player may be away before the stand-in takes her seat, in these tests."""


@pytest.fixture(scope="module")
def life_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    options = ("--absent-grace", GRACE, "--public-clock", "0", "--summary-limit", "5")
    running = Server(tmp_path_factory.mktemp("life"), options=options)
    try:
        running.start()
    except RuntimeError as error:  # an older server refuses the options
        pytest.skip(f"the server does not speak protocol 2 yet: {str(error)[-200:]}")
    status, _ = running.call("GET", "/api/schema/protocol")
    if status != 200:
        running.stop()
        pytest.skip("the server does not speak protocol 2 yet (no /api/schema/protocol)")
    yield running
    running.stop()


def table_info(server: Server, table: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server.base}/api/tables/{table}", timeout=10) as response:
        found: dict[str, Any] = json.loads(response.read())
    return found


def until(condition: Any, what: str, timeout: float = 60) -> None:
    """Wait for the server's state to meet ``condition`` (polled, with a deadline)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


def pump_until(page: Page, condition: Any, what: str, timeout: float = 30) -> None:
    """Wait for ``condition`` while Playwright goes on delivering the page's socket messages."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        page.wait_for_timeout(50)  # lets Playwright's event loop run the routes' handlers


def sit_down(browser: Browser, server: Server) -> Player:
    """Ann makes a table from the lobby (three bots) and sits South."""
    player = Player(browser, server.base, "/")
    page = player.page
    page.wait_for_selector("#create")
    page.fill("#my-name", "Ann")
    page.locator("#create").click()
    page.wait_for_url(f"{server.base}/table/*")
    player.table = page.url.rsplit("/", 1)[1]
    page.wait_for_selector(".game[data-seat='S']")
    return player


def open_tab(context: BrowserContext, server: Server, table: str) -> Page:
    page = context.new_page()
    page.goto(f"{server.base}/table/{table}")
    page.wait_for_selector(".game[data-seat='S']")
    return page


def test_a_move_from_a_stale_tab_is_refused(life_server: Server, browser: Browser) -> None:
    server = life_server
    ann = sit_down(browser, server)
    ann.play_until(lambda: ann.my_turn_in("bidding"), rng=_rng())
    # A second tab of the same seat whose updates are held back: it falls behind.
    held: list[str | bytes] = []
    route: list[WebSocketRoute] = []
    forward = [True]

    def hold(socket: WebSocketRoute) -> None:
        route.append(socket)
        upstream = socket.connect_to_server()
        socket.on_message(upstream.send)  # the page's messages go through as they are
        upstream.on_message(lambda m: socket.send(m) if forward[0] else held.append(m))

    stale = ann.context.new_page()
    stale.route_web_socket("**/socket", hold)
    stale.goto(f"{server.base}/table/{ann.table}")
    stale.wait_for_selector(".game[data-seat='S'] .prompt button[data-act='Pass']")
    seq = ann.seq()
    forward[0] = False
    ann.page.locator(".prompt button[data-act='Pass']").click()  # the live tab moves
    ann.wait_seq(seq + 1)
    # The stale tab still shows the old position; its move names that position: refused.
    assert stale.evaluate("() => Number(document.querySelector('.game').dataset.seq)") == seq
    stale.locator(".prompt button[data-act='Bid']").first.click()
    pump_until(
        stale,
        lambda: any(b"stale" in (m if isinstance(m, bytes) else m.encode()) for m in held),
        "the server's stale refusal",
    )
    while held:  # now let the tab catch up: the frames it missed, the refusal, the update
        route[0].send(held.pop(0))
    forward[0] = True
    stale.wait_for_selector("#toast.info:not([hidden])")
    assert "moved on" in stale.locator("#toast").inner_text()
    now = table_info(server, ann.table)["seq"]
    stale.wait_for_function(
        "s => Number(document.querySelector('.game').dataset.seq) >= s", arg=now
    )
    # nothing of the stale tab's was applied: the live tab's pass is South's last call
    if ann.data()["phase"] == "bidding":
        assert ann.page.locator(".seat[data-seat='S'] .call").inner_text() == "passed"
    assert no_errors(ann) == []
    ann.close()


def _rng() -> Any:
    import random

    return random.Random(23)


def test_an_absent_player_is_replaced_and_takes_her_seat_back(
    life_server: Server, browser: Browser
) -> None:
    server = life_server
    ann = sit_down(browser, server)
    context = ann.context
    ann.play_until(lambda: ann.data()["phase"] == "bidding", rng=_rng())
    ann.page.close()  # she closes her tab
    until(lambda: table_info(server, ann.table)["seats"][2]["standin"] is not None,
          "the stand-in to take South")  # fmt: skip
    seq = table_info(server, ann.table)["seq"]
    until(lambda: table_info(server, ann.table)["seq"] > seq + 4, "the stand-in to play on")
    back = open_tab(context, server, ann.table)  # she comes back
    # She takes her seat back: by the page's button if the server asks her to.
    back.wait_for_function(
        "() => document.querySelector('#return') || !window.deepsixTable.standingIn()"
    )
    if back.locator("#return").count():
        assert "playing your seat" in back.locator(".prompt h2").inner_text()
        back.locator("#return").click()
    until(lambda: table_info(server, ann.table)["seats"][2]["standin"] is None,
          "South to be hers again")  # fmt: skip
    back.wait_for_function(
        "() => { const g = document.querySelector('.game');"
        " return g.dataset.toAct === 'S' || g.dataset.phase === 'game-over'; }",
        timeout=60_000,
    )
    assert back.locator("#return").count() == 0
    context.close()


def test_a_resigned_game_ends_and_a_rematch_starts(
    life_server: Server, browser: Browser, tmp_path: Path
) -> None:
    server = life_server
    ann = sit_down(browser, server)
    page = ann.page
    page.locator("#resign").click()
    page.locator("dialog button[data-key='confirm-yes']").click()
    page.wait_for_selector("#rematch")
    assert "resigned" in page.locator(".prompt").inner_text()
    first = ann.table
    page.locator("#rematch").click()
    page.wait_for_url(lambda url: "/table/" in url and first not in url)
    page.wait_for_selector(".game[data-seat='S']")
    new = page.url.rsplit("/", 1)[1]
    assert table_info(server, first)["next"] == new
    seats = table_info(server, new)["seats"]
    assert [s["kind"] for s in seats] == ["bot", "bot", "human", "bot"]
    assert seats[2]["name"] == "Ann"
    assert no_errors(ann) == []
    ann.close()


def test_the_turn_clock_and_presence_are_shown(life_server: Server, browser: Browser) -> None:
    server = life_server
    made = server.create({"N": "heuristic", "E": "heuristic", "W": "heuristic"}, me="S", clock=60)
    ann = Player(browser, server.base, seat_url(made))
    ann.play_until(ann.my_turn, rng=_rng())
    page = ann.page
    clock = page.locator(".prompt .turn-clock")
    page.wait_for_function(
        "() => /^[0-9]+ s left$/.test(document.querySelector('.prompt .turn-clock').textContent)"
    )
    first = int(clock.inner_text().split()[0])
    assert 0 < first <= 60
    page.wait_for_function(  # counted down in place, without a redraw
        "n => parseInt(document.querySelector('.prompt .turn-clock').textContent) < n", arg=first
    )
    assert page.locator(".seat[data-seat='S'] .clock").inner_text().endswith("s left")
    assert page.locator(".seat[data-seat='S'] .dot.online").count() == 1
    assert page.locator(".seat[data-seat='N'] .dot.online").count() == 1  # a bot is always there
    assert no_errors(ann) == []
    ann.close()
