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
