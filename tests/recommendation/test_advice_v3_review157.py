"""Defects of reviews 151-164 and of the knowledge-base helpers of session 22, each pinned."""

from __future__ import annotations

from recommendation_builders import VISION_FINE_TUNE, answer_without, choice, chosen_stack, considered
from recommendation_builders import answer_for as answer

# DeepSeek-R1-0528 in FP4 on one 8 x B200 node, as review 155 p01 filed it
R1_FP4 = {
    "model_type": "moe",
    "hardware": "nvidia-gpu",
    "device": "b200",
    "workload": "inference",
    "team_skill": "hpc",
    "model": "deepseek-ai/DeepSeek-R1-0528",
    "needs": {
        "dynamic_shapes": True,
        "quantization": "fp4",
        "quantization_method": "ptq",
        "long_context": True,
        "devices": 8,
    },
}


def test_a_narrower_format_of_a_model_released_in_fp8_falls_back_to_that_release_not_to_a_float_model():
    # Review 155 p01: "keep the float model" for DeepSeek-R1-0528, which DeepSeek releases in FP8; NVIDIA's FP4 card
    # measures FP4 against that FP8 checkpoint (https://huggingface.co/nvidia/DeepSeek-R1-0528-FP4-v2)
    result = answer(**R1_FP4)
    drop = next(s for s in result.switch_conditions if s.id == "fp4-accuracy-drop")
    assert "below deepseek-ai/DeepSeek-R1-0528's fp8 release" in drop.description
    assert "serve the fp8 release as published" in drop.description
    assert "float model" not in drop.description


def test_a_model_released_in_bf16_still_falls_back_to_the_float_model():
    result = answer(**{**R1_FP4, "model_type": "dense-transformer", "model": "meta-llama/Llama-3.1-70B-Instruct"})
    drop = next(s for s in result.switch_conditions if s.id == "fp4-accuracy-drop")
    assert "keep the float model" in drop.description


def test_a_diffusion_training_narrower_format_switch_counts_samples_not_tokens():
    # a Flux pre-training run on MI355X, Primus's FP8 path beside its BF16 run: a diffusion model trains on images,
    # so the throughput it is raced on is samples per device, not tokens
    # (https://rocm.docs.amd.com/projects/primus/en/latest/04-technical-guides/diffusion-models/fp8_training.html)
    result = answer(
        model_type="diffusion",
        hardware="amd-gpu",
        device="mi355x",
        workload="training",
        team_skill="framework",
        model="black-forest-labs/FLUX.1-dev",
        needs={"devices": 8},
    )
    narrower = next(s for s in result.switch_conditions if s.id == "training-in-fp8")
    assert "training throughput (samples/s per device)" in narrower.description
    assert "tokens" not in narrower.description


def test_a_launch_whose_degree_the_page_sets_per_model_size_is_not_read_as_its_first_flag():
    # Review 151 p06: vllm-ascend's Qwen3 tutorial runs "--tensor-parallel-size 1" for Qwen3-0.6B to 8B, two NPUs for
    # 14B and four for 32B (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/models/Qwen3-Dense.html); the
    # output said "the command's tensor-parallel degree is 1" beside its TP 4 layout for Qwen3-32B
    result = answer(
        model_type="dense-transformer",
        hardware="ascend-npu",
        device="ascend-910c",
        workload="inference",
        team_skill="framework",
        model="Qwen/Qwen3-32B",
        needs={"dynamic_shapes": True, "devices": 16},
    )
    deployment = next(c for c in result.tier(1).choices if c.concern == "deployment" and "layout here" in c.settings)
    layout = deployment.settings["layout here"]
    assert "the page sets the tensor-parallel degree by model size" in layout
    assert "the command's tensor-parallel degree is 1" not in layout


def test_the_other_familys_stack_says_the_layout_its_device_needs_for_the_served_weights():
    # Review 151 p03: Llama 3.3 70B in FP8 on 2 x MI300X, also to run on 2 x H100: the H100 side (80 GB, the MIG
    # user guide's table, https://docs.nvidia.com/datacenter/tesla/mig-user-guide/supported-gpus.html) holds the
    # 70 GB of weights with about 2 GB left for the KV cache, so it needs tensor parallel 2, which the plan never said
    result = answer(
        model_type="dense-transformer",
        hardware="amd-gpu",
        device="mi300x",
        workload="inference",
        team_skill="framework",
        model="meta-llama/Llama-3.3-70B-Instruct",
        needs={
            "dynamic_shapes": True,
            "quantization": "fp8",
            "quantization_method": "ptq",
            "devices": 2,
            "cross_platform": True,
            "other_hardware": ["nvidia-gpu"],
            "other_devices": ["h100-sxm"],
        },
    )
    there = next(n.text for n in result.tier(3).notes if n.text.startswith("on nvidia-gpu"))
    assert "tensor parallel 2 over the 2 x NVIDIA H100 SXM" in there
    # an 8B model fits one H100 with room to spare: one copy per device, no layout to add
    small = answer(
        model_type="dense-transformer",
        hardware="amd-gpu",
        device="mi300x",
        workload="inference",
        team_skill="framework",
        model="meta-llama/Llama-3.1-8B-Instruct",
        needs={
            "quantization": "fp8",
            "devices": 2,
            "cross_platform": True,
            "other_hardware": ["nvidia-gpu"],
            "other_devices": ["h100-sxm"],
        },
    )
    there = next(n.text for n in small.tier(3).notes if n.text.startswith("on nvidia-gpu"))
    assert "tensor parallel" not in there


def test_tier2_offers_no_mlx_kernels_under_a_core_ml_runtime_and_names_core_mls_own_route():
    # Review 157 p13 (and the issue's defect 7): WhisperKit runs Whisper on Core ML, yet tier 2 offered "custom Metal
    # kernels through mx.fast.metal_kernel", which run on MLX arrays inside MLX programs
    # (https://ml-explore.github.io/mlx/build/html/dev/custom_metal_kernels.html) and cannot replace a Core ML
    # operator; Core ML's own route is a custom layer (https://apple.github.io/coremltools/docs-guides/source/custom-operators.html)
    result = answer(
        model_type="dense-transformer",
        hardware="apple-silicon",
        device="apple-m4",
        workload="inference",
        team_skill="framework",
        model="openai/whisper-large-v3-turbo",
        task="transcription",
        needs={"dynamic_shapes": True, "in_app": True},
    )
    tier2 = result.tier(2)
    assert not [c for c in tier2.choices if c.option == "mlx"]
    note = tier2.notes[0].text
    assert note.startswith("MLX kernels run inside MLX's own programs, not under Core ML")
    assert "MLCustomLayer" in note
    assert all("MLCustomLayer" in gap.rationale[0].text for gap in tier2.gaps)


def test_tier2_keeps_mlx_kernels_for_a_model_that_runs_on_mlx():
    result = answer(
        model_type="dense-transformer",
        hardware="apple-silicon",
        device="apple-m4",
        workload="inference",
        team_skill="kernel",
        model="Qwen/Qwen3-8B",
        needs={"quantization": "int4"},
    )
    assert any(c.option == "mlx" for c in result.tier(2).choices)


def test_flexattention_in_tier2_is_within_a_framework_teams_skill_while_triton_kernels_are_not():
    # Review 157 p02: "flex-attention (beyond the team's skill)" for a framework team; FlexAttention's variants are plain
    # PyTorch score_mod/mask_mod functions (https://docs.pytorch.org/docs/stable/nn.attention.flex_attention.html)
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="training",
        training="fine-tuning",
        team_skill="framework",
        model="Qwen/Qwen3-14B",
        needs={"dynamic_shapes": True, "devices": 8},
    )
    tier2 = {c.concern: c for c in result.tier(2).choices}
    assert tier2["attention"].option == "flex-attention" and tier2["attention"].fits_team
    assert tier2["gemm"].option == "triton" and not tier2["gemm"].fits_team


def test_a_page_that_ships_a_configuration_per_format_runs_its_fp8_file_as_documented():
    # Review 155 p05: "Train with Megatron-LM ... in fp8, on the recipe ... (whose default is bf16)" and "the page's
    # example runs bf16", while AMD ships an FP8 pretraining config for the model beside its BF16 one
    # (https://github.com/AMD-AGI/Primus/tree/main/examples/megatron/configs/MI300X, llama3.1_8B-FP8-pretrain.yaml)
    result = answer(
        model_type="dense-transformer",
        hardware="amd-gpu",
        device="mi300x",
        workload="training",
        training="pretraining",
        team_skill="hpc",
        model="meta-llama/Llama-3.1-8B",
        needs={"quantization": "fp8", "quantization_method": "qat", "devices": 8},
    )
    assert "with its own fp8 configuration" in result.verdict
    assert "whose default is" not in result.verdict
    framework = choice(result, "training-framework")
    assert framework.settings["precision"].startswith("fp8: the page's own fp8 configuration")
    assert "the page's example runs" not in framework.settings["precision"]


def test_a_moe_full_fine_tune_on_mi300x_is_a_partial_fit_not_primus_post_trainings_whole_fit():
    # Review 158 p04: Primus's Megatron Bridge post-training was "fits the whole profile" at 0.60 for a Qwen3-30B-A3B full
    # fine-tune on MI300X, while its page documents Qwen3 32B only and the one MoE file is an MI355X LoRA benchmark
    # (https://rocm.docs.amd.com/projects/primus/en/latest/02-user-guide/posttraining.html)
    result = answer(
        model_type="moe",
        hardware="amd-gpu",
        device="mi300x",
        workload="training",
        training="fine-tuning",
        team_skill="hpc",
        model="Qwen/Qwen3-30B-A3B",
        needs={"devices": 8},
    )
    # (since reviews 235/238 p04 the Megatron Bridge route for this model is its own full-SFT stack, whose one Primus
    # config sits under MI355X/: on MI300X it is re-sized, a partial fit)
    chosen = next(r for r in result.stacks_considered if r.chosen)
    assert chosen.stack == "amd-primus-megatron-bridge-qwen3-moe-sft"
    assert not chosen.fits and "ships configurations for mi355x only" in chosen.reason
    assert result.confidence <= 0.5


def test_tier3_of_an_in_app_profile_names_no_python_library_as_its_deployment():
    # Review 158 p13: SD 3.5 Medium inside a Mac app had "deployment diffusers" in tier 3, a Python library the same
    # output rejected because it cannot run inside an app
    result = answer(
        model_type="diffusion",
        hardware="apple-silicon",
        device="apple-m4",
        workload="inference",
        team_skill="framework",
        model="stabilityai/stable-diffusion-3.5-medium",
        needs={"in_app": True},
    )
    deployment = [c.option for c in result.tier(3).choices if c.concern == "deployment"]
    assert "diffusers" not in deployment


def test_a_long_context_job_on_a_launch_capped_below_the_long_context_window_is_a_partial_fit():
    # Review 157 p12: vLLM Neuron's Llama 3.3 70B tutorial launches with --max-model-len 16384
    # (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/vllm-neuron/docs/model-recipes/llama-3.html), yet a
    # long-context profile read "fits the whole profile" at confidence 0.60
    profile = {
        "model_type": "dense-transformer",
        "hardware": "aws-neuron",
        "device": "trn2",
        "workload": "inference",
        "team_skill": "framework",
        "model": "meta-llama/Llama-3.3-70B-Instruct",
        "needs": {"dynamic_shapes": True, "quantization": "fp8", "long_context": True, "devices": 16},
    }
    result = answer(**profile)
    chosen = next(r for r in result.stacks_considered if r.chosen)
    assert "caps each request at 16,384 tokens" in chosen.reason
    # the same job without the long-context ask fits whole
    short = answer(**{**profile, "needs": {**profile["needs"], "long_context": False}})
    assert next(r for r in short.stacks_considered if r.chosen).fits


def test_a_recipe_whose_code_builds_other_network_families_is_not_chosen_to_train_dinov2():
    # Reviews 159 and 160 p09: DINOv2 fine-tuning on BI-V150 was given the Swin recipe, whose own risk says Microsoft's
    # code raises NotImplementedError for any model outside the Swin family
    # (https://github.com/microsoft/Swin-Transformer/blob/f82860bfb5225915aca09c3227159ee9e1df874d/models/build.py)
    result = answer(**VISION_FINE_TUNE, model="facebook/dinov2-base")
    swin = considered(result, "iluvatar-swin-transformer-training")
    assert not swin.chosen and swin.reason.startswith("its code builds swin networks only")
    # a Swin model is still built there
    swin_b = answer(**VISION_FINE_TUNE, model="microsoft/swin-base-patch4-window7-224")
    row = considered(swin_b, "iluvatar-swin-transformer-training")
    assert row.chosen and "builds swin networks only" not in row.reason


def test_igie_vit_serves_dinov2_as_another_size_of_the_vit_s_14_its_recipe_exports():
    # DeepSparkInference's DINOv2 IGIE recipe exports Meta's ViT-S/14 (facebook/dinov2-small on the Hub,
    # https://github.com/Deep-Spark/DeepSparkInference/blob/master/models/cv/classification/dinov2/igie/README.md)
    # (on a knowledge base without ixRT's BI-V150 page, which leads on that card since reviews 226/228: the behaviour
    # where every Iluvatar page for this network names the Zhikai 100 only)
    result = answer_without(
        {"iluvatar-ixrt-fastapi-tiangai-150"},
        model_type="cnn",
        hardware="iluvatar-gpu",
        device="tiangai-150",
        workload="inference",
        team_skill="framework",
        model="facebook/dinov2-base",
    )
    chosen = next(r for r in result.stacks_considered if r.chosen)
    assert chosen.stack == "iluvatar-igie-vit-zhikai-100"
    assert "of the dinov2 family as facebook/dinov2-base is" in chosen.reason


def test_a_float_route_for_a_named_awq_release_loads_the_float_release_it_was_made_from():
    # Review 160 p08: Qwen3-14B-AWQ on one K100_AI, where no stack serves INT4: the route serves bf16, but its command
    # loaded "model=Qwen/Qwen3-14B-AWQ", 4-bit weights vLLM's quantization table marks unsupported on AMD-derived GPUs
    # (https://docs.vllm.ai/en/v0.11.2/features/quantization/)
    result = answer(
        model_type="dense-transformer",
        hardware="hygon-dcu",
        device="k100-ai",
        workload="inference",
        team_skill="framework",
        model="Qwen/Qwen3-14B-AWQ",
        needs={"dynamic_shapes": True, "quantization": "int4"},
    )
    deployment = choice(result, "deployment")
    assert deployment.settings["model"].startswith("Qwen/Qwen3-14B in place of")


def test_tier2_under_core_ai_names_its_custom_metal_kernel_route():
    # Review 159 p13: tier 2 of an SD 3.5 app on Core AI was empty for a kernel team, while coreai-torch wraps inline
    # Metal kernels as Core AI operations (https://apple.github.io/coreai-torch/main/guides/custom-metal-kernels.html)
    result = answer(
        model_type="diffusion",
        hardware="apple-silicon",
        device="apple-m4",
        workload="inference",
        team_skill="kernel",
        model="stabilityai/stable-diffusion-3.5-medium",
        needs={"in_app": True},
    )
    assert "TorchMetalKernel" in result.tier(2).notes[0].text


def test_a_risk_scoped_to_another_model_by_its_hub_id_leaves_a_235b_record():
    # Review 159 p11: three of MaxText's Qwen3 MoE watch lines were about Qwen3-30B-A3B on 64 chips, in a Qwen3-235B-A22B
    # record on 256 chips; a risk opening on a Hub id and a colon is about that model alone
    profile = {
        "model_type": "moe",
        "hardware": "google-tpu",
        "device": "tpu7x",
        "workload": "training",
        "training": "pretraining",
        "team_skill": "hpc",
        "needs": {"quantization": "fp8", "quantization_method": "qat", "devices": 256},
    }
    big = answer(**profile, model="Qwen/Qwen3-235B-A22B")
    small = answer(**profile, model="Qwen/Qwen3-30B-A3B")

    big_risks = [r.text for s in big.stacks for r in s.risks]
    small_risks = [r.text for s in small.stacks for r in s.risks]
    assert not [r for r in big_risks if r.startswith("Qwen/Qwen3-30B-A3B:")]
    assert [r for r in small_risks if r.startswith("Qwen/Qwen3-30B-A3B:")]


def test_metas_llama_export_share_sizes_llama_on_a_phone_only():
    # Review 160 p15: Gemma 3 1B in int4 on a phone read "the file comes out nearer 880 MB" from Meta's Llama 3.2
    # exports (https://ai.meta.com/blog/meta-llama-quantized-lightweight-models/), while LiteRT's file is 584 MB
    phone = {
        "model_type": "dense-transformer",
        "hardware": "arm-cpu",
        "device": "armv9-mobile-sme2",
        "workload": "inference",
        "team_skill": "kernel",
        "needs": {"quantization": "int4", "in_app": True},
    }
    gemma = answer(**phone, model="google/gemma-3-1b-it")
    llama = answer(**phone, model="meta-llama/Llama-3.2-1B-Instruct")
    assert not [c for c in gemma.capacity if "Meta's quantized Llama" in c.text]
    assert [c for c in llama.capacity if "Meta's quantized Llama" in c.text]


def test_megatron_te_fp8_names_its_fp8_recipe_in_the_quantization_row():
    # Review 160 p02: the FP8 recipe (current scaling, Megatron --fp8-recipe tensorwise,
    # https://docs.nvidia.com/megatron/user-guide/features/low-precision-training) was only in the JSON's stack parts
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="training",
        training="pretraining",
        team_skill="kernel",
        parameters_b=8,
        needs={"quantization": "fp8", "quantization_method": "qat", "devices": 64},
    )
    quantization = choice(result, "quantization")
    # an 8B pre-training job now takes NVIDIA's Llama 3 8B H100 FP8 recipe (reviews 179/182 p02), whose preset names
    # the same per-tensor current scaling (bf16_with_fp8_current_scaling_mixed)
    documented = quantization.settings.get("as documented", "")
    assert "--fp8-recipe tensorwise" in documented or "fp8_current_scaling" in documented


def test_an_fp8_release_in_a_format_the_familys_engine_loads_is_named_on_gaudi():
    # Review 160 p10: Llama 3.3 70B FP8 on Gaudi 3 missed nvidia/Llama-3.3-70B-Instruct-FP8, which vllm-gaudi loads
    # since 0.15.1 (ModelOpt FP8 for dense models, https://docs.vllm.ai/projects/gaudi/en/0.16.0/release_notes.html)
    result = answer(
        model_type="dense-transformer",
        hardware="intel-gaudi",
        device="gaudi3",
        workload="inference",
        team_skill="kernel",
        model="meta-llama/Llama-3.3-70B-Instruct",
        needs={"dynamic_shapes": True, "quantization": "fp8", "devices": 4},
    )
    quantization = choice(result, "quantization")
    # an alternative beside the toolkit's documented launch, not in its place (reviews 161 and 162 p10)
    alternative = next(r.text for r in quantization.rationale if "nvidia/Llama-3.3-70B-Instruct-FP8" in r.text)
    assert alternative.startswith("the launch above is the toolkit's calibrated route")
    assert "as an alternative, nvidia/Llama-3.3-70B-Instruct-FP8" in alternative
    # no family's FP8 release is named where the family's engine loads none of their formats (Cambricon)
    mlu = answer(
        model_type="dense-transformer",
        hardware="cambricon-mlu",
        device="mlu590",
        workload="inference",
        team_skill="kernel",
        model="meta-llama/Llama-3.3-70B-Instruct",
        needs={"quantization": "fp8", "devices": 4},
    )
    assert not [r for c in mlu.tier(1).choices for r in c.rationale if "nvidia/Llama-3.3-70B-Instruct-FP8" in r.text]


def test_a_stack_pinned_to_a_source_commit_of_its_engine_is_reviewed_after_six_months():
    # Reviews 155, 158, 159 and 160: a record pinned to a TensorRT-LLM commit from a 2025 blog was given a year before
    # its review; a commit is no release, and the releases after it change what was validated
    import datetime as dt

    from advisor.records.decision import review_by_for

    result = answer(**R1_FP4)
    stack = result.stacks[0]
    runner = next(p.candidate for p in stack.parts if p.role == "serving-engine")
    decided = dt.date(2026, 12, 6)
    at_commit = result.model_copy(
        update={"stacks": (stack.model_copy(update={"validated_with": {runner: "commit " + "b6" * 20}}),)}
    )
    assert "source commit of" in (at_commit.early_review() or "")
    assert review_by_for(decided, at_commit) == dt.date(2027, 6, 6)
    at_release = result.model_copy(update={"stacks": (stack.model_copy(update={"validated_with": {runner: "1.2.0"}}),)})
    assert at_release.early_review() is None
    # a model repository's commit (Swin's code under CoreX) is no engine's
    other = result.model_copy(
        update={"stacks": (stack.model_copy(update={"validated_with": {"swin-transformer": "f82860bf" * 5}}),)}
    )
    assert other.early_review() is None


def test_one_mi355x_serves_openais_release_as_published_and_lists_the_requantized_recipe_with_its_reason():
    # Review 160 p03 asked for a route back to OpenAI's release, which AMD's MLPerf v6.1 configuration serves at TP1
    # (https://github.com/mlcommons/inference_results_v6.1, closed/AMD/src/gpt-oss-120b/offline_mi355x.yaml). Ranking
    # it first on one GPU by its layout was tried (reviews 165/166) and reverted after reviews 167/168 scored it 1 (an
    # MLPerf harness on an unreleased vLLM commit, capped at 32k tokens); reviews 174, 175, 177, 179 and 182 then each
    # named vLLM's recipe serving AMD's requantization amd/gpt-oss-120b-w-mxfp4-a-fp8 at TP 8 for a one-GPU job as their
    # worst p03 defect. A release already in the format asked now comes before a vendor's requantization of it; the
    # MLPerf stack's watch lines carry its harness limits.
    # Review kbgptoss2: eight more reviewers scored that MLPerf harness config 1-2. vLLM's structured gpt-oss-120b recipe
    # marks MI355X verified and its builder renders OpenAI's release there at TP1 with ROCM_AITER_UNIFIED_ATTN, the
    # backend AMD's vLLM V1 guide names for gpt-oss, in a released ROCm image
    # (https://github.com/vllm-project/recipes/blob/main/models/openai/gpt-oss-120b.yaml,
    # https://rocm.docs.amd.com/projects/ai-ecosystem/en/latest/optimization/vllm-v1-optimization.html): that stack
    # fits as the MLPerf one does and, on released software, now leads.
    result = answer(
        model_type="moe",
        hardware="amd-gpu",
        device="mi355x",
        workload="inference",
        team_skill="framework",
        model="openai/gpt-oss-120b",
        needs={"dynamic_shapes": True, "quantization": "fp4", "devices": 1},
    )
    assert chosen_stack(result) == "amd-vllm-gpt-oss-released-mi355x"
    assert considered(result, "amd-vllm-gpt-oss-mlperf-mi355x").reason.startswith("fits as well")
    requantized = considered(result, "amd-vllm-gpt-oss-mi355x").reason
    assert requantized.startswith("it serves amd/gpt-oss-120b-w-mxfp4-a-fp8, a requantization of openai/gpt-oss-120b")
    assert "a considered stack's page" not in (result.verdict or "")
    # reviews 183/184 p03: the recipe is a measured way over, on speed and the release's accuracy
    rival = next(s for s in result.switch_conditions if s.id == "amd-vllm-gpt-oss-mi355x-faster")
    assert rival.also[0].metric == "evidence.requantized_accuracy_drop"


def test_a_long_context_job_keeps_the_pages_degree_for_its_model_and_races_replicas_as_a_switch():
    # Review 159 p04: "2 replicas of 4 (... the command's tensor-parallel degree is 8)" for a long-context DeepSeek-R1
    # reasoning service on 8 x MI355X, whose SGLang recipe runs TP8; the KV cache of long requests wants the page's room
    profile = {
        "model_type": "moe",
        "hardware": "amd-gpu",
        "device": "mi355x",
        "workload": "inference",
        "team_skill": "kernel",
        "model": "deepseek-ai/DeepSeek-R1-0528",
        "needs": {"dynamic_shapes": True, "quantization": "fp4", "long_context": True, "devices": 8},
    }
    result = answer(**profile)
    deployment = choice(result, "deployment")
    assert "layout here" not in deployment.settings
    assert any(s.id == "replicas-over-split" for s in result.switch_conditions)
    short = answer(**{**profile, "needs": {**profile["needs"], "long_context": False}})
    deployment = choice(short, "deployment")
    assert deployment.settings["layout here"].startswith("2 replicas of 4")


def test_a_timm_resnet50_fine_tune_takes_the_generic_torchvision_route_not_a_detector_trainer():
    # Review 162 p09: timm/resnet50.a1_in1k on 8 x BI-V150 was given Ultralytics' YOLOv8 detection trainer, because the
    # ResNet-50 route was said not to build a timm id; torchvision builds resnet50 by name
    # (https://docs.pytorch.org/vision/stable/models.html, the DeepSparkHub recipe's train.py --model)
    result = answer(**VISION_FINE_TUNE, model="timm/resnet50.a1_in1k", parameters_b=0.026)
    chosen = next(r for r in result.stacks_considered if r.chosen)
    assert chosen.stack == "iluvatar-pytorch-resnet50-training"
    yolo = considered(result, "iluvatar-ultralytics-yolov8-training")
    assert yolo.reason.startswith("its code builds yolo networks only")


def test_onnx_runtimes_static_int8_recipe_for_cnns_is_a_partial_fit_for_a_vision_transformer():
    # Review 161 p15: DINOv2 took ONNX Runtime's static QDQ recipe for CNNs as a whole fit, while ONNX Runtime
    # recommends dynamic quantization for transformer-based models
    # (https://onnxruntime.ai/docs/performance/model-optimizations/quantization.html)
    profile = {
        "model_type": "cnn",
        "hardware": "arm-cpu",
        "device": "graviton4",
        "workload": "inference",
        "team_skill": "kernel",
        "needs": {"quantization": "int8"},
    }
    vit = answer(**profile, model="facebook/dinov2-base")
    row = considered(vit, "arm-onnxruntime-int8-cnn-graviton")
    assert "its method is for convolutional networks" in row.reason
    cnn = answer(**profile, model="microsoft/resnet-50")
    row = considered(cnn, "arm-onnxruntime-int8-cnn-graviton")
    assert row.chosen and "its method is for convolutional networks" not in row.reason


def test_a_gguf_job_on_graviton_and_xeon_keeps_llama_cpp_as_the_one_runtime():
    # Review 162 p15: Llama 3.2 3B INT4 on Graviton4 that must also run on Sapphire Rapids led tier 3 with vLLM and a
    # torchao checkpoint, while llama.cpp runs GGUF on both (AVX/AVX2/AVX-512/AMX for x86,
    # https://github.com/ggml-org/llama.cpp#description)
    result = answer(
        model_type="dense-transformer",
        hardware="arm-cpu",
        device="graviton4",
        workload="inference",
        team_skill="kernel",
        model="meta-llama/Llama-3.2-3B-Instruct",
        needs={
            "dynamic_shapes": True,
            "quantization": "int4",
            "cross_platform": True,
            "other_hardware": ["x86-cpu"],
            "other_devices": ["xeon-4th-gen-sapphire-rapids"],
        },
    )
    tier3 = {c.concern: c.option for c in result.tier(3).choices}
    assert tier3["deployment"] == "llama-cpp" and tier3["quantization"] == "llama-cpp"
    assert any("x86-llamacpp-cpu" in c.ref for n in result.tier(3).notes for c in n.cites)


def test_an_nvfp4_command_loads_the_vendors_nvfp4_release_it_quantizes_with():
    # Review 163 p01: "model=deepseek-ai/DeepSeek-V3.1 in place of nvidia/DeepSeek-R1-0528-FP4-v2" beside
    # "checkpoint=nvidia/DeepSeek-V3.1-NVFP4, as released": the command served the FP8 release through NVFP4 configs
    result = answer(**{**R1_FP4, "model": "deepseek-ai/DeepSeek-V3.1"})
    deployment = choice(result, "deployment")
    quantization = choice(result, "quantization")
    assert deployment.settings["model"].startswith("nvidia/DeepSeek-V3.1-NVFP4 in place of")
    assert quantization.settings["checkpoint"].startswith("nvidia/DeepSeek-V3.1-NVFP4")


def test_a_four_bit_fallback_names_the_familys_fp8_release_and_a_float_model_that_cannot_fit_says_so():
    # Review 163 p03: MXFP4 Llama-3.3-70B on 2 x MI355X fell back to "keep the float model", skipping AMD's FP8-KV
    # release (https://huggingface.co/collections/amd/quark-quantized-ocp-fp8-models); p06: DeepSeek-V3.1 W8A8 on 16
    # Atlas A3 dies fell back to a float model about 1.34 TB in BF16, more than the 16 dies hold
    llama = answer(
        model_type="dense-transformer",
        hardware="amd-gpu",
        device="mi355x",
        workload="inference",
        team_skill="framework",
        model="meta-llama/Llama-3.3-70B-Instruct",
        needs={"quantization": "fp4", "devices": 2},
    )
    drop = next(s for s in llama.switch_conditions if s.id == "fp4-accuracy-drop")
    assert "serve amd/Llama-3.3-70B-Instruct-FP8-KV, the vendor's FP8 release for this family" in drop.description
    deepseek = answer(
        model_type="moe",
        hardware="ascend-npu",
        device="ascend-910c",
        workload="inference",
        team_skill="hpc",
        model="deepseek-ai/DeepSeek-V3.1",
        needs={"quantization": "int8", "devices": 16},
    )
    drop = next(s for s in deepseek.switch_conditions if s.id == "int8-accuracy-drop")
    assert "more than the job's 16" in drop.description


def test_a_moe_served_in_float_is_not_sent_to_a_dense_models_fp8_quantization_step():
    # kbneuronqwen3moe: Qwen3-235B-A22B in FP8 on Trn2, served in fp16 as AWS documents it
    # (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/libraries/nxd-inference/models/qwen3/qwen3_moe_235b.html),
    # was told to follow the Llama 3 FP8 recipe's quantization step, written for dense Llama models only
    result = answer(
        model_type="moe",
        hardware="aws-neuron",
        device="trn2",
        workload="inference",
        team_skill="framework",
        model="Qwen/Qwen3-235B-A22B",
        needs={"dynamic_shapes": True, "quantization": "fp8", "devices": 16},
    )
    gap = next(g for g in result.tier(1).gaps if g.concern == "quantization")
    assert "quantization step is the one to follow" not in gap.rationale[0].text
