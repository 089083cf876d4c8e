"""The knowledge base as pydantic models (no I/O here): candidate stacks, hardware platforms, compatibility.

Every attribute of a candidate is a `Claim` (advisor/knowledge/claims.py): a value, a public source,
the date it was checked. The hardware families are not a fixed list in code: they are the platforms
the data files describe (advisor/data/platforms/), so a new family is added with data files only.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from advisor.knowledge.claims import (
    CONCERNS,
    FAMILY_PATTERN,
    Claim,
    Concern,
    HardwareFamily,
    KnowledgeBaseError,
    KnowledgeQueryError,
    Layer,
    MaintenanceCost,
    Openness,
    Support,
    check_list_claim,
    field_claims,
)
from advisor.knowledge.compatibility import Compatibility
from advisor.knowledge.platforms import Platform
from advisor.knowledge.policy import Policy
from advisor.knowledge.stacks import Stack
from advisor.vocabulary import ServingTask, TeamSkill, TrainingKind
from probes.vocabulary import ModelType

__all__ = [
    "CONCERNS",
    "Candidate",
    "Claim",
    "Concern",
    "HardwareFamily",
    "KnowledgeBase",
    "KnowledgeBaseError",
    "KnowledgeQueryError",
]

_SUPPORTED = ("yes", "partial")
MAX_LISTED = 12  # ids an unknown-id error lists, the closest first
# A candidate offered for a concern must not deny the capability that concern needs.
_CONCERN_NEEDS: dict[str, tuple[str, ...]] = {
    "quantization": ("int8", "fp8", "qat", "ptq"),
    "dynamic-shapes": ("dynamic_shapes",),
    "fusion": ("fusion",),
    "deployment": ("inference",),
    "collectives": ("distributed",),
}


class Candidate(BaseModel):
    """One candidate operator stack: what it is, where it runs, what it demands, and what it can do."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")
    name: str = Field(min_length=1)
    summary: Claim[str]
    layer: Claim[Layer]
    hardware: Claim[list[str]] = Field(description="The hardware families (platform ids) it runs on")
    openness: Claim[Openness]
    skill: Claim[TeamSkill] = Field(description="The least team skill that uses it productively")
    model_types: Claim[list[ModelType]] | None = Field(
        None, description="The model types it serves, where it is limited to some (absent: any model type)"
    )
    tasks: Claim[list[ServingTask]] | None = Field(
        None,
        description="For a server of language models limited to some serving tasks (an embeddings server serves no "
        "generation), or serving speech transcription: those tasks (absent: generation and embedding)",
    )
    training_kinds: Claim[list[TrainingKind]] | None = Field(
        None,
        description="For a training framework limited to some kinds of training (an RL post-training library trains "
        "no pre-training job): those kinds; absent: any. A job of another kind, or of no stated kind, is not offered it",
    )
    devices_listed: Claim[list[str]] | None = Field(
        None,
        description="For a candidate whose own supported-hardware page lists devices by name and leaves the others "
        "untested (community support only): those device ids; absent: no such list",
    )
    adapters: Claim[str] | None = Field(
        None,
        description="For a training framework with LoRA of its own (MaxText's enable_lora on Tunix): how a run switches "
        "it on and where the adapters go; a LoRA job on a stack whose page names no adapter route uses it rather than "
        "Hugging Face PEFT, which wraps PyTorch models only",
    )
    adapters_absent: Claim[str] | None = Field(
        None,
        description="For a training framework that trains no adapters and that PEFT cannot wrap (MaxDiffusion's JAX "
        "trainers, whose LoRAs load at generation only): what its page offers instead; a LoRA job on it trains every "
        "weight, or trains its adapters on another stack, and merges nothing",
    )
    independent: Claim[str] | None = Field(
        None,
        description="For a project no hardware vendor publishes (whisper.cpp, mflux): who does, from its own page; "
        "where its own kernels run a stack, the record says they are not the vendor's libraries. Absent: a vendor's "
        "product, or one the vendors build into their stacks",
    )
    ships_kernels_of: Claim[list[str]] | None = Field(
        None,
        description="The knowledge base's candidates whose kernels it ships inside, from its page (aiter's Composable "
        "Kernel and Triton kernels): a stack that runs it uses them, so they are not rejected for the skill that "
        "writing kernels in them takes",
    )
    custom_operators: Claim[str] | None = Field(
        None,
        description="For a runtime that loads no other framework's kernels (Core ML): how a team adds an operator of "
        "its own to it, from its page; tier 2 names it where the platform's kernel route runs only inside another "
        "framework (MLX's Metal kernels)",
    )
    training: Claim[Support]
    inference: Claim[Support]
    autograd: Claim[Support]
    fusion: Claim[Support]
    autotuning: Claim[Support]
    dynamic_shapes: Claim[Support]
    int8: Claim[Support]
    fp8: Claim[Support]
    qat: Claim[Support]
    ptq: Claim[Support]
    distributed: Claim[Support]
    maintenance_cost: Claim[MaintenanceCost]
    long_context: Claim[str] | None = Field(
        None, description="How it runs long sequences: the KV-cache, prefill and parallelism features it documents"
    )
    block_scaled_fp8: Claim[str] | None = Field(
        None,
        description="A serving engine's own kernels for the linear layers of a checkpoint whose FP8 weights carry block "
        "scales (128 x 128, as DeepSeek's and Qwen3's FP8 releases do): what runs them, in place of the per-tensor "
        "FP8 GEMM of the vendor's BLAS",
    )
    async_rollouts: Claim[str] | None = Field(
        None,
        description="For an RL post-training framework with an asynchronous trainer that gives rollouts devices of "
        "their own and generates the next batch while the current one trains (verl's one-step-off-policy trainer): how "
        "a run turns it on, with which rollout engines, and which phase timings tell when it pays; an RL job on it gets "
        "a switch on generation's share of the step",
    )
    async_rollout_engines: tuple[str, ...] = Field(
        (),
        description="The rollout engines (candidate ids) that `async_rollouts` runs; a stack rolling out on another "
        "engine gets no such switch",
    )
    # Declared after the capabilities so that its validator can check it against them.
    concerns: Claim[list[Concern]]
    risks: list[Claim[str]] = Field(min_length=1)

    @field_validator("hardware", "concerns", "model_types", "tasks", "training_kinds", "devices_listed")
    @classmethod
    def _non_empty_and_unique(cls, claim: Claim[list[str]] | None) -> Claim[list[str]] | None:
        if claim is None:
            return None
        if not claim.value:
            raise ValueError("list at least one value")
        return check_list_claim(claim)

    @field_validator("hardware")
    @classmethod
    def _families_are_names(cls, claim: Claim[list[str]]) -> Claim[list[str]]:
        for family in claim.value:
            if not re.match(FAMILY_PATTERN, family):
                raise ValueError(f"{family!r} is not a hardware family id (lowercase words joined by '-')")
        return claim

    @field_validator("concerns")
    @classmethod
    def _concerns_match_capabilities(cls, claim: Claim[list[str]], info: ValidationInfo) -> Claim[list[str]]:
        for concern in claim.value:
            fields = _CONCERN_NEEDS.get(concern, ())
            claims = [info.data.get(field) for field in fields]
            if fields and not any(isinstance(c, Claim) and c.value in _SUPPORTED for c in claims):
                raise ValueError(f"lists {concern!r} but {'/'.join(fields)} is not 'yes' or 'partial'")
        return claim

    def claims(self) -> dict[str, Claim[Any]]:
        """Every attribute claim by field name (risks numbered risks[0], risks[1], ...)."""
        named = field_claims(self)
        for index, risk in enumerate(self.risks):
            named[f"risks[{index}]"] = risk
        return named

    def leaves_untested(self, device_id: str, family_devices: Sequence[str]) -> bool:
        """Its own page lists the devices of this family it supports, and this one is not among them."""
        if self.devices_listed is None:
            return False
        listed = self.devices_listed.value
        return any(item in family_devices for item in listed) and device_id not in listed

    def serves_model_type(self, model_type: str) -> bool:
        """True unless the candidate is limited to model types that exclude this one."""
        return self.model_types is None or model_type in self.model_types.value

    def trains_kind(self, kind: str | None) -> bool:
        """True unless the candidate is limited to kinds of training that exclude this one (a job naming no kind is
        none of them)."""
        return self.training_kinds is None or kind in self.training_kinds.value

    def serves_task(self, task: str) -> bool:
        """True unless the candidate is limited to serving tasks that exclude this one (an embeddings server and
        generation); a runtime or engine serves speech transcription only where its claim lists it (llama.cpp serves
        no Whisper), while a kernel library, language or compiler is no server and serves any task."""
        if self.tasks is None:
            return task not in CLAIMED_TASKS_ONLY or self.layer.value not in SERVING_LAYERS
        return task in self.tasks.value


# Serving tasks a candidate serves only where its `tasks` claim lists them: a runtime that documents no speech endpoint
# is no transcription server.
CLAIMED_TASKS_ONLY: tuple[str, ...] = ("transcription",)
SERVING_LAYERS: tuple[str, ...] = ("serving-engine", "runtime")  # the layers that serve a model on an endpoint


# A candidate's claims of what it can do (yes/partial/no/unknown), read from the model's fields.
SUPPORT_CLAIMS: tuple[str, ...] = tuple(
    name for name, field in Candidate.model_fields.items() if field.annotation == Claim[Support]
)


def unknown_id(kind: str, wanted: str, known: Sequence[str], lister: str) -> str:
    """'unknown candidate 'cudaa'; known ids: cublas, cudnn, ... (37 in all: `advisor kb list`)': the closest ids
    first, at most MAX_LISTED, so that the message stays one readable line."""
    close = difflib.get_close_matches(wanted, known, n=MAX_LISTED, cutoff=0.5)
    listed = [*close, *(item for item in known if item not in close)][:MAX_LISTED]
    more = f" ... ({len(known)} in all: `{lister}`)" if len(known) > len(listed) else ""
    return f"unknown {kind} {wanted!r}; known ids: {', '.join(listed) or 'none'}{more}"


class KnowledgeBase(BaseModel):
    """All candidates and platforms and how they fit together, with the lookups the engine needs."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    candidates: tuple[Candidate, ...]
    platforms: tuple[Platform, ...] = ()
    stacks: tuple[Stack, ...] = ()
    compatibility: Compatibility = Compatibility()
    policy: Policy = Policy()

    @field_validator("candidates", "platforms", "stacks")
    @classmethod
    def _ids_are_unique(cls, items: tuple[Candidate, ...] | tuple[Platform, ...] | tuple[Stack, ...]) -> tuple:
        ids = [item.id for item in items]
        duplicates = sorted({item_id for item_id in ids if ids.count(item_id) > 1})
        if duplicates:
            raise ValueError(f"duplicate ids: {', '.join(duplicates)}")
        return items

    def ids(self) -> list[str]:
        """Candidate ids in knowledge-base order."""
        return [candidate.id for candidate in self.candidates]

    def families(self) -> tuple[str, ...]:
        """The hardware families: the ids of the platforms described."""
        return tuple(platform.id for platform in self.platforms)

    def claim_at(self, ref: str) -> Claim[Any] | None:
        """The claim a citation names: '<candidate>.<field>', '<family>.<path>' or
        'compatibility.<relation>.<subject>'; None when there is none."""
        owner, _, path = ref.partition(".")
        if owner == "compatibility":
            relation, _, subject = path.partition(".")
            return self.compatibility.relations().get(relation, {}).get(subject)
        if owner in self.families():
            return self.platform(owner).claims().get(path)
        if owner in self.ids():
            return self.get(owner).claims().get(path)
        if owner in {stack.id for stack in self.stacks}:
            return self.stack(owner).claims().get(path)
        return None

    def stack(self, stack_id: str) -> Stack:
        """The stack with this id; KnowledgeQueryError listing the known ids otherwise."""
        for stack in self.stacks:
            if stack.id == stack_id:
                return stack
        raise KnowledgeQueryError(
            unknown_id("stack", stack_id, [stack.id for stack in self.stacks], "advisor kb stacks")
        )

    def stacks_for(self, family: str) -> tuple[Stack, ...]:
        """The stacks of one hardware family, in knowledge-base order."""
        self.platform(family)
        return tuple(stack for stack in self.stacks if stack.applies_to.family == family)

    def get(self, candidate_id: str) -> Candidate:
        """The candidate with this id; KnowledgeQueryError listing the known ids otherwise."""
        for candidate in self.candidates:
            if candidate.id == candidate_id:
                return candidate
        raise KnowledgeQueryError(unknown_id("candidate", candidate_id, list(self.ids()), "advisor kb list"))

    def layer_of(self, candidate_id: str) -> str | None:
        """The layer of a candidate ('runtime', 'serving-engine', ...); None for an id the knowledge base does not list
        (a stack part known only by its name)."""
        return next((c.layer.value for c in self.candidates if c.id == candidate_id), None)

    def platform(self, family: str) -> Platform:
        """The platform of a hardware family; KnowledgeQueryError listing the families otherwise."""
        for platform in self.platforms:
            if platform.id == family:
                return platform
        raise KnowledgeQueryError(f"unknown hardware family {family!r}; choose one of: {', '.join(self.families())}")

    def for_hardware(self, family: str) -> KnowledgeBase:
        """The candidates that run on this hardware family."""
        self.platform(family)
        return self.model_copy(update={"candidates": tuple(c for c in self.candidates if family in c.hardware.value)})

    def for_concern(self, concern: str) -> KnowledgeBase:
        """The candidates that can serve this concern."""
        if concern not in CONCERNS:
            raise KnowledgeQueryError(f"unknown concern {concern!r}; choose one of: {', '.join(CONCERNS)}")
        return self.model_copy(update={"candidates": tuple(c for c in self.candidates if concern in c.concerns.value)})
