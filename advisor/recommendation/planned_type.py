"""A model given as a dense transformer that its id shows to be another kind is planned as that kind: a vision model on
the stacks for vision models, a vision-language model as multimodal, a mixture of experts as moe.

The profile's model types have one type for image models, `cnn`, whose stacks are the general runtimes that serve and
train them (ONNX Runtime, OpenVINO, TensorRT, PyTorch, MagicMind...). A vision transformer (ViT, DeiT, Swin, BEiT,
DINOv2, SegFormer, DETR) is a transformer, so a team may well call it `dense-transformer`; the stacks of that type are
LLM engines and trainers (llama.cpp, vLLM, Megatron), which decode text and do not load an image model. Where a
dense-transformer profile states no task and its `model` names a well-known vision model family (advisor/vision_models.py,
matched on the Hugging Face id, case-insensitive), the plan takes the vision stacks and the record says so in one line;
`task: generation` in the profile overrides it. Likewise a vision-language family (Qwen2.5-VL, InternVL, LLaVA) is
planned as `multimodal`, and a mixture of experts (an active size in its id, Qwen3-30B-A3B, or in the model catalogue)
as `moe`.
"""

from __future__ import annotations

import re

from advisor.knowledge.model_sizes import size_of
from advisor.profile import Profile
from advisor.recommendation.citations import cite_profile, line
from advisor.recommendation.models import Rationale, Recommendation
from advisor.vision_models import vision_language_model, vision_model

VISION_MODEL_TYPE = "cnn"  # the profile's type for image models, whose stacks are the general runtimes
# 'cnn' where the engine's texts name the planned type (not inside an id such as arm-onnxruntime-int8-cnn-graviton).
CNN_WORD = re.compile(r"(?<![\w`-])cnn(?![\w`-])")


def planned_model_type(profile: Profile) -> tuple[Profile, Rationale | None]:
    """The profile to plan with (a vision model given as a dense transformer: the vision type) and the line that says
    why; the profile itself and None otherwise."""
    if profile.model_type != "dense-transformer" or profile.task is not None:
        return profile, None
    if mixture_of_experts(profile.model_name):  # Qwen3-30B-A3B given as dense: its recipes are MoE ones (review 97 p03)
        text = (
            f"{profile.model_name} is a mixture of experts (its id or the model catalogue gives an active size besides "
            "the total): it is planned as `moe`, on the stacks documented for such models (expert parallelism, fused "
            "MoE kernels), not as a dense transformer; state `model_type: moe` in the profile to say so"
        )
        return planned_as("moe", profile, text)
    if vision_language_model(profile.model_name):  # Qwen2.5-VL given as dense: its vision tower needs VLM stacks
        text = (
            f"{profile.model_name} is a well-known vision-language model family: it is planned as `multimodal` (a "
            "vision encoder and projector beside the language model), on the stacks documented for such models, not "
            "as a text-only dense transformer; state `model_type: multimodal` in the profile to say so"
        )
        return planned_as("multimodal", profile, text)
    if not vision_model(profile.model_name):
        return profile, None
    text = (
        f"{profile.model_name} is a well-known vision model family, not a language model: it is planned on the stacks "
        f"for vision models (model type `{VISION_MODEL_TYPE}`: general runtimes that run its attention and GEMMs), not on "
        "the LLM engines and trainers a dense transformer is otherwise given, which do not load an image model; state "
        "`model_type: cnn` to say so (or `task: generation` should this id be a language model after all)"
    )
    return planned_as(VISION_MODEL_TYPE, profile, text)


def planned_as(model_type: str, profile: Profile, text: str) -> tuple[Profile, Rationale]:
    """The profile planned as another model type, with the line (citing its model and model type) that says why."""
    planned = profile.model_copy(update={"model_type": model_type})
    return planned, line(text, cite_profile(profile, "model"), cite_profile(profile, "model_type"))


ACTIVE_SIZE = re.compile(r"-A\d+(?:\.\d+)?B(?![A-Za-z0-9])", re.IGNORECASE)  # Qwen3-30B-A3B: 3B active of 30B


def mixture_of_experts(model: str | None) -> bool:
    """The id states an active size beside the total (Qwen3-235B-A22B), or the model catalogue gives one (DeepSeek-V3,
    Kimi-K2): a mixture of experts."""
    if model is None:
        return False
    known = size_of(model)
    return ACTIVE_SIZE.search(model.rsplit("/", 1)[-1]) is not None or (
        known is not None and known.active_b is not None
    )


def restated_type(recommendation: Recommendation, asked: Profile, planned: Profile) -> Recommendation:
    """The recommendation's texts name the planned vision type as what it stands for ('vision (cnn)'), so a profile that
    said dense-transformer is not told its model is a CNN."""
    if planned.model_type != VISION_MODEL_TYPE or planned.model_type == asked.model_type:
        # a vision-language model's texts say multimodal, which it is; the record keeps the profile as asked
        return (
            recommendation if recommendation.profile == asked else recommendation.model_copy(update={"profile": asked})
        )

    return recommendation.with_texts(lambda text: CNN_WORD.sub(f"vision ({VISION_MODEL_TYPE})", text), asked)
