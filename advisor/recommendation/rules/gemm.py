"""Dense GEMM / linear layers: the vendor library of the target, in the dtype the evidence supports.

The GEMM share of the model's time (hotops) weighs the GEMM speed findings: below MINOR_SHARE a
measured dtype speedup or Triton's GEMM gap does not drive the choice (see hot_operators.py).
"""

from __future__ import annotations

from advisor.knowledge.models import Candidate
from advisor.recommendation.choices import entry_from, rejections_from
from advisor.recommendation.citations import (
    cite_claim,
    cite_fact,
    cite_profile,
    fact_line,
    line,
    proxy_speed_note,
    settled_figure,
    unsettled_line,
)
from advisor.recommendation.context import ConcernDecision, RuleContext, TierEntry
from advisor.recommendation.facts import EvidenceFacts, evidence_metric
from advisor.recommendation.hot_operators import MINOR_SHARE, HotopShares, hot_spot_line, hotop_shares, is_minor
from advisor.recommendation.models import Choice, Operator, Rationale, SwitchCondition
from advisor.recommendation.policy import FP8_WORTH, TRITON_PARITY
from advisor.recommendation.rules.tiers import tier2_entry, tier3_entry
from advisor.recommendation.selection import pick
from advisor.recommendation.switches import predicate, switch
from probes.gemm.report import GEMM_BF16_SPEEDUP, GEMM_FP8_VS_BF16_SPEEDUP, TRITON_VS_VENDOR_GEMM
from probes.hotops.report import HOTOP_SHARE

_SPEED_SAYS: dict[str, tuple[Operator, float]] = {
    "bf16": (">=", 1.0),
    "fp32": ("<", 1.0),
}  # what gemm_bf16_speedup shows when it favours a dtype


def default_gemm_dtype(context: RuleContext) -> str:
    """bf16 on accelerators (their matrix units' half-precision path), fp16 on one whose documented formats have fp16
    and not bf16 (Apple's GPUs); fp32 on CPUs until bf16 is measured faster there."""
    if context.platform.kind == "cpu":
        return "fp32"
    device = context.device
    if device is not None and "bf16" not in device.formats and "fp16" in device.formats:
        return "fp16"
    return "bf16"


def measured_gemm_dtype(facts: EvidenceFacts) -> tuple[str, Rationale] | None:
    """fp32 when bf16 GEMM measured slower than fp32 on the target, bf16 when faster, as the samples settle it;
    None when unmeasured, the same within the band, or unsettled (`unsettled_gemm_line` says which)."""
    fact = facts.usable(GEMM_BF16_SPEEDUP.name)
    if fact is None:
        return None
    side = fact.settled_side()
    if side == "below":
        text = f"bf16 GEMM measured slower than fp32 on {fact.hardware} ({settled_figure(fact)}): do not use bf16 here"
        return "fp32", fact_line(text, fact)
    if side == "above":
        return "bf16", fact_line(
            f"bf16 GEMM measured faster than fp32 on {fact.hardware} ({settled_figure(fact)}): use bf16", fact
        )
    return None


def unsettled_gemm_line(context: RuleContext, dtype: str) -> Rationale | None:
    """bf16 against fp32 measured, but the samples leave it the same or unsettled: the default `dtype` stays."""
    fact = context.facts.usable(GEMM_BF16_SPEEDUP.name)
    return (
        None
        if fact is None
        else unsettled_line(fact, "gemm", f"{dtype}, the default on {context.platform.name}, stays")
    )


def fp8_gemm(context: RuleContext, library: Candidate | None) -> Rationale | None:
    """FP8 asked and the GEMM library runs FP8 on this platform (and, where measured on the target, it is
    not slower than bf16): the reason to run the GEMMs in FP8."""
    if context.profile.needs.quantization != "fp8" or library is None or context.platform.kind == "cpu":
        return None
    if library.fp8.value not in ("yes", "partial"):
        return None
    if context.device is not None and not context.device.may_run("fp8"):  # an A100 has no FP8 units (review 82 p02)
        return None
    measured = context.facts.usable(GEMM_FP8_VS_BF16_SPEEDUP.name)
    if measured is not None and measured.on_target and measured.value < FP8_WORTH:
        return None  # measured slower than bf16 here: bf16 it is (fp8_slower_line says so)
    text = f"FP8 asked for, and {library.name} runs FP8 GEMMs on {context.platform.name}: the linear layers run in FP8"
    cites = [cite_claim(library, "fp8"), cite_profile(context.profile, "needs.quantization")]
    if measured is not None and measured.on_target:
        return line(f"{text}; measured {measured.figure}", *cites, cite_fact(measured))
    return line(text, *cites)


def fp8_slower_line(context: RuleContext) -> Rationale | None:
    """FP8 asked but measured slower than bf16 on the target: why the GEMMs stay in bf16."""
    measured = context.facts.usable(GEMM_FP8_VS_BF16_SPEEDUP.name)
    if (
        context.profile.needs.quantization != "fp8"
        or measured is None
        or not measured.on_target
        or measured.value >= FP8_WORTH
    ):
        return None
    return fact_line(
        f"FP8 GEMM measured slower than bf16 on {measured.hardware} ({measured.figure}): kept in bf16", measured
    )


def gemm_dtype(context: RuleContext, library: Candidate | None = None) -> tuple[str, list[Rationale]]:
    """The GEMM dtype and the lines that say why."""
    fp8 = fp8_gemm(context, library)
    if fp8 is not None:
        return "fp8", [fp8]
    slower = fp8_slower_line(context)
    if slower is not None:
        return "bf16", [slower]
    measured = measured_gemm_dtype(context.facts)
    if measured is not None:
        return measured[0], [measured[1]]
    dtype = default_gemm_dtype(context)
    if dtype == "bf16":
        text = f"bf16 on {context.platform.name}: the matrix units' half-precision default for training and serving (not measured on the target yet)"
    elif dtype == "fp16" and context.device is not None:
        text = (
            f"fp16 on {context.device.name}: the half format among its documented matrix formats "
            f"({context.device.formats_text()}); bf16 is not listed there (a framework may still run it), so measure "
            "both on the target before settling"
        )
    else:
        text = f"fp32 on {context.platform.name} until bf16 GEMM is measured faster on the target"
    lines = [line(text, cite_profile(context.profile, "hardware"))]
    notes = (proxy_speed_note(context.facts, GEMM_BF16_SPEEDUP.name), unsettled_gemm_line(context, dtype))
    return dtype, lines + [note for note in notes if note is not None]


def dtype_switch_applies(context: RuleContext, dtype: str) -> bool:
    """A bf16-versus-fp32 switch speaks only where that is the open question: not for a quantized model, and on an
    accelerator (bf16 by default) only once it is measured there."""
    if dtype not in ("bf16", "fp32") or context.profile.needs.quantized:
        return False
    measured = context.facts.usable(GEMM_BF16_SPEEDUP.name)
    return context.platform.kind == "cpu" or (measured is not None and measured.on_target)


def dtype_switch(dtype: str) -> SwitchCondition:
    """The measurement that would flip the dtype."""
    metric = evidence_metric(GEMM_BF16_SPEEDUP)
    if dtype == "fp32":
        description = "bf16 GEMM >= 1.0x fp32 on the target: use bf16"
        return switch("bf16-gemm-faster", description, metric, ">=", 1.0, concern="gemm")
    description = "bf16 GEMM < 1.0x fp32 on the target: keep fp32"
    return switch("bf16-gemm-slower", description, metric, "<", 1.0, concern="gemm")


def share_weighted_dtype(
    context: RuleContext, shares: HotopShares | None
) -> tuple[str, list[Rationale], list[SwitchCondition]] | None:
    """The dtype when the GEMM share decides whether the measured dtype speed counts; None when it cannot matter
    (no shares, no measurement, or the measurement agrees with the hardware's default)."""
    measured, default = measured_gemm_dtype(context.facts), default_gemm_dtype(context)
    share_line = hot_spot_line(shares, "gemm")
    if shares is None or share_line is None or measured is None or measured[0] == default:
        return None
    metric, favours = (
        evidence_metric(HOTOP_SHARE.named("gemm")),
        predicate(evidence_metric(GEMM_BF16_SPEEDUP), *_SPEED_SAYS[measured[0]]),
    )
    if not is_minor(shares, "gemm"):
        description = (
            f"GEMM falls below {MINOR_SHARE:.0%} of the model's time: its speed stops driving the dtype ({default})"
        )
        falls = switch("hotop-gemm-share-falls", description, metric, "<", MINOR_SHARE, concern="gemm")
        return measured[0], [share_line, measured[1]], [dtype_switch(measured[0]), falls]
    hardware = context.profile.hardware
    speed = context.facts.usable(GEMM_BF16_SPEEDUP.name)
    assert speed is not None  # measured_gemm_dtype read it
    set_aside = fact_line(f"measured {speed.figure}, set aside: too little GEMM time for its dtype to matter", speed)
    default_line = line(f"{default} stays, the default on {hardware}", cite_profile(context.profile, "hardware"))
    lines = [share_line, set_aside, default_line]
    description = (
        f"GEMM reaches {MINOR_SHARE:.0%} of the model's time with {measured[0]} measured faster: use {measured[0]}"
    )
    grows = switch("hotop-gemm-share-grows", description, metric, ">=", MINOR_SHARE, favours, concern="gemm")
    return default, lines, [grows]


def triton_gemm_parity(facts: EvidenceFacts) -> tuple[bool, Rationale] | None:
    """Whether Triton's GEMM reaches TRITON_PARITY of the vendor GEMM on the target; None when unmeasured."""
    fact = facts.usable(TRITON_VS_VENDOR_GEMM.name)
    if fact is None or fact.settled_side(TRITON_PARITY) not in ("above", "below"):
        return None  # unmeasured, or not settled against parity by these samples: the vendor GEMM stays
    reached = fact.settled_side(TRITON_PARITY) == "above"
    verdict = "close enough to serve as the unified layer" if reached else "too far behind: keep the vendor GEMM"
    return reached, fact_line(f"{settled_figure(fact)}: {verdict}", fact)


def parity_switch(reached: bool) -> SwitchCondition:
    """Triton behind: move GEMM to Triton at parity; Triton chosen: back to the vendor GEMM when it falls behind."""
    metric = evidence_metric(TRITON_VS_VENDOR_GEMM)
    if reached:
        description = f"Triton GEMM < {TRITON_PARITY}x vendor GEMM on the target: keep the vendor GEMM in tier 3"
        return switch("triton-gemm-behind", description, metric, "<", TRITON_PARITY, concern="gemm")
    description = f"Triton GEMM >= {TRITON_PARITY}x vendor GEMM on the target: move GEMM to Triton in tier 3"
    return switch("triton-gemm-parity", description, metric, ">=", TRITON_PARITY, concern="gemm")


def tier3_gemm(context: RuleContext) -> tuple[TierEntry, SwitchCondition | None]:
    """Triton for GEMM in tier 3 unless measured below parity on the target, then the vendor GEMM stays
    (unless GEMM is a minor share of the model's time: then the gap costs little)."""
    parity = triton_gemm_parity(context.facts)
    shares = hotop_shares(context.facts, context.profile)
    if parity is not None and not parity[0] and is_minor(shares, "gemm"):
        entry = tier3_entry(context, "gemm")
        minor = hot_spot_line(shares, "gemm")
        if (
            isinstance(entry, Choice)
            and entry.option == context.knowledge.policy.portable_kernel_language
            and minor is not None
        ):
            reasons = (parity[1], minor)
            description = (
                f"GEMM reaches {MINOR_SHARE:.0%} of the model's time with Triton's GEMM below "
                f"{TRITON_PARITY}x the vendor's: keep the vendor GEMM in tier 3"
            )
            behind = predicate(evidence_metric(TRITON_VS_VENDOR_GEMM), "<", TRITON_PARITY)
            grows = switch(
                "hotop-gemm-share-grows-triton-behind",
                description,
                evidence_metric(HOTOP_SHARE.named("gemm")),
                ">=",
                MINOR_SHARE,
                behind,
                concern="gemm",
            )
            return entry.model_copy(update={"rationale": reasons + entry.rationale}), grows
    if parity is not None and not parity[0]:
        vendor = pick(context, "gemm", context.official("gemm"), consider_all=False)
        return entry_from(vendor, "gemm", context, gap_reason="no vendor GEMM", lines=[parity[1]]), parity_switch(False)
    entry = tier3_entry(context, "gemm")
    if isinstance(entry, Choice) and entry.option == context.knowledge.policy.portable_kernel_language:
        lines: tuple[Rationale, ...] = (parity[1],) if parity is not None else ()
        watched = (
            parity_switch(True) if entry.fits_team else None
        )  # Triton beyond the team is never run: nothing to watch
        return entry.model_copy(update={"rationale": lines + entry.rationale}), watched
    return entry, None


def layers_line(context: RuleContext) -> Rationale | None:
    """Large training: the framework's layers (Transformer Engine) call the GEMM library and carry the FP8 recipe."""
    if context.stack.layers is None:
        return None
    layers = context.knowledge.get(context.stack.layers)
    text = f"called through {layers.name}'s layers inside {context.stack.training_framework}, which also carry the FP8/BF16 recipe"
    return line(text, cite_claim(layers, "summary"), cite_profile(context.profile, "needs.devices"))


def decide_gemm(context: RuleContext) -> ConcernDecision:
    """Tier 1: the platform's GEMM library in the precision plan's dtype; tier 2: its deep-development route; tier 3: Triton."""
    chosen = pick(context, "gemm", context.official("gemm"))
    shares = hotop_shares(context.facts, context.profile)
    weighted = None if fp8_gemm(context, chosen.chosen) is not None else share_weighted_dtype(context, shares)
    if weighted is not None:
        dtype, lines, switches = weighted
    else:
        dtype, lines = gemm_dtype(context, chosen.chosen)
        share_line = hot_spot_line(shares, "gemm")
        lines = ([share_line] if share_line is not None else []) + lines
        switches = [dtype_switch(dtype)] if dtype_switch_applies(context, dtype) else []
    device = context.device
    runs_fp8 = device is None or device.may_run("fp8")  # a library gaining FP8 changes nothing on a device without it
    if context.profile.needs.quantization == "fp8" and dtype != "fp8" and chosen.chosen is not None and runs_fp8:
        library = chosen.chosen.id
        description = f"{library}.fp8 becomes yes in the knowledge base: run the GEMMs in FP8 as asked"
        switches.append(
            switch(f"kb-{library}-fp8", description, f"knowledge.{library}.fp8", "==", "yes", concern="gemm")
        )
    settings = {"dtype": dtype}
    layers = layers_line(context)
    if layers is not None:
        settings["via"] = context.stack.layers or ""
        lines.append(layers)
    reason = f"no GEMM library for {context.profile.hardware} in the knowledge base"
    tier1 = entry_from(chosen, "gemm", context, gap_reason=reason, settings=settings, lines=lines)
    tier3, parity_switch = tier3_gemm(context)
    # tier 3 matters where the job runs on several families, or where a team that writes kernels measured Triton's
    # GEMM; for one family and no such reading it is exploration only, and a switch about its GEMM reads as noise
    # beside a stack with no Triton GEMM in it (review 111 p02, p04)
    measured = context.facts.usable(TRITON_VS_VENDOR_GEMM.name) is not None
    tier3_matters = context.profile.needs.cross_platform or (context.profile.team_skill != "framework" and measured)
    if parity_switch is not None and tier3_matters:
        switches.append(parity_switch)
    return ConcernDecision(
        concern="gemm",
        tier1=tier1,
        tier2=tier2_entry(context, "gemm"),
        tier3=tier3,
        rejections=rejections_from(chosen, "gemm"),
        switch_conditions=tuple(switches),
    )
