"""INT8 probe: int8 GEMM against fp32/bf16, torchao int8 MLP blocks against float, whole models, and error studies.

Four families, told apart by the case option `op`:
- gemm: `torch._int_mm` (int8 x int8 -> int32, exact) vs `torch.matmul` in fp32 and bf16, same shapes.
- mlp: Linear -> GELU -> Linear served in float (fp32 on CPU, bf16 elsewhere) vs torchao's int8
  weight-only and dynamic-activation configs; the int8 error is recorded as metrics too.
- model: the reference model of a profile model type (option `model`; probe option `model_type`)
  exported to ONNX and run by ONNX Runtime on the CPU, fp32 vs int8 after ONNX Runtime's own static
  (QDQ) or dynamic quantization; the int8 error against the fp32 run is recorded as metrics. CPU
  only: elsewhere, and without onnx/onnxruntime or an exportable model, skipped with the reason.
- weight_qdq / layernorm_qdq: what int8 costs in accuracy, per-tensor vs per-channel scales on a
  weight with outlier channels, and quantizing a LayerNorm's input vs its output.
The studies run once as Scenarios (accuracy, not speed). Speedups pair cases across dtypes, so
they are computed afterwards: see report.int8_speedups.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Literal

import torch

from probes.harness.device import Device
from probes.int8 import onnx_model
from probes.int8.error_metrics import bench_with_errors, error_study
from probes.int8.inputs import (
    TORCH_DTYPES,
    Granularity,
    fake_quantize,
    gemm_operands,
    layernorm_activations,
    layernorm_affine,
    mlp_block,
    mlp_input,
    outlier_weight,
    reference_device,
)
from probes.int8.options import Int8Options
from probes.int8.sizing import int8_cases
from probes.registry import Bench, CaseSpec, Probe, Scenario, Unsupported, implementation

PROBE = Probe(
    name="int8",
    description="INT8: torch._int_mm vs fp32/bf16 matmul, torchao int8 MLP blocks vs float, whole models in "
    "ONNX Runtime fp32 vs int8, int8 error studies.",
    cases=int8_cases,
    options=Int8Options,
    # torch, torchao, onnx and the prepared models (~340,000 objects) live as long as the child: frozen after one
    # collection, so no garbage stays frozen, a collection walks only the cases' objects (over the whole heap one
    # took 0.2-0.5 s on a 2-core VM, a whole part of a short share, so cases ended not-timed).
    freezes_heap=True,
    collects_before_freezing=True,
)


def _op(name: str, *, int8: bool) -> Callable[[CaseSpec], bool]:
    return lambda case: case.options.get("op") == name and (case.dtype == "int8") == int8


def _float64_matmul(a: torch.Tensor, b: torch.Tensor, device: Device) -> torch.Tensor:
    where = reference_device(device)
    return a.to(where, torch.float64) @ b.to(where, torch.float64)


def _check_int_mm_shape(case: CaseSpec, device: Device) -> None:
    """cuBLASLt's int8 GEMM limits, as torch checks them (aten/src/ATen/native/cuda/Blas.cpp)."""
    m, n, k = case.shape["m"], case.shape["n"], case.shape["k"]
    if device.kind == "cuda" and not (m > 16 and k % 8 == 0 and n % 8 == 0):
        raise Unsupported(f"torch._int_mm on CUDA needs m > 16 and k, n multiples of 8; got m={m} k={k} n={n}")


@implementation("torch._int_mm", supports=_op("gemm", int8=True))
def gemm_int_mm(case: CaseSpec, device: Device) -> Bench:
    _check_int_mm_shape(case, device)
    a, b = gemm_operands(case, device)
    try:
        torch._int_mm(a, b)  # a backend without the kernel raises here: a skip, not a failure
    except NotImplementedError as missing:
        raise Unsupported(f"torch._int_mm has no {device.kind} kernel: {str(missing).splitlines()[0]}") from None
    # int32 accumulation of int8 products is exact (|sum| < 2^31 for k < 133,000), as is float64.
    return Bench(run=lambda: torch._int_mm(a, b), reference=lambda: _float64_matmul(a, b, device))


@implementation("torch.matmul", baseline=True, supports=_op("gemm", int8=False))
def gemm_matmul(case: CaseSpec, device: Device) -> Bench:
    if case.dtype == "bf16" and device.kind == "cuda" and not torch.cuda.is_bf16_supported():
        raise Unsupported("bf16 matmul needs a GPU with native bf16 (compute capability 8.0+)")
    a, b = gemm_operands(case, device)
    return Bench(run=lambda: torch.matmul(a, b), reference=lambda: _float64_matmul(a, b, device))


def _mlp_bench(case: CaseSpec, device: Device, quantize: Callable[[torch.nn.Module], None] | None) -> Bench:
    """The seeded block in its served dtype (quantized in place when asked) vs the float block in float64."""
    served = TORCH_DTYPES[str(case.options.get("float_dtype", case.dtype))]
    float_block = mlp_block(case.shape["d_model"], case.shape["d_hidden"]).to(served)
    x = mlp_input(case.shape["tokens"], case.shape["d_model"]).to(served)
    block = copy.deepcopy(float_block).to(device.torch_device)
    if quantize is not None:
        quantize(block)
    x_on_device = x.to(device.torch_device)

    def reference() -> torch.Tensor:
        where = reference_device(device)
        return copy.deepcopy(float_block).to(where, torch.float64)(x.to(where, torch.float64))

    return bench_with_errors(run=lambda: block(x_on_device), reference=reference)


@implementation("torch.nn.Linear", baseline=True, supports=_op("mlp", int8=False))
def mlp_float(case: CaseSpec, device: Device) -> Bench:
    return _mlp_bench(case, device, quantize=None)


def _torchao_quantizer(config_name: str) -> Callable[[torch.nn.Module], None]:
    """torchao's quantize_ with one of its int8 configs; Unsupported when torchao or the config is missing."""
    try:
        import torchao  # already loaded by sizing.preload_torchao when it imports at all
        import torchao.quantization
    except Exception as error:  # noqa: BLE001 - a broken install is as absent as a missing one
        raise Unsupported(f"torchao not available: {type(error).__name__}: {error}") from None
    config = getattr(torchao.quantization, config_name, None)
    quantize_ = getattr(torchao.quantization, "quantize_", None)
    if config is None or quantize_ is None:
        version = getattr(torchao, "__version__", "unknown")
        raise Unsupported(f"torchao not available: torchao {version} has no quantize_ or {config_name}")

    def quantize(module: torch.nn.Module) -> None:
        try:
            # Eager here: leave the process-wide inductor settings (older torchao: fp32 matmul precision) alone.
            made = config(set_inductor_config=False)
        except TypeError:  # a torchao without that option
            made = config()
        quantize_(module, made)

    return quantize


@implementation("torchao.int8_weight_only", supports=_op("mlp", int8=True))
def mlp_int8_weight_only(case: CaseSpec, device: Device) -> Bench:
    return _mlp_bench(case, device, quantize=_torchao_quantizer("Int8WeightOnlyConfig"))


@implementation("torchao.int8_dynamic", supports=_op("mlp", int8=True))
def mlp_int8_dynamic(case: CaseSpec, device: Device) -> Bench:
    return _mlp_bench(case, device, quantize=_torchao_quantizer("Int8DynamicActivationInt8WeightConfig"))


def _model_case(case: CaseSpec, method: str | None) -> bool:
    """A whole-model case: fp32 (method None) or int8 by the recipe of its model type."""
    if case.options.get("op") != "model":
        return False
    if method is None:
        return case.dtype != "int8"
    return case.dtype == "int8" and onnx_model.RECIPES[str(case.options["model"])].method == method


def _prepared(case: CaseSpec, device: Device) -> onnx_model.PreparedModel:
    """The case's reference model exported (while planning); Unsupported off the CPU, without onnxruntime or
    when export fails."""
    if device.kind != "cpu":
        raise Unsupported(f"ONNX Runtime's CPUExecutionProvider runs on the host CPU; not measured on {device.kind}")
    return onnx_model.prepared(str(case.options["model"]), str(case.options["size"]))


@implementation("onnxruntime", baseline=True, supports=lambda case: _model_case(case, None))
def model_fp32(case: CaseSpec, device: Device) -> Bench:
    """The whole reference model in ONNX Runtime, fp32, vs the torch model in float64."""
    model = _prepared(case, device)
    return Bench(run=model.fp32_run(), reference=lambda: model.float64_output)


def _model_int8(case: CaseSpec, device: Device) -> Bench:
    """The model after ONNX Runtime's quantization; its error against the fp32 run (measured while
    planning, on the same input) as metrics."""
    model = _prepared(case, device)
    errors = dict(model.int8_errors)
    return Bench(run=model.int8_run(), reference=lambda: model.float64_output, extra_metrics=lambda: errors)


@implementation(onnx_model.IMPLEMENTATIONS["static"], supports=lambda case: _model_case(case, "static"))
def model_int8_static(case: CaseSpec, device: Device) -> Bench:
    return _model_int8(case, device)


@implementation(onnx_model.IMPLEMENTATIONS["dynamic"], supports=lambda case: _model_case(case, "dynamic"))
def model_int8_dynamic(case: CaseSpec, device: Device) -> Bench:
    return _model_int8(case, device)


def _weight_study(case: CaseSpec, device: Device, granularity: Granularity) -> Scenario:
    """Quantize-dequantize of the outlier weight, its error against the weight itself."""
    outliers = int(case.options["outlier_channels"]), float(case.options["outlier_gain"])
    weight = outlier_weight(case.shape["out_features"], case.shape["in_features"], *outliers)
    on_device = weight.to(device.torch_device)
    return error_study(run=lambda: fake_quantize(on_device, granularity), reference=weight.double, device=device)


@implementation("qdq.per-tensor", supports=_op("weight_qdq", int8=True))
def weight_per_tensor(case: CaseSpec, device: Device) -> Scenario:
    return _weight_study(case, device, "per-tensor")


@implementation("qdq.per-channel", supports=_op("weight_qdq", int8=True))
def weight_per_channel(case: CaseSpec, device: Device) -> Scenario:
    return _weight_study(case, device, "per-channel")


def _layernorm_study(case: CaseSpec, device: Device, quantized: Literal["input", "output"]) -> Scenario:
    """A LayerNorm (fp32) with its input or its output quantized, vs the float64 LayerNorm of the raw input."""
    tokens, features = case.shape["tokens"], case.shape["features"]
    outliers = int(case.options["outlier_channels"]), float(case.options["outlier_gain"])
    x = layernorm_activations(tokens, features, *outliers)
    weight, bias = layernorm_affine(features)
    granularity: Granularity = "per-channel" if case.options["granularity"] == "per-channel" else "per-tensor"
    x_dev, weight_dev, bias_dev = (tensor.to(device.torch_device) for tensor in (x, weight, bias))

    def run() -> torch.Tensor:
        if quantized == "input":
            return torch.nn.functional.layer_norm(fake_quantize(x_dev, granularity), (features,), weight_dev, bias_dev)
        return fake_quantize(torch.nn.functional.layer_norm(x_dev, (features,), weight_dev, bias_dev), granularity)

    def reference() -> torch.Tensor:
        return torch.nn.functional.layer_norm(x.double(), (features,), weight.double(), bias.double())

    return error_study(run=run, reference=reference, device=device)


@implementation("qdq.layernorm-input", supports=_op("layernorm_qdq", int8=True))
def layernorm_input(case: CaseSpec, device: Device) -> Scenario:
    return _layernorm_study(case, device, "input")


@implementation("qdq.layernorm-output", supports=_op("layernorm_qdq", int8=True))
def layernorm_output(case: CaseSpec, device: Device) -> Scenario:
    return _layernorm_study(case, device, "output")
