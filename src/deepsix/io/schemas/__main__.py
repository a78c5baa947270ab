"""``python -m deepsix.io.schemas --schema [DIR] [--check]``: write, print or check the schemas."""

from deepsix.io.serialization import main

raise SystemExit(main())
