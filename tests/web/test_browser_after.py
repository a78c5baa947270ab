"""Issue 23 in a real browser: after the game -- the final screen, the record, the replay.

A finished game's record downloads from the final screen, reads back with the
library and replays through the command line to the same game; the replay
page steps through it with every hand open or as one seat saw it.
"""

from __future__ import annotations

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

from deepsix import read_record, replay
from deepsix.cli import main as cli
from tests.web.browser import Player, no_errors
from tests.web.harness import Server
from tests.web.test_browser import serious_violations

FOUR_BOTS = {"N": "heuristic", "E": "random", "S": "heuristic", "W": "random"}


def finished_table(server: Server) -> str:
    """A table of four bots, played to the end by the server."""
    made = server.create(FOUR_BOTS, me=None, seed=12)
    table = str(made["table"]["id"])
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        status, info = server.call("GET", f"/api/tables/{table}")
        assert status == 200
        if info["phase"] == "game-over":
            return table
        time.sleep(0.2)  # polling the server's own state, not waiting on the page
    raise AssertionError("the bots did not finish the game")


def test_a_finished_game_downloads_and_replays(
    server: Server, browser: Browser, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = finished_table(server)
    final = server.states(table)[-1]
    watcher = Player(browser, server.base, f"/table/{table}")
    page = watcher.page
    page.wait_for_selector(".game[data-phase='game-over']")
    assert serious_violations(page) == []  # the final screen
    # the record, from the final screen
    with page.expect_download() as download:
        page.locator("#record-link").click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    record = read_record(saved.read_text("utf-8"))
    assert replay(record) == final
    capsys.readouterr()
    assert cli(["replay", str(saved)]) == 0  # the command line replays it to the same end
    shown = capsys.readouterr().out
    hands = len(final.completed_hands)
    ending = f"Game over after {hands} hand{'s' if hands > 1 else ''}: "
    ending += f"NS {final.scores[0]}, EW {final.scores[1]}."
    assert ending in shown  # the same game, to the same end
    # the replay page, from the final screen
    page.locator("#replay-link").click()
    page.wait_for_selector(".replay-picture svg")
    assert serious_violations(page) == []
    steps = len(final.history)
    page.locator("button[data-key='last']").click()
    page.wait_for_selector(f".replay-picture[data-step='{steps}'] svg")
    title = page.locator(".replay-picture svg title").first.text_content() or ""
    assert "game over" in title.lower() or "hand" in title.lower()
    page.locator("button[data-key='first']").click()
    page.locator("button[data-key='next-hand']").click()  # the first deal
    page.wait_for_selector(".replay-picture[data-step='1'] svg")
    open_cards = page.locator(".replay-picture svg desc").first.text_content() or ""
    page.locator("input[name='replay-seat'][value='E']").check()
    page.wait_for_selector(".replay-picture[data-seat='E'] svg")
    east_only = page.locator(".replay-picture svg desc").first.text_content() or ""
    assert open_cards != east_only  # every hand open, then as East saw it
    page.keyboard.press("ArrowRight")  # the keyboard steps too
    page.wait_for_selector(".replay-picture[data-step='2'][data-seat='E'] svg")
    narration = page.locator(".replay-narration").inner_text()
    assert narration
    assert "?step=2" in page.url
    assert no_errors(watcher) == []
    watcher.close()
    # a game still being played has no record and no replay: they would show every hand
    running = server.create({"N": "heuristic", "E": "heuristic", "W": "heuristic"}, me="S")
    status, body = server.call("GET", f"/api/tables/{running['table']['id']}/record")
    assert status == 409, body
    status, body = server.call("GET", f"/api/tables/{running['table']['id']}/replay/1.svg")
    assert status == 409, body
