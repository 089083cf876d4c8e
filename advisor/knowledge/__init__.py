"""The knowledge base as data: candidate stacks, hardware platforms and how they fit together, every claim
with a public source and the date it was checked (advisor/data/README.md says how to add to it)."""
