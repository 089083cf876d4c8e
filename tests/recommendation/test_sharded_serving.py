"""Review 49 (p09, p12): a served model that is not an LLM is taken as a copy per device only where the chosen stack
does not split each copy over its devices (`sharded_serving`), and a reranker OVMS tests is served on /v3/rerank."""

from __future__ import annotations

from recommendation_builders import answer_for as answer

from advisor.knowledge.loader import load_knowledge_base
from advisor.profile import parse_profile
from advisor.recommendation.capacity import sharded_copy

WAN = {
    "model_type": "diffusion",
    "hardware": "google-tpu",
    "device": "tpu-v6e",
    "workload": "inference",
    "team_skill": "kernel",
    "model": "Wan-AI/Wan2.1-T2V-14B",
}


def _capacity(result) -> tuple[str, set[str]]:
    found = next(line for line in result.capacity if line.text.startswith("capacity:"))
    return found.text, {cite.ref for cite in found.cites}


def test_a_stack_that_shards_a_diffusion_model_is_not_read_as_a_copy_per_chip():
    # Google's Trillium recipe (tpu-recipes inference/trillium/MaxDiffusion/Wan2.x) runs Wan 2.1 14B on a v6e-8 with
    # ici_context_parallelism=4, and base_wan_14b.yml shards the transformer's embed axis over the context axis.
    result = answer(**WAN, needs={"devices": 8})
    assert result.stacks[0].stack == "tpu-maxdiffusion-wan-v6e"
    text, refs = _capacity(result)
    assert "its own copy (data parallel)" not in text and "which every copy holds too" not in text
    assert "does not give each device its own copy" in text and "ici_context_parallelism=4" in text
    assert "tpu-maxdiffusion-wan-v6e.sharded_serving" in refs
    # its chips exchange weights and activations: the collectives are decided, not skipped as for replicas
    assert result.tier(1).options().get("collectives") == "xla"
    assert all(skipped.concern != "collectives" for skipped in result.skipped_concerns)


def test_a_stack_without_sharded_serving_keeps_the_copy_per_device():
    # MaxDiffusion's FLUX recipe replicates the model per chip by default (README #flux): unchanged.
    result = answer(
        model_type="diffusion",
        hardware="google-tpu",
        device="tpu-v6e",
        workload="inference",
        model="black-forest-labs/FLUX.1-dev",
        parameters_b=12,
        needs={"devices": 4},
    )
    assert result.stacks[0].stack == "tpu-maxdiffusion-flux-v6e"
    text, refs = _capacity(result)
    assert "its own copy (data parallel)" in text
    assert not any(ref.endswith(".sharded_serving") for ref in refs)
    assert any(skipped.concern == "collectives" for skipped in result.skipped_concerns)


def test_sharded_serving_is_read_only_for_a_model_that_is_not_an_llm_on_several_devices():
    stack = load_knowledge_base().stack("tpu-maxdiffusion-wan-v6e")
    assert stack.sharded_serving is not None
    tpu = "hardware: google-tpu\ndevice: tpu-v6e\nworkload: inference\nteam_skill: framework\n"
    assert sharded_copy(parse_profile(f"model_type: diffusion\n{tpu}needs: {{devices: 8}}\n"), stack)
    assert not sharded_copy(parse_profile(f"model_type: diffusion\n{tpu}needs: {{devices: 1}}\n"), stack)
    assert not sharded_copy(parse_profile(f"model_type: dense-transformer\n{tpu}needs: {{devices: 8}}\n"), stack)
    assert not sharded_copy(parse_profile(f"model_type: diffusion\n{tpu}needs: {{devices: 8}}\n"), None)
    one = answer(**WAN, needs={"devices": 1})
    text, _ = _capacity(one)
    assert "does not give each device its own copy" not in text


def test_a_reranker_that_ovms_tests_is_served_on_the_rerank_endpoint():
    # OVMS's rerank demo (demos/rerank/README.md) lists BAAI/bge-reranker-v2-m3 as tested, exports it with
    # export_model.py rerank_ov and serves it on /v3/rerank; the profile states the embedding task (no rerank task).
    xeon = {"model_type": "dense-transformer", "hardware": "x86-cpu", "device": "xeon-6-granite-rapids"}
    reranker = answer(
        **xeon,
        workload="inference",
        model="BAAI/bge-reranker-v2-m3",
        task="embedding",
        needs={"quantization": "int8", "quantization_method": "ptq"},
    )
    assert reranker.stacks[0].stack == "x86-openvino-ovms-rerank"
    deployment = next(c for c in reranker.tier(1).choices if c.concern == "deployment")
    assert "/v3/rerank" in " ".join(deployment.settings.values())
    embedder = answer(**xeon, workload="inference", model="BAAI/bge-m3", needs={"quantization": "int8"})
    assert embedder.stacks[0].stack == "x86-openvino-ovms-embeddings"
