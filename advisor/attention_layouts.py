"""Models whose layers mix linear attention with full attention, told apart by their Hugging Face ids: only their
full-attention layers grow a KV cache with the sequence; the linear-attention layers keep a fixed recurrent state per
sequence. A memory check that leaves room "for the KV cache" says so for them."""

from __future__ import annotations

import re

# Qwen3.5 puts full attention in every fourth layer and Gated DeltaNet linear attention in the others
# (https://docs.sglang.io/docs/hardware-platforms/ascend-npus/model-deployment/tutorials/qwen3_5_397b); Qwen3-Next
# combines Gated DeltaNet with Gated Attention the same way (https://huggingface.co/Qwen/Qwen3-Next-80B-A3B-Instruct).
# Read 2026-12-06.
HYBRID_ATTENTION_PATTERNS = (
    re.compile(r"^(Qwen|amd|nvidia)/Qwen3\.[5-9]-", re.IGNORECASE),
    re.compile(r"^Qwen/Qwen3-Next-", re.IGNORECASE),
)


def hybrid_attention(model: str | None) -> bool:
    """The id names a model family that mixes Gated DeltaNet linear attention with full-attention layers."""
    return model is not None and any(pattern.search(model.strip()) for pattern in HYBRID_ATTENTION_PATTERNS)


# Llama 3.2 Vision adds cross-attention layers that read the image encoder's output to a Llama 3.1 text model
# (https://huggingface.co/meta-llama/Llama-3.2-11B-Vision-Instruct, "a separately trained vision adapter ... a series of
# cross-attention layers"; Transformers' MllamaForConditionalGeneration). Read 2026-12-07.
CROSS_ATTENTION_VISION_PATTERNS = (re.compile(r"^meta-llama/Llama-3\.2-(11|90)B-Vision", re.IGNORECASE),)


def cross_attention_vision(model: str | None) -> bool:
    """The id names a vision-language model whose text layers attend to the image through cross-attention layers (an
    encoder-decoder layout), not through image tokens in the sequence."""
    return model is not None and any(pattern.search(model.strip()) for pattern in CROSS_ATTENTION_VISION_PATTERNS)
