"""``python -m deepsix.web``: the same as ``deepsix serve``."""

import sys

from deepsix.web.command import main

sys.exit(main())
