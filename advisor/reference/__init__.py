"""Reference evidence: operator timings a vendor measured on its own systems, shipped as a small extract.

`tables` reads the extract (standard library only); `extract` is the maintainer script that writes it from an
installed aiconfigurator-core; `grid` lists the shapes kept.
"""
