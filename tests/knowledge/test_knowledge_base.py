"""The shipped knowledge base: 49 candidates, every claim sourced and dated, queries, and `advisor kb`."""

from __future__ import annotations

import datetime as dt
import json
import re
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest
import yaml

from advisor.cli import app
from advisor.knowledge.claims import CONCERNS, LAYERS, is_url, method_anchor
from advisor.knowledge.loader import load_knowledge_base
from advisor.knowledge.method import method_anchors
from advisor.knowledge.models import Candidate, KnowledgeQueryError
from advisor.vocabulary import TEAM_SKILLS

ORIGINAL_IDS = {
    "cublas",
    "cudnn",
    "cutlass",
    "triton",
    "flash-attention",
    "tensorrt",
    "torch-compile",
    "onnxruntime",
    "onednn",
    "openvino",
    "cann-builtin",
    "tbe",
    "ascend-c",
    "atc-acl",
    "cnnl-bang",
    "dtk-hip",
    "corex",
    "nccl",
    "hccl",
    "torchao",
    "vllm",
}
ADDED_IDS = {
    "miopen",
    "tensorrt-llm",
    "sglang",
    "flashinfer",
    "transformer-engine",
    "megatron-core",
    "modelopt",
    "llm-compressor",
    "flex-attention",
    "deepep",
    "mindie",
    "mindspeed",
    "msmodelslim",
    "torch-npu",
    "arm-compute-library",
    "llama-cpp",
    "hipblaslt",
    "composable-kernel",
    "aiter",
    "rccl",
    "migraphx",
    "synapseai",
    "xla",
    "pallas",
    "neuron-sdk",
    "mlx",
    "coreml",
    "quark",
    "magicmind",
    "maxtext",
    "torchtitan",
    "executorch",
    "litert",
    "cncl",
    "ixccl",
    "mori",
    "mflux",
    "coreai",
    "text-embeddings-inference",
    "kleidiai",
    "maxdiffusion",
    "diffusers",
    "whisper-cpp",
    "xdit",
    "verl",
    "llama-factory",
    "faster-whisper",
    "transformers",
    "xllm",  # JD's xLLM, the engine documented for Qwen VL models on Cambricon MLUs
    "ms-swift",  # ModelScope's fine-tuning framework, with Ascend LoRA examples written for Qwen3-32B
    "draw-things",  # Draw Things' Swift engine and MediaGenerationKit, the documented in-app route for FLUX.1
    "nemo-automodel",  # NVIDIA's Hugging Face-native training library (FSDP2 + TP), the runner of its H100 LoRA stack
}
KNOWLEDGE_DIR = Path(str(resources.files("advisor.data") / "knowledge"))
WIDE = {"COLUMNS": "220"}


@pytest.fixture(scope="module")
def knowledge():
    return load_knowledge_base()


# The shipped data


def test_every_candidate_is_present_once(knowledge):
    assert len(ADDED_IDS) == 52
    assert sorted(knowledge.ids()) == sorted(ORIGINAL_IDS | ADDED_IDS)


def test_file_stems_are_the_ids():
    stems = {path.stem for path in KNOWLEDGE_DIR.glob("*.yaml")}
    assert stems == ORIGINAL_IDS | ADDED_IDS
    for path in KNOWLEDGE_DIR.glob("*.yaml"):
        assert yaml.safe_load(path.read_text(encoding="utf-8"))["id"] == path.stem


def test_the_built_in_knowledge_base_is_cached(knowledge):
    assert load_knowledge_base() is knowledge


def test_every_claim_has_a_url_or_a_method_anchor_and_a_date(knowledge):
    anchors = method_anchors()
    claims = [
        (owner.id, field, claim)
        for owner in (*knowledge.candidates, *knowledge.platforms)
        for field, claim in owner.claims().items()
    ]
    assert len(claims) > 1000
    for owner, field, claim in claims:
        anchor = method_anchor(claim.source)
        assert is_url(claim.source) or anchor in anchors, (owner, field, claim.source)
        assert dt.date(2026, 1, 1) <= claim.as_of <= dt.date.today(), (owner, field, claim.as_of)
        if claim.value == "unknown":
            assert claim.looked_for and len(claim.looked_for) > 20, (owner, field)
    urls = sum(1 for _, _, claim in claims if is_url(claim.source))
    assert urls / len(claims) > 0.75  # the method is the exception, vendor documents the rule


def test_no_claim_cites_a_file_the_user_cannot_open():
    for path in KNOWLEDGE_DIR.glob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        assert "method.md §" not in text and "seed " not in text, path.name


def test_vocabulary_values(knowledge):
    families = set(knowledge.families())
    for candidate in knowledge.candidates:
        assert set(candidate.hardware.value) <= families, candidate.id
        assert candidate.skill.value in TEAM_SKILLS, candidate.id
        assert candidate.layer.value in LAYERS, candidate.id
        assert set(candidate.concerns.value) <= set(CONCERNS), candidate.id


def test_method_facts_are_cited_with_their_section(knowledge):
    def claim(candidate_id: str, field: str):
        return knowledge.get(candidate_id).claims()[field]

    # cuDNN's attention risk now rests on Transformer Engine's attention guide, not on the method
    assert claim("cudnn", "risks[0]").source.startswith("https://github.com/NVIDIA/TransformerEngine/")
    assert claim("flash-attention", "risks[0]").source == "method#flash-attention"
    for collective in ("nccl", "hccl", "rccl"):
        assert any("strong-scaling" in risk.value for risk in knowledge.get(collective).risks), collective


def test_stale_points_of_the_issue_are_corrected(knowledge):
    assert "amd-gpu" in knowledge.get("flash-attention").hardware.value
    assert {"amd-gpu", "ascend-npu"} <= set(knowledge.get("triton").hardware.value)
    assert {"ascend-npu", "google-tpu", "intel-gaudi", "aws-neuron", "cambricon-mlu", "amd-gpu"} <= set(
        knowledge.get("vllm").hardware.value
    )
    assert {"x86-cpu", "arm-cpu"} <= set(knowledge.get("torchao").hardware.value)
    assert knowledge.get("cudnn").fp8.value == "yes"
    assert knowledge.get("tensorrt").ptq.value == "partial"
    assert "arm-cpu" in knowledge.get("onednn").hardware.value
    assert knowledge.get("hccl").openness.value in ("open", "mixed")
    assert knowledge.get("cutlass").skill.value == "kernel" and "CuTe DSL" in (
        knowledge.get("cutlass").skill.note or ""
    )
    assert knowledge.platform("ascend-npu").dynamic_shapes.value != "no"


def test_serving_engines_are_limited_to_the_models_they_serve(knowledge):
    for engine in ("vllm", "sglang", "tensorrt-llm", "mindie", "llama-cpp"):
        assert not knowledge.get(engine).serves_model_type("cnn"), engine
    assert knowledge.get("cublas").serves_model_type("cnn")


def test_compatibility_facts(knowledge):
    relations = knowledge.compatibility
    assert set(relations.loaders_of("modelopt")) >= {"tensorrt-llm", "vllm", "sglang"}
    assert relations.loaders_of("llm-compressor") == (
        "vllm",
        "sglang",
        "tensorrt-llm",
    )  # TRT-LLM PR 15415: FP8 compressed-tensors
    # SGLang's Ascend build loads ModelSlim output (--quantization modelslim):
    # https://docs.sglang.io/docs/hardware-platforms/ascend-npus/ascend_npu_quantization
    assert set(relations.loaders_of("msmodelslim")) == {"mindie", "vllm", "sglang"}
    assert "modelopt" in relations.toolkits_loaded_by("tensorrt-llm")
    assert "flashinfer" in relations.attention_kernels_of("sglang")
    assert "torch-compile" in relations.fed_by("triton")


# Queries


@pytest.mark.parametrize(
    "family, concern, expected",
    [
        ("nvidia-gpu", "gemm", {"cublas", "cutlass", "triton"}),
        ("nvidia-gpu", "attention", {"flash-attention", "cudnn", "triton", "flashinfer"}),
        ("nvidia-gpu", "collectives", {"nccl", "deepep"}),
        ("nvidia-gpu", "deployment", {"tensorrt", "tensorrt-llm", "vllm", "sglang"}),
        ("amd-gpu", "gemm", {"hipblaslt", "composable-kernel"}),
        ("amd-gpu", "collectives", {"rccl"}),
        ("ascend-npu", "gemm", {"cann-builtin", "ascend-c"}),
        ("ascend-npu", "collectives", {"hccl"}),
        ("ascend-npu", "deployment", {"atc-acl", "mindie", "vllm"}),
        ("x86-cpu", "gemm", {"onednn"}),
        ("x86-cpu", "deployment", {"openvino", "onnxruntime"}),
        ("arm-cpu", "gemm", {"onednn", "arm-compute-library"}),
        ("google-tpu", "attention", {"pallas"}),
        ("aws-neuron", "gemm", {"neuron-sdk"}),
        ("intel-gaudi", "gemm", {"synapseai"}),
        ("apple-silicon", "deployment", {"coreml", "mlx"}),
        ("cambricon-mlu", "gemm", {"cnnl-bang"}),
        ("hygon-dcu", "gemm", {"dtk-hip"}),
        ("iluvatar-gpu", "gemm", {"corex"}),
        ("cambricon-mlu", "collectives", {"cncl"}),
        ("hygon-dcu", "collectives", {"rccl"}),
        ("iluvatar-gpu", "collectives", {"ixccl"}),
    ],
)
def test_candidates_per_hardware_and_concern(knowledge, family, concern, expected):
    assert expected <= set(knowledge.for_hardware(family).for_concern(concern).ids())


def test_queries_exclude_other_hardware(knowledge):
    nvidia_gemm = set(knowledge.for_hardware("nvidia-gpu").for_concern("gemm").ids())
    assert not nvidia_gemm & {"cann-builtin", "ascend-c", "onednn", "hipblaslt"}
    assert "cublas" not in knowledge.for_hardware("ascend-npu").ids()


def test_unknown_id_hardware_and_concern_are_one_line_errors(knowledge):
    with pytest.raises(KnowledgeQueryError, match=r"unknown candidate 'cudaa'; known ids: .*cublas"):
        knowledge.get("cudaa")
    with pytest.raises(KnowledgeQueryError, match=r"unknown hardware family 'gpu'; choose one of: .*nvidia-gpu"):
        knowledge.for_hardware("gpu")
    with pytest.raises(KnowledgeQueryError, match=r"unknown concern 'matmul'"):
        knowledge.for_concern("matmul")


# CLI


def test_kb_list_table_names_every_candidate(runner):
    result = runner.invoke(app, ["kb", "list"], env=WIDE)
    assert result.exit_code == 0, result.output
    assert f"Candidate operator stacks ({len(ORIGINAL_IDS | ADDED_IDS)})" in result.stdout
    for candidate_id in ORIGINAL_IDS | ADDED_IDS:
        assert re.search(rf"│ {re.escape(candidate_id)}\s+│", result.stdout), candidate_id


def test_kb_list_json_is_the_list_of_candidates(runner, knowledge):
    result = runner.invoke(app, ["kb", "list", "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert [entry["id"] for entry in document] == knowledge.ids()
    assert Candidate.model_validate(document[0]) == knowledge.candidates[0]


def test_kb_list_filters_by_hardware_and_concern(runner):
    result = runner.invoke(app, ["kb", "list", "--json", "--hardware", "ascend-npu", "--concern", "collectives"])
    assert result.exit_code == 0, result.output
    assert {entry["id"] for entry in json.loads(result.stdout)} == {"hccl", "mindspeed", "torch-npu", "verl"}
    result = runner.invoke(app, ["kb", "list", "--hardware", "gpu"])
    assert result.exit_code == 2
    assert result.stderr.strip().startswith("error: unknown hardware family 'gpu'; choose one of:")


def test_kb_show_prints_every_claim_with_source_and_date(runner, knowledge):
    result = runner.invoke(app, ["kb", "show", "flash-attention"], env=WIDE)
    assert result.exit_code == 0, result.output
    for field in knowledge.get("flash-attention").claims():
        assert re.search(rf"│ {re.escape(field)}\s+│", result.stdout), field
    assert "https://github.com/Dao-AILab/flash-attention" in result.stdout
    assert "2026-12-01" in result.stdout and "method#flash-attention" in result.stdout


def test_kb_show_json_has_the_hardware_families(runner, knowledge):
    result = runner.invoke(app, ["kb", "show", "vllm", "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert isinstance(document["hardware"]["value"], list)
    assert set(document["hardware"]["value"]) <= set(knowledge.families())
    assert document["hardware"]["as_of"] == "2026-12-02" and document["hardware"]["source"].startswith("https://")
    assert Candidate.model_validate(document) == knowledge.get("vllm")


def test_kb_show_unknown_id_is_a_one_line_error(runner):
    result = runner.invoke(app, ["kb", "show", "cudaa"])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: unknown candidate 'cudaa'; known ids: ")


def test_kb_platforms_and_platform(runner, knowledge):
    result = runner.invoke(app, ["kb", "platforms", "--json"])
    assert [p["id"] for p in json.loads(result.stdout)] == list(knowledge.families())
    result = runner.invoke(app, ["kb", "platform", "ascend-npu"], env=WIDE)
    assert result.exit_code == 0, result.output
    assert "official.gemm" in result.stdout and "cann-builtin" in result.stdout
    result = runner.invoke(app, ["kb", "platform", "tpu"])
    assert result.exit_code == 2 and "unknown hardware family 'tpu'" in result.stderr


def test_kb_method_prints_a_section(runner):
    result = runner.invoke(app, ["kb", "method", "method#cann-static-shapes"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("#### Static shapes on Ascend") and "static shapes" in result.stdout
    result = runner.invoke(app, ["kb", "method", "nowhere"])
    assert result.exit_code == 2 and "no method section 'nowhere'" in result.stderr


def test_kb_check_judges_files_one_by_one(runner, tmp_path):
    good = KNOWLEDGE_DIR / "cublas.yaml"
    bad = tmp_path / "knowledge" / "cublas.yaml"
    bad.parent.mkdir()
    bad.write_text(
        good.read_text().replace("source: https://docs.nvidia.com/cuda/cublas/index.html", "source: the cuBLAS docs", 1)
    )
    result = runner.invoke(app, ["kb", "check", str(good), str(bad)])
    assert result.exit_code == 1
    assert (
        result.stderr.strip()
        == f"{bad}: field summary.source: Value error, must be a public URL (https://...) or a method section (method#anchor) (got 'the cuBLAS docs')"
    )
    assert runner.invoke(app, ["kb", "check", str(good)]).stdout.strip() == "1 file(s) sound"


def test_importing_the_kb_command_stays_light():
    probe = "import sys, advisor.cli.kb; print(sorted(m for m in ('pydantic', 'rich', 'yaml') if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
