"""The probe API: a `Probe` declaration, `CaseSpec`s, and implementations registered with `@implementation`.

A probe is a folder `probes/<name>/` with a `probe.py` that defines `PROBE = Probe(...)` and one
or more `@implementation(...)` builders. Folders are found by scanning, and a probe module is
imported only when that probe runs (in its child process), so listing probes costs nothing.
Extra folders of private probes can be named in ADVISOR_PROBE_DIRS (os.pathsep-separated).
A probe may declare options (a `ProbeOptions` model): `run_probes(probe_options=...)` carries their
plain values to its child process, where `Probe.plan` validates them and hands them to `cases`.
The parent reads what it needs of a declaration (`probe_declarations`) from probe.py's source, unimported.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, ValidationError

from probes.declarations import PROBES_DIR, Declaration, probe_folders_in, read_declaration
from probes.environment.models import Dtype
from probes.models import CaseKey, Metric, OperatorTime, OptionValue
from probes.tolerance import Tolerance

if TYPE_CHECKING:
    from probes.harness.device import Device
    from probes.models import Evidence

EXTRA_PROBE_DIRS_ENV = "ADVISOR_PROBE_DIRS"


@dataclass(frozen=True)
class CaseSpec:
    """One case a probe asks for; the harness pairs it with every implementation that supports it."""

    dtype: Dtype
    shape: dict[str, int]
    layout: str = "default"
    options: dict[str, OptionValue] = field(default_factory=dict)
    flops: float | None = None  # work per call: gives a "tflops" metric
    bytes_moved: float | None = None  # memory traffic per call: gives a "gbps" metric
    tolerance: Tolerance | None = None  # overrides the dtype's entry in tolerance.TOLERANCES

    def key(self, probe: str, implementation: str, device_kind: str) -> CaseKey:
        """The CaseKey of this case measured with one implementation on one device kind."""
        return CaseKey(
            probe=probe,
            implementation=implementation,
            dtype=self.dtype,
            shape=dict(self.shape),
            layout=self.layout,
            device=device_kind,
            options=dict(self.options),
        )


@dataclass(frozen=True)
class Bench:
    """What a builder returns: the call to time, and a float64 reference on the same inputs (or None).

    `untimed` (a reason) checks numerics only and records the case as not-timed: e.g. a Triton
    kernel run by the CPU interpreter, whose speed says nothing. `extra_metrics` adds metrics after
    timing (e.g. a compile count read from a counter the run updates).
    """

    run: Callable[[], object]
    reference: Callable[[], object] | None = None
    untimed: str | None = None
    extra_metrics: Callable[[], dict[str, Metric]] | None = None


@dataclass(frozen=True)
class ScenarioResult:
    """One pass of a scenario: seconds per step (e.g. per request) and metrics of the whole pass."""

    step_seconds: list[float]
    metrics: dict[str, Metric] = field(default_factory=dict)
    output: object = None  # compared with the Scenario's reference when both are given
    operators: list[OperatorTime] | None = None  # a profiled pass's top operators, kept on the case


@dataclass(frozen=True)
class Scenario:
    """What a builder returns for a workload that must run once from cold (compiles count).

    The harness calls `play()` exactly once: no warmup, no repetition; its step times become the
    case's samples (stop reason "single pass"), its metrics are kept, memory is tracked across it.
    """

    play: Callable[[], ScenarioResult]
    reference: Callable[[], object] | None = None


class Unsupported(Exception):
    """Raised by a builder for a case it cannot run (e.g. a dtype); the case is recorded as skipped."""


BuildFn = Callable[[CaseSpec, "Device"], "Bench | Scenario"]


def _always(_: object) -> bool:
    return True


@dataclass(frozen=True)
class Implementation:
    """A registered builder and where it applies; made by the @implementation decorator."""

    name: str
    build: BuildFn
    baseline: bool = False
    enabled: Callable[[Device], bool] = _always  # False: recorded as skipped on this device
    supports: Callable[[CaseSpec], bool] = _always  # False: not paired with that case at all

    def __call__(self, case: CaseSpec, device: Device) -> Bench | Scenario:
        """Build the case's inputs on `device`."""
        return self.build(case, device)


def implementation(
    name: str,
    *,
    baseline: bool = False,
    enabled: Callable[[Device], bool] | None = None,
    supports: Callable[[CaseSpec], bool] | None = None,
) -> Callable[[BuildFn], Implementation]:
    """Register `build(case, device) -> Bench | Scenario` as implementation `name` of the probe in this module."""

    def register(build: BuildFn) -> Implementation:
        return Implementation(name, build, baseline, enabled or _always, supports or _always)

    return register


class ProbeOptions(BaseModel):
    """Base of a probe's options model: plain values (OptionValue) validated in the child, no unknown names.

    Each field is also a flag of `advisor probe` (`node_rank` -> `--node-rank`), read from the source
    (probes/declarations.py): its help is `Field(description=...)`, its metavar `json_schema_extra={"metavar": ...}`.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    @classmethod
    def check_flags(cls, values: Mapping[str, OptionValue]) -> None:
        """Check, in the parent before anything runs, the values given as flags: an AdvisorError of the probe's
        own, whose one line names the flag. Nothing by default: the child validates every option."""


class ProbeOptionsError(Exception):
    """Options a probe does not declare or cannot accept; the message is one line."""


def validate_options(model: type[ProbeOptions], probe: str, values: Mapping[str, OptionValue]) -> ProbeOptions:
    """`values` as the probe's options model; ProbeOptionsError naming the first problem otherwise."""
    try:
        return model.model_validate(dict(values))
    except ValidationError as error:
        first = error.errors(include_url=False)[0]
        where = ".".join(str(part) for part in first["loc"]) or "options"
        raise ProbeOptionsError(f"probe {probe} option {where}: {first['msg']}") from None


@dataclass(frozen=True)
class Probe:
    """A probe's declaration: `cases(device, share_s)` returns the cases that fit in share_s seconds.

    A probe with `options` (a ProbeOptions subclass) gets them too: `cases(device, share_s, options)`.
    """

    name: str
    description: str
    cases: Callable[..., list[CaseSpec]]
    options: type[ProbeOptions] | None = None
    # Read by the parent from probe.py's source (probes/declarations.py), so written there as True or False.
    runs_by_default: bool = True  # False: runs only when named, never as part of "all"
    distributed: bool = False  # launched on several processes by torchrun (probes/scaling/session.py)
    # After planning, the probe's child leaves every object alive then (modules, compiler caches, prepared
    # models) out of later collections (probes/harness/collector.py, freeze_heap), after one full collection
    # when `collects_before_freezing`. Done by the worker in the child, which owns its process; never where
    # cases are only planned (a test, the parent).
    freezes_heap: bool = False
    collects_before_freezing: bool = False

    def plan(self, device: Device, share_s: float, options: Mapping[str, OptionValue] | None = None) -> list[CaseSpec]:
        """The cases for this share, the options validated first (ProbeOptionsError when they do not fit)."""
        if self.options is None:
            if options:
                raise ProbeOptionsError(f"probe {self.name} takes no options; got {', '.join(sorted(options))}")
            return self.cases(device, share_s)
        return self.cases(device, share_s, validate_options(self.options, self.name, options or {}))


@dataclass(frozen=True)
class LoadedProbe:
    """An imported probe: its declaration and its implementations in definition order."""

    probe: Probe
    implementations: tuple[Implementation, ...]


class ProbeDefinitionError(Exception):
    """A probe module that does not follow the API (no PROBE, wrong name, duplicate implementations)."""


def probe_folders() -> dict[str, Path]:
    """Probe name -> its folder: subfolders of probes/ with a probe.py, then ADVISOR_PROBE_DIRS."""
    roots = [PROBES_DIR] + [
        Path(entry) for entry in os.environ.get(EXTRA_PROBE_DIRS_ENV, "").split(os.pathsep) if entry
    ]
    folders: dict[str, Path] = {}
    for root in roots:
        for name, folder in probe_folders_in(root).items():
            folders.setdefault(name, folder)  # built-in probes win a name clash
    return folders


def probe_declarations() -> dict[str, Declaration]:
    """Every known probe's facts (runs by default, distributed, options), read from its probe.py unimported."""
    return {name: read_declaration(name, folder) for name, folder in probe_folders().items()}


def known_probes() -> list[str]:
    """Names of the probes that can run, sorted."""
    return sorted(probe_folders())


def unknown_probes(evidence: Evidence) -> list[str]:
    """Probes an evidence file names (asked for, run, or measured a case) that cannot run here, sorted.

    Not an error: a team's own probes live in ADVISOR_PROBE_DIRS on the machine that measured them, and the
    recommendation reads only the readings it knows; but a review cannot re-run them here."""
    named = {
        *evidence.config.probes,
        *(run.probe for run in evidence.probe_runs),
        *(case.key.probe for case in evidence.cases),
    }
    return sorted(named - set(probe_folders()))


def _import_probe_module(name: str, folder: Path) -> ModuleType:
    if folder.parent == PROBES_DIR:
        return importlib.import_module(f"probes.{name}.probe")
    spec = importlib.util.spec_from_file_location(f"advisor_extra_probe_{name}", folder / "probe.py")
    if spec is None or spec.loader is None:
        raise ProbeDefinitionError(f"cannot import {folder / 'probe.py'}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_probe(name: str) -> LoadedProbe:
    """Import probe `name` and collect its declaration and implementations, in definition order."""
    folders = probe_folders()
    if name not in folders:
        raise ProbeDefinitionError(f"unknown probe {name!r}; known probes: {', '.join(sorted(folders))}")
    module = _import_probe_module(name, folders[name])
    declared = getattr(module, "PROBE", None)
    if not isinstance(declared, Probe):
        raise ProbeDefinitionError(f"probe {name}: probe.py must define PROBE = Probe(...)")
    if declared.name != name:
        raise ProbeDefinitionError(f"probe {name}: PROBE.name is {declared.name!r}, not the folder name")
    found = [value for value in vars(module).values() if isinstance(value, Implementation)]
    names = [found_one.name for found_one in found]
    duplicates = sorted({one for one in names if names.count(one) > 1})
    if duplicates:
        raise ProbeDefinitionError(f"probe {name}: implementation names used twice: {', '.join(duplicates)}")
    if not found:
        raise ProbeDefinitionError(f"probe {name}: no @implementation in probe.py")
    return LoadedProbe(declared, tuple(found))
