"""Evidence: structure, case identity, JSON round trip, atomic save, schema_version refusal."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import pytest

from probes.environment.models import AcceleratorRuntime, CPUInfo, Environment, ISAFeatures, OSInfo, PythonInfo
from probes.models import (
    EVIDENCE_SCHEMA_VERSION,
    CaseKey,
    Evidence,
    EvidenceSchemaError,
    HarnessSettings,
    Measurement,
    MemoryPeak,
    Metric,
    NumericError,
    ProbeCase,
    ProbeConfig,
    ProbeRun,
)


def hand_built_environment() -> Environment:
    return Environment(
        captured_at=datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc),
        advisor_version="0.1.0",
        hostname_hash="0123456789abcdef",
        os=OSInfo(system="Linux", kernel="6.0", machine="x86_64"),
        python=PythonInfo(version="3.11.7", implementation="CPython"),
        cpu=CPUInfo(architecture="x86_64", logical_cores=2, isa=ISAFeatures(avx2=True, source="/proc/cpuinfo")),
        accelerators=AcceleratorRuntime(),
    )


def matmul_key(implementation: str = "torch.matmul", **options: str | float | bool) -> CaseKey:
    return CaseKey(
        probe="gemm",
        implementation=implementation,
        dtype="bf16",
        shape={"m": 64, "n": 32, "k": 16},
        layout="row-major",
        device="cuda",
        options=dict(options),
    )


def sample_evidence() -> Evidence:
    samples = [1.0e-3, 1.1e-3, 0.9e-3, 1.05e-3, 1.0e-3, 0.95e-3]
    timing = Measurement.from_samples(samples, stop_reason="converged", warmup_calls=3, cache_flushed=True)
    measured = ProbeCase(
        key=matmul_key(),
        status="ok",
        timing=timing,
        baseline=True,
        wall_s=0.5,
        metrics={"tflops": Metric(value=2 * 64 * 32 * 16 / 1e-3 / 1e12, unit="TFLOP/s")},
        memory=MemoryPeak(
            peak_bytes=4096, baseline_bytes=1024, method="cuda.max_memory_allocated", scope="device-allocator"
        ),
        numeric=NumericError(max_abs=1e-3, max_rel=2e-3, atol=2e-2, rtol=2e-2, passed=True),
    )
    crashed = ProbeCase(
        key=matmul_key("triton.matmul"), status="failed", reason="crashed: segmentation fault (SIGSEGV)"
    )
    return Evidence(
        environment=hand_built_environment(),
        config=ProbeConfig(
            budget_s=60, device_requested="auto", device="cuda:0", probes=["gemm"], settings=HarnessSettings()
        ),
        started_at=datetime(2026, 1, 2, 3, 5, tzinfo=timezone.utc),
        finished_at=datetime(2026, 1, 2, 3, 6, tzinfo=timezone.utc),
        git_commit="a" * 40,
        probe_runs=[ProbeRun(probe="gemm", status="ok", share_s=60, sized_for_s=58.5, wall_s=59.0, restarts=1)],
        cases=[measured, crashed],
    )


def test_case_id_names_every_variable_in_a_stable_order() -> None:
    key = matmul_key(split_k=4, allow_tf32=False)
    assert key.case_id == "gemm/torch.matmul/bf16/m=64,n=32,k=16/row-major/cuda/allow_tf32=false,split_k=4"
    assert key.group_id == "bf16/m=64,n=32,k=16/row-major/cuda/allow_tf32=false,split_k=4"
    assert matmul_key(allow_tf32=False, split_k=4).case_id == key.case_id  # option order does not matter


def test_case_id_is_written_and_read_back() -> None:
    key = matmul_key(split_k=4)
    data = json.loads(key.model_dump_json())
    assert data["case_id"] == key.case_id
    assert CaseKey.model_validate(data) == key


def test_json_round_trip_keeps_everything(tmp_path: Path) -> None:
    evidence = sample_evidence()
    path = tmp_path / "nested" / "evidence.json"
    evidence.save(path)
    loaded = Evidence.load(path)
    assert loaded.to_text() == evidence.to_text() == path.read_text()  # the same up to the lean form's rounding
    assert loaded.cases[0].timing is not None
    assert loaded.cases[0].timing.samples == evidence.cases[0].timing.samples  # type: ignore[union-attr]
    assert loaded.cases[0].key.case_id == evidence.cases[0].key.case_id
    assert loaded.cases[0].timing.stats.mean == pytest.approx(evidence.cases[0].timing.stats.mean, rel=1e-5)  # type: ignore[union-attr]
    data = json.loads(path.read_text())
    assert data["schema_version"] == EVIDENCE_SCHEMA_VERSION == 1
    assert set(data) >= {"environment", "config", "started_at", "finished_at", "interrupted", "git_commit", "cases"}
    assert data["config"]["settings"]["noise_threshold"] == 0.10  # the run's settings stay explicit
    assert "case_id" not in data["cases"][0]["key"]  # derived: recomputed on reading
    assert len(path.read_text().splitlines()) == 2 + len(evidence.cases)  # one line per case


def test_save_replaces_atomically_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    path = tmp_path / "evidence.json"
    path.write_text("old")
    sample_evidence().save(path)
    assert [entry.name for entry in tmp_path.iterdir()] == ["evidence.json"]
    assert Evidence.load(path).git_commit == "a" * 40


def test_newer_schema_version_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    path = tmp_path / "future.json"
    data = json.loads(sample_evidence().model_dump_json())
    data["schema_version"] = EVIDENCE_SCHEMA_VERSION + 1
    data["a_field_from_the_future"] = True
    path.write_text(json.dumps(data))
    with pytest.raises(EvidenceSchemaError, match=r"schema_version 2 is newer than this advisor reads \(1\)"):
        Evidence.load(path)


def test_file_without_schema_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bare.json"
    path.write_text(json.dumps({"cases": []}))
    with pytest.raises(EvidenceSchemaError, match="no integer schema_version"):
        Evidence.load(path)


def test_a_field_added_by_a_newer_advisor_of_the_same_version_is_read_and_kept(tmp_path):
    import json as json_module

    from probes.models import Evidence

    source = Path(__file__).resolve().parents[1] / "fixtures" / "cpu-suite.json"
    document = json_module.loads(source.read_text())
    document["added_later"] = {"note": "from a newer advisor"}
    document["cases"][0]["added_later_too"] = 3
    path = tmp_path / "newer.json"
    path.write_text(json_module.dumps(document))
    evidence = Evidence.load(path)
    again = json_module.loads(evidence.model_dump_json())
    assert again["added_later"] == {"note": "from a newer advisor"} and again["cases"][0]["added_later_too"] == 3
