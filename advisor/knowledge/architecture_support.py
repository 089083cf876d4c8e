"""Engines' documented support for a model architecture on a hardware family (`advisor/data/architecture_support.yaml`):
where a stack's page runs no model of the architecture a profile names (a hybrid linear-attention Qwen3.5 on a page
for Qwen3), whether its engine runs that architecture there, from which release, or not at all."""

from __future__ import annotations

import datetime as dt
from functools import lru_cache
from typing import Literal

from pydantic import Field

from advisor.knowledge.model_sizes import Sourced, catalogue

ARCHITECTURE_SUPPORT_FILE = "architecture_support.yaml"

Architecture = Literal["hybrid-linear-attention", "cross-attention-vision"]


class ArchitectureSupport(Sourced):
    """One engine's word on one architecture on one family: supported from a release, or not (an open issue, a
    release line older than the one that added it)."""

    engine: str = Field(min_length=2, description="The candidate id of the engine or framework (vllm, maxtext...)")
    family: str = Field(min_length=2, description="The hardware family id it holds for")
    architecture: Architecture
    supported: Literal["yes", "no"]
    since: str | None = Field(None, description="The first release that runs it, where the source states one")
    models: list[str] = Field(default_factory=list, description="Models the source names")
    source: str
    as_of: dt.date
    note: str = Field(min_length=10, description="What the source says, in a sentence")


@lru_cache(maxsize=1)
def architecture_support() -> tuple[ArchitectureSupport, ...]:
    """The catalogue, in file order."""
    return catalogue(ARCHITECTURE_SUPPORT_FILE, ArchitectureSupport)


def support_for(engine: str | None, family: str, architecture: Architecture) -> ArchitectureSupport | None:
    """The catalogue's entry for this engine, family and architecture (the first in the file), or None."""
    if engine is None:
        return None
    return next(
        (
            entry
            for entry in architecture_support()
            if entry.engine == engine and entry.family == family and entry.architecture == architecture
        ),
        None,
    )
