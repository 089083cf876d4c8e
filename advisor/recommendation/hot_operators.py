"""The hot-operator shares that apply to a profile, and the weight they give each concern's evidence.

The method's first rule (#hot-operators): the model's hot operators decide the direction. The hotops probe measures
each concern group's share of a model's time; the shares used are the user's own model's (`--model`)
when measured, else the reference model of the profile's model type, in the passes its workload runs
(training: the training step; inference: the forward pass; both: their mean). Only shares measured on
the target hardware family apply: time shares are speed figures.

A concern below MINOR_SHARE of the time cannot let its own speed findings drive a choice (a 1.6x faster
GEMM saves little when GEMM is 4% of the time); a concern at HOT_SPOT_SHARE or above is a hot spot, a
key operator for deep self-development (tier 2).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from advisor.knowledge.models import Concern
from advisor.profile import Profile
from advisor.recommendation.citations import facts_line
from advisor.recommendation.facts import EvidenceFacts, Fact, evidence_metric
from advisor.recommendation.models import Rationale
from advisor.recommendation.policy import HOT_SPOT_SHARE, MINOR_SHARE
from probes.hotops.groups import GROUPS
from probes.hotops.options import CUSTOM_MODEL
from probes.hotops.report import HOTOP_SHARE, parse_hotop_reading_name

# Knowledge-base concern -> the operator groups whose time it decides.
CONCERN_GROUPS: dict[Concern, tuple[str, ...]] = {
    "gemm": ("gemm",),
    "convolution": ("convolution",),
    "attention": ("attention",),
    "fusion": ("normalization", "elementwise"),
}
_WORKLOAD_PASSES = {"training": ("train",), "inference": ("forward",), "both": ("forward", "train")}
_PASS_WORDS = {"train": "training step", "forward": "forward pass"}


@dataclass(frozen=True)
class HotopShares:
    """One model's group shares in the passes the profile runs, and the facts they were read from."""

    model: str
    passes: tuple[str, ...]
    shares: Mapping[str, float]
    facts: Mapping[str, tuple[Fact, ...]]  # group -> one fact per pass

    def share(self, *groups: str) -> float:
        """The summed share of the groups."""
        return sum(self.shares.get(group, 0.0) for group in groups)

    def facts_for(self, *groups: str) -> tuple[Fact, ...]:
        """The facts behind the groups' shares."""
        return tuple(fact for group in groups for fact in self.facts.get(group, ()))

    @property
    def scope(self) -> str:
        """'the dense-transformer reference model's training step' or 'your model's forward pass'."""
        who = "your model's" if self.model == CUSTOM_MODEL else f"the {self.model} reference model's"
        return f"{who} {' and '.join(_PASS_WORDS[kind] for kind in self.passes)}"

    def line(self, text: str, *groups: str) -> Rationale:
        """A rationale line citing the hotops cases behind the groups' shares."""
        return facts_line(text, *self.facts_for(*groups))


def _applicable(facts: EvidenceFacts) -> dict[tuple[str, str], dict[str, Fact]]:
    """(model, pass) -> group -> fact, for every hotops fact measured on the target."""
    found: dict[tuple[str, str], dict[str, Fact]] = {}
    for fact in facts.facts:
        parsed = parse_hotop_reading_name(fact.name)
        if parsed is not None and facts.usable(fact.name) is fact:
            group, model, kind = parsed
            found.setdefault((model, kind), {})[group] = fact
    return found


def hotop_shares(facts: EvidenceFacts, profile: Profile) -> HotopShares | None:
    """The shares for this profile: the user's model else its model type's, in its workload's passes."""
    measured = _applicable(facts)
    for model in (CUSTOM_MODEL, profile.model_type):
        kinds = [kind for kind in _WORKLOAD_PASSES[profile.workload] if (model, kind) in measured]
        if not kinds:  # the other pass stands in rather than nothing: the mix is mostly the model's
            kinds = sorted(kind for measured_model, kind in measured if measured_model == model)
        if kinds:
            per_pass = [measured[(model, kind)] for kind in kinds]
            cited: dict[str, tuple[Fact, ...]] = {
                group: tuple(found[group] for found in per_pass if group in found) for group in GROUPS
            }
            shares: dict[str, float] = {group: _mean([fact.value for fact in cited[group]]) for group in GROUPS}
            return HotopShares(model=model, passes=tuple(kinds), shares=shares, facts=cited)
    return None


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def observed_shares(facts: EvidenceFacts, profile: Profile) -> dict[str, float]:
    """'evidence.hotop_share_<group>' -> the profile's share, for switch conditions."""
    shares = hotop_shares(facts, profile)
    if shares is None:
        return {}
    return {evidence_metric(HOTOP_SHARE.named(group)): shares.share(group) for group in GROUPS}


def share_text(shares: HotopShares, groups: Sequence[str]) -> str:
    """'GEMM is 62% of the dense-transformer reference model's training step'."""
    label = " and ".join(("GEMM" if group == "gemm" else group) for group in groups)
    verb = "are" if len(groups) > 1 else "is"
    return f"{label} {verb} {shares.share(*groups):.0%} of {shares.scope}"


def concern_share(shares: HotopShares | None, concern: Concern) -> float | None:
    """The measured share of the groups a concern decides; None when unmeasured or not a hot-op concern."""
    if shares is None or concern not in CONCERN_GROUPS:
        return None
    return shares.share(*CONCERN_GROUPS[concern])


def is_minor(shares: HotopShares | None, concern: Concern) -> bool:
    """The concern is measured and below MINOR_SHARE of the time."""
    share = concern_share(shares, concern)
    return share is not None and share < MINOR_SHARE


def hot_spot_line(shares: HotopShares | None, concern: Concern) -> Rationale | None:
    """The concern's measured share as a rationale line: hot spot, minor, or in between."""
    share = concern_share(shares, concern)
    if shares is None or share is None:
        return None
    groups = CONCERN_GROUPS[concern]
    text = share_text(shares, groups)
    if share >= HOT_SPOT_SHARE:
        text += f": a hot spot (>= {HOT_SPOT_SHARE:.0%}), the choice here weighs in the model's speed"
    elif share < MINOR_SHARE:
        text += f": minor (< {MINOR_SHARE:.0%}), speed findings here do not drive the choice"
    else:
        text += f": between minor ({MINOR_SHARE:.0%}) and hot spot ({HOT_SPOT_SHARE:.0%})"
    return shares.line(text, *groups)


def hot_spot_ranking(shares: HotopShares) -> Rationale:
    """Every decided concern by measured share, largest first: the order deep work should follow."""
    ranked = sorted(CONCERN_GROUPS, key=lambda concern: -shares.share(*CONCERN_GROUPS[concern]))
    parts = ", ".join(f"{concern} {shares.share(*CONCERN_GROUPS[concern]):.0%}" for concern in ranked)
    groups = [group for concern in ranked for group in CONCERN_GROUPS[concern]]
    return shares.line(f"measured hot spots in {shares.scope} (hotops): {parts}", *groups)
