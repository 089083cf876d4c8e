"""`advisor recommend`, mounted on a tiny Typer app: the readable summary, --json, and one-line errors."""

from __future__ import annotations

import json

import pytest
import typer
from recommendation_builders import CPU_SUITE, evidence, gemm_cases

from advisor.cli.output import reports_errors
from advisor.cli.recommend import recommend_command

WIDE = {"COLUMNS": "200"}
PROFILE = """\
model_type: dense-transformer
hardware: nvidia-gpu
workload: inference
team_skill: framework
needs: {long_context: true, quantization: int8}
title: chat service
"""


@pytest.fixture
def cli() -> typer.Typer:
    app = typer.Typer()
    app.command(name="recommend")(reports_errors(recommend_command))

    @app.callback()
    def _root() -> None:
        """Test root."""

    return app


@pytest.fixture
def profile_file(tmp_path):
    path = tmp_path / "profile.yaml"
    path.write_text(PROFILE)
    return path


def test_summary_names_the_tiers_rejections_and_switches(cli, runner, profile_file):
    result = runner.invoke(cli, ["recommend", "--profile", str(profile_file), "--evidence", str(CPU_SUITE)], env=WIDE)
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.startswith("Recommendation: chat service (inference, framework team)\n")
    assert "Confidence 0.39" in out and "(includes proxy evidence from other hardware)" in out  # 0.35 x1.1 (reference)
    assert "Reference: NVIDIA's own measurements on " in out
    assert "Verdict: No documented whole stack fits this profile: tier 1 assembles " in out
    assert "Target: NVIDIA B200 (assumed: no device named)" in out
    considered = out.split("Stacks considered\n", 1)[1].split("\n\n", 1)[0]  # the list, in the engine's order
    assert "  nvidia-vllm-int8-w8a8 (inference, int8): not chosen: its page says it does not run on b200" in considered
    assert "Tier 1: official full stack [primary]" in out and "  gemm            cublas  [dtype=bf16]" in out
    assert "  attention       flash-attention  [via=vllm]" in out and "  deployment      vllm" in out
    assert "Tier 2: deep self-development [needs more skill than the team has]" in out
    assert "Rejected\n" in out and "  cutlass (gemm)" in out and "tensorrt (quantization)" not in out
    assert "not applied to nvidia-gpu" in out


def test_json_output_is_the_recommendation(cli, runner, profile_file, tmp_path):
    second = tmp_path / "gpu.json"
    evidence(gemm_cases(0.5, "cuda"), "nvidia-gpu").save(second)
    evidence_args = ["--evidence", str(CPU_SUITE), "--evidence", str(second)]
    result = runner.invoke(cli, ["recommend", "--profile", str(profile_file), *evidence_args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["tiers"][0]["tier"] == 1 and data["proxy_evidence"] is True
    assert [s["on_target"] for s in data["evidence_sources"]] == [False, True]
    gemm = next(c for c in data["tiers"][0]["choices"] if c["concern"] == "gemm")
    assert gemm["settings"] == {"dtype": "fp32"}  # bf16 measured slower on the target GPU


def test_without_evidence(cli, runner, profile_file):
    result = runner.invoke(cli, ["recommend", "--profile", str(profile_file), "--json"])
    assert result.exit_code == 0
    assert json.loads(result.output)["evidence_sources"] == []


def test_a_bad_profile_is_one_line_and_exit_code_2(cli, runner, tmp_path):
    bad = tmp_path / "profile.yaml"
    bad.write_text(PROFILE.replace("quantization: int8", "quantization: int2"))
    result = runner.invoke(cli, ["recommend", "--profile", str(bad)])
    assert result.exit_code == 2
    assert result.output.strip() == f"error: {bad}: needs.quantization: 'int2' is not one of none, int8, fp8, int4, fp4"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such file"),
        ("{not json", "not valid JSON"),
        ('{"schema_version": 1}', "not an evidence file"),
    ],
)
def test_a_bad_evidence_file_is_one_line(cli, runner, profile_file, tmp_path, content, message):
    path = tmp_path / "evidence.json"
    if content is not None:
        path.write_text(content)
    result = runner.invoke(cli, ["recommend", "--profile", str(profile_file), "--evidence", str(path)])
    assert result.exit_code == 2 and message in result.output and len(result.output.strip().splitlines()) == 1
