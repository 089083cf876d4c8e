"""The words a profile is made of, as plain Literal types: importing them costs nothing (no pydantic),
so the CLI can offer them as choices in its help and the models can validate against the same lists."""

from __future__ import annotations

from typing import Literal, get_args

ModelType = Literal["dense-transformer", "moe", "multimodal", "diffusion", "cnn"]
TeamSkill = Literal["framework", "kernel", "hpc"]
Workload = Literal["training", "inference", "both"]
Quantization = Literal["none", "int8", "fp8"]
QuantizationMethod = Literal["ptq", "qat"]

MODEL_TYPES: tuple[str, ...] = get_args(ModelType)
TEAM_SKILLS: tuple[str, ...] = get_args(TeamSkill)
WORKLOADS: tuple[str, ...] = get_args(Workload)
QUANTIZATIONS: tuple[str, ...] = get_args(Quantization)
QUANTIZATION_METHODS: tuple[str, ...] = get_args(QuantizationMethod)


def builtin_hardware_families() -> tuple[str, ...]:
    """The hardware families advisor ships (its platform files), read as file names only; an extra
    knowledge folder (ADVISOR_KB_DIR) may add more, which the profile accepts too."""
    from importlib.resources import files

    folder = files("advisor.data") / "platforms"
    return tuple(sorted(entry.name.removesuffix(".yaml") for entry in folder.iterdir() if entry.name.endswith(".yaml")))
