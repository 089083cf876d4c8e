"""Serving estimates from NVIDIA's aiconfigurator (the optional extra advisor[serving]): the one module that runs it.

For an LLM served on a device aiconfigurator models, with a `model` in the profile, it estimates the best serving
configuration per engine (TensorRT-LLM, vLLM, SGLang) under the profile's SLA: aggregated or disaggregated, the
parallel layout, batch, TTFT, TPOT and tokens/s per GPU, from NVIDIA's operator tables. These are estimates by
aiconfigurator 0.12.0, never measurements, and are labelled so wherever they appear.

aiconfigurator runs in a child process (`python -m aiconfigurator.main cli default ...`): nothing in advisor imports
it, a slow search is bounded by a timeout, and its output folder is read back (best_config_topn.csv per mode, and the
top configuration's engine config, kept beside the record). Results are cached by their inputs under the cache
folder (ADVISOR_CACHE_DIR, else $XDG_CACHE_HOME/advisor, else ~/.cache/advisor).
"""

from __future__ import annotations

import csv
import hashlib
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from advisor.knowledge.model_sizes import published_fp8
from advisor.profile import Profile, ServingSLA
from advisor.recommendation.models import EngineEstimate, Recommendation
from advisor.reference.tables import ENGINE_NAMES, SYSTEM_DEVICES, system_for
from probes.errors import AdvisorError
from probes.files.atomic_write import write_text_atomically

AICONFIGURATOR_VERSION = "0.12.0"
LABEL = f"estimate by aiconfigurator {AICONFIGURATOR_VERSION}"
INSTALL_HINT = (
    "serving estimates need the optional extra: pip install 'advisor[serving]' (aiconfigurator "
    f"{AICONFIGURATOR_VERSION}, about 850 MB with its dependencies)"
)
ENGINES = ("trtllm", "vllm", "sglang")
ENGINE_CANDIDATES = {"trtllm": "tensorrt-llm", "vllm": "vllm", "sglang": "sglang"}  # aiconfigurator -> advisor ids
TIMEOUT_S = 600.0  # one engine's search; a 70B model on 8 GPUs takes about a minute on two cores
CACHE_SCHEMA = 2
# The engine config aiconfigurator writes for its top configuration: the engine's own file where it writes one (TRT-LLM),
# else the launch script that carries the engine's arguments.
CONFIG_FILES = ("agg_config.yaml", "decode_config.yaml", "run_0.sh")


class EstimateError(AdvisorError):
    """aiconfigurator could not produce an estimate (it failed, timed out, or wrote nothing readable)."""


class ServingEstimate(BaseModel):
    """aiconfigurator's best configuration for one engine under the SLA (an estimate, not a measurement): the row the
    recommendation carries, and the generated engine config kept beside the record."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    table_engine: str = Field(description="aiconfigurator's engine name: trtllm, vllm or sglang")
    row: EngineEstimate
    config_text: str = Field(description="The text of row.config_file, kept beside the record")


@dataclass(frozen=True)
class EstimateRequest:
    """What one estimate depends on: the cache key."""

    model: str
    system: str
    gpus: int
    sla: ServingSLA
    engine: str

    def key(self) -> str:
        model = self.model
        config = Path(self.model).expanduser()
        if config.exists():  # a local config: its content, not its path, decides the estimate
            text = (config if config.is_file() else config / "config.json").read_bytes()
            model = "sha256:" + hashlib.sha256(text).hexdigest()
        parts = [AICONFIGURATOR_VERSION, model, self.system, str(self.gpus), self.engine, self.sla.model_dump_json()]
        return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:24]


def available() -> bool:
    """advisor[serving] is installed: aiconfigurator can run in a child process."""
    return importlib.util.find_spec("aiconfigurator") is not None


def modelled(profile: Profile, device: str | None) -> bool:
    """An LLM served on a device aiconfigurator models, with a model named to estimate."""
    return profile.llm and profile.serves and profile.model is not None and system_for(device) is not None


def cache_dir() -> Path:
    """Where estimates are cached: ADVISOR_CACHE_DIR, else the XDG cache folder."""
    explicit = os.environ.get("ADVISOR_CACHE_DIR")
    if explicit:
        return Path(explicit) / "serving-estimates"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "advisor" / "serving-estimates"


def model_argument(model: str) -> str:
    """A bundled model name as is; a local config.json (or its folder) as the folder aiconfigurator reads."""
    path = Path(model).expanduser()
    if path.is_file():
        return str(path.resolve().parent)
    return str(path.resolve()) if path.is_dir() else model


def command(request: EstimateRequest, out: Path) -> list[str]:
    """The aiconfigurator command line for one engine's search."""
    sla = request.sla
    return [
        sys.executable,
        "-m",
        "aiconfigurator.main",
        "cli",
        "default",
        "--model-path",
        model_argument(request.model),
        "--system",
        request.system,
        "--total-gpus",
        str(request.gpus),
        "--backend",
        request.engine,
        "--isl",
        str(sla.isl),
        "--osl",
        str(sla.osl),
        "--ttft",
        f"{sla.ttft_ms:g}",
        "--tpot",
        f"{sla.tpot_ms:g}",
        "--save-dir",
        str(out),
        "--log-level",
        "ERROR",
        "--no-color",
    ]


def best_row(folder: Path) -> tuple[str, dict[str, str], Path] | None:
    """The configuration with the most tokens/s per GPU over the modes aiconfigurator wrote, with its top1 folder."""
    found = []
    for mode in ("agg", "disagg"):
        table = next(folder.glob(f"*/*/{mode}/best_config_topn.csv"), None) or next(
            folder.glob(f"**/{mode}/best_config_topn.csv"), None
        )
        if table is None:
            continue
        with table.open(newline="", encoding="utf-8") as stream:
            rows = list(csv.DictReader(stream))
        if rows:
            found.append((mode, rows[0], table.parent / "top1"))
    return max(found, key=lambda item: float(item[1].get("tokens/s/gpu") or 0.0)) if found else None


def parse_estimate(request: EstimateRequest, folder: Path) -> ServingEstimate:
    """The engine's best configuration from aiconfigurator's output folder."""
    best = best_row(folder)
    if best is None:
        raise EstimateError(
            f"aiconfigurator wrote no configuration meeting the SLA for {request.engine} "
            f"({request.model} on {request.gpus} x {request.system})"
        )
    mode, row, top1 = best
    config = next((top1 / name for name in CONFIG_FILES if (top1 / name).is_file()), None)
    if mode == "disagg":
        parallel = f"prefill {row.get('(p)parallel', '?')} x{row.get('(p)workers', '?')}, decode {row.get('(d)parallel', '?')} x{row.get('(d)workers', '?')}"
        batch = f"prefill {row.get('(p)bs', '?')}, decode {row.get('(d)bs', '?')}"
        version = row.get("(d)version") or row.get("(p)version") or "?"
    else:
        parallel, batch, version = row.get("parallel", "?"), row.get("bs", "?"), row.get("version", "?")
    estimate = EngineEstimate(
        engine=ENGINE_NAMES.get(request.engine, request.engine),
        candidate=ENGINE_CANDIDATES[request.engine],
        engine_version=version,
        mode=mode,
        parallel=parallel,
        batch=batch,
        ttft_ms=float(row["ttft"]),
        tpot_ms=float(row["tpot"]),
        tokens_per_s_per_gpu=float(row["tokens/s/gpu"]),
        config_file=f"{request.engine}-{mode}-{config.name}" if config else "",
    )
    return ServingEstimate(
        table_engine=request.engine, row=estimate, config_text=config.read_text(encoding="utf-8") if config else ""
    )


def run_estimate(request: EstimateRequest, timeout_s: float = TIMEOUT_S) -> ServingEstimate:
    """One engine's estimate, run now in a child process."""
    with tempfile.TemporaryDirectory(prefix="advisor-estimate-") as scratch:
        out = Path(scratch) / "out"
        try:
            done = subprocess.run(
                command(request, out), capture_output=True, text=True, timeout=timeout_s, check=False, cwd=scratch
            )
        except subprocess.TimeoutExpired:
            raise EstimateError(f"aiconfigurator took more than {timeout_s:.0f} s for {request.engine}") from None
        if done.returncode != 0:
            reason = failure_reason(f"{done.stdout}\n{done.stderr}")
            raise EstimateError(f"aiconfigurator failed for {request.engine} (exit {done.returncode}): {reason[:300]}")
        return parse_estimate(request, out)


def cached(request: EstimateRequest, folder: Path) -> ServingEstimate | None:
    path = folder / f"{request.key()}.json"
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        if document.get("schema") == CACHE_SCHEMA:
            return ServingEstimate.model_validate(document["estimate"])
    except (OSError, ValueError, KeyError):
        pass
    return None


def store(request: EstimateRequest, estimate: ServingEstimate, folder: Path) -> None:
    """Write the cache entry atomically."""
    folder.mkdir(parents=True, exist_ok=True)
    document = {"schema": CACHE_SCHEMA, "estimate": estimate.model_dump(mode="json")}
    write_text_atomically(folder / f"{request.key()}.json", json.dumps(document))


# aiconfigurator's log lines: "04:06:51 [aiconfigurator] [E] [main.py:2181] Error running experiment agg: ...".
ERROR_LINE = re.compile(r"\[E\] \[[^\]]*\]\s*(?:->\s*)?(.*)")


def failure_reason(output: str) -> str:
    """Why aiconfigurator failed: its first logged error (it logs to stdout) that names the failed experiment's cause,
    else its first error, else the last line; a warning's last line ("main(sys.argv[1:])") says nothing."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    errors = [found.group(1) for line in lines if (found := ERROR_LINE.search(line)) is not None]
    experiment = [error for error in errors if error.startswith(("Error running experiment", "Experiment"))]
    return (experiment or errors or lines[-1:] or ["no message"])[0]


def estimated_model(profile: Profile) -> str:
    """The checkpoint to estimate: the publisher's FP8 release of the model where the profile asks fp8 and one is
    known (Qwen/Qwen3-30B-A3B-FP8), else the model named."""
    assert profile.model is not None, "estimated_model needs a model"
    twin = published_fp8(profile.model) if profile.needs.quantization == "fp8" else None
    return twin.checkpoint if twin is not None else profile.model


def estimates_for(
    profile: Profile,
    device: str,
    engines: Sequence[str] = ENGINES,
    progress: Callable[[str], None] | None = None,
    folder: Path | None = None,
    timeout_s: float = TIMEOUT_S,
) -> tuple[list[ServingEstimate], list[str]]:
    """The best configuration per engine, best first, and one line per engine that could not be estimated."""
    system = system_for(device)
    assert profile.model is not None and system is not None, "estimates_for needs modelled(profile, device)"
    sla = profile.serving or ServingSLA()
    folder = folder or cache_dir()
    found, failed = [], []
    model = estimated_model(profile)
    for index, engine in enumerate(engines, 1):
        request = EstimateRequest(model, system, profile.needs.devices, sla, engine)
        estimate = cached(request, folder)
        if estimate is None:
            if progress is not None:
                progress(
                    f"estimating {ENGINE_NAMES.get(engine, engine)} ({index}/{len(engines)}): {model} on "
                    f"{profile.needs.devices} x {system} ..."
                )
            try:
                estimate = run_estimate(request, timeout_s)
            except EstimateError as error:
                failed.append(str(error))
                continue
            store(request, estimate, folder)
        found.append(estimate)
    found.sort(key=lambda estimate: -estimate.row.tokens_per_s_per_gpu)
    return found, failed


def sla_text(profile: Profile) -> str:
    sla = profile.serving or ServingSLA()
    given = "" if profile.serving is not None else " (advisor's defaults: set `serving` in the profile)"
    return f"ISL {sla.isl}, OSL {sla.osl}, TTFT at most {sla.ttft_ms:g} ms, TPOT at most {sla.tpot_ms:g} ms{given}"


def released_in_fp8(recommendation: Recommendation) -> bool:
    """The chosen serving stack is written for the profile's model and serves its FP8 release (DeepSeek-V3), so no
    FP8 checkpoint needs naming."""
    return recommendation.profile.needs.quantization == "fp8" and any(
        stack.released_quantized for stack in recommendation.stacks
    )


def unchecked_sla(profile: Profile, device: str | None) -> str | None:
    """Where the profile states a latency SLA that no estimate checks, why not and what checks it instead (review 102:
    a stated TTFT/TPOT passed over in silence); None where no SLA is stated."""
    if profile.serving is None or not profile.serves:
        return None
    if not profile.llm:
        why = f"aiconfigurator estimates LLM serving only, not a {profile.model_type} model"
    elif profile.model is None:
        why = "no `model` is named to estimate"
    else:
        modelled_devices = ", ".join(SYSTEM_DEVICES.values())
        why = f"aiconfigurator models only NVIDIA's {modelled_devices}, not {device or profile.hardware}"
    return (
        f"the latency SLA ({sla_text(profile)}) is not estimated here: {why}; measure it on the target with the chosen "
        "engine's own benchmark at that traffic before committing"
    )


def with_estimates(
    recommendation: Recommendation,
    progress: Callable[[str], None] | None = None,
    folder: Path | None = None,
    engines: Sequence[str] = ENGINES,
) -> tuple[Recommendation, list[ServingEstimate]]:
    """The recommendation with aiconfigurator's serving estimates attached where the profile asks for one (an LLM
    served on a modelled device, a `model` named), or a note saying how to get them; and the estimates themselves."""
    profile, device = recommendation.profile, recommendation.device
    if not modelled(profile, device):
        unchecked = unchecked_sla(profile, device)
        return (recommendation.model_copy(update={"estimates_note": unchecked}) if unchecked else recommendation), []
    if not available():
        return recommendation.model_copy(update={"estimates_note": INSTALL_HINT}), []
    assert device is not None
    found, failed = estimates_for(profile, device, engines, progress, folder)
    model = estimated_model(profile)
    named = model if model == profile.model else f"{model} (the publisher's FP8 release of {profile.model})"
    note = f"{LABEL} for {named} on {profile.needs.devices} x {device}, {sla_text(profile)}, in the checkpoint's own precision"
    if profile.needs.quantization == "fp8" and "fp8" not in model.lower() and not released_in_fp8(recommendation):
        note += " (the profile asks fp8: name an FP8 checkpoint of the model, as its publisher or NVIDIA releases one, to estimate it)"
    note += "; not measured, and the launch configs it writes are aiconfigurator's own, not checked against the record"
    if failed:
        note += "; " + "; ".join(failed)
    rows = tuple(estimate.row for estimate in found)  # their configs stay with the record's files
    return recommendation.model_copy(update={"estimates": rows, "estimates_note": note}), found
