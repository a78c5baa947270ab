"""Deep Six inside the game frameworks researchers use: OpenSpiel and PettingZoo.

Each adapter is an optional extra and a module of its own; importing this
package imports neither framework (nor numpy)::

    pip install "deepsix[openspiel]"     # then: import deepsix.adapters.openspiel
    pip install "deepsix[pettingzoo]"    # then: import deepsix.adapters.pettingzoo

* :mod:`deepsix.adapters.openspiel` registers the game ``python_deep_six``
  with ``pyspiel`` (explicit chance, information-state and observation
  strings and tensors, zero-sum returns).
* :mod:`deepsix.adapters.pettingzoo` is an AEC environment with four agents,
  ``Dict`` observations holding ``observation`` and ``action_mask``.

Both share one integer action encoding and one observation encoding
(:mod:`deepsix.adapters._encoding`), and both are thin: every rule --
legality, transitions, scoring, what each seat may see -- comes from the
engine (:func:`deepsix.apply`, :func:`deepsix.legal_actions`) and from
:func:`deepsix.view`.
"""

from __future__ import annotations

__all__: list[str] = []
