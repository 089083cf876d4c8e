"""Reference evidence for the target device: what its vendor measured there (advisor/reference/), as the figures a
recommendation quotes and the confidence they may add.

It never rejects an option and never moves a choice: the team's own evidence on the target does that. It may raise
the confidence of a choice that rests on the knowledge base alone, up to REFERENCE_CAP, below what evidence measured
on the target reaches.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from advisor.knowledge.stacks import Stack
from advisor.profile import Profile
from advisor.recommendation.adapt import after_first
from advisor.recommendation.models import Citation, Rationale, ReferenceFigure, Tier
from advisor.recommendation.policy import REFERENCE_CAP, REFERENCE_FACTOR
from advisor.recommendation.served_format import block_scaled_fp8
from advisor.reference.facts import device_facts
from advisor.reference.tables import ENGINE_NAMES, reference_for, system_for, table_engine_for


def table_engine(tier1: Tier) -> str:
    """The engine whose tables match tier 1's serving engine (the tables' default where it names none of them)."""
    deployment = next((c.option for c in tier1.choices if c.concern == "deployment"), None)
    return table_engine_for(deployment)


# Figures that do not depend on the model's layers (the collective's bus bandwidth): quoted for any model.
MODEL_FREE_FIGURES = frozenset({"allreduce_busbw_gbps"})


def reference_figures(
    profile: Profile, device: str | None, tier1: Tier
) -> tuple[tuple[ReferenceFigure, ...], str | None]:
    """The vendor's figures for the device and a one-line note on where they come from (or that none exist)."""
    reference = reference_for(device)
    if reference is None:
        where = device or profile.hardware
        return (), f"no vendor reference exists for {where}: only evidence measured on it would add numbers"
    engine = table_engine(tier1)
    gemm_format = "fp8_block" if block_scaled_fp8(profile) else "fp8"
    facts = [
        fact
        for fact in device_facts(reference, engine, gemm_format, profile.needs.devices)
        if relevant(fact.name, profile)
    ]
    figures = tuple(
        ReferenceFigure(name=f.name, value=round(f.value, 4), figure=f.figure, label=f.label) for f in facts
    )
    if not figures:  # nothing in NVIDIA's tables bears on this profile (a single-device diffusion model, say)
        return (), None
    note = (
        f"NVIDIA's own measurements on {reference.device_id} ({reference.package} {reference.version}, "
        f"{ENGINE_NAMES.get(engine, engine)} tables), not this team's model or machine"
    )
    return figures, note


def relevant(name: str, profile: Profile) -> bool:
    """The figures a decision for this profile weighs: the serving engines' tables (FP8 GEMMs where FP8 is asked,
    attention growth for long context, the FP8 KV cache for either) only where an LLM is served, since they time LLM
    layers and a KV cache (a diffusion transformer has neither decode steps nor a KV cache); all-reduce for a job on
    several devices, training included."""
    needs = profile.needs
    if name not in MODEL_FREE_FIGURES and not profile.llm:
        return False
    if name.startswith(("fp8_over_bf16_gemm", "fp8_block_over_bf16_gemm")):
        return profile.serves and needs.quantization == "fp8"
    if name == "context_attention_growth":
        return profile.serves and needs.long_context
    if name == "fp8_kv_decode_speedup":
        return profile.serves and (needs.long_context or needs.quantization == "fp8")
    return needs.devices > 1


def with_reference(
    confidence: float,
    notes: Sequence[str],
    figures: Sequence[ReferenceFigure],
    timed_on_target: bool,
    unlike_model: str | None = None,
) -> tuple[float, tuple[str, ...]]:
    """The confidence raised by the vendor's figures for the device, where no case was timed there, up to the cap;
    not where `unlike_model` says how the model differs from the dense GQA layers the figures were measured on, nor
    where the only figure is the collectives' bandwidth, which times no layer of the model."""
    if not figures or timed_on_target:
        return confidence, tuple(notes)
    if all(figure.name in MODEL_FREE_FIGURES for figure in figures):  # an all-reduce bandwidth backs no layer choice
        return confidence, tuple(notes)
    if unlike_model is not None:
        note = (
            f"NVIDIA's measurements on this device are quoted but do not raise the confidence: they time dense GQA "
            f"layers (8B-70B shapes, 32 query / 8 KV heads), and {unlike_model}"
        )
        return confidence, (*notes, note)
    raised = min(REFERENCE_CAP, round(confidence * REFERENCE_FACTOR, 2))
    if raised <= confidence:
        return confidence, tuple(notes)
    note = (
        f"NVIDIA's own measurements on this device raise the confidence by a tenth, to {REFERENCE_CAP} at most: "
        "they are not this team's model on its own machine, which only evidence timed there is"
    )
    return raised, (*notes, note)


def unlike_reference_layers(profile: Profile, stacks: Sequence[Stack]) -> str | None:
    """How the model differs from the dense GQA layers the reference figures time, or None where it does not: a MoE's
    expert GEMMs, or attention of another kind in a stack written for named models (DeepSeek's MLA)."""
    if profile.model_type == "moe":
        return "a MoE model's expert GEMMs and routing are not those layers"
    written_for = sorted({model for stack in stacks for model in stack.applies_to.models})
    if written_for:
        return f"the chosen stack is written for {', '.join(written_for)}, whose layers are not those"
    return None


# Figures that time GQA attention (32 query / 8 KV heads) and its KV cache: nothing an MLA model's latent attention runs.
GQA_ATTENTION_FIGURES = frozenset({"context_attention_growth", "fp8_kv_decode_speedup"})
MLA = re.compile(r"\bMLA\b")


def for_attention_kind(figures: Sequence[ReferenceFigure], stacks: Sequence[Stack]) -> tuple[ReferenceFigure, ...]:
    """The figures less those timing GQA attention where a chosen stack runs MLA attention (DeepSeek's latent heads:
    review 117 p01 found NVIDIA's 32-query/8-KV-head timings quoted for DeepSeek-V3.1)."""
    mla = any(
        MLA.search(f"{component.name} {component.setting or ''}")
        for stack in stacks
        for component in stack.components
        if component.role == "attention"
    )
    return tuple(figure for figure in figures if not (mla and figure.name in GQA_ATTENTION_FIGURES))


# The tier-1 concern whose choice each figure bears on.
FIGURE_CONCERNS = {
    "fp8_over_bf16_gemm": "gemm",
    "fp8_block_over_bf16_gemm": "gemm",
    "fp8_kv_decode_speedup": "deployment",
    "context_attention_growth": "attention",
    "allreduce_busbw_gbps": "collectives",
}


def cited_in_tier1(tier1: Tier, figures: Sequence[ReferenceFigure], device: str | None) -> Tier:
    """Tier 1 with each figure quoted under the choice it bears on, right after that choice's first reason (cited as
    reference evidence: who measured it, where)."""
    system = system_for(device)
    if not figures or system is None:
        return tier1
    choices = list(tier1.choices)
    for figure in figures:
        concern = FIGURE_CONCERNS.get(figure.name)
        index = next((i for i, c in enumerate(choices) if c.concern == concern), None)
        if index is None:
            continue
        cite = Citation(
            kind="reference", ref=f"reference.{system}.{figure.name}", figure=f"{figure.value:.3g}", source=figure.label
        )
        why = Rationale(text=f"NVIDIA measured on this device: {figure.figure}", cites=(cite,))
        choices[index] = after_first(choices[index], why)
    return tier1.model_copy(update={"choices": tuple(choices)})


def quoted(figures: Sequence[ReferenceFigure]) -> list[str]:
    """Each figure with its label, as the text and the record print it."""
    return [f"{figure.figure} ({figure.label})" for figure in figures]
