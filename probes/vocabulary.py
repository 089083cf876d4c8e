"""The words a probe shares with the profile, as plain Literal types and tuples (no pydantic, so the CLI's help
can list them): the model types a probe sizes its reference models for, and the hardware families evidence may name."""

from __future__ import annotations

from typing import Literal, get_args

ModelType = Literal["dense-transformer", "moe", "multimodal", "diffusion", "cnn"]

MODEL_TYPES: tuple[str, ...] = get_args(ModelType)


def builtin_hardware_families() -> tuple[str, ...]:
    """The hardware families advisor ships (its platform files), read as file names only; an extra
    knowledge folder (ADVISOR_KB_DIR) may add more, which the profile accepts too."""
    from importlib.resources import files

    folder = files("advisor.data") / "platforms"
    return tuple(sorted(entry.name.removesuffix(".yaml") for entry in folder.iterdir() if entry.name.endswith(".yaml")))
