"""Probe discovery, the @implementation decorator, the selftest probe's plan and its sizing."""

from __future__ import annotations

from pathlib import Path

import pytest

from probes.harness.device import Device
from probes.harness.worker import plan_cases
from probes.registry import (
    EXTRA_PROBE_DIRS_ENV,
    Bench,
    CaseSpec,
    Implementation,
    ProbeDefinitionError,
    implementation,
    known_probes,
    load_probe,
)
from probes.selftest.faults import FAULTS_ENV
from probes.selftest.probe import matmul_sizes

SECOND_PROBE = """
from probes.registry import Probe
from probes.selftest.probe import add_torch, selftest_cases

PROBE = Probe(
    name="second",
    description="The selftest's add, as a second probe for the isolation tests.",
    cases=lambda device, share_s: [case for case in selftest_cases(device, share_s) if case.options["op"] == "add"],
)
"""


def write_probe(root: Path, name: str, source: str) -> None:
    (root / name).mkdir(parents=True)
    (root / name / "probe.py").write_text(source)


def test_selftest_is_discovered_without_importing_it() -> None:
    assert "selftest" in known_probes()
    assert "harness" not in known_probes() and "kernels" not in known_probes()


def test_decorator_keeps_the_builder_and_where_it_applies() -> None:
    @implementation("demo", baseline=True, enabled=lambda dev: dev.kind == "cuda")
    def demo(case: CaseSpec, device: Device) -> Bench:
        return Bench(run=lambda: None)

    assert isinstance(demo, Implementation)
    assert (demo.name, demo.baseline) == ("demo", True)
    assert not demo.enabled(Device())
    assert demo.supports(CaseSpec(dtype="fp32", shape={}))
    assert demo(CaseSpec(dtype="fp32", shape={}), Device()).reference is None


def test_selftest_plan_pairs_cases_with_the_implementations_that_support_them(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(FAULTS_ENV, raising=False)
    planned = plan_cases(load_probe("selftest"), Device(), share_s=10.0)
    names = [(entry.case.options["op"], entry.implementation.name) for entry in planned]
    assert names == [
        ("matmul", "torch.matmul"),
        ("matmul", "numpy.matmul"),
        ("matmul", "torch.matmul"),
        ("matmul", "numpy.matmul"),
        ("add", "torch.add"),
        ("add", "numpy.add"),
    ]
    assert all(entry.skip_reason is None for entry in planned)


def test_fault_hooks_exist_only_when_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(FAULTS_ENV, "hang,wrong")
    planned = plan_cases(load_probe("selftest"), Device(), share_s=1.0)
    assert [entry.implementation.name for entry in planned if entry.implementation.name.startswith("fault.")] == [
        "fault.hang",
        "fault.wrong",
    ]


def test_selftest_sizes_grow_with_its_share_and_the_device() -> None:
    assert matmul_sizes("cpu", 0.01) == [32]
    assert matmul_sizes("cpu", 1.0) == [64, 128]
    assert matmul_sizes("cpu", 60.0) == [256, 512]
    assert matmul_sizes("cuda", 1.0) == [512, 1024]  # fewer, larger shapes on fast hardware


def test_extra_probe_folders_are_discovered(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    write_probe(tmp_path, "second", SECOND_PROBE)
    monkeypatch.setenv(EXTRA_PROBE_DIRS_ENV, str(tmp_path))
    assert {"selftest", "second"} <= set(known_probes())
    loaded = load_probe("second")
    assert loaded.probe.description.startswith("The selftest's add")
    assert [one.name for one in loaded.implementations] == ["torch.add"]


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("X = 1\n", "must define PROBE"),
        ("from probes.registry import Probe\nPROBE = Probe('other', 'd', lambda d, s: [])\n", "not the folder name"),
        ("from probes.registry import Probe\nPROBE = Probe('broken', 'd', lambda d, s: [])\n", "no @implementation"),
    ],
)
def test_malformed_probes_are_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, source: str, message: str
) -> None:
    write_probe(tmp_path, "broken", source)
    monkeypatch.setenv(EXTRA_PROBE_DIRS_ENV, str(tmp_path))
    with pytest.raises(ProbeDefinitionError, match=message):
        load_probe("broken")
