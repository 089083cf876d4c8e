"""Expert scenarios (tests/scenarios/*.yaml): each profile's recommendation holds what an architect expects.

The format is described in README.md beside this file; every expectation names its source.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from advisor.knowledge.claims import is_url, method_anchor
from advisor.knowledge.loader import load_knowledge_base
from advisor.knowledge.method import method_anchors
from advisor.profile import parse_profile
from advisor.recommendation.engine import recommend
from advisor.recommendation.models import Recommendation
from probes.models import Evidence

HERE = Path(__file__).parent
SCENARIOS = sorted(HERE.glob("*.yaml"))
EVIDENCE = {"cpu-suite": HERE.parent / "fixtures" / "cpu-suite.json"}
FAMILIES_COVERED_TWICE = 2


def _scenario(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def answers() -> dict[str, tuple[dict, Recommendation]]:
    knowledge = load_knowledge_base()
    loaded = {name: Evidence.load(path) for name, path in EVIDENCE.items()}
    results = {}
    for path in SCENARIOS:
        scenario = _scenario(path)
        profile = parse_profile(yaml.safe_dump(scenario["profile"]), path.name)
        evidence = [loaded[name] for name in scenario.get("evidence", [])]
        results[path.stem] = (scenario["expect"], recommend(profile, evidence, knowledge))
    return results


def _accepts(expected: str | list[str], option: str | None) -> bool:
    return option in (expected if isinstance(expected, list) else [expected])


def test_the_scenarios_cover_every_family_workload_and_skill():
    profiles = [_scenario(path)["profile"] for path in SCENARIOS]
    assert len(profiles) >= 40
    families = [p["hardware"] for p in profiles]
    assert all(families.count(f) >= FAMILIES_COVERED_TWICE for f in load_knowledge_base().families()), families
    assert {p["workload"] for p in profiles} == {"training", "inference", "both"}
    assert {p["team_skill"] for p in profiles} == {"framework", "kernel", "hpc"}
    assert any(p.get("needs", {}).get("other_hardware") for p in profiles)


@pytest.mark.parametrize("path", SCENARIOS, ids=[path.stem for path in SCENARIOS])
def test_every_expectation_names_a_real_source(path):
    scenario = _scenario(path)
    sources = scenario["sources"]
    anchors = set(method_anchors())
    for key, source in sources.items():
        assert is_url(source) or method_anchor(source) in anchors, (key, source)
    for key, value in scenario["expect"].items():
        concerns = value.keys() if isinstance(value, dict) and key in ("tier1", "tier2", "tier3") else ()
        named = key in sources or all(c in sources or f"{key}.{c}" in sources for c in concerns) and concerns
        assert named, f"{path.name}: expectation {key!r} has no source"


@pytest.mark.parametrize("name", [path.stem for path in SCENARIOS])
def test_scenario(name, answers):
    expect, answer = answers[name]
    tiers = {tier.tier: tier for tier in answer.tiers}
    tier1 = tiers[1].options()
    for number in (1, 2, 3):
        chosen = tiers[number].options()
        for concern, expected in (expect.get(f"tier{number}") or {}).items():
            assert _accepts(expected, chosen.get(concern)), (number, concern, chosen.get(concern), expected)
        for option in expect.get(f"not_in_tier{number}", []):
            assert option not in chosen.values(), (number, option)
    for concern, settings in (expect.get("tier1_settings") or {}).items():
        choice = next(choice for choice in tiers[1].choices if choice.concern == concern)
        assert {key: choice.settings.get(key) for key in settings} == settings, concern
    if "tier1_concerns" in expect:
        decided = {choice.concern for choice in tiers[1].choices} | {gap.concern for gap in tiers[1].gaps}
        assert decided == set(expect["tier1_concerns"])
    for group in expect.get("same_choice", []):
        assert len({tier1.get(concern) for concern in group}) == 1, (group, tier1)
    rejected = {rejection.option for rejection in answer.rejected}
    assert set(expect.get("rejected", [])) <= rejected, rejected
    assert not set(expect.get("not_rejected", [])) & rejected, rejected
    assert not set(expect.get("not_rejected", [])) & {o for o, c in _chosen_and_rejected(answer)}
    switch_text = " ".join(f"{s.id} {s.metric} {s.description}" for s in answer.switch_conditions)
    for option in expect.get("not_in_switches", []):
        assert option not in switch_text, option
    for option in expect.get("in_switches", []):
        assert option in switch_text, option
    for concern, refs in (expect.get("reasons") or {}).items():
        choice = next(choice for choice in tiers[1].choices if choice.concern == concern)
        cited = {cite.ref for reason in choice.rationale for cite in reason.cites}
        assert set(refs) <= cited, (concern, cited)
    if "primary_tier" in expect:
        assert [tier.tier for tier in answer.tiers if tier.primary] == [expect["primary_tier"]]
    if "tier2_fits_team" in expect:
        assert tiers[2].fits_team is expect["tier2_fits_team"]
    if "max_confidence" in expect:
        assert answer.confidence <= expect["max_confidence"]
    if "max_tier1_gaps" in expect:
        assert len(tiers[1].gaps) <= expect["max_tier1_gaps"]
    tier1_text = _tier1_text(answer).lower()
    for name in expect.get("tier1_names", []):
        assert name.lower() in tier1_text, (name, tier1_text[:2000])
    record_text = _record_text(answer).lower()
    for name in expect.get("not_in_record", []):
        assert name.lower() not in record_text, name
    if "device" in expect:
        assert answer.device == expect["device"]
    if "min_considered" in expect:
        others = [option for option in answer.stacks_considered if not option.chosen]
        assert len(others) >= expect["min_considered"], [option.stack for option in answer.stacks_considered]
    considered = {option.stack for option in answer.stacks_considered}
    for stack in expect.get("considered", []):
        assert stack in considered, (stack, sorted(considered))


def _tier1_text(answer: Recommendation) -> str:
    """What tier 1 names: the chosen options, their settings and reasons, and the chosen stacks' parts and the versions
    they are validated with (the record's "validated with: ..." line)."""
    parts = [answer.verdict or ""]
    for choice in answer.tier(1).choices:
        parts += [choice.option, *choice.settings.values(), *(reason.text for reason in choice.rationale)]
    for stack in answer.stacks:
        parts += [stack.name, stack.summary, *(f"{part.name} {part.setting or ''}" for part in stack.parts)]
        parts += [f"{package} {version}" for package, version in stack.validated_with.items()]
    return " ".join(parts)


def _record_text(answer: Recommendation) -> str:
    """Every line of text the recommendation carries: choices, reasons, gaps, notes, rejections, switches."""
    parts = [answer.verdict or "", *answer.confidence_notes]
    for tier in answer.tiers:
        parts += [note.text for note in tier.notes]
        for choice in tier.choices:
            parts += [*choice.settings.values(), *(reason.text for reason in choice.rationale)]
        parts += [reason.text for gap in tier.gaps for reason in gap.rationale]
    parts += [reason.text for rejection in answer.rejected for reason in rejection.reasons]
    parts += [condition.description for condition in answer.switch_conditions]
    parts += [risk.text for stack in answer.stacks for risk in stack.risks]
    return " ".join(parts)


def _chosen_and_rejected(answer: Recommendation) -> set[tuple[str, str]]:
    chosen = {(c.option, c.concern) for tier in answer.tiers for c in tier.choices}
    return {(r.option, concern) for r in answer.rejected for concern in r.concerns if (r.option, concern) in chosen}


def test_no_option_is_chosen_and_rejected_for_the_same_concern(answers):
    for name, (_, answer) in answers.items():
        assert _chosen_and_rejected(answer) == set(), name
