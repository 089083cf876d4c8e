"""Advice v3, reviews 257-262: defects fixed in the twenty-ninth session, each pinned on the profile that showed it."""

from __future__ import annotations

from recommendation_builders import answer_for as answer
from recommendation_builders import choice, chosen_stack, considered


def test_a_stack_its_vendor_ended_on_the_device_is_set_aside_for_that_first():
    # Review 258 p09: NxD Inference's Qwen3 MoE stack on Trn2 was set aside as "written for Qwen/Qwen3-235B-A22B", while
    # AWS no longer supports NxD Inference on Trn2 and Trn3 from Neuron 2.34
    # (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/about-neuron/announcements/neuron2.x/announce-no-support-nxdi-nxd-core-inference-trn.html)
    result = answer(
        model_type="dense-transformer",
        hardware="aws-neuron",
        device="trn2",
        workload="inference",
        team_skill="framework",
        model="meta-llama/Llama-3.3-70B-Instruct",
        needs={"long_context": True, "devices": 16},
    )
    reason = considered(result, "neuron-nxdi-qwen3-moe-trn2").reason
    assert reason.startswith("From Neuron 2.34 AWS no longer supports NxD Inference")
    assert "written for Qwen/Qwen3-235B-A22B" in reason  # the model misfit is still said, after it


def test_a_serving_sla_shorter_than_long_context_says_it_stands_in_for_it():
    # Review 258 p02: long_context true with an 8k/2k SLA tested TensorRT-LLM's 9,472-token launch against 10,000
    # tokens and never said the long-context threshold (32,768) had been set aside
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="b200",
        workload="inference",
        team_skill="kernel",
        model="deepseek-ai/DeepSeek-R1",
        needs={"dynamic_shapes": True, "quantization": "fp4", "long_context": True, "devices": 8},
        serving={"isl": 8000, "osl": 2000, "ttft_ms": 3000, "tpot_ms": 40},
    )
    chosen = next(option for option in result.stacks_considered if option.chosen)
    assert "the 10,000 tokens a request of your serving SLA holds" in chosen.reason
    assert "stands in for the 32,768 that needs.long_context otherwise starts at" in chosen.reason


def test_a_kernel_team_under_an_engine_with_its_own_attention_gets_an_attention_route_in_tier_2():
    # Review 258 p02: a kernel team serving an MLA MoE model on B200 under TensorRT-LLM (whose attention backend is its
    # own) got tier-2 routes for GEMM, fusion and quantization but none for attention
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="b200",
        workload="inference",
        team_skill="kernel",
        model="deepseek-ai/DeepSeek-R1",
        needs={"quantization": "fp4", "devices": 8},
    )
    assert chosen_stack(result).startswith("nvidia-trtllm-")
    assert choice(result, "attention", tier=2).option in ("triton", "cutlass", "flexattention")


def test_a_generic_training_recipe_is_sized_from_the_recipe_written_for_a_model_of_the_jobs_size():
    # Review 258 p06: a 72B long-context pre-training on 64 Atlas A3 dies got MindSpeed LLM's 8B quick start, and the
    # project's Qwen2.5-72B recipe (its 32K pre-training at TP8 PP4 CP4,
    # https://github.com/Ascend/MindSpeed-LLM/blob/2b7130ca7bea7083a91ed66812eec95067d057a2/examples/mcore/qwen25/tune_qwen25_72b_32k_full_pack.sh
    # and the pretrain_qwen25_72b_32k_ptd.sh beside it) was only turned down
    result = answer(
        model_type="dense-transformer",
        hardware="ascend-npu",
        device="ascend-910c",
        workload="training",
        training="pretraining",
        team_skill="hpc",
        parameters_b=72,
        needs={"long_context": True, "devices": 64},
    )
    reason = considered(result, "ascend-mindspeed-llm-qwen25-72b").reason
    assert "its layout for Qwen/Qwen2.5-72B (32K pre-training TP8 PP4 CP4" in reason
    assert "nearest one documented for a 72B model" in reason
    # a job of another size is not sent to the 72B layout
    small = answer(
        model_type="dense-transformer",
        hardware="ascend-npu",
        device="ascend-910c",
        workload="training",
        training="pretraining",
        team_skill="hpc",
        parameters_b=8,
        needs={"long_context": True, "devices": 64},
    )
    assert all("nearest one documented" not in option.reason for option in small.stacks_considered)


def test_training_on_a_shape_compiling_runtime_pads_to_fixed_lengths_not_per_batch():
    # Review 257 p05: a LoRA on Gaudi 2 was told to pad per batch and group samples by length, while Intel's dynamic
    # shapes page says each new shape recompiles the graph and advises bucketing and padding
    # (https://docs.habana.ai/en/latest/PyTorch/Model_Optimization_PyTorch/Dynamic_Shapes.html)
    result = answer(
        model_type="dense-transformer",
        hardware="intel-gaudi",
        device="gaudi2",
        workload="training",
        training="lora",
        team_skill="framework",
        model="meta-llama/Llama-3.1-8B-Instruct",
        parameters_b=8,
        needs={"dynamic_shapes": True, "devices": 8},
    )
    text = " ".join(reason.text for reason in choice(result, "dynamic-shapes").rationale)
    assert "pad every batch to one max_length (or a few length buckets)" in text
    assert "group_by_length" not in text
    # on a GPU, whose runtime takes each batch's lengths, the trainer's own per-batch padding stays
    gpu = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="training",
        training="lora",
        team_skill="framework",
        model="meta-llama/Llama-3.1-8B-Instruct",
        parameters_b=8,
        needs={"dynamic_shapes": True, "devices": 8},
    )
    gpu_text = " ".join(reason.text for reason in choice(gpu, "dynamic-shapes").rationale)
    assert "pad every batch to one max_length" not in gpu_text
