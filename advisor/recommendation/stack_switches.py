"""The record's one-line verdict and the switch conditions at stack level: a new device generation, and a stack
considered here becoming validated on this device."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from advisor.knowledge.model_sizes import (
    catalogued_release,
    newer_in_series,
    quantized_release,
    size_of,
    vendor_fp8,
    written_for,
)
from advisor.knowledge.models import KnowledgeBase
from advisor.knowledge.platforms import Device, Platform, is_mobile
from advisor.knowledge.stacks import Component, Stack
from advisor.profile import Profile
from advisor.recommendation.adapt import command_replicas, one_engine_over, page_devices
from advisor.recommendation.capacity import (
    SERVING_BYTES_PER_PARAMETER,
    devices_to_hold,
    replica_group,
    training_fleet,
)
from advisor.recommendation.models import AS_RELEASED, Choice, SwitchCondition, Tier
from advisor.recommendation.policy import (
    FLOAT_PRECISIONS,
    FOUR_BIT_ASKS,
    FULL_PRECISIONS,
    IMAGE_QUALITY,
    LONG_CONTEXT_TOKENS,
    LOWER_PRECISIONS,
    MISFIT_WEIGHTS,
    MIXED_FORMATS,
    NAMED_ONLY_KINDS,
    PEAK_MEMORY_MAX,
    PRECISIONS_FOR,
    ROLLOUT_SHARE_MAX,
    TRAINED_PRECISIONS,
    writes_kernels,
)
from advisor.recommendation.rules.tiers import kept_text
from advisor.recommendation.served_format import checkpoint_makers, loadable_int8_release, on_family
from advisor.recommendation.stack_choice import (
    DEVICE_MISFITS,
    EXAMPLE_KINDS,
    OTHER_GENERATION_KINDS,
    OTHER_PRECISION_KINDS,
    RUNNER_CONCERNS,
    Judged,
    Misfit,
    StackChoice,
    choose_stacks,
    compared_pins,
    context_cap,
    decisive_reason,
    engine_of,
    few_of,
    float_fallback,
    native_alternative,
    published_for_others,
    released_quantized,
    requantized_checkpoint,
    risk_naming,
    rollout_engines,
    same_publisher,
    workloads,
)
from advisor.recommendation.switches import models_value, predicate, quantized_models_value, switch
from advisor.recommendation.tier3 import AT_LOAD, PER_FAMILY, float_families
from advisor.serving_task import assumed_text
from advisor.vocabulary import QUANTIZATIONS

MAX_STACK_SWITCHES = 3
FASTER = 1.1  # another engine's measured throughput over the chosen one's from which it takes over
ACCURACY_DROP = 0.01  # absolute drop of a quantized model's task score against bf16 from which it does not ship
ONLY_FOR = re.compile(r"\bonly for [^;]{0,40}?\b\d+(?:\.\d+)?B\b")  # a risk limiting a format to named models ("8B")
SHARED_CHECKPOINT_PACE = 0.9  # the shared checkpoint's throughput over the target's own from which one checkpoint wins
OPEN_ROUTE_PACE = 0.9  # an open route's throughput over a closed engine's from which a kernel team takes it (policy)
LOSS_GAP = 0.01  # relative gap of a low-precision training run's loss over the BF16 run's at the same step
VERBS = {"inference": "serve with", "training": "train with"}
# The formats narrower than each one a stack may run, widest first: a stack documenting one of them has that next step.
NARROWER_FORMATS: dict[str, tuple[str, ...]] = {
    "bf16": ("fp8", "mxfp8"),
    "fp16": ("fp8", "mxfp8"),
    "fp8": ("nvfp4", "mxfp4"),
}
# The same width with finer scales or a wider range: what a run missing its gate moves to before giving up the format,
# and why that one is finer.
FINER_SCALED: dict[str, dict[str, str]] = {
    "fp8": {"mxfp8": "the same width, one scale per small block instead of per tensor"},
    "int8": {"fp8": "the same width in a floating-point format, whose exponent gives it a wider range than int8's"},
}


def verdict(
    choice: StackChoice,
    tier1: Tier,
    profile: Profile,
    tiers: Sequence[Tier] = (),
    short: Sequence[str] = (),
    knowledge: KnowledgeBase | None = None,
) -> str:
    """'Serve with <stack> on <device>; train with <stack>' or, with no documented stack, what tier 1 assembles; `short`
    names the workloads whose model state the profile's devices cannot hold, which the verdict says first."""
    where = choice.device.name if choice.device is not None else profile.hardware
    if choice.device_assumed:
        where += " (assumed: no device named)"
    parts = []
    # the asked format with no checkpoint to serve it from: the float format leads, as it is what serves first (review
    # 187 p07: "serve ... in int8" and "serve bf16 until then" in one verdict)
    nowhere = checkpoint_from_nowhere(choice, tier1, profile, knowledge)
    for judged in choice.chosen:
        fit = (
            ""
            if judged.fits
            else " (" + "; ".join(m.text for m in judged.misfits) + ")"
            if judged.fits_by_architecture
            else " (a partial fit: " + "; ".join(m.text for m in judged.misfits) + ")"
        )
        if nowhere is not None and judged.workload == "inference":
            fallback, reason = nowhere
            parts.append(
                f"{VERBS[judged.workload]} {judged.stack.runner_name} in {fallback}, on the recipe {judged.stack.name}"
                f"{fit}, until an {judged.precision} checkpoint is at hand: {reason}"
            )
            continue
        if (
            judged.stack.superseded is not None
        ):  # the verdict, not only the stack's lines, says it is an older release's
            fit += " (superseded: its software's current release no longer carries it; see the stack's note)"
        default = judged.stack.applies_to.precisions[0]
        split = (  # a job that trains and serves a quantized model: say the format each side runs
            profile.trains and profile.serves and profile.needs.quantized and len(choice.chosen) > 1
        )
        if split and judged.precision == default:
            parts.append(f"{VERBS[judged.workload]} {judged.stack.name} in {judged.precision}{fit}")
        elif judged.precision in judged.stack.applies_to.precision_configs:  # the page's own file for the format
            parts.append(
                f"{VERBS[judged.workload]} {judged.stack.name} in {judged.precision}, with its own "
                f"{judged.precision} configuration{fit}"
            )
        elif judged.precision != default:  # the recipe's other documented format: name the runner and the format first
            parts.append(
                f"{VERBS[judged.workload]} {judged.stack.runner_name} in {judged.precision}, on the recipe "
                f"{judged.stack.name} (whose default is {default}){fit}"
            )
        else:
            parts.append(f"{VERBS[judged.workload]} {judged.stack.name}{fit}")
    if parts:
        parts += uncovered_side(choice, tier1, profile, knowledge)
        parts += current_release_alternative(choice, profile.model_name)
        parts += fallback_for_the_device(choice)
        parts += published_release(choice, profile)
        parts += model_named_elsewhere(choice, profile)
    if not parts:
        options = assembled_options(tier1)
        nearest = next(iter(choice.considered), None)
        near = (
            f" The nearest documented stack, {nearest.stack.name}: {decisive_reason(nearest, None)}." if nearest else ""
        )
        leads = cross_platform_lead(tiers, profile)
        assembled = f"tier 1 assembles {options}" if options else "nothing in the knowledge base serves it there"
        return (
            f"{leads}{inference_part_note(profile, choice.device)}{memory_note(short, profile)}No documented whole "
            f"stack fits this profile: {assembled}.{near} "
            f"Target: {where}{task_note(profile)}"
        )
    text = "; ".join(parts)
    deployment = next((c.option for c in tier1.choices if c.concern == "deployment"), None)
    bridge = checkpoint_path(choice, profile, f"tier 1's {deployment}" if deployment else None)
    leads = cross_platform_lead(tiers, profile)
    return (
        f"{leads}{inference_part_note(profile, choice.device)}{memory_note(short, profile)}{text[0].upper()}"
        f"{text[1:]}.{bridge} Target: {where}{task_note(profile)}"
    )


PRECISION_MISFITS = (*OTHER_PRECISION_KINDS, "lower_precision")


def checkpoint_from_nowhere(
    choice: StackChoice, tier1: Tier, profile: Profile, knowledge: KnowledgeBase | None
) -> tuple[str, str] | None:
    """Where the chosen engine serves the asked quantized format only from a checkpoint quantized elsewhere, no toolkit
    the knowledge base lists writes one its build loads, and no release of the model in that format is known (vllm_mlu's
    INT8 on Cambricon, review 77 p07): the float format to serve meanwhile, and where the checkpoint must come from."""
    serving = choice.for_workload("inference")
    if knowledge is None or serving is None or not profile.needs.quantized or serving.falls_back:
        return None
    asked = profile.needs.quantization
    runner = serving.stack.runner
    quantization = next((c for c in tier1.choices if c.concern == "quantization"), None)
    if runner is None or runner.candidate is None or quantization is None or quantization.option != runner.candidate:
        return None
    if knowledge.layer_of(runner.candidate) != "serving-engine":  # a runtime that quantizes what it runs writes it
        return None
    if serving.precision != asked or quantization.settings.get("checkpoint"):
        return None
    if written_for(serving.stack.applies_to.quantized_models, profile.model_name):
        return None
    release = quantized_release(profile.model_name)  # the id names a release in the asked format (...-GPTQ-Int8)
    if release is not None and release[0] == asked:
        return None
    named = profile.model_name
    if named is not None and asked != "int8" and catalogued_release(named, None, (asked,)) is not None:
        return None  # the publisher releases it in the format
    if named is not None and asked == "int8" and loadable_int8_release(serving.stack, named) is not None:
        return None  # a release the engine loads as published (published_release says which)
    if checkpoint_makers(knowledge, runner.candidate, profile.hardware, profile.model_type, asked):
        return None
    platform = knowledge.platform(profile.hardware)
    fallback = float_fallback(serving.stack, profile, choice.device, platform)
    if fallback is None:
        return None
    model = profile.model_name or "the model"
    weight_only = (
        # no id is made up for it (review 140 p07: Qwen publishes no Qwen3-14B-GPTQ-Int8)
        " (a publisher's weight-only release, a GPTQ or AWQ checkpoint whose id names its format, is read as such when "
        "named)"
        if asked == "int8" and profile.model_name is not None
        else ""
    )
    return fallback, (
        f"no toolkit here writes the {asked} checkpoint {runner.name} loads and no {asked} release of {model} is "
        f"catalogued here, so it has to come from the vendor or another publisher; name it as `model` to plan on "
        f"it{weight_only}, then serve {asked} once it passes its gate"
    )


def published_release(choice: StackChoice, profile: Profile) -> list[str]:
    """Where the profile names a model and asks int8, and its publisher releases a weight-only INT8 checkpoint of that
    release (Qwen's GPTQ-Int8) in a format the chosen serving stack's engine documents loading as published: serve it
    (reviews 185 p07, 191 p07, 192 p07, 193 p07: "no int8 release is catalogued" beside Qwen's own GPTQ-Int8 ones;
    reviews 203 p05, 204 p05: named on vllm-ascend, whose quantization guide lists no GPTQ)."""
    serving = choice.for_workload("inference")
    named = profile.model_name
    if serving is None or named is None or not profile.needs.quantized or profile.needs.quantization != "int8":
        return []
    if quantized_release(named) is not None:  # the model named is a release already
        return []
    release = loadable_int8_release(serving.stack, named)  # None where the stack serves its own quantized models
    if release is None:
        return []
    return [
        f"serve its publisher's {release.checkpoint} as released ({release.format}), a format "
        f"{serving.stack.runner_name} loads as published"
    ]


def fallback_for_the_device(choice: StackChoice) -> list[str]:
    """Where a chosen stack misses the profile only in its device (a NIM whose matrix lists an RTX 5090, not the
    RTX PRO 6000 Server), the next considered stack of the same workload on another runner that misses no more than
    its device, and that device by no more: what to run if the first does not start there (reviews 63/64 p05)."""
    found = []
    for judged in choice.chosen:
        kinds = {m.kind for m in judged.misfits}
        if not kinds & set(DEVICE_MISFITS) or not kinds <= {*DEVICE_MISFITS, "script_only"}:
            continue
        runner = judged.stack.runner_name
        rivals = [
            item
            for item in choice.considered
            if item.workload == judged.workload
            and item.stack.runner_name != runner
            and {m.kind for m in item.misfits} <= {*DEVICE_MISFITS, "script_only", *EXAMPLE_KINDS}
            and device_distance(item) <= device_distance(judged)  # as near the device (a sibling card's page)
        ]
        # a page run on the target itself comes first, even one whose model is a generic route's example (review 226
        # p04: the IGIE script for the MR-V100 named where ixRT's BI-V150 page serves an engine over HTTP)
        rival = min(rivals, key=device_distance, default=None)
        if rival is not None and choice.device is not None:
            # where the next stack is no more validated here than the first, the documented way is the first stack on a
            # device its page names (review 261 p08: vLLM TorchTPU offered for a v5p that neither plugin validates)
            elsewhere = (
                f"; or {VERBS[judged.workload].split()[0]} on a device {judged.stack.name}'s page validates "
                f"({', '.join(judged.stack.applies_to.devices)})"
                if any(m.kind in DEVICE_MISFITS for m in rival.misfits) and judged.stack.applies_to.devices
                else ""
            )
            found.append(
                f"should it not run on the {choice.device.name}, the next documented stack is {rival.stack.name} "
                f"({'; '.join(m.text for m in rival.misfits) or 'fits'}){elsewhere}"
            )
    return found


def device_distance(item: Judged) -> int:
    """How far a stack's pages are from the target device: the weight of its device misfits (none where it is listed
    there; a sibling card of the same generation weighs less than another generation)."""
    return sum(misfit.weight for misfit in item.misfits if misfit.kind in DEVICE_MISFITS)


def current_release_alternative(choice: StackChoice, model: str | None = None) -> list[str]:
    """Where a chosen stack holds only on an older release of its software, the stack of the current release that
    misses only the format asked: what the team serves if it cannot stay on that release; where the current release
    serves the model (`model`) by no route, its successor's stack there (review 126 p05)."""
    found = []
    for judged in choice.chosen:
        if judged.stack.superseded is None:
            continue
        current = next(
            (
                item
                for item in choice.considered
                if item.workload == judged.workload
                and item.stack.superseded is None
                and item.misfits
                and all(m.kind in PRECISION_MISFITS for m in item.misfits)
            ),
            None,
        )
        if current is not None:
            found.append(
                f"that stack holds only on the older release its page validates; on the current release "
                f"{current.stack.name} {VERBS[judged.workload].split()[0]}s it in {current.precision} instead"
            )
            continue
        successor = successor_stack(judged, choice.considered, model)
        if successor is not None:
            stack, newer = successor
            found.append(
                f"the current release's support list no longer names this model (it may still load it, untested): keep "
                f"that older release only as a time-boxed "
                f"exception with a migration date, or move to {newer}, which the current release serves in "
                f"{stack.precision} ({stack.stack.name})"
            )
    return found


def successor_stack(judged: Judged, considered: Sequence[Judged], model: str | None) -> tuple[Judged, str] | None:
    """A current (not superseded) stack of the same workload that misses only by being written for other models, one
    of them a later release of the named model's series (Qwen3-VL for Qwen2.5-VL), with that model."""
    for item in considered:
        if item.workload != judged.workload or item.stack.superseded is not None or not item.misfits:
            continue
        if not all(m.kind in ("named_model", "named_model_training") for m in item.misfits):
            continue
        newer = newer_in_series(item.stack.applies_to.models, model)
        if newer is not None:
            return item, newer
    return None


def assembled_options(tier1: Tier, at_most: int = 4) -> str:
    """What tier 1 assembles with no documented stack, one entry per option with the concerns it takes, the runner
    (deployment, training framework) first: 'vllm (deployment, attention, fusion), dtk-hip (gemm)'."""
    runners = RUNNER_CONCERNS
    ordered = sorted(tier1.choices, key=lambda c: c.concern not in runners)
    concerns: dict[str, list[str]] = {}
    for choice in ordered:
        concerns.setdefault(choice.option, []).append(choice.concern)
    return ", ".join(f"{option} ({', '.join(taken)})" for option, taken in list(concerns.items())[:at_most])


def uncovered_side(
    choice: StackChoice, tier1: Tier, profile: Profile, knowledge: KnowledgeBase | None = None
) -> list[str]:
    """The side of a job that trains and serves with no documented stack: what tier 1 assembles for it instead, and
    where one of the profile's other families documents that side, which stack there."""
    sides = []
    for workload in workloads(profile):
        if choice.for_workload(workload) is not None:
            continue
        if workload == "training":
            framework = next((c.option for c in tier1.choices if c.concern == "training-framework"), None)
            how = (
                f"in {framework}"
                if framework
                else "in the framework's own training loop"
                if profile.needs.devices == 1
                else "on the framework's own DDP/FSDP"
            )
            job = f"the {profile.training} training" if profile.training else "the training"
            if profile.training in NAMED_ONLY_KINDS:  # RL: the rollout loop is what no stack here documents
                sides.append(
                    f"for {job}, no documented stack runs an RL loop (rollouts, rewards, weight sync into the rollout "
                    f"engine) on {profile.hardware}: tier 1 trains the policy {how}, and the loop around it is the "
                    "team's to build and validate" + elsewhere_side(profile, workload, knowledge)
                )
                continue
            sides.append(
                f"for {job}, no documented stack trains a {profile.model_type} here: tier 1 runs it {how}; validate "
                "that run before relying on it" + elsewhere_side(profile, workload, knowledge)
            )
        else:
            sides.append(f"serve it from what tier 1 assembles: no documented stack serves a {profile.model_type} here")
    return sides


def model_named_elsewhere(choice: StackChoice, profile: Profile) -> list[str]:
    """Where the chosen stack says nothing of the profile's model but a considered stack's page does (vLLM TPU's matrix
    tests gemma-3-27b-it as a text model only, review 71 p07): that page's word, in the verdict rather than only in a
    rejection line."""
    if any(risk_naming(judged.stack, profile.model_name) for judged in choice.chosen):
        return []
    for item in choice.considered:
        if any(
            m.kind.startswith("training_kind") or m.kind in ("training_loop", "requantized_release")
            for m in item.misfits
        ):
            # a page for another kind of training (pre-training's import step for an RL job or a full fine-tune: review
            # 238 p04) says nothing here, nor a page's word on its own requantization where the chosen stack serves the
            # release
            continue
        chosen = choice.for_workload(item.workload)
        if chosen is not None and chosen.stack.runner_key != item.stack.runner_key:
            # another engine's page speaks of loading the model into that engine (PaddlePaddle's word on PyTorch
            # checkpoints beside a chosen DTK PyTorch route, reviews 239/240 p12), not of the model on this one
            continue
        said = risk_naming(item.stack, profile.model_name)
        if said is not None:
            return [f"a considered stack's page ({item.stack.name}) says of {profile.model_name}: {said.rstrip('.')}"]
    return []


def elsewhere_side(profile: Profile, workload: str, knowledge: KnowledgeBase | None) -> str:
    """'; <family>, which the profile also names, documents it: <stack> (run this side there ...)' where a family the
    model must also run on has a stack that fits this side of the job, else ''."""
    if knowledge is None:
        return ""
    for family in profile.needs.other_hardware:
        there = choose_stacks(on_family(profile, family, knowledge), knowledge)
        judged = there.for_workload(workload)
        if judged is not None and judged.weight <= MISFIT_WEIGHTS["device"]:
            return (
                f"; {family}, which the profile also names, documents it: {judged.stack.name} (run this side there "
                f"and bring its checkpoint here, or pilot it here against that run)"
            )
    return ""


def inference_part_note(profile: Profile, device: Device | None) -> str:
    """The verdict's first words where a job trains on a device its vendor documents for inference only."""
    if not profile.trains or device is None or device.inference_only is None:
        return ""
    return (
        f"First, the {device.name} is an inference part ({device.inference_only.value.rstrip('.')}): train on a training "
        "part of the family and serve the trained model here. "
    )


def memory_note(short: Sequence[str], profile: Profile) -> str:
    """The verdict's first words where the profile's devices cannot hold the model state: the plan stands only with
    more of them, or a smaller footprint (the capacity line says how many)."""
    if not short:
        return ""
    return (
        f"First, {profile.needs.devices} devices cannot hold the {' and '.join(short)} state (see capacity): add devices "
        "or shrink the footprint. "
    )


def task_note(profile: Profile) -> str:
    """Where the embedding task was assumed from the model's name: the assumption and how to override it; where a job
    that trains names no kind of training: what it is taken as (review 94 p05)."""
    untold = (
        ". Training: taken as training every weight (the profile names no `training:` kind: pretraining, fine-tuning, "
        "lora or rl)"
        if profile.trains and profile.training is None
        else ""
    )
    if not profile.task_assumed or profile.model_name is None:
        return untold
    return f". Task: {assumed_text(profile.serving_task, profile.model_name)}{untold}"


def cross_platform_lead(tiers: Sequence[Tier], profile: Profile) -> str:
    """Where the model must run on several families, tier 3 is the decision: its portable layer first."""
    if not profile.needs.cross_platform or len(tiers) < 3:
        return ""
    portable = next((c.option for c in tiers[2].choices if c.concern == "deployment"), None)
    trainer = next((c.option for c in tiers[2].choices if c.concern == "training-framework"), None)
    families = ", ".join(profile.families)
    layer = f"{portable} as the one runtime on {families}" if portable else f"each family's own runtime on {families}"
    kept = None if portable else next((g for g in tiers[2].gaps if g.concern == "deployment"), None)
    if kept is not None and kept.kept:  # what each family keeps for its runtime
        layer = f"each family's own runtime{kept_text(kept.kept)}"
    if trainer is not None and not profile.serves:  # a training job: the one training framework is what moves
        layer = f"{trainer} as the one training framework on {families}"
    elif trainer is not None:
        layer += f", trained with {trainer} on each"
    toolkit = next((c for c in tiers[2].choices if c.concern == "quantization" and c.settings.get("dtype")), None)
    if portable and toolkit is not None and toolkit.settings.get("checkpoints") == PER_FAMILY:
        layer += f", each family serving its own {toolkit.settings['dtype']} model written by {toolkit.option}"
    elif portable and toolkit is not None and toolkit.settings.get("checkpoints") == AT_LOAD:
        layer += (
            f", each family quantizing the float model to {toolkit.settings['dtype']} at load with {toolkit.option} "
            "(no checkpoint is shared)"
        )
    elif portable and toolkit is not None and toolkit.settings.get("checkpoint", "").endswith(AS_RELEASED):
        release = toolkit.settings["checkpoint"].removesuffix(AS_RELEASED)  # no toolkit writes the publisher's release
        layer += f", serving {release}, the publisher's {toolkit.settings['dtype']} release, which it loads on each"
    elif portable and toolkit is not None:  # one quantized checkpoint for every family, written by tier 3's toolkit
        dtype = toolkit.settings["dtype"]
        floats = float_families(tiers[2], dtype)
        loads = [family for family in profile.families if family not in floats]
        if floats:  # review 264 p14: "one fp8 checkpoint ... on each" beside an AMD line serving BF16 only
            layer += (
                f", serving one {dtype} checkpoint written by {toolkit.option} on {', '.join(loads)}, and the float "
                f"model on {', '.join(floats)}, where no {dtype} path is documented"
            )
        else:
            layer += f", serving one {dtype} checkpoint written by {toolkit.option}, which it loads on each"
        local = target_quantizer(tiers, toolkit.option)
        if local is not None:
            how = (
                f"serves the checkpoint with {local.option} as its stack documents"
                if engine_quantizes(tiers, local)
                else f"quantizes with {quantizer_name(local)}"
            )
            layer += (
                f"; on {profile.hardware}, tier 1 {how} instead, and the shared "
                "checkpoint replaces it there only once measured as good (see the switch conditions)"
            )
    return f"Tier 3 leads (the model must run on {families}): {layer}. On {profile.hardware} itself: "


def target_quantizer(tiers: Sequence[Tier], shared: str) -> Choice | None:
    """Tier 1's quantization choice on the target, where it is not the toolkit writing tier 3's shared checkpoint."""
    local = next((c for c in tiers[0].choices if c.concern == "quantization"), None)
    return None if local is None or local.option == shared else local


def quantizer_name(choice: Choice) -> str:
    """A quantization choice as a reader knows it: the stack part's name where tier 1 takes one (Intel Neural
    Compressor inside SynapseAI), else its id."""
    return choice.settings.get("part") or choice.option


def engine_quantizes(tiers: Sequence[Tier], local: Choice) -> bool:
    """Tier 1's quantization part is its serving engine itself (a published FP8 checkpoint served as released, or the
    engine's own quantization at load): no toolkit writes that checkpoint."""
    deployment = next((c.option for c in tiers[0].choices if c.concern == "deployment"), None)
    return local.option == deployment


def local_checkpoint(tiers: Sequence[Tier], local: Choice) -> str:
    """The target's own checkpoint, as a reader knows it: 'the one AMD Quark writes there', or, where the engine takes
    the part, 'the checkpoint vllm serves there (a published release, or quantized at load)'."""
    if engine_quantizes(tiers, local):
        return f"the checkpoint {local.option} serves there (a published release, or quantized at load)"
    return f"the one {quantizer_name(local)} writes there"


def shared_checkpoint_switch(tiers: Sequence[Tier], profile: Profile) -> SwitchCondition | None:
    """Tier 3 leads with one quantized checkpoint for every family, written by another toolkit than the one tier 1
    uses on the target (ModelOpt's for H100 and Gaudi, INC's on Gaudi): the shared checkpoint takes the target over
    where it holds the local one's accuracy and nearly its throughput, so one checkpoint serves every family."""
    if not profile.needs.cross_platform or len(tiers) < 3 or not tiers[2].primary or not profile.serves:
        return None
    toolkit = next((c for c in tiers[2].choices if c.concern == "quantization" and c.settings.get("dtype")), None)
    if toolkit is None or toolkit.settings.get("checkpoints") in (PER_FAMILY, AT_LOAD):
        return None
    local = target_quantizer(tiers, toolkit.option)
    if local is None:
        return None
    dtype = toolkit.settings["dtype"]
    description = (
        f"the shared {dtype} checkpoint written by {toolkit.option} serves on {profile.hardware} at least "
        f"{SHARED_CHECKPOINT_PACE:g}x the {served_unit(profile)} at your latency SLA of {local_checkpoint(tiers, local)}, "
        f"and scores within {score_gap(profile)} of it on {quality_evaluation(profile)}: serve the shared "
        f"checkpoint on {profile.hardware} too, one checkpoint for every family"
    )
    metric = f"evidence.inference_throughput.{toolkit.option}_over_{local.option}"
    accuracy = predicate(f"evidence.{dtype}_accuracy_drop.{toolkit.option}_over_{local.option}", "<=", ACCURACY_DROP)
    return switch(
        "shared-checkpoint-on-target",
        description,
        metric,
        ">=",
        SHARED_CHECKPOINT_PACE,
        accuracy,
        concern="quantization",
    )


LORA_MERGE = "merge the LoRA adapters into the base model first ({how}); "
# a page whose export writes the adapter in PEFT format (MaxText's to_huggingface with lora.lora_restore_path): the merge follows that export
LORA_EXPORT_MERGE = (
    "export the adapter in PEFT format with the training stack's own converter (the command is in `advisor kb stack "
    "{stack}`), then merge it into the base model before serving ({how}); "
)
PEFT_EXPORT = re.compile(r"\bPEFT format\b")


def checkpoint_path(choice: StackChoice, profile: Profile, serves_with: str | None = "tier 1's runtime") -> str:
    """checkpoint_path_as_documented, preceded for a LoRA job by the adapter merge where the training stack's own
    export does not say it (an adapter is no checkpoint a serving engine calibrates or quantizes), and followed by the
    versions the two stacks were validated with where they differ."""
    path = checkpoint_path_as_documented(choice, profile, serves_with) + version_split(choice)
    training = choice.for_workload("training")
    export = training.stack.checkpoint if training is not None else None
    if not path or profile.training != "lora" or (export is not None and "merg" in export.value.lower()):
        return path
    if training is not None and any(misfit.kind == "training_kind_no_adapters" for misfit in training.misfits):
        return path  # its framework trains no adapters: nothing to merge
    # the Hugging Face PEFT library as a part of the stack, not the word in a setting (Primus's "overrides peft lora"
    # configures Megatron Bridge's own LoRA layers, which PEFT does not merge)
    peft = training is not None and (
        "peft" in training.stack.validated_with
        or any(c.candidate == "peft" or re.search(r"\bPEFT\b", c.name) for c in training.stack.components)
        or (export is not None and PEFT_EXPORT.search(export.value) is not None)
    )
    how = (
        "PEFT's merge_and_unload writes a whole checkpoint" if peft else "with the training framework's own merge step"
    )
    lead = " Between them: "
    merge = LORA_MERGE.format(how=how)
    if export is not None and PEFT_EXPORT.search(export.value) is not None:  # the page exports the adapter itself
        merge = LORA_EXPORT_MERGE.format(how=how, stack=training.stack.id if training is not None else "")
    return lead + merge + path[len(lead) :] if path.startswith(lead) else path


AS_RELEASED_PART = re.compile(r"\bas released\b|\bnative FP8 checkpoint\b", re.IGNORECASE)


def quantizer_named(part: Component | None, serving: Judged) -> str:
    """' (NVIDIA Model Optimizer)' for the serving stack's quantization tool; for a part that names only the formats it
    loads (vLLM TPU's pre-quantized checkpoints), those formats and that no tool is named to write them."""
    if part is None:
        return ""
    if part.candidate is None:
        return (
            f" in a format {serving.stack.runner_name} loads ({part.name}; the stack names no tool that writes it for "
            "this family: check the quantizer's output loads before committing)"
        )
    if AS_RELEASED_PART.search(f"{part.name} {part.setting or ''}"):  # the page serves the publisher's own release
        return (
            f" in the format of the release the serving page loads ({part.name}): the trained weights are no release, "
            "so tier 1's quantization toolkit writes them in that format, checked to load before committing"
        )
    return f" ({part.name})"


RELEASE = re.compile(r"\bv?(\d+(?:\.\d+)+(?:[.-]?(?:dev|rc|post|a|b)\d*)*)", re.IGNORECASE)


def same_release(one: str, other: str) -> bool:
    """Two pins name the same release: their leading version numbers match, whatever the notes beside them ("v0.23.0"
    and "0.23.0 (verl's pin)"; review 132 p06), or, with no version number in either, the texts do."""
    first, second = RELEASE.search(one), RELEASE.search(other)
    if first is None or second is None:
        return one == other
    return first.group(1).lower() == second.group(1).lower()


def version_split(choice: StackChoice) -> str:
    """' Their validated versions differ: neuron-sdk 2.26.1 (training), 2.34.0 (serving); ...' where the training and
    serving stacks pin one package at different versions (two images, or one release validated for both), else ''."""
    training, serving = choice.for_workload("training"), choice.for_workload("inference")
    if training is None or serving is None or training.stack.id == serving.stack.id:
        return ""
    trained, served = training.stack.validated_with, serving.stack.validated_with
    differ = [
        f"{name} {trained[name]} (training), {served[name]} (serving)"
        for name in trained
        if name in served and not same_release(trained[name], served[name])
    ]
    if not differ:
        return ""
    newer = newer_side(training.stack.validated_with, serving.stack.validated_with)
    if newer is not None:  # the older side's recipe is re-validated on the newer release first (review 134 p12)
        name, side, release = newer
        older = training if side == "training" else serving
        if older.stack.superseded is not None:  # the newer release no longer carries the older side's route at all
            return (
                f" Their validated versions differ: {'; '.join(differ)}: the newer release no longer carries the "
                f"{side} route, so run them as two images."
            )
        return (
            f" Their validated versions differ: {'; '.join(differ)}: validate the {side} recipe on {name} {release}, "
            "the newer release, so that one release carries both, or run them as two images until it does."
        )
    return (
        f" Their validated versions differ: {'; '.join(differ)}: run them as two images, or validate one release for "
        "both before sharing a fleet."
    )


def newer_side(trained: dict[str, str], served: dict[str, str]) -> tuple[str, str, str] | None:
    """(package, the side on the older release, the newer release) for the first package both pin at comparable
    releases that differ; None where no such package is found."""
    differing = next(
        ((name, ours > theirs) for name, ours, theirs in compared_pins(trained, served) if ours != theirs), None
    )
    if differing is None:
        return None
    name, training_newer = differing
    return (
        (name, "serving", trained[name].split()[0]) if training_newer else (name, "training", served[name].split()[0])
    )


BRIEF_CLAIM = 480  # characters of a checkpoint claim the verdict quotes before pointing to the stack for the rest


ADAPTER_WORDS = re.compile(r"\bLoRA\b|\badapters?\b", re.IGNORECASE)


WHOLE_MODEL_SAVE = re.compile(r"\b(full|whole|every weight|all weights)\b", re.IGNORECASE)


def adapters_only_export(claim: str, kinds: Sequence[str], profile: Profile) -> bool:
    """The export claim of a stack documented for LoRA only (`kinds`: the training it documents), speaking of
    adapters, for a job that trains every weight (review 101 p09: a full fine-tune told to merge adapters it never
    wrote)."""
    # a job naming no kind runs the LoRA-only recipe as it is: adapters are what it writes
    whole_model = profile.training in ("fine-tuning", "pretraining")
    # documented for LoRA only, or for more but with an export claim that speaks of adapters alone (AWS's TorchNeuron
    # tutorial saves a LoRA adapter; its training page gives the same libraries for full fine-tuning: review 113 p13)
    only_adapters = "lora" in kinds and (
        not any(kind in ("fine-tuning", "pretraining") for kind in kinds) or WHOLE_MODEL_SAVE.search(claim) is None
    )
    return whole_model and only_adapters and ADAPTER_WORDS.search(claim) is not None


PRE_QUANTIZED = re.compile(r"quantization_config|pre-quantized", re.IGNORECASE)  # a claim about quantized checkpoints


def brief(claim: str, stack: str) -> str:
    """A stack's checkpoint claim for the verdict: whole where short, else its first '; '-clauses up to BRIEF_CLAIM
    characters and where to read the rest (a MaxText conversion command runs to 400 characters)."""
    text = claim.rstrip(".")
    if len(text) <= BRIEF_CLAIM:
        return text
    clauses = text.split("; ")
    kept = clauses[0]
    for clause in clauses[1:]:
        if len(kept) + 2 + len(clause) > BRIEF_CLAIM:
            break
        kept += "; " + clause
    return f"{kept} (in full: `advisor kb stack {stack}`)"


def checkpoint_path_as_documented(
    choice: StackChoice, profile: Profile, serves_with: str | None = "tier 1's runtime"
) -> str:
    """For a job that trains and serves: how the trained checkpoint reaches the serving stack, as the stacks document it;
    `serves_with` names tier 1's deployment where no serving stack is chosen (None: tier 1 has none either)."""
    training, serving = choice.for_workload("training"), choice.for_workload("inference")
    if training is None or not profile.serves:
        return ""
    if serving is None:  # no documented serving stack: the training side's export is still the first step
        if training.stack.checkpoint is None:
            return ""
        said = brief(training.stack.checkpoint.value, training.stack.id)
        if (
            serves_with is None
        ):  # nothing in tier 1 serves it: say so rather than hand it to an engine that is not there
            asked = f"{profile.needs.quantization} " if profile.needs.quantized else ""
            return (
                f" Between them: {said}; no {asked}serving runtime for this model is documented on {profile.hardware}"
                + (", so serve it as exported, unquantized, or leave the serving side open" if asked else "")
                + " (see tier 1's open concerns)."
            )
        then = f", then quantize it to {profile.needs.quantization}" if profile.needs.quantized else ""
        return f" Between them: {said}{then}, for {serves_with} to load."
    exports, loads = training.stack.checkpoint, serving.stack.checkpoint
    if exports is not None and adapters_only_export(exports.value, training.stack.applies_to.training, profile):
        whole = (
            f"a full fine-tune saves every weight, so take the run's whole checkpoint as {training.stack.runner_name} "
            "writes it (its page's export speaks of LoRA adapters and a merge step, which a full fine-tune does not need)"
        )
        exports = exports.model_copy(update={"value": whole})
    quantizer = serving.stack.component("quantization")
    quantize = ""
    if profile.needs.quantized and serving.falls_back:
        quantize = f", served in {serving.precision} ({serving.fallback_reason(profile.needs.quantization)})"
    elif profile.needs.quantized:
        quantize = f", then quantize it to {profile.needs.quantization}" + quantizer_named(quantizer, serving)
    if training.stack.id == serving.stack.id:  # one stack trains and serves: its own export, or none to write
        said = (
            brief(exports.value, training.stack.id)
            if exports is not None
            else f"one stack trains and serves, so {serving.stack.runner_name} loads the trained checkpoint as it saved it"
        )
        return f" Between them: {said}{quantize}."
    if exports is None and loads is None:
        return (
            f" Between them: convert the trained checkpoint to the format {serving.stack.runner_name} loads{quantize}; "
            "neither stack documents the converter, so check it before committing."
        )
    if loads is not None and exports is not None and not profile.needs.quantized and PRE_QUANTIZED.search(loads.value):
        # the serving page's word on pre-quantized checkpoints is not this float job's (review 165 p11: "safetensors
        # whose config.json carries the quantization_config" in a bf16 Gemma 3 hand-off)
        loads = loads.model_copy(
            update={"value": f"{serving.stack.runner_name} loads that checkpoint in bf16 as written"}
        )
    said = "; ".join(
        continued(brief(claim.value, stack.id))
        for claim, stack in ((exports, training.stack), (loads, serving.stack))
        if claim is not None
    )
    if loads is not None and profile.needs.quantized and profile.needs.quantization in loads.value.lower():
        quantize = ""  # the serving stack's own claim already says how the trained checkpoint becomes that format
    return f" Between them: {said}{quantize}."


# The words a checkpoint claim's sentence starts with that are not names: lower-cased where it continues another
# sentence ('The plugin loads' after 'Between them:' or a semicolon); a name (TorchTitan, Megatron, MaxText) keeps its
# case.
SENTENCE_STARTS = frozenset(
    {"The", "A", "An", "It", "Its", "Each", "Every", "Both", "Runs", "Training", "Checkpoints", "With", "Without", "At"}
)


def continued(sentence: str) -> str:
    """A claim's own sentence continued inside another: its first word lower-cased where that is no name."""
    first = sentence.split(" ", 1)[0]
    return sentence[0].lower() + sentence[1:] if first in SENTENCE_STARTS else sentence


def stack_switches(choice: StackChoice, profile: Profile, platform: Platform) -> tuple[SwitchCondition, ...]:
    """A new device generation re-opens the choice; a stack passed over only for its device is reconsidered once
    it is validated on this one."""
    found: list[SwitchCondition] = []
    device = choice.device
    if device is None:
        return ()
    for judged in choice.considered:
        chosen = choice.for_workload(judged.workload)
        if chosen is not None and chosen.fits:  # the chosen stack fits whole: another one's validation changes nothing
            continue
        runs_here = judged.stack.applies_to.precisions[0] in device.formats
        if judged.misfits and all(m.kind in DEVICE_MISFITS for m in judged.misfits) and runs_here:
            if any(for_its_generation(judged, m) for m in judged.misfits):
                continue  # a recipe for another generation (Hopper's for a GB200) is not going to be validated here
            metric = f"knowledge.stack.{judged.stack.id}.validated_on.{device.id}"
            description = f"{judged.stack.name} becomes validated on {device.id}: reconsider it ({judged.workload})"
            found.append(switch(f"stack-{judged.stack.id}-on-{device.id}", description, metric, "==", "yes"))
    found = found[: MAX_STACK_SWITCHES - 1]
    found += [
        race for workload in ("inference", "training") for race in equal_engine_switches(choice, workload, profile)
    ]
    found += light_rival_switches(choice, profile, found)
    serving = choice.for_workload("inference")
    layout = layout_switch(serving, profile.needs.devices)
    if layout is not None:
        found.append(layout)
    # a recipe's own released format counts here; a model released quantized is the catalogue's word (accuracy_switch),
    # not a recipe's model list, which for vllm-gaudi's FP8 table names BF16 releases it calibrates (review 121 p10)
    released_by_recipe = (
        serving is not None
        and serving.stack.applies_to.released_format is not None
        and released_quantized(serving, profile.needs.quantization)
    )
    quantized_here = serving is None or not (serving.falls_back or released_by_recipe)
    if profile.trains and not profile.serves and not device.may_run(profile.needs.quantization):
        quantized_here = False  # an FP8 training ask on a device with no FP8 units trains in bf16: no loss gap to watch
    page = page_devices(serving, choice, profile)
    quantizers = (
        [f"{c.name} {c.setting or ''}" for c in serving.stack.components if c.role == "quantization"]
        if serving is not None
        else []
    )
    palettized = any(PALETTIZED.search(text) for text in quantizers)
    block_typed = any(GGML_TYPES.search(text) for text in quantizers)
    gated = served_ask_profile(profile, choice.served_precision)
    accuracy = accuracy_switch(gated, device, page, palettized, block_typed) if quantized_here else None
    if accuracy is None:  # a release served as a vendor's requantization of it still has the release to go back to
        accuracy = requantized_switch(serving, profile, choice.considered)
    if accuracy is not None:
        found.append(no_float_on_chosen(accuracy, serving, choice.considered, device))
        accelerator = platform.kind == "accelerator"
        pays = quantization_pays_switch(serving, device, profile, accelerator) or training_pays_switch(
            choice, device, profile
        )
        if pays is not None:
            found.append(pays)
    half = half_precision_switch(serving, profile)
    if half is not None:
        found.append(half)
    found += narrower_format_switches(choice, device, profile)
    finer = finer_scaled_switches(choice, device, profile)
    if finer:  # the block-scaled path is the step after a missed gate, before BF16: one switch per trigger, not two
        watched = {switch.metric for switch in finer}
        found = [switch for switch in found if switch.metric not in watched]
    found += finer
    native = native_format_switch(choice, device, profile)
    if native is not None:
        found.append(native)
    mixed = mixed_precision_pays_switch(choice, device, profile)
    if mixed is not None:
        found.append(mixed)
    quantized_training = quantized_training_switch(choice, device, profile)
    if quantized_training is not None:
        found.append(quantized_training)
    release_gate = named_release_gate(serving, profile)
    if release_gate is not None:
        found.append(release_gate)
    found += upstream_type_switches(choice, profile)
    description = (
        f"the target moves to another device generation than {device.id}: the stacks validated for it "
        f"differ{asked_format_elsewhere(choice, device, profile, platform)}; set the profile's `device` and re-run "
        "`advisor recommend`"
    )
    found.append(switch("device-generation", description, "profile.device", "!=", device.id))
    fallback = fallback_route_switch(choice, profile)
    if fallback is not None:
        found.append(fallback)
    published = published_checkpoint_switch(serving, profile)
    if published is not None:
        found.append(published)
    return tuple(found)


FP8_KV = re.compile(r"\bFP8 KV cache\b|kv[-_]cache[-_]dtype[ =]fp8", re.IGNORECASE)  # an FP8 KV cache turned on


def kv_cache_switch(tier1: Tier, profile: Profile) -> SwitchCondition | None:
    """Where tier 1 serves with an FP8 KV cache, its own accuracy gate against a bf16 KV cache, apart from the
    weights' gate: its scales and kernels fail on their own (review 208 p03: an FP8 KV cache turned on with no gate
    while ROCm/aiter#2656 reports GSM8K falling from 0.95 to 0.03 for DeepSeek-R1-MXFP4 with fp8_e4m3 KV on MI35x)."""
    deployment = next((c for c in tier1.choices if c.concern == "deployment"), None)
    if deployment is None or not profile.serves or not profile.llm:
        return None
    kv = deployment.settings.get("kv-cache", "")
    if not FP8_KV.search(kv) or "keep the KV cache in the model's dtype" in kv:
        return None
    task = (
        "your task evaluation at the longest context you serve"
        if profile.needs.long_context
        else "your task evaluation"
    )
    description = (
        f"the model with its FP8 KV cache scores more than {score_gap(profile)} below the same weights with a bf16 KV "
        f"cache on {task} (same engine, harness and data): serve with the KV cache in bf16 and re-check the KV "
        "capacity at the SLA"
    )
    return switch("fp8-kv-accuracy-drop", description, "evidence.fp8_kv_accuracy_drop", ">", ACCURACY_DROP)


def successor_switch(choice: StackChoice, profile: Profile, knowledge: KnowledgeBase) -> SwitchCondition | None:
    """A chosen stack its vendor superseded, whose current route (`superseded_by`) runs on other devices or is written
    for other models: that route's device or model list gaining this job's is the knowledge claim that moves the job onto
    it before the pinned release leaves support (review 178 p12: Llama 4 Scout on Trn2 on NxD Inference, frozen at
    Neuron 2.28, with no trigger to leave it)."""
    model = profile.model_name
    device = choice.device
    for judged in choice.chosen:
        stack = judged.stack
        if stack.superseded is None or stack.superseded_by is None:
            continue
        current = next((s for s in knowledge.stacks if s.id == stack.superseded_by), None)
        if current is None:
            continue
        devices = current.applies_to.devices
        if device is not None and devices and device.id not in devices:  # review 216 p08: trn1's training route is
            # pinned at Neuron 2.28, and its successor (TorchNeuron) runs on Trn2 and Trn3 only
            description = (
                f"the devices {current.name} runs on change (today {', '.join(devices)}, not {device.id}), or the job "
                f"moves to one of them: re-run `advisor recommend` and move the job onto it, off the superseded "
                f"{stack.name}, before its pinned release leaves support"
            )
            metric = f"knowledge.stack.{current.id}.devices"
            return switch(f"{current.id}-on-{device.id}", description, metric, "!=", ", ".join(devices))
        if model is None or not current.applies_to.models or written_for(current.applies_to.models, model):
            continue
        description = (
            f"the models {current.name} is written for change (today {few_of(current.applies_to.models)}, not "
            f"{model}): re-run `advisor recommend`; where it now lists {model}, move the job onto it, off the "
            f"superseded {stack.name}"
        )
        metric = f"knowledge.stack.{current.id}.models"
        return switch(f"{current.id}-lists-model", description, metric, "!=", models_value(current))
    return None


def async_rollout_switch(choice: StackChoice, profile: Profile, knowledge: KnowledgeBase) -> SwitchCondition | None:
    """An RL job whose chosen recipe runs synchronous rollouts on a framework that documents an asynchronous trainer
    for its rollout engine: generation's share of the step is the measurable trigger to move to it (reviews 204, 207,
    209 and 212 p04-p05: RL records switched only on the device generation and the scaling efficiency)."""
    trained = choice.for_workload("training")
    runner = trained.stack.runner if trained is not None else None
    if profile.training != "rl" or trained is None or runner is None or runner.candidate is None:
        return None
    framework = knowledge.get(runner.candidate)
    rollouts = rollout_engines(trained, knowledge)
    if framework.async_rollouts is None or not rollouts:
        return None
    # a recipe rolling out on another engine than the asynchronous trainer's (verl's SGLang recipe on Atlas A2/A3; review
    # 261 p06): the move takes the rollout to that engine as well
    moved = (
        ""
        if rollouts & set(framework.async_rollout_engines)
        else f"; that trainer runs {' or '.join(knowledge.get(e).name for e in framework.async_rollout_engines)} "
        f"rollouts, so the move also takes the rollout off {' and '.join(sorted(knowledge.get(e).name for e in rollouts))}"
    )
    description = (
        f"generation takes more than {ROLLOUT_SHARE_MAX:.0%} of each RL step in a short run on the target: "
        f"{framework.async_rollouts.value} (kb: {framework.id}.async_rollouts){moved}; run the same job both ways for "
        "a few steps and keep the layout with more steps per hour at the same reward curve"
    )
    return switch("rl-generation-share", description, "evidence.rl.generation_share_of_step", ">", ROLLOUT_SHARE_MAX)


NAMED_MODEL_KINDS = ("named_model", "named_model_training")  # written for other models, and missing nothing else


def model_list_rival_switch(choice: StackChoice, profile: Profile) -> SwitchCondition | None:
    """A considered stack on another runner that misses the job only by the models its page is written for (Apple's
    Core AI image-generation recipes, which list SD 1.5, SD 2.1, SD 3.5 Medium and FLUX.2 klein, not SDXL): its list
    gaining the job's model is the knowledge claim that reopens it (reviews 252-259 p12: Core AI only a watch line for
    SDXL in a Mac app). Superseded chosen stacks have their own successor switch."""
    model = profile.model_name
    if model is None:
        return None
    for judged in choice.chosen:
        runner = judged.stack.runner.candidate if judged.stack.runner is not None else None
        if judged.stack.superseded is not None:
            continue
        rival = next(
            (
                item
                for item in choice.considered
                if item.workload == judged.workload
                and item.misfits
                and all(m.kind in NAMED_MODEL_KINDS for m in item.misfits)
                and item.stack.superseded is None
                and item.stack.runner is not None
                and item.stack.runner.candidate != runner
                # a recipe for the same publisher's models (Stability's SD 3.5 beside SDXL), not any model of the type
                # (review 266 p01: a DeepSeek-V3.2 recipe's model list watched in a Qwen3 record)
                and any(same_publisher(listed, model) for listed in item.stack.applies_to.models)
            ),
            None,
        )
        if rival is None:
            continue
        description = (
            f"the models {rival.stack.name} is written for change (today {few_of(rival.stack.applies_to.models)}, "
            f"not {model}): where it now lists {model}, run both on the target and keep the faster at the same "
            f"quality ({judged.stack.name} today)"
        )
        metric = f"knowledge.stack.{rival.stack.id}.models"
        return switch(f"{rival.stack.id}-lists-model", description, metric, "!=", models_value(rival.stack))
    return None


def open_route_switch(choice: StackChoice, profile: Profile) -> SwitchCondition | None:
    """A kernel-writing team served by a vendor's prebuilt engines (a NIM's TensorRT profiles, which no custom kernel
    enters): the nearest considered open route on this device, a script the team wraps included, is raced against it,
    so that a measured reason, not the form of its page, keeps the team off the route its kernels can reach (reviews
    262 p14, 263 p14: FLUX FP8 on an L40S, Diffusers with torchao turned down as "a script, not a server")."""
    serving = choice.for_workload("inference")
    # a closed engine leaves a kernel-writing team's tier 2 nowhere to go
    if serving is None or serving.stack.prebuilt_engines is None or not writes_kernels(profile.team_skill):
        return None
    rival = next(
        (
            item
            for item in choice.considered
            if item.workload == "inference"
            and item.stack.prebuilt_engines is None
            and item.stack.preview is None
            and {m.kind for m in item.misfits} <= {"script_only"}
        ),
        None,
    )
    if rival is None:
        return None
    description = (
        f"{rival.stack.name}, wrapped in the team's own server, delivers at least {OPEN_ROUTE_PACE:g}x the "
        f"{served_unit(profile)} of {serving.stack.name} at your latency SLA on the target, same model and precision: "
        "move to it, where the team's own kernels (tier 2) can replace its hot operators, which the vendor's prebuilt "
        "engines do not take"
    )
    metric = f"evidence.inference_throughput.{rival.stack.id}_over_{serving.stack.id}"
    return switch(f"{rival.stack.id}-open-route", description, metric, ">=", OPEN_ROUTE_PACE)


def rollout_parity_switch(choice: StackChoice, profile: Profile, knowledge: KnowledgeBase) -> SwitchCondition | None:
    """An RL job that also serves, on another engine than the one its training recipe generates rollouts with: the
    trained policy's score through the serving engine against the same checkpoint through the rollout engine is the
    gate (review 260 p04: verl's SGLang rollouts beside a vllm-ascend deployment, and no switch about the RL side)."""
    trained, serving = choice.for_workload("training"), choice.for_workload("inference")
    if profile.training != "rl" or trained is None or serving is None or serving.stack.runner is None:
        return None
    rollouts = rollout_engines(trained, knowledge)
    served_by = serving.stack.runner.candidate
    if not rollouts or served_by is None or served_by in rollouts:
        return None
    rollout_names = " or ".join(sorted(knowledge.get(engine).name for engine in rollouts))
    description = (
        f"the trained policy served by {knowledge.get(served_by).name} scores more than {ACCURACY_DROP * 100:g} point "
        f"below the same checkpoint generating through {rollout_names}, the engine its rollouts ran on (the same "
        "validation prompts and sampling settings for both): the engines differ for this model; find the difference "
        "(the weight conversion, a kernel, the sampling defaults) before serving, or serve on the rollout engine"
    )
    return switch(
        "rl-serving-rollout-parity", description, "evidence.rl.serving_below_rollout_score", ">", ACCURACY_DROP
    )


def long_context_memory_switch(choice: StackChoice, profile: Profile) -> SwitchCondition | None:
    """A long-context training job: the step's peak memory at the target sequence length, read in a short run, is
    what decides whether the layout holds (review 260 p06: a long-context fine-tune on 32 GB TPU v6e chips switched on
    the device generation and the scaling efficiency only)."""
    trained = choice.for_workload("training")
    if trained is None or not profile.needs.long_context:
        return None
    description = (
        f"a training step at your target sequence length peaks above {PEAK_MEMORY_MAX:.0%} of a device's memory, or "
        f"runs out of it, in a short run of {trained.stack.name} on the target: split the sequence over more devices "
        "with its context or sequence parallelism, recompute more activations, or move to a device with more "
        "memory, and re-run `advisor recommend` with the evidence"
    )
    metric = "evidence.training.peak_memory_fraction"
    return switch("long-context-memory", description, metric, ">", PEAK_MEMORY_MAX)


FLASH_ATTN_PACKAGE = "flash-attn"  # the Python package a stack's validated versions name FlashAttention by


def installed_flash_attention_switch(choice: StackChoice, tier1: Tier, profile: Profile) -> SwitchCondition | None:
    """A training stack validated with a FlashAttention build whose tier-1 attention is another path (the framework's
    SDPA default): the installed build is the measurable alternative (reviews 213 p14, 214 p12: Hygon's LLaMA-Factory
    cookbook ships flash-attn 2.6.1+das while its runs take SDPA, and no switch measured it)."""
    trained = choice.for_workload("training")
    if trained is None or not profile.trains:
        return None
    version = trained.stack.validated_with.get(FLASH_ATTN_PACKAGE)
    attention = next((c for c in tier1.choices if c.concern == "attention"), None)
    runner = trained.stack.runner
    # only where the framework's own default attention runs (no kernel library named for it)
    if version is None or attention is None or runner is None or attention.option != runner.candidate:
        return None
    current = attention.settings.get("part") or attention.option
    description = (
        f"the flash-attn build the stack was validated with ({version}) trains at least {FASTER:g}x the tokens "
        f"per second of {current} at your sequence length, with the same loss over the first few hundred steps: turn "
        "it on in the training framework's attention setting and keep it"
    )
    return switch(
        "installed-flash-attention",
        description,
        "evidence.training_throughput.flash_attn_over_default",
        ">=",
        FASTER,
        concern="attention",
    )


def unvalidated_device_switch(choice: StackChoice, profile: Profile) -> SwitchCondition | None:
    """A chosen stack its page validates on other devices of the family only: the first run on the target is a gate,
    the model's task score against the same model's reference (its card's, or the page's device in the same precision),
    and where it misses, the next documented stack or the family's engine untuned (review 215 p15: Iluvatar's VL recipe,
    validated on the Zhikai 100 alone, chosen for a Tiangai 150 with no go/no-go)."""
    device = choice.device
    judged = next((j for j in choice.chosen if any(m.kind in DEVICE_MISFITS for m in j.misfits)), None)
    if judged is None or device is None:
        return None
    validated = sorted({g for m in judged.misfits if m.kind in DEVICE_MISFITS for g in m.generations})
    where = f" ({', '.join(validated)})" if validated else ""
    after = fallback_for_the_device(choice)
    then = after[0] if after else "the stack does not hold there: re-run `advisor recommend` with the evidence"
    description = (
        f"the first run of {judged.stack.name} on the {device.name} fails to start, or scores more than "
        f"{score_gap(profile)} below the model's reference score (its card's, or the same run on the page's "
        f"device{where} in the same precision) on {quality_evaluation(profile)}: {then}"
    )
    return switch(
        "unvalidated-device-gate",
        description,
        f"evidence.accuracy_drop_on_target.{judged.stack.id}",
        ">",
        ACCURACY_DROP,
    )


def context_cap_gate(choice: StackChoice, profile: Profile) -> SwitchCondition | None:
    """A chosen serving stack whose documented launch caps each request below the length the job asks: the longer
    launch is the team's to compile and measure, and the gate says what it must show and what follows when it does not
    (reviews 230 p09 and 232 p09: vLLM Neuron's 16,384-token Llama 3 launch for a long-context job, with "no route and
    no switch" past it)."""
    serving = choice.for_workload("inference")
    if serving is None or not any(misfit.kind == "context_capped" for misfit in serving.misfits):
        return None
    cap = context_cap(serving.stack)
    sla = profile.serving
    needed = sla.isl + sla.osl if sla is not None else LONG_CONTEXT_TOKENS
    if cap is None:
        return None
    latency = "your latency SLA" if sla is not None else "the latency you need"
    # a considered stack on another engine that fits whole, stating no cap, is where the job goes (review 263 p01: vLLM's
    # and SGLang's NVFP4 DeepSeek pages beside TensorRT-LLM's 9,472-token launch)
    rivals = [
        item
        for item in choice.considered
        if item.workload == "inference" and not item.misfits and not same_engine(item, serving)
    ]
    # one whose page documents long sequences first; a page that merely states no cap is no evidence of that length
    # (review 268 p04: MindIE named for 32K+ DeepSeek-V3 W8A8 on "states no such cap")
    documented = next((item for item in rivals if item.stack.long_context is not None), None)
    uncapped = next(iter(rivals), None)
    if documented is not None:
        then = f"serve on {documented.stack.name}, whose page documents long sequences, behind the same checks"
    elif uncapped is not None:
        then = (
            f"try {uncapped.stack.name}, whose page states no cap (and no evidence of that length), behind the same "
            "checks"
        )
    else:
        then = f"keep requests to {cap:,} tokens or re-run `advisor recommend` with the measurement"
    description = (
        f"the launch of {serving.stack.name}, set (and, where its engine compiles per length, recompiled) for "
        f"{needed:,}-token requests (its page stops at {cap:,}), fails to start, holds too few full-length sequences "
        f"for your traffic, misses {latency} at that length, or scores below the model's reference on long inputs: the "
        f"long-context need is not met on this stack; {then}"
    )
    return switch(
        "context-cap-gate",
        description,
        f"evidence.served_context_tokens.{serving.stack.id}",
        "<",
        needed,
        concern="deployment",
    )


def published_checkpoint_switch(serving: Judged | None, profile: Profile) -> SwitchCondition | None:
    """Where the chosen serving stack runs the asked format only from checkpoints its publisher released, none of them
    of this model, so the model is served in float: the list changing is the knowledge claim that reopens the format
    (review 165 p08: Qwen3-14B INT8 on Hygon's cookbook, whose W8A8 releases are other models')."""
    if serving is None or not any(misfit.kind == "unpublished_checkpoint" for misfit in serving.misfits):
        return None
    listed = serving.stack.applies_to.quantized_models
    asked = profile.needs.quantization
    model = profile.model_name or "the model"
    description = (
        f"the {asked} checkpoints {serving.stack.name} serves change (today {few_of(listed)}, none of {model}): re-run "
        f"`advisor recommend`; where the publisher now releases {model} in {asked}, serve it behind the {asked} "
        "accuracy gate against the float model"
    )
    metric = f"knowledge.stack.{serving.stack.id}.quantized_models"
    return switch(f"published-{asked}-checkpoint", description, metric, "!=", quantized_models_value(serving.stack))


def fallback_route_switch(choice: StackChoice, profile: Profile) -> SwitchCondition | None:
    """Where the chosen training stack fits only in part (TorchTitan Neuron's pre-training recipe for a full fine-tune)
    and a route its vendor's current release no longer carries documents the job whole (NxD Training's supervised
    fine-tuning at Neuron 2.28), that route is the fallback if a short run of the chosen one fails, kept as a time-boxed
    exception (review 145 p13), never a throughput race (review 134 p12)."""
    chosen = choice.for_workload("training")
    if chosen is None or chosen.fits or chosen.stack.superseded is not None:
        return None
    fallback = next(
        (
            item
            for item in choice.considered
            if item.workload == "training" and item.stack.superseded is not None and item.fits
        ),
        None,
    )
    if fallback is None:
        return None
    start = " from the model's checkpoint" if profile.training in ("fine-tuning", "lora") else ""
    description = (
        f"a short run of {chosen.stack.name} on the target{start} fails (it does not start, or its loss does not fall "
        f"as the documented run's): fall back to {fallback.stack.name}, which documents this job whole but holds only "
        "on the older release its page validates, as a time-boxed exception with a migration date"
    )
    metric = f"evidence.training_route_fails.{chosen.stack.id}"
    return switch(f"fallback-{fallback.stack.id}", description, metric, "==", "yes")


def asked_format_elsewhere(choice: StackChoice, device: Device, profile: Profile, platform: Platform) -> str:
    """', and on <device> <stack> runs <format>, the <ask> asked' where a chosen stack falls back to its float format
    here and its own page runs the asked quantization on another device of the family whose units run it (the vLLM
    Neuron plugin's MXFP8 on Trainium3, for fp8 asked on a Trainium2); '' otherwise."""
    if not profile.needs.quantized:
        return ""
    asked = set(PRECISIONS_FOR[profile.needs.quantization])
    for judged in choice.chosen:
        formats = [p for p in judged.stack.applies_to.precisions if p in asked]
        if not judged.falls_back or not formats:
            continue
        for other in judged.stack.applies_to.devices:
            there = platform.device(other)
            runs = [p for p in formats if there is not None and p in there.formats]
            # a device whose units the target shares (the MI325X beside an MI300X, both gfx942 with FNUZ FP8) is no
            # other generation that runs the format: the fallback here is not about units (review 106/108 p04)
            same_units = there is not None and (
                there.architecture == device.architecture or any(p in device.formats for p in runs[:1])
            )
            if other != device.id and there is not None and runs and not same_units:
                return (
                    f", and on the {there.name} ({other}) {judged.stack.name} runs {runs[0]}, the "
                    f"{profile.needs.quantization} asked, on its own units"
                )
    return ""


def for_its_generation(judged: Judged, misfit: Misfit) -> bool:
    """A device misfit of a stack whose name says the generation it is validated on ('... on Hopper' for a GB200): a
    recipe for that generation, not one waiting to be validated on the target's."""
    name = judged.stack.name.lower()
    return misfit.kind in OTHER_GENERATION_KINDS and any(
        generation.lower() in name for generation in misfit.generations
    )


def names_format_only_for(risk: str, precision: str) -> bool:
    """The risk names the format as a word ('MXFP4', not the 'FP8' inside 'MXFP8') and limits it to the models its
    page publishes ('only for Llama 3.1 8B'; not 'only for NVIDIA GPUs')."""
    return (
        ONLY_FOR.search(risk) is not None and re.search(rf"(?<![A-Za-z]){precision}\b", risk, re.IGNORECASE) is not None
    )


FLOAT_FORMATS = ("bf16", "fp16")  # what a quantized model is weighed against, the first the device and stack run


def quantization_pays_switch(
    serving: Judged | None, device: Device, profile: Profile, accelerator: bool = False
) -> SwitchCondition | None:
    """A served model quantized for speed, not for memory: where the quantized model is not measurably faster at the
    SLA than the float one on the target, the float model serves with no accuracy risk. Not written where the float
    weights outgrow the job's devices (the format is then what makes it fit), for a convolutional model (its INT8 is
    judged by the probe's speed-up), where the publisher releases the model quantized, where the stack documents no
    float format on this device, nor for a model shipped inside an app or on a phone (the format is what makes it fit
    the app's memory and download, not only speed: review 134 p15). An image model's INT8 gets it too (review 207 p11:
    ONNX Runtime's dynamic INT8 ViT on Graviton4 with no speed gate against the float model); where the probe times the
    chosen toolkit's INT8, its own switch takes the place of this one (engine). A 4-bit model whose vendor releases an
    FP8 copy for the family is timed against that copy instead, where the devices hold it."""
    if serving is None or not profile.serves or not profile.needs.quantized:
        return None
    if profile.needs.in_app or is_mobile(device):
        return None
    dtype = serving.precision
    # a 4-bit model whose vendor releases an FP8 copy for this family is weighed against that copy, the step its
    # accuracy gate falls back to, not the float model (review 223 p04: MXFP4 Llama-3.3-70B timed against bf16 while
    # AMD's FP8-KV release was the named fallback)
    family_fp8 = (
        vendor_fp8(profile.model_name, profile.hardware)
        if profile.model_name is not None
        and profile.needs.quantization in FOUR_BIT_ASKS
        and device.runs_natively("fp8")
        else None
    )
    fp8_held = devices_to_hold(profile, device, "fp8") if family_fp8 is not None else None
    if family_fp8 is not None and (fp8_held is None or fp8_held[1] <= profile.needs.devices):
        description = (
            f"the {dtype} model delivers less than {FASTER:g}x the {served_unit(profile)} of {family_fp8.checkpoint}, "
            f"the vendor's FP8 release, at your latency SLA on the target, same engine and devices: serve the FP8 "
            "release, which carries less accuracy risk"
        )
        metric = f"evidence.inference_throughput.{dtype}_over_fp8"
        return switch(f"{dtype}-no-speedup", description, metric, "<", FASTER)
    floating = next(
        (p for p in FLOAT_FORMATS if p in serving.stack.applies_to.precisions and p in device.formats), None
    )
    if floating is None and profile.model_type == "cnn" and accelerator and "fp16" in device.formats:
        # an accelerator serves an image model's float engine in fp16 (TensorRT's float engine on an L40S, not fp32:
        # review 245 p14)
        floating = "fp16"
    if floating is None and profile.model_type == "cnn" and "fp32" in device.formats:
        floating = "fp32"  # an image model's INT8 recipe quantizes its FP32 export, the float model it is timed against
    if (
        floating is None
        and not accelerator
        and "fp32" in serving.stack.applies_to.precisions
        and "fp32" in device.formats
    ):
        floating = (
            "fp32"  # a CPU stack's INT8 beside its fp32 export (review 261 p11: bge-m3 on Graviton4, no speed gate)
        )
    if floating is None:
        return None
    held = devices_to_hold(profile, device, floating)
    if held is not None and held[1] > profile.needs.devices:
        return None
    known = size_of(profile.model_name) if profile.model_name is not None else None
    if known is not None and known.released_format is not None:
        return None  # released quantized (DeepSeek-R1 in FP8): a float model would be an upcast, not the release
    # bf16 below fp32 is a precision step of its own (AMX Xeons drift from f32 in bf16: review 256 p10); fp16 or bf16
    # as the model's own training dtype on an accelerator is the reference the quantized model is checked against
    risk = (
        "checking its scores against fp32 on your evaluation, since bf16 rounds below the float32 model"
        if floating == "bf16" and not accelerator
        else "which carries no quantization risk"
    )
    description = (
        f"the {dtype} model delivers less than {FASTER:g}x the {served_unit(profile)} of the {floating} model at your "
        f"latency SLA on the target, same engine, model and devices: serve {floating}, {risk}"
    )
    metric = f"evidence.inference_throughput.{dtype}_over_{floating}"
    return switch(f"{dtype}-no-speedup", description, metric, "<", FASTER)


def upstream_type_switches(choice: StackChoice, profile: Profile) -> list[SwitchCondition]:
    """A chosen serving stack whose engine runs the profile's model type only through its upstream project's classes
    (vllm_mlu's vision-language models): its first run is a gate, with the considered stack that documents the type as
    the way out, and that stack's speed the race (reviews 214 p11, 226 p13, 232 p13)."""
    serving = choice.for_workload("inference")
    if serving is None or not any(m.kind == "upstream_model_type" for m in serving.misfits):
        return []
    rival = next(
        (j for j in choice.considered if j.workload == "inference" and not j.misfits and not same_engine(j, serving)),
        None,
    )
    model = profile.model_name or f"the {profile.model_type} model"
    then = (
        f"serve it with {rival.stack.name}, whose page documents it"
        if rival is not None
        else "re-run `advisor recommend` with the evidence"
    )
    if rival is not None and rival.stack.devices_unnamed is not None:  # reviews 265 p13, 268 p11: "documents it" beside
        # a watch line saying xLLM's page names no MLU model
        then = (
            f"try {rival.stack.name}, whose page documents the model but names no device of this family, so its own "
            "first run is a gate too"
        )
    description = (
        f"the first run of {model} on {serving.stack.runner_name} fails to load, or scores more than "
        f"{score_gap(profile)} below the model's reference score on {quality_evaluation(profile)}: {then}"
    )
    found = [
        switch(
            "upstream-model-gate",
            description,
            f"evidence.accuracy_drop_on_target.{serving.stack.id}",
            ">",
            ACCURACY_DROP,
        )
    ]
    if rival is not None:
        found.append(engine_race(serving, rival, "inference", profile))
    return found


def named_release_gate(serving: Judged | None, profile: Profile) -> SwitchCondition | None:
    """A serving stack that falls back to its float format although the team names its own release in the asked
    format (Qwen2.5-14B-Instruct-AWQ on Hygon's vLLM build, which documents no int4): that release's first run on the
    target decides whether it serves, on speed and accuracy against the float model (review 225 p14: the team's AWQ
    checkpoint dropped with no way to test it)."""
    if serving is None or not serving.falls_back or not profile.needs.quantized or profile.model_name is None:
        return None
    release = quantized_release(profile.model_name)
    if release is None or release[0] != profile.needs.quantization:
        return None
    description = (
        f"{profile.model_name} loads on {serving.stack.runner_name} on the target and delivers at least {FASTER:g}x "
        f"the {served_unit(profile)} of the {serving.precision} model at your latency SLA, scoring within "
        f"{score_gap(profile)} of it on {quality_evaluation(profile)}: serve the {release[0]} release, which no page "
        "of this stack documents"
    )
    metric = f"evidence.inference_throughput.{release[0]}_over_{serving.precision}"
    accuracy = predicate(f"evidence.{release[0]}_accuracy_drop", "<=", ACCURACY_DROP)
    return switch(f"{release[0]}-release-on-target", description, metric, ">=", FASTER, accuracy)


def quantized_training_switch(choice: StackChoice, device: Device, profile: Profile) -> SwitchCondition | None:
    """A float training job beside a considered recipe of the same framework that trains in a quantized mode the
    device runs natively (MaxText's int8 training on TPU), missing the profile by that mode alone: its speed and loss
    against the bf16 run decide (review 223 p08: "it may train faster, which its speed and loss would show", and no
    switch to measure it)."""
    chosen = choice.for_workload("training")
    if chosen is None or profile.needs.quantized or chosen.precision not in FLOAT_FORMATS:
        return None
    rival = next(
        (
            judged
            for judged in choice.considered
            if judged.workload == "training"
            and [misfit.kind for misfit in judged.misfits] == ["precision"]
            and same_engine(judged, chosen)
            and all(p not in FLOAT_FORMATS and device.runs_natively(p) for p in judged.stack.applies_to.precisions)
        ),
        None,
    )
    if rival is None:
        return None
    dtype = rival.stack.applies_to.precisions[0]
    description = (
        f"the {dtype} run of {rival.stack.name} delivers at least {FASTER:g}x the {trained_unit(profile)} of the "
        f"{chosen.precision} run on the target, same model and devices, and its training loss stays within "
        f"{LOSS_GAP * 100:g}% of the {chosen.precision} run's at the same step: switch to it"
    )
    metric = f"evidence.training_throughput.{dtype}_over_{chosen.precision}"
    loss = predicate(f"evidence.{dtype}_loss_gap", "<=", LOSS_GAP)
    return switch(f"{rival.stack.id}-faster", description, metric, ">=", FASTER, loss)


def training_pays_switch(choice: StackChoice, device: Device, profile: Profile) -> SwitchCondition | None:
    """A model trained in a low-precision format (FP8, MXFP8) for speed: where that run is not measurably faster than
    the BF16 one on the target, BF16 trains with no loss gap to watch (reviews 148 p11 and 150 p11: FP8 pre-training on
    TPU7x with a loss-gap switch and no speed one). Not for a job that also serves (its format is the serving side's)."""
    training = choice.for_workload("training")
    if training is None or profile.serves or training.precision in FLOAT_FORMATS:
        return None
    if "bf16" not in training.stack.applies_to.precisions or "bf16" not in device.formats:
        return None  # no BF16 run documented on this stack and device to fall back to
    dtype = training.precision
    description = (
        f"the {dtype} run delivers less than {FASTER:g}x the {trained_unit(profile)} of the bf16 run on the target, same model, devices "
        "and layout: train bf16, which has no loss gap to watch"
    )
    metric = f"evidence.training_throughput.{dtype}_over_bf16"
    return switch(f"{dtype}-training-no-speedup", description, metric, "<", FASTER)


def mixed_precision_pays_switch(choice: StackChoice, device: Device, profile: Profile) -> SwitchCondition | None:
    """A model trained in fp32 on an accelerator by a page that documents a mixed-precision path beside it (ConvNeXt's
    --use_amp on Iluvatar): the mixed run takes over where it is faster on the target and holds the fp32 run's
    accuracy (review 189 p08: fp32 GEMMs with no word of the page's AMP path)."""
    training = choice.for_workload("training")
    if training is None or training.precision not in FULL_PRECISIONS:
        return None
    mixed = next(
        (p for p in training.stack.applies_to.precisions if p in MIXED_FORMATS and device.runs_natively(p)), None
    )
    if mixed is None:
        return None
    description = (
        f"the page's {mixed} mixed-precision run delivers at least {FASTER:g}x the {trained_unit(profile)} of its "
        f"{training.precision} run on the target, same model, devices and batch, and its validation accuracy stays "
        f"within {score_gap(profile)} of the {training.precision} run's: train in {mixed}"
    )
    metric = f"evidence.training_throughput.{mixed}_over_{training.precision}"
    accuracy = predicate(f"evidence.{mixed}_accuracy_drop", "<=", ACCURACY_DROP)
    return switch(f"{mixed}-training-pays", description, metric, ">=", FASTER, accuracy)


def native_format_switch(choice: StackChoice, device: Device, profile: Profile) -> SwitchCondition | None:
    """The chosen serving stack runs the asked format weight-only here (FP8 through Marlin on an A100), and a considered
    stack runs the other 8-bit format natively (INT8 W8A8 on its tensor cores): that one takes over where it is faster
    at the SLA and holds the accuracy gate."""
    serving = choice.for_workload("inference")
    if serving is None or serving.precision not in serving.stack.applies_to.weight_only:
        return None
    rival = native_alternative(choice.chosen, choice.considered, device)
    if rival is None:
        return None
    other = next(p for p in rival.stack.applies_to.precisions if p in device.formats and p != serving.precision)
    description = (
        f"{rival.stack.name} in {other} (weights and activations, on the {device.name}'s own {other} units) delivers "
        f"at least {FASTER:g}x the {served_unit(profile)} at your latency SLA of {serving.stack.name}'s weight-only "
        f"{serving.precision}, and the {other} model scores within {score_gap(profile)} of the float one on "
        f"{quality_evaluation(profile)}: serve {other}"
    )
    metric = f"evidence.inference_throughput.{other}_over_{serving.precision}_weight_only"
    return switch(f"inference-in-native-{other}", description, metric, ">=", FASTER)


def narrower_path(stack: Stack, precision: str, device: Device) -> str | None:
    """The first format narrower than `precision` that the stack documents and the device runs natively."""
    order = NARROWER_FORMATS.get(precision, ())
    weight_only = set(stack.applies_to.weight_only)
    return next(
        (p for p in stack.applies_to.precisions if p in order and p in device.formats and p not in weight_only), None
    )


def narrower_format_switches(choice: StackChoice, device: Device, profile: Profile) -> list[SwitchCondition]:
    """Per chosen stack, its own narrower path; where it documents none, the narrower path of a considered stack that
    fits as well (an FP8-only recipe for Qwen3-235B on B200, beside TensorRT-LLM's Qwen3 page that documents NVFP4)."""
    found = []
    for judged in choice.chosen:
        own = narrower_format_switch(judged, device, profile)
        if own is None:
            rival = narrower_rival(judged, choice.considered, device)
            own = narrower_format_switch(judged, device, profile, rival) if rival is not None else None
        if own is not None:
            found.append(own)
    return found


def narrower_rival(judged: Judged, considered: Sequence[Judged], device: Device) -> Judged | None:
    """The considered stack whose narrower path the chosen one's switch names: first one on the same engine that
    differs from the profile only in leading with that format (vLLM's FP8 page beside its BF16 page), else one that
    fits as well (missing nothing the chosen one does not: a B200 page for a B300 when the chosen one is a B200 page
    too); never one whose page keeps the format for other models ('FP8 only for the 405B')."""
    runner = judged.stack.runner.candidate if judged.stack.runner is not None else None

    def path(item: Judged) -> str | None:
        narrower = narrower_path(item.stack, judged.precision, device)
        if narrower is None or any(names_format_only_for(r.value, narrower) for r in item.stack.risks):
            return None
        return narrower

    # a rival may miss what the chosen one misses (a B200 page for a B300), and what weighs nothing (R1's architecture)
    chosen_kinds = {m.kind for m in judged.misfits} | {kind for kind, weight in MISFIT_WEIGHTS.items() if weight == 0}
    same = [j for j in considered if j.workload == judged.workload and path(j) is not None]
    same_engine = [
        j
        for j in same
        if runner is not None
        and j.stack.runner is not None
        and j.stack.runner.candidate == runner
        and all(m.kind in chosen_kinds | {"precision"} for m in j.misfits)
    ]
    as_well = [j for j in same if all(m.kind in chosen_kinds for m in j.misfits)]
    return next(iter(same_engine), None) or next(iter(as_well), None)


def no_float_on_chosen(
    accuracy: SwitchCondition, serving: Judged | None, considered: Sequence[Judged], device: Device
) -> SwitchCondition:
    """An accuracy switch whose way back is the float model, where the chosen serving stack serves its vendor's prebuilt
    engines and lists no float format (the FLUX NIM's FP8-only engine profiles on an L40S): it names the considered
    route that serves the float model on this device, a released server before a demo script (review 252 p14: "keep
    the float model" with no stack to keep it on; review 257 p14: not the demo the table turned down)."""
    if serving is None or serving.stack.prebuilt_engines is None or "float model" not in accuracy.description:
        return accuracy  # an engine the team builds (TensorRT) builds its float engine too
    floats = [p for p in serving.stack.applies_to.precisions if p in FLOAT_PRECISIONS and p in device.formats]
    if floats:
        return accuracy
    serving_float = [
        j
        for j in considered
        if j.workload == "inference"
        and any(p in FLOAT_PRECISIONS and p in device.formats for p in j.stack.applies_to.precisions)
    ]
    # only a route validated on this device: one on other GPUs is no way back here (review 260 p14: SGLang Diffusion on
    # B200 / H200 / H100 named for an L40S); a released server first, then a script or pipeline the team wraps
    on_device = [j for j in serving_float if not any(m.kind in DEVICE_MISFITS for m in j.misfits)]
    released = [j for j in on_device if j.stack.preview is None and not any(m.kind in NOT_A_SERVICE for m in j.misfits)]
    route = next(iter(released or on_device), None)
    wrapped = route is not None and route not in released  # a script or pipeline, no server of its own
    where = (
        f"on {route.stack.name}, the nearest considered route that serves it"
        + (" on this device (a script: the team's own server wraps it)" if wrapped else "")
        if route is not None
        else "on a route of its own, none documented here for this device"
    )
    text = f"{accuracy.description} ({serving.stack.name} serves no float profile here: the float model runs {where})"
    return accuracy.model_copy(update={"description": text})


# Misfits that make a considered route no service to fall back to: a demo script, a deprecated route.
NOT_A_SERVICE = ("script_only", "workflow_app", "deprecated", "deprecated_serving")


def narrower_format_switch(
    judged: Judged, device: Device, profile: Profile, rival: Judged | None = None
) -> SwitchCondition | None:
    """The chosen stack documents a narrower format than the one it runs for this profile, and the device runs that
    format natively (MaxText's FP8 recipe trained in bf16, TensorRT-LLM's NVFP4 path served in FP8): the stack's own
    path in that format, once it is faster and passes the gate, is the next step (a loss curve for training, the task
    score for serving). `rival`: a considered stack that fits as well and documents the narrower path instead."""
    path = rival if rival is not None else judged
    narrower = narrower_path(path.stack, judged.precision, device)
    if narrower is None or published_for_others(path.stack.applies_to, narrower, profile.model_name):
        return None
    rl = judged.workload == "training" and profile.training == "rl"
    if rl:  # an RL loss is no quality signal: the policy's validation score is (review 239 p14)
        gate = (
            f"the policy's validation accuracy (or reward) stays within {score_gap(profile)} of the "
            f"{judged.precision} run's at the same step"
        )
        what = trained_unit(profile)
    elif judged.workload == "training":
        gate = f"its training loss stays within {LOSS_GAP * 100:g}% of the {judged.precision} run's at the same step"
        what = trained_unit(profile)
    elif profile.model_type == "diffusion":
        gate = (
            f"the {narrower} images score within {score_gap(profile)} of the {judged.precision} ones on "
            f"{quality_evaluation(profile)}"
        )
        what = f"{served_unit(profile)} at your latency target"
    else:
        gate = (
            f"the {narrower} model scores within {score_gap(profile)} of the {judged.precision} one on "
            f"{quality_evaluation(profile)}"
        )
        what = f"{served_unit(profile)} at your latency SLA"
    description = (
        f"{judged.stack.name}'s own {narrower} path delivers at least {FASTER:g}x the {what} of its "
        f"{judged.precision} run on the target, and {gate}: run it in {narrower}"
        if rival is None
        else f"{rival.stack.name}, which documents an {narrower} path, delivers in {narrower} at least {FASTER:g}x the "
        f"{what} of {judged.stack.name} in {judged.precision} on the target, and {gate}: move to it in {narrower}"
    )
    limit = next((r.value for r in path.stack.risks if names_format_only_for(r.value, narrower)), None)
    if limit is not None:  # the stack's page publishes that format for some models only (MXFP4 for Llama 3.1 8B)
        description += f", within the limit its page states: {limit}"
    metric = f"evidence.{judged.workload}_throughput.{narrower}_over_{judged.precision}"
    # the gate the description states, encoded beside the speed (review 234 p15: "also: []" under an mxfp4 switch
    # whose text asks for the accuracy too)
    gate_metric = (
        predicate(f"evidence.{narrower}_loss_gap", "<=", LOSS_GAP)
        if judged.workload == "training" and not rl
        else predicate(f"evidence.{narrower}_accuracy_drop", "<=", ACCURACY_DROP)
    )
    return switch(f"{judged.workload}-in-{narrower}", description, metric, ">=", FASTER, gate_metric)


def finer_scaled_switches(choice: StackChoice, device: Device, profile: Profile) -> list[SwitchCondition]:
    """The chosen stack runs the profile in a per-tensor-scaled format (FP8) and documents the same width with block
    scales (MXFP8) that the device runs natively, or in INT8 and documents FP8 there (TensorRT's convolutions on an
    L40S): where the coarse run misses its gate (the loss curve for training, the task score for serving), the stack's
    own finer path is the step before giving up the format."""
    found = []
    for judged in choice.chosen:
        order = FINER_SCALED.get(judged.precision, {})
        weight_only = set(judged.stack.applies_to.weight_only)
        finer = next(
            (
                p
                for p in judged.stack.applies_to.precisions
                if p in order and p in device.formats and p not in weight_only
            ),
            None,
        )
        if finer is None:
            continue
        path = f"{judged.stack.name}'s own {finer} path ({order[finer]})"
        if judged.workload == "training":
            miss = (
                f"the {judged.precision} run's training loss ends more than {LOSS_GAP * 100:g}% above a BF16 run's at "
                "the same step"
            )
            metric, limit_value = f"evidence.{judged.precision}_loss_gap", LOSS_GAP
        else:
            miss = falls_short(f"the {judged.precision} model", profile) + f" on {quality_evaluation(profile)}"
            metric, limit_value = f"evidence.{judged.precision}_accuracy_drop", ACCURACY_DROP
        floating = "BF16" if judged.precision != "int8" else "the float model"
        description = f"{miss}: run {path} and re-check before falling back to {floating}"
        limit = next((r.value for r in judged.stack.risks if names_format_only_for(r.value, finer)), None)
        if limit is not None:
            description += f", within the limit its page states: {limit}"
        found.append(switch(f"{judged.workload}-in-{finer}", description, metric, ">", limit_value))
    return found


KIN_KINDS = ("other_size", "same_architecture")  # a recipe for another size or an earlier release of the model


def kin_fit(judged: Judged) -> bool:
    """It fits, or misses only by being written for another size of the model's series or a model whose architecture
    this one keeps (NeMo RL's Qwen3-32B GRPO recipe for a Qwen3-8B job): a rival a team races (review 131 p02)."""
    return all(misfit.kind in KIN_KINDS for misfit in judged.misfits)


def configs_resized(judged: Judged) -> bool:
    """It misses only by shipping its configurations for another device its page names beside this one (vLLM's
    Qwen3-235B recipe: verified on H200, an NVFP4 variant for Blackwell): the same engine and model on the target, a
    rival a team races once the layout is re-sized (review 250 p01)."""
    # or validated on a sibling card of the same generation (vLLM's H200 recipe for an H100 job, review 256 p01)
    return bool(judged.misfits) and all(
        misfit.kind in ("config_device", "same_generation") for misfit in judged.misfits
    )


def misses_alike(one: Judged, other: Judged) -> bool:
    """Two partial fits that miss the profile in the same kinds of ways (or not at all)."""
    return {misfit.kind for misfit in one.misfits} == {misfit.kind for misfit in other.misfits}


# Rivals raced per workload, each on another engine (review 158 p05: MindIE fitted as well, unraced).
MAX_ENGINE_RACES = 2


def equal_engine_switches(choice: StackChoice, workload: str, profile: Profile) -> list[SwitchCondition]:
    """Where other stacks fit as well with other engines (or miss the profile no more: two recipes written for the
    model's architecture kin, review 117 p01): measure each against the chosen one at the SLA; the faster by 10% wins.
    The first rival (equal_engine_rivals' order), then one on a third engine."""
    chosen = choice.for_workload(workload)
    if chosen is None:
        return []
    races: list[Judged] = []
    for rival in equal_engine_rivals(choice, chosen, workload):
        # each race on an engine not raced yet: SGLang's recipe for the model, not also its recipe for another size
        # of the series (review 166 p05: a Qwen3-30B-A3B TP2 launch raced for a 16-die Qwen3-235B job)
        if all(
            rival.stack.runner_key != raced.stack.runner_key and not same_engine(rival, raced) for raced in races
        ) and (not races or not same_engine(rival, chosen)):
            races.append(rival)
        if len(races) == MAX_ENGINE_RACES:
            break
    return [engine_race(chosen, rival, workload, profile) for rival in races]


def memory_recipe(item: Judged) -> bool:
    """A training recipe whose default keeps the frozen weights in a weight-only format (QLoRA's NF4 base): it buys
    memory, not speed, and run in the chosen stack's float format it is another recipe, so it races nothing on
    throughput (review 204 p07: "QLoRA ... run in bf16" raced a bf16 LoRA trainer)."""
    scope = item.stack.applies_to
    return item.workload == "training" and scope.precisions[0] in scope.weight_only


def equal_engine_rivals(choice: StackChoice, chosen: Judged, workload: str) -> list[Judged]:
    """The considered stacks that race the chosen one, best first."""
    rivals = [
        j
        for j in choice.considered
        if j.workload == workload
        # a partial fit that weighs nothing (a recipe for the model's architecture kin) races one that weighs nothing, and
        # one that misses the profile in the same ways as the chosen one (both validated on another card) races it: the
        # record says a throughput run decides between them, so that run is a switch (review 131 p08)
        and (
            (kin_fit(j) or configs_resized(j))
            if chosen.fits
            else (chosen.weight == j.weight and (j.weight == 0 or misses_alike(j, chosen)))
            # a recipe for the model on a sibling card of the generation, beside a stack that fits whole: NeMo RL's
            # Qwen2.5-7B GRPO recipe on DGX-H100 against verl on H200 (review 220 p15)
            or (j.fits and all(m.kind == "same_generation" for m in chosen.misfits))
        )
        and j.stack.runner_key != chosen.stack.runner_key
        # a route the vendor's current release no longer carries is no place to switch to (review 134 p12: NxD
        # Training, pinned at Neuron 2.28)
        and j.stack.superseded is None
        # a recipe for named models (a YOLOv8 detector's) where the profile names none: no "same model" race
        and not (j.model_assumed and not chosen.model_assumed)
        and not memory_recipe(j)
    ]
    # one that runs the asked precision by default first; one that runs it off its default (TensorRT-LLM's NVFP4
    # recipe in FP8) still fits, and the same-precision benchmark decides between the engines
    # and one that fits whole before a recipe for the model's kin (review 133 p01: SGLang's DeepSeek recipe before
    # vLLM's DeepSeek-V3 one for a DeepSeek-V3.1 job)
    # and another engine before another recipe of the chosen one's (review 142 p13: ExecuTorch's generic XNNPACK page
    # raced its own LLM export page while LiteRT fitted as well)
    rivals.sort(key=lambda j: (not j.fits, same_engine(j, chosen), j.rank.other_default != chosen.rank.other_default))
    return rivals


def engine_race(chosen: Judged, rival: Judged, workload: str, profile: Profile) -> SwitchCondition:
    """The rival delivers FASTER times the chosen stack's throughput on the target, same model, devices and precision:
    switch to it."""
    ours, theirs = chosen.stack.runner_name, rival.stack.runner_name
    if same_engine(rival, chosen):
        ours, theirs = chosen.stack.name, rival.stack.name  # two recipes of one engine: named by their recipes
    whose = "each recipe's" if theirs == rival.stack.name else "each engine's"
    unit = f"{served_unit(profile)} at your latency SLA" if workload == "inference" else trained_unit(profile)
    default = rival.stack.applies_to.precisions[0]
    path = f", run in {chosen.precision} (its recipe defaults to {default})" if rival.precision != default else ""
    # a recipe written for another size of the model's series is taken for its settings, not its model (review 147 p05:
    # "switch to SGLang serving Qwen3-235B-A22B" for a Qwen3-30B-A3B job)
    other_size = any(m.kind == "other_size" for m in rival.misfits) and profile.model_name is not None
    settings = f", with {profile.model_name}'s own weights and layout in its settings" if other_size else ""
    description = (
        f"{theirs} delivers at least {FASTER}x the {unit} of {ours} on the target, same model and devices, "
        f"both in {chosen.precision} ({whose} own benchmark): switch to "
        f"{rival.stack.name}{path}{settings}"
    )
    metric = f"evidence.{workload}_throughput.{rival.stack.id}_over_{chosen.stack.id}"
    return switch(f"{rival.stack.id}-faster", description, metric, ">=", FASTER)


# What a training rival may miss and still race the chosen stack on the target: configurations written for a sibling
# device, a one-device recipe run data parallel, the trainer's own mixed-precision setting, a layer split over the
# devices in one process, the model's kin
LIGHT_TRAINING_MISSES = ("config_device", "scale_data_parallel", "precision_setting", "layer_split", *KIN_KINDS)


def light_rival_switches(
    choice: StackChoice, profile: Profile, taken: Sequence[SwitchCondition]
) -> list[SwitchCondition]:
    """Where the chosen training stack is a partial fit and considered ones miss only lightly (LIGHT_TRAINING_MISSES):
    a run of each on the target decides, one race per recipe, at most two (review 181 p05: PEFT/TRL with bf16 turned on
    against Primus's native SFT, whose configs are MI355X ones; review 193 p04: the one-GPU PEFT guide's script run as
    eight data-parallel copies against the same libraries splitting one copy over the GPUs)."""
    chosen = choice.for_workload("training")
    if chosen is None or chosen.fits:
        return []
    rivals = [
        judged
        for judged in choice.considered
        if judged.workload == "training"
        and judged.misfits
        and all(misfit.kind in LIGHT_TRAINING_MISSES for misfit in judged.misfits)
        and judged.stack.superseded is None
        and judged.stack.id != chosen.stack.id
        and not memory_recipe(judged)
    ]
    ids = {condition.id for condition in taken}
    races = [engine_race(chosen, rival, "training", profile) for rival in rivals]
    return [race for race in races if race.id not in ids][:MAX_ENGINE_RACES]


def missing_only(choice: StackChoice, kind: str) -> Judged | None:
    """The first considered serving stack whose every misfit is of this kind (it misses the profile in that way only)."""
    return next(
        (
            judged
            for judged in choice.considered
            if judged.workload == "inference"
            and judged.misfits
            and all(misfit.kind == kind for misfit in judged.misfits)
        ),
        None,
    )


def smaller_model_switch(choice: StackChoice, profile: Profile) -> SwitchCondition | None:
    """In an app, where a considered runner ships the model only in a narrower format than the one asked (WhisperKit's
    4-bit Whisper beside whisper.cpp's int8), and that is all it misses: its smaller model takes the app where it holds
    the chosen model's accuracy and speed on the target (reviews 173 p13, 175 p13: WhisperKit dropped on format alone,
    with nothing to measure it by)."""
    chosen = choice.for_workload("inference")
    if chosen is None or not profile.needs.in_app or not profile.needs.quantized:
        return None
    rival = missing_only(choice, "lower_precision")
    if rival is None or rival.stack.runner_key == chosen.stack.runner_key:
        return None
    asked = profile.needs.quantization
    narrower = next((p for p in rival.stack.applies_to.precisions if p in LOWER_PRECISIONS.get(asked, ())), None)
    if narrower is None:
        return None
    worse = (
        f"has a word error rate no more than {ACCURACY_DROP * 100:g} point above"
        if profile.serving_task == "transcription"
        else f"scores within {score_gap(profile)} of"
    )
    description = (
        f"the {narrower} model of {rival.stack.name} {worse} the {asked} model chosen here on "
        f"{quality_evaluation(profile)} and serves at least its {served_unit(profile)} on the target: switch to it, a "
        "smaller model in the app"
    )
    metric = f"evidence.inference_throughput.{rival.stack.id}_over_{chosen.stack.id}"
    accuracy = predicate(
        f"evidence.{narrower}_accuracy_drop.{rival.stack.id}_over_{chosen.stack.id}", "<=", ACCURACY_DROP
    )
    return switch(f"{rival.stack.id}-smaller", description, metric, ">=", 1.0, accuracy)


def requantized_rival_switch(choice: StackChoice, profile: Profile) -> SwitchCondition | None:
    """Where the chosen stack serves the model's release as published and a considered stack of the same engine misses
    only by serving a vendor's requantization of it (vLLM's MI355X gpt-oss recipe, AMD's FP8-activation checkpoint):
    that recipe takes over where it is faster at the SLA and holds the release's accuracy (reviews 183/184 p03: the
    chosen MLPerf configuration's only switch was a device change)."""
    chosen = choice.for_workload("inference")
    if chosen is None or profile.model_name is None:
        return None
    rival = missing_only(choice, "requantized_release")
    checkpoint = requantized_checkpoint(rival.stack, profile.model_name) if rival is not None else None
    if rival is None or checkpoint is None:
        return None
    description = (
        f"{rival.stack.name}, serving {checkpoint}, delivers at least {FASTER:g}x the {served_unit(profile)} at your "
        f"latency SLA of {chosen.stack.name} on the target and scores within {score_gap(profile)} of "
        f"{profile.model_name} as released on {quality_evaluation(profile)}: switch to it"
    )
    metric = f"evidence.inference_throughput.{rival.stack.id}_over_{chosen.stack.id}"
    accuracy = predicate("evidence.requantized_accuracy_drop", "<=", ACCURACY_DROP)
    return switch(f"{rival.stack.id}-faster", description, metric, ">=", FASTER, accuracy)


def same_engine(one: Judged, other: Judged) -> bool:
    """The two stacks' runners are one knowledge-base engine (two recipes of ExecuTorch, of vLLM)."""
    return engine_of(one) == engine_of(other)


def engine_alternative_switch(
    tier1: Tier,
    profile: Profile,
    taken: Sequence[SwitchCondition],
    runners: Collection[str],
    leading: str | None = None,
) -> SwitchCondition | None:
    """Where tier 1 names another serving engine or runtime (one of `runners`) as an alternative and no stack of it fits
    as well: the same throughput test, and adopting it brings its own accuracy and stability checks. Where tier 3 leads
    with another engine as the one runtime on every family (`leading`), the test measures what that costs on the target,
    the other way round: tier 1's engine takes the target back only where it is faster there (review 101: the buyer's
    number), whatever other switch is written."""
    deployment = next((c for c in tier1.choices if c.concern == "deployment"), None)
    if deployment is None:
        return None
    llm = served_unit(profile)
    rival: str | None = leading if leading != deployment.option else None  # what tier 3's one runtime costs here
    if rival is None and any(c.id.endswith("-faster") for c in taken):
        return None
    if rival is None and profile.needs.in_app:
        # an alternative with no stack that fits is no switch for an app: tier 1's alternatives are not sorted by
        # whether they run inside one (review 143 p13: mflux, a Python CLI, offered after its in-app misfit)
        return None
    rival = rival or next((option for option in deployment.alternatives if option in runners), None)
    if rival is None:
        return None
    if rival == leading:
        description = (
            f"{deployment.option} delivers at least {FASTER}x the {llm} at your latency SLA of {rival}, tier 3's one "
            f"runtime, on the target, same model, precision and devices: serve the target with tier 1's "
            f"{deployment.option} and keep {rival} for the other families"
        )
        metric = f"evidence.inference_throughput.{deployment.option}_over_{rival}"
        return switch(f"{deployment.option}-engine-faster", description, metric, ">=", FASTER)
    description = (
        f"{rival} delivers at least {FASTER}x the {llm} at your latency SLA of {deployment.option} on the "
        f"target, same model, precision and devices: no stack of {rival} documented here fits this profile "
        f"as well as the chosen one, so switch only after its own accuracy and stability checks"
    )
    metric = f"evidence.inference_throughput.{rival}_over_{deployment.option}"
    return switch(f"{rival}-engine-faster", description, metric, ">=", FASTER)


# Data-parallel attention as a serving page writes it: SGLang's flag, or the layout named in words (vLLM turns it on with
# --data-parallel-size plus --enable-expert-parallel, which AMD's vLLM guide calls DP attention; TensorRT-LLM's
# enable_attention_dp).
DP_ATTENTION = re.compile(
    r"--enable-dp-attention|\benable_attention_dp\b|\bDP[- ]attention\b|data[- ]parallel attention|attention data[- ]parallel",
    re.IGNORECASE,
)


def layout_switch(serving: Judged | None, devices: int) -> SwitchCondition | None:
    """Where the serving recipe documents data-parallel attention as its high-throughput option beside tensor
    parallelism (SGLang's DeepSeek and Llama pages, AMD's vLLM MoE guide), the layout is a measured choice: the same
    engine, model and devices in both layouts at the SLA, on the job's own device count (the page's degree is its
    example)."""
    if serving is None:
        return None
    layout = next(
        (
            c
            for c in serving.stack.components
            if c.role == "parallelism" and DP_ATTENTION.search(f"{c.name} {c.setting or ''}")
        ),
        None,
    )
    if layout is None:
        return None
    return layout_race(
        "dp-attention-layout",
        "dp_attention_over_tensor_parallel",
        f"data-parallel attention (as {serving.stack.name} documents: {layout.setting}) delivers",
        f"the tensor-parallel layout, same engine and model, both over this job's {devices} devices",
        "serve in that layout, and in the tensor-parallel one otherwise (its page documents both, keeping data-parallel "
        "attention for large batches, not low-latency serving)",
    )


def replica_switch(choice: StackChoice, profile: Profile) -> SwitchCondition | None:
    """Where the weights fit a few of the devices (the capacity line's replicas), replicas against one model split
    over all of them is a measured choice: the recipe's layout stays until replicas win at the SLA."""
    devices = profile.needs.devices
    serving = choice.for_workload("inference")
    group = replica_group(profile, choice.device, choice.served_precision, page_devices(serving, choice, profile))
    if group is not None and training_fleet(profile, group):  # the training run's devices, not a serving fleet
        return None
    runner = serving.stack.runner if serving is not None else None
    copies = command_replicas(runner.setting or "", devices, choice.device) if runner is not None else None
    if copies is not None:  # the page's own TP x EP command fits a part of the job's devices: the layout line's race
        size, replicas = copies  # its replicas serve as validated; widening it is what a measurement must earn
        return layout_race(
            "split-over-replicas",
            "single_split_over_replicas",
            f"{one_engine_over(size, replicas, devices)} delivers",
            f"{replicas} replicas of its command as written (tensor parallel {size} with expert parallelism), same "
            "engine and model",
            "serve as one engine",
            served_unit(profile),
        )
    if group is None:
        return None
    return layout_race(
        "replicas-over-split",
        "replicas_over_single_split",
        f"{devices // group} replicas of {group} device{'s' if group > 1 else ''} (data parallel) deliver",
        f"one model split over all {devices}, same engine and model",
        "serve as replicas",
        served_unit(profile),
    )


def layout_race(
    condition_id: str, metric_name: str, faster: str, slower: str, then: str, unit: str = "tokens/s"
) -> SwitchCondition:
    """Another layout of the same engine and model wins when it serves FASTER times the throughput (`unit`) at the
    SLA: `faster` names it with its verb, `slower` the layout it would replace."""
    description = f"{faster} at least {FASTER:g}x the {unit} at your latency SLA of {slower}: {then}"
    return switch(condition_id, description, f"evidence.inference_throughput.{metric_name}", ">=", FASTER)


def trained_unit(profile: Profile) -> str:
    """What a training run's throughput counts: tokens per device for an LLM, samples per device otherwise."""
    return f"training throughput ({'tokens/s' if profile.llm else 'samples/s'} per device)"


def served_unit(profile: Profile) -> str:
    """What a served model's throughput counts: tokens for a generating LLM, audio for transcription (the inverse of
    the real-time factor), sequences for an embedding model, images for diffusion, requests otherwise."""
    task = profile.serving_task
    if task == "transcription":
        return "seconds of audio transcribed per second"
    if task == "embedding":
        return "sequences embedded per second"
    if profile.model_type == "diffusion":
        return "images per second"
    return "tokens/s" if profile.llm else "requests/s"


def quality_evaluation(profile: Profile) -> str:
    """The evaluation a quantized or narrower-format model is gated on: image quality for a diffusion model, the
    team's task score otherwise."""
    if profile.model_type == "diffusion":
        return f"your image-quality evaluation ({IMAGE_QUALITY})"
    if profile.serving_task == "transcription":
        return "your word-error-rate evaluation (the same recordings and text normalisation for both)"
    if profile.serving_task == "embedding":
        return "your retrieval evaluation (recall@k or nDCG on the same queries and corpus for both)"
    return "your task evaluation (the same harness and data for both)"


def score_gap(profile: Profile) -> str:
    """How far a score may fall short of its reference: a point of a task score (a percentage), or for a diffusion
    model one per cent of its mean ImageReward, a score near 1 (reviews 220 p14, 222 p15: "1 point" of no metric)."""
    if profile.model_type == "diffusion":
        return f"{ACCURACY_DROP * 100:g}%"
    return f"{ACCURACY_DROP * 100:g} point"


def falls_short(what: str, profile: Profile, reference: str = "the float model") -> str:
    """'<what> scores more than 1 point below the float model' (or below `reference`, a wider release), or for
    transcription, where lower is better, 'has a word error rate more than 1 point above the float model's'."""
    if profile.serving_task == "transcription":
        return f"{what} has a word error rate more than {ACCURACY_DROP * 100:g} point above {reference}'s"
    return f"{what} scores more than {score_gap(profile)} below {reference}"


def requantized_switch(
    serving: Judged | None, profile: Profile, considered: Sequence[Judged] = ()
) -> SwitchCondition | None:
    """The serving stack serves a vendor's requantization in place of the model's own release (AMD's Quark gpt-oss-120b,
    FP8 activations, on an MI355X): its score against the release decides, and the release is the way back (review
    136 p03), on a considered stack written for the model that serves it as released where one fits (review 160 p03:
    AMD's MLPerf configuration of OpenAI's release); None where no part of the stack says so."""
    if serving is None or profile.model_name is None or not profile.serves:
        return None
    checkpoint = requantized_checkpoint(serving.stack, profile.model_name)
    if checkpoint is None:
        return None
    release_route = next(
        (
            item
            for item in considered
            if item.workload == "inference"
            and item.fits
            and written_for(item.stack.applies_to.models, profile.model_name)
            and requantized_checkpoint(item.stack, profile.model_name) is None
        ),
        None,
    )
    way_back = f" on {release_route.stack.name}" if release_route is not None else ""
    worse = (
        f"has a word error rate more than {ACCURACY_DROP * 100:g} point above"
        if profile.serving_task == "transcription"
        else f"scores more than {score_gap(profile)} below"
    )
    description = (
        f"{checkpoint} {worse} {profile.model_name} as released on {quality_evaluation(profile)}: serve "
        f"{profile.model_name} as released instead{way_back}"
    )
    metric = "evidence.requantized_accuracy_drop"
    return switch("requantized-accuracy-drop", description, metric, ">", ACCURACY_DROP)


# A quantization part that stores each weight as an index into a table of float values (Core ML palettization), not
# integers with scales: finer scales are no step back for it (review 230 p12: WhisperKit's compressed variants)
PALETTIZED = re.compile(r"palettiz", re.IGNORECASE)
# ggml's and GGUF's fixed block types (q4_0, q5_1, q8_0, Q4_K_M...): per-channel scales, float layers or QAT are no
# remedy there; a wider type, an importance-matrix K-quant (llama.cpp's llama-quantize --imatrix, review 251 p09) or the
# F16 file is (review 246 p10)
GGML_TYPES = re.compile(r"\bggml\b|\bGGUF\b", re.IGNORECASE)


HALF_PRECISIONS = ("fp16", "bf16")


def half_precision_switch(serving: Judged | None, profile: Profile) -> SwitchCondition | None:
    """A vision or embedding model served in a 16-bit float format by a stack whose page documents fp32 beside it,
    with no quantization asked: the 16-bit engine's accuracy against the fp32 model decides, and fp32 is the way back
    (review 259 p15: an ixRT FP16 engine for a ViT on a BI-V150 with the recipe's FP32 build never gated)."""
    if serving is None or profile.needs.quantized or profile.trains:
        return None
    if profile.model_type != "cnn" and profile.serving_task != "embedding":  # vision and embedding models train in fp32
        return None
    if serving.precision not in HALF_PRECISIONS or "fp32" not in serving.stack.applies_to.precisions:
        return None
    half = serving.precision
    what = f"the {half} build of the model"
    description = (
        f"{falls_short(what, profile, 'the fp32 model')} on {quality_evaluation(profile)}: build it in fp32, which "
        f"{serving.stack.name} documents too, and re-check its throughput"
    )
    return switch(f"{half}-vs-fp32-accuracy", description, f"evidence.{half}_accuracy_drop", ">", ACCURACY_DROP)


def served_ask_profile(profile: Profile, served: str | None) -> Profile:
    """The profile as the accuracy gate reads it: asking the quantized format the chosen serving stack actually serves
    where that is another one (int4 AWQ served for an int8 ask on Iluvatar: review 260 p13 read an int8 gate beside an
    int4 verdict); the profile itself otherwise."""
    if served is None or not profile.needs.quantized or profile.trains:
        return profile
    if served in PRECISIONS_FOR[profile.needs.quantization]:
        return profile
    ask = next((q for q in QUANTIZATIONS if q != "none" and served in PRECISIONS_FOR.get(q, ())), None)
    if ask is None:
        return profile
    return profile.model_copy(update={"needs": profile.needs.model_copy(update={"quantization": ask})})


def accuracy_switch(
    profile: Profile,
    device: Device | None = None,
    page: int | None = None,
    palettized: bool = False,
    block_typed: bool = False,
) -> SwitchCondition | None:
    """A quantized profile: the quantized model's task accuracy against bf16 decides whether it ships; a low-precision
    training run is held to the BF16 run's loss curve instead (pre-training has no task score yet), but quantization-
    aware training is judged, like PTQ, by the exported quantized model's accuracy. `page`: the devices the serving
    page written for this model runs it on (page_devices), the replica in both formats where it holds them;
    `palettized`: the serving stack stores its weights as palette indices, whose step back is more bits, not scales;
    `block_typed`: it stores them in ggml's fixed block types, whose step back is a wider type or the F16 file."""
    if not profile.needs.quantized:
        return None
    dtype = profile.needs.quantization
    known = size_of(profile.model_name) if profile.model_name is not None else None
    released = known.released_format if known is not None else None
    # served as its publisher released it (gpt-oss in MXFP4): no float model to keep (reviews 111/112 p01)
    if released is not None and released in PRECISIONS_FOR[dtype] and not profile.trains:
        return None
    trained_in_format = (
        profile.needs.quantization_method != "qat" or dtype in TRAINED_PRECISIONS
    )  # FP8 "QAT" is FP8 training
    if profile.trains and not profile.serves and trained_in_format and profile.training == "rl":
        description = (
            f"the {dtype} run's policy scores more than {score_gap(profile)} below a BF16 run's on its validation set "
            f"at the same step (an RL loss is no quality signal): train in BF16, or use a finer {dtype} recipe, and "
            "re-check"
        )
        return switch(f"{dtype}-accuracy-gap", description, f"evidence.{dtype}_accuracy_drop", ">", ACCURACY_DROP)
    if profile.trains and not profile.serves and trained_in_format:
        description = (
            f"the {dtype} run's training loss ends more than {LOSS_GAP * 100:g}% above a BF16 run's at the same "
            f"step (same data and seed): train in BF16, or use a finer {dtype} recipe, and re-check"
        )
        return switch(f"{dtype}-loss-gap", description, f"evidence.{dtype}_loss_gap", ">", LOSS_GAP)
    what = f"the {dtype} model" if profile.needs.quantization_method != "qat" else f"the exported {dtype} QAT model"
    # in an app the format is what fits the model in the device's memory: the fallback is a wider quantized scheme,
    # not the float model (review 153 p15: "keep the float model" for a 3B model on a phone, about 6.4 GB in BF16)
    # a model its publisher releases in a wider quantized format (DeepSeek-R1-0528 in FP8) has no float model to keep:
    # the way back is that release (review 155 p01: NVIDIA's FP4 card measures FP4 against the FP8 checkpoint)
    wider_release = (
        released is not None
        and not profile.trains
        and not profile.needs.in_app
        and SERVING_BYTES_PER_PARAMETER.get(released, 0) > SERVING_BYTES_PER_PARAMETER.get(dtype, 0)
    )
    # a vendor's FP8 release for the family is the step between a 4-bit model and the float one (review 163 p03:
    # AMD's Llama-3.3-70B FP8-KV skipped for "keep the float model" on MI355X)
    family_fp8 = (
        vendor_fp8(profile.model_name, profile.hardware)
        if profile.model_name is not None and dtype in FOUR_BIT_ASKS and not profile.trains
        else None
    )
    # released as a mix of quantized formats (DeepSeek-V4-Flash's FP4 experts and FP8 rest): no float model either
    # (review 171 p01: "keep the float model" beside NVIDIA's NVFP4 requantization of that release)
    mixed_release = known.released_mix if known is not None and not profile.trains else None
    # a network quantized to 8 bits already: per-channel scales, float for the sensitive layers or QAT (review 174
    # p15: "smaller groups, or 8-bit" for an INT8 MobileNet, where XNNPACK's INT8 is per-channel or per-tensor)
    in_app_fit = ", keeping a model that fits the app" if profile.needs.in_app else ""
    fallback = (
        f"quantize to a wider ggml type (Q5_K_M or Q8_0), or with llama.cpp's llama-quantize to a 4-bit K-quant "
        f"(Q4_K_M) made with an importance matrix (--imatrix), and re-check{in_app_fit}"
        if block_typed and dtype in FOUR_BIT_ASKS
        else f"ship the F16 ggml file (Q8_0 is the widest integer type ggml's quantize tools write) and re-check"
        f"{in_app_fit}"
        if block_typed
        else "palettize with more bits (a larger table, or float16 for the most sensitive layers) or ship the float16 "
        "model, and re-check, keeping a model that fits the app"
        if profile.needs.in_app and palettized
        else "quantize with finer scales (smaller groups, or 8-bit for the most sensitive layers) and re-check, keeping a "
        "model that fits the app"
        if profile.needs.in_app and dtype in FOUR_BIT_ASKS
        else "keep the most sensitive layers in float, or train the QAT run longer or from a better float "
        "checkpoint, and re-check"
        if profile.needs.in_app and profile.needs.quantization_method == "qat"
        else "use per-channel weight scales, keep the most sensitive layers in float, or train with quantization "
        "(QAT), and re-check"
        if profile.needs.in_app
        else f"serve the {released} release as published, or quantize with finer scales and re-check"
        if wider_release
        else f"serve the release as published ({mixed_release})"
        if mixed_release is not None
        else f"serve {family_fp8.checkpoint}, the vendor's FP8 release for this family, or keep the float model"
        if family_fp8 is not None
        else "keep the float model, or quantize with finer scales and re-check"
    )
    held = devices_to_hold(profile, device, "bf16") if device is not None and not profile.trains else None
    if held is not None and held[1] > profile.needs.devices and "float model" in fallback:
        # review 163 p06: "keep the float model" for a DeepSeek-V3.1 the job's 16 dies cannot hold in BF16
        fallback += (
            f" (the float model's {held[0]:,.0f} GB take at least {held[1]} of these devices, more than the job's "
            f"{profile.needs.devices})"
        )
    elif held is not None and "float model" in fallback:  # it fits, in fewer copies (review 213 p06: a 671B model's
        # int8 weights as 2 replicas of 16 dies, its BF16 ones as one copy over all 32), counted as the capacity line
        # counts replicas (review 217 p05: "2 replicas of 2" there, "4 copies" here)
        devices = profile.needs.devices
        # a serving page's own layout counts in both formats where it holds them, as in the capacity line (review 223
        # p09: "4 copies of it against 8 in fp8" beside "4 replicas of 4 as the page does")
        floats = devices // (replica_group(profile, device, "bf16", page) or devices)
        quantized = devices // (replica_group(profile, device, dtype, page) or devices)
        if floats < quantized:
            fallback += (
                f" (the float model's {held[0]:,.0f} GB take more of these devices a copy, so the job's {devices} hold "
                f"{floats} cop{'y' if floats == 1 else 'ies'} of it against {quantized} in {dtype}: size the layout "
                "again)"
            )
    reference = (
        f"{profile.model_name}'s {released} release"
        if wider_release
        else f"{profile.model_name} as released"
        if mixed_release is not None
        else "the float model"
    )
    description = f"{falls_short(what, profile, reference)} on {quality_evaluation(profile)}: {fallback}"
    return switch(f"{dtype}-accuracy-drop", description, f"evidence.{dtype}_accuracy_drop", ">", ACCURACY_DROP)
