"""Quantization: a toolkit that supports the dtype and the method (PTQ or QAT), unless INT8 measured slower.

Method #quantization: INT8 needs per-channel kernels and dequantization; QAT needs fake-quant support; PTQ
depends on calibration and numeric robustness; a LayerNorm INT8 version can collapse accuracy.
"""

from __future__ import annotations

from advisor.knowledge.models import KnowledgeBase
from advisor.profile import Profile
from advisor.recommendation.choices import entry_from, rejections_from
from advisor.recommendation.citations import cite_claim, cite_profile, fact_line, facts_line, line, proxy_speed_note
from advisor.recommendation.context import ConcernDecision, RuleContext, skipped_decision
from advisor.recommendation.facts import EvidenceFacts, Fact
from advisor.recommendation.models import Rationale, SwitchCondition
from advisor.recommendation.rules.tiers import tier2_entry, tier3_entry
from advisor.recommendation.selection import pick, serves
from advisor.recommendation.switches import predicate, switch

INT8_PAYS = 1.5  # speedup at which INT8 is worth its accuracy risk
INT8_MAX_ERROR = 0.01
LAYERNORM_COLLAPSE = 0.05  # relative RMS error of a quantized LayerNorm input that counts as collapse
PER_CHANNEL_GAIN = 5.0  # per-tensor error this many times per-channel error: per-channel is required


def int8_measured_slower(facts: EvidenceFacts) -> Fact | None:
    """The target's INT8-vs-float fact when INT8 lost; proxy speed never counts."""
    fact = facts.usable("int8_speedup")
    return fact if fact is not None and fact.value < 1.0 else None


def int8_speed_line(facts: EvidenceFacts) -> Rationale | None:
    """The measured INT8 speedup on the target, when it did not lose."""
    fact = facts.usable("int8_speedup")
    if fact is None or fact.value < 1.0:
        return None
    verdict = "pays" if fact.value >= INT8_PAYS else "a modest gain; weigh it against the accuracy risk"
    return fact_line(f"INT8 measured {fact.figure}: {verdict}", fact)


def accuracy_line(facts: EvidenceFacts) -> Rationale | None:
    """The measured INT8 layer error against the 1% bar."""
    fact = facts.usable("int8_max_rel_error")
    if fact is None:
        return None
    if fact.value > INT8_MAX_ERROR:
        return fact_line(f"{fact.figure} > {INT8_MAX_ERROR:.0%}: validate accuracy on the model before launch", fact)
    return fact_line(f"{fact.figure} <= {INT8_MAX_ERROR:.0%}", fact)


def layernorm_line(facts: EvidenceFacts, knowledge: KnowledgeBase) -> Rationale | None:
    """Why LayerNorm stays in float: the measured collapse, else the method's warning (a knowledge-base risk)."""
    fact = facts.usable("layernorm_input_int8_rel_rmse")
    if fact is not None and fact.value > LAYERNORM_COLLAPSE:
        return fact_line(f"quantizing LayerNorm's input measured {fact.figure}: keep LayerNorm in float", fact)
    for candidate in knowledge.candidates:
        for index, risk in enumerate(candidate.risks):
            if "LayerNorm" in risk.value:
                return line(f"keep LayerNorm in float: {risk.value}", cite_claim(candidate, f"risks[{index}]"))
    return None


def granularity_line(facts: EvidenceFacts) -> Rationale | None:
    """Per-tensor against per-channel weight error, when both were measured."""
    per_tensor, per_channel = facts.usable("int8_per_tensor_rel_rmse"), facts.usable("int8_per_channel_rel_rmse")
    if per_tensor is None or per_channel is None or per_tensor.value < PER_CHANNEL_GAIN * per_channel.value:
        return None
    text = f"{per_tensor.figure} against {per_channel.figure}: quantize weights per channel"
    return facts_line(text, per_tensor, per_channel)


def int8_pays_switch(description: str) -> SwitchCondition:
    """INT8 fast enough and accurate enough on the target."""
    return switch("int8-pays-on-target", description, "evidence.int8_speedup", ">=", INT8_PAYS,
                  predicate("evidence.int8_max_rel_error", "<=", INT8_MAX_ERROR), concern="quantization")  # fmt: skip


def quantization_lines(context: RuleContext, dtype: str, method: str) -> list[Rationale]:
    """What was asked for, then what the evidence says about speed, accuracy, granularity and LayerNorm."""
    facts, profile = context.facts, context.profile
    asked = line(f"{dtype} {method.upper()} asked for", cite_profile(profile, "needs.quantization"),
                 cite_profile(profile, "needs.quantization_method"))  # fmt: skip
    found = [
        int8_speed_line(facts) if dtype == "int8" else None,
        accuracy_line(facts),
        granularity_line(facts),
        layernorm_line(facts, context.knowledge),
        proxy_speed_note(facts, "int8_speedup") if dtype == "int8" else None,
    ]
    return [asked] + [found_line for found_line in found if found_line is not None]


def quantization_switches(dtype: str, rejected_int8: bool) -> tuple[SwitchCondition, ...]:
    """INT8 rejected: reconsider once it pays; INT8 chosen: reject it once it loses; FP8: none from evidence yet."""
    if rejected_int8:
        return (int8_pays_switch("INT8 >= 1.5x float with max rel error <= 1% on the target: reconsider INT8"),)
    if dtype == "int8":
        description = "INT8 < 1.0x float on the target: reject INT8"
        metric = "evidence.int8_speedup"
        return (switch("int8-slower-on-target", description, metric, "<", 1.0, concern="quantization"),)
    return ()


def not_needed(profile: Profile) -> ConcernDecision:
    """No quantization asked for; a served model still learns when INT8 would pay."""
    reason = line("no quantization asked for", cite_profile(profile, "needs.quantization"))
    extra = [int8_pays_switch("INT8 >= 1.5x float with max rel error <= 1% on the target: consider INT8 PTQ")]
    return skipped_decision("quantization", reason, *(extra if profile.serves else []))


def decide_quantization(context: RuleContext) -> ConcernDecision:
    """Tier 1 toolkit for the dtype and method; INT8 measured slower on the target rejects INT8 there."""
    profile = context.profile
    if not profile.needs.quantized:
        return not_needed(profile)
    dtype, method = profile.needs.quantization, profile.needs.quantization_method
    requirements = (dtype, method)
    slower = int8_measured_slower(context.facts) if dtype == "int8" else None
    blockers: dict[str, list[Rationale]] = {}
    if slower is not None:
        text = f"INT8 measured slower than float on {slower.hardware} ({slower.figure}): reject INT8 here"
        candidates = [c for c in context.knowledge.candidates if serves(c, profile.hardware, "quantization")]
        blockers = {candidate.id: [fact_line(text, slower)] for candidate in candidates}
    preference = context.official("quantization")
    chosen = pick(context, "quantization", preference, requirements=requirements, extra_blockers=blockers)
    settings = {"dtype": dtype, "method": method, "granularity": "per-channel", "layernorm": "float"}
    if slower is not None:
        reason = f"INT8 rejected on {profile.hardware}: keep float weights"
    else:
        reason = f"no {dtype} {method} toolkit for {profile.hardware} in the knowledge base"
    lines = quantization_lines(context, dtype, method)
    return ConcernDecision(
        concern="quantization",
        tier1=entry_from(chosen, "quantization", context, gap_reason=reason, settings=settings, lines=lines),
        tier2=tier2_entry(context, "quantization", (dtype,), blockers),
        tier3=tier3_entry(context, "quantization", requirements, blockers),
        rejections=rejections_from(chosen, "quantization"),
        switch_conditions=quantization_switches(dtype, slower is not None),
    )
