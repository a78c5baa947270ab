"""``python -m deepsix``: the command line (see :mod:`deepsix.cli`)."""

from __future__ import annotations

if __name__ == "__main__":
    from deepsix.cli.app import run

    run()
