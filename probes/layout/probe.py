"""Layout: a 3x3 Conv2d and a conv-BN-ReLU block in NCHW vs channels-last (NHWC), fp32 and bf16, and a mismatch.

Layouts (the case's `layout`):
- nchw: contiguous input and weights, as PyTorch makes them by default.
- nhwc: channels-last input and weights (`.to(memory_format=torch.channels_last)`).
- mismatch: what a model that mixes them pays. For the conv: channels-last weights fed an NCHW input,
  which the library converts inside the call (a hidden transpose). For the block: NCHW tensors around a
  channels-last block, converted on the way in (`.contiguous(memory_format=channels_last)`) and back
  out (`.contiguous()`), as happens when a channels-last conv sits between NCHW ops.
Every layout is checked against the float64 NCHW computation on the same values. The comparison
(channels-last speedup, mismatch cost, conversion share) pairs cases afterwards: report.py.
"""

from __future__ import annotations

from collections.abc import Callable

import torch
from torch.nn import functional as F

from probes.environment.models import Dtype
from probes.harness.device import Device
from probes.layout.sizing import choose_shape
from probes.registry import Bench, CaseSpec, Probe, implementation

LAYOUTS = ("nchw", "nhwc", "mismatch")
OPS = ("conv", "block")
TORCH_DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16}
_CHANNELS_LAST = torch.channels_last


def layout_cases(device: Device, share_s: float) -> list[CaseSpec]:
    """Every (dtype, op, layout) at one shape; the three layouts of a pair adjacent, fp32 first."""
    dtypes: tuple[Dtype, ...] = ("fp32", "bf16")
    shape = choose_shape(device.kind, share_s, len(dtypes) * len(OPS) * len(LAYOUTS))
    return [
        CaseSpec(
            dtype=dtype,
            shape={"batch": shape.batch, "channels": shape.channels, "height": shape.side, "width": shape.side},
            layout=layout,
            options={"op": op},
            flops=shape.flops,
        )
        for dtype in dtypes
        for op in OPS
        for layout in LAYOUTS
    ]


PROBE = Probe(
    name="layout",
    description="Layout: Conv2d and conv-BN-ReLU in NCHW vs channels-last, fp32/bf16, and the cost of a mismatch.",
    cases=layout_cases,
)


class ConvInputs:
    """Seeded NCHW input, 3x3 weights (scaled so outputs are of order one) and BatchNorm statistics."""

    def __init__(self, case: CaseSpec) -> None:
        batch, channels, side = case.shape["batch"], case.shape["channels"], case.shape["height"]
        generator = torch.Generator().manual_seed(0)
        self.x = torch.randn(batch, channels, side, side, generator=generator)
        self.weight = torch.randn(channels, channels, 3, 3, generator=generator) / (9 * channels) ** 0.5
        self.mean = torch.randn(channels, generator=generator) * 0.1
        self.var = torch.rand(channels, generator=generator) + 0.5
        self.scale = torch.rand(channels, generator=generator) + 0.5
        self.shift = torch.randn(channels, generator=generator) * 0.1

    def on(self, device: Device, dtype: torch.dtype) -> ConvInputs:
        """A copy of every tensor on `device` in `dtype`, NCHW."""
        moved = object.__new__(ConvInputs)
        for name, tensor in vars(self).items():
            setattr(moved, name, tensor.to(device.torch_device, dtype))
        return moved


def conv(x: torch.Tensor, inputs: ConvInputs) -> torch.Tensor:
    """3x3 convolution, stride 1, padding 1."""
    return F.conv2d(x, inputs.weight, padding=1)


def conv_block(x: torch.Tensor, inputs: ConvInputs) -> torch.Tensor:
    """conv -> BatchNorm (inference: running statistics) -> ReLU."""
    y = F.conv2d(x, inputs.weight, padding=1)
    return F.relu(F.batch_norm(y, inputs.mean, inputs.var, inputs.scale, inputs.shift, training=False))


def layout_call(
    op: Callable[[torch.Tensor, ConvInputs], torch.Tensor], inputs: ConvInputs, layout: str, block: bool
) -> Callable[[], torch.Tensor]:
    """The call for one layout; tensors converted here, once, except the conversions a mismatch pays per call."""
    if layout == "nchw":
        return lambda: op(inputs.x, inputs)
    inputs.weight = inputs.weight.contiguous(memory_format=_CHANNELS_LAST)
    if layout == "nhwc":
        x = inputs.x.contiguous(memory_format=_CHANNELS_LAST)
        return lambda: op(x, inputs)
    if not block:
        return lambda: op(inputs.x, inputs)  # channels-last weights, NCHW input: converted inside the conv
    return lambda: op(inputs.x.contiguous(memory_format=_CHANNELS_LAST), inputs).contiguous()


def _bench(case: CaseSpec, device: Device, op: Callable[[torch.Tensor, ConvInputs], torch.Tensor]) -> Bench:
    seeded = ConvInputs(case)
    inputs = seeded.on(device, TORCH_DTYPES[case.dtype])
    # The reference sees the values the case computes on (rounded to its dtype), in float64 NCHW.
    reference_inputs = inputs.on(device, torch.float64)
    run = layout_call(op, inputs, case.layout, block=op is conv_block)
    return Bench(run=run, reference=lambda: op(reference_inputs.x, reference_inputs))


def _op_is(name: str) -> Callable[[CaseSpec], bool]:
    return lambda case: case.options.get("op") == name


@implementation("torch.conv2d", baseline=True, supports=_op_is("conv"))
def conv2d(case: CaseSpec, device: Device) -> Bench:
    """F.conv2d in the case's layout."""
    return _bench(case, device, conv)


@implementation("conv-bn-relu", baseline=True, supports=_op_is("block"))
def conv_bn_relu(case: CaseSpec, device: Device) -> Bench:
    """conv -> BatchNorm -> ReLU in the case's layout (inference, BatchNorm not folded into the conv)."""
    return _bench(case, device, conv_block)
