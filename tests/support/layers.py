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
  import loop.
* ``deepsix/__init__.py`` is the facade: it re-exports the core and names
  the upper layers' public names, which it imports only when first used.
"""

from __future__ import annotations

from typing import Final, NamedTuple

__all__ = ["CORE_ORDER", "FACADE", "LAYERS", "Layer"]


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

CORE_ORDER: Final = (
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
    "deepsix.bidding",
    "deepsix.scoring",
    "deepsix.table",
    "deepsix.handsetup",
    "deepsix.visibility",
    "deepsix.history",
    "deepsix.state",
    "deepsix.legal",
    "deepsix.diagnosis",
    "deepsix.engine",
    "deepsix.events",
    "deepsix.rebuild",
    "deepsix.views",
    "deepsix.validation",
    "deepsix.allocation",
    "deepsix.sampling",
)
"""The core modules, each importing only modules listed before it."""

FACADE: Final = ("deepsix", "deepsix.__main__")
"""The package itself and ``python -m deepsix``: they may name anything."""
