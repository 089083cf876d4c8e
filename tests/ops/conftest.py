"""ONNX models for the `advisor ops` tests: one exported from torch, the others built with onnx.helper."""

from __future__ import annotations

import warnings
from pathlib import Path

import onnx
import pytest
import torch
from onnx import TensorProto, helper


@pytest.fixture(scope="session")
def torch_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Linear, LayerNorm, HardSwish, ReLU and a scale: ORT CPU has kernels for all but HardSwish (an ONNX function)."""

    class Block(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.linear = torch.nn.Linear(8, 8)
            self.norm = torch.nn.LayerNorm(8)

        def forward(self, x):
            return torch.nn.functional.hardswish(self.norm(self.linear(x))).relu() * 2.0

    path = tmp_path_factory.mktemp("torch") / "block.onnx"
    with warnings.catch_warnings():  # the TorchScript exporter is deprecated, but needs no onnxscript
        warnings.simplefilter("ignore")
        torch.onnx.export(Block(), (torch.randn(2, 8),), str(path), dynamo=False, opset_version=18)
    return path


def three_cases_model() -> onnx.ModelProto:
    """GroupNormalization and Mish (ONNX functions, no CPU kernel), Relu, and two ops ORT CPU cannot run.

    The two: FancyOp in a custom domain, and ImageDecoder (standard, but no kernel and no function body).
    """
    nodes = [
        helper.make_node("GroupNormalization", ["x", "scale", "bias"], ["normed"], num_groups=2),
        helper.make_node("Mish", ["normed"], ["activated"]),
        helper.make_node("FancyOp", ["activated"], ["y"], domain="com.example"),
        helper.make_node("ImageDecoder", ["encoded"], ["image"]),
        helper.make_node("Relu", ["y"], ["z"]),
    ]
    initializers = [
        helper.make_tensor("scale", TensorProto.FLOAT, [4], [1.0] * 4),
        helper.make_tensor("bias", TensorProto.FLOAT, [4], [0.0] * 4),
    ]
    graph = helper.make_graph(
        nodes,
        "three-cases",
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 3]),
            helper.make_tensor_value_info("encoded", TensorProto.UINT8, [None]),
        ],
        [
            helper.make_tensor_value_info("z", TensorProto.FLOAT, None),
            helper.make_tensor_value_info("image", TensorProto.UINT8, None),
        ],
        initializer=initializers,
    )
    opsets = [helper.make_opsetid("", 21), helper.make_opsetid("com.example", 1)]
    return helper.make_model(graph, opset_imports=opsets, producer_name="tests")


@pytest.fixture
def helper_model(tmp_path: Path) -> Path:
    path = tmp_path / "three-cases.onnx"
    onnx.save(three_cases_model(), str(path))
    return path
