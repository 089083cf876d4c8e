"""Regression tests for the defects reviews 203-204 found (issue 28, advice v3), each against the vendor page cited."""

from __future__ import annotations

from recommendation_builders import answer_for as answer


def test_a_qlora_recipe_races_no_bf16_trainer_on_throughput():
    # Review 204 p07: "QLoRA fine-tuning on Intel Gaudi ... run in bf16 (its recipe defaults to int4)" raced a bf16 LoRA
    # trainer: QLoRA's NF4 base buys memory (https://huggingface.co/docs/peft/main/en/developer_guides/quantization),
    # and an 8B LoRA fits one 128 GB Gaudi 3 in bf16
    result = answer(
        model_type="dense-transformer",
        hardware="intel-gaudi",
        device="gaudi3",
        workload="both",
        training="lora",
        model="meta-llama/Llama-3.1-8B-Instruct",
        needs={"dynamic_shapes": True, "quantization": "fp8", "quantization_method": "ptq", "devices": 1},
    )
    assert not [s.id for s in result.switch_conditions if "qlora" in s.id]
    assert any(row.stack == "gaudi-qlora-bitsandbytes-peft" for row in result.stacks_considered)


def test_a_block_scaled_fp8_release_quotes_nvidias_block_scaled_gemm_timings():
    # Review 204 p01: Qwen3-235B-A22B-FP8 is fine-grained FP8 with 128-wide blocks
    # (https://huggingface.co/Qwen/Qwen3-235B-A22B-FP8), yet the record quoted NVIDIA's per-tensor FP8 GEMM timings;
    # aiconfigurator's tables time block-scaled FP8 apart (fp8_block)
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="inference",
        model="Qwen/Qwen3-235B-A22B",
        needs={"quantization": "fp8", "long_context": True, "devices": 8},
    )
    names = {figure.name for figure in result.reference}
    assert "fp8_block_over_bf16_gemm" in names and "fp8_over_bf16_gemm" not in names
    block = next(figure for figure in result.reference if figure.name == "fp8_block_over_bf16_gemm")
    assert block.figure.startswith("block-scaled fp8 (fp8_block) GEMM is ")
    # a model with no block-scaled release keeps the per-tensor figure
    dense = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="inference",
        model="meta-llama/Llama-3.1-70B-Instruct",
        needs={"quantization": "fp8", "devices": 8},
    )
    assert "fp8_over_bf16_gemm" in {figure.name for figure in dense.reference}
