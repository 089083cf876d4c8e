"""`advisor compare`: run B against run A, case by case, with the control variables that differ."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from advisor.cli.options import JsonFlag
from advisor.cli.output import fail, print_json

if TYPE_CHECKING:
    from rich.console import Console

    from advisor.comparison.fleet import FleetComparison
    from advisor.comparison.models import CaseComparison, Comparison, ComparisonSummary
    from probes.models import Evidence

_PIPED_WIDTH = 160
_VERDICT_STYLE = {"FASTER": "green", "FIXED": "green", "SLOWER": "red", "NEWLY-FAILING": "red", "UNCERTAIN": "yellow"}
COMPARE_COLUMNS = ("verdict", "case", "A median", "B median", "B/A [{level:.0%} CI]", "band", "p", "numerics", "why")


def compare_command(
    evidence_a: Annotated[Path, typer.Argument(metavar="A.json", help="The earlier (reference) Evidence JSON.")],
    evidence_b: Annotated[Path, typer.Argument(metavar="B.json", help="The later Evidence JSON, judged against A.")],
    more: Annotated[
        Optional[list[Path]],
        typer.Argument(metavar="C.json", help="More machines (a fleet): each is compared with A.", show_default=False),
    ] = None,
    target: Annotated[
        Optional[str],
        typer.Option(
            "--target", metavar="FAMILY", help="Hardware family to mark the matching machines of, e.g. nvidia-gpu."
        ),
    ] = None,
    band_floor: Annotated[
        Optional[float],
        typer.Option(
            "--band-floor",
            metavar="FRACTION",
            min=0.0,
            max=1.0,
            help="Narrowest equivalence band as a fraction, e.g. 0.05 for +/-5% (default 0.06).",
        ),
    ] = None,
    json_output: JsonFlag = False,
) -> None:
    """Compare two Evidence files: per-case verdicts (FASTER/SAME/SLOWER/UNCERTAIN) and what else changed.

    SAME when the CI of B/A lies inside the case's equivalence band (the drift two runs show with
    nothing changed: 6%, wider for noisy cases), FASTER/SLOWER only when it lies wholly outside.

    With three or more files (evidence from several machines), each machine is compared with A and
    the fleet table says which machines match --target.
    """
    from advisor.cli.console import console as make_console
    from advisor.comparison import VerdictRule, compare_evidence

    rule = VerdictRule() if band_floor is None else VerdictRule(band_floor=band_floor)
    console = make_console(piped_width=_PIPED_WIDTH)
    if target is not None:
        from advisor.knowledge.loader import hardware_families

        if target not in hardware_families():
            fail(f"--target {target!r} is not a hardware family; choose one of: {', '.join(hardware_families())}")
    paths = [evidence_a, evidence_b, *(more or [])]
    if len(paths) > 2 or target is not None:
        from advisor.comparison.fleet import compare_fleet

        fleet = compare_fleet([(str(path), load_evidence(path)) for path in paths], target=target, rule=rule)
        if json_output:
            print_json(fleet)
            return
        print_fleet(fleet, console)
        return
    comparison = compare_evidence(load_evidence(evidence_a), load_evidence(evidence_b), rule)
    if json_output:
        print_json(comparison)
        return
    print_comparison(comparison, console)


def print_fleet(fleet: FleetComparison, console: Console) -> None:
    """The machines (reference first) with their verdict counts against it, then which match the target."""
    from rich.markup import escape
    from rich.table import Table

    table = Table(
        title=f"{len(fleet.members) + 1} machines, each compared with the first (ratio < 1: faster than it)",
        title_justify="left",
    )
    for column in (
        "file",
        "machine",
        "hardware",
        "device",
        "torch",
        "target",
        "matched",
        "geomean ratio",
        "verdicts",
        "controls differing",
    ):
        table.add_column(column, overflow="fold")

    def target_cell(on_target: bool | None) -> str:
        return "-" if on_target is None else ("yes" if on_target else "no")

    reference = fleet.reference
    table.add_row(
        escape(reference.file),
        reference.machine,
        ", ".join(reference.hardware),
        escape(reference.device),
        reference.torch or "-",
        target_cell(reference.on_target),
        "reference",
        "1.000",
        "-",
        "-",
    )
    for member in fleet.members:
        machine, comparison = member.machine, member.comparison
        counts = ", ".join(f"{verdict} {count}" for verdict, count in comparison.verdict_counts.items() if count)
        ratio = f"{member.geomean_ratio:.3f}" if member.geomean_ratio is not None else "-"
        controls = ", ".join(difference.variable for difference in comparison.controls) or "none"
        table.add_row(
            escape(machine.file),
            machine.machine,
            ", ".join(machine.hardware),
            escape(machine.device),
            machine.torch or "-",
            target_cell(machine.on_target),
            str(len(comparison.cases)),
            ratio,
            counts or "-",
            escape(controls),
        )
    console.print(table)
    if fleet.target is not None:
        matching = fleet.on_target()
        if matching:
            console.print(
                f"matches the target ({fleet.target}): "
                + ", ".join(escape(f"{m.file} (machine {m.machine})") for m in matching)
            )
        else:
            console.print(
                f"[yellow]no machine matches the target ({fleet.target}): its speed is not measured here[/yellow]"
            )


def load_evidence(path: Path) -> Evidence:
    """Evidence.load: a missing or malformed file is its one-line error; unknown probes are a warning."""
    from advisor.cli.evidence_files import load_evidence as load_checked

    return load_checked(path)


def print_comparison(comparison: Comparison, console: Console) -> None:
    """The cases timed on a side, best first; then unmatched cases, control differences and the summary."""
    from rich.markup import escape
    from rich.table import Table

    shown = [case for case in comparison.cases if case.verdict != "NOT-MEASURED"]
    table = Table(
        title=f"{len(shown)} matched cases timed in a run, best first (B/A < 1: B faster)", title_justify="left"
    )
    for column in COMPARE_COLUMNS:
        table.add_column(column.format(level=comparison.rule.confidence), overflow="fold")
    for case in shown:
        cells = comparison_row(case)
        style = _VERDICT_STYLE.get(case.verdict)
        cells[0] = f"[{style}]{cells[0]}[/{style}]" if style else cells[0]
        table.add_row(cells[0], *(escape(cell) for cell in cells[1:]))
    console.print(table)
    if comparison.summary.not_measured:
        console.print(
            f"not measured in either run: {comparison.summary.not_measured} cases (skipped, not timed or failed"
            " on both sides; --json lists them)"
        )
    for side, unmatched in (("A", comparison.unmatched_a), ("B", comparison.unmatched_b)):
        if unmatched:
            console.print(f"only in {side} ({len(unmatched)}):")
            for case_id in unmatched:
                console.print(f"  {escape(case_id)}", soft_wrap=True)
    if comparison.controls:
        console.print("control variables that differ:")
        for difference in comparison.controls:
            console.print(f"  {difference.variable}: {escape(str(difference.a))} -> {escape(str(difference.b))}")
    else:
        console.print("control variables: none differ")
    if not comparison.attributable:
        console.print(
            f"[yellow]warning: {len(comparison.controls)} control variables differ; a change cannot be attributed"
            " to any one of them[/yellow]"
        )
    for case_id in comparison.accuracy_regressions:
        console.print(f"[red]accuracy regression: {escape(case_id)} passed its tolerance in A, fails it in B[/red]")
    counts = ", ".join(f"{verdict} {count}" for verdict, count in comparison.verdict_counts.items() if count)
    console.print(f"verdicts: {counts or 'no matched cases'}")
    for line in summary_lines(comparison.summary):
        console.print(line)
    if comparison.machine_ratios:
        moved = ", ".join(f"{escape(probe)} {ratio:.3f}" for probe, ratio in comparison.machine_ratios.items())
        console.print(
            f"machine reference kernel, B/A per probe: {moved} (a case's band is at least as wide as its probe's moved)"
        )
    for verdict in comparison.probes:
        console.print(f"per probe: {escape(verdict.line())}")


def summary_lines(summary: ComparisonSummary) -> list[str]:
    """The summary in plain lines: how many cases compared, the verdicts' shares, the bands and what to re-measure."""
    if not summary.timed_cases:
        return ["no case was timed in either run"]
    lines = [
        f"comparable: {summary.comparable} of {summary.timed_cases} cases timed in a run ({summary.comparable_share:.0%})"
    ]
    if summary.comparable:
        lines.append(
            f"of those: SAME {summary.same_share:.0%}, FASTER/SLOWER {summary.changed_share:.0%}, "
            f"UNCERTAIN {summary.uncertain_share:.0%}; median B/A {summary.median_ratio:.3f}"
        )
        if f"{summary.band_min:.0%}" == f"{summary.band_max:.0%}":
            lines.append(f"equivalence band: +/-{summary.band_min:.0%} for every case")
        else:
            lines.append(
                f"equivalence band: +/-{summary.band_min:.0%} to +/-{summary.band_max:.0%} "
                f"(median +/-{summary.band_median:.0%})"
            )
    if summary.to_remeasure:
        lines.append(
            f"to re-measure: {summary.to_remeasure} cases a rerun could settle (see 'why'; more samples, "
            "a quiet machine, or rounds of A and B interleaved)"
        )
    return lines


def comparison_row(case: CaseComparison) -> list[str]:
    """The cells of one matched case in the comparison table."""
    from probes.units import format_seconds

    key = case.key
    described = f"{key.probe} {key.implementation} {key.dtype} {key.shape_text}"
    options = " ".join(f"{name}={value}" for name, value in sorted(key.options.items()))
    if options:
        described = f"{described} {options}"
    a_median = b_median = ratio = band = p_value = "-"
    if case.timing is not None:
        timing = case.timing
        a_median = _judged(format_seconds(timing.median_a_s), timing.visit_a, timing.visits_a)
        b_median = _judged(format_seconds(timing.median_b_s), timing.visit_b, timing.visits_b)
        ratio = f"{timing.ratio:.3f} [{timing.ratio_ci_low:.3f}, {timing.ratio_ci_high:.3f}]"
        band = f"+/-{timing.band:.0%}"
        p_value = f"{timing.p_value:.2g}"
    if case.timing is None:  # say why there is no time: skipped, failed, not-timed
        a_median, b_median = case.status_a, case.status_b
    return [case.verdict, described, a_median, b_median, ratio, band, p_value, _numerics_cell(case), case.reason]


def _judged(median: str, visit: int | None, visits: int) -> str:
    """A side's median, with the visit it comes from when the case was timed on several."""
    return median if visit is None else f"{median} (visit {visit}/{visits})"


def _numerics_cell(case: CaseComparison) -> str:
    numeric = case.numeric
    if numeric is None:
        return "-"
    if numeric.accuracy_regression:
        text = "REGRESSED"
    else:
        text = ("ok" if numeric.passed_a else "FAIL") + " -> " + ("ok" if numeric.passed_b else "FAIL")
    if numeric.max_rel_a is not None and numeric.max_rel_b is not None:
        text += f" {numeric.max_rel_a:.0e}->{numeric.max_rel_b:.0e}"
    return text
