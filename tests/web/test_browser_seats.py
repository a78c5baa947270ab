"""Issue 23 in a real browser: seats and invitations as people use them.

The address bar never holds a seat's key (the page keeps it in the browser's
storage), a reload still finds the seat, and the table's invite link seats a
friend in a second browser.
"""

from __future__ import annotations

import pytest

from tests.web.browser import CHROMIUM

if CHROMIUM is None:  # pragma: no cover - machines without a browser
    pytest.skip(
        "no Chromium on this machine (apt-get install chromium): browser tests skipped",
        allow_module_level=True,
    )

from playwright.sync_api import Browser

from tests.web.browser import Player, no_errors, seat_url
from tests.web.harness import Server
from tests.web.test_browser import serious_violations


def stored_key(player: Player, table: str) -> str:
    """The seat's key as this browser keeps it.

    Protocol 2: in an HttpOnly cookie scoped to the table's API path, which the page's
    scripts cannot read; protocol 1: in the page's localStorage.
    """
    cookies = [c for c in player.context.cookies() if c["path"].startswith(f"/api/tables/{table}")]
    if cookies:
        seat = [c for c in cookies if "seat" in c["name"]]
        assert seat, cookies
        assert all(c["httpOnly"] and c["sameSite"] in ("Strict", "Lax") for c in cookies)
        assert seat[0]["value"] not in player.page.evaluate("document.cookie")
        return seat[0]["value"]
    token: str = player.page.evaluate(
        "t => JSON.parse(localStorage.getItem('deepsix:seats'))[t].token", table
    )
    return token


def create_from_lobby(browser: Browser, server: Server, open_seats: str = "N") -> Player:
    """Ann opens the lobby, leaves ``open_seats`` to people (bots elsewhere) and creates a table."""
    host = Player(browser, server.base, "/")
    page = host.page
    page.wait_for_selector("#create")
    assert serious_violations(page) == []  # the lobby
    page.fill("#my-name", "Ann")
    for seat in open_seats:
        page.select_option(f"#seat-{seat}", "open")
    page.locator("#create").click()
    page.wait_for_url(f"{server.base}/table/*")
    host.table = page.url.rsplit("/", 1)[1]
    host.page.wait_for_selector(".game")
    return host


def test_the_address_bar_never_holds_a_seat_key(server: Server, browser: Browser) -> None:
    host = create_from_lobby(browser, server)
    page = host.page
    key = stored_key(host, host.table)
    assert len(key) >= 24
    assert host.data()["seat"] == "S"
    page.reload()
    page.wait_for_selector(".game[data-seat='S']")  # the seat is found again after a reload
    for where in (*host.urls, page.url, page.evaluate("location.href"), *host.requests):
        assert key not in where
    assert "#" not in page.url
    # A link that carries a key (the API's "url") is scrubbed before anything else runs.
    made = server.create({"N": "heuristic", "E": "heuristic", "W": "heuristic"}, me="S")
    linked = Player(browser, server.base, seat_url(made))
    linked.page.wait_for_selector(".game[data-seat='S']")
    assert made["token"] not in linked.page.url
    assert linked.page.evaluate("location.hash") == ""
    assert stored_key(linked, linked.table) == made["token"]
    linked.page.go_back()  # the keyed address was replaced, not kept in the history
    assert made["token"] not in linked.page.url
    # the invite link the page offers is the table's address (with an invite code under
    # protocol 2), never a seat's key
    invite = page.locator("#invite-link").input_value()
    assert invite.split("#")[0] == f"{server.base}/table/{host.table}"
    assert key not in invite
    assert "token" not in invite
    assert no_errors(host) == []
    assert no_errors(linked) == []
    host.close()
    linked.close()


def test_an_invite_link_seats_a_second_browser(server: Server, browser: Browser) -> None:
    host = create_from_lobby(browser, server, open_seats="N")
    invite = host.page.locator("#invite-link").input_value()
    assert serious_violations(host.page) == []  # the invite screen
    friend = Player(browser, server.base, invite.removeprefix(server.base))
    page = friend.page
    page.wait_for_selector("button.sit[data-seat='N']")
    assert friend.data()["seat"] == ""  # watching until she sits
    assert serious_violations(page) == []
    page.fill("#sit-name", "Bob")
    page.locator("button.sit[data-seat='N']").click()
    page.wait_for_selector(".game[data-seat='N']")
    # every seat is now taken: the game starts, and both browsers see Bob at North
    for player in (host, friend):
        player.page.wait_for_function(
            "() => document.querySelector('.game').dataset.phase === 'bidding'"
        )
    assert host.page.locator(".seat[data-seat='N'] .name").inner_text() == "Bob"
    assert stored_key(friend, host.table) != stored_key(host, host.table)
    assert friend.page.locator(".hand-cards button.card").count() == 14
    assert no_errors(host) == []
    assert no_errors(friend) == []
    host.close()
    friend.close()
