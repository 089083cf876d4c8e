"""Tier 3 made coherent: a portable graph runtime brings its own kernels and quantizer, and each other family keeps
the stack documented for it.

The per-concern rules pick a portable option for each concern on its own; where tier 3 deploys through a graph
runtime that runs on every family (ONNX Runtime with each platform's execution provider), the kernels and the
quantizer are that runtime's, not a compiler's that the runtime never calls. The tier's notes name, for each other
family, the whole stack that family's engine would choose for the same profile.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from advisor.knowledge.model_sizes import published_fp8, size_of, written_for
from advisor.knowledge.models import CLAIMED_TASKS_ONLY, CONCERNS, Candidate, Concern
from advisor.knowledge.platforms import Device
from advisor.knowledge.stacks import Component, Stack
from advisor.profile import Profile
from advisor.recommendation.adapt import serves_published_fp8
from advisor.recommendation.capacity import devices_to_hold, replica_group
from advisor.recommendation.citations import (
    cite_claim,
    cite_compatibility,
    cite_format,
    cite_profile,
    cite_stack,
    format_support,
    line,
)
from advisor.recommendation.context import RuleContext
from advisor.recommendation.models import AS_RELEASED, Choice, Citation, Gap, Rationale, Tier
from advisor.recommendation.policy import (
    MISFIT_WEIGHTS,
    PORTABLE_KERNEL_LAYERS,
    PRECISIONS_FOR,
    RUNTIME_KERNEL_CONCERNS,
    RUNTIME_KERNEL_LAYERS,
    SKILL_ORDER,
    TRAINED_PRECISIONS,
)
from advisor.recommendation.rules.tiers import (
    documented_runner,
    kept_text,
    near_stack_everywhere,
    per_platform_choices,
    task_stacks,
)
from advisor.recommendation.served_format import format_there, on_family
from advisor.recommendation.stack import needs_training_framework
from advisor.recommendation.stack_choice import (
    DEVICE_MISFITS,
    NEAR_TYPE_KINDS,
    Judged,
    StackChoice,
    choose_stacks,
    judge,
    runner_of,
)
from advisor.vocabulary import ASKED_FORMATS


def portable_runtime(tier: Tier, context: RuleContext) -> Candidate | None:
    """Tier 3's deployment when it is a graph runtime, framework or serving engine serving the model on every family
    (not training)."""
    deployment = next((c for c in tier.choices if c.concern == "deployment"), None)
    if deployment is None or not context.profile.serves or deployment.option not in context.knowledge.ids():
        return None
    candidate = context.knowledge.get(deployment.option)
    return candidate if candidate.layer.value in PORTABLE_KERNEL_LAYERS else None


PER_FAMILY = "one per family"  # a quantization setting: each family's documented stack quantizes its own way
AT_LOAD = "none: quantized at load"  # a quantization setting: the documented stacks quantize in the serving process
# A documented quantization part that quantizes the loaded float model in the serving process (torchao's quantize_()
# under a Diffusers pipeline): it writes no checkpoint to share (review 214 p14: "one fp8 checkpoint written by torchao")
AT_LOAD_WORDS = re.compile(r"\bat load\b|\bquantize_\(", re.IGNORECASE)


def runtime_choice(concern: str, candidate: Candidate, context: RuleContext) -> Choice:
    """The runtime for a concern it carries itself: its kernels per platform, or its own quantizer."""
    if concern == "quantization":
        dtype = context.profile.needs.quantization
        documented = documented_quantizer_settings(candidate, context)
        if documented:  # the families' stacks quantize with a setting of their own (an ISA preset): one per family
            each = "; ".join(f"{stack.applies_to.family}: {part.setting}" for stack, part in documented)
            text = (
                f"{candidate.name} quantizes for its own runtime ({dtype}) with the setting each family's documented "
                f"stack uses ({each}): one tool, and one {dtype} model per family, each checked against the float model"
            )
            if context.profile.serving_task == "embedding":  # one index, vectors from two differently rounded models
                text += (
                    "; the families' vectors then differ slightly, so an index shared between them is built from one "
                    "family's model, and each family's recall on it is checked against the float model's"
                )
            cites = [cite_stack(stack, part) for stack, part in documented]
        else:
            text = (
                f"{candidate.name} quantizes for its own runtime ({dtype}): one quantized model for every family, run "
                f"by each family's backend where that backend runs {dtype} (check each target)"
            )
            cites = []
        why = line(
            text,
            cite_format(candidate, dtype, context.knowledge),
            *cites,
            cite_profile(context.profile, "needs.quantization"),
        )
        settings = {"dtype": dtype, **({"checkpoints": PER_FAMILY} if documented else {})}
        if context.profile.needs.quantization_method != "qat":
            return Choice(concern="quantization", option=candidate.id, settings=settings, rationale=(why,))
        qat = (
            candidate.qat
        )  # a runtime does not train: QAT happens in the training framework, the runtime runs its export
        how = line(
            f"QAT asked: the model is trained quantization-aware in the training framework, simulating "
            f"{candidate.name}'s own {dtype} format (QAT keeps its gain only against the rounding it trained "
            f"for), and exported as a quantized model that {candidate.name} runs on every family"
            + (f" ({qat.note})" if qat.note else f" (knowledge base: QAT {qat.value})"),
            cite_claim(candidate, "qat"),
            cite_format(candidate, dtype, context.knowledge),
            cite_profile(context.profile, "needs.quantization_method"),
        )
        # a runtime with no QAT flow of its own runs the training framework's export (review 134 p15: "llama-cpp
        # [method=qat]" beside a stack rejected for running no QAT)
        method = "qat" if qat.value == "yes" else "qat in the training framework (this part runs its export)"
        return Choice(
            concern="quantization", option=candidate.id, settings={"dtype": dtype, "method": method}, rationale=(how,)
        )
    if concern == "fusion" and (candidate.layer.value != "serving-engine" or candidate.fusion.value != "yes"):
        why = own_fusion_line(candidate)
    else:
        text = {
            "fusion": f"{candidate.name} brings its own fused kernels and graph capture on each family's backend",
            "dynamic-shapes": f"{candidate.name} takes the shapes itself on every family (its own batching or shape "
            "handling)",
        }.get(concern, f"{candidate.name} runs {concern} on each family's own kernels (its backend there)")
        why = line(text, cite_claim(candidate, "hardware"))
    return Choice(
        concern=concern,  # type: ignore[arg-type]
        option=candidate.id,
        settings={"part": f"{candidate.name}'s own kernels", "by": "runtime"},
        rationale=(why,),
    )


def documented_quantizer_settings(runtime: Candidate, context: RuleContext) -> list[tuple[Stack, Component]]:
    """For each family of the profile, the quantization part (with a setting) of the first stack there that the runtime
    runs, that fits the profile on that family and runs the asked format, where the runtime is its own quantizer
    (Sentence Transformers' ONNX export: avx512_vnni on x86, arm64 on Arm); empty unless the settings differ between
    families, since then one quantized model does not serve them all as documented."""
    profile, found = context.profile, []
    for family in profile.families:
        device = profile.device if family == profile.hardware else profile.needs.other_device(family)
        for stack in context.knowledge.stacks_for(family):
            runner = stack.runner
            if (
                runner is None
                or runner.candidate != runtime.id
                or profile.needs.quantization not in stack.applies_to.precisions
                or not stack.fits(family, device, "inference", profile.model_type)
                or not stack.serves_task(profile.serving_task)
            ):
                continue
            part = next((c for c in stack.components if c.role == "quantization" and c.candidate == runtime.id), None)
            if part is not None and part.setting is not None:
                found.append((stack, part))
                break
    presets = {frozenset(ISA_PRESET.findall(part.setting or "")) for _, part in found}
    return found if len(presets) > 1 else []


# The words by which a quantizer's setting targets one instruction set (Sentence Transformers' avx512_vnni and arm64
# presets): settings that differ in these write a model per family; settings that differ only in wording (ONNX
# Runtime's QDQ S8S8 on x86 and Arm) write one model that serves both (review 101 p14).
ISA_PRESET = re.compile(r"\b(?:avx512\w*|avx2|vnni|amx\w*|arm64|neon|sve2?|sme2?|reduce_range=True)\b", re.IGNORECASE)


def own_fusion_line(runtime: Candidate) -> Rationale:
    """What a graph runtime or framework fuses on each family's backend, in its own fusion claim's words: they differ
    (ONNX Runtime rewrites the graph when a session loads it, ExecuTorch's backends fuse ahead of time, llama.cpp has
    hand-fused kernels and no graph compiler), so no one sentence is true of them all."""
    fusion = runtime.fusion
    if fusion.value in ("yes", "partial") and fusion.note:
        text = f"{runtime.name} brings its own fusion to each family's backend: {fusion.note}"
    elif fusion.value in ("yes", "partial"):
        text = f"{runtime.name} brings its own fusion to each family's backend (knowledge base: fusion {fusion.value})"
    else:
        text = (
            f"{runtime.name} runs the model on each family's backend; how far it fuses there is not documented "
            f"(knowledge base: fusion {fusion.value})"
        )
    return line(text, cite_claim(runtime, "fusion"), cite_claim(runtime, "hardware"))


def quantizes_itself(candidate: Candidate, context: RuleContext) -> bool:
    """The runtime has its own quantizer for the asked format (ONNX Runtime's quantization tool, GGUF)."""
    profile = context.profile
    if not profile.needs.quantized or "quantization" not in candidate.concerns.value:
        return False
    if candidate.layer.value not in RUNTIME_KERNEL_LAYERS:  # an engine loads a toolkit's checkpoint (loaded_quantizer)
        return False
    return format_support(candidate, profile.needs.quantization, context.knowledge) in ("yes", "partial")


def unmatched_note(judged: Judged, choice: StackChoice, want: str, context: RuleContext, there: Profile) -> str:
    """Why the family's stack named is not run by tier 3's engine: the nearest stack of that engine there and what it
    misses ('nvidia-vllm-int8-w8a8: documented for dense-transformer, not moe'), or that none is documented."""
    knowledge = context.knowledge
    known = set(knowledge.ids())
    engine = knowledge.get(want).name
    platform = knowledge.platform(there.hardware)
    theirs = min(
        (
            judge(stack, judged.workload, there, choice.device, platform, knowledge)
            for stack in knowledge.stacks_for(there.hardware)
            if judged.workload in stack.applies_to.workloads
            and getattr(runner_of(stack, judged.workload, known), "candidate", None) == want
        ),
        key=lambda item: item.rank,
        default=None,
    )
    if theirs is None:
        return f" (no {engine} stack is documented for this profile there: this one is the measured alternative)"
    miss = "; ".join(m.text for m in theirs.misfits) or "it fits less well"
    return (
        f" (the nearest {engine} stack there, {theirs.stack.id}, misses this profile: {miss}; this one is the "
        "measured alternative)"
    )


NO_PATH_THERE = "path is documented there"  # a family's note where its stack serves the float model


def float_families(tier: Tier, dtype: str) -> list[str]:
    """The families whose tier-3 note says their stack serves the float model, no `dtype` path documented there."""
    found = []
    for note in tier.notes:
        if note.text.startswith("on ") and f"no {dtype} {NO_PATH_THERE}" in note.text:
            found.append(note.text[3:].split(",", 1)[0])
    return found


def other_family_stack(
    context: RuleContext,
    family: str,
    runners: dict[str, str] | None = None,
    unquantized: bool = False,
    here: Judged | None = None,
) -> Rationale | None:
    """The whole stack the family's own engine chooses for the same profile, where one fits; among the stacks that
    fit there, one run by the same engine or framework as here (tier 3's runtime, tier 1's training framework) first."""
    there = on_family(context.profile, family, context.knowledge)
    if unquantized:  # tier 3's engine serves the float model: the family's float stack for it
        there = there.model_copy(update={"needs": there.needs.model_copy(update={"quantization": "none"})})
    choice = choose_stacks(there, context.knowledge)
    # fits there, but for the device, or runs only a float format there (the line says which)
    near = [j for j in choice.chosen if j.nearly_fits]
    if not near:
        return None
    known = set(context.knowledge.ids())
    picked, unmatched, wanted = [], [], runners or {}
    for judged in near:
        want = wanted.get(judged.workload)
        fitting = [
            judged,
            *(j for j in choice.considered if j.workload == judged.workload and j.nearly_fits),
        ]
        same = next(
            (
                j
                for j in fitting
                if want is not None and getattr(runner_of(j.stack, j.workload, known), "candidate", None) == want
            ),
            None,
        )
        picked.append(same or judged)
        if want is not None and same is None and want in known:
            unmatched.append(judged)
    names = "; ".join(
        judged.stack.name
        + (f" (in {judged.precision})" if judged.precision != judged.stack.applies_to.precisions[0] else "")
        + (f" (in {judged.precision}: no {there.needs.quantization} {NO_PATH_THERE})" if judged.falls_back else "")
        + "".join(f" ({m.text})" for m in judged.misfits if m.kind in DEVICE_MISFITS)  # an Intel stack for an EPYC
        # a CNN recipe named for a vision transformer says so (review 170 p14: ONNX Runtime's static QDQ CNN stack on
        # Graviton for DINOv2)
        + "".join(f" (a partial fit: {m.text})" for m in judged.misfits if m.kind == "convolutional_recipe")
        + (unmatched_note(judged, choice, wanted[judged.workload], context, there) if judged in unmatched else "")
        for judged in picked
    )
    device = ""
    if choice.device is not None:
        device = f" for the {choice.device.name}" + (
            " (assumed: the family's current generation; name the device in needs.other_devices)"
            if choice.device_assumed
            else ""
        )
    if unquantized:
        names += f" (unquantized: tier 3's engine documents no {context.profile.needs.quantization} serving)"
    else:
        names += format_there(there, context.profile, choice.device)
    names += devices_there(there, choice, picked)
    names += shared_export(context, picked, here)
    return line(
        f"on {family}, the stack documented there{device}: {names}",
        cite_stack(picked[0].stack),
        cite_profile(context.profile, "needs.other_devices" if not choice.device_assumed else "needs.other_hardware"),
    )


def devices_there(there: Profile, choice: StackChoice, picked: Sequence[Judged]) -> str:
    """'; the weights take about 671 GB in int8 there, more than 8 x 64 GB: at least 12 of them before the KV cache'
    where serving the model on the other family's device needs more devices than the job has on the target (review
    104 p08: DeepSeek-V3.1 on 8 x 910B), else ''."""
    served = next((judged for judged in picked if judged.workload == "inference"), None)
    if served is None or not there.serves:
        return ""
    held = devices_to_hold(there, choice.device, served.precision)
    if held is None or choice.device is None:
        return ""
    weights, fewest = held
    if fewest <= there.needs.devices:
        return layout_there(there, choice.device, served.precision, weights)
    return (
        f"; the weights take about {weights:,.0f} GB in {served.precision} there, more than {there.needs.devices} x "
        f"{choice.device.memory_gb:g} GB of {choice.device.name}: at least {fewest} of them before the KV cache"
    )


def layout_there(there: Profile, device: Device, precision: str, weights: float) -> str:
    """'; the weights take about 71 GB in fp8 there: tensor parallel 2 over the 2 x H100, half of each device's memory
    kept for the KV cache' where an LLM the job serves on several devices takes another layout on the other family's
    device than one copy per device (review 151 p03: 70B in FP8 fits one H100 with about 2 GB left), else ''."""
    devices = there.needs.devices
    if not there.llm or devices <= 1:
        return ""
    group = replica_group(there, device, precision) or devices
    if group == 1:
        return ""
    layout = (
        f"tensor parallel {group} over the {devices} x {device.name}"
        if group == devices
        else f"{devices // group} replicas of {group} (tensor parallel {group}) over the {devices} x {device.name}"
    )
    return (
        f"; the weights take about {weights:,.0f} GB in {precision} there: {layout}, half of each device's memory kept "
        "for the KV cache"
    )


EXPORT_NAMES: dict[str, str] = {"onnx": "ONNX"}


def shared_export(context: RuleContext, there: Sequence[Judged], here: Judged | None) -> str:
    """'; like <the target's stack>, it builds from an ONNX export of the model: ...' where the family's serving stack
    and the target's (`here`, the serving stack chosen on the target) build from the same exchange format, so one
    export is the portable artifact."""
    served = next((judged for judged in there if judged.workload == "inference"), None)
    if served is None or here is None or here.stack.builds_from is None:
        return ""
    if served.stack.builds_from != here.stack.builds_from:
        return ""
    name = EXPORT_NAMES.get(here.stack.builds_from, here.stack.builds_from)
    return (
        f"; like {here.stack.name} on {context.profile.hardware}, it builds from an {name} export of the model: one "
        "export feeds both, each family calibrating and building its own engine from it"
    )


def family_notes(
    tier: Tier, context: RuleContext, runners: dict[str, str] | None = None, here: Judged | None = None
) -> tuple[Rationale, ...]:
    """Tier 3's notes, each other family's line naming its documented stack where it has one (`here`: the serving stack
    chosen on the target, whose export another family's stack may share)."""
    notes = []
    for note in tier.notes:
        family = next((f for f in context.profile.needs.other_hardware if note.text.startswith(f"on {f},")), None)
        documented = other_family_stack(context, family, runners, here=here) if family is not None else None
        engine = (runners or {}).get("inference")
        if family is not None and documented is None and engine is not None and serves_unquantized(engine, context):
            documented = other_family_stack(context, family, runners, unquantized=True, here=here)
        if family is not None and documented is None:
            documented = nearest_there(note, family, context)
        notes.append(documented or note)
    return tuple(notes)


def nearest_there(note: Rationale, family: str, context: RuleContext) -> Rationale | None:
    """A family's line where no documented stack fits the profile there, extended with the nearest one and why it does
    not fit (Whisper on Graviton: Arm's learning path runs another Whisper in bf16), where one is documented for this
    kind of model; None where none is."""
    choice = choose_stacks(on_family(context.profile, family, context.knowledge), context.knowledge)
    nearest = next(
        (
            j
            for j in (*choice.chosen, *choice.considered)
            if not j.model_assumed and not any(m.kind in ("other_model", *NEAR_TYPE_KINDS) for m in j.misfits)
        ),
        None,
    )  # a stack for this kind of model, not a recipe for a model the profile does not name
    if nearest is None:
        return None
    reasons = "; ".join(m.text for m in nearest.misfits[:2])
    return line(
        f"{note.text}; no documented stack fits there, the nearest is {nearest.stack.name} ({reasons})",
        *note.cites,
        cite_stack(nearest.stack),
    )


def fp8_release(context: RuleContext) -> str | None:
    """The publisher's FP8 checkpoint of the profile's model, where FP8 serving of an LLM is asked: its -FP8 twin, or
    the model itself where it is released in FP8 (DeepSeek-V3.1)."""
    profile = context.profile
    named = profile.model_name
    if named is None or profile.needs.quantization != "fp8" or profile.trains or not profile.llm:
        return None
    twin = published_fp8(named)
    known = size_of(named)
    return (
        twin.checkpoint if twin is not None else named if known is not None and known.released_format == "fp8" else None
    )


def release_stacks(
    engine: str, context: RuleContext, serves: Callable[[Stack], bool] = serves_published_fp8
) -> dict[str, list[Stack]]:
    """Per family of the profile, the stacks running tier 3's engine that document serving the release (`serves`: a
    publisher's FP8 release by default)."""
    return {
        family: [
            stack
            for stack in context.knowledge.stacks_for(family)
            if stack.runner is not None and stack.runner.candidate == engine and serves(stack)
        ]
        for family in context.profile.families
    }


def quantized_model_release(engine: str, context: RuleContext) -> Choice | None:
    """A model its publisher releases in a format the ask takes (gpt-oss's MXFP4 weights for an fp4 ask), served on
    every family of the profile by a stack running tier 3's engine that is written for it: the release, loaded as it
    is, and no quantizer (review 148 p02: ModelOpt's NVFP4 on an H200, whose units run no FP4). None otherwise."""
    profile = context.profile
    named = profile.model_name
    known = size_of(named) if named is not None else None
    released = known.released_format if known is not None else None
    if named is None or released is None or released not in ASKED_FORMATS.get(profile.needs.quantization, ()):
        return None
    serving = release_stacks(
        engine,
        context,
        lambda stack: released in stack.applies_to.precisions and written_for(stack.applies_to.models, named),
    )
    if not all(serving.values()):
        return None
    stacks = [found[0] for found in serving.values()]
    text = (
        f"{named} is released in {released}: {engine} loads it as released on {', '.join(profile.families)}, as the "
        "stacks documented there do, so one checkpoint serves every family and no quantizer runs"
    )
    why = line(text, *(cite_stack(stack) for stack in stacks), cite_profile(profile, "model"))
    return Choice(
        concern="quantization",
        option=engine,
        settings={"dtype": released, "checkpoint": f"{named}{AS_RELEASED}"},
        rationale=(why,),
    )


def published_release(engine: str, context: RuleContext) -> Choice | None:
    """FP8 serving of a model its publisher releases in FP8 (DeepSeek-V3.1 itself, Qwen3's -FP8 twins), where on every
    family a stack running tier 3's engine documents serving such a release: one checkpoint, loaded as released, and
    no quantizer to run. None otherwise."""
    profile = context.profile
    released = fp8_release(context)
    if released is None:
        return None
    documented = release_stacks(engine, context)
    if not all(documented.values()):
        return None
    stacks = [stack for found in documented.values() for stack in found[:1]]
    text = (
        f"{released} is the publisher's FP8 release: {engine} loads it as released on "
        f"{', '.join(profile.families)}, as the stacks documented there do, so one checkpoint serves every family and "
        "no quantizer runs"
    )
    why = line(text, *(cite_stack(stack) for stack in stacks), cite_profile(profile, "model"))
    return Choice(
        concern="quantization",
        option=engine,
        settings={"dtype": "fp8", "checkpoint": f"{released}{AS_RELEASED}"},
        rationale=(why,),
    )


def loaded_quantizer(
    choices: list[Choice], gaps: list[Gap], context: RuleContext, measured_out: frozenset[tuple[str, str]] = frozenset()
) -> tuple[list[Choice], list[Gap]]:
    """Tier 3's quantizer is one whose output tier 3's engine loads: a portable toolkit it loads where one runs on every
    family, quantizes this model type and supports the asked format; otherwise each platform keeps a toolkit its
    engine loads (a gap)."""
    by_concern = {c.concern: c for c in choices}
    deployment, quantization = by_concern.get("deployment"), by_concern.get("quantization")
    open_gap = (
        quantization is None and context.profile.needs.quantized and any(g.concern == "quantization" for g in gaps)
    )
    if deployment is None or (quantization is None and not open_gap):
        return choices, gaps
    release = published_release(deployment.option, context) or quantized_model_release(deployment.option, context)
    if release is not None:  # the publisher's quantized checkpoint, which the engine loads on every family as released
        rest = [c for c in choices if c.concern != "quantization"]
        return [*rest, release], [g for g in gaps if g.concern != "quantization"]
    compatibility = context.knowledge.compatibility
    engine_itself = (
        quantization is not None
        and quantization.option == deployment.option
        and engine_only(deployment.option, context)
    )
    families, dtype = set(context.profile.families), context.profile.needs.quantization
    documented = stacks_quantizing_with(deployment.option, families, dtype, context)
    if (
        quantization is not None
        and not engine_itself
        and (
            quantization.option == deployment.option
            or deployment.option in compatibility.loaders_of(quantization.option)
        )
        and len(documented.get(quantization.option, ())) >= max(map(len, documented.values()), default=0)
    ):
        # loadable, and no toolkit the engine's documented stacks use more
        return at_load_marked(choices, documented, context), gaps
    loaded = [
        context.knowledge.get(t)
        for t in compatibility.toolkits_loaded_by(deployment.option)
        if t in context.knowledge.ids()
    ]

    def reaches(family: str) -> bool:  # the family loads the output and has a device that runs the format
        return any(device.may_run(dtype) for device in context.knowledge.platform(family).devices)

    known_families = {platform.id for platform in context.knowledge.platforms}

    def portable(toolkit: Candidate) -> bool:  # tier 3 is multi-platform: a toolkit for one family only is no answer
        # in the asked format, for this model type, on families whose devices run it (review 203 p01: ModelOpt's NVFP4,
        # which only Blackwell runs, offered as tier 3's portable quantizer)
        loading = {
            f for f in compatibility.output_families(toolkit.id, context.profile.model_type, dtype) if reaches(f)
        }
        running = {f for f in toolkit.hardware.value if f in known_families and reaches(f)}
        return len(running | loading) > 1

    fitting = [
        t
        for t in loaded
        if portable(t)
        and t.serves_model_type(context.profile.model_type)  # an LLM quantizer is no answer for a diffusion model
        # the team runs the toolkit on one of its own families, or a stack there quantizes with it (Arm's vLLM
        # learning path runs llm-compressor on the server itself); review 148 p10: ModelOpt calibrates on NVIDIA GPUs,
        # no answer for a Gaudi-only team, though vllm-gaudi loads its output
        and (any(f in t.hardware.value for f in families) or bool(documented.get(t.id)))
        and all(
            f in t.hardware.value
            or (f in compatibility.output_families(t.id, context.profile.model_type, dtype) and reaches(f))
            for f in families
        )
        and format_support(t, dtype, context.knowledge) in ("yes", "partial")
        and (t.id, "quantization") not in measured_out
    ]
    if not context.profile.llm:  # the loaded-by relations speak of LLM checkpoints: a diffusion model needs a stack
        paired = {t for t, stacks in documented.items() if any(of_model_type(s, context) for s in stacks)}
        fitting = [t for t in fitting if t.id in paired]
    official = context.official("quantization")
    fitting.sort(key=lambda t: (-len(documented.get(t.id, ())), t.id not in official, -len(t.hardware.value), t.id))
    rest = [c for c in choices if c.concern != "quantization"]
    if fitting and open_gap:
        gaps = [g for g in gaps if g.concern != "quantization"]
    if fitting and quantizes_at_load(documented.get(fitting[0].id, ()), fitting[0].id):
        toolkit = fitting[0]
        why = at_load_line(
            toolkit.name,
            dtype,
            documented[toolkit.id],
            f" on {', '.join(sorted(families))}",
            f"{deployment.option} ",
            cite_format(toolkit, dtype, context.knowledge),
        )
        fits = SKILL_ORDER.index(toolkit.skill.value) <= SKILL_ORDER.index(context.profile.team_skill)
        settings = {"dtype": dtype, "checkpoints": AT_LOAD}
        choice = Choice(concern="quantization", option=toolkit.id, settings=settings, rationale=(why,), fits_team=fits)
        return [*rest, choice], gaps
    if fitting:
        toolkit = fitting[0]
        text = f"{toolkit.name} writes {dtype} checkpoints that {deployment.option}, tier 3's engine, loads, on {', '.join(sorted(families))}"
        cites = [
            cite_compatibility(
                "quantized_output_loaded_by", toolkit.id, compatibility.quantized_output_loaded_by[toolkit.id]
            ),
            cite_format(toolkit, dtype, context.knowledge),
        ]
        if documented.get(toolkit.id):
            stacks = documented[toolkit.id]
            text += f"; the {deployment.option} stacks documented for {', '.join(sorted({s.applies_to.family for s in stacks}))} quantize with it"
            cites.extend(cite_stack(s) for s in stacks)
        if not families <= set(
            toolkit.hardware.value
        ):  # the output reaches a family the toolkit itself does not run on
            claim = compatibility.quantized_output_families[toolkit.id]
            cites.append(cite_compatibility("quantized_output_families", toolkit.id, claim))
            loading = compatibility.output_families(toolkit.id, context.profile.model_type, dtype)
            text += f" (it runs on {', '.join(toolkit.hardware.value)}; {', '.join(loading)} load its output)"
        why = line(text, *cites)
        fits = SKILL_ORDER.index(toolkit.skill.value) <= SKILL_ORDER.index(context.profile.team_skill)
        return [
            *rest,
            Choice(
                concern="quantization", option=toolkit.id, settings={"dtype": dtype}, rationale=(why,), fits_team=fits
            ),
        ], gaps
    what = (
        f"whose output {deployment.option} loads runs on"
        if context.profile.llm
        else f"is documented with {deployment.option} for a {context.profile.model_type} model on"
    )
    cites = [cite_profile(context.profile, "needs.quantization")]
    released = fp8_release(context)
    serving_it = {family: found for family, found in release_stacks(deployment.option, context).items() if found}
    if released is not None and serving_it and len(families) > 1:  # the release serves some families as it is
        each = (
            f", but {released}, the publisher's FP8 release, loads as released in {deployment.option} on "
            f"{', '.join(sorted(serving_it))}: one checkpoint there, and only "
            f"{', '.join(sorted(families - set(serving_it)))} quantizes a checkpoint of its own"
        )
        cites += [cite_stack(found[0]) for found in serving_it.values()]
    else:
        each = ", so each family gets its own checkpoint" if len(families) > 1 else ""
    text = f"no quantization toolkit {what} {', '.join(sorted(families))} with {dtype}: each platform keeps its own" + (
        f"{each}; every family runs its own accuracy check ({per_family_format(context, deployment.option)})"
        if len(families) > 1
        else ""
    )
    if serves_unquantized(deployment.option, context):
        engine = context.knowledge.get(deployment.option)
        support = format_support(engine, dtype, context.knowledge)
        text = (
            f"{engine.name} documents no {dtype} serving (knowledge base: {dtype} {support}): tier 3 serves the "
            f"model unquantized on every family, and {dtype} stays a per-family choice "
            f"({per_family_format(context, deployment.option)})"
        )
        cites.insert(0, cite_format(engine, dtype, context.knowledge))
    others = [g for g in gaps if g.concern != "quantization"]  # one gap per concern: this one says why
    return rest, [*others, Gap(concern="quantization", rationale=(line(text, *cites),))]


def serves_unquantized(option: str, context: RuleContext) -> bool:
    """Tier 3's engine does not document the asked quantized format and loads no toolkit's output, so the one code path
    serves the float model (Text Embeddings Inference: float16 or float32 only)."""
    profile, knowledge = context.profile, context.knowledge
    if (
        not profile.needs.quantized
        or option not in knowledge.ids()
        or knowledge.compatibility.toolkits_loaded_by(option)
    ):
        return False
    return format_support(knowledge.get(option), profile.needs.quantization, knowledge) not in ("yes", "partial")


def per_family_format(context: RuleContext, engine: str | None = None) -> str:
    """'<family>: <the serving stack there that runs the asked format>' for every family of the profile, one run by
    tier 3's engine first (vLLM's own on NVIDIA beside vllm-gaudi, not TensorRT-LLM), or that none documented there
    runs it."""
    parts = []
    known = set(context.knowledge.ids())
    for family in context.profile.families:
        there = on_family(context.profile, family, context.knowledge)
        choice = choose_stacks(there, context.knowledge)
        dtype = there.needs.quantization
        target = family == context.profile.hardware  # the target keeps tier 1's stack, a partial fit included
        serving = [
            j
            for j in (*choice.chosen, *choice.considered)
            if j.workload == "inference"
            # the formats the ask covers: an fp4 ask is served in MXFP4 on AMD (review 172 p03: "no fp4 stack" beside
            # tier 1's MXFP4 checkpoint)
            and j.precision in PRECISIONS_FOR.get(dtype, (dtype,))
            and (j.weight <= MISFIT_WEIGHTS["device"] or (target and j in choice.chosen))
        ]
        fitting = next(
            (j for j in serving if getattr(runner_of(j.stack, j.workload, known), "candidate", None) == engine),
            next(iter(serving), None),
        )
        parts.append(
            f"{family}: {fitting.stack.name}{format_there(there, context.profile, choice.device)}"
            if fitting
            else f"{family}: no {dtype} stack documented for it"
        )
    return "; ".join(parts)


def stacks_quantizing_with(engine: str, families: set[str], dtype: str, context: RuleContext) -> dict[str, list[Stack]]:
    """By quantization toolkit: the stacks documented for the profile's families that run on the engine and ship a
    checkpoint in the asked format made with that toolkit (vLLM's CPU stacks on x86 and Arm both quantize with
    llm-compressor): the toolkit the vendors pair with the engine before one that merely writes a loadable format."""
    found: dict[str, list[Stack]] = {}
    for family in sorted(families):
        for stack in context.knowledge.stacks_for(family):
            runner = stack.runner
            if runner is None or runner.candidate != engine or dtype not in stack.applies_to.precisions:
                continue
            if not stack.serves_task(context.profile.serving_task):  # a chat stack says nothing of an embedding model
                continue
            for component in stack.components:
                if component.role == "quantization" and component.candidate not in (None, engine):
                    found.setdefault(component.candidate, []).append(stack)
    return found


def at_load_marked(choices: list[Choice], documented: dict[str, list[Stack]], context: RuleContext) -> list[Choice]:
    """Tier 3's quantization choice, where every documented stack quantizes with it in the serving process at load:
    marked so (no checkpoint is shared), with the line that says it."""
    marked = []
    for choice in choices:
        stacks = documented.get(choice.option, [])
        if choice.concern != "quantization" or not quantizes_at_load(stacks, choice.option):
            marked.append(choice)
            continue
        dtype = choice.settings.get("dtype", context.profile.needs.quantization)
        why = at_load_line(context.knowledge.get(choice.option).name, dtype, stacks)
        settings = {**choice.settings, "checkpoints": AT_LOAD}
        marked.append(choice.model_copy(update={"settings": settings, "rationale": (why, *choice.rationale)}))
    return marked


def at_load_line(
    toolkit: str, dtype: str, stacks: Sequence[Stack], where: str = "", engine: str = "", *more: Citation
) -> Rationale:
    """The line of a quantizer that the documented `stacks` run in the serving process at load (`where`: ' on <the
    families>'; `engine`: '<tier 3's engine> ' where the stacks are that engine's)."""
    families = ", ".join(sorted({stack.applies_to.family for stack in stacks}))
    text = (
        f"{toolkit} quantizes the float model to {dtype} in the serving process at load{where}, as the {engine}stacks "
        f"documented for {families} do: no quantized checkpoint is written or shared, and each family's {dtype} "
        "kernels and format are its own"
    )
    return line(text, *(cite_stack(stack) for stack in stacks), *more)


def quantizes_at_load(stacks: Sequence[Stack], toolkit: str) -> bool:
    """Every documented stack's part for the toolkit quantizes the loaded float model in the serving process."""
    parts = [c for stack in stacks for c in stack.components if c.role == "quantization" and c.candidate == toolkit]
    return bool(parts) and all(AT_LOAD_WORDS.search(part.setting or "") for part in parts)


def of_model_type(stack: Stack, context: RuleContext) -> bool:
    """The stack is documented for the profile's model type."""
    return context.profile.model_type in stack.applies_to.model_types


def engine_only(option: str, context: RuleContext) -> bool:
    """A serving engine loads quantized checkpoints; it is no quantizer of its own for tier 3 (its methods differ per
    platform plugin: vllm_mlu's smoothquant is not upstream vLLM's)."""
    return context.knowledge.layer_of(option) == "serving-engine"


def portable_tier1_runtime(choices: list[Choice], tier1: Tier | None, context: RuleContext) -> list[Choice]:
    """Where tier 1's own runtime already runs on every family the profile names, it is tier 3's runtime too: one
    runtime everywhere, the one the target's stack was validated with."""
    if tier1 is None or not context.profile.needs.cross_platform or context.profile.trains:
        return choices
    ours = next((c for c in tier1.choices if c.concern == "deployment"), None)
    if ours is None or ours.option not in context.knowledge.ids():
        return choices
    candidate = context.knowledge.get(ours.option)
    if not set(context.profile.families) <= set(candidate.hardware.value):
        return choices
    if not all(documented_runner(candidate.id, family, context) for family in context.profile.needs.other_hardware):
        return choices  # it runs there, but no vendor documents it as that family's way to serve (llama.cpp on NVIDIA)
    if context.profile.serving_task in CLAIMED_TASKS_ONLY and not task_stacks(candidate.id, context):
        return choices  # Whisper: a stack documents the task with it on every family, or each family keeps its own
    if (context.profile.llm or context.profile.serving_task == "embedding") and not near_stack_everywhere(
        candidate.id, context
    ):
        return choices  # its pages on another family are for other models (SGLang's Qwen3 A3 page for DeepSeek-V3.1)
    profile = context.profile  # a runtime whose asked format is only 'partial' (INT8 simulated on Arm) is not portable
    if profile.needs.quantized and format_support(candidate, profile.needs.quantization, context.knowledge) != "yes":
        return choices
    # one runtime's API and launch, from each family's own documented build (Iluvatar's SDK vLLM, upstream vLLM on NVIDIA):
    # the builds may differ in kernels and versions, so one result stands for both only once they score alike (review
    # 250 p13)
    text = (
        f"{candidate.name}, tier 1's runtime, also runs on {', '.join(context.profile.families)}: one runtime "
        "everywhere (its API and launch; each family runs the build its own pages document, so check that the same "
        "prompts score alike on each before one family's results stand for the other's)"
    )
    portable = Choice(
        concern="deployment", option=candidate.id, rationale=(line(text, cite_claim(candidate, "hardware")),)
    )
    return [c for c in choices if c.concern != "deployment"] + [portable]


def portable_trainer(context: RuleContext, tier1: Tier | None) -> Candidate | None:
    """The training framework that runs on every family the profile names: tier 1's own first (the one the target's
    stack runs), then the target's listed frameworks in their order; None where none spans them or nothing trains."""
    profile, knowledge = context.profile, context.knowledge
    if not (profile.trains and profile.needs.cross_platform):
        return None
    ours = next(
        (c.option for c in (tier1.choices if tier1 is not None else ()) if c.concern == "training-framework"), None
    )
    listed: list[str | None] = [ours, *context.platform.training_frameworks.value]
    if ddp_carries_it(profile):  # a small job on DDP/FSDP: only the framework tier 1's own stack runs, if any
        if ours is None:
            return None
        listed = [ours]
    found = [knowledge.get(i) for i in dict.fromkeys(listed) if i is not None and i in knowledge.ids()]
    return next(
        (
            c
            for c in found
            if c.layer.value == "training-framework"
            and set(profile.families) <= set(c.hardware.value)
            and c.serves_model_type(profile.model_type)
            and c.trains_kind(profile.training)
        ),
        None,
    )


def ddp_carries_it(profile: Profile) -> bool:
    """A multi-device training job that tier 1 leaves to the framework's own DDP/FSDP: no training framework to port
    to the other families either (a one-device job keeps the portable trainer, as JAX has no DDP of its own)."""
    return profile.trains and profile.needs.devices > 1 and not needs_training_framework(profile)


def framework_own_kernels(
    choices: list[Choice], gaps: list[Gap], context: RuleContext
) -> tuple[list[Choice], list[Gap]]:
    """A job the framework's own DDP/FSDP carries trains on each family's own libraries: the framework's operators
    call the family's GEMM and attention kernels, so where tier 3's portable option for them is a kernel language the
    team does not write, tier 3 names those libraries per family instead (the language is tier 2's, for hot spots)."""
    concerns = [c.concern for c in choices if c.concern in ("gemm", "convolution", "attention") and not c.fits_team]
    return family_kernel_gaps(
        choices,
        gaps,
        context,
        concerns,
        "the framework's own training loop (DDP/FSDP) runs {concern} on each family's own kernels, with no training "
        "framework or kernel language to port",
        "hardware",
    )


def training_stacks_own_kernels(
    choices: list[Choice], gaps: list[Gap], context: RuleContext
) -> tuple[list[Choice], list[Gap]]:
    """A training job no one framework carries across its families: each family trains with its own documented stack,
    whose framework calls that family's kernels, so a kernel language the team does not write is no portable layer
    for it (review 69 p07: Triton for GEMM, attention and fusion as the 'primary' tier of a framework team)."""
    kernel_concerns = ("gemm", "convolution", "attention", "fusion")
    concerns = [
        c.concern
        for c in choices
        if c.concern in kernel_concerns and not c.fits_team and is_kernel_language(c.option, context)
    ]
    return family_kernel_gaps(
        choices,
        gaps,
        context,
        concerns,
        f"no training framework in the knowledge base runs on {', '.join(context.profile.families)} alike: each "
        "family trains with its own documented stack, whose framework runs {concern} on that family's own kernels; "
        "writing portable kernels needs a kernel team (tier 2, for measured hot spots only)",
        "team_skill",
    )


def family_kernel_gaps(
    choices: list[Choice], gaps: list[Gap], context: RuleContext, concerns: Sequence[Concern], says: str, cited: str
) -> tuple[list[Choice], list[Gap]]:
    """Tier 3 with `concerns` taken out of its choices and each made a gap that names the library every family keeps
    for it; `says` is the gap's reason, with '{concern}' in it, citing the profile field `cited`."""
    added = []
    for concern in concerns:
        keeps = per_platform_choices(context, concern, include_target=True)
        text = says.replace("{concern}", concern) + kept_text(keeps)
        added.append(Gap(concern=concern, rationale=(line(text, cite_profile(context.profile, cited)),), kept=keeps))
    return [c for c in choices if c.concern not in concerns], [g for g in gaps if g.concern not in concerns] + added


def is_kernel_language(option: str, context: RuleContext) -> bool:
    """The option is a language to write kernels in (Triton, Pallas), not a library or compiler that runs them."""
    return context.knowledge.layer_of(option) == "kernel-language"


def trainer_choices(
    choices: list[Choice], gaps: list[Gap], trainer: Candidate, context: RuleContext
) -> tuple[list[Choice], list[Gap]]:
    """One training code path on every family: the portable framework, its own layers' kernels on each family for a
    team that writes none, and each family's collective library under the framework's process groups."""
    families = ", ".join(context.profile.families)
    kept = [c for c in choices if c.concern != "training-framework"]
    text = (
        f"{trainer.name} runs on {families}: one training code path, each family keeping its own kernels and "
        "collective library underneath"
    )
    added = [
        Choice(
            concern="training-framework", option=trainer.id, rationale=(line(text, cite_claim(trainer, "hardware")),)
        )
    ]
    # the framework's layers run the kernel concerns on each family (Transformer Engine on NVIDIA, its ROCm port on
    # AMD): a portable kernel language beside them (Triton GEMMs) is tier 2's, for the hot spots profiling shows, and
    # one beyond the team is no option at all; a compiler the framework is written for (XLA under MaxText) stays
    owned = {
        c.concern
        for c in kept
        if c.concern in RUNTIME_KERNEL_CONCERNS and (not c.fits_team or is_kernel_language(c.option, context))
    }
    owned |= {g.concern for g in gaps if g.concern in RUNTIME_KERNEL_CONCERNS}
    serving = "; the serving engine brings its own for serving" if context.profile.serves else ""
    for concern in sorted(owned, key=CONCERNS.index):
        why = line(
            f"{trainer.name} runs {concern} on each family's own kernels in training (its layers and PyTorch's "
            f"backend there){serving}",
            cite_claim(trainer, "hardware"),
        )
        added.append(
            Choice(
                concern=concern,
                option=trainer.id,
                rationale=(why,),
                settings={"part": f"{trainer.name}'s own kernels", "by": "training-framework"},
            )
        )
    if any(g.concern == "collectives" for g in gaps):
        libraries = kept_text(per_platform_choices(context, "collectives", include_target=True))
        why = line(
            f"{trainer.name}'s process groups call each family's own collective library{libraries}: one API, "
            "no portable library needed",
            cite_claim(trainer, "distributed"),
        )
        added.append(
            Choice(concern="collectives", option=trainer.id, rationale=(why,), settings={"by": "training-framework"})
        )
    added += layers_choices(trainer, context)
    done = {c.concern for c in added}
    return [c for c in kept if c.concern not in done] + added, [g for g in gaps if g.concern not in done]


def layers_choices(trainer: Candidate, context: RuleContext) -> list[Choice]:
    """The operator library a portable trainer builds its layers from, where it runs on every family (Megatron Core's
    Transformer Engine, with AMD's port on Instinct): the fused layers, and an FP8 recipe asked for training, are its,
    not a portable compiler's or quantizer's beside the framework."""
    knowledge, families = context.knowledge, set(context.profile.families)
    found = [
        knowledge.get(option)
        for option in knowledge.compatibility.layers_of(trainer.id)
        if option in knowledge.ids() and families <= set(knowledge.get(option).hardware.value)
    ]
    if not found:
        return []
    library = found[0]
    fp8_training = context.profile.needs.quantization in TRAINED_PRECISIONS and not context.profile.serves
    wanted = [
        c for c in ("fusion", "quantization") if c in library.concerns.value and (c != "quantization" or fp8_training)
    ]
    claim = knowledge.compatibility.layers_from[trainer.id]
    return [
        Choice(
            concern=concern,
            option=library.id,
            settings={
                "via": trainer.id,
                **({"dtype": context.profile.needs.quantization} if concern == "quantization" else {}),
            },
            rationale=(
                line(
                    f"{library.name} builds {trainer.name}'s layers on {', '.join(context.profile.families)}: its "
                    f"{'FP8 training recipes' if concern == 'quantization' else 'fused layers'} run on each family",
                    cite_compatibility("layers_from", trainer.id, claim),
                    cite_claim(library, "hardware"),
                ),
            ),
        )
        for concern in wanted
    ]


def engines_own_kernels(
    choices: list[Choice], gaps: list[Gap], context: RuleContext, tier1: Tier | None
) -> tuple[list[Choice], list[Gap]]:
    """No engine serves the LLM on every family: each family's own engine then brings its kernels, shape handling and
    quantized checkpoint, and what the families share is the model's weights and its evaluation. A library picked for
    a concern because it also runs elsewhere (MLX's kernels on an NVIDIA GPU) would be code no family's engine calls;
    a kernel language (Triton) stays, for a team that writes its own kernels."""
    concerns = (*RUNTIME_KERNEL_CONCERNS, "dynamic-shapes", "quantization")
    replaced = [c for c in choices if c.concern in concerns and not is_kernel_language(c.option, context)]
    if not replaced:
        return choices, gaps
    ours = next((c.option for c in tier1.choices if c.concern == "deployment"), None) if tier1 is not None else None
    engines = "; ".join(
        f"{family}: {engine}"
        for family in context.profile.families
        if (engine := ours if family == context.profile.hardware else first_engine(family, context)) is not None
    )
    for choice in replaced:
        what = {
            "quantization": "quantized checkpoint, in its own format (one per family, each checked against bf16)",
            "dynamic-shapes": "batching and shape handling",
        }.get(choice.concern, f"{choice.concern} kernels")
        text = (
            f"each family's own engine brings its {what} ({engines}); the families share the weights and the evaluation"
        )
        gaps.append(
            Gap(concern=choice.concern, rationale=(line(text, cite_profile(context.profile, "needs.other_hardware")),))
        )
    dropped = {c.concern for c in replaced}
    gaps.sort(key=lambda g: CONCERNS.index(g.concern))
    return [c for c in choices if c.concern not in dropped], gaps


def runtime_owns_kernels(
    choices: list[Choice], gaps: list[Gap], context: RuleContext, runtime: Candidate
) -> tuple[list[Choice], list[Gap]]:
    """Where tier 3 serves on a runtime or engine (portable_runtime), it runs its own kernels for every team (vLLM:
    AITER on ROCm, FlashAttention or FlashInfer on CUDA; ONNX Runtime its execution provider's), and a kernel team's
    Triton is tier 2, for the hot spots profiling finds. A job that also trains keeps its kernel concerns for
    training."""
    present = {c.concern for c in choices} | {g.concern for g in gaps}
    concerns = ("dynamic-shapes",) if context.profile.trains else (*RUNTIME_KERNEL_CONCERNS, "dynamic-shapes")
    owned = [c for c in concerns if c in present]
    if quantizes_itself(runtime, context):
        owned.append("quantization")
    choices = [c for c in choices if c.concern not in owned] + [runtime_choice(c, runtime, context) for c in owned]
    kept = [g for g in gaps if g.concern not in owned]
    if context.profile.trains:  # the kernel gaps left are training's: serving runs on the runtime's own kernels
        kept = [training_side(g, runtime) if g.concern in RUNTIME_KERNEL_CONCERNS else g for g in kept]
    return choices, kept


def framework_library_kernels(
    choices: list[Choice], gaps: list[Gap], runtime: Candidate, context: RuleContext
) -> tuple[list[Choice], list[Gap]]:
    """A library on a framework (Diffusers on PyTorch) serving on every family writes no kernels of its own, and a
    kernel language the team cannot write in is no part of that route: the framework's dispatch calls each family's
    own libraries, named per family (review 240 p14: "gemm triton (beyond the team's skill)" under Diffusers with
    torchao FP8 and SDPA, a route that needs no kernel written)."""
    dropped = [
        c
        for c in choices
        if c.concern in RUNTIME_KERNEL_CONCERNS and not c.fits_team and is_kernel_language(c.option, context)
    ]
    for choice in dropped:
        keeps = per_platform_choices(context, choice.concern, include_target=True)
        text = (
            f"{runtime.name} writes no {choice.concern} kernels of its own: the framework under it calls each family's "
            f"libraries, and this route needs none written ({choice.option} is beyond this team)"
        )
        gaps.append(
            Gap(
                concern=choice.concern,
                rationale=(line(text + kept_text(keeps), cite_claim(runtime, "hardware")),),
                kept=keeps,
            )
        )
    gaps.sort(key=lambda g: CONCERNS.index(g.concern))
    return [c for c in choices if c not in dropped], gaps


def training_side(gap: Gap, runtime: Candidate) -> Gap:
    """A kernel gap of a job that trains and serves, where tier 3's runtime serves on its own kernels: the gap is the
    training side's."""
    first, *rest = gap.rationale
    text = f"in training, {first.text}; serving runs on {runtime.id}'s own kernels (its backend on each family)"
    return gap.model_copy(update={"rationale": (first.model_copy(update={"text": text}), *rest)})


def first_engine(family: str, context: RuleContext) -> str | None:
    """The family's first listed LLM serving engine."""
    engines = context.knowledge.platform(family).serving_engines.value
    return engines[0] if engines else None


def adapt_tier3(
    tier: Tier,
    context: RuleContext,
    measured_out: frozenset[tuple[str, str]] = frozenset(),
    tier1: Tier | None = None,
    stacks: StackChoice | None = None,
) -> Tier:
    """Tier 3 with a portable runtime's own kernels and quantizer, and the other families' documented stacks noted."""
    choices = portable_tier1_runtime(list(tier.choices), tier1, context)
    # One runtime everywhere: no 'each platform keeps its own' deployment gap beside it.
    deploys = any(c.concern == "deployment" for c in choices)
    tier_gaps = [g for g in tier.gaps if not (deploys and g.concern == "deployment")]
    choices, gaps = loaded_quantizer(choices, tier_gaps, context, measured_out)
    choices.sort(key=lambda c: CONCERNS.index(c.concern))
    if not context.profile.needs.cross_platform:  # exploration on one family: still one runtime's kernels, not a mix
        # a PyTorch serving engine still hosts the unified layer (Triton kernels, torch.compile graphs, cuBLAS), while
        # a graph runtime (ONNX Runtime, llama.cpp) calls none of them: there its own kernels stand
        runtime = portable_runtime(tier.model_copy(update={"choices": tuple(choices)}), context)
        if (
            runtime is not None
            and runtime.layer.value == "runtime"
            and runtime.id not in context.knowledge.policy.framework_libraries
        ):
            choices, gaps = runtime_owns_kernels(choices, gaps, context, runtime)
        choices.sort(key=lambda c: CONCERNS.index(c.concern))
        return tier.model_copy(
            update={"choices": tuple(choices), "gaps": tuple(gaps), "fits_team": all(c.fits_team for c in choices)}
        )
    trainer = portable_trainer(context, tier1)
    if trainer is not None:
        choices, gaps = trainer_choices(choices, gaps, trainer, context)
    elif ddp_carries_it(context.profile):
        choices, gaps = framework_own_kernels(choices, gaps, context)
    elif context.profile.trains:
        choices, gaps = training_stacks_own_kernels(choices, gaps, context)
    runtime = portable_runtime(tier.model_copy(update={"choices": tuple(choices)}), context)
    if runtime is not None and runtime.id not in context.knowledge.policy.framework_libraries:
        choices, gaps = runtime_owns_kernels(choices, gaps, context, runtime)
    elif runtime is not None and not context.profile.trains:
        choices, gaps = framework_library_kernels(choices, gaps, runtime, context)
    elif context.profile.llm and not context.profile.trains and any(g.concern == "deployment" for g in gaps):
        choices, gaps = engines_own_kernels(choices, gaps, context, tier1)
    choices.sort(key=lambda c: CONCERNS.index(c.concern))
    runners = {"inference": c.option for c in choices if c.concern == "deployment"}
    training = stacks.for_workload("training") if stacks is not None else None  # the target's chosen training stack
    runner = runner_of(training.stack, "training", set(context.knowledge.ids())) if training is not None else None
    if trainer is not None:  # tier 3's own training framework, else the one the target's training stack runs on
        runners["training"] = trainer.id
    elif runner is not None and runner.candidate is not None:
        runners["training"] = runner.candidate
    return tier.model_copy(
        update={
            "choices": tuple(choices),
            "gaps": tuple(gaps),
            "notes": family_notes(tier, context, runners, stacks.for_workload("inference") if stacks else None),
            "fits_team": all(c.fits_team for c in choices),
        }
    )
