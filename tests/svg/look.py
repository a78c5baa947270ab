"""Render the golden pictures in Chromium and save a PNG of each, to look at them.

    python -m tests.svg.look [OUTDIR]      # default: tests/svg/_look/

Each SVG is put inline in an HTML page, as a notebook or a web page shows it.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from tests.svg.golden import GOLDEN

CHROMIUM = next(
    (found for name in ("chromium", "chromium-browser") if (found := shutil.which(name))), None
)
"""The system's Chromium, or ``None``."""


@contextmanager
def chromium_page() -> Iterator[Page]:
    """A headless Chromium page (the system's Chromium; Playwright downloads nothing)."""
    assert CHROMIUM is not None, "no chromium on the PATH (apt-get install chromium)"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            yield browser.new_page(viewport={"width": 1040, "height": 800})
        finally:
            browser.close()


def show(page: Page, svg: str) -> None:
    """Put ``svg`` inline in a blank page."""
    page.set_content(f'<!doctype html><html><body style="margin:8px">{svg}</body></html>')


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path(__file__).resolve().parent / "_look"
    out.mkdir(parents=True, exist_ok=True)
    with chromium_page() as page:
        for path in sorted(GOLDEN.glob("*.svg")):
            show(page, path.read_text(encoding="utf-8"))
            target = out / path.with_suffix(".png").name
            page.locator("svg").first.screenshot(path=str(target))
            print(target)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
