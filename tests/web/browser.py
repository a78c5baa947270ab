"""Driving the browser client with Playwright and Chromium: shared by the tests and the screenshots.

Playwright's own browser downloads are not needed: it launches the system's
Chromium (``apt-get install chromium``), found on the ``PATH``.

A :class:`Player` acts through the page the way a person does: it clicks
the controls the page shows (bids, the sunk suit, cards), picks cards and
melds and then confirms them, and dismisses the end-of-hand summary.  Every
wait is on a condition of the page (its ``data-seq`` and ``data-busy``),
never a fixed sleep.
"""

from __future__ import annotations

import json
import random
import shutil
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Browser, ConsoleMessage, Page, Playwright, WebSocket

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

LAYOUT_SHIFTS = """
window.__shifts = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (!entry.hadRecentInput) window.__shifts.push({ value: entry.value, time: entry.startTime });
  }
}).observe({ type: "layout-shift", buffered: true });
"""
"""Collects the page's layout-shift entries (the Layout Instability API) from its first paint."""

TIMEOUT = 30_000
"""Milliseconds a wait on the page may take (generous: the machine is shared and loaded)."""


def seat_url(made: dict[str, Any]) -> str:
    """The link that seats its opener at a table the API made: ``/table/ID#seat=S&token=...``.

    The page trades the key for the table's cookie (or keeps it) and scrubs it from the
    address at once.
    """
    return f"/table/{made['table']['id']}#seat={made['seat']}&token={made['token']}"


def launch(playwright: Playwright) -> Browser:
    """Chromium, headless, from the system's package."""
    assert CHROMIUM is not None
    return playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)


def cumulative_layout_shift(shifts: list[dict[str, float]]) -> float:
    """CLS as browsers report it: the largest session window of shifts (gaps < 1 s, <= 5 s)."""
    best = current = 0.0
    start = last = -1e9
    for shift in sorted(shifts, key=lambda s: s["time"]):
        if shift["time"] - last > 1000 or shift["time"] - start > 5000:
            current, start = 0.0, shift["time"]
        current += shift["value"]
        last = shift["time"]
        best = max(best, current)
    return best


class Player:
    """One browser page at a table: it records its seat's frames and the page's errors."""

    def __init__(
        self, browser: Browser, base: str, url: str, audit: Audit | None = None,
        viewport: dict[str, int] | None = None, **context: Any,
    ) -> None:  # fmt: skip
        self.context = browser.new_context(viewport=viewport or DESKTOP, **context)  # type: ignore[arg-type]  # width and height
        self.page: Page = self.context.new_page()
        self.base = base
        self.audit = audit
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.urls: list[str] = []
        self.table = url.split("/table/")[1].split("#", maxsplit=1)[0] if "/table/" in url else ""
        self.seat: Seat | None = None
        if "#seat=" in url:
            self.seat = Seat(SEATS.index(url.split("#seat=")[1][0]))
        self.page.add_init_script(LAYOUT_SHIFTS)
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", self._console)
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.page.on("framenavigated", lambda frame: self.urls.append(frame.url))
        self.page.on("websocket", self._socket)
        self.page.goto(base + url)

    def _console(self, message: ConsoleMessage) -> None:
        # The page asks the server which protocol it speaks: a server from before protocol 2
        # answers 404, which the browser logs; that one is expected.
        expected = message.location.get("url", "").endswith("/api/schema/protocol")
        if message.type == "error" and not expected:
            self.errors.append(message.text)

    def _socket(self, socket: WebSocket) -> None:
        self.requests.append(socket.url)
        if self.audit is not None:
            audit = self.audit

            def record(payload: str | bytes) -> None:
                frame = json.loads(payload)
                if frame.get("op") == "welcome" and frame.get("seat"):
                    self.seat = Seat(SEATS.index(frame["seat"]))
                audit.add(self.table, self.seat, frame)

            socket.on("framereceived", record)

    # -- reading the page --------------------------------------------------------------

    def data(self) -> dict[str, str]:
        """The table's ``data-*`` attributes: seq, phase, toAct, hands, seat, busy."""
        self.page.wait_for_selector(".game", timeout=TIMEOUT)
        found: dict[str, str] = self.page.eval_on_selector(
            ".game", "node => Object.assign({}, node.dataset)"
        )
        return found

    def seq(self) -> int:
        return int(self.data()["seq"])

    def wait_seq(self, seq: int, timeout: float = TIMEOUT) -> None:
        """Wait until the page shows version ``seq`` of the game or later."""
        self.page.wait_for_function(
            "s => { const g = document.querySelector('.game');"
            " return g && Number(g.dataset.seq) >= s; }",
            arg=seq,
            timeout=timeout,
        )

    def wait_settled(self, after: int) -> None:
        """Wait until the page has moved past version ``after`` and sends nothing more."""
        self.page.wait_for_function(
            "s => { const g = document.querySelector('.game');"
            " return g && Number(g.dataset.seq) > s && g.dataset.busy === '0'"
            "   || document.querySelector('#toast:not([hidden])') && g.dataset.busy === '0'; }",
            arg=after,
            timeout=TIMEOUT,
        )

    def hand(self) -> list[str]:
        cards: list[str] = self.page.eval_on_selector_all(
            ".hand-cards [data-card]", "nodes => nodes.map(n => n.dataset.card)"
        )
        return cards

    def my_turn(self, now: dict[str, str] | None = None) -> bool:
        """Whether it is this seat's turn, read now or in the snapshot ``now``."""
        now = self.data() if now is None else now
        return bool(now.get("seat")) and now["toAct"] == now["seat"] and now["busy"] == "0"

    def my_turn_in(self, phase: str) -> bool:
        """Whether it is this seat's turn in ``phase`` (both read from one snapshot)."""
        now = self.data()
        return now["phase"] == phase and self.my_turn(now)

    def summary_open(self) -> bool:
        return self.page.locator("dialog.summary-dialog[open]").count() > 0

    def layout_shift(self) -> float:
        """The page's cumulative layout shift so far (largest session window)."""
        shifts: list[dict[str, float]] = self.page.evaluate("window.__shifts")
        return cumulative_layout_shift(shifts)

    # -- acting ------------------------------------------------------------------------

    def dismiss_summary(self) -> None:
        if self.summary_open():
            self.page.locator("#summary-dismiss").click()
            self.page.wait_for_selector("dialog.summary-dialog", state="detached", timeout=TIMEOUT)

    def take_turn(self, rng: random.Random, passing: float = 0.75) -> str:
        """Take this seat's turn through the page; returns the phase it was taken in.

        Auction: pass with probability ``passing``, else one of the bid buttons.  Invitation:
        pick up to two showable cards, then confirm.  Passes: pick the cards, confirm.  Meld:
        toggle each meld on with probability 1/2, confirm (a refused combination is retried
        with no meld).  Play: click a legal card.
        """
        page = self.page
        self.dismiss_summary()
        before = self.data()
        phase = before["phase"]
        seq = int(before["seq"])
        if phase == "bidding":
            bids = page.locator(".prompt button[data-act='Bid']:enabled")
            if page.locator(".prompt button[data-act='Pass']").count() and (
                rng.random() < passing or not bids.count()
            ):
                page.locator(".prompt button[data-act='Pass']").click()
            else:
                bids.nth(rng.randrange(bids.count())).click()
        elif phase == "sunk-suit":
            suits = page.locator(".prompt button[data-act='NameSunkSuit']")
            suits.nth(rng.randrange(suits.count())).click()
        elif phase in ("invitation", "partner-pass", "bidder-pass"):
            showable = page.locator(".hand-cards button[data-act='Pick']").count()
            want = min(showable, rng.randrange(3)) if phase == "invitation" else self._needed()
            for _ in range(want):
                cards = page.locator(".hand-cards button[data-act='Pick']:not(.picked)")
                cards.nth(rng.randrange(cards.count())).click()
            page.locator(".prompt button[data-act='Confirm']").click()
        elif phase in ("bidder-meld", "melding"):
            for toggle in page.locator(".prompt button[data-act='ToggleMeld']").all():
                if rng.random() < 0.5:
                    toggle.click()
            page.locator(".prompt button[data-act='Confirm']").click()
        elif phase == "play":
            cards = page.locator(".hand-cards button[data-act='PlayCard']:enabled")
            cards.nth(rng.randrange(cards.count())).click()
        else:
            raise AssertionError(f"no turn to take in phase {phase}")
        self.wait_settled(seq)
        return phase

    def _needed(self) -> int:
        text = self.page.locator(".prompt #prompt-title").inner_text()  # "Pass 3 cards to ..."
        return int(text.split()[1])

    def play_until(self, done: Callable[[], bool], rng: random.Random, limit: int = 3000) -> int:
        """Take this seat's turns until ``done()``; returns how many turns were taken."""
        turns = 0
        for _ in range(limit):
            if done():
                return turns
            now = self.data()
            if now["phase"] == "game-over":
                raise AssertionError("the game ended first")
            if self.summary_open():
                if done():  # the summary opened since the first look: it may be what we wait for
                    return turns
                self.dismiss_summary()
            elif now.get("seat") and now["toAct"] == now["seat"] and now["busy"] == "0":
                self.take_turn(rng)
                turns += 1
            else:
                self.wait_seq(int(now["seq"]) + 1)
        raise AssertionError(f"not done after {limit} steps")

    def close(self) -> None:
        self.context.close()


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
