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
