"""How candidates fit together, as sourced claims: whose quantized output a runtime loads, which attention
kernels a serving engine runs, which compiler feeds which runtime.

Read from advisor/data/compatibility.yaml; every id named must be a candidate (checked on load).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from advisor.knowledge.claims import Claim, check_list_claim
from advisor.knowledge.stacks import PRECISIONS
from probes.vocabulary import MODEL_TYPES

Relation = dict[str, Claim[list[str]]]


FAMILY_RELATIONS = ("quantized_output_families",)  # relations whose lists name hardware families, not candidates
ARCHITECTURE_RELATIONS = ("attention_first_on",)  # relations whose entries are 'candidate/architecture'


class Compatibility(BaseModel):
    """Relations between candidate ids, each entry a claim with its source."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    quantized_output_loaded_by: Relation = Field(
        default_factory=dict, description="Quantization toolkit -> the runtimes and engines that load what it writes"
    )
    attention_kernels: Relation = Field(
        default_factory=dict, description="Serving engine or runtime -> the attention kernels it runs"
    )
    attention_first_on: Relation = Field(
        default_factory=dict,
        description="Engine or layer library whose attention backend order differs by architecture -> "
        "'kernel/architecture' entries: the kernel of its attention_kernels it tries first on that compiler target "
        "(Transformer Engine: flash-attention on sm_80, cuDNN on sm_90)",
    )
    feeds: Relation = Field(
        default_factory=dict, description="Compiler or converter -> the runtimes or kernel languages its output runs on"
    )
    layers_from: Relation = Field(
        default_factory=dict,
        description="Training framework -> the operator libraries its model layers are built from (Megatron Core's "
        "from Transformer Engine); a framework not listed runs its own layers",
    )
    quantized_output_families: Relation = Field(
        default_factory=dict,
        description="Quantization toolkit -> the hardware families whose builds of its loaders "
        "document loading what it writes (where that reaches beyond the families the toolkit itself runs on); "
        "'family/model-type' where that build loads it for one model type only, 'family/format' where it loads one of "
        "the toolkit's formats only (vLLM's ROCm build runs llm-compressor's FP8 W8A8, not its INT8 W8A8)",
    )

    @field_validator(
        "quantized_output_loaded_by",
        "attention_kernels",
        "attention_first_on",
        "feeds",
        "layers_from",
        "quantized_output_families",
    )
    @classmethod
    def _lists_are_clean(cls, relation: Relation) -> Relation:
        for claim in relation.values():
            if not claim.value:
                raise ValueError("list at least one id")
            check_list_claim(claim)
        return relation

    @field_validator("quantized_output_families")
    @classmethod
    def _model_type_qualifiers(cls, relation: Relation) -> Relation:
        for subject, claim in relation.items():
            for entry in claim.value:
                only = entry.partition("/")[2]
                if only and only not in (*MODEL_TYPES, *PRECISIONS):
                    raise ValueError(
                        f"{subject}: {entry!r} names no model type ({', '.join(MODEL_TYPES)}) nor format "
                        f"({', '.join(PRECISIONS)})"
                    )
        return relation

    @field_validator("attention_first_on")
    @classmethod
    def _architecture_qualifiers(cls, relation: Relation) -> Relation:
        for subject, claim in relation.items():
            for entry in claim.value:
                if not entry.partition("/")[2]:
                    raise ValueError(f"{subject}: {entry!r} names no architecture: write 'kernel/architecture'")
        return relation

    @model_validator(mode="after")
    def _first_kernels_are_run(self) -> Compatibility:
        for subject, claim in self.attention_first_on.items():
            runs = self.attention_kernels_of(subject)
            for entry in claim.value:
                kernel = entry.partition("/")[0]
                if kernel not in runs:
                    raise ValueError(
                        f"attention_first_on.{subject}: {kernel!r} is not among its attention_kernels "
                        f"({', '.join(runs) or 'none recorded'})"
                    )
        return self

    def relations(self) -> dict[str, Relation]:
        """Every relation by name."""
        return {name: getattr(self, name) for name in type(self).model_fields}

    def layers_of(self, framework: str) -> tuple[str, ...]:
        """The operator libraries a training framework builds its layers from (empty: its own)."""
        claim = self.layers_from.get(framework)
        return tuple(claim.value) if claim is not None else ()

    def loaders_of(self, toolkit: str) -> tuple[str, ...]:
        """The runtimes that load a quantization toolkit's output (empty when not recorded)."""
        claim = self.quantized_output_loaded_by.get(toolkit)
        return tuple(claim.value) if claim is not None else ()

    def toolkits_loaded_by(self, runtime: str) -> tuple[str, ...]:
        """The quantization toolkits whose output a runtime loads."""
        return tuple(toolkit for toolkit, claim in self.quantized_output_loaded_by.items() if runtime in claim.value)

    def attention_kernels_of(self, engine: str) -> tuple[str, ...]:
        """The attention kernels a serving engine or runtime runs (empty when not recorded)."""
        claim = self.attention_kernels.get(engine)
        return tuple(claim.value) if claim is not None else ()

    def attention_first(self, host: str, architecture: str) -> str | None:
        """The attention kernel a host tries first on this architecture, where its order differs by architecture."""
        claim = self.attention_first_on.get(host)
        for entry in claim.value if claim is not None else ():
            kernel, _, on = entry.partition("/")
            if on == architecture:
                return kernel
        return None

    def fed_by(self, runtime: str) -> tuple[str, ...]:
        """The compilers or converters whose output runs on this runtime."""
        return tuple(compiler for compiler, claim in self.feeds.items() if runtime in claim.value)

    def output_families(
        self, toolkit: str, model_type: str | None = None, precision: str | None = None
    ) -> tuple[str, ...]:
        """The families documented to load a toolkit's output (empty when not recorded); an entry 'family/model-type'
        (vllm-gaudi loads ModelOpt's FP8 for dense models only) counts only for that model type, and 'family/format'
        (vLLM on AMD runs llm-compressor's FP8, not its INT8) only for that format, or for none asked."""
        claim = self.quantized_output_families.get(toolkit)
        entries = [entry.partition("/") for entry in (claim.value if claim is not None else ())]

        def counts(only: str) -> bool:
            if only in MODEL_TYPES:
                return model_type is None or only == model_type
            return not only or precision is None or only == precision

        return tuple(dict.fromkeys(family for family, _, only in entries if counts(only)))

    def referenced_ids(self) -> dict[str, list[str]]:
        """Every candidate id named (the subject and its list), by relation and subject ('feeds.torch-compile'); the
        family lists of quantized_output_families are in referenced_families."""
        named: dict[str, list[str]] = {}
        for name, relation in self.relations().items():
            for subject, claim in relation.items():
                listed = (
                    [entry.partition("/")[0] for entry in claim.value]
                    if name in ARCHITECTURE_RELATIONS
                    else claim.value
                )
                named[f"{name}.{subject}"] = [subject] if name in FAMILY_RELATIONS else [subject, *listed]
        return named

    def referenced_architectures(self) -> dict[str, list[str]]:
        """Every architecture (compiler target) named, by relation and subject."""
        return {
            f"{name}.{subject}": [entry.partition("/")[2] for entry in claim.value]
            for name in ARCHITECTURE_RELATIONS
            for subject, claim in getattr(self, name).items()
        }

    def referenced_families(self) -> dict[str, list[str]]:
        """Every hardware family named, by relation and subject."""
        return {
            f"{name}.{subject}": list(dict.fromkeys(entry.partition("/")[0] for entry in claim.value))
            for name in FAMILY_RELATIONS
            for subject, claim in getattr(self, name).items()
        }
