"""Training framework, for large training (many devices or MoE): the framework that parallelises the model.

Beyond a few devices a team does not assemble tensor, pipeline, context and expert parallelism from
libraries: it trains inside the platform's framework for it (Megatron-Core with Transformer Engine on
NVIDIA, MindSpeed on Ascend, XLA's SPMD on TPUs, the Neuron SDK on Trainium ...).
"""

from __future__ import annotations

from advisor.knowledge.models import Candidate
from advisor.recommendation.capacity import frozen_copy_fits_one_device
from advisor.recommendation.choices import entry_from, rejections_from
from advisor.recommendation.citations import cite_claim, cite_platform, cite_profile, line
from advisor.recommendation.context import ConcernDecision, RuleContext, skipped_decision
from advisor.recommendation.models import Choice, Rationale
from advisor.recommendation.policy import FINE_TUNING_KINDS, data_parallel_over
from advisor.recommendation.selection import pick
from advisor.recommendation.stack import (
    LARGE_TRAINING_DEVICES,
    framework_pick,
    framework_preference,
    needs_training_framework,
)
from advisor.recommendation.stack_choice import fine_tuning_tool


def parallelism(context: RuleContext, option: str | None = None) -> str:
    """The parallelism the job needs: data always, tensor and pipeline at scale (not for a LoRA job whose frozen
    weights fit one device: each holds a copy), expert for MoE. A fine-tuning tool (LLaMA-Factory) shards data
    parallelism through DeepSpeed ZeRO or FSDP instead of splitting layers (review 80 p09)."""
    copies = context.profile.training == "lora" and frozen_copy_fits_one_device(context.profile, context.device)
    if fine_tuning_tool(option, context.knowledge):
        return "data" if copies else "sharded data (DeepSpeed ZeRO-3 or FSDP, where a copy does not fit one device)"
    parts = ["data"]
    if context.profile.needs.devices >= LARGE_TRAINING_DEVICES and not copies:
        parts += ["tensor", "pipeline"]
    if context.profile.model_type == "moe":
        parts.append("expert")
    if context.profile.needs.long_context:
        parts.append("context")
    return "+".join(parts)


def framework_lines(context: RuleContext, option: str) -> list[Rationale]:
    """Why the job trains inside this framework, and which layers it builds on."""
    profile, candidate = context.profile, context.knowledge.get(option)
    scale = f"{profile.needs.devices} devices" + (" and a mixture of experts" if profile.model_type == "moe" else "")
    text = f"{scale}: {parallelism(context, option)} parallelism comes from {candidate.name}, not from hand-assembled libraries"
    lines = [
        line(
            text,
            cite_platform(context.platform, "training_frameworks"),
            cite_claim(candidate, "summary"),
            cite_profile(profile, "needs.devices"),
            cite_profile(profile, "model_type"),
        )
    ]
    if context.stack.layers is not None:
        layers = context.knowledge.get(context.stack.layers)
        lines.append(
            line(
                f"its layers come from {layers.name} (GEMM, attention and the FP8/BF16 recipes)",
                cite_claim(layers, "summary"),
            )
        )
    return lines


def fine_tuning_framework(context: RuleContext) -> str | None:
    """For a LoRA or full fine-tuning job at any scale: the training framework the chosen training stack runs in,
    where the platform lists it (the vendor's fine-tuning recipe is the tool, even on one or two devices)."""
    framework = context.stack.training_framework
    if context.profile.training not in FINE_TUNING_KINDS or framework is None:
        return None
    return framework if framework in framework_preference(context) else None


def fine_tuning_lines(context: RuleContext, option: str) -> list[Rationale]:
    """Why a fine-tuning job below the large-training scale still names its framework."""
    profile, candidate = context.profile, context.knowledge.get(option)
    text = f"{profile.training} training: the fine-tuning recipe documented for this job runs in {candidate.name}" + (
        data_parallel_over(profile.needs.devices) if profile.needs.devices > 1 else ", on one device"
    )
    return [
        line(
            text,
            cite_platform(context.platform, "training_frameworks"),
            cite_claim(candidate, "summary"),
            cite_profile(profile, "training"),
        )
    ]


def model_library(context: RuleContext) -> Candidate | None:
    """The library that trains this kind of model on this family, where the knowledge base lists one for its model type
    (Hugging Face Diffusers for a diffusion model, its LoRA scripts running on the family's PyTorch build): what a
    one-device job trains with where no stack documents the job (review 230 p14: an SDXL LoRA on a Hygon DCU was told
    only "the framework's own training loop")."""
    profile = context.profile
    found = next(
        (
            candidate
            for candidate in context.knowledge.candidates
            if candidate.model_types is not None
            and profile.model_type in candidate.model_types.value
            and candidate.training.value == "yes"
            and profile.hardware in candidate.hardware.value
            and candidate.layer.value == "runtime"
        ),
        None,
    )
    return found


def library_decision(context: RuleContext, library: Candidate) -> ConcernDecision:
    """A non-LLM model trained on several devices where no stack documents the job: the library that trains this kind
    of model on the family, launched data parallel, named as the route to probe first (review 266 p12: an SDXL LoRA on
    four K100_AI cards read "training-framework: not needed" and had no trainer at all)."""
    profile = context.profile
    adapters = " with the adapters through Hugging Face PEFT" if profile.training == "lora" else ""
    text = (
        f"no vendor page documents {profile.model_type} training on {profile.hardware}: {library.name}'s own training "
        f"scripts{adapters}, run on the family's PyTorch build, are the route to probe first (unvalidated there: a "
        "short run's loss and step time before the job)"
    )
    why = line(
        text, cite_claim(library, "training"), cite_profile(profile, "training"), cite_profile(profile, "hardware")
    )
    spread = line(
        f"{profile.needs.devices} devices: launched data parallel (DDP through Accelerate), FSDP only where the model "
        "and its optimizer states do not fit one device",
        cite_profile(profile, "needs.devices"),
    )
    choice = Choice(
        concern="training-framework",
        option=library.id,
        settings={"parallelism": f"data parallel over {profile.needs.devices} devices"},
        rationale=(why, spread),
    )
    return ConcernDecision(concern="training-framework", tier1=choice)


def decide_training_framework(context: RuleContext) -> ConcernDecision:
    """Tier 1 training framework for large training, or the one a fine-tuning recipe runs in; skipped otherwise."""
    profile = context.profile
    documented = None if needs_training_framework(profile) else fine_tuning_framework(context)
    if not needs_training_framework(profile) and documented is None:
        if not profile.trains:
            text = "no training: no training framework"
        else:
            why = (
                f"a {profile.model_type} model"
                if not profile.llm
                else f"{profile.needs.devices} device(s) and a dense model"
            )
            library = model_library(context)
            if library is not None and profile.needs.devices > 1:
                return library_decision(context, library)
            loop = (
                f"{library.name}'s own training scripts carry it"
                + (" (the adapters through Hugging Face PEFT)" if profile.training == "lora" else "")
                if library is not None
                else "the framework's own training loop carries it"
            )
            text = (
                f"one device and a {profile.model_type} model: {loop}, with no parallelism to choose"
                if profile.needs.devices == 1
                else f"{why}: the framework's own parallelism carries it - DDP where the model and its optimizer "
                "states fit one device, FSDP where they do not"
            )
        skipped = line(text, cite_profile(profile, "workload"), cite_profile(profile, "needs.devices"))
        return skipped_decision("training-framework", skipped)
    if documented is not None:
        chosen = pick(context, "training-framework", (documented,), consider_all=False)
        lines = fine_tuning_lines(context, chosen.chosen.id) if chosen.chosen is not None else []
    else:
        chosen = framework_pick(context)
        lines = framework_lines(context, chosen.chosen.id) if chosen.chosen is not None else []
    reason = (
        f"no training framework for a {profile.model_type} on {profile.hardware} in the knowledge base: "
        "PyTorch's own FSDP/DDP carries the job"
        + (", with a LoRA library (Hugging Face PEFT) adding the adapters" if profile.training == "lora" else "")
    )
    one_device = context.profile.needs.devices == 1 and context.profile.model_type != "moe"
    settings = (
        {"parallelism": parallelism(context, chosen.chosen.id)} if chosen.chosen is not None and not one_device else {}
    )
    if context.stack.layers is not None:
        settings["layers"] = context.stack.layers
    return ConcernDecision(
        concern="training-framework",
        tier1=entry_from(chosen, "training-framework", context, gap_reason=reason, lines=lines, settings=settings),
        rejections=rejections_from(chosen, "training-framework"),
    )
