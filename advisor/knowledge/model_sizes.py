"""Sizes of well-known models whose Hugging Face id states no size, or states the active one (Llama 4's "17B"):
`advisor/data/models.yaml`, each from its publisher's model card. The memory check reads them where a profile gives no
`parameters_b`."""

from __future__ import annotations

import datetime as dt
from functools import lru_cache
from importlib import resources

import yaml
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator

from advisor.knowledge.claims import KnowledgeBaseError, is_url
from advisor.knowledge.stacks import Precision, model_matches

MODELS_FILE = "models.yaml"


class ModelSize(BaseModel):
    """One model's total (and for a mixture of experts, active) size in billions of parameters, and its source."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(min_length=3, pattern=r"^[\w.-]+/[\w.-]+$", description="Its Hugging Face id (a release prefix)")
    parameters_b: float = Field(gt=0, description="Total parameters, in billions (a MoE's total)")
    active_b: float | None = Field(None, gt=0, description="Parameters active per token, for a mixture of experts")
    released_format: Precision | None = Field(
        None, description="The quantized format its publisher releases the weights in (Kimi-K2-Thinking's INT4)"
    )
    source: str
    as_of: dt.date

    @field_validator("source")
    @classmethod
    def _public_url(cls, source: str) -> str:
        if not is_url(source):
            raise ValueError(f"source: {source!r} is not a public URL")
        return source


@lru_cache(maxsize=1)
def model_sizes() -> tuple[ModelSize, ...]:
    """The catalogue, in file order (a longer id before the one it extends)."""
    text = resources.files("advisor.data").joinpath(MODELS_FILE).read_text(encoding="utf-8")
    try:
        return tuple(TypeAdapter(list[ModelSize]).validate_python(yaml.safe_load(text)))
    except Exception as error:  # a malformed file is the project's bug: say which file
        raise KnowledgeBaseError(f"advisor/data/{MODELS_FILE}: {error}") from None


def size_of(model: str) -> ModelSize | None:
    """The catalogue's entry for a model id or one of its releases ('...-Instruct', '...-FP8'), or None."""
    return next((entry for entry in model_sizes() if model_matches(entry.id, model)), None)
