"""Hardware platform data files (one YAML file per hardware family)."""
