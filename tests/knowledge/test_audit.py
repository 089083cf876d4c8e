"""`advisor kb audit` and the review's claim check: ages judged on a given date, never the clock."""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest
from knowledge_builders import CHECKED, candidate_document, claim, platform_document, write_root

from advisor.cli import app
from advisor.knowledge.audit import audit_knowledge, candidate_digest, claims_to_recheck, knowledge_snapshot
from advisor.knowledge.loader import load_knowledge_base

OLD = dt.date(2025, 6, 1)


@pytest.fixture
def knowledge(tmp_path):
    aged = candidate_document(
        "oldblas",
        ["acme-npu"],
        ["gemm"],
        fp8=claim("unknown", as_of=OLD, looked_for="the release notes of 1.0 and the FP8 guide"),
        summary=claim("An older library.", as_of=OLD),
    )
    fresh = candidate_document("newblas", ["acme-npu"], ["gemm"])
    root = write_root(
        tmp_path,
        [aged, fresh],
        [platform_document("acme-npu", {"gemm": ["newblas", "oldblas"]})],
        {"feeds": {"newblas": claim(["oldblas"], as_of=OLD)}},
    )
    return load_knowledge_base(root)


def test_audit_finds_stale_unknown_and_method_only_claims(knowledge):
    report = audit_knowledge(knowledge, as_of=dt.date(2026, 12, 1), max_age_days=365)
    stale = {(f.owner, f.field) for f in report.stale}
    assert stale == {("oldblas", "summary"), ("oldblas", "fp8"), ("compatibility", "feeds.newblas")}
    unknown = [f for f in report.findings if f.problem == "unknown"]
    assert [(f.owner, f.field) for f in unknown] == [("oldblas", "fp8")]
    assert "release notes of 1.0" in unknown[0].detail
    no_url = {(f.owner, f.field) for f in report.findings if f.problem == "no-url"}
    assert no_url == {("oldblas", "risks[0]"), ("newblas", "risks[0]")}
    counts = {summary.owner: (summary.stale, summary.unknown, summary.no_url) for summary in report.owners}
    assert counts["oldblas"] == (2, 1, 1) and counts["newblas"] == (0, 0, 1) and counts["acme-npu"] == (0, 0, 0)
    assert report.claims == sum(summary.claims for summary in report.owners)


def test_the_age_limit_and_the_date_decide(knowledge):
    assert audit_knowledge(knowledge, as_of=dt.date(2026, 5, 31), max_age_days=365).stale == []
    assert len(audit_knowledge(knowledge, as_of=dt.date(2026, 6, 2), max_age_days=365).stale) == 3
    assert len(audit_knowledge(knowledge, as_of=CHECKED, max_age_days=30).stale) == 3
    assert len(audit_knowledge(knowledge, as_of=CHECKED + dt.timedelta(days=31), max_age_days=30).stale) > 3


def test_review_lists_stale_and_changed_claims_of_the_options(knowledge):
    decided = dt.date(2026, 1, 15)
    snapshot = {"newblas": "0" * 16, "oldblas": candidate_digest(knowledge.get("oldblas"))}
    found = claims_to_recheck(
        knowledge, ["newblas", "oldblas", "not-in-kb"], today=dt.date(2026, 12, 1), decided=decided, snapshot=snapshot
    )
    changed = {f.field for f in found if f.problem == "changed"}
    assert {f.owner for f in found if f.problem == "changed"} == {"newblas"}
    assert "summary" in changed and "risks[0]" in changed  # every newblas claim was checked after the decision
    assert {(f.owner, f.field) for f in found if f.problem == "stale"} == {("oldblas", "summary"), ("oldblas", "fp8")}


def test_an_unchanged_snapshot_reports_no_change(knowledge):
    options = ["newblas", "oldblas"]
    snapshot = knowledge_snapshot(knowledge, options)
    found = claims_to_recheck(
        knowledge, options, today=dt.date(2026, 12, 2), decided=dt.date(2026, 1, 15), snapshot=snapshot
    )
    assert [f for f in found if f.problem == "changed"] == []


def test_without_a_snapshot_claims_checked_after_the_decision_count_as_changed(knowledge):
    found = claims_to_recheck(knowledge, ["oldblas"], today=dt.date(2026, 12, 2), decided=dt.date(2026, 1, 15))
    assert {f.field for f in found if f.problem == "changed"} == {
        field for field, c in knowledge.get("oldblas").claims().items() if c.as_of > dt.date(2026, 1, 15)
    }


def test_a_changed_digest_with_no_new_dates_is_still_reported(knowledge):
    found = claims_to_recheck(
        knowledge, ["oldblas"], today=dt.date(2026, 12, 2), decided=dt.date(2026, 12, 1), snapshot={"oldblas": "f" * 16}
    )
    assert [(f.field, f.problem) for f in found if f.problem == "changed"] == [("*", "changed")]


def test_the_shipped_knowledge_passes_its_audit_today(runner):
    result = runner.invoke(app, ["kb", "audit", "--as-of", dt.date.today().isoformat(), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["claims"] > 900
    assert [f for f in report["findings"] if f["problem"] == "stale"] == []


def test_audit_fails_on_stale_claims_and_names_them(runner):
    later = (dt.date.today() + dt.timedelta(days=800)).isoformat()
    result = runner.invoke(app, ["kb", "audit", "--as-of", later], env={"COLUMNS": "200"})
    assert result.exit_code == 1
    assert "stale: cublas.summary: checked" in result.stdout
    summary = re.match(
        r"^(\d+) claims in (\d+) entries as of \S+ \(max age 365 days\): (\d+) stale",
        result.stdout.strip().splitlines()[-1],
    )
    assert summary is not None and int(summary.group(3)) == int(summary.group(1))


def test_audit_bad_flags_are_one_line_errors(runner):
    result = runner.invoke(app, ["kb", "audit", "--as-of", "yesterday"])
    assert result.exit_code == 2
    assert result.stderr.strip() == "error: --as-of: 'yesterday' is not a date; use YYYY-MM-DD"
    result = runner.invoke(app, ["kb", "audit", "--max-age", "0"])
    assert result.exit_code == 2 and "--max-age" in result.stderr
