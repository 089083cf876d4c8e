"""Defects of reviews 107-110 (and earlier leftovers), each pinned."""

from __future__ import annotations

from recommendation_builders import answer_for as answer

from advisor.recommendation.policy import MISFIT_WEIGHTS


def trained_with(result) -> str:
    return next(row.stack for row in result.stacks_considered if row.chosen and row.workload == "training")


def test_a_short_context_lora_takes_a_maintained_framework_over_a_release_leaving_maintenance():
    # Review 108 p06: a Qwen3-32B LoRA on 8 x 910B took MindSpeed LLM 26.1.0's recipe (26.2.0 withdrew it; 26.1.0 leaves
    # maintenance on 2026-12-30, its README's table) over LLaMA-Factory, which trains it on torch_npu and hands vLLM
    # Ascend its checkpoint (https://docs.vllm.ai/projects/ascend/zh-cn/latest/community/user_stories/llamafactory.html).
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
    # ms-swift's Ascend example, written for Qwen3-32B LoRA on 8 A2 NPUs (review 165 p06,
    # https://github.com/modelscope/ms-swift/blob/ff5128777dd3dc5538f1a95fbcc29442c327d7d2/examples/ascend/train/qwen3/qwen3_lora_fsdp/train.sh),
    # is the maintained framework now
    assert trained_with(result) == "ascend-ms-swift-qwen3-32b-lora"
    row = next(row for row in result.stacks_considered if row.stack == "ascend-mindspeed-llm-qwen3-32b")
    assert "maintenance ends on 2026-12-30" in row.reason


def test_a_long_context_fine_tune_keeps_the_recipe_with_context_parallelism_though_its_release_ends():
    # The same release's 32K Qwen2.5-72B recipe runs Ulysses context parallelism (tune_qwen25_72b_32k_full_pack.sh);
    # LLaMA-Factory documents none here, so for a 32K full fine-tune the recipe stays first (scenario 568).
    result = answer(
        model_type="dense-transformer",
        hardware="ascend-npu",
        device="ascend-910c",
        workload="training",
        training="fine-tuning",
        team_skill="hpc",
        model="Qwen/Qwen2.5-72B-Instruct",
        needs={"long_context": True, "devices": 16},
    )
    assert trained_with(result) == "ascend-mindspeed-llm-qwen25-72b"
    row = next(row for row in result.stacks_considered if row.stack == "ascend-llamafactory-sft")
    assert "context or sequence parallelism" in row.reason


def test_a_route_its_vendor_no_longer_supports_is_as_unsure_as_a_partial_fit():
    # Review 109 p11: Llama 4 Scout on Trn2 took NxD Inference at Neuron 2.28 (AWS ends NxD Inference on Trn2 from 2.34,
    # https://awsdocs-neuron.readthedocs-hosted.com/en/latest/about-neuron/announcements/neuron2.x/announce-no-support-nxdi-nxd-core-inference-trn.html)
    # at confidence 0.50, the same as a supported preview; it is the only route, and it now says how unsure it is.
    supported = answer(
        model_type="dense-transformer",
        hardware="aws-neuron",
        device="trn2",
        workload="inference",
        team_skill="hpc",
        model="meta-llama/Llama-3.3-70B-Instruct",
        needs={"devices": 16},
    )
    frozen = answer(
        model_type="multimodal",
        hardware="aws-neuron",
        device="trn2",
        workload="inference",
        team_skill="hpc",
        model="meta-llama/Llama-4-Scout-17B-16E-Instruct",
        needs={"devices": 16},
    )
    assert next(row.stack for row in frozen.stacks_considered if row.chosen) == "neuron-nxdi-llama4-trn2"
    assert frozen.confidence < supported.confidence
    assert "no longer in its software's current release" in frozen.confidence_notes[0]
    assert "with no fixes to come, and a preview on its own page" in frozen.confidence_notes[0]


def test_an_experimental_trainer_comes_after_the_released_recipe_for_another_size():
    # Review 110 p04: GRPO of Qwen3-32B on 8 x MI355X took verl's experimental fully-async trainer (a preview on
    # https://verl.readthedocs.io/en/latest/advance/fully_async.html) over verl's main colocated GRPO recipe, written for
    # Qwen3-8B (https://rocm.docs.amd.com/projects/verl/en/docs-26.09/install/verl-install.html).
    result = answer(
        model_type="dense-transformer",
        hardware="amd-gpu",
        device="mi355x",
        workload="both",
        training="rl",
        team_skill="kernel",
        model="Qwen/Qwen3-32B",
        needs={"devices": 8},
    )
    assert trained_with(result) == "amd-verl-grpo-colocated-instinct"
    row = next(row for row in result.stacks_considered if row.stack == "amd-verl-rl-instinct")
    # both pages run their trainer on an example model (review 224 p03); the async one's is also a preview
    assert "its page calls it a preview" in row.reason and "is released" in row.reason


def test_one_node_of_a_moe_takes_the_engines_guide_and_its_command_loads_the_models_own_fp8_release():
    # Reviews 109 and 110 p01: Qwen3-235B-A22B-Instruct-2507 in FP8 on one 8 x H200 node took NVIDIA's Dynamo recipe,
    # sized for 16 GPUs on Kubernetes (https://docs.nvidia.com/dynamo/latest/recipes/qwen3-235b-a22b-fp8), and its
    # command served Qwen3-235B-A22B-FP8 rather than the release named. TensorRT-LLM's Qwen3 guide sets TP and EP to one
    # instance's GPUs (https://nvidia.github.io/TensorRT-LLM/deployment-guide/deployment-guide-for-qwen3-on-trtllm.html)
    # and Qwen publishes Qwen3-235B-A22B-Instruct-2507-FP8.
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="h200-sxm",
        workload="inference",
        team_skill="framework",
        model="Qwen/Qwen3-235B-A22B-Instruct-2507",
        needs={"quantization": "fp8", "devices": 8, "long_context": True},
    )
    assert result.stacks[0].stack == "nvidia-trtllm-qwen3-bf16"
    dynamo = next(row for row in result.stacks_considered if row.stack == "nvidia-dynamo-trtllm-qwen3-235b-fp8")
    # (since reviews 241/243 p01: "documented as 4-device workers replicated across nodes ... 2 of them on one node")
    assert "4-device workers replicated across nodes" in dynamo.reason
    deployment = next(c for c in result.tier(1).choices if c.concern == "deployment")
    assert deployment.settings["model"] == "Qwen/Qwen3-235B-A22B-Instruct-2507-FP8 in place of Qwen/Qwen3-30B-A3B"


def test_a_card_no_listed_stack_names_takes_the_stack_that_builds_its_engines_there():
    # Reviews 110 and 112 p03: FLUX.1-dev on an RTX PRO 6000 Server took the NIM, whose engines NVIDIA builds per GPU
    # model (https://docs.nvidia.com/nim/visual-genai/1.0.0/customization.html) for the GPUs of its matrix, which names
    # no RTX PRO 6000 (https://docs.nvidia.com/nim/visual-genai/1.1.1/support-matrix.html), then TensorRT for RTX, made
    # for desktops, laptops and workstations
    # (https://docs.nvidia.com/deeplearning/tensorrt-rtx/1.4/installing-tensorrt-rtx/installation-overview.html).
    # TensorRT's demoDiffusion builds FP4 engines on Blackwell cards (https://github.com/NVIDIA/TensorRT/blob/main/demo/Diffusion/README.md).
    result = answer(
        model_type="diffusion",
        hardware="nvidia-gpu",
        device="rtx-pro-6000-server",
        workload="inference",
        model="black-forest-labs/FLUX.1-dev",
        needs={"quantization": "fp4", "devices": 1},
    )
    rows = {row.stack: row for row in result.stacks_considered}
    assert rows["nvidia-tensorrt-demodiffusion-flux"].chosen
    assert "prebuilt by NVIDIA per GPU model" in rows["nvidia-nim-flux1-dev"].reason
    assert "built for desktop applications" in rows["nvidia-tensorrt-rtx-flux1-dev"].reason
    # on the RTX 5090 its matrix lists, the NIM server is chosen
    listed = answer(
        model_type="diffusion",
        hardware="nvidia-gpu",
        device="rtx-5090",
        workload="inference",
        model="black-forest-labs/FLUX.1-dev",
        needs={"quantization": "fp4", "devices": 1},
    )
    assert next(row.stack for row in listed.stacks_considered if row.chosen) == "nvidia-nim-flux1-dev"


def test_llama_3_1_70b_pretraining_takes_the_llama_3_70b_recipe_for_its_device():
    # Review 110 p02: Llama-3.1-70B pretraining in FP8 on 64 B200 rejected Megatron Bridge's
    # llama3_70b_pretrain_64gpu_b200_fp8mx_config as "written for Meta-Llama-3-70B"; Megatron Bridge gives
    # "Llama 3 / 3.1 (70B)" one table of parallel layouts (docs/fern/versions/nightly/pages/models/llama/llama3.mdx).
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="b200",
        workload="training",
        training="pretraining",
        team_skill="hpc",
        model="meta-llama/Llama-3.1-70B",
        needs={"quantization": "fp8", "quantization_method": "qat", "devices": 64},
    )
    assert trained_with(result) == "nvidia-megatron-bridge-llama3-70b-b200"
    # pre-training loads no checkpoint: the recipe for the architecture is a whole fit (review 140 p02)
    assert "partial fit" not in (result.verdict or "")


def test_a_recipe_for_the_nearer_release_of_an_architecture_comes_first():
    # Llama 3.3 70B keeps Llama 3.1 70B's architecture (torchtune's builders), which keeps Llama 3's: a recipe listing
    # Llama 3.1 comes before one listing Llama 3 70B (Primus's native SFT). Since helper kbamdlora (2026-12-06) the
    # built-in Megatron Bridge post-training stack lists no Llama model (AMD's post-training page,
    # rocm.docs.amd.com/projects/primus/en/latest/02-user-guide/posttraining.html, documents Qwen3 32B only), so the
    # principle is pinned on a copy of the knowledge base in which it still lists Llama 3.1.
    from advisor.knowledge.loader import load_knowledge_base
    from advisor.profile import parse_profile
    from advisor.recommendation.engine import recommend

    knowledge = load_knowledge_base()
    bridge = next(s for s in knowledge.stacks if s.id == "amd-primus-megatron-bridge-posttrain")
    scope = bridge.applies_to.model_copy(update={"models": [*bridge.applies_to.models, "meta-llama/Llama-3.1"]})
    with_llama = knowledge.model_copy(
        update={
            "stacks": tuple(s.model_copy(update={"applies_to": scope}) if s is bridge else s for s in knowledge.stacks)
        }
    )
    profile = parse_profile(
        "model_type: dense-transformer\nhardware: amd-gpu\ndevice: mi300x\nworkload: training\ntraining: lora\n"
        "team_skill: kernel\nmodel: meta-llama/Llama-3.3-70B-Instruct\nneeds: {devices: 8, long_context: true}\n"
    )
    assert trained_with(recommend(profile, [], with_llama)) == "amd-primus-megatron-bridge-posttrain"


def test_a_qat_ask_for_a_model_released_quantization_aware_starts_from_the_release():
    # Review 109 p14: Gemma 3 1B in int4 with QAT asked, in an Android app: llama.cpp was rejected as "the toolkit runs
    # no QAT" and the team told to run QAT itself, while Google publishes Gemma 3 QAT checkpoints: Q4_0 GGUFs for
    # llama.cpp and the QAT-trained weights in float for other toolkits (https://huggingface.co/collections/google/gemma-3-qat).
    # LiteRT-LM, Google's on-device LLM runtime (https://ai.google.dev/edge/litert-lm/android), is chosen (scenario 657).
    result = answer(
        model_type="dense-transformer",
        hardware="arm-cpu",
        device="armv9-mobile-sme2",
        workload="inference",
        team_skill="kernel",
        model="google/gemma-3-1b-it",
        needs={"quantization": "int4", "quantization_method": "qat", "devices": 1, "in_app": True},
    )
    rows = {row.stack: row for row in result.stacks_considered}
    assert rows["arm-litert-lm-gemma3-android"].chosen
    assert "QAT" not in rows["arm-llamacpp-android"].reason
    quantization = next(c for c in result.tier(1).choices if c.concern == "quantization")
    # since review 160 p15 the int4 variant, which Google points at general int4 schemes rather than GGUF's Q4_0
    # (https://huggingface.co/google/gemma-3-1b-it-qat-int4-unquantized/discussions/2)
    assert quantization.settings["checkpoint"] == "google/gemma-3-1b-it-qat-int4-unquantized"
    assert quantization.rationale[0].text.startswith("QAT asked: the publisher releases google/gemma-3-1b-it")
    on_llama_cpp = answer(
        model_type="dense-transformer",
        hardware="arm-cpu",
        device="graviton4",
        workload="inference",
        team_skill="framework",
        model="google/gemma-3-4b-it",
        needs={"quantization": "int4", "quantization_method": "qat", "devices": 1},
    )
    loaded = next(c for c in on_llama_cpp.tier(1).choices if c.concern == "quantization")
    assert loaded.option == "llama-cpp" and loaded.settings["checkpoint"] == "google/gemma-3-4b-it-qat-q4_0-gguf"
    assert "loads it as released" in loaded.rationale[0].text


def test_a_quantized_download_of_the_base_release_is_not_the_later_releases_checkpoint():
    # Review 112 p06: Qwen3-30B-A3B-Instruct-2507 in W8A8 on 910B was pointed to "W8A8 weights from the
    # Eco-Tech/Qwen3-30B-A3B-w8a8 download", which holds Qwen3-30B-A3B's weights, never saying so; the vllm-ascend
    # tutorial (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/models/Qwen3-30B-A3B.html) also makes W8A8 weights
    # from the BF16 model with msModelSlim.
    result = answer(
        model_type="moe",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="inference",
        team_skill="framework",
        model="Qwen/Qwen3-30B-A3B-Instruct-2507",
        needs={"quantization": "int8", "devices": 2},
    )
    quantization = next(c for c in result.tier(1).choices if c.concern == "quantization")
    assert quantization.settings["checkpoint"].startswith("make it from Qwen/Qwen3-30B-A3B-Instruct-2507")
    assert (
        "holds Qwen3-30B-A3B's weights, not those of Qwen3-30B-A3B-Instruct-2507" in quantization.settings["checkpoint"]
    )
    base = answer(
        model_type="moe",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="inference",
        team_skill="framework",
        model="Qwen/Qwen3-30B-A3B",
        needs={"quantization": "int8", "devices": 2},
    )
    assert "checkpoint" not in next(c for c in base.tier(1).choices if c.concern == "quantization").settings


def test_a_model_served_as_released_in_the_asked_format_has_no_float_model_to_fall_back_to():
    # Reviews 111 and 112 p01: gpt-oss-120b in fp4 on an H100 got "fp4-accuracy-drop ... keep the float model" beside
    # its own line that the model is released in MXFP4 (https://huggingface.co/openai/gpt-oss-120b): there is none.
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="inference",
        team_skill="framework",
        model="openai/gpt-oss-120b",
        needs={"quantization": "fp4", "devices": 1},
    )
    assert "fp4-accuracy-drop" not in {condition.id for condition in result.switch_conditions}
    quantized_here = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="b200",
        workload="inference",
        team_skill="framework",
        model="meta-llama/Llama-3.3-70B-Instruct",
        needs={"quantization": "fp4", "devices": 8},
    )
    assert "fp4-accuracy-drop" in {condition.id for condition in quantized_here.switch_conditions}


def test_a_tier_3_triton_gemm_switch_is_written_only_where_tier_3_is_more_than_exploration():
    # Review 111 p02 and p04: "triton-gemm-behind ... keep the vendor GEMM in tier 3" for one-family jobs of an HPC team
    # whose stacks have no Triton GEMM and for which nothing measured Triton: noise. (A kernel team's measured Triton
    # GEMM keeps its switch: test_recommendation_evidence_flips.test_triton_gemm_parity_decides_the_tier3_gemm.)
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="b200",
        workload="training",
        training="pretraining",
        team_skill="hpc",
        needs={"devices": 64},
    )
    assert next(c for c in result.tier(3).choices if c.concern == "gemm").option == "triton"
    assert not {"triton-gemm-behind", "triton-gemm-parity"} & {c.id for c in result.switch_conditions}


def test_a_float_plan_on_a_recipe_whose_command_loads_an_fp8_release_is_not_told_to_quantize():
    # Review 112 p12: Llama-3.1-8B-Instruct served in bf16 on Trn2 read "quantized to FP8 first (the command loads
    # nvidia/Llama-3.3-70B-Instruct-FP8 ...)" beside "precision=bf16" in the same row.
    result = answer(
        model_type="dense-transformer",
        hardware="aws-neuron",
        device="trn2",
        workload="both",
        training="lora",
        team_skill="framework",
        model="meta-llama/Llama-3.1-8B-Instruct",
        needs={"devices": 16},
    )
    deployment = next(c for c in result.tier(1).choices if c.concern == "deployment")
    assert (
        deployment.settings["model"] == "meta-llama/Llama-3.1-8B-Instruct in place of nvidia/Llama-3.3-70B-Instruct-FP8"
    )


def test_a_training_config_for_another_model_family_says_to_change_its_chat_template():
    # Reviews 109 p07 and 112 p08: Qwen2.5-7B-Instruct LoRA on Hygon K100-AI kept the Llama-3 cookbook's
    # "template: llama3"; LLaMA-Factory's supported-models table gives each family its own template
    # (https://github.com/hiyouga/LLaMA-Factory#supported-models: qwen for Qwen2/Qwen2.5).
    result = answer(
        model_type="dense-transformer",
        hardware="hygon-dcu",
        device="k100-ai",
        workload="training",
        training="lora",
        team_skill="kernel",
        model="Qwen/Qwen2.5-7B-Instruct",
        needs={"devices": 4},
    )
    framework = next(c for c in result.tier(1).choices if c.concern == "training-framework")
    assert "template: llama3" in framework.settings["as documented"]
    assert framework.settings["template"].startswith("the template LLaMA-Factory's supported-models table gives")
    llama = answer(
        model_type="dense-transformer",
        hardware="hygon-dcu",
        device="k100-ai",
        workload="training",
        training="lora",
        team_skill="kernel",
        model="meta-llama/Meta-Llama-3-8B-Instruct",
        needs={"devices": 4},
    )
    assert "template" not in next(c for c in llama.tier(1).choices if c.concern == "training-framework").settings


def test_a_community_route_is_not_called_the_official_stack():
    # Review 109 p07: Hygon K100-AI LoRA took a community cookbook under "Tier 1: official full stack" while its own
    # note said no Hygon page backs PyTorch training on the K100_AI.
    result = answer(
        model_type="dense-transformer",
        hardware="hygon-dcu",
        device="k100-ai",
        workload="training",
        training="lora",
        team_skill="framework",
        model="Qwen/Qwen2.5-7B-Instruct",
        needs={"devices": 4},
    )
    assert result.tier(1).name == "documented full stack (a community route; no vendor page fits)"
    official = answer(model_type="dense-transformer", hardware="nvidia-gpu", device="h100-sxm", workload="inference")
    assert official.tier(1).name == "official full stack"


def test_a_full_fine_tune_on_trainium_takes_the_recipe_that_shards_every_weight_and_a_lora_job_the_hugging_face_route():
    # Review 113 p13 wanted the Hugging Face libraries AWS's training page gives "for fine-tuning and training"
    # (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/training.html); reviews 115, 117 and 118 (p12) then
    # scored that route 1 for a full fine-tune, since its one tutorial trains a LoRA adapter on Qwen3-1.7B over 4
    # NeuronCores, while TorchTitan Neuron's basic tutorial lays an 8B model's whole state out as TP4 x FSDP16 on one
    # node. The general word makes the Hugging Face route a nearer miss than a LoRA-only recipe, not a fit.
    profile = dict(
        model_type="dense-transformer",
        hardware="aws-neuron",
        device="trn2",
        workload="training",
        team_skill="kernel",
        model="meta-llama/Llama-3.1-8B-Instruct",
        needs={"devices": 16},
    )
    full = answer(training="fine-tuning", **profile)
    assert trained_with(full) == "neuron-torchtitan-pretraining"
    hugging_face = next(row for row in full.stacks_considered if row.stack == "neuron-torchneuron-hf-lora-trn")
    assert "its page runs lora only; its vendor names it for fine-tuning in general terms" in hugging_face.reason
    assert "--checkpoint.initial_load_in_hf" in (
        full.verdict or ""
    )  # how the fine-tune starts from the model's weights
    lora = answer(training="lora", **profile)
    assert trained_with(lora) == "neuron-torchneuron-hf-lora-trn"
    assert MISFIT_WEIGHTS["training_kind_near"] < MISFIT_WEIGHTS["training_kind_named"]
    assert MISFIT_WEIGHTS["training_kind_named"] < MISFIT_WEIGHTS["training_kind_adapter"]


def test_a_lora_job_on_a_framework_that_trains_no_adapters_trains_every_weight_and_merges_nothing():
    # Review 118 p11: a FLUX.1-dev LoRA on TPU v6e took MaxDiffusion's trainer with "Hugging Face PEFT's LoraConfig on
    # the model" (PEFT wraps PyTorch modules; MaxDiffusion is JAX) and "merge the LoRA adapters into the base model
    # first"; its README gives LoRA for inference only, loaded at generation through lora_config
    # (https://github.com/AI-Hypercomputer/maxdiffusion/blob/7cfb8801d41d1728f0232cd7ee59e900a151fecf/README.md#flux-lora).
    result = answer(
        model_type="diffusion",
        hardware="google-tpu",
        device="tpu-v6e",
        workload="both",
        training="lora",
        team_skill="framework",
        model="black-forest-labs/FLUX.1-dev",
        needs={"devices": 8},
    )
    assert trained_with(result) == "tpu-maxdiffusion-flux-training-v5p"
    framework = next(c for c in result.tier(1).choices if c.concern == "training-framework")
    assert "PEFT" not in framework.settings.get("adapters", "")
    assert framework.settings["adapters"].startswith("none: MaxDiffusion trains no LoRA adapters")
    assert "merge the LoRA adapters" not in (result.verdict or "")
    assert "so this route trains every weight, or the adapters train on another stack" in (result.verdict or "")


def test_an_embedding_model_on_families_whose_pages_embed_with_different_runtimes_keeps_one_runtime_each():
    # Review 117 p08: bge-m3 on a Hygon K100_AI that must also run on a Xeon 6 led with "vllm as the one runtime on
    # hygon-dcu, x86-cpu" while tier 3's own Xeon line named Text Embeddings Inference, the runtime Hugging Face
    # documents for XLM-RoBERTa embedding models on CPU
    # (https://huggingface.co/docs/text-embeddings-inference/supported_models); vLLM's CPU page is for text generation.
    result = answer(
        model_type="dense-transformer",
        hardware="hygon-dcu",
        device="k100-ai",
        workload="inference",
        team_skill="framework",
        model="BAAI/bge-m3",
        needs={"devices": 1, "cross_platform": True, "other_hardware": ["x86-cpu"]},
    )
    assert "as the one runtime" not in (result.verdict or "")
    assert "each family's own runtime (hygon-dcu: vllm; x86-cpu: text-embeddings-inference)" in (result.verdict or "")
    tier3 = result.tier(3)
    assert not any(choice.option == "vllm" for choice in tier3.choices)
    kept = next(gap for gap in tier3.gaps if gap.concern == "deployment").kept
    assert kept == {"hygon-dcu": "vllm", "x86-cpu": "text-embeddings-inference"}  # the lead reads this, not the text


def test_a_tp_ep_command_for_half_the_devices_is_widened_or_replicated_and_its_engine_rival_races_it():
    # Review 117 p01: DeepSeek-V3.1 NVFP4 on 8 B200 kept vLLM's recipe command, --tensor-parallel-size 4
    # --enable-expert-parallel (https://docs.vllm.ai/projects/recipes/en/latest/DeepSeek/DeepSeek-V3.html), with no
    # word on the other 4 GPUs. Since review 125 p01 TensorRT-LLM's DeepSeek recipe is written for V3.1 too (NVIDIA's
    # Model Optimizer deploys nvidia/DeepSeek-V3.1-NVFP4 with it at TP 8) and is chosen; vLLM's command keeps its
    # layout line, and another engine races it at the SLA.
    from advisor.knowledge.loader import load_knowledge_base
    from advisor.recommendation.adapt import expert_layout_here

    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="b200",
        workload="inference",
        team_skill="hpc",
        model="deepseek-ai/DeepSeek-V3.1",
        needs={"devices": 8, "quantization": "fp4", "long_context": True},
    )
    assert [stack.stack for stack in result.stacks] == ["nvidia-trtllm-deepseek-blackwell"]
    switches = {s.id: s.description for s in result.switch_conditions}
    assert any(key.startswith(("nvidia-vllm-", "nvidia-sglang-")) and key.endswith("-faster") for key in switches)
    assert not any("fits this profile as well as the chosen one" in text for text in switches.values())
    # NVIDIA's attention timings are for 32 query / 8 KV heads: nothing DeepSeek's MLA runs (the record quoted them)
    assert [figure.name for figure in result.reference] == ["allreduce_busbw_gbps"]
    knowledge = load_knowledge_base()
    command = knowledge.stack("nvidia-vllm-nvfp4-blackwell").component("serving-engine").setting or ""
    layout = expert_layout_here(command, 8, knowledge.platform("nvidia-gpu").device("b200"))
    # review 147 p05: the command's validated layout, replicated, comes first; widening it is a measured switch
    assert layout is not None and layout.startswith("2 replicas of the command as written (tensor parallel 4 with")
    # reviews 203/204 p06: the alternative keeps the page's tensor-parallel size, adding data-parallel copies with the
    # experts spread over all devices (https://docs.vllm.ai/en/latest/serving/data_parallel_deployment/)
    assert "or one engine over all 8 devices: --data-parallel-size 2 at the command's tensor parallel 4" in layout


def test_an_attention_row_of_a_job_that_trains_and_serves_gives_the_training_route_as_training_s():
    # Review 118 p03: Qwen2.5-VL-7B LoRA then FP8 serving on one L40S read "FlashAttention (FA2 on Ada ...) ...
    # via=transformer-engine", merging vLLM's serving backend with Transformer Engine's training one.
    result = answer(
        model_type="multimodal",
        hardware="nvidia-gpu",
        device="l40s",
        workload="both",
        training="lora",
        team_skill="framework",
        model="Qwen/Qwen2.5-VL-7B-Instruct",
        needs={"devices": 1, "quantization": "fp8"},
    )
    attention = next(c for c in result.tier(1).choices if c.concern == "attention")
    assert "via" not in attention.settings
    assert attention.settings["in training"] == "flash-attention through transformer-engine"
    assert attention.rationale[0].text.startswith("in training: runs inside NVIDIA Transformer Engine")


def test_a_release_a_registry_does_not_list_exactly_is_a_partial_fit_there():
    # Review 117 p13: Qwen3-4B-Instruct-2507 in an M4 app took Core AI as "the recipe written for the model named
    # (Qwen/Qwen3-4B)"; its export tool matches registry ids exactly and refuses another without --experimental
    # (https://github.com/apple/coreai-models/blob/86b363dca67cf276c1a5c96eea5e4b57e3a0643c/python/src/coreai_models/llm/export.py).
    fields = dict(
        model_type="dense-transformer",
        hardware="apple-silicon",
        device="apple-m4",
        workload="inference",
        team_skill="framework",
        needs={"quantization": "int4", "devices": 1, "in_app": True},
    )
    update = answer(model="Qwen/Qwen3-4B-Instruct-2507", **fields)
    assert update.stacks[0].stack == "apple-mlx-swift-lm-in-app"
    core_ai = next(row for row in update.stacks_considered if row.stack == "apple-coreai-llm-inference")
    assert core_ai.reason.startswith("Qwen/Qwen3-4B-Instruct-2507 is no id it lists: coreai.llm.export matches")
    listed = answer(model="Qwen/Qwen3-4B", **fields)
    assert listed.stacks[0].stack == "apple-coreai-llm-inference"
