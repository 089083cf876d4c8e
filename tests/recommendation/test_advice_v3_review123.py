"""Defects of reviews 123-124 (and earlier leftovers), each pinned."""

from __future__ import annotations

from recommendation_builders import answer_for as answer
from recommendation_builders import answer_without


def framework_setting(result, key: str = "as documented") -> str:
    return next(c for c in result.tier(1).choices if c.concern == "training-framework").settings.get(key, "")


def test_a_lora_job_reads_the_lora_command_of_a_page_that_documents_lora_and_full_sft_apart():
    # Review 122's leftover: LLaMA-Factory's Ascend setting printed the LoRA command (train_lora/qwen3_lora_sft_ds3.yaml,
    # https://github.com/hiyouga/LlamaFactory/blob/7af909522a951e3ad9f022ea6f88b6755257eaa5/examples/README.md) and
    # the FSDP2 full-SFT one (examples/ascend/qwen3_full_sft_fsdp2.yaml) to a LoRA job; a job reads its own kind's.
    # Qwen3-8B: ms-swift's Ascend example is written for Qwen3-32B itself (scenario 803).
    result = answer(
        model_type="dense-transformer",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="both",
        training="lora",
        team_skill="framework",
        model="Qwen/Qwen3-8B",
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
            team_skill="hpc",  # a framework team's LoRA takes LLaMA-Factory (the test below)
            model="Qwen/Qwen3-8B",
            needs={"devices": 8},
        )
        setting = framework_setting(result)
        assert script in setting, kind
        assert not any(other in setting for other in scripts.values() if other != script), kind


RT_DETR_ON_L40S = {
    "model_type": "cnn",
    "hardware": "nvidia-gpu",
    "device": "l40s",
    "workload": "inference",
    "team_skill": "kernel",
    "model": "PekingU/rtdetr_v2_r50vd",
    "needs": {"quantization": "int8", "quantization_method": "ptq", "devices": 1},
}


def test_a_detector_on_a_resnet_backbone_keeps_its_convolution_library_and_plans_its_attention():
    # Review 123 p03 (scored 1): RT-DETRv2 r50vd was taken for a plain vision transformer ("one convolution is its patch
    # embedding"), though its backbone is a ResNet-50-vd (https://huggingface.co/docs/transformers/model_doc/rt_detr_v2).
    result = answer(**RT_DETR_ON_L40S)
    tier1 = result.tier(1).options()
    assert "convolution" in tier1 and "attention" in tier1
    skipped = " ".join(r.text for s in result.skipped_concerns for r in s.rationale)
    assert "patch embedding" not in skipped
    plain_vit = answer(**{**RT_DETR_ON_L40S, "model": "google/vit-base-patch16-224"})
    assert "convolution" not in plain_vit.tier(1).options()  # a ViT's one convolution needs no library


def test_a_cnn_record_lists_no_llm_or_diffusion_stack_as_an_option():
    # Review 123 p03: a vLLM text stack and four diffusion stacks filled the CNN detector's considered options.
    result = answer(**RT_DETR_ON_L40S)
    for row in result.stacks_considered:
        assert "diffusion" not in row.stack and "vllm" not in row.stack, row.stack


def test_an_int8_model_that_misses_its_gate_tries_the_stacks_fp8_path_on_a_device_that_runs_fp8():
    # TensorRT runs INT8 and FP8 Q/DQ convolutions, FP8 from compute capability 8.9 (L40S, H100; the stack's page,
    # https://github.com/NVIDIA/Model-Optimizer/blob/main/examples/onnx_ptq/README.md): the accuracy gate's next step is FP8 there.
    result = answer(**RT_DETR_ON_L40S)
    gate = next(s for s in result.switch_conditions if s.metric == "evidence.int8_accuracy_drop")
    assert "fp8 path" in gate.description and "falling back to the float model" in gate.description
    on_a100 = answer(**{**RT_DETR_ON_L40S, "device": "a100-sxm"})  # no FP8 units: the plain gate
    gate = next(s for s in on_a100.switch_conditions if s.metric == "evidence.int8_accuracy_drop")
    assert "fp8" not in gate.description.lower()


QWEN3_235B_ON_H200 = {
    "model_type": "moe",
    "hardware": "nvidia-gpu",
    "device": "h200-sxm",
    "workload": "inference",
    "team_skill": "framework",
    "model": "Qwen/Qwen3-235B-A22B-Instruct-2507",
    "needs": {"quantization": "fp8", "long_context": True, "dynamic_shapes": True, "devices": 8},
}


def test_no_choice_lists_its_own_option_among_its_alternatives():
    # Review 124's record: "quantization (tier 1): `tensorrt-llm` over `tensorrt-llm`, `llm-compressor`, ...".
    result = answer(**QWEN3_235B_ON_H200)
    for tier in result.tiers:
        for choice in tier.choices:
            assert choice.option not in choice.alternatives, (tier.tier, choice.concern)


def test_a_risk_that_opens_on_another_generation_is_not_an_h200_records_risk():
    # Review 124 p01: "For the FP8 Qwen3-235B-A22B checkpoint on Blackwell (B100/B200), ... set DEEPGEMM" was a
    # consequence of an H200 decision; NVIDIA's Dynamo recipe keeps the default MoE backend on Hopper
    # (https://docs.nvidia.com/dynamo/dev/recipes/qwen3-235b-a22b-fp8.md).
    result = answer(**QWEN3_235B_ON_H200)
    risks = [risk.text for stack in result.stacks for risk in stack.risks]
    assert risks and not any(text.startswith("For the FP8 Qwen3-235B-A22B checkpoint on Blackwell") for text in risks)
    on_b200 = answer(**{**QWEN3_235B_ON_H200, "device": "b200"})
    said = [risk.text for stack in on_b200.stacks for risk in stack.risks]
    chosen = {stack.stack for stack in on_b200.stacks}
    if "nvidia-trtllm-qwen3-bf16" in chosen:  # the same stack on Blackwell keeps it
        assert any("on Blackwell (B100/B200)" in text for text in said)


def test_a_graviton_answer_cites_a_graviton_page_for_its_int4_format_not_an_android_one():
    # Review 124 p15: llama.cpp's INT4 support on a Graviton4 cited arm-llamacpp-android; AWS documents llama.cpp on
    # Graviton (https://github.com/aws/aws-graviton-getting-started/blob/main/machinelearning/llama.cpp.md).
    result = answer(
        model_type="dense-transformer",
        hardware="arm-cpu",
        device="graviton4",
        workload="inference",
        team_skill="kernel",
        model="Qwen/Qwen3-4B-Instruct-2507",
        needs={"quantization": "int4", "dynamic_shapes": True, "devices": 1},
    )
    cited = {c.ref for choice in result.tier(1).choices for r in choice.rationale for c in r.cites}
    assert not any(ref.startswith("arm-llamacpp-android") for ref in cited), cited
    assert "arm-llamacpp-graviton.summary" in cited


def test_a_risk_about_deepseek_v31_reaches_a_v31_record_only():
    # Review 123 p01: vLLM's DeepSeek-V3.1 recipe (https://github.com/vllm-project/recipes/blob/8959cf64189c71d36e11c6a30335f923f261b1f7/DeepSeek/DeepSeek-V3_1.md)
    # has its own tool-call parser; the risk saying so concerns V3.1, not a DeepSeek-V3 served by the same stack.
    asked = {
        "model_type": "moe",
        "hardware": "nvidia-gpu",
        "device": "b200",
        "workload": "inference",
        "team_skill": "framework",
        "needs": {"quantization": "fp4", "devices": 8},
    }
    from advisor.knowledge.loader import load_knowledge_base
    from advisor.recommendation.stack_choice import chosen_stack, judge

    knowledge = load_knowledge_base()
    platform = knowledge.platform("nvidia-gpu")
    stack = knowledge.stack("nvidia-vllm-nvfp4-blackwell")
    for model, expected in (("deepseek-ai/DeepSeek-V3.1", True), ("deepseek-ai/DeepSeek-V3-0324", False)):
        profile = answer(**asked, model=model).profile
        judged = judge(stack, "inference", profile, platform.device("b200"), platform, knowledge)
        risks = [risk.text for risk in chosen_stack(judged, profile).risks]
        assert any("deepseek_v31" in text for text in risks) is expected, model


def test_a_model_quantized_for_speed_switches_back_to_bf16_where_it_is_not_faster():
    # Review 123 p07: Qwen2.5-14B in INT8 on one MLU590 had only an accuracy gate and a device change; the bf16 model
    # (about 30 GB) fits the card, so INT8 is chosen for speed, and the measured speed-up is the condition to keep it.
    asked = {
        "model_type": "dense-transformer",
        "hardware": "cambricon-mlu",
        "device": "mlu590",
        "workload": "inference",
        "team_skill": "hpc",
        "model": "Qwen/Qwen2.5-14B-Instruct",
        "needs": {"quantization": "int8", "dynamic_shapes": True, "devices": 1},
    }
    result = answer(**asked)
    pays = next(s for s in result.switch_conditions if s.id == "int8-no-speedup")
    assert pays.metric == "evidence.inference_throughput.int8_over_bf16" and pays.op == "<" and pays.threshold == 1.1
    assert "changing only what is compared" in pays.rerun
    # a 235B model in int8 on 4 x 64 GB: bf16 (about 470 GB) would not fit them, so the format is what makes it fit
    big = answer(
        model_type="moe",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="inference",
        team_skill="hpc",
        model="Qwen/Qwen3-235B-A22B",
        needs={"quantization": "int8", "devices": 4},
    )
    assert not any(s.id == "int8-no-speedup" for s in big.switch_conditions)
    # review 128 p06: DeepSeek-R1 is released in FP8, so a bf16 model would be an upcast, not the release to go back to
    released = answer(
        model_type="moe",
        hardware="ascend-npu",
        device="ascend-910c",
        workload="inference",
        team_skill="hpc",
        model="deepseek-ai/DeepSeek-R1-0528",
        needs={"quantization": "int8", "devices": 32},
    )
    assert not any(s.id == "int8-no-speedup" for s in released.switch_conditions)


QWEN25_VL_ON_910B = {
    "model_type": "multimodal",
    "hardware": "ascend-npu",
    "device": "ascend-910b",
    "workload": "inference",
    "team_skill": "framework",
    "model": "Qwen/Qwen2.5-VL-72B-Instruct",
    "needs": {"quantization": "int8", "dynamic_shapes": True, "devices": 4},
}


def test_a_model_the_current_release_dropped_is_pointed_to_its_successor_not_a_bf16_route_it_lacks():
    # Review 126 p05 (scored 1; review 122 p05 before it): vllm-ascend dropped Qwen2.5-VL from its supported models
    # (https://github.com/vllm-project/vllm-ascend/pull/8452), yet the verdict said its current release serves it in
    # bf16; its current W8A8 VL route is Qwen3-VL's (https://github.com/Ascend/msmodelslim/blob/17c1c103c93a16f359c5b918abee56f51796dde6/example/multimodal_vlm/Qwen3-VL/README.md).
    # where no current engine documents the model's W8A8 route: the knowledge base without MindIE's
    # (https://github.com/Ascend/MindIE-LLM/blob/v3.0.0/docs/zh/user_guide/model_support_list.md lists it since)
    result = answer_without({"ascend-mindie-qwen25vl-w8a8"}, **QWEN25_VL_ON_910B)
    verdict = result.verdict or ""
    assert "on the current release vLLM (vllm-ascend) serving dense vision-language models" not in verdict
    assert "time-boxed exception" in verdict and "move to Qwen/Qwen3-VL-32B-Instruct" in verdict
    # the BF16-only multimodal stack may fall past the listed options behind the int8 ones (the Qwen3.5-27B tutorial's
    # W8A8 stack, https://docs.vllm.ai/projects/ascend/en/latest/tutorials/models/Qwen3.5-27B-Qwen3.6-27B.html); it is
    # never the one chosen
    assert not any(r.chosen for r in result.stacks_considered if r.stack == "ascend-vllm-ascend-multimodal")


def test_a_record_on_a_superseded_stack_is_reviewed_in_six_months():
    import datetime as dt

    from advisor.records.decision import review_by_for

    decided = dt.date(2026, 12, 6)
    superseded = answer_without({"ascend-mindie-qwen25vl-w8a8"}, **QWEN25_VL_ON_910B)  # no current W8A8 route
    assert "no longer carries" in (superseded.early_review() or "")
    assert review_by_for(decided, superseded) == dt.date(2027, 6, 6)


def test_a_records_risks_put_the_one_naming_the_target_device_before_the_rest():
    # Review 125 p06: DeepSeek-R1-0528 W8A8 on 16 x 910B; the record kept four risks and left out "On Atlas 800 A2
    # (910B) one node ... is below both tutorials' minimum"
    # (https://docs.vllm.ai/projects/ascend/en/main/tutorials/models/DeepSeek-R1.html).
    from advisor.records.render import record_risks

    result = answer(
        model_type="moe",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="inference",
        team_skill="kernel",
        model="deepseek-ai/DeepSeek-R1-0528",
        needs={"quantization": "int8", "devices": 16},
    )
    kept = [text for _, _, text in record_risks(result)]
    assert any(text.startswith("On Atlas 800 A2 (910B)") for text in kept)


def test_an_fp4_model_at_long_context_gets_the_engines_fp8_kv_cache():
    # Review 126 p01: Qwen3-235B in NVFP4 on 8 B200 at long context quoted NVIDIA's fp8-KV decode figure yet kept a
    # bf16 KV cache; TensorRT-LLM documents an FP8 KV cache on Hopper and Blackwell
    # (https://nvidia.github.io/TensorRT-LLM/features/quantization.html).
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="b200",
        workload="inference",
        team_skill="framework",
        model="Qwen/Qwen3-235B-A22B-Instruct-2507",
        needs={"quantization": "fp4", "long_context": True, "dynamic_shapes": True, "devices": 8},
    )
    deployment = next(c for c in result.tier(1).choices if c.concern == "deployment")
    assert "FP8 KV cache" in deployment.settings.get("kv-cache", "")


def test_tier_2s_gap_note_names_at_least_a_kernel_team_for_writing_kernels():
    # Reviews 127/128: "needs more skill than the framework team has: ... open to a framework team" for cnnl-bang,
    # a library a framework team calls but whose BANG C kernels it does not write.
    result = answer(
        model_type="dense-transformer",
        hardware="cambricon-mlu",
        device="mlu590",
        workload="inference",
        team_skill="framework",
        model="Qwen/Qwen3-8B",
        needs={"devices": 1},
    )
    notes = [note.text for note in result.tier(2).notes if note.text.startswith("writing kernels in")]
    assert notes and all(not text.endswith("open to a framework team") for text in notes)
    assert any(text.endswith("open to a kernel team") or text.endswith("open to a hpc team") for text in notes)


def test_a_model_under_a_non_commercial_licence_says_so_whatever_stack_serves_it():
    # Review 127 p15 (scored 1): FLUX.1-dev on an RTX PRO 6000 never raised that its weights come under the FLUX.1 [dev]
    # Non-Commercial License (https://huggingface.co/black-forest-labs/FLUX.1-dev); FLUX.1 [schnell] is Apache 2.0
    # (https://huggingface.co/black-forest-labs/FLUX.1-schnell).
    asked = {
        "model_type": "diffusion",
        "hardware": "nvidia-gpu",
        "device": "rtx-pro-6000-server",
        "workload": "inference",
        "needs": {"quantization": "fp4", "devices": 1},
    }
    dev = answer(**asked, model="black-forest-labs/FLUX.1-dev")
    said = [note.text for note in dev.capacity]
    assert any(text.startswith("licence:") and "FLUX.1 [dev] Non-Commercial License" in text for text in said)
    schnell = answer(**asked, model="black-forest-labs/FLUX.1-schnell")
    assert not any(note.text.startswith("licence:") for note in schnell.capacity)


def test_a_framework_teams_lora_takes_the_fine_tuning_tool_over_a_pretraining_framework_that_fits_as_well():
    # Reviews 124 p05 and 128 p05: Qwen3-8B LoRA then W8A8 serving on 8 x 910B; MindSpeed LLM (Megatron weights
    # converted in and out) was chosen over LLaMA-Factory only for its place in the platform's documentation, while
    # vllm-ascend's own user story trains with LLaMA-Factory
    # (https://docs.vllm.ai/projects/ascend/zh-cn/latest/community/user_stories/llamafactory.html).
    asked = {
        "model_type": "dense-transformer",
        "hardware": "ascend-npu",
        "device": "ascend-910b",
        "workload": "both",
        "training": "lora",
        "model": "Qwen/Qwen3-8B",
        "needs": {"quantization": "int8", "dynamic_shapes": True, "devices": 8},
    }
    framework_team = answer(**asked, team_skill="framework")
    training = next(row for row in framework_team.stacks_considered if row.chosen and row.workload == "training")
    assert training.stack == "ascend-llamafactory-sft"
    mindspeed = next(
        row for row in framework_team.stacks_considered if row.stack == "ascend-mindspeed-llm-dense-training"
    )
    assert "the lighter route for a framework team" in mindspeed.reason
    hpc_team = answer(**asked, team_skill="hpc")  # the tie-break is for a framework team only
    assert not any("lighter route" in row.reason for row in hpc_team.stacks_considered)
