"""`write_decision`: a recommendation and its evidence in, a numbered record (committed when in git) out."""

from __future__ import annotations

import configparser
import datetime as dt
import hashlib
from collections.abc import Sequence
from contextlib import ExitStack, closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from advisor.interrupts import stop_deferred, stopped
from advisor.knowledge.audit import knowledge_snapshot
from advisor.knowledge.loader import load_knowledge_base
from advisor.profile import Profile
from advisor.recommendation.models import Recommendation
from advisor.records.git import commit_paths, ids_in_history, init_repository
from advisor.records.models import EnvironmentSummary, EvidenceRef, RecordFrontMatter, early_review_date, review_date
from advisor.records.paths import open_repository
from advisor.records.render import render_record
from advisor.records.slug import slugify
from advisor.records.store import next_id, record_file_names, records_lock, write_files_atomically
from probes.environment.family import environment_family
from probes.environment.models import Environment
from probes.models import Evidence

if TYPE_CHECKING:
    from git import Repo

MAX_TITLE_LENGTH = 500


@dataclass(frozen=True)
class WrittenDecision:
    """What `write_decision` wrote and committed."""

    id: int
    title: str
    record: Path
    evidence: list[Path]
    tier1: list[str]
    commit: str | None = None
    repository: Path | None = None
    notes: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, object]:
        """The `--json` summary of assess."""
        return {
            "id": self.id, "title": self.title, "record": str(self.record),
            "evidence": [str(path) for path in self.evidence], "commit": self.commit,
            "repository": str(self.repository) if self.repository else None, "tier1": self.tier1,
            "notes": self.notes,
        }


def clean_text(text: str, limit: int = MAX_TITLE_LENGTH) -> str:
    """One line, no control characters, at most `limit` characters."""
    printable = "".join(char if char.isprintable() else " " for char in text)
    return " ".join(printable.split())[:limit].strip()


PROFILE_NOT_RECORDED = {"title"}  # the record's own title carries it
OPTIONAL_PROFILE_FIELDS = ("model", "serving", "device", "parameters_b", "task", "training")  # written only when the profile sets them


def unset(profile: Profile) -> set[str]:
    """The optional profile fields the profile leaves empty: the front matter leaves them out."""
    return {name for name in OPTIONAL_PROFILE_FIELDS if getattr(profile, name) is None}


# The needs a record always states; the others it states only where the profile sets them off their default (a
# cross-platform job's families), since reading the front matter back restores the defaults
STATED_NEEDS = ("dynamic_shapes", "quantization", "quantization_method", "long_context", "devices")


def recorded_profile(profile: Profile) -> dict[str, object]:
    """The profile as the front matter records it: no title (the record's own), no empty optional field, and no need
    left at its default beyond STATED_NEEDS (the record's line budget, issue 28's 150 lines)."""
    recorded = profile.model_dump(mode="json", exclude=PROFILE_NOT_RECORDED | unset(profile))
    defaults = type(profile.needs)().model_dump(mode="json")
    needs = recorded.get("needs")
    if isinstance(needs, dict):
        recorded["needs"] = {
            key: value for key, value in needs.items() if key in STATED_NEEDS or value != defaults.get(key)
        }
    return recorded


def environment_summary(environment: Environment | None) -> EnvironmentSummary:
    """Hardware and stack versions of the machine the evidence came from."""
    if environment is None:
        return EnvironmentSummary()
    gpus = environment.accelerators.gpus
    npu = environment.npu
    device = gpus[0].name if gpus else (npu.devices[0] if npu and npu.devices else environment.cpu.model_name)
    torch = environment.torch
    return EnvironmentSummary(
        hardware=environment_family(environment),
        device=device,
        driver=environment.accelerators.nvidia_driver,
        torch=torch.version if torch else None,
        cuda=torch.cuda_runtime if torch else None,
        cudnn=torch.cudnn_version if torch else None,
        cann=npu.cann_version if npu else None,
        triton=environment.triton.version if environment.triton else None,
    )


def tier_options(recommendation: Recommendation, number: int) -> list[str]:
    """The option ids chosen in tier `number`, in concern order, without repeats."""
    return list(dict.fromkeys(choice.option for choice in recommendation.tier(number).choices))


def tier1_options(recommendation: Recommendation) -> list[str]:
    """The option ids of tier 1, in concern order, then the engines a chosen training stack generates its RL rollouts
    with (part of the stack, though no concern chooses them), without repeats."""
    rollouts = [engine for stack in recommendation.stacks for engine in stack.rollout_engines]
    return list(dict.fromkeys([*tier_options(recommendation, 1), *rollouts]))


def rejected_options(recommendation: Recommendation) -> list[str]:
    """The option ids rejected outright, without repeats."""
    return list(dict.fromkeys(rejection.option for rejection in recommendation.rejected))


def review_by_for(decided: dt.date, recommendation: Recommendation) -> dt.date:
    """A year after the decision, six months after it where a chosen stack is a preview or superseded
    (Recommendation.early_review), or sooner where a chosen stack's release leaves maintenance before then (never
    before the decision itself: a release already out of maintenance is reviewed at once)."""
    due = early_review_date(decided) if recommendation.early_review() is not None else review_date(decided)
    ending = recommendation.maintenance_end()
    return due if ending is None else max(decided, min(due, ending[0]))


def build_front_matter(
    number: int, title: str, recommendation: Recommendation, evidence_refs: list[EvidenceRef],
    environment: Environment | None, deciders: Sequence[str], date: dt.date,
) -> RecordFrontMatter:
    """The front matter of a new record (status proposed, version 1)."""
    return RecordFrontMatter(
        id=number,
        title=title,
        date=date,
        review_by=review_by_for(date, recommendation),
        decision_makers=[clean_text(name, 200) for name in deciders if clean_text(name, 200)],
        profile=recorded_profile(recommendation.profile),
        environment=environment_summary(environment),
        evidence=evidence_refs,
        tier1=tier1_options(recommendation),
        tier2=tier_options(recommendation, 2),
        tier3=tier_options(recommendation, 3),
        rejected=rejected_options(recommendation),
        confidence=round(recommendation.confidence, 2),
        knowledge=knowledge_snapshot(load_knowledge_base(), named_options(recommendation)),
    )


def named_options(recommendation: Recommendation) -> list[str]:
    """Every option id the record names: chosen in a tier, named by a tier-1 setting (DeepEP as the expert all-to-all,
    Transformer Engine as the layers), or rejected; the knowledge snapshot keeps those the knowledge base knows."""
    chosen = [option for number in (1, 2, 3) for option in tier_options(recommendation, number)]
    in_settings = [value for choice in recommendation.tier(1).choices for value in choice.settings.values()
                   if value and " " not in value]
    return list(dict.fromkeys(chosen + in_settings + rejected_options(recommendation)))


def committer(records_dir: Path, repo: Repo | None) -> list[str]:
    """The git user.name of the repository the records go to (looked up read-only with --no-commit), the record's
    decision-maker where the settings name none; empty outside a repository or without a name."""
    if repo is None:
        with open_repository(records_dir) as found:
            return committer(records_dir, found) if found is not None else []
    try:
        name = repo.config_reader().get_value("user", "name", "")
    except (configparser.Error, OSError):  # an unreadable git config leaves the field empty, as before
        return []
    return [str(name)] if str(name).strip() else []


def write_decision(
    recommendation: Recommendation,
    evidence: Sequence[Evidence],
    *,
    records_dir: Path,
    title: str,
    deciders: Sequence[str] = (),
    date: dt.date | None = None,
    environment: Environment | None = None,
    commit: bool = True,
    init_git: bool = False,
    attachments: Sequence[tuple[str, str]] = (),
) -> WrittenDecision:
    """Number, render and write the record and its evidence atomically; commit exactly them when in git.
    `attachments` (name, text) are written beside the record as '<record stem>-<name>' (the engine configs of a
    serving estimate) and committed with it.

    Runs at the same time get different numbers; a failure leaves no record, evidence or commit. A stop signal
    (Ctrl-C, SIGTERM) is held while the files are written and committed: one that came before the commit began
    takes the files back; one that came during it lets it finish (Stopped, `completed`); never half a record.
    """
    title = clean_text(title) or "Operator stack decision"
    date = date or dt.date.today()
    environment = environment or (evidence[0].environment if evidence else None)
    notes: list[str] = []
    with ExitStack() as repositories:  # the repository found or made is closed with the block
        repo = repositories.enter_context(open_repository(records_dir)) if commit else None
        if commit and repo is None:
            if init_git:
                repo = repositories.enter_context(closing(init_repository(records_dir)))
                notes.append(f"initialised a git repository in {records_dir}")
            else:
                notes.append(f"{records_dir} is not in a git repository: not committed (use --init-git or `advisor records init`)")
        with records_lock(records_dir), stop_deferred() as stop:
            number = next_id(records_dir, ids_in_history(repo, records_dir) if repo is not None else ())
            record_name, evidence_names = record_file_names(number, slugify(title), len(evidence))
            evidence_texts = [item.to_text() for item in evidence]
            refs = [EvidenceRef(file=name, sha256=hashlib.sha256(text.encode("utf-8")).hexdigest())
                    for name, text in zip(evidence_names, evidence_texts)]
            deciders = list(deciders) or committer(records_dir, repo)
            front = build_front_matter(number, title, recommendation, refs, environment, deciders, date)
            record_path = records_dir / record_name
            prefix = record_path.stem + "-"
            evidence_paths = [records_dir / name for name in evidence_names]
            evidence_paths += [records_dir / f"{prefix}{name}" for name, _ in attachments]
            evidence_texts += [text for _, text in attachments]
            # Evidence first, the record last: a record on disk always has its evidence beside it.
            files = [*zip(evidence_paths, evidence_texts), (record_path, render_record(front, recommendation, evidence, prefix))]
            write_files_atomically(files)
            sha = None
            try:
                if stop.requested:  # a stop came while writing: nothing is committed yet, so take the files back
                    raise KeyboardInterrupt
                if repo is not None:
                    sha = commit_paths(repo, [*evidence_paths, record_path], f"decision {number:04d}: {title} (v1)")
            except BaseException:
                for path in [*evidence_paths, record_path]:
                    path.unlink(missing_ok=True)
                raise
            if stop.requested:  # it came during the commit, which finished: the record stands, and says so
                raise stopped(f"decision {number:04d} was being committed when the signal came, and is complete: "
                              f"{record_path}", completed=True)
        return WrittenDecision(
            id=number, title=title, record=record_path, evidence=evidence_paths, tier1=front.tier1, commit=sha,
            repository=Path(repo.working_tree_dir) if repo is not None and repo.working_tree_dir else None, notes=notes,
        )

