"""A hardware family added with data files only (ADVISOR_KB_DIR): profiles accept it, `advisor recommend`
answers for it from its platform file, `advisor kb` lists it; and no family is named in the engine's code."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from knowledge_builders import candidate_document, claim, platform_document, write_root

from advisor.cli import app
from advisor.profile import parse_profile

ENGINE_DIR = Path(__file__).resolve().parents[2] / "advisor" / "recommendation"
BUILTIN_FAMILIES = (
    "nvidia-gpu",
    "amd-gpu",
    "ascend-npu",
    "cambricon-mlu",
    "hygon-dcu",
    "iluvatar-gpu",
    "intel-gaudi",
    "google-tpu",
    "aws-neuron",
    "apple-silicon",
    "x86-cpu",
    "arm-cpu",
)
PROFILE = "model_type: dense-transformer\nhardware: acme-npu\nworkload: inference\nteam_skill: framework\n"


@pytest.fixture
def acme_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A knowledge root with one new family and three stacks for it, set as ADVISOR_KB_DIR."""
    candidates = [
        candidate_document("acme-blas", ["acme-npu"], ["gemm", "fusion"]),
        candidate_document("acme-attention", ["acme-npu"], ["attention"]),
        candidate_document("acme-serve", ["acme-npu"], ["deployment", "dynamic-shapes"], layer=claim("runtime")),
    ]
    official = {
        "gemm": ["acme-blas"],
        "attention": ["acme-attention"],
        "fusion": ["acme-blas"],
        "deployment": ["acme-serve"],
        "dynamic-shapes": ["acme-serve"],
    }
    root = write_root(tmp_path / "kb", candidates, [platform_document("acme-npu", official)])
    monkeypatch.setenv("ADVISOR_KB_DIR", str(root))
    return root


def test_a_new_family_needs_only_data_files(acme_root, runner, tmp_path):
    assert parse_profile(PROFILE).hardware == "acme-npu"
    profile = tmp_path / "profile.yaml"
    profile.write_text(PROFILE + "needs: {dynamic_shapes: true}\n")
    result = runner.invoke(app, ["recommend", "--profile", str(profile), "--json"])
    assert result.exit_code == 0, result.output
    tier1 = {choice["concern"]: choice["option"] for choice in json.loads(result.stdout)["tiers"][0]["choices"]}
    assert tier1 == {
        "gemm": "acme-blas",
        "attention": "acme-attention",
        "fusion": "acme-blas",
        "dynamic-shapes": "acme-serve",
        "deployment": "acme-serve",
    }

    listed = runner.invoke(app, ["kb", "list", "--hardware", "acme-npu", "--json"])
    assert listed.exit_code == 0, listed.output
    assert sorted(entry["id"] for entry in json.loads(listed.stdout)) == ["acme-attention", "acme-blas", "acme-serve"]
    shown = runner.invoke(app, ["kb", "platform", "acme-npu", "--json"])
    assert json.loads(shown.stdout)["official"]["gemm"]["value"] == ["acme-blas"]


def test_without_the_data_the_family_is_refused_with_the_known_ones(runner, tmp_path):
    profile = tmp_path / "profile.yaml"
    profile.write_text(PROFILE)
    result = runner.invoke(app, ["recommend", "--profile", str(profile)])
    assert result.exit_code == 2
    message = result.stderr.strip()
    assert message.startswith(f"error: {profile}: hardware: 'acme-npu' is not one of ")
    assert all(family in message for family in BUILTIN_FAMILIES)


def test_the_engine_names_no_hardware_family():
    pattern = re.compile("|".join(re.escape(family) for family in BUILTIN_FAMILIES))
    offenders = [
        f"{path.relative_to(ENGINE_DIR)}:{number}: {text.strip()}"
        for path in sorted(ENGINE_DIR.rglob("*.py"))
        for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if pattern.search(text)
    ]
    assert offenders == []
