"""Write the facade's derived lists from its two declarations.

``src/deepsix/__init__.py`` declares the public names once: the core's by
the ``from deepsix.X import ...`` statements at its top, the upper layers'
(imported on first use) in the ``_LAZY`` table, module by module.  Type
checkers need the lazy names imported under ``TYPE_CHECKING`` and every
public name in ``__all__``; this tool writes both into the region between
``# <generated: facade>`` and ``# </generated>``.

    python tools/facade.py          # rewrite the region
    python tools/facade.py --check  # exit 1 if it is out of date

``tests/test_layers.py`` runs the check (it compares the code, not its layout).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FACADE = ROOT / "src" / "deepsix" / "__init__.py"
_START = "# <generated: facade>\n"
_END = "# </generated>\n"


def declarations(source: str) -> tuple[list[str], dict[str, tuple[str, ...]]]:
    """The core's public names (imported at the top) and the ``_LAZY`` table."""
    tree = ast.parse(source)
    core: list[str] = []
    lazy: dict[str, tuple[str, ...]] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("deepsix"):
            core.extend(alias.asname or alias.name for alias in node.names)
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and node.target.id == "_LAZY"
            and node.value is not None
        ):
            lazy = ast.literal_eval(node.value)
    private = {name for name in core if name.startswith("_") and not name.startswith("__")}
    helpers = {"bind_display", "bind_text"}  # imported for the package's own use, not exported
    return [n for n in core if n not in private | helpers], lazy


def region(source: str) -> str:
    """The generated region's code for ``source``."""
    core, lazy = declarations(source)
    imports = "".join(
        f"    from {module} import {', '.join(sorted(names))}\n"
        for module, names in sorted(lazy.items())
    )
    # The order ruff wants (RUF022): constants, then classes, then the rest.
    names = sorted(
        {*core, *(name for names in lazy.values() for name in names)},
        key=lambda name: (0 if name.isupper() else 1 if name[:1].isupper() else 2, name),
    )
    listed = "".join(f'    "{name}",\n' for name in names)
    return f"if TYPE_CHECKING:\n{imports}\n__all__ = [\n{listed}]\n"


def render(source: str) -> str:
    start = source.index(_START) + len(_START)
    end = source.index(_END, start)
    return source[:start] + region(source) + source[end:]


def same_code(a: str, b: str) -> bool:
    """Whether two sources are the same code, however they are laid out."""
    return ast.dump(ast.parse(a)) == ast.dump(ast.parse(b))


def main(argv: list[str]) -> int:
    text = FACADE.read_text(encoding="utf-8")
    fresh = render(text)
    if argv == ["--check"]:
        if not same_code(fresh, text):
            print("src/deepsix/__init__.py: run python tools/facade.py", file=sys.stderr)
            return 1
        return 0
    if argv:
        print("usage: facade.py [--check]", file=sys.stderr)
        return 2
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--stdin-filename", "__init__.py", "-"],
        input=fresh,
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    FACADE.write_text(done.stdout, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
