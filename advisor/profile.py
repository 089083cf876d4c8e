"""The team's profile: what model, on which hardware, for which workload, with which skills and needs.

A `Profile` is read from YAML or JSON (told apart by content). Errors are one line naming the file,
the field path and the allowed values, e.g.
`profile.yaml: needs.quantization: 'int2' is not one of none, int8, fp8, int4, fp4`.

`needs.quantization_method` is read only when `needs.quantization` names a format; with `none` it is
accepted and ignored (the documented example profile spells out the default `ptq` beside `none`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
    field_validator,
    model_validator,
)

from advisor.knowledge.claims import HardwareFamily
from advisor.knowledge.loader import family_device_ids, hardware_families
from advisor.serving_task import serving_task
from advisor.vision_models import conv_backbone, vision_transformer
from advisor.vocabulary import (
    QUANTIZATION_METHODS,
    QUANTIZATIONS,
    SERVING_TASKS,
    TEAM_SKILLS,
    TRAINING_KINDS,
    WORKLOADS,
    Quantization,
    QuantizationMethod,
    ServingTask,
    TeamSkill,
    TrainingKind,
    Workload,
)
from probes.errors import AdvisorError
from probes.files.bounded_read import FileKind, read_bounded_text
from probes.files.safe_yaml import YamlInputError, load_yaml, scalar_text
from probes.vocabulary import MODEL_TYPES, ModelType

MAX_PROFILE_BYTES = 64 * 1024  # a profile is a dozen lines; anything far bigger is a mistake or an attack
LLM_MODEL_TYPES = ("dense-transformer", "moe", "multimodal")
CONV_MODEL_TYPES = ("cnn", "diffusion")  # models whose compute is mostly convolutions
# Devices per job: the largest training jobs run on some hundred thousand accelerators; far more is a typo.
MAX_DEVICES = 1_000_000


class ProfileError(AdvisorError):
    """A profile file is unreadable or invalid; the message names the file and the field path."""


PROFILE_FILE = FileKind("profile file", MAX_PROFILE_BYTES, ProfileError)


class Needs(BaseModel):
    """What the workload demands beyond the model type."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    dynamic_shapes: StrictBool = False
    quantization: Quantization = "none"
    quantization_method: QuantizationMethod = Field("ptq", description="Read only with a quantization")
    long_context: StrictBool = False
    devices: StrictInt = Field(
        1, ge=1, le=MAX_DEVICES, description="Devices per job; more than one means collectives matter"
    )
    in_app: StrictBool = Field(
        False,
        description="The model runs inside the team's own application on the device (a Mac or PC app), not behind a "
        "server: a route its page embeds in an app (a Swift package, a C API) comes first, and an LLM may run in a "
        "general runtime rather than a serving engine (always so on a phone)",
    )
    cross_platform: StrictBool = Field(False, description="Must run on more than one hardware family")
    other_hardware: tuple[HardwareFamily, ...] = Field(
        (), description="With cross_platform: the other hardware families the model must also run on"
    )
    other_devices: tuple[StrictStr, ...] = Field(
        (),
        description="With other_hardware: the device of each of those families where known ('a100-sxm'); a family "
        "without one is taken at its current generation, and the record says so",
        json_schema_extra={"examples": [["a100-sxm"], ["h100-sxm", "mi300x"]]},
    )

    @field_validator("other_hardware", mode="before")
    @classmethod
    def _known_families(cls, families: object) -> object:
        if isinstance(families, str):
            raise ValueError(f"expected a list of hardware families, got {_shown(families)}")
        if isinstance(families, (list, tuple)):
            for family in families:
                if not isinstance(family, str) or family not in hardware_families():
                    raise ValueError(f"{_shown(family)} is not one of {', '.join(hardware_families())}")
            if len(set(families)) != len(families):
                raise ValueError("lists a hardware family twice")
        return families

    @model_validator(mode="after")
    def _other_hardware_needs_cross_platform(self) -> Needs:
        if self.other_hardware and not self.cross_platform:
            raise ValueError("other_hardware is read only with cross_platform: true")
        return self

    @model_validator(mode="after")
    def _other_devices_of_other_hardware(self) -> Needs:
        if self.other_devices and not self.other_hardware:
            raise ValueError("other_devices is read only with other_hardware")
        families: dict[str, str] = {}
        for device in self.other_devices:
            family = next((f for f in self.other_hardware if device in family_device_ids(f)), None)
            if family is None:
                listed = "; ".join(f"{f}: {', '.join(family_device_ids(f)) or 'none'}" for f in self.other_hardware)
                raise ValueError(f"other_devices: {_shown(device)} is not a device of other_hardware ({listed})")
            if family in families:
                raise ValueError(f"other_devices: {families[family]!r} and {device!r} are both {family} devices")
            families[family] = device
        return self

    def other_device(self, family: str) -> str | None:
        """The device other_devices names for one of the other families, or None (its current generation)."""
        return next((d for d in self.other_devices if d in family_device_ids(family)), None)

    @property
    def quantized(self) -> bool:
        """True when the workload asks for a quantized format (int8, fp8, int4, fp4)."""
        return self.quantization != "none"


class ServingSLA(BaseModel):
    """The serving target a serving estimate searches configurations for: request shape and latency limits."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    isl: StrictInt = Field(4000, ge=1, le=1_000_000, description="Input (prompt) tokens per request")
    osl: StrictInt = Field(1000, ge=1, le=1_000_000, description="Output tokens per request")
    ttft_ms: float = Field(2000.0, gt=0, le=600_000, description="Time to first token at most, milliseconds")
    tpot_ms: float = Field(30.0, gt=0, le=10_000, description="Time per output token at most, milliseconds")


class Profile(BaseModel):
    """Who the recommendation is for: the input of `recommend`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    model_type: ModelType
    hardware: HardwareFamily = Field(
        description="The target hardware family (a platform of the knowledge base); the probes may have run elsewhere",
        json_schema_extra={"examples": ["nvidia-gpu", "amd-gpu", "ascend-npu", "x86-cpu"]},
    )
    device: StrictStr | None = Field(
        None,
        description="The exact device (generation) of the family, one of `advisor kb platform FAMILY`'s devices; "
        "none: the family's current generation is assumed",
        json_schema_extra={"examples": ["h200-sxm", "mi300x", "ascend-910b", "tpu-v6e"]},
    )
    workload: Workload
    team_skill: TeamSkill
    needs: Needs = Needs()
    model: StrictStr | None = Field(
        None,
        min_length=1,
        max_length=300,
        description="The model, as a Hugging Face id ('Qwen/Qwen3-32B') or the path of its config.json: a stack "
        "written for other models (a DeepSeek-V3 recipe with MLA attention) is then a partial fit, and without it such "
        "a recipe is taken on an assumption the record states; for a serving estimate (advisor[serving]), "
        "aiconfigurator's model name",
        json_schema_extra={"examples": ["Qwen/Qwen3-32B", "meta-llama/Meta-Llama-3.1-70B"]},
    )
    parameters_b: float | None = Field(
        None,
        gt=0,
        le=100_000,
        description="The model's size in billions of parameters (72 for a 72B model; a MoE's total): checks that it "
        "fits the devices' memory; without it, the size a Hugging Face id in `model` states ('...-72B-Instruct')",
    )
    task: ServingTask | None = Field(
        None,
        description="For a dense transformer served (workload inference): `generation` (a model that decodes text, the "
        "default), `embedding` (an encoder returning one vector per input: no decode, no KV cache, no chat endpoint) "
        "or `transcription` (a speech-recognition encoder-decoder such as Whisper: audio in, text out); none: "
        "`embedding` where `model` names a well-known embedding model family (BAAI/bge-, intfloat/e5-, "
        "sentence-transformers/, a name containing 'embed'...) or a reranker (a name containing 'rerank'), `transcription` "
        "where it names Whisper, and the record "
        "says it was assumed",
        json_schema_extra={"examples": ["embedding"]},
    )
    training: TrainingKind | None = Field(
        None,
        description="For a job that trains (workload training or both): `pretraining` (from scratch or continued), "
        "`fine-tuning` (every weight of a trained model), `lora` (adapters beside the frozen weights) or `rl` "
        "(reinforcement-learning post-training such as GRPO or PPO: a rollout engine generates, a trainer updates every "
        "weight and syncs it back to the rollout engine each step; only a stack whose page names rl fits it); none: not "
        "said, so a stack documented for one kind only is taken as it is and the memory check assumes every weight "
        "trains",
        json_schema_extra={"examples": ["lora"]},
    )
    serving: ServingSLA | None = Field(
        None,
        description="For a serving estimate: request shape and latency limits (defaults: isl 4000, osl 1000, "
        "TTFT 2000 ms, TPOT 30 ms)",
    )
    title: StrictStr | None = None

    @field_validator("title", mode="before")
    @classmethod
    def _title_as_written(cls, title: object) -> object:
        return scalar_text(title)  # `title: 2026-01-02` is the team's text, not a date

    @field_validator("hardware", mode="before")
    @classmethod
    def _known_family(cls, hardware: object) -> object:
        if isinstance(hardware, str) and hardware not in hardware_families():
            raise ValueError(f"{_shown(hardware)} is not one of {', '.join(hardware_families())}")
        return hardware

    @model_validator(mode="after")
    def _other_hardware_is_other(self) -> Profile:
        if self.hardware in self.needs.other_hardware:
            raise ValueError(f"needs.other_hardware lists the target {self.hardware!r} itself")
        return self

    @model_validator(mode="after")
    def _device_of_the_family(self) -> Profile:
        if self.device is None:
            return self
        known = family_device_ids(self.hardware)
        if self.device not in known:
            listed = ", ".join(known) if known else "none are listed"
            raise ValueError(f"device: {_shown(self.device)} is not a {self.hardware} device ({listed})")
        return self

    @model_validator(mode="after")
    def _task_for_served_dense_transformers(self) -> Profile:
        stated = self.task not in (None, "generation")
        if stated and (self.model_type != "dense-transformer" or self.workload != "inference"):
            raise ValueError(
                f"task: {self.task!r} is read only with model_type dense-transformer and workload inference "
                f"(got {self.model_type}, {self.workload})"
            )
        return self

    @model_validator(mode="after")
    def _training_kind_for_training(self) -> Profile:
        if self.training is not None and self.workload == "inference":
            raise ValueError(f"training: {self.training!r} is read only with workload training or both")
        return self

    @property
    def serving_task(self) -> ServingTask:
        """What the served model does: `embedding` or `transcription` (stated, or assumed from the model's name, for a
        dense transformer served on its own) or `generation`."""
        if self.model_type != "dense-transformer" or self.workload != "inference":
            return "generation"
        return serving_task(self.task, self.model_name)[0]

    @property
    def task_assumed(self) -> bool:
        """The embedding or transcription task was taken from the model's name, not stated: the record says so."""
        return self.serving_task != "generation" and self.task is None

    @property
    def embeds(self) -> bool:
        """An embedding model served: one vector per input, no decode steps, no KV cache."""
        return self.serving_task == "embedding"

    @property
    def families(self) -> tuple[str, ...]:
        """The target first, then every other family it must run on."""
        return (self.hardware, *self.needs.other_hardware)

    @property
    def model_name(self) -> str | None:
        """`model` where it names one ('deepseek-ai/DeepSeek-V3'); None where it is a config.json path or absent."""
        if self.model is None or self.model.endswith(".json") or self.model.startswith(("/", ".", "~")):
            return None
        return self.model

    @property
    def llm(self) -> bool:
        """A generative language model (dense transformer, MoE, multimodal LLM): served by LLM serving engines, with
        decode steps and a KV cache. An embedding model is not one: it is served like other encoders."""
        return self.model_type in LLM_MODEL_TYPES and not self.embeds

    @property
    def convolutional(self) -> bool:
        """A model whose time is mostly convolutions (CNN, diffusion U-Net): linear-layer figures do not speak for it. A
        vision transformer given as `cnn` (ViT, DINOv2: attention and linear layers over patches) is not one, unless its
        backbone is a CNN (DETR, RT-DETR on a ResNet)."""
        return self.model_type in CONV_MODEL_TYPES and (
            not vision_transformer(self.model_name) or conv_backbone(self.model_name)
        )

    @property
    def trains(self) -> bool:
        """The workload includes training."""
        return self.workload in ("training", "both")

    @property
    def serves(self) -> bool:
        """The workload includes inference."""
        return self.workload in ("inference", "both")


# Field path -> the values allowed there, for error messages.
ALLOWED_VALUES: dict[str, tuple[str, ...]] = {
    "model_type": MODEL_TYPES,
    "workload": WORKLOADS,
    "team_skill": TEAM_SKILLS,
    "needs.quantization": QUANTIZATIONS,
    "needs.quantization_method": QUANTIZATION_METHODS,
    "task": SERVING_TASKS,
    "training": TRAINING_KINDS,
}


def allowed_values(path: str) -> tuple[str, ...]:
    """The values a choice field takes ('hardware', 'needs.quantization', ...); empty for free fields."""
    return hardware_families() if path == "hardware" else ALLOWED_VALUES.get(path, ())


def load_profile(path: Path | str) -> Profile:
    """Read a profile from a YAML or JSON file; ProfileError with a one-line message otherwise."""
    return parse_profile(read_bounded_text(path, PROFILE_FILE), str(path))


def parse_profile(text: str, origin: str = "profile") -> Profile:
    """A profile from YAML or JSON text (JSON when it starts with '{')."""
    return profile_from_document(_parse_document(text, origin), origin)


def profile_from_document(document: Any, origin: str) -> Profile:
    """A profile from parsed fields (a mapping); ProfileError naming `origin` and the first bad field otherwise."""
    if not isinstance(document, dict):
        raise ProfileError(f"{origin}: expected a mapping of profile fields, got {type(document).__name__}")
    try:
        return Profile.model_validate(document)
    except ValidationError as error:
        raise ProfileError(f"{origin}: {_first_problem(error)}") from None


def _parse_document(text: str, origin: str) -> Any:
    if len(text) > MAX_PROFILE_BYTES:  # characters: the file reader has already capped the bytes
        raise PROFILE_FILE.too_large(origin)
    if text.lstrip().startswith("{"):
        try:
            return json.loads(text)
        except json.JSONDecodeError as error:
            raise ProfileError(f"{origin}: not valid JSON ({error.msg} at line {error.lineno})") from None
        except RecursionError:
            raise ProfileError(f"{origin}: nested too deeply to be a profile") from None
        except ValueError as error:  # an integer past Python's 4,300 digits
            raise ProfileError(f"{origin}: not valid JSON ({str(error).split(':')[0]})") from None
    try:
        return load_yaml(text)
    except YamlInputError as error:
        raise ProfileError(f"{origin}: not accepted YAML ({error})") from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        problem = getattr(error, "problem", None) or "syntax error"
        raise ProfileError(f"{origin}: not valid YAML ({problem}{where})") from None


def _first_problem(error: ValidationError) -> str:
    """The first validation problem as `path: message`, naming the allowed values where there is a list."""
    problems = error.errors(include_url=False)
    first = problems[0]
    path = ".".join(str(part) for part in first["loc"]) or "(top level)"
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    message = _message(first, path)
    if path == "(top level)" and message.startswith(CROSS_FIELD_PATHS):  # a check across fields names its field
        return f"{message}{more}"
    return f"{path}: {message}{more}"


CROSS_FIELD_PATHS = ("device: ", "needs.other_hardware ", "task: ")
MAX_ECHO = 80  # characters of a bad value quoted back in an error


def _shown(value: object) -> str:
    """A bad value as quoted in an error line: its repr, cut to MAX_ECHO characters."""
    text = repr(value)
    return text if len(text) <= MAX_ECHO else text[: MAX_ECHO - 3] + "..."


def _message(problem: Any, path: str) -> str:
    kind, given = problem["type"], problem.get("input")
    allowed = allowed_values(path)
    if (kind == "literal_error" or (kind == "value_error" and path == "hardware")) and allowed:
        return f"{_shown(given)} is not one of {', '.join(allowed)}"
    if kind == "missing":
        return "required field missing" + (f" (one of {', '.join(allowed)})" if allowed else "")
    if kind == "extra_forbidden":
        parent = path.rpartition(".")[0]
        known = Needs.model_fields if parent == "needs" else Profile.model_fields
        return f"unknown field; known fields: {', '.join(known)}"
    if kind == "value_error":
        return str(problem["msg"]).removeprefix("Value error, ")
    return f"{problem['msg']} (got {_shown(given)})"
