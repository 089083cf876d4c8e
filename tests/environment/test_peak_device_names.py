"""NVIDIA peak rows matched by the exact names nvidia-smi --query-gpu=name and torch.cuda.get_device_name() print.

Both print the driver's product name. The strings below are as they appear in public nvidia-smi
output, PyTorch collect_env reports and cloud GPU-type lists (which use the driver's name as the id).
A name must select its own card's row, never a sibling's: before issue 18 the row 'H100' gave an
H100 NVL (and any unknown H100 variant) the SXM figures, 'H200' gave a GH200 the H200's, and
'A100.*PCIE.*80' missed 'NVIDIA A100 80GB PCIe', which fell through to the 40 GB row's bandwidth.
"""

from __future__ import annotations

import pytest

from probes.environment.peaks import accelerator_peak

# (reported name, where it comes from) -> (table row, bf16 dense TFLOP/s, memory bandwidth GB/s)
REPORTED = [
    ("NVIDIA H100 80GB HBM3", "H100 SXM5", "NVIDIA H100 SXM", 989.5, 3350),
    ("NVIDIA H100 PCIe", "H100 PCIe", "NVIDIA H100 PCIe", 756.5, 2000),
    ("NVIDIA H100 NVL", "H100 NVL (94 GB)", "NVIDIA H100 NVL", None, None),
    ("NVIDIA H200", "H200 SXM", "NVIDIA H200", 989.5, 4800),
    ("NVIDIA H200 NVL", "H200 NVL", "NVIDIA H200 NVL", 835.5, 4800),
    ("NVIDIA A100-SXM4-80GB", "A100 80GB SXM", "NVIDIA A100 80GB SXM", 312.0, 2039),
    ("A100-SXM-80GB", "A100 80GB SXM, driver 450", "NVIDIA A100 80GB SXM", 312.0, 2039),
    ("NVIDIA A100 80GB PCIe", "A100 80GB PCIe", "NVIDIA A100 80GB PCIe", 312.0, 1935),
    ("NVIDIA A100-SXM4-40GB", "A100 40GB SXM", "NVIDIA A100 40GB", 312.0, 1555),
    ("A100-SXM4-40GB", "A100 40GB SXM, driver 460", "NVIDIA A100 40GB", 312.0, 1555),
    ("NVIDIA A100-PCIE-40GB", "A100 40GB PCIe", "NVIDIA A100 40GB", 312.0, 1555),
    ("NVIDIA L40S", "L40S", "NVIDIA L40S", 362.05, 864),
    ("NVIDIA GeForce RTX 4090", "RTX 4090", "NVIDIA GeForce RTX 4090", 165.2, 1008),
]


@pytest.mark.parametrize("reported, card, row, bf16, bandwidth", REPORTED, ids=[entry[0] for entry in REPORTED])
def test_each_reported_name_selects_its_own_row(reported, card, row, bf16, bandwidth):
    peak = accelerator_peak(reported)
    assert peak is not None, f"{reported!r} ({card}) matches no row"
    assert (peak.device, peak.tflops["bf16"], peak.memory_bandwidth_gbs) == (row, bf16, bandwidth)


def test_names_padded_by_a_tool_still_match():
    peak = accelerator_peak("  NVIDIA H100 PCIe \n")
    assert peak is not None and peak.device == "NVIDIA H100 PCIe"


@pytest.mark.parametrize(
    "reported",
    [
        "NVIDIA GH200 480GB",  # Grace Hopper: its own memory, not the H200's figures
        "NVIDIA GH200 120GB",
        "NVIDIA H100 80GB HBM3 MIG 1g.10gb",  # a MIG slice has a fraction of the chip
        "NVIDIA A100-SXM4-80GB MIG 1g.10gb",
        "NVIDIA H800",
        "NVIDIA H800 PCIe",
        "NVIDIA H20",
        "NVIDIA A800-SXM4-80GB",
        "NVIDIA L40",
        "NVIDIA GeForce RTX 4090 D",
        "NVIDIA B200",
    ],
)
def test_siblings_slices_and_unlisted_cards_take_no_row(reported):
    assert accelerator_peak(reported) is None


def test_every_nvidia_row_is_anchored_to_a_whole_name():
    from probes.environment.peaks import builtin_table

    for row in builtin_table():
        if row.name.startswith("NVIDIA"):
            assert row.match.startswith("^") and row.match.endswith("$"), row.name
