"""The golden pictures render in a real browser (Chromium): at their size, named for a
screen reader by their title, with no error, and not blank."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator

import pytest

from tests.svg.golden import GOLDEN
from tests.svg.look import CHROMIUM, chromium_page, show

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium on the PATH (apt-get install chromium)"
)

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def page() -> Iterator[object]:
    with chromium_page() as opened:
        yield opened


def test_every_golden_picture_renders(page: object) -> None:
    from playwright.sync_api import Page

    assert isinstance(page, Page)
    errors: list[str] = []
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    page.on("pageerror", lambda error: errors.append(str(error)))
    for path in sorted(GOLDEN.glob("*.svg")):
        text = path.read_text(encoding="utf-8")
        root = ET.fromstring(text)
        title = root.find(f"{SVG}title")
        assert title is not None
        assert title.text is not None
        show(page, text)
        picture = page.get_by_role("img", name=title.text, exact=True)
        assert picture.count() == 1, f"{path.name}: no image named by its title"
        box = picture.bounding_box()
        assert box is not None
        assert abs(box["width"] - float(root.get("width", "0"))) < 1, path.name
        assert abs(box["height"] - float(root.get("height", "0"))) < 1, path.name
        drawn = len(picture.screenshot())
        # The same box with the background alone: a blank picture compresses to far less.
        show(page, _blank(root))
        blank = len(page.get_by_role("img").screenshot())
        assert drawn > 3 * blank, f"{path.name} rendered nearly blank ({drawn} vs {blank} bytes)"
    assert errors == []


def _blank(root: ET.Element) -> str:
    """An SVG of ``root``'s size holding only its background."""
    background = root.find(f"{SVG}rect")
    assert background is not None
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" viewBox="{root.get("viewBox")}" '
        f'width="{root.get("width")}" height="{root.get("height")}"><title>blank</title>'
        f'<rect width="100%" height="100%" fill="{background.get("fill")}"/></svg>'
    )
