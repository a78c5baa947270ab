"""Check that the tree is ready to release: the version, the tag and the changelog agree.

``python tools/release_check.py --tag v0.1.0`` (the release workflow runs it on every tag)
fails unless

* the tag is ``v`` followed by the package version (``src/deepsix/_version.py``), and that
  version is a final release (no ``.dev``): a development version is never published;
* ``CHANGELOG.md`` has a ``## [VERSION] - YYYY-MM-DD`` heading for it, the first version
  heading after ``## [Unreleased]``, with entries under it;
* ``pyproject.toml`` names the project's URLs (documentation, changelog, issues, source).

Without ``--tag`` (a dry run of the workflow) only the changelog's shape and the URLs are
checked.  Only the standard library is used, so it runs before anything is installed.
"""

from __future__ import annotations

import argparse
import datetime
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VERSION = re.compile(r'^__version__ = "([^"]+)"$', re.MULTILINE)
HEADING = re.compile(r"^## \[([^\]]+)\](?: - (\S+))?\s*$", re.MULTILINE)
FINAL = re.compile(r"^\d+\.\d+\.\d+$")
URLS = ("Documentation", "Changelog", "Issues", "Source")


def package_version(root: Path) -> str:
    """The version in ``src/deepsix/_version.py`` (read, not imported)."""
    text = (root / "src" / "deepsix" / "_version.py").read_text(encoding="utf-8")
    found = VERSION.search(text)
    if found is None:
        raise SystemExit("src/deepsix/_version.py: no __version__ line")
    return found.group(1)


def changelog_headings(root: Path) -> list[tuple[str, str | None, str]]:
    """The ``## [...]`` headings of CHANGELOG.md: (name, date, the text under it)."""
    text = (root / "CHANGELOG.md").read_text(encoding="utf-8")
    matches = list(HEADING.finditer(text))
    headings = []
    for index, match in enumerate(matches):
        end = matches[index + 1].start() if index + 1 < len(matches) else len(text)
        body = text[match.end() : end].split("\n## ", 1)[0]
        headings.append((match.group(1), match.group(2), body))
    return headings


def problems(root: Path, tag: str | None) -> list[str]:
    """What stands between this tree and a release (for ``tag``, if given)."""
    found: list[str] = []
    headings = changelog_headings(root)
    if not headings or headings[0][0] != "Unreleased":
        found.append("CHANGELOG.md: the first heading must be '## [Unreleased]'")
    for name, date, _ in headings[1:]:
        if not FINAL.match(name):
            found.append(f"CHANGELOG.md: '## [{name}]' is not a version")
        elif date is None:
            found.append(f"CHANGELOG.md: '## [{name}]' has no date (## [{name}] - YYYY-MM-DD)")
        else:
            try:
                datetime.date.fromisoformat(date)
            except ValueError:
                found.append(f"CHANGELOG.md: '## [{name}]': {date!r} is not a YYYY-MM-DD date")
    metadata = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    urls = metadata.get("project", {}).get("urls", {})
    found.extend(f"pyproject.toml: [project.urls] has no {key}" for key in URLS if key not in urls)
    if tag is None:
        return found
    version = package_version(root)
    if tag != f"v{version}":
        found.append(f"the tag {tag} does not name the package version {version} (v{version})")
    if not FINAL.match(version):
        found.append(f"{version} is a development version: set the release's version first")
    released = [(name, body) for name, _, body in headings[1:]]
    if not released or released[0][0] != version:
        found.append(f"CHANGELOG.md: the first version heading must be '## [{version}] - DATE'")
    elif not re.search(r"^- ", released[0][1], re.MULTILINE):
        found.append(f"CHANGELOG.md: '## [{version}]' has no entries")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tag", help="the git tag being released (vX.Y.Z)")
    parser.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    found = problems(args.root, args.tag)
    for problem in found:
        print(f"release check: {problem}", file=sys.stderr)
    if not found:
        what = f"{args.tag} can be released" if args.tag else "the release files are in shape"
        print(f"release check: {what}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
