"""The `advisor` command: a thin Typer layer over the library; each group lives in its own module."""

from __future__ import annotations

import sys

import typer

from advisor.cli import assess, compare, config, env, kb, ops, probe, recommend, records, review, schema, site
from advisor.cli.group import APP_SETTINGS, CommandApp, WorkflowGroup, examples
from advisor.cli.output import fail, os_error_line, reports_errors
from advisor.interrupts import describe, exit_code, stop_on_signals
from probes._version import __version__
from probes.errors import MACHINE_EXIT, AdvisorError
from probes.terminal_text import shown

app = CommandApp(
    name="advisor",
    help="Choose an ML operator stack from measured evidence and keep each choice as a decision record.",
    add_completion=False,
    pretty_exceptions_enable=False,
    **{**APP_SETTINGS, "cls": WorkflowGroup},
)
# Each command's line in `advisor --help` (short_help: click would cut a long first sentence with "...") and its
# examples; WorkflowGroup lists them in the order of the work.
app.command(
    name="assess",
    short_help="Ask, measure, recommend; write a decision record.",
    epilog=examples(
        ("Answer the questions, measure this machine, commit the record:", "advisor assess"),
        (
            "FP8 serving on 8 NVIDIA GPUs, no prompts:",
            "advisor assess --yes --hardware nvidia-gpu --quantization fp8 --devices 8",
        ),
        ("Decide from the profile alone:", 'advisor assess --yes --no-probes --title "Vision serving"'),
        ("Reuse evidence measured on two machines:", "advisor assess --yes --evidence a100.json h100.json"),
    ),
)(reports_errors(assess.assess_command))
app.command(
    name="recommend",
    short_help="Recommend a three-tier stack for a profile.",
    epilog=examples(
        ("From the profile and the knowledge base:", "advisor recommend --profile profile.yaml"),
        ("With measured evidence, as JSON:", "advisor recommend --profile profile.yaml --evidence gpu.json --json"),
    ),
)(reports_errors(recommend.recommend_command))
app.command(
    name="probe",
    short_help="Measure operators on this machine into evidence.",
    epilog=examples(
        ("The probes there are:", "advisor probe --list"),
        ("Two probes, two minutes, saved:", "advisor probe gemm attention --budget 120 --out gpu.json"),
        (
            "The hot operators of the MoE reference model, on the GPU:",
            "advisor probe hotops --model-type moe --device cuda",
        ),
    ),
)(reports_errors(probe.probe_command))
app.command(
    name="compare",
    short_help="Compare evidence files case by case.",
    epilog=examples(
        ("Before and after a driver upgrade:", "advisor compare before.json after.json"),
        ("A fleet against a reference machine:", "advisor compare ref.json node1.json node2.json --target nvidia-gpu"),
    ),
)(reports_errors(compare.compare_command))
app.command(
    name="review",
    short_help="Re-probe records; keep or revise each decision.",
    epilog=examples(
        ("Review the records that are due:", "advisor review --due"),
        ("Review record 3 with evidence measured elsewhere:", "advisor review 3 --evidence fresh.json"),
        ("A CI gate: exit 1 when a review is overdue:", "advisor review --due --check"),
    ),
)(reports_errors(review.review_command))
app.add_typer(
    records.app,
    name="records",
    short_help="List, show, accept and supersede decision records.",
    epilog=examples(
        ("Every record with its status and review date:", "advisor records list"),
        ("Accept record 4:", "advisor records accept 4"),
        ("Record 4 replaces record 1:", "advisor records supersede 1 4"),
    ),
)
app.add_typer(
    site.app,
    name="site",
    short_help="Build or preview the decision-record website.",
    epilog=examples(
        ("Build it, failing on any warning:", "advisor site build --strict"),
        ("Preview it at http://127.0.0.1:8001:", "advisor site serve --addr 127.0.0.1:8001"),
    ),
)
app.add_typer(
    kb.app,
    name="kb",
    short_help="The knowledge base: candidates, stacks, platforms.",
    epilog=examples(
        ("Attention candidates for NVIDIA GPUs:", "advisor kb list --hardware nvidia-gpu --concern attention"),
        ("One platform's official stack and devices:", "advisor kb platform ascend-npu"),
        ("Claims that need checking again:", "advisor kb audit"),
    ),
)
app.command(
    name="env",
    short_help="Detect this machine: CPU, accelerators, software.",
    epilog=examples(("The machine as a table:", "advisor env"), ("As JSON, for a bug report:", "advisor env --json")),
)(reports_errors(env.env_command))
app.command(name="ops", short_help="Check a model's ONNX operators against a runtime.")(reports_errors(ops.ops_command))
app.command(name="config", short_help="Show the project settings in effect, with sources.")(
    reports_errors(config.config_command)
)
app.command(name="schema", short_help="Print the JSON Schema of a file format.")(reports_errors(schema.schema_command))


def _version(show: bool) -> None:
    if show:
        typer.echo(f"advisor {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Choose an ML operator stack from measured evidence and keep each choice as a decision record."""


def main() -> None:
    """Console-script entry point: library errors become one line on stderr and their exit code; SIGINT, SIGTERM
    and SIGHUP stop the command cleanly (exit 128 + the signal's number) for as long as it runs; anything else is
    a bug, shown as its traceback with control characters escaped (a value in an exception's message cannot
    drive the terminal), exit 1."""
    with stop_on_signals():
        try:
            app()
        except AdvisorError as error:
            fail(str(error), error.exit_code)
        except OSError as error:
            fail(os_error_line(error), MACHINE_EXIT)
        except KeyboardInterrupt as interrupt:  # one that came before or after a command's own handling
            sys.stderr.write(f"{describe(interrupt)}\n")
            sys.exit(exit_code(interrupt))
        except Exception:  # a bug: its traceback for the report, the values in it escaped like all other output
            import traceback

            sys.stderr.write(shown(traceback.format_exc()))
            sys.exit(1)
