"""Local Sphinx extension for the deepsix docs.

It keeps the documentation tied to the code, so a change to the rules
engine that the docs do not follow breaks the docs build (``-W``):

* ``rule`` -- a numbered rule of the rules reference (``R-BID-3``), an
  object type with a cross-reference role (:rule:`R-BID-3`).  Its heading
  shows the one-line summary from :data:`deepsix.rulebook.RULEBOOK`; an id
  that is not in the rulebook is a build warning.
* ``ruling`` -- the distinctive "Ruling" admonition for a place where the
  rules text is silent or contradicts itself; ``ruling-index`` lists every
  ruling of the site with links.  Each ruling is also a label, such as
  ``ruling-the-opening-bid``, that other pages can link with the ``ref``
  role.
* ``rule-index`` -- the table of every rule id and summary, from RULEBOOK.
* ``library`` -- a collapsed "Library" block (an HTML ``<details>``) that
  keeps doctests, ``Rules`` switches, ``Reason`` codes and derivations out
  of the player's way on the rules pages; other builders show it as a
  plain section.
* ``reason-table`` -- the table of :class:`deepsix.errors.Reason` codes.
* ``invariants-table`` and ``invariant-tests`` -- issue 3's invariants and
  the tests that verify them, from ``tests/support/invariants_index.py``; every
  listed test must exist.
* References to the public aliases (``deepsix.Rules``) resolve to the
  documented objects (``deepsix.rules.Rules``).
"""

from __future__ import annotations

import ast
import functools
import importlib.util
import itertools
import re
import sys
import types
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, ClassVar, Final, cast

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.domains.std import StandardDomain
from sphinx.environment import BuildEnvironment
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

import deepsix
from deepsix.errors import Reason
from deepsix.rulebook import RULEBOOK

LOGGER = logging.getLogger(__name__)
REPO = Path(__file__).resolve().parents[2]
INVARIANTS_FILE = REPO / "tests" / "support" / "invariants_index.py"


# -- numbered rules --------------------------------------------------------------


def parse_rule_signature(env: BuildEnvironment, sig: str, signode: addnodes.desc_signature) -> str:
    """Render ``R-BID-3`` as the rule id followed by its rulebook summary."""
    rule_id = sig.strip()
    summary = RULEBOOK.get(rule_id)
    if summary is None:
        LOGGER.warning("rule %s is not in deepsix.rulebook.RULEBOOK", rule_id, location=signode)
        summary = ""
    signode += addnodes.desc_name(rule_id, rule_id)
    if summary:
        signode += nodes.inline(" " + summary, " " + summary, classes=["rule-summary"])
    return rule_id


def rule_link(rule_id: str) -> addnodes.pending_xref:
    """A cross-reference to a numbered rule, as the ``rule`` role makes it."""
    ref = addnodes.pending_xref(
        "", refdomain="std", reftype="rule", reftarget=rule_id, refexplicit=False
    )
    ref += nodes.literal(rule_id, rule_id, classes=["xref", "std", "std-rule"])
    return ref  # type: ignore[no-any-return]  # docutils ships no type stubs


# -- rulings ---------------------------------------------------------------------


class ruling_index_node(nodes.General, nodes.Element):  # docutils names nodes in lower case
    """Placeholder replaced by the list of every ruling once all pages are read."""


class Ruling(SphinxDirective):
    """A "Ruling" box: where the rules text is silent or contradicts itself.

    The argument is the ruling's title; ``:rules:`` names the rule ids it
    concerns (comma or space separated).  The body says what the text says,
    what the library does, why, and the ``Rules`` switch if one exists.
    """

    required_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec: ClassVar[dict[str, Any]] = {"rules": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        title = self.arguments[0].strip()
        rule_ids = self.options.get("rules", "").replace(",", " ").split()
        for rule_id in rule_ids:
            if rule_id not in RULEBOOK:
                LOGGER.warning(
                    "ruling %r cites unknown rule %s", title, rule_id, location=self.get_location()
                )
        target_id = "ruling-" + nodes.make_id(title)
        box = nodes.admonition("", classes=["ruling"], ids=[target_id])
        heading = nodes.title("", "")
        heading += nodes.inline("Ruling", "Ruling", classes=["ruling-label"])
        heading += nodes.Text(" " + title)
        box += heading
        if rule_ids:
            concerns = nodes.paragraph("", "", classes=["ruling-rules"])
            concerns += nodes.Text("Concerns ")
            for i, rule_id in enumerate(rule_ids):
                if i:
                    concerns += nodes.Text(", ")
                concerns += rule_link(rule_id)
            box += concerns
        box += self.parse_content_to_nodes()
        # A label, so other pages can link a ruling with {ref}`ruling-...`.
        std = cast("StandardDomain", self.env.get_domain("std"))
        std.note_hyperlink_target(target_id, self.env.docname, target_id, f"Ruling: {title}")
        rulings: list[dict[str, Any]] = getattr(self.env, "deepsix_rulings", [])
        rulings.append(
            {"docname": self.env.docname, "id": target_id, "title": title, "rules": rule_ids}
        )
        self.env.deepsix_rulings = rulings  # type: ignore[attr-defined]  # env holds extension data
        return [box]


class RulingIndex(SphinxDirective):
    """The list of every ruling in the site, filled in after all pages are read."""

    def run(self) -> list[nodes.Node]:
        return [ruling_index_node("")]


def purge_rulings(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    """Forget a page's rulings before it is read again."""
    rulings: list[dict[str, Any]] = getattr(env, "deepsix_rulings", [])
    env.deepsix_rulings = [r for r in rulings if r["docname"] != docname]  # type: ignore[attr-defined]  # env holds extension data


def merge_rulings(
    app: Sphinx, env: BuildEnvironment, docnames: Iterable[str], other: BuildEnvironment
) -> None:
    """Combine the rulings read by parallel workers."""
    mine: list[dict[str, Any]] = getattr(env, "deepsix_rulings", [])
    mine.extend(getattr(other, "deepsix_rulings", []))
    env.deepsix_rulings = mine  # type: ignore[attr-defined]  # env holds extension data


def fill_ruling_index(app: Sphinx, doctree: nodes.document, fromdocname: str) -> None:
    """Replace each ruling index with links to every ruling, in reading order."""
    rulings: list[dict[str, Any]] = getattr(app.env, "deepsix_rulings", [])
    order = {name: i for i, name in enumerate(_toc_order(app))}
    ordered = sorted(rulings, key=lambda r: order.get(r["docname"], len(order)))
    for placeholder in list(doctree.findall(ruling_index_node)):
        listing = nodes.bullet_list(classes=["ruling-index"])
        for ruling in ordered:
            para = nodes.paragraph()
            try:
                uri = app.builder.get_relative_uri(fromdocname, ruling["docname"])
            except Exception:  # builders without pages (doctest) have no URIs
                uri = ""
            ref = nodes.reference("", "", internal=True, refuri=f"{uri}#{ruling['id']}")
            ref += nodes.Text(ruling["title"])
            para += ref
            if ruling["rules"]:
                para += nodes.Text(" (")
                for i, rule_id in enumerate(ruling["rules"]):
                    if i:
                        para += nodes.Text(", ")
                    para += nodes.literal(rule_id, rule_id)
                para += nodes.Text(")")
            listing += nodes.list_item("", para)
        placeholder.replace_self(listing)


def _toc_order(app: Sphinx) -> list[str]:
    """Documents in table-of-contents order, so the ruling index reads like the site."""
    env = app.env
    seen: list[str] = []

    def walk(docname: str) -> None:
        if docname in seen:
            return
        seen.append(docname)
        for child in env.toctree_includes.get(docname, []):
            walk(child)

    walk(app.config.root_doc)
    return seen


def skip_node(self: Any, node: nodes.Node) -> None:
    """Never render a placeholder that was not replaced."""
    raise nodes.SkipNode


# -- library blocks ----------------------------------------------------------------


class library_block(nodes.General, nodes.Element):  # docutils names nodes in lower case
    """Library material folded away from the player's text (``<details>`` in HTML)."""


class library_summary(nodes.TextElement):  # docutils names nodes in lower case
    """The always-visible line of a library block (``<summary>`` in HTML)."""


LIBRARY_LABEL = "Library"


class Library(SphinxDirective):
    """A collapsed block for readers who use the library, not for players.

    The optional argument is a short title shown next to the "Library"
    label; ``:open:`` shows the block expanded.  The content is ordinary
    Markdown: doctests inside still run under the doctest builder.
    """

    optional_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec: ClassVar[dict[str, Any]] = {"open": directives.flag}

    def run(self) -> list[nodes.Node]:
        block = library_block("", classes=["library"])
        block["open"] = "open" in self.options
        self.set_source_info(block)
        summary = library_summary("", "")
        summary += nodes.inline(LIBRARY_LABEL, LIBRARY_LABEL, classes=["library-label"])
        if self.arguments:
            title_nodes, messages = self.state.inline_text(self.arguments[0].strip(), self.lineno)
            summary += nodes.Text(" ")
            summary += title_nodes
            block += messages
        block += summary
        block += self.parse_content_to_nodes()
        return [block]


def visit_library_html(self: Any, node: library_block) -> None:
    """Open a ``<details>`` element (closed unless the block asked to be open)."""
    attributes = {"open": "open"} if node.get("open") else {}
    self.body.append(self.starttag(node, "details", **attributes))


def depart_library_html(self: Any, node: library_block) -> None:
    self.body.append("</details>\n")


def visit_summary_html(self: Any, node: library_summary) -> None:
    self.body.append(self.starttag(node, "summary", suffix=""))


def depart_summary_html(self: Any, node: library_summary) -> None:
    self.body.append("</summary>\n")


def visit_plain(self: Any, node: nodes.Element) -> None:
    """Other builders: the block is an ordinary section of the page."""


def depart_plain(self: Any, node: nodes.Element) -> None:
    """Nothing to close."""


# -- generated tables ------------------------------------------------------------


def make_table(
    headers: Sequence[str], rows: Iterable[Sequence[nodes.Node | str]], widths: Sequence[int]
) -> nodes.table:
    """A docutils table; string cells become paragraphs."""
    table = nodes.table(classes=["generated-table"])
    group = nodes.tgroup(cols=len(headers))
    table += group
    for width in widths:
        group += nodes.colspec(colwidth=width)
    head = nodes.thead()
    group += head
    head_row = nodes.row()
    for header in headers:
        head_row += nodes.entry("", nodes.paragraph(header, header))
    head += head_row
    body = nodes.tbody()
    group += body
    for cells in rows:
        row = nodes.row()
        for cell in cells:
            if isinstance(cell, str):
                row += nodes.entry("", nodes.paragraph(cell, cell))
            elif isinstance(cell, nodes.paragraph):
                row += nodes.entry("", cell)
            else:
                row += nodes.entry("", nodes.paragraph("", "", cell))
        body += row
    return table


# -- the module map (docs/architecture.md) ------------------------------------------------

LAYERS_FILE = REPO / "tests" / "support" / "layers.py"
SRC = REPO / "src"


def load_layers() -> types.ModuleType:
    """``tests/support/layers.py``, the layers the import test enforces."""
    spec = importlib.util.spec_from_file_location("deepsix_layers_for_docs", LAYERS_FILE)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def module_summary(path: Path) -> str:
    """The first paragraph of a module's docstring, on one line (never cut mid-sentence)."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    return " ".join(doc.strip().split("\n\n", 1)[0].split())


RST_INLINE = re.compile(
    r"``(?P<literal>.+?)``"
    r"|:(?:py:)?(?P<role>\w+):`(?P<target>[^`]+)`"
    r"|\*\*(?P<strong>[^*]+)\*\*"
    r"|\*(?P<emphasis>[^*]+)\*"
)
"""The reST inline markup module docstrings use: literals, roles, strong and emphasis."""


def rst_inline(text: str) -> list[nodes.Node]:
    """reST inline markup as docutils nodes: ````x```` and ``:mod:`~a.b``` become literals
    (a ``~`` keeps the last part, ``Title <target>`` the title), ``*x*`` emphasis."""
    result: list[nodes.Node] = []
    position = 0
    for match in RST_INLINE.finditer(text):
        if match.start() > position:
            result.append(nodes.Text(text[position : match.start()]))
        if match.group("literal") is not None:
            result.append(nodes.literal(match.group("literal"), match.group("literal")))
        elif match.group("target") is not None:
            target = match.group("target")
            titled = re.fullmatch(r"(.+?)\s*<(.+)>", target)
            shown = titled.group(1) if titled else target.lstrip("~")
            if not titled and target.startswith("~"):
                shown = shown.rsplit(".", 1)[-1]
            result.append(nodes.literal(shown, shown))
        elif match.group("strong") is not None:
            result.append(nodes.strong(match.group("strong"), match.group("strong")))
        else:
            result.append(nodes.emphasis(match.group("emphasis"), match.group("emphasis")))
        position = match.end()
    if position < len(text):
        result.append(nodes.Text(text[position:]))
    return result


class ModuleMap(SphinxDirective):
    """Every module of the package, by layer, with the first line of its docstring.

    Read from the source tree and ``tests/support/layers.py``, so the page
    cannot fall behind the code.
    """

    def run(self) -> list[nodes.Node]:
        layers = load_layers()
        paths = sorted((SRC / "deepsix").rglob("*.py"))
        names = {}
        for path in paths:
            parts = list(path.relative_to(SRC).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            names[".".join(parts)] = path
        order = layers.CORE_RANK
        rows: list[Sequence[nodes.Node | str]] = []
        placed: set[str] = set()
        for layer in layers.LAYERS:
            members = []
            for name in names:
                if layer.packages == ("deepsix",):
                    if name in order:
                        members.append(name)
                elif any(name == p or name.startswith(p + ".") for p in layer.packages):
                    members.append(name)
            members.sort(key=lambda n: (order.get(n, 0), n))
            for index, name in enumerate(members):
                placed.add(name)
                number = f"{order[name] + 1}. " if name in order else ""
                label = nodes.literal(name, name)
                cell = nodes.paragraph("", "", nodes.Text(number), label)
                summary = nodes.paragraph("", "", *rst_inline(module_summary(names[name])))
                rows.append((layer.name if index == 0 else "", cell, summary))
        missing = sorted(set(names) - placed - set(layers.FACADE))
        if missing:
            LOGGER.warning("modules missing from tests/support/layers.py: %s", ", ".join(missing))
        return [make_table(("Layer", "Module", "What it holds"), rows, (14, 26, 60))]


class CommandLineReference(SphinxDirective):
    """The ``deepsix`` command's reference, written from its own parser
    (:func:`deepsix.cli.reference.reference`): every subcommand, built in or
    added by an installed package, with its description, usage and options,
    and the exit statuses.  A new subcommand appears without editing the page."""

    def run(self) -> list[nodes.Node]:
        from deepsix.cli.reference import reference

        chunks = re.split(r"^## (.+)$", reference(), flags=re.MULTILINE)
        result = self._parse(chunks[0])
        for title, body in zip(chunks[1::2], chunks[2::2], strict=True):
            plain = title.strip("`")
            section = nodes.section(
                ids=[nodes.make_id(plain)], names=[nodes.fully_normalize_name(plain)]
            )
            section += nodes.title(
                title,
                "",
                nodes.literal(plain, plain) if title.startswith("`") else nodes.Text(plain),
            )
            section.extend(self._parse(body))
            self.state.document.note_implicit_target(section, section)
            result.append(section)
        return result

    def _parse(self, markdown: str) -> list[nodes.Node]:
        holder = nodes.container()
        content = StringList(markdown.splitlines(), source="deepsix.cli.reference")
        self.state.nested_parse(content, self.content_offset, holder)
        return list(holder.children)


class RuleIndex(SphinxDirective):
    """Every rule id with its one-line summary, linked to its full text."""

    def run(self) -> list[nodes.Node]:
        rows = [(rule_link(rule_id), summary) for rule_id, summary in RULEBOOK.items()]
        return [make_table(("Rule", "Summary"), rows, (18, 82))]


class ReasonTable(SphinxDirective):
    """Every :class:`~deepsix.errors.Reason` an illegal action can carry."""

    def run(self) -> list[nodes.Node]:
        rows = []
        for reason in Reason:
            code = f"Reason.{reason.name}"
            rows.append((nodes.literal(code, code), rule_link(reason.rule), reason.description))
        return [make_table(("Reason", "Rule", "Meaning"), rows, (30, 15, 55))]


class RulesBounds(SphinxDirective):
    """Every number of :class:`~deepsix.Rules` with its bounds and meaning, from the class."""

    def run(self) -> list[nodes.Node]:
        import attrs

        from deepsix.rules import Rules

        rows = []
        defaults = Rules()
        docs = field_docstrings(Rules)
        for field in attrs.fields(Rules):
            bounds = field.metadata.get("bounds")
            if bounds is None:
                continue
            low, high = bounds
            extra = field.metadata.get("multiple_of")
            allowed = f"{low} to {high}" + (f", a multiple of {extra}" if extra else "")
            summary = docs.get(field.name, "").split(". ")[0].rstrip(".")
            rows.append(
                (
                    nodes.literal(field.name, field.name),
                    allowed,
                    str(getattr(defaults, field.name)),
                    nodes.paragraph("", "", *rst_inline(summary)),
                )
            )
        return [make_table(("Field", "Allowed", "Default", "Meaning"), rows, (22, 26, 10, 42))]


def field_docstrings(cls: type) -> dict[str, str]:
    """The string literal under each field of a class body (its attribute docstring)."""
    import inspect
    import textwrap

    tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    body = cast(ast.ClassDef, tree.body[0]).body
    found: dict[str, str] = {}
    for before, after in itertools.pairwise(body):
        if (
            isinstance(before, ast.AnnAssign)
            and isinstance(before.target, ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            found[before.target.id] = " ".join(after.value.value.split())
    return found


# -- invariants ------------------------------------------------------------------


def load_invariants() -> dict[int, tuple[str, list[str]]] | None:
    """``INVARIANTS`` from ``tests/support/invariants_index.py``, or ``None`` if absent."""
    if not INVARIANTS_FILE.exists():
        return None
    spec = importlib.util.spec_from_file_location("deepsix_invariants_index", INVARIANTS_FILE)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    invariants: dict[int, tuple[str, list[str]]] = module.INVARIANTS
    return invariants


def find_test(node_id: str) -> ast.stmt | None:
    """The definition named by ``tests/file.py::name`` (or ``::Class::name``), if it exists."""
    path_text, _, rest = node_id.partition("::")
    path = REPO / path_text
    if not path.is_file() or not rest:
        return None
    names = rest.split("[", 1)[0].split("::")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    scope: Sequence[ast.stmt] = tree.body
    found: ast.stmt | None = None
    for i, name in enumerate(names):
        found = None
        for stmt in scope:
            defines = (
                isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
                and stmt.name == name
            ) or (
                isinstance(stmt, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets)
            )
            if defines:
                found = stmt
        if found is None:
            return None
        if i + 1 < len(names):
            if not isinstance(found, ast.ClassDef):
                return None
            scope = found.body
    return found


INVARIANT_PREFIX = re.compile(r"^Invariants? [\d, and]+:\s*")


def test_summary(definition: ast.stmt) -> str:
    """What a test verifies: its docstring's first paragraph, without the invariant prefix.

    Test docstrings start "Invariant 4: legality is exact -- <what>"; under the
    invariant's own heading only "<what>" is new.
    """
    if not isinstance(definition, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return ""
    doc = ast.get_docstring(definition) or ""
    text = " ".join(doc.split("\n\n", 1)[0].split())
    text = INVARIANT_PREFIX.sub("", text)
    title, dash, rest = text.partition(" -- ")
    if dash and len(title) < 40:
        text = rest
    return text[:1].upper() + text[1:]


def inline_literals(text: str) -> list[nodes.Node]:
    """Plain text with ``double-backquoted`` spans turned into literals."""
    parts = re.split(r"``(.+?)``", text)
    result: list[nodes.Node] = []
    for i, part in enumerate(parts):
        if i % 2:
            result.append(nodes.literal(part, part))
        elif part:
            result.append(nodes.Text(part))
    return result


class InvariantTests(SphinxDirective):
    """The tests that verify one invariant, each with the first line of its docstring."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        invariants = load_invariants()
        if invariants is None:
            LOGGER.warning("%s is missing", INVARIANTS_FILE, location=self.get_location())
            return []
        self.env.note_dependency(str(INVARIANTS_FILE))
        number = int(self.arguments[0])
        if number not in invariants:
            LOGGER.warning(
                "invariant %d has no entry in %s", number, INVARIANTS_FILE.name,
                location=self.get_location(),
            )  # fmt: skip
            return []
        _, tests = invariants[number]
        listing = nodes.bullet_list(classes=["invariant-tests"])
        for test in tests:
            definition = find_test(test)
            if definition is None:
                LOGGER.warning(
                    "invariant %d cites %s, which does not exist", number, test,
                    location=self.get_location(),
                )  # fmt: skip
                continue
            para = nodes.paragraph("", "", nodes.literal(test, test))
            summary = test_summary(definition)
            if summary:
                para += nodes.Text(": ")
                para += nodes.inline("", "", *inline_literals(summary), classes=["test-summary"])
            listing += nodes.list_item("", para)
        if not tests:
            LOGGER.warning("invariant %d lists no test", number, location=self.get_location())
        return [listing]


class InvariantsTable(SphinxDirective):
    """The verification issue's invariants and the tests that verify each one."""

    def run(self) -> list[nodes.Node]:
        invariants = load_invariants()
        if invariants is None:
            LOGGER.warning("%s is missing", INVARIANTS_FILE, location=self.get_location())
            return []
        self.env.note_dependency(str(INVARIANTS_FILE))
        missing = sorted(set(range(1, 13)) - set(invariants))
        if missing:
            LOGGER.warning(
                "invariants %s have no entry in %s", missing, INVARIANTS_FILE.name,
                location=self.get_location(),
            )  # fmt: skip
        rows = []
        for number in sorted(invariants):
            title, tests = invariants[number]
            if not tests:
                LOGGER.warning(
                    "invariant %d (%s) lists no test", number, title, location=self.get_location()
                )
            files: list[str] = []
            for test in tests:
                if find_test(test) is None:
                    LOGGER.warning(
                        "invariant %d cites %s, which does not exist", number, test,
                        location=self.get_location(),
                    )  # fmt: skip
                name = Path(test.partition("::")[0]).name
                if name not in files:
                    files.append(name)
            cell = nodes.paragraph("", f"{len(tests)} tests in ")
            for i, name in enumerate(files):
                if i:
                    cell += nodes.Text(", ")
                cell += nodes.literal(name, name)
            anchor = nodes.reference("", "", internal=True, refuri=f"#invariant-{number}")
            anchor += nodes.Text(str(number))
            rows.append((nodes.paragraph("", "", anchor), title, cell))
        return [make_table(("#", "Invariant", "Verified by"), rows, (4, 56, 40))]


# -- docstrings --------------------------------------------------------------------

RULE_ID = re.compile(r"(?<![\w`'\"-])(R-[A-Z]+-(?:\d+|\*))(?![\w'\"-])")
INLINE_MARKUP = re.compile(r"(``.*?``|:[\w:+-]+:`[^`]*`|`[^`]*`)")


def link_rule_ids(  # noqa: PLR0917  (Sphinx passes these positionally)
    app: Sphinx, what: str, name: str, obj: object, options: object, lines: list[str]
) -> None:
    """Turn rule ids in docstrings into links to the rules reference.

    ``R-PLAY-2`` becomes a link to that rule; a group such as ``R-BID-*``
    links to the group's first rule.  Doctest blocks, literal blocks and
    inline markup are left alone; an id that is not in the rulebook is a
    build warning.
    """
    in_doctest = False
    literal_indent: int | None = None
    for index, line in enumerate(lines):
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if literal_indent is not None:
            if not stripped or indent > literal_indent:
                continue
            literal_indent = None
        if in_doctest:
            in_doctest = bool(stripped)
            continue
        if stripped.startswith(">>>"):
            in_doctest = True
            continue
        parts = INLINE_MARKUP.split(line)
        for i in range(0, len(parts), 2):
            parts[i] = RULE_ID.sub(lambda match: _rule_markup(match, name), parts[i])
        lines[index] = "".join(parts)
        if stripped.endswith("::"):
            literal_indent = indent


def _rule_markup(match: re.Match[str], where: str) -> str:
    rule_id = match.group(1)
    if rule_id.endswith("*"):
        first = rule_id[:-1] + "1"
        if first not in RULEBOOK:
            LOGGER.warning("docstring of %s cites unknown rule group %s", where, rule_id)
            return rule_id.replace("*", "\\*")
        return f":rule:`{rule_id} <{first}>`"
    if rule_id not in RULEBOOK:
        LOGGER.warning("docstring of %s cites unknown rule %s", where, rule_id)
        return rule_id
    return f":rule:`{rule_id}`"


def install_napoleon_filter(app: Sphinx) -> None:
    """Keep napoleon away from attribute, data and property docstrings.

    Napoleon reads a first line such as ``Default: play a card ...`` as
    ``type: description``; the library's attribute docstrings are plain
    prose, so only functions, classes and modules go through napoleon.
    """
    from sphinx.ext import napoleon

    listeners = app.events.listeners["autodoc-process-docstring"]
    for listener in list(listeners):
        if listener.handler is napoleon._process_docstring:
            app.disconnect(listener.id)

    def napoleon_except_attributes(  # noqa: PLR0917  (Sphinx passes these positionally)
        app: Sphinx, what: str, name: str, obj: object, options: object, lines: list[str]
    ) -> None:
        if what not in {"attribute", "data", "property"}:
            napoleon._process_docstring(app, what, name, obj, options, lines)  # type: ignore[arg-type]  # what is a plain str at runtime

    app.connect("autodoc-process-docstring", napoleon_except_attributes)


# -- public aliases (deepsix.Rules -> deepsix.rules.Rules) -------------------------


@functools.cache
def alias_map() -> dict[str, str]:
    """Map each top-level public name to the path it is documented under.

    Only modules already imported are searched: by the time references are
    resolved, autodoc has imported every module the docs document.
    """
    modules = {
        name.removeprefix("deepsix."): module
        for name, module in list(sys.modules.items())
        if name.startswith("deepsix.") and module is not None
    }
    aliases: dict[str, str] = {}
    for name in deepsix.__all__:
        obj = getattr(deepsix, name)
        home = getattr(obj, "__module__", None)
        if isinstance(home, str) and home.startswith("deepsix.") and hasattr(obj, "__qualname__"):
            public = public_home(home, name)  # a private module's names: where re-exported
            aliases[f"deepsix.{name}"] = f"{public or home}.{name}"  # else where defined
            continue
        for module_name, module in sorted(modules.items()):
            if name in getattr(module, "__all__", ()) and vars(module).get(name) is obj:
                aliases[f"deepsix.{name}"] = f"deepsix.{module_name}.{name}"
                break
    return aliases


def public_home(home: str, name: str) -> str | None:
    """The public module that re-exports (in its ``__all__``) ``name`` of the private module
    ``home`` (a path with a ``_private`` part and no page of its own), if any.

    A module split for size keeps its names where they were documented:
    ``deepsix.play.simulate`` re-exports the results of ``deepsix.play._results``, which
    autodoc documents under the public path; type hints name the private one.
    """
    if not any(part.startswith("_") for part in home.split(".")) or home in DOCUMENTED_PRIVATE:
        return None
    obj = getattr(sys.modules.get(home), name, None)
    if obj is None:
        return None
    for module_name, module in sorted(sys.modules.items()):
        if not module_name.startswith("deepsix.") or module is None:
            continue
        if any(part.startswith("_") for part in module_name.split(".")):
            continue
        if name in getattr(module, "__all__", ()) and vars(module).get(name) is obj:
            return module_name
    return None


DOCUMENTED_PRIVATE: Final = frozenset({"deepsix.search._core"})
"""Private modules with a page of their own (their names are documented where they are)."""


def resolve_alias(
    app: Sphinx, env: BuildEnvironment, node: addnodes.pending_xref, contnode: nodes.Element
) -> nodes.Element | None:
    """Resolve ``deepsix.Name`` (and ``deepsix.Name.attr``) to the documented object, and a
    name of a private module to where a public module re-exports it."""
    if node.get("refdomain") != "py":
        return None
    target: str = node["reftarget"]
    parts = target.split(".")
    here = node.get("py:module")
    full = parts
    if parts[0] != "deepsix" and isinstance(here, str):  # a short name, in its module
        full = [*here.split("."), *parts]
    for cut in range(len(full) - 1, 1, -1):
        public = public_home(".".join(full[:cut]), full[cut])
        if public is not None:
            domain = env.get_domain("py")
            return domain.resolve_xref(
                env, node["refdoc"], app.builder, node["reftype"],
                ".".join([public, *full[cut:]]), node, contnode,
            )  # fmt: skip
    aliases = alias_map()
    if parts[0] != "deepsix":
        # A short name (``Rules.lowest_bid`` in a module that imports Rules).
        parts = ["deepsix", *parts]
    if len(parts) < 2:
        return None
    canonical = aliases.get(".".join(parts[:2]))
    if canonical is None:
        return None
    new_target = ".".join([canonical, *parts[2:]])
    domain = env.get_domain("py")
    return domain.resolve_xref(
        env, node["refdoc"], app.builder, node["reftype"], new_target, node, contnode
    )


# -- type hints guarded by TYPE_CHECKING ----------------------------------------------


_GUARDS_RESOLVED: set[str] = set()


def resolve_guarded_imports(module: types.ModuleType) -> None:
    """Run a deepsix module's ``if TYPE_CHECKING:`` imports in its own namespace.

    sphinx-autodoc-typehints does this itself, but it may pick an
    attrs-generated method as the module's representative, whose globals
    are a private namespace; the names then stay unresolved for the module's
    real functions.  Doing it per module, before autodoc reads the module's
    members, makes every hint resolve.
    """
    if module.__name__ in _GUARDS_RESOLVED:
        return
    _GUARDS_RESOLVED.add(module.__name__)
    source_file = getattr(module, "__file__", None)
    if source_file is None:
        return
    tree = ast.parse(Path(source_file).read_text(encoding="utf-8"))
    for stmt in tree.body:
        if (
            isinstance(stmt, ast.If)
            and isinstance(stmt.test, ast.Name)
            and stmt.test.id == "TYPE_CHECKING"
        ):
            # Only the imports: a guard may also hold assignments for the type checker
            # (``make_state = GameState``) that must not run, here or in attrs' namespaces.
            imports = [s for s in stmt.body if isinstance(s, ast.Import | ast.ImportFrom)]
            if not imports:
                continue
            code = compile(ast.Module(body=imports, type_ignores=[]), source_file, "exec")
            namespaces = [vars(module)]
            # attrs compiles each class's __init__ in a namespace of its own.
            for value in list(vars(module).values()):
                namespace = getattr(getattr(value, "__init__", None), "__globals__", None)
                if hasattr(value, "__attrs_attrs__") and isinstance(namespace, dict):
                    namespaces.append(namespace)
            for namespace in namespaces:
                exec(code, namespace)  # the module's own import statements


def resolve_guards_for(  # noqa: PLR0917  (Sphinx passes these positionally)
    app: Sphinx, what: str, name: str, obj: object, options: object, lines: list[str]
) -> None:
    """Before autodoc reads a deepsix module (its docstring comes first), resolve its guards."""
    if what == "module" and isinstance(obj, types.ModuleType) and name.startswith("deepsix"):
        resolve_guarded_imports(obj)


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the directives, roles and event handlers."""
    app.add_object_type(
        "rule", "rule", indextemplate="pair: %s; rule", parse_node=parse_rule_signature
    )
    skip = (skip_node, None)
    app.add_node(ruling_index_node, html=skip, latex=skip, text=skip)
    plain = (visit_plain, depart_plain)
    app.add_node(
        library_block, html=(visit_library_html, depart_library_html), latex=plain, text=plain
    )
    app.add_node(
        library_summary, html=(visit_summary_html, depart_summary_html), latex=plain, text=plain
    )
    app.add_directive("library", Library)
    app.add_directive("ruling", Ruling)
    app.add_directive("ruling-index", RulingIndex)
    app.add_directive("rule-index", RuleIndex)
    app.add_directive("module-map", ModuleMap)
    app.add_directive("deepsix-cli", CommandLineReference)
    app.add_directive("rules-bounds", RulesBounds)
    app.add_directive("reason-table", ReasonTable)
    app.add_directive("invariants-table", InvariantsTable)
    app.add_directive("invariant-tests", InvariantTests)
    app.connect("env-purge-doc", purge_rulings)
    app.connect("env-merge-info", merge_rulings)
    app.connect("doctree-resolved", fill_ruling_index)
    app.connect("missing-reference", resolve_alias)
    app.connect("autodoc-process-docstring", resolve_guards_for, priority=100)
    app.connect("builder-inited", install_napoleon_filter)
    app.connect("autodoc-process-docstring", link_rule_ids, priority=400)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
