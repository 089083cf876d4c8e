"""Sizes of well-known models whose Hugging Face id states no size, or states the active one (Llama 4's "17B"):
`advisor/data/models.yaml`, each from its publisher's model card. The memory check reads them where a profile gives no
`parameters_b`."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Literal, TypeVar

import yaml
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator, model_validator

from advisor.knowledge.claims import KnowledgeBaseError, is_url
from advisor.knowledge.stacks import Precision, model_matches

MODELS_FILE = "models.yaml"
PUBLISHED_CHECKPOINTS_FILE = "published_checkpoints.yaml"
QAT_CHECKPOINTS_FILE = "qat_checkpoints.yaml"
LICENCES_FILE = "licences.yaml"
CONTEXT_WINDOWS_FILE = "context_windows.yaml"


def public_url(source: str) -> str:
    """The source, where it is a public URL (a model card, a project's page)."""
    if not is_url(source):
        raise ValueError(f"source: {source!r} is not a public URL")
    return source


class Sourced(BaseModel):
    """A catalogue entry: frozen, strict, and sourced from a public page."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    source: str

    @field_validator("source")
    @classmethod
    def _public_url(cls, source: str) -> str:
        return public_url(source)


class SameArchitecture(Sourced):
    """The earlier model a release keeps the architecture of (Llama 3.3 70B of Llama 3.1 70B): a recipe written for
    that model configures this one, while its published checkpoints hold the earlier weights."""

    id: str = Field(min_length=3, pattern=r"^[\w.-]+/[\w.-]+$", description="The earlier model's Hugging Face id")
    source: str = Field(description="The page that says the architecture is the same")


class TextEncoder(Sourced):
    """The language model a diffusion pipeline encodes its prompts with, beside the transformer (FLUX.2's Mistral
    Small 3.1): it takes device memory of its own unless it is offloaded or run elsewhere."""

    name: str = Field(min_length=3, description="The encoder's name, as the pipeline's card or blog gives it")
    parameters_b: float = Field(gt=0, description="Its parameters, in billions")
    source: str = Field(description="The page that names it and its size")


class ModelSize(Sourced):
    """One model's total (and for a mixture of experts, active) size in billions of parameters, and its source."""

    id: str = Field(min_length=3, pattern=r"^[\w.-]+/[\w.-]+$", description="Its Hugging Face id (a release prefix)")
    parameters_b: float = Field(gt=0, description="Total parameters, in billions (a MoE's total)")
    active_b: float | None = Field(None, gt=0, description="Parameters active per token, for a mixture of experts")
    released_format: Precision | None = Field(
        None, description="The quantized format its publisher releases the weights in (Kimi-K2-Thinking's INT4)"
    )
    released_mix: str | None = Field(
        None,
        min_length=3,
        description="Where its publisher releases the weights in several quantized formats that no one "
        "released_format names (DeepSeek-V4's FP4 experts beside FP8 attention): how, as its page says; there is no "
        "float model to keep, so a quantized serving's way back is that release",
    )
    architecture_of: SameArchitecture | None = Field(
        None, description="An earlier model whose architecture this release keeps, with other weights"
    )
    text_encoder: TextEncoder | None = Field(
        None, description="A diffusion pipeline's text encoder, a model of its own beside the transformer sized here"
    )
    besides: str | None = Field(
        None,
        min_length=3,
        description="Where the size counts one part of a pipeline: what it leaves out, as the source names it (SDXL's "
        "UNet alone, its two text encoders and VAE besides), said beside every weight figure",
    )
    source: str
    as_of: dt.date


Entry = TypeVar("Entry", bound=Sourced)


def catalogue(file: str, entry: type[Entry]) -> tuple[Entry, ...]:
    """The entries of one catalogue file under advisor/data, in file order."""
    text = resources.files("advisor.data").joinpath(file).read_text(encoding="utf-8")
    try:
        return tuple(TypeAdapter(list[entry]).validate_python(yaml.safe_load(text)))  # type: ignore[valid-type]
    except Exception as error:  # a malformed file is the project's bug: say which file
        raise KnowledgeBaseError(f"advisor/data/{file}: {error}") from None


@lru_cache(maxsize=1)
def model_sizes() -> tuple[ModelSize, ...]:
    """The catalogue, in file order (a longer id before the one it extends)."""
    return catalogue(MODELS_FILE, ModelSize)


class ModelFact(Sourced):
    """A catalogue entry about one model and its releases, from the model's card."""

    id: str = Field(min_length=3, pattern=r"^[\w.-]+/[\w.-]+$", description="Its Hugging Face id (a release prefix)")
    source: str
    as_of: dt.date

    def covers(self, model: str) -> bool:
        """The named model is this one or a release of it."""
        return model_matches(self.id, model)


class RestrictedLicence(ModelFact):
    """A model whose weights come under a licence that allows no commercial use without a separate licence from the
    publisher (FLUX.1 [dev]'s), as its card names it."""

    licence: str = Field(min_length=3, description="The licence's name as the card gives it")


@lru_cache(maxsize=1)
def restricted_licences() -> tuple[RestrictedLicence, ...]:
    """The catalogue of restricted licences, in file order."""
    return catalogue(LICENCES_FILE, RestrictedLicence)


def restricted_licence(model: str) -> RestrictedLicence | None:
    """The restricted licence the named model's weights come under (its id or a release of it), or None."""
    return next((entry for entry in restricted_licences() if entry.covers(model)), None)


class ContextWindow(ModelFact):
    """A model whose card states a native context window and a longer one reached by a RoPE extension it names (Qwen3's
    32,768 tokens natively, 131,072 with YaRN): a long-context job must turn the extension on, at a cost to short texts
    the card states."""

    excludes: list[str] = Field(
        default_factory=list,
        description="Words of release ids the prefix covers whose window differs (Qwen3's -2507 releases: 262,144 "
        "natively)",
    )
    native_tokens: int = Field(gt=0, description="The context window the card states the model runs natively")
    extended_tokens: int = Field(gt=0, description="The window the card states with the extension on")
    extension: str = Field(min_length=3, description="How the card turns it on (the rope_scaling it names)")
    caveat: str = Field(min_length=3, description="What the card says the extension costs, in its own terms")

    def covers(self, model: str) -> bool:
        """The named model is this one or a release of it whose window is the same (not one its `excludes` name)."""
        lowered = model.lower()
        return super().covers(model) and not any(word.lower() in lowered for word in self.excludes)


@lru_cache(maxsize=1)
def context_windows() -> tuple[ContextWindow, ...]:
    """The catalogue of stated context windows, in file order."""
    return catalogue(CONTEXT_WINDOWS_FILE, ContextWindow)


def context_window(model: str) -> ContextWindow | None:
    """The stated context window of the named model (its id or a release of it), or None."""
    return next((entry for entry in context_windows() if entry.covers(model)), None)


class PublishedCheckpoint(Sourced):
    """An FP8 checkpoint a model's publisher releases beside the BF16 weights of that exact release."""

    model: str = Field(min_length=3, pattern=r"^[\w.-]+/[\w.-]+$", description="The release it quantizes (exact id)")
    checkpoint: str = Field(min_length=3, pattern=r"^[\w.-]+/[\w.-]+$", description="The FP8 checkpoint's id")
    format: str = Field(min_length=1, description="How its page describes the quantization")
    family: str | None = Field(
        None,
        min_length=1,
        description="Where a hardware vendor, not the model's publisher, releases it for its own devices (AMD's Quark "
        "FP8-KV checkpoints for Instinct): the hardware family it is for, and read only there",
    )
    precision: Literal["fp8", "nvfp4", "mxfp4", "int8"] = Field(
        "fp8",
        description="The format its weights are released in: FP8 (the default), a 4-bit float a hardware vendor "
        "releases for its own devices (NVIDIA's NVFP4 checkpoints, AMD's MXFP4 ones), or a publisher's weight-only "
        "INT8 release (Qwen's GPTQ-Int8 checkpoints: INT8 weights, 16-bit activations)",
    )
    source: str
    as_of: dt.date

    @model_validator(mode="after")
    def _four_bit_from_a_vendor(self) -> PublishedCheckpoint:
        if self.precision not in ("fp8", "int8") and self.family is None:
            raise ValueError("a 4-bit checkpoint here is a hardware vendor's: give its family")
        return self


@lru_cache(maxsize=1)
def published_checkpoints() -> tuple[PublishedCheckpoint, ...]:
    """The checkpoints publishers release quantized beside their BF16 weights (FP8, and the INT8 and MXFP4 releases
    the file marks by precision), in file order."""
    return catalogue(PUBLISHED_CHECKPOINTS_FILE, PublishedCheckpoint)


@lru_cache(maxsize=1)
def fp8_checkpoint_ids() -> frozenset[str]:
    """The publishers' FP8 checkpoint ids, lower case (qwen/qwen3-235b-a22b-fp8)."""
    return frozenset(entry.checkpoint.lower() for entry in published_checkpoints() if entry.precision == "fp8")


def published_fp8(model: str) -> PublishedCheckpoint | None:
    """The publisher's FP8 checkpoint of exactly this release (ids compared without case), or None."""
    return catalogued_release(model, None, ("fp8",))


def vendor_fp8(model: str, family: str) -> PublishedCheckpoint | None:
    """A hardware vendor's FP8 checkpoint of exactly this release for its own family's devices, or None."""
    return catalogued_release(model, family, ("fp8",))


def catalogued_release(model: str, family: str | None, precisions: Sequence[str]) -> PublishedCheckpoint | None:
    """The catalogued checkpoint of exactly this release in one of these formats (the first in the file): the
    publisher's (family None) or a hardware vendor's for its own family's devices; None where there is none."""
    return next(
        (
            entry
            for entry in published_checkpoints()
            if entry.model.lower() == model.lower() and entry.family == family and entry.precision in precisions
        ),
        None,
    )


class QatRelease(Sourced):
    """A checkpoint a model's publisher trained quantization-aware, from that exact release (Gemma 3's QAT GGUFs)."""

    model: str = Field(min_length=3, pattern=r"^[\w.-]+/[\w.-]+$", description="The release it was trained from")
    checkpoint: str = Field(min_length=3, pattern=r"^[\w.-]+/[\w.-]+$", description="The QAT checkpoint's id")
    precision: Literal["int4", "int8"] = Field(description="The format it was trained for")
    format: str = Field(min_length=1, description="How its page describes the file")
    loaded_by: list[str] = Field(
        description="Candidates that load it as released (llama.cpp for a GGUF); empty: float weights to quantize"
    )
    source: str
    as_of: dt.date


@lru_cache(maxsize=1)
def qat_checkpoints() -> tuple[QatRelease, ...]:
    """The publishers' QAT checkpoints, in file order."""
    return catalogue(QAT_CHECKPOINTS_FILE, QatRelease)


def published_qat(model: str | None, precision: str | None, toolkit: str) -> QatRelease | None:
    """The publisher's QAT checkpoint of exactly this release for this format (ids compared without case) that this
    toolkit serves from: one it loads as released first, else the float QAT-trained weights any toolkit quantizes;
    None where there is neither."""
    if model is None or precision is None:
        return None
    releases = [e for e in qat_checkpoints() if e.model.lower() == model.lower() and e.precision == precision]
    loaded = next((release for release in releases if toolkit in release.loaded_by), None)
    return loaded or next((release for release in releases if not release.loaded_by), None)


# '...-72B', '...-235B-A22B', '...-1.5B-Instruct': the first size a Hugging Face id states, in billions.
SIZE_IN_NAME = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)[Bb](?![A-Za-z0-9])")


def stated_size(model: str) -> float | None:
    """The size a model id states in its name ('Qwen3-235B-A22B': 235), or None."""
    found = SIZE_IN_NAME.search(model.rsplit("/", 1)[-1].replace("_", "-"))
    return float(found.group(1)) if found else None


MILLIONS_IN_NAME = re.compile(r"(?<![\w.])(\d{2,3})[Mm](?![A-Za-z0-9])")  # '300m', '33M': a small encoder's size


def stated_parameters_b(model: str) -> float | None:
    """The parameter count in billions a model id states: its size in billions, or in millions for a small encoder
    ('embeddinggemma-300m': 0.3; two or three digits, so a '-1M' context-length tag is no size)."""
    billions = stated_size(model)
    if billions is not None:
        return billions
    found = MILLIONS_IN_NAME.search(model.rsplit("/", 1)[-1].replace("_", "-"))
    return int(found.group(1)) / 1000 if found else None


# The id suffixes publishers give a weight-quantized release of a model on Hugging Face, and the format of its weights:
# Qwen's '-AWQ' (4-bit AWQ, https://huggingface.co/Qwen/Qwen2.5-32B-Instruct-AWQ), '-GPTQ-Int4' and '-GPTQ-Int8'
# (https://huggingface.co/Qwen/Qwen2.5-7B-Instruct-GPTQ-Int8). FP8 and W8A8 releases are read from the FP8 catalogue and
# the stacks' own quantized_models instead.
# ('-AWQ-INT4' is hugging-quants' spelling: https://huggingface.co/hugging-quants/Meta-Llama-3.1-8B-Instruct-AWQ-INT4)
QUANTIZED_RELEASE = re.compile(r"-(AWQ-INT4|AWQ|GPTQ-Int4|GPTQ-Int8)$", re.IGNORECASE)
QUANTIZED_FORMATS: dict[str, Precision] = {"awq-int4": "int4", "awq": "int4", "gptq-int4": "int4", "gptq-int8": "int8"}


# NVIDIA's Model Optimizer releases of other publishers' models: 'nvidia/<model>-FP4' holds NVFP4 weights
# (https://huggingface.co/nvidia/DeepSeek-R1-0528-FP4, quantized with TensorRT Model Optimizer to NVFP4).
NVFP4_RELEASE = re.compile(r"^nvidia/(.+)-FP4$", re.IGNORECASE)


def quantized_release(model: str | None) -> tuple[Precision, str] | None:
    """A model id naming a quantized release by its suffix ('Qwen/Qwen2.5-32B-Instruct-AWQ', NVIDIA's
    'nvidia/DeepSeek-R1-0528-FP4'): the format of its weights and the id of the float release it was made from (for
    another publisher's release, the model's name without an organisation); None for any other id."""
    if model is None:
        return None
    nvfp4 = NVFP4_RELEASE.match(model)
    if nvfp4 is not None:
        return "nvfp4", nvfp4.group(1)
    found = QUANTIZED_RELEASE.search(model)
    if found is None:
        return None
    return QUANTIZED_FORMATS[found.group(1).lower()], model[: found.start()]


@lru_cache(maxsize=4096)  # the engine asks for the same few ids thousands of times per record (every stack judged)
def size_of(model: str) -> ModelSize | None:
    """The catalogue's entry for a model id or one of its releases ('...-Instruct', '...-FP8'), or None. A release
    naming a size of its own is another model ('DeepSeek-R1-Distill-Llama-70B' is not DeepSeek-R1). Another
    publisher's quantized release ('nvidia/DeepSeek-R1-0528-FP4') takes the size of the model it names, not its
    released format."""
    found = next(
        (
            entry
            for entry in model_sizes()
            if model_matches(entry.id, model) and stated_size(release_suffix(entry.id, model)) is None
        ),
        None,
    )
    release = quantized_release(model)
    if found is not None or release is None or "/" not in model:
        return found
    base = size_of(release[1].rsplit("/", 1)[-1])  # the model's name without the re-publisher's organisation
    return base.model_copy(update={"released_format": None}) if base is not None else None


def release_suffix(listed: str, model: str) -> str:
    """What a release's id adds to the model it matches ('-Instruct' of 'Llama-3.3-70B-Instruct' against 'Llama-3.3-70B')."""
    return model.rsplit("/", 1)[-1][len(listed.rsplit("/", 1)[-1]) :]


def written_for(listed: Sequence[str], model: str | None) -> bool:
    """A recipe listing these models is written for this one: it lists the model or a release of it. Not a catalogued
    model whose id the model's extends with a size of its own (a DeepSeek-R1 recipe is not for
    'DeepSeek-R1-Distill-Llama-70B'), nor one the catalogue holds as a model of its own: an earlier model whose
    architecture this one keeps ('DeepSeek-R1' lists R1, not R1-0528) or a sibling ('GLM-4.5' lists GLM-4.5, not the
    smaller GLM-4.5-Air)."""
    return written_exactly_for(listed, model) or (
        model is not None and any(tuned_release_of(entry, model) for entry in listed)
    )


def written_exactly_for(listed: Sequence[str], model: str | None) -> bool:
    """written_for, not counting a recipe for the model's instruction-tuned release ('-Instruct' for a base model):
    one that lists the model itself or a release of it comes first."""
    if model is None:
        return False
    known = size_of(model)
    return any(
        model_matches(entry, model)
        and not another_size(entry, model)
        and (known is None or model_matches(known.id, entry))
        for entry in listed
    )


TUNED_RELEASE = re.compile(
    r"^-(instruct|chat|it)$", re.IGNORECASE
)  # the tuned release of a base model, same weights' shape


# A base model's release suffix, where its publisher names one ('gemma-3-27b-pt', 'Qwen3-14B-Base').
BASE_RELEASE = re.compile(r"-(pt|base)$", re.IGNORECASE)


def tuned_release_of(listed: str, model: str) -> bool:
    """The listed model is the instruction-tuned release of the model named ('Meta-Llama-3-8B-Instruct' of
    'Meta-Llama-3-8B', 'gemma-3-27b-it' of 'gemma-3-27b-pt': review 266 p06): one architecture and size, so a recipe
    for one is written for the other."""
    base = BASE_RELEASE.sub("", model)
    return model_matches(base, listed) and TUNED_RELEASE.match(release_suffix(base, listed)) is not None


def another_size(listed: str, model: str) -> bool:
    """The catalogue sizes the listed model, and what the model's id adds to it states a size: a model built from it
    ('DeepSeek-R1-Distill-Llama-70B'), not a release of it."""
    return size_of(listed) is not None and stated_size(release_suffix(listed, model)) is not None


SIZE_TOKENS = re.compile(r"(?<![\w.])A?\d+(?:\.\d+)?B(?![A-Za-z0-9])", re.IGNORECASE)  # '32B', '235B', 'A22B'


def size_sibling(listed: Sequence[str], model: str | None) -> str | None:
    """The listed model that is another size of this one's series: the same organisation and name but for the size
    tokens ('Qwen/Qwen2.5-VL-72B-Instruct' of 'Qwen/Qwen2.5-VL-32B-Instruct'; 'Qwen3-235B-A22B' of 'Qwen3-30B-A3B'), or
    None. A recipe for it is written for the series' architecture at another size: its settings hold, its parallel
    degree and memory figures do not."""
    if model is None or stated_size(model) is None or written_for(listed, model):
        return None

    def series(name: str) -> str:
        return SIZE_TOKENS.sub("{size}", name.strip().replace("_", "-")).lower()

    return next(
        (
            entry
            for entry in listed
            if "/" in entry
            and series(entry) == series(model if "/" in model else f"{entry.split('/')[0]}/{model}")
            and stated_size(entry) != stated_size(model)
        ),
        None,
    )


def layout_sibling(listed: Sequence[str], model: str | None) -> str | None:
    """The listed model of this one's series in the other layout, dense or mixture-of-experts: its id has one more
    size token, the active parameters ('Qwen/Qwen3-VL-235B-A22B-Instruct' of 'Qwen/Qwen3-VL-8B-Instruct'), or None.
    The series' shared parts (a vision-language model's encoder and projector) hold; the expert layout does not."""
    if model is None or "/" not in model or written_for(listed, model):
        return None

    def series(name: str) -> str:  # 'qwen/qwen3-vl-{size}-instruct' whether one size token or two
        return SIZE_TOKENS.sub("{size}", name.strip().replace("_", "-")).replace("{size}-{size}", "{size}").lower()

    def tokens(name: str) -> int:
        return len(SIZE_TOKENS.findall(name))

    return next(
        (entry for entry in listed if series(entry) == series(model) and tokens(entry) != tokens(model)),
        None,
    )


@dataclass(frozen=True)
class ArchitectureKin:
    """A listed model whose architecture the profile's model keeps: the listed one itself, or a model both descend
    from (DeepSeek-V3.1 and DeepSeek-R1 both keep DeepSeek-V3's), with the pages that say so."""

    listed: str
    architecture: str  # the model whose architecture both keep
    sources: tuple[str, ...]

    @property
    def direct(self) -> bool:
        """The listed model is the one whose architecture is kept (a Llama 3.1 recipe for Llama 3.3)."""
        return model_matches(self.listed, self.architecture)


def ancestors(model: str) -> list[tuple[str, str]]:
    """The earlier models whose architecture this one keeps, nearest first, each with the page that says so
    (DeepSeek-R1-0528: R1, then V3)."""
    found: list[tuple[str, str]] = []
    current = model
    while (known := size_of(current)) is not None and known.architecture_of is not None:
        if any(known.architecture_of.id == seen for seen, _ in found):
            break
        found.append((known.architecture_of.id, known.architecture_of.source))
        current = known.architecture_of.id
    return found


def shared_architecture(listed: Sequence[str], model: str | None) -> ArchitectureKin | None:
    """The listed model whose architecture this model keeps with other weights (a recipe for Llama 3.1 70B configures
    Llama 3.3 70B; one for DeepSeek-R1 configures DeepSeek-V3.1, both DeepSeek-V3's; one for DeepSeek-R1 configures
    DeepSeek-V3, whose architecture R1 keeps), or None: the model is listed itself, or no listed model shares its
    architecture."""
    if model is None or written_for(listed, model):
        return None
    for entry in listed:  # a recipe for a later release of this model's architecture (R1's for DeepSeek-V3 itself,
        # Llama 3.3 70B's for Llama 3.1 70B): the nearest kin, before a shared older ancestor (review 242 p07)
        theirs = ancestors(entry)
        found = next((i for i, (their, _) in enumerate(theirs) if model_matches(their, model)), None)
        if found is not None:
            return ArchitectureKin(entry, theirs[found][0], tuple(source for _, source in theirs[: found + 1]))
    mine = ancestors(model)
    for index, (earlier, _) in enumerate(mine):  # the nearest ancestor a listed model is, or shares, first
        sources = tuple(source for _, source in mine[: index + 1])
        for entry in listed:
            # the earlier model itself, a release of it, or its instruction-tuned release (LLaMA-Factory's recipe for
            # Meta-Llama-3-8B-Instruct configures Llama 3.1 8B as OpenRLHF's for Meta-Llama-3-8B does; review 132 p09)
            if model_matches(entry, earlier) or tuned_release_of(entry, earlier):
                return ArchitectureKin(entry, earlier, sources)
            theirs = ancestors(entry)
            shared = next((i for i, (their, _) in enumerate(theirs) if their == earlier), None)
            if shared is not None:
                return ArchitectureKin(entry, earlier, sources + tuple(source for _, source in theirs[: shared + 1]))
    return None


SERIES = re.compile(r"^([A-Za-z]+)[- ]?(\d+(?:\.\d+)?)")  # 'Qwen' 2.5 of Qwen2.5-7B, 'Llama' 3.1 of Llama-3.1-8B


def newer_in_series(models: Sequence[str], model: str | None) -> str | None:
    """The first of `models` of the named model's own series at a later version (Qwen3-VL-32B-Instruct for
    Qwen2.5-VL-72B-Instruct, by the series name and the rest of the name after the version: 'VL'), or None."""
    found = SERIES.match(model.rpartition("/")[2]) if model is not None else None
    if found is None or model is None:
        return None
    name, version = found.groups()
    kind = VARIANT.findall(model.rpartition("/")[2][found.end() :].lower())
    for other in models:
        theirs = SERIES.match(other.rpartition("/")[2])
        if theirs is None or theirs.group(1).lower() != name.lower():
            continue
        later = tuple(map(int, theirs.group(2).split("."))) > tuple(map(int, version.split(".")))
        if later and VARIANT.findall(other.rpartition("/")[2][theirs.end() :].lower()) == kind:
            return other
    return None


VARIANT = re.compile(r"\b(vl|omni|coder|math|audio|vision)\b")  # what kind of model a series' release is


HUB_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")  # 'Qwen/Qwen3-30B-A3B'


def about_another_model(text: str, model: str | None) -> bool:
    """A sentence that opens on a model the catalogue knows other than the named one ('DeepSeek-V3.1 is a hybrid
    thinking model ...' in a stack serving DeepSeek-R1 too): it is about that model alone."""
    if model is None:
        return False
    opening = text.split(" ", 1)[0]
    lead = opening.rstrip(",:;")
    # a risk scoped to one model by opening on its Hub id and a colon ('Qwen/Qwen3-30B-A3B: ...'), catalogued or not
    scoped = opening.endswith(":") and HUB_ID.match(lead) is not None
    return "-" in lead and (scoped or size_of(lead) is not None) and lead.lower() not in model.lower()


def about_another_series(text: str, model: str | None) -> bool:
    """A sentence that opens on another version of the named model's own series ('A Qwen2.5 fine-tune checks ...' for
    Qwen3-8B, Qwen3.5's caveats for Qwen3-30B-A3B): it is about another model (review 103 p06). A less specific
    version ('Llama 3' for Llama-3.3-70B) is the model's own series and still applies."""
    found = SERIES.match(model.rpartition("/")[2]) if model is not None else None
    if found is None:
        return False
    name, version = found.groups()
    lead = " ".join(text.split()[:3])
    for other in re.finditer(rf"(?<![\w.-]){re.escape(name)}[- ]?(\d+(?:\.\d+)?)(?![\w.])", lead, re.IGNORECASE):
        said = other.group(1)
        if said != version and not version.startswith(said + "."):
            return True
    return False
