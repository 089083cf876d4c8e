"""The one table that maps profiler operator names to concern groups (GEMM, attention, normalization...).

Names come from torch.profiler: ATen ops ('aten::addmm'), autograd nodes ('AddmmBackward0', and
'autograd::engine::evaluate_function: AddmmBackward0'), collectives ('c10d::allreduce_',
'nccl:all_reduce') and device copies ('Memcpy HtoD'). An autograd node is grouped with the forward op it
differentiates (its self time is the autograd engine's overhead for that op). Views, dispatch wrappers
and anything unlisted fall into "other".
"""

from __future__ import annotations

import re
from typing import Literal, get_args

OperatorGroup = Literal[
    "gemm", "attention", "convolution", "normalization", "elementwise", "routing", "collectives", "memory", "other"
]
GROUPS: tuple[OperatorGroup, ...] = get_args(OperatorGroup)
GROUP_DESCRIPTIONS: dict[OperatorGroup, str] = {
    "gemm": "matrix multiplies (linear layers, batched matmuls)",
    "attention": "fused attention kernels (SDPA and its backends)",
    "convolution": "convolutions (cuDNN/oneDNN conv kernels)",
    "normalization": "LayerNorm, GroupNorm, BatchNorm, RMSNorm",
    "elementwise": "pointwise ops, activations, softmax, reductions, pooling, optimizer updates",
    "routing": "routing and scatter/gather: top-k, sort, index_select, index_add, embedding lookups",
    "collectives": "collective communication (all-reduce, all-gather, reduce-scatter, all-to-all)",
    "memory": "copies, concatenation, casts, allocation and fills",
    "other": "views, dispatch wrappers, autograd bookkeeping and anything unlisted",
}

# Base names (no 'aten::' prefix) -> group. Backward ops are found through their forward name.
OPERATOR_GROUPS: dict[str, OperatorGroup] = {
    **dict.fromkeys(
        (
            "mm",
            "addmm",
            "bmm",
            "baddbmm",
            "addbmm",
            "matmul",
            "linear",
            "_int_mm",
            "_scaled_mm",
            "mv",
            "addmv",
            "dot",
            "einsum",
            "_addmm_activation",
            "mkldnn_linear",
            "_weight_int8pack_mm",
            "addmm_",
        ),
        "gemm",
    ),
    **dict.fromkeys(
        (
            "scaled_dot_product_attention",
            "_scaled_dot_product_flash_attention",
            "_scaled_dot_product_flash_attention_for_cpu",
            "_scaled_dot_product_efficient_attention",
            "_scaled_dot_product_cudnn_attention",
            "_scaled_dot_product_attention_math",
            "_flash_attention_forward",
            "_efficient_attention_forward",
            "_scaled_dot_product_fused_attention_overrideable",
        ),
        "attention",
    ),
    **dict.fromkeys(
        (
            "conv1d",
            "conv2d",
            "conv3d",
            "convolution",
            "_convolution",
            "conv_transpose1d",
            "conv_transpose2d",
            "conv_transpose3d",
            "mkldnn_convolution",
            "cudnn_convolution",
            "cudnn_convolution_transpose",
            "miopen_convolution",
            "_nnpack_spatial_convolution",
            "_slow_conv2d_forward",
            "slow_conv2d",
            "convolution_overrideable",
        ),
        "convolution",
    ),
    **dict.fromkeys(
        (
            "layer_norm",
            "native_layer_norm",
            "group_norm",
            "native_group_norm",
            "batch_norm",
            "native_batch_norm",
            "_native_batch_norm_legit",
            "_native_batch_norm_legit_no_training",
            "_batch_norm_impl_index",
            "_batch_norm_with_update",
            "_batch_norm_no_update",
            "cudnn_batch_norm",
            "miopen_batch_norm",
            "rms_norm",
            "_fused_rms_norm",
            "instance_norm",
        ),
        "normalization",
    ),
    **dict.fromkeys(
        (
            "add",
            "add_",
            "sub",
            "sub_",
            "rsub",
            "mul",
            "mul_",
            "div",
            "div_",
            "neg",
            "pow",
            "exp",
            "log",
            "sqrt",
            "rsqrt",
            "reciprocal",
            "square",
            "abs",
            "sign",
            "sin",
            "cos",
            "tanh",
            "sigmoid",
            "erf",
            "silu",
            "silu_",
            "gelu",
            "relu",
            "relu_",
            "threshold",
            "threshold_backward",
            "hardtanh",
            "leaky_relu",
            "softplus",
            "clamp",
            "clamp_",
            "clamp_min",
            "clamp_max",
            "maximum",
            "minimum",
            "where",
            "masked_fill",
            "masked_fill_",
            "lerp",
            "addcmul",
            "addcdiv",
            "floor",
            "round",
            "eq",
            "ne",
            "gt",
            "lt",
            "ge",
            "le",
            "softmax",
            "_softmax",
            "log_softmax",
            "_log_softmax",
            "_softmax_backward_data",
            "_log_softmax_backward_data",
            "sum",
            "mean",
            "amax",
            "max",
            "min",
            "var",
            "var_mean",
            "std",
            "linalg_vector_norm",
            "norm",
            "dropout",
            "native_dropout",
            "mse_loss",
            "cross_entropy_loss",
            "nll_loss",
            "nll_loss_forward",
            "nll_loss_nd",
            "avg_pool2d",
            "adaptive_avg_pool2d",
            "_adaptive_avg_pool2d",
            "max_pool2d",
            "max_pool2d_with_indices",
            "sigmoid_backward",
            "tanh_backward",
        ),
        "elementwise",
    ),
    **dict.fromkeys(
        (
            "topk",
            "sort",
            "argsort",
            "scatter",
            "scatter_",
            "scatter_add",
            "scatter_add_",
            "scatter_reduce",
            "index_add",
            "index_add_",
            "index_select",
            "gather",
            "index",
            "index_put",
            "index_put_",
            "_index_put_impl_",
            "nonzero",
            "masked_select",
            "masked_scatter",
            "bincount",
            "histc",
            "one_hot",
            "embedding",
            "embedding_dense_backward",
            "argmax",
            "argmin",
            "cumsum",
            "unique",
            "_unique2",
            "searchsorted",
            "take_along_dim",
        ),
        "routing",
    ),
    **dict.fromkeys(
        (
            "copy_",
            "_to_copy",
            "to",
            "clone",
            "contiguous",
            "cat",
            "stack",
            "_copy_from",
            "_copy_from_and_resize",
            "empty",
            "empty_like",
            "empty_strided",
            "zeros",
            "zeros_like",
            "ones",
            "ones_like",
            "full",
            "full_like",
            "fill_",
            "zero_",
            "new_zeros",
            "new_empty",
            "new_empty_strided",
            "resize_",
            "constant_pad_nd",
            "pad",
            "repeat",
            "repeat_interleave",
            "flip",
            "roll",
            "upsample_nearest2d",
            "_local_scalar_dense",
            "split_with_sizes_copy",
        ),
        "memory",
    ),
}
_COLLECTIVE_PREFIXES = (
    "c10d::",
    "_c10d_functional::",
    "c10d_functional::",
    "nccl:",
    "gloo:",
    "hccl",
    "record_param_comms",
)
_COLLECTIVE_WORDS = re.compile(r"all_?reduce|all_?gather|reduce_?scatter|all_?to_?all|broadcast_")
_DEVICE_COPY_PREFIXES = ("Memcpy", "Memset")
_ELEMENTWISE_PREFIXES = ("_foreach_", "_fused_adam", "_fused_sgd", "Optimizer.")  # optimizer steps and their wrappers
_AUTOGRAD_PREFIX = "autograd::engine::evaluate_function: "
_AUTOGRAD_NODE = re.compile(r"^([A-Za-z0-9]+)Backward\d*$")
_BACKWARD_SUFFIXES = ("_backward_data", "_backward_input", "_backward_weight", "_backward")


def _snake_case(camel: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", camel).lower()


def base_name(name: str) -> str:
    """'aten::addmm' -> 'addmm'; 'AddmmBackward0' and its autograd-engine wrapper -> 'addmm'."""
    name = name.removeprefix(_AUTOGRAD_PREFIX)
    node = _AUTOGRAD_NODE.match(name)
    if node:
        return _snake_case(node.group(1))
    return name.split("::", 1)[1] if name.startswith("aten::") else name


def group_of(name: str) -> OperatorGroup:
    """The concern group of one profiler operator name ("other" when unlisted)."""
    if name.startswith(_COLLECTIVE_PREFIXES) or _COLLECTIVE_WORDS.search(name):
        return "collectives"
    if name.startswith(_DEVICE_COPY_PREFIXES):
        return "memory"
    base = base_name(name)
    if base.startswith(_ELEMENTWISE_PREFIXES):
        return "elementwise"
    candidates = [base] + [base.removesuffix(suffix) for suffix in _BACKWARD_SUFFIXES if base.endswith(suffix)]
    for candidate in candidates:
        if candidate in OPERATOR_GROUPS:
            return OPERATOR_GROUPS[candidate]
    if "attention" in base:
        return "attention"
    if "convolution" in base:
        return "convolution"
    return "other"
