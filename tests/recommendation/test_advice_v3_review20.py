"""Review 20's defects, each pinned: the 8-bit ask a device cannot run is served in the other 8-bit format it runs,
the memory check counts the format actually served and speaks of a KV cache only for LLMs, and MLA is said only of a
model that has it."""

from __future__ import annotations

from recommendation_builders import answer_for as answer

from advisor.recommendation.models import Recommendation


def serving(result: Recommendation) -> str:
    return next(reason.text for reason in result.capacity if reason.text.startswith("capacity:"))


def test_fp8_asked_on_a_910b_is_served_as_w8a8_int8_and_sized_so():
    # The Atlas A2 (910B) runs no FP8 (Huawei's spec lists fp16, bf16, int8); vLLM Ascend's W8A8 guide and MindIE
    # serve Qwen2.5 in W8A8 INT8 (https://docs.vllm.ai/projects/ascend/en/latest/user_guide/feature_guide/quantization.html).
    result = answer(
        model_type="dense-transformer",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="inference",
        model="Qwen/Qwen2.5-72B-Instruct",
        needs={"quantization": "fp8", "devices": 8},
    )
    assert result.profile.needs.quantization == "fp8"  # the record keeps what was asked
    gemm = next(c for c in result.tier(1).choices if c.concern == "gemm")
    assert gemm.settings["dtype"] == "int8"
    assert next(c for c in result.tier(1).choices if c.concern == "quantization").option == "msmodelslim"
    said = result.capacity[0].text
    assert said.startswith("fp8 asked, and the Huawei Ascend 910B") and "the plan serves int8" in said
    assert "72 GB in int8" in serving(result)
    texts = [o.reason for o in result.stacks_considered] + [r.text for c in result.tier(1).choices for r in c.rationale]
    assert not any("the profile asks int8" in text for text in texts)


def test_a_float_fallback_is_sized_in_the_float_format_served():
    # INT8 asked on the family's current Trainium, where no stack documents an int8 (or same-width fp8) route for it:
    # the chosen stack serves bf16, so 70B weights take 140 GB, not the 70 GB int8 would.
    result = answer(
        model_type="dense-transformer",
        hardware="aws-neuron",
        workload="inference",
        parameters_b=70,
        model="Qwen/Qwen3-32B",  # the Llama 3 FP8 recipe (AWS) is written for Llama only
        needs={"quantization": "int8", "devices": 8},
    )
    text = serving(result)
    assert "140 GB in bf16" in text and "int8 was asked" in text


def test_mla_is_not_said_of_a_gqa_model_served_on_an_engine_with_an_mla_backend():
    # Llama 3.3 70B uses grouped-query attention (its model card); AITER offers FA and MLA backends beside each other.
    result = answer(
        model_type="dense-transformer",
        hardware="amd-gpu",
        device="mi300x",
        workload="inference",
        model="meta-llama/Llama-3.3-70B-Instruct",
        needs={"quantization": "fp8", "devices": 8},
    )
    assert "MLA" not in serving(result)


def test_mla_is_said_of_deepseek_under_tensor_parallelism():
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="h200-sxm",
        workload="inference",
        model="deepseek-ai/DeepSeek-V3",
        parameters_b=671,
        needs={"quantization": "fp8", "devices": 8},
    )
    assert "with MLA attention" in serving(result)


def test_a_diffusion_model_has_no_kv_cache_in_its_memory_line():
    # FLUX.1-dev is a 12B diffusion transformer: no KV cache, no decode step.
    result = answer(
        model_type="diffusion",
        hardware="nvidia-gpu",
        device="l40s",
        workload="inference",
        model="black-forest-labs/FLUX.1-dev",
        parameters_b=12,
        needs={"quantization": "fp8"},
    )
    text = serving(result)
    assert "12 GB in fp8" in text and "KV cache" not in text and "activations" in text


def test_llm_reference_figures_neither_appear_nor_raise_confidence_for_a_diffusion_model():
    # aiconfigurator's tables time LLM layers, a KV cache and decode steps: none of them is a FLUX transformer's.
    result = answer(
        model_type="diffusion",
        hardware="nvidia-gpu",
        device="h200-sxm",
        workload="inference",
        needs={"quantization": "fp8", "long_context": True},
    )
    assert result.reference == ()
    assert not any("NVIDIA's own measurements" in note for note in result.confidence_notes)


def test_a_deprecated_workflow_is_considered_but_not_chosen_where_another_stack_fits():
    result = answer(
        model_type="diffusion",
        hardware="nvidia-gpu",
        device="l40s",
        workload="inference",
        model="black-forest-labs/FLUX.1-dev",
        needs={"quantization": "fp8"},
    )
    options = {option.stack: option for option in result.stacks_considered}
    # Review 51 p03: NVIDIA's FLUX.1-dev NIM (FP8 TensorRT engines on the L40S) serves where demoDiffusion is a demo.
    assert options["nvidia-nim-flux1-dev"].chosen and not options["nvidia-tensorrt-demodiffusion-flux"].chosen
    deprecated = options["nvidia-tensorrt-diffusion-int8-fp8"]
    assert not deprecated.chosen and deprecated.reason.startswith("deprecated on its own page: Model Optimizer 0.48.0")


def test_int8_qat_training_runs_float_gemms_on_the_documented_float_training_stack():
    # QAT trains with fake quantization in a float format; INT8 GEMMs run only in the exported model. Iluvatar documents
    # ResNet-50 training on the Tiangai 150 in FP32/AMP (DeepSparkHub), which a CNN QAT job takes as its training stack.
    result = answer(
        model_type="cnn",
        hardware="iluvatar-gpu",
        device="tiangai-150",
        workload="training",
        needs={"quantization": "int8", "quantization_method": "qat", "devices": 8},
    )
    chosen = next(option for option in result.stacks_considered if option.chosen)
    assert chosen.stack == "iluvatar-pytorch-resnet50-training"
    gemm = next(c for c in result.tier(1).choices if c.concern == "gemm")
    assert gemm.settings["dtype"] in ("fp16", "fp32")
    assert any("fake quantization" in reason.text for reason in gemm.rationale)


def test_apples_own_mlx_serves_an_llm_on_a_mac_before_llama_cpp():
    # MLX is Apple's own framework (https://opensource.apple.com/projects/mlx); llama.cpp's Metal backend stays the
    # considered alternative, with a throughput race as its switch.
    result = answer(
        model_type="dense-transformer",
        hardware="apple-silicon",
        device="apple-m4",
        workload="inference",
        model="Qwen/Qwen3-8B",
        needs={"quantization": "int8"},
    )
    options = {option.stack: option for option in result.stacks_considered}
    assert options["apple-mlx-lm-inference"].chosen and not options["apple-llama-cpp-metal"].chosen


def test_a_dense_model_gets_no_moe_risk_and_a_cnn_no_layernorm_risk():
    dense = answer(
        model_type="dense-transformer",
        hardware="amd-gpu",
        device="mi300x",
        workload="inference",
        needs={"quantization": "fp8", "devices": 8},
    )
    assert dense.stacks and not any("MoE" in risk.text for stack in dense.stacks for risk in stack.risks)
    cnn = answer(
        model_type="cnn", hardware="arm-cpu", device="graviton4", workload="inference", needs={"quantization": "int8"}
    )
    texts = [reason.text for tier in cnn.tiers for choice in tier.choices for reason in choice.rationale]
    assert texts and not any("LayerNorm" in text for text in texts)
