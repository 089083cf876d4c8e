"""Attention forward: naive materialized softmax(QK^T)V vs SDPA's backends forced one by one vs a Triton fused kernel.

Swept over sequence length (x2 steps, sizing.py), causal and not, in the device's 16-bit dtypes
(fp32 and bf16 on CPU). Besides time and the harness's peak memory, each timed pair records
`attn_extra_bytes`, what one call allocates beyond its inputs and output (scratch_memory.py):
report.fit_growth over the lengths tells O(N^2) materialized scores from O(N) flash-style kernels.

`scaled_dot_product_attention` with one backend forced, and the check that the backend can run at all.

Forcing a backend that cannot take a case (wrong device, dtype, head_dim, GPU generation) makes
torch raise "No available kernel" (CUDA) or "No viable backend" (CPU, torch 2.13) instead of
falling back; on CUDA it first warns why each backend was refused. The builder's first call turns
that into Unsupported with those reasons, so the evidence says which backends run on this machine.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

from probes.attention.inputs import AttentionInputs, attention_inputs, checked_part, checked_rows, reference_rows
from probes.attention.scratch_memory import require_free_memory, scratch_bytes
from probes.attention.sizing import (
    CAUSAL_VARIANTS,
    GEOMETRIES,
    AttentionGeometry,
    attention_flops,
    interpreter_affordable,
    sequence_lengths,
)
from probes.environment.models import Dtype
from probes.harness.device import Device
from probes.models import Metric
from probes.registry import Bench, CaseSpec, Probe, Unsupported, implementation

_ELEMENT_BYTES = {"fp32": 4, "fp16": 2, "bf16": 2}
_IO_TENSORS = 4  # q, k, v read, out written


def _case(geometry: AttentionGeometry, seq: int, dtype: Dtype, causal: bool) -> CaseSpec:
    batch, heads, head_dim = geometry.batch, geometry.heads, geometry.head_dim
    return CaseSpec(
        dtype=dtype,
        shape={"batch": batch, "heads": heads, "seq": seq, "head_dim": head_dim},
        layout="bhsd",  # contiguous (batch, heads, seq, head_dim), SDPA's own layout
        options={"causal": causal},
        flops=attention_flops(batch, heads, seq, head_dim, causal),
        bytes_moved=_IO_TENSORS * batch * heads * seq * head_dim * _ELEMENT_BYTES[dtype],
        # No tolerance override: the dtype defaults hold with room. The largest errors seen on CPU
        # (bf16 naive 1.4e-2, fp16 1.4e-3) come from rounding the order-3 outputs of short causal
        # rows, which rtol*|ref| covers; long rows average many values of v and their errors shrink.
    )


def attention_cases(device: Device, share_s: float) -> list[CaseSpec]:
    """Each (length, dtype, causal) of the device's geometry; lengths ascending, so early leftovers reach long ones."""
    geometry = GEOMETRIES[device.kind]
    return [
        _case(geometry, seq, dtype, causal)
        for seq in sequence_lengths(device.kind, share_s)
        for dtype in geometry.dtypes
        for causal in CAUSAL_VARIANTS
    ]


PROBE = Probe(
    name="attention",
    description="Attention forward over sequence length: naive materialized, SDPA backends, Triton fused.",
    cases=attention_cases,
)


def _measured_bench(case: CaseSpec, device: Device, attend: Attention, inputs: AttentionInputs) -> Bench:
    """A timed Bench of `attend`, its first call already made; one more call measures its scratch memory."""
    q, k, v = inputs
    rows = checked_rows(case.shape["seq"])
    causal = bool(case.options["causal"])
    extra = scratch_bytes(lambda: attend(q, k, v), device)
    metrics = {} if extra is None else {"attn_extra_bytes": Metric(value=float(extra), unit="B")}
    return Bench(
        run=lambda: checked_part(attend(q, k, v), rows),  # a view: slicing allocates nothing
        reference=lambda: reference_rows(q, k, v, rows, causal),
        extra_metrics=lambda: dict(metrics),
    )


def _score_bytes(case: CaseSpec, bytes_per_score: int) -> float:
    shape = case.shape
    return float(shape["batch"] * shape["heads"] * shape["seq"] ** 2 * bytes_per_score)


def _on_cpu_or_cuda(device: Device) -> bool:
    # sdpa_kernel's backend switches are torch's CPU/CUDA dispatch; torch_npu routes SDPA its own way.
    return device.kind in ("cpu", "cuda")


@implementation("naive", baseline=True)
def naive(case: CaseSpec, device: Device) -> Bench:
    """The textbook form: scores = q k^T * scale, mask, softmax, @ v; two N x N buffers live at once."""
    require_free_memory(device, 2 * _score_bytes(case, _ELEMENT_BYTES[case.dtype]), "naive attention's N x N scores")
    inputs = attention_inputs(case, device)
    seq, scale = case.shape["seq"], 1.0 / math.sqrt(case.shape["head_dim"])
    # Built once, as a model keeps it in a buffer: part of the inputs, not of each call.
    mask = None
    if case.options["causal"]:
        mask = torch.ones(seq, seq, dtype=torch.bool, device=device.torch_device).triu(1)

    def attend(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        scores = (q @ k.transpose(-2, -1)) * scale
        if mask is not None:
            scores = scores.masked_fill(mask, float("-inf"))
        return torch.softmax(scores, dim=-1) @ v

    attend(*inputs)  # warm call: library handles and workspaces, not counted as the call's memory
    return _measured_bench(case, device, attend, inputs)


def _sdpa_bench(case: CaseSpec, device: Device, backend: SDPBackend) -> Bench:
    inputs = attention_inputs(case, device)
    attend = forced_sdpa(backend, bool(case.options["causal"]))
    first_call(attend, *inputs, backend)
    return _measured_bench(case, device, attend, inputs)


@implementation("sdpa.math", enabled=_on_cpu_or_cuda)
def sdpa_math(case: CaseSpec, device: Device) -> Bench:
    """SDPA's composite reference path; it materializes the scores (in fp32 for 16-bit inputs on CUDA)."""
    require_free_memory(device, 2 * _score_bytes(case, 4), "the math backend's N x N scores")
    return _sdpa_bench(case, device, SDPBackend.MATH)


@implementation("sdpa.flash", enabled=_on_cpu_or_cuda)
def sdpa_flash(case: CaseSpec, device: Device) -> Bench:
    """FlashAttention-2 on CUDA (fp16/bf16); torch's own blocked flash kernel on CPU."""
    return _sdpa_bench(case, device, SDPBackend.FLASH_ATTENTION)


@implementation("sdpa.efficient", enabled=_on_cpu_or_cuda)
def sdpa_efficient(case: CaseSpec, device: Device) -> Bench:
    """The memory-efficient (xFormers/CUTLASS) kernel; CUDA only, so refused with torch's reason on CPU."""
    return _sdpa_bench(case, device, SDPBackend.EFFICIENT_ATTENTION)


@implementation("sdpa.cudnn", enabled=_on_cpu_or_cuda)
def sdpa_cudnn(case: CaseSpec, device: Device) -> Bench:
    """cuDNN's fused attention where torch and the GPU offer it; refused with torch's reason elsewhere."""
    return _sdpa_bench(case, device, SDPBackend.CUDNN_ATTENTION)


@implementation("triton", enabled=_on_cpu_or_cuda)
def triton_fused(case: CaseSpec, device: Device) -> Bench:
    """probes/kernels/triton_attention.py: online softmax over K/V tiles; interpreted and untimed on CPU."""
    shape, causal = case.shape, bool(case.options["causal"])
    interpreted = device.kind == "cpu"
    if interpreted:
        if case.dtype == "bf16":
            raise Unsupported("bf16 under the Triton interpreter gives wrong results (its dot multiplies raw bits)")
        if not interpreter_affordable(shape["batch"], shape["heads"], shape["seq"]):
            raise Unsupported("too long for the Triton interpreter on CPU; checked at the shortest lengths only")
    try:
        from probes.kernels.triton_attention import SUPPORTED_HEAD_DIMS, triton_attention
    except ImportError as error:
        raise Unsupported(f"triton cannot be imported: {error}") from None
    if shape["head_dim"] not in SUPPORTED_HEAD_DIMS:
        raise Unsupported(f"head_dim {shape['head_dim']} not in the kernel's {SUPPORTED_HEAD_DIMS}")

    def attend(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        return triton_attention(q, k, v, causal=causal)

    inputs = attention_inputs(case, device)
    if interpreted:
        from probes.kernels import interpreted as interpreting

        q, k, v = inputs
        rows = checked_rows(shape["seq"])

        def check() -> torch.Tensor:
            with interpreting():  # each call: the switch must not outlive the check (an untimed one)
                return checked_part(attend(q, k, v), rows)

        return Bench(
            run=check,
            reference=lambda: reference_rows(q, k, v, rows, causal),
            untimed="Triton interpreter on CPU: checked for correctness, not timed",
        )
    attend(*inputs)  # warm call: compiles the kernel for this dtype and mask
    return _measured_bench(case, device, attend, inputs)


Attention = Callable[[torch.Tensor, torch.Tensor, torch.Tensor], torch.Tensor]

_NO_KERNEL_MARKERS = ("no available kernel", "no viable backend")
_REASON_CHARS = 280


def forced_sdpa(backend: SDPBackend, causal: bool) -> Attention:
    """SDPA restricted to `backend`; the restriction is set inside the call, so it is part of what is timed."""

    def attend(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        with sdpa_kernel(backend):
            return F.scaled_dot_product_attention(q, k, v, is_causal=causal)

    return attend


def _no_kernel(error: RuntimeError) -> bool:
    message = str(error).lower()
    return any(marker in message for marker in _NO_KERNEL_MARKERS)


def first_call(attend: Attention, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, backend: SDPBackend) -> None:
    """Call once; raise Unsupported, with torch's reasons, when the forced backend has no kernel for the case."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            attend(q, k, v)
        except RuntimeError as error:
            if not _no_kernel(error):
                raise
            headline = str(error).strip().splitlines()[0]
            reasons = [" ".join(str(warning.message).split()) for warning in caught]
            detail = "; ".join(dict.fromkeys(reason for reason in reasons if reason))
            if headline.startswith("No viable backend"):  # torch's generic line: we turned the others off ourselves
                headline = ""
            text = f"{backend.name} has no kernel for this case here" + (f": {headline}" if headline else "")
            if detail:
                text += f" (torch: {detail})"
            raise Unsupported(text[:_REASON_CHARS]) from None
