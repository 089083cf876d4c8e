"""Fusion: a chain of small elementwise and normalization ops, eager vs torch.compile: time and kernel launches."""
