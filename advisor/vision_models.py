"""Well-known vision model families, told apart by their Hugging Face ids (case-insensitive): vision transformers,
which have attention layers over image patches (ViT, DeiT, DINOv2, Swin, BEiT, DETR, SegFormer...), and convolutional
vision models (ResNet, ConvNeXt, Ultralytics YOLO). A profile's `cnn` type covers both for its stacks; what a vision
transformer has that a CNN lacks (attention, LayerNorm, linear layers doing most of the work) is read from here. Some
vision transformers are hybrids whose backbone is a CNN (DETR and RT-DETR on a ResNet, MobileViT's MobileNet blocks):
they have both, attention to plan and convolutions to choose a library for."""

from __future__ import annotations

import re

# Vision transformers: attention layers over image patches (their attention is planned, unlike a CNN's).
VISION_TRANSFORMER_PATTERNS = (
    re.compile(r"^google/(vit|deit)-", re.IGNORECASE),
    re.compile(r"^facebook/(deit|dinov2|dino-vit|vit-mae|detr|sam-vit|mask2former)", re.IGNORECASE),
    re.compile(r"^microsoft/(swin|beit|cvt|conditional-detr|table-transformer)", re.IGNORECASE),
    re.compile(r"^nvidia/(segformer|mit-b)", re.IGNORECASE),
    re.compile(r"^(apple/mobilevit|hustvl/yolos|PekingU/rtdetr)", re.IGNORECASE),
    re.compile(r"^timm/(vit|deit|swin|beit|eva)", re.IGNORECASE),
)
# Hybrids: a convolutional backbone under the transformer. DETR, Conditional DETR and Table Transformer put a ResNet
# before their encoder-decoder (https://huggingface.co/docs/transformers/model_doc/detr,
# https://huggingface.co/docs/transformers/model_doc/conditional_detr,
# https://huggingface.co/docs/transformers/model_doc/table-transformer); RT-DETR and RT-DETRv2 a ResNet-vd or HGNetv2
# (https://huggingface.co/docs/transformers/model_doc/rt_detr, https://huggingface.co/docs/transformers/model_doc/rt_detr_v2);
# MobileViT mixes MobileNetV2 convolution blocks with transformer blocks
# (https://huggingface.co/docs/transformers/model_doc/mobilevit). Read 2026-12-06.
CONV_BACKBONE_PATTERNS = (
    re.compile(r"^facebook/detr-resnet", re.IGNORECASE),
    re.compile(r"^microsoft/(conditional-detr-resnet|table-transformer)", re.IGNORECASE),
    re.compile(r"^(apple/mobilevit|PekingU/rtdetr)", re.IGNORECASE),
)
# Convolutional vision models a team might still call a transformer by mistake.
VISION_CNN_PATTERNS = (
    re.compile(r"^facebook/convnext", re.IGNORECASE),
    re.compile(r"^microsoft/resnet", re.IGNORECASE),
    re.compile(r"^(Ultralytics/|timm/)", re.IGNORECASE),
)
VISION_MODEL_PATTERNS = (*VISION_TRANSFORMER_PATTERNS, *VISION_CNN_PATTERNS)
# Hub ids of architectures that torchvision's classification builders construct by name (resnet50, vit_l_16, swin_t,
# convnext_base, efficientnet_b0, regnet_y_16gf, mobilenet_v2...), from torchvision's model list
# (https://docs.pytorch.org/vision/stable/models.html, read 2026-12-06). A generic trainer that builds its network by
# torchvision name runs these; DINOv2, BEiT or DETR are not among them and bring their own model code.
TORCHVISION_ARCHITECTURE_PATTERNS = (
    re.compile(r"^microsoft/resnet-(18|34|50|101|152)$", re.IGNORECASE),
    re.compile(r"^google/vit-(base|large|huge)-patch(14|16|32)-224", re.IGNORECASE),
    re.compile(r"^microsoft/swin-(tiny|small|base)-patch4-window7-224$", re.IGNORECASE),
    re.compile(r"^facebook/convnext-(tiny|small|base|large)-224", re.IGNORECASE),
    re.compile(r"^google/(efficientnet-b[0-7]|mobilenet_v2)", re.IGNORECASE),
    re.compile(r"^facebook/regnet-", re.IGNORECASE),
    # timm's releases of the same architectures, named by timm's model names (timm/resnet50.a1_in1k, review 162 p09):
    # torchvision builds the network; the weights are timm's own (https://huggingface.co/docs/timm/models/resnet)
    re.compile(
        r"^timm/(resnet(18|34|50|101|152)|wide_resnet(50|101)_2|resnext50_32x4d|resnext101_32x8d)\.", re.IGNORECASE
    ),
    re.compile(
        r"^timm/(vit_(base|large|huge)_patch(14|16|32)_224|convnext_(tiny|small|base|large)|efficientnet_b[0-7])\.",
        re.IGNORECASE,
    ),
)
# Convolutional networks normalised with LayerNorm, not BatchNorm: ConvNeXt and ConvNeXt V2
# (https://huggingface.co/docs/transformers/model_doc/convnext, https://huggingface.co/docs/transformers/model_doc/convnextv2;
# read 2026-12-06). A LayerNorm risk concerns them as it does a vision transformer (review 132 p15).
LAYERNORM_CNN_PATTERNS = (re.compile(r"^(facebook|timm)/convnext", re.IGNORECASE),)


def vision_model(model: str | None) -> bool:
    """The Hugging Face id names a well-known vision model family (see the module's list)."""
    return model is not None and any(pattern.search(model.strip()) for pattern in VISION_MODEL_PATTERNS)


def torchvision_architecture(model: str | None) -> bool:
    """The Hugging Face id names an architecture torchvision builds by name (see the module's list)."""
    return model is not None and any(pattern.search(model.strip()) for pattern in TORCHVISION_ARCHITECTURE_PATTERNS)


def vision_transformer(model: str | None) -> bool:
    """The Hugging Face id names a well-known vision transformer family (ViT, DINOv2, Swin, DETR...): an image model
    with attention layers."""
    return model is not None and any(pattern.search(model.strip()) for pattern in VISION_TRANSFORMER_PATTERNS)


# Vision-language models: a vision encoder and projector beside a language model (Qwen2.5-VL, InternVL, LLaVA...).
VISION_LANGUAGE_PATTERNS = (
    re.compile(r"[-_]VL\d*(?:[-_.]|$)", re.IGNORECASE),  # Qwen2-VL, Qwen2.5-VL-7B-Instruct, Qwen3-VL-8B, DeepSeek-VL2
    re.compile(
        r"/(InternVL|llava|Pixtral|paligemma|idefics|MiniCPM-V|Phi-3\.5-vision|Phi-4-multimodal)", re.IGNORECASE
    ),
    re.compile(r"-Vision(?:-|$)", re.IGNORECASE),  # Llama-3.2-11B-Vision-Instruct
)


def conv_backbone(model: str | None) -> bool:
    """The Hugging Face id names a vision transformer whose backbone is a CNN (DETR, RT-DETR, MobileViT): its
    convolutions carry much of the compute beside its attention."""
    return model is not None and any(pattern.search(model.strip()) for pattern in CONV_BACKBONE_PATTERNS)


def vision_language_model(model: str | None) -> bool:
    """The Hugging Face id names a well-known vision-language model family (see VISION_LANGUAGE_PATTERNS)."""
    return model is not None and any(pattern.search(model.strip()) for pattern in VISION_LANGUAGE_PATTERNS)


def layernorm_model(model: str | None) -> bool:
    """An image model with LayerNorm layers: a vision transformer, or a convolutional network normalised with them."""
    return vision_transformer(model) or (
        model is not None and any(pattern.search(model.strip()) for pattern in LAYERNORM_CNN_PATTERNS)
    )
