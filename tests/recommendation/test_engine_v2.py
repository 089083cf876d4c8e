"""Engine v2 as a whole: invariants over many random profiles, the expected impact, honest confidence,
knowledge-base switch conditions, and records short enough to read in two minutes."""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

import pytest
from recommendation_builders import case, evidence, profile, steady

from advisor.markdown import md_prose
from advisor.profile import QUANTIZATION_METHODS, QUANTIZATIONS, WORKLOADS, Profile
from advisor.recommendation.engine import MAX_PROFILE_SWITCHES, MAX_REJECTED, recommend
from advisor.recommendation.facts import evidence_facts
from advisor.recommendation.impact import amdahl
from advisor.recommendation.models import Recommendation
from advisor.recommendation.policy import REFERENCE_CAP, REFERENCE_FACTOR, STACK_EXACT
from advisor.recommendation.rules.confidence import BASE_NO_EVIDENCE
from advisor.recommendation.switches import condition_holds, observed_values
from advisor.records.decision import build_front_matter
from advisor.records.render import render_record
from advisor.vocabulary import TEAM_SKILLS
from probes.models import Evidence
from probes.vocabulary import MODEL_TYPES

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
RANDOM_PROFILES = 300


def _random_profile(rng: random.Random, families: tuple[str, ...]) -> Profile:
    hardware = rng.choice(families)
    cross = rng.random() < 0.25
    others = rng.sample([f for f in families if f != hardware], rng.randint(1, 2)) if cross else []
    return Profile.model_validate(
        {
            "model_type": rng.choice(MODEL_TYPES),
            "hardware": hardware,
            "workload": rng.choice(WORKLOADS),
            "team_skill": rng.choice(TEAM_SKILLS),
            "needs": {
                "dynamic_shapes": rng.random() < 0.5,
                "quantization": rng.choice(QUANTIZATIONS),
                "quantization_method": rng.choice(QUANTIZATION_METHODS),
                "long_context": rng.random() < 0.3,
                "devices": rng.choice((1, 2, 8, 256)),
                "cross_platform": cross,
                "other_hardware": others,
            },
        }
    )


@pytest.fixture(scope="module")
def random_answers(knowledge, cpu_suite) -> list[Recommendation]:
    rng = random.Random(20261201)
    profiles = [_random_profile(rng, knowledge.families()) for _ in range(RANDOM_PROFILES)]
    return [
        recommend(chosen, [cpu_suite] if index % 3 == 0 else [], knowledge) for index, chosen in enumerate(profiles)
    ]


def test_random_profiles_keep_every_invariant(random_answers, knowledge):
    compatibility = knowledge.compatibility
    for answer in random_answers:
        chosen = {c.option for tier in answer.tiers for c in tier.choices}
        rejected = {r.option for r in answer.rejected}
        assert not chosen & rejected, answer.profile  # no option both chosen (any tier, any concern) and rejected
        assert len(answer.rejected) <= MAX_REJECTED
        assert sum(c.metric.startswith("profile.") for c in answer.switch_conditions) <= MAX_PROFILE_SWITCHES
        tier1 = answer.tier(1).options()
        toolkit, runtime = tier1.get("quantization"), tier1.get("deployment")
        named_part = any(c.part_of is not None for c in answer.tier(1).choices if c.concern == "deployment")
        if toolkit and runtime and toolkit != runtime and compatibility.loaders_of(toolkit) and not named_part:
            assert runtime in compatibility.loaders_of(toolkit), (toolkit, runtime)
        for choice in answer.tier(3).choices:  # runs on every family, or (a quantizer) its output is loaded there
            hardware = {*knowledge.get(choice.option).hardware.value, *compatibility.output_families(choice.option)}
            assert set(answer.profile.families) <= hardware, (choice, answer.profile.families)
        for choice in answer.tier(1).choices:
            assert len([r for r in choice.rationale if not r.text.startswith("watch: ")]) <= 4
        assert not any(gap.rationale[0].text == "" for tier in answer.tiers for gap in tier.gaps)
        if not answer.evidence_used:  # a vendor-validated stack (and the vendor's reference) back it this far at most
            ceiling = round(BASE_NO_EVIDENCE * STACK_EXACT, 2)
            assert answer.confidence <= (
                min(REFERENCE_CAP, round(ceiling * REFERENCE_FACTOR, 2)) if answer.reference else ceiling
            )


def test_llm_serving_runs_one_engine_for_deployment_and_dynamic_shapes(random_answers):
    served = [
        a
        for a in random_answers
        if a.profile.llm and a.profile.workload == "inference" and a.profile.needs.dynamic_shapes
    ]
    assert served
    for answer in served:
        tier1 = answer.tier(1).options()
        if "deployment" in tier1 and "dynamic-shapes" in tier1:
            assert tier1["deployment"] == tier1["dynamic-shapes"], (answer.profile, tier1)


def test_proxy_evidence_never_raises_confidence(knowledge, cpu_suite):
    for hardware in ("nvidia-gpu", "ascend-npu", "amd-gpu"):
        chosen = profile(hardware=hardware, needs={"long_context": True})
        assert recommend(chosen, [cpu_suite], knowledge).confidence <= recommend(chosen, [], knowledge).confidence


def test_a_run_with_no_timed_case_is_no_evidence(knowledge):
    failed = evidence(
        [
            case("gemm", "torch.matmul", "fp32", {"m": 64}, None, status="failed"),
            case("attention", "naive", "fp32", {"seq": 128}, None, status="failed"),
        ]
    )
    answer = recommend(profile(hardware="x86-cpu"), [failed], knowledge)
    assert not answer.evidence_used and answer.confidence <= round(BASE_NO_EVIDENCE * STACK_EXACT, 2)
    assert "none was timed" in answer.confidence_notes[0]


def test_hygon_is_less_charted_than_nvidia(knowledge):
    nvidia = recommend(profile(device="h200-sxm", needs={"quantization": "fp8"}), [], knowledge)
    hygon = recommend(profile(hardware="hygon-dcu"), [], knowledge)
    assert hygon.confidence < nvidia.confidence
    # An official list left empty costs confidence only for a concern tier 1 cannot fill from the chosen stack either
    # (review 24: "names no official option for attention" beside the stack's own attention).
    filled = {choice.concern for choice in hygon.tiers[0].choices}
    for note in hygon.confidence_notes:
        if note.startswith("hygon-dcu: the knowledge base names no official option for "):
            named = note.removeprefix("hygon-dcu: the knowledge base names no official option for ").split(", ")
            assert not filled & set(named), note


def test_expected_impact_is_amdahl_over_the_measured_share(knowledge):
    more = steady(Evidence.load(FIXTURES / "cpu-more-probes.json"), "layout")  # samples that settle the layout
    # trained in PyTorch (no graph runtime of its own), so the measured oneDNN layout applies as it was measured
    cnn = recommend(
        Profile(model_type="cnn", hardware="x86-cpu", workload="training", team_skill="framework"), [more], knowledge
    )
    convolution = next(c for c in cnn.tier(1).choices if c.concern == "convolution")
    impact = convolution.impact
    assert impact is not None and impact.operator == "convolution" and convolution.settings["layout"] == "channels-last"
    assert impact.step_speedup == pytest.approx(amdahl(impact.share, impact.operator_speedup))
    assert impact.low <= impact.step_speedup <= impact.high and "-> ~" in impact.text and impact.cites
    assert amdahl(0.55, 2.9) == pytest.approx(1 / (0.45 + 0.55 / 2.9))
    assert recommend(profile(), [], knowledge).tier(1).choices[0].impact is None  # nothing measured on the target


def test_a_knowledge_claim_switch_fires_when_the_claim_changes(knowledge):
    answer = recommend(profile(hardware="hygon-dcu", workload="training", needs={"quantization": "fp8"}), [], knowledge)
    switches = [s for s in answer.switch_conditions if s.metric.startswith("knowledge.")]
    assert "kb-dtk-hip-fp8" in [s.id for s in switches]  # FP8 training asked, the GEMM library's FP8 is not documented
    assert switches and all(s.rerun == "advisor kb audit, then advisor recommend" for s in switches)
    condition = switches[0]
    option, attribute = condition.metric.removeprefix("knowledge.").split(".", 1)
    facts = evidence_facts([], answer.profile.hardware)
    assert condition_holds(condition, observed_values(answer.profile, facts, knowledge)) is False
    candidate = knowledge.get(option)
    changed_claim = getattr(candidate, attribute).model_copy(update={"value": condition.threshold})
    changed = knowledge.model_copy(
        update={
            "candidates": tuple(
                c.model_copy(update={attribute: changed_claim}) if c.id == option else c for c in knowledge.candidates
            )
        }
    )
    assert condition_holds(condition, observed_values(answer.profile, facts, changed)) is True


def test_every_switch_names_what_to_rerun(random_answers):
    for answer in random_answers:
        assert all(condition.rerun for condition in answer.switch_conditions)


@pytest.mark.parametrize(
    "needs", [{}, {"quantization": "fp8", "dynamic_shapes": True, "devices": 8, "long_context": True}]
)
def test_a_typical_record_reads_in_two_minutes(knowledge, needs):
    answer = recommend(profile(needs=needs), [], knowledge)
    front = build_front_matter(7, "LLM serving", answer, [], None, ["Ann"], dt.date(2026, 12, 1))
    text = render_record(front, answer, [])
    assert len(text.splitlines()) <= 150
    body = text.split("---", 2)[2]
    assert body.lstrip().startswith("# LLM serving\n\n**Verdict:** ")
    assert "| stack | runs the model |" in body
    assert "&gt;" not in body and "&lt;" not in body
    assert body.count("Nothing fits") <= 3  # at most once per tier


def test_md_prose_puts_operators_in_code_spans_and_still_escapes():
    assert md_prose("INT8 >= 1.5x and a -> b") == "INT8 `>=` 1.5x and a `->` b"
    assert md_prose("<img src=x onerror=alert(1)>") == "&lt;img src=x onerror=alert(1)&gt;"
    assert md_prose("error 1.78% > 1%") == "error 1.78% `>` 1%"


def _fp8_evidence(fp8_vs_bf16: float) -> Evidence:
    """torch.matmul fp32 and bf16, and torch._scaled_mm fp8 `fp8_vs_bf16` times bf16's speed, on an H100."""
    cases = []
    for m, kind in ((16, "decode"), (4096, "prefill")):
        shape = {"m": m, "n": 4096, "k": 4096}
        cases.append(case("gemm", "torch.matmul", "fp32", shape, 4e-3, device="cuda", baseline=True, kind=kind))
        cases.append(case("gemm", "torch.matmul", "bf16", shape, 1e-3, device="cuda", baseline=True, kind=kind))
        cases.append(
            case(
                "gemm",
                "torch._scaled_mm",
                "fp8",
                shape,
                1e-3 / fp8_vs_bf16,
                device="cuda",
                baseline=True,
                kind=kind,
                scaling="per-tensor",
                out_dtype="bf16",
            )
        )
    return evidence(cases, family="nvidia-gpu")


def test_fp8_gemm_is_read_and_decides_the_dtype_where_measured(knowledge):
    facts = evidence_facts([_fp8_evidence(1.8)], "nvidia-gpu")
    vs_bf16, vs_fp32 = facts.usable("gemm_fp8_vs_bf16_speedup"), facts.usable("gemm_fp8_speedup")
    assert (
        vs_bf16 is not None
        and vs_bf16.value == pytest.approx(1.8)
        and vs_fp32 is not None
        and vs_fp32.value == pytest.approx(7.2)
    )
    asked = profile(needs={"quantization": "fp8"})
    faster = next(c for c in recommend(asked, [_fp8_evidence(1.8)], knowledge).tier(1).choices if c.concern == "gemm")
    assert faster.settings["dtype"] == "fp8" and any("fp8 1.80x bf16" in reason.text for reason in faster.rationale)
    slower = next(c for c in recommend(asked, [_fp8_evidence(0.8)], knowledge).tier(1).choices if c.concern == "gemm")
    assert slower.settings["dtype"] == "bf16"
    assert any(
        reason.text.startswith("FP8 GEMM measured slower than bf16 on nvidia-gpu") for reason in slower.rationale
    )


def test_every_record_stays_within_150_lines(random_answers, cpu_suite):
    for index, answer in enumerate(random_answers):
        evidence = [cpu_suite] if index % 3 == 0 else []
        front = build_front_matter(7, "a title", answer, [], None, ["Ann"], dt.date(2026, 12, 4))
        assert len(render_record(front, answer, evidence).splitlines()) <= 150, answer.profile
