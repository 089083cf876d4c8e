"""Peak rows for AMD, Gaudi, TPU, Trainium and Apple: matched by the names that tools and torch really report."""

from __future__ import annotations

import re

import pytest

from probes.environment.peaks import accelerator_peak, builtin_table

# (what reports it, the reported name) -> the table row it must select, with one figure to pin it.
REPORTED = [
    ("torch.cuda.get_device_name on ROCm", "AMD Instinct MI300X", "AMD Instinct MI300X", "bf16", 1307.4),
    ("rocm-smi on an SR-IOV guest", "AMD Instinct MI300X VF", "AMD Instinct MI300X", "fp8", 2614.9),
    ("torch.cuda.get_device_name on ROCm", "AMD Instinct MI325X", "AMD Instinct MI325X", "bf16", None),
    ("torch.cuda.get_device_name on ROCm", "AMD Instinct MI355X", "AMD Instinct MI355X", "bf16", None),
    ("hl-smi -Q name", "HL-325L", "Intel Gaudi 3 HL-325L (OAM)", "bf16", 1835.0),
    ("jax device_kind on v5e", "TPU v5 lite", "Google Cloud TPU v5e", "int8", 393.0),
    ("Cloud name", "TPU v5e", "Google Cloud TPU v5e", "bf16", 197.0),
    ("jax device_kind on v5p", "TPU v5", "Google Cloud TPU v5p", "bf16", 459.0),
    ("Cloud name", "TPU v5p", "Google Cloud TPU v5p", "int8", None),
    ("jax device_kind on v6e", "TPU v6 lite", "Google Cloud TPU v6e (Trillium)", "bf16", 918.0),
    ("neuron-ls instance type trn2.*", "AWS Trainium2", "AWS Trainium2", "fp32", 181.0),
    ("neuron-ls instance type inf2.*", "AWS Inferentia2", "AWS Inferentia2", "int8", 380.0),
    ("neuron-ls instance type trn1.*", "AWS Trainium", "AWS Trainium", "bf16", 190.0),
    ("sysctl machdep.cpu.brand_string", "Apple M4 Max", "Apple M4 Max", "bf16", None),
    ("sysctl machdep.cpu.brand_string", "Apple M4 Pro", "Apple M4 Pro", "bf16", None),
    ("sysctl machdep.cpu.brand_string", "Apple M4", "Apple M4", "bf16", None),
    ("sysctl machdep.cpu.brand_string", "Apple M1 Max", "Apple M1 Max", "bf16", None),
    ("sysctl machdep.cpu.brand_string", "Apple M1 Pro", "Apple M1 Pro", "bf16", None),
]


@pytest.mark.parametrize("reporter, reported, row, dtype, figure", REPORTED, ids=[entry[1] for entry in REPORTED])
def test_reported_name_selects_its_row(reporter, reported, row, dtype, figure):
    peak = accelerator_peak(reported)
    assert peak is not None, f"{reported!r} ({reporter}) matches no row"
    assert (peak.device, peak.tflops[dtype]) == (row, figure)


@pytest.mark.parametrize(
    "reported",
    [
        "AMD Instinct MI300A",  # the APU: not the MI300X's figures
        "AMD Instinct MI308X",
        "GAUDI3",  # habana_frameworks' name does not say which Gaudi 3 card (OAM, PCIe, export variants)
        "TPU v4",
        "TPU v5 litepod",
        "AWS Trainium3",  # no row: the Trainium row is anchored, so it never lends Trainium3 its figures
        "Apple M1",
        "Apple M4 Ultra",
    ],
)
def test_near_miss_names_match_no_row(reported):
    assert accelerator_peak(reported) is None


NEW_ROWS = [row for row in builtin_table() if row.name.startswith(("AMD", "Intel", "Google", "AWS", "Apple"))]


def test_every_new_row_says_where_and_when_its_figures_were_checked():
    assert len(NEW_ROWS) == 15
    for row in NEW_ROWS:
        assert re.search(r"checked 2026-12-0[13]", row.source), row.name
        has_figures = row.memory_bandwidth_gbs is not None or any(value is not None for value in row.tflops.values())
        assert ("https://" in row.source) == has_figures, row.name


@pytest.mark.parametrize(
    "name, memory_bandwidth_gbs",
    [
        ("AMD Instinct MI300X", 5300),
        ("Intel Gaudi 3 HL-325L (OAM)", 3670),
        ("Google Cloud TPU v5e", 819),
        ("Google Cloud TPU v5p", 2765),
        ("Google Cloud TPU v6e (Trillium)", 1638),
        ("AWS Trainium2", 2900),
        ("AWS Inferentia2", 880),
        ("AWS Trainium", 880),
        ("AMD Instinct MI325X", None),
    ],
)
def test_memory_bandwidth_is_the_vendor_figure(name, memory_bandwidth_gbs):
    row = next(row for row in NEW_ROWS if row.name == name)
    assert row.memory_bandwidth_gbs == memory_bandwidth_gbs


def test_new_kinds_are_peak_kinds_of_their_device():
    kinds = {row.name: row.figures().kind for row in NEW_ROWS}
    assert kinds["Intel Gaudi 3 HL-325L (OAM)"] == "hpu" and kinds["AWS Trainium2"] == "neuron"
    assert {kinds[name] for name in kinds if name.startswith("Google")} == {"tpu"}
    assert {kinds[name] for name in kinds if name.startswith(("AMD", "Apple"))} == {"gpu"}
