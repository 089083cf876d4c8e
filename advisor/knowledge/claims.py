"""A claim: one value with the public source that supports it and the date that source was checked.

Sources are either a public URL (`https://...`) or a section of the packaged method page
(`method#anchor`, published on the site as "How advisor decides"). Nothing else is accepted: a
claim must point at something a user can open. `unknown` is an honest value, and it says what was
looked for (`looked_for`).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any, Generic, Literal, TypeVar, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from probes.errors import AdvisorError

Concern = Literal[
    "gemm",
    "convolution",
    "attention",
    "fusion",
    "quantization",
    "dynamic-shapes",
    "collectives",
    "training-framework",
    "deployment",
]
HardwareFamily = str  # a platform id: the hardware families are the platform data files, not a list in code
Layer = Literal[
    "operator-library",
    "kernel-language",
    "compiler",
    "runtime",
    "serving-engine",
    "training-framework",
    "framework",
    "platform-sdk",
    "collective-library",
    "quantization-toolkit",
]
# "mixed": part of the stack is published as source, part only as binaries ("closed or half-closed").
Openness = Literal["open", "closed", "mixed"]
Support = Literal["yes", "partial", "no", "unknown", "not-applicable"]
MaintenanceCost = Literal["low", "medium", "high"]

CONCERNS: tuple[str, ...] = get_args(Concern)
LAYERS: tuple[str, ...] = get_args(Layer)

METHOD_PREFIX = "method#"
_URL = re.compile(r"^https?://[^\s/$.?#][^\s]*$")
_METHOD_ANCHOR = re.compile(r"^method#[a-z0-9]+(-[a-z0-9]+)*$")
FAMILY_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*$"

ClaimValue = TypeVar("ClaimValue")


class KnowledgeBaseError(AdvisorError):
    """A knowledge-base file is malformed; the message names the file and the field."""


class KnowledgeQueryError(AdvisorError):
    """A query named a candidate id, hardware family or concern the knowledge base does not know."""


def is_url(source: str) -> bool:
    """A public web address (http or https)."""
    return _URL.match(source) is not None


def method_anchor(source: str) -> str | None:
    """The anchor of a method citation ('method#tiers' -> 'tiers'); None for a URL."""
    return source.removeprefix(METHOD_PREFIX) if source.startswith(METHOD_PREFIX) else None


class Claim(BaseModel, Generic[ClaimValue]):
    """One value, its source, when the source was checked and, for a release, which version it speaks of."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    value: ClaimValue
    source: str = Field(description="A public URL, or 'method#anchor' for a section of the method page")
    as_of: dt.date = Field(description="The date the source was last checked for this claim")
    version: str | None = Field(None, min_length=1, description="The release the claim is about, where it is one")
    note: str | None = Field(None, min_length=1, description="Qualifies the value")
    looked_for: str | None = Field(None, min_length=1, description="For 'unknown': what was searched, and where")

    @field_validator("source")
    @classmethod
    def _source_can_be_opened(cls, source: str) -> str:
        source = source.strip()
        if not (is_url(source) or _METHOD_ANCHOR.match(source)):
            raise ValueError("must be a public URL (https://...) or a method section (method#anchor)")
        return source

    @model_validator(mode="after")
    def _unknown_says_what_was_looked_for(self) -> Claim[ClaimValue]:
        if self.value == "unknown" and self.looked_for is None:
            raise ValueError("an 'unknown' value needs looked_for: what was searched, and where")
        return self

    @property
    def has_url(self) -> bool:
        """The source is a public web page (not a section of the method)."""
        return is_url(self.source)

    def text(self) -> str:
        """The value as one line of text (lists joined with commas)."""
        value = self.value
        return ", ".join(str(item) for item in value) if isinstance(value, list) else str(value)


def field_claims(model: BaseModel, prefix: str = "") -> dict[str, Claim[Any]]:
    """Every claim-valued field of a model by field name (with `prefix` before it)."""
    named: dict[str, Claim[Any]] = {}
    for field in type(model).model_fields:
        value = getattr(model, field)
        if isinstance(value, Claim):
            named[prefix + field] = value
    return named


def check_list_claim(claim: Claim[list[str]]) -> Claim[list[str]]:
    """A list claim holds no duplicates (empty lists are the caller's call)."""
    if len(set(claim.value)) != len(claim.value):
        raise ValueError(f"duplicate values in {claim.value}")
    return claim
