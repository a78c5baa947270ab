"""Check a built HTML site: every internal link leads somewhere, no reST shows as raw text.

``python tools/check_site.py docs/_build/html`` (``nox -s docs`` runs it after the build).
Each internal link's file and ``#anchor`` must exist; external links (``http:``, ``https:``,
``mailto:``) are not fetched, since the machines that build the docs may be offline.  Text
outside code blocks must not show reST markup (````literal````, ``:func:`name```), which is
what a generated table or a docstring rendered as plain text looks like.  Exits 1 listing
every problem.
"""

from __future__ import annotations

import argparse
import html
import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit


class _Page(HTMLParser):
    """The ids a page defines and the links it makes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for name in ("id", "name"):
            value = values.get(name)
            if value and (name == "id" or tag == "a"):
                self.ids.add(value)
        for name in ("href", "src"):
            value = values.get(name)
            if value is not None and not (tag == "link" and values.get("rel") == "preconnect"):
                self.links.append(value)


def broken_links(site: Path) -> list[str]:
    """Every internal link of the site at ``site`` that leads nowhere, as ``page: link``."""
    pages: dict[Path, _Page] = {}
    for path in sorted(site.rglob("*.html")):
        page = _Page()
        page.feed(path.read_text(encoding="utf-8", errors="replace"))
        pages[path.resolve()] = page
    broken = []
    for path, page in pages.items():
        for link in page.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith(("javascript:", "data:")):
                continue
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                broken.append(f"{path.relative_to(site.resolve())}: {link} (no such file)")
                continue
            anchor = unquote(parts.fragment)
            if anchor and target in pages and anchor not in pages[target].ids:
                broken.append(f"{path.relative_to(site.resolve())}: {link} (no such anchor)")
    return broken


RAW_MARKUP = re.compile(r":(?:py:)?(?:mod|func|class|meth|attr|exc|data|obj|ref|doc):`|``[^`\n]+``")
"""reST markup that should never reach a reader: a role or a double-backquoted literal."""
_CODE = re.compile(r"<(pre|script|style|code)\b.*?</\1>", re.DOTALL)
_TAG = re.compile(r"<[^>]+>")


def raw_markup(site: Path) -> list[str]:
    """Every page whose text (outside code) shows reST markup, as ``page: ...context...``."""
    found = []
    for path in sorted(site.rglob("*.html")):
        if "_modules" in path.parts:  # source listings are code
            continue
        text = html.unescape(_TAG.sub(" ", _CODE.sub(" ", path.read_text(encoding="utf-8"))))
        for match in RAW_MARKUP.finditer(text):
            context = " ".join(text[max(0, match.start() - 40) : match.end() + 30].split())
            found.append(f"{path.relative_to(site)}: raw reST: ...{context}...")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path, help="the built HTML site (docs/_build/html)")
    args = parser.parse_args(argv)
    if not (args.site / "index.html").exists():
        parser.error(f"{args.site} holds no index.html")
    broken = broken_links(args.site)
    raw = raw_markup(args.site)
    for line in broken + raw:
        print(line)
    count = sum(1 for _ in args.site.rglob("*.html"))
    print(
        f"{count} pages checked: {len(broken)} broken internal links, {len(raw)} with raw reST",
        file=sys.stderr,
    )
    return 1 if broken or raw else 0


if __name__ == "__main__":
    sys.exit(main())
