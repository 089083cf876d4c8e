"""The format of the same width a serving profile is planned in on its device.

A team that asks for fp8 on a device without FP8 units (Ascend 910B, NVIDIA A100) wants what fp8 buys: half the weight
memory of bf16 and 8-bit GEMMs. Where the device runs the other 8-bit format and a stack documents it on that device
(W8A8 INT8 with msModelSlim or llm-compressor), the plan serves that format, with an accuracy gate against bf16, rather
than falling back to a float format that doubles the memory. Likewise fp4 asked where the device has no FP4 units
(Hopper, MI300X) is served as 4-bit integer weights (AWQ/GPTQ), which run weight-only. The record keeps the profile as
asked and says so.
"""

from __future__ import annotations

from collections.abc import Sequence

from advisor.knowledge.loader import KnowledgeBase
from advisor.knowledge.model_sizes import (
    PublishedCheckpoint,
    catalogued_release,
    published_checkpoints,
    published_fp8,
    shared_architecture,
    written_for,
)
from advisor.knowledge.platforms import Device
from advisor.knowledge.stacks import Stack
from advisor.profile import Profile
from advisor.recommendation.capacity import devices_to_hold
from advisor.recommendation.citations import cite_platform, cite_profile, line
from advisor.recommendation.models import Rationale, Recommendation
from advisor.recommendation.policy import PRECISIONS_FOR, SAME_WIDTH_FORMATS, WIDER_FORMATS
from advisor.recommendation.stack_choice import target_device
from advisor.vocabulary import WEIGHT_ONLY_ASKS


def served_format(profile: Profile, knowledge: KnowledgeBase) -> tuple[Profile, Rationale | None]:
    """The profile to plan with (its quantization swapped for the same-width format the device runs) and the line that
    says why; the profile itself and None where the asked format runs, or no swap is documented."""
    asked = profile.needs.quantization
    other = SAME_WIDTH_FORMATS.get(asked)
    if not profile.serves:
        return profile, None
    platform = knowledge.platform(profile.hardware)
    device, assumed = target_device(profile, platform)
    if device is None:
        return profile, None
    wider = wider_format(profile, knowledge, device)
    if wider is not None:
        return wider
    if other is None or device.may_run(asked) or not device.runs_natively(other):
        return profile, None
    formats = PRECISIONS_FOR[asked]  # fp4: NVFP4 or MXFP4
    if any(
        set(formats) & set(stack.applies_to.weight_only)
        for precision in formats
        for stack in serving_stacks(profile, knowledge, device, precision)
    ):
        return profile, None  # a stack runs the asked checkpoint weight-only here (FP8 Marlin on an A100)
    documented = serving_stacks(profile, knowledge, device, other)
    if not documented:
        return profile, None
    text = (
        f"{asked} asked, and the {device.name}{' (assumed)' if assumed else ''} runs no {asked} ({device.formats_text()}): "
        f"the plan serves {other}, which {len(documented)} stack{'s' if len(documented) > 1 else ''} documented for "
        f"it run{'' if len(documented) > 1 else 's'}, for the same weight memory; gate it on your task evaluation "
        "against bf16 before launch"
    )
    cites = [cite_profile(profile, "needs.quantization"), cite_platform(platform, f"devices.{device.id}.spec")]
    planned = profile.model_copy(update={"needs": profile.needs.model_copy(update={"quantization": other})})
    return planned, line(text, *cites)


def wider_format(profile: Profile, knowledge: KnowledgeBase, device: Device) -> tuple[Profile, Rationale] | None:
    """A 4-bit ask that no stack documents in any form for the model on this device, for a model whose bf16 weights the
    profile's devices cannot hold: the plan serves the 8-bit format of the same kind where a stack documents it there
    and its weights fit (review 188 p08: Qwen3-32B-AWQ on one 64 GB K100_AI, whose cookbook serves Qwen3-32B as
    Hygon's INT8 W8A8 checkpoint); None otherwise."""
    asked = profile.needs.quantization
    wider = WIDER_FORMATS.get(asked)
    if wider is None or any(serving_stacks(profile, knowledge, device, p) for p in PRECISIONS_FOR[asked]):
        return None
    in_float, in_wider = devices_to_hold(profile, device, "bf16"), devices_to_hold(profile, device, wider)
    devices = profile.needs.devices
    if in_float is None or in_wider is None or in_float[1] <= devices or in_wider[1] > devices:
        return None
    documented = serving_stacks(profile, knowledge, device, wider)
    if not documented or not device.may_run(wider):
        return None
    given = f"{devices} x {device.name}"
    text = (
        f"{asked} asked, and no stack here documents {asked} for this model on the {device.name}; its bf16 weights "
        f"(about {in_float[0]:.0f} GB) need more than the {given} given: the plan serves {wider}, which "
        f"{len(documented)} stack{'s' if len(documented) > 1 else ''} documented for it run"
        f"{'' if len(documented) > 1 else 's'}, at about {in_wider[0]:.0f} GB; gate it on your task evaluation "
        f"against bf16 before launch, and come back to {asked} when a stack here documents it"
    )
    platform = knowledge.platform(profile.hardware)
    cites = [cite_profile(profile, "needs.quantization"), cite_platform(platform, f"devices.{device.id}.spec")]
    planned = profile.model_copy(update={"needs": profile.needs.model_copy(update={"quantization": wider})})
    return planned, line(text, *cites)


def serving_stacks(profile: Profile, knowledge: KnowledgeBase, device: Device, precision: str) -> list[Stack]:
    """The family's stacks documented to serve this profile's model type and task in a format on this device."""
    return [
        stack
        for stack in knowledge.stacks_for(profile.hardware)
        if "inference" in stack.applies_to.workloads
        and precision in stack.applies_to.precisions
        and device.id in stack.applies_to.devices
        and profile.model_type in stack.applies_to.model_types
        and stack.serves_task(profile.serving_task)
        and for_the_model(stack.applies_to.models, profile.model_name)
    ]


def for_the_model(listed: list[str], model: str | None) -> bool:
    """A stack for any model, or (the profile naming one) written for it or a model of its architecture; a recipe for
    other models documents no format for this one."""
    return not listed or model is None or written_for(listed, model) or shared_architecture(listed, model) is not None


def restated(recommendation: Recommendation, asked: Profile, planned: Profile) -> Recommendation:
    """The recommendation's reasons say what the plan serves where they would say the profile asks it: a profile that
    asked fp8 is not told that it asks int8."""
    if planned is asked:
        return recommendation
    said = f"the profile asks {planned.needs.quantization}"
    why = "documented by no stack here" if widened(asked, planned) else "not run on this device"
    meant = f"the plan serves {planned.needs.quantization} ({asked.needs.quantization} asked, {why})"
    return recommendation.with_texts(lambda text: text.replace(said, meant), asked)


def on_family(profile: Profile, family: str, knowledge: KnowledgeBase) -> Profile:
    """The profile as it stands on one of its families: itself on the target, else that family with the device the
    profile names there (None: its current generation), planned in the 8-bit format that device runs (fp8 asked is
    served as INT8 W8A8 on a 910B) as it would be were that family the target."""
    if family == profile.hardware:
        return profile
    there = profile.model_copy(update={"hardware": family, "device": profile.needs.other_device(family)})
    return served_format(there, knowledge)[0]


def format_there(there: Profile, asked: Profile, device: Device | None) -> str:
    """' (int8 served: the Huawei Ascend 910B runs no fp8)' where a family's plan serves another 8-bit format than the
    one asked, else ''."""
    planned, wanted = there.needs.quantization, asked.needs.quantization
    if planned == wanted or device is None:
        return ""
    if widened(asked, there):
        return f" ({planned} served: no stack documents {wanted} for it on the {device.name})"
    return f" ({planned} served: the {device.name} runs no {wanted})"


def widened(asked: Profile, planned: Profile) -> bool:
    """The plan serves the 8-bit format of a 4-bit ask (wider_format), not the same-width one the device runs."""
    return WIDER_FORMATS.get(asked.needs.quantization) == planned.needs.quantization


def checkpoint_makers(knowledge: KnowledgeBase, runtime: str, hardware: str, model_type: str, dtype: str) -> list[str]:
    """The toolkits whose output this family's build of a serving engine is documented to load in this format (a
    checkpoint writer runs on any host: what matters is that the family's build loads its output); empty where the
    checkpoint has to come pre-quantized from elsewhere."""
    known = knowledge.ids()
    compatibility = knowledge.compatibility
    four_bit = dtype in WEIGHT_ONLY_ASKS  # integer 4-bit weights: each toolkit's scheme, loaded where a stack pairs it
    return [
        toolkit
        for toolkit in compatibility.toolkits_loaded_by(runtime)
        if toolkit in known
        and (
            hardware in knowledge.get(toolkit).hardware.value
            or hardware in compatibility.output_families(toolkit, model_type, dtype)
        )
        and (not four_bit or paired(knowledge, toolkit, runtime, PRECISIONS_FOR[dtype]))
    ]


def paired(knowledge: KnowledgeBase, toolkit: str, runtime: str, formats: Sequence[str]) -> bool:
    """A stack of the knowledge base runs the toolkit and the runtime together in one of these formats (ModelOpt's
    INT4 is TensorRT-LLM's, not vLLM's)."""
    return any(
        set(formats) & set(stack.applies_to.precisions)
        and {toolkit, runtime} <= {c.candidate for c in stack.components if c.candidate is not None}
        for stack in knowledge.stacks
    )


def loadable_int8_release(stack: Stack, named: str) -> PublishedCheckpoint | None:
    """The publisher's weight-only INT8 release of the model (Qwen's GPTQ-Int8), where the serving stack's engine
    documents loading its format as published (its `loads_releases`), or None: a format the engine's page does not
    list is no release to serve on it (reviews 203 p05, 204 p05: vllm-ascend lists ModelSlim and LLM Compressor
    checkpoints only)."""
    if stack.loads_releases is None or written_for(stack.applies_to.quantized_models, named):
        return None
    release = catalogued_release(named, None, ("int8",))
    if release is None:
        return None
    words = release.format.lower()
    return release if any(word in words for word in stack.loads_releases.value) else None


def block_scaled_fp8(profile: Profile) -> bool:
    """FP8 asked for a model whose publisher releases it in FP8 with block scales (Qwen3's fine-grained FP8, 128-wide
    blocks): its GEMMs are the block-scaled kind, which NVIDIA's tables time apart from per-tensor FP8 (review 204 p01:
    per-tensor figures quoted for Qwen3-235B-A22B-FP8)."""
    named = profile.model_name
    if profile.needs.quantization != "fp8" or named is None:
        return False
    release = published_fp8(named)
    if release is None and named.lower().endswith("-fp8"):  # the release itself named
        release = next((entry for entry in published_checkpoints() if entry.checkpoint.lower() == named.lower()), None)
    return release is not None and "block" in release.format.lower()
