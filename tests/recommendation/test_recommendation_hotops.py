"""Hot-operator shares as evidence: readings, which shares apply to a profile, and how they weigh the other evidence.

The cases are hand-built (recommendation_builders.case) with the metrics and top operators the hotops
probe records, so each test states the shares it rests on.
"""

from __future__ import annotations

from recommendation_builders import case, evidence, gemm_cases, profile

from advisor.recommendation.engine import recommend
from advisor.recommendation.facts import evidence_facts
from advisor.recommendation.hot_operators import MINOR_SHARE, hotop_shares
from advisor.recommendation.models import Recommendation
from advisor.recommendation.switches import condition_holds, observed_values
from probes.hotops.groups import GROUPS
from probes.hotops.report import hotops_readings
from probes.models import OperatorTime

DENSE = {"batch": 2, "seq": 32, "width": 64, "heads": 4, "layers": 2, "vocab": 256}


def hotops_case(
    shares: dict[str, float],
    model: str = "dense-transformer",
    kind: str = "train",
    device: str = "cpu",
    size: str = "tiny",
    parameters: float = 1e5,
):
    """One ok hotops case: `shares` by group (the rest of the time in "other"), its top operator."""
    full = {group: shares.get(group, 0.0) for group in GROUPS}
    full["other"] += 1.0 - sum(full.values())
    metrics = {f"share_{group}": value for group, value in full.items()} | {"parameters": parameters}
    made = case(
        "hotops",
        "eager",
        "fp32",
        DENSE,
        1e-3,
        device=device,
        baseline=True,
        metrics=metrics,
        model=model,
        size=size,
        **{"pass": kind},
    )
    top = max(full, key=lambda group: full[group])
    made.operators = [OperatorTime(name=f"aten::{top}-ish", group=top, self_s=1e-4, share=full[top], calls=1)]
    return made


def _gemm(answer: Recommendation, tier: int = 1):
    return next(choice for choice in answer.tier(tier).choices if choice.concern == "gemm")


def _fires(before: Recommendation, condition_id: str, after) -> bool:
    condition = next(c for c in before.switch_conditions if c.id == condition_id)
    return condition_holds(condition, observed_values(before.profile, evidence_facts(after, before.profile.hardware)))


def test_readings_name_group_model_and_pass_and_cite_the_case():
    cases = [hotops_case({"gemm": 0.6, "attention": 0.1}), hotops_case({"gemm": 0.3}, kind="forward")]
    readings = {reading.name: reading for reading in hotops_readings(cases)}
    assert len(readings) == 2 * len(GROUPS)
    gemm = readings["hotop_share_gemm.dense-transformer.train"]
    assert gemm.value == 0.6 and gemm.case_ids == (cases[0].key.case_id,)
    assert gemm.figure == "gemm 60% of dense-transformer train self time (hotops, tiny)"
    assert round(sum(r.value for name, r in readings.items() if name.endswith(".train")), 6) == 1.0
    bigger = hotops_case({"gemm": 0.8}, size="small", parameters=1e7)
    chosen = {r.name: r.value for r in hotops_readings([cases[0], bigger])}
    assert chosen["hotop_share_gemm.dense-transformer.train"] == 0.8  # the largest model profiled stands


def test_the_shares_follow_the_profile_model_workload_and_hardware():
    files = [
        evidence(
            [
                hotops_case({"gemm": 0.6}),
                hotops_case({"gemm": 0.2}, kind="forward"),
                hotops_case({"gemm": 0.05}, model="moe"),
            ]
        )
    ]
    cpu_facts = evidence_facts(files, "x86-cpu")
    training = hotop_shares(cpu_facts, profile(hardware="x86-cpu", workload="training"))
    assert training.passes == ("train",) and training.share("gemm") == 0.6
    assert "the dense-transformer reference model's training step" == training.scope
    both = hotop_shares(cpu_facts, profile(hardware="x86-cpu", workload="both"))
    assert both.passes == ("forward", "train") and abs(both.share("gemm") - 0.4) < 1e-9
    moe_serving = hotop_shares(cpu_facts, profile(hardware="x86-cpu", model_type="moe"))
    assert moe_serving.share("gemm") == 0.05 and moe_serving.passes == ("train",)  # the other pass stands in
    assert hotop_shares(cpu_facts, profile(hardware="x86-cpu", model_type="cnn")) is None
    assert hotop_shares(evidence_facts(files, "nvidia-gpu"), profile()) is None  # time shares do not travel
    own = files + [evidence([hotops_case({"gemm": 0.9}, model="custom", kind="forward")])]
    mine = hotop_shares(evidence_facts(own, "x86-cpu"), profile(hardware="x86-cpu", workload="training"))
    assert mine.model == "custom" and mine.share("gemm") == 0.9 and mine.scope == "your model's forward pass"
    observed = observed_values(profile(hardware="x86-cpu", workload="training"), cpu_facts)
    assert observed["evidence.hotop_share_gemm"] == 0.6 and "evidence.hotop_share_attention" in observed


def test_the_gemm_share_alone_decides_whether_bf16_gemm_speed_sets_the_dtype():
    cpu_training = profile(hardware="x86-cpu", workload="training")
    hot = [evidence(gemm_cases(1.6) + [hotops_case({"gemm": 0.62, "attention": 0.2})])]
    minor = [evidence(gemm_cases(1.6) + [hotops_case({"gemm": 0.04, "attention": 0.2})])]
    with_hot, with_minor = recommend(cpu_training, hot), recommend(cpu_training, minor)
    assert _gemm(with_hot).settings["dtype"] == "bf16"
    assert _gemm(with_minor).settings["dtype"] == "fp32"
    hot_line, minor_line = _gemm(with_hot).rationale[0], _gemm(with_minor).rationale[0]
    hotops_id = hot[0].cases[-1].key.case_id
    assert hot_line.text.startswith("GEMM is 62% of the dense-transformer reference model's training step: a hot spot")
    assert [c.ref for c in hot_line.cites] == [hotops_id] and "gemm 62%" in hot_line.cites[0].figure
    assert minor_line.text.startswith("GEMM is 4% of") and "do not drive the choice" in minor_line.text
    assert minor_line.cites[0].ref == minor[0].cases[-1].key.case_id
    assert "set aside" in _gemm(with_minor).rationale[1].text
    # Each answer names the share that would flip it, and the other evidence makes it fire.
    assert _fires(with_minor, "hotop-gemm-share-grows", hot) and not _fires(with_minor, "hotop-gemm-share-grows", minor)
    assert _fires(with_hot, "hotop-gemm-share-falls", minor) and not _fires(with_hot, "hotop-gemm-share-falls", hot)
    assert {c.id for c in with_minor.switch_conditions}.isdisjoint({"bf16-gemm-faster"})  # it would fire at once
    # Without hot-op evidence the measured speed decides, as before.
    assert _gemm(recommend(cpu_training, [evidence(gemm_cases(1.6))])).settings["dtype"] == "bf16"


def test_minor_concerns_leave_tier2_and_hot_spots_lead_its_notes():
    hpc = profile(team_skill="hpc", workload="training")
    attention_hot = [evidence([hotops_case({"gemm": 0.5, "attention": 0.35}, device="cuda")], "nvidia-gpu")]
    attention_minor = [evidence([hotops_case({"gemm": 0.5, "attention": 0.02}, device="cuda")], "nvidia-gpu")]
    hot, minor = recommend(hpc, attention_hot), recommend(hpc, attention_minor)
    hot_attention = next(c for c in hot.tier(2).choices if c.concern == "attention")
    assert (
        hot_attention.rationale[0].text.startswith("attention is 35% of")
        and "hot spot" in hot_attention.rationale[0].text
    )
    gap = next(g for g in minor.tier(2).gaps if g.concern == "attention")
    assert gap.rationale[0].text.startswith("not a hot spot: attention is 2% of")
    assert gap.rationale[0].cites[0].ref == attention_minor[0].cases[0].key.case_id
    ranking = hot.tier(2).notes[-1].text
    assert ranking.startswith("measured hot spots in the dense-transformer reference model's training step (hotops)")
    assert ranking.index("gemm 50%") < ranking.index("attention 35%")
    tier1_attention = next(c for c in hot.tier(1).choices if c.concern == "attention")
    assert tier1_attention.rationale[0].text.startswith("attention is 35%")
    # Tier 1 itself does not move on shares alone.
    assert hot.tier(1).options() == minor.tier(1).options() == recommend(hpc, []).tier(1).options()


def test_triton_behind_does_not_block_the_unified_layer_when_gemm_is_minor():
    kernel_team = profile(team_skill="kernel")
    behind = gemm_cases(2.0, "cuda", triton_ratio=0.6)
    gemm_hot = [evidence(behind + [hotops_case({"gemm": 0.7}, kind="forward", device="cuda")], "nvidia-gpu")]
    gemm_minor = [evidence(behind + [hotops_case({"gemm": 0.05}, kind="forward", device="cuda")], "nvidia-gpu")]
    hot, minor = recommend(kernel_team, gemm_hot), recommend(kernel_team, gemm_minor)
    assert _gemm(hot, tier=3).option == "cublas" and _gemm(minor, tier=3).option == "triton"
    assert "GEMM is 5% of" in _gemm(minor, tier=3).rationale[1].text
    assert _fires(minor, "hotop-gemm-share-grows-triton-behind", gemm_hot)


def test_minor_threshold_is_exclusive():
    at_threshold = [evidence(gemm_cases(1.6) + [hotops_case({"gemm": MINOR_SHARE})])]
    assert _gemm(recommend(profile(hardware="x86-cpu", workload="training"), at_threshold)).settings["dtype"] == "bf16"
