"""`advisor kb`: the candidates, whole documented stacks and hardware platforms (with their devices) the
recommendation chooses from, each claim with its public source and the date it was checked; an audit of how
old that knowledge is."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from advisor.cli.group import APP_SETTINGS, CommandApp
from advisor.cli.options import JsonFlag
from advisor.cli.output import print_json_document, reports_errors
from probes.errors import AdvisorError
from probes.terminal_text import one_line

if TYPE_CHECKING:  # imported lazily below: `advisor --help` must not pay for pydantic and rich tables
    from rich.table import Table

    from advisor.knowledge.audit import AuditReport
    from advisor.knowledge.models import Claim, KnowledgeBase
    from advisor.knowledge.platforms import Platform
    from advisor.knowledge.stacks import Stack

app = CommandApp(
    help="The knowledge base: candidates, whole stacks and hardware platforms, every claim with its source and date.",
    **APP_SETTINGS,
)

HardwareFilter = Annotated[
    Optional[str],
    typer.Option(
        "--hardware", metavar="FAMILY", help="Only candidates for this hardware family, e.g. nvidia-gpu, amd-gpu."
    ),
]
ConcernFilter = Annotated[
    Optional[str],
    typer.Option(
        "--concern", metavar="CONCERN", help="Only candidates serving this concern, e.g. gemm, attention, collectives."
    ),
]


@app.command("list", short_help="List the candidates, by hardware or concern.")
@reports_errors
def list_command(
    json_output: JsonFlag = False,
    hardware: HardwareFilter = None,
    concern: ConcernFilter = None,
    markdown: Annotated[
        bool, typer.Option("--markdown", help="Print Markdown tables of the platforms and candidates, sources linked.")
    ] = False,
) -> None:
    """List the candidates: id, name, layer, hardware, skill, open/closed, concerns."""
    from advisor.cli.console import console
    from advisor.knowledge.loader import load_knowledge_base

    knowledge = load_knowledge_base()
    if hardware is not None:
        knowledge = knowledge.for_hardware(hardware)
    if concern is not None:
        knowledge = knowledge.for_concern(concern)
    if json_output:
        print_json_document([c.model_dump(mode="json") for c in knowledge.candidates])
        return
    if markdown:
        from advisor.knowledge.overview import markdown_tables

        typer.echo(markdown_tables(knowledge), nl=False)
        return
    console().print(candidates_table(knowledge))


@app.command("show", short_help="Show one candidate's claims and their sources.")
@reports_errors
def show_command(
    candidate_id: Annotated[str, typer.Argument(metavar="ID", help="Candidate id, as printed by `advisor kb list`.")],
    json_output: JsonFlag = False,
) -> None:
    """Show every claim of one candidate: value, note, source and the date it was checked."""
    from advisor.cli.console import console
    from advisor.cli.output import print_json
    from advisor.knowledge.loader import load_knowledge_base

    candidate = load_knowledge_base().get(candidate_id)
    if json_output:
        print_json(candidate)
        return
    console().print(claims_table(f"{candidate.name} ({candidate.id})", candidate.claims()))


@app.command("platforms", short_help="List the hardware families and official stacks.")
@reports_errors
def platforms_command(json_output: JsonFlag = False) -> None:
    """List the hardware families: each platform's official GEMM, attention and collective libraries and engines."""
    from advisor.cli.console import console
    from advisor.knowledge.loader import load_knowledge_base

    knowledge = load_knowledge_base()
    if json_output:
        print_json_document([p.model_dump(mode="json") for p in knowledge.platforms])
        return
    console().print(platforms_table(knowledge.platforms))


@app.command("platform", short_help="Show one hardware family: its stack and devices.")
@reports_errors
def platform_command(
    family: Annotated[
        str, typer.Argument(metavar="FAMILY", help="Hardware family, as printed by `advisor kb platforms`.")
    ],
    json_output: JsonFlag = False,
) -> None:
    """Show one hardware platform: its official stack per concern and what runs on it, each claim sourced."""
    from advisor.cli.console import console
    from advisor.cli.output import print_json
    from advisor.knowledge.loader import load_knowledge_base

    platform = load_knowledge_base().platform(family)
    if json_output:
        print_json(platform)
        return
    console().print(claims_table(f"{platform.name} ({platform.id}, {platform.kind})", platform.claims()))
    if platform.devices:
        console().print(devices_table(platform))


@app.command("stacks", short_help="List the whole stacks their vendors document.")
@reports_errors
def stacks_command(json_output: JsonFlag = False, hardware: HardwareFilter = None) -> None:
    """List the whole stacks, each as its vendor or project documents it: family, devices, workloads, precisions,
    what runs the model and the page that documents it."""
    from advisor.cli.console import console
    from advisor.knowledge.loader import load_knowledge_base

    knowledge = load_knowledge_base()
    stacks = knowledge.stacks_for(hardware) if hardware is not None else knowledge.stacks
    if json_output:
        print_json_document([stack.model_dump(mode="json") for stack in stacks])
        return
    console().print(stacks_table(stacks))


@app.command("stack", short_help="Show one stack: scope, components, versions.")
@reports_errors
def stack_command(
    stack_id: Annotated[str, typer.Argument(metavar="ID", help="Stack id, as printed by `advisor kb stacks`.")],
    json_output: JsonFlag = False,
) -> None:
    """Show one stack: what it applies to, its components by role with their settings, the versions it was
    validated with, the page that documents it, how its checkpoints leave it or what it loads, and its risks."""
    from advisor.cli.console import console
    from advisor.cli.output import print_json
    from advisor.knowledge.loader import load_knowledge_base

    stack = load_knowledge_base().stack(stack_id)
    if json_output:
        print_json(stack)
        return
    scope = stack.applies_to
    versions = ", ".join(f"{name} {version}" for name, version in stack.validated_with.items()) or "-"
    for line in (
        f"{stack.name} ({stack.id})",
        one_line(stack.summary.value),
        f"applies to: {scope.family} ({', '.join(scope.devices)}); {', '.join(scope.workloads)}; "
        f"{', '.join(scope.model_types)}; {', '.join(scope.precisions)}; {', '.join(scope.scale)}",
        *(
            [f"devices unnamed: {stack.devices_unnamed.value} ({stack.devices_unnamed.source})"]
            if stack.devices_unnamed
            else []
        ),
        *([f"written for: {', '.join(scope.models)}"] if scope.models else []),
        *([f"trains: {', '.join(scope.training)} (its page's run)"] if scope.training else []),
        *(
            [
                f"named for in general: {', '.join(stack.training_named.value)}, with no run of it "
                f"({stack.training_named.source})"
            ]
            if stack.training_named
            else []
        ),
        *([f"starts from: {stack.starts_from.value} ({stack.starts_from.source})"] if stack.starts_from else []),
        *([f"listed ids only: {stack.exact_ids.value} ({stack.exact_ids.source})"] if stack.exact_ids else []),
        f"validated with: {versions}",
        *(
            [f"maintained until: {stack.maintained_until.value.isoformat()} ({stack.maintained_until.source})"]
            if stack.maintained_until
            else []
        ),
        *(
            [f"builds from: {stack.builds_from} (one export for every family whose stack builds from it)"]
            if stack.builds_from
            else []
        ),
        f"documented by: {stack.source} (checked {stack.as_of.isoformat()})",
        *([f"checkpoint: {stack.checkpoint.value} ({stack.checkpoint.source})"] if stack.checkpoint else []),
        *(
            [f"listed devices only: {stack.listed_devices_only.value} ({stack.listed_devices_only.source})"]
            if stack.listed_devices_only
            else []
        ),
        *(
            [f"sharded serving: {stack.sharded_serving.value} ({stack.sharded_serving.source})"]
            if stack.sharded_serving
            else []
        ),
    ):
        typer.echo(one_line(line))
    console().print(components_table(stack))
    if stack.caveats():
        console().print(claims_table("Risks", stack.caveats()))


@app.command("audit", short_help="List stale, unknown and unsourced claims.")
@reports_errors
def audit_command(
    as_of: Annotated[
        Optional[str],
        typer.Option("--as-of", metavar="DATE", help="Judge ages on this date, YYYY-MM-DD (default: today)."),
    ] = None,
    max_age: Annotated[
        int, typer.Option("--max-age", metavar="DAYS", min=1, help="Days after which a claim is stale.")
    ] = 365,
    json_output: JsonFlag = False,
) -> None:
    """List stale claims, `unknown` values and claims without a public URL; exit 1 when any claim is stale."""
    from advisor.cli.console import console
    from advisor.cli.output import print_json
    from advisor.dates import parse_date
    from advisor.knowledge.audit import audit_knowledge
    from advisor.knowledge.loader import load_knowledge_base

    day = parse_date(as_of, "--as-of")
    report = audit_knowledge(load_knowledge_base(), day, max_age)
    if json_output:
        print_json(report)
    else:
        table_console = console()
        table_console.print(audit_table(report))
        for finding in report.findings:
            if finding.problem != "no-url":
                table_console.print(
                    f"{finding.problem}: {finding.owner}.{finding.field}: {finding.detail}", markup=False
                )
        typer.echo(report.summary())
    if report.stale:
        raise typer.Exit(1)


@app.command("method", short_help="Print the method page or one of its sections.")
@reports_errors
def method_command(
    anchor: Annotated[
        Optional[str], typer.Argument(metavar="ANCHOR", help="A section, as claims cite it (method#ANCHOR).")
    ] = None,
) -> None:
    """Print the method page ("How advisor decides") or one of its sections, which claims cite as method#ANCHOR."""
    from advisor.knowledge.method import method_section, method_text

    if anchor is None:
        from advisor.recommendation.policy import numbers_markdown

        typer.echo(method_text().rstrip("\n") + "\n\n" + numbers_markdown())
        return
    section = method_section(anchor.removeprefix("method#").lstrip("#"))
    typer.echo(f"{'#' * section.level} {section.title}\n\n{section.text}")


@app.command("check", short_help="Check knowledge files before they join the base.")
@reports_errors
def check_command(
    files: Annotated[list[Path], typer.Argument(metavar="FILE", help="Candidate or platform YAML files.")],
) -> None:
    """Check knowledge files one by one (schema, sources, method anchors, ids named) before they join the base."""
    from advisor.knowledge.check import check_files
    from advisor.knowledge.loader import KNOWLEDGE_FILE
    from probes.files.bounded_read import file_type_text

    for path in files:  # a file that is not there is bad input (exit 2); problems in a file are the verdict (exit 1)
        try:
            mode = path.stat().st_mode
        except FileNotFoundError:
            raise AdvisorError(f"{path}: no such file") from None
        except OSError:
            continue  # unreadable: the check reports it as a problem of that file
        if file_type_text(mode) is not None:  # a folder, FIFO or device: never opened
            raise KNOWLEDGE_FILE.not_regular(str(path), mode)
    problems = check_files(files)
    for problem in problems:
        typer.echo(one_line(str(problem)), err=True)
    if problems:
        raise typer.Exit(1)
    typer.echo(f"{len(files)} file(s) sound")


def candidates_table(knowledge: KnowledgeBase) -> Table:
    """One row per candidate."""
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=f"Candidate operator stacks ({len(knowledge.candidates)})", title_justify="left")
    table.add_column("id", no_wrap=True)
    for column in ("name", "layer", "hardware", "skill", "open/closed", "concerns"):
        table.add_column(column, overflow="fold")
    for candidate in knowledge.candidates:
        table.add_row(
            candidate.id,
            escape(candidate.name),
            candidate.layer.value,
            "\n".join(candidate.hardware.value),
            candidate.skill.value,
            candidate.openness.value,
            "\n".join(candidate.concerns.value),
        )
    return table


def platforms_table(platforms: tuple[Platform, ...]) -> Table:
    """One row per hardware family."""
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=f"Hardware platforms ({len(platforms)})", title_justify="left")
    table.add_column("family", no_wrap=True)
    for column in ("name", "gemm", "attention", "collectives", "serving engines", "dynamic shapes"):
        table.add_column(column, overflow="fold")
    for platform in platforms:
        official = platform.official
        table.add_row(
            platform.id,
            escape(platform.name),
            official.gemm.text(),
            official.attention.text(),
            platform.collective_library.text(),
            platform.serving_engines.text(),
            platform.dynamic_shapes.text(),
        )
    return table


def devices_table(platform: Platform) -> Table:
    """One row per device of a platform; the default one (assumed when a profile names none) marked."""
    from rich.markup import escape
    from rich.table import Table

    default = platform.default_device.value if platform.default_device is not None else None
    table = Table(title=f"Devices of {platform.id} ({len(platform.devices)}; * = the default)", title_justify="left")
    table.add_column("id", no_wrap=True)
    for column in ("name", "generation", "architecture", "memory", "formats", "peak row"):
        table.add_column(column, overflow="fold")
    for device in platform.devices:
        memory = f"{device.memory_gb:g} GB" if device.memory_gb is not None else "-"
        table.add_row(
            device.id + (" *" if device.id == default else ""),
            escape(device.name),
            escape(device.generation),
            escape(device.architecture),
            memory,
            device.formats_text(),
            escape(device.peaks or "-"),
        )
    return table


def stacks_table(stacks: tuple[Stack, ...]) -> Table:
    """One row per stack."""
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=f"Whole stacks ({len(stacks)})", title_justify="left")
    table.add_column("id", no_wrap=True)
    for column in ("family: devices", "workloads", "precisions", "runs the model", "documented by"):
        table.add_column(column, overflow="fold")
    for stack in stacks:
        scope = stack.applies_to
        runner = stack.runner
        table.add_row(
            stack.id,
            f"{scope.family}: {', '.join(scope.devices)}",
            ", ".join(scope.workloads),
            ", ".join(scope.precisions),
            escape(runner.name if runner is not None else "-"),
            escape(stack.source),
        )
    return table


def components_table(stack: Stack) -> Table:
    """One row per component of a stack: role, what it is, its knowledge-base candidate and its setting."""
    from rich.markup import escape
    from rich.table import Table

    table = Table(title="Components", title_justify="left")
    for column in ("role", "component", "candidate", "setting"):
        table.add_column(column, overflow="fold")
    for component in stack.components:
        setting = escape(
            component.for_training(None).for_method(None).setting or "-"
        ) + (  # every kind of training, each named
            f"\n[dim]{escape(component.source)}[/dim]" if component.source else ""
        )
        table.add_row(component.role, escape(component.name), component.candidate or "-", setting)
    return table


def claims_table(title: str, claims: dict[str, Claim[Any]]) -> Table:
    """One row per claim: value (with its note), source, checked on (and the version)."""
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=escape(title), title_justify="left")
    table.add_column("attribute", no_wrap=True)
    table.add_column("value")
    table.add_column("source", overflow="fold")
    table.add_column("as of", no_wrap=True)
    for label, claim in claims.items():
        value = escape(claim.text())
        extra = claim.note if claim.value != "unknown" else f"looked for: {claim.looked_for}"
        if extra:
            value += f"\n[dim]{escape(extra)}[/dim]"
        checked = claim.as_of.isoformat() + (f"\n{escape(claim.version)}" if claim.version else "")
        table.add_row(label, value, escape(claim.source), checked)
    return table


def audit_table(report: AuditReport) -> Table:
    """One row per entry that has a finding."""
    from rich.table import Table

    table = Table(title=f"Knowledge audit as of {report.as_of.isoformat()}", title_justify="left")
    for column in ("entry", "kind", "claims", "stale", "unknown", "no URL"):
        table.add_column(column, justify="right" if column not in ("entry", "kind") else "left")
    for owner in report.owners:
        if owner.stale or owner.unknown or owner.no_url:
            table.add_row(
                owner.owner, owner.kind, str(owner.claims), str(owner.stale), str(owner.unknown), str(owner.no_url)
            )
    return table
