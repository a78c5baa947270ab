"""Notebook-style cells in the docs: code that runs when the docs are built, and its output.

    ```{notebook-cell}
    from deepsix import svg
    svg.card(deepsix.Card.parse("7H"))
    ```

Each cell shows its code, runs it in a namespace shared by the cells of its
page (as a notebook's cells share one kernel), and shows the value of its
last line as a notebook would: an object with ``_repr_svg_`` or
``_repr_html_`` (a state, a view, a game record) as its picture, a string
that is an SVG document as the picture itself, anything else as its repr.
Nothing is cached or committed: the pictures in the built pages are drawn by
the library being documented, and a cell that raises fails the build.
"""

from __future__ import annotations

import ast
from typing import Any, ClassVar

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

_NAMESPACES: dict[str, dict[str, Any]] = {}


def _reset(app: Sphinx, docname: str, source: list[str]) -> None:
    _NAMESPACES.pop(docname, None)


def run_cell(code: str, namespace: dict[str, Any]) -> object:
    """Run ``code`` in ``namespace``; the value of its last line if that is an expression."""
    tree = ast.parse(code)
    last = tree.body[-1] if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    if last is not None:
        tree.body.pop()
    exec(compile(tree, "<notebook-cell>", "exec"), namespace)  # the docs' own code
    if last is None:
        return None
    return eval(compile(ast.Expression(last.value), "<notebook-cell>", "eval"), namespace)


def rich_output(value: object) -> tuple[str, str] | None:
    """``("html", markup)`` for a value a notebook shows as a picture, ``("text", repr)``
    otherwise, ``None`` for no value."""
    if value is None:
        return None
    if isinstance(value, str) and value.startswith("<svg"):
        return "html", value
    for method in ("_repr_html_", "_repr_svg_"):
        draw = getattr(value, method, None)
        if callable(draw):
            markup = draw()
            if isinstance(markup, str):
                return "html", markup
    return "text", repr(value)


class NotebookCell(SphinxDirective):
    """Run the code; show it, numbered, and its output."""

    has_content = True
    option_spec: ClassVar[dict[str, Any]] = {}

    def run(self) -> list[nodes.Node]:
        code = "\n".join(self.content)
        namespace = _NAMESPACES.setdefault(self.env.docname, {"__name__": "__notebook__"})
        number = namespace["__cells__"] = namespace.get("__cells__", 0) + 1
        try:
            value = run_cell(code, namespace)
            output = rich_output(value)
        except Exception as error:  # the build fails, naming the cell
            raise self.error(f"notebook cell [{number}] raised {error!r}") from error
        cell = nodes.container(classes=["notebook-cell"])
        cell += nodes.paragraph("", f"In [{number}]:", classes=["notebook-prompt"])
        block = nodes.literal_block(code, code, language="python")
        cell += block
        if output is not None:
            kind, text = output
            cell += nodes.paragraph("", f"Out[{number}]:", classes=["notebook-prompt"])
            if kind == "html":
                shown = nodes.container(classes=["notebook-output"])
                shown += nodes.raw("", text, format="html")
                cell += shown
            else:
                cell += nodes.literal_block(text, text, classes=["notebook-output"])
        return [cell]


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("notebook-cell", NotebookCell)
    app.connect("source-read", _reset)
    return {"version": "1", "parallel_read_safe": False, "parallel_write_safe": True}
