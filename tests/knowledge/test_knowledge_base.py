"""The candidate knowledge base: every file valid and sourced, queries per hardware/concern, errors, `advisor kb`."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest
import typer
import yaml

from advisor.cli import kb
from advisor.knowledge.loader import load_knowledge_base
from advisor.knowledge.models import (
    CONCERNS,
    HARDWARE_FAMILIES,
    TEAM_SKILLS,
    Candidate,
    Claim,
    KnowledgeBaseError,
    KnowledgeQueryError,
)

EXPECTED_IDS = {
    "cublas", "cudnn", "cutlass", "triton", "flash-attention", "tensorrt", "torch-compile", "onnxruntime",
    "onednn", "openvino", "cann-builtin", "tbe", "ascend-c", "atc-acl", "cnnl-bang", "dtk-hip", "corex",
    "nccl", "hccl", "torchao", "vllm",
}  # fmt: skip
KNOWLEDGE_DIR = Path(str(resources.files("advisor.data.knowledge")))
METHOD_SECTIONS = range(1, 10)  # method.md has sections 1..9
WIDE = {"COLUMNS": "220"}


@pytest.fixture(scope="module")
def knowledge():
    return load_knowledge_base()


@pytest.fixture
def cli():
    root = typer.Typer()
    root.add_typer(kb.app, name="kb")

    @root.callback()
    def _root() -> None:
        """Test root."""

    return root


def _valid_document() -> dict:
    return yaml.safe_load((KNOWLEDGE_DIR / "cublas.yaml").read_text(encoding="utf-8"))


def _write(directory: Path, name: str, document: object) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_text(document if isinstance(document, str) else yaml.safe_dump(document, allow_unicode=True))
    return path


# The shipped data


def test_every_candidate_is_present_once(knowledge):
    assert sorted(knowledge.ids()) == sorted(EXPECTED_IDS)


def test_file_stems_are_the_ids():
    stems = {path.stem for path in KNOWLEDGE_DIR.glob("*.yaml")}
    assert stems == EXPECTED_IDS
    for path in KNOWLEDGE_DIR.glob("*.yaml"):
        assert yaml.safe_load(path.read_text(encoding="utf-8"))["id"] == path.stem


def test_the_built_in_knowledge_base_is_cached(knowledge):
    assert load_knowledge_base() is knowledge


def test_every_attribute_is_a_claim_with_a_non_empty_source(knowledge):
    attribute_fields = set(Candidate.model_fields) - {"id", "name", "risks"}
    for candidate in knowledge.candidates:
        claims = candidate.claims()
        assert attribute_fields <= set(claims), candidate.id
        assert candidate.risks, candidate.id
        for field, claim in claims.items():
            assert isinstance(claim, Claim), (candidate.id, field)
            assert claim.source.strip(), (candidate.id, field)
            assert claim.note is None or claim.note.strip(), (candidate.id, field)


def test_method_citations_name_real_sections(knowledge):
    for candidate in knowledge.candidates:
        for field, claim in candidate.claims().items():
            for cited in re.findall(r"method\.md §(\d+)", claim.source):
                assert int(cited) in METHOD_SECTIONS, (candidate.id, field, claim.source)


def test_vocabulary_values(knowledge):
    for candidate in knowledge.candidates:
        assert set(candidate.hardware.value) <= set(HARDWARE_FAMILIES), candidate.id
        assert candidate.skill.value in TEAM_SKILLS, candidate.id
        assert set(candidate.concerns.value) <= set(CONCERNS), candidate.id
    assert set(HARDWARE_FAMILIES) == {
        "nvidia-gpu", "ascend-npu", "cambricon-mlu", "hygon-dcu", "iluvatar-gpu", "x86-cpu", "arm-cpu",
    }  # fmt: skip
    assert set(TEAM_SKILLS) == {"framework", "kernel", "hpc"}
    assert set(CONCERNS) == {"gemm", "attention", "fusion", "quantization", "dynamic-shapes", "collectives", "deployment"}


def test_every_hardware_family_has_a_candidate(knowledge):
    for family in HARDWARE_FAMILIES:
        assert knowledge.for_hardware(family).candidates, family


def test_method_figures_are_cited_with_their_section(knowledge):
    def cited(candidate_id: str, field: str) -> Claim:
        return knowledge.get(candidate_id).claims()[field]

    assert "over 80% of theoretical peak" in cited("cann-builtin", "summary").value
    assert "18%" in cited("ascend-c", "fusion").source and "§4" in cited("ascend-c", "fusion").source
    assert "50%+" in cited("onednn", "summary").value
    assert "O(N^2) to O(N)" in cited("flash-attention", "summary").value
    assert "hours" in cited("cutlass", "maintenance_cost").source
    assert "near CUTLASS speed" in cited("triton", "summary").value
    assert any("more memory than FlashAttention" in risk.value for risk in knowledge.get("cudnn").risks)
    assert "a third of the kernel launches" in cited("tensorrt", "fusion").source


# Queries


@pytest.mark.parametrize(
    "family, concern, expected",
    [
        ("nvidia-gpu", "gemm", {"cublas", "cutlass", "triton"}),
        ("nvidia-gpu", "attention", {"flash-attention", "cudnn", "triton"}),
        ("nvidia-gpu", "collectives", {"nccl"}),
        ("nvidia-gpu", "deployment", {"tensorrt", "onnxruntime", "vllm"}),
        ("ascend-npu", "gemm", {"cann-builtin", "ascend-c", "tbe"}),
        ("ascend-npu", "collectives", {"hccl"}),
        ("ascend-npu", "deployment", {"atc-acl"}),
        ("x86-cpu", "gemm", {"onednn"}),
        ("x86-cpu", "deployment", {"openvino", "onnxruntime"}),
        ("cambricon-mlu", "gemm", {"cnnl-bang"}),
        ("hygon-dcu", "gemm", {"dtk-hip"}),
        ("iluvatar-gpu", "gemm", {"corex"}),
    ],
)
def test_candidates_per_hardware_and_concern(knowledge, family, concern, expected):
    assert expected <= set(knowledge.for_hardware(family).for_concern(concern).ids())


def test_queries_exclude_other_hardware(knowledge):
    nvidia_gemm = set(knowledge.for_hardware("nvidia-gpu").for_concern("gemm").ids())
    assert not nvidia_gemm & {"cann-builtin", "tbe", "ascend-c", "onednn"}
    assert "cublas" not in knowledge.for_hardware("ascend-npu").ids()
    assert set(knowledge.for_concern("collectives").ids()) >= {"nccl", "hccl"}


def test_unknown_id_hardware_and_concern_are_one_line_errors(knowledge):
    with pytest.raises(KnowledgeQueryError, match=r"unknown candidate 'cudaa'; known ids: .*cublas"):
        knowledge.get("cudaa")
    with pytest.raises(KnowledgeQueryError, match=r"unknown hardware family 'gpu'; choose one of: nvidia-gpu"):
        knowledge.for_hardware("gpu")
    with pytest.raises(KnowledgeQueryError, match=r"unknown concern 'matmul'"):
        knowledge.for_concern("matmul")


# Malformed files


def _load_error(directory: Path) -> str:
    with pytest.raises(KnowledgeBaseError) as caught:
        load_knowledge_base(directory)
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_a_valid_copy_loads_from_a_directory(tmp_path):
    _write(tmp_path, "cublas.yaml", _valid_document())
    assert load_knowledge_base(tmp_path).ids() == ["cublas"]


def test_unknown_hardware_names_file_and_field(tmp_path):
    document = _valid_document()
    document["hardware"]["value"] = ["nvidia-gpu", "tpu"]
    path = _write(tmp_path, "cublas.yaml", document)
    message = _load_error(tmp_path)
    assert message.startswith(f"{path}: field hardware.value.1: Input should be 'nvidia-gpu'")
    assert "'tpu'" in message


def test_missing_source_names_file_and_field(tmp_path):
    document = _valid_document()
    del document["fusion"]["source"]
    path = _write(tmp_path, "cublas.yaml", document)
    assert _load_error(tmp_path) == f"{path}: field fusion.source: Field required"


@pytest.mark.parametrize(
    "change, field",
    [
        (lambda d: d["layer"].update(source="   "), "field layer.source: Value error, a claim needs a source"),
        (lambda d: d.update(speed="fast"), "field speed: Extra inputs are not permitted"),
        (lambda d: d["int8"].update(value=True), "field int8.value: Input should be 'yes'"),
        (lambda d: d.update(risks=[]), "field risks: List should have at least 1 item"),
        (lambda d: d["concerns"].update(value=["gemm", "gemm"]), "field concerns: Value error, duplicate values"),
        (
            lambda d: d["concerns"].update(value=["gemm", "collectives"]),
            "field concerns: Value error, lists 'collectives' but distributed is not 'yes' or 'partial'",
        ),
    ],
)
def test_malformed_values_name_file_and_field(tmp_path, change, field):
    document = _valid_document()
    change(document)
    path = _write(tmp_path, "cublas.yaml", document)
    assert _load_error(tmp_path).startswith(f"{path}: {field}")


def test_id_must_match_the_file_stem(tmp_path):
    path = _write(tmp_path, "cuda-blas.yaml", _valid_document())
    assert _load_error(tmp_path) == f"{path}: field id: 'cublas' must equal the file stem 'cuda-blas'"


def test_broken_yaml_and_non_mapping_name_the_file(tmp_path):
    path = _write(tmp_path / "a", "cublas.yaml", "id: cublas\nhardware: [nvidia-gpu\n")
    message = _load_error(tmp_path / "a")
    assert message.startswith(f"{path}: not valid YAML (") and "line" in message
    path = _write(tmp_path / "b", "cublas.yaml", "- just\n- a list\n")
    assert _load_error(tmp_path / "b") == f"{path}: expected a mapping of candidate fields, got list"


def test_an_empty_directory_is_an_error(tmp_path):
    assert _load_error(tmp_path) == f"{tmp_path}: no candidate files (*.yaml)"


# CLI


def test_kb_list_table_names_every_candidate(runner, cli):
    result = runner.invoke(cli, ["kb", "list"], env=WIDE)
    assert result.exit_code == 0, result.output
    for candidate_id in EXPECTED_IDS:
        assert re.search(rf"│ {re.escape(candidate_id)}\s+│", result.stdout), candidate_id
    for header in ("id", "name", "layer", "hardware", "skill", "open/closed", "concerns"):
        assert header in result.stdout


def test_kb_list_json_is_the_list_of_candidates(runner, cli, knowledge):
    result = runner.invoke(cli, ["kb", "list", "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert [entry["id"] for entry in document] == knowledge.ids()
    assert Candidate.model_validate(document[0]) == knowledge.candidates[0]


def test_kb_list_filters_by_hardware_and_concern(runner, cli):
    result = runner.invoke(cli, ["kb", "list", "--json", "--hardware", "ascend-npu", "--concern", "gemm"])
    assert result.exit_code == 0, result.output
    assert sorted(entry["id"] for entry in json.loads(result.stdout)) == ["ascend-c", "cann-builtin", "tbe"]
    result = runner.invoke(cli, ["kb", "list", "--hardware", "gpu"])
    assert result.exit_code == 2
    assert result.stderr.strip().startswith("error: unknown hardware family 'gpu'; choose one of:")


def test_kb_show_prints_every_attribute_with_its_source(runner, cli):
    result = runner.invoke(cli, ["kb", "show", "flash-attention"], env=WIDE)
    assert result.exit_code == 0, result.output
    labels = [label for _, label in kb._SHOWN_CLAIMS] + ["risk"]
    for label in labels:
        assert re.search(rf"│ {re.escape(label)}\s+│", result.stdout), label
    assert "O(N^2) to O(N)" in result.stdout
    assert "method.md §4" in result.stdout


def test_kb_show_lists_every_claim_field():
    claim_fields = set(Candidate.model_fields) - {"id", "name", "risks"}
    assert {field for field, _ in kb._SHOWN_CLAIMS} == claim_fields


def test_kb_show_json(runner, cli, knowledge):
    result = runner.invoke(cli, ["kb", "show", "cann-builtin", "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["id"] == "cann-builtin"
    assert document["summary"]["source"] == "method.md §4"
    assert Candidate.model_validate(document) == knowledge.get("cann-builtin")


def test_kb_show_unknown_id_is_a_one_line_error(runner, cli):
    result = runner.invoke(cli, ["kb", "show", "cudaa"])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("error: unknown candidate 'cudaa'; known ids: ")
    assert "cublas" in lines[0] and "vllm" in lines[0]


def test_importing_the_kb_command_stays_light():
    probe = "import sys, advisor.cli.kb; print(sorted(m for m in ('pydantic', 'rich', 'yaml') if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
