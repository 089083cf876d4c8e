"""The engine as a whole: consistent with the knowledge base, every line cited, deterministic, JSON round trip."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from recommendation_builders import attention_cases, dynamic_cases, evidence, gemm_cases, int8_cases, profile

from advisor.knowledge.claims import CONCERNS
from advisor.knowledge.loader import hardware_families
from advisor.recommendation.engine import recommend
from advisor.recommendation.facts import evidence_facts
from advisor.recommendation.models import Recommendation
from advisor.recommendation.selection import serves
from advisor.recommendation.switches import condition_holds, observed_values
from advisor.reference.tables import shipped_systems
from advisor.vocabulary import TEAM_SKILLS
from probes.models import Evidence

NEEDS = [
    {},
    {"dynamic_shapes": True, "quantization": "int8", "quantization_method": "ptq", "long_context": True},
    {"quantization": "int8", "quantization_method": "qat", "devices": 8, "cross_platform": True},
    {"quantization": "fp8", "dynamic_shapes": True, "devices": 2},
]
GRID = [
    profile(model_type=model, hardware=hardware, workload=workload, team_skill=skill, needs=needs)
    for hardware, workload, skill, (model, needs) in itertools.product(
        hardware_families(),
        ("training", "inference", "both"),
        TEAM_SKILLS,
        list(zip(("dense-transformer", "moe", "cnn", "multimodal"), NEEDS)),
    )
]


@pytest.fixture(scope="module")
def answers(cpu_suite, knowledge) -> list[Recommendation]:
    return [recommend(chosen, [cpu_suite], knowledge) for chosen in GRID]


def test_choices_only_name_candidates_the_knowledge_base_lists_for_the_target(answers, knowledge):
    stack_ids = {stack.id for stack in knowledge.stacks}
    for answer in answers:
        for tier in answer.tiers:
            for choice in tier.choices:
                if choice.part_of is not None:  # a part of the chosen stack the knowledge base has no candidate for
                    assert choice.part_of in stack_ids and tier.tier == 1
                    continue
                candidate = knowledge.get(choice.option)
                if any(cite.ref.partition(".")[0] in stack_ids for reason in choice.rationale for cite in reason.cites):
                    continue  # a part of a documented stack for this family: the stack lists it here
                if choice.settings.get("by") in (
                    "serving-engine",
                    "runtime",
                ):  # the engine or runtime carries it (its own kernels)
                    assert (
                        answer.profile.hardware in candidate.hardware.value and "deployment" in candidate.concerns.value
                    )
                    continue
                loads_here = answer.profile.hardware in knowledge.compatibility.output_families(choice.option)
                assert serves(candidate, answer.profile.hardware, choice.concern) or loads_here, (tier.tier, choice)


def test_every_line_is_cited_and_every_citation_resolves(answers, knowledge):
    case_ids = None
    for answer in answers:
        lines = [line for tier in answer.tiers for choice in tier.choices for line in choice.rationale]
        lines += [line for tier in answer.tiers for gap in tier.gaps for line in gap.rationale]
        lines += [line for tier in answer.tiers for line in tier.notes]
        lines += [reason for rejection in answer.rejected for reason in rejection.reasons]
        for line in lines:
            assert line.cites
            for cite in line.cites:
                if cite.kind == "knowledge":
                    claim = knowledge.claim_at(cite.ref)
                    assert claim is not None and cite.source == claim.source, cite.ref
                elif cite.kind == "profile":
                    assert cite.figure is not None
                elif cite.kind == "reference":  # reference.<system>.<figure>: a figure of the recommendation itself
                    _, system, name = cite.ref.split(".")
                    assert name in {figure.name for figure in answer.reference} and system in shipped_systems()
                    assert cite.source is not None and cite.source.startswith("measured by NVIDIA on ")
                else:
                    case_ids = case_ids or {case.key.case_id for case in Evidence.load(_suite_path()).cases}
                    assert cite.ref in case_ids and cite.figure


def _suite_path():
    from recommendation_builders import CPU_SUITE

    return CPU_SUITE


def test_tier1_choices_are_never_rejected_for_the_same_concern(answers):
    for answer in answers:
        chosen = {(choice.option, choice.concern) for choice in answer.tier(1).choices}
        rejected = {(rejection.option, concern) for rejection in answer.rejected for concern in rejection.concerns}
        assert not chosen & rejected


def test_each_concern_is_decided_once(answers):
    for answer in answers:
        tier1 = answer.tier(1)
        decided = [c.concern for c in tier1.choices] + [g.concern for g in tier1.gaps]
        skipped = [s.concern for s in answer.skipped_concerns]
        assert sorted(decided + skipped, key=CONCERNS.index) == list(CONCERNS)
        assert [c.concern for c in tier1.choices] == sorted((c.concern for c in tier1.choices), key=CONCERNS.index)
        assert len({s.id for s in answer.switch_conditions}) == len(answer.switch_conditions)
        assert sum(tier.primary for tier in answer.tiers) == 1 and 0.05 <= answer.confidence <= 0.95


def test_no_switch_condition_already_holds(answers, cpu_suite):
    # A condition that holds on the evidence it was made from would mean the answer ignored it.
    for answer in answers:
        observed = observed_values(answer.profile, evidence_facts([cpu_suite], answer.profile.hardware))
        held = [c.id for c in answer.switch_conditions if condition_holds(c, observed)]
        assert held == [], (answer.profile, held)
        for condition in answer.switch_conditions:
            assert condition.metric.startswith(("profile.", "evidence.", "knowledge."))


def test_deterministic_and_independent_of_case_order():
    cases = gemm_cases(0.6) + attention_cases({"naive": 2.0, "sdpa.flash": 1.0})
    cases += int8_cases(0.7, qdq=True) + dynamic_cases(9.0)
    chosen = profile(hardware="x86-cpu", workload="both", needs=NEEDS[1])
    first = recommend(chosen, [evidence(cases)]).model_dump_json()
    assert recommend(chosen, [evidence(cases)]).model_dump_json() == first
    shuffled = list(cases)
    random.Random(7).shuffle(shuffled)
    assert recommend(chosen, [evidence(shuffled)]).model_dump_json() == first


def test_json_round_trip_and_the_documented_shape(cpu_suite):
    answer = recommend(profile(needs=NEEDS[1]), [cpu_suite])
    data = json.loads(answer.model_dump_json())
    assert {"tiers", "rejected", "switch_conditions", "confidence", "proxy_evidence", "schema_version"} <= set(data)
    assert set(data["tiers"][0]) >= {"tier", "choices"}
    assert set(data["tiers"][0]["choices"][0]) >= {"concern", "option", "rationale"}
    assert set(data["rejected"][0]) >= {"option", "reasons"}
    assert set(data["switch_conditions"][0]) >= {"id", "description", "metric", "op", "threshold"}
    assert Recommendation.model_validate(data) == answer


def test_a_smaller_knowledge_base_leaves_gaps(knowledge):
    without_cublas = knowledge.model_copy(
        update={"candidates": tuple(c for c in knowledge.candidates if c.id != "cublas")}
    )
    answer = recommend(profile(), [], without_cublas)
    assert "gemm" not in answer.tier(1).options() and "gemm" in [g.concern for g in answer.tier(1).gaps]
