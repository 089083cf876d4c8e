"""nvidia-smi / npu-smi / CANN parsing, the peak table, and detection with fake vendor tools on PATH."""

from __future__ import annotations

from pathlib import Path

import pytest

from probes.environment import accelerators
from probes.environment.detect import detect_environment
from probes.environment.peaks import PeakTableError, accelerator_peak, accelerator_table, builtin_table

MACHINES = Path(__file__).parent / "machines"


def test_parse_nvidia_smi_h100_box():
    gpus, driver = accelerators.parse_nvidia_smi((MACHINES / "h100-box.nvidia-smi.csv").read_text())
    assert driver == "550.54.15"
    assert [gpu.index for gpu in gpus] == list(range(8))
    assert {gpu.name for gpu in gpus} == {"NVIDIA H100 80GB HBM3"}
    assert gpus[0].compute_capability == "9.0"
    assert gpus[0].memory_bytes == 81559 * 1024**2


def test_parse_nvidia_smi_tolerates_not_supported_fields():
    gpus, _ = accelerators.parse_nvidia_smi("0, NVIDIA L40S, [N/A], [N/A], 535.1\ngarbage line\n")
    assert gpus[0].compute_capability is None and gpus[0].memory_bytes is None


def test_parse_npu_smi_ascend_box():
    text = (MACHINES / "ascend-box.npu-smi.txt").read_text()
    assert accelerators.parse_npu_smi(text) == ["Ascend 910B3", "Ascend 910B3"]
    assert accelerators.parse_npu_smi_version(text) == "23.0.1"


@pytest.mark.parametrize(
    "text, version",
    [
        ((MACHINES / "ascend-box.version.cfg").read_text(), "7.0.0"),
        ("Version=7.0.RC1\n", "7.0.RC1"),
        ("version=8.0.0\narch=aarch64\n", "8.0.0"),
        ("nothing here\n", None),
    ],
)
def test_parse_cann_version_file(text, version):
    assert accelerators.parse_cann_version_file(text) == version


@pytest.mark.parametrize(
    "reported_name, table_name, bf16",
    [
        ("NVIDIA H100 80GB HBM3", "NVIDIA H100 SXM", 989.5),
        ("NVIDIA H100 PCIe", "NVIDIA H100 PCIe", 756.5),
        ("NVIDIA H200", "NVIDIA H200", 989.5),
        ("NVIDIA H200 NVL", "NVIDIA H200 NVL", 835.5),
        ("NVIDIA A100-SXM4-80GB", "NVIDIA A100 80GB SXM", 312.0),
        ("NVIDIA A100-PCIE-40GB", "NVIDIA A100 40GB", 312.0),
        ("NVIDIA L40S", "NVIDIA L40S", 362.05),
        ("NVIDIA GeForce RTX 4090", "NVIDIA GeForce RTX 4090", 165.2),
        ("Ascend 910B3", "Huawei Ascend 910B", None),
    ],
)
def test_table_matches_reported_names(reported_name, table_name, bf16):
    peak = accelerator_peak(reported_name)
    assert peak.device == table_name
    assert peak.tflops["bf16"] == bf16


def test_unknown_accelerator_has_no_peak():
    assert accelerator_peak("Imaginary Accelerator 9000") is None


def test_every_table_entry_has_a_source_and_dense_figures():
    for row in builtin_table():
        assert row.source.strip()
        figures = row.figures()
        assert set(figures.tflops) == {"fp32", "fp16", "bf16", "fp8", "int8"}
        # Dense tensor figures are at least the fp32 rate wherever both are known.
        if figures.tflops["fp32"] and figures.tflops["bf16"]:
            assert figures.tflops["bf16"] > figures.tflops["fp32"]


def test_user_peak_file_is_tried_first(tmp_path, monkeypatch):
    user_table = tmp_path / "peaks.yaml"
    user_table.write_text(
        "accelerators:\n"
        "  - {name: Our 910B3, kind: npu, match: '910B3', source: our lab sheet,"
        " tflops: {fp16: 300.0}, memory_bandwidth_gbs: 1600}\n"
    )
    monkeypatch.setenv("ADVISOR_PEAKS_FILE", str(user_table))
    peak = accelerator_peak("Ascend 910B3")
    assert (peak.device, peak.tflops["fp16"], peak.tflops["bf16"]) == ("Our 910B3", 300.0, None)


@pytest.mark.parametrize("content", ["accelerators: [{name: x}]\n", "not: [valid\n"])
def test_malformed_user_peak_file_names_the_file(tmp_path, monkeypatch, content):
    user_table = tmp_path / "bad-peaks.yaml"
    user_table.write_text(content)
    monkeypatch.setenv("ADVISOR_PEAKS_FILE", str(user_table))
    with pytest.raises(PeakTableError, match="bad-peaks.yaml"):
        accelerator_table()


def test_detection_on_an_h100_box_without_cuda_torch(fake_tool):
    fake_tool("nvidia-smi", (MACHINES / "h100-box.nvidia-smi.csv").read_text())
    environment = detect_environment()
    runtime = environment.accelerators
    assert runtime.gpu_source == "nvidia-smi" and len(runtime.gpus) == 8
    assert runtime.nvidia_driver == "550.54.15"
    assert "accelerators.gpus" in environment.unknown  # this CPU torch cannot drive them
    assert [peak.device for peak in environment.peaks if peak.kind == "gpu"] == ["NVIDIA H100 SXM"]
    assert environment.peak_for("gpu").memory_bandwidth_gbs == 3350


def test_detection_on_an_ascend_box(fake_tool, tmp_path, monkeypatch):
    fake_tool("npu-smi", (MACHINES / "ascend-box.npu-smi.txt").read_text())
    toolkit = tmp_path / "ascend-toolkit"
    toolkit.mkdir()
    (toolkit / "version.cfg").write_text((MACHINES / "ascend-box.version.cfg").read_text())
    monkeypatch.setenv("ASCEND_TOOLKIT_HOME", str(toolkit))
    environment = detect_environment()
    assert environment.npu.devices == ["Ascend 910B3", "Ascend 910B3"]
    assert environment.npu.cann_version == "7.0.0"
    assert environment.npu.cann_version_source.endswith("version.cfg")
    npu_peak = environment.peak_for("npu")
    assert npu_peak.device == "Huawei Ascend 910B" and npu_peak.tflops["fp16"] is None


def test_failing_vendor_tool_is_not_a_crash(tmp_path, monkeypatch):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    broken = bin_dir / "nvidia-smi"
    broken.write_text("#!/bin/sh\necho 'NVIDIA-SMI has failed' >&2\nexit 9\n")
    broken.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:{__import__('os').environ['PATH']}")
    environment = detect_environment()
    assert environment.accelerators.nvidia_driver is None
    assert "accelerators.nvidia_driver" in environment.unknown
