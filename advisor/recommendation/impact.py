"""Expected impact: what a tier-1 choice should do to the whole step, from on-target evidence (Amdahl's law).

step speedup = 1 / ((1 - share) + share / speedup), where `speedup` is the operator speedup the probes
measured for the choice and `share` the operator group's share of the step's time (hotops). The interval
uses the slowest and fastest measured shape. Where a probe measured the whole model with the choice
applied (INT8 through ONNX Runtime), that figure is given beside the estimate.
"""

from __future__ import annotations

from dataclasses import dataclass

from advisor.recommendation.citations import cite_fact
from advisor.recommendation.context import RuleContext
from advisor.recommendation.facts import Fact
from advisor.recommendation.hot_operators import hotop_shares
from advisor.recommendation.models import Choice, ExpectedImpact
from probes.fusion.report import FUSION_COMPILED_SPEEDUP
from probes.gemm.report import GEMM_BF16_SPEEDUP, GEMM_SPEEDUP
from probes.int8.report import INT8_MODEL_SPEEDUP, INT8_SPEEDUP
from probes.layout.report import LAYOUT_CHANNELS_LAST_SPEEDUP


@dataclass(frozen=True)
class Lever:
    """Which measured speedup a choice applies to which operator groups; `inverse` when the choice is to stay
    on the reference path because the measured alternative was slower (fp32 over a slower bf16)."""

    fact: str
    groups: tuple[str, ...]
    label: str
    inverse: bool = False


def lever_for(choice: Choice, context: RuleContext) -> Lever | None:
    """The measured speedup behind a tier-1 choice, if any."""
    dtype = choice.settings.get("dtype")
    if choice.concern == "gemm" and dtype in ("bf16", "fp16", "fp8"):
        return Lever(GEMM_SPEEDUP.named(dtype).name, ("gemm",), f"{dtype} GEMM")
    if choice.concern == "gemm" and dtype == "fp32":
        return Lever(GEMM_BF16_SPEEDUP.name, ("gemm",), "fp32 GEMM against bf16", inverse=True)
    layout = choice.settings.get("layout")
    if choice.concern == "convolution" and layout in ("channels-last", "nchw"):
        label = "channels-last convolutions" if layout == "channels-last" else "NCHW convolutions against channels-last"
        return Lever(LAYOUT_CHANNELS_LAST_SPEEDUP.name, ("convolution",), label, inverse=layout == "nchw")
    if choice.concern == "fusion" and choice.option == context.knowledge.policy.measured_fusion:
        return Lever(FUSION_COMPILED_SPEEDUP.name, ("normalization", "elementwise"), "fused small-op chains")
    if choice.concern == "quantization" and dtype == "int8" and not context.profile.convolutional:
        return Lever(INT8_SPEEDUP.name, ("gemm",), "INT8 linear layers")
    return None


def amdahl(share: float, speedup: float) -> float:
    """The whole step's speedup when a part of it (share) runs speedup times faster."""
    return 1.0 / ((1.0 - share) + share / speedup)


def expected_impact(choice: Choice, context: RuleContext) -> ExpectedImpact | None:
    """The choice's expected step speedup with its interval; None without on-target evidence for it."""
    whole = whole_model_impact(choice, context)
    if whole is not None:
        return whole
    lever = lever_for(choice, context)
    if lever is None:
        return None
    fact = context.facts.usable(lever.fact)
    shares = hotop_shares(context.facts, context.profile)
    if fact is None or not fact.on_target or shares is None or fact.value <= 0:
        return None
    share = min(1.0, shares.share(*lever.groups))
    speedup, bounds = fact.value, (fact.low or fact.value, fact.high or fact.value)
    if lever.inverse:
        speedup, bounds = 1 / speedup, (1 / bounds[1], 1 / bounds[0])
    step = amdahl(share, speedup)
    low, high = amdahl(share, bounds[0]), amdahl(share, bounds[1])
    text = (
        f"{lever.label} {speedup:.2f}x on {share:.0%} of {shares.scope} -> ~{step:.2f}x step "
        f"[{min(low, high):.2f}-{max(low, high):.2f}]"
    )
    cites = cite_fact(fact) + tuple(c for f in shares.facts_for(*lever.groups) for c in cite_fact(f))
    return ExpectedImpact(
        operator="+".join(lever.groups),
        operator_speedup=speedup,
        share=share,
        step_speedup=step,
        low=min(low, high),
        high=max(low, high),
        text=text,
        cites=cites,
    )


def whole_model_impact(choice: Choice, context: RuleContext) -> ExpectedImpact | None:
    """INT8 measured on the whole reference model of the profile's type: the figure is the step, with the
    linear-layer estimate beside it when both exist."""
    if choice.concern != "quantization" or choice.settings.get("dtype") != "int8":
        return None
    fact: Fact | None = context.facts.usable(INT8_MODEL_SPEEDUP.named(context.profile.model_type).name)
    if fact is None or not fact.on_target or fact.value <= 0:
        return None
    estimate = None
    linear, shares = context.facts.usable(INT8_SPEEDUP.name), hotop_shares(context.facts, context.profile)
    if linear is not None and linear.on_target and shares is not None and linear.value > 0:
        estimate = amdahl(min(1.0, shares.share("gemm")), linear.value)
    text = f"INT8 whole {context.profile.model_type} model measured {fact.value:.2f}x float"
    if estimate is not None:
        text += f" (estimate from INT8 linear layers alone: ~{estimate:.2f}x)"
    return ExpectedImpact(
        operator="model",
        operator_speedup=fact.value,
        share=1.0,
        step_speedup=fact.value,
        low=fact.low or fact.value,
        high=fact.high or fact.value,
        measured_step_speedup=fact.value,
        text=text,
        cites=cite_fact(fact),
    )


def with_impact(choice: Choice, context: RuleContext) -> Choice:
    """The choice with its expected impact attached, when there is evidence for one."""
    impact = expected_impact(choice, context)
    return choice if impact is None else choice.model_copy(update={"impact": impact})
