"""The engine's vendor-specific mappings as data (advisor/data/policy.yaml), so the rules name no product."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Policy(BaseModel):
    """Which runtime runs dynamic shapes how, which toolkit a reading timed, which probe measures which option."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    dynamic_shape_modes: dict[str, str] = Field(
        default_factory=dict, description="Runtime id -> its dynamic-shape mode"
    )
    measured_toolkits: dict[str, str] = Field(
        default_factory=dict, description="INT8 speed reading (name or per-model prefix) -> the toolkit it timed"
    )
    measured_attention: dict[str, str] = Field(
        default_factory=dict, description="Attention option id -> the probe implementation that measures it"
    )
    measured_fusion: str | None = Field(None, description="The compiler the fusion probe times (a candidate id)")
    portable_kernel_language: str | None = Field(None, description="Tier 3's portable kernel language (a candidate id)")
    portable_loss_risk: str | None = Field(None, description="Words of its risk that states the per-platform loss")
    vision_tower_recipes: str | None = Field(
        None,
        description="The toolkit whose model_types claim documents vision-language recipes that keep the vision "
        "encoder in float (cited for a quantized multimodal profile, whichever toolkit its stack names)",
    )
    framework_libraries: list[str] = Field(
        default_factory=list,
        description="Runtimes that are libraries inside the framework (Diffusers on PyTorch): they call the "
        "framework's kernels, so tier 3 exploring on one of them keeps its kernel concerns",
    )
    runtime_micro_kernels: list[str] = Field(
        default_factory=list,
        description="Kernel libraries written for runtimes that keep their own memory, threads and fusion (Arm's "
        "KleidiAI): tier 2 for a stack whose GEMMs run its runtime's own kernels starts there, not at a library a "
        "framework hands whole models to",
    )
    release_toolkits: dict[str, str] = Field(
        default_factory=dict,
        description="Words of a catalogued checkpoint's format (lower case) -> the toolkit that wrote it: an FP8 release "
        "made for one family is named on another whose engine loads that toolkit's output",
    )
    long_context_families: dict[str, list[str]] = Field(
        default_factory=dict,
        description="Engine id -> the families its long_context claim documents (its in-tree "
        "platforms); a hardware plugin elsewhere documents its own",
    )

    def candidate_ids(self) -> set[str]:
        """Every candidate id the policy names (each must exist)."""
        named = {
            *self.dynamic_shape_modes,
            *self.measured_toolkits.values(),
            *self.measured_attention,
            *self.long_context_families,
            *self.framework_libraries,
            *self.runtime_micro_kernels,
            *self.release_toolkits.values(),
        }
        singles = {self.portable_kernel_language, self.measured_fusion, self.vision_tower_recipes} - {None}
        return named | {name for name in singles if name is not None}

    def release_toolkit(self, format_text: str) -> str | None:
        """The toolkit a catalogued release's format names ('... with NVIDIA TensorRT Model Optimizer'), or None."""
        words = format_text.lower()
        return next((tool for said, tool in self.release_toolkits.items() if said in words), None)

    def measured_toolkit(self, reading: str) -> str | None:
        """The toolkit an INT8 speed reading timed: its exact name, else the longest prefix that names it."""
        if reading in self.measured_toolkits:
            return self.measured_toolkits[reading]
        prefixes = sorted((name for name in self.measured_toolkits if reading.startswith(name)), key=len, reverse=True)
        return self.measured_toolkits[prefixes[0]] if prefixes else None
