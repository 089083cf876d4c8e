"""`advisor assess`: from questions to a committed, reviewable decision record in one command.

Asks for each profile field (or takes it from a flag, `--profile`, or `--yes` defaults), runs the
probes that matter for the profile within `--budget`, recommends, and writes the record with
`advisor.records.write_decision`.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Callable, Optional

import typer

from advisor.cli.options import Budget, RecordsDir, project_settings
from advisor.cli.probe import DeviceChoice
from advisor.vocabulary import Quantization, QuantizationMethod, TeamSkill, Workload
from probes.errors import AdvisorError
from probes.vocabulary import ModelType, builtin_hardware_families

if TYPE_CHECKING:
    from advisor.profile import Profile
    from probes.environment.models import Environment

# Tests (and wrappers that drive a pipe on purpose) set this to get prompts without a terminal.
FORCE_PROMPTS_ENV = "ADVISOR_FORCE_PROMPTS"


@dataclass(frozen=True)
class Question:
    """One profile field: its flag, its one-line help, its choices (None for yes/no or free text)."""

    field: str
    flag: str
    help: str
    choices: bool = False
    kind: type = str

    def allowed(self) -> tuple[str, ...]:
        """The values a choice field takes (read from the profile model, lazily: `advisor --help` stays light)."""
        from advisor.profile import allowed_values

        return allowed_values(self.field) or allowed_values(f"needs.{self.field}")


# The profile's questions by field, in the order they are asked.
QUESTIONS: dict[str, Question] = {
    question.field: question
    for question in (
        Question("model_type", "--model-type", "The model family; it decides the hot operators", choices=True),
        Question(
            "hardware", "--hardware", "The hardware the model will run on (default: this machine's)", choices=True
        ),
        Question(
            "device",
            "--target-device",
            "The exact device of that family (default: this machine's, else its current one)",
            choices=True,
        ),
        Question("workload", "--workload", "Training, inference (serving) or both", choices=True),
        Question(
            "team_skill",
            "--team-skill",
            "framework: PyTorch level; kernel: writes Triton/CUDA; hpc: tunes assembly",
            choices=True,
        ),
        Question(
            "dynamic_shapes",
            "--dynamic-shapes",
            "Do input shapes (batch, sequence length) vary at run time?",
            kind=bool,
        ),
        Question("quantization", "--quantization", "Quantize weights/activations?", choices=True),
        Question(
            "quantization_method", "--quantization-method", "ptq: after training; qat: during training", choices=True
        ),
        Question("long_context", "--long-context", "Long sequences (attention memory grows with length)?", kind=bool),
        Question("devices", "--devices", "Devices per job (more than one: collectives matter)", kind=int),
        Question("cross_platform", "--cross-platform", "Must it run on more than one hardware family?", kind=bool),
        Question("title", "--title", "A title for the decision record"),
        Question("deciders", "--decider", "Who decides (comma-separated names; empty for none)"),
    )
}


def default_answers(hardware: str) -> dict[str, Any]:
    """What `--yes` takes for a field nobody gave."""
    return {
        "model_type": "dense-transformer",
        "hardware": hardware,
        "workload": "inference",
        "team_skill": "framework",
        "dynamic_shapes": False,
        "quantization": "none",
        "quantization_method": "ptq",
        "long_context": False,
        "devices": 1,
        "cross_platform": False,
        "deciders": [],
    }


def _can_prompt() -> bool:
    return sys.stdin.isatty() or os.environ.get(FORCE_PROMPTS_ENV) == "1"


def _ask(question: Question, default: Any, allowed: tuple[str, ...] | None = None) -> Any:
    label = f"{question.field.replace('_', ' ')} ({question.help})"
    if question.kind is bool:
        return typer.confirm(label, default=bool(default))
    if question.field == "deciders":
        text = typer.prompt(label, default=", ".join(default), show_default=bool(default))
        return [name.strip() for name in text.split(",") if name.strip()]
    if allowed is None:
        allowed = question.allowed() if question.choices else ()
    shown = f"{label} [{', '.join(allowed)}]" if allowed else label
    while True:  # asked again until the answer is valid, as click.Choice would
        answer = str(typer.prompt(shown, default=str(default))).strip()
        if question.kind is int:
            if answer.isdigit() and int(answer) >= 1:
                return int(answer)
            typer.echo(f"error: {answer!r} is not a whole number of at least 1", err=True)
        elif not allowed or answer in allowed:
            return answer
        else:
            typer.echo(f"error: {answer!r} is not one of {', '.join(allowed)}", err=True)


def gather_answers(
    given: dict[str, Any],
    yes: bool,
    detected: Callable[[], str],
    detected_device: Callable[[str], str | None] = lambda _: None,
    on_hardware: Callable[[str], None] = lambda _: None,
) -> dict[str, Any]:
    """Every field: given, else the default under --yes, else asked; without a terminal, one error naming the missing flags.

    detected(): this machine's family; detected_device(family): the family's device this machine is, or None;
    on_hardware(family): told the hardware as soon as it was answered at a prompt.
    The device is optional: without a terminal it is taken as under --yes, never asked for.
    """
    from advisor.assessment import default_title

    needed = [q for q in QUESTIONS.values() if given.get(q.field) is None and q.field != "device"]
    if given.get("quantization") == "none":  # the method is read only with a quantization
        needed = [q for q in needed if q.field != "quantization_method"]
    if not yes and needed and not _can_prompt():
        flags = ", ".join(q.flag for q in needed)
        raise AdvisorError(f"no terminal to ask on and these are not given: {flags} (or pass --yes for the defaults)")
    answers = dict(given)
    defaults = default_answers(given["hardware"] if given.get("hardware") is not None else detected())
    for question in QUESTIONS.values():
        if question.field == "device":
            answers["device"] = _device_answer(answers, yes or not _can_prompt(), detected_device)
            continue
        if answers.get(question.field) is not None:
            continue
        default = (
            default_title(answers["model_type"], answers["workload"], answers["hardware"])
            if question.field == "title"
            else defaults[question.field]
        )
        unread = question.field == "quantization_method" and answers.get("quantization") == "none"
        answers[question.field] = default if yes or unread else _ask(question, default)
        if question.field == "hardware" and not yes:
            on_hardware(answers["hardware"])
    if answers.get("model") is None and not yes and _can_prompt() and _estimable(answers):
        answers["model"] = typer.prompt(MODEL_QUESTION, default="", show_default=False).strip() or None
    return answers


MODEL_QUESTION = (
    "model to estimate serving for, with advisor[serving] (an aiconfigurator model name such as "
    "Qwen/Qwen3-32B, or a config.json path; empty: no estimate)"
)


def _estimable(answers: dict[str, Any]) -> bool:
    """LLM serving on a device aiconfigurator models (the family's current one when none is named)."""
    from advisor.knowledge.loader import device_or_default
    from advisor.profile import LLM_MODEL_TYPES
    from advisor.reference.tables import system_for

    if answers.get("model_type") not in LLM_MODEL_TYPES or answers.get("workload") not in ("inference", "both"):
        return False
    return system_for(device_or_default(str(answers.get("hardware")), answers.get("device"))) is not None


def _device_answer(answers: dict[str, Any], yes: bool, detected_device: Callable[[str], str | None]) -> str | None:
    """The device: as given (checked against the family's ids), else this machine's when it is of the family, else under
    --yes none (the family's current one is assumed), else asked with that one as the default."""
    from advisor.knowledge.loader import family_device_ids, hardware_families, load_knowledge_base

    family, given = answers["hardware"], answers.get("device")
    if family not in hardware_families():
        return given  # the profile's check names the unknown family
    ids = family_device_ids(family)
    if given is not None:
        if given not in ids:
            listed = f"choose one of: {', '.join(ids)}" if ids else "it lists no devices"
            raise AdvisorError(f"--target-device {given!r} is not a {family} device; {listed}")
        return str(given)
    if not ids:
        return None
    found = detected_device(family)
    if yes:
        return found
    standard = load_knowledge_base().platform(family).default_device
    return str(_ask(QUESTIONS["device"], found or (standard.value if standard is not None else ids[0]), ids))


def _probe_here(profile: Profile, environment: Environment, ask: bool) -> bool:
    """Whether to probe this machine: yes when it is of the target's family; otherwise the user is told what its
    probes can still tell and, at a terminal, asked (default no); under --yes it probes, having said so."""
    from advisor.assessment import proxy_notice
    from advisor.cli.output import warn

    notice = proxy_notice(profile, environment)
    if notice is None:
        return True
    warn(notice)
    return typer.confirm("Probe this machine anyway (proxy evidence)?", default=False, err=True) if ask else True


def build_profile(answers: dict[str, Any], origin: str = "the flags and answers") -> Profile:
    """A validated Profile from the answers; AdvisorError naming `origin` (where they came from) and the first
    problem otherwise."""
    from advisor.profile import Needs, profile_from_document

    document = {name: answers[name] for name in ("model_type", "hardware", "workload", "team_skill", "title")}
    for name in ("device", "model", "parameters_b", "task", "training", "serving"):  # optional: only where given
        if answers.get(name) is not None:
            document[name] = answers[name]
    document["needs"] = {name: answers.get(name, field.default) for name, field in Needs.model_fields.items()}
    chosen: Profile = profile_from_document(document, origin)
    return chosen


HARDWARE_HELP = (
    "The hardware the model will run on (default: hardware of the project settings, else this machine's): "
    + ", ".join(builtin_hardware_families())
)


TARGET_DEVICE_HELP = (
    "The exact device of the hardware family, one of `advisor kb platform FAMILY`'s devices (default: this machine's "
    "when it is of that family, else none: the family's current generation is assumed)."
)


def assess_command(
    model_type: Annotated[Optional[ModelType], typer.Option("--model-type", help=QUESTIONS["model_type"].help)] = None,
    hardware: Annotated[Optional[str], typer.Option("--hardware", metavar="FAMILY", help=HARDWARE_HELP)] = None,
    target_device: Annotated[
        Optional[str], typer.Option("--target-device", metavar="ID", help=TARGET_DEVICE_HELP)
    ] = None,
    workload: Annotated[Optional[Workload], typer.Option("--workload", help=QUESTIONS["workload"].help)] = None,
    team_skill: Annotated[Optional[TeamSkill], typer.Option("--team-skill", help=QUESTIONS["team_skill"].help)] = None,
    dynamic_shapes: Annotated[
        Optional[bool], typer.Option("--dynamic-shapes/--no-dynamic-shapes", help=QUESTIONS["dynamic_shapes"].help)
    ] = None,
    quantization: Annotated[
        Optional[Quantization], typer.Option("--quantization", help=QUESTIONS["quantization"].help)
    ] = None,
    quantization_method: Annotated[
        Optional[QuantizationMethod], typer.Option("--quantization-method", help=QUESTIONS["quantization_method"].help)
    ] = None,
    long_context: Annotated[
        Optional[bool], typer.Option("--long-context/--no-long-context", help=QUESTIONS["long_context"].help)
    ] = None,
    devices: Annotated[
        Optional[int], typer.Option("--devices", metavar="N", min=1, help=QUESTIONS["devices"].help)
    ] = None,
    in_app: Annotated[
        Optional[bool],
        typer.Option(
            "--in-app/--no-in-app",
            help="The model runs inside the team's own app on the device (a Mac or PC app), not behind a server",
        ),
    ] = None,
    cross_platform: Annotated[
        Optional[bool], typer.Option("--cross-platform/--no-cross-platform", help=QUESTIONS["cross_platform"].help)
    ] = None,
    other_hardware: Annotated[
        Optional[list[str]],
        typer.Option(
            "--other-hardware",
            metavar="FAMILY",
            help="With --cross-platform: another hardware family the model must also run on; repeat for several.",
        ),
    ] = None,
    title: Annotated[Optional[str], typer.Option("--title", metavar="TEXT", help=QUESTIONS["title"].help)] = None,
    other_device: Annotated[
        Optional[list[str]],
        typer.Option(
            "--other-device",
            metavar="ID",
            help="With --other-hardware: that family's device (a100-sxm); repeat for several. None: its current one.",
        ),
    ] = None,
    model: Annotated[
        Optional[str],
        typer.Option(
            "--model",
            metavar="NAME",
            help="The model's Hugging Face id (Qwen/Qwen3-32B) or config.json path: checks recipes written for "
            "named models, sizes the memory check, and names the model of a serving estimate (advisor[serving]).",
        ),
    ] = None,
    parameters_b: Annotated[
        Optional[float],
        typer.Option(
            "--parameters-b",
            metavar="BILLIONS",
            help="The model's size in billions of parameters (72 for a 72B model): checks it fits the devices' memory.",
        ),
    ] = None,
    task: Annotated[
        Optional[str],
        typer.Option(
            "--task",
            metavar="TASK",
            help="For a dense transformer served: generation (default) or embedding (an encoder returning vectors; "
            "assumed for well-known embedding model ids such as BAAI/bge-large-en-v1.5).",
        ),
    ] = None,
    training: Annotated[
        Optional[str],
        typer.Option(
            "--training",
            metavar="KIND",
            help="For a job that trains: pretraining, fine-tuning (every weight), lora (adapters beside frozen "
            "weights) or rl (reinforcement-learning post-training, GRPO/PPO: rollouts, whole-model updates, weight "
            "sync each step): picks the stacks documented for it and sizes the memory check.",
        ),
    ] = None,
    decider: Annotated[
        Optional[list[str]],
        typer.Option(
            "--decider",
            metavar="NAME",
            help="A decision-maker's name; repeat for several (default: deciders of the project settings).",
        ),
    ] = None,
    profile_file: Annotated[
        Optional[Path],
        typer.Option(
            "--profile", metavar="FILE", help="Take the profile fields from this YAML/JSON file; flags override it."
        ),
    ] = None,
    yes: Annotated[
        bool, typer.Option("--yes", "-y", help="Never prompt: take the defaults for anything not given.")
    ] = False,
    budget: Budget = 60.0,
    device: Annotated[DeviceChoice, typer.Option("--device", help="Where to measure.")] = DeviceChoice.auto,
    probe: Annotated[
        Optional[list[str]],
        typer.Option(
            "--probe", metavar="PROBE", help="Run this probe instead of those the profile selects; repeat for several."
        ),
    ] = None,
    evidence: Annotated[
        Optional[list[Path]],
        typer.Option(
            "--evidence",
            metavar="FILE",
            help="Reuse evidence instead of probing: `--evidence a.json b.json` (several machines: a fleet); the record shows each machine and which matches the target.",
        ),
    ] = None,
    more_evidence: Annotated[
        Optional[list[Path]],
        typer.Argument(
            metavar="EVIDENCE.json",
            help="More evidence files, so that `--evidence a.json b.json` takes both.",
            show_default=False,
        ),
    ] = None,
    no_probes: Annotated[
        bool, typer.Option("--no-probes", help="Measure nothing: decide from the profile and the knowledge base.")
    ] = False,
    records_dir: RecordsDir = Path("records"),
    no_commit: Annotated[bool, typer.Option("--no-commit", help="Write the record but do not commit it.")] = False,
    init_git: Annotated[
        bool, typer.Option("--init-git", help="Create a git repository in the records folder when it is in none.")
    ] = False,
    json_output: Annotated[
        bool, typer.Option("--json", help="Print what was written (id, paths, commit, tier 1) as JSON.")
    ] = False,
) -> None:
    """Ask for the profile, measure, recommend, and write and commit a decision record."""
    from advisor.assessment import assess, check_sources
    from advisor.cli.console import console
    from advisor.cli.evidence_files import load_evidence
    from advisor.recommendation.summary import summary_lines
    from probes.harness.progress import ProbeProgress
    from probes.runner import check_budget

    check_budget(budget, "--budget")  # before any prompt
    given: dict[str, Any] = {}
    if profile_file is not None:
        from advisor.profile import load_profile

        loaded = load_profile(profile_file)
        given.update(loaded.model_dump(exclude={"needs"}), **loaded.needs.model_dump(mode="json"))
        if hardware is not None and hardware != loaded.hardware:
            given["device"] = None  # the file's device belongs to the family the flag replaced
    flags = {
        "model_type": model_type,
        "hardware": hardware,
        "device": target_device,
        "workload": workload,
        "team_skill": team_skill,
        "dynamic_shapes": dynamic_shapes,
        "quantization": quantization,
        "quantization_method": quantization_method,
        "long_context": long_context,
        "devices": devices,
        "cross_platform": cross_platform,
        "in_app": in_app,
        "title": title,
        "deciders": list(decider) if decider else None,
        "other_hardware": list(other_hardware) if other_hardware else None,
        "other_devices": list(other_device) if other_device else None,
        "model": model,
        "parameters_b": parameters_b,
        "task": task,
        "training": training,
    }
    given.update({name: value for name, value in flags.items() if value is not None})
    settings = project_settings()  # below the flags and the profile file
    for key, field in (("hardware", "hardware"), ("deciders", "deciders")):
        if field not in given and key in settings.values:
            given[field] = settings.values[key]
    environment: list[Environment] = []  # detected once, when a default needs it, and handed to the probes

    def machine() -> Environment:
        from probes.environment.detect import detect_environment

        if not environment:
            environment.append(detect_environment())
        return environment[0]

    def detected() -> str:
        from probes.environment.family import environment_family

        return environment_family(machine()) or "x86-cpu"

    def detected_device(family: str) -> str | None:
        from advisor.knowledge.devices import detect_device
        from advisor.knowledge.loader import load_knowledge_base

        return detect_device(machine(), load_knowledge_base(), family)

    def on_hardware(family: str) -> None:
        if family != detected():
            typer.echo(
                f"note: this machine is {detected()}, so probes run here are proxy evidence for {family}; "
                "you can skip them before they start.",
                err=True,
            )

    answers = gather_answers(given, yes, detected, detected_device, on_hardware)
    origin = f"{profile_file} with the flags" if profile_file is not None else "the flags and answers"
    chosen = build_profile(answers, origin)
    files = [*(evidence or []), *(more_evidence or [])]
    check_sources(bool(files), not no_probes)  # before loading the files or asking to probe
    if not files and not no_probes:
        no_probes = not _probe_here(chosen, machine(), ask=not yes and _can_prompt())
    # A stop signal ends in Stopped, saying where the measured evidence was kept; reports_errors prints it.
    with ProbeProgress(console(stderr=True)) as progress:
        assessment = assess(
            chosen,
            evidence=[load_evidence(path) for path in files],
            probe=not no_probes,
            probe_names=probe,
            budget_s=budget,
            device=device.value,
            records_dir=records_dir,
            title=answers["title"],
            deciders=answers["deciders"],
            commit=not no_commit,
            init_git=init_git,
            environment=environment[0] if environment else None,
            on_event=progress.update,
            progress=lambda message: console(stderr=True).print(message),
        )
    recommendation, written = assessment.recommendation, assessment.written
    if json_output:
        unmeasured = [
            {"probe": item.probe, "decides": item.decides, "reason": item.reason} for item in assessment.unmeasured
        ]
        budget_json = (
            None
            if assessment.budget is None
            else {"probes": list(assessment.budget.probes), "suggested_budget_s": assessment.budget.suggested_s}
        )
        typer.echo(json.dumps({**written.as_json(), "unmeasured": unmeasured, "budget": budget_json}, indent=2))
        return
    typer.echo("\n".join(summary_lines(recommendation)))
    typer.echo("")
    if assessment.unmeasured:
        typer.echo("not measured (the decision fell back to the knowledge base for these):")
        for item in assessment.unmeasured:
            typer.echo(f"  - {item.line()}")
        if assessment.budget is not None:
            typer.echo(assessment.budget.line())
        typer.echo("")
    typer.echo(f"decision {written.id:04d} written to {written.record}")
    for path in written.evidence:
        typer.echo(f"evidence: {path}")
    if written.commit:
        typer.echo(f"committed {written.commit[:12]} in {written.repository}")
    for note in written.notes:
        typer.echo(note)
