"""Screenshots of the browser client at each phase, at desktop and phone widths.

Run from the repository root (needs the web extra, Playwright and a system
Chromium: ``apt-get install chromium``)::

    python docs/_scripts/web_screenshots.py [--out docs/_static/screenshots]

It starts a real server on a free port of 127.0.0.1 with a throwaway
database, seats you at South against three heuristic bots, and plays by
clicking the page like a person would: it bids so as to win an auction (so
that the bidder's phases are shown), shows an invitation, passes, melds,
plays, and goes on to the end of the game.  Each phase is photographed
once, when it is your turn in it, on a desktop page and a phone page open
on the same seat.
"""

from __future__ import annotations

import argparse
import json
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip
SIZES = {"desktop": {"width": 1280, "height": 860}, "phone": {"width": 390, "height": 844}}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def post(base: str, path: str, body: object) -> Any:
    request = urllib.request.Request(
        base + path, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def data(page: Page) -> dict[str, str]:
    page.wait_for_selector(".game")
    found: dict[str, str] = page.eval_on_selector(".game", "n => Object.assign({}, n.dataset)")
    return found


def wait_seq(page: Page, seq: int) -> None:
    page.wait_for_function(
        "s => { const g = document.querySelector('.game');"
        " return g && Number(g.dataset.seq) >= s; }",
        arg=seq,
    )


class Shooter:
    def __init__(self, pages: dict[str, Page], out: Path) -> None:
        self.pages = pages
        self.out = out
        self.taken: set[str] = set()

    def shoot(self, name: str) -> None:
        if name in self.taken:
            return
        seq = int(data(self.pages["desktop"])["seq"])
        for size, page in self.pages.items():
            wait_seq(page, seq)
            page.wait_for_timeout(150)
            page.screenshot(path=str(self.out / f"{name}-{size}.png"), full_page=True)
        self.taken.add(name)
        print("shot", name, flush=True)


def click(page: Page, selector: str) -> None:
    seq = int(data(page)["seq"])
    page.locator(selector).first.click()
    wait_seq(page, seq + 1)


def play(base: str, out: Path, seed: int) -> None:
    made = post(base, "/api/tables", {"seats": {"N": "heuristic", "E": "heuristic",
                                                "W": "heuristic"}, "me": "S", "name": "Ann",
                                      "seed": seed})  # fmt: skip
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), args=ARGS)
        pages = {}
        for size, viewport in SIZES.items():
            context = browser.new_context(viewport=viewport)  # type: ignore[arg-type]  # width, height
            pages[size] = context.new_page()
            pages[size].goto(base + "/")
            pages[size].wait_for_selector(".tables")
            pages[size].screenshot(path=str(out / f"lobby-{size}.png"), full_page=True)
            pages[size].goto(f"{base}{made['url']}#token={made['token']}")  # traded for a cookie
        shooter = Shooter(pages, out)
        page = pages["desktop"]
        shown = 0
        for _ in range(3000):
            now = data(page)
            if now["phase"] == "game-over":
                shooter.shoot("game-over")
                break
            if now["toAct"] != "S":
                wait_seq(page, int(now["seq"]) + 1)
                continue
            phase = now["phase"]
            hands = int(now["hands"])
            if phase == "bidding":
                shooter.shoot("bidding")
                amounts = page.eval_on_selector_all(
                    "select[aria-label='Any legal bid'] option", "ns => ns.map(n => n.textContent)"
                )
                target = [a for a in amounts if int(a) >= 10]
                if hands == 0 and target:
                    page.select_option("select[aria-label='Any legal bid']", label=target[-1])
                    click(page, "button[data-act='Bid']:not(.bid)")
                else:
                    click(page, "button[data-act='Pass']")
            elif phase == "invitation":
                legal = page.locator(".hand-cards [data-act='ShowCard']:enabled")
                if shown < 2 and legal.count():
                    click(page, ".hand-cards [data-act='ShowCard']:enabled")
                    shown += 1
                    continue
                shooter.shoot("invitation")
                click(page, "button[data-act='Done']")
            elif phase in ("partner-pass", "bidder-pass"):
                if int(now["seq"]) and phase not in shooter.taken:
                    shooter.shoot(phase)
                click(page, ".hand-cards [data-act]:enabled")
            elif phase in ("bidder-meld", "melding"):
                shooter.shoot(phase)
                melds = page.locator("button[data-act='DeclareMeld']:enabled")
                if melds.count():
                    click(page, "button[data-act='DeclareMeld']:enabled")
                else:
                    click(page, "button[data-act='Done']")
            elif phase == "play":
                trick = page.locator(".trick:not(.finished) .slot").count()
                if trick >= 2:
                    shooter.shoot("play" if hands == 0 else "score-sheet")
                click(page, ".hand-cards [data-act]:enabled")
            else:
                if phase == "sunk-suit":
                    shooter.shoot("sunk-suit")
                click(page, "[data-act]:enabled")
        browser.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Screenshots of the browser client")
    parser.add_argument("--out", default=str(ROOT / "docs" / "_static" / "screenshots"))
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as scratch:
        server = subprocess.Popen([
            sys.executable, "-m", "deepsix.web", "--db", str(Path(scratch) / "shots.sqlite3"),
            "--port", str(port), "--bot-delay", "0", "--hand-pause", "0", "--log-level", "warning",
            "--seeded-tables",
        ])  # fmt: skip
        try:
            for _ in range(300):
                try:
                    urllib.request.urlopen(base + "/api/bots", timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.1)
            play(base, out, args.seed)
        finally:
            server.terminate()
            server.wait(15)
    return 0


if __name__ == "__main__":
    sys.exit(main())
