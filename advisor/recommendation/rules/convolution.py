"""Convolutions, for CNN and diffusion models: the platform's convolution library, in the layout measured best.

Convolutions dominate a CNN's time (and a diffusion U-Net's); their library and memory layout
(channels-last or NCHW, measured by the layout probe) matter more than the GEMM library there.
"""

from __future__ import annotations

from advisor.recommendation.choices import entry_from, rejections_from
from advisor.recommendation.citations import cite_profile, facts_line, line, settled_figure, unsettled_line
from advisor.recommendation.context import ConcernDecision, RuleContext, skipped_decision
from advisor.recommendation.facts import evidence_metric
from advisor.recommendation.hot_operators import hot_spot_line, hotop_shares
from advisor.recommendation.models import Rationale, SwitchCondition
from advisor.recommendation.policy import CHANNELS_LAST_PAYS
from advisor.recommendation.rules.tiers import tier2_entry, tier3_entry
from advisor.recommendation.selection import pick
from advisor.recommendation.switches import switch
from advisor.vision_models import vision_transformer
from probes.layout.report import LAYOUT_CHANNELS_LAST_SPEEDUP, LAYOUT_MISMATCH_COST


def conv_layout(context: RuleContext) -> tuple[dict[str, str], list[Rationale], list[SwitchCondition]]:
    """The measured memory layout (channels-last or NCHW) on the target, why, and its switch."""
    speed, cost = (
        context.facts.usable(LAYOUT_CHANNELS_LAST_SPEEDUP.name),
        context.facts.usable(LAYOUT_MISMATCH_COST.name),
    )
    if speed is None:
        return {}, [], []
    unsettled = unsettled_line(speed, "layout", "the model keeps the layout it has", CHANNELS_LAST_PAYS)
    if unsettled is not None:
        return {}, [unsettled], []
    mismatch = f"; {cost.figure}, so keep one layout end to end" if cost is not None else ""
    cited = [speed, *([cost] if cost is not None else [])]
    if speed.settled_side(CHANNELS_LAST_PAYS) == "above":
        text = f"on {speed.hardware}: {settled_figure(speed)}{mismatch}: run the model channels-last"
        flip = switch(
            "channels-last-stops-paying",
            "channels-last no longer faster than NCHW on the target: revisit the layout",
            evidence_metric(LAYOUT_CHANNELS_LAST_SPEEDUP),
            "<",
            1.0,
            concern="convolution",
        )
        return {"layout": "channels-last"}, [facts_line(text, *cited)], [flip]
    text = f"on {speed.hardware}: {settled_figure(speed)}{mismatch}: channels-last does not pay here, keep NCHW"
    flip = switch(
        "channels-last-pays",
        f"channels-last >= {CHANNELS_LAST_PAYS}x NCHW on the target: move the model to channels-last",
        evidence_metric(LAYOUT_CHANNELS_LAST_SPEEDUP),
        ">=",
        CHANNELS_LAST_PAYS,
        concern="convolution",
    )
    return {"layout": "nchw"}, [facts_line(text, *cited)], [flip]


def decide_convolution(context: RuleContext) -> ConcernDecision:
    """Tier 1 convolution library (with its layout); skipped for models without convolutions."""
    profile = context.profile
    if not profile.convolutional:
        cites = [cite_profile(profile, "model_type")]
        if profile.serving_task == "transcription":
            text = (
                "a transcription transformer's convolutions are the small stem that reads the spectrogram before its "
                "audio encoder, a small share of the compute: no library to choose"
            )
            cites.append(cite_profile(profile, "task"))
        elif vision_transformer(profile.model_name):
            text = (
                "a vision transformer's one convolution is its patch embedding (a strided Conv2d over the image), a "
                "small share of the compute next to its attention and linear layers: no library to choose"
            )
            cites.append(cite_profile(profile, "model"))
        elif profile.model_type == "multimodal":
            text = (
                "a multimodal model's convolutions are its vision encoder's patch embedding (Conv2d, or Conv3d for "
                "video), a small share of the compute: no library to choose, but check the target's backend runs "
                "that operator"
            )
        else:
            text = f"a {profile.model_type} model has few or no convolutions"
        skipped = line(text, *cites)
        return skipped_decision("convolution", skipped)
    chosen = pick(context, "convolution", context.official("convolution"))
    settings, lines, switches = conv_layout(context)
    share = hot_spot_line(hotop_shares(context.facts, profile), "convolution")
    lines = ([share] if share is not None else []) + lines
    reason = (
        f"no convolution library for {profile.hardware} in the knowledge base: the framework's own convolutions stay"
    )
    return ConcernDecision(
        concern="convolution",
        tier1=entry_from(chosen, "convolution", context, gap_reason=reason, settings=settings, lines=lines),
        tier2=tier2_entry(context, "convolution"),
        tier3=tier3_entry(context, "convolution"),
        rejections=rejections_from(chosen, "convolution"),
        switch_conditions=tuple(switches),
    )
