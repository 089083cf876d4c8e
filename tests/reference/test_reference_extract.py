"""The shipped reference extract: read back, its provenance complete, regenerated identically from the package."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from advisor.reference import extract
from advisor.reference.facts import allreduce_fact, device_facts, gemm_facts
from advisor.reference.grid import GEMM_NK
from advisor.reference.tables import (
    SYSTEM_DEVICES,
    ReferenceError,
    load_reference,
    parse_reference,
    reference_dir,
    reference_for,
    shipped_systems,
)

SHIPPED = reference_dir()
PROBE_SQUARES = (512, 1024, 2048, 4096, 8192)  # probes/gemm/sizing.py, cuda
PROBE_WIDTHS = (1024, 2048, 4096)


def test_every_system_with_nvidia_data_is_shipped_with_its_provenance():
    assert set(shipped_systems()) == set(SYSTEM_DEVICES)
    total = sum(path.stat().st_size for path in SHIPPED.iterdir() if path.is_file())
    assert total < 3 * 1024 * 1024
    licence = (SHIPPED / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in licence and "NVIDIA CORPORATION & AFFILIATES" in licence
    assert "filtered and converted" in (SHIPPED / "README.md").read_text(encoding="utf-8").lower()
    for system in shipped_systems():
        document = json.loads((SHIPPED / f"{system}.json").read_text(encoding="utf-8"))
        assert document["source"]["package"] == "aiconfigurator-core" and document["source"]["version"] == "0.12.0"
        assert len(document["source"]["wheel_sha256"]) == 64
        for table in document["tables"]:
            assert {"path", "framework", "framework_version", "provenance", "device", "units", "collected_at"} <= set(
                table
            )
            assert table["units"]["latency"] == "ms" and len(table["sha256"]) == 64
            assert table["provenance"] in ("collected", "legacy", "local")
            assert table["collected_at"] == "undated" or table["collected_at"][:2] == "20"


def test_the_h200_tables_hold_every_gpu_probe_gemm_shape():
    reference = reference_for("h200-sxm")
    assert reference is not None
    table = reference.table("gemm", "trtllm")
    measured = {(r["m"], r["n"], r["k"]) for r in table.records() if r["gemm_dtype"] == "bfloat16"}
    squares = {(size, size, size) for size in PROBE_SQUARES}
    decode_prefill = {(m, width, width) for width in PROBE_WIDTHS for m in (1, 16, 512, 1024, 2048, 4096)}
    assert squares | decode_prefill <= measured
    assert all((n, k) in GEMM_NK for _, n, k in measured)


def test_facts_carry_who_measured_them_and_where():
    reference = reference_for("h200-sxm")
    facts = {fact.name: fact for fact in device_facts(reference, "trtllm", "fp8")}
    assert {"fp8_over_bf16_gemm", "context_attention_growth", "allreduce_busbw_gbps"} <= set(facts)
    for fact in facts.values():
        assert fact.label.startswith("measured by NVIDIA on NVIDIA H200, aiconfigurator-core 0.12.0, ")
        assert fact.points >= 1 and fact.value > 0
    assert facts["allreduce_busbw_gbps"].label.endswith("NCCL 2.29.2")
    assert 1.0 < facts["fp8_over_bf16_gemm"].value < 2.0  # FP8 doubles the tensor-core rate at most
    busbw = allreduce_fact(reference)
    assert busbw is not None and 100 < busbw.value < 900  # H200 NVLink: 900 GB/s per GPU both ways


def test_a_device_nvidia_does_not_cover_has_no_reference():
    assert reference_for("mi300x") is None and reference_for(None) is None
    assert gemm_facts(reference_for("l40s"), "no-such-engine", "fp8") == []


@pytest.mark.parametrize(
    "text, field",
    [
        ("{", "not JSON"),
        ('{"schema_version": 9}', "schema_version"),
        ('{"schema_version": 1}', "missing or malformed"),
    ],
)
def test_a_broken_extract_is_refused_naming_the_file(tmp_path: Path, text: str, field: str):
    with pytest.raises(ReferenceError, match=f"broken.json: .*{field}"):
        parse_reference(text, str(tmp_path / "broken.json"))
    (tmp_path / "h200_sxm.json").write_text(text, encoding="utf-8")
    with pytest.raises(ReferenceError, match="h200_sxm.json"):
        load_reference.__wrapped__("h200_sxm", tmp_path)


@pytest.mark.skipif(sys.version_info < (3, 11), reason="aiconfigurator-core 0.12.0 needs Python 3.11 or newer")
def test_the_extract_regenerates_identically_from_the_installed_package():
    # aiconfigurator-core 0.12.0 is part of the test extra (pyproject.toml): the maintainer script runs for real
    shipped = json.loads((SHIPPED / "h200_sxm.json").read_text(encoding="utf-8"))
    fresh = extract.extract(extract.package_root(), shipped["source"]["wheel_sha256"])["h200_sxm"]
    assert extract.dumps(fresh) == (SHIPPED / "h200_sxm.json").read_text(encoding="utf-8")


def test_the_all_reduce_figure_is_taken_at_the_jobs_gpu_count():
    # Review 23 saw "1 GB/s on 8 GPUs" quoted for a 2 x L40S job: NVIDIA's L40S table has the 8-GPU ring at about
    # 1.45 GB/s but the pair at about 20 GB/s; the job's own count is the one that bears on it.
    reference = reference_for("l40s")
    pair, eight = allreduce_fact(reference, 2), allreduce_fact(reference, 8)
    assert pair is not None and eight is not None
    assert "on 2 GPUs" in pair.figure and "on 8 GPUs" in eight.figure
    assert pair.value > 10 * eight.value
    assert "1.4 GB/s" in eight.figure  # two significant digits below 10 GB/s, not a rounded "1 GB/s"
    many = allreduce_fact(reference, 64)  # more GPUs than NVIDIA measured: its largest count, said as such
    assert many is not None and "on 8 GPUs" in many.figure
