"""Switch conditions: building them, and checking them against a profile and new evidence.

A metric is 'profile.<field path>' or 'evidence.<fact name>'; `observed_values` lists every metric
a profile and its evidence facts supply, and `condition_holds` checks a condition against them.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping

from advisor.knowledge.models import Concern
from advisor.profile import Needs, Profile
from advisor.recommendation.facts import EvidenceFacts
from advisor.recommendation.hot_operators import observed_shares
from advisor.recommendation.models import Operator, Predicate, SwitchCondition, Threshold

Observed = Mapping[str, float | str | bool]

OPERATORS: dict[str, Callable[[object, object], bool]] = {
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
        id=condition_id, description=description, metric=metric, op=op, threshold=threshold, also=also, concern=concern
    )


def predicate(metric: str, op: Operator, threshold: Threshold) -> Predicate:
    """One further predicate for a switch condition's `also`."""
    return Predicate(metric=metric, op=op, threshold=threshold)


def profile_values(profile: Profile) -> dict[str, float | str | bool]:
    """'profile.<path>' -> value for every field of the profile (needs flattened)."""
    values: dict[str, float | str | bool] = {}
    for name in ("model_type", "hardware", "workload", "team_skill"):
        values[f"profile.{name}"] = getattr(profile, name)
    for name in Needs.model_fields:
        values[f"profile.needs.{name}"] = getattr(profile.needs, name)
    return values


def observed_values(profile: Profile, facts: EvidenceFacts) -> dict[str, float | str | bool]:
    """Every metric a switch condition may name, as this profile and these facts supply it.

    Besides every usable fact: `evidence.hotop_share_<group>`, the hot-operator shares that apply to
    this profile (its model, its workload's passes; see hot_operators.py).
    """
    return {**profile_values(profile), **facts.observed(), **observed_shares(facts, profile)}


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
    results = [predicate_holds(rule, observed) for rule in (condition, *condition.also)]
    if any(result is False for result in results):
        return False
    if any(result is None for result in results):
        return None
    return True
