"""Issue 39 in a real browser: the table's words, notices and layout, at phone and desktop width.

Skipped, with the reason shown, only where no Chromium is installed
(``apt-get install chromium``; CI installs it when missing).
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Callable

import pytest

from tests.web.browser import CHROMIUM

if CHROMIUM is None:  # pragma: no cover - machines without a browser
    pytest.skip(
        "no Chromium on this machine (apt-get install chromium): browser tests skipped",
        allow_module_level=True,
    )

from playwright.sync_api import Browser

from tests.web.browser import PHONE, Player, no_errors, seat_url
from tests.web.harness import Server
from tests.web.test_browser_seats import create_from_lobby

BOTS = {"N": "heuristic", "E": "heuristic", "W": "heuristic"}
LAPTOP = {"width": 1280, "height": 720}
SIZES = {"phone": PHONE, "laptop": LAPTOP}
SHOTS = os.environ.get("DEEPSIX_SHOTS")
"""A directory to keep screenshots of what the tests look at, to see them (optional)."""


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
        elif player.my_turn(now):
            player.take_turn(rng)
        else:
            player.wait_seq(int(now["seq"]) + 1)
    raise AssertionError(f"not done after {limit} steps")


def panels(player: Player) -> None:
    """Show the side panels: on a phone they are a drawer, opened from the bar."""
    toggle = player.page.locator("#drawer-toggle")
    if toggle.is_visible():
        toggle.click()


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


# -- item 15: the words, the sheet, chat, the clock, the invite page ---------------------

MINUS = r"(^|[\s(:=])-\d"
"""A hyphen used as a minus sign (the page writes U+2212)."""


def log_lines(player: Player) -> list[str]:
    lines: list[str] = player.page.eval_on_selector_all(
        ".log li", "nodes => nodes.map(n => n.textContent)"
    )
    return lines


def test_words_sheet_and_log_after_a_hand(server: Server, browser: Browser) -> None:
    """One hand at 1280x720: no "You invites", "Contract You", "her", or hyphen minus; the
    score sheet's rows on one line; after a reload the log says what it said before."""
    made = server.create(BOTS, me="S", name="Ann", seed=8)
    player = Player(browser, server.base, seat_url(made), viewport=LAPTOP)
    page = player.page
    rng = random.Random(8)
    seen: set[str] = set()

    def look() -> bool:
        text = page.locator("#app").inner_text()
        for wrong in (
            "You invites",
            "Contract You",
            "High bid You",
            " her ",
            "You is",
            "You leads",
        ):
            assert wrong not in text, (wrong, text)
        hyphen = re.search(MINUS, text)
        assert not hyphen, text[max(0, hyphen.start() - 200) : hyphen.end() + 50]
        seen.update(log_lines(player))
        return int(player.data()["hands"]) >= 1 and not player.summary_open()

    play(player, rng, look)
    rows = page.eval_on_selector_all(
        ".sheet tbody tr",
        "rows => rows.map(r => ({h: r.getBoundingClientRect().height,"
        " wide: r.closest('table').scrollWidth > r.closest('.sheet').clientWidth}))",
    )
    assert rows, "no score sheet"
    line = page.eval_on_selector(".sheet td", "td => parseFloat(getComputedStyle(td).fontSize)")
    assert all(r["h"] < 2 * line + 4 and not r["wide"] for r in rows), (rows, line)
    seen.update(log_lines(player))
    page.reload()
    page.wait_for_selector(".log li")
    after = log_lines(player)
    assert any("Ann (you)" in line for line in after), after
    assert [line for line in after if line not in seen] == [], (after, seen)
    assert no_errors(player) == []
    player.close()


def test_a_spectator_sees_no_chat_box(server: Server, browser: Browser) -> None:
    made = server.create(BOTS, me="S", name="Ann")
    watcher = Player(browser, server.base, f"/table/{made['table']['id']}")
    page = watcher.page
    page.wait_for_selector(".game[data-seat='']")
    page.wait_for_selector(".chat")
    assert not page.locator("#chat-input").is_visible()
    assert not page.locator(".chat-form").is_visible()
    assert no_errors(watcher) == []
    watcher.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_invite_page_asks_the_name_first_and_the_host_hears_who_sat(
    server: Server, browser: Browser, size: str
) -> None:
    made = server.create({"N": "heuristic", "E": "heuristic"}, me="S", name="Ann")
    host = Player(browser, server.base, seat_url(made), viewport=SIZES[size])
    host.page.wait_for_selector("#invite-link")
    invite = host.page.locator("#invite-link").input_value()
    friend = Player(browser, server.base, invite.removeprefix(server.base), viewport=SIZES[size])
    page = friend.page
    page.wait_for_selector("button.sit[data-seat='W']")
    name = page.locator("#sit-name").bounding_box()
    sit = page.locator("button.sit[data-seat='W']").bounding_box()
    assert name is not None
    assert sit is not None
    assert name["y"] + name["height"] <= sit["y"] + 1, (name, sit)
    page.fill("#sit-name", "Bob")
    page.locator("button.sit[data-seat='W']").click()
    host.page.wait_for_function(
        "() => document.querySelector('#toast:not([hidden])')"
        " && document.querySelector('#toast').textContent.includes('Bob sat down')"
    )
    assert any("Bob sat down in the West seat." in line for line in log_lines(host))
    assert no_errors(host) == []
    assert no_errors(friend) == []
    host.close()
    friend.close()


def test_the_turn_clock_shows_in_a_dialog(server: Server, browser: Browser) -> None:
    made = server.create(BOTS, me="S", name="Ann", clock=60)
    player = Player(browser, server.base, seat_url(made))
    page = player.page
    page.wait_for_selector(".game[data-to-act='S']")
    page.locator(".rules-button").click()
    page.wait_for_selector("dialog[open] .dialog-clock")
    page.wait_for_function(
        "() => /\\d+ s left/.test(document.querySelector('dialog[open] .dialog-clock').textContent)"
    )
    assert page.locator("dialog[open] .dialog-clock").is_visible()
    assert no_errors(player) == []
    player.close()


# -- item 9: losing your seat ----------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_losing_your_seat_is_explained(server: Server, browser: Browser, size: str) -> None:
    """The host gives Bob's seat to a bot: Bob's page says so and what he can do, goes on
    showing the game as a spectator's, and chat stops calling him "(you)"."""
    host = create_from_lobby(browser, server, open_seats="W")  # Ann, the host, at South
    host.page.wait_for_selector("#invite-link")
    invite = host.page.locator("#invite-link").input_value()
    bob = Player(browser, server.base, invite.removeprefix(server.base), viewport=SIZES[size])
    page = bob.page
    page.wait_for_selector("button.sit[data-seat='W']")
    page.fill("#sit-name", "Bob")
    page.locator("button.sit[data-seat='W']").click()
    page.wait_for_selector(".game[data-seat='W'][data-phase='bidding']")
    panels(bob)
    # seated on a new socket: the old one (a spectator's) is closed when he sits
    page.wait_for_selector("#conn.up")
    assert page.locator("#conn").inner_text() == "online as West"
    page.fill("#chat-input", "hello")
    page.locator(".chat-form button[type='submit']").click()
    page.wait_for_function(
        "() => [...document.querySelectorAll('.chat-lines li')]"
        ".some(li => li.textContent.includes('Bob (you)'))"
    )
    host.page.wait_for_selector("button[data-key='to-bot-W']")
    host.page.locator("button[data-key='to-bot-W']").click()
    page.wait_for_selector("#seat-lost", timeout=30_000)
    lost = page.locator("#seat-lost")
    assert lost.is_visible()
    text = lost.inner_text()
    assert "gave your seat" in text, text
    assert "West" in text, text
    assert page.locator("#seat-lost a[href='/']").is_visible()
    page.wait_for_selector(".game[data-seat='']")
    page.wait_for_function(
        "() => ![...document.querySelectorAll('.chat-lines li')]"
        ".some(li => li.textContent.includes('(you)'))"
    )
    assert page.locator(".chat-lines li").count() >= 1
    # the page goes on showing the table, live, as a spectator's
    page.wait_for_selector("#conn.up")
    assert page.locator("#conn").inner_text() == "watching"
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/seat-lost-{size}.png")
    assert not page.locator(".game .hand").is_visible()
    assert no_errors(bob) == []
    host.close()
    bob.close()


# -- item 14: a table that waits says what for -------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_a_table_waiting_for_players_says_so(server: Server, browser: Browser, size: str) -> None:
    made = server.create({"N": "heuristic"}, me="S", name="Ann")
    player = Player(browser, server.base, seat_url(made), viewport=SIZES[size])
    page = player.page
    page.wait_for_selector("#invite-link")
    bar = page.locator(".scorebar").inner_text()
    caption = page.locator("#trick-caption").inner_text()
    for text in (bar, caption):
        assert "Dealing" not in text, text
        assert "dealt" not in text.replace("is dealt when", ""), text
    assert "Waiting for players" in bar, bar
    assert "2 of 4 seats taken" in bar, bar
    assert "Waiting for players" in caption, caption
    assert no_errors(player) == []
    player.close()


def test_the_bar_behind_a_summary_stays_on_its_hand(server: Server, browser: Browser) -> None:
    made = server.create(BOTS, me="S", name="Ann", seed=3)
    player = Player(browser, server.base, seat_url(made), viewport=LAPTOP)
    page = player.page
    rng = random.Random(3)

    def summary() -> bool:
        return player.summary_open()

    play(player, rng, summary)
    bar = page.locator(".scorebar").inner_text()
    assert "Hand 1" in bar, bar
    assert "Hand 2" not in bar, bar
    assert "Hand 2" not in page.locator("#trick-caption").inner_text()
    player.dismiss_summary()
    page.wait_for_function(
        "() => document.querySelector('.scorebar').textContent.includes('Hand 2')"
    )
    assert no_errors(player) == []
    player.close()


# -- item 8: the table fits the screen ---------------------------------------------------

PHASES = {
    "bidding": "bidding",
    "sunk-suit": "sunk-suit",
    "invitation": "invitation",
    "partner-pass": "passing",
    "bidder-pass": "passing",
    "bidder-meld": "melding",
    "melding": "melding",
    "play": "play",
}

IN_VIEW = """() => {
  const w = innerWidth, h = innerHeight;
  const out = [];
  const check = (what, node) => {
    const r = node.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) { out.push(`${what}: not shown`); return; }
    if (r.top < 0 || r.left < 0 || r.bottom > h + 0.5 || r.right > w + 0.5)
      out.push(`${what} at ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},`
        + `${Math.round(r.bottom)} outside ${w}x${h}`);
  };
  document.querySelectorAll('.hand-cards button.card').forEach((n, i) => check(`card ${i}`, n));
  check('the trick', document.querySelector('.trick'));
  check('the prompt title', document.querySelector('.prompt #prompt-title'));
  document.querySelectorAll('.prompt button[data-act]').forEach((n) => check(
    `button ${n.dataset.act} ${n.textContent}`, n));
  document.querySelectorAll('.trick .card').forEach((n, i) => check(`played card ${i}`, n));
  return {problems: out, scrolled: scrollY, tall: document.documentElement.scrollHeight - h};
}"""


@pytest.mark.parametrize("size", SIZES)
def test_the_table_fits_the_screen_in_every_phase(
    server: Server, browser: Browser, size: str
) -> None:
    """At 390x844 and 1280x720, every card of the hand, the trick, the prompt's title and
    its action buttons are inside the viewport on every turn of every phase, unscrolled."""
    made = server.create(BOTS, me="S", name="Ann", seed=11)
    player = Player(browser, server.base, seat_url(made), viewport=SIZES[size])
    page = player.page
    rng = random.Random(11)
    seen: dict[str, int] = {}
    for _ in range(600):
        if set(seen) >= set(PHASES.values()) and seen["play"] >= 20:
            break
        now = player.data()
        assert now["phase"] != "game-over"
        if player.summary_open():
            player.dismiss_summary()
        elif player.my_turn(now):  # phase and turn from one snapshot: the table moves on
            page.wait_for_selector(".prompt #prompt-title")
            found = page.evaluate(IN_VIEW)
            if player.data()["seq"] != now["seq"]:
                continue  # it changed under the reading: read it again
            phase = PHASES[now["phase"]]
            if SHOTS and phase not in seen:
                page.screenshot(path=f"{SHOTS}/fit-{size}-{now['phase']}.png")
            assert found["problems"] == [], (now["phase"], found)
            # not a pixel below the window (the side column once made it 721 px at 720)
            assert found["scrolled"] == 0, found
            assert found["tall"] == 0, found
            seen[phase] = seen.get(phase, 0) + 1
            player.take_turn(rng, passing=0.0 if now["phase"] == "bidding" else 0.75)
        else:
            player.wait_seq(int(now["seq"]) + 1)
    assert set(seen) >= set(PHASES.values()), seen
    # the side panels: a column beside the table, or a drawer on a phone
    if size == "phone":
        assert not page.locator(".sheet").is_visible()
        page.locator("#drawer-toggle").click()
        assert page.locator(".sheet").is_visible()
        assert page.locator(".log").is_visible()
        page.keyboard.press("Escape")
        assert not page.locator(".sheet").is_visible()
    else:
        assert page.locator(".sheet").is_visible()
    assert no_errors(player) == []
    player.close()


# -- item 13: the replay on a phone ------------------------------------------------------

SMALLEST_TEXT = """() => {
  const svg = document.querySelector('.replay-picture svg');
  const heights = [...svg.querySelectorAll('text')].map(t => t.getBoundingClientRect().height)
    .filter(h => h > 0);
  const picture = document.querySelector('.replay-picture');
  return {smallest: Math.min(...heights), page: document.documentElement.scrollWidth,
          pans: picture.scrollWidth > picture.clientWidth,
          svg: svg.getBoundingClientRect().width, box: picture.clientWidth};
}"""


@pytest.mark.parametrize("size", SIZES)
def test_the_replay_is_readable(server: Server, browser: Browser, size: str) -> None:
    """The replay's labels are at least 10 px tall at both widths; on a phone the picture
    pans inside its box (the page itself never scrolls sideways) and "Fit" shows it whole."""
    from tests.web.test_browser_after import finished_table

    table = finished_table(server)
    watcher = Player(browser, server.base, f"/replay/{table}", viewport=SIZES[size])
    page = watcher.page
    page.wait_for_selector(".replay-picture svg text")
    page.locator("button[data-key='next']").click()
    page.wait_for_selector(".replay-picture[data-step='1'] svg text")
    shown = page.evaluate(SMALLEST_TEXT)
    assert shown["smallest"] >= 10, shown
    assert shown["page"] <= SIZES[size]["width"], shown
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/replay-{size}.png")
    if size == "phone":
        assert shown["pans"], shown
        page.locator("#replay-fit").click()
        fitted = page.evaluate(SMALLEST_TEXT)
        assert fitted["svg"] <= fitted["box"] + 1, fitted
        assert page.locator("#replay-fit").get_attribute("aria-pressed") == "true"
    assert no_errors(watcher) == []
    watcher.close()


def test_a_rematch_log_names_the_players(server: Server, browser: Browser) -> None:
    """Ann resigns and asks for a rematch: the new table's log names her, never "North (you)"."""
    made = server.create(
        {"E": "heuristic", "S": "heuristic", "W": "heuristic"}, me="N", name="Ann", seed=4
    )
    player = Player(browser, server.base, seat_url(made), viewport=LAPTOP)
    page = player.page
    page.wait_for_selector(".game[data-phase='bidding']")
    page.locator("#resign").click()
    page.locator("dialog[open] button[data-key='confirm-yes']").click()
    page.wait_for_selector("#rematch")
    page.locator("#rematch").click()
    page.wait_for_url(lambda url: made["table"]["id"] not in url)
    page.wait_for_selector(".log li")
    lines = log_lines(player)
    assert player.data()["seat"] == "N"
    assert not [line for line in lines if "North" in line and "North–South" not in line], lines
    assert any("Ann (you)" in line for line in lines), lines
    assert no_errors(player) == []
    player.close()
