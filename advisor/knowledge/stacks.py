"""Whole stacks as data: a complete operator stack as a vendor or project documents and validates it.

One file per stack in advisor/data/stacks/<id>.yaml. A stack says what it applies to (a hardware family and
the device generations of it, the workloads, model types, precisions and scale), its components by role
(the serving engine or training framework, the attention backend that engine uses by default on that
generation, the GEMM library and dtype, the quantization toolkit and checkpoint format, the KV-cache dtype,
the collectives, graph capture), the versions it was validated with, the page that documents it, and its own
risks. A component names the knowledge base's candidate where there is one; the engine keeps a stack whole.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from advisor.knowledge.claims import FAMILY_PATTERN, Claim, field_claims, is_url
from advisor.vocabulary import METHOD_WORDS, TRAINING_WORDS, QuantizationMethod, ServingTask, TrainingKind
from probes.vocabulary import ModelType

# What a component does in the stack. A stack has one component per role at most, except "kernels" (the
# kernel libraries an engine loads: aiter, DeepGEMM, FlashInfer...) and "other".
Role = Literal[
    "serving-engine",
    "training-framework",
    "runtime",
    "compiler",
    "attention",
    "gemm",
    "convolution",
    "moe",
    "quantization",
    "kv-cache",
    "collectives",
    "graph",
    "parallelism",
    "kernels",
    "other",
]
REPEATABLE_ROLES = ("kernels", "other")
RUNNER_ROLES = ("serving-engine", "training-framework", "runtime")  # what runs the model: every stack has one
# Numeric formats a stack runs its main computation in (weights/activations), as vendors name them.
Precision = Literal["fp32", "tf32", "bf16", "fp16", "fp8", "mxfp8", "nvfp4", "mxfp4", "int8", "int4"]
StackWorkload = Literal["inference", "training"]
# How far the stack scales as documented: one device, several devices in one node, several nodes.
Scale = Literal["single-device", "multi-device", "multi-node"]
ID_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*$"

ROLES: tuple[str, ...] = get_args(Role)
PRECISIONS: tuple[str, ...] = get_args(Precision)
SCALES: tuple[str, ...] = get_args(Scale)


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Component(_Model):
    """One part of a stack: its role, what it is, and how the stack sets it."""

    role: Role
    name: str = Field(min_length=1, description="What it is, as its vendor names it: 'vLLM', 'FlashAttention 3'")
    candidate: str | None = Field(None, pattern=ID_PATTERN, description="The knowledge base's candidate id, if any")
    setting: str | None = Field(
        None, min_length=1, description="How the stack sets it: a flag, backend, dtype or layout"
    )
    source: str | None = Field(None, description="A page that documents this part, when not the stack's own page")
    setting_by_training: dict[TrainingKind, str] = Field(
        default_factory=dict,
        description="For a page that documents kinds of training apart (a LoRA command beside a full-SFT one): the "
        "setting for each kind, after `setting`, which holds what every kind shares; a profile of one of these kinds "
        "reads only its own",
    )

    setting_by_method: dict[QuantizationMethod, str] = Field(
        default_factory=dict,
        description="For a page that documents its quantization methods apart (ExecuTorch's SpinQuant export config "
        "beside its QAT+LoRA one): the setting for each, after `setting`; a quantized profile reads only its method's",
    )

    devices: list[str] = Field(
        default_factory=list,
        description="Of the stack's devices, those this part runs on, where its page says it needs a feature only some "
        "have (KleidiAI's SME2 micro-kernels on SME2 cores): on the others the part is left out; empty: every device",
    )
    setting_by_model: dict[str, str] = Field(
        default_factory=dict,
        description="For a page that runs one model's script where the project it runs ships its own example for "
        "another model (verl's Qwen3-30B-A3B GRPO script beside the Qwen3.5-35B-A3B one AMD's quick start lists): "
        "Hugging Face id -> the setting of that example, in place of `setting` for a job naming that model; the text "
        "says where it comes from",
    )

    def model_setting(self, model: str | None) -> str | None:
        """The project's own example's setting for `model` (setting_by_model), or None."""
        return next(
            (text for listed, text in self.setting_by_model.items() if model and model_matches(listed, model)), None
        )

    def for_model(self, model: str | None) -> Component:
        """The part as a job naming `model` sets it: the project's own example for that model, where there is one."""
        own = self.model_setting(model)
        return self if own is None else self.model_copy(update={"setting": own})

    def for_training(self, kind: TrainingKind | None) -> Component:
        """The part as a job training `kind` sets it: the shared setting and that kind's; every kind's, each named,
        where the job's kind is not one of them."""
        if not self.setting_by_training:
            return self
        return self.with_own(
            self.setting_by_training.get(kind) if kind else None, self.setting_by_training, TRAINING_WORDS
        )

    def for_method(self, method: QuantizationMethod | None) -> Component:
        """The part as a job quantizing by `method` sets it (for_training's rule, by quantization method)."""
        if not self.setting_by_method:
            return self
        own = self.setting_by_method.get(method) if method else None
        return self.with_own(own, self.setting_by_method, METHOD_WORDS)

    def with_own(self, own: str | None, by: dict[Any, str], words: dict[str, str]) -> Component:
        """The shared setting, then `own`, or each entry of `by` named by `words` where the job's is not among them."""
        parts = [own] if own is not None else [f"{words[each]}: {text}" for each, text in by.items()]
        return self.model_copy(update={"setting": "; ".join([*filter(None, [self.setting]), *parts])})

    @field_validator("source")
    @classmethod
    def _source_is_a_url(cls, source: str | None) -> str | None:
        if source is not None and not is_url(source.strip()):
            raise ValueError("must be a public URL (https://...)")
        return None if source is None else source.strip()


class StackScope(_Model):
    """What a stack applies to: the profile and device it fits."""

    family: str = Field(pattern=FAMILY_PATTERN, description="The hardware family (a platform id)")
    devices: list[str] = Field(min_length=1, description="Device ids of that family's `devices` it is validated on")
    workloads: list[StackWorkload] = Field(min_length=1)
    model_types: list[ModelType] = Field(min_length=1)
    precisions: list[Precision] = Field(min_length=1, description="The formats it runs, the default first")
    scale: list[Scale] = Field(min_length=1)
    replica_devices: int | None = Field(
        None,
        ge=1,
        description="For a multi-node recipe made of replicated workers (Dynamo's four 4-GPU TP4 x EP4 workers on 16 "
        "GPUs): the devices one worker takes, so a job on one node runs whole workers of it, a count its page does not "
        "show (a light misfit, not a layout to re-derive)",
    )
    excludes: list[str] = Field(
        default_factory=list,
        description="Device ids of the family its page says it does not run on (not a partial fit)",
    )
    weight_only: list[Precision] = Field(
        default_factory=list,
        description="Of its precisions, those that quantize the weights only and compute in a float format (GGUF, MLX "
        "affine): the device's matrix formats do not gate them",
    )
    models: list[str] = Field(
        default_factory=list,
        description="The models its page is written for (Hugging Face ids), where its parts depend on the model "
        "(MLA attention, a checkpoint as its publisher released it), with those of the same architecture (DeepSeek-R1 "
        "is DeepSeek-V3's, as vLLM's DeepSeek recipe serves both alike); empty: any model of its model types",
    )

    released_format: Precision | None = Field(
        None,
        description="The format the models it is written for are released in, where that is a quantized one (gpt-oss "
        "ships its MoE weights in MXFP4): a profile naming one of them and asking no quantization serves it so",
    )
    builds: list[str] = Field(
        default_factory=list,
        description="For a recipe whose code builds only some network families by name (Microsoft's Swin-Transformer "
        "code builds swin models and raises for any other): the families' name stems, lower case; a named model of "
        "another family is a partial fit its code cannot build; empty: no such limit",
    )
    precision_configs: dict[Precision, str] = Field(
        default_factory=dict,
        description="For a page that ships a configuration of its own per format and model (Primus's "
        "<model>-FP8-pretrain.yaml beside the BF16 one): each format's file or flag; a profile asking one of them runs "
        "the page's own configuration for it, not the default's off its example",
    )
    training: list[TrainingKind] = Field(
        default_factory=list,
        description="For a training stack: what its page trains - `pretraining`, `fine-tuning` (every weight) and/or "
        "`lora` - where it documents only some; empty: any. A profile whose `training` it lacks is a partial fit",
    )
    withdrawn_models: list[str] = Field(
        default_factory=list,
        description="Models whose recipes the stack's current release withdrew (its release notes list them): a "
        "profile naming one is a partial fit, to be run from the last release that kept its recipe or adapted",
    )
    unserved_models: list[str] = Field(
        default_factory=list,
        description="Models its page says it does not serve, sending them to another route (Hugging Face ids; vLLM "
        "JAX serves models it implements in JAX and sends PyTorch-only ones such as Gemma 3 to vLLM TorchTPU): a "
        "profile naming one is a partial fit",
    )
    native_models: list[str] = Field(
        default_factory=list,
        description="Models its engine runs through an implementation of its own rather than the upstream framework's "
        "code (vLLM JAX's JAX registry: Llama 3, Qwen3 dense, DeepSeek-V3): where another engine fits as well, this "
        "is the reason said for putting it first (Hugging Face ids; releases of them match)",
    )
    quantized_models: list[str] = Field(
        default_factory=list,
        description="Where its quantized formats serve only checkpoints their publisher released (no recipe quantizes "
        "another model): the models those checkpoints are of (Hugging Face ids); empty: any model can be quantized",
    )
    quantized_formats: list[Precision] = Field(
        default_factory=list,
        description="The formats `quantized_models` speaks of, where the page serves only some of its quantized formats "
        "as published checkpoints (SGLang's DeepSeek page: NVFP4 as NVIDIA's R1 release, FP8 as the models' own); "
        "empty: all of them",
    )
    untested_precisions: list[Precision] = Field(
        default_factory=list,
        description="Of its precisions, those its pages show no accuracy or speed test of (vLLM JAX's release matrix "
        "checks only that INT8 and FP8 checkpoints load): a profile asking one is a partial fit that the team's own "
        "checks must clear",
    )
    config_devices: list[str] = Field(
        default_factory=list,
        description="Of `devices`, those its example configurations are written for, where its page names more devices "
        "than it ships configurations for (Primus's native SFT guide names MI355X and MI300X; its configs sit under "
        "MI355X/): on another listed device they are re-sized, a lesser partial fit; empty: every listed device",
    )
    tasks: list[ServingTask] = Field(
        default_factory=list,
        description="For a serving stack of language models: what it serves, `generation` (decoding text) and/or "
        "`embedding` (one vector per input, through an embeddings endpoint); empty: generation only",
    )

    @field_validator(
        "devices",
        "workloads",
        "model_types",
        "precisions",
        "scale",
        "models",
        "quantized_models",
        "withdrawn_models",
        "unserved_models",
        "training",
        "tasks",
        "config_devices",
    )
    @classmethod
    def _no_duplicates(cls, values: list[str]) -> list[str]:
        if len(set(values)) != len(values):
            raise ValueError(f"duplicate values in {values}")
        return values

    @model_validator(mode="after")
    def _excludes_apart_from_devices(self) -> StackScope:
        both = [d for d in self.excludes if d in self.devices]
        if both:
            raise ValueError(f"excludes: {both[0]!r} is also among devices")
        return self

    @model_validator(mode="after")
    def _released_format_for_named_models(self) -> StackScope:
        if self.released_format is not None and (not self.models or self.released_format not in self.precisions):
            raise ValueError("released_format: needs `models` and must be among precisions")
        return self

    @model_validator(mode="after")
    def _precision_configs_among_precisions(self) -> StackScope:
        stray = [p for p in self.precision_configs if p not in self.precisions]
        if stray:
            raise ValueError(f"precision_configs: {stray[0]!r} is not among precisions")
        return self

    @model_validator(mode="after")
    def _config_devices_among_devices(self) -> StackScope:
        stray = [d for d in self.config_devices if d not in self.devices]
        if stray:
            raise ValueError(f"config_devices: {stray[0]!r} is not among devices ({', '.join(self.devices)})")
        return self

    @model_validator(mode="after")
    def _weight_only_among_precisions(self) -> StackScope:
        stray = [p for p in self.weight_only if p not in self.precisions]
        if stray:
            raise ValueError(f"weight_only: {stray[0]!r} is not among precisions ({', '.join(self.precisions)})")
        return self


class Stack(_Model):
    """A complete stack as documented: scope, components by role, validated versions, its page and risks."""

    id: str = Field(pattern=ID_PATTERN)
    name: str = Field(min_length=1)
    summary: Claim[str] = Field(description="What the stack is; its source is the page that documents the stack")
    applies_to: StackScope
    components: list[Component] = Field(min_length=2)
    validated_with: dict[str, str] = Field(
        default_factory=dict, description="Component -> the version the documenting page validates ('vllm': '0.11.0')"
    )
    risks: list[Claim[str]] = Field(default_factory=list, description="Risks of this stack, scoped to it")
    checkpoint: Claim[str] | None = Field(
        None,
        description="A training stack: how its checkpoints leave it for serving (the format and the converter); a "
        "serving stack: the checkpoint format it loads",
    )
    checkpoint_by_training: dict[TrainingKind, Claim[str]] = Field(
        default_factory=dict,
        description="For a training page that exports one kind of training apart (MaxText's LoRA adapters through "
        "to_huggingface with lora.lora_restore_path beside its full-weight conversion): that kind's export, in place of "
        "`checkpoint` for a job of that kind",
    )
    preview: Claim[str] | None = Field(
        None,
        description="Where the stack's page calls it a beta, preview or experimental: what it says (a chosen "
        "preview stack lowers the confidence and is named as such in the record)",
    )
    deprecated: Claim[str] | None = Field(
        None,
        description="Where the stack's own page deprecates its workflow: what it says and what replaces it (a "
        "deprecated stack ranks after one that fits as well, and is chosen only where nothing else fits)",
    )
    superseded: Claim[str] | None = Field(
        None,
        description="Where the vendor's current release documentation (its support matrix) no longer carries the "
        "stack's software and its last validated release is an older one: what it says (a superseded stack ranks "
        "after one that fits as well)",
    )
    runner_by: Claim[str] | None = Field(
        None,
        description="Where the stack's runner is an independent project's SDK over a vendor runtime the knowledge base "
        "lists (Argmax's WhisperKit on Core ML): who makes and supports it; tier 1 then says so rather than 'the "
        "vendor's own libraries'",
    )
    superseded_by: str | None = Field(
        None,
        pattern=ID_PATTERN,
        description="For a superseded stack: the id of the stack of the vendor's current route that its `superseded` "
        "claim sends the work to (vLLM Neuron's serving recipe for NxD Inference on Trn2); a job this one serves "
        "because the current route's model list lacks its model watches that list",
    )
    restricted: Claim[str] | None = Field(
        None,
        description="Where the stack's software or its versions come only through the vendor's support channel: what "
        "its page says (a chosen restricted stack lowers the confidence: no one outside can reproduce or version-check "
        "it)",
    )
    third_party: Claim[str] | None = Field(
        None,
        description="Where the stack's page is neither the hardware vendor's nor the project's that makes its runner "
        "(a cluster manager's install guide): who documents it (it ranks after a stack that fits as well and is "
        "documented by the vendor or the runner's project)",
    )
    example_models: Claim[str] | None = Field(
        None,
        description="Where the page's `models` are the example checkpoint of a generic route that takes any model of "
        "its task by id (a Transformers pipeline call): what the page runs; another model of the task is then a "
        "lesser misfit (sized and timed there by the team), not a recipe written for someone else",
    )
    models_only: Claim[str] | None = Field(
        None,
        description="Where the stack's runner runs only the models it implements one by one (mflux's ports), so that "
        "`models` is the whole of what it can load: what its page says (a model of another architecture is then no "
        "fit at all, not a recipe to re-write)",
    )
    exact_ids: Claim[str] | None = Field(
        None,
        description="Where the stack's tool takes only the model ids in `models`, matched exactly (Core AI's export "
        "registry): what it does with another id; a later release of a listed model is then a partial fit",
    )
    upstream_model_types: Claim[list[ModelType]] | None = Field(
        None,
        description="Model types its engine runs through the upstream project's own model classes, which its page "
        "names no model of (Cambricon's vllm_mlu keeps vLLM's vision-language classes): what its source shows; a job "
        "of such a type is then a light, first-run-checked miss, not another model type",
    )
    devices_unnamed: Claim[str] | None = Field(
        None,
        description="Where the stack's page names no device of its family (a project's 'aarch64 CPUs'): what it "
        "states instead (the devices listed are then the family's that it runs on, not ones its page validated, and "
        "a chosen stack's confidence says so)",
    )
    prebuilt_engines: Claim[str] | None = Field(
        None,
        description="Where the stack serves engines its vendor builds (a NIM's TensorRT engine profiles) and its pages "
        "give no way to put a kernel of one's own into them: what they say; tier 2's kernels then run on an open route "
        "the team builds, not inside tier 1",
    )
    listed_devices_only: Claim[str] | None = Field(
        None,
        description="Why only the devices it lists count, in a few words: engines its vendor builds ahead of time per "
        "GPU model (a NIM's model profiles), or a runtime made for another class of machine (TensorRT for RTX: "
        "desktops, laptops and workstations); another device of the same generation is then no nearer a fit than "
        "another generation",
    )
    training_named: Claim[list[TrainingKind]] | None = Field(
        None,
        description="Kinds of training its vendor's general pages name the stack for (AWS's training page gives the "
        "Hugging Face libraries on TorchNeuron 'for fine-tuning and training') where its own page runs only "
        "`applies_to.training` (a LoRA tutorial): a profile of such a kind is a partial fit, one a recipe that runs "
        "it, even written for another kind, may come before",
    )
    starts_from: Claim[str] | None = Field(
        None,
        description="For a pre-training stack: how its trainer starts from a model's published weights, so that a full "
        "fine-tune can take it (TorchTitan's --checkpoint.initial_load_in_hf); the partial fit says so",
    )
    max_request_tokens: Claim[int] | None = Field(
        None,
        description="The longest request (input plus output tokens) its documented configurations accept, where they "
        "cap it apart from a flag in the runner's launch (the largest max_seq_len of TensorRT-LLM's recipe database "
        "configs): a long-context SLA beyond it is a partial fit",
    )
    mixed_precision: Claim[str] | None = Field(
        None,
        description="A training stack whose page runs in full precision (fp32) while its trainer turns on bf16 or fp16 "
        "mixed precision by a documented setting (Transformers' TrainingArguments(bf16=True)): the setting and the page "
        "that documents it; a mixed-precision job is then a light partial fit (a setting the page's run left off), "
        "not another precision",
    )
    long_context: Claim[str] | None = Field(
        None,
        description="How this stack's own page runs long sequences (context parallelism, KV-cache handling), where "
        "it documents that apart from the engine's upstream features",
    )
    sharded_serving: Claim[str] | None = Field(
        None,
        description="A serving stack whose documented command splits one copy of the model's weights over several "
        "devices (context, sequence or FSDP parallelism) rather than giving each device its own copy: how (the "
        "capacity line and the collectives concern then say so, where a model that is not an LLM would otherwise be "
        "taken as a copy per device)",
    )
    convolutional_only: Claim[str] | None = Field(
        None,
        description="A stack for any convolutional network (no model list) whose method does not carry to a vision "
        "transformer (ONNX Runtime's static INT8 quantization, which its page recommends for CNNs, dynamic for "
        "transformers): what the page says; a vision transformer is then a partial fit",
    )
    transformer_only: Claim[str] | None = Field(
        None,
        description="The mirror of `convolutional_only`: a stack for image models whose method is for transformers "
        "(ONNX Runtime's dynamic INT8 quantization, which its page recommends for transformer-based models and not "
        "for CNNs): what the page says; a convolutional network is then a partial fit",
    )
    script_only: Claim[str] | None = Field(
        None,
        description="A serving stack for server devices whose page documents a script, notebook or library call rather "
        "than a serving endpoint: what the page ships (a service must wrap it in its own HTTP layer, queue and "
        "batching, so it fits a service only in part)",
    )
    workflow_app: Claim[str] | None = Field(
        None,
        description="A serving stack that serves through an interactive workflow application (ComfyUI's node graphs "
        "behind its web UI): what its page shows of the API a service would call; an image service is then a partial "
        "fit, after a library route the team wraps in its own HTTP layer",
    )
    for_large_models: Claim[str] | None = Field(
        None,
        description="A training stack whose page is the route for models whose training state does not fit one device "
        "(Intel's DeepSpeed ZeRO page on Gaudi): what the page says; a job whose state fits one device takes a stack "
        "that fits as well without it first",
    )
    ran_instead: Claim[str] | None = Field(
        None,
        description="A training stack whose `models` are those its code builds and loads by name while its page ran "
        "other networks (DeepSparkHub's mmpretrain pages train MobileOne and ResNet-50 models; the code builds DINOv2): "
        "what the page ran; a listed model is then a partial fit that says so",
    )
    loads_releases: Claim[list[str]] | None = Field(
        None,
        description="A serving stack whose engine documents loading published quantized checkpoints of a format as "
        "they are (vllm_mlu's gptq_mlu converts a GPTQ 8- or 4-bit checkpoint when it loads): the format words, lower "
        "case, as a catalogued release's format names them (gptq); an int8 ask of a model whose publisher releases "
        "such a checkpoint is then served from that release",
    )
    layer_split: Claim[str] | None = Field(
        None,
        description="A multi-device training stack whose page splits one copy of the model's layers over the devices "
        "in one process (Accelerate's device_map placement), so one device computes at a time: what the page does; "
        "for a job on several devices a stack with a data-parallel or sharded layout that fits as well comes first",
    )
    in_app: Claim[str] | None = Field(
        None,
        description="A serving stack whose page embeds the model in an application on the device: how (a Swift "
        "package, a framework, a C API); a profile with needs.in_app prefers it to a server or a Python process",
    )
    maintained_until: Claim[dt.date] | None = Field(
        None,
        description="Where the stack's page pins a release with a stated end of maintenance: that date (a record "
        "choosing the stack is reviewed by then, not a year out)",
    )
    builds_from: Literal["onnx"] | None = Field(
        None,
        description="A serving stack whose page exports the model to an exchange format that its runtime builds or runs "
        "from (onnx): one export then feeds every family whose stack builds from the same format",
    )

    @field_validator("summary")
    @classmethod
    def _documented_by_a_page(cls, summary: Claim[str]) -> Claim[str]:
        if not summary.has_url:
            raise ValueError("source must be the public page that documents the stack (https://...)")
        return summary

    @model_validator(mode="after")
    def _one_component_per_role(self) -> Stack:
        roles = [component.role for component in self.components if component.role not in REPEATABLE_ROLES]
        repeated = sorted({role for role in roles if roles.count(role) > 1})
        if repeated:
            raise ValueError(f"components: more than one {repeated[0]!r} (one per role; list more under 'kernels')")
        if self.runner is None:
            raise ValueError("components: name what runs the model (a serving-engine, training-framework or runtime)")
        for component in self.components:
            stray = [d for d in component.devices if d not in self.applies_to.devices]
            if stray:
                raise ValueError(
                    f"components: {component.name!r} devices: {stray[0]!r} is not among applies_to.devices"
                )
        return self

    @property
    def as_of(self) -> dt.date:
        """When the documenting page was last checked."""
        return self.summary.as_of

    @property
    def source(self) -> str:
        """The page that documents the stack."""
        return self.summary.source

    @property
    def runner(self) -> Component | None:
        """The component that runs the model: its serving engine, training framework or runtime."""
        return next((component for component in self.components if component.role in RUNNER_ROLES), None)

    @property
    def runner_name(self) -> str:
        """The name of what runs the model, or the stack's name."""
        return self.runner.name if self.runner is not None else self.name

    @property
    def runner_key(self) -> str:
        """What runs the model: its candidate and its name without qualifiers ('vLLM (ROCm)' and 'vLLM (V1 engine,
        ROCm)' alike; IGIE and ixRT, both on CoreX, apart): two stacks with one key run on the same engine."""
        runner = self.runner
        if runner is None:
            return self.name
        bare = re.sub(r"\s*\([^)]*\)", "", runner.name).strip().lower()  # 'vLLM (V1 engine, ROCm)' -> 'vllm'
        return f"{runner.candidate}:{bare}" if runner.candidate else bare

    def for_training(self, kind: TrainingKind | None) -> Stack:
        """The stack as a job training `kind` reads it: each part's setting for that kind (Component.for_training),
        and that kind's own export where the page documents one (checkpoint_by_training)."""
        stack = self
        own_export = self.checkpoint_by_training.get(kind) if kind else None
        if own_export is not None:
            stack = stack.model_copy(update={"checkpoint": own_export})
        if not any(component.setting_by_training for component in self.components):
            return stack
        return stack.model_copy(update={"components": [c.for_training(kind) for c in self.components]})

    def for_method(self, method: QuantizationMethod | None) -> Stack:
        """The stack as a job quantizing by `method` reads it: each part's setting for that method."""
        if not any(component.setting_by_method for component in self.components):
            return self
        return self.model_copy(update={"components": [c.for_method(method) for c in self.components]})

    def for_model(self, model: str | None) -> Stack:
        """The stack as a job naming `model` reads it: each part's setting from its project's example for that model."""
        if model is None or not any(component.setting_by_model for component in self.components):
            return self
        return self.model_copy(update={"components": [c.for_model(model) for c in self.components]})

    def for_device(self, device: str | None) -> Stack:
        """The stack as a job on `device` reads it: without the parts its page runs on other devices only."""
        if device is None or not any(component.devices for component in self.components):
            return self
        kept = [c for c in self.components if not c.devices or device in c.devices]
        return self.model_copy(update={"components": kept})

    def model_example(self, model: str | None) -> bool:
        """Some part of it carries its project's own example for this model (setting_by_model)."""
        return any(component.model_setting(model) is not None for component in self.components)

    def component(self, role: str) -> Component | None:
        """The stack's component in this role (the first, for a repeatable role), or None."""
        return next((component for component in self.components if component.role == role), None)

    def candidate_ids(self) -> list[str]:
        """The knowledge-base candidates its components name, in component order."""
        return [component.candidate for component in self.components if component.candidate is not None]

    def claims(self) -> dict[str, Claim[Any]]:
        """Every claim by field path ('summary', 'risks[0]', ...)."""
        named = field_claims(self)
        for index, risk in enumerate(self.risks):
            named[f"risks[{index}]"] = risk
        for index, component in enumerate(self.components):
            named[f"components[{index}]"] = self.component_claim(component)
        return named

    def component_claim(self, component: Component) -> Claim[str]:
        """A component as a claim: its name, from its own page or the stack's, checked when the stack was."""
        return Claim[str](value=component.name, source=component.source or self.source, as_of=self.as_of)

    def caveats(self) -> dict[str, Claim[str]]:
        """What a reader must know before adopting it, by field path: its preview status, then its risks."""
        named = {"preview": self.preview} if self.preview is not None else {}
        named |= {"restricted": self.restricted} if self.restricted is not None else {}
        named |= {"deprecated": self.deprecated} if self.deprecated is not None else {}
        named |= {"superseded": self.superseded} if self.superseded is not None else {}
        return named | {f"risks[{index}]": risk for index, risk in enumerate(self.risks)}

    def component_ref(self, component: Component) -> str:
        """'components[<index>]': where a citation finds this component among the stack's claims."""
        return f"components[{self.components.index(component)}]"

    @property
    def serving_tasks(self) -> tuple[str, ...]:
        """The serving tasks it documents: its `tasks`, generation where it lists none."""
        return tuple(self.applies_to.tasks) or ("generation",)

    def serves_task(self, task: str) -> bool:
        """It serves this task (a training stack serves none, and is not asked)."""
        return task in self.serving_tasks

    def fits(self, family: str, device: str | None, workload: str, model_type: str) -> bool:
        """It applies to this family, device (None: any of the family's), workload and model type."""
        scope = self.applies_to
        return (
            scope.family == family
            and (device is None or device in scope.devices)
            and workload in scope.workloads
            and model_type in scope.model_types
        )


def model_matches(listed: str, model: str) -> bool:
    """A profile's model is a listed one, or a release of it: 'deepseek-ai/DeepSeek-V3' covers
    'deepseek-ai/DeepSeek-V3-0324' and 'DeepSeek-V3' (no organisation), not 'deepseek-ai/DeepSeek-V2'. A point
    version is another model ('DeepSeek-V3.2' adds sparse attention to V3; 'Qwen3.5' is not 'Qwen3'): a page that
    covers one lists it."""
    wanted, named = listed.lower(), model.strip().lower()
    if "/" not in named:
        wanted = wanted.rsplit("/", 1)[-1]
    # the publisher's Diffusers-format repository of the same weights ('Wan2.1-T2V-14B-Diffusers' of 'Wan2.1-T2V-14B')
    wanted = wanted.removesuffix(DIFFUSERS_FORMAT) if not named.endswith(DIFFUSERS_FORMAT) else wanted
    return named == wanted or named.startswith(wanted + "-")


DIFFUSERS_FORMAT = "-diffusers"  # the suffix of a publisher's Diffusers-format copy of a model's own repository
