"""The package version (advisor and probes ship together), in a module of its own at the bottom of probes/, so that
machine detection records it without importing advisor, and the CLI reads it without importing the library."""

__version__ = "0.1.0"
