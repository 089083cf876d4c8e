"""Golden scenarios from the method: each YAML file holds a profile, optional evidence and the expected answer."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from advisor.profile import parse_profile
from advisor.recommendation.engine import recommend
from advisor.recommendation.models import Recommendation

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.yaml"))


def _scenario(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def answers(cpu_suite, knowledge) -> dict[str, tuple[dict, Recommendation]]:
    evidence_sets = {"cpu-suite": [cpu_suite]}
    results = {}
    for path in SCENARIOS:
        scenario = _scenario(path)
        profile = parse_profile(yaml.safe_dump(scenario["profile"]), path.name)
        evidence = [item for name in scenario.get("evidence", []) for item in evidence_sets[name]]
        results[path.stem] = (scenario["expect"], recommend(profile, evidence, knowledge))
    return results


def test_the_scenarios_cover_the_method():
    profiles = [_scenario(path)["profile"] for path in SCENARIOS]
    assert len(profiles) >= 10
    assert {p["hardware"] for p in profiles} >= {
        "nvidia-gpu", "ascend-npu", "cambricon-mlu", "hygon-dcu", "iluvatar-gpu", "x86-cpu", "arm-cpu",
    }  # fmt: skip
    assert {p["workload"] for p in profiles} >= {"training", "inference", "both"}
    assert {p["team_skill"] for p in profiles} == {"framework", "kernel", "hpc"}
    needs = [p.get("needs", {}) for p in profiles]
    assert any(p["model_type"] == "moe" and p.get("needs", {}).get("devices", 1) > 1 for p in profiles)
    assert any(n.get("long_context") for n in needs) and any(n.get("dynamic_shapes") for n in needs)
    assert {n.get("quantization_method") for n in needs if n.get("quantization") == "int8"} == {"ptq", "qat"}
    assert any(n.get("cross_platform") for n in needs)


@pytest.mark.parametrize("name", [path.stem for path in SCENARIOS])
def test_scenario(name, answers):
    expect, answer = answers[name]
    tier1 = answer.tier(1)
    assert tier1.options() == expect["tier1"]
    assert sorted(gap.concern for gap in tier1.gaps) == sorted(expect["tier1_gaps"])
    for concern, settings in expect.get("tier1_settings", {}).items():
        chosen = next(choice for choice in tier1.choices if choice.concern == concern)
        assert {key: chosen.settings.get(key) for key in settings} == settings, concern
    rejected = {rejection.option: set(rejection.concerns) for rejection in answer.rejected}
    for option, concerns in (expect.get("rejected") or {}).items():
        assert option in rejected, f"{option} not rejected"
        assert set(concerns) <= rejected[option], option
    for option in expect.get("not_rejected", []):
        assert option not in rejected
    assert sorted(skipped.concern for skipped in answer.skipped_concerns) == sorted(expect.get("skipped", []))
    assert [tier.tier for tier in answer.tiers if tier.primary] == [expect["primary_tier"]]
    if "tier2" in expect:
        assert {k: v for k, v in answer.tier(2).options().items() if k in expect["tier2"]} == expect["tier2"]
        assert bool(answer.tier(2).choices) == bool(expect["tier2"])
    if "tier2_fits_team" in expect:
        assert answer.tier(2).fits_team is expect["tier2_fits_team"]
    if "tier3" in expect:
        assert answer.tier(3).options() == expect["tier3"]
    switch_ids = [condition.id for condition in answer.switch_conditions]
    assert set(expect.get("switches", [])) <= set(switch_ids), switch_ids
    assert not set(expect.get("not_switches", [])) & set(switch_ids)
    if "proxy_evidence" in expect:
        assert answer.proxy_evidence is expect["proxy_evidence"]
    if "max_confidence" in expect:
        assert answer.confidence <= expect["max_confidence"]
