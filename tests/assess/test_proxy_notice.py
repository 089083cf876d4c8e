"""A machine that is not the target is named as a proxy before any probe runs: at the hardware prompt, before
probing (where the user can still decline), and in `--yes` runs, with what its probes can still tell."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from advisor.assessment import proxy_notice
from advisor.cli import app
from advisor.cli.assess import FORCE_PROMPTS_ENV
from advisor.profile import Profile
from advisor.records import find_record


def _profile(hardware: str, device: str | None = None) -> Profile:
    return Profile(
        model_type="dense-transformer", hardware=hardware, device=device, workload="inference", team_skill="framework"
    )


def test_the_notice_says_what_this_machine_can_still_tell(environment_factory):
    cpu_box = environment_factory()  # an x86 CPU, no accelerator
    notice = proxy_notice(_profile("nvidia-gpu", "h200-sxm"), cpu_box)
    assert notice is not None
    assert notice.startswith("this machine (Test Xeon, x86-cpu) is not nvidia-gpu: its timings are proxy evidence")
    assert "attention memory growth" in notice and "numerical error" in notice  # the portable readings
    assert "--no-probes" in notice
    assert "NVIDIA's own measurements for h200-sxm are quoted" in notice
    on_ascend = proxy_notice(_profile("ascend-npu"), cpu_box)
    assert on_ascend is not None and "NVIDIA" not in on_ascend  # no vendor reference to offer there
    assert proxy_notice(_profile("x86-cpu"), cpu_box) is None  # the machine is the target


def _prompted(hardware: str, probe_answer: str) -> str:
    answers = [
        "dense-transformer",
        hardware,
        "",  # model type, hardware, device (the family's current one)
        "inference",
        "framework",
        "n",
        "none",
        "n",
        "1",
        "n",
        "Proxy check",
        "",
        "",  # no model to estimate serving for
        probe_answer,  # probe this machine anyway?
    ]
    return "\n".join(answers) + "\n"


def test_at_a_terminal_the_user_can_decline_the_proxy_probes(tmp_path: Path):
    records = tmp_path / "records"
    result = CliRunner().invoke(
        app,
        ["assess", "--records-dir", str(records), "--no-commit"],
        input=_prompted("nvidia-gpu", ""),
        env={FORCE_PROMPTS_ENV: "1"},
    )
    assert result.exit_code == 0, result.output
    assert "note: this machine is x86-cpu, so probes run here are proxy evidence for nvidia-gpu" in result.stderr
    assert "Probe this machine anyway (proxy evidence)? [y/N]" in result.stderr
    assert "\nevidence: " not in result.stdout  # the default answer measured nothing
    assert find_record(records, 1).front.evidence == []


def _selftest_assess(records: Path, hardware: str):
    """`advisor assess --yes` for `hardware`, timing only the selftest probe on this CPU."""
    arguments = ["assess", "--yes", "--hardware", hardware, "--probe", "selftest", "--budget", "10", "--device", "cpu"]
    return CliRunner().invoke(app, [*arguments, "--records-dir", str(records), "--no-commit", "--json"])


def test_yes_runs_say_so_before_the_first_probe(tmp_path: Path):
    result = _selftest_assess(tmp_path / "records", "nvidia-gpu")
    assert result.exit_code == 0, result.output
    notice = result.stderr.index("warning: this machine (")
    assert "is not nvidia-gpu" in result.stderr[notice:].splitlines()[0]
    assert notice < result.stderr.index("selftest")  # before the probe's progress
    assert json.loads(result.stdout)["evidence"]  # under --yes the probes still run, as proxy evidence


def test_on_the_target_nothing_is_said_or_asked(tmp_path: Path):
    result = _selftest_assess(tmp_path / "records", "x86-cpu")
    assert result.exit_code == 0, result.output
    assert "proxy" not in result.stderr
