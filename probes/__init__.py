"""Probes: measure candidate operator implementations on this machine and return `Evidence`.

`probes.harness` times, checks and isolates; each subfolder with a `probe.py` is one probe (see
ADD_PROBE.md). The entry point is `probes.runner.run_probes`.
"""
