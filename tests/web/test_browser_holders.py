"""Issue 39 item 12 in a real browser: the replay page and the lobby name the people who
played, hand by hand, after their seats went to bots (see ``test_holders.py``)."""

from __future__ import annotations

import pytest

from tests.web.browser import CHROMIUM

if CHROMIUM is None:  # pragma: no cover - machines without a browser
    pytest.skip(
        "no Chromium on this machine (apt-get install chromium): browser tests skipped",
        allow_module_level=True,
    )

from playwright.sync_api import Browser

from tests.web.browser import Player, no_errors
from tests.web.harness import Server
from tests.web.test_holders import people_then_bots


def test_the_replay_page_and_the_lobby_name_who_held_each_seat(
    server: Server, browser: Browser
) -> None:
    table = people_then_bots(server)
    status, data = server.call("GET", f"/api/tables/{table}/replay")
    assert status == 200, data
    steps = data["steps"]
    bob_bids = next(s["seq"] for s in steps if s["hand"] == 1 and s["action"].startswith("E:"))
    dan_bids = next(s["seq"] for s in steps if s["hand"] == 3 and s["action"].startswith("W:"))
    watcher = Player(browser, server.base, f"/replay/{table}?step={bob_bids}")
    page = watcher.page
    page.wait_for_selector(".replay-players li[data-seat='E']")
    shown = {
        seat: page.locator(f".replay-players li[data-seat='{seat}']").inner_text()
        for seat in "NESW"
    }
    assert shown == {
        "N": "North: Ann",
        "E": "East: Bob (hands 1–2), the heuristic bot (hand 3)",
        "S": "South: Cat (hands 1–2), the heuristic bot (hand 3)",
        "W": "West: Dan (hands 1–3), the heuristic bot (hand 3)",
    }
    page.wait_for_selector(f".replay-picture[data-step='{bob_bids}'] svg")
    assert page.locator(".replay-narration li").first.inner_text().startswith("Bob ")
    # West's first move in hand 3: Dan's, whose seat went to the bot later in that hand
    page.goto(f"{server.base}/replay/{table}?step={dan_bids}")
    page.wait_for_selector(f".replay-picture[data-step='{dan_bids}'] svg")
    assert page.locator(".replay-narration li").first.inner_text().startswith("Dan / West ")
    assert no_errors(watcher) == []
    watcher.close()
    lobby = Player(browser, server.base, "/")
    row = lobby.page.locator(f".table-row[data-table='{table}']")
    row.wait_for()
    tags = row.locator(".seat-tag").all_inner_texts()
    assert tags == [
        "N: Ann",
        "E: Bob, then the heuristic bot",
        "S: Cat, then the heuristic bot",
        "W: Dan, then the heuristic bot",
    ]
    assert no_errors(lobby) == []
    lobby.close()
