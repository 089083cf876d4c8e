"""Multi-process scaling probe: all-reduce bus bandwidth and data-parallel strong scaling, launched by torchrun."""
