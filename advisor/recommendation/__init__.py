"""From a profile and measured evidence to a tiered operator-stack recommendation (method #tiers).

`recommend(profile, evidence_list)` in `engine.py` is the one entry point; it is pure and deterministic.
"""
