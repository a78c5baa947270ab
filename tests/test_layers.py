"""The architecture holds: no import climbs a layer, the core has no loop,
``import deepsix`` loads only the rules, and no module reaches into another's private names.

The layers are declared once, in :mod:`tests.support.layers`; the docs draw them from there.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import deepsix
from tests.support.layers import CORE_MODULES, CORE_RANK, FACADE, LAYERS

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "deepsix"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def resolve(name: str) -> str | None:
    """The deepsix module an import names (a name inside a module counts as the module)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def imports(module: str) -> Iterator[tuple[int, str]]:
    """``(line, imported deepsix module)`` for every import in ``module`` (any depth)."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            names = [f"{base}.{alias.name}" for alias in node.names] or [base]
            names = [n if resolve(n) == n else base for n in names]
        else:
            continue
        for name in names:
            if name == "deepsix" or name.startswith("deepsix."):
                target = resolve(name)
                if target is not None and target != module:
                    yield node.lineno, target


def layer_of(module: str) -> tuple[int, str]:
    """The layer's row (0 at the top) and the package within it that holds ``module``."""
    for row, layer in enumerate(LAYERS[:-1]):
        for package in layer.packages:
            if module == package or module.startswith(package + "."):
                return row, package
    return len(LAYERS) - 1, "deepsix"


def test_every_core_module_has_a_place_in_the_order() -> None:
    core = {name for name in MODULES if layer_of(name)[1] == "deepsix"} - set(FACADE)
    assert core == set(CORE_MODULES), (
        "add new core modules to tests/support/layers.py CORE_ORDER (and remove old ones)"
    )


def violation(module: str, target: str) -> str | None:
    """Why ``module`` may not import ``target``, or ``None`` if it may."""
    row, package = layer_of(module)
    target_row, target_package = layer_of(target)
    if target_row < row:
        return f"climbs from {LAYERS[row].name} to {LAYERS[target_row].name}"
    if target_row == row and target_package != package:
        return f"{package} and {target_package} are independent"
    in_core = package == "deepsix" and target not in FACADE
    if in_core and CORE_RANK[target] > CORE_RANK[module]:
        return "comes later in the core order"
    if in_core and CORE_RANK[target] == CORE_RANK[module]:
        return "is side by side with it in the core order"
    return None


def test_no_import_climbs_a_layer() -> None:
    """Imports go down (or sideways within one package); the core imports in its order."""
    violations = []
    for module, path in MODULES.items():
        if module in FACADE:
            continue
        for line, target in imports(module):
            why = violation(module, target)
            if why is not None:
                where = f"{path.relative_to(SRC)}:{line}: {module} -> {target}"
                violations.append(f"{where} ({why})")
    assert not violations, "\n".join(violations)


@pytest.mark.parametrize(
    ("module", "target", "allowed"),
    [
        ("deepsix.engine", "deepsix.tricks", True),
        ("deepsix.tricks", "deepsix.engine", False),
        ("deepsix.engine", "deepsix.play.bots", False),
        ("deepsix.play.bots", "deepsix.io.record", False),
        ("deepsix.io.record", "deepsix.play.loop", False),
        ("deepsix.play.loop", "deepsix.play.bots", True),
        ("deepsix.cli.play", "deepsix.play.loop", True),
        ("deepsix.search.solver", "deepsix.cli.app", False),
        ("deepsix.phases.play", "deepsix.phases.auction", False),
        ("deepsix.engine", "deepsix.phases.play", True),
        ("deepsix.phases.play", "deepsix.engine", False),
    ],
)
def test_the_rule_can_fail(module: str, target: str, allowed: bool) -> None:
    assert (violation(module, target) is None) is allowed


def test_the_package_has_no_import_loop() -> None:
    """Tarjan's algorithm over every import -- at the top of a module, in a function or for
    type checkers -- finds no cycle (the facade aside)."""
    graph = {
        module: {target for _, target in imports(module)} - set(FACADE)
        for module in MODULES
        if module not in FACADE
    }
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for node in graph:
        if node not in index:
            visit(node)
    assert cycles == []


def test_the_scanner_finds_every_kind_of_import() -> None:
    found = {target for _, target in imports("deepsix.cli.play")}
    assert {"deepsix.cli.grammar", "deepsix.play.bots", "deepsix.errors"} <= found
    # Imports inside functions and TYPE_CHECKING blocks count too.
    assert "deepsix.io.notation" in {target for _, target in imports("deepsix")}


def test_import_deepsix_loads_only_the_rules() -> None:
    """A front end that needs only the rules loads no I/O, bots, CLI, cattrs or rich."""
    code = (
        "import sys, deepsix\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('deepsix'))))\n"
        "print(' '.join(sorted(m for m in ('cattrs', 'rich', 'numpy') if m in sys.modules)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    loaded, extras = result.stdout.splitlines()
    # The compiled build's shared mypyc runtime lives inside the package (pyproject.toml,
    # group_name): it is part of the rules, not a layer above them.
    allowed = {"deepsix", "deepsix._mypyc__mypyc", *CORE_MODULES}
    loaded_modules = set(loaded.split())
    assert loaded_modules <= allowed, loaded_modules - allowed
    assert extras == ""


def test_upper_layer_names_load_when_first_used() -> None:
    code = (
        "import sys, deepsix\n"
        "assert 'deepsix.play.heuristic' not in sys.modules\n"
        "bot = deepsix.HeuristicBot()\n"
        "assert 'deepsix.play.heuristic' in sys.modules\n"
        "print(type(bot).__module__)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "deepsix.play.heuristic"
    assert set(deepsix.__all__) <= set(dir(deepsix))
    for name in deepsix.__all__:
        assert getattr(deepsix, name) is not None


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_reaches(module: str, source: str | None = None) -> Iterator[str]:
    """Where ``module`` uses a private name of another module: ``from m import _name``,
    ``m._name`` on a deepsix module it imported, or a private module (``pkg._core``) from
    outside the package that holds it."""
    path = MODULES.get(module)
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8") if source is None else source)
    is_package = path is not None and path.name == "__init__.py"
    package = module if is_package else module.rpartition(".")[0]
    bound: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            bound.update({a.asname: a.name for a in node.names if a.asname})
        if not isinstance(node, ast.ImportFrom):
            continue
        base = node.module or ""
        if node.level:
            anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
            base = f"{anchor}.{base}" if base else anchor
        if base != "deepsix" and not base.startswith("deepsix."):
            continue
        parts = base.split(".")
        for depth, part in enumerate(parts):
            owner = ".".join(parts[:depth])
            if _private(part) and module != owner and not module.startswith(owner + "."):
                yield f"line {node.lineno}: the private module {base}"
        for alias in node.names:
            if _private(alias.name):
                yield f"line {node.lineno}: {alias.name} from {base}"
            bound[alias.asname or alias.name] = f"{base}.{alias.name}"
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in bound
            and bound[node.value.id] in MODULES
            and _private(node.attr)
        ):
            yield f"line {node.lineno}: {node.value.id}.{node.attr}"


def test_no_module_reaches_into_another_modules_private_names() -> None:
    """What a module shares is public (no leading underscore); the rest is its own."""
    found = [
        f"{MODULES[module].relative_to(SRC)}: {where}"
        for module in MODULES
        for where in private_reaches(module)
    ]
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    ("source", "caught"),
    [
        ("from deepsix.io.codec import _lookup", True),
        ("from deepsix.io import codec\ncodec._lookup", True),
        ("import deepsix.io.codec as c\nc._lookup", True),
        ("from deepsix.search._core import solve", True),  # from outside deepsix.search
        ("from deepsix.io.codec import converter\nfrom deepsix import __version__", False),
        ("from deepsix._version import __version__", False),  # inside deepsix
    ],
)
def test_the_private_name_rule_can_fail(source: str, caught: bool) -> None:
    assert bool(list(private_reaches("deepsix.web.example", source))) is caught


def test_the_facades_derived_lists_are_current() -> None:
    """The facade declares the lazy names once (``_LAZY``); ``tools/facade.py`` writes the
    type checkers' imports and ``__all__`` from it and the core's imports."""
    from tools import facade

    text = facade.FACADE.read_text(encoding="utf-8")
    assert facade.same_code(facade.render(text), text), "run python tools/facade.py"
    core, lazy = facade.declarations(text)
    assert {"apply", "GameState", "__version__"} <= set(core)
    assert set(deepsix.__all__) == set(core) | {n for names in lazy.values() for n in names}
    grown = text.replace('("play_game",)', '("play_game", "play_games")')
    assert not facade.same_code(facade.render(grown), grown)
