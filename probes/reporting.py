"""The probe contract's reporting half: how a probe's evidence reaches people and the engine.

Next to `probe.py` (what to measure), a probe folder may hold a `report.py` defining
`REPORT = ProbeReport(...)`: its findings lines, its record table, its site charts and the readings
the recommendation rests on. `probe_reports()` finds every probe folder's `report.py` (the same
scan as `registry.probe_folders`, so ADVISOR_PROBE_DIRS works here too) and the advisor reads
through it: adding a probe is adding one folder.

A report declares the names of its readings once, as `ReadingSpec` constants (or a `ReadingFamily` for
names built from a dtype, an implementation or a model type); the rules import those constants, and
whether a reading may stand in for another hardware family is its spec's `portable` flag.

Everything here is plain data; the advisor renders it (Markdown tables, SVG charts, facts).
A report module must not import torch: the advisor imports it in its own process.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Literal

from probes.declarations import PROBES_DIR
from probes.models import ProbeCase
from probes.registry import ProbeDefinitionError, probe_folders

REPORT_MODULE = "report.py"


# What the portable readings measure, in the words a user is told before probing a machine that is not the target.
PORTABLE_MEANING = (
    "attention memory growth with sequence length, the numerical error of low precision, "
    "and the recompilations and padding waste of varying shapes"
)


@dataclass(frozen=True)
class ReadingSpec:
    """A reading's name, and whether another hardware family's measurement may stand in for the target's
    (`portable`: the algorithm or the compiler sets its value, not the hardware)."""

    name: str
    portable: bool = False


@dataclass(frozen=True)
class ReadingFamily:
    """Readings named `<prefix><part><suffix>`, the part supplied by the cases (a dtype, an implementation, a
    model type); every member shares the family's `portable` flag."""

    prefix: str = ""
    suffix: str = ""
    portable: bool = False

    def named(self, part: str) -> ReadingSpec:
        """The member for one part: GEMM_SPEEDUP.named("bf16") is gemm_bf16_speedup."""
        return ReadingSpec(f"{self.prefix}{part}{self.suffix}", self.portable)

    def part_of(self, name: str) -> str | None:
        """The part of a member's name; None for a name outside the family."""
        inner = len(name) - len(self.prefix) - len(self.suffix)
        if inner <= 0 or not name.startswith(self.prefix) or not name.endswith(self.suffix):
            return None
        return name[len(self.prefix) : len(self.prefix) + inner]


@dataclass(frozen=True)
class Reading:
    """One figure the recommendation rests on, with its text and the cases it came from."""

    name: str
    value: float
    figure: str
    case_ids: tuple[str, ...]
    noisy_cases: int = 0
    low: float | None = None  # the smallest and largest per-shape value behind an aggregate figure
    high: float | None = None
    # For a speedup figure: (baseline case id, compared case id) per pair whose median ratio it aggregates, so
    # that a reader can judge whether the samples settle it (advisor/recommendation/settled.py).
    pairs: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Table:
    """One table of a record's Evidence section: a title, a header and rows of strings."""

    title: str
    header: tuple[str, ...]
    rows: Sequence[Sequence[str]]


@dataclass(frozen=True)
class Series:
    """A named line (or set of points) of (x, y) pairs."""

    name: str
    points: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class BarGroup:
    """One category on the x axis with a value per series (None: not measured)."""

    label: str
    values: tuple[float | None, ...]


@dataclass(frozen=True)
class LabelledPoint:
    """One point of a scatter chart, with its own label."""

    label: str
    x: float
    y: float


@dataclass(frozen=True)
class BarPlot:
    """Grouped bars (`stacked`: one bar per group split into its series)."""

    title: str
    y_label: str
    series_names: tuple[str, ...]
    groups: tuple[BarGroup, ...]
    x_label: str = ""
    stacked: bool = False
    y_max: float | None = None  # the axis' top when the values have a natural ceiling (100 for shares in %)


@dataclass(frozen=True)
class LinePlot:
    """One line per series; log axes by default. `x_unit` "bytes" writes ticks as sizes."""

    title: str
    x_label: str
    y_label: str
    series: tuple[Series, ...]
    x_unit: Literal["", "bytes"] = ""


@dataclass(frozen=True)
class ScatterPlot:
    """Labelled points, with an optional dashed reference line at `reference_y`."""

    title: str
    x_label: str
    y_label: str
    points: tuple[LabelledPoint, ...]
    reference_y: float | None = None


Plot = BarPlot | LinePlot | ScatterPlot


@dataclass(frozen=True)
class ChartSpec:
    """One chart of a record's site page: a file-name part, a title, what to plot and a caption."""

    name: str
    title: str
    plot: Plot
    caption: str


FindingsFn = Callable[[Sequence[ProbeCase]], list[str]]
TableFn = Callable[[Sequence[ProbeCase]], Table]
ChartsFn = Callable[[Sequence[ProbeCase], str], list[ChartSpec]]  # (cases, device name)
ReadingsFn = Callable[[Sequence[ProbeCase]], list[Reading]]


@dataclass(frozen=True)
class ProbeReport:
    """What a probe's evidence turns into; each part optional. `order` places its table and charts
    among the other probes' (lower first; ties by name)."""

    probe: str
    order: int = 100
    findings: FindingsFn | None = None
    table: TableFn | None = None
    charts: ChartsFn | None = None
    readings: ReadingsFn | None = None
    declares: tuple[ReadingSpec | ReadingFamily, ...] = ()  # the names `readings` produces


def _import_report_module(name: str, folder: Path) -> ModuleType:
    if folder.parent == PROBES_DIR:
        return importlib.import_module(f"probes.{name}.report")
    spec = importlib.util.spec_from_file_location(f"advisor_extra_probe_{name}_report", folder / REPORT_MODULE)
    if spec is None or spec.loader is None:
        raise ProbeDefinitionError(f"cannot import {folder / REPORT_MODULE}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@cache
def _reports_in(folders: tuple[tuple[str, Path], ...]) -> tuple[ProbeReport, ...]:
    reports = []
    for name, folder in folders:
        if not (folder / REPORT_MODULE).is_file():
            continue
        declared = getattr(_import_report_module(name, folder), "REPORT", None)
        if not isinstance(declared, ProbeReport):
            raise ProbeDefinitionError(f"probe {name}: report.py must define REPORT = ProbeReport(...)")
        if declared.probe != name:
            raise ProbeDefinitionError(f"probe {name}: REPORT.probe is {declared.probe!r}, not the folder name")
        reports.append(declared)
    return tuple(sorted(reports, key=lambda report: (report.order, report.probe)))


def probe_reports() -> tuple[ProbeReport, ...]:
    """The reports of every probe folder that has one, in `order` (imported once per set of folders)."""
    return _reports_in(tuple(sorted(probe_folders().items())))


def report_for(probe: str) -> ProbeReport | None:
    """The report of one probe; None when it has none."""
    return next((report for report in probe_reports() if report.probe == probe), None)


def declared_reading(name: str) -> tuple[str, ReadingSpec] | None:
    """(the probe that declares it, its spec) for a reading's name: a spec of that name, else a family's member;
    None for a name no report declares."""
    reports = probe_reports()
    for report in reports:
        for declared in report.declares:
            if isinstance(declared, ReadingSpec) and declared.name == name:
                return report.probe, declared
    for report in reports:
        for declared in report.declares:
            if isinstance(declared, ReadingFamily) and declared.part_of(name) is not None:
                return report.probe, ReadingSpec(name, declared.portable)
    return None


def probe_findings(probe: str, cases: Sequence[ProbeCase]) -> list[str]:
    """The findings lines for one probe's cases; none for a probe that declares no findings."""
    report = report_for(probe)
    return report.findings(cases) if report is not None and report.findings is not None else []


def cases_by_probe(cases: Iterable[ProbeCase]) -> dict[str, list[ProbeCase]]:
    """The cases grouped by the probe that measured them, in their order."""
    grouped: dict[str, list[ProbeCase]] = {}
    for case in cases:
        grouped.setdefault(case.key.probe, []).append(case)
    return grouped


# Small helpers the readers share.


def plural(count: int, word: str) -> str:
    """'1 shape', '2 shapes'."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def median_s(case: ProbeCase) -> float | None:
    """The median time of an ok, timed case; None otherwise."""
    if case.status != "ok" or case.timing is None or case.timing.stats.median <= 0:
        return None
    return case.timing.stats.median


def make_reading(spec: ReadingSpec, value: float, figure: str, cases: Iterable[ProbeCase]) -> Reading:
    """The reading `spec` names, citing `cases` (sorted, unique) and counting the noisy ones among them."""
    listed = sorted({case.key.case_id: case for case in cases}.items())
    noisy = sum(1 for _, case in listed if case.timing is not None and case.timing.stats.noisy)
    return Reading(spec.name, value, figure, tuple(case_id for case_id, _ in listed), noisy)


def timed_cases(cases: Iterable[ProbeCase]) -> list[ProbeCase]:
    """The cases that ran and were timed."""
    return [case for case in cases if case.status == "ok" and case.timing is not None]


def metric_text(case: ProbeCase, name: str, form: str, scale: float = 1.0) -> str:
    """A case's metric formatted with `form` (times `scale`); "-" when the case lacks it."""
    found = case.metrics.get(name)
    return format(found.value * scale, form) if found is not None else "-"
