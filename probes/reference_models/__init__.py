"""Small plain-PyTorch reference models, one per profile model type, for profiling hot operators."""

from probes.reference_models.factory import (
    MODEL_SIZES,
    ModelSize,
    ReferenceModel,
    build_reference_model,
    reference_shape,
)

__all__ = ["MODEL_SIZES", "ModelSize", "ReferenceModel", "build_reference_model", "reference_shape"]
