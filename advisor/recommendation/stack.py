"""The stack plan: the pieces every other concern must fit, chosen first.

An LLM served in production runs inside a serving engine (vLLM, SGLang, TensorRT-LLM, MindIE ...): the
engine batches requests, owns the attention kernels and loads the quantized checkpoint, so the
quantization toolkit, the attention kernel and the dynamic-shape path follow from it. A CNN or a
diffusion model is served by a graph runtime (TensorRT, OpenVINO, MIGraphX, ATC ...). Large training
(many devices, or MoE) runs inside a training framework (Megatron-Core, MindSpeed, XLA ...) whose layers
(Transformer Engine on NVIDIA) carry the GEMM, attention and FP8 recipe.
"""

from __future__ import annotations

from dataclasses import replace

from advisor.knowledge.models import CLAIMED_TASKS_ONLY
from advisor.knowledge.stacks import Stack
from advisor.profile import Profile
from advisor.recommendation.context import RuleContext, StackPlan
from advisor.recommendation.policy import LARGE_TRAINING_DEVICES, claimed_format
from advisor.recommendation.selection import Pick, pick
from advisor.recommendation.stack_choice import StackChoice, runner_of, runner_roles

FRAMEWORK_LAYERS = ("training-framework",)  # preferred over a framework adapter (torch_npu) for large training


def runtime_requirements(profile: Profile) -> tuple[str, ...]:
    """Capabilities the runtime must not deny: inference, the quantized dtype, dynamic shapes."""
    needed = ["inference"]
    claimed = claimed_format(profile.needs.quantization)
    if claimed is not None:
        needed.append(claimed)
    if profile.needs.dynamic_shapes:
        needed.append("dynamic_shapes")
    return tuple(needed)


def deployment_preference(context: RuleContext) -> tuple[str, ...]:
    """The platform's runtimes in its own order (documented_runtimes); where none is documented for an embedding
    model, the family's engines that document embeddings elsewhere (bge-m3 on Hygon: vLLM, to probe there first)."""
    return documented_runtimes(context) or engines_for_the_task(context)


def task_engine_only(context: RuleContext, option: str | None) -> bool:
    """The serving engine serves the profile's task (embeddings) here only on its own general documentation: no stack
    of the family runs the task on it (vLLM for bge-m3 on a Hygon or Cambricon card, where its pages document
    generation only)."""
    if option is None or option not in engines_for_the_task(context):
        return False
    return option not in context.task_runners()


def documented_runtimes(context: RuleContext) -> tuple[str, ...]:
    """The platform's runtimes in its own order; LLM serving engines first for an LLM on a server, graph runtimes first
    otherwise; on a phone only those a stack documents on one."""
    official = context.official("deployment")
    if context.profile.llm and not context.on_mobile:
        ranked = [*context.platform.serving_engines.value, *official]
    else:  # graph runtimes first, and on a phone only the runtimes a stack documents on one (no server engine)
        ranked = sorted(official, key=lambda option: _is_serving_engine(context, option))
    on_phones = context.documented_on_mobile() if context.on_mobile else frozenset()
    if on_phones:
        ranked = [option for option in ranked if option in on_phones]
    if context.profile.serving_task in CLAIMED_TASKS_ONLY:  # Whisper: a runtime a stack here serves the task with
        ranked = [option for option in ranked if option in context.task_runners()]
    return tuple(dict.fromkeys(ranked))


def engines_for_the_task(context: RuleContext) -> tuple[str, ...]:
    """For an embedding model served where no runtime is documented for one: the family's serving engines whose own
    documentation covers the task in general (their `tasks` claim), which tier 1 names as what to probe there, since
    no page says that the pair works on this family. Empty for text generation and for a task only a stack's page
    may grant (speech)."""
    task = context.profile.serving_task
    return () if task == "generation" or task in CLAIMED_TASKS_ONLY else engines_claiming_the_task(context)


def engines_claiming_the_task(context: RuleContext) -> tuple[str, ...]:
    """The family's serving engines whose own documentation lists the profile's task (their `tasks` claim)."""
    known = set(context.knowledge.ids())
    task = context.profile.serving_task
    return tuple(
        option
        for option in context.platform.serving_engines.value
        if option in known
        and (engine := context.knowledge.get(option)).tasks is not None
        and task in engine.tasks.value
    )


def _is_serving_engine(context: RuleContext, option: str) -> bool:
    return context.knowledge.layer_of(option) == "serving-engine"


def runtime_pick(context: RuleContext) -> Pick:
    """The tier-1 deployment runtime (or serving engine) for an inference workload: a serving engine with only
    partial support for what the profile needs (its recipes vary by checkpoint format) goes after the others."""
    requirements = runtime_requirements(context.profile)
    preference = deployment_preference(context)
    known = set(context.knowledge.ids())

    def partial(option: str) -> bool:
        candidate = context.knowledge.get(option)
        engine = candidate.layer.value == "serving-engine"
        return engine and any(getattr(candidate, attribute).value == "partial" for attribute in requirements[1:])

    ranked = sorted(preference, key=lambda option: option in known and partial(option))
    return pick(context, "deployment", tuple(ranked), requirements=requirements)


def needs_training_framework(profile: Profile) -> bool:
    """Large LLM training: many devices per job or a mixture of experts (expert parallelism). A CNN or a
    diffusion model scales with the framework's own data parallelism (DDP/FSDP)."""
    large = profile.needs.devices >= LARGE_TRAINING_DEVICES or profile.model_type == "moe"
    return profile.trains and profile.llm and large


def framework_preference(context: RuleContext) -> tuple[str, ...]:
    """The platform's training frameworks, dedicated frameworks before framework adapters."""
    listed = [
        option
        for option in context.platform.training_frameworks.value
        if option in context.knowledge.ids() and context.knowledge.get(option).trains_kind(context.profile.training)
    ]
    return tuple(sorted(listed, key=lambda option: context.knowledge.get(option).layer.value not in FRAMEWORK_LAYERS))


def framework_pick(context: RuleContext) -> Pick:
    """The tier-1 training framework for large training."""
    return pick(context, "training-framework", framework_preference(context), consider_all=False)


def layers_library(context: RuleContext, framework: str | None) -> str | None:
    """The operator library the chosen training framework builds its layers from, where the platform lists it
    (Megatron Core's Transformer Engine); None for a framework with layers of its own (TorchTitan's torchao Float8)."""
    if framework is None:
        return None
    built_from = context.knowledge.compatibility.layers_of(framework)
    for option in context.platform.training_frameworks.value:
        if option == framework or option not in context.knowledge.ids() or option not in built_from:
            continue
        candidate = context.knowledge.get(option)
        if candidate.layer.value == "operator-library" and candidate.serves_model_type(context.profile.model_type):
            return option
    return None


def stack_runner(choice: StackChoice | None, workload: str, context: RuleContext) -> str | None:
    """The candidate that runs the chosen stack of this workload (its engine, runtime or training framework)."""
    judged = choice.for_workload(workload) if choice is not None else None
    runner = runner_of(judged.stack, workload, set(context.knowledge.ids())) if judged is not None else None
    return runner.candidate if runner is not None else None


def plan_stack(context: RuleContext, choice: StackChoice | None = None) -> RuleContext:
    """The context with its stack plan: the runtime for inference, the training framework for large training;
    the chosen whole stack's own where it names them."""
    runtime: str | None = None
    engine = False
    if context.profile.serves:
        runtime = stack_runner(choice, "inference", context)
        served = choice.for_workload("inference") if choice is not None else None
        # a chosen stack whose runner the knowledge base does not list (xDiT on PyTorch) keeps it: the platform's
        # graph runtime (MIGraphX) is not what it runs on, so no rule is fitted to that runtime
        own_runtime = served is not None and runner_of(served.stack, "inference", set(context.knowledge.ids())) is None
        own_runtime = (
            own_runtime
            and served is not None
            and any(c.role in runner_roles("inference") and c.candidate is None for c in served.stack.components)
        )
        if runtime is None and not own_runtime:
            chosen = runtime_pick(context).chosen
            runtime = chosen.id if chosen is not None else None
        engine = runtime is not None and runtime in context.platform.serving_engines.value
        engine = engine and (context.profile.llm or task_engine_only(context, runtime))
    framework: str | None = stack_runner(choice, "training", context) if context.profile.trains else None
    trained = choice.for_workload("training") if choice is not None else None
    own_framework = trained is not None and trained.stack.component("training-framework") is not None
    if framework is None and needs_training_framework(context.profile) and not own_framework:
        # the platform's framework where no chosen stack names one; a stack's own unlisted framework (TRL's
        # SFTTrainer) is kept, and not dressed in the platform's framework layers (Transformer Engine)
        chosen = framework_pick(context).chosen
        framework = chosen.id if chosen is not None else None
    plan = StackPlan(
        runtime=runtime,
        serving_engine=engine,
        training_framework=framework,
        layers=layers_library(context, framework),
        sharded_serving=sharded_serving_stack(choice) is not None,
        prebuilt_by=prebuilt_serving_stack(choice),
    )
    return replace(context, stack=plan)


def prebuilt_serving_stack(choice: StackChoice | None) -> str | None:
    """The id of the chosen serving stack where its vendor builds the engines it serves (`prebuilt_engines`)."""
    served = choice.for_workload("inference") if choice is not None else None
    return served.stack.id if served is not None and served.stack.prebuilt_engines is not None else None


def sharded_serving_stack(choice: StackChoice | None) -> Stack | None:
    """The chosen serving stack where its documented command splits one copy of the model over several devices
    (`sharded_serving`): a model that is not an LLM is then not served as a copy per device."""
    served = choice.for_workload("inference") if choice is not None else None
    return served.stack if served is not None and served.stack.sharded_serving is not None else None
