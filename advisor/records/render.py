"""Render a decision record: YAML front matter (yaml.safe_dump) and a Jinja2 Markdown body.

Deterministic: the date comes in with the front matter, nothing here reads the clock. Every string
that did not come from this template passes through `md_escape`, so a title cannot inject HTML,
links or table cells.
"""

from __future__ import annotations

import statistics

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import yaml
from jinja2 import Environment, PackageLoader, StrictUndefined

from advisor.markdown import md_escape, md_prose
from advisor.profile import Profile
from advisor.recommendation.models import Choice, ChosenStack, Rationale, Recommendation, Tier
from advisor.recommendation.reference import quoted
from advisor.recommendation.summary import applying_risks, cites_text, in_sentence, versions_text
from advisor.records.evidence_tables import evidence_tables
from advisor.records.models import RecordError, RecordFrontMatter
from advisor.reference.check import evidence_reference_check
from probes.environment.family import device_family
from probes.files.safe_yaml import YamlInputError, load_yaml
from probes.models import Evidence

FRONT_MATTER_FENCE = "---"

# What each model type stresses (method #hot-operators): the operators to profile first.
HOT_OPERATORS: dict[str, str] = {
    "dense-transformer": "GEMM (the largest share of compute, usually over 60% in training), attention, LayerNorm/RMSNorm and activations",
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
    env.filters["md_prose"] = md_prose
    env.filters["cites"] = cites_text
    return env


class _FrontMatterDumper(yaml.SafeDumper):
    """safe_dump's output, with lists of plain values on one line ([a, b]): a record stays short."""


def _represent_list(dumper: yaml.SafeDumper, items: list[Any]) -> yaml.Node:
    flat = all(isinstance(item, (str, int, float, bool)) or item is None for item in items)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", items, flow_style=flat)


def _represent_dict(dumper: yaml.SafeDumper, mapping: dict[Any, Any]) -> yaml.Node:
    flat = len(mapping) > 4 and all(isinstance(v, (str, int, float, bool)) or v is None for v in mapping.values())
    return dumper.represent_mapping("tag:yaml.org,2002:map", mapping.items(), flow_style=flat or None)


_FrontMatterDumper.add_representer(list, _represent_list)
_FrontMatterDumper.add_representer(dict, _represent_dict)
_FrontMatterDumper.add_representer(tuple, _represent_list)


def front_matter_text(front: RecordFrontMatter) -> str:
    """The front matter block, fences included, values quoted by the YAML dumper where they need it."""
    dumped = yaml.dump(front.as_yaml_data(), Dumper=_FrontMatterDumper, sort_keys=False, allow_unicode=True, width=1000)
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
        data = load_yaml("\n".join(lines[1:end]))
    except YamlInputError as error:
        raise RecordError(f"{origin}: front matter not accepted ({error})") from None
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


MEASURED_ON_HEADER = ("file", "machine", "measured on", "device", "cases", "role")


def measured_on_rows(front: RecordFrontMatter, evidence: Sequence[Evidence]) -> list[tuple[str, ...]]:
    """One row per evidence file and device: which machine (hostname hash), where, and whether that is the target."""
    target = front.profile.get("hardware")
    rows: list[tuple[str, ...]] = []
    for ref, item in zip(front.evidence, evidence):
        per_device: dict[str, int] = {}
        for case in item.cases:
            per_device[case.key.device] = per_device.get(case.key.device, 0) + 1
        for device, count in sorted(per_device.items()):
            family = device_family(device, item.environment) or "unknown"
            role = "on target" if family == target else "proxy"
            rows.append((ref.file, item.environment.hostname_hash[:8], family, item.device_name(device), str(count), role))
    return rows


def target_match_text(rows: Sequence[tuple[str, ...]], target: object, timed: bool = True) -> str:
    """Which machine(s) match the target hardware, or that none does (then every figure is proxy evidence);
    a run with no timed case says it measured nothing."""
    if not timed:
        return ("No case was timed (the probes failed or their time ran out): nothing was measured, and the "
                "decision rests on the knowledge base alone; run `advisor probe` again with a larger budget.")
    matching = [f"{row[0]} (machine {row[1]}, {row[3]})" for row in rows if row[-1] == "on target"]
    if not matching:
        return (f"No machine matches the target hardware ({target}): every figure above is proxy evidence, "
                "used for what carries across hardware, never for speed.")
    return f"Matches the target hardware ({target}): {', '.join(dict.fromkeys(matching))}."


def measured_hot_operators(model_type: str, evidence: Sequence[Evidence]) -> list[str]:
    """The hotops probe's lines for this model type (or the user's own model), as `advisor probe` prints them."""
    from probes.hotops.report import hotops_profiles, profile_line
    from probes.hotops.options import CUSTOM_MODEL

    lines = []
    for item in evidence:
        for profile in hotops_profiles(item.cases):
            if profile.model in (model_type, CUSTOM_MODEL):
                lines.append(f"{profile_line(profile)} ({item.device_name(profile.case.key.device)})")
    return lines


EVIDENCE_SUFFIX = ".evidence.json"
MAX_FINDINGS = 6


def settings_text(choice: Choice) -> str:
    """' [dtype=fp8, via=vllm]' or ''."""
    pairs = ", ".join(f"{name}={md_escape(value)}" for name, value in choice.detail_settings().items())
    return f" [{pairs}]" if pairs else ""


def grouped_choices(tier: Tier) -> list[dict[str, Any]]:
    """A secondary tier's choices, one line per option with every concern it covers: a stack's part by its own name
    with the candidate it runs on ('DeepSpeed (Intel Gaudi fork) (synapseai)'), apart from that candidate's other
    concerns; `settings` are theirs, which tier 1's line keeps when another tier leads (the AITER switch, the KV-cache format)."""
    groups: dict[str, dict[str, Any]] = {}
    for choice in tier.choices:
        label = choice.label
        group = groups.setdefault(label, {"option": label, "concerns": [], "reason": choice.rationale[-1 if len(choice.rationale) == 1 else 0].text, "fits_team": choice.fits_team, "settings": ""})
        group["concerns"].append(choice.concern)
        shown = settings_text(choice)
        if shown not in group["settings"]:
            group["settings"] += shown
    return list(groups.values())


STACKS_HEADER = ("stack", "runs the model", "precision", "fits, or why not", "documented at")


MAX_RECORD_REASONS = 2  # a tier-1 choice's reasons in the record (the full list is in the JSON and `recommend`)


# reasons answering a need of the profile, kept beside the first reason: the engine's long-context features and the
# model card's context-window extension (review 210 p01: the record dropped the YaRN step of a 128k plan)
KEPT_IN_RECORD = ("long context: ", "context window: ")


MAX_RECORD_RISKS = 4  # the chosen stacks' own risks in the record, shared among them (all in `recommend` and the JSON)
MAX_RECORD_LINES = 150  # issue 28: a record stays at most 150 lines, front matter included


@dataclass(frozen=True)
class Budget:
    """How much of each tier-1 choice's reasons and of the stacks' risks a record shows."""

    reasons: int = MAX_RECORD_REASONS
    watch: bool = True  # each choice's risk to watch
    risks: int = MAX_RECORD_RISKS
    references: int | None = None  # the vendor's reference figures quoted under Evidence (None: all)


# Budgets tried in turn until the record fits MAX_RECORD_LINES: fewer stack risks, then one reason a choice (with the
# lines answering the profile's needs), then no per-choice watch line (the JSON and `recommend` keep them all)
BUDGETS = (
    Budget(),
    Budget(risks=2),
    Budget(reasons=1, risks=2),
    Budget(reasons=1, watch=False, risks=2),
    Budget(reasons=1, watch=False, risks=1),
    Budget(reasons=1, watch=False, risks=1, references=1),
)


def shown_reasons(rationale: Sequence[Rationale], budget: Budget = Budget()) -> list[Rationale]:
    """A tier-1 choice's first reasons, any reason answering a need of the profile (its long-context line), and the
    risk to watch, for the record."""
    plain = [r for r in rationale if not r.text.startswith("watch: ")]
    kept = [r for r in plain[1:] if r.text.startswith(KEPT_IN_RECORD)][: len(KEPT_IN_RECORD)]
    first = [r for r in plain[: budget.reasons] if r not in kept][: max(1, budget.reasons - len(kept))]
    reasons = first + kept  # in place of the last first reasons: the record's length
    return reasons + ([r for r in rationale if r.text.startswith("watch: ")][:1] if budget.watch else [])


def record_risks(recommendation: Recommendation, most: int = MAX_RECORD_RISKS) -> list[tuple[ChosenStack, int, str]]:
    """The chosen stacks' risks for the record's consequences: those that concern the profile, its needs first, an
    equal share of `most` for each stack."""
    share = most // max(1, len(recommendation.stacks))
    return [(stack, index, risk) for stack in recommendation.stacks
            for index, risk in applying_risks(stack, recommendation.profile)[:share]]


def stacks_rows(recommendation: Recommendation) -> list[tuple[str, ...]]:
    """The "Stacks considered" table: the chosen stacks first (with the versions their page validates, the review's
    baseline), then the others with their decisive reason."""
    versions = {stack.stack: versions_text(stack) for stack in recommendation.stacks}
    written_for = {stack.stack: text for stack in recommendation.stacks if (text := stack.models_text()) is not None}
    rows: list[tuple[str, ...]] = []
    for option in recommendation.stacks_considered:
        name = f"{option.name} ({option.workload}{', chosen' if option.chosen else ''})"
        reason = f"{option.reason}; validated with: {versions[option.stack]}" if option.stack in versions else option.reason
        if option.chosen and option.stack in written_for:
            reason += f"; {written_for[option.stack]}"
        rows.append((name, option.runner, ", ".join(option.precisions), reason, option.source))
    return rows


def skipped_text(recommendation: Recommendation) -> str:
    """'convolution (a dense-transformer model has few ...); collectives (one device ...)'."""
    return "; ".join(f"{item.concern} ({item.rationale[0].text})" for item in recommendation.skipped_concerns)


def confidence_text(recommendation: Recommendation) -> str:
    """The confidence's first note (where the evidence came from) and how many more notes follow."""
    notes = recommendation.confidence_notes
    more = f" ({len(notes) - 1} more note{'s' if len(notes) > 2 else ''} under Decision Drivers)" if len(notes) > 1 else ""
    return (notes[0] if notes else "no notes") + more


def drivers_text(profile: Profile) -> str:
    """The profile in one line."""
    needs = profile.needs
    quantization = needs.quantization + (f" ({needs.quantization_method})" if needs.quantized else "")
    parts = [
        f"target {profile.hardware}" + (f" ({profile.device})" if profile.device else ""), f"workload {profile.workload}", f"team skill {profile.team_skill}",
        f"dynamic shapes {'yes' if needs.dynamic_shapes else 'no'}", f"quantization {quantization}",
        f"long context {'yes' if needs.long_context else 'no'}", f"{needs.devices} device(s) per job",
        "cross-platform " + (", ".join(needs.other_hardware) if needs.other_hardware else ("yes" if needs.cross_platform else "no")),
    ]
    return "* " + "; ".join(md_escape(part) for part in parts) + "."


def considered_text(recommendation: Recommendation) -> str:
    """The stacks of the table above, then each concern's alternatives where a tier names any, and the rejected
    options: every option the record names, with where it stands."""
    def ids(options: Sequence[str]) -> str:
        return ", ".join(f"`{md_escape(option).replace(chr(96), '')}`" for option in options)

    stacks = len(recommendation.stacks_considered)
    parts = [f"The {stacks} stacks in the table above"] if stacks else []
    # each tier's own pick for a concern, with what it was weighed against there (tier 2's kernel to write is no rival
    # of tier 1's part: reviews 199 p04 and 200 p03 read "triton over aiter" as contradicting tier 1)
    alternatives = [f"tier {tier.tier} {choice.concern}: {ids([choice.option])}, weighed against {ids(choice.alternatives)}"
                    for tier in recommendation.tiers for choice in tier.choices if choice.alternatives]
    if alternatives:
        parts.append("within each tier (its own pick, not tier 1's), " + "; ".join(alternatives))
    rejected = list(dict.fromkeys(rejection.option for rejection in recommendation.rejected))
    if rejected:
        parts.append(f"rejected (see Rejected Options): {ids(rejected)}")
    text = "; ".join(parts)
    return (text[:1].upper() + text[1:] + ".") if parts else "None."


def evidence_findings(evidence: Sequence[Evidence]) -> list[str]:
    """How well each file's samples pin their medians down, then the probes' findings, at most MAX_FINDINGS
    across the files (the full tables are on the site)."""
    found = [finding for item in evidence for table in evidence_tables(item) for finding in table.findings]
    reached = [line for item in evidence if (line := confidence_reached(item)) is not None]
    return reached + found[:MAX_FINDINGS]


def confidence_reached(evidence: Evidence) -> str | None:
    """'samples reached: ...' for one evidence file with timed cases, on a busy host said so; None without any."""
    widths = sorted(evidence.ci_half_widths())
    if not widths:
        return None
    host = evidence.host_contention
    busy = f"; the host was busy (other processes took {host.other_cpu_share:.0%} of the CPU)" if host and host.busy else ""
    settings = evidence.config.settings
    return (f"samples reached: each timed median within +/-{statistics.median(widths):.1%} (median over {len(widths)} "
            f"timed cases; widest +/-{widths[-1]:.1%}) at {settings.confidence:.0%} confidence; the harness aims at "
            f"+/-{settings.ci_target:.0%}{busy}")


def evidence_link(front: RecordFrontMatter) -> dict[str, str] | None:
    """The site's evidence page of this record (written beside the record page by `advisor site`)."""
    if not front.evidence or not front.evidence[0].file.endswith(EVIDENCE_SUFFIX):
        return None
    slug = front.evidence[0].file.removesuffix(EVIDENCE_SUFFIX)
    return {"title": f"evidence of {front.id:04d}", "href": f"{slug}-evidence.md"}


ESTIMATES_HEADER = ("engine", "mode", "layout", "batch", "TTFT ms", "TPOT ms", "tokens/s per GPU", "engine config")


def estimates_rows(recommendation: Recommendation, config_prefix: str) -> list[tuple[str, ...]]:
    """The serving estimate per engine, best first; its config file as written beside the record."""
    return [(f"{e.engine} {e.engine_version}", e.mode, e.parallel, e.batch, f"{e.ttft_ms:.0f}", f"{e.tpot_ms:.1f}",
             f"{e.tokens_per_s_per_gpu:.0f}", f"{config_prefix}{e.config_file}" if e.config_file else "-")
            for e in recommendation.estimates]


def render_body(front: RecordFrontMatter, recommendation: Recommendation, evidence: Sequence[Evidence],
                config_prefix: str = "", budget: Budget = Budget()) -> str:
    """The Markdown after the front matter: a summary table first, then the reasons, rejections, switches."""
    profile = recommendation.profile
    environment = _environment()
    environment.globals["settings"] = settings_text
    environment.globals["grouped"] = grouped_choices
    environment.globals["shown_reasons"] = lambda rationale: shown_reasons(rationale, budget)
    environment.filters["versions"] = versions_text
    environment.filters["in_sentence"] = in_sentence
    template = environment.get_template("record.md.j2")
    measured_on = measured_on_rows(front, evidence)
    tier1 = recommendation.tier(1)
    return template.render(
        front=front,
        recommendation=recommendation,
        profile=profile,
        stacks_header=STACKS_HEADER,
        stacks_rows=stacks_rows(recommendation),
        skipped_line=skipped_text(recommendation),
        confidence_line=confidence_text(recommendation),
        drivers=drivers_text(profile),
        hot_operators=HOT_OPERATORS.get(profile.model_type, "profile the top-10 operators by time"),
        measured_hot_operators=measured_hot_operators(profile.model_type, evidence),
        considered=considered_text(recommendation),
        evidence_files_rows=measured_on,
        evidence_findings=evidence_findings(evidence),
        evidence_link=evidence_link(front) if evidence else None,
        measured_on_header=MEASURED_ON_HEADER,
        target_match=target_match_text(measured_on, profile.hardware,
                                       any(item.has_timed_case() for item in evidence)),
        tier1_options=", ".join(f"{c.concern} {c.option}" for c in tier1.choices) or "empty",
        questions=YEARLY_QUESTIONS,
        maintenance=recommendation.maintenance_end(),
        early=recommendation.early_review() if front.review_by != front.date else None,
        stack_risks=record_risks(recommendation, budget.risks),
        reference_lines=quoted(recommendation.reference)[: budget.references],
        estimates_header=ESTIMATES_HEADER,
        estimates_rows=estimates_rows(recommendation, config_prefix),
        reference_checks=[line for item in evidence for line in evidence_reference_check(item)],
    )


def render_record(front: RecordFrontMatter, recommendation: Recommendation, evidence: Sequence[Evidence],
                  config_prefix: str = "") -> str:
    """The whole record file: front matter, then the Markdown body; `config_prefix` names the estimate configs'
    files beside it."""
    text = ""
    for budget in BUDGETS:  # the fullest record that fits MAX_RECORD_LINES, else the shortest
        text = compose(front, render_body(front, recommendation, evidence, config_prefix, budget))
        if len(text.splitlines()) <= MAX_RECORD_LINES:
            break
    return text
