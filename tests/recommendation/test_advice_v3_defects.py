"""Regression tests for the ten defects issue 28 found in engine v2, each on the kind of profile it was seen on.

Each test states the defect; the expectations follow the vendors' own pages (cited beside each test).
"""

from __future__ import annotations

import pytest
import yaml

from advisor.knowledge.loader import load_knowledge_base
from advisor.profile import LLM_MODEL_TYPES, parse_profile
from advisor.recommendation.engine import recommend
from advisor.recommendation.models import Recommendation


def answer(**fields: object) -> Recommendation:
    profile = {"workload": "inference", "team_skill": "framework", **fields}
    return recommend(parse_profile(yaml.safe_dump(profile)), [], load_knowledge_base())


def tier1(recommendation: Recommendation) -> dict[str, str]:
    return recommendation.tier(1).options()


def all_text(recommendation: Recommendation) -> str:
    parts = [recommendation.verdict or ""]
    for tier in recommendation.tiers:
        parts += [note.text for note in tier.notes]
        for choice in tier.choices:
            parts += [*choice.settings.values(), *(reason.text for reason in choice.rationale)]
    parts += [reason.text for rejection in recommendation.rejected for reason in rejection.reasons]
    parts += [condition.description for condition in recommendation.switch_conditions]
    return " ".join(parts)


def test_1_trtllm_serves_with_its_own_attention_kernels():
    # TensorRT-LLM's deployment guide: attention_backend TRTLLM is the default
    # (https://nvidia.github.io/TensorRT-LLM/1.2.0rc2.post2/deployment-guide/deployment-guide-for-llama3.3-70b-on-trtllm.html)
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h200-sxm",
        needs={"quantization": "fp8", "devices": 8},
    )
    chosen = tier1(result)
    assert chosen["deployment"] == "tensorrt-llm"
    attention = next(c for c in result.tier(1).choices if c.concern == "attention")
    assert attention.option == "tensorrt-llm" and "TensorRT-LLM attention" in attention.settings["part"]


def test_2_cudnn_attention_is_not_ruled_out_for_long_context_unmeasured():
    # Transformer Engine prefers cuDNN fused attention on Hopper and newer (TE attention guide)
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="training",
        needs={"long_context": True, "devices": 16},
    )
    assert "cudnn" not in {rejection.option for rejection in result.rejected}


def test_3_kernels_inside_a_serving_engine_need_no_kernel_skill():
    # vLLM JAX calls its Pallas ragged paged attention itself (https://docs.vllm.ai/projects/vllm-jax/en/latest/)
    result = answer(model_type="dense-transformer", hardware="google-tpu", device="tpu-v6e", needs={"devices": 8})
    attention = next(c for c in result.tier(1).choices if c.concern == "attention")
    assert attention.option == "pallas" and attention.fits_team
    assert "pallas" not in {rejection.option for rejection in result.rejected}


def test_4_mi300x_fp8_is_quantized_with_quark_not_torchao():
    # AMD's vLLM V1 guide for MI300X serves Quark FP8 checkpoints
    # (https://rocm.docs.amd.com/projects/ai-ecosystem/en/latest/optimization/vllm-v1-optimization.html)
    result = answer(
        model_type="dense-transformer", hardware="amd-gpu", device="mi300x", needs={"quantization": "fp8", "devices": 8}
    )
    assert tier1(result)["quantization"] != "torchao"
    assert "quark" in all_text(result).lower() or tier1(result)["quantization"] == "quark"


def test_5_workload_both_gets_two_stacks_and_no_junk_rejections():
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="both",
        needs={"quantization": "fp8", "devices": 16},
    )
    assert [stack.workload for stack in result.stacks] == ["inference", "training"]
    chosen = {(c.option, c.concern) for tier in result.tiers for c in tier.choices}
    rejected = {(r.option, concern) for r in result.rejected for concern in r.concerns}
    assert not chosen & rejected
    assert "does not run training" not in all_text(result)


@pytest.mark.parametrize("hardware, device", [("ascend-npu", "ascend-910b")])
def test_6_diffusion_training_on_many_devices_gets_a_training_framework(hardware, device):
    # MindSpeed-MM documents SD3.5 and FLUX fine-tuning on Ascend (https://gitcode.com/Ascend/MindSpeed-MM)
    result = answer(model_type="diffusion", hardware=hardware, device=device, workload="training", needs={"devices": 8})
    assert tier1(result).get("training-framework") == "mindspeed"


def test_7_a_graph_runtime_brings_its_own_kernels():
    # Core ML runs the converted model on its own kernels (https://github.com/apple/ml-stable-diffusion);
    # ONNX Runtime's CPU provider runs its own quantized kernels
    # (https://onnxruntime.ai/docs/performance/model-optimizations/quantization.html)
    apple = answer(
        model_type="diffusion",
        hardware="apple-silicon",
        device="apple-m2",
        model="stabilityai/stable-diffusion-xl-base-1.0",
    )
    assert tier1(apple)["deployment"] == "coreml" and "mlx" not in tier1(apple).values()
    cpu = answer(model_type="cnn", hardware="x86-cpu", needs={"quantization": "int8"})
    if tier1(cpu)["deployment"] == "onnxruntime":
        assert tier1(cpu).get("gemm", "onnxruntime") == "onnxruntime"
    assert tier1(cpu)["deployment"] in ("onnxruntime", "openvino")


def test_8_the_gemm_runs_the_precision_asked_where_the_device_has_it():
    result = answer(model_type="cnn", hardware="nvidia-gpu", device="l40s", needs={"quantization": "int8"})
    gemm = next((c for c in result.tier(1).choices if c.concern == "gemm"), None)
    if gemm is not None:
        assert gemm.settings.get("dtype") == "int8"
    no_fp8 = answer(model_type="dense-transformer", hardware="x86-cpu", needs={"quantization": "fp8"})
    gemm = next(c for c in no_fp8.tier(1).choices if c.concern == "gemm")
    assert gemm.settings.get("dtype") != "fp8"


@pytest.mark.parametrize(
    "hardware, device, foreign",
    [
        ("arm-cpu", "graviton4", "AVX"),
        ("google-tpu", "tpu-v6e", "CUDA graph"),
        ("aws-neuron", "trn2", "CUDA graph"),
        ("intel-gaudi", "gaudi3", "CUDA graph"),
        ("intel-gaudi", "gaudi3", "NVIDIA"),
    ],
)
def test_9_advice_speaks_only_of_the_profiles_platforms(hardware, device, foreign):
    result = answer(
        model_type="dense-transformer",
        hardware=hardware,
        device=device,
        needs={"quantization": "int8" if hardware == "arm-cpu" else "fp8", "dynamic_shapes": True},
    )
    assert foreign not in all_text(result)  # the vendor's name as written ('nvidia-gpu' may be named in tier 3)


@pytest.mark.parametrize(
    "hardware, older, newer",
    [("nvidia-gpu", "h200-sxm", "b200"), ("amd-gpu", "mi300x", "mi355x"), ("aws-neuron", "inf2", "trn2")],
)
def test_10_the_device_generation_changes_the_stack(hardware, older, newer):
    stacks = {}
    for device in (older, newer):
        result = answer(
            model_type="dense-transformer",
            hardware=hardware,
            device=device,
            needs={"quantization": "fp8" if hardware != "aws-neuron" else "none", "devices": 8},
        )
        assert result.device == device and not result.device_assumed
        stacks[device] = [stack.stack for stack in result.stacks]
    assert stacks[older] != stacks[newer]


def test_10_hygon_serves_llms_with_vllm_on_dtk():
    result = answer(model_type="dense-transformer", hardware="hygon-dcu", device="k100-ai")
    assert tier1(result)["deployment"] == "vllm"


def test_no_device_named_assumes_the_current_generation_and_says_so():
    result = answer(model_type="dense-transformer", hardware="nvidia-gpu")
    platform = load_knowledge_base().platform("nvidia-gpu")
    assert result.device == platform.default_device.value and result.device_assumed
    assert "assumed" in (result.verdict or "")


def test_every_record_considers_at_least_two_stacks_where_two_exist():
    knowledge = load_knowledge_base()
    for platform in knowledge.platforms:
        result = answer(model_type="dense-transformer", hardware=platform.id)
        applicable = [  # an embedding-only stack is no option for a model that generates text, nor a CNN or
            s  # diffusion page for a language model
            for s in knowledge.stacks_for(platform.id)
            if "inference" in s.applies_to.workloads
            and s.serves_task("generation")
            and set(s.applies_to.model_types) & set(LLM_MODEL_TYPES)
        ]
        others = [option for option in result.stacks_considered if not option.chosen]
        assert len(others) >= min(2, len(applicable) - len(result.stacks)), platform.id
        assert len(others) <= 5
