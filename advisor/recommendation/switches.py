"""Switch conditions: building them, and checking them against a profile and new evidence.

A metric is 'profile.<field path>' or 'evidence.<fact name>'; `observed_values` lists every metric
a profile and its evidence facts supply, and `condition_holds` checks a condition against them.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from typing import Any

from advisor.knowledge.models import Concern, KnowledgeBase
from advisor.knowledge.stacks import Stack
from advisor.profile import Needs, Profile
from advisor.recommendation.facts import EvidenceFacts
from advisor.recommendation.hot_operators import observed_shares
from advisor.recommendation.models import Operator, Predicate, SwitchCondition, Threshold
from probes.reporting import declared_reading

Observed = Mapping[str, float | str | bool]

OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    ">=": operator.ge,
    "<=": operator.le,
    ">": operator.gt,
    "<": operator.lt,
    "==": operator.eq,
    "!=": operator.ne,
}


def switch(
    condition_id: str,
    description: str,
    metric: str,
    op: Operator,
    threshold: Threshold,
    *also: Predicate,
    concern: Concern | None = None,
) -> SwitchCondition:
    """A switch condition; `also` adds predicates that must hold together with the first."""
    return SwitchCondition(
        id=condition_id,
        description=description,
        metric=metric,
        op=op,
        threshold=threshold,
        also=also,
        concern=concern,
        rerun=rerun_for(metric),
    )


# Facts no advisor probe measures: what the team runs to check them.
_OUTSIDE_PROBES = (
    (
        "inference_throughput.",
        "the serving benchmark on the target for both sides, at the same SLA, changing only what is compared",
    ),
    (
        "training_route_fails.",
        "a short run of the chosen training recipe on the target, same model and data: it fails where it does not start "
        "or its loss does not fall as the recipe's documented run does",
    ),
    (
        "training_throughput.",
        "a training run on the target for both sides, same model and devices, changing only what is compared",
    ),
    (
        # review 267 p14: "advisor probe attention" named for a long-context step's peak memory
        "training.peak_memory",
        "a short run of the chosen training recipe on the target at the target sequence length, reading the "
        "framework's peak device-memory figure for the step",
    ),
    (
        "rl.serving_below_rollout_score",
        "your validation prompts through the serving engine and through the rollout engine, with the trained "
        "checkpoint and the same sampling settings in both",
    ),
    (
        # review 234 p15: "advisor probe attention" named for an RL step's generation share
        "rl.",
        "a short RL run of the chosen recipe on the target, reading its own step timings (generation against the step)",
    ),
    (
        "accuracy_drop_on_target.",
        "the first run of the chosen stack on the target and your task evaluation against the model's reference score",
    ),
)
_ACCURACY_CHECK = "your task evaluation (for example lm-evaluation-harness) on the float and the quantized model"
_LOSS_CHECK = (
    "a short training run in BF16 and in the low precision, same data, seed and steps, comparing the loss curves"
)


def rerun_for(metric: str) -> str:
    """What to re-run to check a metric: the probe that measures it, the team's own benchmark or evaluation where no
    probe does, the knowledge audit, or the recommendation."""
    if metric.startswith("evidence."):
        name = metric.removeprefix("evidence.")
        if name.endswith("_accuracy_drop"):
            return _ACCURACY_CHECK
        if name.endswith("_loss_gap"):
            return _LOSS_CHECK
        outside = next((check for prefix, check in _OUTSIDE_PROBES if name.startswith(prefix)), None)
        if outside is not None:
            return outside
        declared = declared_reading(name)
        probe = declared[0] if declared is not None else "attention"
        return f"advisor probe {probe} on the target"
    if metric.startswith("knowledge."):
        return "advisor kb audit, then advisor recommend"
    return "advisor recommend with the changed profile"


def knowledge_values(knowledge: KnowledgeBase) -> dict[str, str]:
    """'knowledge.<id>.<attribute>' -> the claim's value, for every scalar claim of every candidate."""
    values: dict[str, str] = {}
    for candidate in knowledge.candidates:
        for attribute, claim in candidate.claims().items():
            if isinstance(claim.value, str) and not attribute.startswith("risks"):
                values[f"knowledge.{candidate.id}.{attribute}"] = claim.value
    for stack in knowledge.stacks:
        for device in knowledge.platform(stack.applies_to.family).devices:
            validated = "yes" if device.id in stack.applies_to.devices else "no"
            values[f"knowledge.stack.{stack.id}.validated_on.{device.id}"] = validated
        if stack.applies_to.quantized_models:  # the releases a publisher-only quantized route serves
            values[f"knowledge.stack.{stack.id}.quantized_models"] = quantized_models_value(stack)
        if stack.applies_to.models:  # the models a recipe is written for (a superseded route's successor is watched)
            values[f"knowledge.stack.{stack.id}.models"] = models_value(stack)
    return values


def quantized_models_value(stack: Stack) -> str:
    """The knowledge value a switch on a publisher-only quantized route's release list compares with."""
    return ", ".join(stack.applies_to.quantized_models)


def models_value(stack: Stack) -> str:
    """The knowledge value a switch on a recipe's model list compares with."""
    return ", ".join(stack.applies_to.models)


def predicate(metric: str, op: Operator, threshold: Threshold) -> Predicate:
    """One further predicate for a switch condition's `also`."""
    return Predicate(metric=metric, op=op, threshold=threshold)


def profile_values(profile: Profile) -> dict[str, float | str | bool]:
    """'profile.<path>' -> value for every field of the profile (needs flattened)."""
    values: dict[str, float | str | bool] = {}
    for name in ("model_type", "hardware", "workload", "team_skill"):
        values[f"profile.{name}"] = getattr(profile, name)
    if profile.device is not None:
        values["profile.device"] = profile.device
    for name in Needs.model_fields:
        value = getattr(profile.needs, name)
        if isinstance(value, (bool, int, float, str)):
            values[f"profile.needs.{name}"] = value
    return values


def observed_values(
    profile: Profile, facts: EvidenceFacts, knowledge: KnowledgeBase | None = None
) -> dict[str, float | str | bool]:
    """Every metric a switch condition may name, as this profile, these facts and the knowledge base supply it.

    Besides every usable fact: `evidence.hotop_share_<group>`, the hot-operator shares that apply to
    this profile (its model, its workload's passes; see hot_operators.py), and with a knowledge base
    `knowledge.<id>.<attribute>` for its scalar claims.
    """
    known = knowledge_values(knowledge) if knowledge is not None else {}
    return {**profile_values(profile), **facts.observed(), **observed_shares(facts, profile), **known}


def predicate_holds(rule: Predicate | SwitchCondition, observed: Observed) -> bool | None:
    """True or False; None when the metric is not observed or cannot be compared with the threshold."""
    if rule.metric not in observed:
        return None
    value, threshold = observed[rule.metric], rule.threshold
    if isinstance(threshold, bool) != isinstance(value, bool) and rule.op not in ("==", "!="):
        return None
    if isinstance(threshold, str) != isinstance(value, str):
        return None if rule.op not in ("==", "!=") else rule.op == "!="
    return OPERATORS[rule.op](value, threshold)


def condition_holds(condition: SwitchCondition, observed: Observed) -> bool | None:
    """All predicates hold: True; any is False: False; otherwise (something unobserved) None."""
    rules: list[Predicate | SwitchCondition] = [condition, *condition.also]
    results = [predicate_holds(rule, observed) for rule in rules]
    if any(result is False for result in results):
        return False
    if any(result is None for result in results):
        return None
    return True
