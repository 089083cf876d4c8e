"""Dynamic-shapes probe: a transformer block fed a stream of varying shapes, eager vs compiled vs bucketed."""
