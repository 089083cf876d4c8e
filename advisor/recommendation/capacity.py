"""Does the model fit the devices the profile names? A memory check that comes before any stack detail.

A stack can be the right one and still not hold the model: full-parameter training of a 72B model on one node of
64 GB devices is a plan that fails at its first step. Given the model's size (the profile's `parameters_b`, or the
size its Hugging Face id states) and the device's memory (its platform spec), the check says how much the job
holds and against what:

- training keeps about 16 bytes per parameter in mixed precision with Adam: 2 for the 16-bit weights, 2 for their
  gradients and 12 for the optimizer's fp32 master weights, momentum and variance (ZeRO, Rajbhandari et al. 2020,
  section 3.1: https://arxiv.org/abs/1910.02054), before activations;
- serving keeps the weights at the profile's precision (2 bytes in bf16/fp16, 1 in fp8/int8) within the share of
  memory an engine takes by default (vLLM's gpu_memory_utilization, 0.9:
  https://docs.vllm.ai/en/latest/models/engine_args.html, checked 2026-12-04), the rest of that share going to the KV
  cache.

What does not fit gets what would: how many nodes a sharded run needs, or LoRA (only the frozen weights, plus small
adapters), or more devices or a lower precision for serving. A model that fits a few of the devices with room to spare
gets the other question a serving plan must answer: replicas (data parallel) or one model split over all of them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from advisor.attention_layouts import hybrid_attention
from advisor.knowledge.model_sizes import restricted_licence, size_of, stated_parameters_b
from advisor.knowledge.platforms import Device
from advisor.knowledge.stacks import Stack
from advisor.profile import Profile
from advisor.recommendation.citations import cite_profile, cite_stack_claim, line
from advisor.recommendation.models import Citation, Rationale
from advisor.recommendation.policy import FLOAT_PRECISIONS, NODE_DEVICES, PRECISIONS_FOR, node_size
from advisor.vocabulary import WEIGHT_ONLY_ASKS

TRAINING_BYTES_PER_PARAMETER = 16  # mixed-precision Adam (ZeRO, section 3.1), before activations
FROZEN_BYTES_PER_PARAMETER = 2  # LoRA: the base weights frozen in bf16; the adapters are a few percent at most
OFFLOADED_BYTES_PER_PARAMETER = (
    4  # ZeRO-Offload: bf16 weights and gradients stay on the device, fp32 Adam state on the host
)
# Bytes per weight in the format served: the profile's ask ("none" is bf16), or the stack's own format where the
# device runs another (fp8 asked on a device without FP8 is served in the stack's bf16 or int8).
SERVING_BYTES_PER_PARAMETER = {
    "none": 2,
    "fp32": 4,
    "tf32": 4,
    "bf16": 2,
    "fp16": 2,
    "fp8": 1,
    # MXFP8 and MXFP4 add one E8M0 scale per block of 32 values (OCP Microscaling Formats (MX) v1.0,
    # https://www.opencompute.org/documents/ocp-microscaling-formats-mx-v1-0-spec-final-pdf): 8.25 and 4.25 bits a weight
    "mxfp8": 1.03125,
    "int8": 1,
    # NVFP4 adds one FP8 (E4M3) scale per block of 16 values, 4.5 bits a weight, its FP32 tensor scale negligible
    # (https://developer.nvidia.com/blog/introducing-nvfp4-for-efficient-and-accurate-low-precision-inference/;
    # review 122 p01: 0.5 byte undercounted a 671B NVFP4 checkpoint)
    "nvfp4": 0.5625,
    "mxfp4": 0.53125,
    "int4": 0.5,
    "fp4": 0.5625,  # the ask: NVFP4 or MXFP4, counted as the larger
}
ENGINE_MEMORY_SHARE = 0.9  # vLLM's default gpu_memory_utilization
# the share of each device's usable memory kept for activations when a training job's state is sized to the fewest
# devices: the bare minimum leaves almost none (review 243 p06: 192 Ascend dies for DeepSeek-V3's 10.7 TB, 1.7 GB each)
ACTIVATION_SHARE = 0.2
# A training job's weights, gradients and optimizer state above this share of the usable memory leave activations
# little room (AMD's 70B FP8 full fine-tune guide asks for two or more MI300X nodes, where these states alone take 81%
# of one node's usable memory): a judgement, said as "tight" rather than as a misfit.
TIGHT_TRAINING_SHARE = 0.6
KV_CACHE_HALF = 0.5  # a replica keeps at least half of its engine share for the KV cache
NODE_KV_SHARE = 0.25  # a replica of one whole node keeps at least this share for the KV cache: no cross-node traffic


def model_parameters_b(profile: Profile) -> float | None:
    """The model's size in billions of parameters: the profile's parameters_b, else the model card's size for a
    well-known model (advisor/data/models.yaml), else the size its model id states."""
    if profile.parameters_b is not None:
        return profile.parameters_b
    name = profile.model_name
    known = size_of(name) if name else None
    if known is not None:
        return known.parameters_b
    return stated_parameters_b(name) if name else None


def licence_line(profile: Profile) -> Rationale | None:
    """Where the catalogue names the model's weights as under a licence that allows no commercial use (FLUX.1 [dev]):
    what a company must clear before anything ships, whatever stack serves or trains it (review 127 p15)."""
    known = restricted_licence(profile.model_name) if profile.model_name is not None else None
    if known is None:
        return None
    text = (
        f"licence: {profile.model_name}'s weights come under the {known.licence}, which allows no commercial use: a "
        "company's service or product needs a commercial licence from the publisher first"
    )
    cite = Citation(kind="knowledge", ref=f"licences.{known.id}", figure=known.licence, source=known.source)
    return line(text, cite_profile(profile, "model"), cite)


# Meta's quantized Llama 3.2 1B and 3B (4-bit group-wise linear layers, an 8-bit embedding and classification layer) are
# 56% smaller than their BF16 files on average: what a phone's 4-bit export of a small model keeps of the BF16 size
PHONE_FOUR_BIT_SOURCE = "https://ai.meta.com/blog/meta-llama-quantized-lightweight-models/"  # read 2026-12-06
PHONE_FOUR_BIT_SHARE = 0.44


def size_citation(profile: Profile) -> Citation:
    """What the size rests on: the profile's parameters_b, a model card in the catalogue, or the model's id."""
    if profile.parameters_b is not None:
        return cite_profile(profile, "parameters_b")
    known = size_of(profile.model_name) if profile.model_name else None
    if known is not None:
        active = f", {known.active_b:g}B active" if known.active_b is not None else ""
        return Citation(
            kind="knowledge", ref=f"models.{known.id}", figure=f"{known.parameters_b:g}B{active}", source=known.source
        )
    return cite_profile(profile, "model")


def capacity_lines(
    profile: Profile,
    device: Device | None,
    node_devices: int,
    latent_kv: bool = False,
    served_precision: str | None = None,
    on_cpu: bool = False,
    sharded: Stack | None = None,
    page_devices: int | None = None,
    reference: bool = True,
) -> tuple[Rationale, ...]:
    """One line per workload on whether the model fits the profile's devices; where a model is named but its size or
    the device's memory is unknown, one line saying the check was not made and why; nothing for a profile that names
    neither a model nor a size. `latent_kv`: the serving stack runs MLA attention, whose one latent KV cache tensor
    parallelism keeps whole on every device. `served_precision`: the format the chosen serving stack runs for this
    profile, where it differs from the one asked. `sharded`: the chosen serving stack, where its command splits one copy
    of the model over several devices (its `sharded_serving` claim). `reference`: an RL job's recipe loads a frozen
    reference policy (False where its settings turn the KL term off)."""
    parameters = model_parameters_b(profile)
    if device is None or (parameters is None and profile.model is None):
        return ()
    if parameters is None:  # a model named, its size not: say so rather than skip the check in silence
        text = (
            f"capacity: not checked: {profile.model_name or profile.model} states no size in its id; set "
            "`parameters_b` (a MoE's total) to check the weights against the devices' memory"
        )
        return (line(text, cite_profile(profile, "model")),)
    size = size_citation(profile)
    if device.memory_gb is None and on_cpu:  # a CPU's memory is the server's RAM, sized with the server: no check
        weights = served_weights_gb(parameters, served_precision or profile.needs.quantization)
        where = (
            "a phone's memory is shared with the system and other apps, so keep these weights"
            f"{', the KV cache' if profile.llm else ''} and the activations within the app's share of it (measure it "
            "on the oldest phone you ship to)"
            if device.device_class == "mobile"
            else "a CPU's memory is the server's RAM, sized with the server, so size it for these weights and the "
            "activations of the batch"
        )
        text = (
            f"capacity: the {parameters:g}B model's weights{left_out(profile)} take about {_gb(weights)} in "
            f"{_format(served_precision or profile.needs.quantization)}; {where}"
        )
        fmt = served_precision or profile.needs.quantization
        # Meta measured its own Llama 3.2 exports; another runtime's export of another model keeps its own layers in 4
        # bits (review 160 p15: LiteRT's Gemma 3 1B file is 584 MB, not the "nearer 880 MB" this rule gave)
        llama = profile.model_name is not None and "llama" in profile.model_name.lower()
        if device.device_class == "mobile" and fmt in WEIGHT_ONLY_ASKS and llama:
            # reviews 147 p14 and 152 p15: "about 500 MB in int4" for a 1B model whose exported file is 1.14 GB
            exported = served_weights_gb(parameters, "bf16") * PHONE_FOUR_BIT_SHARE
            text += (
                f"; that counts every weight in 4 bits, while phone exports keep the embedding and output layers in 8 "
                f"bits, so the file comes out nearer {_gb(exported)} (Meta's quantized Llama 3.2 1B and 3B, built so, "
                f"are {1 - PHONE_FOUR_BIT_SHARE:.0%} smaller than BF16 on average)"
            )
            meta = Citation(
                kind="knowledge", ref="capacity.phone_four_bit_exports", figure="56%", source=PHONE_FOUR_BIT_SOURCE
            )
            return (line(text, size, meta),)
        return (line(text, size),)
    if device.memory_gb is None:
        fmt = served_precision or profile.needs.quantization
        weights = served_weights_gb(parameters, fmt)
        # the weights' size and what to do with the device's figure once it is at hand (reviews 239 p11, 241 p13 and 242
        # p11: "not checked" left a 7B model on 4 MLU590s with no replica or split advice)
        replicas = (
            "; where one device holds them with about half its memory left for the KV cache, serve a replica per "
            f"device (or per group that does) rather than one copy over all {profile.needs.devices}, and measure the "
            "two layouts at the SLA"
            if profile.serves and profile.llm and profile.needs.devices > 1
            else ""
        )
        text = (
            f"capacity: not checked: the knowledge base has no memory figure for {device.name}; the {parameters:g}B "
            f"model's weights{left_out(profile)} take about {_gb(weights)} in {_format(fmt)}: compare them with the device's memory (its "
            f"vendor's datasheet or support channel){replicas}"
        )
        return (line(text, size),)
    cites = (size, cite_profile(profile, "needs.devices"))
    lines = []
    if profile.trains:
        text = training_text(parameters, profile.needs.devices, device, node_devices, profile.training, reference)
        lines.append(line(text, *cites, *((cite_profile(profile, "training"),) if profile.training else ())))
    if profile.serves:
        text = serving_text(parameters, profile, device, served_precision, sharded, page_devices)
        if latent_kv and profile.needs.devices > 1 and "for the KV cache" in text:
            text += (
                "; with MLA attention, tensor parallelism keeps the whole latent KV cache on every device, so the "
                "distinct cache is one device's share of that: data-parallel attention splits it across them"
            )
        if hybrid_attention(profile.model_name) and "for the KV cache" in text:
            text += (
                "; only its full-attention layers (one in four) grow a KV cache with the sequence, its Gated DeltaNet "
                "layers keeping a fixed state per running sequence, so that memory holds more tokens than a "
                "full-attention model's would"
            )
        if (encoder := text_encoder_note(parameters, profile, device, served_precision, sharded)) is not None:
            text += encoder
        if (float_fit := float_also_fits(parameters, profile, device, served_precision)) is not None:
            text += float_fit
        layout = sharding_citation(sharded) if sharded is not None and sharded_copy(profile, sharded) else None
        lines.append(line(text, *cites, *((layout,) if layout is not None else ())))
    return tuple(lines)


def left_out(profile: Profile) -> str:
    """' (the UNet alone; its two text encoders ... load besides)' where the catalogue's size counts one part of a
    pipeline (review 264 p10: SDXL's 2.6B read as the whole app's memory), else ''."""
    known = size_of(profile.model_name) if profile.model_name is not None and profile.parameters_b is None else None
    return f" ({known.besides})" if known is not None and known.besides else ""


def text_encoder_note(
    parameters: float, profile: Profile, device: Device, served_precision: str | None, sharded: Stack | None
) -> str | None:
    """For a diffusion pipeline whose catalogue entry names a text encoder (FLUX.2's Mistral Small 3.1, 24B): the
    encoder's bf16 weights beside the transformer's, against one device's share where each device holds a copy of the
    pipeline (review 141 p03: FLUX.2-dev on an L40S "fits" while its encoder alone takes 48 GB)."""
    known = size_of(profile.model_name) if profile.model_name else None
    if known is None or known.text_encoder is None or device.memory_gb is None or sharded_copy(profile, sharded):
        return None
    encoder = known.text_encoder
    encoder_gb = served_weights_gb(encoder.parameters_b, "none")
    total = served_weights_gb(parameters, served_precision or profile.needs.quantization) + encoder_gb
    one = device.memory_gb * ENGINE_MEMORY_SHARE
    said = f"; its text encoder ({encoder.name}, {encoder.parameters_b:g}B) adds about {_gb(encoder_gb)} in bf16"
    if total <= one:
        return f"{said}, {_gb(total)} with the transformer, within one {device.name}'s {_gb(one)}"
    return (
        f"{said}, {_gb(total)} with the transformer, more than one {device.name}'s {_gb(one)}: quantize the encoder, "
        "offload it to the CPU or run it on another device or endpoint (the pipeline encodes each prompt once), or "
        "the pipeline does not load"
    )


def float_also_fits(parameters: float, profile: Profile, device: Device, served_precision: str | None) -> str | None:
    """For a model served quantized whose bf16 weights would fit the same devices with half of their memory left:
    the quantization buys cache room and speed here, not the fit (a 72B model in FP8 on two 192 GB cards)."""
    served = served_precision or profile.needs.quantization
    if not profile.needs.quantized or served in FLOAT_PRECISIONS:
        return None
    assert device.memory_gb is not None
    usable = profile.needs.devices * device.memory_gb * ENGINE_MEMORY_SHARE
    in_bf16 = served_weights_gb(parameters, "bf16")
    if in_bf16 > usable * KV_CACHE_HALF:
        return None
    buys = (  # a float format the device has no units for runs weight-only (FP8 on an A100): its GEMMs stay 16-bit
        "room and speed"
        if served in device.formats or not served.startswith("fp")
        else f"room and weight bandwidth (only the weights are {served} on the {device.name}; its GEMMs run in 16-bit)"
    )
    devices = profile.needs.devices
    floats, quantized = replica_group(profile, device, "bf16"), replica_group(profile, device, served)
    copies = (  # reviews 268 p06, 270 p06: "fit as well" beside a switch counting half as many bf16 copies
        f" in fewer copies (the job's {devices} hold {devices // floats} in bf16 against {devices // quantized} in "
        f"{served}, each with half its memory for the KV cache)"
        if floats is not None and quantized is not None and devices // floats < devices // quantized
        else ""
    )
    return (
        f"; in bf16 they would take about {_gb(in_bf16)} and fit as well{copies}, so {served} buys {buys} here, not "
        "the fit: weigh it against the bf16 model's accuracy"
    )


def one_device_holds(profile: Profile, device: Device | None, gb_for: Callable[[float], float]) -> bool | None:
    """Whether one device's usable memory holds `gb_for(parameters)` GB; None where the size or memory is unknown."""
    parameters = model_parameters_b(profile)
    if parameters is None or device is None or device.memory_gb is None:
        return None
    return gb_for(parameters) <= device.memory_gb * ENGINE_MEMORY_SHARE


def frozen_copy_fits_one_device(profile: Profile, device: Device | None) -> bool:
    """A LoRA job's frozen bf16 weights fit one device's usable memory (False where the size or memory is unknown):
    each device then holds a copy and the job is data parallel."""
    return one_device_holds(profile, device, lambda parameters: FROZEN_BYTES_PER_PARAMETER * parameters) is True


def training_state_outgrows_one_device(profile: Profile, device: Device | None) -> bool:
    """A training job whose state (weights, gradients and optimizer state; for LoRA the frozen weights, review 152 p08:
    Qwen3-32B's 64 GB on 58 GB cards) exceeds one device's usable memory (False where the size or memory is unknown): a
    recipe that copies the state to every device (plain data parallelism) does not start as written."""
    if profile.needs.devices < 2:
        return False
    return one_device_holds(profile, device, lambda parameters: training_bytes(profile.training) * parameters) is False


def devices_to_hold(profile: Profile, device: Device | None, precision: str) -> tuple[float, int] | None:
    """The served weights' size in GB and the fewest of these devices whose usable memory holds them (before any KV
    cache); None where the model's size or the device's memory is unknown."""
    parameters = model_parameters_b(profile)
    if parameters is None or device is None or device.memory_gb is None:
        return None
    weights = served_weights_gb(parameters, precision)
    return weights, max(1, math.ceil(weights / (device.memory_gb * ENGINE_MEMORY_SHARE)))


def copy_fits_one_device(profile: Profile, device: Device | None) -> bool:
    """A served model's weights fit one device's usable memory (True where its size or the memory is unknown): a model
    that is not an LLM is then served as a copy per device, with nothing passing between them."""
    precision = profile.needs.quantization
    return one_device_holds(profile, device, lambda parameters: served_weights_gb(parameters, precision)) is not False


def short_of_memory(profile: Profile, device: Device | None, served_precision: str | None = None) -> tuple[str, ...]:
    """The workloads whose model state does not fit the usable memory of the profile's devices ('training', 'serving'),
    by the same arithmetic as the capacity lines; empty where it fits or cannot be checked."""
    parameters = model_parameters_b(profile)
    if parameters is None or device is None or device.memory_gb is None:
        return ()
    usable = profile.needs.devices * device.memory_gb * ENGINE_MEMORY_SHARE
    short = []
    if profile.trains and training_bytes(profile.training) * parameters > usable:
        short.append("training")
    precision = served_precision or profile.needs.quantization
    served = served_weights_gb(parameters, precision)
    if profile.serves and (served > usable or cramped_for_long_context(profile, usable, served)):
        short.append("serving")
    return tuple(short)


# A long-context LLM service whose weights leave less than this share of the engine's memory for the KV cache cannot
# hold its long sequences: the capacity line says so and the verdict puts it first.
LONG_CONTEXT_KV_SHARE = 0.15


def cramped_for_long_context(profile: Profile, usable: float, weights: float) -> bool:
    """A long-context LLM served where the weights leave less than LONG_CONTEXT_KV_SHARE of the engine's memory."""
    return (
        profile.llm
        and profile.needs.long_context
        and weights <= usable
        and usable - weights < usable * LONG_CONTEXT_KV_SHARE
    )


SHORT_OF_MEMORY_FACTOR = 0.8  # a plan whose devices cannot hold the model state is less sure by a fifth


def with_capacity(confidence: float, notes: Sequence[str], short: Sequence[str]) -> tuple[float, tuple[str, ...]]:
    """The confidence lowered where the profile's devices cannot hold the model state, with the note saying why."""
    if not short:
        return confidence, tuple(notes)
    note = (
        f"the profile's devices cannot hold the {' and '.join(short)} state (see capacity): the plan needs more devices "
        "or a smaller footprint, which lowers the confidence by a fifth"
    )
    first = [
        n.replace("fitting the whole profile", "fitting the profile's needs but not its devices") for n in notes[:1]
    ]
    return round(confidence * SHORT_OF_MEMORY_FACTOR, 2), (*first, *notes[1:], note)


def _gb(value: float) -> str:
    """'70 GB'; under 1 GB in MB ('about 0 GB' read as nothing for a ResNet-50)."""
    return f"{value:,.0f} GB" if value >= 1 else f"{max(value * 1000, 1):,.0f} MB"


def training_bytes(kind: str | None, reference: bool = True) -> int:
    """Bytes per parameter a training job holds: the frozen bf16 weights for LoRA (its adapters are a few percent at
    most), weights, gradients and Adam state otherwise, and for RL post-training a frozen bf16 reference copy of the
    policy besides (the KL term's), unless `reference` is False (a recipe that runs no KL term loads none)."""
    if kind == "lora":
        return FROZEN_BYTES_PER_PARAMETER
    return TRAINING_BYTES_PER_PARAMETER + (FROZEN_BYTES_PER_PARAMETER if kind == "rl" and reference else 0)


def training_text(
    parameters: float,
    devices: int,
    device: Device,
    node_devices: int,
    kind: str | None = None,
    reference: bool = True,
) -> str:
    """A training job's weights (and for full-parameter training gradients and optimizer state, for RL a reference
    copy too, where the recipe runs a KL term: `reference`) against the devices' memory."""
    assert device.memory_gb is not None
    lora = kind == "lora"
    held = training_bytes(kind, reference) * parameters
    memory = devices * device.memory_gb
    if lora:
        what = (
            f"capacity: LoRA fine-tuning of a {parameters:g}B model holds about {_gb(held)} of frozen bf16 weights "
            "plus small adapters with their gradients and Adam state (before activations)"
        )
    elif kind == "rl" and not reference:
        what = (
            f"capacity: RL post-training of a {parameters:g}B model holds about {_gb(held)} in the policy's weights, "
            f"gradients and Adam state ({training_bytes(kind, reference)} bytes per parameter; the recipe runs no KL "
            "term, so it loads no frozen reference copy), before activations and the rollout engine's weights and KV "
            "cache, which colocated rollouts take from the same devices"
        )
    elif kind == "rl":
        what = (
            f"capacity: RL post-training of a {parameters:g}B model holds about {_gb(held)} in the policy's weights, "
            f"gradients and Adam state plus a frozen bf16 reference copy ({training_bytes(kind)} bytes per parameter, "
            "before activations and the rollout engine's weights and KV cache, which colocated rollouts take from the "
            "same devices)"
        )
    else:
        what = (
            f"capacity: full-parameter training of a {parameters:g}B model holds about {_gb(held)} in weights, "
            f"gradients and Adam state ({TRAINING_BYTES_PER_PARAMETER} bytes per parameter in mixed precision, before "
            "activations)"
        )
    usable = memory * ENGINE_MEMORY_SHARE
    one_device = device.memory_gb * ENGINE_MEMORY_SHARE
    if held <= usable * TIGHT_TRAINING_SHARE:
        sharded = (
            f"; more than one device's usable {_gb(one_device)}, so the frozen weights are sharded (ZeRO-3/FSDP) or "
            "split (tensor or pipeline parallel) rather than copied to each device"
            if lora and devices > 1 and held > one_device
            else f"; more than one device's usable {_gb(one_device)}, so this state must be sharded over the devices "
            f"({sharding_needed(parameters, held, devices, one_device)}), since plain data parallelism copies it to "
            "every device"
            if not lora and devices > 1 and held > one_device
            else ""
        )
        return f"{what}, within the {_gb(memory)} of {devices} x {device.name}{sharded}: the rest is for activations"
    if held <= usable:  # fits on paper, with little left for activations
        return (
            f"{what}, within the {_gb(memory)} of {devices} x {device.name} but leaving only about "
            f"{_gb(usable - held)} of the usable {_gb(usable)} (90%) for activations, which long sequences or large "
            "micro-batches exceed: plan on activation checkpointing and ZeRO-3/FSDP sharding, or more devices, and "
            "check the first steps' peak memory"
        )
    needed = math.ceil(held / (device.memory_gb * ENGINE_MEMORY_SHARE))
    roomy = math.ceil(held / (device.memory_gb * ENGINE_MEMORY_SHARE * (1 - ACTIVATION_SHARE)))
    if needed <= node_devices:  # one node holds it: say the devices, not "1 nodes"
        where = f"at least {needed} devices (the profile names {devices})"
    else:
        nodes = math.ceil(held / (node_devices * device.memory_gb * ENGINE_MEMORY_SHARE))
        room_nodes = math.ceil(roomy / node_devices)
        where = (
            f"at least {nodes} nodes of {node_devices} ({nodes * node_devices} devices; the profile names {devices}) for "
            f"the state alone, which leaves little for activations; with a fifth of each device kept for them, "
            f"{room_nodes} nodes ({room_nodes * node_devices} devices)"
        )
    frozen = FROZEN_BYTES_PER_PARAMETER * parameters
    if lora:
        return (
            f"{what}, more than the {_gb(usable)} usable (90%) of the {_gb(memory)} on {devices} x {device.name}: "
            f"shard the frozen weights over {where}, or quantize them (QLoRA)"
        )
    return (
        f"{what}, more than the {_gb(usable)} usable (90%) of the {_gb(memory)} on {devices} x {device.name}: shard it "
        f"over {where} with ZeRO-3/FSDP or tensor, pipeline and expert parallelism, or fine-tune with LoRA, which "
        f"holds the frozen weights ({_gb(frozen)} in bf16) and small adapters; on these devices alone, offloading "
        f"the optimizer state to host memory (ZeRO-Offload) leaves about {_gb(OFFLOADED_BYTES_PER_PARAMETER * parameters)} "
        "of bf16 weights and gradients on them, at the cost of host-device traffic every step"
    )


def zero2_per_device(profile: Profile, device: Device | None) -> tuple[float, float] | None:
    """A full-parameter training job's state per device under ZeRO stage 2 (the bf16 weights whole on each device,
    gradients and optimizer state split over them) and a device's usable memory, in GB; None where the model's size,
    the device's memory or the kind of training (LoRA, frozen weights) makes it moot."""
    parameters = model_parameters_b(profile)
    if parameters is None or device is None or device.memory_gb is None or profile.training == "lora":
        return None
    held = training_bytes(profile.training) * parameters
    weights = FROZEN_BYTES_PER_PARAMETER * parameters
    return weights + (held - weights) / profile.needs.devices, device.memory_gb * ENGINE_MEMORY_SHARE


def sharding_needed(parameters: float, held: float, devices: int, one_device: float) -> str:
    """How far a training state larger than one device must be sharded: ZeRO stage 2 (gradients and optimizer state
    split, the bf16 weights whole on each device) where that fits a device, with what it leaves for activations (a
    recipe running it is not contradicted), else ZeRO-3/FSDP."""
    weights = FROZEN_BYTES_PER_PARAMETER * parameters
    zero2 = weights + (held - weights) / devices
    if zero2 <= one_device:
        return (
            "by the training framework's own scheme; even one that keeps the bf16 weights whole on each device and "
            f"splits the rest (ZeRO stage 2, or a distributed optimizer alone) holds about {_gb(zero2)} of each "
            f"device's usable {_gb(one_device)}, leaving {_gb(one_device - zero2)} for activations, and tensor, "
            "pipeline or fully sharded data parallelism (FSDP, ZeRO-3) holds less"
        )
    return (
        "by tensor and pipeline parallelism or fully sharded data parallelism (FSDP, ZeRO-3): a scheme that keeps the "
        f"bf16 weights whole on each device (ZeRO stage 2) would hold about {_gb(zero2)} per device"
    )


def sharded_copy(profile: Profile, sharded: Stack | None) -> bool:
    """A model that is not an LLM, served on several devices by a stack that splits each copy over them."""
    return sharded is not None and sharded.sharded_serving is not None and not profile.llm and profile.needs.devices > 1


def sharding_citation(stack: Stack) -> Citation:
    """The stack's `sharded_serving` claim, as the capacity line cites it."""
    return cite_stack_claim(stack, "sharded_serving")


def serving_text(
    parameters: float,
    profile: Profile,
    device: Device,
    served_precision: str | None = None,
    sharded: Stack | None = None,
    page_devices: int | None = None,
) -> str:
    """The weights at the precision served against the share of memory an engine takes; for an LLM the rest is KV
    cache, for other models (a diffusion transformer, a CNN) activations, in a copy per device unless the chosen stack
    (`sharded`) splits each copy over several devices; replicas of the serving page's own device count
    (`page_devices`) where it holds the weights on part of the job's devices."""
    assert device.memory_gb is not None
    devices, precision = profile.needs.devices, served_precision or profile.needs.quantization
    weights = served_weights_gb(parameters, precision)
    usable = devices * device.memory_gb * ENGINE_MEMORY_SHARE
    what = f"capacity: the {parameters:g}B model's weights{left_out(profile)} take about {_gb(weights)} in {_format(precision)}"
    asked = profile.needs.quantization
    if asked != "none" and precision not in PRECISIONS_FOR[asked]:
        what += f" (the format the chosen stack serves here; {asked} was asked)"
    if weights <= usable and profile.embeds:
        return (
            f"{what}, of the {_gb(usable)} {devices} x {device.name} offer at 90% of their memory: an embedding model "
            "decodes nothing and keeps no KV cache, so the rest is for the activations of the batched inputs"
        )
    if weights <= usable and profile.serving_task == "transcription":
        return (
            f"{what}, of the {_gb(usable)} {devices} x {device.name} offer at 90% of their memory: a speech model's "
            "decoder writes a few hundred tokens at most per request, so any cache it keeps is short, and the rest is "
            "for the activations of the batched audio"
        )
    if sharded_copy(profile, sharded) and weights <= usable:  # the stack's own layout, not a copy per device
        assert sharded is not None and sharded.sharded_serving is not None
        return (
            f"{what}, of the {_gb(usable)} {devices} x {device.name} offer at 90% of their memory; the chosen stack "
            "does not give each device its own copy but splits each copy over several devices ("
            f"{sharded.sharded_serving.value.rstrip('.')}), so each device holds a share of the weights and the rest "
            "of its memory is for activations"
        )
    if not profile.llm and devices > 1 and weights <= usable:  # served as a copy per device, where one fits
        one = device.memory_gb * ENGINE_MEMORY_SHARE
        if weights <= one:
            others = (
                " and the pipeline's other models (text encoders, VAE), which every copy holds too"
                if profile.model_type == "diffusion"
                else ""
            )
            return (
                f"{what}, within one {device.name}'s {_gb(one)} usable (90% of its memory): each of the {devices} "
                f"devices serves its own copy (data parallel), and the rest of each is for activations{others}"
            )
        return (
            f"{what}, more than one {device.name}'s {_gb(one)} usable (90% of its memory): a copy per device does not "
            f"fit, so the {devices} devices serve one copy sharded across them (the stack's sharding or "
            "tensor-parallel mode), or the pipeline's other models wait in host memory"
        )
    if weights <= usable and not profile.llm:
        return (
            f"{what}, of the {_gb(usable)} {devices} x {device.name} offer at 90% of their memory: the rest is for "
            "activations and the pipeline's other models"
        )
    if weights <= usable:
        text = (
            f"{what}, of the {_gb(usable)} an engine uses on {devices} x {device.name} (90% of their memory), leaving about "
            f"{_gb(usable - weights)} for the KV cache"
        )
        if cramped_for_long_context(profile, usable, weights):
            text += (
                f", under {LONG_CONTEXT_KV_SHARE:.0%} of the engine's share: too little for the long context asked, "
                "since each long sequence holds gigabytes of KV cache; add devices or serve a lower-precision "
                "checkpoint first"
            )
        node = node_size(device)
        group = replica_size(weights, device.memory_gb, devices, node)
        # the page's own degree where it holds the weights (review 236 p06: bf16 Qwen3-30B-A3B, 60 GB, said to fit "on 1
        # device" of 58 GB usable, the page's one-device layout being its W8A8 one)
        held_by_page = page_devices is not None and page_holds(weights, device.memory_gb, devices, page_devices)
        size = min(group, page_devices) if held_by_page and page_devices is not None else group
        if training_fleet(profile, size):
            return text + (
                f"; one copy fits on {size} device{'s' if size > 1 else ''}, so the {devices} devices are the "
                f"training run's: serve with as many copies of {size} as the traffic needs, sized by a throughput run "
                "at the SLA"
            )
        if (
            page_devices is not None
            and page_devices != group
            and page_holds(weights, device.memory_gb, devices, page_devices)
        ):  # the page's own layout is the replica, fewer devices than half-for-the-cache takes or more
            left = page_devices * device.memory_gb * ENGINE_MEMORY_SHARE - weights
            text += (
                f"; the serving page runs this model on {page_devices} device{'s' if page_devices > 1 else ''}, "
                f"leaving about {_gb(left)} there for the KV cache, so the {devices} devices can serve as "
                f"{devices // page_devices} replicas of {page_devices} (data parallel) as the page does, which a "
                f"throughput run at the SLA weighs against one model split {devices} ways"
            )
        elif group == node < devices and weights > group * device.memory_gb * ENGINE_MEMORY_SHARE * KV_CACHE_HALF:
            left = group * device.memory_gb * ENGINE_MEMORY_SHARE - weights
            text += (
                f"; they fit one node of {group} with about {_gb(left)} left there for the KV cache, so the {devices} "
                f"devices can serve as {devices // group} replicas, one per node, with no collectives across nodes, "
                f"which a throughput run at the SLA weighs against one model split {devices} ways"
            )
        elif group < devices:
            text += (
                f"; they fit on {group} device{'s' if group > 1 else ''} with half of that memory left for the KV cache, "
                f"so the {devices} devices can serve as {devices // group} replicas of {group} (data parallel), "
                f"which a throughput run at the SLA weighs against one model split {devices} ways"
            )
        return text
    needed = math.ceil(weights / (device.memory_gb * ENGINE_MEMORY_SHARE))
    lower = " or a lower precision" if precision in ("none", "bf16", "fp16", "fp32", "tf32") else ""
    return (
        f"{what}, more than the {_gb(usable)} an engine uses on {devices} x {device.name} (90% of their memory): it needs at "
        f"least {needed} such devices{lower}" + (", before any KV cache" if profile.llm else "")
    )


def served_weights_gb(parameters: float, precision: str) -> float:
    """The weights' size in GB at the format served (2 bytes a weight where the format is not listed)."""
    return SERVING_BYTES_PER_PARAMETER.get(precision, 2) * parameters


def replica_size(weights_gb: float, memory_gb: float, devices: int, node: int | None = None) -> int:
    """The fewest devices, a power of two dividing `devices`, whose engine share holds the weights in half of it (the
    other half for the KV cache); else, for a job over several nodes, one whole node where it holds the weights with
    NODE_KV_SHARE of it left (a replica per node keeps its collectives inside the node); `devices` otherwise."""
    group = 1
    while group < devices:
        if devices % group == 0 and weights_gb <= group * memory_gb * ENGINE_MEMORY_SHARE * KV_CACHE_HALF:
            return group
        group *= 2
    whole_nodes = node is not None and node < devices and devices % node == 0
    if whole_nodes and node is not None and weights_gb <= node * memory_gb * ENGINE_MEMORY_SHARE * (1 - NODE_KV_SHARE):
        return node
    return devices


def _format(precision: str) -> str:
    return "bf16" if precision == "none" else precision


def replica_group(
    profile: Profile, device: Device | None, served_precision: str | None = None, page_devices: int | None = None
) -> int | None:
    """For an LLM served on several devices whose weights fit fewer of them with half their memory left for the KV
    cache: the devices per replica (the serving line's 'replicas of N'); None otherwise. `page_devices`: the devices the
    serving page written for this model runs it on, which is the replica wherever it holds the weights on part of the
    job's devices, fewer devices than that rule takes (review 173 p06: SGLang's Qwen3-30B-A3B on one A3 card, TP 2, not
    4 replicas of 4) or more (review 196 p12: vLLM Neuron's TP 16 on 4 Trn2 chips, not 8 replicas of 2)."""
    parameters = model_parameters_b(profile)
    if parameters is None or device is None or device.memory_gb is None or not (profile.serves and profile.llm):
        return None
    weights = served_weights_gb(parameters, served_precision or profile.needs.quantization)
    if weights > profile.needs.devices * device.memory_gb * ENGINE_MEMORY_SHARE:
        return None
    group = replica_size(weights, device.memory_gb, profile.needs.devices, node_size(device))
    if page_devices is not None and page_holds(weights, device.memory_gb, profile.needs.devices, page_devices):
        group = page_devices
    return group if group < profile.needs.devices else None


def training_fleet(profile: Profile, copy_devices: int) -> bool:
    """A job that trains and serves whose device count holds more copies of the served model than a node has devices:
    those are the training run's devices, and the serving fleet follows the traffic (review 216 p07: an 8B model as
    "128 replicas of 2" on the 256 chips of its pre-training run)."""
    return profile.trains and profile.needs.devices // copy_devices > NODE_DEVICES


def page_holds(weights_gb: float, memory_gb: float, devices: int, page_devices: int) -> bool:
    """The page's replica size divides the job's devices, is fewer of them, and holds the weights in an engine's
    share of its memory."""
    fits = weights_gb <= page_devices * memory_gb * ENGINE_MEMORY_SHARE
    return 0 < page_devices < devices and devices % page_devices == 0 and fits
