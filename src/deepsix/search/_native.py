"""The bridge to the native (C++) search kernel, the optional package ``deepsix-native``.

deepsix installs and runs without it (the search is then :mod:`deepsix.search._core`,
pure Python or mypyc-compiled); with it installed (``pip install ./native`` from the
repository, or ``nox -s native``), :mod:`deepsix.search.solver` can run the same search in
C++.  :data:`AVAILABLE` says whether it loaded.  The kernel checks every position it is
handed and answers a bad one with ``ValueError``, which the solver turns into
:class:`~deepsix.search.solver.SearchError`.
"""

from __future__ import annotations

import importlib
from typing import Any, Final

from deepsix.errors import ParseError
from deepsix.rules import PlayOver
from deepsix.state import GameState

__all__ = ["AVAILABLE", "FLAGS", "Kernel", "arguments", "available", "flags", "kernel"]

Kernel = Any
"""The extension module ``deepsix_native._kernel`` (it ships no type information)."""


def _load() -> Kernel | None:
    try:
        return importlib.import_module("deepsix_native._kernel")
    except ImportError:
        return None


_KERNEL: Final = _load()
AVAILABLE: Final = _KERNEL is not None
"""Whether the native kernel is installed and loads."""
FLAGS: Final[tuple[str, ...]] = (
    "table", "squeeze", "runs", "merge", "order", "killers", "bounds", "guess", "two", "deepen",
    "etc",
)  # fmt: skip
"""The kernel's techniques, one bit each in this order (each can be switched off)."""


def available() -> bool:
    """Whether the native kernel is installed and loads (:data:`AVAILABLE`, read when called)."""
    return AVAILABLE


def kernel() -> Kernel:
    """The loaded kernel module (only called when :data:`AVAILABLE`)."""
    assert _KERNEL is not None
    return _KERNEL


def flags(**off: bool) -> int:
    """The kernel's flags with the techniques named ``name=False`` switched off."""
    value = (1 << len(FLAGS)) - 1
    for name, on in off.items():
        if name not in FLAGS:
            raise ParseError(f"no technique {name!r}; the kernel's are {', '.join(FLAGS)}")
        if not on:
            value &= ~(1 << FLAGS.index(name))
    return value


def arguments(state: GameState) -> tuple[list[int], list[int], int, int, int]:
    """A play-phase state as the kernel's position: hands, trick, leader, sunk suit, rule."""
    sunk = state.setup.sunk_suit
    assert sunk is not None
    assert state.to_act is not None
    leader = int(state.trick[0][0]) if state.trick else int(state.to_act)
    rule = 0 if state.rules.play_over is PlayOver.WIN_TRICK else 1
    return (
        [int(hand) for hand in state.packed_hands],
        [int(card) for _, card in state.trick],
        leader,
        int(sunk),
        rule,
    )
