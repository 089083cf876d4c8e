"""Review 23's knowledge-base defects, each pinned: a stack documented by a third party ranks after the vendor's own stack that fits
as well, a weight-only INT8 export claims no INT8 GEMMs, and a Llama 3.1 team is pointed at its own FP8 checkpoint."""

from __future__ import annotations

from recommendation_builders import answer_for as answer

from advisor.knowledge.loader import load_knowledge_base


def test_a_third_party_stack_ranks_after_the_vendors_own_that_fits_as_well():
    # GPUStack's install page and Hygon's inference cookbook both run vLLM on the K100_AI; the cookbook is Hygon's own
    # (https://github.com/HYGON-AI/inference-cookbook-das/blob/main/docs/model-deployment/vllm/qwen2.md).
    result = answer(
        model_type="dense-transformer",
        hardware="hygon-dcu",
        device="k100-ai",
        workload="inference",
        model="Qwen/Qwen2.5-7B-Instruct",
        needs={"devices": 1},
    )
    options = {option.stack: option for option in result.stacks_considered}
    assert options["hygon-vllm-cookbook-k100-ai"].chosen
    third = options["hygon-vllm-gpustack-k100-ai"]
    assert not third.chosen and "its page is a third party's (GPUStack's installation guide" in third.reason


def test_only_the_stack_marked_third_party_carries_the_mark():
    stacks = load_knowledge_base().stacks_for("hygon-dcu")
    marked = {stack.id for stack in stacks if stack.third_party is not None}
    assert "hygon-vllm-gpustack-k100-ai" in marked and "hygon-vllm-cookbook-k100-ai" not in marked


def test_a_weight_only_int8_export_claims_no_int8_gemms():
    # Optimum Intel: --weight-format int8 compresses weights only; full INT8 needs --quant-mode int8 with a dataset
    # (https://huggingface.co/docs/optimum-intel/openvino/optimization).
    result = answer(
        model_type="dense-transformer",
        hardware="x86-cpu",
        device="xeon-6-granite-rapids",
        workload="inference",
        model="BAAI/bge-large-en-v1.5",
        needs={"quantization": "int8", "devices": 1},
    )
    gemm = next(c for c in result.tier(1).choices if c.concern == "gemm")
    assert gemm.settings.get("weights") == "int8" and "dtype" not in gemm.settings
    assert not any("int8 GEMMs" in reason.text for reason in gemm.rationale)
    assert any("--quant-mode int8" in risk.text for stack in result.stacks for risk in stack.risks)


def test_a_llama_31_team_is_pointed_at_its_own_fp8_checkpoint():
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="inference",
        model="meta-llama/Llama-3.1-70B-Instruct",
        needs={"quantization": "fp8", "devices": 4},
    )
    quantization = next(c for c in result.tier(1).choices if c.concern == "quantization")
    assert "nvidia/Llama-3.1-70B-Instruct-FP8" in " ".join(quantization.settings.values())
