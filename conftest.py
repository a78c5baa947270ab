"""Collection rules for the whole repository (the test configuration is in tests/conftest.py).

The adapter modules import optional frameworks; pytest's ``--doctest-modules``
imports every module under ``src``, so an adapter whose framework is not
installed is left out of collection -- unless ``DEEPSIX_REQUIRE_ADAPTERS`` is
set (as ``nox -s tests`` does), in which case the import error shows.
"""

from __future__ import annotations

import importlib.util
import os

_REQUIRED = os.environ.get("DEEPSIX_REQUIRE_ADAPTERS", "") not in ("", "0")
_FRAMEWORKS = {
    "src/deepsix/adapters/_encoding.py": ("numpy",),
    "src/deepsix/adapters/openspiel.py": ("numpy", "pyspiel"),
    "src/deepsix/adapters/pettingzoo.py": ("numpy", "gymnasium", "pettingzoo"),
}

collect_ignore = [
    path
    for path, modules in _FRAMEWORKS.items()
    if not _REQUIRED and any(importlib.util.find_spec(name) is None for name in modules)
]
