"""What every rule reads (the RuleContext) and what each concern's rule returns (the ConcernDecision)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from advisor.knowledge.models import Concern, KnowledgeBase
from advisor.knowledge.platforms import Device, Platform, is_mobile
from advisor.knowledge.stacks import Stack
from advisor.profile import Profile
from advisor.recommendation.facts import EvidenceFacts
from advisor.recommendation.models import Choice, Gap, Rationale, Rejection, SkippedConcern, SwitchCondition
from advisor.recommendation.stack_choice import node_size, target_device

TierEntry = Choice | Gap


@dataclass(frozen=True)
class StackPlan:
    """The pieces chosen first because the other concerns must fit them (see stack.py)."""

    runtime: str | None = None  # the tier-1 deployment runtime or serving engine
    serving_engine: bool = False  # the runtime is an LLM serving engine (continuous batching, its own kernels)
    training_framework: str | None = None  # for large training: Megatron-Core, MindSpeed, XLA ...
    layers: str | None = None  # the operator library the training framework builds its layers from (Transformer Engine)
    sharded_serving: bool = False  # the chosen serving stack splits one copy of the model over its devices
    prebuilt_by: str | None = None  # the chosen serving stack whose engines its vendor builds (Stack.prebuilt_engines)


@dataclass(frozen=True)
class RuleContext:
    """The profile, the knowledge base, the evidence facts and the stack plan: everything a rule may look at."""

    profile: Profile
    knowledge: KnowledgeBase
    facts: EvidenceFacts
    stack: StackPlan = StackPlan()

    @property
    def platform(self) -> Platform:
        """The target's hardware platform (its official stack, engines and libraries) from the knowledge base."""
        return self.knowledge.platform(self.profile.hardware)

    @property
    def device(self) -> Device | None:
        """The target device: the profile's, or the family's default generation; None where the family lists none."""
        return target_device(self.profile, self.platform)[0]

    @property
    def device_id(self) -> str | None:
        """The target device's id, where the family lists devices."""
        return self.device.id if self.device is not None else None

    @property
    def on_mobile(self) -> bool:
        """The target is a phone or embedded SoC: no server engines there."""
        return is_mobile(self.device)

    def documented_on_mobile(self) -> frozenset[str]:
        """The candidates a stack of the profile's families names as its parts on a mobile-class device: on a phone,
        only these run (not a server's engine, oneDNN or Inductor)."""

        def on_a_phone(stack: Stack) -> bool:
            platform = self.knowledge.platform(stack.applies_to.family)
            return any(is_mobile(platform.device(d)) for d in stack.applies_to.devices)

        return self.parts_of_stacks(on_a_phone)

    def documented_in_app(self) -> frozenset[str]:
        """The candidates a stack of the profile's families names as its parts where its page runs the model inside an
        app (its `in_app` claim): for an in-app profile, a Python library or a server is no route (review 158 p13:
        Diffusers in tier 3 of a Mac app)."""
        return self.parts_of_stacks(lambda stack: stack.in_app is not None)

    def parts_of_stacks(self, documents: Callable[[Stack], bool]) -> frozenset[str]:
        """The candidates named as parts by the stacks of the profile's families that `documents` keeps."""
        return frozenset(
            component.candidate
            for stack in self.knowledge.stacks
            if stack.applies_to.family in self.profile.families and documents(stack)
            for component in stack.components
            if component.candidate is not None
        )

    def task_stacks_on(self, family: str) -> tuple[Stack, ...]:
        """The family's stacks serving the profile's task (applies_to.tasks) on a runner the knowledge base lists."""
        task = self.profile.serving_task
        return tuple(
            stack
            for stack in self.knowledge.stacks_for(family)
            if task in stack.applies_to.tasks and stack.runner is not None and stack.runner.candidate is not None
        )

    def task_runners(self) -> frozenset[str]:
        """The candidates that run a stack of the target family serving the profile's task, unless its page excludes
        the target device: the runtimes a vendor documents for speech transcription there, not every engine whose own
        page lists the task."""
        device = self.device_id
        return frozenset(
            stack.runner.candidate
            for stack in self.task_stacks_on(self.profile.hardware)
            if stack.runner is not None
            and stack.runner.candidate is not None
            and device not in stack.applies_to.excludes
        )

    def serving_the_task(self, options: Sequence[str]) -> list[str]:
        """The options that serve the profile's task (OVMS transcribes Whisper; ONNX Runtime documents no speech
        endpoint), in their order; one the knowledge base does not describe is kept."""
        known = self.knowledge.ids()
        task = self.profile.serving_task
        return [o for o in options if o not in known or self.knowledge.get(o).serves_task(task)]

    @property
    def node_devices(self) -> int:
        """How many devices share one node or interconnect domain on the target (stack_choice.node_size)."""
        return node_size(self.device)

    def official(self, concern: Concern, *, long_context: bool = False) -> tuple[str, ...]:
        """The platform's tier-1 candidate ids for a concern, most preferred first; on a phone, only those a stack
        documents on one (OpenVINO and vLLM run on Arm servers, not in an Android app)."""
        listed = self.platform.official.preference(concern, long_context=long_context, training=self.profile.trains)
        if not self.on_mobile:
            return listed
        on_phones = self.documented_on_mobile()  # none documented at all: every listed option stays
        return tuple(option for option in listed if option in on_phones) if on_phones else listed


@dataclass(frozen=True)
class ConcernDecision:
    """One concern decided: an entry per tier (None where the tier does not cover it), rejections, switches."""

    concern: Concern
    tier1: TierEntry | None = None
    tier2: TierEntry | None = None
    tier3: TierEntry | None = None
    rejections: tuple[Rejection, ...] = ()
    switch_conditions: tuple[SwitchCondition, ...] = ()
    skipped: SkippedConcern | None = None
    confidence_notes: tuple[str, ...] = field(default=())

    def entry(self, tier: int) -> TierEntry | None:
        """The entry for tier 1, 2 or 3."""
        return {1: self.tier1, 2: self.tier2, 3: self.tier3}[tier]


def skipped_decision(concern: Concern, reason: Rationale, *switches: SwitchCondition) -> ConcernDecision:
    """A concern this profile does not need, with the conditions under which it would."""
    return ConcernDecision(
        concern=concern, skipped=SkippedConcern(concern=concern, rationale=(reason,)), switch_conditions=switches
    )


def serving_options(options: Sequence[str], platform: Platform, llm: bool) -> list[str]:
    """The options that can serve the model: for a CNN or a diffusion model, not the platform's LLM serving engines."""
    return list(options) if llm else [option for option in options if option not in platform.serving_engines.value]
