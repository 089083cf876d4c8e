"""The documented CI jobs for the yearly review (scripts/ci/): valid against GitHub's and GitLab's own
schemas (vendored by check-jsonschema, so no network), and they run the gate and the review as documented."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

EXAMPLES = Path(__file__).resolve().parents[2] / "scripts" / "ci"
GITHUB, GITLAB = EXAMPLES / "advisor-review.github.yml", EXAMPLES / "advisor-review.gitlab-ci.yml"


@pytest.mark.parametrize(("path", "schema"), [(GITHUB, "vendor.github-workflows"), (GITLAB, "vendor.gitlab-ci")])
def test_the_example_is_valid_for_its_ci(path: Path, schema: str):
    checker = Path(sys.executable).with_name("check-jsonschema")
    result = subprocess.run(
        [str(checker), "--builtin-schema", schema, str(path)], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_github_runs_the_gate_on_any_runner_and_the_review_on_the_target_when_it_fails():
    workflow = yaml.safe_load(GITHUB.read_text())
    assert workflow[True]["schedule"][0]["cron"]  # YAML 1.1 reads the key `on` as True
    gate, review = workflow["jobs"]["due-check"], workflow["jobs"]["review"]
    assert any(step.get("run") == "advisor review --due --check" for step in gate["steps"])
    assert review["needs"] == "due-check" and review["if"] == "failure()" and "self-hosted" in review["runs-on"]
    assert any("advisor review --due --budget" in step.get("run", "") for step in review["steps"])


def test_gitlab_runs_the_gate_on_schedule_and_the_review_on_a_tagged_runner():
    pipeline = yaml.safe_load(GITLAB.read_text())
    gate, review = pipeline["advisor-due-check"], pipeline["advisor-review"]
    assert "advisor review --due --check" in " ".join(gate["script"])
    assert "when" not in review and review["rules"][0]["when"] == "on_failure"  # GitLab refuses `when` beside `rules`
    assert review["tags"] and review["stage"] == "review"
    assert any(line.startswith("advisor review --due --budget") for line in review["script"])
