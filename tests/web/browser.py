"""Driving the browser client with Playwright and Chromium: shared by the tests and the screenshots.

Playwright's own browser downloads are not needed: it launches the system's
Chromium (``apt-get install chromium``), found on the ``PATH``.
"""

from __future__ import annotations

import json
import random
import shutil
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Browser, Page, Playwright, WebSocket

from deepsix import Seat
from tests.web.harness import SEATS, Audit

CHROMIUM = next(
    (found for name in ("chromium", "chromium-browser") if (found := shutil.which(name))), None
)
"""The system's Chromium, or ``None``."""

LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}


def launch(playwright: Playwright) -> Browser:
    """Chromium, headless, from the system's package."""
    assert CHROMIUM is not None
    return playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)


class Player:
    """One browser page at a table: it records its seat's frames and the page's errors."""

    def __init__(
        self, browser: Browser, base: str, url: str, audit: Audit | None = None,
        viewport: dict[str, int] | None = None,
    ) -> None:  # fmt: skip
        self.context = browser.new_context(viewport=viewport or DESKTOP)  # type: ignore[arg-type]  # width and height
        self.page: Page = self.context.new_page()
        self.base = base
        self.audit = audit
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.table = url.split("/table/")[1].split("#", maxsplit=1)[0] if "/table/" in url else ""
        self.seat: Seat | None = None
        if "#seat=" in url:
            self.seat = Seat(SEATS.index(url.split("#seat=")[1][0]))
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on(
            "console",
            lambda message: self.errors.append(message.text) if message.type == "error" else None,
        )
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.page.on("websocket", self._socket)
        self.page.goto(base + url)

    def _socket(self, socket: WebSocket) -> None:
        self.requests.append(socket.url)
        if self.audit is not None:
            audit = self.audit

            def record(payload: str | bytes) -> None:
                audit.add(self.table, self.seat, json.loads(payload))

            socket.on("framereceived", record)

    # -- reading the page --------------------------------------------------------------

    def data(self) -> dict[str, str]:
        """The table's ``data-*`` attributes: seq, phase, toAct, hands."""
        self.page.wait_for_selector(".game")
        found: dict[str, str] = self.page.eval_on_selector(
            ".game", "node => Object.assign({}, node.dataset)"
        )
        return found

    def seq(self) -> int:
        return int(self.data()["seq"])

    def wait_seq(self, seq: int, timeout: float = 15_000) -> None:
        """Wait until the page shows version ``seq`` of the game or later."""
        self.page.wait_for_function(
            "s => { const g = document.querySelector('.game');"
            " return g && Number(g.dataset.seq) >= s; }",
            arg=seq,
            timeout=timeout,
        )

    def hand(self) -> list[str]:
        cards: list[str] = self.page.eval_on_selector_all(
            ".hand-cards [data-card]", "nodes => nodes.map(n => n.dataset.card)"
        )
        return cards

    def my_turn(self) -> bool:
        return self.seat is not None and self.data()["toAct"] == SEATS[self.seat]

    # -- acting ------------------------------------------------------------------------

    def click_legal(
        self, rng: random.Random, prefer: Callable[[list[str]], int] | None = None
    ) -> str:
        """Click one of the enabled controls (each is a legal action); returns its kind."""
        controls = self.page.locator("[data-act]:enabled")
        self.page.wait_for_selector("[data-act]:enabled")
        kinds: list[str] = controls.evaluate_all("nodes => nodes.map(n => n.dataset.act)")
        index = prefer(kinds) if prefer is not None else rng.randrange(len(kinds))
        before = self.seq()
        controls.nth(index).click()
        self.wait_seq(before + 1)
        return kinds[index]

    def close(self) -> None:
        self.context.close()


def mostly_pass(rng: random.Random) -> Callable[[list[str]], int]:
    """A click policy: in the auction pass most of the time; otherwise any legal control."""

    def choose(kinds: list[str]) -> int:
        if "Pass" in kinds and rng.random() < 0.75:
            return kinds.index("Pass")
        return rng.randrange(len(kinds))

    return choose


def no_errors(player: Player) -> list[str]:
    """The page's errors, less the browser's own report of a refused connection (server down)."""
    return [
        error for error in player.errors
        if "ERR_CONNECTION_REFUSED" not in error and "WebSocket connection" not in error
    ]  # fmt: skip


def local_only(player: Player, base: str) -> list[str]:
    """Requests the page made anywhere but this server."""
    port = base.rsplit(":", 1)[1]
    allowed = (base, f"ws://127.0.0.1:{port}")
    return [url for url in player.requests if not url.startswith(allowed)]


def frames_to(audit: Audit) -> dict[Any, int]:
    """How many frames each seat received."""
    counts: dict[Any, int] = {}
    for _, seat, _ in audit.frames:
        counts[seat] = counts.get(seat, 0) + 1
    return counts
