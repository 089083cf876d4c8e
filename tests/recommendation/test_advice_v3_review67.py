"""Review 66's remaining defects and reviews 67 and 68's, each pinned."""

from __future__ import annotations

from recommendation_builders import answer_for as answer

from advisor.knowledge.loader import load_knowledge_base


def test_an_engine_whose_page_leaves_the_device_untested_says_so():
    # Review 66 p01: Qwen3-30B-A3B FP8 on an RTX PRO 6000 Server took TensorRT-LLM's Qwen3 guide without saying that
    # TensorRT-LLM's supported-hardware page (https://nvidia.github.io/TensorRT-LLM/supported-hardware.html) lists no
    # RTX Blackwell card, which its support matrix leaves to community support.
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="rtx-pro-6000-server",
        workload="inference",
        model="Qwen/Qwen3-30B-A3B-FP8",
        needs={"quantization": "fp8"},
    )
    chosen = next(row for row in result.stacks_considered if row.chosen)
    assert chosen.stack == "nvidia-trtllm-qwen3-bf16"
    assert "supported-hardware page does not list NVIDIA RTX PRO 6000" in chosen.reason
    assert "community support only" in result.verdict
    on_listed = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="h200-sxm",
        workload="inference",
        model="Qwen/Qwen3-30B-A3B-FP8",
        needs={"quantization": "fp8"},
    )
    assert "supported-hardware page" not in on_listed.verdict


def test_a_device_list_is_read_for_its_own_family_only():
    trtllm = load_knowledge_base().get("tensorrt-llm")
    assert trtllm.leaves_untested("rtx-5090", ["b200", "rtx-5090"])
    assert not trtllm.leaves_untested("b200", ["b200", "rtx-5090"])
    assert not trtllm.leaves_untested("mi300x", ["mi300x"])  # its list names no device of that family
