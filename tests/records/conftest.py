"""Fixtures of the record tests: fixed evidence, a recommendation for it, and real temporary git repositories."""

from __future__ import annotations

from pathlib import Path

import pytest
from git import Repo

from advisor.profile import Needs, Profile
from advisor.recommendation.engine import recommend
from advisor.recommendation.models import Recommendation
from probes.models import Evidence

# The CPU suite measured on the project's 2-core x86 machine, shared with the other test folders.
CPU_SUITE = Path(__file__).resolve().parents[1] / "fixtures" / "cpu-suite.json"


@pytest.fixture(scope="session")
def suite() -> Evidence:
    return Evidence.load(CPU_SUITE)


@pytest.fixture(scope="session")
def fixed_profile() -> Profile:
    return Profile(model_type="dense-transformer", hardware="x86-cpu", workload="inference", team_skill="framework",
                   needs=Needs(dynamic_shapes=True, quantization="int8"))


@pytest.fixture(scope="session")
def recommendation(fixed_profile: Profile, suite: Evidence) -> Recommendation:
    return recommend(fixed_profile, [suite])


@pytest.fixture
def git_repo(empty_repo: Repo) -> Repo:
    """A real repository with one commit (README.md, notes.txt) and an identity configured."""
    repo = empty_repo
    root = Path(repo.working_tree_dir)
    (root / "README.md").write_text("project\n")
    (root / "notes.txt").write_text("first\n")
    repo.git.add("README.md", "notes.txt")
    repo.git.commit("-m", "initial")
    return repo
