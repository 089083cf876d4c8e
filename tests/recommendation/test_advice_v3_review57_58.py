"""Review 57 p04's missing MXFP8 step, pinned."""

from __future__ import annotations

from recommendation_builders import answer_for as answer


def test_an_fp8_training_run_on_a_stack_with_an_mxfp8_path_is_offered_that_path_before_bf16():
    # Review 57 p04 (Llama 3.1 8B FP8 pretraining on 64 MI355X): a training-in-mxfp4 switch but no MXFP8 one, although
    # Primus's MI355X recipe ships llama3.1_8B-MXFP8-pretrain.yaml (fp8: e4m3, fp8_recipe: mxfp8)
    # (https://github.com/AMD-AGI/Primus/blob/main/docs/02-user-guide/megatron-lm-training.md).
    result = answer(
        model_type="dense-transformer",
        hardware="amd-gpu",
        device="mi355x",
        workload="training",
        training="pretraining",
        team_skill="hpc",
        parameters_b=8,
        needs={"quantization": "fp8", "quantization_method": "qat", "devices": 64},
    )
    mxfp8 = next(c for c in result.switch_conditions if c.id == "training-in-mxfp8")
    assert mxfp8.metric == "evidence.fp8_loss_gap"
    assert "before falling back to BF16" in mxfp8.description
    assert "only for Llama 3.1 8B" in mxfp8.description


def test_no_mxfp8_step_where_the_device_has_no_mxfp8_units():
    # MI300X (gfx942) lists no MXFP8 among its formats (https://rocm.docs.amd.com/en/latest/reference/gpu-specs.html).
    result = answer(
        model_type="dense-transformer",
        hardware="amd-gpu",
        device="mi300x",
        workload="training",
        training="pretraining",
        team_skill="hpc",
        parameters_b=8,
        needs={"quantization": "fp8", "quantization_method": "qat", "devices": 64},
    )
    assert "training-in-mxfp8" not in {c.id for c in result.switch_conditions}
