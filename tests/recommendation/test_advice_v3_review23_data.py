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
    # (https://huggingface.co/docs/optimum-intel/openvino/optimization). OVMS's rerank export runs --weight-format int8
    # (https://github.com/openvinotoolkit/model_server/blob/main/demos/common/export_models/export_model.py).
    result = answer(
        model_type="dense-transformer",
        hardware="x86-cpu",
        device="xeon-6-granite-rapids",
        workload="inference",
        model="BAAI/bge-reranker-v2-m3",
        task="embedding",
        needs={"quantization": "int8", "devices": 1},
    )
    assert result.stacks[0].stack == "x86-openvino-ovms-rerank"
    gemm = next(c for c in result.tier(1).choices if c.concern == "gemm")
    assert gemm.settings.get("weights") == "int8" and "dtype" not in gemm.settings
    assert not any("int8 GEMMs" in reason.text for reason in gemm.rationale)


def test_an_int8_embedding_model_on_an_amx_xeon_is_quantized_whole_not_weight_only():
    # Reviews 220 p08, 221 p10, 222 p08: an INT8 ask on an AMX Xeon got export_model.py's weight-only compression as
    # tier 1, the W8A8 route only in a watch line. Optimum Intel's full quantization quantizes weights and activations
    # for feature-extraction models (optimum-cli export openvino --quant-mode int8 --dataset wikitext2,
    # https://github.com/huggingface/optimum-intel/blob/5b2aed90829794cb8a7e53d45bffed86145fb2ce/docs/source/openvino/optimization.mdx#full-quantization),
    # and export_model.py keeps a model folder that already exists, writing only the graph and config.
    result = answer(
        model_type="dense-transformer",
        hardware="x86-cpu",
        device="xeon-6-granite-rapids",
        workload="inference",
        model="BAAI/bge-large-en-v1.5",
        needs={"quantization": "int8", "devices": 1},
    )
    assert result.stacks[0].stack == "x86-openvino-ovms-embeddings"
    gemm = next(c for c in result.tier(1).choices if c.concern == "gemm")
    assert gemm.settings.get("dtype") == "int8" and "weights" not in gemm.settings
    quantization = next(c for c in result.tier(1).choices if c.concern == "quantization")
    documented = quantization.settings["as documented"]
    assert documented.startswith("int8 as INT8 compute") and "--quant-mode int8 --dataset wikitext2" in documented
    assert documented.index("--quant-mode int8") < documented.index("export_model.py embeddings_ov")


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
