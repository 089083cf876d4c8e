"""What `advisor ops` reports: an ONNX model's operators and, for one target, a verdict on each (no I/O here).

The verdicts are the method's three cases of operator mapping (method #onnx-mapping: maps directly, decomposes
into supported operators, unsupported and needs a custom operator), plus "unknown" where the source at
hand cannot say per operator.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

OPS_REPORT_SCHEMA_VERSION = 1

Verdict = Literal["maps-directly", "needs-decomposition", "unsupported", "unknown"]
VERDICTS: tuple[Verdict, ...] = ("maps-directly", "needs-decomposition", "unsupported", "unknown")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class OperatorUse(_Model):
    """One operator of the model: its identity, the version it resolves to and how many nodes use it."""

    domain: str = Field(description="Operator domain; 'ai.onnx' is the default ONNX domain (empty in the file)")
    op_type: str
    opset: int = Field(description="The model's opset import for the domain")
    since_version: int | None = Field(
        description="Version of the operator's ONNX schema that the opset resolves to; null without a schema"
    )
    nodes: int = Field(ge=1, description="Nodes using it, subgraphs (If/Loop/Scan bodies) included")


class OperatorVerdict(_Model):
    """The target's verdict on one operator, with the source that settles it."""

    operator: OperatorUse
    verdict: Verdict
    source: str = Field(
        min_length=1, description="What the verdict rests on: a kernel registry, a function body, a claim"
    )
    reason: str = Field(min_length=1)
    decomposes_into: list[str] = Field(
        default_factory=list, description="'domain::op_type' of the function body's operators, when it has one"
    )


class TargetInfo(_Model):
    """The runtime or stack judged, and whether it can answer per operator."""

    name: str = Field(description="The --target value, e.g. onnxruntime-cpu or tensorrt")
    description: str
    per_operator: bool = Field(description="True when verdicts come from the target's own operator registry")


class SourcedNote(_Model):
    """A remark that applies to the whole report, with its source."""

    text: str
    source: str


class CoverageReport(_Model):
    """`advisor ops --json`: the operators of one ONNX model and a target's verdict on each."""

    schema_version: int = OPS_REPORT_SCHEMA_VERSION
    model: str = Field(description="The model file as given on the command line")
    ir_version: int
    producer: str | None = Field(description="producer_name and producer_version from the file, if set")
    opset_imports: dict[str, int] = Field(description="Domain -> opset version the model imports")
    tools: dict[str, str] = Field(
        description="Versions of the libraries that produced the verdicts (onnx, onnxruntime)"
    )
    target: TargetInfo
    operators: list[OperatorVerdict]
    counts: dict[Verdict, int] = Field(description="Operator types per verdict")
    notes: list[SourcedNote] = Field(default_factory=list)
    warnings: list[str] = Field(
        default_factory=list, description="What makes the verdicts doubtful, e.g. an opset newer than onnx defines"
    )
