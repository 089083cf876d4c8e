"""Layout and fusion evidence in the recommendation: measured on this machine, flipped by editing the timings."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from recommendation_builders import steady

from advisor.profile import Profile
from advisor.recommendation.engine import recommend
from advisor.recommendation.facts import evidence_facts
from advisor.recommendation.models import Choice, Recommendation
from advisor.recommendation.switches import condition_holds, observed_values
from probes.models import Evidence, ProbeCase

MORE_PROBES = Path(__file__).resolve().parents[1] / "fixtures" / "cpu-more-probes.json"


def _profile(model_type: str, hardware: str = "x86-cpu", workload: str = "inference") -> Profile:
    return Profile(model_type=model_type, hardware=hardware, workload=workload, team_skill="framework")


def _scaled(evidence: Evidence, chosen: Callable[[ProbeCase], bool], factor: float) -> Evidence:
    """The evidence with the median (and samples) of the chosen cases multiplied by `factor`."""
    cases = []
    for case in evidence.cases:
        if chosen(case) and case.timing is not None:
            stats = case.timing.stats.model_copy(update={"median": case.timing.stats.median * factor})
            timing = case.timing.model_copy(
                update={"stats": stats, "samples": [s * factor for s in case.timing.samples]}
            )
            case = case.model_copy(update={"timing": timing})
        cases.append(case)
    return evidence.model_copy(update={"cases": cases})


def _gemm(answer: Recommendation):
    return next(choice for choice in answer.tier(1).choices if choice.concern == "gemm")


def _fired(before: Recommendation, condition_id: str, after: Evidence) -> bool | None:
    condition = next(item for item in before.switch_conditions if item.id == condition_id)
    return condition_holds(condition, observed_values(before.profile, evidence_facts([after], before.profile.hardware)))


def _convolution(answer: Recommendation) -> Choice:
    return next(choice for choice in answer.tier(1).choices if choice.concern == "convolution")


# Trained in PyTorch, the CNN runs on oneDNN as measured; served, it runs in a graph runtime's own kernels.
def test_measured_channels_last_sets_the_cnn_layout_and_cites_the_cases():
    evidence = steady(Evidence.load(MORE_PROBES), "layout")
    answer = recommend(_profile("cnn", workload="training"), [evidence])
    gemm = _convolution(answer)
    assert gemm.option == "onednn"
    assert gemm.settings["layout"] == "channels-last"
    layout_lines = [item for item in gemm.rationale if "channels-last" in item.text]
    layout_ids = {case.key.case_id for case in evidence.cases if case.key.probe == "layout"}
    assert layout_lines and {cite.ref for cite in layout_lines[0].cites if cite.kind == "evidence"} <= layout_ids
    assert "channels-last-stops-paying" in {item.id for item in answer.switch_conditions}


def test_slower_channels_last_keeps_nchw_and_fires_the_old_switch():
    evidence = steady(Evidence.load(MORE_PROBES), "layout")
    before = recommend(_profile("cnn", workload="training"), [evidence])
    slower = _scaled(evidence, lambda case: case.key.probe == "layout" and case.key.layout == "nhwc", 3.0)
    after = recommend(_profile("cnn", workload="training"), [slower])
    assert _convolution(after).settings["layout"] == "nchw"
    assert _fired(before, "channels-last-stops-paying", slower) is True
    assert _fired(before, "channels-last-stops-paying", evidence) is False


def test_layout_is_only_for_convolution_models_and_only_on_target():
    evidence = Evidence.load(MORE_PROBES)
    assert "layout" not in _gemm(recommend(_profile("dense-transformer"), [evidence])).settings
    assert "layout" not in _convolution(recommend(_profile("cnn", "nvidia-gpu"), [evidence])).settings
    assert "convolution" not in recommend(_profile("dense-transformer"), [evidence]).tier(1).options()


def test_fusion_evidence_is_cited_and_the_compile_switch_fires_when_it_pays():
    evidence = Evidence.load(MORE_PROBES)
    before = recommend(_profile("dense-transformer", workload="training"), [evidence])
    fusion = next(choice for choice in before.tier(1).choices if choice.concern == "fusion")
    assert fusion.option != "torch-compile"
    assert any("saved launches, not time" in item.text for item in fusion.rationale)
    faster = _scaled(
        evidence, lambda case: case.key.probe == "fusion" and case.key.implementation == "torch.compile", 0.4
    )
    assert _fired(before, "fusion-compile-pays", faster) is True
    assert _fired(before, "fusion-compile-pays", evidence) is False
    faster_answer = recommend(_profile("dense-transformer", workload="training"), [faster])
    after = next(choice for choice in faster_answer.tier(1).choices if choice.concern == "fusion")
    assert any("fusion saves time here" in item.text for item in after.rationale)


def test_without_fusion_evidence_no_fusion_switch_is_added():
    answer = recommend(_profile("dense-transformer"), [])
    assert not {"fusion-compile-pays", "fusion-compile-slower"} & {item.id for item in answer.switch_conditions}
