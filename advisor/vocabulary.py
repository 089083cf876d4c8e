"""The words a profile is made of, as plain Literal types: importing them costs nothing (no pydantic),
so the CLI can offer them as choices in its help and the models can validate against the same lists.
The model types and hardware families, which probes share, are in probes/vocabulary.py."""

from __future__ import annotations

from typing import Literal, get_args

TeamSkill = Literal["framework", "kernel", "hpc"]
Workload = Literal["training", "inference", "both"]
Quantization = Literal["none", "int8", "fp8"]
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
