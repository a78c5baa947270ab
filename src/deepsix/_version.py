"""The package version (semantic versioning)."""

__version__ = "0.1.0.dev0"
