"""Defects left open after review 100 and those of reviews 101 and 102, each pinned."""

from __future__ import annotations

import pytest
from recommendation_builders import answer_for as answer

from advisor.profile import Profile
from advisor.recommendation.choices import risk_applies


def attention(result):
    return next(choice for choice in result.tier(1).choices if choice.concern == "attention")


@pytest.mark.parametrize(
    ("device", "first"), [("a100-sxm", "flash-attention"), ("h100-sxm", "cudnn"), ("b200", "cudnn")]
)
def test_transformer_engine_attention_follows_its_order_on_the_devices_architecture(device, first):
    # Reviews 91 (p02) and 97 (p13): the record named flash-attention under Transformer Engine on an H100 beside TE's
    # own note that it prefers cuDNN fused attention on sm90 and newer. TE's attention notebook orders its PyTorch
    # backends per architecture: flash-attention first on sm8x, cuDNN attention first on Hopper and Blackwell
    # (https://github.com/NVIDIA/TransformerEngine/blob/main/docs/examples/attention/attention.ipynb).
    result = answer(
        model_type="dense-transformer",
        workload="training",
        hardware="nvidia-gpu",
        device=device,
        team_skill="hpc",
        model="meta-llama/Llama-3.1-70B",
        training="pretraining",
        needs={"devices": 64},
    )
    chosen = attention(result)
    assert chosen.option == first
    assert chosen.settings.get("via") == "transformer-engine"
    cited = [cite.ref for reason in chosen.rationale for cite in reason.cites]
    assert "compatibility.attention_first_on.transformer-engine" in cited


def test_a_diffusion_model_on_two_families_keeps_the_runtime_both_families_stacks_run():
    # Review 101 p15: FLUX.1-dev served on MI300X and H100 got ONNX Runtime "as the one runtime", though AMD documents
    # FLUX serving with xDiT on Diffusers pipelines (https://rocm.docs.amd.com/projects/ai-ecosystem/en/latest/inference/xdit.html)
    # and NVIDIA-side FLUX runs on Diffusers (https://huggingface.co/docs/diffusers/main/en/api/pipelines/flux); no AMD
    # page serves FLUX through ONNX Runtime, whose ROCm execution provider left in 1.23.
    result = answer(
        model_type="diffusion",
        workload="inference",
        hardware="amd-gpu",
        device="mi300x",
        model="black-forest-labs/FLUX.1-dev",
        needs={"devices": 8, "cross_platform": True, "other_hardware": ["nvidia-gpu"], "other_devices": ["h100-sxm"]},
    )
    # since review 161 p04 xDiT, AMD's documented FLUX runtime, is a candidate of its own; it runs Diffusers pipelines on
    # NVIDIA GPUs as well (https://github.com/xdit-project/xDiT#readme), so tier 1's runtime may stay the one runtime
    deployment = next(choice for choice in result.tier(3).choices if choice.concern == "deployment")
    assert deployment.option in ("diffusers", "xdit")
    assert f"{deployment.option} as the one runtime on amd-gpu, nvidia-gpu" in result.verdict
    assert "onnxruntime" not in result.verdict


def bake_off():
    # Review 101 p01: Qwen3-235B-A22B in FP8 on 8 x H200, with MI355X and Ascend 910B quoted beside it.
    return answer(
        model_type="moe",
        workload="inference",
        hardware="nvidia-gpu",
        device="h200-sxm",
        model="Qwen/Qwen3-235B-A22B-Instruct-2507",
        needs={
            "quantization": "fp8",
            "devices": 8,
            "cross_platform": True,
            "other_hardware": ["amd-gpu", "ascend-npu"],
            "other_devices": ["mi355x", "ascend-910b"],
        },
    )


def test_the_publishers_fp8_release_is_one_checkpoint_where_it_loads_and_only_the_rest_quantize():
    # Qwen publishes Qwen3-235B-A22B-Instruct-2507-FP8 (https://huggingface.co/Qwen/Qwen3-235B-A22B-Instruct-2507-FP8),
    # which vLLM serves on NVIDIA and AMD; the Atlas A2 runs no FP8, so only Ascend serves a W8A8 model of its own
    # (https://docs.vllm.ai/projects/ascend/en/latest/user_guide/feature_guide/quantization.html). The reviewer read
    # "each family gets its own checkpoint" as wrong.
    result = bake_off()
    gap = next(g for g in result.tier(3).gaps if g.concern == "quantization")
    text = gap.rationale[0].text
    assert "Qwen/Qwen3-235B-A22B-Instruct-2507-FP8, the publisher's FP8 release, loads as released" in text
    assert "only ascend-npu quantizes a checkpoint of its own" in text
    assert "each family gets its own checkpoint" not in text


def test_when_tier_3_leads_with_another_engine_its_cost_on_the_target_is_a_switch():
    # Review 101 (defect 3): tier 3 leads "accepting some per-platform loss", but no switch measured that loss; a buyer
    # needs the portable engine's throughput against tier 1's on the target (method: switch conditions measurable on
    # the target).
    result = bake_off()
    tier1 = next(c.option for c in result.tier(1).choices if c.concern == "deployment")
    leading = next(c.option for c in result.tier(3).choices if c.concern == "deployment")
    assert tier1 != leading
    cost = next(s for s in result.switch_conditions if s.id == f"{tier1}-engine-faster")
    assert cost.metric == f"evidence.inference_throughput.{tier1}_over_{leading}"
    assert "tier 3's one runtime" in cost.description


def test_gpt_oss_on_an_rtx_5090_serves_its_released_mxfp4_experts_with_dense_layers_outside_them():
    # Review 102 p07: gpt-oss-20b, 4-bit asked, on one RTX 5090. The record said the card "does not run mxfp4 natively"
    # (CUTLASS lists sm_120's block-scaled mxf8f6f4/mxf4 MMAs:
    # https://github.com/NVIDIA/cutlass/blob/main/media/docs/cpp/blackwell_functionality.md), put "weights=mxfp4" on
    # the dense layers' GEMM (gpt-oss keeps them in BF16: https://huggingface.co/openai/gpt-oss-20b) and labelled the
    # released weights "(modelopt)", a toolkit that plays no part in serving them.
    result = answer(
        model_type="moe",
        workload="inference",
        hardware="nvidia-gpu",
        device="rtx-5090",
        team_skill="kernel",
        model="openai/gpt-oss-20b",
        needs={"quantization": "fp4", "long_context": True, "devices": 1},
    )
    assert "does not run mxfp4 natively" not in result.model_dump_json()
    gemm = next(c for c in result.tier(1).choices if c.concern == "gemm")
    assert gemm.settings.get("experts") == "mxfp4" and "weights" not in gemm.settings
    quantization = next(c for c in result.tier(1).choices if c.concern == "quantization")
    assert quantization.option == "vllm"
    assert quantization.settings["dtype"] == "mxfp4"
    assert quantization.settings["checkpoint"].startswith("openai/gpt-oss-20b")
    assert not any(r.text.startswith("writes checkpoints") for r in quantization.rationale)


def test_a_lora_that_must_also_run_on_h100_trains_on_gaudi_with_the_framework_both_families_run():
    # Review 101 p06: Llama-3.1-8B LoRA on 8 x Gaudi 3 that must also run on H100. Tier 3 led with "each family's own
    # runtime", though Hugging Face's Trainer runs on both: Transformers' Gaudi page has TrainingArguments and Trainer
    # detect the hpu device with no other change (https://huggingface.co/docs/transformers/perf_train_gaudi), and
    # TRL's SFTTrainer with PEFT is the same script on CUDA (https://huggingface.co/docs/trl/sft_trainer). Intel's
    # DeepSpeed fork runs on Gaudi only.
    result = answer(
        model_type="dense-transformer",
        workload="training",
        hardware="intel-gaudi",
        device="gaudi3",
        training="lora",
        model="meta-llama/Llama-3.1-8B-Instruct",
        needs={"devices": 8, "cross_platform": True, "other_hardware": ["nvidia-gpu"], "other_devices": ["h100-sxm"]},
    )
    chosen = next(row for row in result.stacks_considered if row.chosen)
    assert chosen.stack == "gaudi-transformers-trainer-bf16"
    deepspeed = next(row for row in result.stacks_considered if row.stack == "gaudi-deepspeed-training")
    assert "does not run on every family this job must run on" in deepspeed.reason
    trainer = next(c for c in result.tier(3).choices if c.concern == "training-framework")
    assert trainer.option == "transformers"
    assert "transformers as the one training framework on intel-gaudi, nvidia-gpu" in result.verdict


def test_a_full_fine_tune_on_a_lora_recipe_is_not_told_to_merge_adapters():
    # Review 101 p09: Qwen2.5-7B full fine-tune then serving on Hygon K100_AI; the handoff said to merge LoRA adapters
    # (llamafactory-cli export examples/merge_lora/...), which a full fine-tune never writes: LLaMA-Factory's merge
    # example is for adapters (https://github.com/hiyouga/LlamaFactory/blob/main/examples/README.md).
    result = answer(
        model_type="dense-transformer",
        workload="both",
        hardware="hygon-dcu",
        device="k100-ai",
        training="fine-tuning",
        model="Qwen/Qwen2.5-7B-Instruct",
        needs={"devices": 8},
    )
    assert result.verdict is not None
    between = result.verdict.partition("Between them:")[2]
    assert "a full fine-tune saves every weight" in between
    assert "merges them into the base model" not in between


def test_a_bf16_run_keeps_the_pages_launch_command_and_its_neuroncore_note():
    # Review 101 p05: Llama-3.3-70B in BF16 on 4 x Trn2. The text output kept only "the 1B and 8B models take the same
    # path..." and dropped the tutorial's launch (--tensor-parallel-size 16, "TP 16 counts NeuronCores, not chips";
    # https://github.com/aws-neuron/aws-neuron-sdk/blob/master/vllm-neuron/docs/tutorials/tutorial-llama3-70b.md)
    # because the command serves an FP8 checkpoint; the precision setting already says to leave the FP8 flags out.
    result = answer(
        model_type="dense-transformer",
        workload="inference",
        hardware="aws-neuron",
        device="trn2",
        team_skill="kernel",
        model="meta-llama/Llama-3.3-70B-Instruct",
        needs={"devices": 4},
    )
    deployment = next(c for c in result.tier(1).choices if c.concern == "deployment")
    documented = deployment.settings["as documented"]
    assert "--tensor-parallel-size 16" in documented
    # The note now names the unit and the chips (helper kbneurontp): logical NeuronCores, four per Trainium2 chip at the
    # default LNC=2, so TP 16 is 4 of a trn2.48xlarge's 16 chips
    # (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/general/arch/neuron-features/logical-neuroncore-config.html).
    assert "(TP 16 counts logical NeuronCores, not chips: at Trn2's default LNC=2" in documented
    assert (
        "the command spans 4 of its 16 chips, 16 of the 64 NeuronCores it shows; no --quantization flag" in documented
    )
    assert documented.count("(") == documented.count(")")
    assert "with none of its fp8 settings" in deployment.settings["precision"]


def test_one_onnx_int8_model_serves_x86_and_arm_where_the_settings_differ_only_in_words():
    # Review 101 p14: DINOv2 in INT8 on a Graviton4 and a Xeon got "checkpoints=one per family", though both families'
    # ONNX Runtime pages quantize to QDQ with S8S8 (https://onnxruntime.ai/docs/performance/model-optimizations/quantization.html):
    # one model runs on both; a model per family is for instruction-set presets (avx512_vnni, arm64).
    result = answer(
        model_type="cnn",
        workload="inference",
        hardware="arm-cpu",
        device="graviton4",
        team_skill="kernel",
        model="facebook/dinov2-base",
        needs={
            "quantization": "int8",
            "devices": 1,
            "cross_platform": True,
            "other_hardware": ["x86-cpu"],
            "other_devices": ["xeon-4th-gen-sapphire-rapids"],
        },
    )
    quantization = next(c for c in result.tier(3).choices if c.concern == "quantization")
    assert quantization.option == "onnxruntime"
    assert "checkpoints" not in quantization.settings
    assert "one quantized model for every family" in quantization.rationale[0].text


def test_confidence_tells_a_whole_fit_from_a_heavy_partial_fit_when_tier_3_leads():
    # Review 101 (defect 5): 0.42 for the full fits and the partial fits alike. The method's confidence separates what
    # backs the choice (advisor/data/method.md, confidence): a stack fitting the whole profile on the target ranks above
    # a LoRA job whose serving stack fits in part and whose training no stack covers, both with tier 3 leading.
    whole = bake_off()
    partial = answer(
        model_type="diffusion",
        workload="both",
        hardware="amd-gpu",
        device="mi300x",
        team_skill="kernel",
        training="lora",
        model="black-forest-labs/FLUX.1-dev",
        needs={"devices": 8, "cross_platform": True, "other_hardware": ["nvidia-gpu"], "other_devices": ["h100-sxm"]},
    )
    # Since review 131 p04 a pretraining recipe that loads no published weights is no base for a LoRA (Primus's Flux
    # recipe pretrains its own model): the LoRA takes a recipe for another diffusion transformer, still a partial fit.
    assert whole.confidence > partial.confidence
    assert "tier 3 leads" in whole.confidence_notes[0]
    assert "fits only in part" in partial.confidence_notes[0]


def test_a_data_parallel_recipe_for_a_state_larger_than_one_device_says_to_shard_it():
    # Review 102 p14: SDXL fine-tuning on 8 x TPU v6e (32 GB each) with MaxDiffusion's v5p recipe, which shards the
    # batch only (ici_data_parallelism=-1: https://github.com/AI-Hypercomputer/tpu-recipes/tree/main/training/v5p):
    # capacity said the 42 GB state must be sharded while the framework line said "data parallel over 8 devices".
    result = answer(
        model_type="diffusion",
        workload="training",
        hardware="google-tpu",
        device="tpu-v6e",
        team_skill="hpc",
        training="fine-tuning",
        model="stabilityai/stable-diffusion-xl-base-1.0",
        needs={"devices": 8},
    )
    framework = next(c for c in result.tier(1).choices if c.concern == "training-framework")
    assert "switch to the framework's own sharding" in framework.settings["layout"]
    assert not any("data parallel over 8 devices" in r.text for r in framework.rationale)
    assert any("must be sharded" in r.text for r in result.capacity)


def test_a_risk_about_another_version_of_the_models_series_stays_out_of_its_record():
    # Review 103 p06: a Qwen3-8B LoRA record on 910B carried "A Qwen2.5 fine-tune checks that its size still has a tune
    # script ..." (MindSpeed LLM's Qwen2.5 note: https://github.com/Ascend/MindSpeed-LLM/blob/master/docs/zh/pytorch/models/supported_models.md).
    qwen3 = Profile(
        model_type="dense-transformer",
        hardware="ascend-npu",
        workload="training",
        team_skill="framework",
        model="Qwen/Qwen3-8B",
    )
    risk = "A Qwen2.5 fine-tune checks that its size still has a tune script on the release it pins."
    assert not risk_applies(risk, qwen3)
    assert risk_applies(risk, qwen3.model_copy(update={"model": "Qwen/Qwen2.5-7B-Instruct"}))
    assert risk_applies(
        "Llama 3 checkpoints need the chat template.", qwen3.model_copy(update={"model": "meta-llama/Llama-3.3-70B"})
    )


def test_tier_3_leads_with_the_engine_that_has_a_stack_for_the_model_on_each_family_and_checks_its_memory_there():
    # Review 104 p08: DeepSeek-V3.1 in FP8 on 8 x H200 that must also run on a 910B pool. Tier 3 led with "sglang as
    # the one runtime" while naming a vllm-ascend stack for Ascend (SGLang's Ascend page is for Qwen3-235B on A3), and
    # never said that 671 GB of W8A8 weights need more than 8 x 64 GB there (vllm-ascend's DeepSeek tutorials run two
    # A2 nodes or one A3: https://docs.vllm.ai/projects/ascend/en/latest/tutorials/models/DeepSeek-V3.2.html).
    result = answer(
        model_type="moe",
        workload="inference",
        hardware="nvidia-gpu",
        device="h200-sxm",
        team_skill="kernel",
        model="deepseek-ai/DeepSeek-V3.1",
        needs={
            "quantization": "fp8",
            "long_context": True,
            "devices": 8,
            "cross_platform": True,
            "other_hardware": ["ascend-npu"],
            "other_devices": ["ascend-910b"],
        },
    )
    deployment = next(c for c in result.tier(3).choices if c.concern == "deployment")
    assert deployment.option == "vllm"
    ascend = next(n.text for n in result.tier(3).notes if n.text.startswith("on ascend-npu"))
    assert "vllm-ascend" in ascend
    assert "the weights take about 671 GB in int8 there, more than 8 x 64 GB" in ascend


def test_a_megatron_layout_is_not_called_data_parallel_when_the_state_outgrows_one_device():
    # The layout note is for a recipe that copies the state to every device; verl's Megatron MoE recipe splits it
    # (TP and EP: https://github.com/verl-project/verl/blob/main/examples/grpo_trainer/run_qwen3_5_35b_megatron.sh).
    result = answer(
        model_type="moe",
        workload="both",
        hardware="amd-gpu",
        device="mi355x",
        team_skill="hpc",
        training="rl",
        model="Qwen/Qwen3-30B-A3B",
        needs={"devices": 8},
    )
    framework = next(c for c in result.tier(1).choices if c.concern == "training-framework")
    assert "layout" not in framework.settings


def test_a_kernel_library_the_chosen_stack_ships_is_not_rejected_for_the_skill_to_write_it():
    # Review 104 p15 and the defect 3: llama.cpp's Arm build runs KleidiAI's micro-kernels
    # (https://github.com/ggml-org/llama.cpp/blob/master/docs/build.md#arm-kleidiai), yet the record rejected KleidiAI
    # because it "needs a kernel team": using kernels that ship inside the runtime needs none.
    result = answer(
        model_type="dense-transformer",
        workload="inference",
        hardware="arm-cpu",
        device="graviton4",
        model="meta-llama/Llama-3.2-3B-Instruct",
        needs={"quantization": "int4", "devices": 1},
    )
    shipped = {part.candidate for stack in result.stacks for part in stack.parts if part.candidate}
    assert "kleidiai" in shipped
    assert not any(rejection.option == "kleidiai" for rejection in result.rejected)


def test_a_cnn_page_in_float_is_a_near_fit_where_its_own_toolchain_documents_int8():
    # Review 104 p03: ResNet-50 in INT8 on a 310P got "no documented whole stack fits" because Huawei's ModelZoo guide
    # runs fp16 (https://github.com/Ascend/ModelZoo-PyTorch/blob/master/ACL_PyTorch/built-in/cv/Resnet50_Pytorch_Infer/README.md),
    # though AMCT's INT8 deploy model is compiled by that same ATC (https://github.com/hicann/amct/blob/master/docs/README.md).
    result = answer(
        model_type="cnn",
        workload="inference",
        hardware="ascend-npu",
        device="ascend-310p",
        model="microsoft/resnet-50",
        needs={"quantization": "int8", "devices": 1},
    )
    assert result.stacks and result.stacks[0].stack == "ascend-atc-acl-resnet50-310p"
    assert "its toolchain (Ascend ATC + ACL" in result.stacks[0].misfits[0]
    quantization = next(c for c in result.tier(1).choices if c.concern == "quantization")
    assert quantization.settings["dtype"] == "int8"


def test_a_model_inside_a_mac_app_runs_on_a_route_its_page_embeds_in_an_app():
    # Reviews 102 p01/p02, 103 p13 and 105 p13: an on-device Mac assistant got mlx-lm's Python server ("not
    # recommended for production" in its own README) and Core AI rejected as "a general runtime, not an LLM serving
    # engine". Apple's coreai-models runs the exported model in an app through its Swift package
    # (https://github.com/apple/coreai-models#requirements-running-and-app-integration); needs.in_app says so.
    fields = {
        "model_type": "dense-transformer",
        "workload": "inference",
        "hardware": "apple-silicon",
        "device": "apple-m4",
        "model": "Qwen/Qwen3-4B",  # an id of Core AI's export registry, which matches ids exactly (review 117 p13)
    }
    server = answer(**fields, needs={"quantization": "int4", "devices": 1})
    app = answer(**fields, needs={"quantization": "int4", "devices": 1, "in_app": True})
    assert next(row for row in server.stacks_considered if row.chosen).stack == "apple-mlx-lm-inference"
    assert next(row for row in app.stacks_considered if row.chosen).stack == "apple-coreai-llm-inference"
    mlx = next(row for row in app.stacks_considered if row.stack == "apple-mlx-lm-inference")
    assert "no way to run the model inside an app" in mlx.reason
    assert not any("general runtime" in m for stack in app.stacks for m in stack.misfits)


def test_a_fallback_names_no_sibling_with_the_same_units_as_another_generation():
    # Reviews 106 and 108 p04: Qwen2.5-VL-72B in FP8 on MI300X said "on the AMD Instinct MI325X ... runs fp8, the fp8
    # asked, on its own units", though the MI325X is the same gfx942 with the same FNUZ FP8
    # (https://rocm.docs.amd.com/en/latest/reference/gpu-specs.html): the fallback is about the page, not the units.
    result = answer(
        model_type="multimodal",
        workload="inference",
        hardware="amd-gpu",
        device="mi300x",
        model="Qwen/Qwen2.5-VL-72B-Instruct",
        needs={"quantization": "fp8", "long_context": True, "devices": 2},
    )
    assert "on its own units" not in result.model_dump_json()
