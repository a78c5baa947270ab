"""Issue 39 in a real browser: the table's words, notices and layout, at phone and desktop width.

Skipped, with the reason shown, only where no Chromium is installed
(``apt-get install chromium``; CI installs it when missing).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

from tests.web.browser import CHROMIUM

if CHROMIUM is None:  # pragma: no cover - machines without a browser
    pytest.skip(
        "no Chromium on this machine (apt-get install chromium): browser tests skipped",
        allow_module_level=True,
    )

from playwright.sync_api import Browser, sync_playwright

from tests.web.browser import PHONE, Player, launch, no_errors, seat_url
from tests.web.harness import Server

BOTS = {"N": "heuristic", "E": "heuristic", "W": "heuristic"}
LAPTOP = {"width": 1280, "height": 720}
SIZES = {"phone": PHONE, "laptop": LAPTOP}


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        running = launch(playwright)
        yield running
        running.close()


def play(player: Player, rng: random.Random, look: Callable[[], bool], limit: int = 2000) -> None:
    """Take the seat's turns by clicks, calling ``look()`` before each; stop when it says so."""
    for _ in range(limit):
        if look():
            return
        now = player.data()
        if now["phase"] == "game-over":
            return
        if player.summary_open():
            player.dismiss_summary()
        elif player.my_turn():
            player.take_turn(rng)
        else:
            player.wait_seq(int(now["seq"]) + 1)
    raise AssertionError(f"not done after {limit} steps")


def toast_text(player: Player) -> str:
    player.page.wait_for_selector("#toast:not([hidden])")
    return player.page.locator("#toast").inner_text()


# -- item 10: notices ------------------------------------------------------------------


def test_a_notice_is_its_sentence_alone(server: Server, browser: Browser) -> None:
    made = server.create({"N": "heuristic"}, me="S", name="Ann")
    player = Player(browser, server.base, seat_url(made))
    page = player.page
    page.wait_for_selector("#invite-link")
    page.locator("button[data-key='copy-invite']").click()  # "Invite link copied." or "Select..."
    text = toast_text(player)
    assert text.strip().endswith("."), text
    assert "null" not in text
    assert no_errors(player) == []
    player.close()


# -- item 11: a finished trick ---------------------------------------------------------


def test_a_finished_trick_says_took_it_not_winning(server: Server, browser: Browser) -> None:
    """Whenever the page shows a finished trick, its taker's card says "took it" (never
    "winning"), also when the taker was not the last to play."""
    made = server.create(BOTS, me="S", name="Ann", seed=5)
    player = Player(browser, server.base, seat_url(made))
    page = player.page
    rng = random.Random(5)
    seen = {"finished": 0, "not-last": 0}

    def look() -> bool:
        shown = page.evaluate(
            """() => {
              const trick = document.querySelector('.trick');
              if (!trick || !trick.classList.contains('finished')) return null;
              const slots = [...trick.querySelectorAll('.slot')]
                .filter(s => s.querySelector('.card'));
              const order = s => s.querySelector('.order').textContent;
              const mark = trick.querySelector('.winner-mark');
              const taker = mark && mark.closest('.slot');
              return {marks: [...trick.querySelectorAll('.winner-mark')].map(m => m.textContent),
                      last: taker ? order(taker) === '4' : null, plays: slots.length,
                      label: taker ? taker.querySelector('.card').getAttribute('aria-label') : ''};
            }"""
        )
        if shown and shown["plays"] == 4:
            seen["finished"] += 1
            assert shown["marks"] == ["took it"], shown
            assert "winning" not in shown["label"], shown
            if shown["last"] is False:
                seen["not-last"] += 1
        return seen["not-last"] >= 2

    play(player, rng, look)
    assert seen["not-last"] >= 2, seen
    assert no_errors(player) == []
    player.close()
