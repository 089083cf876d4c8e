"""A recipe laid out across several hosts is no misfit for a job that spans hosts inside one interconnect domain.

NVIDIA's Dynamo guide for SGLang wide EP on GB200 launches across 4-GPU GB200 nodes of an NVL72 rack
(https://github.com/ai-dynamo/dynamo/blob/119290c3fbe7806e738d9bcd50af60e8f240fb29/docs/backends/sglang/dsr1-wideep-gb200.md).
"""

from __future__ import annotations

import yaml

from advisor.knowledge.loader import load_knowledge_base
from advisor.profile import parse_profile
from advisor.recommendation.stack_choice import host_size, node_size, scale_misfits


def profile(devices: int):
    fields = {
        "model_type": "moe",
        "hardware": "nvidia-gpu",
        "device": "gb200",
        "workload": "inference",
        "team_skill": "hpc",
        "needs": {"quantization": "fp8", "devices": devices},
    }
    return parse_profile(yaml.safe_dump(fields))


def test_a_host_is_smaller_than_the_nvlink_domain_on_gb200_and_the_same_elsewhere():
    platform = load_knowledge_base().platform("nvidia-gpu")
    assert (host_size(platform.device("gb200")), node_size(platform.device("gb200"))) == (4, 72)
    assert host_size(platform.device("b200")) == node_size(platform.device("b200"))


def test_a_multi_node_recipe_fits_a_job_over_several_trays_but_not_one_tray():
    knowledge = load_knowledge_base()
    device = knowledge.platform("nvidia-gpu").device("gb200")
    scope = knowledge.stack("nvidia-sglang-deepseek-pd-ep-gb200").applies_to
    assert scale_misfits(scope, profile(16), device) == []
    assert [m.kind for m in scale_misfits(scope, profile(4), device)] == ["scale"]
