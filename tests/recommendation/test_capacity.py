"""The memory check: does the model fit the profile's devices, and what would where it does not."""

from __future__ import annotations

import yaml
from recommendation_builders import answer_for as answer

from advisor.profile import parse_profile
from advisor.recommendation.capacity import model_parameters_b
from advisor.recommendation.summary import summary_lines


def size(**fields: object) -> float | None:
    profile = {"model_type": "dense-transformer", "hardware": "nvidia-gpu", "workload": "inference", **fields}
    return model_parameters_b(parse_profile(yaml.safe_dump({"team_skill": "framework", **profile})))


def test_the_size_is_given_or_read_from_the_models_id():
    assert size(parameters_b=72) == 72
    assert size(model="Qwen/Qwen2.5-72B-Instruct") == 72
    assert size(model="Qwen/Qwen3-235B-A22B") == 235  # a MoE's total, which is what memory holds
    assert size(model="meta-llama/Llama-3.1-8B") == 8
    assert size(model="Qwen/Qwen2.5-1.5B") == 1.5
    assert size(model="deepseek-ai/DeepSeek-V3") == 671  # its id states no size: its model card, catalogued
    assert size(model="acme/Unnamed-Chat") is None  # neither catalogued nor sized in its id
    assert size(model="/models/llama/config.json") is None
    assert size(parameters_b=70, model="Qwen/Qwen2.5-72B-Instruct") == 70  # the profile's own figure first


def test_full_sft_of_a_72b_model_does_not_fit_one_node_of_64_gb_devices():
    # ZeRO (https://arxiv.org/abs/1910.02054, section 3.1): mixed-precision Adam holds 16 bytes per parameter; the
    # 910B has 64 GB (Huawei's Atlas 800T A2 spec), so 8 of them hold 512 GB against 72 x 16 = 1,152 GB.
    result = answer(
        model_type="dense-transformer",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="both",
        parameters_b=72,
        needs={"quantization": "int8", "devices": 8},
    )
    training, serving = (reason.text for reason in result.capacity)
    assert "holds about 1,152 GB" in training and "more than the 461 GB usable (90%) of the 512 GB on 8 x" in training
    assert (
        "at least 3 nodes of 8 (24 devices; the profile names 8)" in training
        and "LoRA" in training
        and "144 GB in bf16" in training
    )
    assert "weights take about 72 GB in int8" in serving and "leaving about 389 GB for the KV cache" in serving
    assert {cite.ref for cite in result.capacity[0].cites} == {"parameters_b", "needs.devices"}
    assert training in summary_lines(result)


def test_serving_a_model_larger_than_the_devices_says_how_many_it_needs():
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="inference",
        model="meta-llama/Llama-3.1-405B-Instruct",
        needs={"devices": 8},
    )
    (serving,) = (reason.text for reason in result.capacity)
    # 405B in bf16 is 810 GB; 90% of 8 x 80 GB is 576 GB; 810 / 72 GB per device = 11.25, so 12 devices
    assert "810 GB in bf16" in serving and "it needs at least 12 such devices or a lower precision" in serving
    assert result.capacity[0].cites[0].ref == "model"


def test_no_size_or_no_memory_means_no_claim():
    unsized = answer(model_type="moe", hardware="nvidia-gpu", device="b200", workload="inference")
    assert unsized.capacity == ()


def test_a_model_that_fits_a_few_devices_asks_replicas_or_one_split():
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="inference",
        parameters_b=8,
        needs={"devices": 8, "quantization": "fp8"},
    )
    (serving,) = (reason.text for reason in result.capacity)
    assert "8 GB in fp8" in serving and "8 replicas of 1 (data parallel)" in serving
    big = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="inference",
        parameters_b=70,
        needs={"devices": 8},
    )
    (split,) = (reason.text for reason in big.capacity)  # 140 GB: half of 4 x 72 GB holds it, so 2 replicas of 4
    assert "2 replicas of 4" in split


def test_an_mla_model_under_tensor_parallelism_is_told_its_kv_cache_is_held_whole_on_every_device():
    # SGLang's DP attention exists because tensor parallelism duplicates an MLA model's KV cache on every rank
    # (https://docs.sglang.io/docs/basic_usage/deepseek_v3); review 18 saw the record count 625 GB of KV cache on 8 B200s.
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="b200",
        workload="inference",
        model="deepseek-ai/DeepSeek-V3",
        parameters_b=671,
        needs={"devices": 8, "quantization": "fp8"},
    )
    (serving,) = (reason.text for reason in result.capacity)
    assert "671 GB in fp8" in serving and "keeps the whole latent KV cache on every device" in serving


def test_a_job_that_does_not_fit_its_usable_memory_says_so_with_the_usable_figure():
    # Review 22 (p02): 671B x 16 B = 10,736 GB against 64 x 180 GB = 11,520 GB, of which 90% (10,368 GB) is usable:
    # the line must compare against the usable figure, not read "10,736 GB, more than 11,520 GB".
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="b200",
        workload="training",
        parameters_b=671,
        needs={"quantization": "fp8", "devices": 64},
    )
    training = result.capacity[0].text
    assert "about 10,736 GB" in training and "more than the 10,368 GB usable (90%) of the 11,520 GB" in training
    assert "at least 9 nodes of 8 (72 devices; the profile names 64)" in training
