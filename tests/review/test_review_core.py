"""`review_decision` driven with hand-changed evidence: keep when nothing moved, revise when a switch condition fires."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from advisor.profile import Needs, Profile
from advisor.recommendation.engine import recommend
from advisor.records import find_record, write_decision
from advisor.records.review_history import HEADING, append_review_entry
from advisor.review import review_decision
from probes.models import Evidence, Measurement, Stats

CPU_SUITE = Path(__file__).resolve().parents[1] / "fixtures" / "cpu-suite.json"
TODAY = dt.date(2027, 12, 1)


@pytest.fixture(scope="module")
def suite() -> Evidence:
    return Evidence.load(CPU_SUITE)


@pytest.fixture(scope="module")
def profile() -> Profile:
    return Profile(
        model_type="dense-transformer",
        hardware="x86-cpu",
        workload="inference",
        team_skill="framework",
        needs=Needs(dynamic_shapes=True),
    )  # (unquantized: the bf16/fp32 GEMM switch applies)


def scaled(evidence: Evidence, factor: float, implementation: str = "torch.matmul", dtype: str = "bf16") -> Evidence:
    """A copy whose gemm cases of this implementation and dtype take `factor` times as long. Every case gets
    12 quiet samples (+/-2% around its median) so the comparison has enough, non-noisy samples for a verdict."""
    cases = []
    for case in evidence.cases:
        if case.timing:
            chosen = case.key.probe == "gemm" and case.key.implementation == implementation and case.key.dtype == dtype
            median = case.timing.stats.median * (factor if chosen else 1.0)
            samples = [median * (1 + 0.01 * (index % 5 - 2)) for index in range(12)]
            timing = case.timing.model_copy(update={"samples": samples, "stats": Stats.from_samples(samples)})
            case = case.model_copy(update={"timing": Measurement.model_validate(timing.model_dump())})
        cases.append(case)
    return evidence.model_copy(update={"cases": cases})


def written_record(tmp_path: Path, profile: Profile, evidence: Evidence):
    written = write_decision(
        recommend(profile, [evidence]),
        [evidence],
        records_dir=tmp_path / "records",
        title="CPU serving",
        date=dt.date(2026, 11, 29),
        commit=False,
    )
    return find_record(tmp_path / "records", written.id)


def test_nothing_changed_keeps_the_record(tmp_path, profile, suite):
    record = written_record(tmp_path, profile, suite)
    recommendation = recommend(profile, [suite])
    outcome = review_decision(record, suite, suite, recommendation, recommendation, TODAY)
    assert outcome.verdict == "keep"
    assert outcome.fired == [] and outcome.improved == [] and outcome.regressed == []
    assert outcome.environment_changes == [] and outcome.capabilities == []
    assert outcome.cost.cases == len(suite.cases) and outcome.cost.unmatched_old == 0
    assert outcome.tier1_before == outcome.tier1_after == record.front.tier1


def test_a_switch_condition_firing_revises_the_record(tmp_path, profile, suite):
    record = written_record(tmp_path, profile, suite)
    before, faster_bf16 = scaled(suite, 1.0), scaled(suite, 0.25)
    old, new = recommend(profile, [before]), recommend(profile, [faster_bf16])
    outcome = review_decision(record, before, faster_bf16, old, new, TODAY)
    assert outcome.verdict == "revise"
    assert [condition.id for condition in outcome.fired] == ["bf16-gemm-faster"]
    assert any("bf16-gemm-faster" in reason for reason in outcome.reasons)
    assert outcome.improved and all("bf16" in delta.case_id and delta.verdict == "FASTER" for delta in outcome.improved)


def test_regressions_are_reported_and_do_not_fire_a_condition_alone(tmp_path, profile, suite):
    record = written_record(tmp_path, profile, suite)
    before, slower_fp32 = scaled(suite, 1.0), scaled(suite, 1.5, dtype="fp32")
    outcome = review_decision(
        record, before, slower_fp32, recommend(profile, [before]), recommend(profile, [slower_fp32]), TODAY
    )
    assert outcome.regressed and all(delta.verdict == "SLOWER" for delta in outcome.regressed)
    assert outcome.improved == []


def test_new_versions_and_capabilities_are_listed(tmp_path, profile, suite, environment_factory):
    record = written_record(tmp_path, profile, suite)
    torch = suite.environment.torch.model_copy(
        update={
            "version": "9.9.0",
            "sdpa_backends": [*suite.environment.torch.sdpa_backends, "brand-new"],
            "quantized_engines": [*suite.environment.torch.quantized_engines, "newengine"],
        }
    )
    newer = suite.model_copy(update={"environment": suite.environment.model_copy(update={"torch": torch})})
    recommendation = recommend(profile, [suite])
    outcome = review_decision(record, suite, newer, recommendation, recommendation, TODAY, libraries_after=["openvino"])
    assert [(change.name, change.after) for change in outcome.environment_changes] == [("torch", "9.9.0")]
    kinds = {(capability.kind, capability.name) for capability in outcome.capabilities}
    assert {("sdpa-backend", "brand-new"), ("quantized-engine", "newengine"), ("library", "openvino")} <= kinds
    assert any(control.variable == "torch" for control in outcome.controls)


def test_evidence_of_an_older_schema_still_reviews(tmp_path, profile, suite):
    data = json.loads(CPU_SUITE.read_text())
    data["schema_version"] = 1
    for later in ("host_contention", "git_commit", "interrupted"):
        data.pop(later, None)
    for case in data["cases"]:
        case.pop("wall_s", None)
    for run in data["probe_runs"]:
        run.pop("sized_for_s", None)
    path = tmp_path / "old.evidence.json"
    path.write_text(json.dumps(data))
    old = Evidence.load(path)
    assert old.host_contention is None
    record = written_record(tmp_path, profile, old)
    outcome = review_decision(record, old, suite, recommend(profile, [old]), recommend(profile, [suite]), TODAY)
    assert outcome.verdict == "keep"
    assert [control.variable for control in outcome.controls] == ["host load"]


def test_review_history_section_is_added_once_and_entries_accumulate():
    body = "# Title\n\n## Review Plan\n\nReview by then.\n"
    once = append_review_entry(body, "2027-12-01: keep", ["versions: unchanged"])
    twice = append_review_entry(once, "2028-12-01: keep", ["versions: torch 2.1 -> 2.2"])
    assert twice.count(HEADING) == 1
    assert twice.endswith(
        "* 2027-12-01: keep\n  - versions: unchanged\n* 2028-12-01: keep\n  - versions: torch 2.1 -&gt; 2.2\n"
    )


def test_a_chosen_release_out_of_maintenance_revises_the_record(tmp_path, suite):
    # MindSpeed LLM 26.1.0 (its README's maintenance table) leaves maintenance on 2026-12-30: the record chose it with
    # review_by that day, and the review on or after it must not keep it unchanged.
    trained = Profile(
        model_type="dense-transformer",
        hardware="ascend-npu",
        device="ascend-910c",
        workload="training",
        team_skill="framework",
        model="Qwen/Qwen3-32B",
        needs=Needs(long_context=True, devices=32),
    )
    recommendation = recommend(trained, [])
    ending = recommendation.maintenance_end()
    assert ending is not None  # the chosen MindSpeed-LLM 26.1.0 stack states its end of maintenance
    record = written_record(tmp_path, trained, suite)
    before = review_decision(record, suite, suite, recommendation, recommendation, ending[0] - dt.timedelta(days=1))
    assert not any("left maintenance" in reason for reason in before.reasons)
    after = review_decision(record, suite, suite, recommendation, recommendation, ending[0])
    assert after.verdict == "revise"
    assert any(f"left maintenance on {ending[0].isoformat()}" in reason for reason in after.reasons)
