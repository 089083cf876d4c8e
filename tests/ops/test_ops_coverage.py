"""The operator-coverage library: reading models, the ORT kernel registry, the three verdicts and their sources."""

from __future__ import annotations

from pathlib import Path

import onnx
import onnxruntime
import pytest
from onnx import TensorProto, helper

from advisor.ops import operator_coverage
from advisor.ops.models import CoverageReport
from advisor.ops.reading import ModelReadError
from advisor.ops.targets import KernelRegistry, UnknownTargetError, known_targets, ort_target_name

CPU_REGISTRY = f"onnxruntime {onnxruntime.__version__} CPUExecutionProvider kernel registry"


def by_label(report: CoverageReport) -> dict[str, object]:
    return {f"{item.operator.domain}::{item.operator.op_type}": item for item in report.operators}


def test_torch_export_maps_directly_except_hardswish_which_decomposes(torch_model: Path):
    report = operator_coverage(torch_model, "onnxruntime-cpu")
    verdicts = by_label(report)
    assert report.target.per_operator and report.target.description == CPU_REGISTRY
    assert report.opset_imports == {"ai.onnx": 18} and report.producer.startswith("pytorch")
    for label in ("ai.onnx::Gemm", "ai.onnx::LayerNormalization", "ai.onnx::Relu", "ai.onnx::Mul"):
        assert verdicts[label].verdict == "maps-directly", label
        assert verdicts[label].source == CPU_REGISTRY
    hardswish = verdicts["ai.onnx::HardSwish"]
    assert hardswish.verdict == "needs-decomposition"
    assert hardswish.source == f"onnx function body (HardSwish, opset 14); {CPU_REGISTRY}"
    assert hardswish.decomposes_into == ["ai.onnx::HardSigmoid", "ai.onnx::Mul"]
    assert hardswish.operator.opset == 18 and hardswish.operator.since_version == 14
    assert report.counts["unsupported"] == 0 and report.counts["needs-decomposition"] == 1
    assert report.tools == {"onnx": onnx.__version__, "onnxruntime": onnxruntime.__version__}


def test_the_three_cases_with_their_sources(helper_model: Path):
    verdicts = by_label(operator_coverage(helper_model))
    assert verdicts["ai.onnx::Relu"].verdict == "maps-directly"
    group_norm = verdicts["ai.onnx::GroupNormalization"]
    assert group_norm.verdict == "needs-decomposition"
    assert group_norm.source.startswith("onnx context-dependent function body (GroupNormalization, opset 21)")
    assert {"ai.onnx::ReduceMean", "ai.onnx::Reshape"} <= set(group_norm.decomposes_into)
    assert verdicts["ai.onnx::Mish"].source.startswith("onnx function body (Mish, opset 18)")
    custom = verdicts["com.example::FancyOp"]
    assert custom.verdict == "unsupported" and custom.source == CPU_REGISTRY
    assert custom.operator.since_version is None and "not a standard ONNX operator" in custom.reason
    decoder = verdicts["ai.onnx::ImageDecoder"]
    assert decoder.verdict == "unsupported" and "no function body" in decoder.reason


def test_verdicts_agree_with_onnxruntime_itself(helper_model: Path):
    """What is judged runnable loads in an InferenceSession; each unsupported operator alone does not."""
    model = onnx.load(str(helper_model))
    x, encoded = model.graph.input

    def session(nodes: list[onnx.NodeProto], inputs: list[onnx.ValueInfoProto]) -> None:
        element_type = inputs[0].type.tensor_type.elem_type  # each part keeps its input's element type
        outputs = [helper.make_tensor_value_info(nodes[-1].output[0], element_type, None)]
        graph = helper.make_graph(nodes, "part", inputs, outputs, initializer=model.graph.initializer)
        model_bytes = helper.make_model(graph, opset_imports=model.opset_import).SerializeToString()
        onnxruntime.InferenceSession(model_bytes, providers=["CPUExecutionProvider"])

    node = {node.op_type: node for node in model.graph.node}
    session([node["GroupNormalization"], node["Mish"]], [x])
    with pytest.raises(Exception, match="not a registered function/op"):
        session([helper.make_node("FancyOp", ["x"], ["out"], domain="com.example")], [x])
    with pytest.raises(Exception, match="Could not find an implementation for ImageDecoder"):
        session([node["ImageDecoder"]], [encoded])


def test_local_functions_and_subgraphs(tmp_path: Path):
    scaled_relu = helper.make_function(
        "com.local",
        "ScaledRelu",
        ["a"],
        ["b"],
        [helper.make_node("Relu", ["a"], ["r"]), helper.make_node("Add", ["r", "r"], ["b"])],
        opset_imports=[helper.make_opsetid("", 18)],
    )
    branch = helper.make_graph(
        [helper.make_node("Neg", ["x"], ["out"])],
        "then",
        [],
        [helper.make_tensor_value_info("out", TensorProto.FLOAT, None)],
    )
    nodes = [
        helper.make_node("ScaledRelu", ["x"], ["s"], domain="com.local"),
        helper.make_node("If", ["flag"], ["y"], then_branch=branch, else_branch=branch),
    ]
    graph = helper.make_graph(
        nodes,
        "g",
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, [2]),
            helper.make_tensor_value_info("flag", TensorProto.BOOL, []),
        ],
        [
            helper.make_tensor_value_info("y", TensorProto.FLOAT, None),
            helper.make_tensor_value_info("s", TensorProto.FLOAT, None),
        ],
    )
    model = helper.make_model(
        graph, functions=[scaled_relu], opset_imports=[helper.make_opsetid("", 18), helper.make_opsetid("com.local", 1)]
    )
    path = tmp_path / "local.onnx"
    onnx.save(model, str(path))
    verdicts = by_label(operator_coverage(path))
    local = verdicts["com.local::ScaledRelu"]
    assert local.verdict == "needs-decomposition"
    assert local.source.startswith("model-local function com.local::ScaledRelu")
    assert local.decomposes_into == ["ai.onnx::Relu", "ai.onnx::Add"]
    assert verdicts["ai.onnx::Neg"].operator.nodes == 2  # both If branches are walked
    assert verdicts["ai.onnx::If"].verdict == "maps-directly"


def test_knowledge_base_targets_say_unknown_and_quote_their_claims(helper_model: Path):
    report = operator_coverage(helper_model, "tensorrt")
    assert not report.target.per_operator
    assert report.counts == {"maps-directly": 0, "needs-decomposition": 0, "unsupported": 0, "unknown": 5}
    assert {item.source for item in report.operators} == {"knowledge base: tensorrt"}
    assert "no per-operator support list for NVIDIA TensorRT" in report.operators[0].reason
    assert "not a standard ONNX operator" in by_label(report)["com.example::FancyOp"].reason
    assert report.notes == []  # TensorRT's claims say nothing about unsupported operators
    assert [note.source for note in operator_coverage(helper_model, "atc-acl").notes] == [
        "knowledge base: atc-acl.risks[0]"
    ]


def test_targets_listed_and_unknown_one_refused(helper_model: Path):
    targets = known_targets()
    assert targets[0] == "onnxruntime-cpu"
    assert {"tensorrt", "openvino", "migraphx", "atc-acl", "cann-builtin"} <= set(targets)
    with pytest.raises(UnknownTargetError, match=r"unknown target 'tpu'; choose one of: onnxruntime-cpu, "):
        operator_coverage(helper_model, "tpu")


def test_kernel_registry_matches_version_ranges():
    registry = KernelRegistry("CPUExecutionProvider", "1.0", {("", "Relu"): ((6, 12), (13, 13), (14, 2**31 - 1))})
    assert registry.has_kernel("", "Relu", 14) and registry.has_kernel("", "Relu", 6)
    assert not registry.has_kernel("", "Relu", 5) and not registry.has_kernel("com.microsoft", "Relu", 14)
    assert ort_target_name("CPUExecutionProvider") == "onnxruntime-cpu"
    assert ort_target_name("CUDAExecutionProvider") == "onnxruntime-cuda"


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"", "not an ONNX model (no graph or no opset import)"),
        (b"hello, not a model\n", "not an ONNX model (the file does not parse as an ONNX ModelProto)"),
    ],
)
def test_bad_files_name_the_file_and_the_problem(tmp_path: Path, content: bytes, problem: str):
    path = tmp_path / "bad.onnx"
    path.write_bytes(content)
    with pytest.raises(ModelReadError) as caught:
        operator_coverage(path)
    assert str(caught.value) == f"{path}: {problem}"
    with pytest.raises(ModelReadError, match="no such file"):
        operator_coverage(tmp_path / "missing.onnx")
