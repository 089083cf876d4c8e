"""The evidence a probe run produces: one pydantic model per thing measured, saved as versioned JSON.

Field names are a public JSON contract (recommendation and review read them): add fields, never
rename them; a change that old readers cannot ignore bumps EVIDENCE_SCHEMA_VERSION.
"""

from __future__ import annotations

import base64
import binascii
import gzip
import json
import math
import zlib
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    computed_field,
    field_validator,
    model_validator,
)

from probes.environment.models import Dtype, Environment
from probes.errors import AdvisorError
from probes.files.atomic_write import write_text_atomically
from probes.files.bounded_read import FileKind, read_bounded, size_text
from probes.statistics import median_ci_ranks, quantile
from probes.vocabulary import builtin_hardware_families

EVIDENCE_SCHEMA_VERSION = 1

OptionValue = str | int | float | bool
CaseStatus = Literal["ok", "failed", "skipped", "not-timed"]
StopReason = Literal["converged", "share spent", "max samples", "single pass"]
ProbeStatus = Literal["ok", "failed", "interrupted"]
MemoryMethod = Literal[
    "cuda.max_memory_allocated", "npu.max_memory_allocated", "linux.vmhwm", "psutil.rss-sampling", "none"
]


MAX_EVIDENCE_BYTES = 256 * 1024**2  # a 60 s suite with raw samples is a few MB; far beyond is not evidence
# Counts inside a file, checked before validation. The harness takes at most max_samples (2,000) on each of its
# visits (5) of a case, 10,000 samples; HarnessSettings refuses settings that would take more than the cap. The
# cap matters for time as much as memory: the median's exact interval costs O(n^2) (50 ms at 20,000 samples).
MAX_SAMPLES_PER_CASE = 20_000
MAX_SAMPLES_PER_FILE = 5_000_000  # 250 cases at the cap; the largest real file holds 163 cases of at most 2,000
MAX_CASES_PER_FILE = 20_000  # 120x the largest real file (163); a probe's plan is a few dozen cases


def _refuse_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number an evidence file may hold")


class EvidenceSchemaError(AdvisorError):
    """An evidence file this version of advisor cannot read (newer or unversioned)."""


EVIDENCE_FILE = FileKind("evidence file", MAX_EVIDENCE_BYTES, EvidenceSchemaError)


class _Model(BaseModel):
    # Fields are added, never renamed, within a schema_version: a file written by a newer advisor of the same
    # version reads here with its extra fields kept (and written back); a newer version is refused on load.
    # No float in evidence is infinite or NaN: JSON's 1e999 reads as inf, and every ratio and mean would carry it.
    model_config = ConfigDict(extra="allow", allow_inf_nan=False)


class CaseKey(_Model):
    """The variables that identify one measured case; `case_id` matches cases across runs."""

    probe: str
    implementation: str
    dtype: Dtype
    shape: dict[str, Annotated[int, Field(ge=1)]] = Field(
        description="Named dimensions in the probe's order, e.g. m, n, k (sizes: 1 or more)"
    )
    layout: str = "default"
    device: str = Field(description="Device kind: cpu, cuda or npu (not an index: runs move machines)")
    options: dict[str, OptionValue] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _drop_derived_id(cls, data: Any) -> Any:
        # case_id is written for people and jq; it is derived, so reading it back would only conflict.
        if isinstance(data, dict) and "case_id" in data:
            data = {key: value for key, value in data.items() if key != "case_id"}
        return data

    @computed_field  # type: ignore[prop-decorator]
    @property
    def case_id(self) -> str:
        """probe/implementation/dtype/shape/layout/device[/options], options sorted by name."""
        return f"{self.probe}/{self.implementation}/{self.group_id}"

    @property
    def shape_text(self) -> str:
        """The sizes alone, as people write them: 512x512x512."""
        return "x".join(str(size) for size in self.shape.values())

    @property
    def group_id(self) -> str:
        """The case without its probe and implementation: implementations compete within a group."""
        shape = ",".join(f"{name}={size}" for name, size in self.shape.items())
        parts = [self.dtype, shape or "-", self.layout, self.device]
        if self.options:
            parts.append(",".join(f"{name}={_option_text(self.options[name])}" for name in sorted(self.options)))
        return "/".join(parts)


def _option_text(value: OptionValue) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


class Stats(_Model):
    """Order statistics of timing samples; the CI of the median is the binomial (order-statistic) one."""

    n: int
    median: float
    q1: float
    q3: float
    iqr: float
    min: float
    max: float
    mean: float
    ci_low: float = Field(description="Lower bound of the median's confidence interval")
    ci_high: float
    ci_level: float = Field(description="Exact coverage of [ci_low, ci_high]; below target when n is tiny")
    rel_iqr: float = Field(description="IQR / median")
    noisy: bool = Field(description="rel_iqr above the noise threshold (10% by default)")

    @classmethod
    def from_samples(
        cls, samples: Sequence[float], *, confidence: float = 0.95, noise_threshold: float = 0.10
    ) -> Stats:
        """Derive the statistics of non-empty samples."""
        ordered = sorted(samples)
        if not ordered:
            raise ValueError("Stats.from_samples needs at least one sample")
        lower, upper, coverage = median_ci_ranks(len(ordered), confidence)
        median = quantile(ordered, 0.5)
        q1, q3 = quantile(ordered, 0.25), quantile(ordered, 0.75)
        rel_iqr = (q3 - q1) / median if median > 0 else 0.0
        return cls(
            n=len(ordered),
            median=median,
            q1=q1,
            q3=q3,
            iqr=q3 - q1,
            min=ordered[0],
            max=ordered[-1],
            mean=sum(ordered) / len(ordered),
            ci_low=ordered[lower - 1],
            ci_high=ordered[upper - 1],
            ci_level=coverage,
            rel_iqr=rel_iqr,
            noisy=rel_iqr > noise_threshold,
        )


class Measurement(_Model):
    """Raw timing samples with their unit and derived statistics (checked: finite, above zero, consistent)."""

    unit: Literal["s"] = "s"
    samples: list[float] = Field(description="One value per sample: seconds per call")
    calls_per_sample: int = Field(description="Calls averaged in one sample (CPU blocks; 1 on devices)")
    warmup_calls: int
    cache_flushed: bool = Field(description="L2 flushed before each timed call (accelerators)")
    flush_note: str | None = Field(default=None, description="How the flush was sized: the L2 size read, or assumed")
    stop_reason: StopReason
    stats: Stats
    visits: list[int] | None = Field(
        default=None,
        description="Samples taken on each visit, in order, when the case was timed on more than one "
        "(the samples list holds them one visit after another)",
    )

    @model_validator(mode="after")
    def _samples_are_times(self) -> Measurement:
        if not self.samples:
            raise ValueError("a timing needs at least one sample")
        if self.visits is not None and (sum(self.visits) != len(self.samples) or min(self.visits, default=0) < 1):
            raise ValueError(f"visits {self.visits} do not add up to the {len(self.samples)} samples")
        if any(not math.isfinite(value) or value < 0 for value in self.samples):
            raise ValueError("samples must be finite, non-negative seconds")
        # A call takes time: a sample of 0 s measured nothing (and every ratio and growth fit divides by it).
        if min(self.samples) == 0:
            raise ValueError("samples must be above zero seconds: a sample of 0 measured nothing")
        stats = self.stats
        figures = (
            stats.median,
            stats.q1,
            stats.q3,
            stats.iqr,
            stats.min,
            stats.max,
            stats.mean,
            stats.ci_low,
            stats.ci_high,
        )
        if any(not math.isfinite(value) or value < 0 for value in figures):
            raise ValueError("stats must be finite, non-negative")
        if stats.min <= 0 or stats.median <= 0:
            raise ValueError("stats.min and stats.median must be above zero seconds")
        if stats.n < len(self.samples):  # a trimmed file may keep fewer samples than its statistics saw, never more
            raise ValueError(f"stats.n is {stats.n} but there are {len(self.samples)} samples")
        return self

    @classmethod
    def from_samples(
        cls,
        samples: Sequence[float],
        *,
        stop_reason: StopReason,
        calls_per_sample: int = 1,
        warmup_calls: int = 0,
        cache_flushed: bool = False,
        flush_note: str | None = None,
        confidence: float = 0.95,
        noise_threshold: float = 0.10,
        visits: list[int] | None = None,
    ) -> Measurement:
        """Seconds-per-call samples with their statistics derived (`Stats.from_samples`)."""
        return cls(
            samples=list(samples),
            calls_per_sample=calls_per_sample,
            warmup_calls=warmup_calls,
            cache_flushed=cache_flushed,
            flush_note=flush_note,
            stop_reason=stop_reason,
            stats=Stats.from_samples(samples, confidence=confidence, noise_threshold=noise_threshold),
            visits=visits,
        )

    def scaled(self, factor: float) -> Measurement:
        """The same measurement with every sample `factor` times as long (statistics derived again, visits kept):
        a synthetic change, for benchmarks and tests of the comparison."""
        return Measurement.from_samples(
            [sample * factor for sample in self.samples],
            stop_reason=self.stop_reason,
            calls_per_sample=self.calls_per_sample,
            warmup_calls=self.warmup_calls,
            cache_flushed=self.cache_flushed,
            flush_note=self.flush_note,
            visits=self.visits,
        )

    def visit_samples(self) -> list[list[float]]:
        """The samples of each visit, in order (one list when the case was timed on one visit)."""
        if not self.visits:
            return [list(self.samples)]
        bounds = [0]
        for count in self.visits:
            bounds.append(bounds[-1] + count)
        return [self.samples[start:end] for start, end in zip(bounds, bounds[1:])]


class Metric(_Model):
    """A derived figure with its unit, e.g. 12.3 TFLOP/s."""

    value: float
    unit: str


class MemoryPeak(_Model):
    """Peak memory while the case built its inputs and ran once, and how it was read."""

    peak_bytes: int | None
    baseline_bytes: int | None = Field(description="Usage when the peak was reset, before the case")
    method: MemoryMethod
    scope: Literal["process", "device-allocator", "none"]


class NumericError(_Model):
    """Error of the output against a float64 reference computed on the same inputs."""

    max_abs: float | None
    max_rel: float | None = Field(description="max |out-ref| / max(|ref|, atol)")
    atol: float
    rtol: float
    passed: bool = Field(description="|out-ref| <= atol + rtol*|ref| everywhere")
    detail: str | None = None


class OperatorTime(_Model):
    """One operator's self time in a profiled pass, its concern group and its share of the pass's total."""

    name: str = Field(description="Profiler name, e.g. aten::addmm")
    group: str = Field(description="Concern group: gemm, attention, normalization... (probes/hotops/groups.py)")
    self_s: float = Field(description="Self time per pass: the operator alone, not the ops it calls")
    share: float = Field(description="self_s / the pass's total self time")
    calls: float = Field(description="Calls per pass")


class ProbeCase(_Model):
    """One implementation measured on one case."""

    key: CaseKey
    status: CaseStatus
    reason: str | None = None
    timing: Measurement | None = None
    metrics: dict[str, Metric] = Field(default_factory=dict)
    memory: MemoryPeak | None = None
    numeric: NumericError | None = None
    baseline: bool = Field(default=False, description="The implementation the probe compares the others to")
    wall_s: float = Field(default=0.0, ge=0, description="Time this case took in all, build and checks included")
    operators: list[OperatorTime] | None = Field(
        default=None, description="Top operators by self time, for probes that profile a whole model (hotops)"
    )


class ProbeRun(_Model):
    """How one probe's child process(es) went."""

    probe: str
    status: ProbeStatus
    reason: str | None = None
    share_s: float = Field(ge=0, description="Wall time the runner gave the probe")
    sized_for_s: float | None = Field(default=None, ge=0, description="Time the probe's cases() was told it had")
    wall_s: float = Field(ge=0)
    restarts: int = 0
    incidents: list[str] = Field(default_factory=list, description="Crashes and timeouts, in order")
    log_tail: str | None = Field(default=None, description="Last lines the child wrote to stderr, on failure")
    reference_s: list[float] = Field(
        default_factory=list,
        description="Seconds per call of the machine-speed reference kernel, timed as each child started, in "
        "order (CPU runs; probes/harness/reference.py)",
    )


class HarnessSettings(_Model):
    """Knobs of the timer and the isolation; recorded so a run can be repeated as it was."""

    ci_target: float = Field(
        default=0.02, description="Stop timing once the median's confidence interval is within +/- this share of it"
    )
    noise_threshold: float = 0.10
    confidence: float = 0.95
    min_samples: int = Field(
        default=8, description="Fewest samples before the stop rule is checked (8: [min, max] covers the median at 99%)"
    )
    max_samples: int = 2000
    warmup_s: float = Field(default=0.1, description="Warmup time, capped at warmup_share of the case's time")
    warmup_share: float = 0.2
    min_sample_s: float = Field(default=1e-4, description="CPU: calls per sample chosen to last at least this")
    probe_grace: float = Field(default=0.05, description="Child killed at share * (1 + probe_grace)")
    case_grace_s: float = Field(default=5.0, description="A case is hung this long (+25% of its share) past its share")
    max_restarts: int = Field(default=3, description="Child restarts after crashes, per probe")
    visits: int = Field(
        default=5,
        description="Times each timed case is timed, the probe's other cases between two visits (time left "
        "after the first visit pays for the next): samples spread over the run, not one stretch of it",
    )
    hold_freed_host_memory: bool = Field(
        default=True,
        description="Probe children fix glibc's mmap/trim thresholds so freed scratch is reused, not faulted in "
        "anew (probes/harness/host_allocator.py), and trim between cases",
    )


class ProbeConfig(_Model):
    """What was asked for: budget, device, probes and harness settings."""

    budget_s: float
    device_requested: str
    device: str = Field(description="The device measured, e.g. cpu or cuda:0")
    probes: list[str]
    settings: HarnessSettings
    probe_options: dict[str, dict[str, OptionValue]] = Field(
        default_factory=dict, description="Options given to probes by name, e.g. hotops: {model_type: moe}"
    )
    probe_weights: dict[str, float] = Field(
        default_factory=dict, description="Each probe's weight in sharing the budget (by what the decision reads)"
    )


class HostContention(_Model):
    """How much CPU other processes used while the probes ran; a busy host makes timings unreliable."""

    other_cpu_share: float = Field(description="Other processes' CPU time / (wall time x logical cores)")
    load_average_before: float = Field(description="1-minute load average when the run started")
    logical_cores: int
    busy: bool = Field(description="other_cpu_share above 0.2: treat the timings with suspicion")


SIGNIFICANT_DIGITS = 5
# Raw samples keep 4: a sample moves by at most 5e-4 of itself, 40x inside the timer's +/-2% target for the
# median's interval and below the quietest run-to-run spread measured here (0.8%, bench_repeatability).
SAMPLE_DIGITS = 4


def _rounded(value: object) -> object:
    """`value` (plain JSON data) with every float rounded to SIGNIFICANT_DIGITS significant digits; whole numbers
    (byte counts, parameters) are counts, not measurements, and stay exact."""
    if isinstance(value, float):
        return float(f"{value:.{SIGNIFICANT_DIGITS}g}") if math.isfinite(value) and not value.is_integer() else value
    if isinstance(value, dict):
        return {key: _rounded(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_rounded(item) for item in value]
    return value


PACKED_SAMPLES_FROM = 64  # longer sample lists are written gzipped (samples_gz)
# A packed list never unpacks beyond this: 16 characters a sample (a written sample takes at most 10 and a
# space; 2,000 samples take ~14 KB), so a decompression bomb stops here.
MAX_PACKED_BYTES = 16 * MAX_SAMPLES_PER_CASE
LEAN_UNITS_PER_SECOND = {"us": 1e6}  # the units a lean file may write samples in (dividing gives the nearest float)


def _lean_case(case: dict[str, Any]) -> dict[str, Any]:
    """A dumped case with its timing samples in microseconds and without the statistics derived from them."""
    timing = case.get("timing")
    if isinstance(timing, dict) and timing.get("samples"):
        rounded = [float(f"{value * 1e6:.{SAMPLE_DIGITS}g}") for value in timing["samples"]]
        timing = {key: value for key, value in timing.items() if key != "stats"}
        samples = [int(value) if float(value).is_integer() else value for value in rounded]
        if len(samples) > PACKED_SAMPLES_FROM:  # a long list: the same numbers, gzipped (a tenth of the text or less)
            packed = gzip.compress(" ".join(map(str, samples)).encode(), mtime=0)
            timing.pop("samples")
            timing.update(unit="us", samples_gz=base64.b64encode(packed).decode())
        else:
            timing.update(unit="us", samples=samples)
        case = {**case, "timing": timing}
    return case


def _unpacked_samples(packed: object, where: str) -> list[float]:
    """The samples of a `samples_gz` field (base64 of gzipped, space-separated numbers); ValueError naming
    `where` (the case) when it is not that, or when it unpacks past MAX_PACKED_BYTES (a decompression bomb)."""
    if not isinstance(packed, str):
        raise ValueError(f"{where}: timing.samples_gz must be a base64 string, got {type(packed).__name__}")
    inflater = zlib.decompressobj(wbits=31)  # the gzip container
    try:
        text = inflater.decompress(base64.b64decode(packed, validate=True), MAX_PACKED_BYTES)
    except (binascii.Error, zlib.error):
        raise ValueError(f"{where}: timing.samples_gz is not valid base64 of gzipped samples") from None
    if not inflater.eof:
        if len(text) >= MAX_PACKED_BYTES:
            raise ValueError(
                f"{where}: timing.samples_gz unpacks past {size_text(MAX_PACKED_BYTES)}, more than "
                f"{MAX_SAMPLES_PER_CASE} samples take"
            )
        raise ValueError(f"{where}: timing.samples_gz is not valid base64 of gzipped samples (cut short)")
    try:
        return [float(item) for item in text.decode("ascii").split()]
    except (UnicodeDecodeError, ValueError):
        raise ValueError(f"{where}: timing.samples_gz does not unpack to space-separated numbers") from None


def _case_name(index: int, case: object) -> str:
    """`cases.3 (gemm/torch.matmul)`: where a case sits and, when it says so plainly, what it is."""
    key = case.get("key") if isinstance(case, dict) else None
    probe, implementation = (key.get("probe"), key.get("implementation")) if isinstance(key, dict) else (None, None)
    named = isinstance(probe, str) and isinstance(implementation, str) and f"{probe}/{implementation}".isprintable()
    return f"cases.{index} ({str(probe)[:40]}/{str(implementation)[:60]})" if named else f"cases.{index}"


def _expand_lean_timings(data: Any) -> Any:
    """Before validation: samples written in another unit back in seconds, and missing statistics recomputed
    from them with the run's confidence and noise threshold (a lean file leaves them out). Counts past the caps
    (cases per file, samples per case and per file) and a malformed samples_gz are a ValueError naming the case."""
    if not isinstance(data, dict) or not isinstance(data.get("cases"), list):
        return data
    if len(data["cases"]) > MAX_CASES_PER_FILE:
        raise ValueError(f"{len(data['cases'])} cases, more than an evidence file may hold ({MAX_CASES_PER_FILE})")
    settings = data.get("config", {}).get("settings", {}) if isinstance(data.get("config"), dict) else {}
    confidence = _number_or(settings.get("confidence") if isinstance(settings, dict) else None, 0.95)
    noise = _number_or(settings.get("noise_threshold") if isinstance(settings, dict) else None, 0.10)
    cases = []
    total = 0
    for index, case in enumerate(data["cases"]):
        timing = case.get("timing") if isinstance(case, dict) else None
        if not isinstance(timing, dict):
            cases.append(case)
            continue
        where = _case_name(index, case)
        if "samples_gz" in timing and "samples" not in timing:
            packed = timing["samples_gz"]
            timing = {key: value for key, value in timing.items() if key != "samples_gz"}
            timing["samples"] = _unpacked_samples(packed, where)
        if isinstance(timing.get("samples"), list):
            total += len(timing["samples"])
            if len(timing["samples"]) > MAX_SAMPLES_PER_CASE:
                raise ValueError(
                    f"{where}: {len(timing['samples'])} samples, more than a case may hold ({MAX_SAMPLES_PER_CASE})"
                )
            if total > MAX_SAMPLES_PER_FILE:
                raise ValueError(
                    f"{where}: the cases up to here hold {total} samples, more than an evidence file "
                    f"may hold ({MAX_SAMPLES_PER_FILE})"
                )
            timing = _in_seconds(timing, where)
            if "stats" not in timing and timing["samples"] and all(isinstance(v, float) for v in timing["samples"]):
                stats = Stats.from_samples(timing["samples"], confidence=confidence, noise_threshold=noise)
                timing["stats"] = stats.model_dump()
        cases.append({**case, "timing": timing})
    return {**data, "cases": cases}


def _number_or(value: object, default: float) -> float:
    """`value` when it is a finite number, else `default` (the model then refuses what is not a number)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            return float(value) if math.isfinite(value) else default
        except OverflowError:
            return default
    return default


def _in_seconds(timing: dict[str, Any], where: str) -> dict[str, Any]:
    """The timing with numeric samples as floats, those written in a lean unit divided back into seconds."""
    samples = timing["samples"]
    if not all(isinstance(value, (int, float)) and not isinstance(value, bool) for value in samples):
        return timing  # the model names the sample that is not a number
    per_second = LEAN_UNITS_PER_SECOND.get(str(timing.get("unit")))
    try:
        seconds = [float(value) / per_second if per_second is not None else float(value) for value in samples]
    except OverflowError:
        raise ValueError(f"{where}: timing.samples holds a number too large to be a time") from None
    return {**timing, "samples": seconds, **({"unit": "s"} if per_second is not None else {})}


class Evidence(_Model):
    """Everything one `run_probes` call measured, with the machine and the code it ran on."""

    schema_version: int = EVIDENCE_SCHEMA_VERSION
    environment: Environment
    config: ProbeConfig
    started_at: datetime
    finished_at: datetime
    interrupted: bool = False
    git_commit: str | None = Field(default=None, description="HEAD of the advisor checkout, when it is one")
    host_contention: HostContention | None = Field(default=None, description="Other load on the host during the run")
    probe_runs: list[ProbeRun] = Field(default_factory=list)
    cases: list[ProbeCase] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _read_lean_timings(cls, data: Any) -> Any:
        return _expand_lean_timings(data)

    @field_validator("environment")
    @classmethod
    def _known_family(cls, environment: Environment) -> Environment:
        family = environment.hardware_family
        if family is not None and family not in builtin_hardware_families():
            raise ValueError(
                f"hardware_family {family[:60]!r} is not a hardware family advisor knows (`advisor kb platforms`)"
            )
        return environment

    @field_validator("finished_at")
    @classmethod
    def _after_start(cls, finished_at: datetime, info: ValidationInfo) -> datetime:
        started_at = info.data.get("started_at")  # absent when it did not validate: that error is reported
        if isinstance(started_at, datetime):
            if (started_at.tzinfo is None) != (finished_at.tzinfo is None):
                raise ValueError("one of started_at and finished_at has a time zone and the other not")
            if finished_at < started_at:
                raise ValueError(f"{finished_at.isoformat()} is before started_at {started_at.isoformat()}")
        return finished_at

    @field_validator("cases")
    @classmethod
    def _each_case_once(cls, cases: list[ProbeCase]) -> list[ProbeCase]:
        first_index: dict[str, int] = {}
        for index, case in enumerate(cases):
            earlier = first_index.setdefault(case.key.case_id, index)
            if earlier != index:
                raise ValueError(
                    f"cases {earlier} and {index} are the same case ({case.key.case_id[:100]}); a file holds each once"
                )
        return cases

    def ci_half_widths(self) -> list[float]:
        """For each timed case, half its median's CI width over the median: how well its samples pin it down."""
        return [
            (case.timing.stats.ci_high - case.timing.stats.ci_low) / 2 / case.timing.stats.median
            for case in self.cases
            if case.status == "ok" and case.timing is not None and case.timing.stats.median > 0
        ]

    def device_name(self, device: str | None = None) -> str:
        """The name of a device kind this evidence ran on (the CPU model, the first GPU or NPU); by default
        the accelerator any case ran on, else the CPU."""
        if device is None:
            device = next((case.key.device for case in self.cases if case.key.device != "cpu"), "cpu")
        environment = self.environment
        if device == "cpu":
            return environment.cpu.model_name or environment.cpu.architecture
        if device.startswith("cuda") and environment.accelerators.gpus:
            return environment.accelerators.gpus[0].name
        listed = {
            "npu": environment.npu.devices if environment.npu is not None else [],
            "hpu": environment.gaudi.devices if environment.gaudi is not None else [],
            "xla": [
                *(environment.tpu.devices if environment.tpu else []),
                *(environment.neuron.devices if environment.neuron else []),
            ],
            "mps": [environment.apple.chip] if environment.apple is not None and environment.apple.chip else [],
        }.get(device.split(":")[0], [])
        return listed[0] if listed else device

    def has_timed_case(self) -> bool:
        """Some case ran and was timed: the file measured something."""
        return any(case.status == "ok" and case.timing is not None for case in self.cases)

    def to_text(self) -> str:
        """The file's text, lean (evidence is committed with every record and review): compact JSON with one
        case per line, every float to SIGNIFICANT_DIGITS significant digits, no case field at its default
        (a skipped case is its key, status and reason; the run's settings stay explicit) and no derived `case_id`.

        Five digits is what the timer's resolution justifies: a CPU sample lasts >= 100 us and is read
        in nanoseconds (1e-5 of it); a device event reads about 0.5 us. Raw timing samples keep
        SAMPLE_DIGITS (4) significant digits, far inside any case's confidence interval, and are written in
        microseconds (`"unit": "us"`: 12.35, not 1.2345e-05), a list longer than 64 gzipped and base64-encoded
        (`samples_gz`), and without their statistics, which reading recomputes from the samples with the run's
        own confidence and noise threshold.
        """
        document = _rounded(self.model_dump(mode="json", exclude={"cases"}))
        assert isinstance(document, dict)
        cases = [
            _rounded(_lean_case(case.model_dump(mode="json", exclude_defaults=True, exclude={"key": {"case_id"}})))
            for case in self.cases
        ]
        head = json.dumps(document, separators=(",", ":"), ensure_ascii=False)
        lines = ",\n".join(json.dumps(case, separators=(",", ":"), ensure_ascii=False) for case in cases)
        return f'{head[:-1]},"cases":[\n{lines}\n]}}\n' if cases else f'{head[:-1]},"cases":[]}}\n'

    def save(self, path: Path | str) -> None:
        """Write `to_text()` atomically: a temporary file in the same folder, then os.replace."""
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomically(target, self.to_text())

    @classmethod
    def load(cls, path: Path | str) -> Evidence:
        """Read an evidence file: EvidenceSchemaError (one line naming the file) for anything unreadable, not a
        regular file, too large, not UTF-8, not JSON, too deeply nested, non-finite, past the count caps,
        invalid, or written by a newer advisor."""
        return cls.parse(read_bounded(path, EVIDENCE_FILE), str(path))

    @classmethod
    def parse(cls, data: bytes | str, origin: str) -> Evidence:
        """Evidence from the bytes of a file (see `load`); `origin` names it in errors."""
        if len(data) > MAX_EVIDENCE_BYTES:
            raise EVIDENCE_FILE.too_large(origin)
        try:
            text = data.decode("utf-8") if isinstance(data, bytes) else data
            document = json.loads(text, parse_constant=_refuse_constant)
        except UnicodeDecodeError:
            raise EvidenceSchemaError(f"{origin}: not UTF-8 text, so not an evidence file") from None
        except json.JSONDecodeError as error:
            raise EvidenceSchemaError(f"{origin}: not valid JSON ({error.msg} at line {error.lineno})") from None
        except RecursionError:
            raise EvidenceSchemaError(f"{origin}: nested too deeply to be an evidence file") from None
        except ValueError as error:  # NaN / Infinity, an integer past Python's 4,300 digits
            raise EvidenceSchemaError(f"{origin}: {str(error).split(';')[0]}") from None
        version = document.get("schema_version") if isinstance(document, dict) else None
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            raise EvidenceSchemaError(f"{origin}: not an evidence file (no integer schema_version of 1 or more)")
        if version > EVIDENCE_SCHEMA_VERSION:
            raise EvidenceSchemaError(
                f"{origin}: evidence schema_version {version} is newer than this advisor reads "
                f"({EVIDENCE_SCHEMA_VERSION}); upgrade advisor to read it"
            )
        try:
            document = _expand_lean_timings(document)  # here, so its errors name the file
        except ValueError as error:
            raise EvidenceSchemaError(f"{origin}: {error}") from None
        try:
            return cls.model_validate(document)
        except ValidationError as error:
            first = error.errors(include_url=False)[0]
            where = ".".join(str(part) for part in first["loc"]) or "(top level)"
            message = str(first["msg"]).removeprefix("Value error, ")
            raise EvidenceSchemaError(f"{origin}: not an evidence file ({where}: {message[:200]})") from None
