"""The probe contract end to end: a probe is one folder. A toy probe written into a temporary folder
(found through ADVISOR_PROBE_DIRS) as one probe.py and one report.py runs for real, and its report puts
it in the findings, a record table, a site chart and a fact the engine reads, the fact's name and
portability declared once in the report, with nothing registered anywhere else."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.recommendation.facts import evidence_facts, is_portable
from advisor.recommendation.switches import rerun_for
from advisor.records.evidence_tables import evidence_tables
from advisor.site.evidence_charts import evidence_charts
from probes.environment.family import device_family
from probes.registry import EXTRA_PROBE_DIRS_ENV, ProbeDefinitionError, known_probes
from probes.reporting import probe_findings, probe_reports
from probes.runner import run_probes

TOY_PROBE = '''
"""Toy probe: a sum and a cumulative sum of one vector."""
import torch

from probes.registry import Bench, CaseSpec, Probe, implementation


def toy_cases(device, share_s):
    return [CaseSpec(dtype="fp32", shape={"n": 4096})]


@implementation("toy.sum", baseline=True)
def toy_sum(case, device):
    values = torch.ones(case.shape["n"], device=device.torch_device)
    return Bench(run=lambda: values.sum())


@implementation("toy.cumsum")
def toy_cumsum(case, device):
    values = torch.ones(case.shape["n"], device=device.torch_device)
    return Bench(run=lambda: values.cumsum(0))


PROBE = Probe(name="toy", description="A toy probe for the contract test.", cases=toy_cases)
'''

TOY_REPORT = '''
"""What the toy probe's evidence says."""
from probes.reporting import (
    BarGroup, BarPlot, ChartSpec, ProbeReport, ReadingSpec, Table, make_reading, median_s, timed_cases,
)

TOY_CUMSUM_VS_SUM = ReadingSpec("toy_cumsum_vs_sum", portable=True)


def _medians(cases):
    return {case.key.implementation: (median_s(case), case) for case in timed_cases(cases)}


def toy_findings(cases):
    medians = _medians(cases)
    if len(medians) < 2:
        return []
    return [f"toy: cumsum takes {medians['toy.cumsum'][0] / medians['toy.sum'][0]:.2f}x the time of sum"]


def toy_table(cases):
    rows = [(name, f"{median * 1e6:.1f} us") for name, (median, _) in sorted(_medians(cases).items())]
    return Table("Toy sums", ("implementation", "median"), rows)


def toy_charts(cases, device):
    groups = tuple(BarGroup(name, (median * 1e6,)) for name, (median, _) in sorted(_medians(cases).items()))
    return [ChartSpec("toy-time", "Toy time", BarPlot(f"Toy time ({device})", "us", ("median",), groups), "Lower is better.")]


def toy_readings(cases):
    medians = _medians(cases)
    if len(medians) < 2:
        return []
    ratio = medians["toy.cumsum"][0] / medians["toy.sum"][0]
    used = [case for _, case in medians.values()]
    return [make_reading(TOY_CUMSUM_VS_SUM, ratio, f"cumsum {ratio:.2f}x sum's time", used)]


REPORT = ProbeReport("toy", order=5, findings=toy_findings, table=toy_table, charts=toy_charts, readings=toy_readings,
                     declares=(TOY_CUMSUM_VS_SUM,))
'''


def write_toy(root: Path, report: str = TOY_REPORT) -> None:
    folder = root / "toy"
    folder.mkdir(parents=True)
    (folder / "probe.py").write_text(TOY_PROBE)
    (folder / "report.py").write_text(report)


def test_a_toy_probe_in_its_own_folder_reaches_findings_table_chart_and_facts(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
):
    write_toy(tmp_path)
    monkeypatch.setenv(EXTRA_PROBE_DIRS_ENV, str(tmp_path))
    assert "toy" in known_probes()
    assert [report.probe for report in probe_reports()][0] == "toy"  # its order puts it first

    evidence = run_probes(["toy"], budget_s=120, device="cpu")

    toy_cases = [case for case in evidence.cases if case.key.probe == "toy"]
    assert {case.key.implementation for case in toy_cases} == {"toy.sum", "toy.cumsum"}
    assert all(case.status == "ok" and case.timing is not None for case in toy_cases), [
        case.error for case in toy_cases
    ]

    (finding,) = probe_findings("toy", toy_cases)
    assert finding.startswith("toy: cumsum takes ")

    (table,) = evidence_tables(evidence)
    assert table.title == "Toy sums"
    assert [row[0] for row in table.rows] == ["toy.cumsum", "toy.sum"]
    assert table.findings == [finding]

    (chart,) = evidence_charts(evidence)
    assert chart.name == "toy-time"
    assert chart.svg.startswith("<svg") and "toy.cumsum" in chart.svg

    target = device_family("cpu", evidence.environment)
    assert target is not None
    facts = evidence_facts([evidence], target)
    fact = facts.usable("toy_cumsum_vs_sum")
    assert fact is not None and fact.on_target
    assert fact.value > 0 and set(fact.case_ids) == {case.key.case_id for case in toy_cases}
    assert fact.portable and is_portable("toy_cumsum_vs_sum")  # its declared spec says so, not its name
    assert rerun_for("evidence.toy_cumsum_vs_sum") == "advisor probe toy on the target"
    assert sorted(path.name for path in (tmp_path / "toy").iterdir() if path.suffix == ".py") == [
        "probe.py",
        "report.py",
    ]


def test_the_built_in_probes_each_declare_their_report_in_their_folder():
    reports = {report.probe: report for report in probe_reports()}
    assert set(reports) == {
        "attention",
        "dynamic",
        "fusion",
        "gemm",
        "hotops",
        "int8",
        "layout",
        "scaling",
        "transfers",
    }
    assert set(reports) <= set(known_probes())
    assert all(report.findings is not None and report.table is not None for report in reports.values())


@pytest.mark.parametrize(
    ("report", "message"),
    [
        ("X = 1\n", "must define REPORT"),
        ("from probes.reporting import ProbeReport\nREPORT = ProbeReport('other')\n", "not the folder name"),
    ],
)
def test_a_malformed_report_is_refused_naming_the_probe(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, report: str, message: str
):
    write_toy(tmp_path, report)
    monkeypatch.setenv(EXTRA_PROBE_DIRS_ENV, str(tmp_path))
    with pytest.raises(ProbeDefinitionError, match=f"probe toy: .*{message}"):
        probe_reports()
