"""Render a decision record: YAML front matter (yaml.safe_dump) and a Jinja2 Markdown body.

Deterministic: the date comes in with the front matter, nothing here reads the clock. Every string
that did not come from this template passes through `md_escape`, so a title cannot inject HTML,
links or table cells.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import yaml
from jinja2 import Environment, PackageLoader, StrictUndefined

from advisor.knowledge.loader import load_knowledge_base
from advisor.markdown import md_escape
from advisor.environment.family import device_family
from advisor.recommendation.models import Recommendation
from advisor.recommendation.summary import cites_text
from advisor.records.evidence_tables import evidence_tables
from advisor.records.models import RecordError, RecordFrontMatter
from probes.models import Evidence

FRONT_MATTER_FENCE = "---"

# What each model type stresses (method #hot-operators): the operators to profile first.
HOT_OPERATORS: dict[str, str] = {
    "dense-transformer": "GEMM (usually over 60% of training compute), attention, LayerNorm/RMSNorm and activations",
    "moe": "expert GEMMs, routing (top-k, gather/scatter), all-to-all collectives and attention",
    "multimodal": "GEMM and attention over mixed sequence lengths, vision encoders' convolutions or patch GEMMs",
    "diffusion": "convolutions and GroupNorm in the U-Net, attention blocks, many small elementwise ops",
    "cnn": "convolutions (implicit GEMM), BatchNorm and activations, pooling",
}

YEARLY_QUESTIONS = (
    "Does a new version of the chosen stack fix bugs or performance problems that affect us?",
    "Does it bring new operators that simplify our code (fused attention, quantized kernels, compiler passes)?",
    "What does the upgrade cost in testing (accuracy, performance, every target platform)?",
)

def _environment() -> Environment:
    env = Environment(
        loader=PackageLoader("advisor", "templates"),
        autoescape=False,  # Markdown, not HTML: md_escape does the escaping, per value
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["md_escape"] = md_escape
    env.filters["cites"] = cites_text
    return env


def front_matter_text(front: RecordFrontMatter) -> str:
    """The front matter block, fences included, values quoted by yaml.safe_dump where they need it."""
    dumped = yaml.safe_dump(front.as_yaml_data(), sort_keys=False, allow_unicode=True, width=1000)
    return f"{FRONT_MATTER_FENCE}\n{dumped}{FRONT_MATTER_FENCE}\n"


def split_front_matter(text: str, origin: str) -> tuple[dict[str, Any], str]:
    """The front matter mapping and the body of a record's text; RecordError naming `origin` otherwise."""
    lines = text.split("\n")
    if not lines or lines[0].strip() != FRONT_MATTER_FENCE:
        raise RecordError(f"{origin}: no YAML front matter (the file must start with '---')")
    try:
        end = next(index for index, line in enumerate(lines[1:], 1) if line.rstrip() == FRONT_MATTER_FENCE)
    except StopIteration:
        raise RecordError(f"{origin}: the front matter has no closing '---'") from None
    try:
        data = yaml.safe_load("\n".join(lines[1:end]))
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" at line {mark.line + 2}" if mark is not None else ""
        raise RecordError(f"{origin}: front matter is not valid YAML ({getattr(error, 'problem', None) or 'syntax error'}{where})") from None
    if not isinstance(data, dict):
        raise RecordError(f"{origin}: the front matter is not a mapping of keys")
    return data, "\n".join(lines[end + 1 :])


def compose(front: RecordFrontMatter, body: str) -> str:
    """A record's whole text from its front matter and body."""
    return front_matter_text(front) + body


def _considered(recommendation: Recommendation) -> list[dict[str, Any]]:
    names = {candidate.id: candidate for candidate in load_knowledge_base().candidates}
    concerns: dict[str, list[str]] = {}
    for tier in recommendation.tiers:
        for choice in tier.choices:
            for option in (choice.option, *choice.alternatives):
                concerns.setdefault(option, [])
                if choice.concern not in concerns[option]:
                    concerns[option].append(choice.concern)
    for rejection in recommendation.rejected:
        listed = concerns.setdefault(rejection.option, [])
        listed.extend(concern for concern in rejection.concerns if concern not in listed)
    rows = []
    for option, option_concerns in concerns.items():
        candidate = names.get(option)
        rows.append({
            "id": option,
            "name": candidate.name if candidate else option,
            "summary": candidate.summary.value if candidate else "",
            "concerns": ", ".join(option_concerns),
        })  # fmt: skip
    return rows


MEASURED_ON_HEADER = ("file", "machine", "measured on", "device", "cases", "role")


def measured_on_rows(front: RecordFrontMatter, evidence: Sequence[Evidence]) -> list[tuple[str, ...]]:
    """One row per evidence file and device: which machine (hostname hash), where, and whether that is the target."""
    target = front.profile.get("hardware")
    rows = []
    for ref, item in zip(front.evidence, evidence):
        per_device: dict[str, int] = {}
        for case in item.cases:
            per_device[case.key.device] = per_device.get(case.key.device, 0) + 1
        for device, count in sorted(per_device.items()):
            family = device_family(device, item.environment) or "unknown"
            role = "on target" if family == target else "proxy"
            rows.append((ref.file, item.environment.hostname_hash[:8], family, item.device_name(device), str(count), role))
    return rows


def target_match_text(rows: Sequence[tuple[str, ...]], target: object) -> str:
    """Which machine(s) match the target hardware, or that none does (then every figure is proxy evidence)."""
    matching = [f"{row[0]} (machine {row[1]}, {row[3]})" for row in rows if row[-1] == "on target"]
    if not matching:
        return (f"No machine matches the target hardware ({target}): every figure above is proxy evidence, "
                "used for what carries across hardware, never for speed.")  # fmt: skip
    return f"Matches the target hardware ({target}): {', '.join(dict.fromkeys(matching))}."


def measured_hot_operators(model_type: str, evidence: Sequence[Evidence]) -> list[str]:
    """The hotops probe's lines for this model type (or the user's own model), as `advisor probe` prints them."""
    from probes.hotops.analysis import hotops_profiles, profile_line
    from probes.hotops.options import CUSTOM_MODEL

    lines = []
    for item in evidence:
        for profile in hotops_profiles(item.cases):
            if profile.model in (model_type, CUSTOM_MODEL):
                lines.append(f"{profile_line(profile)} ({item.device_name(profile.case.key.device)})")
    return lines


def render_body(front: RecordFrontMatter, recommendation: Recommendation, evidence: Sequence[Evidence]) -> str:
    """The Markdown after the front matter."""
    profile = recommendation.profile
    template = _environment().get_template("record.md.j2")
    measured_on = measured_on_rows(front, evidence)
    return template.render(
        front=front,
        recommendation=recommendation,
        profile=profile,
        hot_operators=HOT_OPERATORS.get(profile.model_type, "profile the top-10 operators by time"),
        measured_hot_operators=measured_hot_operators(profile.model_type, evidence),
        considered=_considered(recommendation),
        evidence_files=[
            {"ref": ref, "evidence": item, "tables": evidence_tables(item)}
            for ref, item in zip(front.evidence, evidence)
        ],
        evidence_files_rows=measured_on,
        measured_on_header=MEASURED_ON_HEADER,
        target_match=target_match_text(measured_on, profile.hardware),
        questions=YEARLY_QUESTIONS,
    )


def render_record(front: RecordFrontMatter, recommendation: Recommendation, evidence: Sequence[Evidence]) -> str:
    """The whole record file: front matter, then the Markdown body."""
    return compose(front, render_body(front, recommendation, evidence))
