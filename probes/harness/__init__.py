"""The measurement harness every probe shares: devices, timing, memory, numerics, isolation, progress.

Importing this package is cheap; the modules that need torch import it themselves.
"""
