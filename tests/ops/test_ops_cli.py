"""`advisor ops`: the table, --json, --target and one-line errors (exit code 2, no traceback)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import onnxruntime

from advisor.cli import app
from advisor.ops.models import CoverageReport

CPU_REGISTRY = f"onnxruntime {onnxruntime.__version__} CPUExecutionProvider kernel registry"


def test_table_lists_operators_verdicts_and_sources(runner, torch_model: Path):
    result = runner.invoke(app, ["ops", str(torch_model)])
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"model: {torch_model} (pytorch ") and lines[0].endswith("opsets: ai.onnx 18)")
    assert lines[1] == f"target: onnxruntime-cpu, {CPU_REGISTRY}"
    assert lines[2] == "6 operators in 6 nodes; maps directly 5, needs decomposition 1, unsupported 0, unknown 0"
    assert lines[4].split() == ["VERDICT", "OPERATOR", "VERSION", "NODES", "SOURCE"]
    gemm = next(line for line in lines if "ai.onnx::Gemm" in line)
    assert gemm.split()[:5] == ["maps", "directly", "ai.onnx::Gemm", "13", "1"] and gemm.endswith(CPU_REGISTRY)
    hardswish = lines.index(next(line for line in lines if "ai.onnx::HardSwish" in line))
    assert "onnx function body (HardSwish, opset 14)" in lines[hardswish]
    assert (
        lines[hardswish + 1].strip().startswith("-> ai.onnx::HardSigmoid, ai.onnx::Mul: no CPUExecutionProvider kernel")
    )


def test_json_is_a_coverage_report(runner, helper_model: Path):
    result = runner.invoke(app, ["ops", str(helper_model), "--json"])
    assert result.exit_code == 0, result.stderr
    report = CoverageReport.model_validate(json.loads(result.stdout))
    assert report.schema_version == 1 and report.target.name == "onnxruntime-cpu"
    assert report.counts == {"maps-directly": 1, "needs-decomposition": 2, "unsupported": 2, "unknown": 0}
    assert [item.verdict for item in report.operators] == sorted(
        (item.verdict for item in report.operators),
        key=["maps-directly", "needs-decomposition", "unsupported", "unknown"].index,
    )


def test_knowledge_base_target(runner, helper_model: Path):
    result = runner.invoke(app, ["ops", str(helper_model), "--target", "openvino"])
    assert result.exit_code == 0, result.stderr
    assert "unknown 5" in result.stdout and "knowledge base: openvino" in result.stdout
    result = runner.invoke(app, ["ops", str(helper_model), "--target", "atc-acl"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.rstrip().splitlines()[-1].endswith("(knowledge base: atc-acl.risks[0])")


def test_bad_input_is_a_one_line_error(runner, tmp_path: Path, helper_model: Path):
    text_file = tmp_path / "notes.onnx"
    text_file.write_text("not a model\n")
    for arguments, message in (
        ([str(tmp_path / "missing.onnx")], f"error: {tmp_path / 'missing.onnx'}: no such file"),
        ([str(tmp_path)], f"error: {tmp_path}: a folder, not an ONNX model"),
        ([str(text_file)], f"error: {text_file}: not an ONNX model (the file does not parse as an ONNX ModelProto)"),
        ([str(helper_model), "--target", "tpu"], "error: unknown target 'tpu'; choose one of: onnxruntime-cpu, "),
    ):
        result = runner.invoke(app, ["ops", *arguments])
        assert result.exit_code == 2, arguments
        assert result.stderr.count("\n") == 1 and result.stderr.startswith(message), result.stderr
        assert "Traceback" not in result.stderr and result.stdout == ""


def test_cli_import_stays_light():
    """`advisor --help` must not import onnx or onnxruntime."""
    code = "import sys, advisor.cli; print(sorted(m for m in ('onnx', 'onnxruntime') if m in sys.modules))"
    completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert completed.stdout.strip() == "[]"
