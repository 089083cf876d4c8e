"""The yearly review lists the knowledge-base claims about the record's options that aged or changed,
beside the re-measured evidence (a real git repository, `--evidence` instead of probing)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
import yaml
from git import Repo

from advisor.cli import app
from advisor.knowledge.audit import candidate_digest
from advisor.knowledge.loader import load_knowledge_base
from advisor.profile import Profile
from advisor.recommendation.engine import recommend
from advisor.records import find_record, write_decision
from probes.models import Evidence

CPU_SUITE = Path(__file__).resolve().parents[1] / "fixtures" / "cpu-suite.json"
PROFILE = Profile(model_type="dense-transformer", hardware="x86-cpu", workload="inference", team_skill="framework")


@pytest.fixture
def records(empty_repo: Repo) -> Path:
    """records/ in a git repository with one decision made on 2026-11-29."""
    folder = Path(empty_repo.working_tree_dir) / "records"
    evidence = Evidence.load(CPU_SUITE)
    write_decision(
        recommend(PROFILE, [evidence]), [evidence], records_dir=folder, title="CPU serving", date=dt.date(2026, 11, 29)
    )
    return folder


def _review(runner, records: Path, today: str, tmp_path: Path) -> dict:
    fresh = tmp_path / "fresh.json"
    fresh.write_bytes(CPU_SUITE.read_bytes())
    args = [
        "review",
        "1",
        "--evidence",
        str(fresh),
        "--records-dir",
        str(records),
        "--today",
        today,
        "--json",
        "--no-commit",
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["reviews"][0]


def test_the_record_keeps_a_digest_of_each_named_option(records):
    front = find_record(records, 1).front
    named = {*front.tier1, *front.tier2, *front.tier3, *front.rejected}
    assert set(front.knowledge) == named & set(load_knowledge_base().ids()) and "onednn" in front.knowledge
    assert front.knowledge["onednn"] == candidate_digest(load_knowledge_base().get("onednn"))


def test_unchanged_claims_within_a_year_are_not_listed(runner, records, tmp_path):
    outcome = _review(runner, records, "2027-11-30", tmp_path)
    assert outcome["knowledge"] == []
    assert outcome["summary"].endswith("0 knowledge-base claims to re-check")


def test_claims_older_than_a_year_are_listed_as_stale(runner, records, tmp_path):
    outcome = _review(runner, records, "2027-12-03", tmp_path)
    stale = {(item["owner"], item["field"]) for item in outcome["knowledge"] if item["problem"] == "stale"}
    assert ("onednn", "summary") in stale and ("vllm", "dynamic_shapes") in stale
    assert {owner for owner, _ in stale} <= set(find_record(records, 1).front.knowledge)
    history = find_record(records, 1).body
    assert "knowledge-base claims to re-check: " in history and "onednn.summary (stale 2026-12-01)" in history


def test_claims_changed_since_the_decision_are_listed(runner, records, tmp_path):
    path = find_record(records, 1).path
    text = path.read_text(encoding="utf-8")
    front_text, body = text.split("\n---\n", 1)
    front = yaml.safe_load(front_text.removeprefix("---\n"))
    front["knowledge"]["onednn"] = "0" * 16  # as if oneDNN's claims said something else when the record was written
    path.write_text("---\n" + yaml.safe_dump(front, sort_keys=False) + "---\n" + body, encoding="utf-8")
    outcome = _review(runner, records, "2027-11-30", tmp_path)
    changed = [item for item in outcome["knowledge"] if item["problem"] == "changed"]
    assert {item["owner"] for item in changed} == {"onednn"}
    assert {item["field"] for item in changed} == set(load_knowledge_base().get("onednn").claims())
    assert changed[0]["detail"].startswith("re-checked 2026-12-01, after the decision of 2026-11-29: ")
