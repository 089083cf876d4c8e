"""The site tests' records: a real git repository of four records (one with a hostile title) and its constants."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from git import Repo

from advisor.profile import Needs, Profile
from advisor.recommendation.engine import recommend
from advisor.records.decision import write_decision
from advisor.records.store import supersede
from probes.models import Evidence

REPO_ROOT = Path(__file__).resolve().parents[2]
CPU_SUITE = REPO_ROOT / "tests" / "fixtures" / "cpu-suite.json"
CONFIG = REPO_ROOT / "mkdocs.yml"
TODAY = dt.date(2027, 6, 1)
HOSTILE_TITLE = '<script>window.__advisorPwned = 1</script> INT8 & "quoted" </title><b>bold</b>'
HOSTILE_DECIDER = '<img src=x onerror="window.__advisorPwned = 2">'


@dataclass(frozen=True)
class RecordsFixture:
    """A records folder in a real git repository, and what the tests expect of it."""

    root: Path
    records_dir: Path
    titles: dict[int, str]
    tier1: dict[int, list[str]]


def _profile(hardware: str, quantization: str = "none") -> Profile:
    return Profile(model_type="dense-transformer", hardware=hardware, workload="inference", team_skill="framework",
                   needs=Needs(dynamic_shapes=True, quantization=quantization, long_context=True))  # fmt: skip


def make_records(root: Path) -> RecordsFixture:
    """Four records written by `write_decision` and committed: 0001 superseded by 0004, 0003 hostile."""
    repo = Repo.init(root)
    with repo.config_writer() as config:
        config.set_value("user", "name", "Site Test")
        config.set_value("user", "email", "site@example.com")
    suite = Evidence.load(CPU_SUITE)
    records_dir = root / "records"
    plans = [
        ("x86 serving stack, first try", _profile("x86-cpu"), dt.date(2026, 1, 10), ["Ann"]),
        ("NVIDIA serving from CPU proxy evidence", _profile("nvidia-gpu"), dt.date(2026, 3, 2), ["Bo"]),
        (HOSTILE_TITLE, _profile("x86-cpu", "int8"), dt.date(2026, 5, 20), [HOSTILE_DECIDER]),
        ("x86 serving stack, revised", _profile("x86-cpu"), dt.date(2026, 9, 1), ["Ann", "Bo"]),
    ]
    titles, tier1 = {}, {}
    for title, profile, date, deciders in plans:
        written = write_decision(recommend(profile, [suite]), [suite], records_dir=records_dir, title=title, date=date,
                                 deciders=deciders)  # fmt: skip
        titles[written.id], tier1[written.id] = written.title, written.tier1
    old, new = supersede(records_dir, 1, 4)
    repo.git.add(str(old.path), str(new.path))
    repo.git.commit("-m", "records: 0004 supersedes 0001")
    return RecordsFixture(root=root, records_dir=records_dir, titles=titles, tier1=tier1)
