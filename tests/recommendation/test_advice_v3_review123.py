"""Defects of reviews 123-124 (and earlier leftovers), each pinned."""

from __future__ import annotations

from recommendation_builders import answer_for as answer


def framework_setting(result, key: str = "as documented") -> str:
    return next(c for c in result.tier(1).choices if c.concern == "training-framework").settings.get(key, "")


def test_a_lora_job_reads_the_lora_command_of_a_page_that_documents_lora_and_full_sft_apart():
    # Review 122's leftover: LLaMA-Factory's Ascend setting printed the LoRA command (train_lora/qwen3_lora_sft_ds3.yaml,
    # https://github.com/hiyouga/LlamaFactory/blob/7af909522a951e3ad9f022ea6f88b6755257eaa5/examples/README.md) and
    # the FSDP2 full-SFT one (examples/ascend/qwen3_full_sft_fsdp2.yaml) to a LoRA job; a job reads its own kind's.
    result = answer(
        model_type="dense-transformer",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="both",
        training="lora",
        team_skill="framework",
        model="Qwen/Qwen3-32B",
        needs={"quantization": "int8", "devices": 8},
    )
    training = next(row for row in result.stacks if row.workload == "training")
    assert training.stack == "ascend-llamafactory-sft"
    framework = next(part for part in training.parts if part.role == "training-framework")
    assert "qwen3_lora_sft_ds3.yaml" in (framework.setting or "")
    assert "qwen3_full_sft_fsdp2.yaml" not in (framework.setting or "")
    parallelism = next(part for part in training.parts if part.role == "parallelism")
    assert "ZeRO stage 3" in (parallelism.setting or "") and "fsdp2_config.yaml" not in (parallelism.setting or "")


def test_a_full_fine_tune_and_a_pretraining_each_read_their_own_mindspeed_script():
    # MindSpeed LLM's quick start runs pretrain_qwen3_8b_4K_ptd.sh, tune_qwen3_8b_4K_full_ptd.sh and
    # tune_qwen3_8b_4K_lora_ptd.sh (https://github.com/Ascend/MindSpeed-LLM/blob/master/docs/zh/pytorch/training/quick_start.md).
    scripts = {
        "fine-tuning": "tune_qwen3_8b_4K_full_ptd.sh",
        "lora": "tune_qwen3_8b_4K_lora_ptd.sh",
        "pretraining": "pretrain_qwen3_8b_4K_ptd.sh",
    }
    for kind, script in scripts.items():
        result = answer(
            model_type="dense-transformer",
            hardware="ascend-npu",
            device="ascend-910b",
            workload="training",
            training=kind,
            team_skill="framework",
            model="Qwen/Qwen3-8B",
            needs={"devices": 8},
        )
        setting = framework_setting(result)
        assert script in setting, kind
        assert not any(other in setting for other in scripts.values() if other != script), kind
