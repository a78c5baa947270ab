"""``python -m deepsix.schemas --schema [DIR] [--check]``: write, print or check the schemas."""

from deepsix.serialization import main

raise SystemExit(main())
