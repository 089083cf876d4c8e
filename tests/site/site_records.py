"""The site tests' records: a real git repository of four records (one with a hostile title) and its constants; and a
crowded tier radar."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path

from git import Repo

from advisor.knowledge.loader import load_knowledge_base
from advisor.profile import Needs, Profile
from advisor.recommendation.engine import recommend
from advisor.records.decision import write_decision
from advisor.records.store import supersede
from advisor.site.radar import radar_svg
from probes.models import Evidence

REPO_ROOT = Path(__file__).resolve().parents[2]
CPU_SUITE = REPO_ROOT / "tests" / "fixtures" / "cpu-suite.json"
CONFIG = REPO_ROOT / "mkdocs.yml"
TODAY = dt.date(2027, 6, 1)
HOSTILE_TITLE = '<script>window.__advisorPwned = 1</script> INT8 & "quoted" </title><b>bold</b>'
OLD_INDENT_RECORD = 1
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
                   needs=Needs(dynamic_shapes=True, quantization=quantization, long_context=True))


def make_records(root: Path) -> RecordsFixture:
    """Four records written by `write_decision` and committed: 0001 superseded by 0004, 0003 hostile, 0001's nested
    reasons indented by two spaces as records from before the template's four were (OLD_INDENT_RECORD)."""
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
                                 deciders=deciders)
        titles[written.id], tier1[written.id] = written.title, written.tier1
    old, new = supersede(records_dir, 1, 4)
    old.path.write_text(re.sub(r"(?m)^    - ", "  - ", old.path.read_text(encoding="utf-8")), encoding="utf-8")
    repo.git.add(str(old.path), str(new.path))
    repo.git.commit("-m", "records: 0004 supersedes 0001")
    return RecordsFixture(root=root, records_dir=records_dir, titles=titles, tier1=tier1)


def crowded_radar() -> tuple[str, list[str]]:
    """A radar of every knowledge-base option, a quarter in each ring, and one hand-edited option the knowledge base
    does not know (with markup in its name); and those options."""
    candidates = load_knowledge_base().candidates
    ids = sorted(candidate.id for candidate in candidates)
    options = [*ids, "<b>x</b>"]
    rings = [("Tier 1", options[0::4]), ("Tier 2", options[1::4]), ("Tier 3", options[2::4]), ("Rejected", options[3::4])]
    layers = list(dict.fromkeys(candidate.layer.value for candidate in candidates))
    return radar_svg(rings, {candidate.id: candidate.layer.value for candidate in candidates}, layers), options
