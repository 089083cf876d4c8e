"""`advisor probe`: run microprobes within a time budget and save the Evidence JSON."""

from __future__ import annotations

import inspect
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from advisor.cli.options import Budget, JsonFlag, project_settings, settled
from advisor.cli.output import fail, print_json, warn

if TYPE_CHECKING:
    from rich.console import Console

    from probes.models import Evidence, ProbeCase


_PIPED_WIDTH = 160


class DeviceChoice(str, Enum):
    auto = "auto"
    cpu = "cpu"
    cuda = "cuda"
    npu = "npu"


def probe_command(
    names: Annotated[
        Optional[list[str]],
        typer.Argument(metavar="PROBE", help="Probes to run (default: all). `advisor probe --list` names them."),
    ] = None,
    budget: Budget = 60.0,
    device: Annotated[DeviceChoice, typer.Option("--device", help="Where to measure.")] = DeviceChoice.auto,
    out: Annotated[
        Optional[Path],
        typer.Option(
            "--out",
            metavar="FILE",
            help="Write the Evidence JSON to this file (an existing file must be advisor evidence, outside the records folder).",
        ),
    ] = None,
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            help="With --out: replace the file even when it is not advisor evidence or lies in the records folder.",
        ),
    ] = False,
    list_probes: Annotated[bool, typer.Option("--list", help="List the known probes and exit.")] = False,
    json_output: JsonFlag = False,
    **option_flags: Any,  # the probes' options (`--model-type`, `--nproc` ...): see _with_option_flags
) -> None:
    """Measure GEMM, attention, dynamic shapes, INT8 and the other probes on this machine; each probe in its own
    process."""
    from advisor.cli.console import console
    from probes.flags import options_from_flags
    from probes.harness.progress import ProbeProgress
    from probes.registry import known_probes
    from probes.runner import check_budget, run_probes

    if list_probes:
        typer.echo("\n".join(known_probes()))
        return
    check_budget(budget, "--budget")
    if out is not None:
        check_evidence_out(out, force)
    probe_options = options_from_flags(names, option_flags)
    from probes.runner import budget_warning

    warning = budget_warning(names, budget)
    if warning is not None:
        warn(warning)
    progress_console = console(stderr=True)
    with ProbeProgress(progress_console) as progress:
        evidence = run_probes(
            names,
            budget_s=budget,
            device=device.value,
            on_event=progress.update,
            probe_options=probe_options,
        )
    if out is not None:
        evidence.save(out)
        progress_console.print(f"evidence written to {out}")
    if json_output:
        print_json(evidence)
    else:
        # Piped output (logs, CI) is not bound to a terminal's width: keep each case on one line.
        print_summary(evidence, console(piped_width=_PIPED_WIDTH))
    if evidence.interrupted:
        from advisor.interrupts import stop_exit_code

        raise typer.Exit(stop_exit_code())  # 130 for Ctrl-C, 143 for SIGTERM


def _with_option_flags(command: Any) -> inspect.Signature:
    """`command`'s signature with a flag for each field of the probes' options models, before `--json`.

    Read from the probes' source (probes/declarations.py): `advisor probe --help` imports no probe, torch or pydantic.
    """
    from probes.declarations import builtin_declarations, option_flags

    flags = []
    for flag in option_flags(builtin_declarations()):
        option = typer.Option(flag.field.flag, metavar=flag.field.metavar, help=flag.help)
        annotation = Annotated[Optional[int], option] if flag.takes_int else Annotated[Optional[str], option]
        flags.append(
            inspect.Parameter(
                flag.field.name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None, annotation=annotation
            )
        )
    parameters = [
        parameter
        for parameter in inspect.signature(command, eval_str=True).parameters.values()
        if parameter.kind is not inspect.Parameter.VAR_KEYWORD
    ]
    last = parameters.pop()  # --json
    return inspect.Signature([*parameters, *flags, last])


# Typer reads the command's parameters from its signature; the flags reach the body in **option_flags.
setattr(probe_command, "__signature__", _with_option_flags(probe_command))  # noqa: B010 - mypy knows no __signature__


def check_evidence_out(out: Path, force: bool) -> None:
    """Before any probing: --out must be a new file, or evidence advisor wrote (a one-line error otherwise)."""
    from probes.files.output_paths import OutputPathError, check_output_file
    from probes.models import Evidence, EvidenceSchemaError

    if out.is_dir():
        fail(f"--out {out} is a directory; give a file name such as {out / 'evidence.json'}")

    def is_evidence(path: Path) -> bool:
        try:
            Evidence.load(path)
        except EvidenceSchemaError:
            return False
        return True

    records = settled(lambda: project_settings().records_dir())
    try:
        check_output_file(
            out,
            "--out",
            force=force,
            is_ours=is_evidence,
            kind="an advisor evidence file",
            kept_folders={records: "the decision records and their evidence"},
        )
    except OutputPathError as error:
        fail(str(error))


def print_summary(evidence: Evidence, console: Console) -> None:
    """One table per probe: implementation, case, status, median time, throughput, memory, numerics."""
    from rich.table import Table

    from probes.reporting import probe_findings

    by_probe: dict[str, list[ProbeCase]] = {}
    for case in evidence.cases:
        by_probe.setdefault(case.key.probe, []).append(case)
    for run in evidence.probe_runs:
        cases = by_probe.get(run.probe, [])
        title = f"{run.probe}: {run.status}, {len(cases)} cases, {run.wall_s:.1f} s"
        if run.reason:
            title += f" ({run.reason})"
        reasons = {case.reason for case in cases}
        if len(cases) > 1 and all(case.status == "skipped" for case in cases) and len(reasons) == 1:
            console.print(f"{title}: all skipped: {reasons.pop()}")  # one line, not a table of identical rows
            continue
        table = Table(title=title, title_justify="left")
        for column in SUMMARY_COLUMNS:
            table.add_column(column, overflow="fold", justify="right" if column in _RIGHT_ALIGNED else "left")
        for case in cases:
            table.add_row(*summary_row(case))
        console.print(table)
        for finding in probe_findings(run.probe, cases):
            console.print(f"  - {finding}")
    from advisor.reference.check import evidence_reference_check

    for line in evidence_reference_check(evidence):
        console.print(f"[yellow]{line}[/yellow]" if line.startswith("warning:") else line)
    contention = evidence.host_contention
    if contention is not None and contention.busy:
        console.print(
            f"[yellow]warning: other processes used {contention.other_cpu_share:.0%} of the CPU during this run;"
            " timings are unreliable (rerun on a quiet machine)[/yellow]"
        )
    if evidence.interrupted:
        console.print("[yellow]interrupted: the evidence holds what was measured before Ctrl-C[/yellow]")


SUMMARY_COLUMNS = ("implementation", "dtype", "case", "status", "median", "key metrics", "mem +", "numerics")
_RIGHT_ALIGNED = {"median", "key metrics", "mem +"}
# The metrics worth a glance, in order; a case shows the first two it has.
HEADLINE_METRICS = (
    "tflops",
    "pct_of_peak",
    "total_s",
    "recompiles",
    "attn_extra_bytes",
    "max_rel_error",
    "rel_rmse",
    "gbps",
)


def summary_row(case: ProbeCase) -> list[str]:
    """The cells of one case in the summary table."""
    from probes.units import format_seconds

    key = case.key
    described = key.shape_text
    options = " ".join(f"{name}={value}" for name, value in sorted(key.options.items()))
    if key.layout != "default":
        options = f"{key.layout} {options}".strip()
    if options:
        described = f"{described} {options}"
    median = format_seconds(case.timing.stats.median) if case.timing else "-"
    if case.timing and case.timing.stats.noisy:
        median += " ~"
    shown = [name for name in HEADLINE_METRICS if name in case.metrics][:2] or list(case.metrics)[:1]
    metrics = [f"{case.metrics[name].value:.3g} {case.metrics[name].unit}" for name in shown]
    memory = "-"
    if case.memory and case.memory.peak_bytes is not None:
        used = case.memory.peak_bytes - (case.memory.baseline_bytes or 0)
        memory = f"{used / 1024**2:.1f} MiB"
    numerics = "-"
    if case.numeric is not None:
        numerics = "ok" if case.numeric.passed else "FAIL"
        if case.numeric.max_rel is not None:
            numerics += f" {case.numeric.max_rel:.0e}"
    status = case.status if not case.reason or case.status == "ok" else f"{case.status}: {case.reason[:80]}"
    return [key.implementation, key.dtype, described, status, median, ", ".join(metrics) or "-", memory, numerics]
