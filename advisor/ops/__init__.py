"""ONNX operator coverage: which of a model's operators a target runs directly, by decomposition, or not at all."""

from advisor.ops.coverage import operator_coverage

__all__ = ["operator_coverage"]
