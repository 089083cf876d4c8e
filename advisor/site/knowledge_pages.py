"""The knowledge-base page (hardware platforms with their devices, whole stacks and candidates, each claim with
a linked source and its date) and the method page ("How advisor decides") that method citations link to."""

from __future__ import annotations

from typing import Any

from advisor.knowledge.claims import Claim
from advisor.knowledge.method import method_text
from advisor.recommendation.policy import numbers_markdown
from advisor.knowledge.models import Candidate, KnowledgeBase
from advisor.knowledge.overview import checked, source_link
from advisor.knowledge.platforms import Platform
from advisor.knowledge.stacks import Stack
from advisor.markdown import md_escape
from advisor.site.pages import page_front_matter

METHOD_PAGE = "method.md"
METHOD_TITLE = "How advisor decides"


def _source_link(source: str) -> str:
    return source_link(source, METHOD_PAGE)


def _value(claim: Claim[Any]) -> str:
    text = md_escape(claim.text())
    if claim.value == "unknown" and claim.looked_for:
        text += f" (looked for: {md_escape(claim.looked_for)})"
    return text


def claims_table(claims: dict[str, Claim[Any]]) -> list[str]:
    """Attribute | Value | Source | As of | Note, one row per claim."""
    lines = ["| Attribute | Value | Source | As of | Note |", "| --- | --- | --- | --- | --- |"]
    for name, claim in claims.items():
        when = claim.as_of.isoformat() + (f" ({md_escape(claim.version)})" if claim.version else "")
        lines.append(f"| {md_escape(name)} | {_value(claim)} | {_source_link(claim.source)} | {when} | {md_escape(claim.note or '')} |")
    return lines


def candidate_section(candidate: Candidate) -> list[str]:
    """One candidate: its summary and every claim."""
    heading = f"### {md_escape(candidate.name)} (`{candidate.id}`) {{ #{candidate.id} }}"
    return [heading, "", md_escape(candidate.summary.value), "", *claims_table(candidate.claims()), ""]


def platform_section(platform: Platform) -> list[str]:
    """One hardware family: its summary, its devices and every claim (the official stack per concern first)."""
    heading = f"### {md_escape(platform.name)} (`{platform.id}`) {{ #platform-{platform.id} }}"
    return [heading, "", md_escape(platform.summary.value), "", *devices_table(platform), *claims_table(platform.claims()), ""]


def devices_table(platform: Platform) -> list[str]:
    """Device | Generation | Architecture | Memory | Formats, the default device marked; nothing without devices."""
    if not platform.devices:
        return []
    default = platform.default_device.value if platform.default_device is not None else None
    lines = ["| Device | Generation | Architecture | Memory | Formats |", "| --- | --- | --- | --- | --- |"]
    for device in platform.devices:
        name = md_escape(device.name) + (" (default)" if device.id == default else "")
        memory = f"{device.memory_gb:g} GB" if device.memory_gb is not None else ""
        lines.append(f"| {name} (`{device.id}`) | {md_escape(device.generation)} | {md_escape(device.architecture)} "
                     f"| {memory} | {device.formats_text()} |")
    return [*lines, ""]


def stack_section(stack: Stack) -> list[str]:
    """One whole stack: what it is, what it applies to, its components by role, versions, page and risks."""
    scope = stack.applies_to
    lines = [
        f"### {md_escape(stack.name)} (`{stack.id}`) {{ #stack-{stack.id} }}", "", md_escape(stack.summary.value), "",
        f"Applies to [`{scope.family}`](#platform-{scope.family}) ({md_escape(', '.join(scope.devices))}); "
        f"{', '.join(scope.workloads)}; {', '.join(scope.model_types)}; {', '.join(scope.precisions)}; "
        f"{', '.join(scope.scale)}. Documented by {_source_link(stack.source)}, checked {stack.as_of.isoformat()}.", "",
        "| Role | Component | Setting |", "| --- | --- | --- |",
    ]
    for component in stack.components:
        name = md_escape(component.name) + (f" ([`{component.candidate}`](#{component.candidate}))" if component.candidate else "")
        setting = md_escape(component.for_training(None).for_method(None).setting or "") + (f" ({_source_link(component.source)})" if component.source else "")
        lines.append(f"| {component.role} | {name} | {setting} |")
    if stack.validated_with:
        versions = ", ".join(f"{md_escape(name)} {md_escape(version)}" for name, version in stack.validated_with.items())
        lines += ["", f"Validated with {versions}."]
    if stack.caveats():
        lines += ["", *claims_table(stack.caveats())]
    return [*lines, ""]


def knowledge_page(knowledge: KnowledgeBase) -> str:
    """Every hardware platform (with its devices), whole stack and candidate with its claims, linked sources and
    dates."""
    oldest = min(checked(candidate.claims()) for candidate in knowledge.candidates)
    lines = [
        page_front_matter("Knowledge base") + "# Knowledge base", "",
        f"The {len(knowledge.platforms)} hardware platforms and {len(knowledge.candidates)} candidate stacks the "
        "recommendation chooses from. Every attribute is a claim with its source (a public vendor page, or a "
        f"section of [{METHOD_TITLE}]({METHOD_PAGE})) and the date it was last checked (oldest: {oldest}). "
        "`unknown` says what was looked for. `advisor kb audit` lists the claims older than a year.",
        "", "## Hardware platforms", "",
        "| Family | Name | GEMM | Attention | Collectives | Serving engines |", "| --- | --- | --- | --- | --- | --- |",
    ]
    for platform in knowledge.platforms:
        official = platform.official
        lines.append(
            f"| [`{platform.id}`](#platform-{platform.id}) | {md_escape(platform.name)} | {md_escape(official.gemm.text())} "
            f"| {md_escape(official.attention.text())} | {md_escape(platform.collective_library.text())} "
            f"| {md_escape(platform.serving_engines.text())} |"
        )
    if knowledge.stacks:
        lines += ["", "## Whole stacks", "",
                  "Complete stacks as a vendor or project documents and validates them, for the devices named.", "",
                  "| Id | Family: devices | Workloads | Precisions | Documented by | Checked |",
                  "| --- | --- | --- | --- | --- | --- |"]
        for stack in knowledge.stacks:
            scope = stack.applies_to
            lines.append(f"| [`{stack.id}`](#stack-{stack.id}) | {scope.family}: {md_escape(', '.join(scope.devices))} "
                         f"| {', '.join(scope.workloads)} | {', '.join(scope.precisions)} | {_source_link(stack.source)} "
                         f"| {checked(stack.claims())} |")
    lines += ["", "## Candidate stacks", "", "| Id | Name | Layer | Hardware | Checked |", "| --- | --- | --- | --- | --- |"]
    for candidate in knowledge.candidates:
        lines.append(f"| [`{candidate.id}`](#{candidate.id}) | {md_escape(candidate.name)} "
                     f"| {md_escape(candidate.layer.value)} | {md_escape(candidate.hardware.text())} | {checked(candidate.claims())} |")
    lines += ["", "## Platforms in detail", ""]
    for platform in knowledge.platforms:
        lines += platform_section(platform)
    if knowledge.stacks:
        lines += ["## Stacks in detail", ""]
        for stack in knowledge.stacks:
            lines += stack_section(stack)
    lines += ["## Candidates in detail", ""]
    for candidate in knowledge.candidates:
        lines += candidate_section(candidate)
    return "\n".join(lines) + "\n"


def method_page() -> str:
    """The packaged method page, as the site's "How advisor decides"."""
    return page_front_matter(METHOD_TITLE) + method_text().rstrip("\n") + "\n\n" + numbers_markdown()
