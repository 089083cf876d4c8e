"""Whole-stack data files (one YAML file per documented stack)."""
