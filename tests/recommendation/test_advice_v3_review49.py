"""Review 47's remaining defects and reviews 49 and 50's, each pinned."""

from __future__ import annotations

from recommendation_builders import answer_for as answer

from advisor.knowledge.loader import load_knowledge_base


def test_a_job_that_trains_and_serves_with_one_documented_side_does_not_read_as_a_whole_fit():
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).# Review 47 p06: a LoRA fine-tune and serve on MLU590 said "fitting the whole profile" while no training stack
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).# was chosen. Cambricon documents vLLM on MLUs (the vllm_mlu plugin) but no LLM training recipe the KB holds.
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).result = answer(
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    model_type="dense-transformer",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    hardware="cambricon-mlu",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    device="mlu590",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    workload="both",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    training="lora",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    model="Qwen/Qwen3-14B",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    needs={"devices": 8},
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).)
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).assert "whole profile" not in result.confidence_notes[0]
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).assert "no documented stack covers the training" in result.confidence_notes[0]
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).assert "for the lora training, no documented stack trains a dense-transformer here" in result.verdict
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).chosen = [row for row in result.stacks_considered if row.chosen]
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).assert chosen and all(row.reason == "fits the inference side of the job" for row in chosen)
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).alone = answer(model_type="dense-transformer", hardware="cambricon-mlu", device="mlu590", workload="inference")
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).assert result.confidence < alone.confidence


def test_fp8_on_an_a100_is_served_weight_only_and_shared_with_the_amd_target():
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).# Review 47 p15: fp8 asked on an A100 portable to MI300X was planned as INT8 W8A8, which vLLM does not run on AMD
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).# GPUs (https://docs.vllm.ai/en/v0.14.0/features/quantization/, INT8 (W8A8) marked unsupported on AMD GPU), while
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).# vLLM runs FP8 checkpoints on Ampere as weight-only W8A16 through FP8 Marlin
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).# (https://docs.vllm.ai/en/v0.32.0/features/quantization/llm_compressor/fp8/).
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).result = answer(
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    model_type="dense-transformer",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    hardware="nvidia-gpu",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    device="a100-sxm",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    workload="inference",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    model="meta-llama/Llama-3.1-8B-Instruct",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    needs={
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).        "quantization": "fp8",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).        "quantization_method": "ptq",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).        "cross_platform": True,
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).        "other_hardware": ["amd-gpu"],
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).        "other_devices": ["mi300x"],
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    },
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).)
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).chosen = next(row for row in result.stacks_considered if row.chosen)
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).assert chosen.stack == "nvidia-vllm-fp8-marlin-ampere"
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).tier3 = next(c for c in result.tier(3).choices if c.concern == "quantization")
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).assert tier3.option == "llm-compressor" and tier3.settings["dtype"] == "fp8"


def test_int8_checkpoints_of_llm_compressor_are_not_taken_to_load_on_amd_gpus():
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).# The same vLLM table: FP8 (W8A8) runs on AMD GPUs, INT8 (W8A8) does not.
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).compatibility = load_knowledge_base().compatibility
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).assert "amd-gpu" in compatibility.output_families("llm-compressor", "dense-transformer", "fp8")
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).assert "amd-gpu" not in compatibility.output_families("llm-compressor", "dense-transformer", "int8")
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).assert "ascend-npu" in compatibility.output_families("llm-compressor", "dense-transformer", "int8")
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).result = answer(
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    model_type="dense-transformer",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    hardware="nvidia-gpu",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    device="a100-sxm",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    workload="inference",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    needs={"quantization": "int8", "cross_platform": True, "other_hardware": ["amd-gpu"]},
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).)
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).tier3 = next(c for c in result.tier(3).choices if c.concern == "quantization")
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).assert tier3.option != "llm-compressor"


def test_a_job_that_serves_what_it_trains_quantizes_its_own_checkpoint_not_the_publishers_release():
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).# Review 50 p14: a Qwen3-30B-A3B SFT served in FP8 on MI300X was told to serve Qwen's own FP8 release, the base
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).# model's weights, and the quantization part named vLLM, which writes no checkpoint. AMD Quark quantizes a model
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).# to FP8 for vLLM on Instinct GPUs (https://quark.docs.amd.com/latest/pytorch/llm/quantize_llms.html).
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).result = answer(
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    model_type="moe",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    hardware="amd-gpu",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    device="mi300x",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    workload="both",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    training="fine-tuning",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    team_skill="hpc",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    model="Qwen/Qwen3-30B-A3B",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    needs={
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).        "quantization": "fp8",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).        "quantization_method": "ptq",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).        "devices": 8,
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).        "cross_platform": True,
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).        "other_hardware": ["nvidia-gpu"],
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).        "other_devices": ["h100-sxm"],
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    },
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).)
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).quantization = next(c for c in result.tier(1).choices if c.concern == "quantization")
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).deployment = next(c for c in result.tier(1).choices if c.concern == "deployment")
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).assert quantization.option != deployment.option
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).first = quantization.rationale[0].text
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).assert first.startswith("the model served is the checkpoint this job trains")
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).assert "serve that checkpoint as released" not in " ".join(r.text for r in quantization.rationale)
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).shared = next(s for s in result.switch_conditions if s.id == "shared-checkpoint-on-target")
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).assert shared.metric.endswith(f"_over_{quantization.option}")


def test_the_shared_checkpoint_switch_does_not_say_a_serving_engine_writes_a_checkpoint():
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).# Where tier 1's quantization part is the engine itself (a checkpoint served as published, or quantized at load),
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).# the switch compares with the checkpoint the engine serves there, not "the one <engine> writes".
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).result = answer(
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    model_type="dense-transformer",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    hardware="x86-cpu",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    device="xeon-6-granite-rapids",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    workload="inference",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    model="Qwen/Qwen3-8B",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    needs={"quantization": "int8", "cross_platform": True, "other_hardware": ["arm-cpu"]},
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).)
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).shared = next(s for s in result.switch_conditions if s.id == "shared-checkpoint-on-target")
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).deployment = next(c.option for c in result.tier(1).choices if c.concern == "deployment")
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).assert f"the one {deployment} writes" not in shared.description
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).assert f"the checkpoint {deployment} serves there" in shared.description


def test_a_chosen_recipe_without_a_narrower_path_gets_the_one_a_stack_that_fits_as_well_documents():
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).# Review 49 p01: Qwen3-235B-A22B in FP8 on B200 got no NVFP4 step, while TensorRT-LLM's Qwen3 deployment guide
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).# lists NVFP4 checkpoints beside FP8 on Blackwell
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).# (https://nvidia.github.io/TensorRT-LLM/deployment-guide/deployment-guide-for-qwen3-on-trtllm.html) and the B200
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).# runs NVFP4 natively.
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).result = answer(
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    model_type="moe",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    hardware="nvidia-gpu",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    device="b200",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    workload="inference",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    model="Qwen/Qwen3-235B-A22B",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    needs={"quantization": "fp8", "devices": 8, "long_context": True},
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).)
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).narrower = next(s for s in result.switch_conditions if s.id == "inference-in-nvfp4")
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).assert narrower.metric == "evidence.inference_throughput.nvfp4_over_fp8"
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).assert "which documents an nvfp4 path" in narrower.description


def test_no_throughput_race_against_a_recipe_written_for_other_models_when_the_profile_names_none():
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).# Reviews 47 p08 and 50 p06: a ResNet-50-backbone detector on Tiangai-150 was given a switch to Ultralytics'
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).# YOLOv8 recipe at 1.1x the throughput, "same model and devices": a race between two different models.
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).result = answer(
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    model_type="cnn",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    hardware="iluvatar-gpu",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    device="tiangai-150",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    workload="both",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    training="fine-tuning",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    parameters_b=0.05,
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    needs={"devices": 8},
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).)
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).assert not any(s.id.endswith("-faster") and "yolov8" in s.id for s in result.switch_conditions)


def test_a_command_that_loads_a_pre_quantized_release_says_the_models_weights_need_quantizing_first():
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).# Review 49 p04: DeepSeek-V3 W8A8 on an A3 was told "model=deepseek-ai/DeepSeek-V3 in place of
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).# vllm-ascend/DeepSeek-R1-W8A8" with --quantization ascend; that repository holds FP8 weights, and vllm-ascend's
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).# DeepSeek tutorial serves W8A8 weights quantized with msModelSlim
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).# (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).result = answer(
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    model_type="moe",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    hardware="ascend-npu",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    device="ascend-910c",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    workload="inference",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    model="deepseek-ai/DeepSeek-V3",
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).    needs={"quantization": "int8", "quantization_method": "ptq", "devices": 16, "long_context": True},
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).)
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).deployment = next(c for c in result.tier(1).choices if c.concern == "deployment")
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).swap = deployment.settings["model"]
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).assert swap.startswith("deepseek-ai/DeepSeek-V3 quantized to W8A8 first")
 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/DeepSeek-V3.1.html).assert swap.endswith("in place of vllm-ascend/DeepSeek-R1-W8A8")
