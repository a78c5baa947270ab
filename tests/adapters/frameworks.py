"""Import an optional framework, or skip the test module with a visible reason.

The adapters' tests need their extras (``pip install "deepsix[openspiel]"``,
``"deepsix[pettingzoo]"``).  Without them a module is skipped, and ``-ra``
prints why.  CI must never skip them quietly: ``nox -s tests`` installs the
extras and sets ``DEEPSIX_REQUIRE_ADAPTERS=1``, under which a missing
framework is an error instead of a skip.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest

__all__ = ["REQUIRED", "require"]

REQUIRED = os.environ.get("DEEPSIX_REQUIRE_ADAPTERS", "") not in ("", "0")
"""Whether a missing framework fails the run (set by ``nox -s tests``)."""


def require(module: str, extra: str) -> ModuleType:
    """``importlib.import_module(module)``, or skip the calling test module."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        if REQUIRED:
            raise ImportError(
                f"{module} is required here (DEEPSIX_REQUIRE_ADAPTERS is set): "
                f'pip install "deepsix[{extra}]"'
            ) from error
        pytest.skip(
            f'{module} is not installed: pip install "deepsix[{extra}]" to run these tests',
            allow_module_level=True,
        )
