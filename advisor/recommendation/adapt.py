"""Tier 1 from the chosen stack: each concern a stack component decides takes that component, as the stack sets it.

The per-concern rules still run (they read the evidence, give the reasons, the rejections and the switch
conditions), but where the chosen stack names a part for a concern, tier 1 keeps the stack's part so the
pieces stay the way the vendor validated them together:
- a part with a knowledge-base candidate is chosen as that candidate;
- a kernel part without one (the engine's own attention kernels) is chosen as the runner that ships it;
- a runner without a candidate (xDiT, mflux) is chosen by its name, marked as a part of the stack;
- a graph runtime or framework that runs the model brings its own kernels for the concerns the stack does not name.
On-target evidence still sets the dtype within the stack; without it the GEMM runs the precision asked, or the
stack's default float format.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from advisor.knowledge.claims import Claim
from advisor.knowledge.model_sizes import (
    PublishedCheckpoint,
    catalogued_release,
    context_window,
    fp8_checkpoint_ids,
    published_checkpoints,
    published_fp8,
    published_qat,
    quantized_release,
    size_of,
    vendor_fp8,
    written_for,
)
from advisor.knowledge.models import CONCERNS, SERVING_LAYERS, SUPPORT_CLAIMS, Candidate, KnowledgeBase
from advisor.knowledge.platforms import Device, ranks_of
from advisor.knowledge.stacks import RUNNER_ROLES, Component, Stack
from advisor.profile import Profile
from advisor.recommendation.capacity import model_parameters_b, replica_group, training_state_outgrows_one_device
from advisor.recommendation.citations import (
    cite_claim,
    cite_compatibility,
    cite_format,
    cite_platform,
    cite_profile,
    cite_qat_release,
    cite_release,
    cite_stack,
    cite_stack_claim,
    format_support,
    line,
    note_for_family,
)
from advisor.recommendation.context import RuleContext
from advisor.recommendation.models import AS_RELEASED, Choice, Citation, Gap, Rationale, SkippedConcern, Tier
from advisor.recommendation.policy import (
    DATA_PARALLEL_TRAINING,
    EIGHT_BIT_FORMATS,
    FINE_TUNING_KINDS,
    FLOAT_PRECISIONS,
    FOUR_BIT_ASKS,
    FOUR_BIT_FLOATS,
    FULL_PRECISIONS,
    LOWER_PRECISIONS,
    MIXED_FORMATS,
    PRECISIONS_FOR,
    ROLE_CONCERNS,
    RUNNER_KERNEL_ROLES,
    RUNTIME_KERNEL_CONCERNS,
    RUNTIME_KERNEL_LAYERS,
    SETTING_ROLES,
    SKILL_ORDER,
    TOO_FAR,
    data_parallel_over,
    near_size,
)
from advisor.recommendation.scope import carried_here
from advisor.recommendation.served_format import block_scaled_fp8, checkpoint_makers, loadable_int8_release
from advisor.recommendation.stack import LARGE_TRAINING_DEVICES
from advisor.recommendation.stack_choice import (
    OTHER_GENERATION_KINDS,
    QAT_WORDS,
    RUNNER_CONCERNS,
    SEQUENCE_CAP,
    Judged,
    StackChoice,
    fake_quantized_training,
    few_of,
    fine_tuning_tool,
    other_precision,
    quantizes_after_training,
    requantization_of,
    rollout_engines,
    runner_concern,
    runner_of,
    runner_roles,
    training_framework,
)
from advisor.recommendation.tiers import COMMUNITY_TIER1_NAME, INDEPENDENT_TIER1_NAME
from advisor.vocabulary import WEIGHT_ONLY_ASKS

# A serving command's tensor-parallel size: '--tp-size 8', '--tp 8', '--tensor-parallel-size 8', '-tp 8'.
TENSOR_PARALLEL = re.compile(r"(?:--tp-size|--tp|--tensor-parallel-size|-tp)[ =](\d+)\b")
LLM_WORD = re.compile(r"\bLLMs?\b")
BENEATH_LAYERS = ("platform-sdk", "compiler")  # what a runner the knowledge base does not list may run on
MAX_REASONS = 4  # reasons of one tier-1 choice, besides its risks to watch
MAX_KEPT_REASONS = 3  # the rule's own reasons kept with the stack's, where both choose the same option
# The words a setting names a format by, and the precision each means (GGUF's Q4_0 is int4 weights, Q8_0 int8).
FORMAT_WORDS: dict[str, str] = {
    "MXFP8": "mxfp8",
    "MXFP4": "mxfp4",
    "NVFP4": "nvfp4",
    "FP4": "nvfp4",
    "FP8": "fp8",
    "INT8": "int8",
    "W8A8": "int8",
    "Q8_0": "int8",
    "INT4": "int4",
    "W4A16": "int4",
    "W4A8": "int4",
    "W4A4": "int4",
    "Q4_0": "int4",
}
FORMAT_WORDS_RE = re.compile(r"\b(?:" + "|".join(FORMAT_WORDS) + r")\b", re.IGNORECASE)
DTYPE_WORDS = re.compile(r"\b(?:bf16|fp16|fp32|tf32|half-precision default)\b", re.IGNORECASE)
QUANTIZED_SETTINGS = ("granularity",)  # a rule's quantization detail that a stack's own format replaces
# A weight-scale granularity a part's documented setting states ("one FP16 scale per block of 32 weights"): it replaces
# the rule's default (per-channel INT8) for that part.
GRANULARITY_WORDS = re.compile(r"\bper[- ](?:block|group) of \d+ weights\b", re.IGNORECASE)
SCALE_WORDS = re.compile(r"\bper[- ](?:tensor|channel|token|group|block)\b", re.IGNORECASE)
ACTIVATION_SETTINGS = (
    "layernorm",
)  # a rule's activation-quantization detail, moot where only the weights are quantized


@dataclass(frozen=True)
class Part:
    """What the stack puts in one concern: the option (a candidate id, or the part's name when unknown)."""

    option: str
    component: Component
    known: bool = True


def part_settings(part: Part, context: RuleContext, precision: str | None = None) -> dict[str, str]:
    """How the stack uses a part: its name where the option is another thing (the runner's own kernels), its setting
    (without the clauses about a precision this profile does not run)."""
    component, settings = part.component, {}
    if part.known and (component.candidate is None or context.knowledge.get(part.option).name not in component.name):
        settings["part"] = component.name
    documented = in_precision(component.setting, precision) if component.setting else ""
    if (
        not context.profile.llm
    ):  # a clause for LLMs (torchao's LLM linear configs) says nothing to a CNN or diffusion job
        documented = "; ".join(clause for clause in documented.split("; ") if not LLM_WORD.search(clause))
    if documented:
        settings["as documented"] = documented
    if component.role == "serving-engine" and (
        wider := wider_layout(documented, context.profile.needs.devices, context.device)
    ):
        settings["devices"] = wider
    if component.role == "serving-engine" and (short := shorter_context(documented, context.profile)):
        settings["context"] = short
    return settings


def shorter_context(setting: str, profile: Profile) -> str | None:
    """Where the page's command caps sequences below what the profile serves (its ISL + OSL), what to change: the
    recipe's cap was sized for its own benchmark's traffic."""
    caps = [int(cap) for cap in SEQUENCE_CAP.findall(setting)]
    if not caps or profile.serving is None:
        return None
    needed = profile.serving.isl + profile.serving.osl
    if max(caps) >= needed:
        return None
    return (
        f"the page's command caps sequences at {max(caps)} tokens; this profile serves {profile.serving.isl} in + "
        f"{profile.serving.osl} out: raise the cap to at least {needed} and check that the KV cache still fits"
    )


EXPERT_PARALLEL_SIZE = re.compile(r"(?:--ep-size|--ep|--expert-parallel-size)[ =]\d+\b")


def wider_layout(setting: str, devices: int, device: Device | None = None) -> str | None:
    """Where every tensor-parallel size the page's command names is larger than the job's devices (SGLang's GLM-4.6
    command with --tp-size 8 for a 4-GPU job): what to change, since the command as written does not start there. On a
    device that presents several ranks (a Trainium2 chip's four logical NeuronCores) the sizes count ranks."""
    sizes = [int(size) for size in TENSOR_PARALLEL.findall(setting)]
    ranks = ranks_of(device)
    if sizes and sizes[0] > devices * ranks >= min(sizes):
        # the page's first command, the one a model is put into, is wider than the job, though other lines of it fit
        # (review 137 p07: Hygon's Qwen3-30B-A3B -tp 2 line for a 14B model on one K100_AI, beside its -tp 1 lines)
        width = (
            "tensor parallel 1, as its single-device lines run"
            if devices * ranks == 1
            else f"the tensor-parallel size its lines give a model of this size, at most {devices * ranks}"
        )
        return (
            f"the page's first command splits its model {sizes[0]} ways; this job has {devices} device(s): take "
            f"{width}, once the capacity check shows the weights fit there"
        )
    if not sizes or min(sizes) <= devices * ranks:
        return None
    expert = " (and its expert-parallel size with it)" if EXPERT_PARALLEL_SIZE.search(setting) else ""
    size = min(sizes)
    if device is not None and ranks > 1:
        return (
            f"the page's command splits the model over {size} {device.rank_name} ({size / ranks:g} devices at "
            f"{ranks} each); this job has {devices} device(s), {devices * ranks} {device.rank_name}: set it{expert} "
            f"to {devices * ranks}, once the capacity check shows the weights fit there"
        )
    collective = sorted(set(COLLECTIVE_SETTING.findall(setting))) if devices == 1 else []
    tune = "tunes" if len(collective) == 1 else "tune"
    dropped = f", and drop {', '.join(collective)}, which {tune} collectives a one-device job does not run"
    return (
        f"the page's command splits the model {size} ways (tensor parallel {size}); this job has {devices} "
        f"device(s): set it{expert} to {devices}, once the capacity check shows the weights fit there"
        + (dropped if collective else "")
    )


# An environment setting that tunes collectives (all-reduce compression, NCCL/RCCL knobs): nothing on one device
# (reviews 135-137 p03: VLLM_ROCM_QUICK_REDUCE_QUANTIZATION=INT4 kept for a one-GPU job).
COLLECTIVE_SETTING = re.compile(r"\b(\w*(?:QUICK_REDUCE|ALLREDUCE|ALL_REDUCE|NCCL_|RCCL_)\w*)=\S+")


def in_precision(setting: str, precision: str | None) -> str:
    """A setting's '; '-separated clauses, less those that name only formats other than the one run (an MXFP4 flag in
    a BF16 run, Q4_0 weights in an int8 one); empty where every clause is about another format."""
    if precision is None:
        return setting
    clauses = top_level_clauses(setting)
    return "; ".join(c for c in clauses if launch_command(c) or not other_format_only(c, precision))


def top_level_clauses(setting: str) -> list[str]:
    """A setting's '; '-separated clauses, a parenthesis kept whole with the clause it belongs to."""
    clauses, depth, start = [], 0, 0
    for index, char in enumerate(setting):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0 and setting.startswith("; ", index):
            clauses.append(setting[start:index])
            start = index + 2
    return [*clauses, setting[start:]]


LAUNCH = re.compile(r"\b(?:vllm|sglang|trtllm-)?serve\b[^;]*\s--[a-z]", re.IGNORECASE)


def launch_command(clause: str) -> bool:
    """A clause holding the page's serving launch ('vllm serve <model> --tensor-parallel-size 16 ...'): kept whatever
    format its checkpoint is in, since its layout flags hold for the format run too, and the precision setting says
    which quantization flags to leave out (review 101 p05: the TP 16 NeuronCore launch dropped for a BF16 run)."""
    return LAUNCH.search(clause) is not None


def other_format_only(text: str, precision: str) -> bool:
    """The text names formats, none of them the one run (Q4_0 weights in an int8 run, an MXFP4 flag in a BF16 one)."""
    named = {FORMAT_WORDS[word.upper()] for word in FORMAT_WORDS_RE.findall(text)}
    return bool(named) and precision not in named and precision.upper() not in text.upper()


def part_choice(
    concern: str,
    part: Part,
    judged: Judged,
    context: RuleContext,
    previous: Choice | None,
    stack_alternatives: dict[str, tuple[str, ...]] | None = None,
) -> Choice:
    """The stack's part as the tier-1 choice; where the rule chose the same option its reasons (its evidence) and
    settings come first."""
    stack, component = judged.stack, part.component
    text = f"{component.name} in {stack.name}, as documented and validated together"
    reasons: list[Rationale] = [line(text, cite_stack(stack, component))]
    settings = part_settings(part, context, judged.precision)
    if previous is not None and previous.option == part.option:
        # the rule's reasons speak of the candidate as the runner: not of another framework running on it (Intel's
        # DeepSpeed fork on SynapseAI, whose parallelism is the fork's)
        runs_on_it = concern in RUNNER_CONCERNS and runs_beneath(part.option, concern, context)
        kept = [] if runs_on_it else [r for r in previous.rationale if not r.text.startswith("watch: ")]
        if (
            concern == "quantization"
            and component.setting
            and context.profile.model_type in stack.applies_to.model_types
        ):
            # a stack documented for this kind of model says how its own toolkit quantizes it
            kept = [r for r in kept if not borrowed(r, part.option, context)]
        reasons = [*kept[:MAX_KEPT_REASONS], *reasons]
        settings = {**settings, **previous.settings}
    settings = documented_granularity(settings)
    documented_line = settings.get("as documented", "")
    quantized = context.profile.needs.quantized
    model = served_model(context)
    release = quantized_release(model)
    if release is not None and judged.workload == "inference" and judged.precision in FLOAT_PRECISIONS:
        # a stack that serves the float format loads the float release the named one was made from (review 160 p08:
        # "model=Qwen/Qwen3-14B-AWQ" on a bf16 route, whose capacity counted 28 GB in bf16)
        model = release[1]
    if (swap := model_in_command(documented_line, stack, model, quantized)) is not None:
        settings = {**settings, "model": another_pipelines_trainer(swap, judged, context) or swap}
    elif (other := another_releases_download(documented_line, context.profile.model_name)) is not None:
        settings = {**settings, "checkpoint": other}
    if (template := other_models_template(documented_line, context.profile.model_name)) is not None:
        settings = {**settings, "template": template}
    fits = True
    if component.role in RUNNER_ROLES and part.known:
        skill = context.knowledge.get(part.option).skill.value
        fits = SKILL_ORDER.index(skill) <= SKILL_ORDER.index(context.profile.team_skill)
    alternatives = tuple(a for a in (stack_alternatives or {}).get(concern, ()) if a != part.option)
    return Choice(
        concern=concern,  # type: ignore[arg-type]
        option=part.option,
        settings=settings,
        rationale=tuple(reasons),
        alternatives=alternatives,
        fits_team=fits,
        part_of=None if part.known else stack.id,
    )


def pluggable(concern: str, engine: str, alternatives: Sequence[str], context: RuleContext) -> tuple[str, ...]:
    """Of other stacks' parts for a concern the engine does itself, those it can run in their place: an attention
    kernel among its own attention_kernels, a toolkit whose output it loads; none for another concern (reviews 223 and
    224: "tier 1 attention: tensorrt-llm, weighed against flash-attention", which TensorRT-LLM does not run)."""
    compatibility = context.knowledge.compatibility
    if concern == "attention":
        runs = set(compatibility.attention_kernels_of(engine))
    elif concern == "quantization":
        runs = set(compatibility.toolkits_loaded_by(engine))
    else:
        runs = set()
    return tuple(option for option in alternatives if option in runs)


# A checkpoint id naming its quantized format ("DeepSeek-R1-W8A8", "Qwen3-32B-AWQ"): a release quantized by its publisher.
QUANTIZED_RELEASE = re.compile(r"[-_.](w\d+a\d+|fp8|int[48]|awq|gptq|nvfp4|mxfp4|fp4)(?![a-z0-9])", re.IGNORECASE)


# The Hugging Face id a serving command loads: 'vllm serve <org/model>', '--model(-path) <org/model>'.
COMMAND_MODEL = re.compile(
    r"(?:\bserve|--model(?:[-_]path)?|--model_name_or_path)[ =]+([A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*)"
)


def served_model(context: RuleContext) -> str | None:
    """The model id a serving command loads for this profile: the publisher's FP8 release of the model named, where
    FP8 is asked and it is released so (Qwen3-235B-A22B-Instruct-2507-FP8), the family's vendor 4-bit release where
    FP4 is asked (nvidia/DeepSeek-V3.1-NVFP4 on B200), else the model named."""
    profile = context.profile
    named = profile.model_name
    if named is None or profile.trains or not profile.llm:
        return named
    if profile.needs.quantization == "fp4":  # review 163 p01: the NVFP4 command served the FP8 release
        four_bit = catalogued_release(named, profile.hardware, PRECISIONS_FOR["fp4"])
        return four_bit.checkpoint if four_bit is not None else named
    if profile.needs.quantization != "fp8":
        return named
    twin = published_fp8(named) or vendor_fp8(named, profile.hardware)
    return twin.checkpoint if twin is not None else named


def model_in_command(documented: str, stack: Stack, model: str | None, quantized: bool = True) -> str | None:
    """Where the page's command names one of the models it is written for (or, for a recipe written for any model, the
    example model its command serves) and the profile serves or trains another (DeepSeek-V3.1 on a recipe whose
    command loads DeepSeek-V3; Qwen3-8B on vLLM's Hopper page, whose command serves Llama-3.3-70B): what to put in
    its place. A pre-quantized release in the command is quantized likewise only where the profile asks a quantized
    format (`quantized`); otherwise the model goes in as it is (review 112 p12: "quantized to FP8 first" beside a bf16
    plan)."""
    if model is None or not documented:
        return None

    def names(text: str, model_id: str) -> bool:  # the whole id: 'DeepSeek-V3' is not named by 'DeepSeek-V3.1'
        return re.search(re.escape(model_id) + r"(?![\w.-])", text, re.IGNORECASE) is not None

    short = model.rsplit("/", 1)[-1].lower()
    # the models the recipe is written for, or else the example model a generic recipe's command serves
    listed = stack.applies_to.models or [found.group(1) for found in COMMAND_MODEL.finditer(documented)]

    def another_model(model_id: str) -> bool:
        return model_id.lower() != model.lower() and not model_id.rsplit("/", 1)[-1].lower().startswith(short)

    # (not a release of this model: its -FP8 checkpoint)
    named = [m for m in listed if names(documented, m) and another_model(m)]
    if not named and stack.applies_to.models:
        # a recipe written for a series ('Qwen/Qwen3') or for a model whose release its command loads
        # ('Qwen/Qwen3-235B-A22B-FP8' for Qwen/Qwen3-235B-A22B): the command's own model (reviews 109/110 p01)
        named = [found.group(1) for found in COMMAND_MODEL.finditer(documented) if another_model(found.group(1))]
    if not named and (converted := converted_file_swap(documented, model)) is not None:
        return converted
    if not named or names(documented, model) or names_own_release(documented, short):
        return None
    release = QUANTIZED_RELEASE.search(named[0].rsplit("/", 1)[-1])
    if release is not None and quantized and not QUANTIZED_RELEASE.search(short):  # it loads a pre-quantized release
        return (
            f"{model} quantized to {release.group(1).upper()} first (the command loads {named[0]}, a pre-quantized "
            f"release, so the model's own weights need the same quantization step) in place of {named[0]}"
        )
    return f"{model} in place of {named[0]}"


def another_pipelines_trainer(swap: str, judged: Judged, context: RuleContext) -> str | None:
    """For a diffusion model trained on another model's recipe: a diffusion family's trainer script and LoRA target
    modules are its own (DiffSynth-Studio's Qwen-Image trainer names Qwen-Image's layers), so the page's command takes
    the framework's trainer for this model, not only its id (review 144 p05: Wan2.2 on the Qwen-Image command)."""
    profile = context.profile
    if profile.model_type != "diffusion" or judged.workload != "training" or judged.written_for_this_model:
        return None
    if any(misfit.kind in ("same_architecture", "other_size") for misfit in judged.misfits):
        return None  # a recipe for the model's own architecture: its layers are this model's
    listed = few_of(judged.stack.applies_to.models)
    return (
        f"{swap}; the page's trainer script and LoRA target modules are for {listed}'s layers, not this model's: "
        f"take the framework's own trainer and target modules for {profile.model_name}, with the page's launch, "
        "precision and optimizer settings"
    )


HF_ID = re.compile(r"[A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*")


# A training config's chat template ('template: llama3' in LLaMA-Factory's examples): its family is its leading letters.
CHAT_TEMPLATE = re.compile(r"\btemplate: ([a-z][a-z0-9_]*)(?=[,;)])")


def other_models_template(documented: str, model: str | None) -> str | None:
    """Where a page's training config sets the chat template of another model family (a Llama 3 cookbook's
    'template: llama3') and the profile names a model of another family (Qwen2.5): what to set instead, since the
    template formats every training sample (reviews 109 p07, 112 p08)."""
    if model is None or not documented:
        return None
    found = CHAT_TEMPLATE.search(documented)
    if found is None:
        return None
    family = re.match(r"[a-z]+", found.group(1))
    name = model.rsplit("/", 1)[-1].lower().replace("-", "")
    if family is None or family.group(0) in name:
        return None
    return (
        f"the template LLaMA-Factory's supported-models table gives {model.rsplit('/', 1)[-1]}, not the page's "
        f"{found.group(1)}, which formats {family.group(0).capitalize()} conversations: a wrong template mis-formats every "
        "training sample"
    )


def another_releases_download(documented: str, model: str | None) -> str | None:
    """Where a page's setting names a quantized download of the model's base release ('Eco-Tech/Qwen3-30B-A3B-w8a8')
    and the profile names a later release of it with other weights (Qwen3-30B-A3B-Instruct-2507): that the download
    holds the other weights, and what to do instead (review 112 p06)."""
    if model is None or not documented:
        return None
    short = model.rsplit("/", 1)[-1].lower()
    for found in HF_ID.finditer(documented):
        tail = found.group(0).rsplit("/", 1)[-1]
        release = QUANTIZED_RELEASE.search(tail)
        if release is None:
            continue
        base = tail[: release.start()]
        if short.startswith(base.lower() + "-") and not short.startswith(tail.lower()):
            return (
                f"make it from {model} with the page's own quantization flow: the {found.group(0)} download it names "
                f"holds {base}'s weights, not those of {model.rsplit('/', 1)[-1]}"
            )
    return None


def own_release_over_download(merged: list[Choice]) -> list[Choice]:
    """Where tier 1's quantization part serves the model's own quantized release as published and the runner's line
    says to make a checkpoint because its page's download holds another release's weights: the runner loads that
    published release instead (review 181 p04: Qwen3-235B-A22B-Instruct-2507-FP8 as released beside 'make it from ...
    with the page's own quantization flow')."""
    released = next(
        (
            c.settings["checkpoint"].removesuffix(AS_RELEASED)
            for c in merged
            if c.concern == "quantization" and c.settings.get("checkpoint", "").endswith(AS_RELEASED)
        ),
        None,
    )
    if released is None:
        return merged
    instead = f"load {released} as released (the quantization part), not the page's download:"
    return [
        c.model_copy(
            update={"settings": {**c.settings, "checkpoint": MAKE_IT_FROM.sub(instead, c.settings["checkpoint"])}}
        )
        if c.concern != "quantization" and MAKE_IT_FROM.match(c.settings.get("checkpoint", "")) is not None
        else c
        for c in merged
    ]


MAKE_IT_FROM = re.compile(r"make it from \S+ with the page's own quantization flow:")


def names_own_release(documented: str, short: str) -> bool:
    """The setting names a quantized release of the profile's own model ('vllm-ascend/DeepSeek-R1-W8A8' for
    DeepSeek-R1, review 72 p05): that checkpoint is the one to load, not the example another model's command names."""
    for found in HF_ID.finditer(documented):
        tail = found.group(0).rsplit("/", 1)[-1].lower()
        if tail.startswith(short) and QUANTIZED_RELEASE.match(tail[len(short) :]):
            return True
    return False


# A converted speech-model file a command loads ('models/ggml-large-v3-turbo-q8_0.bin'), and a model id's size name.
CONVERTED_SPEECH_FILE = re.compile(
    r"ggml-((?:tiny|base|small|medium|large)(?:-v\d)?(?:-turbo)?(?:\.en)?)(?:-q\d_\d)?\.bin"
)
SPEECH_SIZE = re.compile(r"whisper-((?:tiny|base|small|medium|large)(?:-v\d)?(?:-turbo)?(?:\.en)?)$", re.IGNORECASE)


def converted_file_swap(documented: str, model: str) -> str | None:
    """Where the command loads a converted file of another size of the profile's speech model (whisper.cpp's
    ggml-large-v3-turbo-q8_0.bin for openai/whisper-small, review 65 p14): the file of the profile's own size."""
    file = CONVERTED_SPEECH_FILE.search(documented)
    size = SPEECH_SIZE.search(model.rsplit("/", 1)[-1])
    if file is None or size is None or file.group(1).lower() == size.group(1).lower():
        return None
    return (
        f"{model}'s own converted file (ggml-{size.group(1).lower()}.bin, fetched and quantized the same way) in place "
        f"of {file.group(0)}"
    )


def borrowed(reason: Rationale, option: str, context: RuleContext) -> bool:
    """The reason rests only on another candidate's claims (a vision-language rule of thumb taken from another
    toolkit's examples): where a stack documented for the model type sets its own toolkit, that recipe replaces it."""
    known = set(context.knowledge.ids())
    owners = [c.ref.split(".", 1)[0] for c in reason.cites]
    return all(c.kind == "knowledge" for c in reason.cites) and all(o in known and o != option for o in owners)


def documented_granularity(settings: dict[str, str]) -> dict[str, str]:
    """The rule's default scale granularity gives way to the one the part's documented setting states (llama.cpp's Q8_0
    keeps one scale per block of 32 weights, not one per channel), or to none where it words other scales."""
    documented = settings.get("as documented", "")
    if "granularity" not in settings:
        return settings
    stated = GRANULARITY_WORDS.search(documented)
    if stated is not None:
        return {**settings, "granularity": stated.group(0)}
    worded = {found.lower().replace(" ", "-") for found in SCALE_WORDS.findall(documented)}
    if worded and settings["granularity"] not in worded:  # the recipe words other scales than the rule's default
        # (review 214 p04: per-tensor attention and dynamic experts beside "granularity=per-channel")
        return {key: value for key, value in settings.items() if key != "granularity"}
    return settings


def runs_beneath(option: str, concern: str, context: RuleContext) -> bool:
    """The rule's choice is what an unlisted runner runs on: a platform SDK or compiler (PaddleNLP on the Hygon SDK),
    never another framework (TRL's SFTTrainer does not run on Megatron-Core) or runtime."""
    return context.knowledge.layer_of(option) in BENEATH_LAYERS


def framework_needed(judged: Judged, profile: Profile, knowledge: KnowledgeBase) -> bool:
    """A training stack's framework is chosen for large or MoE training, for a model other than an LLM trained on
    several devices where the stack fits, or where the stack trains on a framework of its own that the knowledge base
    does not list (PaddleNLP on PaddlePaddle: PyTorch's DDP/FSDP are not its parallelism), or for a LoRA or full
    fine-tuning job whose stack documents that kind (its recipe is the tool at any scale); the platform's general
    frameworks cover small LLM jobs otherwise."""
    if profile.needs.devices >= LARGE_TRAINING_DEVICES or profile.model_type == "moe":
        return True
    if profile.training in FINE_TUNING_KINDS and profile.training in judged.stack.applies_to.training:
        return True
    framework = judged.stack.component("training-framework")
    if judged.workload == "training" and framework is not None and framework.candidate not in knowledge.ids():
        return True
    if judged.workload == "training" and framework is not None and fine_tuning_tool(framework.candidate, knowledge):
        return True  # a fine-tuning tool (LLaMA-Factory) is the stack's route at any scale, not DDP/FSDP under it
    return not profile.llm and profile.needs.devices > 1 and judged.fits


KERNEL_CONCERNS = ("gemm", "attention", "fusion")  # a stack's kernel parts, named for the formats they run
PARENTHESES = re.compile(r"\([^)]*\)")  # a part name's aside ('AITER linear ops (an MXFP4 checkpoint adds ...)')


def for_other_generation(component: Component, judged: Judged, context: RuleContext) -> bool:
    """A kernel part whose page ties it to the generation the stack was validated on ('FA3 is the default version on
    Hopper'), where the target is another generation: the part is not the stack's on this device (review 78 p07)."""
    device = context.device
    if device is None or not any(misfit.kind in OTHER_GENERATION_KINDS for misfit in judged.misfits):
        return False
    if component.candidate in context.knowledge.ids() and context.knowledge.layer_of(component.candidate) != (
        "operator-library"
    ):  # a kernel language's kernels (vLLM's Triton attention) compile for each generation (review 88 p15)
        return False
    platform = context.platform
    others = [
        found
        for found in (platform.device(d) for d in judged.stack.applies_to.devices)
        if found is not None and found.generation != device.generation
    ]
    # by generation ('on Hopper') or compiler target ('on sm90', written with or without its underscore)
    theirs = {found.generation for found in others} | {found.architecture.replace("_", "") for found in others}
    text = f"{component.name} {component.setting or ''}".replace(device.generation, "").replace("_", "")
    return any(re.search(rf"\b{re.escape(name)}\b", text) for name in theirs)


def other_generation_part(
    choice: Choice, stack_choice: StackChoice, context: RuleContext, stacked: Mapping[str, Choice]
) -> Choice:
    """The rule's choice for a kernel concern whose stack part is another generation's (for_other_generation) says why
    the stack's part is not taken: what the stack's page names, and that the runner picks its own on this device."""
    if choice.concern in stacked or context.device is None:
        return choice
    for judged in stack_choice.chosen:
        part = next(
            (
                component
                for component in judged.stack.components
                if ROLE_CONCERNS.get(component.role) == choice.concern
                and for_other_generation(component, judged, context)
            ),
            None,
        )
        if part is None:
            continue
        runner = runner_of(judged.stack, judged.workload, set(context.knowledge.ids()))
        who = runner.name if runner is not None else "the runtime"
        text = (
            f"{judged.stack.name} names {part.name} ({part.setting or 'its page'}), which is for the generation it "
            f"was validated on, not {context.device.generation}: {who} picks its own {choice.concern} backend on "
            f"{context.device.id}; check the one it logs at start"
        )
        return choice.model_copy(
            update={"rationale": capped((line(text, cite_stack(judged.stack, part)), *choice.rationale))}
        )
    return choice


def stack_parts(judged: Judged, context: RuleContext, rule_choices: dict[str, Choice]) -> dict[str, Part]:
    """Concern -> the part the stack puts there, for every concern the stack decides for this profile."""
    stack, profile = judged.stack, context.profile
    known = set(context.knowledge.ids())
    runner = runner_of(stack, judged.workload, known)
    parts: dict[str, Part] = {}
    wanted = judged.workload == "inference" or framework_needed(judged, profile, context.knowledge)
    if runner is not None and runner.candidate is not None and wanted:
        parts[runner_concern(judged.workload)] = Part(runner.candidate, runner)
    elif wanted:
        unnamed = next((c for c in stack.components if c.role in runner_roles(judged.workload)), None)
        runs_at = runner_concern(judged.workload)
        previous = rule_choices.get(runs_at)
        own_base = {  # the compiler or SDK the stack itself names (xDiT's torch.compile): what its runner runs on
            c.candidate
            for c in stack.components
            if c.candidate in known and context.knowledge.layer_of(c.candidate) in BENEATH_LAYERS
        }
        beneath = previous is not None and runs_beneath(previous.option, runs_at, context)
        if unnamed is not None and previous is not None and beneath and (not own_base or previous.option in own_base):
            parts[runs_at] = Part(previous.option, unnamed)  # MaxText on XLA, TorchTitan on the Neuron SDK
        elif unnamed is not None:
            parts[runs_at] = Part(unnamed.name, unnamed, known=False)
    precision_fits = not other_precision(judged)
    quantizes = profile.needs.quantized and precision_fits and (judged.workload == "inference" or not profile.serves)
    runs_at = runner_concern(judged.workload)
    unvetted = runs_at in parts and not parts[runs_at].known  # a runner the knowledge base does not list (MNN-LLM)
    for component in stack.components:
        concern = ROLE_CONCERNS.get(component.role)
        if concern is None or concern in parts or (concern == "quantization" and not quantizes):
            continue
        if concern in KERNEL_CONCERNS and other_format_only(PARENTHESES.sub("", component.name), judged.precision):
            continue  # a kernel part for another format (AITER's FP8 linear layers in a BF16 job): the rule's stays
        if concern in KERNEL_CONCERNS and for_other_generation(component, judged, context):
            continue  # FlashAttention 3 "on Hopper" from a Hopper stack taken for an RTX 5090: the rule's stays
        rule = rule_choices.get(concern)
        if component.candidate in known:
            parts[concern] = Part(component.candidate, component)
        elif component.role in RUNNER_KERNEL_ROLES and runner is not None and runner.candidate is not None:
            parts[concern] = Part(runner.candidate, component)
        elif rule is not None and not (
            unvetted and (another_runner(rule.option, context) or concern == "quantization")
        ):  # an unvetted runner's own quantization flow is its own, not a toolkit the rule chose for another runtime
            # a part the knowledge base does not list, on the rule's choice
            parts[concern] = Part(rule.option, component)
        elif concern == "quantization" and runner is not None and runner.candidate in known:
            parts[concern] = Part(runner.candidate, component)  # the runner's own flow (MaxText's Qwix FP8 training)
        elif (component.role in RUNNER_KERNEL_ROLES or unvetted) and runner is None and wanted:
            # the unvetted runner's own part, never another runtime's option the rule chose (llama.cpp's for MNN's)
            parts[concern] = Part(component.name, component, known=False)
    if (
        judged.workload == "inference"
        and profile.needs.dynamic_shapes
        and "dynamic-shapes" not in parts
        and runner is not None
        and runner.candidate is not None
        and profile.llm
        and runner.role == "serving-engine"
    ):
        mode = context.knowledge.policy.dynamic_shape_modes.get(runner.candidate)  # an engine batches any shape itself
        name = f"{runner.name}'s own batching" + (f" ({mode})" if mode else "")
        parts["dynamic-shapes"] = Part(runner.candidate, Component(role="other", name=name, candidate=runner.candidate))
    released = size_of(profile.model_name) if profile.model_name is not None else None
    # the engine that runs the model, by its layer: a serving engine, or one run inside a server the knowledge base
    # does not list (vLLM inside NVIDIA Dynamo; review 156 p01)
    engine = runner if runner is not None and runner.candidate in known else None
    if (
        judged.workload == "inference"
        and quantizes
        and judged.precision in FOUR_BIT_FLOATS
        and "gemm" not in parts
        and engine is not None
        and engine.candidate is not None
        and context.knowledge.layer_of(engine.candidate) == "serving-engine"
        # a model released in the format keeps its own split (gpt-oss's MXFP4 experts, BF16 layers outside them)
        and (released is None or released.released_format != judged.precision)
    ):  # a serving engine's block-scaled 4-bit layers run its own quantization method's kernels, not the platform's
        # BLAS library called as it is (reviews 139-148: "cublas [dtype=nvfp4]" under TensorRT-LLM and vLLM)
        name = (
            f"{engine.name}'s own {judged.precision} GEMM kernels for the quantized layers (its quantization method "
            "picks the backend); layers the checkpoint leaves unquantized run on the platform's BLAS library"
        )
        parts["gemm"] = Part(engine.candidate, Component(role="gemm", name=name, candidate=engine.candidate))
    if (
        judged.workload == "training"
        and profile.needs.dynamic_shapes
        and "dynamic-shapes" not in parts
        and runner is not None
        and runner.candidate in known
        and runner.role == "training-framework"
        and context.knowledge.get(runner.candidate).dynamic_shapes.value == "yes"
    ):  # a training framework that takes variable lengths itself (verl packs rollouts and batches them by tokens)
        trainer = context.knowledge.get(runner.candidate)
        claim = trainer.dynamic_shapes
        how = f": {claim.note.rstrip('.')}" if claim.note else ""
        name = f"{trainer.name}'s own variable-length handling{how}"
        compiler = shape_compiling_runtime(stack, context)
        if compiler is not None:  # review 257 p05: per-batch padding and group_by_length recompile Gaudi's graphs
            note = (compiler.dynamic_shapes.note or "").rstrip(".")
            name = (
                f"{trainer.name}'s variable-length handling held to fixed lengths for {compiler.name}: pad every batch "
                f"to one max_length (or a few length buckets), not to each batch's longest sample ({note})"
            )
        parts["dynamic-shapes"] = Part(runner.candidate, Component(role="other", name=name, candidate=runner.candidate))
    if (
        judged.workload == "training"
        and "fusion" not in parts
        and "training-framework" in parts
        and parts["training-framework"].known
    ):
        framework = parts["training-framework"]  # its layers carry the fused kernels (Transformer Engine, Primus Turbo)
        layers = next(
            (c for c in stack.components if c.candidate is not None and c.candidate == context.stack.layers), None
        )
        kernels = stack.component("kernels")
        if layers is not None and layers.candidate is not None:
            parts["fusion"] = Part(
                layers.candidate,
                Component(role="kernels", name=f"{layers.name} fused layers", candidate=layers.candidate),
            )
        else:
            # a fusion claim of 'partial': kernels the team switches on, not layers that always run fused
            support = context.knowledge.get(framework.option).fusion.value
            fused = (
                "optional fused kernels (off until its config enables them)" if support == "partial" else "fused layers"
            )
            if kernels is not None or support != "no":
                name = kernels.name if kernels is not None else f"{framework.component.name}'s {fused}"
                parts["fusion"] = Part(
                    framework.option, Component(role="kernels", name=name, candidate=framework.option)
                )
    elif judged.workload == "training" and "fusion" not in parts and "training-framework" in parts:
        kernels = stack.component("kernels")  # an unvetted framework's fused operators, as its page names them
        if kernels is not None:
            parts["fusion"] = Part(kernels.name, kernels, known=False)
    return parts


RUNNER_LAYERS = (*SERVING_LAYERS, "framework", "training-framework")  # what runs a model, not a library


def another_runner(option: str, context: RuleContext) -> bool:
    """The rule's choice runs models itself (llama.cpp, ONNX Runtime): its kernels are no part of a stack whose runner
    is something else; a kernel library or SDK (oneDNN, the Hygon SDK) runs beneath any runner."""
    return context.knowledge.layer_of(option) in RUNNER_LAYERS


def runtime_kernels(
    judged: Judged, context: RuleContext, decided: set[str], rule_choices: dict[str, Choice] | None = None
) -> dict[str, Part]:
    """An inference-only graph runtime or framework (Core ML, ONNX Runtime, MLX, llama.cpp) runs the model on its
    own kernels: the concerns the stack does not name are its own."""
    known = set(context.knowledge.ids())
    runner = runner_of(judged.stack, "inference", known)
    if judged.workload != "inference":
        return {}
    if runner is None or runner.candidate is None:
        return unvetted_runner_kernels(judged, context, decided, rule_choices or {})
    candidate = context.knowledge.get(runner.candidate)
    if candidate.layer.value not in RUNTIME_KERNEL_LAYERS:
        return {}
    own = Component(role=runner.role, name=f"{candidate.name}'s own kernels", candidate=runner.candidate)
    parts = {concern: Part(runner.candidate, own) for concern in RUNTIME_KERNEL_CONCERNS if concern not in decided}
    takes_shapes = candidate.dynamic_shapes.value in ("yes", "partial")
    if context.profile.needs.dynamic_shapes and takes_shapes and "dynamic-shapes" not in decided:
        shapes = Component(role=runner.role, name=f"{candidate.name}'s own shape handling", candidate=runner.candidate)
        parts["dynamic-shapes"] = Part(
            runner.candidate, shapes
        )  # another runtime's shape path is no part of this stack
    return parts


def unvetted_runner_kernels(
    judged: Judged, context: RuleContext, decided: set[str], rule_choices: dict[str, Choice]
) -> dict[str, Part]:
    """A serving stack whose runner the knowledge base does not list (MNN-LLM on a phone) runs the model on that
    runner's own kernels: the kernel concerns its page does not name are its own where the rule's choice is another
    runner (llama.cpp's kernels are no part of MNN), not where it is a library or SDK beneath any runner (oneDNN)."""
    unnamed = next((c for c in judged.stack.components if c.role in runner_roles("inference")), None)
    if unnamed is None:
        return {}
    own = Component(role=unnamed.role, name=f"{unnamed.name}'s own kernels")
    return {
        concern: Part(own.name, own, known=False)
        for concern in RUNTIME_KERNEL_CONCERNS
        if concern not in decided
        and (concern not in rule_choices or another_runner(rule_choices[concern].option, context))
    }


# A data- or expert-parallel layout a serving command sets besides its tensor parallelism (DP4 x TP4 with EP); the
# expert-parallel sizes themselves are EXPERT_PARALLEL_SIZE's.
DATA_PARALLEL_LAYOUT = re.compile(
    r"(?:--data-parallel-size|--dp-size|--dp)[ =]\d+|--enable-expert-parallel|\bDP\d+\s*[x×]|\bEP\d+"
)
# A command whose tensor-parallel degree is a placeholder ('--tensor-parallel-size N', '-tp <tp>')
TENSOR_PARALLEL_LEFT_OPEN = re.compile(r"(?:--tensor-parallel-size|--tp-size|--tp|-tp)[ =](?:N|<[\w-]+>)(?![\w])")
ONE_GPU = re.compile(r"\b(?:on one GPU|single-GPU|one GPU)\b", re.IGNORECASE)
# A launch whose degree the page sets per model size ('--tensor-parallel-size 1 for Qwen3-0.6B to Qwen3-8B, two for
# Qwen3-14B, four for Qwen3-32B'): its first flag is the smallest model's, not the command's one degree
DEGREE_PER_MODEL_SIZE = re.compile(r"\b(?:two|four|eight|sixteen|\d+)\s+for\s+\S", re.IGNORECASE)
SIZE_WORD = re.compile(r"\b(\d+(?:\.\d+)?)B\b")  # a model size a launch names ('70B in FP8 on one trn2.48xlarge')


def layout_here(judged: Judged, context: RuleContext, choice: StackChoice) -> str | None:
    """For an LLM served on several devices with a documented command set for another tensor-parallel degree (the 7B
    recipe's one-GPU command for a 32B model on two): the layout this profile's devices take, replicas where a copy fits
    fewer of them, else one split over all."""
    profile = context.profile
    one_device_ranks = ranks_of(choice.device)
    if judged.workload == "inference" and profile.llm and profile.needs.devices == 1 and one_device_ranks > 1:
        # one device of several ranks (an Inferentia2 chip's two NeuronCores): the engine's tensor parallelism spans
        # them (review 99 p12; review 234 p07 took the misfit this used to be away)
        assert choice.device is not None
        return (
            f"tensor parallel {one_device_ranks} over the device's {one_device_ranks} {choice.device.rank_name} "
            "(one copy of the model on the device)"
        )
    if judged.workload != "inference" or not profile.llm or profile.needs.devices <= 1:
        return None
    runner = judged.stack.runner
    setting = runner.setting if runner is not None and runner.setting else ""
    if DATA_PARALLEL_LAYOUT.search(setting) or EXPERT_PARALLEL_SIZE.search(setting):  # a layout of its own: kept
        return expert_layout_here(setting, profile.needs.devices, context.device)
    launch = launch_for_format(setting, choice.served_precision)
    found = TENSOR_PARALLEL.search(launch)
    documented = int(found.group(1)) if found else 1 if ONE_GPU.search(setting) else None
    # a launch written for a model of another size, where the setting sets the degree by size in another clause
    # (review 260 p12: Hygon's cookbook line for a 30B model at -tp 2, then "-tp 1 for Qwen3-0.6B to 14B", read as
    # "the command's degree is 2" for a 7B model)
    named = sizes_beside_degree([launch])
    other_size = another_sizes_launch(named, model_parameters_b(profile))
    per_size = documented is not None and (
        DEGREE_PER_MODEL_SIZE.search(launch) is not None
        or (other_size and DEGREE_PER_MODEL_SIZE.search(setting) is not None)
    )
    group = (
        replica_group(profile, choice.device, choice.served_precision, page_devices(judged, choice, profile))
        or profile.needs.devices
    )
    device = choice.device
    ranks = ranks_of(device)
    pages = documented / ranks if documented is not None else 0.0
    if (
        profile.needs.long_context
        and judged.written_for_this_model
        and pages.is_integer()
        and group < pages <= profile.needs.devices
        and profile.needs.devices % int(pages) == 0
    ):  # long context: the page's degree for this model keeps its KV-cache room (kbamdmxfp4: "2 replicas of 4" for a
        # long-context R1 on the TP8 recipe); replicas stay the replicas-over-split switch
        group = int(pages)
    # '--tensor-parallel-size N': the page leaves the degree to the model (review 141 p02: an 8B model told to split over
    # 8 H100 that each hold it)
    left_open = documented is None and TENSOR_PARALLEL_LEFT_OPEN.search(setting) is not None
    as_run = documented == group * ranks
    if (documented is None and not left_open) or (as_run and group == profile.needs.devices):
        return None
    replicas = profile.needs.devices // group
    if device is not None and ranks > 1:  # the degree counts ranks (logical NeuronCores), not devices
        split = f"tensor parallel {group * ranks}: {group} device(s) of {ranks} {device.rank_name}"
        theirs = f"{documented} {device.rank_name}, {pages:g} device{'' if pages == 1 else 's'}" if pages else ""
    else:
        split = f"tensor parallel {group}" if group > 1 else "one device each"
        theirs = f"{documented}"
    if left_open:
        degree, short = (
            "the command leaves the tensor-parallel degree to the model",
            "the command leaves the degree to the model",
        )
    elif per_size:  # review 151 p06: "the command's tensor-parallel degree is 1" beside the page's TP 4 for 32B
        # the degree here is the memory's (review 240 p13: a 14B model in bf16 leaves a 32 GB card no KV-cache room,
        # while the page's size table says TP 1 for 14B)
        memory = (
            f"; here one copy with room for its KV cache takes {group} device{'s' if group > 1 else ''} (see capacity)"
        )
        degree, short = (
            "the page sets the tensor-parallel degree by model size" + memory,
            "the page sets the degree by model size" + memory,
        )
    elif as_run:  # replicas of the command as it runs: the page's own layout, copied over the job's devices
        degree, short = "as the command runs it", "as the command runs it"
    elif other_size:  # review 261 p09: vLLM Neuron's 70B launch at TP 16 offered as an 8B model's own layout
        said = "/".join(f"{value:g}B" for value in named)
        degree = (
            f"the command's tensor-parallel degree ({theirs}) is its {said} launch's; the page gives none for this size"
        )
        short = f"the command's degree is its {said} launch's"
    else:
        degree, short = f"the command's tensor-parallel degree is {theirs}", f"the command's degree is {theirs}"
    if replicas > 1:
        # the page's own degree, where the page is written for this model and it divides the devices: its validated
        # layout as a third option (review 111 p12: TP 16 NeuronCores on 4 Trn2 chips, so 4 replicas on 16); not where
        # the command is another size's
        as_page = (
            f", {profile.needs.devices // int(pages)} replicas of {int(pages)} as the command runs it"
            if judged.written_for_this_model
            and not other_size
            and pages.is_integer()
            and group < pages < profile.needs.devices
            and profile.needs.devices % int(pages) == 0
            else ""
        )
        return (
            f"{replicas} replicas of {group} ({split}; {degree}){as_page}, or one copy over all "
            f"{profile.needs.devices}: the replicas-over-split switch decides"
        )
    return f"tensor parallel {group * ranks} over the {group} devices ({short})"


# A runtime's dynamic-shapes claim that says it compiles a graph per input shape (Gaudi's bridge, neuronx-cc).
RECOMPILES_PER_SHAPE = re.compile(r"\brecompil|\bcompiles static\b|\bstatic shapes only\b", re.IGNORECASE)


def shape_compiling_runtime(stack: Stack, context: RuleContext) -> Candidate | None:
    """The stack's runtime where its own claim says each new input shape compiles a new graph (dynamic shapes
    'partial', its note naming the recompilation): a training job there holds its batches to a few fixed lengths."""
    known = set(context.knowledge.ids())
    for part in stack.components:
        if part.role != "runtime" or part.candidate is None or part.candidate not in known:
            continue
        runtime = context.knowledge.get(part.candidate)
        claim = runtime.dynamic_shapes
        if claim.value == "partial" and claim.note and RECOMPILES_PER_SHAPE.search(claim.note):
            return runtime
    return None


def sizes_beside_degree(texts: Sequence[str]) -> list[float]:
    """The model sizes the launches name beside a tensor-parallel degree, in order and each once (not 'the 1B and 8B
    models take ... a smaller degree' in a clause after it)."""
    found = (
        float(size)
        for text in texts
        for clause in top_level_clauses(text)
        if TENSOR_PARALLEL.search(clause)
        for size in SIZE_WORD.findall(clause)
    )
    return list(dict.fromkeys(found))


def another_sizes_launch(named: Sequence[float], size: float | None) -> bool:
    """The launch names model sizes and none of them is the model's own `size`."""
    return bool(size and named and not any(near_size(said, size) for said in named))


CONFIG_DEGREE = re.compile(r"\btensor_parallel_size:? (\d+)")  # a config file's key, as a page quotes it


def page_devices(judged: Judged | None, choice: StackChoice, profile: Profile | None = None) -> int | None:
    """The fewest devices a serving page written for this model runs it on, by the tensor-parallel degrees its launch
    and parallelism settings name (in devices, where a degree counts several ranks per device); None for a page
    written for other models, one whose degree goes by model size, or one whose launch names a size other than the
    profile's model (vLLM Neuron's TP 16 is its 70B launch, not its 8B one: review 205 p07)."""
    if judged is None or judged.workload != "inference" or not judged.written_for_this_model:
        return None
    texts = [
        launch_for_format(part.setting or "", choice.served_precision)
        for part in judged.stack.components
        if part.role in ("serving-engine", "parallelism")
    ]
    if any(DEGREE_PER_MODEL_SIZE.search(text) for text in texts):
        return None
    size = model_parameters_b(profile) if profile is not None else None
    if another_sizes_launch(sizes_beside_degree(texts), size):
        return None
    device = choice.device
    ranks = ranks_of(device)
    found = {int(size) for text in texts for size in (*TENSOR_PARALLEL.findall(text), *CONFIG_DEGREE.findall(text))}
    degrees = sorted(size // ranks for size in found if size % ranks == 0 and size >= ranks)
    return degrees[0] if degrees else None


QUANTIZATION_FLAG = re.compile(r"(?<!without )--quantization\b")  # a launch that quantizes ('without --...' does not)


def launch_for_format(setting: str, precision: str | None) -> str:
    """Of a setting holding one launch per format ('BF16 weights: ... --tensor-parallel-size 1 ...; W8A8 weights: ...
    --tensor-parallel-size 4'), the clause for the format served (review 134 p06 read the BF16 degree for an INT8
    job); the whole setting where it holds one launch."""
    clauses = [clause for clause in top_level_clauses(setting) if TENSOR_PARALLEL.search(clause)]
    if len(clauses) < 2 or precision is None:
        return setting
    quantized = precision not in FLOAT_PRECISIONS
    return next((clause for clause in clauses if quantized_launch(clause) == quantized), setting)


def quantized_launch(clause: str) -> bool:
    """The launch names a quantized format (FORMAT_WORDS) or passes a quantization flag."""
    return QUANTIZATION_FLAG.search(clause) is not None or FORMAT_WORDS_RE.search(clause) is not None


def expert_layout_here(setting: str, devices: int, device: Device | None) -> str | None:
    """A command whose own layout is tensor parallel with expert parallelism over fewer devices than the job has
    (vLLM's DeepSeek recipe: TP 4 with EP on 4 B200s, for 8; review 117 p01): replicas of the command as its page
    validates it, or one engine over all of them at the page's own tensor-parallel size, which a measurement must earn
    (review 147 p05: Qwen3-30B-A3B, whose page runs it on at most four dies); None where the command sets its
    data-parallel size or fills the devices."""
    found = command_replicas(setting, devices, device)
    if found is None:
        return None
    size, replicas = found
    return f"{replicas} replicas of the command as written (tensor parallel {size} with expert parallelism), or " + (
        f"{one_engine_over(size, replicas, devices)}: the split-over-replicas switch decides"
    )


def one_engine_over(size: int, replicas: int, devices: int) -> str:
    """The one-engine alternative to replicas of a TP x EP command: data-parallel attention over the copies, each at the
    page's tensor-parallel size, with the experts spread over every device (vLLM's data-parallel deployment:
    --data-parallel-size with --enable-expert-parallel), not tensor parallelism widened past the page's degree, which
    would copy the KV heads and cross nodes (reviews 203 p06, 204 p06: Qwen3-30B-A3B's 4 KV heads at TP 16)."""
    return (
        f"one engine over all {devices} devices: --data-parallel-size {replicas} at the command's tensor parallel "
        f"{size}, its experts spread over all {devices} (--enable-expert-parallel)"
    )


def command_replicas(setting: str, devices: int, device: Device | None) -> tuple[int, int] | None:
    """(the command's tensor-parallel size, how many copies of it the job's devices hold) for a command with expert
    parallelism and no data-parallel size of its own over fewer ranks than the job has; None otherwise."""
    if "--enable-expert-parallel" not in setting:
        return None
    sizes = [int(size) for size in TENSOR_PARALLEL.findall(setting)]
    ranks = ranks_of(device)
    if not sizes or EXPERT_PARALLEL_SIZE.search(setting) or DATA_PARALLEL_SIZE.search(setting):
        return None
    size, available = max(sizes), devices * ranks
    if size >= available or available % size:
        return None
    return size, available // size


DATA_PARALLEL_SIZE = re.compile(r"(?:--data-parallel-size|--dp-size|--dp)[ =]\d+|\bDP\d+\s*[x×]")
KV_FP8 = re.compile(r"\bFP8\b", re.IGNORECASE)
FP8_KV_ASKS = ("fp8", "fp4")  # asks whose weights are 8 bits or fewer: an FP8 KV cache goes with them at long context


def runner_settings(judged: Judged, profile: Profile) -> dict[str, str]:
    """The stack's parts that belong to no concern (KV cache, MoE kernels, parallelism), as the runner's settings; MoE
    kernels only for a mixture of experts."""
    settings: dict[str, str] = {}
    for component in judged.stack.components:
        if component.role == "moe" and profile.model_type != "moe":
            continue
        if component.role == "kv-cache" and profile.embeds:  # an embedding model decodes nothing: it keeps no KV cache
            continue
        if component.role not in SETTING_ROLES[judged.workload]:
            continue
        key, name = component.role, component.name
        if key == "kv-cache" and not profile.needs.quantized and KV_FP8.search(name):
            # the page's FP8 KV cache is a quantization the profile did not ask for (review 95 p04)
            name = f"{name} on the page; with no quantization asked, keep the KV cache in the model's dtype until an accuracy check clears FP8"
        if key != "kv-cache":  # a KV-cache format is a storage choice apart from the weights' (FP8 KV beside BF16)
            name = in_precision(name, judged.precision)
            if not name or other_format_only(name, judged.precision):
                continue  # a part for a format this profile does not run (an MXFP4 config in a BF16 job)
        settings[key] = f"{settings[key]}; {name}" if key in settings else name
    return settings


def measured(choice: Choice) -> bool:
    return any(cite.kind == "evidence" for reason in choice.rationale for cite in reason.cites)


def with_dtype(choice: Choice, dtype: str, why: Rationale) -> Choice:
    """The choice in another dtype: reasons that argued for a float format go, the reason for this one comes."""
    kept = tuple(r for r in choice.rationale if not DTYPE_WORDS.search(r.text))
    return choice.model_copy(update={"settings": {**choice.settings, "dtype": dtype}, "rationale": (*kept, why)})


def precision_settings(choice: Choice, judged: Judged | None, profile: Profile, device: Device | None) -> Choice:
    """The GEMM runs the precision asked where the device runs it natively (a lower format where that is what the
    stack documents), or the stack's default float format; on-target evidence overrides both."""
    if choice.concern not in ("gemm", "quantization") or measured(choice):
        return choice
    stack_default = judged.stack.applies_to.precisions[0] if judged is not None else None
    lower_formats = LOWER_PRECISIONS.get(profile.needs.quantization, ())
    documented = [p for p in judged.stack.applies_to.precisions if p in lower_formats] if judged is not None else []
    lower = documented[0] if documented and any(m.kind == "lower_precision" for m in judged.misfits) else None  # type: ignore[union-attr]
    if choice.concern == "quantization":
        if lower is None:
            return weight_only(other_default_path(choice, judged, profile), judged)
        settings = {k: v for k, v in choice.settings.items() if k not in QUANTIZED_SETTINGS}
        return weight_only(choice.model_copy(update={"settings": {**settings, "dtype": lower}}), judged)
    if judged is not None and fake_quantized_training(judged.stack, profile, judged.workload):
        trained = next(p for p in FLOAT_PRECISIONS if p not in FULL_PRECISIONS)  # mixed precision: bf16
        target = profile.needs.quantization
        why = line(
            f"{trained} GEMMs in training ({judged.stack.name}): QAT inserts {target} fake quantization into this "
            f"float training, and {target} GEMMs run only in the exported model",
            cite_stack(judged.stack),
            cite_profile(profile, "needs.quantization_method"),
        )
        asked_word = re.compile(rf"\b{target}\b", re.IGNORECASE)  # "the linear layers run in FP8" goes too
        kept = tuple(r for r in choice.rationale if not asked_word.search(r.text))
        return with_dtype(choice.model_copy(update={"rationale": kept}), trained, why)
    if judged is not None and quantizes_after_training(profile, judged.workload):
        if judged.precision == profile.needs.quantization or choice.settings.get("dtype") == judged.precision:
            return choice
        target = profile.needs.quantization
        after = (
            f"the trained checkpoint is quantized to {target} for serving"
            if profile.serves
            else f"QAT inserts {target} fake quantization into this float training, and {target} GEMMs run only in the "
            "exported model"
            if profile.needs.quantization_method == "qat"
            else f"the trained model is quantized to {target} afterwards, and {target} GEMMs run only in the exported model"
        )
        why = line(f"{judged.precision} GEMMs in training ({judged.stack.name}); {after}", cite_stack(judged.stack))
        return with_dtype(choice, judged.precision, why)
    if judged is not None and judged.falls_back:
        where = (
            "on this device" if judged.workload == "inference" else "for training (yours to validate on the loss curve)"
        )
        why = line(
            f"{judged.precision} GEMMs: {judged.fallback_reason(profile.needs.quantization, where)}",
            cite_stack(judged.stack),
        )
        asked_word = re.compile(
            rf"\b{profile.needs.quantization}\b", re.IGNORECASE
        )  # "the linear layers run in FP8" goes too
        choice = choice.model_copy(
            update={"rationale": tuple(r for r in choice.rationale if not asked_word.search(r.text))}
        )
        return with_dtype(choice, judged.precision, why)
    if profile.needs.quantized:
        asked = (
            judged.precision
            if judged is not None and judged.precision in PRECISIONS_FOR[profile.needs.quantization]
            else None
        )
        dtype: str = lower if lower is not None else asked or profile.needs.quantization
        release = (
            loadable_int8_release(judged.stack, profile.model_name)
            if judged is not None and judged.workload == "inference" and profile.model_name and dtype == "int8"
            else None
        )
        weights_only: Rationale | None = None
        if release is not None and not profile.trains:  # the publisher's weight-only release is what serves (W8A16)
            weights_only = line(
                f"GEMMs on int8 weights: {release.checkpoint} is weight-only ({release.format}), so its GEMMs take "
                "16-bit activations on 8-bit weights, not int8 x int8",
                cite_release(release),
                cite_profile(profile, "needs.quantization"),
            )
        elif (judged is not None and dtype in judged.stack.applies_to.weight_only) or dtype in WEIGHT_ONLY_ASKS:
            # 4-bit integer weights are widened as they load (AWQ, GPTQ, GGUF Q4): no INT4 GEMM units are involved
            who = judged.stack.name if judged is not None else "the runtime"
            weights_only = line(
                f"GEMMs on {dtype} weights: {who} stores the weights in {dtype} and its kernels pick "
                "the compute format (float, or activations quantized on the fly)",
                *((cite_stack(judged.stack),) if judged is not None else ()),
                cite_profile(profile, "needs.quantization"),
            )
        if weights_only is not None:
            kept = tuple(r for r in choice.rationale if not DTYPE_WORDS.search(r.text))
            settings = {k: v for k, v in choice.settings.items() if k != "dtype"}
            update = {"settings": {**settings, "weights": dtype}, "rationale": (*kept, weights_only)}
            return choice.model_copy(update=update)
        if device is not None and lower is None and not device.may_run(dtype):
            return choice
        why = line(
            f"{dtype} GEMMs: the profile asks {profile.needs.quantization}"
            + (f" and the stack documents {dtype}" if dtype != profile.needs.quantization else ""),
            cite_profile(profile, "needs.quantization"),
        )
        return with_dtype(choice, dtype, why)
    if (
        judged is not None
        and judged.precision != stack_default
        and judged.precision in FLOAT_PRECISIONS
        and choice.settings.get("dtype") not in (None, judged.precision)
    ):  # the stack's other float format, the one this device runs (fp16 where an MLU370 runs no bf16; review 99 p06)
        why = line(
            f"{judged.precision}: the format {judged.stack.name} runs on this device ({stack_default} is its default)",
            cite_stack(judged.stack),
        )
        return with_dtype(choice, judged.precision, why)
    if (
        judged is not None
        and stack_default in FLOAT_PRECISIONS
        and judged.precision == stack_default
        and choice.settings.get("dtype") not in (None, stack_default)
    ):
        why = line(f"{stack_default}: the precision {judged.stack.name} runs by default", cite_stack(judged.stack))
        return with_dtype(choice, stack_default, why)
    return choice


def capped(reasons: Sequence[Rationale]) -> tuple[Rationale, ...]:
    """At most MAX_REASONS reasons (the first ones), with every risk to watch kept."""
    kept = [r for r in reasons if not r.text.startswith("watch: ")][:MAX_REASONS]
    return tuple(r for r in reasons if r in kept or r.text.startswith("watch: "))


def weight_only(choice: Choice, judged: Judged | None) -> Choice:
    """A format the stack stores in the weights only (GGUF, MLX affine): its own block format, no activation scheme."""
    dtype = choice.settings.get("dtype")
    if judged is None or dtype not in judged.stack.applies_to.weight_only:
        return choice
    settings = {k: v for k, v in choice.settings.items() if k not in (*QUANTIZED_SETTINGS, *ACTIVATION_SETTINGS)}
    return choice.model_copy(update={"settings": {**settings, "weights": "only, in the stack's own scheme"}})


def training_precision(choice: Choice, stacks: StackChoice) -> Choice:
    """A job that trains and serves: the GEMM's dtype is the serving one; the training stack's format is said beside it.
    An attention row whose route runs through the training layers (Transformer Engine) says that route is training's,
    the serving engine's kernel being the row's (review 118 p03)."""
    training, serving = stacks.for_workload("training"), stacks.for_workload("inference")
    if choice.concern == "attention" and training is not None and serving is not None and "via" in choice.settings:
        route = choice.settings["via"]
        settings = {k: v for k, v in choice.settings.items() if k != "via"}
        rationale = tuple(  # the route's own reasons are training's
            reason.model_copy(update={"text": f"in training: {reason.text}"})
            if any(cite.ref.endswith(f".{route}") for cite in reason.cites)
            else reason
            for reason in choice.rationale
        )
        return choice.model_copy(
            update={"settings": {**settings, "in training": f"{choice.option} through {route}"}, "rationale": rationale}
        )
    if (
        choice.concern != "gemm"
        or training is None
        or serving is None
        or choice.settings.get("dtype") == training.precision
    ):
        return choice
    settings = {k: v for k, v in choice.settings.items() if k != "via"}
    via = choice.settings.get("via")  # the training layers' route (Transformer Engine), not the serving engine's
    return choice.model_copy(
        update={"settings": {**settings, "in training": training.precision + (f" via {via}" if via else "")}}
    )


def framework_fp8(choice: Choice, stacks: StackChoice, context: RuleContext) -> Choice:
    """FP8 training on a stack whose page has no quantization part: the FP8 recipes of the stack's own training
    framework where the knowledge base says it has them (Megatron Core's, through Transformer Engine), not a toolkit that
    framework does not use (torchao's float8 linears under Megatron Core, review 90 p02)."""
    training = stacks.for_workload("training")
    if choice.concern != "quantization" or choice.settings.get("method") != "fp8-training" or training is None:
        return choice
    part = training.stack.component("training-framework")
    if training.stack.component("quantization") is not None or part is None or part.candidate is None:
        return choice
    if part.candidate == choice.option or part.candidate not in context.knowledge.ids():
        return choice
    if choice.option in context.platform.training_frameworks.value:  # a training layer's FP8 (Transformer Engine's)
        return choice
    framework = context.knowledge.get(part.candidate)
    if framework.fp8.value != "yes":
        return choice
    text = (
        f"FP8 training runs in {framework.name}'s own FP8 recipes, the stack's framework rather than a separate toolkit"
        + (f" ({framework.fp8.note.rstrip('.')})" if framework.fp8.note else "")
        + f"; the stack's page trains in {training.precision} only, so fp8 on it is yours to validate against the "
        f"{training.precision} loss curve"
    )
    return Choice(
        concern="quantization",
        option=framework.id,
        settings={"dtype": choice.settings.get("dtype", "fp8"), "method": "fp8-training"},
        rationale=(line(text, cite_claim(framework, "fp8"), cite_stack(training.stack)),),
        fits_team=SKILL_ORDER.index(framework.skill.value) <= SKILL_ORDER.index(context.profile.team_skill),
    )


def fp8_encoding(choice: Choice, device: Device | None, context: RuleContext) -> Choice:
    """FP8 on a device whose matrix units run the FNUZ encoding (MI300X, MI325X): the GEMM line says checkpoints and
    kernels must be in that encoding (the platform's own risk)."""
    fnuz = device is not None and device.fp8_variant == "fnuz"
    if choice.concern != "gemm" or context.profile.needs.quantization != "fp8" or not fnuz:
        return choice
    assert device is not None
    risks = [(i, risk.value) for i, risk in enumerate(context.platform.risks) if "FNUZ" in risk.value]
    text = (  # the platform's own word on which kernels and checkpoints carry over, where it has one
        f"FP8 on {device.name}: {risks[0][1]}"
        if risks
        else f"FP8 on {device.name} is the FNUZ encoding (e4m3fnuz), not OCP FP8 (e4m3fn)"
    )
    why = line(
        text,
        cite_platform(context.platform, f"devices.{device.id}.spec"),
        *(cite_platform(context.platform, f"risks[{index}]") for index, _ in risks[:1]),
    )
    rationale = (*choice.rationale[:1], why, *choice.rationale[1:])
    return choice.model_copy(update={"rationale": capped(rationale)})


def reason_first(choice: Choice, why: Rationale) -> Choice:
    """The choice with one more reason in front (a record keeps the first few)."""
    return choice.model_copy(update={"rationale": capped((why, *choice.rationale))})


def experts_elsewhere(choice: Choice, serving: Judged | None, stacked: dict[str, Choice], profile: Profile) -> Choice:
    """A GEMM library the rules chose beside a serving stack with its own MoE backend (SGLang's deep_gemm runner,
    TensorRT-LLM's CUTLASS MoE): it runs the dense layers; the expert GEMMs are the backend's, as the stack sets it."""
    if choice.concern != "gemm" or serving is None or "gemm" in stacked or profile.model_type != "moe":
        return choice
    moe = serving.stack.component("moe")
    if moe is None:
        return choice
    text = f"the dense layers' GEMMs; the experts' grouped GEMMs run in the stack's MoE backend: {moe.name}"
    dtype = choice.settings.get("dtype") or choice.settings.get("weights")  # 'weights' where stored 4-bit, weight-only
    known = size_of(profile.model_name) if profile.model_name is not None else None
    released = serving.stack.applies_to.released_format or (known.released_format if known is not None else None)
    if dtype in PRECISIONS_FOR["fp4"] and dtype == released:  # its publisher's release: gpt-oss's MXFP4 experts
        text += (
            f"; the {dtype} weights are the experts', and the layers outside them (attention, router, embeddings) keep "
            "the checkpoint's higher precision"
        )
        settings = {k: v for k, v in choice.settings.items() if k not in ("dtype", "weights")}
        kept = tuple(r for r in choice.rationale if not r.text.startswith(f"GEMMs on {dtype} weights"))
        choice = choice.model_copy(update={"settings": {**settings, "experts": dtype}, "rationale": kept})
    why = line(text, cite_stack(serving.stack, moe))
    return reason_first(choice, why)


def unlisted_training_format(choice: Choice, stacks: StackChoice) -> Choice:
    """A training stack's own format that the device's documented format list does not name (MLX trains in bf16 on
    Apple GPUs, whose feature tables list no bf16): the GEMM line says the recipe runs it and the list does not."""
    training, device = stacks.for_workload("training"), stacks.device
    if choice.concern != "gemm" or training is None or device is None or training.precision in device.formats:
        return choice
    if device.formats_basis == "recipes":  # its list is only what recipes run: an unlisted format is not news
        return choice
    if training.precision in training.stack.applies_to.weight_only:
        return choice
    text = (
        f"{training.precision}: the format {training.stack.name} trains in; {device.name}'s documented formats "
        f"({device.formats_text()}) do not list it, so check the first steps' loss against fp32 on the target"
    )
    why = line(text, cite_stack(training.stack, None))
    return reason_first(choice, why)


def serves_published_fp8(stack: Stack) -> bool:
    """The stack serves a publisher's FP8 checkpoint: its models are released in FP8 (DeepSeek-V3), or it names one of
    the publishers' FP8 twins (fp8_checkpoint_ids) among its models or parts."""
    if stack.applies_to.released_format == "fp8":
        return True
    named = stack_names(stack)
    return any(twin in named for twin in fp8_checkpoint_ids())


def stack_names(stack: Stack) -> str:
    """What a stack names, lower case: its models, and its parts' names and settings (where a checkpoint id it serves
    stands)."""
    return " ".join(
        [*stack.applies_to.models, *(f"{part.name} {part.setting or ''}" for part in stack.components)]
    ).lower()


def format_article(precision: str) -> str:
    """The article before a format's name as it is read aloud: 'a bf16', 'an fp8', 'an int8', 'an nvfp4'."""
    return "a" if precision.startswith("b") else "an"


def named_weight_release(choice: Choice, context: RuleContext) -> Choice:
    """An INT8 or INT4 ask naming a weight-quantized release ('...-GPTQ-Int8', review 86 p05): that checkpoint holds
    16-bit activations and its own format, not the one the stack's quantization route writes, so the route quantizes
    the release's float base and the named checkpoint is the team's to check on the engine."""
    profile = context.profile
    release = quantized_release(profile.model_name)
    if choice.concern != "quantization" or not profile.needs.quantized or release is None or profile.trains:
        return choice
    fmt, base = release
    if fmt == "nvfp4":  # NVIDIA's release is read by published_checkpoint's FP8 branch and the stack's own formats
        return choice
    text = (
        f"{profile.model_name} is a weight-only {fmt} release of {base} (16-bit activations, its own checkpoint "
        f"format): the stack's route quantizes {base}'s float weights in its own format instead; serve that, or check "
        f"that the engine loads {profile.model_name} as it is before relying on it (this stack's page does not show it)"
    )
    return reason_first(choice, line(text, cite_profile(profile, "model"), cite_profile(profile, "needs.quantization")))


def released_four_bit(choice: Choice, context: RuleContext) -> Choice | None:
    """A 4-bit ask for a model its publisher releases in that 4-bit format (gpt-oss's MXFP4 experts): the engine
    serves the release as it is and no toolkit runs, so the quantization part is the engine's, not a quantizer the rules
    chose for float checkpoints (review 102 p07: 'OpenAI's released MXFP4 expert weights (modelopt)'). None otherwise."""
    profile = context.profile
    if choice.concern != "quantization" or profile.trains or not profile.llm or profile.model_name is None:
        return None
    known = size_of(profile.model_name)
    released = known.released_format if known is not None else None
    if released is None or released == "fp8" or released not in PRECISIONS_FOR.get(profile.needs.quantization, ()):
        return None
    runtime = context.stack.runtime
    if runtime is None or not context.stack.serving_engine:
        return None
    if requantization_of(choice.settings.get("as documented", ""), profile.model_name) is not None:
        return None  # the stack serves a vendor's requantization instead (AMD's Quark gpt-oss-120b on MI355X)
    text = f"{profile.model_name} is released in {released}: serve it as released; no quantizer runs"
    why = line(text, cite_profile(profile, "model"), cite_profile(profile, "needs.quantization"))
    # the stack's own lines stay (its part, as documented); a toolkit's 'writes checkpoints ...' line does not
    kept = tuple(r for r in choice.rationale if not r.text.startswith("writes checkpoints"))
    settings = {
        **{k: v for k, v in choice.settings.items() if k not in ("dtype", "method", "granularity", "layernorm")},
        "dtype": released,
        "checkpoint": f"{profile.model_name}{AS_RELEASED}",
    }
    return choice.model_copy(update={"option": runtime, "settings": settings, "rationale": capped((why, *kept))})


def published_checkpoint(choice: Choice, context: RuleContext) -> Choice:
    """FP8 serving: a model its authors publish in FP8 is served as released; the toolkit is for float checkpoints.
    A publisher's FP8 twin of the model is named; where no stack of the family for the model's type documents serving a
    publisher's FP8 checkpoint (a vision-language stack's released checkpoints say nothing of a text MoE's), the
    toolkit's calibrated route stays and the twin is something to check first."""
    profile = context.profile
    four_bit = released_four_bit(choice, context)
    if four_bit is not None:
        return four_bit
    if choice.concern != "quantization" or profile.needs.quantization != "fp8" or not profile.serves or not profile.llm:
        return choice  # a diffusion or CNN checkpoint is not published in FP8 the way LLM releases are
    if profile.trains:
        return trained_checkpoint(choice, context)
    named = profile.model_name
    known = size_of(named) if named is not None else None
    own = (published_fp8(named) or vendor_fp8(named, profile.hardware)) if named is not None else None
    served_here = fp8_release_served_here(named, context) if named is not None and own is None else None
    twin = own or served_here
    if twin is not None and named is not None:
        who = released_by(twin, named)
        loads = any(
            serves_published_fp8(stack) and profile.model_type in stack.applies_to.model_types
            for stack in context.knowledge.stacks_for(profile.hardware)
        )
        toolkit = context.knowledge.get(choice.option) if choice.option in context.knowledge.ids() else None
        elsewhere = (  # review 150 p12: ModelOpt, a CUDA tool, told to a Trainium team as its quantizer
            ", and runs on another family's devices only: calibrate a copy there"
            if toolkit is not None and profile.hardware not in toolkit.hardware.value
            else ""
        )
        if served_here is not None:  # another vendor's release that a stack here names (spoken of without its terms)
            who = f"this family's stack serves {twin.checkpoint}, an FP8 release of {named}:"
        text = (
            f"{who} {'' if served_here else f'{twin.checkpoint} ({twin.format}): '}serve that checkpoint as "
            f"released; the toolkit is for a float checkpoint of your own (a fine-tuned copy){elsewhere}"
            if loads
            else f"{who} {twin.checkpoint} ({twin.format}), but no {profile.hardware} stack "
            f"here for {profile.model_type} models documents serving a publisher's FP8 checkpoint: quantize the BF16 "
            "checkpoint with the stack's own route, and try the FP8 release only once it loads and matches that "
            "route's accuracy"
        )
        chosen = reason_first(choice, line(text, cite_release(twin), cite_profile(profile, "needs.quantization")))
        return served_as_released(chosen, context, twin.checkpoint) if loads else chosen
    other_release = quantized_release(named)
    if named is not None and other_release is not None and other_release[0] != "fp8":  # an NVFP4 or AWQ release named
        fmt, base = other_release
        base_size = size_of(base)
        text = (
            f"{named} is {format_article(fmt)} {fmt} release of {base}, not an fp8 one: "
            + (
                f"{base_size.id} itself is released in FP8, so serve that checkpoint as released for the fp8 asked"
                if base_size is not None and base_size.released_format == "fp8"
                else f"quantize {base}'s float checkpoint for the fp8 asked"
            )
            + f", or serve {named} as released in {fmt} on a stack that documents {fmt}"
        )
        return reason_first(
            choice, line(text, cite_profile(profile, "model"), cite_profile(profile, "needs.quantization"))
        )
    if named is not None and (
        named.upper().endswith("-FP8")
        or named.lower() in fp8_checkpoint_ids()  # a catalogued FP8 release itself (amd/...-FP8-KV, review 96 p04)
        or (known is not None and known.released_format == "fp8")
    ):
        text = f"{named} is published in FP8: serve that checkpoint as released; the toolkit is for float checkpoints"
        published = line(text, cite_profile(profile, "model"), cite_profile(profile, "needs.quantization"))
        return served_as_released(reason_first(choice, published), context, named)
    elif named is not None and (loaded := fp8_release_loaded_here(named, context)) is not None:
        # review 160 p10: NVIDIA's ModelOpt FP8 Llama 3.3 70B, which vllm-gaudi loads since 0.15.1, went unnamed. It is
        # an alternative after the documented launch, not in its place (reviews 161 and 162 p10 read one line as two
        # routes mixed), said without the other family's terms (tier 1 speaks of the target alone)
        release, tool, claim = loaded
        text = (
            f"the launch above is the toolkit's calibrated route, the one the family's guide documents; as an "
            f"alternative, {release.checkpoint}, an FP8 release of {named} in {tool}'s checkpoint format, loads on "
            f"{profile.hardware}'s engine through its {tool} path (launched as released, without the toolkit's "
            "calibration config): compare the two on your evaluation before choosing"
        )
        release_cites = (
            cite_release(release),
            cite_compatibility("quantized_output_families", tool, claim),
            cite_profile(profile, "needs.quantization"),
        )
        return choice.model_copy(update={"rationale": capped((*choice.rationale[:2], line(text, *release_cites)))})
    elif named is not None:  # the catalogue does not say it is released in FP8: its authors' -FP8 release, if any
        text = (
            f"if {named}'s authors publish an FP8 release of it (an -FP8 checkpoint), serve that as released; quantize "
            "the BF16 checkpoint with the toolkit otherwise"
        )
    else:
        text = (
            "where the model is already published in FP8 (DeepSeek-V3, or a checkpoint named -FP8), serve that "
            "checkpoint as released; quantize a BF16/FP16 checkpoint with the toolkit otherwise"
        )
    cites = (cite_profile(profile, "model"),) if named is not None else ()
    return reason_first(choice, line(text, *cites, cite_profile(profile, "needs.quantization")))


def fp8_release_loaded_here(
    named: str, context: RuleContext
) -> tuple[PublishedCheckpoint, str, Claim[list[str]]] | None:
    """A hardware vendor's FP8 release of the model for another family, made with a toolkit whose output the profile's
    family is documented to load (compatibility.quantized_output_families: vllm-gaudi loads ModelOpt's FP8 for dense
    models): the release, its toolkit and that claim; None otherwise."""
    profile = context.profile
    compatibility = context.knowledge.compatibility
    for entry in published_checkpoints():
        if entry.model.lower() != named.lower() or entry.precision != "fp8" or entry.family in (None, profile.hardware):
            continue
        toolkit = context.knowledge.policy.release_toolkit(entry.format)
        claim = compatibility.quantized_output_families.get(toolkit) if toolkit is not None else None
        if (
            toolkit is not None
            and claim is not None
            and profile.hardware in compatibility.output_families(toolkit, profile.model_type, "fp8")
        ):
            return entry, toolkit, claim
    return None


def fp8_release_served_here(named: str, context: RuleContext) -> PublishedCheckpoint | None:
    """A catalogued FP8 checkpoint of the model, from any publisher, that a stack of the profile's family names as
    what it serves (vLLM Neuron's Llama page serves NVIDIA's ModelOpt FP8 Llama 3.3 70B on Trainium), or None."""
    texts = [
        stack_names(stack)
        for stack in context.knowledge.stacks_for(context.profile.hardware)
        if serves_published_fp8(stack)
    ]
    return next(
        (
            entry
            for entry in published_checkpoints()
            if entry.model.lower() == named.lower()
            and entry.precision == "fp8"
            and any(entry.checkpoint.lower() in text for text in texts)
        ),
        None,
    )


def vendor_four_bit(choice: Choice, context: RuleContext, serving: Judged | None) -> Choice:
    """fp4 serving of a model whose hardware vendor releases a 4-bit float checkpoint of it for its devices (NVIDIA's
    NVFP4, AMD's MXFP4) in a format the chosen serving stack runs: that checkpoint, served as released, is named."""
    profile = context.profile
    named = profile.model_name
    if choice.concern != "quantization" or profile.needs.quantization != "fp4" or not profile.serves or named is None:
        return choice
    if serving is None or profile.trains:
        return choice
    runs = [p for p in PRECISIONS_FOR["fp4"] if p in serving.stack.applies_to.precisions]
    release = catalogued_release(named, profile.hardware, runs)
    if release is None:
        return choice
    text = (
        f"{released_by(release, named)} {release.checkpoint} ({release.format}): serve that {release.precision} "
        "checkpoint as released; the toolkit is for a float checkpoint of your own"
    )
    chosen = reason_first(choice, line(text, cite_release(release), cite_profile(profile, "needs.quantization")))
    return served_as_released(chosen, context, release.checkpoint)


def published_int8(choice: Choice, context: RuleContext, serving: Judged | None) -> Choice:
    """int8 serving of a model whose publisher releases a weight-only INT8 checkpoint (Qwen's GPTQ-Int8) in a format
    the chosen serving stack's engine documents loading as published: the quantization part serves that checkpoint,
    so the verdict and this part name one route (review 204 p13: the verdict named the release while this part said no
    public tool writes the checkpoint)."""
    profile = context.profile
    named = profile.model_name
    if choice.concern != "quantization" or profile.needs.quantization != "int8" or named is None or profile.trains:
        return choice
    if serving is None or serving.stack.loads_releases is None or quantized_release(named) is not None:
        return choice
    release = loadable_int8_release(serving.stack, named)
    if release is None:
        return choice
    text = (
        f"{named}'s publisher releases {release.checkpoint} ({release.format}), which {serving.stack.runner_name} loads "
        "as published: serve that checkpoint as released (its GEMMs take 16-bit activations on 8-bit weights); a W8A8 "
        "checkpoint, with 8-bit activations too, is the route to measure against it"
    )
    loaded = cite_stack_claim(serving.stack, "loads_releases", ", ".join(serving.stack.loads_releases.value))
    chosen = reason_first(
        choice, line(text, cite_release(release), loaded, cite_profile(profile, "needs.quantization"))
    )
    settings = {**chosen.settings, "checkpoint": f"{release.checkpoint}{AS_RELEASED}", "dtype": "int8"}
    return chosen.model_copy(update={"settings": settings})


def block_scaled_gemm(choice: Choice, context: RuleContext, serving: Judged | None) -> Choice:
    """FP8 serving of a model released in block-scaled FP8 (Qwen3's 128-wide blocks), on an engine whose own kernels
    run such layers (its `block_scaled_fp8` claim): the GEMM part is that engine's block-scaled kernel, not the vendor
    BLAS's per-tensor FP8 GEMM (reviews 204 p01, 206 p01: "cuBLAS runs FP8 GEMMs" for Qwen3-235B-A22B-FP8)."""
    profile = context.profile
    if choice.concern != "gemm" or choice.settings.get("dtype") != "fp8" or serving is None or profile.trains:
        return choice
    runner = serving.stack.runner
    if runner is None or runner.candidate is None or not block_scaled_fp8(profile):
        return choice
    engine = context.knowledge.get(runner.candidate) if runner.candidate in context.knowledge.ids() else None
    if engine is None or engine.block_scaled_fp8 is None:
        return choice
    text = f"the checkpoint's FP8 weights carry block scales, which {engine.name} runs in its own kernels: {engine.block_scaled_fp8.value}"
    why = line(text, cite_claim(engine, "block_scaled_fp8"), cite_profile(profile, "model"))
    kept = tuple(r for r in choice.rationale if not any(c.ref.startswith(f"{choice.option}.") for c in r.cites))
    settings = {**choice.settings, "scales": "the checkpoint's block scales"}
    return choice.model_copy(update={"option": engine.id, "settings": settings, "rationale": (why, *kept)})


def extended_context(choice: Choice, context: RuleContext) -> Choice:
    """Long-context serving of a model whose card states a native window and a RoPE extension past it (Qwen3's 32,768
    tokens, 131,072 with YaRN): the deployment part says to turn the extension on, and what it costs short prompts
    (review 206 p01: a 128k plan for Qwen3-235B-A22B with no word on YaRN)."""
    profile = context.profile
    if choice.concern != "deployment" or not profile.serves or not profile.needs.long_context:
        return choice
    window = context_window(profile.model_name) if profile.model_name is not None else None
    if window is None:
        return choice
    text = (
        f"context window: {profile.model_name} runs {window.native_tokens:,} tokens natively and "
        f"{window.extended_tokens:,} with {window.extension}; its card warns that {window.caveat}"
    )
    cite = Citation(
        kind="knowledge", ref=f"context_windows.{window.id}", figure=f"{window.native_tokens}", source=window.source
    )
    return after_first(choice, line(text, cite, cite_profile(profile, "needs.long_context")))


def released_by(release: PublishedCheckpoint, named: str) -> str:
    """Who releases a catalogued checkpoint, as the start of a sentence: the model's publisher, or a hardware vendor."""
    if release.family is None:
        return f"{named}'s publisher releases"
    return f"the hardware vendor releases, for {release.family} devices,"


def served_as_released(choice: Choice, context: RuleContext, checkpoint: str) -> Choice:
    """A published FP8 checkpoint served as released: no toolkit runs, so the quantization part is the serving engine
    loading it, and the toolkit the stack names stays as the route for a float copy of the team's own."""
    runtime = context.stack.runtime
    if runtime is None or runtime == choice.option or not context.stack.serving_engine:
        return choice
    settings = {
        "dtype": choice.settings.get("dtype", context.profile.needs.quantization),
        "checkpoint": f"{checkpoint}{AS_RELEASED}",
        "for a fine-tuned copy": choice.option,
    }
    return choice.model_copy(update={"option": runtime, "settings": settings})


def trained_checkpoint(choice: Choice, context: RuleContext) -> Choice:
    """A job that serves the model it trains: no publisher's FP8 release is that model, so the trained float checkpoint
    is quantized. Where the stack's quantization part is its engine serving a published checkpoint as released, the
    family's toolkit whose output the engine loads takes the part (the engine's official quantizer first)."""
    profile, knowledge = context.profile, context.knowledge
    dtype, named = profile.needs.quantization, profile.model_name
    twin = published_fp8(named) if named is not None else None
    released = f" ({twin.checkpoint}, its publisher's FP8 release, holds the base model's weights)" if twin else ""
    engine = knowledge.get(choice.option) if choice.option in knowledge.ids() else None
    if engine is None or engine.layer.value != "serving-engine":
        toolkit_qat = choice.option in knowledge.ids() and knowledge.get(choice.option).qat.value in ("yes", "partial")
        if profile.needs.quantization_method == "qat" and toolkit_qat:
            # QAT: the toolkit inserts the fake quantizers before the fine-tune, not after it
            text = (
                f"the model served is the checkpoint this job trains, not a published release{released}: for the QAT "
                f"asked, quantize the model with {choice.option} before the fine-tune (its fake quantizers then train "
                f"in the loop), train, and export the {dtype} checkpoint; gate it on the evaluation against bf16"
            )
            cites = (
                cite_profile(profile, "needs.quantization_method"),
                cite_claim(knowledge.get(choice.option), "qat"),
            )
            return reason_first(choice, line(text, *cites))
        text = (
            f"the model served is the checkpoint this job trains, not a published release{released}: quantize the "
            f"trained bf16 checkpoint to {dtype} with {choice.option} and gate it on the evaluation against bf16"
        )
        return reason_first(choice, line(text, cite_profile(profile, "workload"), cite_profile(profile, "model")))
    official = context.official("quantization")
    makers = [
        knowledge.get(t)
        for t in knowledge.compatibility.toolkits_loaded_by(engine.id)
        if t in knowledge.ids()
        and profile.hardware in knowledge.get(t).hardware.value
        and format_support(knowledge.get(t), dtype, knowledge) in ("yes", "partial")
    ]
    makers.sort(key=lambda t: (t.id not in official, t.id))
    if not makers:
        text = (
            f"the model served is the checkpoint this job trains, not a published release{released}: no toolkit "
            f"whose output {engine.name} loads runs on {profile.hardware}, so quantize the trained bf16 checkpoint "
            f"with {engine.name}'s own {dtype} quantization at load and gate it on the evaluation against bf16"
        )
        return reason_first(
            choice,
            line(text, cite_profile(profile, "workload"), cite_format(engine, dtype, knowledge, profile.hardware)),
        )
    toolkit = makers[0]
    text = (
        f"the model served is the checkpoint this job trains, not a published release{released}: {toolkit.name} "
        f"quantizes the trained bf16 checkpoint to {dtype}, and {engine.name} loads what it writes"
    )
    why = line(
        text,
        cite_profile(profile, "workload"),
        cite_format(toolkit, dtype, knowledge, profile.hardware),
        cite_compatibility(
            "quantized_output_loaded_by", toolkit.id, knowledge.compatibility.quantized_output_loaded_by[toolkit.id]
        ),
    )
    settings = {"dtype": dtype, "method": choice.settings.get("method", profile.needs.quantization_method)}
    return Choice(
        concern="quantization",
        option=toolkit.id,
        settings={key: value for key, value in settings.items() if value},
        rationale=(why,),
        fits_team=SKILL_ORDER.index(toolkit.skill.value) <= SKILL_ORDER.index(profile.team_skill),
    )


def released_weights_for_training(choice: Choice, context: RuleContext) -> Choice:
    """A model its publisher releases only quantized (DeepSeek-V3's block-scaled FP8, Kimi-K2-Thinking's INT4), trained
    further here: the training framework loads float weights, so the release is dequantized to bf16 first, and the
    trained checkpoint leaves in bf16."""
    profile = context.profile
    named = profile.model_name
    known = size_of(named) if named is not None else None
    if (
        choice.concern != "training-framework"
        or not profile.trains
        or profile.training == "pretraining"
        or known is None
        or known.released_format is None
    ):
        return choice
    text = (
        f"{named} is released in {known.released_format} only: dequantize it to bf16 before {choice.option} loads it "
        f"for training (the publisher's card gives the format), and the trained checkpoint leaves in bf16"
    )
    release = Citation(kind="knowledge", ref=f"models.{known.id}", figure=known.released_format, source=known.source)
    return after_first(choice, line(text, release, cite_profile(profile, "model")))


def other_default_path(choice: Choice, judged: Judged | None, profile: Profile) -> Choice:
    """Where the stack runs another format by default (NVFP4) and documents the asked one too (FP8), the quantization
    choice says which path of the stack this profile takes, and that the default is a decision of its own."""
    if judged is None or not judged.rank.other_default or not profile.needs.quantized or judged.workload != "inference":
        return choice
    if (
        judged.stack.applies_to.precisions[0] in FLOAT_PRECISIONS
    ):  # a float default: the quantized path is the asked one
        return choice
    default, asked = judged.stack.applies_to.precisions[0], profile.needs.quantization
    text = (
        f"{asked} path of {judged.stack.name}: the stack runs {default} by default and documents {asked}; "
        f"the profile asks {asked}, so serve an {asked} checkpoint ({default} is a separate decision, after an "
        "accuracy check against bf16)"
    )
    reasons = capped((line(text, cite_stack(judged.stack)), *choice.rationale))
    return choice.model_copy(update={"settings": {**choice.settings, "dtype": asked}, "rationale": reasons})


def after_first(choice: Choice, why: Rationale) -> Choice:
    """The choice with one more reason right after its first (the reason it was chosen), within MAX_REASONS."""
    return choice.model_copy(update={"rationale": capped((*choice.rationale[:1], why, *choice.rationale[1:]))})


def untrained_length(profile: Profile) -> Rationale:
    """Long-context training on a framework whose long-sequence features the knowledge base does not hold: activation
    memory grows with the sequence, so the longest sequence's step is what to check first."""
    return line(
        "long context: no context or sequence parallelism of this training route is in the knowledge base, and "
        "activation memory grows with the sequence length: run one step at the longest sequence on the target "
        "(activation checkpointing on) before planning the job, and compare a framework that documents context "
        "parallelism on this platform if it does not fit",
        cite_profile(profile, "needs.long_context"),
    )


def with_long_context(choice: Choice, context: RuleContext, stacks: StackChoice) -> Choice:
    """For long-context serving, the engine's own long-sequence features (chunked prefill, KV-cache format, context
    parallelism) as a reason of the deployment choice, where the knowledge base documents them."""
    profile, known = context.profile, context.knowledge.ids()
    runs = {"deployment": profile.serves, "training-framework": profile.trains}.get(choice.concern, False)
    if not (profile.needs.long_context and runs) or profile.embeds:
        return choice  # an embedding model's long inputs need no engine's KV-cache or chunked-prefill features
    workload = {"deployment": "inference", "training-framework": "training"}[choice.concern]
    chosen = stacks.for_workload(workload)  # the chosen serving stack for deployment, the training stack for training
    if choice.option not in known:
        if workload == "training" and (chosen is None or chosen.stack.long_context is None):
            return after_first(choice, untrained_length(profile))
        return choice
    candidate = context.knowledge.get(choice.option)
    if chosen is not None and chosen.stack.long_context is not None:
        documented = chosen.stack.long_context  # the stack's own page (vllm-ascend's context parallel) first
        why = line(
            f"long context: {documented.value}",
            cite_stack_claim(chosen.stack, "long_context"),
            cite_profile(profile, "needs.long_context"),
        )
        return after_first(choice, why)
    families = context.knowledge.policy.long_context_families.get(candidate.id)
    if candidate.long_context is None or (families is not None and profile.hardware not in families):
        # the upstream engine's long-context page does not speak for a hardware plugin's build: say so, not nothing
        if choice.concern != "deployment":
            return after_first(choice, untrained_length(profile))
        where = f" (documented for {', '.join(families)})" if families else ""
        why = line(
            f"long context: no long-sequence feature of {candidate.name} on {profile.hardware} is in the knowledge "
            f"base{where}: measure time to first token and the KV-cache capacity at the longest context on the target "
            "before relying on it",
            cite_profile(profile, "needs.long_context"),
        )
        return after_first(choice, why)
    if choice.concern == "training-framework":  # a training framework's long sequences: context parallelism
        why = line(
            f"long context: {candidate.long_context.value}",
            cite_claim(candidate, "long_context"),
            cite_profile(profile, "needs.long_context"),
        )
        return after_first(choice, why)
    text = candidate.long_context.value
    unsupported = " ".join(f"{c.name} {c.setting or ''}" for judged in stacks.chosen for c in judged.stack.components)
    if re.search(r"chunked[\w -]*not supported|not supported[\w -]*chunked", unsupported, re.IGNORECASE):
        text = "; ".join(part for part in text.split("; ") if "chunk" not in part.lower())  # the stack's page says no
    device = stacks.device  # the profile's device, or the family's current one
    if device is None or "fp8" not in device.formats:  # an FP8 KV cache needs a device that runs FP8
        text = "; ".join(part for part in text.split("; ") if "fp8" not in part.lower())
    if not text:
        return choice
    why = line(
        f"long context: {text}", cite_claim(candidate, "long_context"), cite_profile(profile, "needs.long_context")
    )
    settings = dict(choice.settings)
    fp8_kv = "fp8" in (device.formats if device else ()) and "KV" in (candidate.fp8.note or "")
    # a recipe that sets its own KV-cache dtype (TensorRT-LLM's H200 DeepSeek recipe: dtype auto) keeps it; the FP8 KV
    # cache is then the KV accuracy switch's step, not tier 1's setting (review 246 p01)
    documented_kv = " ".join(
        part.setting or "" for judged in stacks.chosen for part in judged.stack.components if part.role == "kv-cache"
    )
    fp8_kv = fp8_kv and KV_DTYPE_SET.search(documented_kv) is None
    if profile.needs.quantization in FP8_KV_ASKS and fp8_kv and "fp8" not in settings.get("kv-cache", "").lower():
        kv = f"FP8 KV cache (halves the KV memory at long context; {candidate.name} documents one)"
        settings["kv-cache"] = f"{settings['kv-cache']}; {kv}" if settings.get("kv-cache") else kv
    return choice.model_copy(
        update={"rationale": capped((*choice.rationale[:1], why, *choice.rationale[1:])), "settings": settings}
    )


# a KV-cache setting that names a float dtype or the checkpoint's own ("dtype auto")
KV_DTYPE_SET = re.compile(r"\bdtype[ =:]*(?:auto|bf16|bfloat16|fp16|float16)\b", re.IGNORECASE)


def alternatives_in_stacks(choice: StackChoice, workload: str, known: set[str]) -> dict[str, tuple[str, ...]]:
    """Concern -> the candidates other usable stacks of this workload put there: the alternatives that fit a stack."""
    found: dict[str, list[str]] = {}
    for judged in choice.considered:
        if judged.workload != workload or judged.weight >= TOO_FAR:
            continue
        runner = runner_of(judged.stack, workload, known)
        for component in judged.stack.components:
            concern = ROLE_CONCERNS.get(component.role) or (
                runner_concern(workload) if component.role in runner_roles(workload) else None
            )
            runs_it = (
                runner is not None and component.candidate == runner.candidate and concern != runner_concern(workload)
            )
            if concern is not None and component.candidate in known and not runs_it:  # an engine is no quantizer
                found.setdefault(concern, []).append(component.candidate)
    return {concern: tuple(dict.fromkeys(ids)) for concern, ids in found.items()}


EXPERT_PARALLEL_WORDS = re.compile(r"expert[- ]parallel|\bEP\s?\d*\b|enable-expert-parallel|--ep\b", re.IGNORECASE)
# A serving page that sets the engine's own expert all-to-all backend (vLLM's VLLM_ALL2ALL_BACKEND / --all2all-backend)
ALL_TO_ALL_BACKEND = re.compile(r"all2all[-_ ]backend", re.IGNORECASE)


# A training stack's parallelism part that shards the weights, gradients and optimizer state across its devices.
SHARDED_PARALLELISM = re.compile(r"\b(FSDP2?|ZeRO-?3|fully sharded|ici_fsdp_parallelism)\b", re.IGNORECASE)
# MaxText/MaxDiffusion's mesh axes in a command: 'ici_fsdp_parallelism=4'.
MESH_AXIS = re.compile(r"\bici_(\w+?)_parallelism=(\d+)\b")


def sharded_training(choice: Choice, stacks: StackChoice, context: RuleContext) -> Choice:
    """A training stack that shards its state (MaxDiffusion's FSDP, a ZeRO-3 recipe): the collectives are its
    all-gathers and reduce-scatters, not a data-parallel all-reduce; the framework line says the recipe's layout, and
    where its command's mesh covers another number of devices than the job's, what to change."""
    training = stacks.for_workload("training")
    if training is None or choice.concern not in ("collectives", "training-framework"):
        return choice
    parts = [c for c in training.stack.components if c.role in ("parallelism", "training-framework")]
    layout = " ".join(f"{c.name} {c.setting or ''}" for c in parts)
    devices = context.profile.needs.devices
    if not SHARDED_PARALLELISM.search(layout):
        return replicated_but_too_large(choice, training, context) if replicated_only(layout) else choice
    if choice.concern == "collectives":
        old = DATA_PARALLEL_TRAINING
        text = (
            "training: all-gathers of the sharded weights and reduce-scatters of the gradients, since "
            f"{training.stack.name} shards its state (FSDP) rather than replicating it"
        )
        reasons = tuple(
            line(text, cite_stack(training.stack), *r.cites[:1]) if r.text == old else r for r in choice.rationale
        )
        return choice.model_copy(update={"rationale": reasons})
    reasons = tuple(
        r.model_copy(
            update={"text": r.text.replace(data_parallel_over(devices), f", sharded (FSDP) over {devices} devices")}
        )
        for r in choice.rationale
    )
    mesh = [int(size) for _, size in MESH_AXIS.findall(choice.settings.get("as documented", ""))]
    product = 1
    for size in mesh:
        product *= size
    settings = dict(choice.settings)
    if mesh and product != devices:
        settings["devices"] = (
            f"the page's command lays the model over {product} devices (the product of its ici_*_parallelism "
            f"values); this job has {devices}: scale ici_fsdp_parallelism so that the product is {devices}"
        )
    return choice.model_copy(update={"rationale": reasons, "settings": settings})


# A layout that copies the model to every device (data parallelism alone), and the words of any layout that splits it.
REPLICATED = re.compile(r"\bdata[- ]parallel|\bDDP\b|\bici_data_parallelism\b", re.IGNORECASE)
SPLIT_LAYOUT = re.compile(
    r"\btensor|\bpipeline|\bexpert|\b[TPE]P ?\d|\bdistributed[- ]optimizer|\bcontext[- ]parallel|\bsequence[- ]parallel"
    r"|\bZeRO|\bmegatron",
    re.IGNORECASE,
)


def replicated_only(layout: str) -> bool:
    """The stack's documented layout is data parallelism alone: no tensor, pipeline, expert or sequence split, no
    distributed optimizer or ZeRO stage (review 103's verl MoE recipe, TP2 EP8 on Megatron, is no replica per device)."""
    return REPLICATED.search(layout) is not None and SPLIT_LAYOUT.search(layout) is None


def replicated_but_too_large(choice: Choice, training: Judged, context: RuleContext) -> Choice:
    """A recipe that copies the training state to every device (data parallel), for a job whose state outgrows one of
    its devices (a v5p recipe on 32 GB v6e chips; review 102 p14): the framework line says the layout must change to a
    sharded one, as the capacity line does, instead of calling the job data parallel."""
    if choice.concern != "training-framework" or not training_state_outgrows_one_device(
        context.profile, context.device
    ):
        return choice
    devices = context.profile.needs.devices
    sharded = f", sharded over {devices} devices (the page's recipe copies the state to each; see capacity)"
    reasons = tuple(
        r.model_copy(update={"text": r.text.replace(data_parallel_over(devices), sharded)}) for r in choice.rationale
    )
    layout = (
        f"the page's recipe is data parallel, which copies the whole training state "
        f"{'(for LoRA, the frozen weights) ' if context.profile.training == 'lora' else ''}to every device, and this "
        f"job's state does not fit one device: switch to the framework's own sharding (FSDP-style or DeepSpeed ZeRO-3, "
        f"or tensor/pipeline parallel) over the {devices} devices before running it"
    )
    return choice.model_copy(update={"rationale": reasons, "settings": {**choice.settings, "layout": layout}})


def expert_layout(choice: Choice, stacks: StackChoice, context: RuleContext) -> Choice:
    """An expert all-to-all library (DeepEP) runs only under expert parallelism: for serving within one node, it is
    named where the chosen serving stack sets up expert parallelism, and otherwise said as what EP would add."""
    library = choice.settings.get("expert-all-to-all")
    serving = stacks.for_workload("inference")
    if choice.concern != "collectives" or library is None or context.profile.trains or serving is None:
        return choice
    if context.profile.needs.devices > context.node_devices:  # an MoE model served across nodes runs expert-parallel
        return choice
    name = context.knowledge.get(library).name if library in context.knowledge.ids() else library
    stack = serving.stack
    text = " ".join([stack.summary.value, *(f"{c.name} {c.setting or ''}" for c in stack.components)])
    short = name.split(" (")[0]
    named = library.lower() in text.lower() or short.lower() in text.lower()
    own = next(
        (c for c in stack.components if c.role == "collectives" and ALL_TO_ALL_BACKEND.search(c.setting or "")),
        next((c for c in stack.components if c.role == "moe" and c.setting), None),  # or its own MoE backend
    )
    if named or (EXPERT_PARALLEL_WORDS.search(text) and own is None):
        return choice
    settings = {k: v for k, v in choice.settings.items() if k != "expert-all-to-all"}
    kept = tuple(r for r in choice.rationale if not r.text.startswith(name))
    if own is not None and EXPERT_PARALLEL_WORDS.search(text):  # the page names its own all-to-all backend
        why = line(
            f"{short} is not the expert all-to-all {stack.name} documents (its page sets {own.setting}): "
            "an alternative backend, measured against that one",
            cite_stack(stack),
        )
        return choice.model_copy(update={"settings": settings, "rationale": (*kept, why)})
    why = line(
        f"{short} only with expert parallelism, which {stack.name} does not set up (its layout is "
        "tensor parallel): it comes with an expert-parallel layout, measured against this one",
        cite_stack(stack),
    )
    return choice.model_copy(update={"settings": settings, "rationale": (*kept, why)})


def compiled_graph_kernels(
    merged: Sequence[Choice], choice: StackChoice, context: RuleContext, open_concerns: Sequence[str]
) -> list[Choice]:
    """A model other than an LLM served by a documented stack as a compiled graph (IGIE, ixRT, ATC): the kernel
    concerns the rules left open (no convolution library named for the family) are the runtime's own, not "the
    framework's", since the framework does not run the served graph."""
    serving = choice.for_workload("inference")
    runner = serving.stack.runner if serving is not None else None
    if (
        context.profile.llm
        or context.profile.trains
        or runner is None
        or runner.candidate not in context.knowledge.ids()
    ):
        return []  # a job that also trains keeps the framework's kernels for its training side
    taken = {c.concern for c in merged}
    candidate = context.knowledge.get(runner.candidate)
    does = (  # a serving engine runs its own kernels; a graph runtime compiles them into the served graph
        "runs this concern's kernels itself (the serving engine)"
        if candidate.layer.value == "serving-engine"
        else "compiles the served graph, this concern's kernels included (the deployment runtime)"
    )
    why = line(
        f"{runner.name} {does}",
        cite_stack(serving.stack, runner) if serving is not None else cite_claim(candidate, "summary"),
    )
    return [
        Choice(
            concern=concern,  # type: ignore[arg-type]
            option=candidate.id,
            settings={"part": f"{runner.name}'s own kernels", "by": "runtime"},
            rationale=(why,),
        )
        for concern in open_concerns
        if concern in RUNTIME_KERNEL_CONCERNS and concern not in taken
    ]


def runtime_owned_kernels(
    merged: list[Choice], context: RuleContext, open_concerns: Sequence[str] = ()
) -> list[Choice]:
    """With no documented stack, a portable graph runtime chosen to serve (ONNX Runtime, llama.cpp) still runs the model
    on its own kernels: the GEMM, convolution, attention and fusion choices are its own, not a library it never calls,
    and a kernel concern left open (no attention library for the family) is its own too, not "the framework's"."""
    profile = context.profile
    deployment = next((c for c in merged if c.concern == "deployment"), None)
    if profile.trains or deployment is None or deployment.option not in context.knowledge.ids():
        return merged
    runtime = context.knowledge.get(deployment.option)
    if runtime.layer.value not in RUNTIME_KERNEL_LAYERS or len(runtime.hardware.value) < 2:
        return merged  # a family's own compiler-runtime (ATC, TensorRT) runs that family's libraries, named as such
    owned = []
    placeholders = [
        Choice(concern=concern, option=runtime.id, rationale=(line("open", cite_claim(runtime, "summary")),))  # type: ignore[arg-type]
        for concern in open_concerns
        if concern in RUNTIME_KERNEL_CONCERNS
    ]
    for c in [*merged, *placeholders]:
        if c.concern in RUNTIME_KERNEL_CONCERNS and (c.option != runtime.id or c in placeholders):
            why = line(
                f"{runtime.name} runs {c.concern} on its own kernels for this platform (the deployment runtime)",
                cite_claim(runtime, "summary"),
            )
            settings = {
                "part": f"{runtime.name}'s own kernels",
                "by": "runtime",
                **({"dtype": c.settings["dtype"]} if "dtype" in c.settings else {}),
            }
            c = Choice(concern=c.concern, option=runtime.id, settings=settings, rationale=(why,))
        owned.append(c)
    return owned


def qat_release_route(choice: Choice, context: RuleContext) -> Choice | None:
    """QAT asked for serving a model whose publisher releases QAT-trained checkpoints for the format: the one this
    toolkit loads as released, or else the float QAT-trained weights it quantizes, is where the model comes from (no
    QAT run of the team's own); None where the publisher releases none."""
    profile = context.profile
    release = published_qat(profile.model_name, profile.needs.quantization, choice.option)
    if release is None:
        return None
    candidate = context.knowledge.get(choice.option)
    text = (
        f"QAT asked: the publisher releases {release.model} trained quantization-aware as {release.checkpoint} ({release.format}): "
        + (
            f"{candidate.name} loads it as released, so serve it rather than running QAT of your own"
            if release.loaded_by
            else f"quantize those weights to {release.precision} with {candidate.name}'s own flow rather than running QAT "
            "of your own"
        )
        + " (a fine-tuned copy of the model needs its own QAT)"
    )
    settings = {**choice.settings, "method": "qat (the publisher's QAT release)", "checkpoint": release.checkpoint}
    why = line(text, cite_qat_release(release), cite_profile(profile, "needs.quantization_method"))
    return reason_first(choice.model_copy(update={"settings": settings}), why)


def method_route(choice: Choice, judged: Judged | None, context: RuleContext) -> Choice:
    """The stack's page sets the other quantization method (PTQ where QAT is asked): the quantization choice says how
    the toolkit runs the asked one, from its own claim, instead of leaving the page's flow as if it answered."""
    profile = context.profile
    method = profile.needs.quantization_method
    if choice.concern != "quantization" or not profile.needs.quantized:
        return choice
    if choice.option not in context.knowledge.ids():
        return unlisted_part_qat(choice, judged, context)
    if choice.settings.get("method") == "fp8-training" or (profile.trains and not profile.serves):
        return choice  # a low-precision training recipe is neither PTQ nor QAT
    documented = " ".join(v for k, v in choice.settings.items() if k != "method")
    as_released = choice.settings.get("checkpoint", "").endswith(AS_RELEASED)
    if as_released and method == "ptq" and "for a fine-tuned copy" in choice.settings:
        # a release served as it is runs no quantization step: the PTQ asked is the fine-tuned copy's route (review 149
        # p01: "quantization ... method=ptq" beside NVIDIA's NVFP4 release, read as a step to run)
        settings = {**choice.settings, "for a fine-tuned copy": f"{choice.settings['for a fine-tuned copy']} (ptq)"}
        return choice.model_copy(update={"settings": {k: v for k, v in settings.items() if k != "method"}})
    choice = choice.model_copy(
        update={"settings": {**choice.settings, "method": method}}
    )  # the method asked, always said
    if method == "qat" and not profile.trains:
        released = qat_release_route(choice, context)
        if released is not None:
            return released
    other_flow = judged is not None and any(m.kind == "method" for m in judged.misfits)
    unnamed_qat = method == "qat" and not QAT_WORDS.search(f"{documented} {judged.stack.name if judged else ''}")
    unnamed_qat = unnamed_qat and (
        judged is not None or getattr(context.knowledge.get(choice.option), method).value == "partial"
    )
    if not (other_flow or unnamed_qat):
        return choice
    candidate = context.knowledge.get(choice.option)
    claim = getattr(candidate, method)
    if claim.value == "partial" and claim.note:
        how = claim.note
    elif claim.value == "yes":
        how = f"{candidate.name} documents its own {method.upper()} flow; set it up before export"
    else:  # nothing documented: the training framework runs it, the runtime only loads what it exports
        how = (
            f"{candidate.name} documents no {method.upper()} flow (knowledge base: {claim.value}): run {method.upper()} "
            f"in the training framework and export a quantized model {candidate.name} loads, and check that it "
            "loads before committing to it"
        )
        settings = {**choice.settings, "method": f"{method} in the training framework (this part loads its export)"}
        choice = choice.model_copy(update={"settings": settings})
    text = (
        f"{method.upper()} asked: the stack's page shows the other flow; "
        if other_flow
        else f"{method.upper()} asked, and the stack's page shows no QAT step: "
        if judged is not None
        else f"{method.upper()} asked: "
    ) + how
    why = line(text, cite_claim(candidate, method), cite_profile(profile, "needs.quantization_method"))
    return reason_first(choice, why)


def unlisted_part_qat(choice: Choice, judged: Judged | None, context: RuleContext) -> Choice:
    """A QAT ask on a stack whose quantization step is a part no knowledge-base entry covers (MNN's llm-export): the
    page's step is post-training, so QAT runs in the training framework and this part quantizes its export, said
    rather than left as if the page answered (review 163 p15)."""
    profile = context.profile
    if profile.needs.quantization_method != "qat" or profile.trains or judged is None:
        return choice
    documented = " ".join(choice.settings.values())
    if QAT_WORDS.search(f"{documented} {judged.stack.name}"):
        return choice
    settings = {**choice.settings, "method": "qat in the training framework (this part quantizes its export)"}
    text = (
        f"QAT asked, and the stack's page shows no QAT step: train with QAT in the training framework, then run "
        f"{choice.option} on the trained float weights with the scheme QAT simulated (bits, group size, symmetry), and "
        "check the exported model's answers against the trained one before committing"
    )
    why = line(text, cite_stack(judged.stack), cite_profile(profile, "needs.quantization_method"))
    return reason_first(choice.model_copy(update={"settings": settings}), why)


def shapes_of_unvetted_runner(merged: list[Choice], context: RuleContext) -> tuple[list[Choice], tuple[Gap, ...]]:
    """Where the chosen stack's runner is a part the knowledge base does not list (xDiT, MNN-LLM), another runtime's
    dynamic-shape path (an LLM engine's batching) is not what runs the model: the concern is a gap naming the runner."""
    deployment = next((c for c in merged if c.concern == "deployment"), None)
    shapes = next((c for c in merged if c.concern == "dynamic-shapes"), None)
    # with no dynamic-shape choice for a job that asks dynamic shapes, the rule's gap says "no runtime" beside the runner
    # chosen (review 169 p15)
    if deployment is None or deployment.part_of is None:
        return merged, ()
    if (shapes is None and not context.profile.needs.dynamic_shapes) or (
        shapes is not None and not another_runner(shapes.option, context)
    ):
        return merged, ()
    text = (
        f"{deployment.option} runs the model itself and its page says nothing on varying input shapes: measure warm-up "
        "and any recompilation at each shape served (a compiled graph may recompile per new shape)"
    )
    gap = Gap(concern="dynamic-shapes", rationale=(line(text, cite_profile(context.profile, "needs.dynamic_shapes")),))
    return [c for c in merged if c.concern != "dynamic-shapes"], (gap,)


def without_quantization_on_fallback(
    merged: list[Choice], choice: StackChoice, context: RuleContext
) -> tuple[list[Choice], tuple[Gap, ...]]:
    """A serving stack that runs its float format on this device (no documented path for the asked one) quantizes
    nothing: the quantization concern is a gap that says so, not a toolkit the stack never loads. Where its engine
    itself runs the asked format on this device (vLLM's FP8 on an MI300X), the gap says that path is there to try
    behind the accuracy gate, undocumented for this model (review 80 p14)."""
    profile = context.profile
    serving = choice.for_workload("inference")
    # a stack with no path for the asked format serves its float one (review 91 p09: int8 asked, a bf16/AWQ-int4 recipe)
    in_float = (
        serving is not None
        and profile.needs.quantized
        and serving.precision in FLOAT_PRECISIONS
        and any(m.kind == "precision" for m in serving.misfits)
    )
    if serving is None or not (serving.falls_back or in_float):
        return merged, ()
    asked = profile.needs.quantization
    where = f"on {choice.device.name if choice.device else profile.hardware}"
    text = f"not served here: {serving.fallback_reason(asked, where)}, so the model is served in {serving.precision}"
    cites = [cite_stack(serving.stack), cite_profile(profile, "needs.quantization")]
    engine = engine_runs_format(serving, choice, context)
    if engine is not None:
        text += (
            f"; {engine.name} itself runs {asked} on this device, undocumented for this model: try it (a quantized "
            f"checkpoint, or the engine's own {asked} option) behind the accuracy gate before serving it"
        )
        cites.append(cite_claim(engine, asked))
        writers = checkpoint_writers(engine.id, asked, context)
        if writers:  # the family's toolkits whose output the engine loads (review 134 p04: AMD Quark for vLLM)
            text += f"; {' or '.join(w.name for w in writers)} writes {asked} checkpoints {engine.name} loads"
            relation = context.knowledge.compatibility.quantized_output_loaded_by
            cites.extend(cite_compatibility("quantized_output_loaded_by", w.id, relation[w.id]) for w in writers)
        recipe = format_recipe_here(serving, choice, context)
        if recipe is not None:
            text += (
                f"; {recipe.name} runs {asked} on this device for {few_of(recipe.applies_to.models)}: its "
                "quantization step is the one to follow"
            )
            cites.append(cite_stack(recipe))
    nearer = nearer_published_format(serving, profile)
    if nearer is not None:
        text += f"; {nearer}"
    gap = Gap(concern="quantization", rationale=(line(text, *cites),))
    return [c for c in merged if c.concern != "quantization"], (gap,)


def nearer_published_format(serving: Judged, profile: Profile) -> str | None:
    """For a 4-bit ask served in float: the stack's 8-bit format, nearer the ask, where it serves only its publisher's
    checkpoints of other models (Hygon's INT8 W8A8 releases on the K100_AI), said so that the float plan reads as
    what is left, not as an oversight (review 137 p07)."""
    scope = serving.stack.applies_to
    eight_bit = next((p for p in scope.precisions if p in EIGHT_BIT_FORMATS), None)
    if profile.needs.quantization not in FOUR_BIT_ASKS or eight_bit is None or not scope.quantized_models:
        return None
    if written_for(scope.quantized_models, profile.model_name):
        return None
    return (
        f"its {eight_bit} route, nearer the ask than {serving.precision}, serves only its publisher's checkpoints of "
        f"{few_of(scope.quantized_models)}, none of this model"
    )


def off_default_precision(judged: Judged) -> str | None:
    """Where the stack runs a precision other than its page's example: what that changes in its command; None where it
    runs the page's own."""
    precision, default = judged.precision, judged.stack.applies_to.precisions[0]
    if precision == default:
        return None
    own = next((config for fmt, config in judged.stack.applies_to.precision_configs.items() if fmt == precision), None)
    if own is not None:  # the page ships this format's configuration (Primus's FP8 files, kbprimusfp8)
        return f"{precision}: the page's own {precision} configuration, {own}"
    if judged.workload == "training" and judged.stack.mixed_precision is not None and precision in MIXED_FORMATS:
        return f"{precision}: {judged.stack.mixed_precision.value} (the page's example runs {default})"
    if judged.workload == "training":
        return f"{precision}: train in {precision} (the page's example runs {default})"
    served = f"{precision}: serve {format_article(precision)} {precision} checkpoint"
    if default in FLOAT_PRECISIONS:
        return f"{served} (the page's example runs {default})"
    if default == "fp8" and precision in FOUR_BIT_FLOATS:
        return (
            f"{served} in place of the page's fp8 one, with none of its fp8 weight flags (an fp8 KV cache is a choice "
            "of its own, which 4-bit float recipes keep as well; its example runs fp8)"
        )
    return (
        f"{served} in place of the page's {default} one, with none of its {default} settings (its flags, or options "
        f"such as an {default} KV cache that follow its checkpoint; its example runs {default})"
    )


def checkpoint_writers(engine: str, asked: str, context: RuleContext) -> list[Candidate]:
    """The toolkits whose output this family's build of the engine loads (served_format.checkpoint_makers) that
    document the asked format (AMD Quark's FP8 for vLLM on Instinct)."""
    profile, knowledge = context.profile, context.knowledge
    makers = checkpoint_makers(knowledge, engine, profile.hardware, profile.model_type, asked)
    documented = [knowledge.get(toolkit) for toolkit in makers]
    return [
        toolkit for toolkit in documented if getattr(getattr(toolkit, asked, None), "value", None) in ("yes", "partial")
    ]


def format_recipe_here(serving: Judged, choice: StackChoice, context: RuleContext) -> Stack | None:
    """A considered serving stack on the same engine that documents the asked format on this device for other models of
    the profile's model type (Neuron's Llama 3 FP8 recipe on Trainium2, for a dense Qwen3 served in bf16 there; not for
    a MoE, whose experts that recipe's per-tensor checkpoints never covered: kbneuronqwen3moe); None where none does."""
    device, runner = choice.device, runner_of(serving.stack, "inference", set(context.knowledge.ids()))
    if device is None or runner is None:
        return None
    formats = set(PRECISIONS_FOR[context.profile.needs.quantization])
    for judged in choice.considered:
        theirs = runner_of(judged.stack, "inference", set(context.knowledge.ids()))
        scope = judged.stack.applies_to
        if (
            judged.workload == "inference"
            and theirs is not None
            and theirs.candidate == runner.candidate
            and scope.models
            and context.profile.model_type in scope.model_types
            and device.id in scope.devices
            and formats & set(scope.precisions) & set(device.formats)
        ):
            return judged.stack
    return None


def engine_runs_format(serving: Judged, choice: StackChoice, context: RuleContext) -> Candidate | None:
    """The serving stack's engine, where its own claim runs the asked quantized format ('yes') on this family and the
    device has units for it; None otherwise."""
    asked = context.profile.needs.quantization
    runner = runner_of(serving.stack, "inference", set(context.knowledge.ids()))
    if runner is None or runner.candidate is None or asked not in SUPPORT_CLAIMS:
        return None
    engine = context.knowledge.get(runner.candidate)
    device = choice.device
    if getattr(engine, asked).value != "yes" or context.profile.hardware not in engine.hardware.value:
        return None
    return engine if device is None or asked in device.formats else None


# A candidate's claims about what it can do, whose notes a tier-1 reason may quote.
CAPABILITY_CLAIMS: tuple[str, ...] = (*SUPPORT_CLAIMS, "long_context")


def quoted_note(reason: Rationale, context: RuleContext) -> str | None:
    """The capability note of a candidate that the reason quotes and cites (vLLM's dynamic shapes, torchao's INT8)."""
    for cite in reason.cites:
        option, _, attribute = cite.ref.partition(".")
        if cite.kind != "knowledge" or attribute not in CAPABILITY_CLAIMS or option not in context.knowledge.ids():
            continue
        claim = getattr(context.knowledge.get(option), attribute)
        quoted = [claim.note, claim.value if attribute == "long_context" else None]
        note = next((text for text in quoted if text and text in reason.text), None)
        if note is not None:
            return note
    return None


def said_of_target(choice: Choice, context: RuleContext) -> Choice:
    """Tier 1 is the target family's own stack: a reason quoting a candidate's capability note keeps only the clauses
    about this family (vLLM's CUDA graphs are not how its Neuron plugin runs; torchao's 'stable on A100-class GPUs' is
    no reason on a phone), and goes where no clause is about this family. A choice left without a reason (a risk to
    watch is none) gets a plain line citing the same claim."""
    kept: list[Rationale] = []
    for reason in choice.rationale:
        note = quoted_note(reason, context)
        scoped = note_for_family(note, context.profile.hardware, context.knowledge) if note is not None else None
        if note is None:
            kept.append(reason)
        elif scoped is not None:
            kept.append(reason.model_copy(update={"text": reason.text.replace(note, scoped)}))
    if len(kept) == len(choice.rationale) and all(a is b for a, b in zip(kept, choice.rationale, strict=True)):
        return choice
    if not any(not reason.text.startswith("watch: ") for reason in kept):  # a risk alone is no reason (nor said twice)
        kept.insert(0, carried_here(choice))
    return choice.model_copy(update={"rationale": tuple(kept)})


def adapt_tier1(
    tier1: Tier,
    choice: StackChoice,
    context: RuleContext,
    skipped: Sequence[SkippedConcern],
    measured_out: frozenset[tuple[str, str]] = frozenset(),
) -> tuple[Tier, tuple[SkippedConcern, ...]]:
    """Tier 1 with the chosen stacks' parts in place (serving first), and the skipped concerns they now decide. A part
    that on-target evidence ruled out for its concern (`measured_out`: option, concern) yields to the rule's choice."""
    by_concern: dict[str, Choice] = {c.concern: c for c in tier1.choices}
    stacked: dict[str, Choice] = {}
    owner: dict[str, Judged] = {}
    skipped_concerns = {s.concern for s in skipped}
    known = set(context.knowledge.ids())
    for judged in choice.chosen:
        parts = stack_parts(judged, context, by_concern)
        others = alternatives_in_stacks(choice, judged.workload, known)
        own = runtime_kernels(judged, context, set(parts), by_concern)
        own_kernels = set(own) - set(parts)
        parts.update({k: v for k, v in own.items() if k not in parts})
        for concern, part in parts.items():
            other_part = concern in stacked and (
                part.option != stacked[concern].option  # another option, or another
                or part.component.name != stacked[concern].settings.get("part", part.component.name)
            )  # part of it
            if other_part and owner[concern].workload != judged.workload:
                theirs = f"{part.component.name} ({part.option})" if part.known else part.component.name
                stacked[concern] = stacked[concern].model_copy(
                    update={"settings": {**stacked[concern].settings, f"in {judged.workload}": theirs}}
                )
                continue
            if concern in stacked or (concern in skipped_concerns and concern != "training-framework"):
                continue
            if (part.option, concern) in measured_out:
                continue
            stacked[concern] = part_choice(concern, part, judged, context, by_concern.get(concern), others)
            owner[concern] = judged
            rule = by_concern.get(concern)
            trained_apart = (
                context.profile.trains and judged.workload == "inference" and not choice.for_workload("training")
            )
            if trained_apart and rule is not None and rule.option != part.option and concern in own_kernels:
                # the serving runtime's own kernels serve; training (no stack of its own) keeps the rule's library
                settings = {**stacked[concern].settings, "in training": rule.option}
                stacked[concern] = stacked[concern].model_copy(update={"settings": settings})
        runner = runner_concern(judged.workload)
        if runner in stacked and owner.get(runner) is judged:
            extra = runner_settings(judged, context.profile)
            layout = layout_here(judged, context, choice)
            if layout is not None:
                extra["layout here"] = layout
            adapters = adapter_library(judged, context.profile, context.knowledge)
            if adapters is not None:
                extra["adapters"] = adapters
            off_default = off_default_precision(judged)
            if off_default is not None:
                extra["precision"] = off_default
            stacked[runner] = stacked[runner].model_copy(update={"settings": {**stacked[runner].settings, **extra}})
    merged = [stacked.get(c.concern, c) for c in tier1.choices]
    merged += [c for concern, c in stacked.items() if concern not in by_concern]
    first = choice.chosen[0] if choice.chosen else None
    merged = [precision_settings(c, owner.get(c.concern, first), context.profile, choice.device) for c in merged]
    merged = [published_checkpoint(with_long_context(c, context, choice), context) for c in merged]
    merged = [named_weight_release(c, context) for c in merged]
    merged = [vendor_four_bit(c, context, choice.for_workload("inference")) for c in merged]
    merged = [published_int8(c, context, choice.for_workload("inference")) for c in merged]
    merged = [extended_context(c, context) for c in merged]
    merged = [block_scaled_gemm(c, context, choice.for_workload("inference")) for c in merged]
    merged = [training_precision(c, choice) for c in merged]
    merged = [framework_fp8(c, choice, context) for c in merged]
    merged = [released_weights_for_training(c, context) for c in merged]
    merged = [fp8_encoding(c, choice.device, context) for c in merged]
    merged = [experts_elsewhere(c, choice.for_workload("inference"), stacked, context.profile) for c in merged]
    merged = [unlisted_training_format(c, choice) for c in merged]
    if not choice.chosen:
        merged = runtime_owned_kernels(merged, context, [gap.concern for gap in tier1.gaps])
    else:
        merged += compiled_graph_kernels(merged, choice, context, [gap.concern for gap in tier1.gaps])
    merged = [method_route(c, owner.get(c.concern), context) for c in merged]
    merged = [expert_layout(c, choice, context) for c in merged]
    merged = [sharded_training(c, choice, context) for c in merged]
    merged, shape_gaps = shapes_of_unvetted_runner(merged, context)
    merged, fallback_gaps = without_quantization_on_fallback(merged, choice, context)
    fallback_gaps += shape_gaps
    fallen_back = {gap.concern for gap in fallback_gaps}  # the fallback's gap says it: the rule's own gap goes
    merged = own_release_over_download(merged)
    merged = [said_of_target(c, context) for c in merged]
    merged = [other_generation_part(c, choice, context, stacked) for c in merged]
    merged.sort(key=lambda c: CONCERNS.index(c.concern))
    chosen_concerns = {c.concern for c in merged}
    gaps = tuple(
        gap
        for gap in tier1.gaps
        if gap.concern not in stacked and gap.concern not in chosen_concerns and gap.concern not in fallen_back
    )
    gaps += fallback_gaps
    kept_skipped = tuple(s for s in skipped if s.concern not in stacked)
    rollouts = rollout_gap(choice, context)
    if rollouts is not None:  # no chosen recipe brings the RL loop's generation engine: the record says so
        kept_skipped = tuple(s for s in kept_skipped if s.concern != "deployment")
        gaps += (rollouts,)
    fits_team = all(c.fits_team for c in merged)
    notes = (chosen_notes(choice, context, merged) or tier1.notes) if choice.chosen else assembled_notes(context)
    update = {"choices": tuple(merged), "gaps": gaps, "fits_team": fits_team, "notes": notes}
    if choice.chosen and all(judged.stack.third_party is not None for judged in choice.chosen):
        update["name"] = COMMUNITY_TIER1_NAME  # a community route is no official stack: the tier says what it holds
    elif choice.chosen and all(independent_runner(judged.stack, context.knowledge) for judged in choice.chosen):
        update["name"] = INDEPENDENT_TIER1_NAME
    elif choice.chosen and (qualifiers := tier1_qualifiers(choice, context.knowledge)):
        update["name"] = f"{tier1.name} ({'; '.join(qualifiers)})"
    return tier1.model_copy(update=update), kept_skipped


def tier1_qualifiers(choice: StackChoice, knowledge: KnowledgeBase) -> list[str]:
    """What keeps a chosen stack from being the vendor's validated whole, said in tier 1's heading as well as its note
    (reviews 173/174: "Tier 1: official full stack" over a partial fit, a beta, a community training route and a stack
    whose versions only the vendor's support channel gives; review 229 p15: a vendor serving stack beside verl, an
    independent trainer): one phrase each, naming the workload where the job has two."""
    both = len({judged.workload for judged in choice.chosen}) > 1
    qualifiers: list[str] = []
    for judged in choice.chosen:
        stack = judged.stack
        kinds = [
            *(["a community route"] if stack.third_party is not None else []),
            *(
                ["an independent project's engine"]
                if stack.third_party is None and independent_runner(stack, knowledge)
                else []
            ),
            *(["a preview"] if stack.third_party is None and stack.preview is not None else []),
            *(["a partial fit"] if not judged.fits and not judged.fits_by_architecture else []),
            *(["software from the vendor's support channel only"] if stack.restricted is not None else []),
        ]
        if kinds:
            whose = f"{'serving' if judged.workload == 'inference' else 'training'} stack: " if both else ""
            qualifiers.append(whose + " and ".join(kinds))
    return qualifiers


def rollout_gap(choice: StackChoice, context: RuleContext) -> Gap | None:
    """An RL post-training job whose chosen training stack runs no serving engine for its rollouts (none is chosen, or
    a pre-training recipe is): the rollouts' engine and the trainer-to-engine weight sync are open, and the family's
    serving engines are named as what generates them (review 165 p12: TorchTitan on Trn2, "the rollouts run in the
    inference engine the training stack names" while it names none)."""
    profile = context.profile
    if profile.training != "rl" or profile.serves:
        return None
    trained = choice.for_workload("training")
    if trained is not None and rollout_engines(trained, context.knowledge):
        return None
    engines = [
        context.knowledge.get(e).name for e in context.platform.serving_engines.value if e in context.knowledge.ids()
    ]
    which = f" ({', '.join(engines)})" if engines else ""
    text = (
        f"RL generates its rollouts in an inference engine, and no documented stack on {context.platform.name} pairs "
        f"the trainer with one: the family's serving engine{which} generates them, and the loop around it (rollout "
        "workers beside the trainer, the policy's weights synced into the engine after each update, the reward step) "
        "is the team's to build and test; an RL framework that ships that loop (verl, OpenRLHF) is the usual route "
        "where it runs on this family"
    )
    return Gap(
        concern="deployment",
        rationale=(line(text, cite_profile(profile, "training"), cite_platform(context.platform, "serving_engines")),),
    )


def independent_runner(stack: Stack, knowledge: KnowledgeBase) -> bool:
    """The stack's engine or framework is an independent project's, not the vendor's: its candidate's `independent`,
    or a runner no knowledge-base entry describes (Alibaba's MNN-LLM, Argmax's WhisperKit; review 169)."""
    runner = stack.runner
    if runner is None:
        return False
    if stack.runner_by is not None or runner.candidate is None or runner.candidate not in knowledge.ids():
        return True
    return knowledge.get(runner.candidate).independent is not None


ADAPTER_WORDS = re.compile(r"LoRA|PEFT|adapter", re.IGNORECASE)


def adapter_library(judged: Judged, profile: Profile, knowledge: KnowledgeBase) -> str | None:
    """A LoRA job on a training stack whose page names no adapter library (DeepSpeed's Gaudi fork, any kind of
    training): what adds the adapters on top of it (reviews 61 p10, 62 p08: 'no LoRA tooling named'); a framework
    with LoRA of its own (MaxText on JAX, which PEFT cannot wrap: review 80 p05) uses that."""
    if judged.workload != "training" or profile.training != "lora" or "lora" in judged.stack.applies_to.training:
        return None
    if any(ADAPTER_WORDS.search(f"{c.name} {c.setting or ''}") for c in judged.stack.components):
        return None
    framework = training_framework(judged.stack, knowledge)
    if framework is not None and framework.adapters_absent is not None:
        return (
            f"none: {framework.adapters_absent.value}; the run trains every weight, or the adapters train on another "
            "stack"
        )
    if framework is not None and framework.adapters is not None:
        return f"{framework.adapters.value} (the page names no adapter route; its framework's own LoRA, not PEFT)"
    return (
        "Hugging Face PEFT's LoraConfig on the model before the stack's trainer takes it (the page names no adapter "
        "library): the base weights stay frozen and only the adapters train and are saved"
    )


def chosen_notes(choice: StackChoice, context: RuleContext, merged: Sequence[Choice] = ()) -> tuple[Rationale, ...]:
    """Tier 1's note where a chosen stack is not the vendor's validated whole for this profile (a partial fit, a
    community or third-party route, a preview): what it rests on instead of 'proven, supported' (review 59); where it
    fits but its GEMMs run its runtime's own kernels, none of the vendor's libraries (whisper.cpp's ggml kernels on a
    Graviton, review 76), whose kernels they are; empty where every chosen stack fits as documented."""
    caveats = []
    for judged in choice.chosen:
        stack = judged.stack
        if not judged.fits:
            caveats.append(f"{stack.name} fits only in part ({judged.misfits[0].text})")
        elif stack.third_party is not None:
            caveats.append(f"{stack.name} is documented by a third party, not the vendor or its project")
        elif stack.preview is not None:
            caveats.append(f"{stack.name} is a preview on its own page")
        if stack.restricted is not None:
            caveats.append(stack.restricted.value.rstrip("."))
    sdk = next((judged.stack for judged in choice.chosen if judged.stack.runner_by is not None), None)
    maker = sdk.runner_by if sdk is not None else None
    if not caveats and sdk is not None and maker is not None:  # WhisperKit over Core ML (reviews 181/184 p13)
        text = (
            f"the stack documented for {context.profile.hardware}, on the vendor's own runtime under {sdk.runner_name}; "
            f"it is {maker.value.rstrip('.')}, so that project, not the vendor, supports it"
        )
        return (line(text, cite_profile(context.profile, "hardware")),)
    if not caveats:
        notes = independent_kernels_note(merged, choice, context)
        independent = next((j.stack for j in choice.chosen if independent_runner(j.stack, context.knowledge)), None)
        if notes or independent is None:
            return notes
        # an engine no knowledge-base entry describes (ComfyUI on Hygon's cookbook) is still no vendor product: tier 1's
        # heading says so, and its note must not call it proven and supported (review 238 p14)
        text = (
            f"the stack documented for {context.profile.hardware}, on the vendor's own libraries under "
            f"{independent.runner_name}, an independent project's engine: that project and the page that documents "
            "it, not the vendor, test and support it"
        )
        return (line(text, cite_profile(context.profile, "hardware")),)
    text = (
        f"the stack documented for {context.profile.hardware}, but not as a validated whole for this profile: "
        f"{'; '.join(caveats)}; test what its page does not cover before committing"
    )
    return (line(text, cite_profile(context.profile, "hardware")),)


def independent_kernels_note(
    merged: Sequence[Choice], choice: StackChoice, context: RuleContext
) -> tuple[Rationale, ...]:
    """Where tier 1 runs an independent project (whisper.cpp, mflux), whose it is instead of 'the vendor's own
    libraries: proven, supported': on its own kernels where its GEMMs are none of the vendor's libraries (whisper.cpp's
    ggml kernels on a Graviton, review 76), or on the vendor's libraries under it (mflux on MLX); empty otherwise."""
    hardware = context.profile.hardware
    own = independent_part(merged, ("gemm",), context)
    if own is not None and own.independent is not None and not builds_in_vendor_kernels(choice, context):
        text = (
            f"the stack documented for {hardware}, on {own.name}'s own kernels rather than the vendor's libraries; it "
            f"is {own.independent.value}, so that project, not the vendor, supports it"
        )
        return (line(text, cite_profile(context.profile, "hardware"), cite_claim(own, "independent")),)
    runner = independent_part(merged, RUNNER_CONCERNS, context)
    if runner is None or runner.independent is None:
        return ()
    text = (
        f"the stack documented for {hardware}, on the vendor's own libraries under {runner.name}; it is "
        f"{runner.independent.value}, so that project, not the vendor, supports it"
    )
    return (line(text, cite_profile(context.profile, "hardware"), cite_claim(runner, "independent")),)


def independent_part(merged: Sequence[Choice], concerns: Sequence[str], context: RuleContext) -> Candidate | None:
    """The first independent project chosen in tier 1 for one of these concerns that is none of the platform's
    official GEMM libraries."""
    vendor = set(context.official("gemm"))
    known = set(context.knowledge.ids())
    for chosen in merged:
        if chosen.concern in concerns and chosen.option in known and chosen.option not in vendor:
            candidate = context.knowledge.get(chosen.option)
            if candidate.independent is not None:
                return candidate
    return None


def builds_in_vendor_kernels(choice: StackChoice, context: RuleContext) -> bool:
    """A chosen stack names one of the vendor's kernel libraries as its GEMM or kernels part (llama.cpp's Android
    build with KleidiAI)."""
    vendor = {*context.official("gemm"), *context.platform.deep_development.value}
    return any(
        component.candidate in vendor
        for judged in choice.chosen
        for component in judged.stack.components
        if component.role in ("gemm", "kernels")
    )


def assembled_notes(context: RuleContext) -> tuple[Rationale, ...]:
    """Tier 1's note where no documented stack fits: the platform's official options, assembled concern by concern,
    are not a validated whole (review 37: an assembled stack was called 'proven, supported')."""
    text = (
        f"no documented stack fits this profile on {context.profile.hardware}: the platform's official options, "
        "assembled concern by concern, which no vendor page validates together; test the whole before committing"
    )
    return (line(text, cite_profile(context.profile, "hardware")),)
