"""`advisor assess` driven through CliRunner: prompts with input, the flags path, --yes, no terminal, probes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from advisor.assessment import probes_for_profile
from advisor.cli import app
from advisor.cli.assess import FORCE_PROMPTS_ENV, build_profile, gather_answers
from advisor.knowledge.loader import family_device_ids, load_knowledge_base
from advisor.profile import Needs, Profile
from advisor.records import find_record

CPU_SUITE = Path(__file__).resolve().parents[1] / "fixtures" / "cpu-suite.json"
FLAGS = [
    "--model-type",
    "moe",
    "--hardware",
    "x86-cpu",
    "--workload",
    "training",
    "--team-skill",
    "kernel",
    "--dynamic-shapes",
    "--quantization",
    "int8",
    "--quantization-method",
    "qat",
    "--long-context",
    "--devices",
    "8",
    "--no-cross-platform",
    "--title",
    "MoE training <b>bold</b>",
    "--decider",
    "Ann",
    "--decider",
    "Bo",
]


def _assess(runner: CliRunner, records_dir: Path, *args: str, input: str | None = None, prompts: bool = False):
    env = {FORCE_PROMPTS_ENV: "1"} if prompts else {}
    return runner.invoke(app, ["assess", "--records-dir", str(records_dir), *args], input=input, env=env)


def test_flags_path_writes_the_record(tmp_path):
    result = _assess(CliRunner(), tmp_path / "records", *FLAGS, "--evidence", str(CPU_SUITE), "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["id"] == 1 and summary["commit"] is None and summary["tier1"]
    record = find_record(tmp_path / "records", 1)
    assert record.path.name == "0001-moe-training-b-bold-b.md"
    assert record.front.decision_makers == ["Ann", "Bo"]
    assert record.front.profile["needs"] == {
        "dynamic_shapes": True,
        "quantization": "int8",
        "quantization_method": "qat",
        "long_context": True,
        "devices": 8,
    }  # the needs left at their defaults are not written (issue 28's 150-line record); reading it back restores them
    assert "# MoE training &lt;b&gt;bold&lt;/b&gt;" in record.body
    assert Path(summary["evidence"][0]).name == "0001-moe-training-b-bold-b.evidence.json"


def test_the_model_its_size_and_the_other_familys_device_reach_the_record(tmp_path):
    flags = ["--yes", "--no-probes", "--no-commit", "--model-type", "dense-transformer", "--hardware", "ascend-npu"]
    flags += ["--target-device", "ascend-910b", "--workload", "both", "--team-skill", "framework", "--devices", "8"]
    flags += ["--model", "Qwen/Qwen2.5-72B-Instruct", "--cross-platform", "--other-hardware", "nvidia-gpu"]
    result = _assess(CliRunner(), tmp_path / "records", *flags, "--other-device", "a100-sxm", "--parameters-b", "72")
    assert result.exit_code == 0, result.output
    record = find_record(tmp_path / "records", 1)
    assert record.front.profile["model"] == "Qwen/Qwen2.5-72B-Instruct" and record.front.profile["parameters_b"] == 72
    assert record.front.profile["needs"]["other_devices"] == ["a100-sxm"]
    assert "* capacity: full-parameter training of a 72B model holds about 1,152 GB" in record.body
    wrong = _assess(CliRunner(), tmp_path / "other", *flags, "--other-device", "mi300x")
    assert wrong.exit_code != 0 and "other_devices: 'mi300x' is not a device of other_hardware" in wrong.output
    assert not (tmp_path / "other").exists() or not list((tmp_path / "other").glob("*.md"))


def test_prompts_take_answers_and_defaults(tmp_path):
    answers = (
        "\n".join(
            [
                "cnn",  # model type
                "",  # hardware: the detected default
                "",  # device: this machine's, else the family's current one
                "inference",  # workload
                "framework",  # team skill
                "n",  # dynamic shapes
                "int8",  # quantization
                "ptq",  # method
                "n",  # long context
                "1",  # devices
                "y",  # cross-platform
                "Edge CNN",  # title
                "Ann, Bo",  # deciders
            ]
        )
        + "\n"
    )
    result = _assess(CliRunner(), tmp_path / "records", "--no-probes", input=answers, prompts=True)
    assert result.exit_code == 0, result.output
    assert "model type" in result.output and "dense-transformer, moe" in result.output  # choices shown
    record = find_record(tmp_path / "records", 1)
    assert record.front.title == "Edge CNN" and record.front.decision_makers == ["Ann", "Bo"]
    assert record.front.profile["model_type"] == "cnn" and record.front.profile["needs"]["cross_platform"] is True
    assert record.front.profile["hardware"] in ("x86-cpu", "arm-cpu", "nvidia-gpu", "ascend-npu")
    assert record.front.evidence == []


def test_an_invalid_answer_is_asked_again(tmp_path):
    answers = "gpt\ncnn\n" + "\n" * 20
    result = _assess(CliRunner(), tmp_path / "records", "--no-probes", "--title", "t", input=answers, prompts=True)
    assert result.exit_code == 0, result.output
    assert (
        "is not one of" in result.output
        or "not a valid choice" in result.output.lower()
        or "invalid" in result.output.lower()
    )
    assert find_record(tmp_path / "records", 1).front.profile["model_type"] == "cnn"


def test_yes_takes_defaults_and_never_prompts(tmp_path):
    result = _assess(CliRunner(), tmp_path / "records", "--yes", "--no-probes", "--hardware", "nvidia-gpu")
    assert result.exit_code == 0, result.output
    assert "Recommendation:" in result.output and "decision 0001 written" in result.output
    record = find_record(tmp_path / "records", 1)
    assert record.front.title == "Operator stack for dense-transformer inference on nvidia-gpu"
    assert record.front.decision_makers == []


def test_target_device_lands_in_the_profile(tmp_path):
    result = _assess(
        CliRunner(),
        tmp_path / "records",
        "--yes",
        "--no-commit",
        "--no-probes",
        "--hardware",
        "nvidia-gpu",
        "--target-device",
        "h200-sxm",
    )
    assert result.exit_code == 0, result.output
    assert find_record(tmp_path / "records", 1).front.profile["device"] == "h200-sxm"


def test_a_bad_target_device_is_one_line_naming_the_flag_and_the_ids(tmp_path):
    result = _assess(
        CliRunner(),
        tmp_path / "records",
        "--yes",
        "--no-commit",
        "--no-probes",
        "--hardware",
        "amd-gpu",
        "--target-device",
        "h200-sxm",
    )
    assert result.exit_code == 2
    ids = ", ".join(family_device_ids("amd-gpu"))
    assert result.stderr == f"error: --target-device 'h200-sxm' is not a amd-gpu device; choose one of: {ids}\n"
    assert not (tmp_path / "records").exists()


def test_the_profile_files_device_is_kept_unless_the_family_changes(tmp_path):
    profile = tmp_path / "profile.yaml"
    profile.write_text(
        "model_type: cnn\nhardware: nvidia-gpu\ndevice: h100-sxm\nworkload: inference\nteam_skill: kernel\n"
    )
    result = _assess(
        CliRunner(), tmp_path / "records", "--profile", str(profile), "--yes", "--no-commit", "--no-probes"
    )
    assert result.exit_code == 0, result.output
    assert find_record(tmp_path / "records", 1).front.profile["device"] == "h100-sxm"
    result = _assess(
        CliRunner(),
        tmp_path / "records",
        "--profile",
        str(profile),
        "--hardware",
        "intel-gaudi",
        "--yes",
        "--no-commit",
        "--no-probes",
    )
    assert result.exit_code == 0, result.output
    assert (
        find_record(tmp_path / "records", 2).front.profile.get("device") is None
    )  # no Gaudi here: left to the engine (an unset device is not written)


def test_the_device_prompt_offers_the_familys_ids_with_its_current_one_as_default(tmp_path):
    answers = "\n".join(["cnn", "intel-gaudi", "gaudi9", ""]) + "\n" * 20
    result = _assess(CliRunner(), tmp_path / "records", "--no-commit", "--no-probes", input=answers, prompts=True)
    assert result.exit_code == 0, result.output
    ids = family_device_ids("intel-gaudi")
    standard = load_knowledge_base().platform("intel-gaudi").default_device
    assert f"[{', '.join(ids)}] [{standard.value}]" in result.output and "'gaudi9' is not one of" in result.output
    assert find_record(tmp_path / "records", 1).front.profile["device"] == standard.value


def test_yes_takes_the_detected_device_only_for_its_own_family():
    machine = {"amd-gpu": "mi300x"}
    given = {"model_type": "cnn", "workload": "inference", "team_skill": "kernel", "title": "t"}
    answers = gather_answers(given, True, lambda: "amd-gpu", machine.get)
    assert (answers["hardware"], answers["device"]) == ("amd-gpu", "mi300x")
    answers = gather_answers({**given, "hardware": "nvidia-gpu"}, True, lambda: "amd-gpu", machine.get)
    assert answers["device"] is None
    assert build_profile(answers).device is None


def test_no_terminal_and_missing_fields_is_one_clear_error(tmp_path):
    result = _assess(CliRunner(), tmp_path / "records", "--no-probes", "--model-type", "cnn")
    assert result.exit_code == 2
    assert "no terminal" in result.stderr and "--workload" in result.stderr and "--model-type" not in result.stderr
    assert "Traceback" not in result.output and not (tmp_path / "records").exists()


def test_profile_file_with_flags_overriding(tmp_path):
    profile = tmp_path / "profile.yaml"
    profile.write_text("model_type: diffusion\nhardware: x86-cpu\nworkload: both\nteam_skill: hpc\ntitle: From file\n")
    result = _assess(
        CliRunner(), tmp_path / "records", "--profile", str(profile), "--team-skill", "kernel", "--no-probes", "--yes"
    )
    assert result.exit_code == 0, result.output
    front = find_record(tmp_path / "records", 1).front
    assert (front.title, front.profile["model_type"], front.profile["team_skill"]) == (
        "From file",
        "diffusion",
        "kernel",
    )


def test_bad_values_are_one_line_errors(tmp_path):
    result = _assess(CliRunner(), tmp_path / "records", "--yes", "--no-probes", "--model-type", "gpt")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: Invalid value for '--model-type': 'gpt' is not one of 'dense-transformer'")
    assert len(result.stderr.strip().splitlines()) == 1
    result = _assess(
        CliRunner(),
        tmp_path / "records",
        "--yes",
        "--evidence",
        str(tmp_path / "missing.json"),
        "--hardware",
        "x86-cpu",
    )
    assert result.exit_code == 2 and "missing.json" in result.stderr


def test_commits_in_a_repository_and_init_git(tmp_path):
    from git import Repo

    result = _assess(CliRunner(), tmp_path / "records", "--yes", "--no-probes", "--hardware", "x86-cpu", "--init-git")
    assert result.exit_code == 0, result.output
    repo = Repo(tmp_path / "records")
    assert set(repo.head.commit.stats.files) == {"0001-operator-stack-for-dense-transformer-inference-on-x86-cpu.md"}
    result = _assess(CliRunner(), tmp_path / "records", "--yes", "--no-probes", "--hardware", "x86-cpu", "--no-commit")
    assert result.exit_code == 0 and len(list(repo.iter_commits())) == 1


@pytest.mark.parametrize(
    "profile, expected",
    [
        (
            Profile(model_type="cnn", hardware="x86-cpu", workload="training", team_skill="framework"),
            ["gemm", "layout", "hotops"],
        ),
        (
            Profile(model_type="dense-transformer", hardware="x86-cpu", workload="inference", team_skill="framework"),
            ["gemm", "attention", "hotops", "dynamic", "fusion"],
        ),
        (
            Profile(
                model_type="dense-transformer",
                hardware="x86-cpu",
                workload="inference",
                team_skill="framework",
                needs=Needs(long_context=True),
            ),
            ["attention", "gemm", "hotops", "dynamic", "fusion"],
        ),
        (
            Profile(
                model_type="moe",
                hardware="x86-cpu",
                workload="training",
                team_skill="hpc",
                needs=Needs(dynamic_shapes=True, quantization="fp8"),
            ),
            ["gemm", "attention", "dynamic", "hotops"],
        ),
    ],
)
def test_probes_for_profile(profile, expected):
    assert probes_for_profile(profile) == expected


def test_end_to_end_with_a_real_probe(tmp_path):
    result = _assess(
        CliRunner(),
        tmp_path / "records",
        "--yes",
        "--model-type",
        "cnn",
        "--hardware",
        "x86-cpu",
        "--probe",
        "selftest",
        "--budget",
        "10",
        "--device",
        "cpu",
        "--json",
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    record = find_record(tmp_path / "records", summary["id"])
    assert record.front.evidence and (tmp_path / "records" / record.front.evidence[0].file).exists()
    assert record.front.environment.torch
    unmeasured = {item["probe"]: item["reason"] for item in summary["unmeasured"]}  # a CNN's inputs; selftest ran
    assert {"gemm", "layout", "hotops"} <= set(unmeasured) and unmeasured["gemm"] == "the probe did not run"


def test_hotops_profiles_the_profiles_model_type():
    from advisor.assessment import probe_options_for_profile

    profile = Profile(model_type="moe", hardware="x86-cpu", workload="training", team_skill="kernel")
    assert probe_options_for_profile(profile, probes_for_profile(profile)) == {"hotops": {"model_type": "moe"}}
    assert probe_options_for_profile(profile, ["gemm"]) == {}


def test_the_in_app_flag_reaches_the_records_profile(tmp_path):
    # needs.in_app (review 105 p13: a model inside a Mac app) is a flag like the other needs
    inference = [
        "--model-type",
        "dense-transformer",
        "--hardware",
        "x86-cpu",
        "--workload",
        "inference",
        "--team-skill",
        "framework",
        "--in-app",
        "--yes",
        "--no-probes",
        "--no-commit",
        "--json",
    ]
    result = _assess(CliRunner(), tmp_path / "records", *inference)
    assert result.exit_code == 0, result.output
    assert find_record(tmp_path / "records", 1).front.profile["needs"]["in_app"] is True
