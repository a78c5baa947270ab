"""Issue 26 in a real browser: the costly moments of each hand, at the end-of-hand summary and
on the replay page, computed by the server away from its event loop."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from tests.web.browser import CHROMIUM

if CHROMIUM is None:  # pragma: no cover - machines without a browser
    pytest.skip(
        "no Chromium on this machine (apt-get install chromium): browser tests skipped",
        allow_module_level=True,
    )

from playwright.sync_api import Browser

from deepsix import PassCard
from tests.web.browser import Player, no_errors, seat_url
from tests.web.harness import Server
from tests.web.test_browser import serious_violations

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "_static" / "screens"
ANALYSIS_WAIT = 240_000
"""Milliseconds an analysis may take to appear (it runs at low priority on a loaded machine)."""


def test_the_summary_shows_the_hands_costly_moments_without_the_passes(
    server: Server, browser: Browser, tmp_path: Path
) -> None:
    made = server.create({"N": "heuristic", "E": "heuristic", "W": "heuristic"}, me="S", seed=7)
    player = Player(browser, server.base, seat_url(made))
    player.play_until(player.summary_open, random.Random(3))
    dialog = player.page.locator("dialog.summary-dialog[open]")
    section = dialog.locator(".summary-analysis[data-hand='1']")
    assert section.count() == 1
    ready = "dialog.summary-dialog .summary-analysis[data-hand='1'][data-state='ready']"
    deadline = time.monotonic() + ANALYSIS_WAIT / 1000
    while not player.page.locator(ready).count():
        # the test server closes the summary after 30 s: open it again from the score sheet
        assert time.monotonic() < deadline, "no analysis"
        if not player.summary_open():
            player.page.locator("button[data-key='summary-1']").click()
        player.page.wait_for_timeout(500)
    text = section.inner_text()
    assert "decisions analysed" in text
    assert "pass decisions are shown after the game" in text  # the game is still running
    history = server.states(made["table"]["id"])[-1].history
    for step in section.locator("li.moment").evaluate_all("ns => ns.map(n => n.dataset.step)"):
        assert not isinstance(history[int(step) - 1], PassCard)  # passes stay hidden
    assert serious_violations(player.page) == []
    player.page.screenshot(path=str(tmp_path / "summary.png"))
    assert no_errors(player) == []
    player.close()


def test_the_replay_page_lists_each_hands_costly_moments_with_links(
    server: Server, browser: Browser
) -> None:
    made = server.create(dict.fromkeys("NESW", "heuristic"), me=None, seed=12)
    table = str(made["table"]["id"])
    deadline = time.monotonic() + 180
    while server.call("GET", f"/api/tables/{table}")[1]["phase"] != "game-over":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.3)  # polling the server's own state, not the page
    final = server.states(table)[-1]
    watcher = Player(browser, server.base, f"/replay/{table}")
    page = watcher.page
    page.wait_for_selector(
        ".replay-analysis .summary-analysis[data-hand='1'][data-state='ready']",
        timeout=ANALYSIS_WAIT,
    )
    hands = page.locator(".replay-hand-analysis")
    assert hands.count() == len(final.completed_hands)
    moments = page.locator(".summary-analysis[data-hand='1'] li.moment")
    assert moments.count() > 0  # this game's first hand has costly moments (seed 12)
    step = int(moments.first.get_attribute("data-step") or "0")
    moments.first.locator("button.link").click()
    page.wait_for_selector(f".replay-picture[data-step='{step - 1}'] svg")
    assert f"?step={step - 1}" in page.url
    assert serious_violations(page) == []
    assert no_errors(watcher) == []
    watcher.close()


def test_a_table_made_with_hints_shows_the_quick_bots_choice_on_your_turn(
    server: Server, browser: Browser, tmp_path: Path
) -> None:
    bots = {"N": "heuristic", "E": "heuristic", "W": "heuristic"}
    made = server.create(bots, me="S", seed=5, hint=True)
    player = Player(browser, server.base, seat_url(made))
    page = player.page
    page.wait_for_function(
        "() => { const g = document.querySelector('.game');"
        " return g && g.dataset.toAct === 'S' && g.dataset.busy === '0'; }",
        timeout=60_000,
    )
    page.locator("#ask-hint").click()
    page.wait_for_selector("#hint-text:has-text('Hint: the search-quick bot would')")
    text = page.locator("#hint-text").inner_text()
    status, answer = server.call(
        "GET", f"/api/tables/{made['table']['id']}/hint", token=made["token"]
    )
    assert status == 200
    assert answer["action"]["type"] in ("Bid", "Pass")  # South's first turn is a call
    assert ("pass" in text) == (answer["action"]["type"] == "Pass")
    assert serious_violations(page) == []
    page.screenshot(path=str(tmp_path / "hint.png"))
    player.take_turn(random.Random(1))  # the turn goes on as usual; the hint is gone
    assert page.locator("#hint-text").count() == 0 or player.data()["toAct"] == "S"
    # a table made without hints has no hint button
    plain = server.create(bots, me="S", seed=5)
    other = Player(browser, server.base, seat_url(plain))
    other.page.wait_for_function(
        "() => { const g = document.querySelector('.game');"
        " return g && g.dataset.toAct === 'S' && g.dataset.busy === '0'; }",
        timeout=60_000,
    )
    assert other.page.locator("#ask-hint").count() == 0
    assert no_errors(player) == []
    player.close()
    other.close()
