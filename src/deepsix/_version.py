"""The package version (semantic versioning)."""

__version__ = "0.2.0.dev0"
