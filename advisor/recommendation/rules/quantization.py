"""Quantization: a toolkit that supports the dtype and the method (PTQ or QAT), unless INT8 measured slower.

Method #quantization: INT8 needs per-channel kernels and dequantization; QAT needs fake-quant support; PTQ
depends on calibration and numeric robustness; a LayerNorm INT8 version can collapse accuracy.
"""

from __future__ import annotations

from collections.abc import Sequence

from advisor.knowledge.model_sizes import quantized_release
from advisor.knowledge.models import SERVING_LAYERS, Candidate
from advisor.knowledge.policy import Policy
from advisor.profile import Profile
from advisor.recommendation.choices import entry_from, rejections_from
from advisor.recommendation.citations import (
    cite_claim,
    cite_compatibility,
    cite_format,
    cite_profile,
    fact_line,
    facts_line,
    line,
    proxy_speed_note,
)
from advisor.recommendation.context import ConcernDecision, RuleContext, skipped_decision
from advisor.recommendation.facts import EvidenceFacts, Fact, evidence_metric
from advisor.recommendation.models import Rationale, SwitchCondition
from advisor.recommendation.policy import (
    FP8_WORTH,
    IMAGE_QUALITY,
    INT8_MAX_ERROR,
    INT8_PAYS,
    LAYERNORM_COLLAPSE,
    PER_CHANNEL_GAIN,
    PRECISIONS_FOR,
    claimed_format,
)
from advisor.recommendation.rules.tiers import tier2_entry, tier3_entry
from advisor.recommendation.selection import pick
from advisor.recommendation.served_format import checkpoint_makers, paired
from advisor.recommendation.stack_choice import runner_roles
from advisor.recommendation.switches import predicate, switch
from advisor.vocabulary import WEIGHT_ONLY_ASKS
from probes.gemm.report import GEMM_FP8_VS_BF16_SPEEDUP
from probes.int8.report import (
    INT8_MAX_REL_ERROR,
    INT8_MODEL_REL_ERROR,
    INT8_MODEL_SPEEDUP,
    INT8_PER_CHANNEL_REL_RMSE,
    INT8_PER_TENSOR_REL_RMSE,
    INT8_SPEEDUP,
    LAYERNORM_INPUT_INT8_REL_RMSE,
)


def int8_speed_fact(facts: EvidenceFacts, profile: Profile) -> Fact | None:
    """The INT8 speed that speaks for this model: the whole reference model of its type (ONNX Runtime) where
    measured; the linear-layer INT8 figure only for models whose time is mostly linear layers."""
    whole = facts.usable(INT8_MODEL_SPEEDUP.named(profile.model_type).name)
    if whole is not None:
        return whole
    return None if profile.convolutional else facts.usable(INT8_SPEEDUP.name)


def linear_only_note(facts: EvidenceFacts, profile: Profile) -> Rationale | None:
    """Why a linear-layer INT8 figure was set aside for a convolution model."""
    fact = facts.usable(INT8_SPEEDUP.name)
    if not profile.convolutional or fact is None or int8_speed_fact(facts, profile) is not None:
        return None
    text = (
        f"{fact.figure}: measured on linear layers, set aside for a {profile.model_type} whose time is mostly "
        "convolutions; judge INT8 on the whole model (`advisor probe int8`)"
    )
    return fact_line(text, fact)


def int8_measured_slower(facts: EvidenceFacts, profile: Profile) -> Fact | None:
    """The target's INT8-vs-float fact for this model when INT8 lost; proxy speed never counts."""
    fact = int8_speed_fact(facts, profile)
    return fact if fact is not None and fact.value < 1.0 else None


def int8_speed_line(facts: EvidenceFacts, profile: Profile) -> Rationale | None:
    """The measured INT8 speedup on the target, when it did not lose."""
    fact = int8_speed_fact(facts, profile)
    if fact is None or fact.value < 1.0:
        return None
    verdict = "pays" if fact.value >= INT8_PAYS else "a modest gain; weigh it against the accuracy risk"
    return fact_line(f"INT8 measured {fact.figure}: {verdict}", fact)


def accuracy_line(facts: EvidenceFacts, profile: Profile | None = None) -> Rationale | None:
    """The measured INT8 error against the 1% bar: the whole reference model of the profile's type where
    measured, else the layer's."""
    whole = facts.usable(INT8_MODEL_REL_ERROR.named(profile.model_type).name) if profile is not None else None
    fact = whole or facts.usable(INT8_MAX_REL_ERROR.name)
    if fact is None:
        return None
    if fact.value > INT8_MAX_ERROR:
        return fact_line(f"{fact.figure} > {INT8_MAX_ERROR:.0%}: validate accuracy on the model before launch", fact)
    return fact_line(f"{fact.figure} <= {INT8_MAX_ERROR:.0%}", fact)


def layernorm_line(facts: EvidenceFacts, toolkit: Candidate | None, profile: Profile) -> Rationale | None:
    """Why LayerNorm stays in float (transformers only): the measured collapse, else the chosen toolkit's own warning."""
    if profile.convolutional:
        return None
    fact = facts.usable(LAYERNORM_INPUT_INT8_REL_RMSE.name)
    if fact is not None and fact.value > LAYERNORM_COLLAPSE:
        return fact_line(f"quantizing LayerNorm's input measured {fact.figure}: keep LayerNorm in float", fact)
    if toolkit is None:
        return None
    for index, risk in enumerate(toolkit.risks):
        if "LayerNorm" in risk.value:
            return line(f"keep LayerNorm in float: {risk.value}", cite_claim(toolkit, f"risks[{index}]"))
    return None


def granularity_line(facts: EvidenceFacts) -> Rationale | None:
    """Per-tensor against per-channel weight error, when both were measured."""
    per_tensor, per_channel = facts.usable(INT8_PER_TENSOR_REL_RMSE.name), facts.usable(INT8_PER_CHANNEL_REL_RMSE.name)
    if per_tensor is None or per_channel is None or per_tensor.value < PER_CHANNEL_GAIN * per_channel.value:
        return None
    text = f"{per_tensor.figure} against {per_channel.figure}: quantize weights per channel"
    return facts_line(text, per_tensor, per_channel)


def int8_pays_switch(
    description: str, metric: str = evidence_metric(INT8_SPEEDUP), profile: Profile | None = None
) -> SwitchCondition:
    """INT8 fast enough and accurate enough on the target; for a diffusion model its images are gated too, a tensor
    error bound compounding over the denoising steps (reviews 227 p12, 229 p10: a max relative error as SDXL's gate)."""
    gates = [predicate(evidence_metric(INT8_MAX_REL_ERROR), "<=", INT8_MAX_ERROR)]
    if profile is not None and profile.model_type == "diffusion":
        condition, _, then = description.partition(": ")
        description = (
            f"{condition}, and the int8 images score within {INT8_MAX_ERROR:.0%} of the float ones on an "
            f"image-quality run ({IMAGE_QUALITY}): {then}"
        )
        gates.append(predicate("evidence.int8_accuracy_drop", "<=", INT8_MAX_ERROR))
    return switch("int8-pays-on-target", description, metric, ">=", INT8_PAYS, *gates, concern="quantization")


def loader_line(context: RuleContext, toolkit: Candidate | None) -> Rationale | None:
    """The chosen toolkit writes a format the chosen runtime loads (or is the runtime itself)."""
    runtime = context.stack.runtime
    if toolkit is None or runtime is None:
        return None
    if toolkit.id == runtime and toolkit.layer.value == "serving-engine":  # it loads checkpoints others quantized
        hardware = context.profile.hardware
        makers = checkpoint_makers(
            context.knowledge, toolkit.id, hardware, context.profile.model_type, context.profile.needs.quantization
        )
        named = context.profile.model_name
        release = quantized_release(named)
        source = (
            # the profile names a quantized release itself (hugging-quants' AWQ Llama): that is the checkpoint, whoever
            # quantized it (review 249 p02: "comes from llm-compressor" for an AutoAWQ release)
            f"as the release the profile names ({named}), already quantized by its publisher"
            if release is not None and release[0] == context.profile.needs.quantization
            else f"from {', '.join(makers)}, whose output it loads"
            if makers
            else f"pre-quantized: no toolkit in the knowledge base writes a format its {hardware} build is documented "
            "to load"
        )
        dtype = context.profile.needs.quantization
        here = [
            stack
            for stack in context.knowledge.stacks_for(hardware)
            if any(c.candidate == toolkit.id for c in stack.components if c.role in runner_roles("inference"))
        ]
        unverified = ""
        if here and not any(dtype in stack.applies_to.precisions for stack in here):
            unverified = (
                f"; but the {hardware} stacks that run {toolkit.name} document only "
                f"{', '.join(sorted({p for stack in here for p in stack.applies_to.precisions}))}: {dtype} "
                "there is unverified, check it before relying on it"
            )
        return line(
            f"{toolkit.name} loads {dtype} checkpoints in the formats it lists; the checkpoint comes {source}"
            f"{unverified}",
            cite_format(toolkit, dtype, context.knowledge, context.profile.hardware, context.device_id),
        )
    if toolkit.id == runtime and context.profile.needs.quantization_method == "qat" and toolkit.qat.value != "yes":
        return None  # it runs the QAT model exported by the training framework; it does not quantize it (QAT line)
    if toolkit.id == runtime:
        return line(
            f"{toolkit.name} quantizes the model it serves: one tool from calibration to deployment",
            cite_format(
                toolkit,
                context.profile.needs.quantization,
                context.knowledge,
                context.profile.hardware,
                context.device_id,
            ),
        )
    claim = context.knowledge.compatibility.quantized_output_loaded_by.get(toolkit.id)
    if claim is None or runtime not in claim.value:
        return None
    cite = cite_compatibility("quantized_output_loaded_by", toolkit.id, claim)
    return line(f"writes checkpoints {context.knowledge.get(runtime).name} loads", cite)


def vision_tower_line(context: RuleContext) -> Rationale | None:
    """For a vision-language model: quantize the language model's linear layers and keep the vision encoder and its
    projector in float, as the documented recipes do."""
    recipes = context.knowledge.policy.vision_tower_recipes
    if context.profile.model_type != "multimodal" or recipes is None:
        return None
    source = context.knowledge.get(recipes)
    return line(
        "a vision-language model: quantize the language model's linear layers and keep the vision encoder and its "
        f"projector in float, as the vision-language examples of {source.name} do",
        cite_claim(source, "model_types"),
    )


def quantization_lines(context: RuleContext, dtype: str, toolkit: Candidate | None) -> list[Rationale]:
    """The evidence on speed, accuracy, granularity and LayerNorm, and why the toolkit fits the runtime."""
    facts, profile = context.facts, context.profile
    if dtype != "int8":  # the INT8 probe's speed and error say nothing about another precision
        return [
            found_line
            for found_line in (vision_tower_line(context), fp8_speed_line(facts), loader_line(context, toolkit))
            if found_line is not None
        ]
    found = [  # most telling first: a choice keeps its first three reasons
        vision_tower_line(context),
        int8_speed_line(facts, profile),
        loader_line(context, toolkit),
        layernorm_line(facts, toolkit, profile),
        linear_only_note(facts, profile),
        accuracy_line(facts, profile),
        granularity_line(facts),
        proxy_speed_note(facts, INT8_SPEEDUP.name),
    ]
    return [found_line for found_line in found if found_line is not None]


def fp8_speed_line(facts: EvidenceFacts) -> Rationale | None:
    """The fp8 GEMMs measured against bf16 on the target (the gemm probe's fp8 cases), when there are any."""
    fact = facts.usable(GEMM_FP8_VS_BF16_SPEEDUP.name)
    if fact is None or not fact.on_target:  # speed measured elsewhere decides nothing here
        return None
    verdict = (
        "the linear layers gain from fp8"
        if fact.value >= FP8_WORTH
        else "no gain on these GEMMs: check the model end to end"
    )
    return fact_line(f"fp8 GEMMs measured {fact.figure}: {verdict}", fact)


def loader_blockers(context: RuleContext, preference: Sequence[str]) -> dict[str, list[Rationale]]:
    """Toolkits whose recorded loaders exclude the chosen runtime are ruled out (a toolkit without a
    compatibility record is not: the record is missing, not the support)."""
    runtime = context.stack.runtime
    if runtime is None or not context.profile.serves:
        return {}
    relation = context.knowledge.compatibility.quantized_output_loaded_by
    blockers: dict[str, list[Rationale]] = {}
    name = context.knowledge.get(runtime).name
    for option in dict.fromkeys([*preference, *context.platform.quantization_toolkits.value]):
        if option == runtime or option not in context.knowledge.ids():
            continue
        candidate = context.knowledge.get(option)
        if option not in relation and candidate.layer.value in SERVING_LAYERS:
            text = f"{candidate.name} quantizes for its own runtime, and {name} is the chosen one"
            blockers[option] = [line(text, cite_claim(candidate, "layer"))]  # out of the race, not a considered option
            continue
        if option not in relation:
            continue
        claim = relation[option]
        if runtime not in claim.value:
            cite = cite_compatibility("quantized_output_loaded_by", option, claim)
            blockers[option] = [
                line(f"its output loads in {', '.join(claim.value)}, not in {name}, tier 1's runtime", cite)
            ]
        elif context.profile.needs.quantization in WEIGHT_ONLY_ASKS and not paired(
            context.knowledge, option, runtime, PRECISIONS_FOR[context.profile.needs.quantization]
        ):  # 4-bit integer weights come in each toolkit's own scheme: loaded only where a stack pairs the two in it
            # (ModelOpt's INT4 AWQ is TensorRT-LLM's; vLLM's ModelOpt loader takes its FP8 and NVFP4)
            text = (
                f"no stack here pairs its {context.profile.needs.quantization} output with {name}: the loader relation "
                "speaks of its 8-bit checkpoints"
            )
            blockers[option] = [line(text, cite_compatibility("quantized_output_loaded_by", option, claim))]
    return blockers


def other_runtime(option: str, context: RuleContext) -> bool:
    """Another runtime's own quantizer (TensorRT's when SGLang serves): no toolkit a team weighs for this runtime, so
    it is not listed among the rejected options."""
    runtime = context.stack.runtime
    if runtime is None or option == runtime or option not in context.knowledge.ids() or not context.profile.serves:
        return False
    relation = context.knowledge.compatibility.quantized_output_loaded_by
    return option not in relation and context.knowledge.layer_of(option) in SERVING_LAYERS


def serving_preference(context: RuleContext) -> tuple[str, ...]:
    """Toolkits whose output the runtime is recorded to load first, then the platform's toolkits without a
    record, then the runtime's own quantization, then the rest of the platform's order."""
    official = context.official("quantization")
    runtime = context.stack.runtime
    if runtime is None:
        return official
    compatibility = context.knowledge.compatibility
    loaded = [option for option in official if runtime in compatibility.loaders_of(option)]
    unrecorded = [option for option in official if not compatibility.loaders_of(option)]
    own = (
        [runtime]
        if runtime in context.knowledge.ids() and "quantization" in context.knowledge.get(runtime).concerns.value
        else []
    )
    return tuple(dict.fromkeys([*loaded, *unrecorded, *own, *official]))


def fp8_training_preference(context: RuleContext) -> tuple[str, ...]:
    """FP8 training: the training layers that run FP8 recipes (Transformer Engine) before the toolkits, and of those
    only the ones that train (torchao's float8 training, not a post-training toolkit whose training is QAT only)."""
    known = context.knowledge.ids()
    layers = [
        option
        for option in context.platform.training_frameworks.value
        if option in known
        and context.knowledge.get(option).fp8.value == "yes"
        and "quantization" in context.knowledge.get(option).concerns.value
    ]
    trainers = [
        option
        for option in context.official("quantization")
        if option not in known or context.knowledge.get(option).training.value == "yes"
    ]
    return tuple(dict.fromkeys([*layers, *trainers]))


def int8_metric(profile: Profile) -> str:
    """The evidence metric that judges INT8 for this model type."""
    if profile.convolutional:
        return evidence_metric(INT8_MODEL_SPEEDUP.named(profile.model_type))
    return evidence_metric(INT8_SPEEDUP)


def quantization_switches(
    dtype: str, rejected_int8: bool, profile: Profile, chosen: str | None = None, policy: Policy = Policy()
) -> tuple[SwitchCondition, ...]:
    """INT8 rejected: reconsider once it pays; INT8 chosen on the path the probe measures: reject it once it
    loses (another toolkit's INT8 is not what the probe times); FP8: none from evidence yet."""
    metric = int8_metric(profile)
    if rejected_int8:
        description = "INT8 >= 1.5x float with max rel error <= 1% on the target: reconsider INT8"
        return (int8_pays_switch(description, metric, profile),)
    if dtype == "int8" and chosen is not None and chosen == policy.measured_toolkit(metric.removeprefix("evidence.")):
        # where INT8 loses, the job goes to a float route, which a re-run with no quantization names (review 238 p11:
        # "reject INT8" with no destination)
        description = (
            "INT8 < 1.0x float on the target: reject INT8 and serve the float model; re-run `advisor recommend` with "
            "needs.quantization none for the family's float route (bf16 where the device runs it)"
        )
        return (switch("int8-slower-on-target", description, metric, "<", 1.0, concern="quantization"),)
    return ()


def int8_documented(context: RuleContext) -> bool:
    """A stack of the target family serves the profile's model type in INT8, or a quantizer there documents INT8 PTQ
    for it, and the device's format list names INT8: only then is INT8 a route to watch."""
    profile = context.profile
    if context.device is not None and "int8" not in context.device.formats:
        return False  # the device's format list has no INT8 (review 71 p15: Tiangai 150): no INT8 route to watch there
    device = context.device_id
    stacked = any(
        "int8" in stack.applies_to.precisions
        and profile.model_type in stack.applies_to.model_types
        and "inference" in stack.applies_to.workloads
        and device not in stack.applies_to.excludes
        for stack in context.knowledge.stacks_for(profile.hardware)
    )
    return stacked or any(
        "quantization" in candidate.concerns.value
        and profile.hardware in candidate.hardware.value
        and candidate.serves_model_type(profile.model_type)
        and candidate.int8.value == "yes"
        and candidate.ptq.value == "yes"
        for candidate in context.knowledge.candidates
    )


def not_needed(context: RuleContext) -> ConcernDecision:
    """No quantization asked for; a served vision or diffusion model still learns when INT8 would pay, where a stack
    of its family documents INT8 for it (an LLM's quantized serving is decided by its engine's throughput and the
    model's accuracy, not an INT8 GEMM probe)."""
    profile = context.profile
    reason = line("no quantization asked for", cite_profile(profile, "needs.quantization"))
    if not profile.serves or profile.llm or not int8_documented(context):
        return skipped_decision("quantization", reason)
    description = "INT8 >= 1.5x float with max rel error <= 1% on the target: consider INT8 PTQ"
    return skipped_decision("quantization", reason, int8_pays_switch(description, int8_metric(profile), profile))


def format_not_run(context: RuleContext, dtype: str) -> str | None:
    """Where the target device's published format list lacks the asked format and no stack of the family runs it there
    weight-only (FP8 Marlin on an A100), why tier 1 quantizes nothing: a checkpoint in that format has nothing to run on
    (an MLU370 lists fp32, fp16 and int8, no fp8). None where the device may run it."""
    device = context.device
    if device is None or device.may_run(dtype):
        return None
    weight_only = any(
        dtype in stack.applies_to.weight_only and device.id in stack.applies_to.devices
        for stack in context.knowledge.stacks_for(context.profile.hardware)
    )
    if weight_only:
        return None
    floats = [f for f in ("bf16", "fp16") if f in device.formats]
    other = [f for f in ("int8", "fp8") if f != dtype and f in device.formats]
    return (
        f"the {device.name} runs no {dtype} ({device.formats_text()}): no {dtype} checkpoint runs there, so serve in "
        f"{floats[0] if floats else device.formats[0]}"
        + (f", or in {other[0]} once a toolkit documented for this device writes it" if other else "")
    )


def decide_quantization(context: RuleContext) -> ConcernDecision:
    """Tier 1 toolkit for the dtype and method; INT8 measured slower on the target rejects INT8 there."""
    profile = context.profile
    if not profile.needs.quantized:
        return not_needed(context)
    dtype, method = profile.needs.quantization, profile.needs.quantization_method
    fp8_training = dtype == "fp8" and profile.trains and not profile.serves
    claimed = tuple(c for c in (claimed_format(dtype),) if c is not None)  # a 4-bit format: the stacks document it
    requirements = claimed if fp8_training else (*claimed, method)
    slower = int8_measured_slower(context.facts, profile) if dtype == "int8" else None
    preference = fp8_training_preference(context) if fp8_training else serving_preference(context)
    blockers = loader_blockers(context, preference)
    caution: Rationale | None = None
    if slower is not None:
        measured = context.knowledge.policy.measured_toolkit(slower.name) or slower.name
        text = f"its INT8 path measured slower than float on {slower.hardware} ({slower.figure})"
        blockers.setdefault(measured, []).append(fact_line(text, slower))
        caution = fact_line(
            f"{measured}'s INT8 path measured {slower.figure}: measure this toolkit's INT8 model before "
            "launch (`advisor probe int8`)",
            slower,
        )
    unrun = format_not_run(context, dtype)
    device = context.device
    if fp8_training and device is not None and not device.may_run(dtype):  # FP8 training needs FP8 units
        floats = [f for f in ("bf16", "fp16") if f in device.formats]
        unrun = (
            f"the {device.name} runs no {dtype} ({device.formats_text()}): the training runs in "
            f"{floats[0] if floats else device.formats[0]}, and {dtype} training (or an {dtype} model to deploy) "
            "needs a device whose matrix units run it"
        )
    if unrun is not None and (not profile.trains or fp8_training):
        return ConcernDecision(
            concern="quantization",
            tier1=entry_from(pick(context, "quantization", ()), "quantization", context, gap_reason=unrun),
            tier2=tier2_entry(context, "quantization", claimed, blockers),
            tier3=tier3_entry(context, "quantization", requirements, blockers),
        )
    chosen = pick(context, "quantization", preference, requirements=requirements, extra_blockers=blockers)
    settings = {"dtype": dtype, "method": "fp8-training" if fp8_training else method}
    if dtype == "int8":
        settings["granularity"] = "per-channel"
    if dtype == "int8" and not profile.convolutional:
        settings["layernorm"] = "float"
    if slower is not None:
        reason = f"INT8 rejected on {profile.hardware}: keep float weights"
    else:
        reason = f"no {dtype} {method} toolkit for {profile.hardware} in the knowledge base"
    lines = quantization_lines(context, dtype, chosen.chosen)
    if caution is not None and chosen.chosen is not None:
        lines.insert(0, caution)
    if fp8_training and chosen.chosen is not None:
        text = (
            f"FP8 training runs the forward and backward GEMMs in FP8 with scaling recipes in {chosen.chosen.name}; "
            "it is not quantization-aware training of an INT8 model"
        )
        lines.insert(0, line(text, cite_claim(chosen.chosen, "fp8"), cite_profile(profile, "needs.quantization")))
    return ConcernDecision(
        concern="quantization",
        tier1=entry_from(chosen, "quantization", context, gap_reason=reason, settings=settings, lines=lines),
        tier2=tier2_entry(context, "quantization", claimed, blockers),
        tier3=tier3_entry(context, "quantization", requirements, blockers),
        rejections=tuple(r for r in rejections_from(chosen, "quantization") if not other_runtime(r.option, context)),
        switch_conditions=quantization_switches(
            dtype,
            slower is not None and chosen.chosen is None,
            profile,
            chosen.chosen.id if chosen.chosen is not None else None,
            context.knowledge.policy,
        ),
    )
