"""`advisor kb`: the candidate operator stacks the recommendation engine chooses from, each claim sourced."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated

import typer

from advisor.cli.options import JsonFlag
from advisor.cli.output import reports_errors

if TYPE_CHECKING:  # imported lazily below: `advisor --help` must not pay for pydantic and rich tables
    from rich.table import Table

    from advisor.knowledge.models import Candidate, Claim, KnowledgeBase

app = typer.Typer(
    help="The knowledge base of candidate operator stacks: what each is, where it runs, and the source of every claim.",
    no_args_is_help=True,
)

HardwareFilter = Annotated[
    str | None, typer.Option("--hardware", help="Only candidates for this hardware family, e.g. nvidia-gpu, ascend-npu.")
]
ConcernFilter = Annotated[
    str | None, typer.Option("--concern", help="Only candidates serving this concern, e.g. gemm, attention, collectives.")
]

# (field, label) in the order `kb show` prints them; risks follow.
_SHOWN_CLAIMS: tuple[tuple[str, str], ...] = (
    ("summary", "summary"),
    ("layer", "layer"),
    ("hardware", "hardware"),
    ("openness", "open/closed"),
    ("skill", "skill"),
    ("concerns", "concerns"),
    ("training", "training"),
    ("inference", "inference"),
    ("autograd", "autograd"),
    ("fusion", "fusion"),
    ("autotuning", "autotuning"),
    ("dynamic_shapes", "dynamic shapes"),
    ("int8", "INT8"),
    ("fp8", "FP8"),
    ("qat", "QAT"),
    ("ptq", "PTQ"),
    ("distributed", "distributed"),
    ("maintenance_cost", "maintenance cost"),
)


@app.command("list")
@reports_errors
def list_command(json_output: JsonFlag = False, hardware: HardwareFilter = None, concern: ConcernFilter = None) -> None:
    """List the candidates: id, name, layer, hardware, skill, open/closed, concerns."""
    from rich.console import Console

    from advisor.knowledge.loader import load_knowledge_base

    knowledge = load_knowledge_base()
    if hardware is not None:
        knowledge = knowledge.for_hardware(hardware)
    if concern is not None:
        knowledge = knowledge.for_concern(concern)
    if json_output:
        typer.echo(json.dumps([c.model_dump(mode="json") for c in knowledge.candidates], indent=2, ensure_ascii=False))
        return
    Console().print(candidates_table(knowledge))


@app.command("show")
@reports_errors
def show_command(
    candidate_id: Annotated[str, typer.Argument(metavar="ID", help="Candidate id, as printed by `advisor kb list`.")],
    json_output: JsonFlag = False,
) -> None:
    """Show every attribute of one candidate with the source of each claim."""
    from rich.console import Console

    from advisor.cli.output import print_json
    from advisor.knowledge.loader import load_knowledge_base

    candidate = load_knowledge_base().get(candidate_id)
    if json_output:
        print_json(candidate)
        return
    Console().print(candidate_table(candidate))


def _text(claim: Claim[object]) -> str:
    value = claim.value
    return ", ".join(str(item) for item in value) if isinstance(value, list) else str(value)


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


def candidate_table(candidate: Candidate) -> Table:
    """One row per attribute: value (with its note) and source."""
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=escape(f"{candidate.name} ({candidate.id})"), title_justify="left")
    table.add_column("attribute", no_wrap=True)
    table.add_column("value")
    table.add_column("source")
    rows: list[tuple[str, Claim[object]]] = [(label, getattr(candidate, field)) for field, label in _SHOWN_CLAIMS]
    rows += [("risk", risk) for risk in candidate.risks]
    for label, claim in rows:
        value = escape(_text(claim)) if claim.note is None else f"{escape(_text(claim))}\n[dim]{escape(claim.note)}[/dim]"
        table.add_row(label, value, escape(claim.source))
    return table
