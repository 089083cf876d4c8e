"""A GPU's own measurements against NVIDIA's reference at the same points: ratios, and a warning naming slow cases."""

from __future__ import annotations

from advisor.reference.check import LOW_RATIO, below_reference, reference_matches, summary_lines
from advisor.reference.tables import reference_for
from probes.models import CaseKey, Measurement, ProbeCase

REFERENCE = reference_for("h200-sxm")


def case(
    probe: str,
    implementation: str,
    dtype: str,
    shape: dict[str, int],
    median_s: float,
    *,
    device: str,
    **options: object,
) -> ProbeCase:
    key = CaseKey(probe=probe, implementation=implementation, dtype=dtype, shape=shape, device=device, options=options)
    timing = Measurement.from_samples([median_s] * 5, stop_reason="converged", warmup_calls=1)
    return ProbeCase(key=key, status="ok", timing=timing)


def reference_ms(operator: str, **point: object) -> float:
    table = REFERENCE.table(operator, "nccl" if operator == "nccl" else "trtllm")
    return next(float(r["latency"]) for r in table.records() if all(r[k] == v for k, v in point.items()))


def test_cases_at_reference_points_get_measured_over_reference_and_slow_ones_are_named():
    gemm_ms = reference_ms("gemm", gemm_dtype="bfloat16", m=4096, n=4096, k=4096)
    attention_ms = reference_ms(
        "context_attention",
        attn_dtype="bfloat16",
        kv_cache_dtype="bfloat16",
        batch_size=1,
        isl=4096,
        num_heads=16,
        num_key_value_heads=16,
        head_dim=128,
    )
    reduce_ms = reference_ms("nccl", op_name="all_reduce", nccl_dtype="half", num_gpus=8, message_size=2**25)
    cases = [
        case("gemm", "torch.matmul", "bf16", {"m": 4096, "n": 4096, "k": 4096}, gemm_ms / 1e3, device="cuda"),  # at par
        case(
            "gemm",
            "torch.matmul",
            "bf16",
            {"m": 1, "n": 4096, "k": 4096},
            reference_ms("gemm", gemm_dtype="bfloat16", m=1, n=4096, k=4096) / 1e3 / 0.5,
            device="cuda",
        ),  # half speed
        case(
            "attention",
            "sdpa.flash",
            "bf16",
            {"batch": 1, "heads": 16, "seq": 4096, "head_dim": 128},
            attention_ms / 1e3 / 0.9,
            device="cuda",
            causal=True,
        ),
        case(
            "attention",
            "sdpa.flash",
            "bf16",
            {"batch": 1, "heads": 16, "seq": 4096, "head_dim": 128},
            attention_ms / 1e3,
            device="cuda",
            causal=False,
        ),  # NVIDIA's context attention is causal: no match
        case(
            "scaling",
            "all_reduce",
            "fp32",
            {"bytes": 2**26},
            reduce_ms / 1e3 / 0.7,
            device="cuda",
            backend="nccl",
            world=8,
            nodes=1,
        ),
        case("gemm", "torch.matmul", "bf16", {"m": 4096, "n": 4096, "k": 4096}, gemm_ms / 1e3, device="cpu"),
        case("gemm", "torch.matmul", "fp32", {"m": 4096, "n": 4096, "k": 4096}, gemm_ms / 1e3, device="cuda"),
    ]
    matches = reference_matches(cases, REFERENCE)
    ratios = {(m.operator, m.case_id): round(m.ratio, 3) for m in matches}
    assert sorted(op for op, _ in ratios) == ["all_reduce", "attention", "gemm", "gemm"]
    assert sorted(ratios.values()) == [0.5, 0.7, 0.9, 1.0]
    slow = below_reference(matches)
    assert {m.operator for m in slow} == {"gemm", "all_reduce"} and all(m.ratio < LOW_RATIO for m in slow)
    lines = summary_lines(matches, "h200-sxm")
    assert lines[0].startswith("gemm: 2 case(s) at reference points, measured/reference median 0.75x")
    assert "measured by NVIDIA on NVIDIA H200" in lines[0]
    assert lines[-1].startswith(f"warning: below {LOW_RATIO}x the reference on ") and slow[0].case_id in lines[-1]


def test_no_matching_case_says_so():
    cpu = [case("gemm", "torch.matmul", "bf16", {"m": 64, "n": 64, "k": 64}, 1e-3, device="cpu")]
    assert summary_lines(reference_matches(cpu, REFERENCE), "h200-sxm") == [
        "no case matches a point of NVIDIA's reference for h200-sxm"
    ]


def h200_evidence(cases):
    import datetime as dt

    from probes.environment.models import (
        AcceleratorRuntime,
        CPUInfo,
        Environment,
        GPUInfo,
        ISAFeatures,
        OSInfo,
        PeakFigures,
        PythonInfo,
    )
    from probes.models import Evidence, HarnessSettings, ProbeConfig

    when = dt.datetime(2026, 12, 4, tzinfo=dt.timezone.utc)
    gpu = GPUInfo(index=0, name="NVIDIA H200", vendor="nvidia", compute_capability="9.0")
    environment = Environment(
        captured_at=when,
        advisor_version="0.1.0",
        hostname_hash="0123456789abcdef",
        os=OSInfo(system="Linux", kernel="6.0", machine="x86_64"),
        python=PythonInfo(version="3.11.7", implementation="CPython"),
        cpu=CPUInfo(architecture="x86_64", isa=ISAFeatures(source="none")),
        accelerators=AcceleratorRuntime(gpus=[gpu], gpu_source="nvidia-smi"),
        hardware_family="nvidia-gpu",
        peaks=[PeakFigures(device="NVIDIA H200", kind="gpu", tflops={"bf16": 989.0}, source="test")],
    )
    config = ProbeConfig(
        budget_s=60.0, device_requested="auto", device="cuda", probes=["gemm"], settings=HarnessSettings()
    )
    return Evidence(environment=environment, config=config, started_at=when, finished_at=when, cases=cases)


def test_a_record_of_evidence_from_an_h200_shows_the_check():
    import datetime as dt

    import yaml

    from advisor.knowledge.loader import load_knowledge_base
    from advisor.profile import parse_profile
    from advisor.recommendation.engine import recommend
    from advisor.records.decision import build_front_matter
    from advisor.records.render import render_record

    slow = reference_ms("gemm", gemm_dtype="bfloat16", m=4096, n=4096, k=4096) / 1e3 / 0.6
    evidence = h200_evidence(
        [case("gemm", "torch.matmul", "bf16", {"m": 4096, "n": 4096, "k": 4096}, slow, device="cuda")]
    )
    fields = {
        "model_type": "dense-transformer",
        "hardware": "nvidia-gpu",
        "device": "h200-sxm",
        "workload": "inference",
        "team_skill": "framework",
    }
    result = recommend(parse_profile(yaml.safe_dump(fields)), [evidence], load_knowledge_base())
    record = render_record(
        build_front_matter(1, "t", result, [], None, ["Ann"], dt.date(2026, 12, 4)), result, [evidence]
    )
    assert "against NVIDIA's reference for h200-sxm:" in record
    assert "gemm: 1 case(s) at reference points, measured/reference median 0.60x" in record
    assert f"warning: below {LOW_RATIO}x the reference on " in record


def test_the_site_draws_the_reference_as_a_line_beside_the_measurements():
    from advisor.site.evidence_charts import evidence_charts

    at_par = reference_ms("gemm", gemm_dtype="bfloat16", m=4096, n=4096, k=4096) / 1e3
    evidence = h200_evidence(
        [case("gemm", "torch.matmul", "bf16", {"m": 4096, "n": 4096, "k": 4096}, at_par, device="cuda")]
    )
    chart = next(chart for chart in evidence_charts(evidence) if chart.name == "reference-check")
    assert 'stroke-dasharray="6 4"' in chart.svg and "<circle" in chart.svg
    assert "measured by NVIDIA on NVIDIA H200" in chart.caption
    cpu = h200_evidence([case("gemm", "torch.matmul", "bf16", {"m": 64, "n": 64, "k": 64}, 1e-3, device="cpu")])
    assert not any(chart.name == "reference-check" for chart in evidence_charts(cpu))
