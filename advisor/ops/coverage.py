"""`operator_coverage`: one ONNX model and one target in, the CoverageReport out."""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

from advisor.ops.classify import Judgement, judge_with_knowledge, judge_with_registry
from advisor.ops.functions import newest_opset, schema_of
from advisor.ops.models import VERDICTS, CoverageReport, OperatorUse, OperatorVerdict, SourcedNote, TargetInfo
from advisor.ops.reading import ModelGraph, OpRef, display_domain, read_model
from advisor.ops.targets import DEFAULT_TARGET, Target, resolve_target, unsupported_operator_claims

_TYPES_NOT_CHECKED = SourcedNote(
    text="Kernels are matched by domain, operator and version; the data types of the model's tensors are not checked.",
    source="advisor.ops.classify",
)


def operator_coverage(path: Path, target_name: str = DEFAULT_TARGET) -> CoverageReport:
    """List the model's operators and the target's verdict on each: maps directly, needs decomposition, unsupported."""
    graph = read_model(path)
    target = resolve_target(target_name)
    too_new = newer_opsets(graph)
    verdicts = [
        _too_new_verdict(graph, op, too_new[op.domain]) if op.domain in too_new else _verdict(graph, target, op)
        for op in graph.nodes
    ]
    order = {verdict: index for index, verdict in enumerate(VERDICTS)}
    verdicts.sort(key=lambda v: (order[v.verdict], -v.operator.nodes, v.operator.domain, v.operator.op_type))
    model = graph.model
    producer = " ".join(part for part in (model.producer_name, model.producer_version) if part) or None
    return CoverageReport(
        model=str(path),
        ir_version=model.ir_version,
        producer=producer,
        opset_imports={display_domain(domain): version for domain, version in graph.opsets.items()},
        tools=_tool_versions(),
        target=TargetInfo(name=target.name, description=target.description, per_operator=target.registry is not None),
        operators=verdicts,
        counts={verdict: sum(1 for v in verdicts if v.verdict == verdict) for verdict in VERDICTS},
        notes=_notes(target),
        warnings=[_too_new_text(domain, graph.opsets[domain], newest) for domain, newest in too_new.items()],
    )


def newer_opsets(graph: ModelGraph) -> dict[str, int]:
    """Domains whose imported opset is newer than the installed onnx defines -> the newest it does define."""
    found = {}
    for domain, version in graph.opsets.items():
        newest = newest_opset(domain)
        if newest is not None and version > newest:
            found[domain] = newest
    return found


def _too_new_text(domain: str, version: int, newest: int) -> str:
    onnx_version = _tool_versions().get("onnx", "?")
    return (
        f"the model imports {display_domain(domain)} opset {version}, newer than onnx {onnx_version} defines "
        f"({newest}): its operators may differ from the ones judged here, and onnxruntime may refuse the model; "
        f"upgrade onnx and onnxruntime, or export for opset {newest} or older"
    )


def _too_new_verdict(graph: ModelGraph, op: OpRef, newest: int) -> OperatorVerdict:
    """Unknown: what the operator is at an opset onnx does not define yet cannot be looked up."""
    use = OperatorUse(
        domain=display_domain(op.domain),
        op_type=op.op_type,
        opset=op.opset,
        since_version=None,
        nodes=len(graph.nodes[op]),
    )
    reason = f"opset {op.opset} of {display_domain(op.domain)} is newer than onnx defines ({newest}); not judged"
    return OperatorVerdict(operator=use, verdict="unknown", source="onnx.defs (installed onnx)", reason=reason)


def _verdict(graph: ModelGraph, target: Target, op: OpRef) -> OperatorVerdict:
    nodes = graph.nodes[op]
    judgement: Judgement
    if target.registry is not None:
        judgement = judge_with_registry(op, nodes, target.registry, graph)
    else:
        assert target.candidate is not None  # a Target holds a registry or a candidate
        judgement = judge_with_knowledge(op, target.candidate)
    schema = schema_of(op)
    use = OperatorUse(
        domain=display_domain(op.domain),
        op_type=op.op_type,
        opset=op.opset,
        since_version=schema.since_version if schema is not None else None,
        nodes=len(nodes),
    )
    return OperatorVerdict(
        operator=use,
        verdict=judgement.verdict,
        source=judgement.source,
        reason=judgement.reason,
        decomposes_into=list(judgement.decomposes_into),
    )


def _notes(target: Target) -> list[SourcedNote]:
    if target.candidate is None:
        return [_TYPES_NOT_CHECKED]
    candidate = target.candidate
    return [
        SourcedNote(text=text, source=f"knowledge base: {candidate.id}.{field}")
        for field, text in unsupported_operator_claims(candidate)
    ]


def _tool_versions() -> dict[str, str]:
    versions = {}
    for distribution in ("onnx", "onnxruntime"):
        try:
            versions[distribution] = importlib.metadata.version(distribution)
        except importlib.metadata.PackageNotFoundError:
            continue
    return versions
