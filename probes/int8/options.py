"""The int8 probe's options: which reference model the whole-model INT8 cases measure.

Light on purpose (pydantic only), like the hotops options: a CLI can validate a flag with it before
any child starts.
"""

from __future__ import annotations

from pydantic import Field

from probes.registry import ProbeOptions
from probes.vocabulary import ModelType


class Int8Options(ProbeOptions):
    """`model_type`: the profile's model type, whose reference model is measured whole in ONNX Runtime,
    fp32 and int8 (default: the CNN, then the dense transformer as the share affords)."""

    # --model-type: one flag for hotops and int8, its help on HotopsOptions' field.
    model_type: ModelType | None = Field(None, json_schema_extra={"metavar": "TYPE"})
