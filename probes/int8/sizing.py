"""The int8 probe's cases, sized so that every (case x implementation) pair fits its part of the share.

One width `d` sets both timed families: GEMMs (m x d) @ (d x d) and MLP blocks d/2 -> 2d -> d/2
(the usual 4x hidden width). The widest plan whose costliest case fits is chosen, the cost read
from the cases' own flops. The two error studies are small and fixed, so their case ids never move.
The whole-model cases (a reference model in ONNX Runtime, fp32 and int8) are fixed too: the `small`
reference model at batch 1, milliseconds a call on a CPU. They come first (a share that runs out must
not leave the evidence a profile's model type is judged on unmeasured), and their model is exported,
quantized and its references computed while planning: that assumed cost comes off the share first.
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass

from probes.environment.models import Dtype
from probes.harness.device import Device
from probes.int8.options import Int8Options
from probes.models import OptionValue
from probes.reference_models import reference_shape
from probes.registry import CaseSpec
from probes.tolerance import Tolerance
from probes.vocabulary import MODEL_TYPES

GEMM_ROWS = (16, 256, 2048)  # decode-like, small batch, prefill-like; 2048 only where it fits
MLP_TOKENS = (16, 256)
WIDTHS = (256, 512, 1024, 2048, 4096, 8192)
WEIGHT_STUDY = {"out_features": 512, "in_features": 512}
LAYERNORM_STUDY = {"tokens": 256, "features": 512}
OUTLIERS: dict[str, OptionValue] = {"outlier_channels": 4, "outlier_gain": 20.0}

GEMM_DTYPES: tuple[tuple[Dtype, int], ...] = (("int8", 1), ("fp32", 4), ("bf16", 2))  # with bytes per element
_STUDY_PAIRS = 4  # per-tensor and per-channel weights; LayerNorm input and output
_CALLS_PER_PAIR = 20  # checked call, warmup, >= 10 timed calls, the error-metric call, and slack
# Importing torchao while planning; assumed, not timed, so that a restarted child re-plans the same cases.
TORCHAO_IMPORT_S = 3.0

# Whole-model cases (CPU only): the reference model of `model_type`, or these, as many as fit MODEL_SHARE.
MODEL_SIZE = "small"  # batch 1: 0.3-6 ms a call in ONNX Runtime fp32 on this 2-core VM
DEFAULT_MODEL_TYPES = ("cnn", "dense-transformer")  # conv-bound and GEMM-bound
MODEL_SHARE = 0.4  # at most this part of the share goes to preparing models (beyond the first model)
# Assumed while planning, on purpose high: importing onnx and onnxruntime (0.6-2 s here), then per model
# the export (0.1-0.5 s), quantization (0.1-0.2 s), the float64 torch reference (0.05-0.45 s) and both
# sessions made and run once. The two cases of a model then only check and time: their equal parts of
# the share, like any other pair's, suffice from ~0.1 s (the CNN: ~1 ms a call; the transformer ~4 ms).
ORT_IMPORT_S = 1.0
MODEL_PREPARE_S = 1.5
# A ceiling, not a quality bar (the metrics carry the error): a third of the output's largest magnitude
# (measured: CNN logits 0.16, transformer logits 2.4-2.6, UNet noise 1.5). Measured errors: cnn 0.001,
# transformers 0.03, diffusion 0.3 (static QDQ of a UNet); an int8 model past a third no longer follows the float one.
MODEL_INT8_TOLERANCE = {
    "cnn": Tolerance(atol=0.05, rtol=0.0),
    "dense-transformer": Tolerance(atol=0.8, rtol=0.0),
    "moe": Tolerance(atol=0.8, rtol=0.0),
    "multimodal": Tolerance(atol=0.8, rtol=0.0),
    "diffusion": Tolerance(atol=0.5, rtol=0.0),
}
assert set(MODEL_INT8_TOLERANCE) == set(MODEL_TYPES), "a tolerance per profile model type"


@dataclass(frozen=True)
class AssumedSpeed:
    """Throughput assumed when sizing: low on purpose, so a slow or busy machine still fits its share."""

    ops_per_s: float  # the measured paths (float or int8)
    reference_flops_per_s: float  # the float64 reference
    fixed_s: float  # per pair: drawing inputs on the host, quantize_, first-call set-up, warmup


# Well under current parts (this 2-core AVX-512 VM: ~250 GFLOP/s fp32, ~120 float64; consumer GPUs:
# tens of TFLOP/s fp32, ~1 float64). NPU references run on the CPU: Ascend has no float64 matmul.
ASSUMED_SPEED = {
    "cpu": AssumedSpeed(ops_per_s=1e10, reference_flops_per_s=5e9, fixed_s=0.3),
    "cuda": AssumedSpeed(ops_per_s=5e12, reference_flops_per_s=2e11, fixed_s=1.0),
    "npu": AssumedSpeed(ops_per_s=5e12, reference_flops_per_s=5e9, fixed_s=1.0),
}

# int8 output of an MLP vs its float64 block: symmetric int8 rounding costs ~1% rms per quantized
# operand (step absmax/127, crest factor ~4.5: 4.5/127/sqrt(12)), so ~2% of the output's rms (~0.7)
# with dynamic activations; the worst of ~10^6 outputs stays under 0.08 (measured 0.04-0.08, bf16
# included). 0.15 + 5% keeps 2x room, while a wrong scale or a lost row errs by the output itself.
MLP_INT8_TOLERANCE = Tolerance(atol=0.15, rtol=0.05)
# Half a step is the most symmetric rounding can err; the study's weight has max |w| = 1, so its
# coarsest step is 1/127. Both granularities pass; a broken quantizer does not. (+0.1% for fp32.)
WEIGHT_STUDY_TOLERANCE = Tolerance(atol=0.5 / 127 * 1.001, rtol=0.0)
# A ceiling, not a quality bar (the metrics carry the error): outputs reach ~15 in the outlier
# channels and ~1 elsewhere; quantizing the input costs up to ~3 at an element (the finding), the
# output half a step (~0.06). Above 5 the output no longer follows its input: the pipeline is broken.
LAYERNORM_STUDY_TOLERANCE = Tolerance(atol=5.0, rtol=0.0)


@dataclass(frozen=True)
class TimedPlan:
    """The width and GEMM row counts of the timed cases."""

    width: int
    gemm_rows: tuple[int, ...]


def pair_seconds(device_kind: str, flops: float) -> float:
    """Estimated wall time of one pair: fixed costs, the float64 reference, and its planned calls."""
    speed = ASSUMED_SPEED.get(device_kind, ASSUMED_SPEED["cuda"])
    return speed.fixed_s + flops / speed.reference_flops_per_s + _CALLS_PER_PAIR * flops / speed.ops_per_s


def timed_cases(plan: TimedPlan, served: Dtype) -> list[CaseSpec]:
    """The GEMM and MLP cases of a plan."""
    return _gemm_cases(plan) + _mlp_cases(plan, served)


def implementations_per_case(case: CaseSpec) -> int:
    """How many implementations probe.py pairs with a case: two torchao configs per int8 MLP, else one."""
    return 2 if case.options.get("op") == "mlp" and case.dtype == "int8" else 1


def timed_plan(device_kind: str, share_s: float, other_pairs: int = 0) -> TimedPlan:
    """The widest plan whose costliest pair fits its part of the share (at least the narrowest one);
    `other_pairs` (the whole-model cases) take their parts too."""
    for width in reversed(WIDTHS):
        for rows in (GEMM_ROWS, GEMM_ROWS[:2]):
            plan = TimedPlan(width, rows)
            cases = timed_cases(plan, "fp32")
            per_pair = share_s / (sum(implementations_per_case(case) for case in cases) + _STUDY_PAIRS + other_pairs)
            if pair_seconds(device_kind, max(case.flops or 0.0 for case in cases)) <= per_pair:
                return plan
    return TimedPlan(WIDTHS[0], GEMM_ROWS[:2])


def float_dtype(device: Device) -> Dtype:
    """The float dtype a block is served in: fp32 on CPUs, bf16 on accelerators."""
    return "fp32" if device.kind == "cpu" else "bf16"


def _gemm_cases(plan: TimedPlan) -> list[CaseSpec]:
    cases: list[CaseSpec] = []
    width = plan.width
    for m in plan.gemm_rows:
        for dtype, size in GEMM_DTYPES:
            output_size = 4 if dtype == "int8" else size  # _int_mm writes int32
            cases.append(
                CaseSpec(
                    dtype=dtype,
                    shape={"m": m, "n": width, "k": width},
                    layout="row-major",
                    options={"op": "gemm"},
                    flops=2.0 * m * width * width,
                    bytes_moved=float(size * (m * width + width * width) + output_size * m * width),
                )
            )
    return cases


def _mlp_cases(plan: TimedPlan, served: Dtype) -> list[CaseSpec]:
    cases: list[CaseSpec] = []
    d_model, d_hidden = plan.width // 2, plan.width * 2
    for tokens in MLP_TOKENS:
        shape = {"tokens": tokens, "d_model": d_model, "d_hidden": d_hidden}
        flops = 4.0 * tokens * d_model * d_hidden  # two Linears; GELU and bias are noise
        cases.append(CaseSpec(dtype=served, shape=shape, options={"op": "mlp"}, flops=flops))
        cases.append(
            CaseSpec(
                dtype="int8",
                shape=shape,
                options={"op": "mlp", "float_dtype": served},  # activations and output stay in this dtype
                flops=flops,
                tolerance=MLP_INT8_TOLERANCE,
            )
        )
    return cases


def _study_cases() -> list[CaseSpec]:
    weight = CaseSpec(
        dtype="int8",
        shape=dict(WEIGHT_STUDY),
        options={"op": "weight_qdq", **OUTLIERS},
        tolerance=WEIGHT_STUDY_TOLERANCE,
    )
    layernorm = CaseSpec(
        dtype="int8",
        shape=dict(LAYERNORM_STUDY),
        options={"op": "layernorm_qdq", "granularity": "per-tensor", **OUTLIERS},
        tolerance=LAYERNORM_STUDY_TOLERANCE,
    )
    return [weight, layernorm]


def preload_torchao() -> None:
    """Import torchao now, if it imports: its ~2 s then comes out of every pair's part of the share
    instead of all of the first torchao pair's. The builders still import it and judge its absence."""
    try:
        importlib.import_module("torchao.quantization")
    except Exception:  # noqa: BLE001, S110 - the builders report why it is unavailable
        pass


def _module_found(name: str) -> bool:
    """Whether `name` can be imported, judged without importing it (a module set to None counts as missing)."""
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def model_cases(model_types: list[str]) -> list[CaseSpec]:
    """Per model type: the whole reference model in fp32 and in int8 (float_dtype fp32: its float twin)."""
    cases: list[CaseSpec] = []
    for model_type in model_types:
        shape = {**reference_shape(model_type, MODEL_SIZE), "batch": 1}
        options: dict[str, OptionValue] = {"op": "model", "model": model_type, "size": MODEL_SIZE}
        cases.append(CaseSpec(dtype="fp32", shape=shape, options=options))
        cases.append(
            CaseSpec(
                dtype="int8",
                shape=dict(shape),
                options={**options, "float_dtype": "fp32"},
                tolerance=MODEL_INT8_TOLERANCE[model_type],
            )
        )
    return cases


def model_seconds(models: int) -> float:
    """Assumed cost of preparing `models` models while planning, the runtime's import included."""
    return ORT_IMPORT_S + MODEL_PREPARE_S * models if models else 0.0


def planned_model_types(share_s: float, options: Int8Options | None) -> list[str]:
    """The profile's model type, else the defaults: the first always (a tiny share still measures it,
    as it does the narrowest GEMM), the next ones while all fit MODEL_SHARE of the share."""
    wanted: list[str] = (
        [options.model_type] if options is not None and options.model_type is not None else list(DEFAULT_MODEL_TYPES)
    )
    chosen = wanted[:1]
    for model_type in wanted[1:]:
        if model_seconds(len(chosen) + 1) > MODEL_SHARE * share_s:
            break
        chosen.append(model_type)
    return chosen


def int8_cases(device: Device, share_s: float, options: Int8Options | None = None) -> list[CaseSpec]:
    """The whole-model cases, then GEMMs and MLP blocks sized to the share left after importing torchao and
    preparing the models, then the two error studies.

    The whole-model cases are planned on every device (elsewhere than the CPU they are skipped, with
    the reason); only on the CPU are their models prepared now and that cost taken off the share.
    """
    torchao_found = importlib.util.find_spec("torchao") is not None  # finding it imports nothing
    if torchao_found:
        preload_torchao()
    models = planned_model_types(share_s, options)
    spent = TORCHAO_IMPORT_S if torchao_found else 0.0
    if device.kind == "cpu" and _module_found("onnxruntime"):
        from probes.int8.onnx_model import prepare  # onnx and onnxruntime are imported by prepare

        for model_type in models:
            prepare(model_type, MODEL_SIZE)  # never raises: a failure is the cases' skip reason
        spent += model_seconds(len(models))
    plan = timed_plan(device.kind, share_s - spent, other_pairs=2 * len(models))
    return model_cases(models) + _gemm_cases(plan) + _mlp_cases(plan, float_dtype(device)) + _study_cases()
