"""advisor: choose an ML operator stack from measured evidence, keep each choice as a decision record."""

__version__ = "0.1.0"
