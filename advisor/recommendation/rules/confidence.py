"""How sure the recommendation is: evidence where it counts, case quality, host load, unknown claims, gaps.

Each factor is a small function returning (multiplier, notes); `overall_confidence` multiplies them.
Noisy and failed cases lower the confidence instead of silently counting.
"""

from __future__ import annotations

from collections.abc import Sequence

from advisor.knowledge.models import Concern, KnowledgeBase
from advisor.profile import Profile
from advisor.recommendation.capacity import replica_group
from advisor.recommendation.facts import EvidenceFacts, QualityCounts
from advisor.recommendation.models import Choice, Gap
from advisor.recommendation.policy import (
    CROSS_FAMILY,
    MISFIT_WEIGHTS,
    MODEL_ASSUMED,
    NO_STACK,
    PARTIAL_FLOOR,
    PARTIAL_PER_WEIGHT,
    RESTRICTED,
    SETTING_MISFITS,
    STACK_ASSUMED,
    STACK_EXACT,
    STACK_FITS,
    STACK_PARTIAL,
    STACK_PREVIEW,
    STACK_SETTING,
    STACK_SUPERSEDED,
    STACK_UNNAMED_DEVICE,
    UNPINNED,
    claimed_format,
)
from advisor.recommendation.rules.attention import needs_attention
from advisor.recommendation.rules.collectives import serves_replicas
from advisor.recommendation.selection import phases
from advisor.recommendation.stack_choice import StackChoice, workloads

BASE_ON_TARGET = 0.8
BASE_NO_EVIDENCE = 0.5  # proxy-only evidence starts here too: it never raises a speed-based choice's confidence
PLATFORM_FLOOR = 0.7  # a platform whose official stack names nothing for any concern keeps 70% of the confidence
PLATFORM_CONCERNS: tuple[Concern, ...] = (
    "gemm",
    "attention",
    "fusion",
    "quantization",
    "dynamic-shapes",
    "collectives",
    "deployment",
)
PER_UNKNOWN_CLAIM = 0.95
PER_GAP = 0.95
FLOOR, CEILING = 0.05, 0.95
TASK_UNDOCUMENTED_FACTOR = 0.8  # the engine serves the model's task here on its general documentation alone


def evidence_base(facts: EvidenceFacts) -> tuple[float, list[str]]:
    """Starting point: timed on the target, only on other hardware (proxy), or no usable measurement at all."""
    if facts.timed_on_target:
        return BASE_ON_TARGET, [f"evidence timed on the target ({facts.target})"]
    if facts.sources and facts.quality.ok == 0:
        return BASE_NO_EVIDENCE, [
            f"no evidence: {facts.quality.attempted} case(s) ran and none was timed, so the choices rest on the "
            "knowledge base alone; re-run `advisor probe` on the target"
        ]
    if facts.proxy:
        families = sorted({source.hardware or "unknown" for source in facts.sources})
        return BASE_NO_EVIDENCE, [
            f"proxy evidence only ({', '.join(families)}): it adds notes and switch conditions but decides nothing "
            f"and raises no confidence for {facts.target}; run `advisor probe` there"
        ]
    return BASE_NO_EVIDENCE, ["no evidence: the choices rest on the knowledge base alone; run `advisor probe` there"]


def needed(concern: str, profile: Profile) -> bool:
    """Whether the profile needs the concern decided at all (no attention in a CNN, no collectives on one device)."""
    if concern == "attention":
        return needs_attention(profile)
    if concern == "collectives":
        return profile.needs.devices > 1 and not serves_replicas(profile)
    if concern == "convolution":
        return profile.model_type in ("cnn", "diffusion", "multimodal")
    if concern == "quantization":
        return profile.needs.quantized
    if concern == "dynamic-shapes":
        return profile.needs.dynamic_shapes
    if concern == "deployment":
        return profile.serves
    return True


def platform_factor(
    knowledge: KnowledgeBase, profile: Profile, chosen: Sequence[Choice] = ()
) -> tuple[float, list[str]]:
    """A platform whose official stack leaves concerns empty is less charted: less confidence, and why. A concern tier 1
    fills anyway (from the chosen stack's own parts) is not counted empty."""
    official = knowledge.platform(profile.hardware).official
    wanted = [concern for concern in PLATFORM_CONCERNS if needed(concern, profile)]
    filled = {choice.concern for choice in chosen}
    empty = [concern for concern in wanted if not official.preference(concern) and concern not in filled]
    if not empty:
        return 1.0, []
    factor = PLATFORM_FLOOR + (1 - PLATFORM_FLOOR) * (1 - len(empty) / len(wanted))
    note = f"{profile.hardware}: the knowledge base names no official option for {', '.join(empty)}"
    return factor, [note]


def case_quality_factor(quality: QualityCounts) -> tuple[float, list[str]]:
    """Failed cases cost half their share, noisy timed cases (IQR/median above 10%) 60% of theirs."""
    if quality.attempted == 0:
        return 1.0, []
    failed_share = quality.failed / quality.attempted
    noisy_share = quality.noisy / quality.ok if quality.ok else 0.0
    notes = []
    if quality.failed:
        notes.append(f"{quality.failed} of {quality.attempted} attempted cases failed")
    if quality.noisy:
        notes.append(f"{quality.noisy} of {quality.ok} timed cases were noisy (IQR/median above the noise threshold)")
    return max(0.0, 1.0 - 0.5 * failed_share - 0.6 * noisy_share), notes


def contention_factor(facts: EvidenceFacts) -> tuple[float, list[str]]:
    """A busy host makes every timing suspect."""
    if facts.host_busy:
        return 0.9, ["other processes kept the host busy while probing"]
    return 1.0, []


# What a candidate's claim is about, as the confidence note names it.
CLAIM_WORDS = {
    "inference": "serving (inference)",
    "distributed": "multi-device runs",
    "dynamic_shapes": "dynamic shapes",
    "qat": "quantization-aware training",
    "ptq": "post-training quantization",
    "fp8": "FP8",
    "int8": "INT8",
}


def unknown_claims(
    choices: Sequence[Choice], knowledge: KnowledgeBase, profile: Profile, serving_alone: bool = False
) -> list[str]:
    """Claims the tier-1 choices rely on that the knowledge base marks unknown; `serving_alone`: the serving layout runs
    a whole copy on each device, so the collectives' serving claim is not relied on (reviews 265 p15, 266 p13)."""
    notes = []
    for choice in choices:
        if choice.part_of is not None:
            continue
        candidate = knowledge.get(choice.option)
        relied_on = list(phases(profile, choice.concern))
        claimed = claimed_format(profile.needs.quantization)
        if choice.concern in ("quantization", "deployment") and claimed is not None:
            relied_on.append(claimed)
        if choice.concern == "quantization":  # the method the choice runs ("fp8-training" relies on no QAT claim)
            relied_on.append(choice.settings.get("method", profile.needs.quantization_method))
        if profile.needs.dynamic_shapes and choice.concern in ("dynamic-shapes", "deployment"):
            relied_on.append("dynamic_shapes")
        if choice.concern == "collectives":
            relied_on.append("distributed")
            if serving_alone:  # replicas of one device exchange nothing while serving
                relied_on = [attribute for attribute in relied_on if attribute != "inference"]
        relied_on = [attribute for attribute in relied_on if attribute in candidate.claims()]
        for attribute in dict.fromkeys(relied_on):
            if getattr(candidate, attribute).value == "unknown":
                notes.append(
                    f"no vendor page the knowledge base holds says whether {candidate.name} supports "
                    f"{CLAIM_WORDS.get(attribute, attribute.replace('_', ' '))} ({candidate.id}.{attribute} is unknown): "
                    "check it on the target before relying on it"
                )
    return list(dict.fromkeys(notes))  # one claim several choices rely on is one note


def serving_alone(profile: Profile, choice: StackChoice | None) -> bool:
    """The job serves a whole copy of the model on each device: a model that is not an LLM, or an LLM whose weights
    take one device a replica."""
    if not profile.serves:
        return False
    if not profile.llm:
        return True
    device = choice.device if choice is not None else None
    served = choice.served_precision if choice is not None else None
    return replica_group(profile, device, served) == 1


def stack_factor(
    choice: StackChoice | None, fitting: str = "fitting the whole profile", named: bool = True
) -> tuple[float, str]:
    """What backs the choice: a documented stack validated on this device for the whole profile (`fitting` words how
    far it reaches), one that fits in part, or none (the concerns assembled one by one)."""
    if choice is None or not choice.chosen:
        return NO_STACK, "no documented whole stack fits this profile: the concerns are assembled one by one"
    device = choice.device.id if choice.device is not None else "this family"
    if all(judged.fits for judged in choice.chosen):
        names = " and ".join(judged.stack.name for judged in choice.chosen)
        if choice.device_assumed:  # the stack fits the family's current device, which the team did not name
            return STACK_ASSUMED, (
                f"backed by {names}, documented for {device}, which is assumed (no device named): "
                "name the device to raise this"
            )
        superseded = [judged.stack.name for judged in choice.chosen if judged.stack.superseded is not None]
        if superseded:  # before a preview: a route its vendor no longer supports is the graver (review 109 p11)
            also = [judged.stack.name for judged in choice.chosen if judged.stack.preview is not None]
            return STACK_SUPERSEDED, (
                f"backed by {names}, documented for {device} and {fitting}, but "
                f"{'it' if len(choice.chosen) == 1 else ' and '.join(superseded)} is no longer in its software's "
                "current release: it holds only on the older release its page validates, with no fixes to come"
                + (", and a preview on its own page" if also == superseded else "")
                + (f", and {' and '.join(also)} is a preview on its own page" if also and also != superseded else "")
            )
        previews = [judged.stack.name for judged in choice.chosen if judged.stack.preview is not None]
        if previews:
            return STACK_PREVIEW, (
                f"backed by {names}, documented for {device} and {fitting}, but "
                f"{'it' if len(choice.chosen) == 1 else ' and '.join(previews)} is a preview on its own page"
            )
        unnamed = [judged.stack for judged in choice.chosen if judged.stack.devices_unnamed is not None]
        if unnamed:
            whose = (
                "its page names"
                if len(choice.chosen) == 1
                else f"{' and '.join(stack.name for stack in unnamed)} name{'s' if len(unnamed) == 1 else ''}"
            )
            return STACK_UNNAMED_DEVICE, (
                f"backed by {names}, {fitting}, but {whose} no device of the family, so {device} is one it runs on, "
                "not one it was validated on: measure there first"
            )
        if named and all(judged.written_for_this_model and not judged.model_assumed for judged in choice.chosen):
            return (
                STACK_EXACT,
                f"backed by {names}, a recipe written for this model, documented for {device} and {fitting}",
            )
        general = [judged.stack.name for judged in choice.chosen if not judged.written_for_this_model]
        written = [judged.stack for judged in choice.chosen if judged.stack.applies_to.models]
        which = (
            (
                f"the profile names no model, and the recipe is written for {', '.join(written[0].applies_to.models[:3])}:"
                " it holds as far as the team's model is one of them"
                if written
                else "the profile names no model, so no recipe is written for it"
            )
            if not named
            else f"{' and '.join(general)} is a general page, not a recipe for a named model"
            if general and len(general) < len(choice.chosen)
            else "a general page, not a recipe for a named model"
        )
        return STACK_FITS, f"backed by {names}, documented for {device} and {fitting}; {which}"
    misfits = "; ".join(dict.fromkeys(m.text for judged in choice.chosen for m in judged.misfits))
    if all(judged.fits or judged.fits_by_architecture for judged in choice.chosen):
        # a recipe for a model of this one's architecture backs it as a general page does (review 242 p07: Llama 3.3
        # 70B's recipe for Llama 3.1 70B at a partial fit's 0.42)
        names = " and ".join(judged.stack.name for judged in choice.chosen)
        return STACK_FITS, (
            f"backed by {names}, documented for {device} and {fitting} as a recipe for a model of this one's "
            f"architecture ({misfits})"
        )
    if all(m.kind in SETTING_MISFITS for judged in choice.chosen for m in judged.misfits):
        names = " and ".join(judged.stack.name for judged in choice.chosen)
        return STACK_SETTING, (
            f"backed by {names}, documented for {device}, fitting the profile but for a length its launch or layout "
            f"sets short ({misfits})"
        )
    superseded = [judged.stack.name for judged in choice.chosen if judged.stack.superseded is not None]
    later = (
        f"; and {' and '.join(superseded)} is no longer in its software's current release, with no fixes to come"
        if superseded
        else ""
    )
    return partial_fit(choice), f"the documented stack fits only in part ({misfits}){later}"


def partial_fit(choice: StackChoice) -> float:
    """A partial fit's factor: less the more its misfits weigh (another generation's page costs less than another model
    type's or another kind of training's), so that partial fits are told apart (review 101: 0.42 for every one)."""
    weight = max(judged.weight for judged in choice.chosen)
    beyond = max(0, weight - MISFIT_WEIGHTS["device"])
    return max(PARTIAL_FLOOR, STACK_PARTIAL - PARTIAL_PER_WEIGHT * beyond)


def uncovered_workloads(choice: StackChoice | None, profile: Profile) -> str:
    """The side of a job that trains and serves for which no documented stack was chosen, in words; '' where none."""
    if choice is None or not choice.chosen:
        return ""
    missing = [name for name in workloads(profile) if choice.for_workload(name) is None]
    if not missing:
        return ""
    sides = " and ".join("training" if name == "training" else "serving" for name in missing)
    return f"no documented stack covers the {sides}: tier 1 assembles it concern by concern"


def pinning_factor(choice: StackChoice | None) -> tuple[float, list[str]]:
    """A chosen stack whose page pins no versions was validated with something no one can name: the review has no
    baseline to compare against."""
    unpinned = [
        judged.stack.name for judged in (choice.chosen if choice is not None else ()) if not judged.stack.validated_with
    ]
    if not unpinned:
        return 1.0, []
    return UNPINNED, [
        f"{' and '.join(unpinned)}: its page pins no versions, so record the ones installed as the baseline"
    ]


def access_factor(choice: StackChoice | None) -> tuple[float, list[str]]:
    """A chosen stack whose software comes only through the vendor's support channel: no one outside can reproduce or
    version-check it, so its page vouches for less."""
    restricted = [judged.stack for judged in (choice.chosen if choice is not None else ()) if judged.stack.restricted]
    if not restricted:
        return 1.0, []
    return RESTRICTED, [
        f"{stack.name}: {stack.restricted.value if stack.restricted else ''} (kb: {stack.id}.restricted)"
        for stack in restricted
    ]


def model_factor(choice: StackChoice | None) -> tuple[float, list[str]]:
    """A chosen stack written for named models (its attention backend and checkpoint follow them) where the profile
    names no model: the advice holds only if the team's model is one of them."""
    assumed = [judged.stack for judged in (choice.chosen if choice is not None else ()) if judged.model_assumed]
    if not assumed:
        return 1.0, []
    return MODEL_ASSUMED, [
        f"{stack.name} is written for {', '.join(stack.applies_to.models)}; the profile names no model, so one of "
        "them is assumed: set `model:` to check the fit"
        for stack in assumed
    ]


def overall_confidence(
    facts: EvidenceFacts,
    choices: Sequence[Choice],
    gaps: Sequence[Gap],
    knowledge: KnowledgeBase,
    profile: Profile,
    stack_choice: StackChoice | None = None,
) -> tuple[float, tuple[str, ...]]:
    """The product of every factor, clamped to [0.05, 0.95] and rounded to two decimals, with its notes; the first
    note says in one line what the confidence rests on (the stack, then the evidence)."""
    value, notes = evidence_base(facts)
    uncovered = uncovered_workloads(stack_choice, profile)  # a job that trains and serves, one side documented
    factor, backing = stack_factor(
        stack_choice,
        "fitting its side of the job" if uncovered else "fitting the whole profile",
        named=profile.model_name is not None,
    )
    if uncovered:  # said whether or not the documented side already fits only in part
        factor, backing = min(factor, STACK_PARTIAL), f"{backing}; {uncovered}"
    if profile.needs.cross_platform:  # tier 3 leads: the target's stack backs the target alone
        factor, backing = (
            factor * CROSS_FAMILY,
            # review 260 p09: "no documented stack spans every family" beside a tier 3 of llama.cpp, documented on each
            f"{backing} on {profile.hardware}; but tier 3 leads: each family's stack is documented on a page of its "
            "own, and no one page validates the job on every family it must run on",
        )
    value *= factor
    notes = [f"{backing}; {notes[0]}", *notes[1:]]
    quality = case_quality_factor(facts.quality) if facts.timed_on_target else (1.0, [])
    for factor, more in (
        quality,
        contention_factor(facts),
        platform_factor(knowledge, profile, choices),
        pinning_factor(stack_choice),
        model_factor(stack_choice),
        access_factor(stack_choice),
    ):
        value *= factor
        notes += more
    unknown = unknown_claims(choices, knowledge, profile, serving_alone(profile, stack_choice))
    value *= PER_UNKNOWN_CLAIM ** len(unknown)
    notes += unknown
    if gaps:
        value *= PER_GAP ** len(gaps)
        notes.append(f"tier 1 leaves {len(gaps)} concern(s) open: {', '.join(gap.concern for gap in gaps)}")
    return round(min(CEILING, max(FLOOR, value)), 2), tuple(notes)


def with_task_undocumented(
    confidence: float, notes: Sequence[str], engine: str | None, task: str, hardware: str
) -> tuple[float, tuple[str, ...]]:
    """The confidence lowered where tier 1's engine serves the model's task (embeddings) on this family only on the
    strength of its general documentation, with the note saying so; unchanged where engine is None."""
    if engine is None:
        return confidence, tuple(notes)
    note = (
        f"{engine} is documented on {hardware} for text generation, and for {task} only in general: that it serves "
        "this model there is untested, which lowers the confidence by a fifth"
    )
    return round(confidence * TASK_UNDOCUMENTED_FACTOR, 2), (*notes, note)
