"""Whole reference models in ONNX Runtime on the CPU: fp32, and int8 after ONNX Runtime's own quantization.

Why a whole model: INT8 pays where a model spends its time. A CNN spends it in convolutions (GEMM is
about 1% of it), which `torch._int_mm` and torchao's int8 Linear layers never touch; ONNX Runtime
quantizes the convolutions too, as a CPU deployment of the model would.

- Model: the reference model of a profile model type (probes/reference_models) at batch 1: the first
  row of its seeded example batch; the other rows are the calibration inputs (same distributions).
- Export: `torch.onnx.export(..., dynamo=False)`, the TorchScript exporter. The torch.export-based
  default needs `onnxscript`, which is not a dependency; the TorchScript one is deprecated since
  torch 2.9 but still works in 2.13. Its deduplicated initializers are made real again (below).
- Quantization, per model type (RECIPES): static QDQ where convolutions dominate (they need static
  activation scales), dynamic where MatMul/Gemm do. Activations uint8, weights int8 (U8S8): ONNX
  Runtime's fast x86 path (VPMADDUBSW/VNNI); S8S8 QDQ measured 0.84x fp32 on the CNN here against
  2.4x for U8S8.
- Run: an InferenceSession on the CPUExecutionProvider, graph optimizations on (the default), the
  default thread count (what a deployment gets).

All of it is done once per child while the probe plans (`prepare`): export, quantization, the float64
reference, both sessions made and run once, the int8 error. Every failure to import, export, quantize
or run is `Unsupported` with the reason: the cases are skipped with it, the plan never fails.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import inspect
import io
import logging
import os
import sys
import tempfile
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
import torch

from probes.int8.error_metrics import row_relative_errors
from probes.models import Metric
from probes.reference_models import build_reference_model
from probes.registry import Unsupported

OPSET = 17  # LayerNormalization is an ONNX op from 17 on; ONNX Runtime 1.17+ runs it
CALIBRATION_SAMPLES = 4
OUTPUT_NAME = "output"


@dataclass(frozen=True)
class Recipe:
    """How ONNX Runtime quantizes one model type: `quantize_static` (QDQ) or `quantize_dynamic`, and on which ops."""

    method: Literal["static", "dynamic"]
    op_types: tuple[str, ...] | None  # None: every op the quantizer knows
    why: str


# Measured on the reference models (small, batch 1) on this project's 2-core x86 machine:
# cnn static 2.4x fp32 at 0.7% error; dynamic ConvInteger 0.1x. diffusion static on Conv/Gemm 2.2x at
# 6% rel RMSE; with the attention MatMuls too (activation x activation, scales from a few inputs) 24%.
# transformers dynamic on MatMul/Gemm ~2x at ~1.5%; static ~1.2x at 16%.
RECIPES: dict[str, Recipe] = {
    "cnn": Recipe("static", None, "convolutions, residual adds and pooling stay int8 between layers"),
    "diffusion": Recipe("static", ("Conv", "Gemm"), "convolutions; the attention MatMuls stay float"),
    "dense-transformer": Recipe("dynamic", ("MatMul", "Gemm"), "int8 weights, activation scales per call"),
    "moe": Recipe("dynamic", ("MatMul", "Gemm"), "int8 weights, activation scales per call"),
    "multimodal": Recipe("dynamic", ("MatMul", "Gemm"), "int8 weights; the patch convolution stays float"),
}
IMPLEMENTATIONS = {"static": "onnxruntime.static-qdq", "dynamic": "onnxruntime.dynamic"}


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    message = text.splitlines()[0] if text else ""
    return f"{type(error).__name__}: {message}"[:240] if message else type(error).__name__


def import_runtime() -> Any:
    """onnx, onnxruntime and its quantization tools, imported; Unsupported (with why) when one fails to."""
    try:
        import onnx  # noqa: F401 - the exporter needs it
        import onnxruntime
        import onnxruntime.quantization  # noqa: F401
    except Exception as error:  # noqa: BLE001 - a broken install is as absent as a missing one
        raise Unsupported(f"onnx/onnxruntime not available: {_first_line(error)}") from None
    return onnxruntime


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """No warnings, no root-logger chatter, no stdout from C++ while exporting or quantizing.

    The TorchScript exporter prints the whole Torch IR graph to stdout when an op fails to export
    (tens of kB that would bury the child's log); ONNX Runtime's quantizer logs advice at WARNING.
    """
    root = logging.getLogger()
    level = root.level
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        with open(os.devnull, "wb") as null, warnings.catch_warnings():
            warnings.simplefilter("ignore")
            root.setLevel(logging.ERROR)
            os.dup2(null.fileno(), 1)
            yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)
        root.setLevel(level)


def materialize_shared_initializers(model_bytes: bytes) -> bytes:
    """Replace each Identity of an initializer with a copy of that initializer under the Identity's name.

    The TorchScript exporter stores identical weights once and aliases them with Identity nodes
    (a fresh ResNet's folded BatchNorm biases are all equal); ONNX Runtime's quantizer expects a
    Conv bias to be an initializer, warns, leaves it float, and in some modes fails on it.
    """
    import onnx

    model = onnx.load_from_string(model_bytes)
    initializers = {tensor.name: tensor for tensor in model.graph.initializer}
    kept = []
    for node in model.graph.node:
        if node.op_type == "Identity" and node.input[0] in initializers:
            alias = onnx.TensorProto()
            alias.CopyFrom(initializers[node.input[0]])
            alias.name = node.output[0]
            model.graph.initializer.append(alias)
        else:
            kept.append(node)
    del model.graph.node[:]
    model.graph.node.extend(kept)
    return bytes(model.SerializeToString())


def input_names(count: int) -> list[str]:
    """input_0, input_1...: the ONNX graph's input names in the order of the model's inputs."""
    return [f"input_{index}" for index in range(count)]


@dataclass(frozen=True)
class ExportedModel:
    """A reference model at batch 1: its fp32 ONNX graph, its torch module and inputs, and calibration feeds."""

    model_type: str
    size: str
    onnx_fp32: bytes
    module: torch.nn.Module  # fp32, eval mode, CPU: the float64 reference is a copy of it
    inputs: tuple[torch.Tensor, ...]  # batch 1
    feeds: dict[str, np.ndarray]  # the same inputs, by ONNX input name
    calibration: tuple[dict[str, np.ndarray], ...]  # other rows of the example batch


def export(model_type: str, size: str) -> ExportedModel:
    """The reference model exported at batch 1; Unsupported (with the exporter's message) when it cannot be."""
    built = build_reference_model(model_type, size)
    batch = built.example_inputs()
    inputs = tuple(tensor[:1] for tensor in batch)
    names = input_names(len(inputs))
    buffer = io.BytesIO()
    try:
        import torch.onnx

        # dynamo=False where the argument exists (torch 2.5+; before it the TorchScript exporter was the only one).
        legacy: dict[str, Any] = (
            {"dynamo": False} if "dynamo" in inspect.signature(torch.onnx.export).parameters else {}
        )
        with _quiet(), torch.no_grad():
            torch.onnx.export(
                built.module,
                inputs,
                buffer,  # type: ignore[arg-type]
                input_names=names,
                output_names=[OUTPUT_NAME],
                opset_version=OPSET,
                **legacy,
            )
        onnx_fp32 = materialize_shared_initializers(buffer.getvalue())
    except Exception as error:  # noqa: BLE001 - an op the exporter lacks is a skip, with its name
        raise Unsupported(f"ONNX export of the {model_type} reference model failed: {_first_line(error)}") from None
    rows = range(1, min(batch[0].shape[0], CALIBRATION_SAMPLES + 1))
    calibration = tuple({name: tensor[row : row + 1].numpy() for name, tensor in zip(names, batch)} for row in rows)
    feeds = {name: tensor.numpy() for name, tensor in zip(names, inputs)}
    return ExportedModel(model_type, size, onnx_fp32, built.module, inputs, feeds, calibration or (feeds,))


def cpu_session(model_bytes: bytes) -> Any:
    """An InferenceSession on the CPUExecutionProvider, default graph optimizations and threads, quiet."""
    onnxruntime = import_runtime()
    options = onnxruntime.SessionOptions()
    options.log_severity_level = 3  # errors only
    return onnxruntime.InferenceSession(model_bytes, options, providers=["CPUExecutionProvider"])


def session_runner(session: Any, feeds: dict[str, np.ndarray]) -> Callable[[], np.ndarray]:
    """One call of the whole model: the timed unit."""
    outputs = [OUTPUT_NAME]
    return lambda: session.run(outputs, feeds)[0]


def quantize(model: ExportedModel) -> bytes:
    """The int8 ONNX graph of the model by its type's recipe; Unsupported when ONNX Runtime cannot quantize it."""
    import_runtime()
    from onnxruntime.quantization import (
        CalibrationDataReader,
        QuantFormat,
        QuantType,
        quantize_dynamic,
        quantize_static,
    )

    recipe = RECIPES[model.model_type]
    op_types = list(recipe.op_types) if recipe.op_types is not None else None

    class Calibration(CalibrationDataReader):  # defined once onnxruntime imports
        def __init__(self) -> None:
            self._feeds = iter(model.calibration)

        def get_next(self) -> dict[str, np.ndarray] | None:
            return next(self._feeds, None)

    try:
        with tempfile.TemporaryDirectory(prefix="advisor-int8-") as folder, _quiet():
            source, target = Path(folder, "fp32.onnx"), Path(folder, "int8.onnx")
            source.write_bytes(model.onnx_fp32)
            if recipe.method == "static":
                quantize_static(
                    str(source),
                    str(target),
                    Calibration(),
                    quant_format=QuantFormat.QDQ,
                    activation_type=QuantType.QUInt8,
                    weight_type=QuantType.QInt8,
                    per_channel=True,
                    op_types_to_quantize=op_types,
                )
            else:
                quantize_dynamic(str(source), str(target), weight_type=QuantType.QInt8, op_types_to_quantize=op_types)
            return target.read_bytes()
    except Exception as error:  # noqa: BLE001 - a graph the quantizer cannot handle is a skip, with why
        raise Unsupported(
            f"onnxruntime {recipe.method} quantization of the {model.model_type} model failed: {_first_line(error)}"
        ) from None


@dataclass(frozen=True)
class PreparedModel:
    """Everything the two cases of a model need but do not measure, made once per child (while planning):
    the sessions already ran once, so a case's own part of the share goes to its check and its samples."""

    exported: ExportedModel
    fp32_session: Any
    int8_session: Any | str  # on the quantized graph, or why ONNX Runtime could not quantize or load it
    float64_output: torch.Tensor  # the torch model in float64 on the same input: the numeric reference
    int8_errors: dict[str, Metric]  # the int8 output's row errors against the fp32 run (empty without int8)

    def fp32_run(self) -> Callable[[], np.ndarray]:
        """One fp32 call of the whole model."""
        return session_runner(self.fp32_session, self.exported.feeds)

    def int8_run(self) -> Callable[[], np.ndarray]:
        """One int8 call of the whole model; Unsupported with the reason when there is no int8 session."""
        if isinstance(self.int8_session, str):
            raise Unsupported(self.int8_session)
        return session_runner(self.int8_session, self.exported.feeds)


def _prepare(model_type: str, size: str) -> PreparedModel:
    exported = export(model_type, size)
    float64 = copy.deepcopy(exported.module).double()
    inputs = tuple(x.double() if x.is_floating_point() else x for x in exported.inputs)
    with torch.no_grad():
        reference = float64(*inputs)
    try:
        fp32_session = cpu_session(exported.onnx_fp32)
        fp32_output = session_runner(fp32_session, exported.feeds)()
    except Exception as error:  # noqa: BLE001 - a graph ONNX Runtime cannot load or run is a skip, with why
        raise Unsupported(f"onnxruntime could not run the exported {model_type} model: {_first_line(error)}") from None
    int8_session: Any | str
    errors: dict[str, Metric] = {}
    try:
        int8_session = cpu_session(quantize(exported))
        errors = row_relative_errors(session_runner(int8_session, exported.feeds)(), fp32_output)
    except Unsupported as why:  # the fp32 case still runs
        int8_session = str(why)
    except Exception as error:  # noqa: BLE001 - a quantized graph ONNX Runtime cannot load or run
        int8_session = f"onnxruntime could not run the quantized {model_type} model: {_first_line(error)}"
    return PreparedModel(exported, fp32_session, int8_session, reference, errors)


@functools.lru_cache(maxsize=8)
def _prepared_or_reason(model_type: str, size: str) -> PreparedModel | str:
    try:
        return _prepare(model_type, size)
    except Unsupported as why:
        return str(why)
    except Exception as error:  # noqa: BLE001 - never a failed plan: the cases report it
        return f"preparing the {model_type} model failed: {_first_line(error)}"


def prepare(model_type: str, size: str) -> None:
    """Export, quantize and compute the references now (while planning), so that the cases' own parts of
    the share go to measuring; a failure is kept and reported by the cases."""
    with contextlib.suppress(Unsupported):
        import_runtime()
        _prepared_or_reason(model_type, size)


def prepared(model_type: str, size: str) -> PreparedModel:
    """The prepared model (made now if planning did not); Unsupported when the runtime, export or a run failed."""
    import_runtime()
    outcome = _prepared_or_reason(model_type, size)
    if isinstance(outcome, str):
        raise Unsupported(outcome)
    return outcome


def forget_prepared() -> None:
    """Drop every prepared model and kept failure (tests)."""
    _prepared_or_reason.cache_clear()
