"""Files advisor reads and writes: bounded reads of user files, strict YAML, atomic writes, and where it may write."""
