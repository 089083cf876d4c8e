"""A record's knowledge digests cover every candidate its tier 1 relies on, also those named in a setting."""

from __future__ import annotations

import yaml

from advisor.knowledge.audit import knowledge_snapshot
from advisor.knowledge.loader import load_knowledge_base
from advisor.profile import parse_profile
from advisor.recommendation.engine import recommend
from advisor.records.decision import named_options


def test_the_expert_all_to_all_library_named_in_a_setting_is_digested_for_the_yearly_review():
    knowledge = load_knowledge_base()
    profile = {"model_type": "moe", "hardware": "nvidia-gpu", "device": "b200", "workload": "training",
               "team_skill": "hpc", "needs": {"devices": 64}}
    result = recommend(parse_profile(yaml.safe_dump(profile)), [], knowledge)
    collectives = next(c for c in result.tier(1).choices if c.concern == "collectives")
    assert collectives.settings.get("expert-all-to-all") == "deepep"
    snapshot = knowledge_snapshot(knowledge, named_options(result))
    assert "deepep" in snapshot and collectives.option in snapshot
    assert all(option in set(knowledge.ids()) for option in snapshot)
