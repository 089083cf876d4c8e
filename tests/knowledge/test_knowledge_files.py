"""Reading knowledge roots: malformed files are one-line errors naming the file and field; ids, families
and method anchors named anywhere must exist; ADVISOR_KB_DIR adds to the built-in knowledge."""

from __future__ import annotations

from pathlib import Path

import pytest
from knowledge_builders import candidate_document, claim, platform_document, write_root, write_yaml

from advisor.knowledge.claims import KnowledgeBaseError
from advisor.knowledge.loader import load_knowledge_base


def _root(tmp_path: Path, **candidate_overrides) -> Path:
    return write_root(
        tmp_path,
        [candidate_document("fastblas", ["acme-npu"], ["gemm"], **candidate_overrides)],
        [platform_document("acme-npu", {"gemm": ["fastblas"]})],
    )


def _load_error(root: Path) -> str:
    with pytest.raises(KnowledgeBaseError) as caught:
        load_knowledge_base(root)
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_a_valid_root_loads(tmp_path):
    knowledge = load_knowledge_base(_root(tmp_path))
    assert knowledge.ids() == ["fastblas"]
    assert knowledge.families() == ("acme-npu",)
    assert knowledge.platform("acme-npu").official.preference("gemm") == ("fastblas",)


@pytest.mark.parametrize(
    "change, expected",
    [
        (lambda d: d["layer"].update(source="method.md §4"), "field layer.source: Value error, must be a public URL"),
        (
            lambda d: d["layer"].update(source="the vendor docs"),
            "field layer.source: Value error, must be a public URL",
        ),
        (lambda d: d["fusion"].pop("as_of"), "field fusion.as_of: Field required"),
        (lambda d: d["fusion"].update(as_of="last year"), "field fusion.as_of: Input should be a valid date"),
        (lambda d: d["int8"].update(value="unknown"), "field int8: Value error, an 'unknown' value needs looked_for"),
        (lambda d: d.update(speed="fast"), "field speed: Extra inputs are not permitted"),
        (lambda d: d["int8"].update(value=True), "field int8.value: Input should be 'yes'"),
        (lambda d: d.update(risks=[]), "field risks: List should have at least 1 item"),
        (lambda d: d["concerns"].update(value=["gemm", "gemm"]), "field concerns: Value error, duplicate values"),
        (
            lambda d: d["hardware"].update(value=["Acme NPU"]),
            "field hardware: Value error, 'Acme NPU' is not a hardware family id",
        ),
        (
            lambda d: d["distributed"].update(value="no") or d["concerns"].update(value=["gemm", "collectives"]),
            "field concerns: Value error, lists 'collectives' but distributed is not 'yes' or 'partial'",
        ),
    ],
)
def test_malformed_candidates_name_file_and_field(tmp_path, change, expected):
    root = _root(tmp_path)
    document = candidate_document("fastblas", ["acme-npu"], ["gemm"])
    change(document)
    path = write_yaml(root / "knowledge" / "fastblas.yaml", document)
    assert _load_error(root).startswith(f"{path}: {expected}")


def test_unknown_with_what_was_looked_for_is_accepted(tmp_path):
    looked = "the vendor's INT8 page and the release notes of 2.1"
    root = _root(tmp_path, int8=claim("unknown", looked_for=looked))
    assert load_knowledge_base(root).get("fastblas").int8.looked_for == looked


def test_a_hardware_family_without_a_platform_file_is_refused(tmp_path):
    root = _root(tmp_path)
    path = write_yaml(
        root / "knowledge" / "fastblas.yaml", candidate_document("fastblas", ["acme-npu", "zeta-tpu"], ["gemm"])
    )
    assert _load_error(root).startswith(f"{path}: field hardware: unknown hardware family 'zeta-tpu'; known: acme-npu")


def test_a_platform_naming_an_unknown_candidate_is_refused(tmp_path):
    root = _root(tmp_path)
    path = write_yaml(
        root / "platforms" / "acme-npu.yaml", platform_document("acme-npu", {"gemm": ["fastblas", "slowblas"]})
    )
    assert _load_error(root).startswith(f"{path}: field official.gemm: unknown candidate id 'slowblas'")


def test_a_method_citation_must_name_a_real_section(tmp_path):
    root = _root(tmp_path, risks=[claim("Watch it.", source="method#no-such-section")])
    assert _load_error(root).endswith("field risks[0].source: no method section #no-such-section")


def test_compatibility_ids_must_exist(tmp_path):
    root = _root(tmp_path)
    write_yaml(root / "compatibility.yaml", {"feeds": {"fastblas": claim(["ghost-runtime"])}})
    message = _load_error(root)
    assert message.startswith(f"{root}/compatibility.yaml: field feeds.fastblas: unknown candidate id 'ghost-runtime'")


def test_compatibility_relations_are_read_and_queried(tmp_path):
    candidates = [candidate_document(name, ["acme-npu"], ["gemm"]) for name in ("quantkit", "server", "compiler")]
    compatibility = {
        "quantized_output_loaded_by": {"quantkit": claim(["server"])},
        "attention_kernels": {"server": claim(["quantkit"])},
        "feeds": {"compiler": claim(["server"])},
    }
    root = write_root(tmp_path, candidates, [platform_document("acme-npu", {})], compatibility)
    relations = load_knowledge_base(root).compatibility
    assert relations.loaders_of("quantkit") == ("server",)
    assert relations.toolkits_loaded_by("server") == ("quantkit",)
    assert relations.attention_kernels_of("server") == ("quantkit",)
    assert relations.fed_by("server") == ("compiler",)
    assert relations.loaders_of("compiler") == ()


def test_id_must_match_the_file_stem(tmp_path):
    root = _root(tmp_path)
    path = write_yaml(root / "knowledge" / "fast-blas.yaml", candidate_document("fastblas", ["acme-npu"], ["gemm"]))
    assert _load_error(root) == f"{path}: field id: 'fastblas' must equal the file stem 'fast-blas'"


def test_a_listed_device_must_be_a_device_of_the_candidates_hardware(tmp_path):
    root = _root(tmp_path, devices_listed=claim(["acme-9"]))
    path = root / "knowledge" / "fastblas.yaml"
    assert _load_error(root).startswith(f"{path}: field devices_listed: unknown device of its hardware 'acme-9'")


def test_broken_yaml_and_non_mapping_name_the_file(tmp_path):
    root = _root(tmp_path)
    path = write_yaml(root / "knowledge" / "fastblas.yaml", "id: fastblas\nhardware: [acme-npu\n")
    message = _load_error(root)
    assert message.startswith(f"{path}: not valid YAML (") and "line" in message
    write_yaml(path, "- just\n- a list\n")
    assert _load_error(root) == f"{path}: expected a mapping of fields, got list"


def test_a_root_without_candidates_or_platforms_is_an_error(tmp_path):
    assert _load_error(tmp_path) == f"{tmp_path}/knowledge: no candidate files (*.yaml)"
    write_yaml(tmp_path / "knowledge" / "fastblas.yaml", candidate_document("fastblas", ["acme-npu"], ["gemm"]))
    assert _load_error(tmp_path) == f"{tmp_path}/platforms: no platform files (*.yaml)"


def test_kb_dir_adds_to_the_built_in_knowledge(tmp_path, monkeypatch):
    root = _root(tmp_path)
    monkeypatch.setenv("ADVISOR_KB_DIR", str(root))
    knowledge = load_knowledge_base()
    assert "fastblas" in knowledge.ids() and "cublas" in knowledge.ids()
    assert "acme-npu" in knowledge.families() and "nvidia-gpu" in knowledge.families()
    monkeypatch.delenv("ADVISOR_KB_DIR")
    assert "fastblas" not in load_knowledge_base().ids()


def test_kb_dir_that_is_not_a_directory_is_a_one_line_error(tmp_path, monkeypatch):
    monkeypatch.setenv("ADVISOR_KB_DIR", str(tmp_path / "missing"))
    with pytest.raises(KnowledgeBaseError, match=r"^ADVISOR_KB_DIR=.*missing: not a directory$"):
        load_knowledge_base()


def test_an_attention_order_must_name_an_architecture_of_a_listed_device(tmp_path):
    candidates = [candidate_document(name, ["acme-npu"], ["gemm"]) for name in ("server", "fastattn")]
    platform = platform_document("acme-npu", {})
    platform["default_device"] = claim("acme-9")
    platform["devices"] = [
        {
            "id": "acme-9",
            "name": "Acme 9",
            "generation": "Nine",
            "architecture": "acme9",
            "formats": ["bf16"],
            "spec": claim("64 GB, bf16 matrix units"),
        }
    ]
    compatibility = {
        "attention_kernels": {"server": claim(["fastattn"])},
        "attention_first_on": {"server": claim(["fastattn/acme9", "fastattn/acme10"])},
    }
    root = write_root(tmp_path, candidates, [platform], compatibility)
    assert _load_error(root).startswith(
        f"{root}/compatibility.yaml: field attention_first_on.server: unknown device architecture 'acme10'; known: acme9"
    )
    compatibility["attention_first_on"] = {"server": claim(["fastattn/acme9"])}
    root = write_root(tmp_path / "fixed", candidates, [platform], compatibility)
    assert load_knowledge_base(root).compatibility.attention_first("server", "acme9") == "fastattn"
