"""Shared test configuration: hypothesis profiles.

* ``ci`` (default): a cheap profile for every run.
* ``deep``: many more examples, for ``nox -s verify``.
* ``crosshair``: the CrossHair symbolic backend (``nox -s crosshair``).
"""

from __future__ import annotations

import importlib.util
import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "deep", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
# The symbolic backend exists only where hypothesis-crosshair is installed (its own nox session).
if importlib.util.find_spec("hypothesis_crosshair_provider") is not None:
    settings.register_profile("crosshair", backend="crosshair", deadline=None, database=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
