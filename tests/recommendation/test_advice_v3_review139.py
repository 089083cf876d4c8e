"""Defects of reviews 137-146, each pinned."""

from __future__ import annotations

from recommendation_builders import VISION_FINE_TUNE, chosen_stack
from recommendation_builders import answer_for as answer

from advisor.recommendation.policy import MISFIT_WEIGHTS
from advisor.recommendation.stack_choice import model_misfit


def test_a_vision_transformer_torchvision_does_not_build_trains_on_the_transformer_recipe_not_the_resnet_route():
    # Review 137 p08 scored 1: DINOv2-large was fine-tuned on the ResNet-50 route, whose train.py builds networks by
    # torchvision name; torchvision has no DINOv2 (https://docs.pytorch.org/vision/stable/models.html). DeepSparkHub's
    # Swin Transformer recipe trains a vision transformer with AMP on 8 BI-V150 (models/cv/classification/
    # swin_transformer/pytorch/README.md): its launch and mixed precision carry over, the model code is the team's.
    # Reviews 159 and 160 p09 scored the Swin recipe 1 in turn: its pinned code builds Swin models only
    # (https://github.com/microsoft/Swin-Transformer/blob/f82860bfb5225915aca09c3227159ee9e1df874d/models/build.py),
    # so no Iluvatar recipe builds DINOv2; each says so, and the chosen one's partial fit says torchvision lacks it.
    result = answer(**VISION_FINE_TUNE, model="facebook/dinov2-large")
    swin = next(row for row in result.stacks_considered if row.stack == "iluvatar-swin-transformer-training")
    assert not swin.chosen and swin.reason.startswith("its code builds swin networks only")
    resnet = next(row for row in result.stacks_considered if row.stack == "iluvatar-pytorch-resnet50-training")
    assert "torchvision does not build" in resnet.reason


def test_a_vision_transformer_torchvision_builds_keeps_the_generic_route_that_builds_it_by_name():
    # google/vit-large-patch16-224 is torchvision's vit_l_16: the generic trainer builds it by name, which the Swin
    # recipe's code does not (scenario 615 keeps both considered)
    # Since review kbiluvatar3 (scenario 779) DeepSparkHub's MAE ViT fine-tune recipe (BI-V100 only,
    # https://github.com/Deep-Spark/DeepSparkHub/blob/1338302894e9ef04f5b4aa4e980aab415ff2a7c3/models/cv/self_supervised_learning/mae/pytorch/README.md)
    # was chosen for a ViT fine-tune; since review 165 p09 timm's train.py as DeepSparkHub's Wave-MLP recipe runs it on
    # BI-V150 (https://github.com/Deep-Spark/DeepSparkHub/blob/6aa8a871d5e425d770816ea19c1ae2419126135f/models/cv/classification/wavemlp/pytorch/README.md)
    # is, loading Google's own ViT weights by timm's name; the generic torchvision route stays considered.
    result = answer(**VISION_FINE_TUNE, model="google/vit-large-patch16-224")
    assert chosen_stack(result, "training") == "iluvatar-timm-train-tiangai-150"
    generic = next(row for row in result.stacks_considered if row.stack == "iluvatar-pytorch-resnet50-training")
    assert not generic.chosen and "builds the network as torchvision.models" in generic.reason
    swin = next(row for row in result.stacks_considered if row.stack == "iluvatar-swin-transformer-training")
    assert not swin.chosen and swin.reason.startswith("its code builds swin networks only")


def test_a_vision_sibling_is_still_an_export_for_serving():
    # the inference text of review 131 p08 stays: the same export and engine build take another ViT
    serving = {**VISION_FINE_TUNE, "workload": "inference", "training": None, "device": "zhikai-100"}
    result = answer(**serving, model="facebook/dinov2-large")
    chosen = next(row for row in result.stacks_considered if row.chosen)
    assert "export and engine build" in chosen.reason


# DeepSeek-R1-Distill-Qwen-14B asked in int4 on one Hygon K100_AI (review 137 p07)
DISTILL_K100_INT4 = {
    "model_type": "dense-transformer",
    "hardware": "hygon-dcu",
    "device": "k100-ai",
    "workload": "inference",
    "team_skill": "framework",
    "model": "deepseek-ai/DeepSeek-R1-Distill-Qwen-14B",
    "needs": {"quantization": "int4", "devices": 1},
}


def test_a_four_bit_ask_served_in_float_names_the_eight_bit_route_that_serves_only_other_models():
    # Hygon's cookbook documents INT8 W8A8 on the K100_AI only as Hygon's releases of other models
    # (https://github.com/HYGON-AI/inference-cookbook-das): the bf16 plan says why that nearer format is not taken
    result = answer(**DISTILL_K100_INT4)
    gap = next(gap for gap in result.tier(1).gaps if gap.concern == "quantization")
    text = gap.rationale[0].text
    assert "served in bf16" in text and "its int8 route, nearer the ask than bf16" in text
    assert "deepseek-ai/DeepSeek-R1-Distill-Llama-70B" in text and "none of this model" in text


def test_a_first_command_wider_than_the_job_says_to_take_the_single_device_width_its_other_lines_give():
    # the cookbook's first K100_AI line serves Qwen3-30B-A3B with -tp 2; its Qwen3 lines up to 14B run -tp 1
    result = answer(**DISTILL_K100_INT4)
    deployment = next(choice for choice in result.tier(1).choices if choice.concern == "deployment")
    assert "-tp 1 for Qwen3-0.6B to 14B" in deployment.settings["as documented"]
    assert "splits its model 2 ways" in deployment.settings["devices"]
    assert "tensor parallel 1" in deployment.settings["devices"]
    # on two cards the first command already fits: nothing to change
    two = answer(**{**DISTILL_K100_INT4, "needs": {"quantization": "int4", "devices": 2}})
    deployment = next(choice for choice in two.tier(1).choices if choice.concern == "deployment")
    assert "devices" not in deployment.settings


def test_a_dense_vision_language_models_series_moe_recipe_weighs_less_than_a_text_only_one():
    # Review 140 p04 scored 1: Qwen3-VL-8B on MI300X was served by a text-only SGLang recipe ("documented for
    # dense-transformer, not multimodal"), while AMD's vLLM vision-language page runs Qwen3-VL-235B-A22B, the same
    # series' MoE size, whose multimodal settings apply (the KB now also holds SGLang's dense Qwen3-VL commands)
    misfit = model_misfit(
        ["Qwen/Qwen2.5-VL-7B-Instruct", "Qwen/Qwen3-VL-235B-A22B-Instruct"], "Qwen/Qwen3-VL-8B-Instruct"
    )
    assert misfit.kind == "layout_sibling" and "Qwen/Qwen3-VL-235B-A22B-Instruct" in misfit.text
    assert misfit.weight < MISFIT_WEIGHTS["model_type"] < MISFIT_WEIGHTS["named_model"]
    # a text model keeps the plain rule: another model's recipe
    assert model_misfit(["Qwen/Qwen3-235B-A22B"], "Qwen/Qwen3-8B").kind != "layout_sibling"


def test_pretraining_a_model_of_the_recipes_architecture_is_a_whole_fit_with_no_checkpoint_to_load():
    # Review 140 p02: Megatron Bridge's Llama 3 8B FP8 recipe for 64 H100 pretraining Llama-3.1-8B was a partial fit
    # "with this model's own weights, not a checkpoint it names": a pre-training run loads no weights at all
    profile = {
        "model_type": "dense-transformer",
        "hardware": "nvidia-gpu",
        "device": "h100-sxm",
        "workload": "training",
        "team_skill": "kernel",
        "model": "meta-llama/Llama-3.1-8B",
        "needs": {"quantization": "fp8", "devices": 64},
    }
    pretraining = answer(**profile, training="pretraining")
    row = next(row for row in pretraining.stacks_considered if row.chosen)
    assert row.stack == "nvidia-megatron-bridge-llama3-8b-h100" and row.reason == "fits the whole profile"
    # a fine-tune starts from the model's own weights: the recipe for its architecture still says so
    fine_tune = answer(**profile, training="fine-tuning")
    assert all(row.reason != "fits the whole profile" for row in fine_tune.stacks_considered if row.chosen)


def test_an_in_app_int8_ask_takes_four_bit_weight_only_models_as_a_smaller_footprint_not_a_wrong_format():
    # Reviews 131-137 p12/p13: WhisperKit (Core ML, 4-bit palettized models) was rejected for a Mac app asking int8 as
    # "runs fp16, int4"; in an app the ask is the model's size, which its 4-bit models answer
    # (https://github.com/argmaxinc/WhisperKit)
    profile = {
        "model_type": "dense-transformer",
        "hardware": "apple-silicon",
        "device": "apple-m4",
        "workload": "inference",
        "team_skill": "framework",
        "model": "openai/whisper-large-v3-turbo",
        "task": "transcription",
        "needs": {"quantization": "int8", "devices": 1, "in_app": True},
    }
    result = answer(**profile)
    whisperkit = next(row for row in result.stacks_considered if row.stack == "apple-whisperkit-coreml")
    # reviews 147 p12 and 148 p13 read "its smallest models are int4" as saying it ships no float model: it names both
    assert "it ships fp16 and int4 models, none in int8: its int4 weights are a smaller footprint" in whisperkit.reason
    # out of an app, 4-bit weights computed in 16 bits are still no answer to an int8 ask
    server = answer(**{**profile, "needs": {"quantization": "int8", "devices": 1}})
    whisperkit = next(row for row in server.stacks_considered if row.stack == "apple-whisperkit-coreml")
    assert "smaller footprint" not in whisperkit.reason


def test_a_hybrid_attention_models_memory_line_says_only_its_full_attention_layers_grow_a_kv_cache():
    # Reviews 139/140 p03-p04: Qwen3.5-397B-A17B's "1,677 GB for the KV cache" read as if every layer held one; Qwen3.5
    # runs full attention in every fourth layer, Gated DeltaNet in the others
    # (https://docs.sglang.io/docs/hardware-platforms/ascend-npus/model-deployment/tutorials/qwen3_5_397b)
    profile = {
        "model_type": "moe",
        "hardware": "amd-gpu",
        "device": "mi355x",
        "workload": "inference",
        "team_skill": "kernel",
        "needs": {"quantization": "fp8", "devices": 8},
    }
    hybrid = answer(**profile, model="Qwen/Qwen3.5-397B-A17B")
    assert any("only its full-attention layers (one in four) grow a KV cache" in line.text for line in hybrid.capacity)
    plain = answer(**profile, model="Qwen/Qwen3-235B-A22B")
    assert not any("full-attention layers" in line.text for line in plain.capacity)


def test_a_diffusion_pipelines_text_encoder_is_counted_beside_the_transformer():
    # Reviews 139 p03 and 141 p03 scored 1: FLUX.2-dev's 32B transformer "fit" an L40S while its Mistral Small 3.1
    # (24B) text encoder alone takes about 48 GB in bf16 (https://huggingface.co/blog/flux-2)
    profile = {
        "model_type": "diffusion",
        "hardware": "nvidia-gpu",
        "workload": "inference",
        "team_skill": "kernel",
        "model": "black-forest-labs/FLUX.2-dev",
        "needs": {"quantization": "fp8", "devices": 1},
    }
    small = answer(**profile, device="l40s")
    text = next(line.text for line in small.capacity if line.text.startswith("capacity:"))
    assert "its text encoder (Mistral Small 3.1, 24B) adds about 48 GB in bf16, 80 GB with the transformer" in text
    assert "quantize the encoder, offload it to the CPU" in text
    large = answer(**profile, device="rtx-pro-6000-server")
    assert "within one" in next(line.text for line in large.capacity if line.text.startswith("capacity:"))
    # a pipeline the catalogue names no encoder for says nothing of one
    flux1 = answer(**{**profile, "model": "black-forest-labs/FLUX.1-dev"}, device="l40s", parameters_b=12)
    assert not any("text encoder" in line.text for line in flux1.capacity)


def test_an_engine_switch_races_another_engine_before_another_recipe_of_the_chosen_one():
    # Review 142 p13: Llama-3.2-3B QAT int4 in an Android app raced ExecuTorch's LLM export page against ExecuTorch's
    # generic XNNPACK page, while LiteRT fitted as well
    result = answer(
        model_type="dense-transformer",
        hardware="arm-cpu",
        device="armv9-mobile-sme2",
        workload="inference",
        team_skill="kernel",
        model="meta-llama/Llama-3.2-3B-Instruct",
        needs={"quantization": "int4", "quantization_method": "qat", "devices": 1, "in_app": True},
    )
    assert chosen_stack(result) == "arm-executorch-llama-xnnpack-android"
    faster = [s for s in result.switch_conditions if s.id.endswith("-faster")]
    assert faster and all("executorch" not in s.id for s in faster)


def test_an_nvfp4_checkpoint_in_place_of_an_fp8_one_keeps_the_fp8_kv_cache_as_a_choice_of_its_own():
    # Review 141 p01: "with none of its fp8 settings (... an fp8 KV cache ...)" beside a quantization line that runs
    # the NVFP4 model with --kv-cache-dtype fp8, as vLLM's DeepSeek-V3.2 recipe does
    # (https://github.com/vllm-project/recipes/blob/main/models/deepseek-ai/DeepSeek-V3.2.yaml). On a B300, which
    # that recipe names: on a B200 TensorRT-LLM's NVFP4-first DeepSeek-V3.2 stack now leads (review kbtrtv32,
    # https://nvidia.github.io/TensorRT-LLM/blogs/tech_blog/blog15_Optimizing_DeepSeek_V32_on_NVIDIA_Blackwell_GPUs.html)
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="b300",
        workload="inference",
        team_skill="hpc",
        model="deepseek-ai/DeepSeek-V3.2",
        needs={"quantization": "fp4", "devices": 8},
    )
    precision = next(
        choice.settings["precision"] for choice in result.tier(1).choices if "precision" in choice.settings
    )
    assert "an fp8 KV cache is a choice of its own" in precision and "options such as an fp8 KV cache" not in precision


def test_a_diffusion_model_trained_on_another_models_recipe_takes_the_frameworks_own_trainer_and_targets():
    # Review 144 p05 scored 1: Wan2.2 LoRA on 8 MI300X printed DiffSynth-Studio's Qwen-Image trainer with Qwen-Image's
    # LoRA targets and only the model id swapped; DiffSynth trains Wan with its own script and targets
    # (https://github.com/modelscope/DiffSynth-Studio, examples/wanvideo/model_training)
    result = answer(
        model_type="diffusion",
        hardware="amd-gpu",
        device="mi300x",
        workload="training",
        training="lora",
        team_skill="framework",
        model="Wan-AI/Wan2.2-T2V-A14B-Diffusers",
        parameters_b=27,
        needs={"devices": 8},
    )
    framework = next(c for c in result.tier(1).choices if c.concern == "training-framework")
    assert "trainer script and LoRA target modules are for Qwen/Qwen-Image's layers" in framework.settings["model"]


def test_a_hybrid_linear_attention_model_on_a_page_that_runs_none_is_a_partial_fit():
    # Review 143 p05 scored 1: Qwen3.6-27B (Gated DeltaNet in three layers of four) on vllm-ascend's W8A8 dense page
    # "fits the whole profile"; the page runs full-attention models only. Qwen3.6-27B itself now has its own stack
    # (ascend-vllm-ascend-qwen35-27b, from https://docs.vllm.ai/projects/ascend/en/latest/tutorials/models/Qwen3.5-27B-Qwen3.6-27B.html),
    # so the hybrid model with no page of its own here is Qwen3.5-9B (that tutorial's W8A8 checkpoints are 27B only)
    result = answer(
        model_type="dense-transformer",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="inference",
        team_skill="framework",
        model="Qwen/Qwen3.5-9B",
        parameters_b=9,
        needs={"quantization": "int8", "devices": 4},
    )
    chosen = next(row for row in result.stacks_considered if row.chosen)
    assert chosen.reason.startswith("its page runs no hybrid linear-attention model")
    # a page that runs the model's own family shows no such misfit (vLLM's Qwen3.5 recipe on AMD)
    amd = answer(
        model_type="moe",
        hardware="amd-gpu",
        device="mi355x",
        workload="inference",
        team_skill="kernel",
        model="Qwen/Qwen3.5-397B-A17B",
        needs={"quantization": "fp8", "devices": 8},
    )
    assert "hybrid linear-attention" not in next(row for row in amd.stacks_considered if row.chosen).reason


def test_an_in_app_profile_gets_no_engine_switch_to_an_alternative_with_no_fitting_stack():
    # Review 143 p13: FLUX.2-klein in a Mac app rejected mflux ("a server or a script") and then offered
    # "mflux-engine-faster" as a switch
    result = answer(
        model_type="diffusion",
        hardware="apple-silicon",
        device="apple-m4",
        workload="inference",
        team_skill="framework",
        model="black-forest-labs/FLUX.2-klein-4B",
        parameters_b=4,
        needs={"quantization": "int4", "devices": 1, "in_app": True},
    )
    assert chosen_stack(result) == "apple-coreai-image-generation"
    assert not any(s.id == "mflux-engine-faster" for s in result.switch_conditions)


def test_a_command_that_leaves_the_tensor_parallel_degree_open_gets_the_layout_the_devices_take():
    # Review 141 p02: Qwen3-8B rollouts on 8 H100 were told "--tensor-parallel-size N" across the GPUs although one
    # GPU holds the model; vLLM documents data-parallel replicas for a model that fits one GPU
    # (https://docs.vllm.ai/en/latest/serving/data_parallel_deployment/)
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="both",
        training="rl",
        team_skill="framework",
        model="Qwen/Qwen3-8B",
        needs={"devices": 8},
    )
    deployment = next(c for c in result.tier(1).choices if c.concern == "deployment" and "layout here" in c.settings)
    assert deployment.settings["layout here"].startswith("8 replicas of 1 (one device each; the command leaves")
