"""The int8 probe's options: which reference model the whole-model INT8 cases measure.

Light on purpose (pydantic only), like the hotops options: a CLI can validate a flag with it before
any child starts.
"""

from __future__ import annotations

from probes.registry import ProbeOptions
from probes.vocabulary import ModelType


class Int8Options(ProbeOptions):
    """`model_type`: the profile's model type, whose reference model is measured whole in ONNX Runtime,
    fp32 and int8 (default: the CNN, then the dense transformer as the share affords)."""

    model_type: ModelType | None = None
