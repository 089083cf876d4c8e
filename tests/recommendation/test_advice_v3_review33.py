"""Review 33's defects, each pinned: a job that trains and serves with FP8 by post-training quantization trains in
bf16; tier 3 names each other family's stack in the 8-bit format its device runs (INT8 W8A8 on a 910B, which runs no
FP8) and every family's collectives, the target's too; TorchTitan is not dressed in Transformer Engine."""

from __future__ import annotations

from recommendation_builders import answer_for as answer

SFT_AND_SERVE = {
    "model_type": "dense-transformer",
    "hardware": "nvidia-gpu",
    "device": "h200-sxm",
    "workload": "both",
    "training": "fine-tuning",
    "team_skill": "kernel",
    "model": "Qwen/Qwen3-32B",
    "needs": {
        "quantization": "fp8",
        "quantization_method": "ptq",
        "long_context": True,
        "devices": 8,
        "cross_platform": True,
        "other_hardware": ["amd-gpu", "ascend-npu"],
        "other_devices": ["mi325x", "ascend-910b"],
    },
}


def tier3_text(result) -> str:
    tier = result.tier(3)
    return " ".join([note.text for note in tier.notes] + [why.text for gap in tier.gaps for why in gap.rationale])


def test_post_training_quantization_trains_in_bf16_and_quantizes_the_trained_model():
    # PTQ quantizes a trained model (NVIDIA Model Optimizer's PTQ guide: nvidia.github.io/Model-Optimizer/guides/
    # _pytorch_quantization.html); review 33 p15 asked fp8 by ptq and was told to train in FP8.
    result = answer(**SFT_AND_SERVE)
    assert "bf16" in result.verdict and "train with" in result.verdict
    assert "in fp8;" not in result.verdict.split("train with", 1)[1]
    qat = answer(**{**SFT_AND_SERVE, "needs": {**SFT_AND_SERVE["needs"], "quantization_method": "qat"}})
    assert "fp8" in qat.verdict.split("train with", 1)[1]


def test_tier3_serves_int8_on_a_910b_and_says_it_runs_no_fp8():
    # vllm-ascend's quantization guide serves W8A8 INT8 (msModelSlim or LLM-Compressor) on Atlas A2/A3; the 910B
    # runs no FP8 (docs.vllm.ai/projects/ascend/en/v0.23.0/user_guide/feature_guide/quantization.html).
    text = tier3_text(answer(**SFT_AND_SERVE))
    assert "on ascend-npu, the stack documented there" in text
    assert "vLLM (vllm-ascend) serving dense LLMs with W8A8" in text
    assert "int8 served: the Huawei Ascend 910B (Atlas A2, 64 GB) runs no fp8" in text
    assert "each family gets its own fp8 checkpoint" not in text


def test_a_collectives_gap_names_the_targets_library_too():
    # NCCL on NVIDIA, RCCL on AMD, HCCL on Ascend: review 32 and 33 found the target's NCCL left out. Since LLaMA-Factory
    # has a candidate entry documented on all three families (its README's CUDA, ROCm and NPU installs), tier 3 trains
    # with it, and its collectives choice, not a gap, names each family's library.
    result = answer(**SFT_AND_SERVE)
    tier = result.tier(3)
    text = tier3_text(result) + " ".join(why.text for choice in tier.choices for why in choice.rationale)
    assert "(nvidia-gpu: nccl; amd-gpu: rccl; ascend-npu: hccl)" in text


def test_torchtitan_runs_its_own_float8_layers_not_transformer_engine():
    # TorchTitan's float8 converts linears with torchao (github.com/pytorch/torchtitan/blob/main/docs/float8.md);
    # Megatron Core builds its fused layers from Transformer Engine (Megatron-LM docs/api-guide/core/fusions.md).
    from recommendation_builders import profile, rule_context

    from advisor.recommendation.stack import layers_library

    context = rule_context(profile(workload="training", needs={"devices": 8}))
    assert layers_library(context, "torchtitan") is None
    assert layers_library(context, "megatron-core") == "transformer-engine"
    megatron = answer(
        model_type="moe", hardware="nvidia-gpu", device="h100-sxm", workload="training", needs={"devices": 64}
    )
    framework = next(c for c in megatron.tier(1).choices if c.concern == "training-framework")
    assert framework.option == "megatron-core" and framework.settings.get("layers") == "transformer-engine"


def test_training_on_an_inference_card_is_said_first():
    # CANN's installation guide calls the Atlas 300I Pro/Duo (Ascend 310P) inference cards whose runtime (nnrt) runs
    # offline inference only (hiascend.com/document/detail/zh/canncommercial/80RC1/softwareinst/instg/instg_0010.html);
    # review 33 p05 trained a CNN "on-box" on one and was not told.
    result = answer(
        model_type="cnn",
        hardware="ascend-npu",
        device="ascend-310p",
        workload="both",
        training="fine-tuning",
        parameters_b=0.03,
        needs={"quantization": "int8", "quantization_method": "qat"},
    )
    assert result.verdict.startswith("First, the Huawei Ascend 310P")
    assert "is an inference part" in result.verdict and "train on a training part" in result.verdict
    served = answer(model_type="cnn", hardware="ascend-npu", device="ascend-310p", workload="inference")
    assert "inference part" not in served.verdict


def diffusion_on_tpus(device: str):
    return answer(
        model_type="diffusion",
        hardware="google-tpu",
        device=device,
        workload="inference",
        model="black-forest-labs/FLUX.1-dev",
        parameters_b=12,
        needs={"devices": 4},
    )


def test_a_diffusion_model_is_served_as_a_copy_per_device_only_where_a_copy_fits_one():
    # MaxDiffusion's FLUX README (github.com/AI-Hypercomputer/maxdiffusion#flux) replicates the model per chip by
    # default and shards it with ici_fsdp_parallelism; review 33 p10 checked a copy per chip against pooled memory.
    fits = diffusion_on_tpus("tpu-v6e")  # 32 GB a chip: the 24 GB transformer fits one
    capacity = next(line.text for line in fits.capacity if line.text.startswith("capacity:"))
    assert "within one Google Cloud TPU v6e (Trillium)'s" in capacity and "its own copy" in capacity
    assert not any(c.concern == "collectives" for c in fits.tier(1).choices)
    sharded = diffusion_on_tpus("tpu-v5e")  # 16 GB a chip: it does not
    capacity = next(line.text for line in sharded.capacity if line.text.startswith("capacity:"))
    assert "a copy per device does not fit" in capacity and "sharded across them" in capacity
    assert any(c.concern == "collectives" for c in sharded.tier(1).choices)  # the shards exchange activations


def test_fp8_training_asked_as_qat_relies_on_no_qat_claim():
    # Intel Gaudi's FP8 training runs the GEMMs in FP8 through its Transformer Engine (docs.habana.ai/en/latest/
    # PyTorch/PyTorch_FP8_Training/index.html): no QAT; review 33 p09 was told "synapseai.qat is unknown: probe it".
    result = answer(
        model_type="dense-transformer",
        hardware="intel-gaudi",
        device="gaudi3",
        workload="training",
        training="fine-tuning",
        team_skill="hpc",
        model="meta-llama/Llama-3.1-70B",
        needs={"quantization": "fp8", "quantization_method": "qat", "devices": 8},
    )
    quantization = next(c for c in result.tier(1).choices if c.concern == "quantization")
    assert quantization.settings["method"] == "fp8-training"
    assert not any(".qat is unknown" in note for note in result.confidence_notes)


def test_a_recipe_for_another_model_of_this_type_is_considered_before_a_neighbouring_types_stack():
    # TensorRT-LLM's DeepSeek-R1 deployment guide (nvidia.github.io/TensorRT-LLM/deployment-guide/
    # deployment-guide-for-deepseek-r1-on-trtllm.html) is the TensorRT-LLM option a DeepSeek team asks about; reviews
    # 32 and 34 saw TensorRT-LLM only as "documented for dense-transformer, not moe".
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="b300",
        workload="inference",
        team_skill="hpc",
        model="deepseek-ai/DeepSeek-V3.1",
        needs={"quantization": "fp8", "long_context": True, "devices": 8},
    )
    considered = [option.stack for option in result.stacks_considered]
    assert "nvidia-trtllm-deepseek-r1-fp8-blackwell" in considered
    if "nvidia-trtllm-nvfp4-blackwell" in considered:
        assert considered.index("nvidia-trtllm-deepseek-r1-fp8-blackwell") < considered.index(
            "nvidia-trtllm-nvfp4-blackwell"
        )


def test_fp8_training_of_a_model_whose_recipe_is_bf16_keeps_the_recipe_and_a_training_toolkit():
    # Megatron Bridge documents Wan 14B training in BF16 on H100 (docs.nvidia.com/nemo/megatron-bridge/latest/
    # models/diffusion); FP8 training runs in Transformer Engine or torchao's float8 (github.com/pytorch/ao/tree/main/
    # torchao/float8), not in Model Optimizer, whose training is QAT. Review 34 p15 assembled a stack and named ModelOpt.
    result = answer(
        model_type="diffusion",
        hardware="nvidia-gpu",
        device="gb200",
        workload="training",
        team_skill="hpc",
        training="fine-tuning",
        model="Wan-AI/Wan2.1-T2V-14B",
        parameters_b=14,
        needs={"quantization": "fp8", "quantization_method": "qat", "long_context": True, "devices": 72},
    )
    chosen = next(option for option in result.stacks_considered if option.chosen)
    assert chosen.stack == "nvidia-megatron-bridge-diffusion-h100"
    assert "documents no fp8 training: it trains in bf16" in chosen.reason
    quantization = next(c for c in result.tier(1).choices if c.concern == "quantization")
    assert quantization.option != "modelopt" and quantization.settings["method"] == "fp8-training"


def test_int8_only_as_the_publishers_checkpoints_serves_another_model_in_bf16():
    # Hygon's inference cookbook serves INT8 W8A8 only as Hygon's own checkpoints (github.com/HYGON-AI/
    # inference-cookbook-das); review 35 p08 (GLM-4-9B) was told to serve "in int8" with no checkpoint to do it.
    result = answer(
        model_type="dense-transformer",
        hardware="hygon-dcu",
        device="k100-ai",
        workload="inference",
        model="THUDM/glm-4-9b-chat",
        needs={"quantization": "int8", "devices": 2},
    )
    assert "in int8" not in result.verdict
    gemm = next(c for c in result.tier(1).choices if c.concern == "gemm")
    assert gemm.settings["dtype"] == "bf16"
    gap = next(g for g in result.tier(1).gaps if g.concern == "quantization")
    assert "only as its publisher's checkpoints, none of them of this model" in gap.rationale[0].text


def test_llama_3_3_70b_in_fp8_on_trainium2_takes_the_vllm_neuron_fp8_recipe():
    # AWS's vLLM Neuron Llama 3 recipe serves Llama 3.3 70B on Trn2/Trn3 from static FP8 ModelOpt checkpoints
    # (awsdocs-neuron.readthedocs-hosted.com/en/latest/vllm-neuron/docs/model-recipes/llama-3.html); review 35 p12 was
    # told Trn2 had no FP8 path.
    result = answer(
        model_type="dense-transformer",
        hardware="aws-neuron",
        device="trn2",
        workload="inference",
        team_skill="kernel",
        model="meta-llama/Llama-3.3-70B-Instruct",
        needs={"quantization": "fp8", "devices": 16},
    )
    chosen = next(option for option in result.stacks_considered if option.chosen)
    assert chosen.stack == "neuron-vllm-neuron-llama3-fp8" and chosen.fits
    gemm = next(c for c in result.tier(1).choices if c.concern == "gemm")
    assert gemm.settings["dtype"] == "fp8"


def test_a_lora_job_on_megatron_is_not_told_torchtitan_fits_nor_given_torch_compile_shapes():
    # TorchTitan's Float8 page benchmarks training runs from scratch and names no LoRA recipe (github.com/pytorch/
    # torchtitan/blob/main/docs/float8.md); Megatron Core packs variable-length sequences itself (developer.nvidia.com/
    # blog/speeding-up-variable-length-training-with-dynamic-context-parallelism-and-nvidia-megatron-core/). Review 35 p02.
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="training",
        training="lora",
        model="meta-llama/Llama-3.3-70B-Instruct",
        needs={"dynamic_shapes": True, "devices": 8},
    )
    # TorchTitan is never called a fit; it may fall out of the five options shown behind nearer LoRA recipes
    titan = next((o for o in result.stacks_considered if o.stack == "nvidia-torchtitan-float8-h100"), None)
    assert titan is None or "documented for pretraining, not lora" in titan.reason
    assert not any(o.fits and "torchtitan" in o.stack for o in result.stacks_considered)
    shapes = next(c for c in result.tier(1).choices if c.concern == "dynamic-shapes")
    # Since 2026-12-07 (helper kbautomodel) NeMo AutoModel's stack leads this job (its H100 LoRA benchmark config loads
    # Llama-3.3-70B-Instruct itself, github.com/NVIDIA-NeMo/Automodel/blob/v0.5.0/docs/performance-summary.md), and it
    # packs variable-length samples itself too (packed_sequence_size, .../v0.5.0/docs/guides/llm/dataset.md)
    assert shapes.option in ("megatron-core", "nemo-automodel") and shapes.settings["mode"] == "sequence-packing"
    assert not any("per 100 requests" in s.description for s in result.switch_conditions)


def test_a_cnn_compiled_by_a_graph_runtime_takes_the_runtimes_fusion():
    # ATC compiles the ONNX model into an .om offline model with its own graph fusion passes (github.com/hicann/ge/
    # blob/master/README_en.md); review 35 p06 got torch.compile, judged "per generated token", for a YOLO model.
    result = answer(
        model_type="cnn",
        hardware="ascend-npu",
        device="ascend-310p",
        workload="inference",
        parameters_b=0.03,
        needs={"quantization": "int8", "quantization_method": "ptq"},
    )
    fusion = next(c for c in result.tier(1).choices if c.concern == "fusion")
    assert fusion.option == "atc-acl" and fusion.settings["by"] == "runtime"
    assert not any("per generated token" in reason.text for reason in fusion.rationale)


def test_a_portable_megatron_keeps_transformer_engine_for_fp8_and_fusion_on_both_families():
    # Megatron Core's FP8 recipes and fused layers come through Transformer Engine (Megatron-LM docs/api-guide/core/
    # fusions.md), which runs on NVIDIA GPUs and, through AMD's port, on Instinct (nvidia.github.io/TransformerEngine/
    # support_matrix.html); review 35 p04 paired Megatron with torchao and torch.compile in tier 3.
    result = answer(
        model_type="dense-transformer",
        hardware="amd-gpu",
        device="mi300x",
        workload="training",
        training="pretraining",
        team_skill="hpc",
        parameters_b=13,
        needs={
            "quantization": "fp8",
            "quantization_method": "qat",
            "devices": 64,
            "cross_platform": True,
            "other_hardware": ["nvidia-gpu"],
            "other_devices": ["h100-sxm"],
        },
    )
    tier3 = {c.concern: c for c in result.tier(3).choices}
    assert tier3["training-framework"].option == "megatron-core"
    assert tier3["quantization"].option == "transformer-engine" and tier3["fusion"].option == "transformer-engine"
    assert not any(s.id == "long-context-needed" for s in result.switch_conditions)  # tier 1 names its attention


PROFILE_R36_P10 = {
    "model_type": "dense-transformer",
    "hardware": "intel-gaudi",
    "device": "gaudi3",
    "workload": "both",
    "training": "fine-tuning",
    "team_skill": "kernel",
    "model": "meta-llama/Llama-3.1-8B-Instruct",
    "needs": {
        "quantization": "fp8",
        "devices": 8,
        "cross_platform": True,
        "other_hardware": ["nvidia-gpu"],
        "other_devices": ["h100-sxm"],
    },
}


def test_each_familys_own_quantized_stack_is_the_one_tier_3s_engine_runs():
    # vllm-gaudi quantizes FP8 with Intel Neural Compressor (docs.vllm.ai/projects/gaudi/en/latest/configuration/
    # quantization/inc.html) and vLLM serves FP8 on Hopper (docs.vllm.ai/en/latest/features/quantization/fp8.html);
    # review 36 p10's tier 3 ran vLLM but named TensorRT-LLM's FP8 stack for NVIDIA.
    result = answer(**PROFILE_R36_P10)
    tier3 = result.tier(3)
    assert next(c.option for c in tier3.choices if c.concern == "deployment") == "vllm"
    # since vllm-gaudi 0.15.1 one ModelOpt FP8 checkpoint of a dense model loads on both families
    # (https://github.com/vllm-project/vllm-gaudi/blob/main/docs/release_notes_v0.15.1.md): tier 3 names it, citing
    # the vLLM stack NVIDIA quantizes with, not TensorRT-LLM's
    quantization = next(c for c in tier3.choices if c.concern == "quantization")
    assert quantization.option == "modelopt" and "TensorRT-LLM" not in quantization.rationale[0].text
    moe = answer(**{**PROFILE_R36_P10, "model_type": "moe", "model": "Qwen/Qwen3-30B-A3B"})
    assert not any(c.concern == "quantization" and c.option == "modelopt" for c in moe.tier(3).choices)


def test_a_training_recipe_for_another_model_of_the_type_is_a_partial_fit_not_nothing():
    # DeepSparkHub's Llama3-8B training recipes run on the Tiangai 150 (github.com/Deep-Spark/DeepSparkHub/blob/master/
    # models/nlp/llm/llama3_8b/); a training recipe's model list is its configuration preset. Review 37 p09 (Llama 3.1
    # 8B pretraining on 32 cards) got no training framework at all.
    result = answer(
        model_type="dense-transformer",
        hardware="iluvatar-gpu",
        device="tiangai-150",
        workload="training",
        training="pretraining",
        team_skill="hpc",
        model="meta-llama/Llama-3.1-8B",
        needs={"devices": 32},
    )
    chosen = next(option for option in result.stacks_considered if option.chosen)
    # pre-training builds Llama 3's architecture from scratch, so a Llama 3 8B preset is no misfit of its own (review
    # 140 p02); what is left is the layout over 32 cards, which the one-node pages do not document
    assert chosen.stack.startswith("iluvatar-") and "written for" not in chosen.reason
    assert "32 devices may span nodes" in chosen.reason
    assert any(c.concern == "training-framework" for c in result.tier(1).choices)


def test_the_targets_own_fp8_stack_is_named_in_tier_3_even_as_a_partial_fit():
    # vllm-gaudi runs FP8 through Intel Neural Compressor (docs.vllm.ai/projects/gaudi/en/latest/configuration/
    # quantization/inc.html); review 37 p10's tier 3 said "intel-gaudi: no fp8 stack documented" beside that tier 1.
    result = answer(
        model_type="multimodal",
        hardware="intel-gaudi",
        device="gaudi3",
        workload="inference",
        model="Qwen/Qwen2.5-VL-7B-Instruct",
        needs={"quantization": "fp8", "cross_platform": True, "other_hardware": ["nvidia-gpu"]},
    )
    gap = next(g for g in result.tier(3).gaps if g.concern == "quantization")
    assert "intel-gaudi: no fp8 stack" not in gap.rationale[0].text
    assert "intel-gaudi: vLLM with the vllm-gaudi plugin serving vision-language models" in gap.rationale[0].text


def test_a_serving_stack_that_names_only_formats_is_not_offered_as_the_quantizer():
    # vLLM TPU loads pre-quantized checkpoints (compressed-tensors, AWQ...) and names no tool that writes them
    # (github.com/vllm-project/tpu-inference/blob/main/docs/includes/quantization.md); review 37 p11's verdict said
    # "then quantize it to int8 (Pre-quantized checkpoints ...)", as if that were a tool.
    result = answer(
        model_type="dense-transformer",
        hardware="google-tpu",
        device="tpu-v6e",
        workload="both",
        training="fine-tuning",
        team_skill="kernel",
        model="google/gemma-3-27b-it",
        needs={"quantization": "int8", "devices": 32},
    )
    assert "the stack names no tool that writes it for this family" in result.verdict
