"""The engine's policy in one place: how much each kind of misfit weighs against a stack, which formats answer
a precision, what scale a job needs, and how a stack's components map to the record's concerns.

The method page (`advisor kb method`) states the rules these numbers encode; change them here, not in the rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from advisor.knowledge.platforms import Device
from advisor.profile import MAX_DEVICES
from advisor.vocabulary import ASKED_FORMATS, TEAM_SKILLS

# What does not fit, and how much it counts against a stack (the chosen stack has the smallest total). From TOO_FAR on
# a stack is only a considered option (another precision, another kind of model, a format the device lacks, or
# several lesser misfits together); below it, a partial fit the record states.
MISFIT_WEIGHTS: dict[str, int] = {
    "format": 100,
    "other_model": 100,
    "excluded": 100,
    "device_class": 100,
    "method": 5,
    # a QAT fine-tune given an FP8 training recipe (no fake quantization, no QAT flow): after a stack with a QAT flow
    "method_training": 2,
    "precision": 10,
    # a training page run in fp32 whose trainer turns mixed precision on by a documented setting it left off
    # (TrainingArguments(bf16=True)): a setting to turn on, not another precision (reviews 173, 176, 181: Hugging Face
    # PEFT/TRL on MI300X rejected as "its page trains in fp32")
    "precision_setting": 1,
    # a multi-device training page that splits one copy of the model's layers over the devices in one process
    # (Accelerate's device_map): one device computes at a time, so a page with a sharded or data-parallel layout that
    # misses as lightly comes first (reviews 193 p04, 202 p04: AMD's device_map PEFT guide chosen over Primus's
    # native SFT-LoRA guide for a 70B LoRA on 8 x MI300X)
    "layer_split": 2,
    # a device its page names but ships no configuration for (Primus's native SFT configs are all MI355X ones, the
    # guide names MI300X too): the configs are re-sized for it, nearer than a stack validated on another device only
    "config_device": 2,
    # an asked format its page loads but leaves untested for accuracy and speed (vLLM JAX's release matrix marks INT8
    # and FP8 as load-checked only): still the route where no page tests the format, but not a whole fit (review 246 p06)
    "untested_format": 1,
    "model_type": 8,
    # a model type the stack's engine runs through its upstream project's own classes, which its page names no model of
    # (vllm_mlu keeps vLLM's vision-language classes): checked on the first run, lighter than another type's recipe
    "upstream_model_type": 2,
    # a training recipe documented for a neighbouring model type whose framework trains this one (verl's dense GRPO
    # example for a MoE, LLaMA-Factory's text recipe for a vision-language model): the framework carries over, the
    # recipe's layout is the team's to re-write (expert parallelism, the vision tower), as with another model's preset
    "model_type_training": 7,  # after a recipe for this very type that trains another kind (a full fine-tune for LoRA)
    # an inference recipe for another image network of the same kind (a ViT recipe for DINOv2, a ResNet-50 one for an
    # EfficientNet): the same export and engine build take it, at a size and speed the page does not give (review 131 p08)
    "vision_sibling": 3,
    # an inference recipe for a network of the same family by name (the ConvNeXt recipe for timm's ConvNeXt-Base): before
    # a recipe for another network of the kind (review 154 p09)
    "vision_family": 2,
    # a training recipe for another image network of the same kind (the Swin recipe for a DINOv2 fine-tune): its launch
    # scripts and mixed precision carry over, its model code does not; after a generic trainer that builds the model
    # itself by name (torchvision's ViT-L), before a recipe for another kind of network (review 137 p08)
    "vision_sibling_training": 4,
    # a training recipe for a network of the same family by name (ConvNeXt's for ConvNeXt V2, Swin-T's for Swin-B):
    # before another network's (a YOLOv8 detector's), a generic route that cannot build it (review 150 p09) and a
    # generic route that builds it by name but was run on another network (review 152 p09: Swin-B on the ResNet-50 page)
    "vision_family_training": 2,
    # a vision-language recipe for the series' model in the other layout (Qwen3-VL-235B-A22B for Qwen3-VL-8B): its
    # multimodal settings hold, its expert layout does not; before a text-only recipe (review 140 p04)
    "layout_sibling": 4,
    "named_model": 9,  # a recipe written for other models (MLA attention, their checkpoint): after a generic stack of a near model type
    # a training recipe written for other models of this type: its model list is a configuration preset (layers,
    # parallel layout) the team re-writes for its own model, not a checkpoint it serves
    "named_model_training": 5,
    # the page's example checkpoint of a generic route (a pipeline taking any model of the task by id): the same code
    # runs the profile's model, whose memory and speed the page does not give
    "example_model": 3,
    # the same for an inference engine that compiles any exported image network (ixRT from ONNX): the page's build and
    # run steps take this network, whose speed and accuracy are the team's to measure; lighter than a card the page does
    # not run on (reviews 221 p15, 222 p13, 226 p04: MR-V100 routes and a Triton backend validated on no card chosen
    # over the one page measured on the BI-V150; review 228 p13 accepted the ixRT route)
    "example_network": 1,
    # a generic training route that builds its network by torchvision name, for a convolutional network torchvision
    # does not build (ConvNeXt V2): after a recipe for a sibling network, whose own model code is nearer (review 150 p09)
    "example_model_unbuilt": 5,
    "unbuilt_family": 5,  # a recipe whose code builds other network families only (stack `builds`)
    # a vision transformer of another design on code that builds ViTs only (DINOv2 on timm's vit_* builders): its
    # attention and LayerNorm layers are what the recipe ran, so it comes before a convolutional recipe
    "unbuilt_variant": 1,
    # a vendor's requantization served in place of a release already in the asked format (AMD's FP8-activation
    # gpt-oss-120b for an MXFP4 ask): after a stack that serves the release as published
    "requantized_release": 1,
    # a vision transformer on a recipe written for convolutional networks (a ResNet-50 training page): one that ran a
    # vision transformer, even another one, comes first
    "convolutional_recipe": 3,
    "dynamic_shapes": 6,
    "float_fallback": 6,
    # the asked format documented by no stack of the family for this profile, so every stack falls back alike: stated,
    # and light enough that a near recipe in float still leads (review 213 p15: Swin-B INT8 on Iluvatar got no stack)
    "float_everywhere": 2,
    "architecture_unsupported": 100,  # the engine's own word: it no longer runs the model's architecture here
    # a training recipe whose own sequence length is short of long context: its framework runs longer ones, the
    # recipe's layout does not (review 213 p02: Megatron Bridge's 8,192-token 70B recipe as a whole fit)
    "short_sequence_recipe": 0,
    # a recipe's ZeRO stage 2 that this job's devices cannot hold (weights whole on each device): a setting to change,
    # as a recipe's layout is for another device count (review 229 p13)
    "zero2_outgrown": 1,
    "unpublished_checkpoint": 6,  # the asked format only as the publisher's own checkpoints, none for this model
    "float_copy": 6,  # a model released quantized (Kimi-K2-Thinking in INT4) served as a float copy
    "skill": 5,
    "format_undocumented": 4,
    "deprecated": 4,  # its own page deprecates the workflow: the replacement, or a stack that fits as well, first
    # a serving route its own page deprecates or leaves unsupported: a served system outlives a training run and needs
    # its security fixes, so a maintained route in another format comes first (review 176 p10: Optimum for Intel
    # Gaudi, unsupported since 2026-10-31, chosen over the maintained Diffusers route for an fp8 ask)
    "deprecated_serving": 11,
    # a CNN page in float whose own compiler or runtime documents the asked format (AMCT INT8 models through ATC)
    "toolchain_format": 4,
    # an app that embeds the model (needs.in_app), on a stack whose page serves it from a server or a Python process
    "out_of_app": 3,
    "withdrawn_model": 4,  # its release withdrew the recipe for this model: one that keeps it, or fits as well, first
    # a long-context training job on a recipe whose page and framework document no context or sequence parallelism:
    # one that does comes first where it fits as well (review 71 p06: MindSpeed's 32K recipe with Ulysses CP before
    # LLaMA-Factory for a 72B 32K fine-tune)
    "long_context_undocumented": 1,
    # pinned to a release with a stated end of maintenance (MindSpeed LLM 26.1.0, kept for recipes its successor
    # withdrew): a maintained route that fits as well comes first, even one not written for the model (review 108 p06:
    # LLaMA-Factory for a Qwen3-32B LoRA)
    "maintenance_ends": 1,
    # its page says it does not serve this model and sends it to another route (vLLM JAX sends PyTorch-only models
    # such as Gemma 3 to vLLM TorchTPU): that route, where documented, first
    "unserved_model": 5,
    "training_kind": 6,  # a pre-training recipe for a LoRA job (or the reverse): another stack that trains it first
    # a pre-training recipe that documents no start from a published model's weights, for a LoRA job: adapters need the
    # base model loaded, so it is no base at all (review 131 p04: Primus's Flux recipe pretrains its own Flux model)
    "training_kind_no_start": 10,
    # a recipe with no rollout engine or weight sync for an RL post-training job (or an RL-only recipe for plain
    # training): it lacks the loop itself, too far to be the job's stack (review 64 p13: an SFT LoRA trainer for GRPO)
    "training_loop": 10,
    "training_kind_near": 2,  # a pre-training recipe for a full fine-tuning job: every weight trains (not the reverse)
    # the same, where the pre-training page starts from no published model's weights (random init, mock data): a
    # post-training route whose page runs another model as its example comes first (review 261 p04)
    "training_kind_near_no_start": 4,
    # a LoRA recipe for a full fine-tuning job: the same framework and data path from the model's checkpoint, with
    # every weight's gradients and optimizer state to fit besides
    "training_kind_adapter": 4,
    # a LoRA tutorial whose vendor names its libraries for full fine-tuning in general (AWS's training page): nearer
    # than a LoRA-only recipe, yet after a recipe whose page lays out every weight's sharded state, even one written for
    # pre-training (reviews 115, 117, 118 p12: TorchTitan Neuron's TP4 x FSDP16 on one Trn2 node for a full fine-tune)
    "training_kind_named": 3,
    # a full fine-tuning recipe for a LoRA job: the same data path and trainer, with adapters on and the weights frozen
    # (less memory than the page's run), before a pre-training recipe or one for another model type
    "training_kind_lora": 5,
    # the same for a framework that trains no adapters (MaxDiffusion's LoRAs load at generation only): the page's full
    # fine-tune, or the adapters trained elsewhere; no merge follows
    "training_kind_no_adapters": 5,
    # a training stack whose own page says its checkpoints leave for no other format (PaddleNLP's stay in Paddle's),
    # for a job that serves the result or names a Hugging Face model to give back: the pipeline breaks there
    "no_handoff": 7,  # a broken pipeline outweighs a recipe of another training kind (LoRA for full)
    # a serving stack that loads only its publisher's prebuilt weights, for a job that serves the model it trains
    "no_own_weights": 7,
    "lower_precision": 4,
    "unlisted_runner": 4,
    # its runner's own page lists the devices it is tested on, and this one is not there (TensorRT-LLM on an RTX PRO
    # 6000): the record says so; a recipe for the model still ranks before a rival engine's recipe for another scale
    "unlisted_device": 2,
    # a weight-only path its devices take for want of the format's units (FP8 Marlin on an A100), on a device with them:
    # after a stack that computes in the format
    "weight_only_for_lack": 2,
    "unvetted_runner": 3,
    "device": 3,
    # validated only on the family's other line (training parts for an inference-only card such as the Ascend 310P,
    # or the reverse): their runtime builds differ (the 310P runs vllm-ascend in float16, without Triton or graph mode),
    # so a stack documented on the card itself, even in part, comes first
    "device_line": 7,
    # a page documented at one device for a job of several: as far as another generation of the family (an 8-GPU
    # diffusion training takes Megatron Bridge's H100 recipe on a B200 before a one-GPU DreamBooth script)
    "scale": 3,
    "scale_data_parallel": 1,  # a one-device LoRA recipe for a multi-device LoRA job: data parallel, each a copy
    "scale_fewer_workers": 1,  # a multi-node recipe of replicated workers on one node: whole workers, fewer of them
    "scale_one_device": 1,  # an LLM engine's multi-device serving recipe on one device, at parallel degree 1
    "general_runtime": 2,
    "same_generation": 1,
    # a hybrid linear-attention model (Qwen3.5, Qwen3-Next) on a page that runs none: its Gated DeltaNet kernels are
    # unshown there; a page that runs such a model comes first (review 143 p05)
    "linear_attention_unshown": 2,
    # the engine documents the architecture on this family (architecture_support.yaml): the page's settings hold
    "linear_attention_documented": 1,
    # the engine runs it from a later release than the page pins: the page's settings on a newer release
    "linear_attention_pin_older": 3,
    # the engine does not run it on this family (an open request, a release line older than the support): no route
    "linear_attention_unsupported": 9,
    # a serving launch capped below LONG_CONTEXT_TOKENS for a long-context job: the page's settings hold, its cap
    # does not (review 157 p12: vLLM Neuron's 16,384-token Llama 3.3 70B launch); a page that states no cap is no
    # better documented, so the fit is partial and says so without moving the ranking
    "context_capped": 0,
    # an interactive workflow application as the service (ComfyUI's node graphs, posted to /prompt and polled): after a
    # library route the team wraps in its own service (reviews 238 p14, 254 p12: ComfyUI as an SDXL service, each 1)
    "workflow_app": 1,
    "script_only": 0,  # a page's script, not a server: the fit is partial and says so; it sorts after a server only on a tie
    "other_size": 1,  # a recipe for another size of the model's series: after one for the model itself
    # a release of a model whose tool takes only the ids it lists (Core AI's registry: another id needs --experimental,
    # with precision and compression by hand): after a stack that loads it as it is (review 117 p13)
    "unlisted_id": 1,
    # a recipe written for an earlier model whose architecture this one keeps (Llama 3.3 70B on a Llama 3.1 70B
    # recipe): as near as the model's own recipe; the record says its checkpoints are the earlier weights
    "same_architecture": 0,
    # a model the recipe's code builds and loads by name while its page ran other networks (mmpretrain's DINOv2 configs
    # on DeepSparkHub's MobileOne and MoCo v2 pages): the code is right, the run is not shown, so the fit is partial and
    # says so without moving it behind code that cannot build the model (review 187/192/198 p09)
    "ran_instead": 0,
}
TOO_FAR = 10
# Where long context starts for serving: the native window of current open LLMs, Qwen3's 32,768 tokens (131,072 with
# YaRN, https://huggingface.co/Qwen/Qwen3-8B#processing-long-texts); a launch capped below it serves no long context
LONG_CONTEXT_TOKENS = 32_768
# A recipe written for named models, taken for a profile that names none, ranks as if it missed a little (more than a
# same-generation device): a stack for any model that fits as nearly comes first.
ASSUMED_MODEL_WEIGHT = 2
# A route its vendor's current release no longer carries (NxD Training, pinned at Neuron 2.28), in half units: more than
# a current recipe weighs with a near training kind, a preview and no model list together (TorchTitan Neuron's beta
# pre-training recipe for a Llama 3.1 8B full fine-tune: 4 + 1 + 1), so the current release's route leads even where
# the old one documents the job whole, and the old one is named as its time-boxed fallback (review 145 p13)
SUPERSEDED_WEIGHT = 7
# How many times a released format's weight memory a bf16 copy of the model takes (2 bytes against the format's).
BF16_OVER: dict[str, int] = {"fp8": 2, "int8": 2, "mxfp8": 2, "int4": 4, "mxfp4": 4, "nvfp4": 4}
# A stack documented for another model type is no stack for this one (TOO_FAR), except these near ones, where the
# stack's runner lists the profile's model type among its own (vLLM serves vision-language models; mlx-lm, text only)
# (profile's model type, stack's model type): a partial fit weighing MISFIT_WEIGHTS["model_type"].
NEAR_MODEL_TYPES: frozenset[tuple[str, str]] = frozenset(
    {
        ("moe", "dense-transformer"),
        ("dense-transformer", "moe"),
        ("multimodal", "dense-transformer"),
    }
)

# The stack formats that answer the profile's precision: its quantization, or the float formats without one.
PRECISIONS_FOR: dict[str, tuple[str, ...]] = {
    "none": ("bf16", "fp16", "tf32", "fp32"),
    "cpu": ("fp32", "bf16", "fp16"),
    **ASKED_FORMATS,
}

# The asks each candidate carries a claim for (its `int8` and `fp8` fields): a 4-bit ask (int4, fp4) is documented per
# stack (applies_to.precisions), so no candidate claim is required or cited for it.
CANDIDATE_FORMAT_CLAIMS: tuple[str, ...] = ("int8", "fp8")


def claimed_format(quantization: str) -> str | None:
    """The candidate claim that documents the asked format, or None (no quantization, or a 4-bit ask)."""
    return quantization if quantization in CANDIDATE_FORMAT_CLAIMS else None


# The quantized formats a training job runs in (FP8 recipes); a job that trains and serves with another (INT8) trains
# in float and quantizes the trained checkpoint for serving.
TRAINED_PRECISIONS: tuple[str, ...] = ("fp8",)

# The training kinds that train every weight: a job naming no kind is taken as one of them (the memory check assumes
# every weight trains), so a stack documented only for adapters (LoRA) ranks after one that fits as well.
WHOLE_MODEL_TRAINING: tuple[str, ...] = ("pretraining", "fine-tuning", "rl")

# Lower formats a vendor documents where the profile asks for 8 bits: a partial fit ("lower_precision"), a format the
# team did not ask for (asking int4 or fp4 names them).
LOWER_PRECISIONS: dict[str, tuple[str, ...]] = {"int8": ("int4",), "fp8": ("nvfp4", "mxfp4")}
# The 4-bit asks, and the 8-bit formats nearer to them than a float fallback (said where a 4-bit ask is served in float)
FOUR_BIT_ASKS: tuple[str, ...] = ("int4", "fp4")
# 4-bit float checkpoint formats, which serving recipes pair with an FP8 KV cache (vLLM's DeepSeek-V3.2 NVFP4 recipe)
FOUR_BIT_FLOATS: tuple[str, ...] = ("nvfp4", "mxfp4", "fp4")
EIGHT_BIT_FORMATS: tuple[str, ...] = ("int8", "fp8")

# An 8-bit ask the device cannot run is served in the other 8-bit format where the device runs it and a stack documents
# it there: the same weight memory as asked (fp8 on a 910B or an A100 is served as INT8 W8A8), not a float fallback.
# fp4 asked on a device without FP4 units (Hopper, MI300X) is served as 4-bit integer weights (AWQ/GPTQ), which any
# device runs weight-only.
SAME_WIDTH_FORMATS: dict[str, str] = {"fp8": "int8", "int8": "fp8", "fp4": "int4"}
# A 4-bit ask's 8-bit format of the same kind: what a plan serves where no stack documents any 4-bit form of the ask
# for the model on its device and the float weights do not fit the devices given
WIDER_FORMATS: dict[str, str] = {"int4": "int8", "fp4": "fp8"}

# Devices per job -> the scale a stack must be documented at. How many devices share a node differs by device (8 GPUs,
# 16 Trainium2 chips, TPU slices), so a job of several devices needs a stack documented beyond one device; one
# documented across nodes covers it too.
SCALE_FOR: tuple[tuple[int, str], ...] = ((1, "single-device"), (MAX_DEVICES, "multi-device"))
NODE_DEVICES = (
    8  # beyond this many devices a job likely spans nodes (8 GPUs per node is the common size; TPU slices differ)
)
FLOAT_PRECISIONS: tuple[str, ...] = ("bf16", "fp16", "tf32", "fp32")
FULL_PRECISIONS: tuple[str, ...] = (
    "fp32",
    "tf32",
)  # not a training format for an LLM on an accelerator (mixed precision is)
MIXED_FORMATS: tuple[str, ...] = ("bf16", "fp16")  # the half formats of mixed-precision training

SKILL_ORDER: tuple[str, ...] = tuple(TEAM_SKILLS)
# The words that tie a risk to a quantized format: a risk naming only formats the profile does not ask (or, with no
# quantization asked, any format or quantization at all) is not shown for it.
FORMAT_WORDS: dict[str, tuple[str, ...]] = {
    "fp8": ("FP8", "fp8"),
    "int8": ("INT8", "int8", "W8A8", "w8a8", "Q8_0"),
    "fp4": ("FP4", "fp4"),
}
QUANTIZATION_WORDS = ("quantiz", "Quantiz", "calibrat")

# Writing one's own kernels (tier 2) needs at least this skill, whatever a library's own `skill` (the skill to call
# it) says: a fast kernel demands instruction sets, on-chip memory and tiling (method #team-skill).
KERNEL_WRITING_SKILL = "kernel"


def writes_kernels(team_skill: str) -> bool:
    """The team has at least the skill that writing its own kernels needs (KERNEL_WRITING_SKILL)."""
    return SKILL_ORDER.index(team_skill) >= SKILL_ORDER.index(KERNEL_WRITING_SKILL)


# A stack component's role -> the concern of the record it decides (roles not listed are shown with the stack).
ROLE_CONCERNS: dict[str, str] = {
    "attention": "attention",
    "gemm": "gemm",
    "convolution": "convolution",
    "quantization": "quantization",
    "collectives": "collectives",
    "compiler": "fusion",
    "graph": "fusion",
}
# Concerns whose kernels a graph runtime or framework brings itself when it serves the model (ONNX Runtime's MLAS,
# Core ML, MLX, llama.cpp's ggml), and the candidate layers that do so.
RUNTIME_KERNEL_CONCERNS: tuple[str, ...] = ("gemm", "convolution", "attention", "fusion")
RUNTIME_KERNEL_LAYERS: tuple[str, ...] = ("runtime", "framework")
# Tier 3's portable runner carries those kernels on every family too when it is a serving engine (vLLM's attention
# backends per platform); its quantized checkpoints still come from a toolkit it loads.
PORTABLE_KERNEL_LAYERS: tuple[str, ...] = (*RUNTIME_KERNEL_LAYERS, "serving-engine")
# Stack parts without a candidate of their own that the runner ships (its attention or GEMM kernels, its graph capture).
RUNNER_KERNEL_ROLES: tuple[str, ...] = ("attention", "gemm", "convolution", "graph")
# Stack parts of no concern, shown as settings of the runner's choice, per workload.
SETTING_ROLES: dict[str, tuple[str, ...]] = {
    "inference": ("kv-cache", "parallelism", "moe", "kernels", "other"),
    "training": ("parallelism", "moe", "kernels", "other"),
}
# Knowledge-base capabilities whose change makes a switch condition: one a rejected option lacks becoming "yes", and
# one a tier-1 choice relies on while "unknown" turning out "no".
SWITCHING_CAPABILITIES: tuple[str, ...] = ("fp8", "int8", "ptq", "qat", "dynamic_shapes", "distributed", "fusion")
RELIED_ON_CAPABILITIES: tuple[str, ...] = ("fp8", "int8", "dynamic_shapes", "distributed")
# An RL recipe's settings that turn its KL term off: verl builds a reference policy only where the KL term is in the
# reward or the actor's loss (need_reference_policy, https://github.com/verl-project/verl/blob/
# f4966a0c0844774a0471ed70aa0ae35d18dfd0c0/verl/trainer/ppo/utils.py, read 2026-12-07), so such a job holds no frozen copy.
NO_KL_LOSS = re.compile(r"\buse_kl_loss=False\b")
KL_IN_REWARD = re.compile(r"\buse_kl_in_reward=True\b")
# An RL step whose generation takes more than this share of it waits on rollouts: verl's one-step-off-policy page aims
# for rollout and training phases of about equal length (https://github.com/verl-project/verl/blob/
# a74fc52e75e31b4f754d64507e2b99056c8e61c2/docs/advance/one_step_off.md, read 2026-12-07).
ROLLOUT_SHARE_MAX = 0.5
# A long-context training step peaking above this share of a device's memory in a short run has no room for a longer
# batch or a memory spike: the team's own margin (a policy, not a vendor figure).
PEAK_MEMORY_MAX = 0.95
# Confidence: what backs the chosen stack.
STACK_EXACT = 1.3  # a vendor-documented recipe written for the profile's model, validated on this device generation
STACK_FITS = 1.2  # such a stack documented for any model of its type (a general page), fitting the whole profile
STACK_ASSUMED = 1.0  # such a stack for the family's current device, where the profile names no device
STACK_PREVIEW = 1.0  # such a stack whose own page calls it a beta, preview or experimental
STACK_UNNAMED_DEVICE = 1.0  # such a stack whose page names no device of its family (it runs there, unvalidated)
STACK_PARTIAL = 0.85  # a documented stack that fits in part (another generation, precision or scale)
# a documented stack that fits but for a length its launch or layout sets short of the profile's (a curated config's
# max_seq_len, a recipe's 8,192-token sequences): a setting to change and measure, less doubt than another model or
# device (review 216 p01: NVIDIA's own B200 NVFP4 recipe at 0.42 beside a deprecated route at 0.36)
STACK_SETTING = 1.0
SETTING_MISFITS: tuple[str, ...] = ("context_capped", "short_sequence_recipe")
# a stack whose software's current release no longer carries it (pinned to an older one, with no releases, fixes or
# security patches to come): as unsure as a partial fit, below a preview of a supported route (review 109 p11)
STACK_SUPERSEDED = STACK_PARTIAL
PARTIAL_PER_WEIGHT = 0.03  # and less for each unit of misfit weight beyond the lightest (a device's, 3)
PARTIAL_FLOOR = 0.6  # never below a stack's worst partial fit (another model type, a pretraining page for a LoRA)
CROSS_FAMILY = 0.8  # tier 3 leads: the target's stack holds for the target only; each other family's is unmeasured
# Reference evidence (the device vendor's own measurements, advisor/data/reference/): it may raise a confidence that
# rests on the knowledge base alone by REFERENCE_FACTOR, never above REFERENCE_CAP; evidence timed on the target (the
# team's model on its machine) is what goes higher.
REFERENCE_FACTOR = 1.1
REFERENCE_CAP = 0.75
MODEL_ASSUMED = 0.9  # a chosen stack written for named models (a DeepSeek-V3 recipe) where the profile names none
RESTRICTED = 0.7  # a chosen stack whose software comes only through the vendor's support channel: it cannot be
# reproduced or version-checked from public sources, which weighs as much as a partial fit
UNPINNED = 0.9  # a chosen stack whose page states no versions it was validated with
NO_STACK = 0.7  # no documented whole stack: the concerns are assembled one by one

# The thresholds the rules read evidence with; THRESHOLDS says what each means (`advisor kb method` prints them).
INT8_PAYS = 1.5
INT8_MAX_ERROR = 0.01
LAYERNORM_COLLAPSE = 0.05
PER_CHANNEL_GAIN = 5.0
LINEAR_MAX = 1.5
QUADRATIC_MIN = 1.7
COMPILE_PAYS = 1.1
COMPILE_SLOWER = 0.9
TRITON_PARITY = 0.9
FP8_WORTH = 1.0
RECOMPILES_PER_100_MAX = 4.0
PADDING_WASTE_MAX = 30.0
CHANNELS_LAST_PAYS = 1.05
SCALING_EFFICIENCY_MIN = 0.7
MINOR_SHARE = 0.10
HOT_SPOT_SHARE = 0.25
LARGE_TRAINING_DEVICES = 8
# Training kinds whose recipe (LoRA, full fine-tuning or RL post-training) names its framework at any scale: tier 1
# decides the framework the chosen fine-tuning stack runs in, even for a job of one or two devices.
FINE_TUNING_KINDS: tuple[str, ...] = ("lora", "fine-tuning", "rl")
# Training kinds only a stack whose page names them fits: a page naming no kind documents no such loop (an RL job needs
# a rollout engine and weight sync to it that no plain training recipe has).
NAMED_ONLY_KINDS: tuple[str, ...] = ("rl",)


@dataclass(frozen=True)
class Threshold:
    """One number the engine decides with, and what it means."""

    name: str
    value: float
    meaning: str


THRESHOLDS: tuple[Threshold, ...] = (
    Threshold("INT8_PAYS", INT8_PAYS, "INT8 speedup over float at which INT8 is worth its accuracy risk"),
    Threshold("INT8_MAX_ERROR", INT8_MAX_ERROR, "largest relative error of an INT8 path that counts as accurate"),
    Threshold(
        "LAYERNORM_COLLAPSE",
        LAYERNORM_COLLAPSE,
        "relative RMS error of a quantized LayerNorm input that counts as collapse",
    ),
    Threshold(
        "PER_CHANNEL_GAIN",
        PER_CHANNEL_GAIN,
        "per-tensor error this many times the per-channel error: per-channel is required",
    ),
    Threshold("LINEAR_MAX", LINEAR_MAX, "log-log slope of attention memory up to which it counts as O(N)"),
    Threshold("QUADRATIC_MIN", QUADRATIC_MIN, "log-log slope from which attention memory counts as O(N^2)"),
    Threshold(
        "COMPILE_PAYS", COMPILE_PAYS, "compiled small-op chain at least this much faster than eager: compilation pays"
    ),
    Threshold("COMPILE_SLOWER", COMPILE_SLOWER, "compiled chain below this fraction of eager's speed: clearly slower"),
    Threshold(
        "TRITON_PARITY",
        TRITON_PARITY,
        "Triton GEMM at this fraction of the vendor GEMM or more: the portable layer costs little",
    ),
    Threshold(
        "FP8_WORTH",
        FP8_WORTH,
        "FP8 GEMMs at least this fast against bf16 on the target; below, FP8 costs accuracy for nothing",
    ),
    Threshold(
        "RECOMPILES_PER_100_MAX",
        RECOMPILES_PER_100_MAX,
        "recompiles per 100 new shapes beyond which static compilation recompiles too often",
    ),
    Threshold(
        "PADDING_WASTE_MAX", PADDING_WASTE_MAX, "padding waste (%) beyond which shape buckets lose to dynamic kernels"
    ),
    Threshold(
        "CHANNELS_LAST_PAYS",
        CHANNELS_LAST_PAYS,
        "channels-last convolutions at least this much faster than NCHW: the layout pays",
    ),
    Threshold(
        "SCALING_EFFICIENCY_MIN",
        SCALING_EFFICIENCY_MIN,
        "strong-scaling efficiency below which the collectives are suspect",
    ),
    Threshold("MINOR_SHARE", MINOR_SHARE, "share of the step below which an operator group is not a hot spot"),
    Threshold("HOT_SPOT_SHARE", HOT_SPOT_SHARE, "share of the step from which an operator group is a hot spot"),
    Threshold(
        "LARGE_TRAINING_DEVICES",
        LARGE_TRAINING_DEVICES,
        "devices per job from which LLM training runs in a training framework",
    ),
)


def numbers_markdown() -> str:
    """The engine's numbers as a Markdown section, for the method page: what a misfit weighs against a stack, and
    the thresholds the rules read evidence with."""
    lines = [
        "## The engine's numbers",
        "",
        "Generated from `advisor/recommendation/policy.py`, the one place the engine keeps them.",
        "",
        "| misfit of a stack | weight |",
        "| --- | --- |",
    ]
    lines += [
        f"| {kind.replace('_', ' ')} | {weight}{' (rules it out)' if weight >= TOO_FAR else ''} |"
        for kind, weight in sorted(MISFIT_WEIGHTS.items(), key=lambda item: -item[1])
    ]
    lines += [
        "",
        f"A stack whose misfits weigh {TOO_FAR} or more is only a considered option.",
        "",
        "| threshold | value | meaning |",
        "| --- | --- | --- |",
    ]
    lines += [f"| `{item.name}` | {item.value:g} | {item.meaning} |" for item in THRESHOLDS]
    return "\n".join(lines) + "\n"


# Wording a rule writes and the stack adaptation replaces where the chosen training stack shards its state (FSDP).
DATA_PARALLEL_TRAINING = "training: gradient all-reduce (data parallel)"


def data_parallel_over(devices: int) -> str:
    """How a fine-tuning recipe's devices are laid out by default (a sharded stack says otherwise)."""
    return f", data parallel over {devices} devices"


def node_size(device: Device | None) -> int:
    """How many devices share one node or interconnect domain: the device's own count where its spec states one (16
    Trainium2 in a trn2.48xlarge, 72 GB200 in an NVL72 rack), policy.NODE_DEVICES otherwise."""
    return device.node_devices if device is not None and device.node_devices else NODE_DEVICES


def host_size(device: Device | None) -> int:
    """How many devices one host holds (a GB200 NVL72 compute tray: 4 of the rack's 72-GPU NVLink domain): a recipe
    documented across several hosts is laid out for more than one, whatever interconnect joins them; node_size where the
    device states no host of its own."""
    return device.host_devices if device is not None and device.host_devices else node_size(device)


# What a diffusion model's quality gate scores: NVIDIA Model Optimizer's diffusers evaluation rates generated images by
# ImageReward, CLIP-IQA and CLIP score (FLUX.1-dev bf16: ImageReward 1.118 over 1,000 prompts at 30 steps, FP4 PTQ
# 1.096), https://github.com/NVIDIA/TensorRT-Model-Optimizer/blob/2017cd9063b4a7af890e0177492fc59bafce4ae7/examples/diffusers/eval/README.md
# (named without the vendor: the text stands in every family's record, and scope.py drops a line naming another one)
IMAGE_QUALITY = "mean ImageReward over the same prompts and seeds for both, with CLIP-IQA and CLIP score beside it"

SIZE_TOLERANCE = 0.15  # a named size within this share of the model's is the model's own (70B for Llama 3.3's 70.6B)


def near_size(said: float, size: float) -> bool:
    """A size a page names (in billions of parameters) is the model's own `size`, within SIZE_TOLERANCE."""
    return abs(said - size) <= SIZE_TOLERANCE * size
