"""Attention probe: naive softmax(QK^T)V, SDPA's backends and a Triton fused kernel, swept over sequence length."""
