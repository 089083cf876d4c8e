"""Hot operators: profile a model's forward pass and training step, top-10 operators by self time, by concern.

The models are the reference models of every profile model type (probes/reference_models), or one of
them (option `model_type`, `advisor probe hotops --model-type moe`), or the user's own model (option
`model`, `--model module:factory`: its module is imported and its factory run in the probe's child).
Each case is one (model, pass): pass `forward` (inference: eval mode, no autograd) or `train` (forward,
loss, backward, AdamW step). The recommendation reads the pass its profile's workload runs.

Each case is a Scenario: the first pass is checked against a float64 copy of the model (fp32 on the CPU;
bf16 on accelerators and user models are not checked), one warmup pass, five timed passes (the case's
samples), then five passes under torch.profiler (medians per operator). Metrics: `share_<group>` for every concern group
(probes/hotops/groups.py), the profiled self time per pass, the top-10's share and the parameter count;
the top-10 operators themselves are kept on the case (`operators`).
"""

from __future__ import annotations

import copy
import time

import torch

from probes.environment.models import Dtype
from probes.harness.device import Device
from probes.hotops.options import CUSTOM_MODEL, HotopsOptions
from probes.hotops.passes import Pass, make_pass, reference_output
from probes.hotops.profiling import PassProfile, profile_passes, warm_profiler
from probes.hotops.sizing import PROFILED_PASSES, TIMED_PASSES, WARMUP_PASSES, choose_plan
from probes.hotops.user_model import load_user_model
from probes.models import Metric
from probes.reference_models import ReferenceModel, build_reference_model, reference_shape
from probes.registry import CaseSpec, Probe, Scenario, ScenarioResult, implementation
from probes.vocabulary import MODEL_TYPES

TORCH_DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16}


def profiled_dtype(device_kind: str) -> Dtype:
    """fp32 on the CPU; bf16, as models are trained and served there, on accelerators."""
    return "fp32" if device_kind == "cpu" else "bf16"


def hotops_cases(device: Device, share_s: float, options: HotopsOptions) -> list[CaseSpec]:
    """One case per (model, pass) that fits, all at one size; the profiler is started first (not charged to a case)."""
    if device.kind in ("cpu", "cuda"):
        warm_profiler(device)
    dtype = profiled_dtype(device.kind)
    if options.model is not None:  # its cost is unknown: planned as if it were a tiny reference model
        _, planned = choose_plan(device.kind, share_s, [CUSTOM_MODEL])
        return [
            CaseSpec(dtype=dtype, shape={}, options={"model": CUSTOM_MODEL, "factory": options.model, "pass": p.kind})
            for p in planned
        ]
    models: list[str] = [options.model_type] if options.model_type is not None else list(MODEL_TYPES)
    size, planned = choose_plan(device.kind, share_s, models)
    return [
        CaseSpec(
            dtype=dtype, shape=reference_shape(p.model, size), options={"model": p.model, "pass": p.kind, "size": size}
        )
        for p in planned
    ]


PROBE = Probe(
    name="hotops",
    description="Hot operators: top-10 ops by self time of each model type's forward and training step, by concern.",
    cases=hotops_cases,
    options=HotopsOptions,
)


def model_of(case: CaseSpec) -> ReferenceModel:
    """The case's model on the CPU in fp32: a reference model, or the user's factory's."""
    if case.options["model"] == CUSTOM_MODEL:
        return load_user_model(str(case.options["factory"]))
    return build_reference_model(str(case.options["model"]), str(case.options["size"]))


def pass_metrics(profiled: PassProfile, parameters: int) -> dict[str, Metric]:
    """share_<group> for every group, the profiled self time per pass, the top-10's share, the parameters."""
    metrics = {f"share_{group}": Metric(value=share, unit="ratio") for group, share in profiled.group_shares().items()}
    metrics["profiled_s"] = Metric(value=profiled.total_s, unit="s")
    metrics["top10_share"] = Metric(value=sum(operator.share for operator in profiled.top()), unit="ratio")
    metrics["parameters"] = Metric(value=parameters, unit="count")
    return metrics


def _on_device(tensors: tuple[torch.Tensor, ...], device: Device, dtype: torch.dtype) -> tuple[torch.Tensor, ...]:
    return tuple(x.to(device.torch_device, dtype if x.is_floating_point() else x.dtype) for x in tensors)


@implementation("eager", baseline=True, enabled=lambda device: device.kind in ("cpu", "cuda"))
def eager(case: CaseSpec, device: Device) -> Scenario:
    """The model as written, run eagerly under torch.profiler."""
    kind: Pass = "train" if case.options["pass"] == "train" else "forward"
    built = model_of(case)
    inputs = built.example_inputs()
    reference = None
    if case.dtype == "fp32" and case.options["model"] != CUSTOM_MODEL:
        float64_model = copy.deepcopy(built.module).double()  # before any training step changes the weights
        float64_inputs = _on_device(inputs, Device(), torch.float64)
        reference = lambda: reference_output(float64_model, float64_inputs, kind)  # noqa: E731
    dtype = TORCH_DTYPES[case.dtype]
    module = built.module.to(device.torch_device, dtype)
    run = make_pass(module, _on_device(inputs, device, dtype), kind)
    parameters = sum(parameter.numel() for parameter in module.parameters())

    def play() -> ScenarioResult:
        output = run()  # the checked pass: the weights are still the float64 copy's
        for _ in range(WARMUP_PASSES):
            run()
        steps = []
        for _ in range(TIMED_PASSES):
            device.synchronize()
            start = time.perf_counter()
            run()
            device.synchronize()
            steps.append(time.perf_counter() - start)
        profiled = profile_passes(run, PROFILED_PASSES, device)
        return ScenarioResult(
            step_seconds=steps, metrics=pass_metrics(profiled, parameters), output=output, operators=profiled.top()
        )

    return Scenario(play=play, reference=reference)
