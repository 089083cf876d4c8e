"""GEMM probe: square and LLM-shaped matmuls by torch.matmul, Triton and torch.compile, in fp32/fp16/bf16/fp8."""
