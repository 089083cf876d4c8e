"""The recommendation as pydantic models (no I/O here): tiers of choices, rejections, switch conditions.

Field names are a public JSON contract (decision records and reviews read them): add fields, never
rename them; a change that old readers cannot ignore bumps RECOMMENDATION_SCHEMA_VERSION.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from advisor.knowledge.claims import Concern, HardwareFamily
from advisor.knowledge.stacks import RUNNER_ROLES
from advisor.profile import Profile

RECOMMENDATION_SCHEMA_VERSION = 1

CitationKind = Literal["profile", "knowledge", "evidence", "reference"]
Operator = Literal[">=", "<=", ">", "<", "==", "!="]
Threshold = bool | float | str
TierNumber = Literal[1, 2, 3]

# A version string naming a release candidate or development build ('0.33.0rc1', 'v0.22.1rc1', '0.40.0.dev0'): reviews
# 131 and 132 asked for an earlier review of records pinned to one (its final release follows within months).
PRE_RELEASE = re.compile(r"^v?\d+(?:\.\d+)*(?:rc\d+|\.?dev\d*)\b", re.IGNORECASE)
# A pin to a source commit rather than a release ('commit b6261862...'): no release's fixes come to it
COMMIT_PIN = re.compile(r"^(?:commit\s+[0-9a-f]{7,40}|[0-9a-f]{12,40})\b", re.IGNORECASE)
# The checkpoint setting of a publisher's quantized release served as it is ("Qwen/Qwen3-235B-A22B-FP8, as released").
AS_RELEASED = ", as released"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Citation(_Model):
    """What drove a line: a profile field, a knowledge-base claim, an evidence case, or a vendor's reference figure."""

    kind: CitationKind
    ref: str = Field(description="Profile field path, 'kb-id.attribute', or an evidence case_id")
    figure: str | None = Field(default=None, description="The value read there, e.g. '0.62x' or 'hpc'")
    source: str | None = Field(default=None, description="For knowledge claims: the claim's own source")


class Rationale(_Model):
    """One sentence and what it rests on."""

    text: str
    cites: tuple[Citation, ...] = Field(min_length=1)


class ExpectedImpact(_Model):
    """The model-level effect of a choice, from its measured operator speedup and the operator's time share
    (Amdahl's law): step speedup = 1 / ((1 - share) + share / operator_speedup)."""

    operator: str = Field(description="The operator group the choice speeds up, e.g. 'gemm'")
    operator_speedup: float = Field(gt=0)
    share: float = Field(ge=0, le=1, description="The group's share of the step's time, measured by hotops")
    step_speedup: float = Field(gt=0)
    low: float = Field(gt=0, description="Step speedup at the slowest measured shape")
    high: float = Field(gt=0, description="Step speedup at the fastest measured shape")
    measured_step_speedup: float | None = Field(None, description="The whole model measured with the choice applied")
    text: str
    cites: tuple[Citation, ...] = ()


class Choice(_Model):
    """The option chosen for one concern in one tier."""

    concern: Concern
    option: str = Field(description="Knowledge-base candidate id (or, with part_of, the name of a stack part)")
    settings: dict[str, str] = Field(default_factory=dict, description="How to use it, e.g. dtype, mode, method")
    rationale: tuple[Rationale, ...] = Field(min_length=1)
    alternatives: tuple[str, ...] = Field(default=(), description="Other candidates that would also fit")
    fits_team: bool = Field(default=True, description="False when the option needs more skill than the team has")
    impact: ExpectedImpact | None = Field(
        default=None, description="Expected model-level effect, from on-target evidence"
    )
    part_of: str | None = Field(
        default=None,
        description="The chosen stack's id when this is a part of it the knowledge base has no candidate for "
        "(option is then the part's name)",
    )

    @property
    def label(self) -> str:
        """How a reader sees the choice: the stack's part by its name with the candidate it is ('MaxText (xla)')."""
        part = self.settings.get("part")
        return f"{part} ({self.option})" if part and self.part_of is None else self.option

    def detail_settings(self) -> dict[str, str]:
        """The settings a reader sees beside the label (the part's name is in the label)."""
        return {name: value for name, value in self.settings.items() if name != "part"}


class Gap(_Model):
    """A concern the tier cannot fill from the knowledge base, and why."""

    concern: Concern
    rationale: tuple[Rationale, ...] = Field(min_length=1)
    kept: dict[str, str] = Field(
        default_factory=dict, description="Family -> the option it keeps for the concern, where no option runs on all"
    )


class Tier(_Model):
    """One of the method's three tiers (method #tiers) with its choice per concern."""

    tier: TierNumber
    name: str
    primary: bool = Field(description="The tier this profile should lead with")
    fits_team: bool = Field(description="Every choice is within the team's skill")
    choices: tuple[Choice, ...] = ()
    gaps: tuple[Gap, ...] = ()
    notes: tuple[Rationale, ...] = ()

    def options(self) -> dict[str, str]:
        """Concern -> chosen option id."""
        return {choice.concern: choice.option for choice in self.choices}


class Rejection(_Model):
    """An option given up, for which concerns, and why."""

    option: str
    concerns: tuple[Concern, ...]
    reasons: tuple[Rationale, ...] = Field(min_length=1)


class Predicate(_Model):
    """metric op threshold, e.g. evidence.int8_max_rel_error <= 0.01."""

    metric: str = Field(description="'profile.<field path>', 'evidence.<fact name>' or 'knowledge.<id>.<attribute>'")
    op: Operator
    threshold: Threshold


class SwitchCondition(_Model):
    """When `metric op threshold` (and every predicate in `also`) holds, the recommendation should change."""

    id: str
    description: str
    metric: str = Field(description="'profile.<field path>' or 'evidence.<fact name>'")
    op: Operator
    threshold: Threshold
    also: tuple[Predicate, ...] = Field(default=(), description="Further predicates that must hold too")
    concern: Concern | None = None
    rerun: str | None = Field(default=None, description="What to re-run to check it, e.g. 'advisor probe gemm'")


class SkippedConcern(_Model):
    """A concern this profile does not need decided (no attention in a CNN, one device)."""

    concern: Concern
    rationale: tuple[Rationale, ...] = Field(min_length=1)


class EvidenceSource(_Model):
    """One evidence file as the engine saw it."""

    hardware: HardwareFamily | None = Field(description="Family of the measured device; None outside the vocabulary")
    device: str
    cases: int
    on_target: bool


class StackPart(_Model):
    """One component of the chosen stack: its role, what it is, the candidate it names, how the stack sets it."""

    role: str
    name: str
    candidate: str | None = None
    setting: str | None = None
    source: str = Field(description="The page that documents this part (the stack's own page when not its own)")


class StackRisk(_Model):
    """One of the chosen stack's own risks: its place among the stack's `risks` (what its citation names) and text."""

    index: int = Field(description="Its index in the stack file's `risks` (cited as <stack>.risks[<index>])")
    text: str


class ChosenStack(_Model):
    """The whole stack tier 1 keeps, as its vendor or project documents it."""

    stack: str = Field(description="Stack id (advisor/data/stacks/<id>.yaml)")
    name: str
    workload: str = Field(description="'inference' or 'training': what it is chosen for")
    source: str
    as_of: dt.date
    summary: str
    parts: tuple[StackPart, ...]
    validated_with: dict[str, str] = Field(default_factory=dict)
    misfits: tuple[str, ...] = Field(default=(), description="What of the profile it does not fit (empty: it fits)")
    risks: tuple[StackRisk, ...] = Field(default=(), description="Its risks that concern this model type and device")
    preview: str | None = Field(
        default=None, description="What its page says where it calls the stack a beta or preview"
    )
    models: tuple[str, ...] = Field(default=(), description="The models its page is written for (empty: any)")
    maintained_until: dt.date | None = Field(
        default=None, description="When the release its page pins leaves maintenance, where the page says"
    )
    superseded: str | None = Field(
        default=None,
        description="Where the vendor's current release no longer carries the stack's software: what its page says",
    )
    model_assumed: bool = Field(
        default=False, description="It is written for named models and the profile names none: one of them is assumed"
    )
    rollout_engines: tuple[str, ...] = Field(
        default=(),
        description="A training stack's own serving engines, which generate its RL rollouts (ids; empty otherwise)",
    )
    released_quantized: bool = Field(
        default=False,
        description="A serving recipe written for the profile's model whose default format is the one asked: the model "
        "is released in it (DeepSeek-V3 in FP8), so there is no float model to keep and no checkpoint to name",
    )

    def models_text(self) -> str | None:
        """'written for deepseek-ai/DeepSeek-V3 (assumed: the profile names no model; set `model:` to check)'."""
        if not self.models:
            return None
        assumed = " (assumed: the profile names no model; set `model:` to check)" if self.model_assumed else ""
        return f"written for {', '.join(self.models)}{assumed}"


class ReferenceFigure(_Model):
    """A figure a vendor measured on the target device (not the team's own evidence), with who measured it where."""

    name: str = Field(description="'fp8_over_bf16_gemm_prefill', 'context_attention_growth', 'allreduce_busbw_gbps'")
    value: float
    figure: str = Field(description="The sentence the record quotes")
    label: str = Field(
        description="'measured by NVIDIA on NVIDIA H200, aiconfigurator-core 0.12.0, TensorRT-LLM 1.3.0rc20'"
    )


class EngineEstimate(_Model):
    """One engine's best serving configuration under the profile's SLA, as aiconfigurator estimates it (not measured)."""

    engine: str = Field(description="The engine's name: TensorRT-LLM, vLLM, SGLang")
    candidate: str = Field(description="Its knowledge-base id")
    engine_version: str = Field(description="The engine version whose operator tables the estimate simulated")
    mode: str = Field(description="agg (aggregated) or disagg (prefill and decode on separate workers)")
    parallel: str
    batch: str
    ttft_ms: float
    tpot_ms: float
    tokens_per_s_per_gpu: float
    config_file: str = Field(description="The engine config aiconfigurator generated, kept beside the record")


class StackOption(_Model):
    """One stack considered for the profile: chosen, or not and why (one decisive reason)."""

    stack: str
    name: str
    workload: str
    runner: str = Field(description="What runs the model in it: the serving engine, training framework or runtime")
    precisions: tuple[str, ...]
    fits: bool
    chosen: bool
    reason: str
    source: str


class Recommendation(_Model):
    """The engine's answer for one profile and its evidence."""

    schema_version: int = RECOMMENDATION_SCHEMA_VERSION
    profile: Profile
    tiers: tuple[Tier, ...]
    rejected: tuple[Rejection, ...] = ()
    switch_conditions: tuple[SwitchCondition, ...] = ()
    skipped_concerns: tuple[SkippedConcern, ...] = ()
    confidence: float = Field(ge=0.0, le=1.0)
    confidence_notes: tuple[str, ...] = ()
    evidence_used: bool = Field(default=False, description="Timed cases on the target informed the choices")
    proxy_evidence: bool = Field(description="Some evidence was measured on hardware other than the target")
    evidence_sources: tuple[EvidenceSource, ...] = ()
    device: str | None = Field(default=None, description="The device id the advice is for (given or assumed)")
    device_assumed: bool = Field(default=False, description="The profile named no device: the family's current one")
    stacks: tuple[ChosenStack, ...] = Field(default=(), description="The whole stacks tier 1 keeps, serving first")
    stacks_considered: tuple[StackOption, ...] = ()
    reference: tuple[ReferenceFigure, ...] = Field(
        default=(), description="Figures the device's vendor measured on it (advisor/data/reference/), never the team's"
    )
    reference_note: str | None = Field(
        default=None, description="Where the reference comes from, or that no vendor reference exists for the device"
    )
    estimates: tuple[EngineEstimate, ...] = Field(
        default=(), description="Serving estimates per engine, best first (advisor[serving]); estimates, not evidence"
    )
    estimates_note: str | None = Field(
        default=None, description="What the estimates are (their label and SLA), or why there are none for this profile"
    )
    verdict: str | None = Field(default=None, description="The decision in one line")
    capacity: tuple[Rationale, ...] = Field(
        default=(),
        description="Whether the model fits the profile's devices, per workload (empty: its size or the memory unknown)",
    )
    confidence_basis: str | None = Field(default=None, description="What the confidence rests on, in one line")

    def tier(self, number: int) -> Tier:
        """The tier with this number."""
        return next(tier for tier in self.tiers if tier.tier == number)

    def with_texts(self, rewrite: Callable[[str], str], profile: Profile) -> Recommendation:
        """A copy whose every text is rewritten (what the plan serves, said where the engine's reasons name the profile
        it planned with) and whose profile is the one given: the profile as asked."""

        def walk(value: object) -> object:
            if isinstance(value, str):
                return rewrite(value)
            if isinstance(value, dict):
                return {key: walk(item) for key, item in value.items()}
            if isinstance(value, list):
                return [walk(item) for item in value]
            return value

        data = self.model_dump(mode="json", exclude={"profile"})
        return Recommendation.model_validate({**walk(data), "profile": profile})  # type: ignore[dict-item]

    def early_review(self) -> str | None:
        """Why the record is reviewed after six months rather than a year, or None: a chosen stack its own page calls a
        beta, preview or experimental (it changes, or leaves that status, before a year is out), or one that holds only
        on a release its software's current documentation no longer carries (no fixes to come)."""
        previews = [stack.name for stack in self.stacks if stack.preview is not None]
        if previews:
            return f"{previews[0]} is a preview on its own page, so it changes before a year is out"
        superseded = [stack.name for stack in self.stacks if stack.superseded is not None]
        if superseded:
            return f"{superseded[0]} holds only on a release its current documentation no longer carries"
        for stack in self.stacks:  # a release candidate or development build: a final release replaces it within months
            pinned = next(
                (
                    f"{name} {value.split()[0]}"
                    for name, value in stack.validated_with.items()
                    if PRE_RELEASE.search(value)
                ),
                None,
            )
            if pinned is not None:
                return f"{stack.name} is validated with a pre-release ({pinned}), which a final release replaces soon"
        for stack in self.stacks:  # reviews 155, 158-160: a 2025 blog's commit of the serving engine pinned for a year
            runners = {part.candidate for part in stack.parts if part.role in RUNNER_ROLES and part.candidate}
            commit = next(
                (name for name, value in stack.validated_with.items() if name in runners and COMMIT_PIN.search(value)),
                None,
            )
            if commit is not None:
                return (
                    f"{stack.name} is validated at a source commit of {commit}, not a release: the releases after it "
                    "change what was validated"
                )
        return None

    def maintenance_end(self) -> tuple[dt.date, str] | None:
        """The earliest date a chosen stack's pinned release leaves maintenance, with that stack's name; None where no
        chosen stack's page states one."""
        ends = [(stack.maintained_until, stack.name) for stack in self.stacks if stack.maintained_until is not None]
        return min(ends) if ends else None
