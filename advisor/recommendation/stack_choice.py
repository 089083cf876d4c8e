"""Choosing a whole stack: every documented stack of the family is judged against the profile and its device.

A stack (advisor/data/stacks/) is a complete, vendor-documented combination: the engine or framework with
the kernels, quantization and collectives it was validated with on named device generations. The engine
does not assemble concerns one by one where such a stack exists: it takes the stack that fits best and
keeps it whole, so its parts fit the way they were validated.

Each stack gets the list of what does not fit (its misfits, each with a weight); the chosen stack is the
one with the smallest total, then the most specific to this profile, then the one the platform lists
first. Every other stack of the workload is a considered option with one decisive reason.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

from advisor.attention_layouts import cross_attention_vision, hybrid_attention
from advisor.knowledge.architecture_support import support_for
from advisor.knowledge.claims import Claim
from advisor.knowledge.model_sizes import (
    ArchitectureKin,
    about_another_model,
    layout_sibling,
    published_qat,
    quantized_release,
    shared_architecture,
    size_of,
    size_sibling,
    stated_size,
    written_exactly_for,
    written_for,
)
from advisor.knowledge.models import Candidate, KnowledgeBase
from advisor.knowledge.platforms import Device, Platform, is_mobile, ranks_of
from advisor.knowledge.stacks import RUNNER_ROLES, Component, Stack, StackScope
from advisor.profile import LLM_MODEL_TYPES, Profile
from advisor.recommendation.capacity import (
    devices_to_hold,
    model_parameters_b,
    one_device_holds,
    replica_group,
    served_weights_gb,
    training_state_outgrows_one_device,
    zero2_per_device,
)
from advisor.recommendation.models import ChosenStack, StackOption, StackPart, StackRisk
from advisor.recommendation.policy import (
    ASSUMED_MODEL_WEIGHT,
    BF16_OVER,
    FINE_TUNING_KINDS,
    FLOAT_PRECISIONS,
    FULL_PRECISIONS,
    LONG_CONTEXT_TOKENS,
    LOWER_PRECISIONS,
    MISFIT_WEIGHTS,
    MIXED_FORMATS,
    NAMED_ONLY_KINDS,
    NEAR_MODEL_TYPES,
    PRECISIONS_FOR,
    SAME_WIDTH_FORMATS,
    SCALE_FOR,
    SKILL_ORDER,
    SUPERSEDED_WEIGHT,
    TOO_FAR,
    TRAINED_PRECISIONS,
    WHOLE_MODEL_TRAINING,
    claimed_format,
    host_size,
    near_size,
    node_size,
)
from advisor.vision_models import (
    conv_backbone,
    torchvision_architecture,
    vision_language_model,
    vision_model,
    vision_transformer,
)
from advisor.vocabulary import WEIGHT_ONLY_ASKS

MAX_CONSIDERED = 5
# A training stack's checkpoint claim saying its page documents no way out to a format serving engines load.
NO_HANDOFF = re.compile(r"\bno conversion to (?:a |the )?Hugging Face\b", re.IGNORECASE)
# A serving stack's checkpoint claim saying its pages document no way to load weights the team trained itself (a
# container that serves only its publisher's prebuilt engines).
NO_OWN_WEIGHTS = re.compile(r"\bno way to load a checkpoint the team (?:fine-tuned|trained)\b", re.IGNORECASE)
MIN_CONSIDERED = 2  # stacks for another model or class of device fill the considered options only below this


@dataclass(frozen=True)
class Misfit:
    """One way a stack does not fit the profile: what, and how much it weighs against the stack."""

    kind: str  # a key of policy.MISFIT_WEIGHTS
    text: str
    generations: tuple[str, ...] = ()  # a device misfit: the generations the stack is validated on

    @property
    def weight(self) -> int:
        return MISFIT_WEIGHTS[self.kind]


class Rank(NamedTuple):
    """How a stack sorts among the family's stacks (smaller first)."""

    # its page names no device (a library's "any CUDA GPU of compute capability 8.9"), while a released route among
    # the candidates is validated on the target device itself, in the asked format, for this model: that vendor route
    # comes first, whatever its other half units (set by choose_stacks; reviews 127 p15, 130 p03)
    device_unnamed: bool
    weight: int  # the misfits' total weight, in half units (rank_weight)
    # a job that trains with a recipe running a serving engine for its rollouts (NeMo RL on vLLM) and also serves: a
    # serving stack on another engine comes after one on that engine (set by choose_stacks)
    apart_from_rollouts: bool
    other_default: bool  # its default precision is not the one asked
    model_assumed: bool  # written for named models and the profile names none: a stack for any model comes first
    not_for_this_model: bool  # the profile names its model and this recipe is not written for it: one that is first
    architecture_only: bool  # written for another model of the same architecture: the one written for this model first
    # among those, how many releases apart the two are (a Llama 3.1 recipe for Llama 3.3 before a Llama 3 one)
    architecture_hops: int
    kind_unnamed: bool  # its page does not name the kind of training asked (LoRA), or names kinds where none is asked
    superseded: bool  # the vendor's current release documentation no longer carries it: a current one comes first
    script_only: bool  # serving from a page's script, not a server: a server that fits as well comes first
    preview: bool  # its page calls it a preview, beta or demo: a released route that fits as well comes first
    # an embedding model served by a general LLM engine's pooling mode (vLLM's page offers it for convenience, with no
    # speed-up promised): a server built for embeddings that fits as well comes first
    general_engine: bool
    # a training job that must run on several families: a recipe whose framework runs on only some of them comes after
    # one whose framework runs on all (Hugging Face's Trainer before Intel's DeepSpeed fork for Gaudi + H100; review
    # 101 p06), so that tier 3's one training framework is tier 1's own
    framework_apart: bool
    # a framework team's LoRA: a framework built for pre-training too (Megatron-style, weights converted in and out)
    # comes after a fine-tuning tool that fits as well (reviews 124 p05, 128 p05)
    heavier_framework: bool
    # a page for models whose training state outgrows one device (ZeRO sharding) where this job's fits one: a stack that
    # fits as well without that machinery first (reviews 206 p05, 208 p05: DeepSpeed ZeRO for an 8B LoRA on Gaudi)
    large_model_route: bool
    preference: int  # where its runner sits in the platform's own order
    third_party: bool  # documented by neither the vendor nor the runner's project: one that is comes first
    model_types: int  # how many model types it is documented for (fewer: more specific to this model)
    devices: int  # how many devices it is validated on (fewer: more specific)
    # validated with an older release of a package that another stack fitting alike pins newer (Iluvatar's SDK 4.2.0
    # against 4.3.0): the recipe on the current release comes first (set by choose_stacks; review 133 p09)
    older_release: bool
    stack_id: str


@dataclass(frozen=True)
class Judged:
    """A stack with what does not fit, for one workload."""

    stack: Stack
    workload: str
    misfits: tuple[Misfit, ...]
    rank: Rank
    precision: str  # the stack's format this profile runs: the first it documents that answers the profile

    @property
    def model_assumed(self) -> bool:
        """The stack is written for named models and the profile names none: the record says it assumes one of them."""
        return self.rank.model_assumed

    @property
    def fits(self) -> bool:
        return not self.misfits

    @property
    def fits_by_architecture(self) -> bool:
        """It misses only in being written for another model of this one's architecture (Llama 3.3 70B's recipe for
        Llama 3.1 70B): its settings apply with this model's weights, so it is said as such, not as a partial fit
        (review 242 p07)."""
        return bool(self.misfits) and all(misfit.kind == "same_architecture" for misfit in self.misfits)

    @property
    def written_for_this_model(self) -> bool:
        """A recipe written for named models, the profile's among them (or, naming none, one of them assumed)."""
        return bool(self.stack.applies_to.models) and not for_other_models(self)

    @property
    def weight(self) -> int:
        return sum(misfit.weight for misfit in self.misfits)

    @property
    def nearly_fits(self) -> bool:
        """Its misfits weigh no more than another device generation's, a float fallback not counted: the stack a family
        would run the job on (tier 3's line for another family, and the engines that have one there)."""
        # an asked format served only from its publisher's checkpoints of other models runs float too (review 264 p14:
        # vLLM's Qwen2.5-VL recipe on Instinct, BF16 as SGLang's, read as no stack there)
        fallback = sum(misfit.weight for misfit in self.misfits if misfit.kind in FALLBACK_KINDS)
        return self.weight - fallback <= MISFIT_WEIGHTS["device"]

    @property
    def falls_back(self) -> bool:
        """The stack runs its float format: no documented path for the asked quantized one on this device, or that
        format only as its publisher's checkpoints of other models."""
        return any(misfit.kind in FALLBACK_KINDS for misfit in self.misfits)

    def fallback_reason(self, asked: str, where: str = "on this device") -> str:
        """Why the stack serves its float format: '<stack> documents no fp8 path on this device', or its asked format
        exists only as its publisher's checkpoints of other models."""
        if any(misfit.kind == "unpublished_checkpoint" for misfit in self.misfits):
            return f"{self.stack.name} serves {asked} only as its publisher's checkpoints, none of them of this model"
        return f"{self.stack.name} documents no {asked} path {where}"


# What an RL recipe may miss and still carry a job nothing else fits: the team adapts the layout, precision or scale.
LOOP_ADAPTABLE = frozenset(
    {
        "model_type_training",
        "float_fallback",
        "float_everywhere",
        "scale",
        "device",
        "same_generation",
        "named_model_training",
        "other_size",
        "long_context_undocumented",
        "short_sequence_recipe",  # a recipe's own length, set in its launch (review 229 p15)
        "zero2_outgrown",  # a recipe's ZeRO stage, a setting (review 229 p13)
        "maintenance_ends",
    }
)
OTHER_GENERATION_KINDS = ("device", "device_line")  # validated on another generation or line of the family
DEVICE_MISFITS = (*OTHER_GENERATION_KINDS, "same_generation")  # validated on another device, of this generation or not
NEAR_TYPE_KINDS = ("model_type", "model_type_training")  # a stack documented for a neighbouring model type
# Misfits under which a stack serves (or trains in) its float format instead of the asked quantized one.
FLOAT_RUN_KINDS = ("float_fallback", "float_everywhere")  # the stack runs its float format in place of the asked one
FALLBACK_KINDS = (*FLOAT_RUN_KINDS, "unpublished_checkpoint")
OTHER_PRECISION_KINDS = ("precision", *FLOAT_RUN_KINDS)  # it runs another precision than the one asked
EXAMPLE_KINDS = ("example_model", "example_network")  # the page's model is the example of a generic route
BOOKKEEPING_MISFITS = ("unvetted_runner",)  # about the knowledge base's coverage, not the stack's fit to the profile


@dataclass(frozen=True)
class StackChoice:
    """The device the advice is for, the stack chosen per workload, and the options considered."""

    device: Device | None
    device_assumed: bool
    chosen: tuple[Judged, ...]
    considered: tuple[Judged, ...]

    def for_workload(self, workload: str) -> Judged | None:
        """The stack chosen for 'inference' or 'training', or None."""
        return next((judged for judged in self.chosen if judged.workload == workload), None)

    @property
    def stacks(self) -> tuple[Stack, ...]:
        return tuple(judged.stack for judged in self.chosen)

    @property
    def served_precision(self) -> str | None:
        """The format the chosen serving stack runs for this profile (fp8 asked on a 910B is served in bf16 or int8)."""
        serving = self.for_workload("inference")
        return serving.precision if serving is not None else None


def target_device(profile: Profile, platform: Platform) -> tuple[Device | None, bool]:
    """The profile's device, or the family's current generation (assumed: True); None where none are listed."""
    if profile.device is not None:
        return platform.device(profile.device), False
    if platform.default_device is None:
        return None, False
    return platform.device(platform.default_device.value), True


def workloads(profile: Profile) -> tuple[str, ...]:
    """'inference', 'training' or both, in that order."""
    return tuple(name for name, wanted in (("inference", profile.serves), ("training", profile.trains)) if wanted)


def scale_needed(profile: Profile) -> str:
    """The scale a job of this many devices needs: one device, or several (a stack documented across nodes covers it)."""
    return next(scale for limit, scale in SCALE_FOR if profile.needs.devices <= limit)


def float_formats(platform: Platform) -> tuple[str, ...]:
    """The float formats that answer a profile without quantization on this kind of platform."""
    return PRECISIONS_FOR["cpu" if platform.kind == "cpu" else "none"]


def mixed_precision_training(profile: Profile, platform: Platform, workload: str) -> bool:
    """An LLM trained on an accelerator: in mixed precision (bf16/fp16), not in FP32."""
    return workload == "training" and profile.llm and platform.kind != "cpu"


def mixed_by_setting(stack: Stack, accepted: Sequence[str], workload: str) -> str | None:
    """For a training page whose trainer documents a setting for mixed precision: the first mixed format the job takes
    (bf16), which that setting turns on; None otherwise."""
    if workload != "training" or stack.mixed_precision is None:
        return None
    return next((p for p in accepted if p in MIXED_FORMATS), None)


def precisions_accepted(profile: Profile, platform: Platform, workload: str = "inference") -> tuple[str, ...]:
    """The formats that answer the precision the profile asks (no quantization: the float formats). A job that trains
    and serves trains in float and quantizes the trained model for serving (PTQ), or, asking FP8 by QAT, trains in FP8
    where training runs it."""
    floats = float_formats(platform)
    if mixed_precision_training(profile, platform, workload):
        floats = tuple(p for p in floats if p not in FULL_PRECISIONS)
    if not profile.needs.quantized:
        return floats
    asked = PRECISIONS_FOR[profile.needs.quantization]
    if quantizes_after_training(profile, workload):  # trains in float and quantizes after (PTQ), or trains in FP8 (QAT)
        trains_in_it = profile.needs.quantization in TRAINED_PRECISIONS and profile.needs.quantization_method == "qat"
        return (*asked, *floats) if trains_in_it else floats
    return asked


def stack_accepts(stack: Stack, profile: Profile, platform: Platform, workload: str) -> tuple[str, ...]:
    """precisions_accepted, and for a recipe written for the profile's model the format that model is released in
    (gpt-oss's MXFP4 experts): asking no quantization, the team serves the checkpoint as its publisher released it."""
    accepted = precisions_accepted(profile, platform, workload)
    released = released_format(stack, profile, workload)
    return (released, *accepted) if released is not None and released in stack.applies_to.precisions else accepted


def released_format(stack: Stack, profile: Profile, workload: str) -> str | None:
    """The quantized format the profile's model is released in, where it asks no quantization for serving: the stack's
    own for the models it is written for, else the model catalogue's (advisor/data/models.yaml)."""
    named = profile.model_name
    if workload != "inference" or profile.needs.quantized or named is None:
        return None
    scope = stack.applies_to
    if scope.released_format is not None and written_for(scope.models, named):
        return scope.released_format
    known = size_of(named)
    if known is not None and known.released_format is not None:
        return known.released_format
    release = quantized_release(named)  # 'Qwen/Qwen2.5-32B-Instruct-AWQ': 4-bit weights by its id
    return release[0] if release is not None else None


def copy_text(named: str | None, released: str) -> str:
    """Why a stack with no path for the model's released format is a float copy: of a model released quantized
    (Kimi-K2-Thinking), or of the float release behind a quantized one the profile names ('...-AWQ')."""
    times = BF16_OVER.get(released, 2)
    release = quantized_release(named)
    if release is not None:
        return (
            f"documents no {release[0]} path for {named} ({release[0]} weights): it would serve the bf16 {release[1]} "
            f"instead, at {times}x the weight memory"
        )
    return f"documents no {released} path: it would serve a bf16 copy of {named}, which is released in {released}, at {times}x the weight memory"


def quantizes_after_training(profile: Profile, workload: str) -> bool:
    """The training side of a quantized profile trains in a float format and the model is quantized afterwards: it
    also serves (the checkpoint is quantized for serving), or it asks a format no one trains in (INT8 QAT trains with
    fake quantization in bf16/fp16 and runs INT8 GEMMs only once exported)."""
    return (
        workload == "training"
        and profile.needs.quantized
        and (profile.serves or profile.needs.quantization not in TRAINED_PRECISIONS)
    )


def fake_quantized_training(stack: Stack, profile: Profile, workload: str) -> bool:
    """The job asks QAT and the training stack's quantization part is a QAT flow (a toolkit inserting fake quantizers
    into the training model): it trains in a float format, and the asked format's GEMMs run only in the exported model,
    unlike an FP8 training recipe, whose GEMMs run in FP8."""
    part = stack.component("quantization")
    if workload != "training" or not profile.needs.quantized or profile.needs.quantization_method != "qat":
        return False
    return part is not None and bool(QAT_WORDS.search(f"{part.name} {part.setting or ''}"))


def device_misfit(listed: Sequence[str], device: Device, platform: Platform) -> Misfit:
    """A stack validated on other devices: a lesser misfit where one of them is the same generation as the target."""
    known = [found for found in (platform.device(d) for d in listed) if found is not None]
    classes = {found.device_class for found in known}
    if classes and device.device_class not in classes:  # a phone runtime on a server, or a server stack on a phone
        return Misfit(
            "device_class",
            f"validated on {', '.join(listed)} ({', '.join(sorted(classes))} devices), not on "
            f"a {device.device_class} device like {device.id}",
        )
    same = [d for d in listed if same_generation(getattr(platform.device(d), "generation", ""), device.generation)]
    if same:
        theirs = sorted({getattr(platform.device(d), "generation", "") for d in same})
        kin = (
            f"{device.generation}, as {device.id}"
            if theirs == [device.generation]
            else f"{', '.join(theirs)}; {device.id} is {device.generation}"
        )
        return Misfit("same_generation", f"validated on {', '.join(same)} ({kin}), not on {device.id} itself")
    generations = tuple(sorted({found.generation for found in known}))
    named = f" ({', '.join(generations)})" if generations else ""
    text = f"validated on {', '.join(listed)}{named}, not {device.id} ({device.generation})"
    if known and all((found.inference_only is None) != (device.inference_only is None) for found in known):
        # an inference-only card (Ascend 310P) and the training line's parts run different builds of the runtime
        line = "an inference-only part" if device.inference_only is not None else "a training-line part"
        return Misfit("device_line", f"{text}, {line} whose runtime build differs from theirs", generations)
    return Misfit("device", text, generations)


def listed_only(misfit: Misfit, stack: Stack) -> Misfit:
    """A same-generation device is a near fit only where the stack carries over to a sibling card: one serving engines
    prebuilt per listed GPU (the FLUX NIM, listed for the RTX 5090) has none for an RTX PRO 6000, and a runtime made for
    desktops and workstations (TensorRT for RTX) is not one for a data-centre card (reviews 110 and 112 p03), so the
    sibling weighs as another generation's device."""
    if misfit.kind != "same_generation" or stack.listed_devices_only is None:
        return misfit
    return Misfit("device", f"{misfit.text}; {stack.listed_devices_only.value}")


def same_generation(one: str, other: str) -> bool:
    """One generation, or one a named variant of the other ('Blackwell Ultra' of 'Blackwell'; 'CDNA 4' is not 'CDNA 3')."""
    return one == other or one.startswith(other + " ") or other.startswith(one + " ")


MODELS_NAMED = 5  # a recipe's model list is quoted up to this many; a longer one gives its first few and a count


def few_of(models: Sequence[str]) -> str:
    """'a, b, c, d and 9 more' for a long model list (vllm-gaudi's table of 13 checkpoints); the whole of a short one."""
    if len(models) <= MODELS_NAMED:
        return ", ".join(models)
    shown = MODELS_NAMED - 1
    return f"{', '.join(models[:shown])} and {len(models) - shown} more"


def listed_exactly(listed: Sequence[str], named: str) -> bool:
    """The id is one of those listed, as a registry matches it (letter case aside)."""
    return named.strip().lower() in {model.strip().lower() for model in listed}


def model_misfit(listed: Sequence[str], named: str, workload: str = "inference") -> Misfit:
    """A recipe written for other models: another model, or one whose architecture the profile's model keeps (the
    recipe's settings configure it; its published checkpoints hold the other weights)."""
    kin = shared_architecture(listed, named)
    sibling = size_sibling(listed, named) if kin is None else None
    if sibling is not None:
        return Misfit(
            "other_size",
            f"written for {sibling}, another size of {named}'s series (their ids differ only in the size): its "
            "settings apply, with this size's own weights, parallel degree and memory",
        )
    layout = layout_sibling(listed, named) if kin is None and vision_language_model(named) else None
    if layout is not None:  # the vision tower and projector carry over between a series' dense and MoE sizes
        return Misfit(
            "layout_sibling",
            f"written for {layout}, of {named}'s vision-language series in the other layout (dense or mixture of "
            "experts): its multimodal settings apply; its expert layout, weights, parallel degree and memory do not",
        )
    if kin is None and vision_sibling(listed, named):
        networks = "vision transformers" if vision_transformer(named) else "convolutional networks"
        family = vision_family(listed, named)
        if workload == "training" and family is not None:  # ConvNeXt's recipe for ConvNeXt V2 (review 150 p09)
            return Misfit(
                "vision_family_training",
                f"written for {few_of(listed)}, of the {family} family as {named} is: its launch scripts, "
                "mixed-precision settings and training recipe are the nearest, with this model's own code and weights",
            )
        if workload == "training":  # the launch scripts and mixed precision carry over; the network is the team's
            return Misfit(
                "vision_sibling_training",
                f"written for {few_of(listed)}, {networks} as {named} is: its launch scripts and mixed-precision "
                "settings carry over, with this model's own code, size and hyperparameters, which the page does not "
                "give",
            )
        if family is not None:  # the family's own recipe (ConvNeXt-Base's for timm's ConvNeXt-Base; review 154 p09)
            return Misfit(
                "vision_family",
                f"written for {few_of(listed)}, of the {family} family as {named} is: the same export and engine "
                "build take it, with the page's figures for the nearest size as the reference to check",
            )
        return Misfit(
            "vision_sibling",
            f"written for {few_of(listed)}, {networks} as {named} is: the same export and engine build take it, at its "
            "own size, speed and accuracy, which the page does not give",
        )
    if kin is None:
        kind = "named_model_training" if workload == "training" else "named_model"
        return Misfit(kind, f"written for {few_of(listed)}, not {named}")
    how = (
        f"{kin.architecture}, whose architecture {named} keeps"
        if kin.direct
        else f"{kin.listed}, which keeps {kin.architecture}'s architecture, as {named} does"
    )
    return Misfit(
        "same_architecture",
        f"written for {how} ({kin.sources[0]}{' and the other model cards' if len(kin.sources) > 1 else ''}): its "
        "settings apply, with this model's own weights, not a checkpoint it names",
    )


# another model's recipe, whatever the stack's own rule on other models makes of it (models_only, example_models)
SIBLING_KINDS = (
    "named_model",
    "named_model_training",
    "vision_sibling",
    "vision_sibling_training",
    "vision_family",
    "vision_family_training",
    "layout_sibling",
)


def linear_attention_misfit(stack: Stack, named: str | None) -> Misfit:
    """A hybrid linear-attention model on a page that runs none: what the engine's own word on the architecture on
    this family says (architecture_support.yaml), where it has one - supported from a release the page pins or not, or
    not run at all - else that the page does not show it (review 149: "check the engine's support" where vllm-ascend
    documents it and vllm-neuron has an open request)."""
    runner = stack.runner
    engine = runner.candidate if runner is not None else None
    support = support_for(engine, stack.applies_to.family, "hybrid-linear-attention")
    layers = f"{named}'s Gated DeltaNet layers (three in four)"
    if support is None:
        return Misfit(
            "linear_attention_unshown",
            f"its page runs no hybrid linear-attention model: {layers} need linear-attention kernels in "
            f"{stack.runner_name} on this device, which the page does not show; check the engine's support for the "
            "model there",
        )
    if support.supported == "no":
        return Misfit(
            "linear_attention_unsupported",
            f"{stack.runner_name} does not run hybrid linear-attention models such as {named} on this family: "
            f"{sentence_inside(support.note)} ({support.source})",
        )
    pinned = stack.validated_with.get(support.engine)
    pin, since = (
        release_numbers(pinned) if pinned else None,
        release_numbers(support.since) if support.since else None,
    )
    if pin is not None and since is not None and pin < since:
        return Misfit(
            "linear_attention_pin_older",
            f"its page pins {support.engine} {pinned}, older than {support.since}, the release that runs {layers} "
            f"({support.source}): take {support.since} or later and validate the page's settings there",
        )
    from_release = f" from {support.since}" if support.since else ""
    return Misfit(
        "linear_attention_documented",
        f"its page runs no hybrid linear-attention model, but {stack.runner_name} runs them on this family"
        f"{from_release} ({support.source}): its settings apply, with {layers} run by the engine's own kernels",
    )


def architecture_unsupported(stack: Stack, named: str | None) -> Misfit | None:
    """A cross-attention vision model (Llama 3.2 Vision) on a stack whose engine's own word is that it no longer runs
    that architecture on this family (architecture_support.yaml): no route (review 217 p07: vLLM on Gaudi chosen for
    Llama-3.2-11B-Vision after vLLM dropped its encoder-decoder models)."""
    runner = stack.runner
    engine = runner.candidate if runner is not None else None
    support = support_for(engine, stack.applies_to.family, "cross-attention-vision")
    if support is None or support.supported != "no":
        return None
    return Misfit(
        "architecture_unsupported",
        f"{stack.runner_name} does not run {named}'s cross-attention vision layers on this family: "
        f"{sentence_inside(support.note)} ({support.source})",
    )


def sentence_inside(note: str) -> str:
    """A catalogue note run on after a colon: its first word in lower case where it is an ordinary word ('The open
    request' but not 'vLLM's'), and no closing full stop."""
    text = note.rstrip(".")
    return text[0].lower() + text[1:] if len(text) > 1 and text[0].isupper() and text[1].islower() else text


VISION_STEM = re.compile(r"^[a-z]+")  # the letters that open a network's name: its family ('convnext', 'dinov')
VISION_NAME = re.compile(r"^(?:[a-z]+v\d+|[a-z]+)")  # the family as said, with a version suffix ('dinov2')


def vision_family(listed: Sequence[str], named: str) -> str | None:
    """The network family a listed model shares with the named one by name ('convnext' for ConvNeXt-Base and
    ConvNeXt V2): the letters that open the listed id's name, which open the named one's too (said with the listed
    one's version suffix, 'dinov2'); None otherwise."""
    own = VISION_STEM.match(named.split("/")[-1].lower())
    for model in listed:
        name = model.split("/")[-1].lower()
        stem = VISION_STEM.match(name)
        if own is not None and stem is not None and own.group(0).startswith(stem.group(0)):
            said = VISION_NAME.match(name)
            return said.group(0) if said is not None else stem.group(0)
    return None


def builds_family(families: Sequence[str], named: str) -> bool:
    """The named model's name opens with one of the families a recipe's code builds ('swin' for swin-base)."""
    own = named.split("/")[-1].lower()
    return any(own.startswith(family) for family in families)


def vision_sibling(listed: Sequence[str], named: str) -> bool:
    """Every listed model is a well-known image network of the named one's kind: vision transformers both, or
    convolutional networks both."""
    return (
        vision_model(named)
        and bool(listed)
        and all(vision_model(m) and vision_transformer(m) == vision_transformer(named) for m in listed)
    )


def published_for_others(scope: StackScope, precision: str, model: str | None) -> bool:
    """The stack serves `precision` only as its publisher's checkpoints of other models than `model` (vLLM's AMD VLM
    recipes: FP8 as Qwen3-VL-235B's release, none of Qwen2.5-VL; review 251 p15)."""
    if not scope.quantized_models or written_for(scope.quantized_models, model):
        return False
    return not scope.quantized_formats or precision in scope.quantized_formats


def unpublished_checkpoint(
    scope: StackScope, profile: Profile, accepted: Sequence[str], workload: str
) -> Misfit | None:
    """A stack whose quantized format serves only the checkpoints its publisher released (Hygon's INT8 W8A8 models),
    asked that format for a model it released none for, or for no named model: no recipe quantizes the team's own."""
    if workload != "inference" or not profile.needs.quantized or not scope.quantized_models:
        return None
    if not set(accepted) & (set(scope.precisions) - set(FLOAT_PRECISIONS)):
        return None
    named = profile.model_name
    if written_for(scope.quantized_models, named):
        return None
    # the profile names a publisher's quantized release of a listed model itself (NVIDIA's DeepSeek-R1-0528-FP4): that
    # is the checkpoint the route serves (review 257 p01)
    release = quantized_release(named)
    if release is not None and release[0] in accepted and written_for(scope.quantized_models, release[1]):
        return None
    if scope.quantized_formats and not set(accepted) & set(scope.quantized_formats):
        return None  # the page's other quantized formats quantize any model (or are the model's own release)
    whose = f"none of {named}" if named is not None else "the profile names no model"
    return Misfit(
        "unpublished_checkpoint",
        f"its {profile.needs.quantization} route serves only published checkpoints of "
        f"{', '.join(scope.quantized_models)}; {whose}",
    )


def float_fallback(stack: Stack, profile: Profile, device: Device | None, platform: Platform) -> str | None:
    """For a quantized profile, the float format the stack documents and the device runs: serving or training in it
    always works, at the memory and speed the quantization would have saved (None: no such format)."""
    if not profile.needs.quantized:
        return None
    floats = float_formats(platform)
    return next(
        (p for p in stack.applies_to.precisions if p in floats and (device is None or p in device.formats)), None
    )


def fine_tuning_tool(candidate_id: str | None, knowledge: KnowledgeBase) -> bool:
    """The candidate is a training framework limited to fine-tuning kinds (its `training_kinds` names no
    pre-training): a tool that carries its own recipes and launcher, whatever the job's size."""
    if candidate_id is None or candidate_id not in knowledge.ids():
        return False
    candidate = knowledge.get(candidate_id)
    kinds = candidate.training_kinds.value if candidate.training_kinds is not None else None
    return kinds is not None and "pretraining" not in kinds and "rl" not in kinds


def toolchain_quantizes(stack: Stack, profile: Profile, knowledge: KnowledgeBase, workload: str) -> str | None:
    """For a CNN served quantized: the name of the stack's compiler or runtime where that candidate documents the asked
    format ('yes') though the page runs float (the 310P ResNet-50 guide in fp16, whose ATC toolchain takes AMCT's INT8
    models; review 104 p03); None otherwise. An LLM engine's format support is per family and model, not this."""
    claimed = claimed_format(profile.needs.quantization)
    if workload != "inference" or profile.model_type != "cnn" or claimed is None:
        return None
    known = set(knowledge.ids())
    for component in stack.components:
        if component.role in ("compiler", "runtime") and component.candidate in known:
            candidate = knowledge.get(component.candidate)
            if getattr(candidate, claimed).value == "yes":
                return candidate.name
    return None


def tool_trains_type(stack: Stack, model_type: str, knowledge: KnowledgeBase) -> str | None:
    """A fine-tuning tool's recipe for another model type whose tool lists this one (LLaMA-Factory's model table has
    vision-language models): the tool's name; None otherwise."""
    framework = next((c for c in stack.components if c.role == "training-framework"), None)
    if framework is None or framework.candidate is None or not fine_tuning_tool(framework.candidate, knowledge):
        return None
    tool = knowledge.get(framework.candidate)
    return tool.name if tool.model_types is not None and model_type in tool.model_types.value else None


def runner_serves(stack: Stack, model_type: str, knowledge: KnowledgeBase, *, strict: bool) -> bool:
    """The stack's runner takes this model type (a near stack only counts where it does): a serving runner must list it
    (vLLM serves vision-language models; mlx-lm, text only); a training framework with no list takes any model."""
    runner = next((c for c in stack.components if c.role in RUNNER_ROLES and c.candidate in knowledge.ids()), None)
    if runner is None or runner.candidate is None:
        return not strict
    claim = knowledge.get(runner.candidate).model_types
    return model_type in claim.value if claim is not None else not strict


def misfits(
    stack: Stack,
    profile: Profile,
    device: Device | None,
    platform: Platform,
    knowledge: KnowledgeBase,
    workload: str = "inference",
    accepted: Sequence[str] | None = None,
) -> tuple[Misfit, ...]:
    """What in the stack does not fit this profile on this device for this workload (empty: it fits); `accepted` is
    precisions_accepted for them, where the caller has it."""
    scope = stack.applies_to
    found: list[Misfit] = []
    carried = False  # a training framework that lists the profile's model type carries it over (its misfit says so)
    upstream = stack.upstream_model_types
    if profile.model_type not in scope.model_types and upstream is not None and profile.model_type in upstream.value:
        # the engine runs the type through its upstream project's classes, which the page names no model of (reviews
        # 214 p11, 226 p13, 232 p13: Cambricon's vllm_mlu turned away for Qwen2.5-VL in favour of an engine with no
        # MLU device or image)
        found.append(
            Misfit(
                "upstream_model_type",
                f"its page names no {profile.model_type} model; {upstream_note(stack)}",
            )
        )
    elif profile.model_type not in scope.model_types:
        near = any((profile.model_type, listed) in NEAR_MODEL_TYPES for listed in scope.model_types) and runner_serves(
            stack, profile.model_type, knowledge, strict=workload == "inference"
        )
        text = f"documented for {', '.join(scope.model_types)}, not {profile.model_type}"
        tool = tool_trains_type(stack, profile.model_type, knowledge) if near and workload == "training" else None
        if tool is not None:  # the tool's own table covers the model type; this page ran another
            runs = f" ({few_of(scope.models)})" if scope.models else ""
            text = (  # the page's own runs, then the tool's list, so that the two do not read as a contradiction
                f"this page runs {', '.join(scope.model_types)} models only{runs}; {tool} itself lists "
                f"{profile.model_type} models, which the page does not show on this platform"
            )
        # a training framework that lists this model type itself carries over (verl and LLaMA-Factory list MoE and
        # vision-language models); one with no list of its own is only taken to run it
        lists_it = workload == "training" and runner_serves(stack, profile.model_type, knowledge, strict=True)
        if lists_it and tool is None and stack.runner is not None and stack.runner.candidate is not None:
            # the page's settings are another type's, not the framework's limit (reviews 221 p05 and 226 p06: "documented
            # for dense-transformer, not moe" read as MindSpeed-RL and verl training no MoE, while both ship MoE configs)
            framework = knowledge.get(stack.runner.candidate).name
            text = (
                f"its settings here are its {', '.join(scope.model_types)} recipe's; {framework} itself trains "
                f"{profile.model_type} models, whose layout (expert or vision parallelism) is the team's to take from "
                "its own configs"
            )
        type_misfit = ("model_type_training" if lists_it else "model_type") if near else "other_model"
        found.append(Misfit(type_misfit, text))
        # the recipe for another type's model is that misfit, not a second one: for a fine-tuning tool's table, or an
        # RL framework that lists the type (verl's dense GRPO examples for a MoE)
        carried = tool is not None or (near and lists_it and profile.training in NAMED_ONLY_KINDS)
    named = profile.model_name
    if scope.models and named is not None and not written_for(scope.models, named) and not carried:
        other = model_misfit(scope.models, named, workload)
        if stack.models_only is not None and other.kind in SIBLING_KINDS:
            other = Misfit("other_model", f"written for {few_of(scope.models)}, not {named}: {stack.models_only.value}")
        elif (
            stack.example_models is not None
            and other.kind in SIBLING_KINDS
            and workload == "training"
            and vision_model(named)
            and not vision_transformer(named)  # a ViT has its own misfit on a convolutional route (below)
            and not torchvision_architecture(named)
        ):  # a generic route that builds its network by torchvision name trains no network torchvision lacks (review
            # 150 p09: ConvNeXt V2, which torchvision does not build, "takes the same route" as ResNet-50)
            other = Misfit(
                "example_model_unbuilt",
                f"its page runs {few_of(scope.models)} as the example of a generic route "
                f"({stack.example_models.value}), but torchvision does not build {named} by name: the script's launch "
                "and mixed-precision settings carry over, the model code is the team's",
            )
        elif stack.example_models is not None and other.kind in SIBLING_KINDS:
            other = Misfit(
                # an engine that compiles any exported image network serves this one by the page's own build steps
                "example_network"
                if workload == "inference" and stack.builds_from is not None and profile.model_type == "cnn"
                else "example_model",
                f"its page runs {few_of(scope.models)} as the example of a generic route "
                f"({stack.example_models.value}): {named} takes the same route where the runner loads it as that says, "
                "at its own memory and speed",
            )
        if other.kind == "named_model_training" and stack.model_example(named):
            # the project's own example for the model sets its parts (review 189 p04: verl's Qwen3-30B-A3B layout, not
            # the Qwen3.5-35B-A3B one AMD's quick start runs)
            other = Misfit(
                other.kind,
                f"its page runs {few_of(scope.models)}; the settings here are its project's own example for {named}, "
                "which the page does not run on this family",
            )
        # pre-training builds the architecture from its own data: a recipe for a model of that architecture is this
        # job's whole recipe, there being no checkpoint to load (review 140 p02: Llama-3.1-8B on the Llama 3 8B recipe)
        if not (other.kind == "same_architecture" and workload == "training" and profile.training == "pretraining"):
            found.append(other)
    elif scope.models and named is not None and stack.exact_ids is not None and not listed_exactly(scope.models, named):
        # a release of a listed model (Qwen3-4B-Instruct-2507 of Qwen3-4B) that the tool's registry does not hold
        found.append(Misfit("unlisted_id", f"{named} is no id it lists: {stack.exact_ids.value}"))
    if (
        scope.models
        # a generic route builds a network by name (torchvision's ViT too), not one torchvision lacks (DINOv2) when
        # training it: the script's own model code is then the convolutional example (review 137 p08)
        and (stack.example_models is None or (workload == "training" and not torchvision_architecture(named)))
        and vision_transformer(named)
        and all(vision_model(m) and not vision_transformer(m) for m in scope.models)
    ):  # a ViT on a ResNet recipe: its attention, LayerNorm and patch embedding are not what the recipe tunes
        unbuilt = stack.example_models is not None  # the generic route's example is all the model code it has
        convolutional = Misfit(
            "convolutional_recipe",
            f"written for convolutional networks ({few_of(scope.models)}), not a vision transformer like {named}"
            + (", an architecture torchvision does not build by name" if unbuilt else "")
            + ": its attention and LayerNorm layers are not what the recipe was run with",
        )
        # that the route does not build it is the reason said first, before the generic route's own misfit
        found.insert(0 if unbuilt else len(found), convolutional)
    if stack.convolutional_only is not None and vision_transformer(named) and not conv_backbone(named):
        # review 161 p15: DINOv2 quantized with ONNX Runtime's static QDQ recipe for CNNs
        found.append(
            Misfit(
                "convolutional_recipe",
                f"its method is for convolutional networks ({stack.convolutional_only.value.rstrip('.')}), not a "
                f"vision transformer like {named}",
            )
        )
    if stack.transformer_only is not None and vision_model(named) and not vision_transformer(named):
        # the ONNX Runtime dynamic INT8 route for ViTs offered to a ResNet-50 as fitting as well (helper kbortdyn)
        found.append(
            Misfit(
                "convolutional_recipe",
                f"its method is for transformers ({stack.transformer_only.value.rstrip('.')}), not a convolutional "
                f"network like {named}",
            )
        )
    if scope.builds and named is not None and vision_model(named) and not builds_family(scope.builds, named):
        # review 159/160 p09: DINOv2 on the Swin recipe, whose code raises NotImplementedError for any other model
        # a vision transformer of another design on code that builds ViTs (DINOv2 on timm 0.4.5's vit_*): nearer than a
        # convolutional recipe, its attention and LayerNorm layers being what the recipe ran (review 180 p09)
        variant = vision_transformer(named) and "vit" in scope.builds  # plain ViT builders, not Swin's windows
        found.insert(
            0,
            Misfit(
                "unbuilt_variant" if variant else "unbuilt_family",
                (
                    f"its code builds {', '.join(scope.builds)} networks by name, and {named} is a vision transformer "
                    "of another design it has no builder for"
                    if variant
                    else f"its code builds {', '.join(scope.builds)} networks only, not {named}"
                )
                + ": the launch and mixed-precision settings carry over, the model code and its weights' loading are "
                "the team's",
            ),
        )
    if (
        workload == "training"
        and stack.ran_instead is not None
        and named is not None
        and written_for(scope.models, named)
    ):
        ran = stack.ran_instead.value.rstrip(".")
        found.append(
            Misfit(
                "ran_instead",
                f"its code builds {named} and loads its weights, but its page ran {ran}: the launch carries over, the "
                "fine-tuning configuration and its speed on this card are the team's",
            )
        )
    if hybrid_attention(named) and not any(hybrid_attention(m) for m in scope.models):
        # a model whose layers are mostly linear attention on a page that runs none (review 143 p05: Qwen3.6-27B on
        # vllm-ascend's W8A8 dense page, "fits the whole profile")
        found.append(linear_attention_misfit(stack, named))
    if workload == "inference" and cross_attention_vision(named):
        unsupported = architecture_unsupported(stack, named)
        if unsupported is not None:
            found.append(unsupported)
    if workload == "inference" and stack.script_only is not None and not is_mobile(device):
        found.append(Misfit("script_only", f"a script, not a server: {stack.script_only.value.rstrip('.')}"))
    if workload == "inference" and stack.workflow_app is not None:
        found.append(
            Misfit(
                "workflow_app", f"an interactive workflow app, not a service: {stack.workflow_app.value.rstrip('.')}"
            )
        )
    if workload == "training" and stack.layer_split is not None and profile.needs.devices > 1:
        found.append(
            Misfit(
                "layer_split",
                f"its page splits one copy of the model's layers over the devices in one process "
                f"({stack.layer_split.value.rstrip('.')}): no data-parallel or sharded layout, one device computing at "
                "a time",
            )
        )
    if device is not None and device.id in scope.excludes:
        found.append(Misfit("excluded", f"its page says it does not run on {device.id}"))
    elif device is not None and device.id not in scope.devices:
        found.append(listed_only(device_misfit(scope.devices, device, platform), stack))
    elif device is not None and scope.config_devices and device.id not in scope.config_devices:
        found.append(
            Misfit(
                "config_device",
                f"its page names {device.id} but ships configurations for {', '.join(scope.config_devices)} only: "
                f"re-size them for {device.name}" + (f" ({device.memory_gb:g} GB)" if device.memory_gb else ""),
            )
        )
    weight_only = weight_only_for_lack(stack, profile, device, platform)
    if weight_only is not None:
        found.append(weight_only)
    accepted = accepted if accepted is not None else stack_accepts(stack, profile, platform, workload)
    both_training = quantizes_after_training(profile, workload)  # trains in float; the lower formats come after
    lower = () if both_training else LOWER_PRECISIONS.get(profile.needs.quantization, ())
    fallback = float_fallback(stack, profile, device, platform)
    asked_format = profile.needs.quantization
    unrunnable = (
        device is not None
        and profile.needs.quantized
        and not both_training
        and fallback is not None
        and not device.may_run(asked_format)
    )  # no stack runs the ask natively here: each falls back
    if unrunnable and device is not None and not set(accepted) & set(scope.precisions):
        found.append(
            Misfit(
                "float_fallback",
                f"{device.name} does not run {asked_format} natively, so for the {profile.needs.quantization} asked "
                f"it would run in {fallback}",
            )
        )
    elif (
        workload == "training"
        and asked_format in TRAINED_PRECISIONS
        and not both_training
        and fallback is not None
        and not set(accepted) & set(scope.precisions)
    ):  # a training recipe documented in a float format only: it trains there, FP8 is the team's to validate
        found.append(
            Misfit(
                "float_fallback",
                f"documents no {asked_format} training: it trains in {fallback}, and {asked_format} on it is yours "
                f"to validate against the {fallback} loss curve",
            )
        )
    elif (
        workload == "inference"
        and fallback is not None
        and not both_training
        and not set(accepted) & set(scope.precisions)
        and written_exactly_for(scope.models, profile.model_name)
        # in an app the ask is the footprint, which a narrower format the page validates answers (review 179 p13: SD 3.5
        # Medium's Core AI 4-bit export served in fp16 for an int8 ask)
        and not ((profile.needs.in_app or is_mobile(device)) and set(lower) & set(scope.precisions))
    ):  # the model's own validated recipe, in float only: it serves there; the asked format is not validated for it
        # the formats validated for this model: a quantized one kept for another model's release is not (review 251
        # p15: "validates Qwen2.5-VL-72B in bf16, fp8" where FP8 is Qwen3-VL-235B's checkpoint only)
        own = [
            p
            for p in scope.precisions
            if p in FLOAT_PRECISIONS or not published_for_others(scope, p, profile.model_name)
        ]
        found.append(
            Misfit(
                "float_fallback",
                f"its page validates {profile.model_name} in {', '.join(own or scope.precisions)} only; "
                f"{asked_format} is not validated for it there, so it would serve in {fallback}",
            )
        )
    elif not set(accepted) & set(scope.precisions) and (mixed := mixed_by_setting(stack, accepted, workload)):
        found.append(
            Misfit(
                "precision_setting",
                f"its page trains in {', '.join(scope.precisions)}, with its trainer's documented {mixed} "
                "mixed-precision setting left off: turn it on and check the loss on a short run",
            )
        )
    elif not set(accepted) & set(scope.precisions):
        asked: str = profile.needs.quantization if profile.needs.quantized else "no quantization"
        policy_asks = not profile.needs.quantized and mixed_precision_training(profile, platform, workload)
        if policy_asks:
            asked = "mixed-precision (bf16/fp16) training of an LLM"
        if profile.needs.quantized and both_training:
            after = "for serving" if profile.serves else "for the exported model"
            asked = f"{' or '.join(accepted[:2])} training ({profile.needs.quantization} is {after})"
        lower_here = set(lower) & set(scope.precisions)
        # on an accelerator a weight-only INT4 recipe runs its GEMMs in 16 bits: no answer to an INT8 ask (a CPU's
        # INT4 weights with dynamic INT8 activations, KleidiAI's, are one); in an app the ask is the model's footprint,
        # which 4-bit weights answer whatever the GEMMs run in (review 137 p12: WhisperKit's 4-bit models on a Mac)
        footprint = profile.needs.in_app or is_mobile(device)
        weight_only_16 = platform.kind == "accelerator" and not footprint and lower_here <= set(scope.weight_only)
        toolchain = toolchain_quantizes(stack, profile, knowledge, workload)
        if lower_here and not weight_only_16:
            text = f"runs {', '.join(scope.precisions)}; the profile asks {asked}"
            if footprint:  # what it ships on both sides of the ask, not only the smaller side (review 147 p12)
                narrower = ", ".join(sorted(lower_here))
                wider = [precision for precision in scope.precisions if precision not in lower_here]
                ships = f"{', '.join(wider)} and {narrower}" if wider else narrower
                text = (
                    f"it ships {ships} models, none in {asked}: its {narrower} weights are a smaller footprint in the "
                    f"app than the {asked} asked, at an accuracy to check against the "
                    f"{wider[0] if wider else 'float'} model"
                )
            found.append(Misfit("lower_precision", text))
        elif toolchain is not None:
            found.append(
                Misfit(
                    "toolchain_format",
                    f"its page runs {', '.join(scope.precisions)}; its toolchain ({toolchain}) documents "
                    f"{profile.needs.quantization}: quantize with it and check accuracy against the page's model",
                )
            )
        elif policy_asks:
            # the policy, not the profile, asks it (review 147 p04: "the profile asks mixed-precision" of a profile
            # that asked no precision)
            quantized = [p for p in scope.precisions if p not in FLOAT_PRECISIONS]
            text = (
                f"its page trains with {', '.join(quantized)} matmuls, a quantized-training mode of its framework that "
                "the profile does not ask (no quantization named: bf16/fp16 mixed precision); it may train faster, "
                "which its speed and loss against bf16 on the target would show"
                if workload == "training" and quantized and len(quantized) == len(scope.precisions)
                else f"its page trains in {', '.join(scope.precisions)}; an LLM trains in mixed precision (bf16/fp16) "
                "on an accelerator, which the page does not run"
            )
            found.append(Misfit("precision", text))
        else:
            found.append(Misfit("precision", f"runs {', '.join(scope.precisions)}; the profile asks {asked}"))
    elif (
        device is not None
        and profile.needs.quantized
        and not both_training  # training in float before quantizing: the recipe's own float format (MLX's bf16 on
        # Apple GPUs whose tables list no bf16, review 100 p12), not the device's list, says what it trains in
        and not set(accepted) & set(scope.precisions) & {*device.formats, *scope.weight_only, *WEIGHT_ONLY_ASKS}
    ):
        runs = "/".join(p for p in scope.precisions if p in accepted)
        if device.formats_basis == "recipes":
            found.append(
                Misfit(
                    "format_undocumented",
                    f"{runs} is undocumented on {device.name} (no published format "
                    f"list, no {runs} recipe on it): validate it there, "
                    f"{fallback or 'a float format'} as the fallback",
                )
            )
        elif fallback is not None and runs != asked_format and asked_format in device.formats:
            # the device runs the asked format, the stack documents it only in another variant (MXFP8 on Trn3 only)
            found.append(
                Misfit(
                    "float_fallback",
                    f"documents {asked_format} only as {runs}, which {device.name} does not run natively; "
                    f"{device.name} runs {asked_format}, but this stack's page has no {asked_format} path for it there, "
                    f"so it would run in {fallback}",
                )
            )
        elif fallback is not None:
            found.append(
                Misfit(
                    "float_fallback",
                    f"{device.name} does not run {runs} natively, so for the {profile.needs.quantization} asked it "
                    f"would run in {fallback}",
                )
            )
        else:
            found.append(Misfit("format", f"{device.name} does not run {runs} natively ({device.formats_text()})"))
    released = released_format(stack, profile, workload)
    if released is not None and released not in scope.precisions:
        found.append(
            Misfit(
                "float_copy",
                copy_text(named, released),
            )
        )
    kind = profile.training
    if workload == "training" and kind in NAMED_ONLY_KINDS and not scope.training:
        found.append(Misfit("training_loop", f"its page names no kind of training, and none of {kind}"))
    elif workload == "training" and kind is None and scope.training and set(scope.training) <= set(NAMED_ONLY_KINDS):
        # a job naming no kind trains every weight on its data: an RL loop (rollouts, rewards) is no recipe for it
        documented = ", ".join(scope.training)
        found.append(
            Misfit("training_loop", f"documented for {documented} only; the profile names no kind of training")
        )
    elif workload == "training" and kind is not None and scope.training and kind not in scope.training:
        documented = ", ".join(scope.training)
        if kind == "fine-tuning" and "pretraining" in scope.training and profile.model_type == "cnn":
            pass  # a CNN's training recipe is its fine-tuning recipe too: the same script from pretrained weights
        elif kind == "fine-tuning" and scope.training == ["lora"]:
            in_general = stack.training_named is not None and kind in stack.training_named.value
            text = (
                f"its page runs lora only; its vendor names it for {kind} in general terms, with no run that trains "
                "every weight, whose gradients and optimizer state must fit besides, laid out (sharded) as no page "
                "of it shows (see capacity)"
                if in_general
                else f"documented for lora, not {kind}: the same route from the model's checkpoint, but every "
                "weight's gradients and optimizer state must fit besides (see capacity)"
            )
            found.append(Misfit("training_kind_named" if in_general else "training_kind_adapter", text))
        elif kind == "lora" and "fine-tuning" in scope.training and (absent := adapters_absent(stack, knowledge)):
            text = (
                f"documented for {documented}, not {kind}: {absent.value}, so this route trains every weight, or the "
                "adapters train on another stack"
            )
            found.append(Misfit("training_kind_no_adapters", text))
        elif kind == "lora" and "fine-tuning" in scope.training:
            in_general = stack.training_named is not None and kind in stack.training_named.value
            text = (
                f"its page runs {documented} only; its project names it for {kind} in general terms (the same "
                "route with adapters on), with no LoRA run on this device shown"
                if in_general  # review 202 p04: "documented for fine-tuning, not lora" of LLaMA-Factory
                else f"documented for {documented}, not {kind}: the same fine-tuning route from the model's "
                "checkpoint, with adapters added (the framework's own LoRA, or PEFT on a PyTorch one) and only they "
                "trained"
            )
            found.append(Misfit("training_kind_named" if in_general else "training_kind_lora", text))
        elif kind == "fine-tuning" and "pretraining" in scope.training:
            # a pre-training recipe trains every weight, as a full fine-tune does, from the model's converted checkpoint
            text = f"documented for {documented}, not {kind}: both train every weight, from the model's checkpoint here"
            if stack.starts_from is not None:
                text += f"; {stack.starts_from.value}"
                found.append(Misfit("training_kind_near", text))
            else:  # review 261 p04: Primus's pre-training entry point for a Llama 3.1 70B full fine-tune
                text += ", but its page starts from no published model's weights: importing the checkpoint is yours"
                found.append(Misfit("training_kind_near_no_start", text))
        elif kind == "lora" and scope.training == ["pretraining"] and stack.starts_from is None:
            text = (
                f"documented for {documented}, not {kind}, and its page starts from no published model's weights, "
                "which the adapters need loaded beneath them"
            )
            found.append(Misfit("training_kind_no_start", text))
        else:
            # an RL loop and a plain training recipe are not each other's: neither has the other's loop
            rl_only = set(scope.training) <= set(NAMED_ONLY_KINDS)
            loop = "training_loop" if kind in NAMED_ONLY_KINDS or rl_only else "training_kind"
            found.append(Misfit(loop, f"documented for {documented}, not {kind}"))
    hands_off = profile.serves or profile.model_name is not None  # served here, or a named model to give back
    if (
        workload == "training"
        and hands_off
        and stack.checkpoint is not None
        and NO_HANDOFF.search(stack.checkpoint.value)
    ):
        found.append(
            Misfit(
                "no_handoff",
                "its checkpoints stay in its own framework's format: its page documents no conversion to a Hugging "
                "Face checkpoint, which a serving engine or the team's own tools load",
            )
        )
    if (
        workload == "inference"
        and profile.trains
        and stack.checkpoint is not None
        and NO_OWN_WEIGHTS.search(stack.checkpoint.value)
    ):
        found.append(
            Misfit(
                "no_own_weights",
                "it serves its publisher's prebuilt weights: its pages document no way to load the checkpoint this "
                "job trains",
            )
        )
    if written_for(scope.withdrawn_models, named):
        found.append(Misfit("withdrawn_model", f"its current release withdrew the recipe for {named}"))
    if workload == "training" and (outgrown := zero2_outgrown(stack, profile, device)) is not None:
        found.append(outgrown)
    if workload == "training" and profile.needs.long_context and not long_sequences_documented(stack, knowledge):
        found.append(
            Misfit(
                "long_context_undocumented",
                "neither its page nor its framework's documents context or sequence parallelism for the long "
                "sequences asked (needs.long_context)",
            )
        )
    # the kind of training asked reads its own settings (MindSpeed's pre-training script beside its fine-tune)
    trained = (
        trained_sequence(stack.for_training(profile.training))
        if workload == "training" and profile.needs.long_context
        else None
    )
    if trained is not None and trained < LONG_CONTEXT_TOKENS:  # review 213 p02: an 8,192-token CP 1 recipe "fit"
        found.append(
            Misfit(
                "short_sequence_recipe",
                f"its recipe trains {trained:,}-token sequences, below the {LONG_CONTEXT_TOKENS:,} that long context "
                "(needs.long_context) starts at: the longer sequence length and its context-parallel layout are yours "
                "to size and measure",
            )
        )
    capped = context_cap(stack) if workload == "inference" and profile.needs.long_context and profile.llm else None
    # the request length the profile's serving SLA states (review 181 p12: a 17,000-token SLA held to 32,768), else the
    # length long context starts at
    sla = profile.serving
    needed = sla.isl + sla.osl if sla is not None else LONG_CONTEXT_TOKENS
    if capped is not None and capped < needed:  # review 157 p12: a 16,384-token launch as a whole fit
        below = (
            f"the {needed:,} tokens a request of your serving SLA holds (isl + osl)"
            if sla is not None
            else f"the {LONG_CONTEXT_TOKENS:,} that long context (needs.long_context) starts at"
        )
        if sla is not None and needed < LONG_CONTEXT_TOKENS:
            # review 258 p02: the SLA's shorter request quietly stood in for needs.long_context; it still stands in
            # (review 181 p12 asked for the SLA's length), now said
            below += f", which stands in for the {LONG_CONTEXT_TOKENS:,} that needs.long_context otherwise starts at"
        found.append(
            Misfit(
                "context_capped",
                f"its launch caps each request at {capped:,} tokens, below {below}: a longer cap is outside its "
                "documented configuration and needs the memory checked again",
            )
        )
    if stack.maintained_until is not None:
        ends = stack.maintained_until.value.isoformat()
        found.append(Misfit("maintenance_ends", f"pinned to a release whose maintenance ends on {ends} (its page)"))
    if written_for(scope.unserved_models, named):
        found.append(Misfit("unserved_model", f"its project's own pages say it does not serve {named}"))
    unpublished = unpublished_checkpoint(scope, profile, accepted, workload)
    if unpublished is not None:
        found.append(unpublished)
    # CNN serving runs a replica per device; a larger size's recipe sets no layout for a smaller model on one device
    if not (profile.model_type == "cnn" and workload == "inference") and not smaller_sibling_on_one(scope, profile):
        found += scale_misfits(scope, profile, device, workload)
    found += runner_misfits(stack, profile, knowledge, workload, device, platform)
    found += method_misfit(stack, profile, knowledge, workload)
    if (
        profile.needs.quantization in scope.untested_precisions
        and not quantizes_after_training(profile, workload)
        # the device's own undocumented format says the same, once (review 254 p13: ixRT on a Tiangai 150)
        and not any(misfit.kind == "format_undocumented" for misfit in found)
    ):
        found.append(
            Misfit(
                "untested_format",
                f"its pages show no test of {profile.needs.quantization} accuracy or speed (at most that checkpoints "
                "load): both are the team's first measurements",
            )
        )
    requantized = released_as_asked_but_requantized(stack, profile, workload)
    if requantized is not None:
        found.append(requantized)
    if stack.deprecated is not None:
        deprecated = "deprecated_serving" if workload == "inference" else "deprecated"
        found.append(Misfit(deprecated, f"deprecated on its own page: {stack.deprecated.value}"))
    listed = runner_listed(stack, platform, knowledge)
    if not listed and unvetted(stack, knowledge):
        found.append(
            Misfit(
                "unvetted_runner",
                f"{stack.runner_name} rests on this stack's page alone (no knowledge-base entry checks its claims)",
            )
        )
    elif not listed:
        found.append(
            Misfit(
                "unlisted_runner",
                f"{stack.runner_name} is not among the platform's listed engines, runtimes or frameworks",
            )
        )
    on_phone = is_mobile(device)  # on-device LLMs run in a general runtime there
    in_app = on_phone or profile.needs.in_app  # and inside an app on any device (an in-app model needs no server)
    generates = profile.serving_task == "generation"  # a speech or embedding model is no chat LLM for an engine
    if profile.llm and generates and workload == "inference" and not runs_on_engine(stack, platform) and not in_app:
        found.append(Misfit("general_runtime", "serves the LLM from a general runtime, not an LLM serving engine"))
    if profile.needs.in_app and workload == "inference" and not on_phone and stack.in_app is None:
        found.append(
            Misfit(
                "out_of_app",
                "its page documents no way to run the model inside an app (needs.in_app): a server or a script",
            )
        )
    return tuple(found)


def weight_only_for_lack(stack: Stack, profile: Profile, device: Device | None, platform: Platform) -> Misfit | None:
    """A stack that runs the asked format weight-only because the devices it is validated on lack its units (FP8
    Marlin on an A100), for a device that has them: its kernels are the wrong path there, where the format computes
    natively."""
    asked = profile.needs.quantization
    scope = stack.applies_to
    if device is None or not profile.needs.quantized or asked not in scope.weight_only or asked not in device.formats:
        return None
    validated = [item for item in platform.devices if item.id in scope.devices]
    if not validated or any(asked in item.formats for item in validated):
        return None  # weight-only by its method, not for want of units
    return Misfit(
        "weight_only_for_lack",
        f"runs {asked} weight-only, as the {', '.join(item.id for item in validated)} it is validated on lack {asked} "
        f"units; {device.name} computes in {asked}",
    )


def smaller_sibling_on_one(scope: StackScope, profile: Profile) -> bool:
    """A one-device job on a recipe for a larger size of its model's series (Qwen2.5-VL-32B on 4 cards for the 7B on
    one): the recipe's device count is its size's, not a layout this smaller model needs; the capacity line checks that
    it fits one device. The recipe is already a near fit for another size."""
    sibling = size_sibling(scope.models, profile.model_name)
    if sibling is None or profile.model_name is None or scale_needed(profile) != "single-device":
        return False
    mine, theirs = stated_size(profile.model_name), stated_size(sibling)
    return mine is not None and theirs is not None and mine < theirs


def scale_misfits(
    scope: StackScope, profile: Profile, device: Device | None, workload: str = "inference"
) -> list[Misfit]:
    """The job needs more devices than the stack documents: several where it shows one, or more than one node. A LoRA
    recipe shown on one device scales out as plain data parallelism (each device holds the frozen model): a lesser
    misfit."""
    scale = scale_needed(profile)
    if (
        workload == "training"
        and profile.training == "lora"
        and scope.scale == ["single-device"]
        and profile.needs.devices > 1
    ):
        return [
            Misfit(
                "scale_data_parallel",
                f"documented on one device; this LoRA job's {profile.needs.devices} devices run it data parallel (a "
                "copy of the frozen model on each), which its page does not show",
            )
        ]
    one_node = profile.needs.devices <= host_size(device)  # hosts, not the NVLink domain: a rack's trays are nodes
    worker = scope.replica_devices
    if (
        scale == "multi-device"
        and scope.scale == ["multi-node"]
        and one_node
        and worker is not None
        and profile.needs.devices % worker == 0
    ):  # whole workers of the recipe on one node (reviews 241 and 243 p01: Dynamo's 4-GPU Qwen3-235B workers)
        return [
            Misfit(
                "scale_fewer_workers",
                f"documented as {worker}-device workers replicated across nodes; this job's {profile.needs.devices} "
                f"devices run {profile.needs.devices // worker} of them on one node, a count its page does not show",
            )
        ]
    if scale == "multi-device" and scope.scale == ["multi-node"] and one_node:  # a layout across nodes (PD split)
        return [
            Misfit(
                "scale",
                f"documented across several nodes only; this job's {profile.needs.devices} devices fit one node, so "
                "its layout (what runs on which node, the parallel widths) is re-derived for one",
            )
        ]
    group = replica_group(profile, device) if workload == "inference" else None  # capacity's 'replicas of N'
    if (
        workload == "inference"
        and profile.needs.devices == 1
        and scope.scale == ["multi-device"]
        and profile.llm
        and one_device_holds(profile, device, lambda b: served_weights_gb(b, profile.needs.quantization)) is True
    ):
        # an LLM engine's multi-device recipe runs one device at parallel degree 1 (capacity checks the fit): a lesser
        # misfit than a scale it cannot reach, after a page that shows one device
        ranks = ranks_of(device)
        degree = (
            f"tensor parallel {ranks} over the device's {ranks} {device.rank_name}"
            if device is not None and ranks > 1
            else "parallel degree 1"
        )  # an Inferentia2 chip is two NeuronCores: one chip runs at tp_degree 2 (review 99 p12)
        if device is not None and ranks > 1:
            # a device of several ranks (an Inferentia2 chip's two NeuronCores) runs the recipe's tensor parallelism
            # inside itself, as any engine's launch on it does: no lesser fit than a page that shows one device (review
            # 234 p07: AWS's vLLM + NxD Inference route passed over for Optimum Neuron's, which runs TP 2 on the chip)
            return []
        return [
            Misfit(
                "scale_one_device",
                f"documented on several devices; this one-device job runs it at {degree}, which its page does not show",
            )
        ]
    within_node = group is not None and group <= node_size(device)
    if within_node and ("multi-device" in scope.scale or (group == 1 and "single-device" in scope.scale)):
        return []  # independent replicas of a model that fits a few devices of one node: the page's scale is a replica's
    if scale not in scope.scale and not (scale == "multi-device" and "multi-node" in scope.scale):
        return [Misfit("scale", f"documented at {', '.join(scope.scale)} scale; this job needs {scale}")]
    if profile.needs.devices > node_size(device) and "multi-node" not in scope.scale:
        return [
            Misfit(
                "scale",
                f"documented within one node; {profile.needs.devices} devices may span nodes, and the "
                "layout across them (replicas or cross-node parallelism) is not documented",
            )
        ]
    return []


def method_misfit(stack: Stack, profile: Profile, knowledge: KnowledgeBase, workload: str) -> list[Misfit]:
    """The stack's quantization toolkit lacks the method the profile asks (quantization-aware training, or PTQ)."""
    part = stack.component("quantization")
    if workload == "training" and profile.needs.quantization_method == "qat" and profile.training in FINE_TUNING_KINDS:
        asked = profile.needs.quantization
        trains_in_it = set(PRECISIONS_FOR[asked]) & set(stack.applies_to.precisions)  # fp8 or mxfp8
        if trains_in_it and not fake_quantized_training(stack, profile, workload):
            # an FP8 training recipe is no QAT (a float-only recipe already counts its float fallback)
            return [
                Misfit(
                    "method_training",
                    f"an {asked} training recipe, not quantization-aware training: it trains in {asked} and exports "
                    "no fake-quantized model",
                )
            ]
        return []
    if workload != "inference" or not profile.needs.quantized or part is None or part.candidate not in knowledge.ids():
        return []
    method = profile.needs.quantization_method
    # the publisher releases the model trained quantization-aware in a file this toolkit serves from (Gemma 3's QAT
    # GGUFs, its float QAT weights): the QAT ask is answered without a QAT run of the team's own (review 109 p14)
    if method == "qat" and published_qat(profile.model_name, profile.needs.quantization, part.candidate) is not None:
        return []
    if getattr(knowledge.get(part.candidate), method).value == "no":
        return [Misfit("method", f"{part.name} has no {method.upper()} flow; the profile asks {method.upper()}")]
    documented = METHOD_WORDS.get(method)  # the part as the page sets it names the other method: a partial fit
    text = f"{part.name} {part.setting or ''}"
    if documented is not None and documented[1].search(text) and not documented[0].search(text):
        own = getattr(knowledge.get(part.candidate), method).value == "yes"
        how = (
            f"the toolkit has a {method.upper()} flow of its own to set up"
            if own
            else "the toolkit runs none: train quantization-aware in the training framework and export the model "
            "the stack runs"
        )
        return [
            Misfit(
                "method",
                f"{part.name} is the page's {'PTQ' if method == 'qat' else 'QAT'} flow; the profile asks "
                f"{method.upper()} ({how})",
            )
        ]
    return []


PTQ_WORDS = re.compile(r"post-training|\bPTQ\b|calibrat|quantize_static", re.IGNORECASE)
QAT_WORDS = re.compile(r"quantization-aware|training-time|\bQAT\b", re.IGNORECASE)
METHOD_WORDS = {
    "qat": (QAT_WORDS, PTQ_WORDS),
    "ptq": (PTQ_WORDS, QAT_WORDS),
}  # method -> (words naming it, words naming the other)


# A serving command's sequence cap: '--max-seq-len 8192', '--max-model-len 16384', '--context-length 65536'.
SEQUENCE_CAP = re.compile(r"(?:--max-seq-len|--max-model-len|--context-length|--max_seq_len)[ =](\d+)\b")


def context_cap(stack: Stack) -> int | None:
    """The longest request its runner's documented launch takes, where the launch caps it; None where it sets none."""
    runner = stack.runner
    caps = [int(cap) for cap in SEQUENCE_CAP.findall(runner.setting or "")] if runner is not None else []
    if stack.max_request_tokens is not None:  # the configs' own cap (TensorRT-LLM's recipe database)
        caps.append(stack.max_request_tokens.value)
    return max(caps) if caps else None


# A training recipe's sequence length as its settings state it: 'sequence length 8192', 'max_target_length=8192',
# 'seq_length 4096', MindSpeed's '--seq-length 4096'; figures below MIN_SEQUENCE are other things (a 'seq_length=0' placeholder, a batch of 32).
TRAINED_SEQUENCE = re.compile(
    r"(?:sequence length|seq[-_]length|max_target_length|max_seq_len|seq_len)[ =:]*(\d[\d,]*)"
)
# The same in words: '4,096-token maximum sequence' (review 269 p15: NeMo RL's Qwen3-30B-A3B row passed as a whole fit
# for long context while verl's 10,240-token recipe was marked down)
TRAINED_SEQUENCE_WORDS = re.compile(r"(\d[\d,]*)-token (?:maximum )?sequences?\b")
MIN_SEQUENCE = 512
# An RL recipe's prompt and response lengths, whose sum is the sequence it trains: 'max prompt 512 / response 1024',
# '2,048-token prompts and 8,192-token responses', 'max_prompt_length 512 ... max_response_length 1024' (review 229 p15:
# verl's 512 + 1,024-token GRPO recipe passed as a whole fit for long context).
RL_LENGTHS = (
    re.compile(r"max prompt ([\d,]+) / response ([\d,]+)"),
    re.compile(r"([\d,]+)-token prompts and ([\d,]+)-token responses"),
    re.compile(r"max_prompt_length[ =]([\d,]+).*?max_response_length[ =]([\d,]+)"),
)


# A training recipe's setting that keeps the bf16 weights whole on each device: DeepSpeed's ZeRO stage 2.
ZERO_STAGE_2 = re.compile(r"--zero_stage[ =]2\b|\bZeRO[- ]stage 2\b|\bZeRO-2\b", re.IGNORECASE)


def upstream_note(stack: Stack) -> str:
    """What the stack's upstream_model_types claim says of it (its note), in a clause."""
    claim = stack.upstream_model_types
    return (claim.note or "its engine runs the upstream project's classes for it").rstrip(".") if claim else ""


def zero2_outgrown(stack: Stack, profile: Profile, device: Device | None) -> Misfit | None:
    """A recipe whose settings for this kind of training run ZeRO stage 2, on a job whose devices cannot hold the
    weights whole beside their share of the rest (review 229 p13: OpenRLHF's 16-card Llama-3-8B SFT, ZeRO-2, chosen as
    a whole fit for 8 BI-V150 while the capacity line counted about 30 GB a device against 29 usable)."""
    sized = zero2_per_device(profile, device)
    settings = [c.setting or "" for c in stack.for_training(profile.training).components]
    if sized is None or not any(ZERO_STAGE_2.search(text) for text in settings):
        return None
    per_device, usable = sized
    if per_device <= usable:
        return None
    return Misfit(
        "zero2_outgrown",
        f"its settings run ZeRO stage 2, which keeps the bf16 weights whole on each device: about {per_device:,.0f} GB "
        f"a device on {profile.needs.devices}, beyond the {usable:,.0f} GB usable before activations; shard the "
        "weights too (ZeRO stage 3) or add devices",
    )


def trained_sequence(stack: Stack) -> int | None:
    """The longest sequence a training recipe's own settings train (its runner's and layout's, and the long-context
    scripts its page ships: MindSpeed's 64K-256K Qwen3-235B fine-tunes), where they state one."""
    texts = [c.setting or "" for c in stack.components if c.role in ("training-framework", "parallelism")]
    texts += [stack.long_context.value] if stack.long_context is not None else []
    lengths = [
        int(found.replace(",", ""))
        for text in texts
        for pattern in (TRAINED_SEQUENCE, TRAINED_SEQUENCE_WORDS)
        for found in pattern.findall(text)
    ]
    lengths += [
        int(prompt.replace(",", "")) + int(response.replace(",", ""))
        for text in texts
        for pattern in RL_LENGTHS
        for prompt, response in pattern.findall(text)
    ]
    lengths = [length for length in lengths if length >= MIN_SEQUENCE]
    return max(lengths) if lengths else None


def long_sequences_documented(stack: Stack, knowledge: KnowledgeBase) -> bool:
    """The stack's page, or the knowledge base's entry for the framework that runs it, says how it trains long
    sequences (context or sequence parallelism): MindSpeed's Ulysses and ring attention, Megatron-Core's context
    parallel. An engine's upstream claim that speaks only for some families (policy.long_context_families) is a
    serving claim and not read here."""
    if stack.long_context is not None:
        return True
    runner = stack.runner
    if runner is None or runner.candidate is None or runner.candidate not in knowledge.ids():
        return False
    framework = knowledge.get(runner.candidate)
    return framework.long_context is not None and runner.candidate not in knowledge.policy.long_context_families


def runner_misfits(
    stack: Stack,
    profile: Profile,
    knowledge: KnowledgeBase,
    workload: str,
    device: Device | None = None,
    platform: Platform | None = None,
) -> list[Misfit]:
    """What the component that runs the model denies: the skill to use it, dynamic shapes (a serving need: a training
    run packs or pads its batches), the device where its own page lists the devices it is tested on and leaves this
    one out (the stack's page validating it there overrides that)."""
    runner = next((c for c in stack.components if c.role in RUNNER_ROLES and c.candidate), None)
    if runner is None or runner.candidate not in knowledge.ids():
        return []
    candidate = knowledge.get(runner.candidate)
    found = []
    if (
        device is not None
        and platform is not None
        and device.id not in stack.applies_to.devices
        and candidate.leaves_untested(device.id, [item.id for item in platform.devices])
    ):
        found.append(
            Misfit(
                "unlisted_device",
                f"{candidate.name}'s supported-hardware page does not list {device.name}: untested there by its "
                "developers (community support only)",
            )
        )
    if SKILL_ORDER.index(candidate.skill.value) > SKILL_ORDER.index(profile.team_skill):
        found.append(Misfit("skill", f"{candidate.name} needs a {candidate.skill.value} team to use"))
    if workload == "inference" and profile.needs.dynamic_shapes and candidate.dynamic_shapes.value == "no":
        found.append(Misfit("dynamic_shapes", f"{candidate.name} does not run dynamic shapes"))
    return found


def framework_apart(stack: Stack, workload: str, profile: Profile, knowledge: KnowledgeBase) -> bool:
    """A training stack, for a job that must run on several families, whose framework is not one listed to run on all
    of them (or is not listed at all)."""
    if workload != "training" or not profile.needs.cross_platform or len(profile.families) < 2:
        return False
    runner = runner_of(stack, workload, set(knowledge.ids()))
    if runner is None or runner.candidate is None:
        return True
    return not set(profile.families) <= set(knowledge.get(runner.candidate).hardware.value)


def heavier_framework(stack: Stack, workload: str, profile: Profile, knowledge: KnowledgeBase) -> bool:
    """For a framework team's LoRA: the training stack's framework is no fine-tuning tool (it also pre-trains or runs
    RL, with its own model format), where fine-tuning tools carry their own recipes and launcher. A full fine-tune
    keeps the platform's order: a pre-training framework's SFT recipe lays out the whole model's state (Megatron
    Bridge's TP 8 for Qwen3-14B), which is its strength there."""
    if workload != "training" or profile.team_skill != "framework" or profile.training != "lora":
        return False
    framework = training_framework(stack, knowledge)
    return framework is not None and not fine_tuning_tool(framework.id, knowledge)


def general_engine(stack: Stack, workload: str, profile: Profile, knowledge: KnowledgeBase) -> bool:
    """For an embedding model served: the stack's runner also serves generation (an LLM engine's pooling mode), not a
    server whose tasks claim is embedding only (Text Embeddings Inference)."""
    if workload != "inference" or profile.serving_task != "embedding":
        return False
    runner = runner_of(stack, "inference", set(knowledge.ids()))
    if runner is None or runner.candidate is None:
        return False
    tasks = knowledge.get(runner.candidate).tasks
    return tasks is None or "generation" in tasks.value


def preference_index(stack: Stack, platform: Platform, workload: str, llm: bool, mobile: bool = False) -> int:
    """Where the stack's runner sits in the platform's own order: LLM serving engines first for an LLM on a server,
    graph runtimes first for other models and on a phone (an app runs its own requests, with nothing to batch),
    training frameworks for training."""
    if workload == "inference":
        engines, runtimes = list(platform.serving_engines.value), list(platform.official.preference("deployment"))
        listed = [*engines, *runtimes] if llm and not mobile else [*runtimes, *engines]
    else:
        listed = list(platform.training_frameworks.value)
    for component in stack.components:
        if component.candidate in listed:
            return listed.index(component.candidate)
    return len(listed)


def runner_listed(stack: Stack, platform: Platform, knowledge: KnowledgeBase) -> bool:
    """What runs the stack's model is a candidate the platform lists (its engines, runtimes, training frameworks or
    official stack), not a project the knowledge base does not vet."""
    listed = {*platform.serving_engines.value, *platform.training_frameworks.value, *platform.named_ids()}
    known = set(knowledge.ids())
    return any(
        c.candidate in listed or (c.candidate in known and platform.id in knowledge.get(c.candidate).hardware.value)
        for c in stack.components
        if c.role in RUNNER_ROLES
    )  # a runner the knowledge base vets for this family (Diffusers on CUDA) counts as listed too


def unvetted(stack: Stack, knowledge: KnowledgeBase) -> bool:
    """The stack's runner has no knowledge-base entry at all (plain PyTorch, xDiT, MaxDiffusion, mflux): only the
    stack's own page vouches for it, a lesser misfit than a known candidate the platform does not list."""
    return all(
        c.candidate is None or c.candidate not in knowledge.ids() for c in stack.components if c.role in RUNNER_ROLES
    )


def runs_on_engine(stack: Stack, platform: Platform) -> bool:
    """The stack's model runs in one of the platform's LLM serving engines."""
    return any(component.candidate in platform.serving_engines.value for component in stack.components)


def pretraining_size_reference(listed: Sequence[str], profile: Profile) -> bool:
    """A pre-training job naming no model but its size, on a recipe written for a model of that size (NVIDIA's Llama 3
    8B H100 FP8 recipe for an 8B model): pre-training builds the architecture from its own data, so the recipe's layout
    and parallel widths for that size are what the job takes, and its model is no assumption about this one (reviews
    179/182 p02)."""
    size = profile.parameters_b
    if profile.training != "pretraining" or size is None:
        return False
    sizes = [stated_size(model) for model in listed]
    return any(known is not None and abs(known - size) <= SIZE_MATCH * size for known in sizes)


# the floating 8- and 4-bit formats a serving page calibrates or releases per model, so that its model list is the
# list of models it quantizes
CALIBRATED_DEFAULTS = ("fp8", "mxfp8", "nvfp4", "mxfp4")
SIZE_MATCH = 0.15  # a listed model within 15% of the stated size is a recipe for that size (8B for Qwen3-8B's 8.2B)


def judge(
    stack: Stack, workload: str, profile: Profile, device: Device | None, platform: Platform, knowledge: KnowledgeBase
) -> Judged:
    """The stack's misfits and its rank: fewest misfits, the asked precision as its default, an LLM served by an
    LLM serving engine, a recipe written for the model the profile names, a page naming the kind of training asked
    (LoRA), a current stack, a server before a page's script, the platform's own order, the vendor's or
    the runner's project's page before a third party's, the most specific (fewest model types, fewest devices), its
    id. A training stack is read with its settings for the profile's kind of training."""
    if workload == "training":
        stack = stack.for_training(profile.training)
    stack = stack.for_method(profile.needs.quantization_method if profile.needs.quantized else None)
    stack = stack.for_model(profile.model_name)
    stack = stack.for_device(device.id if device is not None else None)
    accepted = stack_accepts(stack, profile, platform, workload)
    found = misfits(stack, profile, device, platform, knowledge, workload, accepted)
    scope = stack.applies_to
    default_matches = scope.precisions[0] in accepted
    # a generic route's example models are no assumption: the route is for any model (example_models)
    model_assumed = (
        bool(scope.models)
        and profile.model_name is None
        and stack.example_models is None
        and not pretraining_size_reference(scope.models, profile)
    )
    # a recipe for a model of the same architecture, or for another size of the same series
    kin = shared_architecture(scope.models, profile.model_name) or size_sibling(scope.models, profile.model_name)
    # a generic route whose page runs this model as its example is no recipe written for it (vLLM's pooling page), nor
    # is a demo script (TensorRT's FLUX demo, review 84 p02): a released route for any model comes first
    for_this_model = written_for(scope.models, profile.model_name) and not generic_route(stack)
    # a serving recipe whose default is a quantized format the float job does not ask lists the models it quantizes
    # (vllm-gaudi's FP8 page): for a bf16 job it is no recipe written for the model, so a float page that fits as well
    # is not weighed behind it (review 238 p07: the FP8 launch line handed to a bf16 service)
    # (a floating 8- or 4-bit default only: a page leading with int8 lists the models it tested in either format, as
    # OVMS's rerank demo does)
    quantized_list = (
        workload == "inference"
        and not profile.needs.quantized
        and not default_matches
        and scope.precisions[0] in CALIBRATED_DEFAULTS
    )
    rank = Rank(
        device_unnamed=False,
        weight=rank_weight(
            found,
            model_assumed,
            (for_this_model or kin is not None) and not quantized_list,
            profile.model_name is not None and (kin is None or quantized_list),
            stack,
        ),
        apart_from_rollouts=False,
        other_default=not default_matches,
        model_assumed=model_assumed,
        not_for_this_model=not (for_this_model or kin is not None),
        # a recipe for another model of this architecture, or for the model's instruction-tuned release
        architecture_only=kin is not None
        or (for_this_model and not written_exactly_for(scope.models, profile.model_name)),
        architecture_hops=len(kin.sources) if isinstance(kin, ArchitectureKin) else 0,
        kind_unnamed=workload == "training" and training_kind_unnamed(scope, profile.training),
        superseded=stack.superseded is not None,
        script_only=any(misfit.kind == "script_only" for misfit in found),
        preview=stack.preview is not None,
        general_engine=general_engine(stack, workload, profile, knowledge),
        framework_apart=framework_apart(stack, workload, profile, knowledge),
        heavier_framework=heavier_framework(stack, workload, profile, knowledge),
        large_model_route=workload == "training"
        and profile.training == "lora"  # a full fine-tune's optimizer state is what ZeRO shards: its order stays
        and stack.for_large_models is not None
        and not training_state_outgrows_one_device(profile, device),
        preference=preference_index(stack, platform, workload, profile.llm, is_mobile(device)),
        third_party=stack.third_party is not None,
        model_types=len(scope.model_types),
        devices=len(scope.devices),
        older_release=False,
        stack_id=stack.id,
    )
    answering = [p for p in scope.precisions if p in accepted]
    native = [p for p in answering if device is None or p in device.formats or p in scope.weight_only]
    if workload == "training":  # a training recipe's own format (MLX trains in bf16 on GPUs whose list has no bf16)
        native = answering
    precision: str = next(iter(native or answering), scope.precisions[0])  # serving: one the device documents
    if any(misfit.kind == "precision_setting" for misfit in found):  # the trainer's own mixed-precision setting
        precision = mixed_by_setting(stack, accepted, workload) or precision
    elif any(misfit.kind in FALLBACK_KINDS for misfit in found):
        precision = float_fallback(stack, profile, device, platform) or precision
    elif any(misfit.kind == "lower_precision" for misfit in found):  # it serves the lower format it documents (int4)
        lower = LOWER_PRECISIONS.get(profile.needs.quantization, ())
        precision = next((p for p in scope.precisions if p in lower), precision)
    return Judged(stack=stack, workload=workload, misfits=found, rank=rank, precision=precision)


def generic_route(stack: Stack) -> bool:
    """Its models are examples, not the models it is written for: a generic route's example checkpoint, or a preview
    demo script's."""
    return stack.example_models is not None or (stack.preview is not None and stack.script_only is not None)


def rank_weight(
    found: Sequence[Misfit], model_assumed: bool, for_this_model: bool, model_named: bool, stack: Stack
) -> int:
    """The misfits' weight in half units, for ranking: a recipe for named models, taken for a profile that names none,
    weighs a little against it (a stack written for any model that fits as nearly comes first); the recipe for the
    model the profile names (or a model of its architecture or series: DeepSeek-R1's for DeepSeek-V3), validated on a
    sibling of the target in its generation (B200 for a GB200), weighs half its device misfit, and a stack written for no model half a unit, so that recipe comes after one for the model on
    the target itself and before a generic stack validated there. A preview (its page calls it experimental) weighs
    half a unit too: a released, supported recipe for another size of the model comes first (review 110 p04: verl's
    experimental fully-async trainer over its main GRPO recipe for Qwen3-8B, for a Qwen3-32B job). A route its vendor's
    current release no longer carries weighs SUPERSEDED_WEIGHT half units (see policy.py)."""
    doubled = [misfit.weight * 2 for misfit in found]
    if for_this_model:
        doubled = [w // 2 if m.kind == "same_generation" else w for w, m in zip(doubled, found, strict=True)]
    generic = 1 if model_named and not for_this_model else 0
    unsettled = int(stack.preview is not None) + SUPERSEDED_WEIGHT * int(stack.superseded is not None)
    return sum(doubled) + (2 * ASSUMED_MODEL_WEIGHT if model_assumed else 0) + generic + unsettled


def training_kind_unnamed(scope: StackScope, kind: str | None) -> bool:
    """Between training stacks that fit alike, the one whose page names the kind of training asked comes first (a LoRA
    recipe before a page that states none); a job naming no kind is taken to train every weight, so a page documented
    for adapters only comes after one that fits as well."""
    if kind is not None:
        return kind not in scope.training
    return bool(scope.training) and not any(k in WHOLE_MODEL_TRAINING for k in scope.training)


# Misfits that make a stack no stack for this model: another model type, another class of device (a phone runtime
# for a server), or, for a recipe written for named models, another model than the one named.
OTHER_MODEL_KINDS = ("other_model", "device_class")
NOT_THIS_MODEL_KINDS = (*OTHER_MODEL_KINDS, "named_model", "named_model_training")


def other_model(item: Judged) -> bool:
    """The stack is documented for another kind of model, or another class of device: the last a team asks about."""
    return any(misfit.kind in OTHER_MODEL_KINDS for misfit in item.misfits)


def same_kind(stack: Stack, profile: Profile) -> bool:
    """The stack is documented for the profile's model type, a near one, or another language model type."""
    kind = profile.model_type
    return any(
        listed == kind or (kind, listed) in NEAR_MODEL_TYPES or {kind, listed} <= set(LLM_MODEL_TYPES)
        for listed in stack.applies_to.model_types
    )


def for_other_models(item: Judged) -> bool:
    """The stack does not run this model: other_model, or a recipe written for other named models."""
    return any(misfit.kind in NOT_THIS_MODEL_KINDS for misfit in item.misfits)


def other_precision(item: Judged) -> bool:
    """The stack runs another precision than the one asked: a team asks first about the stacks in its own precision,
    even those its device rules out."""
    return any(misfit.kind in OTHER_PRECISION_KINDS for misfit in item.misfits)


def serves_the_task(stack: Stack, profile: Profile, workload: str) -> bool:
    """A serving stack serves what the profile's model returns: an embedding model gets only stacks that document
    embeddings, a generating model never an embedding-only stack. Training stacks are not asked."""
    return workload != "inference" or stack.serves_task(profile.serving_task)


def choose_stacks(profile: Profile, knowledge: KnowledgeBase) -> StackChoice:
    """The best stack per workload of the profile, and the other stacks considered (at most MAX_CONSIDERED)."""
    platform = knowledge.platform(profile.hardware)
    device, assumed = target_device(profile, platform)
    chosen: list[Judged] = []
    others: list[Judged] = []
    rollouts: frozenset[str] = frozenset()
    for workload in sorted(workloads(profile), key=lambda name: name != "training"):  # rollout engines first
        judged = sorted(
            behind_newer_releases(
                behind_named_routes(
                    [
                        beside_rollouts(judge(stack, workload, profile, device, platform, knowledge), rollouts)
                        for stack in knowledge.stacks_for(profile.hardware)
                        if workload in stack.applies_to.workloads and serves_the_task(stack, profile, workload)
                    ],
                    device if platform.kind == "accelerator" else None,
                )
            ),
            # beside the rollouts' engine, a serving stack on it goes first among those that fit alike (a generic
            # stack's half unit against a recipe written for the model does not outweigh one engine for both)
            key=lambda item: (item.weight, item.rank.apart_from_rollouts, item.rank) if rollouts else (item.rank,),
        )
        usable = [item for item in judged if item.weight < TOO_FAR]
        # a speech or embedding model no stack serves in the asked format here: one documented in float does (an LLM's
        # concerns assembled one by one still reach a quantizer and engine the knowledge base pairs)
        if (
            not usable
            and profile.needs.quantized
            and (profile.serving_task != "generation" or profile.model_type == "cnn" or float_fits(profile, device))
        ):
            judged = sorted((softened(item, profile, device, platform) for item in judged), key=lambda item: item.rank)
            usable = [item for item in judged if item.weight < TOO_FAR]
        if not usable and workload == "training" and profile.training in NAMED_ONLY_KINDS:
            # an RL job that nothing fits within reach: the recipe that has the loop itself (rollouts, weight sync),
            # missing only in ways the team adapts (verl's dense BF16 GRPO for an FP8 MoE), before an assembled stack
            # with no loop at all (review 82 p15)
            usable = [item for item in judged if {m.kind for m in item.misfits} <= LOOP_ADAPTABLE]
        if usable:
            chosen.append(usable[0])
            rollouts = rollout_engines(usable[0], knowledge) if workload == "training" else rollouts
        others += [item for item in judged if not usable or item is not usable[0]]
    chosen.sort(key=lambda item: item.workload != "inference")  # serving first, as the record reads
    picked = {item.stack.id for item in chosen}
    seen: set[str] = set()
    considered = []
    training_only = profile.workload == "training"  # a job that also serves shares the list with its serving stacks
    has_units = tuple(device.formats) if device is not None else ()  # formats the target has units for
    for item in sorted(others, key=lambda item: considered_order(item, profile.model_name, training_only, has_units)):
        if item.stack.id not in picked and item.stack.id not in seen:
            seen.add(item.stack.id)
            considered.append(item)
    same_model = [item for item in considered if not other_model(item)]
    if len(same_model) >= MIN_CONSIDERED:  # a diffusion or CNN stack is no option a team serving an LLM asks about
        considered = same_model
    else:  # below that, stacks for a model of the same kind fill the list; a diffusion page is no option for a CNN
        considered = [item for item in considered if not other_model(item) or same_kind(item.stack, profile)]
    native = native_alternative(chosen, considered, device)
    if native is not None:  # the chosen stack runs the asked format weight-only: the device's own 8-bit path first
        considered = [native, *(item for item in considered if item is not native)]
    return StackChoice(
        device=device,
        device_assumed=assumed,
        chosen=tuple(chosen),
        considered=engines_first(considered, chosen),
    )


def engine_of(item: Judged) -> str:
    """The knowledge-base engine or framework that runs the stack (its own id where its runner is unlisted)."""
    runner = item.stack.runner
    return runner.candidate if runner is not None and runner.candidate is not None else item.stack.id


def engines_first(considered: Sequence[Judged], chosen: Sequence[Judged]) -> tuple[Judged, ...]:
    """The first MAX_CONSIDERED options, where an option past the cut takes the place of the heaviest one repeating an
    engine already listed or chosen: an engine not listed yet that misses the profile less than that repeat (or fits as
    nearly as a chosen stack), or any option that fits as nearly as a chosen stack and misses less than the repeat. A
    record weighs each engine once before a third recipe of one (review 166 p05: MindIE behind SGLang's and vLLM's
    recipes for another size of Qwen3; LLaMA-Factory behind three MindSpeed LLM text recipes for a Qwen2.5-VL LoRA), and
    a stack that fits whole before a recipe for another model (MindSpeed's generic route for a Qwen3-8B LoRA)."""
    kept = list(considered[:MAX_CONSIDERED])
    nearest = min((item.weight for item in chosen), default=0)
    for late in considered[MAX_CONSIDERED:]:
        listed = {engine_of(item) for item in (*chosen, *kept)}
        new_engine, as_near = engine_of(late) not in listed, late.weight <= nearest
        if late.weight >= TOO_FAR or not (new_engine or as_near):
            continue
        repeats = [
            index
            for index, item in enumerate(kept)
            if engine_of(item) in {engine_of(other) for other in (*chosen, *kept[:index])}
            and (item.weight > late.weight or (new_engine and as_near and item.weight >= late.weight))
            # a page that excludes the target device says why its engine's recipe is no route here: it stays
            and not any(misfit.kind == "excluded" for misfit in item.misfits)
        ]
        if repeats:
            del kept[max(repeats, key=lambda index: (kept[index].weight, index))]
            kept.append(late)
    return tuple(kept)


def named_on_device(item: Judged, device: Device | None) -> bool:
    """A released route whose page validates it on the target device itself and that fits the profile otherwise (a
    script where a server is wanted aside): no preview or superseded route, no misfit of device, format or model."""
    stack = item.stack
    return (
        device is not None
        and device.id in stack.applies_to.devices
        and stack.devices_unnamed is None
        and stack.preview is None
        and stack.superseded is None
        and all(misfit.kind in ("script_only", "upstream_model_type") for misfit in item.misfits)
    )


def behind_named_routes(judged: list[Judged], device: Device | None) -> list[Judged]:
    """Where a released route is validated on the target device itself, a stack whose page names no device comes
    after it (Diffusers' torchao FP8 page, for any GPU of its compute capability, after the FLUX.1-dev NIM on an H100)."""
    named = [item for item in judged if named_on_device(item, device)]
    if not named:
        return judged
    # a script validated on the device does not put a server that names no device behind it (review 221 p15: IGIE's
    # ResNet-50 benchmark script chosen over Iluvatar's Triton IGIE backend for a service on the MR-V100)
    servers_named = any(not script_only(item) for item in named)
    return [
        replace(item, rank=item.rank._replace(device_unnamed=True))
        if item.stack.devices_unnamed is not None and (servers_named or script_only(item))
        else item
        for item in judged
    ]


def script_only(item: Judged) -> bool:
    """The stack misses the profile as a script where a server is wanted."""
    return any(misfit.kind == "script_only" for misfit in item.misfits)


REQUANTIZED = re.compile(r"^\s*(\S+) in place of (\S+)")


def released_as_asked_but_requantized(stack: Stack, profile: Profile, workload: str) -> Misfit | None:
    """A serving stack that serves a vendor's requantization of the model in place of its release, where the release
    is already in the format asked (AMD's MXFP4-weight, FP8-activation gpt-oss-120b for an MXFP4 ask): a lesser fit than
    a stack that serves the release as published, whose accuracy is the publisher's (reviews 174-182 p03)."""
    named = profile.model_name
    if workload != "inference" or named is None:
        return None
    known = size_of(named)
    released = known.released_format if known is not None else None
    asks_release = not profile.needs.quantized or released in PRECISIONS_FOR[profile.needs.quantization]
    if released is None or not asks_release:  # a float ask of a model released quantized serves the release
        return None
    checkpoint = requantized_checkpoint(stack, named)
    if checkpoint is None:
        return None
    return Misfit(
        "requantized_release",
        f"it serves {checkpoint}, a requantization of {named}, in place of the {released} release itself, whose "
        "accuracy the publisher vouches for",
    )


def requantized_checkpoint(stack: Stack, model: str) -> str | None:
    """The vendor's requantization of the model that the stack's quantization part serves in place of its release, or
    None where the stack serves the release (or names no such checkpoint)."""
    return next(
        (
            checkpoint
            for component in stack.components
            if component.role == "quantization"
            and (checkpoint := requantization_of(component.setting or "", model)) is not None
        ),
        None,
    )


def requantization_of(setting: str, model: str | None) -> str | None:
    """The checkpoint a stack's quantization setting serves in place of the model's own release ('amd/gpt-oss-120b-w-
    mxfp4-a-fp8 in place of openai/gpt-oss-120b on gfx950'), or None."""
    found = REQUANTIZED.match(setting)
    return found.group(1) if found is not None and model is not None and found.group(2) == model else None


def release_numbers(pin: str) -> tuple[int, ...] | None:
    """The numbers of a pinned release ('4.3.0' of '4.3.0', '25.09' of '"25.09"'), or None for a pin naming none."""
    found = re.match(r"\s*v?(\d+(?:\.\d+)*)", pin)
    return tuple(int(part) for part in found.group(1).split(".")) if found is not None else None


def compared_pins(
    mine: Mapping[str, str], theirs: Mapping[str, str]
) -> Iterator[tuple[str, tuple[int, ...], tuple[int, ...]]]:
    """Each package both pin at releases that name numbers, in `mine`'s order: its name and the two releases' numbers
    (this side's first)."""
    for name in mine:
        ours = release_numbers(mine[name])
        their = release_numbers(theirs[name]) if name in theirs else None
        if ours is not None and their is not None:
            yield name, ours, their


def older_pin(item: Judged, other: Judged) -> str | None:
    """A package both stacks pin of which this one pins the older release (the first by name), or None."""
    pins = sorted(compared_pins(item.stack.validated_with, other.stack.validated_with))
    return next((name for name, ours, their in pins if ours < their), None)


def pins_older(item: Judged, other: Judged) -> bool:
    """The two stacks pin a package in common, and this one pins an older release of it."""
    return older_pin(item, other) is not None


def behind_newer_releases(judged: list[Judged]) -> list[Judged]:
    """A stack that fits as another does (the same misfits) but pins an older release of a package they share comes
    after it."""

    def older(item: Judged) -> bool:
        kinds = {misfit.kind for misfit in item.misfits}
        return any(
            other is not item
            and other.rank.weight == item.rank.weight
            and {misfit.kind for misfit in other.misfits} == kinds
            and pins_older(item, other)
            for other in judged
        )

    return [replace(item, rank=item.rank._replace(older_release=True)) if older(item) else item for item in judged]


def rollout_engines(trained: Judged, knowledge: KnowledgeBase) -> frozenset[str]:
    """The serving engines a chosen training stack runs for its own rollouts (NeMo RL's and verl's vLLM generation)."""
    known = set(knowledge.ids())
    return frozenset(
        component.candidate
        for component in trained.stack.components
        if component.candidate in known and knowledge.layer_of(component.candidate) == "serving-engine"
    )


def beside_rollouts(item: Judged, rollouts: frozenset[str]) -> Judged:
    """A serving stack judged for a job whose training recipe runs a serving engine for its rollouts: one on another
    engine ranks after one on that engine (one engine to build, version and tune, and the trained weights load where
    they were generated)."""
    if item.workload != "inference" or not rollouts:
        return item
    runner = item.stack.runner
    apart = runner is None or runner.candidate not in rollouts
    return replace(item, rank=item.rank._replace(apart_from_rollouts=apart)) if apart else item


def float_fits(profile: Profile, device: Device | None) -> bool:
    """A generating model whose bf16 weights fit the job's devices: where no stack here documents the asked format, a
    documented stack serving it in its own format comes before concerns assembled one by one (review 135 p08: an AWQ
    INT4 ask on Hygon, whose stacks document bf16 and INT8 W8A8)."""
    held = devices_to_hold(profile, device, "bf16")
    return held is not None and held[1] <= profile.needs.devices


def softened(item: Judged, profile: Profile, device: Device | None, platform: Platform) -> Judged:
    """Where no stack of the workload documents the asked quantized format for this speech, embedding or image profile, a
    stack's other-precision misfit becomes a float fallback it states (Whisper on Graviton: Arm's page runs bf16), so a
    documented stack in float comes before concerns assembled one by one."""
    fallback = float_fallback(item.stack, profile, device, platform)
    if fallback is None or not any(misfit.kind == "precision" for misfit in item.misfits):
        return item
    asked = profile.needs.quantization
    misfits = (
        *(misfit for misfit in item.misfits if misfit.kind != "precision"),
        Misfit(
            "float_everywhere",
            f"no stack documents {asked} for this profile here; this one serves {fallback}, {asked}'s fallback",
        ),
    )
    for_this_model = written_for(item.stack.applies_to.models, profile.model_name) and not generic_route(item.stack)
    named = profile.model_name is not None and not item.rank.architecture_only  # as judge weighs it
    weight = rank_weight(misfits, item.model_assumed, for_this_model, named, item.stack)
    return Judged(
        stack=item.stack,
        workload=item.workload,
        misfits=misfits,
        rank=item.rank._replace(weight=weight),
        precision=fallback,
    )


def native_alternative(chosen: Sequence[Judged], considered: Sequence[Judged], device: Device | None) -> Judged | None:
    """Where the chosen serving stack runs the asked format weight-only on this device (FP8 through Marlin on an A100),
    a considered stack of the same model type that documents the other 8-bit format there and the device runs it
    natively (INT8 W8A8 on the A100's tensor cores): the option the team weighs against it."""
    serving = next((item for item in chosen if item.workload == "inference"), None)
    if serving is None or device is None or serving.precision not in serving.stack.applies_to.weight_only:
        return None
    other = SAME_WIDTH_FORMATS.get(serving.precision)
    return next(
        (
            item
            for item in considered
            if item.workload == "inference"
            and other in item.stack.applies_to.precisions
            and other in device.formats
            and other not in item.stack.applies_to.weight_only
            and device.id in item.stack.applies_to.devices
            and not any(m.kind in (*NEAR_TYPE_KINDS, "named_model", "excluded") for m in item.misfits)
        ),
        None,
    )


def considered_order(
    item: Judged, model: str | None = None, training_only: bool = False, native: Sequence[str] = ()
) -> tuple[bool, bool, bool, bool, bool, bool, Rank]:
    """How the options a team asks about come: stacks for this kind of model before another; in a job that only trains,
    those for the kind of training asked (LoRA) before those documented for another kind only (pre-training); in the
    asked precision before another; a native path before a weight-only one for another device (`native`: the formats
    the target has units for); a recipe for this model type (another model's: TensorRT-LLM's DeepSeek recipe for a
    DeepSeek-V3.1 job) before a stack documented for a neighbouring type (a dense-model recipe); among recipes for
    other models, those for a sibling from the same publisher (GLM-4.5's for GLM-4.5-Air) first; then by rank."""
    near_type = any(misfit.kind in NEAR_TYPE_KINDS for misfit in item.misfits)
    other_kind = training_only and any(
        misfit.kind in ("training_kind", "training_kind_no_start", "training_loop") for misfit in item.misfits
    )
    # a weight-only path for a device without the format's units (FP8 Marlin on an A100), where the target has them,
    # after the native ones
    weight_only = item.precision in item.stack.applies_to.weight_only and item.precision in native
    # a recipe for other named models that is validated on another generation too is two steps away: with the
    # stacks for other models, at the end
    # (so is a stack for a neighbouring model type validated on another generation: MaxText's v5p Mixtral recipe for a
    # dense pre-training on v6e, after the same type's SFT stack)
    far_recipe = (for_other_models(item) or near_type) and any(
        misfit.kind in OTHER_GENERATION_KINDS for misfit in item.misfits
    )
    return (
        other_model(item) or far_recipe,
        other_kind,
        other_precision(item),
        weight_only,
        near_type,
        # a route for any model whose current release withdrew this model's script is no recipe for another model: it
        # sorts with the siblings' recipes, by rank (scenario 626: MindSpeed's generic route beside ms-swift's Qwen3-32B)
        not (sibling_recipe(item, model) or any(misfit.kind == "withdrawn_model" for misfit in item.misfits)),
        item.rank,
    )


def sibling_recipe(item: Judged, model: str | None) -> bool:
    """A recipe written for other models, one of them published by the profile's model's publisher (the Hugging Face
    organisation of its id) with the same attention layout: a Qwen3.5 recipe (Gated DeltaNet beside full attention) is
    no sibling of a Qwen3 job's."""
    if model is None or "/" not in model or not item.stack.applies_to.models:
        return False
    layout = hybrid_attention(model)
    return any(
        same_publisher(listed, model) and hybrid_attention(listed) == layout for listed in item.stack.applies_to.models
    )


def same_publisher(listed: str, model: str) -> bool:
    """Both Hugging Face ids name one organisation ('stabilityai/...' beside 'stabilityai/...'); an id with none names
    no publisher."""
    return "/" in listed and "/" in model and listed.split("/", 1)[0].lower() == model.split("/", 1)[0].lower()


def weightiest(found: Sequence[Misfit]) -> str | None:
    """The heaviest misfit's text; where it is only that no knowledge-base entry checks the runner's claims, the next
    heaviest too, which says what the stack lacks for this profile (LLaMA-Factory's one-node page for 16 devices)."""
    if not found:
        return None
    # an engine that cannot run the model's architecture there is said before a model list of the same weight (review
    # 149 p12: vLLM Neuron's open request for Qwen3.5 under "written for Llama 3")
    ordered = sorted(found, key=lambda misfit: (-misfit.weight, misfit.kind != "linear_attention_unsupported"))
    if ordered[0].kind in BOOKKEEPING_MISFITS and len(ordered) > 1:
        return f"{ordered[1].text}; and {ordered[0].text}"
    if ordered[0].kind in BOOKKEEPING_MISFITS:  # nothing else misses: say what a team does with it (review 196 p02)
        return (
            f"it fits the profile otherwise, but {ordered[0].text}, so a stack whose runner the knowledge base checks "
            "comes first; weigh it on its own page's versions and formats"
        )
    # a stack for another model says so first: its precision is then no reason a team weighs (review 136 p13: Apple's
    # SpeechAnalyzer "runs fp16" for a Whisper profile, when it runs Apple's own model)
    other = next((misfit for misfit in ordered if misfit.kind in NOT_THIS_MODEL_KINDS), None)
    if other is not None and ordered[0].kind == "precision":
        return f"{other.text}; and {ordered[0].text}"
    # a stack validated only on another generation says so beside its heaviest miss (review 264 p07: vLLM Neuron's
    # Trn2/Trn3 pages set aside for an Inf2 on their int8 support alone)
    generation = next((misfit for misfit in ordered if misfit.kind in OTHER_GENERATION_KINDS), None)
    if (
        generation is not None
        and generation is not ordered[0]
        and ordered[0].kind in (*OTHER_PRECISION_KINDS, "unpublished_checkpoint")
    ):
        return f"{ordered[0].text}; and {generation.text}"
    return ordered[0].text


def decisive_reason(item: Judged, chosen: Judged | None, model: str | None = None) -> str:
    """Why a considered stack was not taken, in one line: its heaviest misfit, or (where it fits as well as the chosen
    one, or misses as much) what put the chosen one first."""
    heaviest = weightiest(item.misfits)
    if chosen is not None and heaviest is None and item.rank.weight > chosen.rank.weight and item.model_assumed:
        return f"fits, but {tie_break(item, chosen, model)}"
    # its misfits outweigh the chosen one's: they are the reason (where they weigh no more, half units put it after:
    # a preview, a route for any model against the recipe for this one)
    if chosen is None or (
        heaviest is not None and item.rank.weight > chosen.rank.weight and item.weight > chosen.weight
    ):
        if heaviest is not None and chosen is not None and preview_only(item, chosen):
            # a generic route's example is a light miss; that its page calls it experimental is said too (review
            # 224 p03: verl's fully-async trainer against its main GRPO recipe)
            preview = item.stack.preview.value.rstrip(".") if item.stack.preview is not None else ""
            return f"{heaviest}; and its page calls it a preview ({preview}), where {chosen.stack.name} is released"
        if heaviest is not None and chosen is not None and superseded_only(item, chosen):
            # review 258 p09: an NxD Inference stack on Trn2 after Neuron 2.34 ended it there was set aside for its
            # model; that its vendor no longer carries the route at all is the reason that decides
            superseded = item.stack.superseded.value.rstrip(".") if item.stack.superseded is not None else ""
            return f"{superseded} (besides: {heaviest})"
        return heaviest or "fits"
    if heaviest is None and chosen.misfits and unstated_length(item, chosen):
        # review 237 p02: "fits the whole profile" beside a chosen 8,192-token recipe read as a contradiction; the page
        # fits only because it states no length
        lead = (
            "fits the whole profile as far as its page says: it states no sequence length, so the long-context length "
            "and layout are as much yours to size on it"
        )
    elif heaviest is None:
        lead = "fits as well" if not chosen.misfits else "fits the whole profile"
    elif chosen.misfits:  # both miss as much
        top = max(item.misfits, key=lambda misfit: misfit.weight).kind
        shared = any(misfit.kind == top for misfit in chosen.misfits)
        lead = f"{heaviest}, as is the chosen one" if shared else f"{heaviest}; the chosen one misses as much or more"
    else:  # a misfit that weighs nothing (a recipe for a model of the same architecture)
        lead = heaviest
    return f"{lead}; {tie_break(item, chosen, model)}"


SHORT_LENGTH_KINDS = ("short_sequence_recipe", "context_capped")


def unstated_length(item: Judged, chosen: Judged) -> bool:
    """The chosen stack misses only on the length its recipe trains or its launch serves, and the item, which fits,
    states no length of its own: it fits by silence, not by a longer recipe."""
    if not all(misfit.kind in SHORT_LENGTH_KINDS for misfit in chosen.misfits):
        return False
    if item.workload == "training":
        return trained_sequence(item.stack) is None
    return context_cap(item.stack) is None


def superseded_only(item: Judged, chosen: Judged) -> bool:
    """The item's vendor no longer carries its route on the current release, and the chosen stack's does."""
    return item.rank.superseded and not chosen.rank.superseded and item.stack.superseded is not None


def preview_only(item: Judged, chosen: Judged) -> bool:
    """The item is a preview on its own page and the chosen stack is not, and it misses only as a generic route's
    example does."""
    return (
        item.rank.preview
        and not chosen.rank.preview
        and item.stack.preview is not None
        and all(misfit.kind in EXAMPLE_KINDS for misfit in item.misfits)
    )


def throughput_run(workload: str) -> str:
    """The measurement that decides between two stacks that fit alike."""
    return "a throughput run at your SLA" if workload == "inference" else "a training throughput run"


# Where a considered stack's reason sends the reader to a race among the switch conditions (the engine keeps the
# pointer only where such a race is listed: raced_as_said).
SEE_SWITCHES = "(see the switch conditions)"


def run_decides(workload: str) -> str:
    """'<the throughput run> on the target decides (see the switch conditions)'."""
    return f"{throughput_run(workload)} on the target decides {SEE_SWITCHES}"


def tie_break(item: Judged, chosen: Judged, model: str | None = None) -> str:
    """What put the chosen stack before one that fits as well (or misses as much); `model`: the profile's, which a
    recipe written for several models is named by."""
    if item.rank.apart_from_rollouts and not chosen.rank.apart_from_rollouts:
        return (
            f"{chosen.stack.runner_name} is the engine the training recipe already runs for its rollouts: one engine "
            "to build, version and tune, and the trained weights load where they were generated; "
            f"{throughput_run(item.workload)} on the target decides"
        )
    if item.rank.device_unnamed and not chosen.rank.device_unnamed and item.stack.devices_unnamed is not None:
        unnamed = item.stack.devices_unnamed.value.rstrip(".")
        return f"its page names no device ({unnamed}); {chosen.stack.name} is validated on this one by its page"
    if (
        item.rank.preview
        and not chosen.rank.preview
        and item.stack.preview is not None
        and item.weight == chosen.weight
    ):
        preview = item.stack.preview.value.rstrip(".")
        return f"its page calls it a preview ({preview}); {chosen.stack.name} is a released route"
    if item.rank.other_default and not chosen.rank.other_default:
        default = item.stack.applies_to.precisions[0]
        if item.precision in item.stack.applies_to.precisions[1:]:  # it documents the asked format, after another
            return (
                f"its page leads with {default} and documents {item.precision} beside it, while "
                f"{chosen.stack.name} is documented for {chosen.precision} first; {throughput_run(item.workload)} on "
                "the target decides between them"
            )
        if any(misfit.kind == "precision_setting" for misfit in item.misfits):  # its lead already says fp32
            return (
                f"{chosen.stack.name} runs {chosen.precision} as its page ships it, where this one needs that setting"
            )
        return f"its default precision is {default}, not the one asked"
    if item.model_assumed and not chosen.model_assumed:
        return (
            f"it is written for {few_of(item.stack.applies_to.models)} and the profile names no model; "
            f"{chosen.stack.name} is written for any"
        )
    # a preview or superseded route weighs half a unit (rank_weight): that, not the model, is what put it after
    if item.rank.superseded and not chosen.rank.superseded and item.stack.superseded is not None:
        return f"{item.stack.superseded.value}; {chosen.stack.name} is carried by the vendor's current release"
    if item.rank.preview and not chosen.rank.preview and item.stack.preview is not None:
        preview = item.stack.preview.value.rstrip(".")
        return f"its page calls it a preview ({preview}); {chosen.stack.name} is a released route"
    if item.rank.not_for_this_model and not chosen.rank.not_for_this_model:
        listed = chosen.stack.applies_to.models
        written = ", ".join([m for m in listed if written_for([m], model)] or listed[:2])
        if chosen.rank.architecture_only:
            return f"{chosen.stack.name} is a recipe written for a model of this one's architecture ({written})"
        return f"{chosen.stack.name} is the recipe written for the model named ({written})"
    if item.rank.architecture_only and not chosen.rank.architecture_only:
        listed = [
            m for m in chosen.stack.applies_to.models if written_for([m], model)
        ] or chosen.stack.applies_to.models
        return (
            f"{chosen.stack.name} lists the model itself ({', '.join(listed[:2])}; its watch lines say how far its "
            "page covers it); this one lists only a model of its architecture"
        )
    if item.rank.kind_unnamed and not chosen.rank.kind_unnamed:
        kinds = item.stack.applies_to.training
        if kinds and not any(kind in WHOLE_MODEL_TRAINING for kind in kinds):  # the profile names no kind
            return (
                f"its page trains {', '.join(kinds)} adapters only and the profile names no kind of training, taken "
                f"as training every weight; {chosen.stack.name} is not limited to adapters"
            )
        return (
            f"{chosen.stack.name} is documented for {', '.join(chosen.stack.applies_to.training)} by name; this "
            f"stack's page does not say it trains that"
        )
    if item.rank.script_only and not chosen.rank.script_only and item.stack.script_only is not None:
        return (
            f"its page ships a script, not a server ({item.stack.script_only.value}), where {chosen.stack.name} is "
            "one: its engine build and figures are a reference for the server's, not a service to run"
        )
    if item.rank.general_engine and not chosen.rank.general_engine:
        return (
            f"{item.stack.runner_name} serves embeddings as a mode of an engine built for generation; "
            f"{chosen.stack.runner_name} is built for them, and {run_decides(item.workload)}"
        )
    if item.rank.framework_apart and not chosen.rank.framework_apart:
        return (
            f"{item.stack.runner_name} does not run on every family this job must run on; {chosen.stack.runner_name} "
            f"does, so one training code path serves them all, and {run_decides(item.workload)}"
        )
    if item.rank.heavier_framework and not chosen.rank.heavier_framework:
        return (
            f"{item.stack.runner_name} is built for pre-training too, while {chosen.stack.runner_name} is a fine-tuning "
            "tool with its own recipes and launcher, the lighter route for a framework team; "
            f"{run_decides(item.workload)}"
        )
    if item.rank.large_model_route and not chosen.rank.large_model_route and item.stack.for_large_models is not None:
        return (
            f"its page is the route for models that outgrow one device ({item.stack.for_large_models.value.rstrip('.')})"
            f", and this job's training state fits one; {run_decides(item.workload)}"
        )
    if item.rank.older_release and not chosen.rank.older_release:
        package = older_pin(item, chosen)
        if package is not None:
            theirs, mine = chosen.stack.validated_with[package], item.stack.validated_with[package]
            return f"{chosen.stack.name} is validated on a newer release ({package} {theirs} against {mine})"
    if item.rank.third_party and not chosen.rank.third_party and item.rank.preference == chosen.rank.preference:
        documented = item.stack.third_party.value if item.stack.third_party is not None else "a third party"
        return (
            f"its page is a third party's ({documented}); {chosen.stack.name} is documented by the vendor or its "
            f"runner's own project, and {run_decides(item.workload)}"
        )
    if item.stack.runner_key != chosen.stack.runner_key:
        native = written_for(chosen.stack.applies_to.native_models, model) and not written_for(
            item.stack.applies_to.native_models, model
        )
        first = (
            # review 267 p06: vLLM JAX implements Qwen3 in JAX; vLLM TorchTPU runs vLLM's PyTorch code for it
            f"{chosen.stack.runner_name} runs {model} through an implementation of its own, where "
            f"{item.stack.runner_name} runs the upstream framework's code for it"
            if native
            else f"{chosen.stack.runner_name} comes first in the platform's documentation"
            if item.rank.preference > chosen.rank.preference
            else "nothing documented puts one first"
        )
        return f"{first}, and {run_decides(item.workload)}"
    if item.rank.model_types > chosen.rank.model_types:
        return f"{chosen.stack.name} is the recipe for {', '.join(chosen.stack.applies_to.model_types)} specifically"
    return f"an equal alternative to {chosen.stack.name}"


def stack_option(
    item: Judged, chosen: Judged | None, *, picked: bool, model: str | None = None, fit: str = "fits the whole profile"
) -> StackOption:
    """One row of the record's "Stacks considered" table; a stack not chosen whose own risk names the profile's model
    says what it says of it (vLLM TPU's multimodal matrix tests gemma-3-27b-it as text only); `fit`: how a chosen
    stack with no misfit fits (whole_fit)."""
    runner = item.stack.runner
    reason = (
        ("; ".join(m.text for m in item.misfits) if item.misfits else fit)
        if picked
        else decisive_reason(item, chosen, model)
    )
    if picked and item.misfits and fit == SHORT_OF_DEVICES:  # a partial fit short of devices says both (review 49)
        reason += "; and not its device count: the model does not fit the devices named (see capacity)"
    said = risk_naming(item.stack, model) if not picked else None
    if said is not None:
        reason += f"; its page on this model: {said}"
    return StackOption(
        stack=item.stack.id,
        name=item.stack.name,
        workload=item.workload,
        runner=runner.name if runner else "",
        precisions=tuple(item.stack.applies_to.precisions),
        fits=item.fits,
        chosen=picked,
        reason=reason,
        source=item.stack.source,
    )


def risk_naming(stack: Stack, model: str | None) -> str | None:
    """The stack's first risk that names the model (its Hugging Face id), or None."""
    if model is None:
        return None
    return next((risk.value for risk in stack.risks if model.lower() in risk.value.lower()), None)


SHORT_OF_DEVICES = (
    "fits the profile's needs, but not its device count: the model does not fit the devices named (see capacity)"
)


def whole_fit(item: Judged, choice: StackChoice, sides: Sequence[str], short: Sequence[str]) -> str:
    """How a chosen stack with no misfit fits: the whole profile, or, where the profile's devices cannot hold the
    model state of its workload (`short`), its needs but not its device count, or, where the other side of a job that
    trains and serves has no documented stack (`sides`: the profile's workloads), its own side."""
    if ("serving" if item.workload == "inference" else item.workload) in short:
        return SHORT_OF_DEVICES
    if any(choice.for_workload(side) is None for side in sides):
        return f"fits the {item.workload} side of the job"
    return "fits the whole profile"


def options_considered(
    choice: StackChoice, profile: Profile, sides: Sequence[str] = (), short: Sequence[str] = ()
) -> tuple[StackOption, ...]:
    """The chosen stacks first, then the others, each with its decisive reason (and, for a recipe written for a model
    of the job's size, its layout as the sizing reference); a chosen stack's fit as whole_fit words it from `sides`
    and `short`."""
    rows = [stack_option(item, item, picked=True, fit=whole_fit(item, choice, sides, short)) for item in choice.chosen]
    for item in choice.considered:
        chosen = choice.for_workload(item.workload)
        row = stack_option(item, chosen, picked=False, model=profile.model_name)
        reference = size_reference(item, chosen, profile)
        rows.append(row if reference is None else row.model_copy(update={"reason": f"{row.reason}; {reference}"}))
    return tuple(rows)


def size_reference(item: Judged, chosen: Judged | None, profile: Profile) -> str | None:
    """A training recipe not chosen, written for a model of the job's size, whose layout for the kind of training asked
    is the nearest one documented where the chosen stack is written for no such model (review 258 p06: a 72B
    pre-training got MindSpeed's 8B quick start while its 72B recipe, whose release leaves maintenance, was only
    turned down): that layout is the sizing reference."""
    if item.workload != "training" or chosen is None or chosen.written_for_this_model:
        return None
    if any(misfit.kind.startswith(("training_kind", "training_loop")) for misfit in item.misfits):
        return None  # another kind of training's layout (an RL loop's meshes) sizes no pre-training (review 261 p08)
    size = model_parameters_b(profile)
    if size is None or any(same_size(model, size) for model in chosen.stack.applies_to.models):
        return None
    model = next((model for model in item.stack.applies_to.models if same_size(model, size)), None)
    layout = next((part for part in item.stack.components if part.role == "parallelism"), None)
    if model is None or layout is None:
        return None
    if not layout.setting:  # the judged stack's parts are already set for the kind of training asked
        return None
    # the layout must be the model's: a page written for several models whose layout names others (Primus's native
    # SFT-LoRA guide lists Llama-2-70B while its layouts are Qwen3 MoE ones; review 261 p04) is no size reference
    short = model.split("/")[-1]
    all_this_size = all(same_size(listed, size) for listed in item.stack.applies_to.models)
    if not all_this_size and short.lower() not in layout.setting.lower():
        return None
    return (
        f"its layout for {model} ({layout.setting}) is the nearest one documented for a {size:g}B model: size this job's "
        "parallelism from it"
    )


def same_size(model: str, size: float) -> bool:
    """The model's id states a size within SIZE_TOLERANCE of `size` (in billions of parameters)."""
    stated = stated_size(model)
    return stated is not None and near_size(stated, size)


MOE_RISK = re.compile(r"\bMoE\b|\bexperts?\b")
DECODE_RISK = re.compile(r"\bKV[- ]cache\b|\bdecod(e|ing)\b|\bchat\b", re.IGNORECASE)


LLM_RISK = re.compile(r"\bLLMs?\b|\bLlama\b")
VISION_LANGUAGE_RISK = re.compile(r"^A vision-language model\b")  # a risk about vision-language models only


def experts_model_type(profile: Profile) -> str:
    """The model type a stack's risks are read for: 'moe' for any model with experts (a vision-language MoE such as
    Llama 4 Scout, planned as multimodal, keeps its stack's MoE warnings), else the profile's own."""
    known = size_of(profile.model_name) if profile.model_name is not None else None
    return "moe" if known is not None and known.active_b is not None else profile.model_type


def risk_concerns(risk: str, model_type: str, embeds: bool = False) -> bool:
    """A stack documented for dense and MoE models warns about its MoE kernels too: not a dense model's risk. A stack
    serving both generation and embeddings warns about its KV cache and decode steps: not an embedding model's risk. A
    stack documented for LLMs and CNNs alike warns about its LLM walkthroughs: not a CNN's or a diffusion model's."""
    if embeds and DECODE_RISK.search(risk):
        return False
    if model_type in ("cnn", "diffusion") and LLM_RISK.search(risk):
        return False
    if model_type != "multimodal" and VISION_LANGUAGE_RISK.search(risk):  # a text model has no vision encoder to export
        return False
    return model_type == "moe" or not MOE_RISK.search(risk)


def released_quantized(item: Judged, quantization: str) -> bool:
    """A serving recipe written for the profile's model that runs the asked quantized format by default: the model is
    released in that format (DeepSeek-V3 in block-wise FP8), so there is no float model to keep and no quantization to
    check against one."""
    if item.workload != "inference" or not item.written_for_this_model:
        return False
    if quantization == "none":  # no quantization asked, and the model ships quantized (gpt-oss in MXFP4)
        return (
            item.stack.applies_to.released_format is not None
            and item.precision == item.stack.applies_to.released_format
        )
    # the recipe's default format is the model's own release format (not a third party's quantized copy of it, such as
    # NVIDIA's ModelOpt FP8 Llama checkpoint, whose accuracy against the float model is still to check)
    released = item.stack.applies_to.released_format
    return (
        item.stack.applies_to.precisions[0] == quantization
        and released in (None, quantization)
        and (
            released is not None
            or not any("-" + quantization.upper() in m.upper() for m in item.stack.applies_to.models)
        )
    )


def names_another_device(risk: str, others: Sequence[str], generations: Collection[str] = ()) -> bool:
    """A stack validated on several devices warns about one of them by its full name ('NVIDIA L40S'), or opens by
    scoping the warning to another of the family's `generations` ('For the FP8 checkpoint on Blackwell (B100/B200),
    ...'): not a risk of another target device."""
    opening = SCOPED_OPENING.match(risk)
    rest = risk[opening.end() :] if opening is not None else ""
    # a generation's whole name, several words long ('Atlas A3', 'CDNA 4', 'TPU v5e'; review 132 p06), ends at a word
    scoped = any(re.match(re.escape(generation) + r"\b", rest) for generation in generations)
    return any(name in risk for name in others) or scoped


# A risk whose first clause names the generation it is about: 'For <what> on Blackwell', 'On Hopper,', 'On Atlas A3'.
SCOPED_OPENING = re.compile(r"(?:For [^,;.]*? on|On) (?=[A-Z])")


def chosen_stack(
    item: Judged, profile: Profile, others: Sequence[str] = (), generations: Collection[str] = ()
) -> ChosenStack:
    """The chosen stack as the recommendation carries it: its parts, versions, page, what does not fit, and the risks
    that concern this model type and target device (`others`: the full names of the family's other devices;
    `generations`: its other generations)."""
    stack = item.stack
    parts = tuple(
        StackPart(role=c.role, name=c.name, candidate=c.candidate, setting=c.setting, source=c.source or stack.source)
        for c in stack.components
    )
    return ChosenStack(
        stack=stack.id,
        name=stack.name,
        workload=item.workload,
        source=stack.source,
        as_of=stack.as_of,
        summary=stack.summary.value,
        parts=parts,
        validated_with=dict(stack.validated_with),
        misfits=tuple(misfit.text for misfit in item.misfits),
        risks=tuple(
            StackRisk(index=index, text=risk.value)
            for index, risk in enumerate(stack.risks)
            if risk_concerns(risk.value, experts_model_type(profile), profile.embeds)
            and not names_another_device(risk.value, others, generations)
            and not about_another_model(risk.value, profile.model_name)
        ),
        preview=stack.preview.value if stack.preview is not None else None,
        models=() if stack.example_models is not None else tuple(stack.applies_to.models),  # examples: any model
        maintained_until=stack.maintained_until.value if stack.maintained_until is not None else None,
        superseded=stack.superseded.value if stack.superseded is not None else None,
        model_assumed=item.model_assumed,
        released_quantized=released_quantized(item, profile.needs.quantization),
    )


def stacks_in(
    choice: StackChoice, profile: Profile, devices: Sequence[Device] = (), knowledge: KnowledgeBase | None = None
) -> Sequence[ChosenStack]:
    """Every chosen stack, serving first, without the risks that name another of the family's `devices` or open on
    another generation; with `knowledge`, a training stack names the serving engines its RL rollouts run on (review 260
    p04: the record's tier-1 list left out verl's SGLang rollout engine)."""
    target = choice.device
    others: list[str] = []
    generations: set[str] = set()
    if target is not None:
        others = [device.name for device in devices if device.id != target.id]
        generations = {  # another generation, not a variant of the target's ('Blackwell' beside 'Blackwell Ultra')
            device.generation
            for device in devices
            if not target.generation.startswith(device.generation)
            and not device.generation.startswith(target.generation)
        }
    chosen = [chosen_stack(item, profile, others, generations) for item in choice.chosen]
    if knowledge is None or profile.training != "rl":
        return chosen
    return [
        stack.model_copy(update={"rollout_engines": tuple(sorted(rollout_engines(item, knowledge)))})
        if item.workload == "training"
        else stack
        for stack, item in zip(chosen, choice.chosen, strict=True)
    ]


def runner_roles(workload: str) -> tuple[str, ...]:
    """The component roles that run the model for a workload."""
    return ("training-framework",) if workload == "training" else ("serving-engine", "runtime")


def training_framework(stack: Stack, knowledge: KnowledgeBase) -> Candidate | None:
    """The knowledge-base candidate of the stack's training framework, where it has one."""
    framework = runner_of(stack, "training", set(knowledge.ids()))
    return knowledge.get(framework.candidate) if framework is not None and framework.candidate else None


def adapters_absent(stack: Stack, knowledge: KnowledgeBase) -> Claim[str] | None:
    """Where the stack's training framework trains no adapters and PEFT cannot wrap it: what its page says."""
    framework = training_framework(stack, knowledge)
    return framework.adapters_absent if framework is not None else None


def runner_of(stack: Stack, workload: str, known: set[str]) -> Component | None:
    """The component with a knowledge-base candidate that runs the model for this workload."""
    return next((c for c in stack.components if c.role in runner_roles(workload) and c.candidate in known), None)


RUNNER_CONCERNS = ("deployment", "training-framework")  # the record's concerns that name what runs the model


def runner_concern(workload: str) -> str:
    """The record's concern that names what runs the model for a workload."""
    return RUNNER_CONCERNS[1] if workload == "training" else RUNNER_CONCERNS[0]
