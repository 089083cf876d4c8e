"""Whole stacks and devices as data: the schema's rules, the references the loader checks (family, device,
candidate), `kb check` on stack files, `advisor kb stacks/stack/platform`, the audit and the site's page."""

from __future__ import annotations

import copy
import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from knowledge_builders import candidate_document, claim, platform_document, write_root, write_yaml

from advisor.cli import app
from advisor.knowledge.audit import audit_knowledge
from advisor.knowledge.claims import KnowledgeBaseError
from advisor.knowledge.loader import load_knowledge_base
from advisor.site.knowledge_pages import knowledge_page

DEVICES = [
    {
        "id": "acme-1",
        "name": "Acme 1",
        "generation": "First",
        "architecture": "a1",
        "memory_gb": 64,
        "formats": ["fp32", "bf16", "int8"],
        "spec": claim("64 GB, bf16 and int8 matrix units"),
    },
    {
        "id": "acme-2",
        "name": "Acme 2",
        "generation": "Second",
        "architecture": "a2",
        "memory_gb": 128,
        "formats": ["fp32", "bf16", "fp8", "int8"],
        "fp8_variant": "ocp",
        "spec": claim("128 GB, OCP FP8"),
    },
]


def stack_document(stack_id: str = "acme-serve-fp8", **overrides: Any) -> dict[str, Any]:
    """A valid stack for the acme-npu family's second device."""
    document: dict[str, Any] = {
        "id": stack_id,
        "name": "Acme Serve with FP8",
        "summary": claim("Acme Serve runs LLMs in FP8 on Acme 2.", source="https://example.com/deploy-guide"),
        "applies_to": {
            "family": "acme-npu",
            "devices": ["acme-2"],
            "workloads": ["inference"],
            "model_types": ["dense-transformer", "moe"],
            "precisions": ["fp8", "bf16"],
            "scale": ["single-device", "multi-device"],
        },
        "components": [
            {"role": "serving-engine", "name": "Acme Serve", "candidate": "acme-serve", "setting": "--fp8"},
            {"role": "gemm", "name": "Acme BLAS", "candidate": "acme-blas", "setting": "fp8 e4m3"},
            {"role": "kernels", "name": "Acme fused MoE"},
            {"role": "kernels", "name": "Acme paged attention", "source": "https://example.com/kernels"},
        ],
        "validated_with": {"acme-serve": "1.2.0"},
        "risks": [claim("FP8 needs calibrated scales.")],
    }
    document.update(overrides)
    return document


def acme_root(root: Path, stacks: list[dict[str, Any]], devices: list[dict[str, Any]] | None = None) -> Path:
    """A knowledge root with the acme-npu family (two devices), its candidates and the given stacks."""
    candidates = [
        candidate_document("acme-blas", ["acme-npu"], ["gemm"]),
        candidate_document("acme-serve", ["acme-npu"], ["deployment"], layer=claim("runtime")),
    ]
    platform = platform_document(
        "acme-npu",
        {"gemm": ["acme-blas"], "deployment": ["acme-serve"]},
        devices=DEVICES if devices is None else devices,
        default_device=claim("acme-2"),
    )
    write_root(root, candidates, [platform])
    for stack in stacks:
        write_yaml(root / "stacks" / f"{stack['id']}.yaml", stack)
    return root


def test_a_stack_loads_with_its_family_devices_and_candidates(tmp_path: Path):
    knowledge = load_knowledge_base(acme_root(tmp_path / "kb", [stack_document()]))
    stack = knowledge.stack("acme-serve-fp8")
    assert stack.candidate_ids() == ["acme-serve", "acme-blas"]
    assert stack.component("kernels").name == "Acme fused MoE"  # type: ignore[union-attr]
    assert stack.fits("acme-npu", "acme-2", "inference", "moe")
    assert not stack.fits("acme-npu", "acme-1", "inference", "moe")  # not validated on the first generation
    assert not stack.fits("acme-npu", None, "training", "moe")
    assert knowledge.stacks_for("acme-npu") == (stack,)
    assert knowledge.platform("acme-npu").device("acme-2").fp8_variant == "ocp"  # type: ignore[union-attr]
    assert knowledge.claim_at("acme-serve-fp8.risks[0]") == stack.risks[0]


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        (
            lambda d: d["applies_to"].update(devices=["acme-9"]),
            "field applies_to.devices: unknown acme-npu device 'acme-9'",
        ),
        (
            lambda d: d["applies_to"].update(family="other-npu"),
            "field applies_to.family: unknown hardware family 'other-npu'",
        ),
        (
            lambda d: d["components"][1].update(candidate="no-such-lib"),
            "field components.1.candidate: unknown candidate id",
        ),
        (lambda d: d["components"].append({"role": "gemm", "name": "Another BLAS"}), "more than one 'gemm'"),
        (lambda d: d["components"].pop(0), "a serving-engine, training-framework or runtime"),
        (lambda d: d["summary"].update(source="method#tiers"), "the public page that documents the stack"),
        (lambda d: d["applies_to"].update(precisions=["fp8", "fp8"]), "duplicate values"),
        (lambda d: d["applies_to"].update(precisions=["fp6"]), "applies_to.precisions.0"),
        (lambda d: d["components"][0].update(source="docs page"), "must be a public URL"),
        (lambda d: d.update(id="other-id"), "must equal the file stem"),
    ],
    ids=[
        "unknown-device",
        "unknown-family",
        "unknown-candidate",
        "two-gemm",
        "nothing-runs-it",
        "no-page",
        "duplicate-precision",
        "unknown-precision",
        "component-source",
        "id-not-stem",
    ],
)
def test_a_bad_stack_is_one_error_naming_its_file_and_field(tmp_path: Path, edit, said: str):
    document = stack_document()
    edit(document)
    document_id = "acme-serve-fp8"  # the file keeps its name when the id inside is changed
    root = acme_root(tmp_path / "kb", [])
    write_yaml(root / "stacks" / f"{document_id}.yaml", document)
    with pytest.raises(KnowledgeBaseError) as error:
        load_knowledge_base(root)
    assert f"stacks/{document_id}.yaml" in str(error.value) and said in str(error.value)


@pytest.mark.parametrize(
    ("devices", "default", "said"),
    [
        ([{**DEVICES[0], "fp8_variant": "fnuz"}], "acme-1", "fp8_variant is given exactly when formats list fp8"),
        ([{k: v for k, v in DEVICES[1].items() if k != "fp8_variant"}], "acme-2", "fp8_variant is given exactly"),
        ([DEVICES[0], DEVICES[0]], "acme-1", "duplicate id 'acme-1'"),
        (DEVICES, "acme-3", "default_device: 'acme-3' is not among devices"),
        ([], "acme-1", "default_device is given exactly when devices are listed"),
    ],
    ids=["fp8-variant-without-fp8", "fp8-without-variant", "duplicate-device", "unknown-default", "default-alone"],
)
def test_bad_devices_are_one_error_naming_the_platform_file(tmp_path: Path, devices, default: str, said: str):
    root = acme_root(tmp_path / "kb", [])
    platform = platform_document(
        "acme-npu",
        {"gemm": ["acme-blas"], "deployment": ["acme-serve"]},
        devices=devices,
        default_device=claim(default),
    )
    write_yaml(root / "platforms" / "acme-npu.yaml", platform)
    with pytest.raises(KnowledgeBaseError) as error:
        load_knowledge_base(root)
    assert "platforms/acme-npu.yaml" in str(error.value) and said in str(error.value)


def test_kb_check_judges_a_stack_file_against_the_platform_checked_beside_it(tmp_path: Path, runner):
    root = acme_root(tmp_path / "kb", [])
    stack = write_yaml(root / "stacks" / "acme-serve-fp8.yaml", stack_document())
    platform, candidates = root / "platforms" / "acme-npu.yaml", sorted((root / "knowledge").glob("*.yaml"))
    result = runner.invoke(app, ["kb", "check", str(stack), str(platform), *map(str, candidates)])
    assert result.exit_code == 0, result.output
    assert "4 file(s) sound" in result.stdout
    bad = copy.deepcopy(stack_document())
    bad["applies_to"]["devices"] = ["acme-9"]
    write_yaml(stack, bad)
    result = runner.invoke(app, ["kb", "check", str(stack), str(platform), *map(str, candidates)])
    assert result.exit_code == 1
    assert "unknown acme-npu device 'acme-9'" in result.output


def test_kb_stacks_stack_and_platform_show_stacks_and_devices(tmp_path: Path, runner, monkeypatch):
    monkeypatch.setenv("ADVISOR_KB_DIR", str(acme_root(tmp_path / "kb", [stack_document()])))
    listed = runner.invoke(app, ["kb", "stacks", "--hardware", "acme-npu", "--json"])
    assert listed.exit_code == 0, listed.output
    assert [entry["id"] for entry in json.loads(listed.stdout)] == ["acme-serve-fp8"]
    shown = runner.invoke(app, ["kb", "stack", "acme-serve-fp8"], env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    assert "applies to: acme-npu (acme-2); inference" in shown.stdout and "acme-serve 1.2.0" in shown.stdout
    assert "Acme paged attention" in shown.stdout and "https://example.com/deploy-guide" in shown.stdout
    platform = runner.invoke(app, ["kb", "platform", "acme-npu", "--json"])
    document = json.loads(platform.stdout)
    assert [device["id"] for device in document["devices"]] == ["acme-1", "acme-2"]
    assert document["default_device"]["value"] == "acme-2"
    table = runner.invoke(app, ["kb", "platform", "acme-npu"], env={"COLUMNS": "200"})
    assert "acme-2 *" in table.stdout and "fp8 (ocp)" in table.stdout
    unknown = runner.invoke(app, ["kb", "stack", "nope"])
    assert unknown.exit_code == 2 and "unknown stack 'nope'; known ids: " in unknown.stderr


def test_the_audit_reads_stack_and_device_claims(tmp_path: Path):
    knowledge = load_knowledge_base(acme_root(tmp_path / "kb", [stack_document()]))
    report = audit_knowledge(knowledge, as_of=dt.date(2028, 1, 1))
    stale = {(finding.owner, finding.field) for finding in report.stale}
    assert {("acme-serve-fp8", "summary"), ("acme-serve-fp8", "risks[0]")} <= stale
    assert ("acme-npu", "devices.acme-2.spec") in stale and ("acme-npu", "default_device") in stale


def test_the_site_page_lists_each_stack_and_each_device_with_its_source(tmp_path: Path):
    page = knowledge_page(load_knowledge_base(acme_root(tmp_path / "kb", [stack_document()])))
    assert "## Whole stacks" in page and "[`acme-serve-fp8`](#stack-acme-serve-fp8)" in page
    assert "{ #stack-acme-serve-fp8 }" in page and "https://example.com/deploy-guide" in page
    assert "| serving-engine | Acme Serve ([`acme-serve`](#acme-serve)) | --fp8 |" in page
    assert "| Acme 2 (default) (`acme-2`) | Second | a2 | 128 GB | fp32, bf16, fp8 (ocp), int8 |" in page


def test_the_shipped_base_has_documented_stacks_and_devices_for_every_family():
    """Issue 28's floor: 45 stacks or more, every family 3 or more (NVIDIA, AMD and Ascend 6 or more), each
    family with its devices and a default one, every stack documented by a public page."""
    knowledge = load_knowledge_base()
    assert len(knowledge.stacks) >= 45
    for platform in knowledge.platforms:
        stacks = knowledge.stacks_for(platform.id)
        assert len(stacks) >= (6 if platform.id in ("nvidia-gpu", "amd-gpu", "ascend-npu") else 3), platform.id
        assert platform.devices and platform.default_device is not None, platform.id
        devices_in_stacks = {device for stack in stacks for device in stack.applies_to.devices}
        assert devices_in_stacks, platform.id
    for stack in knowledge.stacks:
        assert stack.summary.has_url and all(risk.has_url for risk in stack.risks), stack.id


def test_no_shipped_stack_text_a_record_prints_names_our_own_reviews():
    """A part's setting and a stack's claims are printed in decision records: our review history ('review 164 p12')
    belongs in YAML comments, not in text a reader's record carries (review 166 p13)."""
    import re

    ours = re.compile(r"\breviews? \d+", re.IGNORECASE)
    knowledge = load_knowledge_base()
    for stack in knowledge.stacks:
        printed = [c.setting or "" for c in stack.components]
        printed += [
            text for c in stack.components for text in (*c.setting_by_training.values(), *c.setting_by_method.values())
        ]
        printed += [claim.value for claim in stack.claims().values() if isinstance(claim.value, str)]
        for text in printed:
            assert not ours.search(text), (stack.id, text[:120])
    for candidate in knowledge.candidates:
        for path, said in candidate.claims().items():
            assert not (isinstance(said.value, str) and ours.search(said.value)), (candidate.id, path)


def test_a_part_whose_page_documents_kinds_of_training_apart_shows_each_kind_named_to_a_reader_of_no_kind():
    from advisor.knowledge.stacks import Component

    part = Component(
        role="training-framework",
        name="Trainer",
        setting="bf16: true",
        setting_by_training={"lora": "train_lora.yaml", "fine-tuning": "train_full.yaml"},
    )
    assert part.for_training("lora").setting == "bf16: true; train_lora.yaml"
    assert part.for_training(None).setting == "bf16: true; LoRA: train_lora.yaml; full fine-tune: train_full.yaml"
    assert part.for_training("rl").setting == part.for_training(None).setting  # a kind the page does not name
    bare = Component(role="kernels", name="fused ops", setting="--use-fused-rmsnorm")
    assert bare.for_training("lora") is bare


def test_the_verl_moe_grpo_stacks_carry_the_script_written_for_their_model():
    # Helper kbapple, defect 3 (scenario 727): the NVIDIA verl MoE GRPO stack, written for Qwen3-30B-A3B, runs verl's
    # examples/grpo_trainer/run_qwen3_30b_a3b_megatron.sh; the Qwen3.5-35B-A3B script is the AMD stack's alone
    # (https://github.com/verl-project/verl/tree/1dda039b9c6311889a9c9a26040677e1254814f9/examples/grpo_trainer).
    knowledge = load_knowledge_base()
    nvidia = knowledge.stack("nvidia-verl-megatron-moe-grpo")
    assert "Qwen/Qwen3-30B-A3B" in nvidia.applies_to.models
    trainer = nvidia.component("training-framework")
    assert trainer is not None and "run_qwen3_30b_a3b_megatron.sh" in (trainer.setting or "")
    assert "qwen3_5" not in (trainer.setting or "")
    amd = knowledge.stack("amd-verl-megatron-moe-grpo-instinct")
    assert amd.applies_to.models == ["Qwen/Qwen3.5-35B-A3B"]
