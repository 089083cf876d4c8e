"""Review 39's defects, each pinned: a recipe laid out across nodes for a one-node job, dynamic shapes on an engine
that does not serve the model, and the other engine-level findings of that round."""

from __future__ import annotations

from recommendation_builders import answer_for as answer

from advisor.knowledge.loader import load_knowledge_base
from advisor.recommendation.stack_choice import chosen_stack, judge, target_device
from advisor.recommendation.summary import applying_risks

R1_0528_ON_8_MI355X = {
    "model_type": "moe",
    "hardware": "amd-gpu",
    "device": "mi355x",
    "workload": "inference",
    "team_skill": "hpc",
    "model": "deepseek-ai/DeepSeek-R1-0528",
    "needs": {"quantization": "fp8", "quantization_method": "ptq", "long_context": True, "devices": 8},
}


def test_a_recipe_laid_out_across_nodes_is_a_partial_fit_for_a_one_node_job():
    # The MoRI recipe splits prefill and decode over separate MI355X nodes, tuned at 24 GPUs
    # (https://lmsys.org/blog/2026-05-28-mori/); an 8-GPU job fits one node.
    result = answer(**R1_0528_ON_8_MI355X)
    assert result.stacks[0].stack != "amd-sglang-mori-pd-disagg-mi355x"
    mori = next(o for o in result.stacks_considered if o.stack == "amd-sglang-mori-pd-disagg-mi355x")
    assert "across several nodes only" in mori.reason
    cluster = answer(**{**R1_0528_ON_8_MI355X, "needs": {**R1_0528_ON_8_MI355X["needs"], "devices": 24}})
    assert cluster.stacks[0].stack == "amd-sglang-mori-pd-disagg-mi355x"


def test_no_engine_carries_a_speech_models_shapes_where_none_serves_it():
    # Review 39 p09 read "dynamic-shapes vllm [continuous-batching]" beside "deployment (none)" for Whisper on an
    # Iluvatar card, where no stack then documented a transcription runtime; Hygon's K100-AI still has none.
    whisper = {
        "model_type": "dense-transformer",
        "workload": "inference",
        "model": "openai/whisper-large-v3",
        "task": "transcription",
        "needs": {"dynamic_shapes": True, "devices": 1},
    }
    tier1 = answer(hardware="hygon-dcu", device="k100-ai", **whisper).tiers[0]
    assert any(gap.concern == "deployment" for gap in tier1.gaps)
    shapes = next(g for g in tier1.gaps if g.concern == "dynamic-shapes")
    assert "eager mode" in shapes.rationale[0].text and "pad to fixed shape buckets" not in shapes.rationale[0].text
    # Iluvatar's Whisper recipe (the IXUCA SDK's vLLM on the MR-V100,
    # https://github.com/Deep-Spark/DeepSparkInference/blob/master/models/speech/asr/whisper/vllm/README.md) now
    # documents the runtime: the engine that deploys the model is the one that carries its shapes.
    iluvatar = answer(hardware="iluvatar-gpu", device="tiangai-150", **whisper)
    assert iluvatar.stacks[0].stack == "iluvatar-vllm-whisper-zhikai-100"
    assert not any(gap.concern in ("deployment", "dynamic-shapes") for gap in iluvatar.tiers[0].gaps)


def test_the_recipe_for_the_model_on_a_sibling_device_comes_after_one_on_the_target_and_before_a_generic_stack():
    # Review 39 p01: NVIDIA's Dynamo + TensorRT-LLM recipe for Qwen3-235B-A22B in FP8 runs on B200; the profile's
    # GB200 is the same Blackwell generation. It lost to SGLang's generic expert-parallel page.
    gb200 = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="gb200",
        workload="inference",
        team_skill="kernel",
        model="Qwen/Qwen3-235B-A22B-Instruct-2507",
        needs={"quantization": "fp8", "long_context": True, "devices": 4},
    )
    order = [o.stack for o in gb200.stacks_considered]
    assert order.index("nvidia-dynamo-trtllm-qwen3-235b-fp8") < order.index("nvidia-sglang-moe-ep")
    # and where a recipe for the model is validated on the target itself, it stays first (vLLM's gpt-oss on Hopper,
    # https://github.com/vllm-project/recipes/blob/main/OpenAI/GPT-OSS.md, before TensorRT-LLM's H200 one)
    h100 = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="inference",
        model="openai/gpt-oss-120b",
        needs={"devices": 1},
    )
    assert h100.stacks[0].stack == "nvidia-vllm-gpt-oss-hopper"


FULL_8B = {
    "model_type": "dense-transformer",
    "hardware": "amd-gpu",
    "device": "mi300x",
    "workload": "training",
    "training": "fine-tuning",
    "model": "meta-llama/Llama-3.1-8B-Instruct",
}


def test_fp8_full_fine_tuning_of_70b_on_one_mi300x_node_is_tight_and_says_the_fnuz_encoding():
    # AMD's Primus guide asks for two or more MI300X nodes for a 70B FP8 full fine-tune; CDNA3 runs FP8 in the FNUZ
    # encoding (https://rocm.docs.amd.com/projects/hipBLASLt/en/latest/reference/data-type-support.html)
    result = answer(
        model_type="dense-transformer",
        hardware="amd-gpu",
        device="mi300x",
        workload="training",
        training="fine-tuning",
        team_skill="hpc",
        model="meta-llama/Llama-3.1-70B-Instruct",
        needs={"quantization": "fp8", "devices": 8},
    )
    training = next(reason.text for reason in result.capacity if "full-parameter training" in reason.text)
    assert "leaving only about" in training and "activation checkpointing" in training
    gemm = next(c for c in result.tiers[0].choices if c.concern == "gemm")
    fnuz = next(reason.text for reason in gemm.rationale if "FNUZ FP8 (e4m3fnuz)" in reason.text)
    # Review 42 p04: an OCP FP8 checkpoint still serves on MI300X, since vLLM rewrites it to FNUZ as it loads
    # (normalize_e4m3fn_to_e4m3fnuz); kernels and tuned configs are what must be the GPU's own.
    assert "kernels and their tuned configs must be the GPU's own" in fnuz and "as it loads them" in fnuz
    small = answer(**{**FULL_8B, "needs": {"devices": 8}})
    assert any("the rest is for activations" in reason.text for reason in small.capacity)


def test_a_graph_runtime_serving_a_trained_model_runs_its_own_kernels_and_training_keeps_the_libraries():
    # Review 39 p03: "gemm cublas", "attention cudnn", "fusion torch-compile" beside "deployment TensorRT" for FLUX
    # LoRA training plus FP8 serving: TensorRT builds its own engine
    # (https://github.com/NVIDIA/TensorRT/tree/release/11.0/demo/Diffusion), while training runs in PyTorch.
    result = answer(
        model_type="diffusion",
        hardware="nvidia-gpu",
        device="l40s",
        workload="both",
        training="lora",
        model="black-forest-labs/FLUX.1-dev",
        needs={"quantization": "fp8", "devices": 1},
    )
    # Since reviews 127 and 130 the LoRA is served on Diffusers' torchao FP8 route
    # (https://huggingface.co/docs/diffusers/main/en/quantization/torchao), a PyTorch route: serving's GEMMs are
    # torchao's FP8 matmul, and training's the same layers in bf16, each said apart.
    tier1 = {c.concern: c for c in result.tiers[0].choices}
    assert tier1["deployment"].option == "diffusers"
    assert tier1["gemm"].option == "torchao" and tier1["gemm"].settings.get("dtype") == "fp8"
    assert tier1["gemm"].settings.get("in training") == "bf16"
    assert "train_dreambooth_lora_flux.py" in tier1["fusion"].settings.get("in training", "")


def test_a_lora_job_that_quantizes_only_for_serving_gets_no_qlora_risk_and_lora_collectives():
    # Review 39 p06: LLaMA-Factory's QLoRA bitsandbytes risk and "sharded linear layers (tensor parallel)" were shown for
    # a bf16 LoRA job on eight 910B NPUs that quantizes to INT8 only for serving.
    result = answer(
        model_type="dense-transformer",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="both",
        training="lora",
        model="Qwen/Qwen3-14B",
        needs={"quantization": "int8", "devices": 8},
    )
    # Qwen3 now trains on MindSpeed LLM's own Qwen3 recipe (review 67 p06); LLaMA-Factory's stack, judged for this
    # profile, still keeps its QLoRA risk to itself
    knowledge = load_knowledge_base()
    platform = knowledge.platform("ascend-npu")
    device, _ = target_device(result.profile, platform)
    llamafactory = next(s for s in knowledge.stacks_for("ascend-npu") if s.id == "ascend-llamafactory-sft")
    judged = judge(llamafactory, "training", result.profile, device, platform, knowledge)
    stack = chosen_stack(judged, result.profile)
    shown = [text for _, text in applying_risks(stack, result.profile)]
    assert any("QLoRA" in risk.text for risk in stack.risks) and not any("QLoRA" in risk for risk in shown)
    assert not any("QLoRA" in text for chosen in result.stacks for _, text in applying_risks(chosen, result.profile))
    collectives = next(c for c in result.tiers[0].choices if c.concern == "collectives")
    assert any("adapters' gradient all-reduce" in reason.text for reason in collectives.rationale)


def test_a_lora_job_whose_frozen_model_fits_one_device_is_data_parallel_not_tensor_and_pipeline():
    # Review 39 p02: "data+tensor+pipeline parallelism" for a 7B VLM LoRA on eight H100s; Megatron Bridge's
    # qwen25_vl_7b_peft_config runs it on one GPU
    # (https://github.com/NVIDIA-NeMo/Megatron-Bridge/blob/v0.6.0/src/megatron/bridge/recipes/qwen_vl/h100/qwen25_vl.py).
    def framework_text(model: str) -> str:
        result = answer(
            model_type="multimodal" if "VL" in model else "dense-transformer",
            hardware="nvidia-gpu",
            device="h100-sxm",
            workload="training",
            training="lora",
            model=model,
            needs={"devices": 8},
        )
        choice = next(c for c in result.tiers[0].choices if c.concern == "training-framework")
        return next(r.text for r in choice.rationale if "parallelism comes from" in r.text)

    assert framework_text("Qwen/Qwen2.5-VL-7B-Instruct").startswith("8 devices: data parallelism")
    assert "tensor+pipeline" in framework_text("meta-llama/Llama-3.1-405B")  # 810 GB frozen: no copy per device
