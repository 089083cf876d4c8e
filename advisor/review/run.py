"""`run_review`: the I/O around `review_decision`: read the record, probe, write keep or revise, commit."""

from __future__ import annotations

import datetime as dt
import hashlib
import importlib.util
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from advisor.interrupts import stop_deferred
from advisor.knowledge.audit import ClaimFinding, claims_to_recheck
from advisor.knowledge.loader import load_knowledge_base
from advisor.profile import Profile
from advisor.recommendation.engine import recommend
from advisor.records.decision import write_decision
from advisor.records.git import commit_paths
from advisor.records.models import LIVE_STATUSES, DecisionRecord, RecordError, RecordProblem, review_date
from advisor.records.paths import open_repository
from advisor.records.render import compose
from advisor.records.review_history import append_review_entry, update_review_plan
from advisor.records.store import (
    find_record,
    load_records,
    read_record,
    records_lock,
    replace_file_atomically,
    restore_bytes,
    supersede,
    write_files_atomically,
)
from advisor.review.core import review_decision
from advisor.review.models import ReviewOutcome
from probes.models import Evidence

# Python modules of knowledge-base candidates: importable now means usable without a new install.
CANDIDATE_MODULES: dict[str, str] = {
    "onnxruntime": "onnxruntime",
    "openvino": "openvino",
    "tensorrt": "tensorrt",
    "triton": "triton",
    "flash-attention": "flash_attn",
    "torchao": "torchao",
    "vllm": "vllm",
    "torch-npu": "torch_npu",
}


@dataclass(frozen=True)
class ReviewResult:
    """One review: its outcome, the files written and the commit."""

    outcome: ReviewOutcome
    record: Path
    evidence: Path
    new_record: Path | None = None
    commit: str | None = None
    notes: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, object]:
        """The `--json` output of review for this record."""
        return {
            **self.outcome.model_dump(mode="json"),
            "summary": self.outcome.summary(),
            "fired": [condition.id for condition in self.outcome.fired],
            "record": str(self.record),
            "evidence": str(self.evidence),
            "new_record": str(self.new_record) if self.new_record else None,
            "commit": self.commit,
            "notes": self.notes,
        }


class DueRecords(NamedTuple):
    """The live records past their review date, those due soon, and the files that did not read as records."""

    due: list[DecisionRecord]
    upcoming: list[DecisionRecord]
    problems: list[RecordProblem]


def due_records(records_dir: Path, today: dt.date, within_days: int = 30) -> DueRecords:
    """Live records (not superseded, rejected or deprecated) past their review date, those due within
    `within_days`, and a problem for each record file that does not read (its review date is unknown)."""
    records, problems = load_records(records_dir)
    live = [record for record in records if record.front.status in LIVE_STATUSES]
    due = [record for record in live if record.front.review_by <= today]
    upcoming = [record for record in live if today < record.front.review_by <= today + dt.timedelta(days=within_days)]
    return DueRecords(due, upcoming, problems)


def old_evidence_of(record: DecisionRecord) -> Evidence | None:
    """The record's baseline: of its decision's evidence files (a fleet has several; review files are not
    baselines), the first measured on the target hardware, else the first; None without evidence."""
    from probes.environment.family import device_family

    decided = [ref for ref in record.front.evidence if ".review-" not in ref.file] or list(record.front.evidence)
    if not decided:
        return None
    loaded = [Evidence.load(record.path.parent / ref.file) for ref in decided]  # one-line error naming the file
    target = record.front.profile.get("hardware")
    for evidence in loaded:
        if any(device_family(case.key.device, evidence.environment) == target for case in evidence.cases):
            return evidence
    return loaded[0]


def importable_libraries() -> list[str]:
    """Knowledge-base candidates whose Python module is importable here."""
    return sorted(name for name, module in CANDIDATE_MODULES.items() if importlib.util.find_spec(module) is not None)


def measure_again(old: Evidence | None, budget_s: float | None) -> Evidence:
    """Re-run the probes of the old evidence with the same options and device request, within the budget."""
    from probes.runner import run_probes

    names = list(old.config.probes) if old is not None else None
    device = old.config.device_requested if old is not None else "auto"
    budget = budget_s if budget_s is not None else (old.config.budget_s if old is not None else 60.0)
    options = old.config.probe_options if old is not None else None
    return run_probes(names, budget_s=budget, device=device, probe_options=options)


def history_lines(outcome: ReviewOutcome, evidence_name: str, sha256: str) -> list[str]:
    """The details of one Review History entry."""
    changes = ", ".join(f"{c.name} {c.before or '-'} -> {c.after or '-'}" for c in outcome.environment_changes)
    lines = [
        f"versions: {changes or 'unchanged'}",
        f"fixed or improved: {', '.join(f'{d.case_id} ({d.verdict})' for d in outcome.improved) or 'none'}",
        f"regressed: {', '.join(f'{d.case_id} ({d.verdict})' for d in outcome.regressed) or 'none'}",
        f"per probe: {'; '.join(verdict.line() for verdict in outcome.probes) or 'no probe with enough cases timed in both runs'}",
        f"new capabilities: {', '.join(f'{c.kind} {c.name}' for c in outcome.capabilities if c.kind != 'library') or 'none'}",
        f"knowledge-base libraries importable now: {', '.join(c.name for c in outcome.capabilities if c.kind == 'library') or 'none'}",
        f"upgrade test cost: {outcome.cost.cases} cases re-run, {outcome.cost.failed} failed, {outcome.cost.skipped} skipped, "
        f"{outcome.cost.unmatched_old} old cases not re-run, {outcome.cost.wall_s:.0f} s",
        f"switch conditions fired: {', '.join(c.id for c in outcome.fired) or 'none'}",
        f"knowledge-base claims to re-check: {claims_text(outcome.knowledge) or 'none'}",
        f"evidence: {evidence_name} (sha256 {sha256[:12]})",
    ]
    return lines


def claims_text(findings: list[ClaimFinding]) -> str:
    """The findings as one line: 'cudnn.fp8 (changed 2027-03-01), nccl.summary (stale 2025-10-01)'."""
    return ", ".join(f"{f.owner}.{f.field} ({f.problem} {f.as_of.isoformat()})" for f in findings)


def run_review(
    records_dir: Path,
    number: int,
    *,
    today: dt.date | None = None,
    budget_s: float | None = None,
    new_evidence: Evidence | None = None,
    commit: bool = True,
) -> ReviewResult:
    """Review one record: re-probe (or take `new_evidence`), decide keep or revise, write and commit."""
    today = today or dt.date.today()
    record = find_record(records_dir, number)
    if record.front.status not in LIVE_STATUSES:
        raise RecordError(f"{record.path.name} is {record.front.status}: only a live record is reviewed")
    old = old_evidence_of(record)
    fresh = new_evidence if new_evidence is not None else measure_again(old, budget_s)
    if fresh.interrupted and new_evidence is None:  # a stop signal: no review written; keep what was measured
        from advisor.interrupts import stopped
        from advisor.records.interrupted import keep_interrupted_evidence, measured_summary

        kept = keep_interrupted_evidence(fresh, records_dir)
        raise stopped(f"no review written; {measured_summary(fresh)}: evidence kept in {kept}")
    if not fresh.has_timed_case():
        raise RecordError(
            f"review of {record.id:04d}: no case was timed in the new evidence ({len(fresh.cases)} attempted), so nothing "
            "was verified and the record is unchanged; run the review again with a larger --budget on a quieter host"
        )
    profile = Profile.model_validate({**record.front.profile, "title": record.front.title})
    old_recommendation = recommend(profile, [old] if old is not None else [])
    new_recommendation = recommend(profile, [fresh])
    front = record.front
    claims = claims_to_recheck(
        load_knowledge_base(),
        [*front.tier1, *front.tier2, *front.tier3, *front.rejected],
        today=today,
        decided=front.date,
        snapshot=front.knowledge or None,
    )
    outcome = review_decision(
        record,
        old,
        fresh,
        old_recommendation,
        new_recommendation,
        today,
        libraries_after=importable_libraries(),
        claims=claims,
    )
    with open_repository(records_dir) if commit else nullcontext() as repo:
        notes = [] if repo is not None or not commit else [f"{records_dir} is not in a git repository: not committed"]
        if outcome.verdict == "keep":
            return _keep(record, outcome, fresh, today, repo, notes)
        return _revise(records_dir, record, outcome, fresh, new_recommendation, today, repo, notes)


def _evidence_text(evidence: Evidence) -> tuple[str, str]:
    text = evidence.to_text()
    return text, hashlib.sha256(text.encode("utf-8")).hexdigest()


def _keep(record: DecisionRecord, outcome: ReviewOutcome, fresh: Evidence, today: dt.date, repo, notes) -> ReviewResult:
    text, sha = _evidence_text(fresh)
    evidence_path = record.path.with_name(f"{record.path.stem}.review-{today.isoformat()}.evidence.json")
    with records_lock(record.path.parent), stop_deferred():  # a stop signal waits for the commit: never half a review
        record = read_record(record.path)  # read under the lock: a concurrent review may have added its entry
        front = record.front.model_copy(update={"review_by": review_date(today), "version": record.front.version + 1})
        title = f"{today.isoformat()}: keep (v{front.version}; review by {front.review_by.isoformat()})"
        body = append_review_entry(
            update_review_plan(record.body, front.review_by, today),
            title,
            history_lines(outcome, evidence_path.name, sha),
        )
        original = record.path.read_bytes()
        write_files_atomically([(evidence_path, text)])
        try:
            replace_file_atomically(record.path, compose(front, body))
        except BaseException:  # the record is as it was: its new evidence goes too
            evidence_path.unlink(missing_ok=True)
            raise
        sha_commit = None
        if repo is not None:
            try:
                message = f"review {record.id:04d}: keep, review by {front.review_by.isoformat()} (v{front.version})"
                sha_commit = commit_paths(repo, [evidence_path, record.path], message)
            except BaseException:
                restore_bytes(record.path, original)
                evidence_path.unlink(missing_ok=True)
                raise
    return ReviewResult(outcome=outcome, record=record.path, evidence=evidence_path, commit=sha_commit, notes=notes)


def _revise(records_dir, record, outcome, fresh, recommendation, today, repo, notes) -> ReviewResult:
    """A new record superseding the old one, committed together; on any failure both files are put back as
    they were and the new record removed (commit_paths restores the index)."""
    with stop_deferred():  # a stop signal waits for the commit: never half a revision
        original = record.path.read_bytes()
        written = write_decision(
            recommendation,
            [fresh],
            records_dir=records_dir,
            title=record.front.title,
            deciders=record.front.decision_makers,
            date=today,
            commit=False,
        )
        try:
            return _link_and_commit(records_dir, record, written, outcome, today, repo, notes)
        except BaseException:
            for path in (written.record, *written.evidence):  # first: on a full disk that frees room to restore in
                path.unlink(missing_ok=True)
            restore_bytes(record.path, original)
            raise


def _link_and_commit(records_dir, record, written, outcome, today, repo, notes) -> ReviewResult:
    old_record, new_record = supersede(records_dir, record.id, written.id)
    evidence_name = written.evidence[0].name
    sha = new_record.front.evidence[0].sha256
    lines = history_lines(outcome, evidence_name, sha)
    old_title = f"{today.isoformat()}: revise, superseded by {written.id:04d} ({'; '.join(outcome.reasons)})"
    new_title = f"{today.isoformat()}: written by the review of {record.id:04d} ({'; '.join(outcome.reasons)})"
    save_body(old_record, append_review_entry(old_record.body, old_title, lines))
    save_body(new_record, append_review_entry(new_record.body, new_title, lines))
    sha_commit = None
    if repo is not None:
        message = f"review {record.id:04d}: revise, superseded by {written.id:04d}: {record.front.title}"
        sha_commit = commit_paths(repo, [*written.evidence, written.record, record.path], message)
    return ReviewResult(
        outcome=outcome,
        record=record.path,
        evidence=written.evidence[0],
        new_record=written.record,
        commit=sha_commit,
        notes=notes,
    )


def save_body(record: DecisionRecord, body: str) -> None:
    """Rewrite a record with the same front matter and a new body."""
    replace_file_atomically(record.path, compose(record.front, body))
