"""Read an ONNX model's operators: domain, op_type, the opset it imports and the nodes using each."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from probes.errors import AdvisorError
from probes.files.bounded_read import FileKind, read_bounded

if TYPE_CHECKING:
    from onnx import FunctionProto, GraphProto, ModelProto, NodeProto, TypeProto

DEFAULT_DOMAIN = "ai.onnx"


class ModelReadError(AdvisorError):
    """The model file is missing, unreadable or not an ONNX model; the message names the file."""


# Protobuf refuses to parse a message past 2 GiB, so a larger file cannot be an ONNX model: models that big keep
# their weights as external data, which is never loaded here (the graph alone is kilobytes to megabytes).
MAX_MODEL_BYTES = 2 << 30
MODEL_FILE = FileKind("ONNX model", MAX_MODEL_BYTES, ModelReadError)


def canonical_domain(domain: str) -> str:
    """'' and 'ai.onnx' are the same ONNX domain; the protos and onnx.defs spell it ''."""
    return "" if domain == DEFAULT_DOMAIN else domain


def display_domain(domain: str) -> str:
    """The domain as printed: the default ONNX domain by its name, 'ai.onnx'."""
    return domain or DEFAULT_DOMAIN


@dataclass(frozen=True)
class OpRef:
    """One operator as a runtime looks it up: domain ('' for ai.onnx), op_type and the domain's opset."""

    domain: str
    op_type: str
    opset: int

    @property
    def label(self) -> str:
        return f"{display_domain(self.domain)}::{self.op_type}"


@dataclass
class ModelGraph:
    """A parsed model: its operators in order of first use, the nodes of each, and its local functions."""

    path: Path
    model: ModelProto
    opsets: dict[str, int]
    nodes: dict[OpRef, list[NodeProto]]
    local_functions: dict[tuple[str, str], FunctionProto]
    _types: dict[str, TypeProto] | None = field(default=None, repr=False)

    def value_types(self) -> dict[str, TypeProto]:
        """Value name -> type, from the graph and onnx shape inference (run once, only when asked)."""
        if self._types is None:
            self._types = _infer_types(self.model)
        return self._types


def read_model(path: Path) -> ModelGraph:
    """Parse `path` as an ONNX ModelProto (external weights are not loaded); ModelReadError otherwise."""
    import onnx
    from google.protobuf.message import DecodeError

    data = read_bounded(path, MODEL_FILE)
    model = onnx.ModelProto()
    try:
        model.ParseFromString(data)
    except DecodeError:
        raise ModelReadError(f"{path}: not an ONNX model (the file does not parse as an ONNX ModelProto)") from None
    # Almost any bytes that do parse (an empty file, for one) lack a graph or opset imports.
    if not model.HasField("graph") or not model.opset_import:
        raise ModelReadError(f"{path}: not an ONNX model (no graph or no opset import)")
    opsets = {canonical_domain(entry.domain): entry.version for entry in model.opset_import}
    nodes: dict[OpRef, list[NodeProto]] = {}
    for node in _all_nodes(model.graph):
        domain = canonical_domain(node.domain)
        if domain not in opsets:
            raise ModelReadError(
                f"{path}: not a valid ONNX model (node {node.name or node.op_type!r} uses domain "
                f"{display_domain(domain)!r}, which the model does not import)"
            )
        nodes.setdefault(OpRef(domain, node.op_type, opsets[domain]), []).append(node)
    functions = {(canonical_domain(f.domain), f.name): f for f in model.functions}
    return ModelGraph(path=path, model=model, opsets=opsets, nodes=nodes, local_functions=functions)


def _all_nodes(graph: GraphProto) -> Iterator[NodeProto]:
    """Every node of the graph and of its subgraphs (If branches, Loop and Scan bodies)."""
    for node in graph.node:
        yield node
        for attribute in node.attribute:
            if attribute.HasField("g"):
                yield from _all_nodes(attribute.g)
            for subgraph in attribute.graphs:
                yield from _all_nodes(subgraph)


def _infer_types(model: ModelProto) -> dict[str, TypeProto]:
    import onnx
    from onnx import helper

    try:
        inferred = onnx.shape_inference.infer_shapes(model)
    except Exception:  # inference is best effort: the declared types still count
        inferred = model
    graph = inferred.graph
    types = {value.name: value.type for value in (*graph.input, *graph.output, *graph.value_info)}
    for initializer in graph.initializer:
        types.setdefault(initializer.name, helper.make_tensor_type_proto(initializer.data_type, list(initializer.dims)))
    return types
