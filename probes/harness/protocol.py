"""What the parent and a probe's child process say to each other.

The parent writes one `WorkerJob` to a file; the child answers with one JSON line per message on
a pipe, flushed as each happens, so everything sent before a crash or a hang is kept.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from probes.models import CaseKey, HarnessSettings, OptionValue, ProbeCase


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid")


class WorkerJob(_Message):
    """One child's orders; a restart after a crash gets the same job with more cases to skip, a later visit
    a job listing the cases to time again."""

    probe: str
    device: str
    deadline: float = Field(description="time.monotonic() by which the child should be done")
    share_s: float | None = Field(default=None, description="Time the probe sizes its cases for; None: measure it")
    settings: HarnessSettings
    skip_case_ids: list[str] = Field(default_factory=list)
    options: dict[str, OptionValue] = Field(default_factory=dict, description="The probe's options (Probe.plan)")
    revisits: list[ProbeCase] = Field(
        default_factory=list,
        description="A later visit: only these cases (as measured so far) are timed again, in this order",
    )


class PlanMessage(_Message):
    """Every case the probe will report, in order; sent once per child, before any case."""

    type: Literal["plan"] = "plan"
    share_s: float = Field(description="What the probe's cases() was told; passed again on a restart")
    cases: list[CaseKey]
    reference_s: float | None = Field(
        default=None, description="The machine-speed reference kernel, timed before the plan (harness/reference.py)"
    )


class CaseStartMessage(_Message):
    """A case begins; if no result comes by hang_deadline the parent kills the child."""

    type: Literal["case-start"] = "case-start"
    case_id: str
    hang_deadline: float = Field(description="time.monotonic() past which the parent treats it as hung")


class CaseResultMessage(_Message):
    """One case's result."""

    type: Literal["case-result"] = "case-result"
    case: ProbeCase


class ProbeFailureMessage(_Message):
    """The probe itself failed (import, declaration, cases()): no case can run."""

    type: Literal["probe-failure"] = "probe-failure"
    reason: str


class DoneMessage(_Message):
    """Every planned case has a result; the child exits next."""

    type: Literal["done"] = "done"


WorkerMessage = Annotated[
    PlanMessage | CaseStartMessage | CaseResultMessage | ProbeFailureMessage | DoneMessage,
    Field(discriminator="type"),
]
_MESSAGE_ADAPTER: TypeAdapter[WorkerMessage] = TypeAdapter(WorkerMessage)


def encode_message(message: BaseModel) -> bytes:
    """One JSON line."""
    return message.model_dump_json().encode() + b"\n"


def decode_message(line: bytes) -> WorkerMessage:
    """Parse one JSON line; raises pydantic.ValidationError on anything else."""
    return _MESSAGE_ADAPTER.validate_json(line)
