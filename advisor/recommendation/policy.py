"""The engine's policy in one place: how much each kind of misfit weighs against a stack, which formats answer
a precision, what scale a job needs, and how a stack's components map to the record's concerns.

The method page (`advisor kb method`) states the rules these numbers encode; change them here, not in the rules.
"""

from __future__ import annotations

from advisor.knowledge.claims import TEAM_SKILLS
from advisor.profile import MAX_DEVICES

# What does not fit, and how much it counts against a stack (the chosen stack has the smallest total). From TOO_FAR on
# a stack is only a considered option (another precision, another kind of model, a format the device lacks, or
# several lesser misfits together); below it, a partial fit the record states.
MISFIT_WEIGHTS: dict[str, int] = {
    "format": 100, "other_model": 100, "precision": 10, "model_type": 8, "dynamic_shapes": 6, "skill": 5,
    "lower_precision": 4, "unlisted_runner": 4, "device": 3, "scale": 2, "general_runtime": 2,
}  # fmt: skip
TOO_FAR = 10
# A stack documented for another model type is no stack for this one (TOO_FAR), except these near ones
# (profile's model type, stack's model type): a partial fit weighing MISFIT_WEIGHTS["model_type"].
NEAR_MODEL_TYPES: frozenset[tuple[str, str]] = frozenset({
    ("multimodal", "dense-transformer"), ("moe", "dense-transformer"), ("dense-transformer", "moe"),
})  # fmt: skip

# The stack formats that answer the profile's precision: its quantization, or the float formats without one.
PRECISIONS_FOR: dict[str, tuple[str, ...]] = {
    "none": ("bf16", "fp16", "tf32", "fp32"),
    "cpu": ("fp32", "bf16", "fp16"),
    "fp8": ("fp8", "mxfp8"),
    "int8": ("int8",),
}

# Lower formats a vendor documents where the profile asks for 8 bits: a partial fit ("lower_precision"), since the
# profile's vocabulary stops at 8 bits.
LOWER_PRECISIONS: dict[str, tuple[str, ...]] = {"int8": ("int4",), "fp8": ("nvfp4", "mxfp4")}

# Devices per job -> the scale a stack must be documented at. How many devices share a node differs by device (8 GPUs,
# 16 Trainium2 chips, TPU slices), so a job of several devices needs a stack documented beyond one device; one
# documented across nodes covers it too.
SCALE_FOR: tuple[tuple[int, str], ...] = ((1, "single-device"), (MAX_DEVICES, "multi-device"))
FLOAT_PRECISIONS: tuple[str, ...] = ("bf16", "fp16", "tf32", "fp32")

SKILL_ORDER: tuple[str, ...] = tuple(TEAM_SKILLS)

# A stack component's role -> the concern of the record it decides (roles not listed are shown with the stack).
ROLE_CONCERNS: dict[str, str] = {
    "attention": "attention", "gemm": "gemm", "convolution": "convolution", "quantization": "quantization",
    "collectives": "collectives", "compiler": "fusion", "graph": "fusion",
}  # fmt: skip
# Concerns whose kernels a graph runtime or framework brings itself when it serves the model (ONNX Runtime's MLAS,
# Core ML, MLX, llama.cpp's ggml), and the candidate layers that do so.
RUNTIME_KERNEL_CONCERNS: tuple[str, ...] = ("gemm", "convolution", "attention", "fusion")
RUNTIME_KERNEL_LAYERS: tuple[str, ...] = ("runtime", "framework")
# Stack parts without a candidate of their own that the runner ships (its attention or GEMM kernels).
RUNNER_KERNEL_ROLES: tuple[str, ...] = ("attention", "gemm", "convolution")
# Stack parts of no concern, shown as settings of the runner's choice, per workload.
SETTING_ROLES: dict[str, tuple[str, ...]] = {
    "inference": ("kv-cache", "moe", "kernels", "other"),
    "training": ("parallelism", "moe", "kernels", "other"),
}
# Confidence: what backs the chosen stack.
STACK_FITS = 1.2  # a vendor-documented stack validated on this device generation, fitting the whole profile
STACK_PARTIAL = 0.85  # a documented stack that fits in part (another generation, precision or scale)
NO_STACK = 0.7  # no documented whole stack: the concerns are assembled one by one
