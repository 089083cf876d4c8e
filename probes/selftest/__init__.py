"""The CPU self-test probe: exercises the registry and the harness in every test run."""
