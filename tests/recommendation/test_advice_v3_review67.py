"""Review 66's remaining defects and reviews 67 and 68's, each pinned."""

from __future__ import annotations

from recommendation_builders import answer_for as answer

from advisor.knowledge.loader import load_knowledge_base


def test_an_engine_whose_page_leaves_the_device_untested_says_so():
    # Review 66 p01: Qwen3-30B-A3B FP8 on an RTX PRO 6000 Server took TensorRT-LLM's Qwen3 guide without saying that
    # TensorRT-LLM's supported-hardware page (https://nvidia.github.io/TensorRT-LLM/supported-hardware.html) lists no
    # RTX Blackwell card, which its support matrix leaves to community support.
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="rtx-pro-6000-server",
        workload="inference",
        model="Qwen/Qwen3-30B-A3B-FP8",
        needs={"quantization": "fp8"},
    )
    chosen = next(row for row in result.stacks_considered if row.chosen)
    assert chosen.stack == "nvidia-trtllm-qwen3-bf16"
    assert "supported-hardware page does not list NVIDIA RTX PRO 6000" in chosen.reason
    assert "community support only" in result.verdict
    on_listed = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="h200-sxm",
        workload="inference",
        model="Qwen/Qwen3-30B-A3B-FP8",
        needs={"quantization": "fp8"},
    )
    assert "supported-hardware page" not in on_listed.verdict


def test_a_device_list_is_read_for_its_own_family_only():
    trtllm = load_knowledge_base().get("tensorrt-llm")
    assert trtllm.leaves_untested("rtx-5090", ["b200", "rtx-5090"])
    assert not trtllm.leaves_untested("b200", ["b200", "rtx-5090"])
    assert not trtllm.leaves_untested("mi300x", ["mi300x"])  # its list names no device of that family


def test_a_weight_only_path_for_devices_without_fp8_units_is_not_the_choice_on_a_card_with_them():
    # Review 68 p02: Qwen3-14B in FP8 on an RTX 5090 (FP8 GEMMs on compute capability 12.0 per the TensorRT-RTX support
    # matrix) took vLLM's FP8 Marlin stack, which runs FP8 weight-only because the A100 lacks FP8 units; vLLM runs
    # W8A8 from compute capability 8.9 (https://docs.vllm.ai/en/v0.32.0/features/quantization/llm_compressor/fp8/).
    # TensorRT-LLM's supported-hardware page lists no RTX 5090, so vLLM's W8A8 stack comes first.
    profile = {
        "model_type": "dense-transformer",
        "hardware": "nvidia-gpu",
        "workload": "inference",
        "model": "Qwen/Qwen3-14B",
        "needs": {"quantization": "fp8"},
    }
    on_5090 = answer(**profile, device="rtx-5090")
    chosen = next(row for row in on_5090.stacks_considered if row.chosen)
    assert chosen.stack == "nvidia-vllm-fp8-hopper"
    assert "Qwen/Qwen3-14B-FP8" in " ".join(r.text for c in on_5090.tier(1).choices for r in c.rationale)
    on_a100 = answer(**profile, device="a100-sxm")
    assert next(row for row in on_a100.stacks_considered if row.chosen).stack == "nvidia-vllm-fp8-marlin-ampere"


def test_long_context_training_on_a_route_without_context_parallelism_says_what_to_check():
    # Review 67 p06: a 32K full fine-tune of Qwen3-32B on 910C said nothing of the sequence length.
    result = answer(
        model_type="dense-transformer",
        hardware="ascend-npu",
        device="ascend-910c",
        workload="training",
        training="fine-tuning",
        model="Qwen/Qwen3-32B",
        needs={"long_context": True, "devices": 16},
    )
    framework = next(c for c in result.tier(1).choices if c.concern == "training-framework")
    texts = " ".join(r.text for r in framework.rationale)
    assert "long context:" in texts


def test_deepseek_v32_is_sized_for_the_capacity_check():
    # Review 68 p01: "capacity: not checked: deepseek-ai/DeepSeek-V3.2 states no size in its id" for 8 x B200; its
    # README runs it with config_671B_v3.2.json.
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="b200",
        workload="inference",
        model="deepseek-ai/DeepSeek-V3.2",
        needs={"quantization": "fp8", "devices": 8},
    )
    assert "671B model's weights take about 671 GB in fp8" in " ".join(r.text for r in result.capacity)


def test_no_long_context_switch_where_the_platform_has_no_attention_kernel_to_switch_to():
    # Review 67 p09: "long-context-needed ... flash-style attention becomes mandatory" beside "no attention kernel for
    # iluvatar-gpu" in the same record.
    result = answer(
        model_type="dense-transformer",
        hardware="iluvatar-gpu",
        device="tiangai-150",
        workload="training",
        training="lora",
        model="Qwen/Qwen3-8B",
        needs={"devices": 8},
    )
    assert any(gap.concern == "attention" for gap in result.tier(1).gaps)
    assert "long-context-needed" not in {s.id for s in result.switch_conditions}


def test_the_peft_merge_is_named_for_the_peft_library_not_for_the_word_in_a_setting():
    # Review 68 p05: Primus post-training's setting "overrides peft lora" (Megatron Bridge's own LoRA layers) made the
    # record say "PEFT's merge_and_unload writes a whole checkpoint" beside Megatron Bridge's own export.
    from advisor.profile import parse_profile
    from advisor.recommendation.engine import recommend

    knowledge = load_knowledge_base()
    primus = next(s for s in knowledge.stacks if s.id == "amd-primus-megatron-bridge-posttrain")
    assert any("peft" in (c.setting or "").lower() for c in primus.components)  # the word is there
    without_export = knowledge.model_copy(
        update={
            "stacks": tuple(s.model_copy(update={"checkpoint": None}) if s is primus else s for s in knowledge.stacks)
        }
    )
    profile = parse_profile(
        "model_type: dense-transformer\nhardware: amd-gpu\ndevice: mi300x\nworkload: both\nteam_skill: framework\n"
        "training: lora\nmodel: Qwen/Qwen3-32B\nneeds: {devices: 8}\n"
    )  # Qwen3 32B: the model AMD's post-training page documents on MI300X (Llama 3.3 70B moved to the native route)
    result = recommend(profile, [], without_export)
    assert next(s for s in result.stacks if s.workload == "training").stack == primus.id
    assert result.verdict is not None and "merge the LoRA adapters into the base model first" in result.verdict
    assert "merge_and_unload" not in result.verdict and "training framework's own merge step" in result.verdict


def test_a_cnn_on_two_families_whose_runtimes_both_build_from_onnx_names_the_shared_export():
    # Review 68 p09: a CNN in INT8 on an Iluvatar Zhikai 100 that must also run on an L40S got an empty tier 3, though
    # IGIE builds from the ONNX file its recipe exports (DeepSparkInference's igie_common/export.py) and TensorRT builds
    # its engine from the Q/DQ ONNX model (Model Optimizer's onnx_ptq example).
    result = answer(
        model_type="cnn",
        hardware="iluvatar-gpu",
        device="zhikai-100",
        workload="inference",
        team_skill="kernel",
        needs={
            "quantization": "int8",
            "cross_platform": True,
            "other_hardware": ["nvidia-gpu"],
            "other_devices": ["l40s"],
        },
    )
    note = next(n.text for n in result.tier(3).notes if n.text.startswith("on nvidia-gpu,"))
    assert "TensorRT INT8 CNN inference" in note and "builds from an ONNX export of the model" in note
    alone = answer(
        model_type="cnn",
        hardware="iluvatar-gpu",
        device="zhikai-100",
        workload="inference",
        needs={"quantization": "int8", "cross_platform": True, "other_hardware": ["intel-gaudi"]},
    )
    assert not any("ONNX export" in n.text for n in alone.tier(3).notes)


def test_a_larger_sizes_multi_device_recipe_is_no_scale_misfit_for_a_smaller_model_on_one_device():
    # Review 67 p08: Qwen2.5-VL-7B on one K100_AI; Hygon's Qwen2.5-VL page runs the 32B on 4 cards and the 72B on 8
    # (https://github.com/HYGON-AI/inference-cookbook-das/blob/ad2a8ffae71a43eb655296ecf562a35c2c5a0bd6/docs/model-deployment/vllm/qwen2.5-vl.md).
    result = answer(
        model_type="multimodal",
        hardware="hygon-dcu",
        device="k100-ai",
        workload="inference",
        model="Qwen/Qwen2.5-VL-7B-Instruct",
        needs={"devices": 1},
    )
    assert result.stacks[0].stack == "hygon-vllm-qwen25-vl-cookbook-k100-ai"
    assert result.verdict is not None and "this job needs single-device" not in result.verdict
    larger = answer(
        model_type="multimodal",
        hardware="hygon-dcu",
        device="k100-ai",
        workload="inference",
        model="Qwen/Qwen2.5-VL-72B-Instruct",
        needs={"devices": 1},
    )
    assert larger.verdict is not None and "this job needs single-device" in larger.verdict


def test_fp8_on_trn2_is_not_said_to_be_unrunnable_where_the_stack_documents_only_mxfp8():
    # Review 70 p08: "AWS Trainium2 does not run mxfp8 natively, so for the fp8 asked it would run in bf16" read as fp8
    # being impossible on Trn2, which runs static FP8 checkpoints (vLLM Neuron's Llama 3 recipe,
    # https://awsdocs-neuron.readthedocs-hosted.com/en/latest/vllm-neuron/docs/model-recipes/llama-3.html); its Qwen3
    # recipes run BF16 on Trn2 and MXFP8 on Trn3 only. Since scenario 576 the plugin's general stack names its recipes'
    # models, Qwen3-32B among them and no Qwen3 MoE, so the wording is checked on Qwen3-32B.
    result = answer(
        model_type="dense-transformer",
        hardware="aws-neuron",
        device="trn2",
        workload="inference",
        model="Qwen/Qwen3-32B",
        needs={"quantization": "fp8", "devices": 16},
    )
    assert result.verdict is not None
    assert "documents fp8 only as mxfp8" in result.verdict and "AWS Trainium2 runs fp8" in result.verdict


def test_a_stack_leaving_maintenance_before_the_year_is_out_sets_the_review_date():
    # Review 69 p04: MindSpeed LLM 26.1.0 leaves maintenance from 2026-12-30 (its README's maintenance table), yet the
    # record chose it with review_by a year out and never said so. (For a short-context LoRA, LLaMA-Factory now comes
    # first, review 108 p06; a long-context one keeps MindSpeed's recipe with its context parallelism.)
    import datetime as dt

    from advisor.records.decision import build_front_matter, review_by_for
    from advisor.records.render import render_record

    result = answer(
        model_type="dense-transformer",
        hardware="ascend-npu",
        device="ascend-910c",
        workload="training",
        training="lora",
        model="Qwen/Qwen3-32B",
        needs={"devices": 16, "long_context": True},
    )
    assert result.maintenance_end() is not None and result.maintenance_end()[0] == dt.date(2026, 12, 30)
    front = build_front_matter(1, "Qwen3-32B LoRA", result, [], None, ["Ann"], dt.date(2026, 12, 5))
    assert front.review_by == dt.date(2026, 12, 30)
    assert "Review by 2026-12-30 (when MindSpeed LLM 26.1.0" in render_record(front, result, [])
    assert review_by_for(dt.date(2027, 1, 4), result) == dt.date(2027, 1, 4)  # already out of maintenance: at once
    elsewhere = answer(
        model_type="dense-transformer", hardware="ascend-npu", device="ascend-910c", workload="inference"
    )
    assert review_by_for(dt.date(2026, 12, 5), elsewhere) == dt.date(2027, 12, 5)


def test_an_uncovered_training_side_names_the_other_familys_documented_stack():
    # Review 69 p09: GRPO of Llama-3.1-8B moving off H100 to a family with no page running an RL loop (Gaudi then; since
    # review 94 p08 optimum-habana's GaudiGRPOTrainer covers Gaudi, so a Cambricon MLU590 stands in): the verdict left the
    # loop to the team without saying that NVIDIA's side documents one (NeMo RL's GRPO guide runs Llama-3.1-8B-Instruct,
    # https://docs.nvidia.com/nemo/rl/latest/about/algorithms/grpo.html).
    fields = {
        "model_type": "dense-transformer",
        "hardware": "cambricon-mlu",
        "device": "mlu590",
        "workload": "both",
        "training": "rl",
        "model": "meta-llama/Llama-3.1-8B-Instruct",
    }
    result = answer(
        **fields,
        needs={
            "devices": 8,
            "cross_platform": True,
            "other_hardware": ["nvidia-gpu"],
            "other_devices": ["h100-sxm"],
        },
    )
    assert result.verdict is not None and "nvidia-gpu, which the profile also names, documents it: NVIDIA NeMo RL" in (
        result.verdict
    )
    alone = answer(**fields, needs={"devices": 8})
    assert alone.verdict is not None and "which the profile also names" not in alone.verdict


def test_each_joined_checkpoint_claim_continues_the_sentence_and_names_keep_their_case():
    # Review 68 p12's verdict read "...check both in the Neuron fork; The plugin loads a BF16 Hugging Face checkpoint".
    from advisor.recommendation.stack_switches import continued

    assert continued("The plugin loads a BF16 checkpoint") == "the plugin loads a BF16 checkpoint"
    assert continued("TorchTitan saves DCP shards") == "TorchTitan saves DCP shards"
    result = answer(
        model_type="dense-transformer",
        hardware="aws-neuron",
        device="trn2",
        workload="both",
        training="fine-tuning",
        model="meta-llama/Llama-3.1-8B-Instruct",
        needs={"devices": 16},
    )
    assert result.verdict is not None and "Between them:" in result.verdict
    assert "; The plugin loads" not in result.verdict and "; the plugin loads" in result.verdict


def test_replicas_of_a_model_that_fits_one_device_need_no_multi_node_page():
    # Review 70 p13: Qwen3-8B served on 16 x 910B (16 replicas of one NPU, as the capacity line says) rejected
    # vllm-ascend with "documented within one node; 16 devices may span nodes"; vllm-ascend's Qwen3-Dense tutorial
    # serves Qwen3-8B on one Atlas A2 (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/models/Qwen3-Dense/).
    result = answer(
        model_type="dense-transformer",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="inference",
        model="Qwen/Qwen3-8B",
        needs={"devices": 16},
    )
    chosen = next(row for row in result.stacks_considered if row.chosen)
    assert chosen.stack == "ascend-vllm-ascend-w8a8-dense" and chosen.reason == "fits the whole profile"
    big = answer(
        model_type="dense-transformer",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="inference",
        model="Qwen/Qwen3-235B-A22B",
        needs={"devices": 16},
    )
    assert not any(
        row.reason == "fits the whole profile" and "w8a8-dense" in row.stack for row in big.stacks_considered
    )


def test_qat_asked_for_a_model_that_trains_and_serves_quantizes_before_the_fine_tune():
    # Review 70 p15: "method=qat" beside "quantize the trained bf16 checkpoint to fp8" (post-training); Model Optimizer's
    # QAT inserts its fake quantizers before the fine-tune
    # (https://github.com/NVIDIA/Model-Optimizer/blob/0.46.0/examples/llm_qat/README.md).
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="b200",
        workload="both",
        team_skill="hpc",
        training="fine-tuning",
        model="Qwen/Qwen3-30B-A3B",
        needs={"quantization": "fp8", "quantization_method": "qat", "devices": 8},
    )
    quantization = next(c for c in result.tier(1).choices if c.concern == "quantization")
    # (since review 261 p04 the training stack is Megatron Bridge's Qwen3 MoE SFT recipe, not a pre-training one, and
    # its first line is about its H100-validated FP8 preset; the QAT step is the next line)
    text = " ".join(reason.text for reason in quantization.rationale)
    assert "before the fine-tune" in text and "quantize the trained bf16 checkpoint" not in text


def test_a_runtime_on_every_family_that_one_family_does_not_document_as_a_server_is_named_as_such():
    # Review 69 p12: "no LLM serving engine is documented for apple-silicon, nvidia-gpu alike" read as false, since
    # llama.cpp serves Qwen2.5-VL on Metal and CUDA (https://github.com/ggml-org/llama.cpp/blob/master/docs/multimodal.md);
    # NVIDIA's pages serve LLMs with TensorRT-LLM, vLLM and SGLang, so the record now says which is which.
    result = answer(
        model_type="multimodal",
        hardware="apple-silicon",
        device="apple-m4",
        workload="inference",
        model="Qwen/Qwen2.5-VL-7B-Instruct",
        needs={"quantization": "int8", "cross_platform": True, "other_hardware": ["nvidia-gpu"]},
    )
    gap = next(g for g in result.tier(3).gaps if g.concern == "deployment")
    assert "llama.cpp (ggml-org) runs on every one of them" in gap.rationale[0].text


def test_no_int8_switch_for_a_cnn_on_a_device_whose_formats_list_no_int8():
    # Review 71 p15: ResNet-50 on an Iluvatar Tiangai 150 (formats fp32, fp16, bf16 from Iluvatar's recipes) was told
    # "consider INT8 PTQ" once INT8 pays; Iluvatar's INT8 CNN recipes run on the Zhikai 100.
    def switches(device: str) -> set[str]:
        result = answer(model_type="cnn", hardware="iluvatar-gpu", device=device, workload="inference")
        return {s.id for s in result.switch_conditions}

    assert "int8-pays-on-target" not in switches("tiangai-150")
    assert "int8-pays-on-target" in switches("zhikai-100")


def test_a_considered_stacks_word_on_the_profiles_model_reaches_the_verdict():
    # Review 71 p07: gemma-3-27b-it on TPU v6e; "tests google/gemma-3-27b-it as a Text model" (vLLM TPU's
    # recommended-models matrix, https://docs.vllm.ai/projects/tpu/en/latest/recommended_models_features/) appeared only
    # in another stack's rejection line, not in the verdict.
    result = answer(
        model_type="multimodal",
        hardware="google-tpu",
        device="tpu-v6e",
        workload="inference",
        model="google/gemma-3-27b-it",
        needs={"devices": 4},
    )
    # Review 131 p11: the stable vllm-tpu 0.32.0 release, whose matrix tests the model as Text
    # (https://pypi.org/project/tpu-inference/0.32.0/), is now chosen and says so in its own risks
    chosen = result.stacks[0]
    assert chosen.stack == "tpu-vllm-tpu-release-torchax"
    assert any("as a Text model" in risk.text for risk in chosen.risks)


def test_a_setting_that_names_the_models_own_quantized_release_keeps_it():
    # Review 72 p05: DeepSeek-R1 W8A8 on 910B was told "deepseek-ai/DeepSeek-R1 quantized to W8A8 first" in the field that
    # names the pre-quantized vllm-ascend/DeepSeek-R1-W8A8 (vllm-ascend's DeepSeek tutorial links it).
    result = answer(
        model_type="moe",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="inference",
        model="deepseek-ai/DeepSeek-R1",
        needs={"quantization": "int8", "devices": 16},
    )
    settings = " ".join(str(value) for choice in result.tier(1).choices for value in choice.settings.values())
    assert "vllm-ascend/DeepSeek-R1-W8A8" in settings and "quantized to W8A8 first" not in settings


def test_a_small_cross_platform_lora_job_ports_the_fine_tuning_tool_its_stack_runs():
    # Review 72 p08: LoRA of Qwen2.5-7B on 4 x K100_AI that must also run on NVIDIA: one llamafactory-cli route on both
    # (upstream LLaMA-Factory on NVIDIA, https://github.com/hiyouga/LLaMA-Factory; the OpenDAS DCU fork on Hygon, per
    # the community cookbook the Hygon stack cites), not "each family's own runtime" with Triton beyond the team.
    result = answer(
        model_type="dense-transformer",
        hardware="hygon-dcu",
        device="k100-ai",
        workload="training",
        training="lora",
        model="Qwen/Qwen2.5-7B-Instruct",
        needs={"devices": 4, "cross_platform": True, "other_hardware": ["nvidia-gpu"]},
    )
    tier3 = {c.concern: c.option for c in result.tier(3).choices}
    assert tier3.get("training-framework") == "llama-factory" and result.tier(3).fits_team
    assert result.verdict is not None and "llama-factory as the one training framework on hygon-dcu, nvidia-gpu" in (
        result.verdict
    )
