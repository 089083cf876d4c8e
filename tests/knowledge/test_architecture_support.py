"""The engines' architecture-support catalogue (advisor/data/architecture_support.yaml): every entry names a known
engine and family, once, with a public source."""

from __future__ import annotations

from advisor.knowledge.architecture_support import architecture_support, support_for
from advisor.knowledge.loader import load_knowledge_base


def test_every_entry_names_a_candidate_and_a_family_of_the_knowledge_base_once():
    knowledge = load_knowledge_base()
    families = {platform.id for platform in knowledge.platforms}
    seen = set()
    for entry in architecture_support():
        assert entry.engine in knowledge.ids(), entry.engine
        assert entry.family in families, entry.family
        key = (entry.engine, entry.family, entry.architecture)
        assert key not in seen, key
        seen.add(key)
        assert entry.source.startswith("https://")


def test_support_is_read_per_engine_and_family():
    # vllm-neuron's open request (https://github.com/vllm-project/vllm-neuron/issues/51) against vLLM's own recipe
    neuron = support_for("vllm", "aws-neuron", "hybrid-linear-attention")
    nvidia = support_for("vllm", "nvidia-gpu", "hybrid-linear-attention")
    assert neuron is not None and neuron.supported == "no"
    assert nvidia is not None and nvidia.supported == "yes" and nvidia.since == "0.17.0"
    assert support_for(None, "nvidia-gpu", "hybrid-linear-attention") is None
