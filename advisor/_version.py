"""The package version, in a module of its own so the bottom layer can read it without importing the package."""

__version__ = "0.1.0"
