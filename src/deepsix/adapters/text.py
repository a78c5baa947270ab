"""The adapters' text contract: the position's text (:mod:`deepsix.io.text`).

OpenSpiel's information-state and observation strings, its state string and
PettingZoo's ``render()`` are the library's one text of a position, kept
importable here.
"""

from __future__ import annotations

from deepsix.io.text import printable, state_text, view_text

__all__ = ["printable", "state_text", "view_text"]
