"""The method's three cases of operator mapping (method #onnx-mapping), decided per operator for one target.

Against an ONNX Runtime kernel registry: a registered kernel maps directly; an operator without one
but with a function body whose operators all run needs decomposition (ONNX Runtime inlines it);
anything else is unsupported and needs a custom operator. Against a knowledge-base candidate, which
holds no per-operator lists, every verdict is "unknown" with that reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from advisor.ops.functions import expand, schema_of
from advisor.ops.models import Verdict
from advisor.ops.reading import ModelGraph, OpRef

if TYPE_CHECKING:
    from onnx import NodeProto

    from advisor.knowledge.models import Candidate
    from advisor.ops.targets import KernelRegistry

_RUNS: tuple[Verdict, ...] = ("maps-directly", "needs-decomposition")
_MAX_DEPTH = 4  # function bodies nest (a body operator that is itself a function); real ones stay shallow


@dataclass(frozen=True)
class Judgement:
    """A verdict on one operator, with its source, the reason in words and the body it decomposes into."""

    verdict: Verdict
    source: str
    reason: str
    decomposes_into: tuple[str, ...] = ()


def lookup_version(op: OpRef) -> int:
    """The version a runtime matches kernels against: the schema's since_version, else the model's opset."""
    schema = schema_of(op)
    return schema.since_version if schema is not None else op.opset


def judge_with_registry(
    op: OpRef, nodes: Sequence[NodeProto], registry: KernelRegistry, graph: ModelGraph | None, depth: int = 0
) -> Judgement:
    """Kernel registered -> maps directly; else a function body that fully runs -> needs decomposition."""
    if op.domain == "" and op.op_type == "Constant":
        return Judgement(
            "maps-directly",
            f"onnxruntime {registry.ort_version} graph loading",
            "Constant nodes become initializers when the model loads; no kernel runs",
        )
    version = lookup_version(op)
    if registry.has_kernel(op.domain, op.op_type, version):
        return Judgement("maps-directly", registry.source, f"kernel registered for version {version}")
    no_kernel = f"no {registry.provider} kernel for version {version}"
    expansion = expand(op, nodes, graph)
    if expansion is None:
        if schema_of(op) is None:
            why = f"{no_kernel}; not a standard ONNX operator (no onnx schema), so it needs a custom operator"
        else:
            why = f"{no_kernel} and onnx defines no function body to decompose it into"
        return Judgement("unsupported", registry.source, why)
    source = f"{expansion.source}; {registry.source}"
    if expansion.problem is not None:
        return Judgement("unknown", source, f"{no_kernel}; {expansion.problem}")
    body = tuple(item.label for item in expansion.ops)
    if depth >= _MAX_DEPTH:
        return Judgement(
            "unknown", source, f"{no_kernel}; its function body nests deeper than {_MAX_DEPTH} levels", body
        )
    parts = [(item, judge_with_registry(item, (), registry, graph, depth + 1)) for item in expansion.ops]
    blocked = [(item, part) for item, part in parts if part.verdict not in _RUNS]
    if not blocked:
        return Judgement("needs-decomposition", source, f"{no_kernel}; every operator of its body runs here", body)
    verdict: Verdict = "unsupported" if any(part.verdict == "unsupported" for _, part in blocked) else "unknown"
    missing = ", ".join(f"{item.label} ({part.verdict})" for item, part in blocked)
    return Judgement(verdict, source, f"{no_kernel}; its function body needs {missing}", body)


def judge_with_knowledge(op: OpRef, candidate: Candidate) -> Judgement:
    """Always "unknown": the knowledge base records no per-operator support; says so, and flags non-standard ops."""
    reason = f"the knowledge base holds no per-operator support list for {candidate.name}"
    if schema_of(op) is None:
        reason += "; not a standard ONNX operator (no onnx schema), so expect it to need a custom operator"
    return Judgement("unknown", f"knowledge base: {candidate.id}", reason)
