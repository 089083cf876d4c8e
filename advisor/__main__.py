"""`python -m advisor` runs the CLI."""

from advisor.cli import main

main()
