"""`advisor review` end to end in a real temporary git repository, with `--evidence` instead of probing."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from git import Repo

from advisor.cli import app
from advisor.profile import Needs, Profile
from advisor.recommendation.engine import recommend
from advisor.records import find_record, write_decision
from probes.models import Evidence, Stats

CPU_SUITE = Path(__file__).resolve().parents[1] / "fixtures" / "cpu-suite.json"
PROFILE = Profile(
    model_type="dense-transformer",
    hardware="x86-cpu",
    workload="inference",
    team_skill="framework",
    needs=Needs(dynamic_shapes=True),
)  # (unquantized: the bf16/fp32 GEMM switch applies)


def bf16_gemm_scaled(evidence: Evidence, factor: float) -> Evidence:
    """Every case gets 12 quiet samples (+/-2% around its median); gemm torch.matmul bf16 ones times `factor`."""
    cases = []
    for case in evidence.cases:
        if case.timing:
            chosen = case.key.probe == "gemm" and case.key.implementation == "torch.matmul" and case.key.dtype == "bf16"
            median = case.timing.stats.median * (factor if chosen else 1.0)
            samples = [median * (1 + 0.01 * (index % 5 - 2)) for index in range(12)]
            case = case.model_copy(
                update={
                    "timing": case.timing.model_copy(update={"samples": samples, "stats": Stats.from_samples(samples)})
                }
            )
        cases.append(case)
    return evidence.model_copy(update={"cases": cases})


@pytest.fixture
def project(empty_repo: Repo) -> tuple[Repo, Path, Evidence]:
    """A git repository whose records/ holds one committed decision (0001), decided on 2026-11-29."""
    repo = empty_repo
    records = Path(repo.working_tree_dir) / "records"
    evidence = bf16_gemm_scaled(Evidence.load(CPU_SUITE), 1.0)
    write_decision(
        recommend(PROFILE, [evidence]), [evidence], records_dir=records, title="CPU serving", date=dt.date(2026, 11, 29)
    )
    return repo, records, evidence


def review(runner, records: Path, evidence: Evidence, tmp_path: Path, *extra: str):
    path = tmp_path / "fresh.json"
    evidence.save(path)
    args = ["review", *extra, "--evidence", str(path), "--records-dir", str(records), "--today", "2027-12-01", "--json"]
    return runner.invoke(app, args)


def test_keep_bumps_review_by_and_version_and_commits_a_review_entry(runner, project, tmp_path):
    repo, records, evidence = project
    result = review(runner, records, evidence, tmp_path, "1")
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    assert document["reviews"][0]["verdict"] == "keep"
    record = find_record(records, 1)
    assert record.front.review_by == dt.date(2028, 12, 1) and record.front.version == 2
    assert "## Review History" in record.body and "2027-12-01: keep" in record.body
    assert "Review by 2028-12-01 (kept at the review of 2027-12-01)" in record.body  # the plan follows review_by
    assert "Review by 2027-12-01" not in record.body.split("## Review History")[0]
    assert (records / "0001-cpu-serving.review-2027-12-01.evidence.json").is_file()
    assert repo.head.commit.message.startswith("review 0001: keep")
    assert not repo.is_dirty() and set(repo.untracked_files) <= {"records/.advisor.lock"}


def test_a_fired_switch_condition_writes_a_superseding_record(runner, project, tmp_path):
    repo, records, evidence = project
    result = review(runner, records, bf16_gemm_scaled(Evidence.load(CPU_SUITE), 0.25), tmp_path, "1")
    assert result.exit_code == 0, result.output
    reviewed = json.loads(result.output)["reviews"][0]
    assert reviewed["verdict"] == "revise" and reviewed["fired"] == ["bf16-gemm-faster"]
    old, new = find_record(records, 1), find_record(records, 2)
    assert old.front.status == "superseded" and old.front.superseded_by == [2]
    assert new.front.supersedes == [1] and new.front.date == dt.date(2027, 12, 1)
    assert "revise, superseded by 0002" in old.body and "written by the review of 0001" in new.body
    assert repo.head.commit.message.startswith("review 0001: revise")
    assert not repo.is_dirty() and set(repo.untracked_files) <= {"records/.advisor.lock"}


def test_due_reviews_only_records_past_their_date(runner, project, tmp_path):
    _, records, evidence = project
    path = tmp_path / "fresh.json"
    evidence.save(path)
    early = runner.invoke(
        app,
        [
            "review",
            "--due",
            "--evidence",
            str(path),
            "--records-dir",
            str(records),
            "--today",
            "2027-11-15",
            "--no-commit",
        ],
    )
    assert early.exit_code == 0, early.output
    assert "no record is due" in early.output and "upcoming: 0001 review by 2027-11-29" in early.output
    due = review(runner, records, evidence, tmp_path, "--due")
    assert [item["record_id"] for item in json.loads(due.output)["reviews"]] == [1]


def test_review_without_ids_or_due_is_an_error(runner, tmp_path):
    result = runner.invoke(app, ["review", "--records-dir", str(tmp_path)])
    assert result.exit_code == 2 and "--due" in result.output


def test_a_review_that_timed_nothing_keeps_nothing(runner, project, tmp_path):
    repo, records, evidence = project
    failed = evidence.model_copy(
        update={
            "cases": [
                case.model_copy(update={"status": "failed", "timing": None, "reason": "time share ran out"})
                for case in evidence.cases
            ]
        }
    )
    before = (records / find_record(records, 1).path.name).read_text()
    head = repo.head.commit.hexsha
    result = review(runner, records, failed, tmp_path, "1")
    assert result.exit_code == 2 and "no case was timed" in result.stderr and "record is unchanged" in result.stderr
    assert (records / find_record(records, 1).path.name).read_text() == before and repo.head.commit.hexsha == head


def test_a_fleet_records_baseline_is_its_evidence_measured_on_the_target(empty_repo, tmp_path):
    from advisor.review.run import old_evidence_of

    records = Path(empty_repo.working_tree_dir) / "records"
    target = bf16_gemm_scaled(Evidence.load(CPU_SUITE), 1.0)  # x86-cpu, the profile's target
    elsewhere = target.model_copy(
        update={
            "cases": [
                case.model_copy(update={"key": case.key.model_copy(update={"device": "cuda"})}) for case in target.cases
            ]
        }
    )  # an NVIDIA machine of the fleet
    written = write_decision(
        recommend(PROFILE, [elsewhere, target]),
        [elsewhere, target],
        records_dir=records,
        title="Fleet",
        date=dt.date(2026, 11, 29),
    )
    baseline = old_evidence_of(find_record(records, written.id))
    assert baseline is not None and {case.key.device for case in baseline.cases} == {"cpu"}


def test_due_check_is_a_ci_gate_that_probes_and_writes_nothing(runner, project):
    repo, records, _ = project
    head, listing = repo.head.commit.hexsha, sorted(path.name for path in records.iterdir())
    early = runner.invoke(app, ["review", "--due", "--check", "--records-dir", str(records), "--today", "2027-11-15"])
    assert early.exit_code == 0, early.output
    assert (
        "no record is overdue" in early.output and "upcoming: 0001 CPU serving (review by 2027-11-29)" in early.output
    )
    late = runner.invoke(
        app, ["review", "--due", "--check", "--records-dir", str(records), "--today", "2027-12-01", "--json"]
    )
    assert late.exit_code == 1
    document = json.loads(late.stdout)
    assert not document["passed"] and [item["id"] for item in document["overdue"]] == [1]
    assert repo.head.commit.hexsha == head and sorted(path.name for path in records.iterdir()) == listing
    wrong = runner.invoke(app, ["review", "1", "--check", "--records-dir", str(records)])
    assert wrong.exit_code == 2 and "--check goes with --due" in wrong.output
