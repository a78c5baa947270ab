"""Load the documentation's example scripts (``docs/adapters/examples``) as modules."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

__all__ = ["EXAMPLES", "example"]

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "adapters" / "examples"


def example(name: str) -> ModuleType:
    """The example ``docs/adapters/examples/<name>.py``, imported."""
    qualified = f"deepsix_docs_examples.{name}"
    if qualified in sys.modules:
        return sys.modules[qualified]
    spec = importlib.util.spec_from_file_location(qualified, EXAMPLES / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[qualified] = module
    spec.loader.exec_module(module)
    return module
