"""The model-size catalogue (advisor/data/models.yaml): sourced sizes for ids that state none, or only the active one."""

from __future__ import annotations

import datetime as dt

import pytest
import yaml
from pydantic import ValidationError

from advisor.knowledge.model_sizes import ModelSize, model_sizes, size_of
from advisor.profile import parse_profile
from advisor.recommendation.capacity import model_parameters_b, size_citation


def profile(model: str, **extra: object):
    fields = {"model_type": "moe", "hardware": "nvidia-gpu", "workload": "inference", "team_skill": "framework"}
    return parse_profile(yaml.safe_dump({**fields, "model": model, **extra}))


def test_every_entry_has_a_public_source_and_a_unique_id():
    ids = [entry.id for entry in model_sizes()]
    assert len(ids) == len(set(ids)) and ids
    assert all(entry.source.startswith("https://") for entry in model_sizes())


def test_a_catalogued_model_is_sized_from_its_card_before_its_id():
    # Llama 4 Scout's id states its active 17B; its card gives 109B in total (review 30: a known 1T Kimi model was
    # "not checked").
    assert model_parameters_b(profile("meta-llama/Llama-4-Scout-17B-16E-Instruct")) == 109
    assert model_parameters_b(profile("moonshotai/Kimi-K2-Thinking")) == 1000
    cite = size_citation(profile("moonshotai/Kimi-K2-Thinking"))
    assert cite.kind == "knowledge" and cite.figure == "1000B, 32B active" and cite.source.startswith("https://")


def test_a_longer_id_is_matched_before_the_one_it_extends_and_a_profile_size_wins():
    entry = size_of("zai-org/GLM-4.5-Air-FP8")
    assert entry is not None and entry.parameters_b == 106
    assert model_parameters_b(profile("zai-org/GLM-4.5-Air", parameters_b=100)) == 100
    assert model_parameters_b(profile("Qwen/Qwen3-32B")) == 32  # not catalogued: the size its id states
    assert size_of("acme/unknown-model") is None


def test_an_entry_without_a_public_source_is_refused():
    with pytest.raises(ValidationError, match="not a public URL"):
        ModelSize(id="acme/model", parameters_b=1, source="our wiki", as_of=dt.date(2026, 12, 4))
