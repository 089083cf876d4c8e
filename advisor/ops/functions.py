"""ONNX schemas and function bodies: which version an opset resolves to, and what an operator decomposes into.

An operator defined as an ONNX function (a fixed body, or one that depends on its node's attributes
and input types) can run on a target without its own kernel: the runtime inlines the body. A model
may also carry local functions, inlined the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from advisor.ops.reading import ModelGraph, OpRef, canonical_domain

if TYPE_CHECKING:
    from onnx import FunctionProto, NodeProto
    from onnx.defs import OpSchema


@dataclass(frozen=True)
class Expansion:
    """An operator's function body: its distinct operators, or the problem that kept us from reading it."""

    source: str
    ops: tuple[OpRef, ...] = ()
    problem: str | None = None


def schema_of(op: OpRef) -> OpSchema | None:
    """The ONNX schema the model's opset selects for this operator; None outside the standard domains."""
    import onnx.defs

    try:
        return onnx.defs.get_schema(op.op_type, op.opset, op.domain)
    except onnx.defs.SchemaError:
        return None


def newest_opset(domain: str) -> int | None:
    """The newest opset of a domain the installed onnx defines ('' for ai.onnx); None for a domain it does not
    define (a runtime's contrib operators, a custom domain), where it has nothing to say."""
    import onnx.defs

    if domain == "":
        return int(onnx.defs.onnx_opset_version())
    versions = [schema.since_version for schema in onnx.defs.get_all_schemas_with_history() if schema.domain == domain]
    return max(versions) if versions else None


def expand(op: OpRef, nodes: Sequence[NodeProto], graph: ModelGraph | None) -> Expansion | None:
    """The body `op` decomposes into (a model-local function, or an ONNX schema function); None if it has none.

    A context-dependent body is built per node from its attributes and input types, and the
    operators of all those bodies are returned together.
    """
    if graph is not None and (op.domain, op.op_type) in graph.local_functions:
        local = graph.local_functions[(op.domain, op.op_type)]
        return Expansion(source=f"model-local function {op.label}", ops=_body_ops(local, graph.opsets))
    found = schema_of(op)
    if found is None:
        return None
    schema: Any = found  # onnx's type stubs leave out the function-body methods of OpSchema
    if schema.has_function:
        # The body onnx defines for the highest function version the model's opset allows.
        version = max((v for v in schema.function_opset_versions if v <= op.opset), default=schema.since_version)
        source = f"onnx function body ({op.op_type}, opset {version})"
        body = schema.get_function_with_opset_version(op.opset)
        if not body:
            return Expansion(source=source, problem=f"onnx has no body for opset {op.opset}")
        return Expansion(source=source, ops=_body_ops(_parse(body), graph.opsets if graph else {}))
    if schema.has_context_dependent_function:
        return _context_dependent(op, schema, nodes, graph)
    return None


def _context_dependent(op: OpRef, schema: Any, nodes: Sequence[NodeProto], graph: ModelGraph | None) -> Expansion:
    from onnx import TypeProto

    source = f"onnx context-dependent function body ({op.op_type}, opset {schema.since_version})"
    if graph is None or not nodes:
        return Expansion(source=source, problem="its body depends on the node's input types, unknown here")
    types = graph.value_types()
    ops: dict[OpRef, None] = {}
    for node in nodes:
        missing = [name for name in node.input if name and name not in types]
        if missing:
            problem = f"its body depends on input types that shape inference could not give ({', '.join(missing)})"
            return Expansion(source=source, problem=problem)
        # An omitted optional input ("") is passed as an empty type, as onnx's own inliner does.
        input_types = [(types[name] if name else TypeProto()).SerializeToString() for name in node.input]
        try:
            body = schema.get_context_dependent_function_with_opset_version(
                op.opset, node.SerializeToString(), input_types
            )
        except Exception as error:  # onnx raises its C++ errors as plain exceptions
            return Expansion(source=source, problem=f"onnx could not build its body ({error})")
        if not body:
            return Expansion(source=source, problem="onnx built no body for this node's attributes and types")
        ops.update(dict.fromkeys(_body_ops(_parse(body), graph.opsets)))
    return Expansion(source=source, ops=tuple(ops))


def _parse(serialized: bytes) -> FunctionProto:
    from onnx import FunctionProto

    function = FunctionProto()
    function.ParseFromString(serialized)
    return function


def _body_ops(function: FunctionProto, caller_opsets: dict[str, int]) -> tuple[OpRef, ...]:
    """Distinct operators of a body, each at the opset the body imports (the caller's where it imports none)."""
    opsets = {**caller_opsets, **{canonical_domain(i.domain): i.version for i in function.opset_import}}
    ops: dict[OpRef, None] = {}
    for node in function.node:
        domain = canonical_domain(node.domain)
        ops[OpRef(domain, node.op_type, opsets.get(domain, 1))] = None
    return tuple(ops)
