"""Compatibility relations: a family entry may name the one model type its loader takes ('intel-gaudi/dense-transformer'),
and a qualifier that names no model type is refused."""

from __future__ import annotations

import datetime as dt

import pytest
from pydantic import ValidationError

from advisor.knowledge.compatibility import Compatibility

CHECKED = dt.date(2026, 12, 5)


def families(*entries: str) -> Compatibility:
    claim = {"value": list(entries), "source": "https://example.org/loader", "as_of": CHECKED}
    return Compatibility(quantized_output_families={"modelopt": claim})


def test_a_qualified_family_counts_only_for_its_model_type():
    relation = families("nvidia-gpu", "intel-gaudi/dense-transformer")
    assert relation.output_families("modelopt", "dense-transformer") == ("nvidia-gpu", "intel-gaudi")
    assert relation.output_families("modelopt", "moe") == ("nvidia-gpu",)
    assert relation.output_families("modelopt") == ("nvidia-gpu", "intel-gaudi")
    assert relation.referenced_families() == {"quantized_output_families.modelopt": ["nvidia-gpu", "intel-gaudi"]}


def test_a_qualifier_that_names_no_model_type_is_refused():
    with pytest.raises(ValidationError, match="names no model type"):
        families("intel-gaudi/dense")


def attention_order(*first: str, kernels: tuple[str, ...] = ("cudnn", "flash-attention")) -> Compatibility:
    claim = {"value": list(kernels), "source": "https://example.org/attention", "as_of": CHECKED}
    order = {"value": list(first), "source": "https://example.org/attention", "as_of": CHECKED}
    return Compatibility(
        attention_kernels={"transformer-engine": claim}, attention_first_on={"transformer-engine": order}
    )


def test_the_kernel_tried_first_is_read_per_architecture():
    relation = attention_order("flash-attention/sm_80", "cudnn/sm_90")
    assert relation.attention_first("transformer-engine", "sm_80") == "flash-attention"
    assert relation.attention_first("transformer-engine", "sm_90") == "cudnn"
    assert relation.attention_first("transformer-engine", "sm_120") is None  # not listed: the order it states stands
    assert relation.attention_first("vllm", "sm_90") is None
    assert relation.referenced_architectures() == {"attention_first_on.transformer-engine": ["sm_80", "sm_90"]}
    assert relation.referenced_ids()["attention_first_on.transformer-engine"] == [
        "transformer-engine",
        "flash-attention",
        "cudnn",
    ]


def test_a_first_kernel_needs_an_architecture_and_must_be_one_the_host_runs():
    with pytest.raises(ValidationError, match="names no architecture"):
        attention_order("cudnn")
    with pytest.raises(ValidationError, match="'flashinfer' is not among its attention_kernels"):
        attention_order("flashinfer/sm_90")
