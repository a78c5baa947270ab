"""The package's layers: who may import whom.  One source for the test and the docs.

``tests/test_layers.py`` checks every import in ``src/deepsix`` against
:data:`LAYERS` and :data:`CORE_ORDER`; ``docs/architecture.md`` draws them
(the diagram is generated from this file by ``docs/_scripts/make_diagrams.py``).

The rules:

* A module may import modules of its own layer (see below for the core)
  and of any layer *below* it, never above.  Packages on the same row are
  independent: neither imports the other.
* The core is ordered: a core module may import only the core modules
  listed before it in :data:`CORE_ORDER`, so the core cannot have an
  import loop.  A tuple in the order is one rank of modules side by side
  (the phases of a hand): they share a number and never import each other.
* ``deepsix/__init__.py`` is the facade: it re-exports the core and names
  the upper layers' public names, which it imports only when first used.
"""

from __future__ import annotations

from typing import Final, NamedTuple

__all__ = ["CORE_MODULES", "CORE_ORDER", "CORE_RANK", "FACADE", "LAYERS", "Layer"]


class Layer(NamedTuple):
    """One row of the diagram: its packages (independent of each other) and what they are."""

    name: str
    packages: tuple[str, ...]
    purpose: str


LAYERS: Final = (
    Layer(
        "applications",
        ("deepsix.cli", "deepsix.web", "deepsix.adapters"),
        "programs built on the library: the terminal game, the web table, "
        "the OpenSpiel and PettingZoo adapters",
    ),
    Layer(
        "plots",
        ("deepsix.plot",),
        "matplotlib plots of games, matches, pools and analyses",
    ),
    Layer("search", ("deepsix.search",), "the double-dummy solver and the search bot"),
    Layer(
        "matches",
        ("deepsix.arena",),
        "bots as programs (the external bot protocol) and duplicate matches between bots",
    ),
    Layer(
        "play and I/O",
        ("deepsix.play", "deepsix.io"),
        "bots, the game loop and the simulator; notation, records, JSON and transcripts",
    ),
    Layer(
        "pictures",
        ("deepsix.svg",),
        "SVG pictures of a table, a hand, a trick, melds and the score sheet",
    ),
    Layer(
        "core",
        ("deepsix",),
        "the rules: cards, actions, the state and the engine, and what is derived from them",
    ),
)
"""The layers from the top down; ``deepsix`` (the core) is every top-level module."""

CORE_ORDER: Final[tuple[str | tuple[str, ...], ...]] = (
    "deepsix._version",
    "deepsix.compiled",
    "deepsix.errors",
    "deepsix.typecheck",
    "deepsix.display",
    "deepsix.cards",
    "deepsix.rules",
    "deepsix.rulebook",
    "deepsix.hands",
    "deepsix.melds",
    "deepsix.actions",
    "deepsix.tricks",
    "deepsix.scoring",
    "deepsix.table",
    "deepsix.handsetup",
    "deepsix.visibility",
    "deepsix.history",
    "deepsix.state",
    "deepsix.legal",
    "deepsix.phases",
    (
        "deepsix.phases.deal",
        "deepsix.phases.auction",
        "deepsix.phases.contract",
        "deepsix.phases.passing",
        "deepsix.phases.melding",
        "deepsix.phases.play",
    ),
    "deepsix.diagnosis",
    "deepsix.engine",
    "deepsix.events",
    "deepsix.rebuild",
    "deepsix.views",
    "deepsix.validation",
    "deepsix.allocation",
    "deepsix.sampling",
)
"""The core modules by rank, each importing only modules of a lower rank."""

CORE_RANK: Final = {
    name: rank
    for rank, entry in enumerate(CORE_ORDER)
    for name in ((entry,) if isinstance(entry, str) else entry)
}
"""Each core module's rank in :data:`CORE_ORDER` (side-by-side modules share one)."""

CORE_MODULES: Final = tuple(CORE_RANK)
"""Every core module, in order."""

FACADE: Final = ("deepsix", "deepsix.__main__")
"""The package itself and ``python -m deepsix``: they may name anything."""
