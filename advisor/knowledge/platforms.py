"""A hardware platform (one hardware family) as data: its official stack per concern and what runs on it.

One file per family in advisor/data/platforms/<family>.yaml. The recommendation engine reads the
official stack from here and never names a family in its code.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from advisor.knowledge.claims import FAMILY_PATTERN, Claim, Concern, Support, check_list_claim, field_claims
from advisor.knowledge.stacks import ID_PATTERN, Precision
from advisor.vocabulary import ASKED_FORMATS, WEIGHT_ONLY_ASKS

PlatformKind = Literal["accelerator", "cpu"]
# The platform's lists of candidate ids besides its official stack.
NAMED_LISTS = (
    "deep_development",
    "serving_engines",
    "training_frameworks",
    "collective_library",
    "kernel_languages",
    "quantization_toolkits",
)


class OfficialStack(BaseModel):
    """Tier-1 candidate ids per concern, most preferred first; an empty list means no official choice."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    gemm: Claim[list[str]]
    convolution: Claim[list[str]] | None = Field(
        None, description="Convolution libraries for CNN and diffusion models (absent: none named)"
    )
    attention: Claim[list[str]]
    attention_long_context: Claim[list[str]] | None = Field(
        None, description="The attention preference when long context is needed (absent: the same as attention)"
    )
    fusion: Claim[list[str]]
    quantization: Claim[list[str]]
    dynamic_shapes: Claim[list[str]] = Field(description="For serving with variable shapes")
    dynamic_shapes_training: Claim[list[str]] | None = Field(
        None, description="When the workload trains: paths that run the backward pass too (absent: none)"
    )
    collectives: Claim[list[str]]
    deployment: Claim[list[str]]

    @field_validator("*")
    @classmethod
    def _no_duplicates(cls, claim: Claim[list[str]] | None) -> Claim[list[str]] | None:
        return None if claim is None else check_list_claim(claim)

    def preference(self, concern: Concern, *, long_context: bool = False, training: bool = False) -> tuple[str, ...]:
        """The candidate ids to try for a concern in this situation, most preferred first."""
        if concern == "attention" and long_context and self.attention_long_context is not None:
            return tuple(self.attention_long_context.value)
        if concern == "dynamic-shapes" and training:
            return tuple(self.dynamic_shapes_training.value) if self.dynamic_shapes_training is not None else ()
        if concern == "training-framework":
            return ()  # named by the platform's training_frameworks list, not by its official stack
        claim = getattr(self, concern.replace("-", "_"))
        return tuple(claim.value) if claim is not None else ()


class Device(BaseModel):
    """One device (or device generation) of a family: what it is, what its matrix units run, and its peak row."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=ID_PATTERN, description="Unique in its family: 'h200-sxm', 'mi300x', 'ascend-910b'")
    name: str = Field(min_length=1)
    generation: str = Field(min_length=1, description="The generation as the vendor names it: 'Hopper', 'CDNA 3'")
    architecture: str = Field(min_length=1, description="The compiler target or chip id: 'sm_90', 'gfx942', 'Trn2'")
    memory_gb: float | None = Field(None, gt=0, description="Device memory in GB, where it has its own")
    formats: list[Precision] = Field(min_length=1, description="Formats its matrix units run natively")
    formats_basis: Literal["spec", "recipes"] = Field(
        "spec",
        description="Where `formats` comes from: the vendor's published specification, or (where none is "
        "published) the formats its vendor's recipes run on it, so that a format missing there is undocumented, not absent",
    )
    fp8_variant: Literal["ocp", "fnuz"] | None = Field(
        None, description="OCP FP8 (e4m3fn/e5m2) or the FNUZ variant (e4m3fnuz) where it runs fp8; absent otherwise"
    )
    peaks: str | None = Field(None, min_length=1, description="The name of its row in accelerator_peaks.yaml")
    node_devices: int | None = Field(
        None,
        gt=0,
        description="How many of it share one fast-interconnect domain: a server or instance (16 Trainium2 in a "
        "trn2.48xlarge) or a TPU slice over ICI (256 v6e chips), where a vendor page states it; absent: policy.NODE_DEVICES",
    )
    host_devices: int | None = Field(
        None,
        gt=0,
        description="How many of it one host (a server or compute tray, one process launch's node) holds, where that "
        "is fewer than node_devices' interconnect domain and a vendor page states it (4 GB200 per NVL72 compute tray); "
        "absent: node_devices",
    )
    ranks_per_device: int | None = Field(
        None,
        gt=1,
        description="How many ranks one device presents to a framework's parallel degrees, where more than one and a "
        "vendor page states it (a Trainium2 chip is four logical NeuronCores at the default LNC=2): a command's "
        "--tensor-parallel-size counts these, not devices; absent: one",
    )
    rank_name: str | None = Field(
        None, min_length=1, description="What one such rank is called ('logical NeuronCores'); with ranks_per_device"
    )
    device_class: Literal["server", "mobile"] = Field(
        "server",
        description="Where it runs: a data-centre or workstation part, or a phone/embedded SoC (its own stacks)",
    )
    spec: Claim[str] = Field(description="One line of its specification, with the vendor page it comes from")
    inference_only: Claim[str] | None = Field(
        None,
        description="Where its vendor documents it for inference only (an inference card whose runtime runs no "
        "training): what the page says, with the page",
    )

    @model_validator(mode="after")
    def _ranks_named(self) -> Device:
        if (self.ranks_per_device is None) != (self.rank_name is None):
            raise ValueError("ranks_per_device and rank_name go together")
        return self

    @model_validator(mode="after")
    def _fp8_variant_with_fp8(self) -> Device:
        if ("fp8" in self.formats) != (self.fp8_variant is not None):
            raise ValueError("fp8_variant is given exactly when formats list fp8")
        return self

    def may_run(self, precision: str) -> bool:
        """It runs this format (or, for an ask that names a kind of format, fp4, one of its formats), the format is
        weight-only (int4), or its vendor publishes no format list that would say it does not."""
        if precision in self.formats or precision in WEIGHT_ONLY_ASKS or self.formats_basis == "recipes":
            return True
        kinds = ASKED_FORMATS.get(precision, ())
        return precision not in kinds and any(kind in self.formats for kind in kinds)

    def runs_natively(self, precision: str) -> bool:
        """It runs this stack format: it lists it, or the format is weight-only (int4 weights widened as loaded)."""
        return precision in self.formats or precision in WEIGHT_ONLY_ASKS

    def formats_text(self) -> str:
        """Its formats as one line, fp8 with its variant: 'bf16, fp8 (ocp), int8'."""
        return ", ".join(f"fp8 ({self.fp8_variant})" if item == "fp8" else item for item in self.formats)


def is_mobile(device: Device | None) -> bool:
    """The device is a phone-class one (its stacks run in an app, not a server)."""
    return device is not None and device.device_class == "mobile"


def ranks_of(device: Device | None) -> int:
    """How many ranks a device presents to a framework's parallel degrees (a Trainium2 chip's four logical
    NeuronCores): its ranks_per_device, else one."""
    return device.ranks_per_device if device is not None and device.ranks_per_device else 1


class Platform(BaseModel):
    """One hardware family: what it is, its official stack, and the engines, frameworks and libraries on it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=FAMILY_PATTERN)
    name: str = Field(min_length=1)
    kind: PlatformKind = Field(description="accelerator or cpu: CPUs default to fp32 GEMM until bf16 is measured")
    summary: Claim[str]
    official: OfficialStack
    deep_development: Claim[list[str]] = Field(
        description="Tier 2: low-level routes for key operators, preferred first"
    )
    serving_engines: Claim[list[str]]
    training_frameworks: Claim[list[str]]
    collective_library: Claim[list[str]]
    kernel_languages: Claim[list[str]]
    custom_kernel_concerns: Claim[list[Concern]] | None = Field(
        None,
        description="The concerns its custom-kernel routes can write, where they cannot write all of them (a matrix "
        "engine no kernel language programs keeps GEMM on the vendor library); absent: every tier-2 concern",
    )
    quantization_toolkits: Claim[list[str]]
    dynamic_shapes: Claim[Support] = Field(description="Whether its stack runs dynamic shapes natively")
    risks: list[Claim[str]] = Field(default_factory=list)
    devices: list[Device] = Field(default_factory=list, description="Its devices, by generation")
    terms: list[str] = Field(
        default_factory=list,
        description="Words that name this family's own technology ('CUDA graph', 'AVX'): a line of advice that names "
        "another family's term is not shown for this one",
    )
    default_device: Claim[str] | None = Field(
        None, description="The device assumed when a profile names none: the family's current generation"
    )

    @model_validator(mode="after")
    def _devices_are_known(self) -> Platform:
        ids = [device.id for device in self.devices]
        repeated = sorted({device_id for device_id in ids if ids.count(device_id) > 1})
        if repeated:
            raise ValueError(f"devices: duplicate id {repeated[0]!r}")
        if (self.default_device is None) != (not self.devices):
            raise ValueError("default_device is given exactly when devices are listed")
        if self.default_device is not None and self.default_device.value not in ids:
            raise ValueError(f"default_device: {self.default_device.value!r} is not among devices ({', '.join(ids)})")
        return self

    def device(self, device_id: str) -> Device | None:
        """The device with this id, or None."""
        return next((device for device in self.devices if device.id == device_id), None)

    @field_validator(*NAMED_LISTS)
    @classmethod
    def _no_duplicates(cls, claim: Claim[list[str]]) -> Claim[list[str]]:
        return check_list_claim(claim)

    def claims(self) -> dict[str, Claim[Any]]:
        """Every claim by field path ('official.gemm', 'risks[0]', ...)."""
        named = {**field_claims(self), **field_claims(self.official, "official.")}
        for index, risk in enumerate(self.risks):
            named[f"risks[{index}]"] = risk
        for device in self.devices:
            named[f"devices.{device.id}.spec"] = device.spec
        return named

    def named_ids(self) -> frozenset[str]:
        """Every candidate id the platform names anywhere: the stacks that belong to its ecosystem."""
        return frozenset(option for named in self.referenced_ids().values() for option in named)

    def referenced_ids(self) -> dict[str, list[str]]:
        """Every candidate id this platform names, by the field that names it."""
        return {
            path: list(claim.value)
            for path, claim in self.claims().items()
            if isinstance(claim.value, list) and (path.startswith("official.") or path in NAMED_LISTS)
        }
