"""A chosen training stack's own long-sequence page is quoted for the training framework, as a serving stack's is for
deployment (review 41 p11: long_context on Trn2 pre-training went unanswered)."""

from __future__ import annotations

import yaml

from advisor.knowledge.loader import load_knowledge_base
from advisor.profile import parse_profile
from advisor.recommendation.engine import recommend
from advisor.recommendation.models import Recommendation


def answer(device: str, long_context: bool) -> Recommendation:
    profile = {
        "model_type": "dense-transformer",
        "hardware": "aws-neuron",
        "device": device,
        "workload": "training",
        "training": "pretraining",
        "team_skill": "hpc",
        "model": "meta-llama/Llama-3.1-8B",
        "needs": {"long_context": long_context, "devices": 32},
    }
    return recommend(parse_profile(yaml.safe_dump(profile)), [], load_knowledge_base())


def framework_reasons(result: Recommendation) -> list[tuple[str, list[str]]]:
    choice = next(c for c in result.tier(1).choices if c.concern == "training-framework")
    return [(reason.text, [cite.ref for cite in reason.cites]) for reason in choice.rationale]


def test_the_chosen_training_stacks_long_context_claim_is_quoted():
    result = answer("trn2", long_context=True)
    chosen = result.stacks[0]
    quoted = [(text, refs) for text, refs in framework_reasons(result) if text.startswith("long context:")]
    assert quoted, framework_reasons(result)
    assert f"{chosen.stack}.long_context" in quoted[0][1]


def test_no_long_context_reason_where_none_is_asked():
    reasons = framework_reasons(answer("trn2", long_context=False))
    assert not any(text.startswith("long context:") for text, _ in reasons), reasons
