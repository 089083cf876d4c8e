"""`advisor.assess(...)` and `advisor.review_record(...)`: the library functions the CLI calls, used directly."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from git import Repo

import advisor
from advisor.profile import Profile
from advisor.records import find_record
from probes.errors import AdvisorError
from probes.models import Evidence

CPU_SUITE = Path(__file__).resolve().parents[1] / "fixtures" / "cpu-suite.json"
PROFILE = Profile(model_type="cnn", hardware="x86-cpu", workload="inference", team_skill="framework", title="Library")


@pytest.fixture
def repo(empty_repo: Repo) -> Repo:
    return empty_repo


def test_assess_writes_and_commits_a_record_from_given_evidence(repo: Repo):
    records = Path(repo.working_tree_dir) / "records"
    assessment = advisor.assess(PROFILE, evidence=[Evidence.load(CPU_SUITE)], records_dir=records, deciders=["Ann"])
    record = find_record(records, assessment.written.id)
    assert record.front.title == "Library" and record.front.decision_makers == ["Ann"]
    assert record.front.tier1 == assessment.written.tier1 and "openvino" in record.front.tier1
    assert assessment.written.commit == repo.head.commit.hexsha and assessment.evidence[0].cases
    # Intel documents OpenVINO with NNCF for CNN inference on Xeon: its CPU plugin runs the convolutions
    assert assessment.recommendation.tier(1).options()["convolution"] == "openvino"


def test_assess_without_probes_decides_from_the_knowledge_base(tmp_path: Path):
    assessment = advisor.assess(PROFILE, probe=False, records_dir=tmp_path / "records", commit=False)
    assert assessment.evidence == () and not assessment.recommendation.evidence_used
    with pytest.raises(AdvisorError, match="--budget"):
        advisor.assess(PROFILE, probe=False, budget_s=0, records_dir=tmp_path / "records")


def test_review_keeps_a_record_whose_evidence_did_not_change(repo: Repo):
    records = Path(repo.working_tree_dir) / "records"
    suite = Evidence.load(CPU_SUITE)
    written = advisor.assess(PROFILE, evidence=[suite], records_dir=records).written
    result = advisor.review_record(records, written.id, today=dt.date(2027, 6, 1), new_evidence=suite)
    assert result.outcome.verdict == "keep" and find_record(records, written.id).front.version == 2
