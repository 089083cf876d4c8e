"""Tiers 2 and 3 for one concern (method #tiers), and the tier-level switch conditions.

Tier 2, deep self-development of key operators: the platform's kernel routes in the order the team's
skill calls for (a kernel team starts from Triton or the CuTe DSL, an HPC team from CUTLASS C++,
Composable Kernel or Ascend C); a concern measured below hot_operators.MINOR_SHARE of the model's
time (hotops) gets none.
Tier 3, multi-platform: only options the knowledge base lists on the target and on every other
family the profile names (needs.other_hardware); the target's own ecosystem first, then the widest.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

from advisor.knowledge.models import CLAIMED_TASKS_ONLY, SERVING_LAYERS, Candidate, Concern
from advisor.knowledge.stacks import Stack
from advisor.recommendation.choices import entry_from
from advisor.recommendation.citations import cite_claim, cite_platform, cite_profile, cite_stack, line
from advisor.recommendation.context import RuleContext, TierEntry, serving_options
from advisor.recommendation.hot_operators import CONCERN_GROUPS, hot_spot_line, hotop_shares, is_minor, share_text
from advisor.recommendation.models import Gap, Rationale
from advisor.recommendation.policy import (
    MISFIT_WEIGHTS,
    RUNTIME_KERNEL_LAYERS,
    SKILL_ORDER,
    claimed_format,
    writes_kernels,
)
from advisor.recommendation.selection import Pick, pick
from advisor.recommendation.served_format import on_family
from advisor.recommendation.stack_choice import DEVICE_MISFITS, choose_stacks, runner_of

TIER2_CONCERNS: tuple[Concern, ...] = ("gemm", "convolution", "attention", "fusion", "quantization")
# The layers a multi-platform option is looked for in first, per concern (kernel languages and compilers
# are the portable layers; a vendor operator library ported to a second family is not).
PORTABLE_LAYERS: dict[str, tuple[str, ...]] = {
    "quantization": ("quantization-toolkit", "runtime", "compiler"),
    "deployment": ("serving-engine", "runtime"),
    "dynamic-shapes": ("compiler", "runtime", "serving-engine"),
    "collectives": ("collective-library",),
}
STRICT_PORTABLE = ("collectives",)  # a compiler's collectives are no portable replacement for the framework's
DEFAULT_PORTABLE_LAYERS = ("kernel-language", "compiler")
# Layers a model is written for or compiled from through their own front end (JAX for XLA, MLX's Python API).
FRONT_END_LAYERS = ("compiler", "framework")


def tier2_preference(context: RuleContext, concern: Concern, host: str | None = None) -> tuple[str, ...]:
    """The platform's kernel routes for the team: deep-development routes first for an HPC team, kernel
    languages first otherwise; for attention, the platform's programmable attention (FlexAttention) too. On a
    mobile-class device, only the routes a stack documented on such a device names, where it names any (a phone
    runtime's micro-kernels, not a server framework's library), as tier 3 does."""
    platform = context.platform
    named = runtime_named(context)  # within each group, what tier 1's runtime is documented to call comes first
    if own_runtime_kernels(context):  # ONNX Runtime's MLAS, ggml: the micro-kernels such runtimes integrate next
        named |= frozenset(context.knowledge.policy.runtime_micro_kernels)
    deep = sorted(platform.deep_development.value, key=lambda option: option not in named)
    languages = sorted(platform.kernel_languages.value, key=lambda option: option not in named)
    ranked = deep + languages if context.profile.team_skill == "hpc" else languages + deep
    if context.on_mobile:
        on_phones = context.documented_on_mobile()
        ranked = [option for option in ranked if option in on_phones] or ranked
    if concern == "attention":
        known = set(context.knowledge.ids())
        official = [context.knowledge.get(option) for option in context.official("attention") if option in known]
        programmable = [candidate.id for candidate in official if is_programmable_attention(candidate)]
        if host is not None:  # inside an engine's own attention: only a programmable kernel the engine runs (review 266
            # p01: FlexAttention offered under TensorRT-LLM, whose backends are its own kernels and FlashInfer)
            runs = set(context.knowledge.compatibility.attention_kernels_of(host))
            programmable = [option for option in programmable if option in runs]
        ranked = (
            ranked[:1] + programmable + ranked[1:] if context.profile.team_skill != "hpc" else ranked + programmable
        )
    return tuple(dict.fromkeys(ranked))


def runtime_named(context: RuleContext) -> frozenset[str]:
    """The candidates the target family's stacks run by tier 1's runtime name as their parts (KleidiAI in llama.cpp's
    Graviton build): a kernel team extends what that runtime calls, not a library it never loads (ACL)."""
    runtime = context.stack.runtime
    if runtime is None:
        return frozenset()
    return frozenset(
        component.candidate
        for stack in context.knowledge.stacks_for(context.profile.hardware)
        if stack.runner is not None and stack.runner.candidate == runtime
        for component in stack.components
        if component.candidate is not None
    )


def own_runtime_kernels(context: RuleContext) -> bool:
    """Tier 1's runtime runs the model on kernels of its own (a runtime or framework layer, with no library its stacks
    name under it): a kernel team extends those with micro-kernels rather than handing the model to a library."""
    runtime = context.stack.runtime
    return runtime is not None and context.knowledge.layer_of(runtime) in RUNTIME_KERNEL_LAYERS


def skill_covers(context: RuleContext, candidate: Candidate) -> bool:
    """The team's skill is at least the least skill the candidate's page asks to use it productively."""
    return SKILL_ORDER.index(context.profile.team_skill) >= SKILL_ORDER.index(candidate.skill.value)


def is_programmable_attention(candidate: Candidate) -> bool:
    """An open attention library that also fuses user code into its kernel and trains (FlexAttention)."""
    return (
        "fusion" in candidate.concerns.value
        and candidate.layer.value == "operator-library"
        and candidate.openness.value == "open"
        and candidate.autograd.value == "yes"
    )


def tier2_entry(
    context: RuleContext,
    concern: Concern,
    requirements: Sequence[str] = (),
    extra_blockers: Mapping[str, Sequence[Rationale]] | None = None,
    host: str | None = None,
) -> TierEntry | None:
    """The deep self-development option for a key-operator concern; None for the other concerns. `host`: the engine
    whose own attention tier 1 runs, which a programmable attention kernel must be a backend of."""
    if concern not in TIER2_CONCERNS:
        return None
    shares = hotop_shares(context.facts, context.profile)
    if shares is not None and is_minor(shares, concern):
        groups = CONCERN_GROUPS[concern]
        text = f"not a hot spot: {share_text(shares, groups)}; deep self-development would not pay, tier 1 stays"
        return Gap(concern=concern, rationale=(shares.line(text, *groups),))
    closed = closed_to_custom_kernels(context, concern)
    if closed is not None:
        return closed
    preference = tier2_preference(context, concern, host)
    outside = [option for option in preference if runs_outside_runtime(option, context)]
    preference = tuple(option for option in preference if option not in outside)
    if not preference:
        return outside_runtime_gap(context, concern, outside) if outside else None
    chosen = pick(
        context,
        concern,
        preference,
        requirements=requirements,
        extra_blockers=extra_blockers,
        allow_skill_gap=True,
        consider_all=False,
    )
    candidate = chosen.chosen
    if candidate is None:
        return None
    # the team writes the kernels here, not only calls the library; FlexAttention's variants are plain PyTorch
    # functions its compiler fuses, which its own skill claim puts within a framework team (review 157 p02)
    needs_own_kernels = not (is_programmable_attention(candidate) and skill_covers(context, candidate))
    if needs_own_kernels and not writes_kernels(context.profile.team_skill):
        # the kernels are beyond the team whichever route it takes: the route tier 1's runtime calls, first in the
        # preference, is listed rather than the one whose library a framework team could merely call (review 168 p15:
        # Arm Compute Library under a llama.cpp built with KleidiAI)
        first = first_unblocked(chosen, preference, context)
        if first is not None and first.id != candidate.id and not is_programmable_attention(first):
            candidate = first
        chosen = replace(chosen, chosen=candidate, fits_team=False)
    share = hot_spot_line(shares, concern)
    lines = [share] if share is not None else []
    cost = candidate.maintenance_cost
    text = f"{candidate.name} for the operators profiling shows are hot spots only (maintenance cost {cost.value})"
    lines.append(line(text, cite_claim(candidate, "maintenance_cost"), cite_claim(candidate, "skill")))
    route = platform_route_line(context, candidate)
    if route is not None:  # review 259 p14: Triton on Hygon's DTK read as "unsupported by anything it cites"
        lines.append(route)
    others = [context.knowledge.get(option) for option in chosen.alternatives if option in preference]
    if others and chosen.fits_team:  # the other routes this team could write the same operators in (CuTe DSL)
        names = ", ".join(other.name for other in others)
        lines.append(line(f"also within the team's skill here: {names}", *(cite_claim(o, "skill") for o in others)))
    return entry_from(chosen, concern, context, gap_reason="", lines=lines)


def platform_route_line(context: RuleContext, candidate: Candidate) -> Rationale | None:
    """Where the platform's own kernel-route claim names the candidate and says how it runs there (Hygon's Triton
    fork with an HCU backend), that note, cited to the platform's claim."""
    platform = context.platform
    for path, claim in (
        ("kernel_languages", platform.kernel_languages),
        ("deep_development", platform.deep_development),
    ):
        if candidate.id in claim.value and claim.note:
            return line(f"on {platform.name}: {claim.note}", cite_platform(platform, path))
    return None


def first_unblocked(picked: Pick, preference: Sequence[str], context: RuleContext) -> Candidate | None:
    """The first of `preference` that nothing but the team's skill rules out: the pick, its alternatives, or one it held
    back for skill alone."""
    open_ids = {*picked.alternatives, *picked.held_by_skill}
    if picked.chosen is not None:
        open_ids.add(picked.chosen.id)
    first = next((option for option in preference if option in open_ids), None)
    return context.knowledge.get(first) if first is not None else None


def runs_outside_runtime(option: str, context: RuleContext) -> bool:
    """A kernel route that is a framework of its own (MLX's Metal kernels run on MLX arrays, inside MLX programs) while
    tier 1 runs the model in another runtime that none of the target's stacks pairs with it (WhisperKit on Core ML):
    its kernels cannot replace an operator there (review 157 p13, and the issue's defect 7)."""
    runtime = context.stack.runtime
    if runtime is None or option == runtime or option not in context.knowledge.ids():
        return False
    return context.knowledge.layer_of(option) in FRONT_END_LAYERS and option not in runtime_named(context)


def outside_runtime_gap(context: RuleContext, concern: Concern, outside: Sequence[str]) -> Gap:
    """Tier 2 for a runtime the platform's kernel routes cannot reach (outside_runtime_line)."""
    return Gap(concern=concern, rationale=(outside_runtime_line(context, outside),))


def outside_runtime_line(context: RuleContext, outside: Sequence[str]) -> Rationale:
    """What the platform's kernel routes run inside, and the runtime's own way to add an operator where its page gives
    one (Core ML's custom layers)."""
    runtime = context.knowledge.get(context.stack.runtime or "")
    routes = [context.knowledge.get(option) for option in outside]
    names = ", ".join(short_name(route) for route in routes)
    text = f"{names} kernels run inside {names}'s own programs, not under {short_name(runtime)}, tier 1's runtime"
    cites = [cite_claim(route, "layer") for route in routes]
    if runtime.custom_operators is not None:
        text += f"; its own route for an operator it lacks is {runtime.custom_operators.value}"
        cites.append(cite_claim(runtime, "custom_operators"))
    else:
        text += ": tier 1's stays"
    return line(text, *cites)


def short_name(candidate: Candidate) -> str:
    """'MLX' for 'MLX (Apple ML research array framework, with mlx-lm)'."""
    return re.sub(r"\s*\(.*\)$", "", candidate.name) or candidate.name


def closed_to_custom_kernels(context: RuleContext, concern: Concern) -> Gap | None:
    """A concern the platform's custom-kernel routes cannot write (Gaudi's TPC-C runs what does not map to its matrix
    engine, so GEMMs stay on the vendor library): tier 2 has nothing to offer there, and says why."""
    claim = context.platform.custom_kernel_concerns
    if claim is None or concern in claim.value:
        return None
    written = ", ".join(claim.value)
    text = f"custom kernels on {context.profile.hardware} write {written} only, not {concern}: tier 1's stays"
    return Gap(concern=concern, rationale=(line(text, cite_platform(context.platform, "custom_kernel_concerns")),))


def portable_candidates(context: RuleContext, concern: Concern) -> list[Candidate]:
    """Candidates listed for the concern on the target and every other family the profile names, that run on more than
    one family and fit the job (model type, workload, a phone, each family documenting it as a runner, a collective
    library for collectives)."""
    families = set(context.profile.families)
    found = [
        candidate
        for candidate in context.knowledge.candidates
        if families <= set(candidate.hardware.value)
        and len(candidate.hardware.value) > 1
        and concern in candidate.concerns.value
        and candidate.layer.value != "training-framework"
        and candidate.serves_model_type(context.profile.model_type)  # before the groups: llama.cpp serves no diffusion
        and candidate.serves_task(context.profile.serving_task)  # an embeddings server generates no text
    ]
    if context.profile.trains and concern != "deployment":  # a runtime or serving engine does not train
        found = [candidate for candidate in found if candidate.layer.value not in ("runtime", "serving-engine")]
    if context.on_mobile:  # on a phone: only what a stack documents on one (not a server's engine, oneDNN, Inductor)
        on_phones = context.documented_on_mobile()
        found = [candidate for candidate in found if candidate.id in on_phones]
    elif context.profile.needs.in_app and concern == "deployment":  # inside an app: what a stack runs in one
        in_apps = context.documented_in_app()
        found = [candidate for candidate in found if candidate.id in in_apps]
    if concern == "deployment" and len(families) > 1:  # runs there is not enough: each family documents serving with it
        found = [c for c in found if all(documented_runner(c.id, family, context) for family in families)]
    if concern == "deployment" and context.profile.serving_task in CLAIMED_TASKS_ONLY:  # Whisper: a stack per family
        found = [c for c in found if task_stacks(c.id, context)]
    # nor does an engine no transcription stack runs batch it (vLLM on an Inf2)
    if concern == "dynamic-shapes" and context.profile.serving_task in CLAIMED_TASKS_ONLY:
        found = [c for c in found if c.layer.value not in SERVING_LAYERS or task_stacks(c.id, context)]
    if concern == "deployment" and not context.profile.llm:  # an LLM engine's diffusion server is not on every family
        found = [c for c in found if c.layer.value != "serving-engine" or model_type_stacks(c.id, context)]
    if concern in STRICT_PORTABLE:
        found = [c for c in found if c.layer.value in PORTABLE_LAYERS[concern]]
    return found


def reached_from_target(candidate: Candidate, context: RuleContext) -> bool:
    """A compiler or framework is reached from its own front end, so it is an option only where the target's stack
    names it: XLA on a TPU, MLX on Apple silicon. XLA also runs on NVIDIA and AMD GPUs, but from JAX (PyTorch/XLA
    dropped its CUDA build), so for a team on the NVIDIA stack it is a port of the model, not a layer to explore under
    it; a kernel language, library or runtime is called from the team's own framework."""
    return candidate.layer.value not in FRONT_END_LAYERS or candidate.id in context.platform.named_ids()


def portable_preference(context: RuleContext, concern: Concern) -> tuple[str, ...]:
    """The portable candidates (portable_candidates) reached from the target's stack: one documented for the task or
    model type on every family first, then the target's ecosystem, then the concern's portable layers, then by how many
    families they cover; only the best of those groups is kept."""
    named = context.platform.named_ids()
    found = [
        candidate
        for candidate in portable_candidates(context, concern)
        if reached_from_target(candidate, context) and not task_left_out(candidate.id, concern, context)
    ]
    layers = PORTABLE_LAYERS.get(concern, DEFAULT_PORTABLE_LAYERS)

    def rank(candidate: Candidate) -> tuple[bool, bool, bool, int, bool, bool]:
        return (
            context.profile.serving_task != "generation" and not task_stacks(candidate.id, context),
            # an LLM on several families: an engine with a stack near this profile on each other family before one
            # whose stacks there are for other models (SGLang's Qwen3 A3 page for DeepSeek-V3.1 on a 910B; review
            # 104 p08): tier 3 names the stack it runs on each family, not another engine's
            concern == "deployment"
            and context.profile.llm
            and len(context.profile.families) > 1
            and not near_stack_everywhere(candidate.id, context),
            # a model that is not an LLM on several families: a runtime every family's stacks run it with (Diffusers,
            # under xDiT on AMD) before one that merely runs there (ONNX Runtime, no diffusion stack on AMD; review 101
            # p15); one family's exploration keeps a graph runtime that carries the other concerns too
            concern == "deployment"
            and len(context.profile.families) > 1
            and not context.profile.llm
            and not model_type_stacks(candidate.id, context),
            format_rank(candidate, concern, context),
            candidate.id not in named,
            candidate.layer.value not in layers,
        )

    found.sort(key=lambda candidate: (*rank(candidate), -len(candidate.hardware.value)))
    if found:  # the best group only: a skill gap in it is shown rather than falling back to a stranger layer
        found = [candidate for candidate in found if rank(candidate) == rank(found[0])]
    return tuple(candidate.id for candidate in found)


def task_left_out(option: str, concern: Concern, context: RuleContext) -> bool:
    """A deployment (or the engine batching shapes) for a task other than generation (embedding) that some family
    documents with runtimes of its own, none of them this one (TEI on a Xeon, where vLLM's CPU page is for text
    generation): no code path every family's pages share (review 117 p08: vLLM as 'the one runtime' on a Hygon DCU and
    a Xeon for bge-m3)."""
    if concern not in ("deployment", "dynamic-shapes") or context.profile.serving_task == "generation":
        return False
    for family in context.profile.families:
        runners = {stack.runner.candidate for stack in context.task_stacks_on(family) if stack.runner is not None}
        if runners and option not in runners:
            return True
    return False


def near_stack_everywhere(option: str, context: RuleContext) -> bool:
    """On every other family of the profile, a stack the option runs that the family's own choice would choose or
    consider as nearly fitting (misfits no heavier than another device generation's); where the profile names the
    device there (needs.other_devices), one validated on that device (SGLang's DeepSeek page for an A3 is no page for a
    910B, where vLLM's is)."""
    known = set(context.knowledge.ids())
    for family in context.profile.families:
        if family == context.profile.hardware:
            continue
        choice = choose_stacks(on_family(context.profile, family, context.knowledge), context.knowledge)
        named = not choice.device_assumed and context.profile.needs.other_device(family) is not None
        if not any(
            judged.workload == "inference"
            and judged.nearly_fits
            and not (named and any(m.kind in DEVICE_MISFITS for m in judged.misfits))
            and getattr(runner_of(judged.stack, judged.workload, known), "candidate", None) == option
            for judged in (*choice.chosen, *choice.considered)
        ):
            return False
    return True


def undocumented_everywhere(context: RuleContext) -> str:
    """'; <runtime> runs on every one of them, but <family>'s pages serve LLMs with <its engines>: ...' for a runtime
    that runs the LLM on each of the profile's families where some family does not list it among its LLM serving
    engines (review 69 p12: a GGUF runtime on Metal and CUDA), else ''."""
    families = context.profile.families
    found = [
        candidate
        for candidate in context.knowledge.candidates
        if set(families) <= set(candidate.hardware.value)
        and "deployment" in candidate.concerns.value
        and candidate.layer.value in ("serving-engine", "runtime")
        and candidate.serves_model_type(context.profile.model_type)
        and candidate.serves_task(context.profile.serving_task)
    ]
    for candidate in found:
        missing = [f for f in families if not documented_runner(candidate.id, f, context)]
        if missing:
            engines = ", ".join(context.knowledge.platform(missing[0]).serving_engines.value)
            return (
                f"; {candidate.name} runs on every one of them, but {missing[0]}'s pages serve LLMs with {engines}, so "
                "it is a portability option to measure there, not a documented server"
            )
    return ""


def documented_runner(option: str, family: str, context: RuleContext) -> bool:
    """For an LLM served on a server, the option is one of the family's LLM serving engines: llama.cpp runs on NVIDIA
    GPUs, but no NVIDIA page serves production LLMs with it. Other models, and LLMs on a phone, run in any runtime that
    runs on the family (ONNX Runtime with the family's execution provider). A speech model's runtime is documented by
    a transcription stack on each family instead (task_stacks), not by the families' LLM serving-engine lists."""
    if not context.profile.llm or context.on_mobile or context.profile.serving_task in CLAIMED_TASKS_ONLY:
        return True
    return option in context.knowledge.platform(family).serving_engines.value


def model_type_stacks(option: str, context: RuleContext) -> bool:
    """A serving engine serves a model that is not an LLM (SGLang's diffusion server) only where a stack of each of
    the profile's families runs the engine for that model type: its TPU backend serves LLMs only."""
    model_type = context.profile.model_type
    return all(
        any(
            s.runner is not None and s.runner.candidate == option and model_type in s.applies_to.model_types
            for s in context.knowledge.stacks_for(family)
        )
        for family in context.profile.families
    )


def task_stacks(option: str, context: RuleContext) -> tuple[Stack, ...]:
    """For each family of the profile, the first stack serving the profile's task (applies_to.tasks: embedding,
    transcription) that the option runs; empty unless every family has one. An embedding or speech profile's tier 3
    prefers a runtime the vendors document for that task on every family over a generic engine that merely runs the
    quantized format."""
    found = []
    for family in context.profile.families:
        stack = next(
            (s for s in context.task_stacks_on(family) if s.runner is not None and s.runner.candidate == option), None
        )
        if stack is None:
            return ()
        found.append(stack)
    return tuple(found)


TASK_WORDS = {"embedding": "embedding models", "transcription": "speech transcription"}
FORMAT_SUPPORT_ORDER = ("yes", "partial")  # then anything else (unknown): documented support for the asked format first
FORMAT_CONCERNS = ("deployment", "quantization")  # the concerns whose option runs or writes the quantized model


def format_rank(candidate: Candidate, concern: Concern, context: RuleContext) -> int:
    """0 where the candidate documents the asked quantized format, 1 where only in part, 2 otherwise (or 0 unquantized):
    one runtime for every family must first of all run the format the model ships in."""
    profile = context.profile
    claimed = claimed_format(profile.needs.quantization)
    if claimed is None or concern not in FORMAT_CONCERNS:
        return 0
    value = getattr(candidate, claimed).value
    return FORMAT_SUPPORT_ORDER.index(value) if value in FORMAT_SUPPORT_ORDER else len(FORMAT_SUPPORT_ORDER)


def tier3_entry(
    context: RuleContext,
    concern: Concern,
    requirements: Sequence[str] = (),
    extra_blockers: Mapping[str, Sequence[Rationale]] | None = None,
) -> TierEntry:
    """The portable option for the concern; a Gap (each platform keeps its own) where there is none."""
    chosen = pick(
        context,
        concern,
        portable_preference(context, concern),
        requirements=requirements,
        extra_blockers=extra_blockers,
        allow_skill_gap=True,
        consider_all=False,
    )
    families = context.profile.families
    if chosen.chosen is None:
        keeps = per_platform_choices(context, concern, include_target=len(families) > 1)
        where = ", ".join(families) if len(families) > 1 else f"{families[0]} and another family"
        text = f"no {concern} option in the knowledge base runs on {where}: each platform keeps its own"
        task = context.profile.serving_task
        if concern == "deployment" and len(families) > 1 and task != "generation":  # Whisper: a stack on each family
            text = f"no runtime is documented for {TASK_WORDS[task]} on {where} alike: each platform keeps its own"
        elif concern == "dynamic-shapes" and len(families) > 1 and task != "generation":
            keeps = {}  # the shapes are the runtime's business: each family's runtime, named under deployment
            text = (
                f"no runtime is documented for {TASK_WORDS[task]} on {where} alike: each platform's runtime takes the "
                "shapes its own way"
            )
        elif concern == "deployment" and len(families) > 1 and context.profile.llm and not context.on_mobile:
            text = f"no LLM serving engine is documented for {where} alike: each platform keeps its own"
            text += undocumented_everywhere(context)
        unreached = [c.id for c in portable_candidates(context, concern) if not reached_from_target(c, context)]
        if unreached:
            text = (
                f"no {concern} option of the {families[0]} stack also runs on "
                f"{', '.join(families[1:]) if len(families) > 1 else 'another family'}: each platform keeps its own; "
                f"{', '.join(unreached)} {'runs' if len(unreached) == 1 else 'run'} there too, but from "
                f"{'its' if len(unreached) == 1 else 'their'} own front end, which the {families[0]} stack does not use"
            )
        return Gap(
            concern=concern,
            rationale=(line(text + kept_text(keeps), cite_profile(context.profile, "hardware")),),
            kept=keeps,
        )
    candidate = chosen.chosen
    if len(families) > 1:
        text = f"{candidate.name} runs on {', '.join(families)}: one code path for every target"
    else:
        text = f"{candidate.name} also runs on {', '.join(f for f in candidate.hardware.value if f != families[0])}"
    lines = [line(text, cite_claim(candidate, "hardware"))]
    documented = (
        task_stacks(candidate.id, context)
        if context.profile.serving_task != "generation" and concern == "deployment"
        else ()
    )
    if documented:
        each = "; ".join(f"{stack.applies_to.family}: {stack.name}" for stack in documented)
        served = TASK_WORDS.get(context.profile.serving_task, context.profile.serving_task)
        lines.append(line(f"documented for {served} on each family ({each})", *map(cite_stack, documented)))
    return entry_from(chosen, concern, context, gap_reason="", lines=lines)


def per_platform_choices(context: RuleContext, concern: Concern, include_target: bool = False) -> dict[str, str]:
    """Family -> its first official option, for each other family (and the target first, with include_target), for a
    concern without a portable option."""
    parts: dict[str, str] = {}
    families = [context.profile.hardware] if include_target else []
    for family in [*families, *context.profile.needs.other_hardware]:
        platform = context.knowledge.platform(family)
        official = list(platform.official.preference(concern, training=context.profile.trains))
        if concern in ("deployment", "dynamic-shapes"):
            official = serving_options(official, platform, context.profile.llm)
        if concern == "deployment":
            official = [*family_runner(context, family), *context.serving_the_task(official)]
            # no runtime listed for this model type (Hygon's list is empty): its LLM engines that serve the task
            official = official or context.serving_the_task(platform.serving_engines.value)
        if official:
            parts[family] = official[0]
    return parts


def kept_text(kept: Mapping[str, str]) -> str:
    """' (<family>: <option>; ...)' for what each family keeps, or nothing."""
    return f" ({'; '.join(f'{family}: {option}' for family, option in kept.items())})" if kept else ""


def family_runner(context: RuleContext, family: str) -> list[str]:
    """The runner of the stack the family's own engine chooses for this profile, where one fits there but for the
    device (ExecuTorch on an Android phone, mlx on a Mac): what that family keeps, before its listed runtimes."""
    choice = choose_stacks(on_family(context.profile, family, context.knowledge), context.knowledge)
    serving = choice.for_workload("inference")
    if serving is None or serving.weight > MISFIT_WEIGHTS["device"]:
        return []
    runner = runner_of(serving.stack, "inference", set(context.knowledge.ids()))
    return [runner.candidate] if runner is not None and runner.candidate is not None else []
