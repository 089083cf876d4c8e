"""The knowledge base of candidate operator stacks as pydantic models (no I/O here).

Every attribute of a candidate is a `Claim`: a value plus the source that supports it (a section of
the method, e.g. "method.md §4", or a public documentation page). "unknown" is an honest value: the
cited material does not settle it, and the recommendation engine must ask for a probe instead.
"""

from __future__ import annotations

from typing import Generic, Literal, TypeVar, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from advisor.errors import AdvisorError

HardwareFamily = Literal["nvidia-gpu", "ascend-npu", "cambricon-mlu", "hygon-dcu", "iluvatar-gpu", "x86-cpu", "arm-cpu"]
TeamSkill = Literal["framework", "kernel", "hpc"]
Concern = Literal["gemm", "attention", "fusion", "quantization", "dynamic-shapes", "collectives", "deployment"]
Layer = Literal[
    "operator-library", "kernel-language", "compiler", "runtime", "collective-library", "quantization-toolkit"
]
# "mixed": part of the stack is published as source, part only as binaries (method.md §3: "closed or half-closed").
Openness = Literal["open", "closed", "mixed"]
Support = Literal["yes", "partial", "no", "unknown", "not-applicable"]
MaintenanceCost = Literal["low", "medium", "high"]

HARDWARE_FAMILIES: tuple[str, ...] = get_args(HardwareFamily)
TEAM_SKILLS: tuple[str, ...] = get_args(TeamSkill)
CONCERNS: tuple[str, ...] = get_args(Concern)

ClaimValue = TypeVar("ClaimValue")

_SUPPORTED = ("yes", "partial")


class KnowledgeBaseError(AdvisorError):
    """A knowledge-base file is malformed; the message names the file and the field."""


class KnowledgeQueryError(AdvisorError):
    """A query named a candidate id, hardware family or concern the knowledge base does not know."""


class Claim(BaseModel, Generic[ClaimValue]):
    """One attribute value and the source that supports it; `note` qualifies the value."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    value: ClaimValue
    source: str = Field(min_length=1, description="'method.md §N', 'seed NNN §x.y' or a public documentation title/URL")
    note: str | None = None

    @field_validator("source")
    @classmethod
    def _source_is_not_blank(cls, source: str) -> str:
        if not source.strip():
            raise ValueError("a claim needs a source")
        return source.strip()


class Candidate(BaseModel):
    """One candidate operator stack: what it is, where it runs, what it demands, and what it can do."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")
    name: str = Field(min_length=1)
    summary: Claim[str]
    layer: Claim[Layer]
    hardware: Claim[list[HardwareFamily]]
    openness: Claim[Openness]
    skill: Claim[TeamSkill] = Field(description="The least team skill that uses it productively")
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
    # Declared after the capabilities so that its validator can check it against them.
    concerns: Claim[list[Concern]]
    risks: list[Claim[str]] = Field(min_length=1)

    @field_validator("hardware", "concerns")
    @classmethod
    def _non_empty_and_unique(cls, claim: Claim[list[str]]) -> Claim[list[str]]:
        if not claim.value:
            raise ValueError("list at least one value")
        if len(set(claim.value)) != len(claim.value):
            raise ValueError(f"duplicate values in {claim.value}")
        return claim

    @field_validator("concerns")
    @classmethod
    def _concerns_match_capabilities(cls, claim: Claim[list[str]], info: ValidationInfo) -> Claim[list[str]]:
        # A candidate offered for a concern must not deny the capability that concern needs.
        needs = {
            "quantization": ("int8", "fp8", "qat", "ptq"),
            "dynamic-shapes": ("dynamic_shapes",),
            "fusion": ("fusion",),
            "deployment": ("inference",),
            "collectives": ("distributed",),
        }
        for concern in claim.value:
            fields = needs.get(concern, ())
            claims = [info.data.get(field) for field in fields]
            if fields and not any(isinstance(c, Claim) and c.value in _SUPPORTED for c in claims):
                raise ValueError(f"lists {concern!r} but {'/'.join(fields)} is not 'yes' or 'partial'")
        return claim

    def claims(self) -> dict[str, Claim[object]]:
        """Every attribute claim by field name (risks numbered risks[0], risks[1], ...)."""
        named: dict[str, Claim[object]] = {}
        for field in type(self).model_fields:
            value = getattr(self, field)
            if isinstance(value, Claim):
                named[field] = value
        for index, risk in enumerate(self.risks):
            named[f"risks[{index}]"] = risk
        return named


class KnowledgeBase(BaseModel):
    """All candidates, with the lookups the recommendation engine needs."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    candidates: tuple[Candidate, ...]

    @field_validator("candidates")
    @classmethod
    def _ids_are_unique(cls, candidates: tuple[Candidate, ...]) -> tuple[Candidate, ...]:
        ids = [candidate.id for candidate in candidates]
        duplicates = sorted({candidate_id for candidate_id in ids if ids.count(candidate_id) > 1})
        if duplicates:
            raise ValueError(f"duplicate candidate ids: {', '.join(duplicates)}")
        return candidates

    def ids(self) -> list[str]:
        """Candidate ids in knowledge-base order."""
        return [candidate.id for candidate in self.candidates]

    def get(self, candidate_id: str) -> Candidate:
        """The candidate with this id; KnowledgeQueryError listing the known ids otherwise."""
        for candidate in self.candidates:
            if candidate.id == candidate_id:
                return candidate
        raise KnowledgeQueryError(f"unknown candidate {candidate_id!r}; known ids: {', '.join(self.ids())}")

    def for_hardware(self, family: str) -> KnowledgeBase:
        """The candidates that run on this hardware family."""
        _check_term("hardware family", family, HARDWARE_FAMILIES)
        return KnowledgeBase(candidates=tuple(c for c in self.candidates if family in c.hardware.value))

    def for_concern(self, concern: str) -> KnowledgeBase:
        """The candidates that can serve this concern."""
        _check_term("concern", concern, CONCERNS)
        return KnowledgeBase(candidates=tuple(c for c in self.candidates if concern in c.concerns.value))


def _check_term(kind: str, term: str, known: tuple[str, ...]) -> None:
    if term not in known:
        raise KnowledgeQueryError(f"unknown {kind} {term!r}; choose one of: {', '.join(known)}")
