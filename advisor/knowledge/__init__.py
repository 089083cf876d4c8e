"""Knowledge of candidate operator stacks: one pydantic-validated YAML file per candidate, each claim sourced."""
