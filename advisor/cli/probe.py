"""`advisor probe`: run microprobes within a time budget and save the Evidence JSON."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

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
        Optional[list[str]], typer.Argument(metavar="PROBE", help="Probes to run (default: all). `advisor probe --list` names them.")
    ] = None,
    budget: Budget = 60.0,
    device: Annotated[DeviceChoice, typer.Option("--device", help="Where to measure.")] = DeviceChoice.auto,
    out: Annotated[Optional[Path], typer.Option("--out", metavar="FILE", help="Write the Evidence JSON to this file (an existing file must be advisor evidence, outside the records folder).")] = None,
    force: Annotated[bool, typer.Option("--force", help="With --out: replace the file even when it is not advisor evidence or lies in the records folder.")] = False,
    list_probes: Annotated[bool, typer.Option("--list", help="List the known probes and exit.")] = False,
    model_type: Annotated[
        Optional[str],
        typer.Option(
            "--model-type",
            metavar="TYPE",
            help="hotops and int8 probes: profile (hotops) and quantize whole (int8) only the reference model of "
            "this profile model type, e.g. moe (default: every model type for hotops; cnn, then dense-transformer for int8).",
        ),
    ] = None,
    model: Annotated[
        Optional[str],
        typer.Option(
            "--model",
            metavar="MODULE:FACTORY",
            help="hotops probe: profile your own model instead of the reference models. MODULE is imported and "
            "FACTORY() run in the probe's process (this runs your code); it returns (torch.nn.Module, inputs).",
        ),
    ] = None,
    nproc: Annotated[
        Optional[int],
        typer.Option("--nproc", metavar="N", help="scaling probe: processes per node (default: one per GPU/NPU, 2 on a CPU)."),
    ] = None,
    nnodes: Annotated[
        Optional[int],
        typer.Option("--nnodes", metavar="N", help="scaling probe: nodes in the job (default 1); run the same command on each."),
    ] = None,
    node_rank: Annotated[
        Optional[int],
        typer.Option(
            "--node-rank",
            metavar="RANK",
            help="scaling probe: this node's rank, 0 to nnodes-1; fixes the ranks (node 0 hosts the rendezvous and "
            "writes the results). Without it the rendezvous numbers the nodes.",
        ),
    ] = None,
    rdzv_endpoint: Annotated[
        Optional[str],
        typer.Option(
            "--rdzv-endpoint",
            metavar="HOST:PORT",
            help="scaling probe: rendezvous address every node can reach (needed with --nnodes > 1; default on one "
            "node: a free local port).",
        ),
    ] = None,
    rdzv_id: Annotated[
        Optional[str],
        typer.Option("--rdzv-id", metavar="ID", help="scaling probe: job id for the rendezvous, the same on every node."),
    ] = None,
    json_output: JsonFlag = False,
) -> None:
    """Measure GEMM, attention, dynamic shapes, INT8 and the other probes on this machine; each probe in its own
    process."""
    from advisor.cli.console import console
    from probes.harness.progress import ProbeProgress
    from probes.registry import known_probes
    from probes.runner import budget_problem, run_probes

    if list_probes:
        typer.echo("\n".join(known_probes()))
        return
    problem = budget_problem(budget)
    if problem is not None:
        fail(f"--budget {problem}")
    if out is not None:
        check_evidence_out(out, force)
    probe_options = model_type_options(names, model_type, model)
    launch: dict[str, int | str | None] = {
        "nproc": nproc, "nnodes": nnodes, "node_rank": node_rank, "rdzv_endpoint": rdzv_endpoint, "rdzv_id": rdzv_id
    }
    launch_options = scaling_options(names, launch)
    from probes.runner import budget_warning

    warning = budget_warning(names, budget)
    if warning is not None:
        warn(warning)
    progress_console = console(stderr=True)
    with ProbeProgress(progress_console) as progress:
        evidence = run_probes(
            names, budget_s=budget, device=device.value, on_event=progress.update,
            probe_options={**probe_options, **launch_options},
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


MODEL_TYPE_PROBES = ("hotops", "int8")  # the probes that measure a reference model of the profile's type


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
        check_output_file(out, "--out", force=force, is_ours=is_evidence, kind="an advisor evidence file",
                          kept_folders={records: "the decision records and their evidence"})  # fmt: skip
    except OutputPathError as error:
        fail(str(error))


def model_type_options(names: list[str] | None, model_type: str | None, model: str | None) -> dict[str, dict[str, str]]:
    """The hotops and int8 probes' options from --model-type / --model; a one-line error naming the flag when they cannot apply."""
    from probes.hotops.options import check_model_spec

    given = {"--model-type": model_type, "--model": model}
    flags = [flag for flag, value in given.items() if value is not None]
    if not flags:
        return {}
    if len(flags) == 2:
        fail("give --model-type (a reference model) or --model (your own model), not both")
    if model is not None:
        if names is not None and "hotops" not in names:
            fail("--model applies to the hotops probe; add hotops to the probe names")
        check_model_spec(model)  # a ModelSpecError is an AdvisorError: one line, naming --model
        return {"hotops": {"model": model}}
    takers = [name for name in MODEL_TYPE_PROBES if names is None or name in names]
    if not takers:
        fail("--model-type applies to the hotops and int8 probes; add one of them to the probe names")
    from probes.vocabulary import MODEL_TYPES

    if model_type not in MODEL_TYPES:
        fail(f"--model-type {model_type!r} is not one of {', '.join(MODEL_TYPES)}")
    return {name: {"model_type": str(model_type)} for name in takers}


def scaling_options(names: list[str] | None, launch: dict[str, int | str | None]) -> dict[str, dict[str, int | str]]:
    """The scaling probe's options from --nproc, --nnodes...; a one-line error naming the flag when one is wrong."""
    from probes.scaling.options import LaunchOptions, check_launch_options

    given = {name: value for name, value in launch.items() if value is not None}
    if not given:
        return {}
    if names is None or "scaling" not in names:
        flag = "--" + next(iter(given)).replace("_", "-")
        fail(f"{flag} applies to the scaling probe, which runs only when named: add scaling to the probe names")
    check_launch_options(LaunchOptions.model_validate(given))  # a LaunchOptionError names the flag: one line, exit 2
    return {"scaling": given}


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
    "tflops", "pct_of_peak", "total_s", "recompiles", "attn_extra_bytes", "max_rel_error", "rel_rmse", "gbps",
)  # fmt: skip


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
