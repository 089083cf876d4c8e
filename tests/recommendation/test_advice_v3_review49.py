"""Review 47's remaining defects and reviews 49 and 50's, each pinned."""

from __future__ import annotations

from recommendation_builders import answer_for as answer
from recommendation_builders import answer_without

from advisor.knowledge.loader import load_knowledge_base


def test_a_job_that_trains_and_serves_with_one_documented_side_does_not_read_as_a_whole_fit():
    # Review 47 p06: a LoRA fine-tune and serve on MLU590 said "fitting the whole profile" while no training stack
    # was chosen. The KB now holds BAAI FlagPerf's Cambricon DeepSpeed ZeRO-1 case (a full-weight run from the released
    # weights that FlagPerf calls pretraining, with no LoRA on MLUs documented:
    # https://github.com/FlagOpen/FlagPerf/blob/1b5a030398ab719e406f77877eb34c9599b17fd2/training/cambricon/baichuan2_13b-deepspeed/README.md),
    # so the training side is chosen as a partial fit - and the whole still does not read as a whole fit.
    # Review kbmlulora: the KB now also holds PaddleNLP's MLU guide, which runs LoRA and full SFT of llama-13b on 8 MLUs
    # (https://github.com/PaddlePaddle/PaddleNLP/blob/develop/llm/devices/mlu/llama/README.md) on devices PaddlePaddle's
    # MLU install guide lists as the MLU370 series; it documents LoRA by name and takes the training side over the
    # pretraining case, still as a partial fit (MLU370, not MLU590; llama-13b as the example of a generic route).
    result = answer(
        model_type="dense-transformer",
        hardware="cambricon-mlu",
        device="mlu590",
        workload="both",
        training="lora",
        model="Qwen/Qwen3-14B",
        needs={"devices": 8},
    )
    assert "whole profile" not in result.confidence_notes[0]
    assert "validated on mlu370 (MLU300 series), not mlu590" in result.confidence_notes[0]
    assert "a partial fit: its page runs facebook/llama-13b as the example of a generic route" in result.verdict
    chosen = {row.stack: row.reason for row in result.stacks_considered if row.chosen}
    assert "fits the whole profile" not in chosen["cambricon-paddlenlp-lora-sft"]
    assert "cambricon-deepspeed-zero-llm-training" not in chosen
    alone = answer(model_type="dense-transformer", hardware="cambricon-mlu", device="mlu590", workload="inference")
    assert result.confidence < alone.confidence


def test_fp8_on_an_a100_is_served_weight_only_and_shared_with_the_amd_target():
    # Review 47 p15: fp8 asked on an A100 portable to MI300X was planned as INT8 W8A8, which vLLM does not run on AMD
    # GPUs (https://docs.vllm.ai/en/v0.14.0/features/quantization/, INT8 (W8A8) marked unsupported on AMD GPU), while
    # vLLM runs FP8 checkpoints on Ampere as weight-only W8A16 through FP8 Marlin
    # (https://docs.vllm.ai/en/v0.32.0/features/quantization/llm_compressor/fp8/).
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="a100-sxm",
        workload="inference",
        model="meta-llama/Llama-3.1-8B-Instruct",
        needs={
            "quantization": "fp8",
            "quantization_method": "ptq",
            "cross_platform": True,
            "other_hardware": ["amd-gpu"],
            "other_devices": ["mi300x"],
        },
    )
    chosen = next(row for row in result.stacks_considered if row.chosen)
    assert chosen.stack == "nvidia-vllm-fp8-marlin-ampere"
    tier3 = next(c for c in result.tier(3).choices if c.concern == "quantization")
    assert tier3.option == "llm-compressor" and tier3.settings["dtype"] == "fp8"


def test_int8_checkpoints_of_llm_compressor_are_not_taken_to_load_on_amd_gpus():
    # The same vLLM table: FP8 (W8A8) runs on AMD GPUs, INT8 (W8A8) does not.
    compatibility = load_knowledge_base().compatibility
    assert "amd-gpu" in compatibility.output_families("llm-compressor", "dense-transformer", "fp8")
    assert "amd-gpu" not in compatibility.output_families("llm-compressor", "dense-transformer", "int8")
    assert "ascend-npu" in compatibility.output_families("llm-compressor", "dense-transformer", "int8")
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="a100-sxm",
        workload="inference",
        needs={"quantization": "int8", "cross_platform": True, "other_hardware": ["amd-gpu"]},
    )
    tier3 = next(c for c in result.tier(3).choices if c.concern == "quantization")
    assert tier3.option != "llm-compressor"


def test_a_job_that_serves_what_it_trains_quantizes_its_own_checkpoint_not_the_publishers_release():
    # Review 50 p14: a Qwen3-30B-A3B SFT served in FP8 on MI300X was told to serve Qwen's own FP8 release, the base
    # model's weights, and the quantization part named vLLM, which writes no checkpoint. AMD Quark quantizes a model
    # to FP8 for vLLM on Instinct GPUs (https://quark.docs.amd.com/latest/pytorch/llm/quantize_llms.html).
    result = answer(
        model_type="moe",
        hardware="amd-gpu",
        device="mi300x",
        workload="both",
        training="fine-tuning",
        team_skill="hpc",
        model="Qwen/Qwen3-30B-A3B",
        needs={
            "quantization": "fp8",
            "quantization_method": "ptq",
            "devices": 8,
            "cross_platform": True,
            "other_hardware": ["nvidia-gpu"],
            "other_devices": ["h100-sxm"],
        },
    )
    quantization = next(c for c in result.tier(1).choices if c.concern == "quantization")
    deployment = next(c for c in result.tier(1).choices if c.concern == "deployment")
    assert quantization.option != deployment.option
    first = quantization.rationale[0].text
    assert first.startswith("the model served is the checkpoint this job trains")
    assert "serve that checkpoint as released" not in " ".join(r.text for r in quantization.rationale)
    shared = next(s for s in result.switch_conditions if s.id == "shared-checkpoint-on-target")
    assert shared.metric.endswith(f"_over_{quantization.option}")


def test_the_shared_checkpoint_switch_does_not_say_a_serving_engine_writes_a_checkpoint():
    # Where tier 1's quantization part is the engine itself (a checkpoint served as published, or quantized at load),
    # the switch compares with the checkpoint the engine serves there, not "the one <engine> writes".
    result = answer(
        model_type="dense-transformer",
        hardware="x86-cpu",
        device="xeon-6-granite-rapids",
        workload="inference",
        model="Qwen/Qwen3-8B",
        needs={"quantization": "int8", "cross_platform": True, "other_hardware": ["arm-cpu"]},
    )
    shared = next(s for s in result.switch_conditions if s.id == "shared-checkpoint-on-target")
    deployment = next(c.option for c in result.tier(1).choices if c.concern == "deployment")
    assert f"the one {deployment} writes" not in shared.description
    assert f"the checkpoint {deployment} serves there" in shared.description


def test_a_chosen_recipe_without_a_narrower_path_gets_the_one_a_stack_that_fits_as_well_documents():
    # Review 49 p01: Qwen3-235B-A22B in FP8 on B200 got no NVFP4 step, while TensorRT-LLM's Qwen3 deployment guide
    # lists NVFP4 checkpoints beside FP8 on Blackwell
    # (https://nvidia.github.io/TensorRT-LLM/deployment-guide/deployment-guide-for-qwen3-on-trtllm.html) and the B200
    # runs NVFP4 natively.
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="b200",
        workload="inference",
        model="Qwen/Qwen3-235B-A22B",
        needs={"quantization": "fp8", "devices": 16, "long_context": True},  # the Dynamo recipe's 16 GPUs
    )
    narrower = next(s for s in result.switch_conditions if s.id == "inference-in-nvfp4")
    assert narrower.metric == "evidence.inference_throughput.nvfp4_over_fp8"
    assert "which documents an nvfp4 path" in narrower.description
    # on one 8-GPU node the guide's own route is chosen, and its nvfp4 path is its own
    one_node = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="b200",
        workload="inference",
        model="Qwen/Qwen3-235B-A22B",
        needs={"quantization": "fp8", "devices": 8, "long_context": True},
    )
    own = next(s for s in one_node.switch_conditions if s.id == "inference-in-nvfp4")
    assert "own nvfp4 path" in own.description


def test_no_throughput_race_against_a_recipe_written_for_other_models_when_the_profile_names_none():
    # Reviews 47 p08 and 50 p06: a ResNet-50-backbone detector on Tiangai-150 was given a switch to Ultralytics'
    # YOLOv8 recipe at 1.1x the throughput, "same model and devices": a race between two different models.
    result = answer(
        model_type="cnn",
        hardware="iluvatar-gpu",
        device="tiangai-150",
        workload="both",
        training="fine-tuning",
        parameters_b=0.05,
        needs={"devices": 8},
    )
    assert not any(s.id.endswith("-faster") and "yolov8" in s.id for s in result.switch_conditions)


def test_deepseek_v3_w8a8_on_ascend_serves_its_own_release_not_another_models_in_its_place():
    # Review 49 p04: DeepSeek-V3 W8A8 on an A3 was told "model=deepseek-ai/DeepSeek-V3 in place of
    # vllm-ascend/DeepSeek-R1-W8A8" with --quantization ascend; that repository holds FP8 weights, and vllm-ascend's
    # DeepSeek tutorial serves W8A8 weights quantized with msModelSlim
    # (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/models/DeepSeek-R1.html).
    result = answer(
        model_type="moe",
        hardware="ascend-npu",
        device="ascend-910c",
        workload="inference",
        model="deepseek-ai/DeepSeek-V3",
        needs={"quantization": "int8", "quantization_method": "ptq", "devices": 16, "long_context": True},
    )
    deployment = next(c for c in result.tier(1).choices if c.concern == "deployment")
    # review 210 p05: vllm-ascend serves DeepSeek-V3's own W8A8 release (vllm-ascend/DeepSeek-V3-W8A8) in its multi-node
    # tutorial (https://vllm-ascend.readthedocs.io/en/latest/tutorials/multi_node.html): no quantizing step, no swap
    assert "model" not in deployment.settings
    assert "vllm-ascend/DeepSeek-V3-W8A8 for V3" in deployment.settings["as documented"]


def test_a_cross_platform_job_that_trains_and_serves_on_a_portable_runtime_says_which_side_the_kernel_gaps_are():
    # Review 49 p13: an int8 QAT CNN for Android SME2 phones and M-series iPads on ExecuTorch printed "no gemm option
    # ... runs on arm-cpu, apple-silicon: each platform keeps its own (arm-cpu: onednn; apple-silicon: mlx)", which
    # contradicts one runtime (ExecuTorch's XNNPACK delegate runs on ARM64 Android and iOS,
    # https://docs.pytorch.org/executorch/stable/backends-xnnpack.html), and one unknown claim three times.
    result = answer(
        model_type="cnn",
        hardware="arm-cpu",
        device="armv9-mobile-sme2",
        workload="both",
        team_skill="kernel",
        parameters_b=0.025,
        needs={
            "quantization": "int8",
            "quantization_method": "qat",
            "cross_platform": True,
            "other_hardware": ["apple-silicon"],
            "other_devices": ["apple-m4"],
        },
    )
    gemm = next(g for g in result.tier(3).gaps if g.concern == "gemm")
    assert gemm.rationale[0].text.startswith("in training, ")
    assert "serving runs on executorch's own kernels" in gemm.rationale[0].text
    assert len(result.confidence_notes) == len(set(result.confidence_notes))
    assert "DDP/FSDP" not in result.verdict and "in the framework's own training loop" in result.verdict


def test_a_format_the_device_does_not_run_is_not_planned_when_no_stack_documents_a_swap():
    # Review 52 p05: Qwen2.5-VL-7B with fp8 asked on an MLU370 got "quantization vllm [dtype=fp8]" and a switch for the
    # GEMM library gaining FP8; the MLU370's documented formats are fp32, fp16 and int8
    # (https://github.com/Cambricon/mlu-ops/blob/master/docs/BANG-C-OPS-Develop-Guide.md lists its mtp_372 architecture;
    # the platform file cites the format list).
    result = answer(
        model_type="multimodal",
        hardware="cambricon-mlu",
        device="mlu370",
        workload="inference",
        model="Qwen/Qwen2.5-VL-7B-Instruct",
        needs={"quantization": "fp8", "quantization_method": "ptq", "dynamic_shapes": True},
    )
    assert not any(c.concern == "quantization" for c in result.tier(1).choices)
    gap = next(g for g in result.tier(1).gaps if g.concern == "quantization")
    # (since reviews 226/232 Cambricon's vllm_mlu leads a vision-language job, and says it documents no fp8 path there)
    assert "documents no fp8 path on Cambricon MLU370" in gap.rationale[0].text
    ids = {s.id for s in result.switch_conditions}
    assert "fp8-accuracy-drop" not in ids and not any(i.startswith("kb-") and i.endswith("-fp8") for i in ids)


def test_a_stack_whose_model_does_not_fit_the_devices_named_is_not_called_a_whole_fit():
    # Review 52 p09: Mixtral-8x22B (141B parameters, https://huggingface.co/mistralai/Mixtral-8x22B-v0.1) in INT8 on
    # four TPU v5e chips of 16 GB each (https://cloud.google.com/tpu/docs/v5e) was "fits the whole profile" in the
    # stacks table while the capacity line said it does not fit.
    result = answer(
        model_type="moe",
        hardware="google-tpu",
        device="tpu-v5e",
        workload="inference",
        model="mistralai/Mixtral-8x22B-Instruct-v0.1",
        parameters_b=141,
        needs={"quantization": "int8", "quantization_method": "ptq", "devices": 4, "long_context": True},
    )
    chosen = next(row for row in result.stacks_considered if row.chosen)
    assert "whole profile" not in chosen.reason and "not its device count" in chosen.reason
    assert "whole profile" not in result.confidence_notes[0]


def test_a_weight_only_plan_is_weighed_against_the_devices_native_8_bit_path():
    # Review 52 p01: Llama-3.3-70B with fp8 asked on A100s got only the FP8 weight-only (Marlin) path; vLLM documents
    # INT8 W8A8 on Ampere (https://docs.vllm.ai/en/latest/features/quantization/int8/), which runs on its INT8 tensor
    # cores, while FP8 Marlin widens the weights to 16 bits
    # (https://docs.vllm.ai/en/v0.32.0/features/quantization/llm_compressor/fp8/).
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="a100-sxm",
        workload="inference",
        model="meta-llama/Llama-3.3-70B-Instruct",
        needs={"quantization": "fp8", "quantization_method": "ptq", "devices": 4},
    )
    rows = [row.stack for row in result.stacks_considered]
    assert rows[:2] == ["nvidia-vllm-fp8-marlin-ampere", "nvidia-vllm-int8-w8a8"]
    native = next(s for s in result.switch_conditions if s.id == "inference-in-native-int8")
    assert native.metric == "evidence.inference_throughput.int8_over_fp8_weight_only"


def test_fine_tuning_a_model_released_in_fp8_dequantizes_it_first():
    # Review 52 p02: a DeepSeek-V3 fine-tune was not told that the release is FP8 only
    # (https://huggingface.co/deepseek-ai/DeepSeek-V3, "FP8 weights"; its inference README converts them with
    # fp8_cast_bf16.py for BF16 use).
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="b300",
        workload="training",
        training="fine-tuning",
        team_skill="hpc",
        model="deepseek-ai/DeepSeek-V3",
        needs={"quantization": "fp8", "quantization_method": "qat", "long_context": True, "devices": 64},
    )
    framework = next(c for c in result.tier(1).choices if c.concern == "training-framework")
    assert any(
        r.text.startswith("deepseek-ai/DeepSeek-V3 is released in fp8 only: dequantize it") for r in framework.rationale
    )


def test_rl_post_training_memory_counts_the_reference_copy_and_names_the_rollout_engine():
    # Review 52 p04: the GRPO memory check counted 16 bytes per parameter only; verl's GRPO keeps a reference policy
    # for its KL loss (https://verl.readthedocs.io/en/latest/algo/grpo.html) and colocates the rollout engine
    # (https://verl.readthedocs.io/en/latest/hybrid_flow.html).
    result = answer(
        model_type="dense-transformer",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="training",
        training="rl",
        model="Qwen/Qwen3-8B",
        parameters_b=8,
        needs={"devices": 8},
    )
    line_text = next(r.text for r in result.capacity if r.text.startswith("capacity: RL post-training"))
    assert "about 144 GB" in line_text and "18 bytes per parameter" in line_text and "rollout engine" in line_text


def test_a_published_fp8_checkpoint_served_as_released_names_no_quantizer_as_tier_1s_part():
    # Reviews 47 p04 and 51 p05: Qwen3-235B-A22B FP8 on MI355X named AMD Quark as the quantizer while telling the team
    # to serve Qwen's own FP8 release (https://huggingface.co/Qwen/Qwen3-235B-A22B-Instruct-2507-FP8) as it is.
    result = answer(
        model_type="moe",
        hardware="amd-gpu",
        device="mi355x",
        workload="inference",
        team_skill="hpc",
        model="Qwen/Qwen3-235B-A22B-Instruct-2507",
        needs={"quantization": "fp8", "quantization_method": "ptq", "devices": 8},
    )
    quantization = next(c for c in result.tier(1).choices if c.concern == "quantization")
    deployment = next(c for c in result.tier(1).choices if c.concern == "deployment")
    assert quantization.option == deployment.option
    assert quantization.settings["checkpoint"] == "Qwen/Qwen3-235B-A22B-Instruct-2507-FP8, as released"
    assert (
        quantization.settings["for a fine-tuned copy"] == "quark (ptq)"
    )  # the PTQ asked is its route (review 149 p01)
    assert "method" not in quantization.settings


def test_tier_3_serves_a_model_released_in_fp8_as_released_rather_than_requantizing_it():
    # Review 51 p01: DeepSeek-V3.1 on H200 in FP8 was told in tier 1 to serve DeepSeek's FP8 weights as released
    # (https://huggingface.co/deepseek-ai/DeepSeek-V3.1), while tier 3 proposed quantizing to FP8 with llm-compressor.
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="h200-sxm",
        workload="inference",
        model="deepseek-ai/DeepSeek-V3.1",
        needs={"quantization": "fp8", "quantization_method": "ptq", "devices": 8, "long_context": True},
    )
    tier3 = next(c for c in result.tier(3).choices if c.concern == "quantization")
    assert tier3.option != "llm-compressor"
    assert tier3.settings["checkpoint"] == "deepseek-ai/DeepSeek-V3.1, as released"


def test_an_rl_job_takes_variable_lengths_and_long_context_from_its_framework():
    # Review 51 p02: GRPO on 16 H100s with long context got torch.compile for dynamic shapes and a recompile switch,
    # and nothing on long context; verl packs variable-length rollouts (use_remove_padding, use_dynamic_bsz) and trains
    # long sequences with Ulysses sequence parallelism (https://verl.readthedocs.io/en/latest/perf/perf_tuning.html).
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="training",
        training="rl",
        team_skill="kernel",
        model="Qwen/Qwen3-8B",
        needs={"dynamic_shapes": True, "long_context": True, "devices": 16},
    )
    shapes = next(c for c in result.tier(1).choices if c.concern == "dynamic-shapes")
    assert shapes.option == "verl"
    assert "dynamic-compile-recompiles" not in {s.id for s in result.switch_conditions}
    framework = next(c for c in result.tier(1).choices if c.concern == "training-framework")
    assert any("Ulysses sequence parallelism" in r.text for r in framework.rationale)


def test_a_one_gpu_command_for_a_multi_device_llm_job_gets_the_layout_this_profile_takes():
    # Reviews 52 p14 and 54 p15: Qwen2.5-VL-32B in FP8 on two L40S was handed the Qwen2.5-VL-7B recipe's one-GPU
    # command (https://github.com/vllm-project/recipes/blob/main/Qwen/Qwen2.5-VL.md) with no word on the two devices.
    result = answer(
        model_type="multimodal",
        hardware="nvidia-gpu",
        device="l40s",
        workload="inference",
        model="Qwen/Qwen2.5-VL-32B-Instruct",
        needs={"quantization": "fp8", "quantization_method": "ptq", "devices": 2},
    )
    deployment = next(c for c in result.tier(1).choices if c.concern == "deployment")
    assert deployment.settings["layout here"].startswith("tensor parallel 2 over the 2 devices")


def test_a_training_job_short_of_device_memory_is_told_what_offloading_the_optimizer_leaves():
    # Review 53 p09: a full fine-tune of a 70B model on 8 Gaudi 3 was told only to add nodes; ZeRO-Offload keeps the
    # fp32 optimizer state in host memory (https://www.deepspeed.ai/tutorials/zero-offload/).
    result = answer(
        model_type="dense-transformer",
        hardware="intel-gaudi",
        device="gaudi3",
        workload="training",
        training="fine-tuning",
        model="meta-llama/Llama-3.1-70B-Instruct",
        needs={"devices": 8},
    )
    text = next(r.text for r in result.capacity if r.text.startswith("capacity: full-parameter training"))
    assert "ZeRO-Offload" in text and "about 280 GB of bf16 weights and gradients" in text


def test_a_stack_pinned_to_an_older_release_names_what_the_current_release_serves():
    # Reviews 47 p05 and 53 p05: Qwen2.5-VL-72B W8A8 on a 910B got vllm-ascend v0.18.0's W8A8 tutorial, which the
    # current documentation no longer carries, with no word on what the current release serves. Since review 126 p05
    # that is no BF16 route for Qwen2.5-VL (dropped as out of date: https://github.com/vllm-project/vllm-ascend/pull/8452)
    # but Qwen3-VL's W8A8 route, or the old release kept as a time-boxed exception,
    # where no current engine documents the model's W8A8 route: the knowledge base without MindIE's
    # (https://github.com/Ascend/MindIE-LLM/blob/v3.0.0/docs/zh/user_guide/model_support_list.md lists it since)
    result = answer_without(
        {"ascend-mindie-qwen25vl-w8a8"},
        model_type="multimodal",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="inference",
        model="Qwen/Qwen2.5-VL-72B-Instruct",
        needs={"quantization": "int8", "quantization_method": "ptq", "devices": 4, "dynamic_shapes": True},
    )
    assert "the current release's support list no longer names this model" in result.verdict
    assert "which the current release serves in int8" in result.verdict


def test_review_56_rl_layout_and_sharding():
    # p04: GRPO of a MoE on MI300X took a pre-training recipe over AMD's verl route documented for a dense model
    # (https://rocm.docs.amd.com/projects/verl/en/docs-26.09/examples/verl-async-examples.html): a recipe with no
    # rollout loop weighs more than a neighbouring model type.
    rl = answer(
        model_type="moe",
        hardware="amd-gpu",
        device="mi300x",
        workload="both",
        training="rl",
        team_skill="kernel",
        model="Qwen/Qwen3-30B-A3B",
        needs={"devices": 8},
    )
    training = next(row for row in rl.stacks_considered if row.chosen and row.stack != rl.stacks[0].stack)
    # since review 85 p04 verl's colocated GRPO (its own AMD quick start) comes before the experimental fully-async one,
    # and since review 89 p04 the quick start's Megatron MoE workflow before its dense FSDP one
    # (https://verl.readthedocs.io/en/latest/amd_tutorial/amd_quick_start.html)
    assert training.stack == "amd-verl-megatron-moe-grpo-instinct"
    # p05: vllm-ascend's DeepSeek tutorial runs DP4 x TP4 with expert parallelism on 16 dies
    # (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/models/DeepSeek-R1.html): no "layout here" overrides it.
    ascend = answer(
        model_type="moe",
        hardware="ascend-npu",
        device="ascend-910c",
        workload="inference",
        model="deepseek-ai/DeepSeek-R1-0528",
        needs={"quantization": "int8", "quantization_method": "ptq", "devices": 16, "long_context": True},
    )
    deployment = next(c for c in ascend.tier(1).choices if c.concern == "deployment")
    assert "layout here" not in deployment.settings
    # p07: a full fine-tune whose training state exceeds one device's memory must be sharded, not plain data parallel.
    hygon = answer(
        model_type="dense-transformer",
        hardware="hygon-dcu",
        device="k100-ai",
        workload="training",
        training="fine-tuning",
        model="Qwen/Qwen2.5-14B-Instruct",
        parameters_b=14.7,
        needs={"devices": 8},
    )
    text = next(r.text for r in hygon.capacity if r.text.startswith("capacity: full-parameter training"))
    assert "must be sharded over the devices" in text


def test_an_rl_only_stack_is_no_plain_training_recipe():
    # The reverse of review 56 p04: a LoRA of Qwen3-30B-A3B on H100s took NeMo RL's GRPO stack
    # (https://github.com/NVIDIA-NeMo/RL/blob/main/docs/guides/grpo.md), which has a rollout loop but no LoRA recipe.
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="training",
        training="lora",
        model="Qwen/Qwen3-30B-A3B",
        needs={"devices": 8},
    )
    assert result.stacks[0].stack != "nvidia-nemo-rl-grpo-h100"


def test_a_weight_only_path_for_another_device_is_not_offered_where_the_target_runs_the_format():
    # FP8 Marlin is vLLM's weight-only route for GPUs without FP8 units
    # (https://docs.vllm.ai/en/v0.32.0/features/quantization/llm_compressor/fp8/); on an H200, which runs FP8 natively,
    # the native recipes are the options a team weighs.
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h200-sxm",
        workload="inference",
        needs={"quantization": "fp8", "devices": 1},
    )
    assert "nvidia-vllm-fp8-marlin-ampere" not in [row.stack for row in result.stacks_considered]


def test_a_recipe_for_another_size_of_the_series_comes_before_a_stack_for_another_model_type():
    # Review 57 p05: Qwen2.5-VL-32B-Instruct in W8A8 on four 910Bs took the dense-LLM W8A8 stack ("a partial fit:
    # documented for dense-transformer, not multimodal") over vllm-ascend's Qwen2.5-VL W8A8 recipe, set aside as
    # "written for ... 7B, 72B, not 32B". msModelSlim's Qwen2.5-VL example and vllm-ascend's Qwen-VL tutorial serve
    # the series (https://github.com/vllm-project/vllm-ascend/blob/v0.18.0/docs/source/tutorials/Qwen-VL-Dense.md);
    # the 32B is the same architecture at another size, so the recipe is chosen and says what changes,
    # where no current engine documents the model's W8A8 route: the knowledge base without MindIE's
    # (https://github.com/Ascend/MindIE-LLM/blob/v3.0.0/docs/zh/user_guide/model_support_list.md lists it since)
    result = answer_without(
        {"ascend-mindie-qwen25vl-w8a8"},
        model_type="multimodal",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="inference",
        model="Qwen/Qwen2.5-VL-32B-Instruct",
        needs={"quantization": "int8", "devices": 4, "dynamic_shapes": True},
    )
    chosen = result.stacks[0]
    assert chosen.stack == "ascend-vllm-ascend-qwen25vl-w8a8"
    assert "another size of Qwen/Qwen2.5-VL-32B-Instruct's series" in (result.verdict or "")
    assert "parallel degree and memory" in (result.verdict or "")


def test_a_serving_job_gets_no_risk_about_gradients():
    # Review 58 p01: DeepSeek-V3.1 served on 16 GB200s was told to "check that gradient all-reduce overlaps with
    # backward compute" under collectives; a job that trains nothing has no gradients.
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="gb200",
        workload="inference",
        model="deepseek-ai/DeepSeek-V3.1",
        needs={"quantization": "fp8", "devices": 16},
    )
    texts = [reason.text for choice in result.tier(1).choices for reason in choice.rationale]
    assert any(choice.concern == "collectives" for choice in result.tier(1).choices)
    assert not any("gradient" in text.lower() for text in texts)
    trained = answer(
        model_type="moe", hardware="nvidia-gpu", device="gb200", workload="training", needs={"devices": 16}
    )
    collectives = next(c for c in trained.tier(1).choices if c.concern == "collectives")
    assert any("gradient" in reason.text for reason in collectives.rationale)


def test_fp8_weights_on_a_device_without_fp8_units_buy_bandwidth_not_faster_math():
    # Review 58 p14: a 70B model served in FP8 on eight A100s read "fp8 buys room and speed here" beside the chosen
    # stack's own watch that FP8 is weight-only on Ampere (https://docs.vllm.ai/en/latest/features/quantization/fp8/:
    # on GPUs without FP8 support the weights are quantized and the compute stays 16-bit through FP8 Marlin).
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="a100-sxm",
        workload="inference",
        model="meta-llama/Llama-3.1-70B-Instruct",
        needs={"quantization": "fp8", "devices": 8},
    )
    text = " ".join(line.text for line in result.capacity)
    assert "fp8 buys room and weight bandwidth (only the weights are fp8" in text
    native = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="inference",
        model="meta-llama/Llama-3.1-70B-Instruct",
        needs={"quantization": "fp8", "devices": 8},
    )
    assert "fp8 buys room and speed here" in " ".join(line.text for line in native.capacity)


def test_a_job_naming_no_kind_of_training_takes_no_rl_loop():
    # Review 28 p06: a 32B dense pre-training on 256 910C dies (no `training` kind) was given verl's GRPO stack
    # (https://verl.readthedocs.io/en/latest/ascend_tutorial/ascend_quick_start.html): a job naming no kind trains
    # every weight on its data, with no rollout loop, so an RL-only stack is no recipe for it.
    pretrain = answer(
        model_type="dense-transformer",
        hardware="ascend-npu",
        device="ascend-910c",
        workload="training",
        model="Qwen/Qwen3-32B",
        needs={"devices": 256},
    )
    assert pretrain.stacks[0].stack != "ascend-verl-grpo-vllm-ascend"
    # judged on its own (the considered list may be full of nearer recipes, MindSpeed LLM 26.1.0's among them)
    from advisor.recommendation.stack_choice import judge, target_device

    knowledge = load_knowledge_base()
    platform = knowledge.platform("ascend-npu")
    verl = next(s for s in knowledge.stacks_for("ascend-npu") if s.id == "ascend-verl-grpo-vllm-ascend")
    judged = judge(
        verl, "training", pretrain.profile, target_device(pretrain.profile, platform)[0], platform, knowledge
    )
    assert any("documented for rl only" in misfit.text for misfit in judged.misfits)


def test_whisper_on_inferentia2_gets_no_engine_that_serves_no_speech_and_no_cache_claim():
    # Review 57 p12: Whisper large-v3 on an Inf2 read "tier 3: dynamic-shapes vllm" while its own watch says vLLM with
    # NxD Inference lists no speech model (https://awsdocs-neuron.readthedocs-hosted.com/en/v2.29.1/libraries/
    # nxd-inference/developer_guides/vllm-user-guide-v1.html), and capacity said the decoder "keeps a short cache"
    # beside the watch that Optimum Neuron runs Whisper's decoder with no KV cache.
    result = answer(
        model_type="dense-transformer",
        hardware="aws-neuron",
        device="inf2",
        workload="inference",
        task="transcription",
        model="openai/whisper-large-v3",
        needs={"dynamic_shapes": True, "devices": 1},
    )
    assert "vllm" not in result.tier(3).options().values()
    capacity = " ".join(line.text for line in result.capacity)
    assert "keeps a short cache" not in capacity and "any cache it keeps is short" in capacity


def test_a_single_family_record_writes_no_switch_to_become_cross_platform():
    # Review 59 (defect 10): "cross-platform-needed" stood in 10 single-family records. Issue 28's switch conditions
    # are measurable on the target, a knowledge claim changing or a new device generation; a business deciding to run
    # on several families is a new profile, not a condition the record can watch.
    result = answer(model_type="dense-transformer", hardware="nvidia-gpu", workload="inference", needs={"devices": 1})
    assert "cross-platform-needed" not in [switch.id for switch in result.switch_conditions]
    assert any(switch.id == "device-generation" for switch in result.switch_conditions)


def test_a_generic_recipe_command_serves_the_profile_model_and_an_all_reduce_figure_raises_no_confidence():
    # Review 59 p02: GRPO of Qwen3-8B on 8 H100s, then serving it, read "as documented=vllm serve
    # meta-llama/Llama-3.3-70B-Instruct ..." (vLLM's Hopper page example, https://docs.vllm.ai/projects/recipes/en/
    # latest/) with no word of the model to serve, and NVIDIA's all-reduce bandwidth "raised the confidence by a
    # tenth" though it times no layer of the model.
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="both",
        training="rl",
        model="Qwen/Qwen3-8B",
        needs={"dynamic_shapes": True, "devices": 8},
    )
    deployment = next(c for c in result.tier(1).choices if c.concern == "deployment")
    assert "vllm serve meta-llama/Llama-3.3-70B-Instruct" in deployment.settings["as documented"]
    assert deployment.settings["model"] == "Qwen/Qwen3-8B in place of meta-llama/Llama-3.3-70B-Instruct"
    assert not any("raise the confidence by a tenth" in note for note in result.confidence_notes)


def test_a_stack_whose_page_ships_a_script_fits_a_service_only_in_part():
    # Review 60 p02: FLUX.1-dev on an RTX PRO 6000 Server took TensorRT for RTX's Flux.1 [dev] demo "fitting the whole
    # profile" at 0.60, while its own risk says the demo writes images to disk and is no server
    # (https://github.com/NVIDIA/TensorRT-RTX/blob/main/demo/README.md). Still the nearest stack, now a partial fit.
    result = answer(
        model_type="diffusion",
        hardware="nvidia-gpu",
        device="rtx-pro-6000-server",
        workload="inference",
        model="black-forest-labs/FLUX.1-dev",
        needs={"quantization": "fp8", "devices": 1},
    )
    # Reviews 110 and 112 p03: neither the NIM (engines prebuilt per listed GPU) nor TensorRT for RTX (a desktop and
    # workstation runtime) carries over to this card; since reviews 127 and 130 Diffusers' torchao FP8 route, a library
    # call, leads over demoDiffusion's demo script, and says it is no server.
    rows = {option.stack: option for option in result.stacks_considered}
    library = rows["nvidia-diffusers-torchao-fp8"]
    assert library.chosen and not library.fits
    assert "a script, not a server" in library.reason
    demo = rows["nvidia-tensorrt-demodiffusion-flux"]
    assert "a script, not a server" in demo.reason
    assert result.confidence < 0.6


def test_a_full_fine_tune_that_zero_2_fits_is_not_told_it_needs_zero_3():
    # Review 60 p09: a full fine-tune of Llama-3-8B on 16 BI-V150 (32 GB each) was told its state "must be sharded
    # (ZeRO-3/FSDP ...)" beside a DeepSparkHub recipe that runs ZeRO stage 2. Per ZeRO (arXiv 1910.02054, section 5)
    # stage 2 keeps the 2-byte weights on each device and splits the 14 bytes of gradients and Adam state:
    # 16 + 112 / 16 = 23 GB of the 29 GB usable.
    result = answer(
        model_type="dense-transformer",
        hardware="iluvatar-gpu",
        device="tiangai-150",
        workload="training",
        training="fine-tuning",
        model="meta-llama/Meta-Llama-3-8B",
        needs={"devices": 16},
    )
    capacity = " ".join(line.text for line in result.capacity)
    assert (
        "keeps the bf16 weights whole on each device and splits the rest (ZeRO stage 2, or a distributed optimizer "
        "alone) holds about 23 GB" in capacity
    )


def test_an_embedding_index_shared_by_two_families_with_their_own_int8_models_is_checked_for_recall():
    # Review 60 p14: bge-m3 in INT8 on a Xeon 6 and a Graviton4 got one INT8 model per family (Sentence Transformers'
    # avx512_vnni and arm64 presets, https://sbert.net/docs/sentence_transformer/usage/efficiency.html) with no word
    # that their vectors differ for one shared index.
    result = answer(
        model_type="dense-transformer",
        hardware="x86-cpu",
        device="xeon-6-granite-rapids",
        workload="inference",
        model="BAAI/bge-m3",
        needs={"quantization": "int8", "devices": 1, "cross_platform": True, "other_hardware": ["arm-cpu"]},
    )
    tier3 = next(c for c in result.tier(3).choices if c.concern == "quantization")
    assert tier3.settings.get("checkpoints") == "one per family"
    assert any("index shared between them" in reason.text for reason in tier3.rationale)


def test_a_narrower_format_switch_never_moves_to_a_page_that_keeps_the_format_for_other_models():
    # Review 59 p02: Qwen3-8B served in bf16 on H100s got "inference-in-fp8" towards SGLang's Llama 3.1 cookbook, whose
    # page offers an FP8 checkpoint only for the 405B model
    # (https://docs.sglang.io/cookbook/autoregressive/Llama/Llama3.1).
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="both",
        training="rl",
        model="Qwen/Qwen3-8B",
        needs={"dynamic_shapes": True, "devices": 8},
    )
    assert not any(
        switch.id == "inference-in-fp8" and "Llama 3.1 cookbook" in switch.description
        for switch in result.switch_conditions
    )
    assert any(switch.id == "device-generation" for switch in result.switch_conditions)


def test_tier_1_calls_a_partly_fitting_stack_no_proven_validated_whole():
    # Review 59 (defect 9): "proven, supported, least to maintain" headed a community LLaMA-Factory fork on a Hygon
    # K100_AI written for another model (the community cookbook https://github.com/FlyAIBox/dcu-in-action, written for
    # Meta-Llama-3-8B-Instruct).
    result = answer(
        model_type="dense-transformer",
        hardware="hygon-dcu",
        device="k100-ai",
        workload="training",
        training="lora",
        model="Qwen/Qwen3-14B",
        needs={"devices": 8},
    )
    note = result.tier(1).notes[0].text
    assert "proven, supported" not in note
    assert note.startswith("the stack documented for hygon-dcu, but not as a validated whole for this profile")
    fitting = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="inference",
        needs={"devices": 1},
    )
    assert "proven, supported, least to maintain" in fitting.tier(1).notes[0].text


def test_a_kernel_part_named_for_another_format_is_not_a_bf16_job_s_gemm():
    # Review 58 p03: a bf16 GRPO job on MI300X served through SGLang's AMD stack read "gemm: AITER GEMM kernels for FP8
    # linear layers" (https://docs.sglang.io/docs/hardware-platforms/amd_gpu names AITER for the FP8 linear layers).
    result = answer(
        model_type="dense-transformer",
        hardware="amd-gpu",
        device="mi300x",
        workload="both",
        training="rl",
        model="Qwen/Qwen3-32B",
        needs={"dynamic_shapes": True, "long_context": True, "devices": 8},
    )
    gemm = next(c for c in result.tier(1).choices if c.concern == "gemm")
    texts = " ".join(reason.text for reason in gemm.rationale)
    assert "for FP8 linear layers" not in texts


def test_a_lora_job_on_a_stack_naming_no_adapter_library_is_told_which_adds_them_and_static_shapes_add_no_switch():
    # Review 62 p08 (and 61 p10): LoRA of Llama-3.3-70B on 8 Gaudi 3 trained on Intel's DeepSpeed fork with "no LoRA
    # tooling named" (https://docs.habana.ai/en/latest/PyTorch/DeepSpeed/DeepSpeed_User_Guide.html names
    # none); Hugging Face PEFT adds the adapters (https://huggingface.co/docs/peft/). Review 62 also found
    # "dynamic-shapes-needed" in records where it decided nothing.
    result = answer(
        model_type="dense-transformer",
        hardware="intel-gaudi",
        device="gaudi3",
        workload="both",
        training="lora",
        model="meta-llama/Llama-3.3-70B-Instruct",
        needs={"quantization": "fp8", "devices": 8},
    )
    framework = next(c for c in result.tier(1).choices if c.concern == "training-framework")
    assert "PEFT" in framework.settings.get("adapters", "")
    assert "dynamic-shapes-needed" not in [switch.id for switch in result.switch_conditions]


def test_qat_on_a_runtime_that_runs_no_qat_says_where_the_qat_model_comes_from():
    # Review 62 p12: an INT8 QAT CNN on EPYC with ONNX Runtime read "(the toolkit has a QAT flow of its own to set up)"
    # and "ONNX Runtime quantizes the model it serves" beside "ONNX Runtime does not run QAT; QAT models exported from
    # PyTorch or TensorFlow as QDQ graphs run directly" (https://onnxruntime.ai/docs/performance/model-optimizations/
    # quantization.html).
    result = answer(
        model_type="cnn",
        hardware="x86-cpu",
        device="epyc-9005-turin",
        workload="inference",
        parameters_b=0.03,
        needs={"quantization": "int8", "quantization_method": "qat", "devices": 1},
    )
    assert "train quantization-aware in the training framework" in (result.verdict or "")
    quantization = next(c for c in result.tier(1).choices if c.concern == "quantization")
    assert not any("quantizes the model it serves" in reason.text for reason in quantization.rationale)


def test_an_nvfp4_page_for_the_same_generation_gives_the_narrower_format_switch_on_a_b300():
    # Review 61 p01: DeepSeek-R1-0528 in FP8 on 8 B300s got no FP4 switch though it considered TensorRT-LLM's NVFP4
    # DeepSeek page (https://nvidia.github.io/TensorRT-LLM/deployment-guide/deployment-guide-for-deepseek-r1-on-trtllm.html),
    # validated on B200 as the chosen FP8 page is: a rival missing only what the chosen one misses fits as well.
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="b300",
        workload="inference",
        team_skill="hpc",
        model="deepseek-ai/DeepSeek-R1-0528",
        needs={"quantization": "fp8", "devices": 8, "long_context": True, "dynamic_shapes": True},
    )
    assert any(switch.id == "inference-in-nvfp4" for switch in result.switch_conditions)


def test_an_rl_job_takes_no_supervised_trainer_and_says_the_loop_is_the_team_s_to_build():
    # Review 64 p13: GRPO of Qwen3-8B on Trn2 read "train with TRL SFTTrainer + PEFT LoRA": AWS's TorchNeuron tutorial
    # (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/torch/tutorials/tutorial-hf-fine-tuning.html) has no
    # rollout engine or weight sync, so it is no RL stack.
    result = answer(
        model_type="dense-transformer",
        hardware="aws-neuron",
        device="trn2",
        workload="both",
        training="rl",
        model="Qwen/Qwen3-8B",
        needs={"devices": 16},
    )
    assert all(
        stack.stack != "neuron-torchneuron-hf-lora-trn" for stack in result.stacks if stack.workload == "training"
    )
    assert "no documented stack runs an RL loop" in (result.verdict or "")


def test_a_small_encoder_s_size_in_millions_is_read_from_its_id():
    # Review 64 p07: "google/embeddinggemma-300m states no size in its id" (https://huggingface.co/google/embeddinggemma-300m).
    from advisor.knowledge.model_sizes import stated_parameters_b

    assert stated_parameters_b("google/embeddinggemma-300m") == 0.3
    assert stated_parameters_b("Qwen/Qwen2.5-7B-Instruct-1M") == 7  # a context-length tag is no size
    assert stated_parameters_b("BAAI/bge-m3") is None


def test_one_switch_per_trigger_where_the_stack_documents_a_block_scaled_path():
    # Review 63 p05: "fp8-loss-gap" (fall back to BF16) and "training-in-mxfp8" (try MXFP8) both fired on
    # evidence.fp8_loss_gap > 0.01 for a 30B MoE pre-training on 64 MI355X (Primus's MXFP8 config,
    # https://github.com/AMD-AGI/Primus/blob/main/examples/megatron/configs/MI355X/llama3.1_8B-MXFP8-pretrain.yaml).
    result = answer(
        model_type="moe",
        hardware="amd-gpu",
        device="mi355x",
        workload="training",
        team_skill="hpc",
        needs={"quantization": "fp8", "devices": 64},
    )
    metrics = [s.metric for s in result.switch_conditions]
    assert len(metrics) == len(set(metrics))


def test_a_stack_chosen_for_a_sibling_card_names_what_to_run_if_it_does_not_start_there():
    # Reviews 63 p03 and 64 p05: a stack chosen on the strength of a sibling card of the target's generation says what
    # to run if it does not start there. FLUX.1-dev FP4 on an RTX 5090 (the NIM's matrix lists it,
    # https://docs.nvidia.com/nim/visual-genai/1.1.1/support-matrix.html) is listed; an RTX PRO 6000 Server is not,
    # and its chosen stack, demoDiffusion, lists it (reviews 110 and 112 p03): no fallback line there.
    listed = answer(
        model_type="diffusion",
        hardware="nvidia-gpu",
        device="rtx-5090",
        workload="inference",
        model="black-forest-labs/FLUX.1-dev",
        needs={"quantization": "fp4", "devices": 1},
    )
    assert "should it not run on" not in (listed.verdict or "")
    sibling = answer(
        model_type="diffusion",
        hardware="nvidia-gpu",
        device="rtx-pro-6000-server",
        workload="inference",
        model="black-forest-labs/FLUX.1-dev",
        needs={"quantization": "fp8", "devices": 1},
    )
    assert "should it not run on" not in (sibling.verdict or "")
    # a CNN on a Tiangai 150, where Iluvatar's IGIE and ixRT pages name the Zhikai 100 only: the next one is named
    # (on a knowledge base without ixRT's BI-V150 page, which leads on that card since reviews 226/228: the behaviour
    # where every Iluvatar page for this network names the Zhikai 100 only)
    other_card = answer_without(
        {"iluvatar-ixrt-fastapi-tiangai-150"},
        model_type="cnn",
        hardware="iluvatar-gpu",
        device="tiangai-150",
        workload="inference",
    )
    verdict = other_card.verdict or ""
    assert "should it not run on the Iluvatar CoreX Tiangai 150 (BI-V150), the next documented stack is" in verdict


def test_a_converted_speech_file_of_another_size_is_swapped_for_the_profile_s_model():
    # Review 65 p14: whisper-small on Graviton4 got whisper.cpp's command loading ggml-large-v3-turbo-q8_0.bin with no
    # word of the swap (https://github.com/ggml-org/whisper.cpp#quick-start: download-ggml-model.sh <model> fetches
    # ggml-<model>.bin).
    result = answer(
        model_type="dense-transformer",
        hardware="arm-cpu",
        device="graviton4",
        workload="inference",
        task="transcription",
        model="openai/whisper-small",
        needs={"quantization": "int8", "devices": 1},
    )
    deployment = next(c for c in result.tier(1).choices if c.concern == "deployment")
    assert "ggml-large-v3-turbo-q8_0.bin" in deployment.settings["as documented"]
    assert deployment.settings["model"].startswith("openai/whisper-small's own converted file (ggml-small.bin")
