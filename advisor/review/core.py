"""`review_decision`: the record, its old evidence and a fresh run in; keep or revise out (pure: no I/O)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from advisor.comparison.compare import compare_evidence
from advisor.comparison.models import CaseComparison
from advisor.knowledge.audit import ClaimFinding
from advisor.profile import Profile
from advisor.recommendation.facts import evidence_facts
from advisor.recommendation.models import Recommendation
from advisor.recommendation.switches import condition_holds, observed_values
from advisor.records.decision import environment_summary, tier1_options
from advisor.records.models import DecisionRecord
from advisor.review.models import Capability, CaseDelta, ConditionCheck, ReviewOutcome, UpgradeCost, VersionChange
from probes.environment.models import Environment
from probes.models import Evidence

IMPROVED = ("FASTER", "FIXED")
REGRESSED = ("SLOWER", "NEWLY-FAILING")
# A numeric error at most this share of the old one counts as "more accurate".
ACCURACY_GAIN = 0.5


def review_decision(
    record: DecisionRecord,
    old_evidence: Evidence | None,
    new_evidence: Evidence,
    old_recommendation: Recommendation,
    new_recommendation: Recommendation,
    today: dt.date,
    libraries_before: Iterable[str] | None = None,
    libraries_after: Iterable[str] = (),
    claims: Iterable[ClaimFinding] = (),
) -> ReviewOutcome:
    """Keep when no switch condition fired and tier 1 is unchanged; revise otherwise; with the three answers."""
    profile = new_recommendation.profile
    conditions = check_conditions(old_recommendation, profile, old_evidence, new_evidence)
    tier1_before = list(record.front.tier1) or tier1_options(old_recommendation)
    tier1_after = tier1_options(new_recommendation)
    reasons = [
        f"switch condition {condition.id} fired: {condition.description}" for condition in conditions if condition.fired
    ]
    ended = maintenance_ended(old_recommendation, today)
    if ended is not None:
        reasons.append(ended)
    if tier1_after != tier1_before:
        reasons.append(
            f"tier 1 changes from {', '.join(tier1_before) or 'nothing'} to {', '.join(tier1_after) or 'nothing'}"
        )
    comparison = compare_evidence(old_evidence, new_evidence) if old_evidence is not None else None
    matched = comparison.cases if comparison is not None else []
    improved = [delta for case in matched if (delta := case_delta(case, improved=True)) is not None]
    regressed = [delta for case in matched if (delta := case_delta(case, improved=False)) is not None]
    old_environment = old_evidence.environment if old_evidence is not None else None
    return ReviewOutcome(
        record_id=record.id,
        date=today,
        verdict="revise" if reasons else "keep",
        reasons=reasons or ["no switch condition fired and tier 1 is unchanged"],
        environment_changes=environment_changes(record, new_evidence.environment),
        controls=comparison.controls if comparison is not None else [],
        improved=improved,
        regressed=regressed,
        capabilities=new_capabilities(old_environment, old_evidence, new_evidence, libraries_before, libraries_after),
        cost=upgrade_cost(new_evidence, len(comparison.unmatched_a) if comparison is not None else 0),
        conditions=conditions,
        tier1_before=tier1_before,
        tier1_after=tier1_after,
        knowledge=list(claims),
        probes=comparison.probes if comparison is not None else [],
    )


def maintenance_ended(recommendation: Recommendation, today: dt.date) -> str | None:
    """Where a stack the decision chose pins a release that has left maintenance by today, why the record is revised
    (the review date was set to that day for this); None otherwise."""
    ending = recommendation.maintenance_end()
    if ending is None or ending[0] > today:
        return None
    day, stack = ending
    return (
        f"{stack} pins a release that left maintenance on {day.isoformat()}: move to a maintained release "
        "(its page's successor) and re-run the recommendation before keeping it"
    )


def check_conditions(
    old_recommendation: Recommendation, profile: Profile, old_evidence: Evidence | None, new_evidence: Evidence
) -> list[ConditionCheck]:
    """Every switch condition of the old decision, against the old and the new evidence and the profile."""
    before = observed_values(profile, evidence_facts([old_evidence] if old_evidence else [], profile.hardware))
    from advisor.knowledge.loader import load_knowledge_base

    # Knowledge-base switches are checked against today's claims; the record's own claims were what it chose on.
    after = observed_values(profile, evidence_facts([new_evidence], profile.hardware), load_knowledge_base())
    return [
        ConditionCheck(
            id=condition.id,
            description=condition.description,
            before=condition_holds(condition, before),
            after=condition_holds(condition, after),
        )
        for condition in old_recommendation.switch_conditions
    ]


def case_delta(case: CaseComparison, improved: bool) -> CaseDelta | None:
    """The case as an improvement (or a regression), or None when it is neither."""
    ratio = case.timing.ratio if case.timing is not None else None
    numeric = case.numeric
    if improved and case.verdict in IMPROVED:
        return CaseDelta(case_id=case.key.case_id, verdict=case.verdict, ratio=ratio, detail=case.reason)
    if not improved and case.verdict in REGRESSED:
        return CaseDelta(case_id=case.key.case_id, verdict=case.verdict, ratio=ratio, detail=case.reason)
    if numeric is None:
        return None
    if not improved and numeric.accuracy_regression:
        return CaseDelta(
            case_id=case.key.case_id, verdict=case.verdict, ratio=ratio, detail="newly fails its tolerance"
        )
    old_error, new_error = numeric.max_rel_a, numeric.max_rel_b
    if improved and old_error and new_error is not None and new_error <= ACCURACY_GAIN * old_error:
        detail = f"max relative error {old_error:.2e} -> {new_error:.2e}"
        return CaseDelta(case_id=case.key.case_id, verdict=case.verdict, ratio=ratio, detail=detail)
    return None


def environment_changes(record: DecisionRecord, environment: Environment) -> list[VersionChange]:
    """The fields of the record's environment summary that differ on this machine."""
    before = record.front.environment.model_dump()
    after = environment_summary(environment).model_dump()
    return [
        VersionChange(name=name, before=before[name], after=after[name])
        for name in before
        if before[name] != after[name]
    ]


def _capabilities_of(environment: Environment | None, evidence: Evidence | None) -> set[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    if evidence is not None:
        found |= {("dtype", case.key.dtype) for case in evidence.cases if case.status == "ok"}
    if environment is None:
        return found
    torch = environment.torch
    if torch is not None:
        found |= {("sdpa-backend", name) for name in torch.sdpa_backends}
        found |= {("quantized-engine", name) for name in torch.quantized_engines}
    if environment.triton is not None:
        found.add(("compile", "torch.compile with Triton"))
        if environment.triton.gpu_backend_active:
            found.add(("compile", f"Triton GPU backend {environment.triton.backend or ''}".strip()))
    for peak in environment.peaks:
        found |= {("dtype", str(dtype)) for dtype, value in peak.tflops.items() if value}
    found |= {("isa", name) for name, value in environment.cpu.isa.model_dump().items() if value is True}
    return found


def new_capabilities(
    old_environment: Environment | None,
    old_evidence: Evidence | None,
    new_evidence: Evidence,
    libraries_before: Iterable[str] | None,
    libraries_after: Iterable[str],
) -> list[Capability]:
    """Backends, engines, dtypes, compile features and ISA features present now and not before.

    Libraries are compared only when the old list is known (None: every importable one is listed).
    """
    before = _capabilities_of(old_environment, old_evidence)
    after = _capabilities_of(new_evidence.environment, new_evidence)
    found = [Capability(kind=kind, name=name) for kind, name in sorted(after - before)]  # type: ignore[arg-type]
    known = set(libraries_before or ())
    found += [Capability(kind="library", name=name) for name in sorted(set(libraries_after) - known)]
    return found


def upgrade_cost(evidence: Evidence, unmatched_old: int) -> UpgradeCost:
    """Cases re-run, failures and skips, wall time and incidents of the fresh run."""
    incidents = [f"{run.probe}: {incident}" for run in evidence.probe_runs for incident in run.incidents]
    return UpgradeCost(
        cases=len(evidence.cases),
        failed=sum(case.status == "failed" for case in evidence.cases),
        skipped=sum(case.status == "skipped" for case in evidence.cases),
        unmatched_old=unmatched_old,
        wall_s=max((evidence.finished_at - evidence.started_at).total_seconds(), 0.0),
        incidents=incidents,
    )
