"""The words a profile is made of, as plain Literal types: importing them costs nothing (no pydantic),
so the CLI can offer them as choices in its help and the models can validate against the same lists.
The model types and hardware families, which probes share, are in probes/vocabulary.py."""

from __future__ import annotations

from typing import Literal, get_args

TeamSkill = Literal["framework", "kernel", "hpc"]
Workload = Literal["training", "inference", "both"]
Quantization = Literal["none", "int8", "fp8", "int4", "fp4"]
QuantizationMethod = Literal["ptq", "qat"]
# What a served language model does: generate text, return one vector per input, or transcribe speech to text.
ServingTask = Literal["generation", "embedding", "transcription"]
# What a training job does to the model: train it from scratch, update every weight of a trained one, train LoRA
# adapters beside its frozen weights, or reinforcement-learning post-training (GRPO, PPO: a rollout engine generates,
# a trainer updates every weight, and the weights are synced back to the rollout engine each step).
TrainingKind = Literal["pretraining", "fine-tuning", "lora", "rl"]

TEAM_SKILLS: tuple[str, ...] = get_args(TeamSkill)
WORKLOADS: tuple[str, ...] = get_args(Workload)
QUANTIZATIONS: tuple[str, ...] = get_args(Quantization)
QUANTIZATION_METHODS: tuple[str, ...] = get_args(QuantizationMethod)
SERVING_TASKS: tuple[str, ...] = get_args(ServingTask)
TRAINING_KINDS: tuple[str, ...] = get_args(TrainingKind)
# Each kind of training as a setting names it.
TRAINING_WORDS: dict[str, str] = {
    "pretraining": "pretraining",
    "fine-tuning": "full fine-tune",
    "lora": "LoRA",
    "rl": "RL",
}
METHOD_WORDS: dict[str, str] = {"ptq": "post-training quantization", "qat": "quantization-aware training"}

# The formats that answer each quantization a profile may ask: fp8 as FP8 (OCP or FNUZ) or MXFP8; fp4 as NVFP4 (NVIDIA
# Blackwell) or MXFP4 (OCP microscaling: AMD MI355X, gpt-oss's release); int4 as 4-bit integer weights (AWQ, GPTQ,
# GGUF Q4, MLX 4-bit).
ASKED_FORMATS: dict[str, tuple[str, ...]] = {
    "int8": ("int8",),
    "fp8": ("fp8", "mxfp8"),
    "int4": ("int4",),
    "fp4": ("nvfp4", "mxfp4"),
}
# The asks that quantize the weights only: kernels widen 4-bit integer weights to the compute format as they load them
# (W4A16 on GPUs and NPUs, W4A8 on Arm and x86 CPUs), so a device needs no INT4 units to run them, only a stack that
# documents the format on it.
WEIGHT_ONLY_ASKS: tuple[str, ...] = ("int4",)
