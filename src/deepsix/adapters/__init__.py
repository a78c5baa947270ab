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

Both are thin, and share three public contracts and one configuration
(none of them needs a framework; the observations need numpy):

* :mod:`deepsix.adapters.actions` -- the integer action ids;
* :mod:`deepsix.adapters.observations` -- the observation vectors;
* :mod:`deepsix.adapters.text` -- the observation and state strings;
* :mod:`deepsix.adapters.config` -- the game parameters and their bounds.

Every rule -- legality, transitions, scoring, what each seat may see --
comes from the engine (:func:`deepsix.apply`, :func:`deepsix.legal_actions`)
and from :func:`deepsix.view`.
"""

from __future__ import annotations

__all__: list[str] = []
