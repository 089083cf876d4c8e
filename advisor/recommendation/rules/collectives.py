"""Collectives, when a job spans devices: the target's collective library, checked by a strong-scaling test.

Method #hot-operators, #collectives: MoE adds expert routing and all-to-all; data parallel needs gradient all-reduce; many
libraries look good on one card and collapse on eight.
"""

from __future__ import annotations

from advisor.knowledge.models import Candidate
from advisor.knowledge.platforms import Device, ranks_of
from advisor.profile import Profile
from advisor.recommendation.capacity import copy_fits_one_device
from advisor.recommendation.choices import entry_from, rejections_from
from advisor.recommendation.citations import cite_claim, cite_profile, line
from advisor.recommendation.context import ConcernDecision, RuleContext, skipped_decision
from advisor.recommendation.facts import evidence_metric
from advisor.recommendation.models import Choice, Rationale, SwitchCondition
from advisor.recommendation.policy import (
    DATA_PARALLEL_TRAINING,
    LARGE_TRAINING_DEVICES,
    NODE_DEVICES,
    SCALING_EFFICIENCY_MIN,
)
from advisor.recommendation.rules.tiers import tier3_entry
from advisor.recommendation.selection import pick
from advisor.recommendation.switches import switch
from probes.scaling.report import STRONG_SCALING_EFFICIENCY


def workload_lines(profile: Profile) -> list[Rationale]:
    """What the collectives carry for this model and workload."""
    text = f"{profile.needs.devices} devices per job: collectives are on the critical path"
    lines = [line(text, cite_profile(profile, "needs.devices"))]
    if profile.model_type == "moe":
        text = (
            "MoE: with expert parallelism, expert routing adds all-to-all exchanges (dispatch and combine) and "
            "sharded expert compute; under tensor parallelism alone the experts are split like dense layers and "
            "all-reduced"
        )
        lines.append(line(text, cite_profile(profile, "model_type")))
    if profile.trains:
        sharded = profile.llm and profile.needs.devices >= LARGE_TRAINING_DEVICES  # a CNN or a small job: data parallel
        if profile.training == "lora":
            text = (
                "training: the adapters' gradient all-reduce (data parallel), and all-gathers of the frozen weights "
                "where they are sharded (FSDP, ZeRO-3)"
            )
        else:
            text = DATA_PARALLEL_TRAINING + (
                " and sharded state or layers (all-gather and reduce-scatter under FSDP or ZeRO, or tensor parallel)"
                if sharded
                else ""
            )
        lines.append(line(text, cite_profile(profile, "training" if profile.training else "workload")))
    return lines


def scaling_switch(devices: int, node_devices: int = NODE_DEVICES, llm: bool = False) -> SwitchCondition:
    """A strong-scaling run below the efficiency floor puts the collectives in question: within a node
    first, then node by node (a 1 -> 256 strong-scaling run is not how a cluster is tested); an LLM starts from the
    fewest devices that hold it, not from one."""
    start = "the fewest devices that hold the model" if llm else "1"
    steps = (
        f"{start} to {devices} devices"
        if devices <= node_devices
        else f"{start} to {devices} devices, a full node ({node_devices}) first where {devices} spans several nodes"
    )
    description = (
        f"scaling efficiency from {steps} < {SCALING_EFFICIENCY_MIN}: revisit the collectives and their "
        "overlap with compute"
    )
    metric = evidence_metric(STRONG_SCALING_EFFICIENCY)
    return switch("strong-scaling-collapse", description, metric, "<", SCALING_EFFICIENCY_MIN, concern="collectives")


DOCUMENTED = ("yes", "partial")  # a phase the library documents


def expert_parallel_library(context: RuleContext) -> Candidate | None:
    """For an MoE model: the platform's library dedicated to expert all-to-all (DeepEP, MoRI), if it lists one that
    documents the workload's phases (MoRI's integrations are inference engines only)."""
    profile = context.profile
    if profile.model_type != "moe":
        return None
    needed = [phase for phase, wanted in (("training", profile.trains), ("inference", profile.serves)) if wanted]
    for option in context.platform.collective_library.value:
        if option not in context.knowledge.ids():
            continue
        candidate = context.knowledge.get(option)
        runs_phases = all(getattr(candidate, phase).value in DOCUMENTED for phase in needed)
        if candidate.model_types is not None and "moe" in candidate.model_types.value and runs_phases:
            return candidate
    return None


def is_alternative(option: str, context: RuleContext) -> bool:
    """Another collective library the job could use instead: not an expert all-to-all library (it complements the
    library, for the MoE layers only) and not a training framework in a serving decision."""
    if option not in context.knowledge.ids():
        return True
    candidate = context.knowledge.get(option)
    complement = candidate.model_types is not None and list(candidate.model_types.value) == ["moe"]
    trainer = candidate.layer.value == "training-framework" and not context.profile.trains
    return not (complement or trainer)


def serves_replicas(profile: Profile) -> bool:
    """A model that is served only, and is not an LLM (a CNN, a diffusion pipeline), scales by replicas where a copy
    fits one device (capacity.copy_fits_one_device): its devices exchange nothing per request."""
    return profile.serves and not profile.trains and not profile.llm


def not_needed(profile: Profile, device: Device | None = None) -> ConcernDecision:
    """One device: nothing to decide until jobs span devices. A device that presents several ranks (an Inferentia2's
    two NeuronCores) exchanges between them when an LLM engine splits the model over them, inside the chip and through
    the runtime's own collectives: still nothing to choose, said so (review 213 p09: "no collectives" beside TP 2)."""
    ranks = ranks_of(device)
    if ranks > 1 and profile.llm:
        text = (
            f"one device per job, but the {device.name if device else 'device'} presents {ranks} ranks: where the "
            "engine splits the model over them (tensor parallelism over its cores), they exchange activations inside "
            "the device through its runtime's own collectives, with no library to choose"
        )
        return skipped_decision("collectives", line(text, cite_profile(profile, "needs.devices")))
    reason = line("one device per job: no collectives", cite_profile(profile, "needs.devices"))
    return skipped_decision("collectives", reason)


def decide_collectives(context: RuleContext) -> ConcernDecision:
    """Tier 1 collective library on multi-device jobs; skipped on one device, and for replicas of a served model that
    is not an LLM, unless the chosen serving stack splits each copy over its devices (`sharded_serving`)."""
    profile = context.profile
    if profile.needs.devices <= 1:
        return not_needed(profile, context.device)
    as_replicas = serves_replicas(profile) and not context.stack.sharded_serving
    if as_replicas and copy_fits_one_device(profile, context.device):
        replicas = line(
            f"a {profile.model_type} model served on {profile.needs.devices} devices runs as that many replicas (data "
            "parallel): nothing passes between them per request, so no collective library is on the path",
            cite_profile(profile, "model_type"),
            cite_profile(profile, "needs.devices"),
        )
        return skipped_decision("collectives", replicas)
    chosen = pick(context, "collectives", context.official("collectives"))
    lines = workload_lines(profile)[:2]
    settings: dict[str, str] = {}
    expert = expert_parallel_library(context)
    if chosen.chosen is not None and expert is not None:
        settings["expert-all-to-all"] = expert.id
        lines.append(
            line(
                f"{expert.name} for the expert-parallel all-to-all (dispatch and combine)",
                cite_claim(expert, "summary"),
                cite_profile(profile, "model_type"),
            )
        )
    reason = f"no collective library for {profile.hardware} in the knowledge base"
    tier1 = entry_from(chosen, "collectives", context, gap_reason=reason, lines=lines, settings=settings)
    if isinstance(tier1, Choice):
        tier1 = tier1.model_copy(
            update={"alternatives": tuple(a for a in tier1.alternatives if is_alternative(a, context))}
        )
    return ConcernDecision(
        concern="collectives",
        tier1=tier1,
        tier3=tier3_entry(context, "collectives"),
        rejections=rejections_from(chosen, "collectives"),
        switch_conditions=(scaling_switch(profile.needs.devices, context.node_devices, profile.llm),)
        if isinstance(tier1, Choice)
        else (),
    )
