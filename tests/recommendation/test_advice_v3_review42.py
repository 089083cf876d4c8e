"""Review 42's defects, each pinned."""

from __future__ import annotations

from recommendation_builders import answer_for as answer

QWEN25_VL_7B_W8A8_ON_ONE_A2 = {
    "model_type": "multimodal",
    "hardware": "ascend-npu",
    "device": "ascend-910b",
    "workload": "inference",
    "model": "Qwen/Qwen2.5-VL-7B-Instruct",
    "needs": {"quantization": "int8", "quantization_method": "ptq", "devices": 1},
}


def test_a_stacks_own_vision_language_recipe_replaces_another_toolkits_rule_of_thumb():
    # Review 42 p05: Qwen2.5-VL-7B W8A8 on Atlas A2 was told to keep the vision encoder in float "as LLM Compressor's
    # examples do", while msModelSlim's own Qwen2.5-VL script quantizes the vision blocks' linear layers and keeps only
    # the merger MLP and the down projections in float
    # (https://github.com/Ascend/msmodelslim/blob/master/example/multimodal_vlm/Qwen2.5-VL/quant_qwen2_5vl.py).
    result = answer(**QWEN25_VL_7B_W8A8_ON_ONE_A2)
    # MindIE's W8A8 route serves the same script's --mindie_format output
    # (https://github.com/Ascend/MindIE-LLM/blob/v3.0.0/docs/zh/user_guide/model_support_list.md)
    assert result.stacks[0].stack == "ascend-mindie-qwen25vl-w8a8"
    quantization = next(c for c in result.tiers[0].choices if c.concern == "quantization")
    assert quantization.option == "msmodelslim"
    assert not any("keep the vision encoder" in reason.text for reason in quantization.rationale)
    assert "quant_qwen2_5vl.py" in quantization.settings["as documented"]
    assert any(cite.ref.startswith("compatibility.") for reason in quantization.rationale for cite in reason.cites)


def test_the_rule_of_thumb_stays_where_the_stack_names_no_recipe_of_its_own():
    # InternVL3 in INT8 on Atlas A3 has no documented INT8 recipe (vllm-ascend's dense-VL tutorial is BF16 on A2/A3,
    # https://docs.vllm.ai/projects/ascend/en/latest/tutorials/models/Qwen-VL-Dense/, and msModelSlim's W8A8 practice
    # covers Qwen3-VL, review 68 p06): the general advice still applies.
    result = answer(
        model_type="multimodal",
        hardware="ascend-npu",
        device="ascend-910c",
        workload="inference",
        model="OpenGVLab/InternVL3-38B",
        needs={"quantization": "int8", "quantization_method": "ptq", "devices": 2},
    )
    assert result.stacks[0].stack != "ascend-vllm-ascend-qwen25vl-w8a8"
    quantization = next(c for c in result.tiers[0].choices if c.concern == "quantization")
    assert any("keep the vision encoder" in reason.text for reason in quantization.rationale)
