"""Screenshots of the browser client, every screen, at desktop and phone widths.

Run from the repository root (needs the web extra, the test group -- Playwright --
and a system Chromium: ``apt-get install chromium``)::

    python docs/_scripts/web_screenshots.py [--out docs/_static/screenshots]

It starts a real server on a free port of 127.0.0.1 with a throwaway database
and plays a whole game at South against three heuristic bots, once per width,
clicking the page as a person would (the same driver as the browser tests).
It wins the first auction so that the bidder's screens are shown, picks
cards before confirming the invitation and the pass (the confirm-pass
screen), opens the last trick and the rules, and photographs each hand's
summary, the score sheet, the final screen and the replay page.  A second table, with an open
seat, gives the invite screen.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402  # after the path
from tests.web.browser import DESKTOP, PHONE, Player, launch, seat_url  # noqa: E402
from tests.web.harness import Server  # noqa: E402

SIZES = {"desktop": DESKTOP, "phone": PHONE}
BOTS = {"N": "heuristic", "E": "heuristic", "W": "heuristic"}


class Shooter:
    def __init__(self, player: Player, size: str, out: Path) -> None:
        self.player = player
        self.size = size
        self.out = out
        self.taken: set[str] = set()

    def shoot(self, name: str, *, again: bool = False) -> None:
        if name in self.taken and not again:
            return
        page = self.player.page
        page.evaluate("document.getAnimations().forEach(a => a.finish())")
        open_dialog = page.locator("dialog[open]").count() > 0
        page.screenshot(path=str(self.out / f"{name}-{self.size}.png"), full_page=not open_dialog)
        self.taken.add(name)
        print("shot", name, self.size, flush=True)


def panels(page: Page, show: bool) -> None:
    """Open (or close) the side panels' drawer, where the page has one (a phone's)."""
    if show and page.locator("#drawer-toggle").is_visible():
        page.locator("#drawer-toggle").click()
    elif not show and page.locator("#drawer-close").is_visible():
        page.locator("#drawer-close").click()


def lobby_and_invite(browser: Browser, server: Server, size: str, out: Path) -> None:
    made = server.create({"E": "heuristic", "W": "heuristic"}, me="S", name="Ann")
    host = Player(browser, server.base, seat_url(made), viewport=SIZES[size])
    host.page.wait_for_selector("#invite-link")
    Shooter(host, size, out).shoot("invite")
    lobby = Player(browser, server.base, "/", viewport=SIZES[size])
    lobby.page.wait_for_selector(".tables .table-row")
    Shooter(lobby, size, out).shoot("lobby")
    host.close()
    lobby.close()


def play(browser: Browser, server: Server, size: str, out: Path, seed: int) -> None:
    made = server.create(BOTS, me="S", name="Ann", seed=seed)
    player = Player(browser, server.base, seat_url(made), viewport=SIZES[size])
    shooter = Shooter(player, size, out)
    page = player.page
    rng = random.Random(seed)
    for _ in range(5000):
        now = player.data()
        if player.summary_open():
            number = page.locator("dialog.summary-dialog h2").first.inner_text()
            if "Hand 1" in number:
                shooter.shoot("hand-summary")
            player.dismiss_summary()
            continue
        if now["phase"] == "game-over":
            shooter.shoot("game-over")
            page.locator("#replay-link").click()
            page.wait_for_selector(".replay-picture svg")
            page.locator("button[data-key='next-hand']").click()
            for _ in range(3):
                page.locator("button[data-key='next-trick']").click()
            page.locator("button[data-key='prev']").click()
            page.wait_for_selector(".replay-picture[aria-busy='false'] svg")
            shooter.shoot("replay")
            break
        if now["toAct"] != now["seat"] or now["busy"] != "0":
            player.wait_seq(int(now["seq"]) + 1)
            continue
        phase = now["phase"]
        hands = int(now["hands"])
        seq = int(now["seq"])
        if phase == "bidding":
            shooter.shoot("bidding")
            if hands == 0 and page.locator("#any-bid").count():
                options = page.eval_on_selector_all(
                    "#any-bid option", "ns => ns.map(n => n.textContent)"
                )
                low = [o for o in options if int(o.replace("\u2212", "-")) >= 10][-1]
                page.select_option("#any-bid", label=low)
                page.locator(".prompt button.bid-any").click()
                player.wait_settled(seq)
                continue
            page.locator(".prompt button[data-act='Pass']").click()
            player.wait_settled(seq)
        elif phase == "sunk-suit":
            shooter.shoot("sunk-suit")
            page.locator(".prompt button[data-act='NameSunkSuit']").first.click()
            player.wait_settled(seq)
        elif phase == "invitation":
            picks = page.locator(".hand-cards button[data-act='Pick']:not(.picked)")
            for _ in range(min(2, picks.count())):
                picks.first.click()
            shooter.shoot("invitation")
            page.locator(".prompt button[data-act='Confirm']").click()
            player.wait_settled(seq)
        elif phase in ("partner-pass", "bidder-pass"):
            for _ in range(player._needed()):
                page.locator(".hand-cards button[data-act='Pick']:not(.picked)").first.click()
            shooter.shoot("confirm-pass" if phase == "partner-pass" else "bidder-pass")
            page.locator(".prompt button[data-act='Confirm']").click()
            player.wait_settled(seq)
        elif phase in ("bidder-meld", "melding"):
            toggles = page.locator(".prompt button[data-act='ToggleMeld']")
            if toggles.count():
                toggles.first.click()
            shooter.shoot(phase)
            page.locator(".prompt button[data-act='Confirm']").click()
            player.wait_settled(seq)
        elif phase == "play":
            if page.locator(".trick:not(.finished) .card.winning").count() and hands == 0:
                shooter.shoot("play")
            if (
                hands == 0
                and "last-trick" not in shooter.taken
                and page.locator(".last-trick-button:enabled").count()
            ):
                page.locator(".last-trick-button").click()
                shooter.shoot("last-trick")
                page.keyboard.press("Escape")
                panels(page, True)  # on a phone the tools are in the drawer
                page.locator(".rules-button").click()
                page.wait_for_selector(".rules-list")
                shooter.shoot("rules")
                page.keyboard.press("Escape")
                panels(page, False)
            if hands >= 2 and "score-sheet" not in shooter.taken:
                panels(page, True)
                page.locator(".sheet").scroll_into_view_if_needed()
                shooter.shoot("score-sheet")
                panels(page, False)
            player.take_turn(rng)
        else:
            player.take_turn(rng)
    player.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Screenshots of the browser client")
    parser.add_argument("--out", default=str(ROOT / "docs" / "_static" / "screenshots"))
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        server = Server(Path(scratch))
        server.start()
        try:
            with sync_playwright() as playwright:
                browser = launch(playwright)
                for size in SIZES:
                    lobby_and_invite(browser, server, size, out)
                    play(browser, server, size, out, args.seed)
                browser.close()
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
