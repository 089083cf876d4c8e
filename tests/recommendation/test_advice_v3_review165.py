"""Regression tests for the defects reviews 163-166 found (issue 28, advice v3), each against the vendor page cited."""

from __future__ import annotations

from recommendation_builders import answer_for as answer
from recommendation_builders import answer_without, choice, chosen_stack, considered, list_switch_holds, profile

QWEN_VL_PHONE = {
    "model_type": "multimodal",
    "hardware": "arm-cpu",
    "device": "armv9-mobile-sme2",
    "workload": "inference",
    "team_skill": "kernel",
    "model": "Qwen/Qwen2.5-VL-3B-Instruct",
    "needs": {"quantization": "int4", "quantization_method": "qat", "devices": 1, "in_app": True},
}


def test_a_qwen_vision_language_model_on_a_phone_takes_mnn_with_its_own_export_not_gemma_files():
    # Review 163 p15: Qwen2.5-VL-3B on an SME2 phone took LiteRT-LM with Google's Gemma files; MNN's exporter maps
    # qwen2_5_vl (https://github.com/alibaba/MNN/blob/4d40bdbd7efb73a58383bb5da867a6f41eb1776e/docs/transformers/llm.md)
    result = answer(**QWEN_VL_PHONE)
    assert chosen_stack(result) == "arm-mnn-kleidiai-qwen2-vl-android"
    fusion = choice(result, "fusion")
    assert "Qwen/Qwen2.5-VL-3B-Instruct in place of Qwen/Qwen2-VL-2B-Instruct" in fusion.settings["model"]


def test_a_qat_ask_on_a_stack_part_no_entry_covers_says_qat_runs_in_the_training_framework():
    # The MNN route's llm-export step is post-training quantization; a QAT ask is said, not left as if the page answered
    quantization = choice(answer(**QWEN_VL_PHONE), "quantization")
    assert quantization.settings["method"].startswith("qat in the training framework")
    assert "QAT asked, and the stack's page shows no QAT step" in quantization.rationale[0].text


def test_qwen3_on_executorch_exports_with_qwen3s_token_ids_and_tokenizer():
    # Review 164 p14: the Qwen3 export carried Llama 3's BOS/EOS ids; ExecuTorch's Qwen3 config sets 151644 and
    # [151645] (https://github.com/pytorch/executorch/blob/478084913abe346375e67d828b1b7d5d827a7976/examples/models/qwen3/config/qwen3_xnnpack_q8da4w.yaml)
    result = answer(**{**QWEN_VL_PHONE, "model_type": "dense-transformer", "model": "Qwen/Qwen3-1.7B"})
    assert chosen_stack(result) == "arm-executorch-qwen3-xnnpack-android"
    fusion = choice(result, "fusion").settings["as documented"]
    assert "get_eos_ids [151645]" in fusion and "128009" not in fusion
    quantization = choice(result, "quantization").settings["as documented"]
    assert "Int8DynActInt4WeightQATQuantizer" in quantization  # the QAT ask reads the QAT setting


def test_a_second_race_goes_to_an_engine_not_raced_yet_and_mindie_is_considered():
    # Review 166 p05: Qwen3-235B W8A8 on 16 A3 dies raced SGLang twice (its 235B recipe, then its Qwen3-30B-A3B TP2
    # launch) and left out MindIE, whose W8A8 page fits as well
    result = answer(
        model_type="moe",
        hardware="ascend-npu",
        device="ascend-910c",
        workload="inference",
        team_skill="framework",
        model="Qwen/Qwen3-235B-A22B",
        needs={"dynamic_shapes": True, "quantization": "int8", "long_context": True, "devices": 16},
    )
    races = [s.id for s in result.switch_conditions if s.id.endswith("-faster")]
    assert races == ["ascend-sglang-qwen3-235b-a3-faster", "ascend-mindie-llm-w8a8-faster"]
    assert not considered(result, "ascend-mindie-llm-w8a8").chosen


def test_an_rl_job_whose_training_stack_brings_no_rollout_engine_says_so():
    # Review 165 p12: Qwen3-8B GRPO on Trn2 was told "the rollouts run in the inference engine the training stack
    # names" beside TorchTitan, a pre-training library that names none
    # (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/training/torchtitan/index.html)
    result = answer(
        model_type="dense-transformer",
        hardware="aws-neuron",
        device="trn2",
        workload="training",
        training="rl",
        team_skill="kernel",
        model="Qwen/Qwen3-8B",
        needs={"devices": 16},
    )
    gap = next(gap for gap in result.tier(1).gaps if gap.concern == "deployment")
    assert "no documented stack on" in gap.rationale[0].text and "weights synced" in gap.rationale[0].text
    assert all(skipped.concern != "deployment" for skipped in result.skipped_concerns)


def test_an_rl_job_on_a_recipe_with_its_own_rollouts_keeps_the_skip():
    # verl's GRPO on Ascend runs vllm-ascend for its rollouts
    # (https://verl.readthedocs.io/en/latest/ascend_tutorial/ascend_quick_start.html): no gap
    result = answer(
        model_type="dense-transformer",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="training",
        training="rl",
        team_skill="framework",
        model="Qwen/Qwen3-8B",
        needs={"devices": 8},
    )
    assert all(gap.concern != "deployment" for gap in result.tier(1).gaps)


def test_a_publisher_only_int8_route_watches_its_release_list():
    # Review 165 p08: Qwen3-14B INT8 on two K100_AI falls back to bf16 (Hygon's cookbook releases W8A8 checkpoints of
    # other models only); the list changing is a switch the knowledge base answers
    asked = profile(
        model_type="dense-transformer",
        hardware="hygon-dcu",
        device="k100-ai",
        workload="inference",
        team_skill="kernel",
        model="Qwen/Qwen3-14B",
        needs={"quantization": "int8", "devices": 2},
    )
    result = answer(**asked.model_dump(exclude_none=True))
    published = next(s for s in result.switch_conditions if s.id == "published-int8-checkpoint")
    assert "none of Qwen/Qwen3-14B" in published.description
    # the list is as it was when the record was written; it holds once the model joins it
    assert list_switch_holds(published, asked, "Qwen/Qwen3-14B") == (False, True)


def test_an_independent_projects_engine_is_not_called_the_official_stack():
    # Review 165 p07: xLLM on MLU590 sat under "Tier 1: official full stack" while the line below it said JD, not
    # Cambricon, supports it (https://github.com/jd-opensource/xllm)
    # (on a knowledge base without vllm_mlu, which leads a vision-language job since reviews 226/232 p13)
    result = answer_without(
        {"cambricon-vllm-mlu-serving"},
        model_type="multimodal",
        hardware="cambricon-mlu",
        device="mlu590",
        workload="inference",
        team_skill="framework",
        model="Qwen/Qwen2.5-VL-7B-Instruct",
        needs={"devices": 1},
    )
    assert chosen_stack(result) == "cambricon-xllm-vlm-serving"
    assert result.tier(1).name == "documented full stack (an independent project's engine on the vendor's libraries)"


def test_tier2_under_llama_cpp_on_graviton_names_the_kleidiai_kernels_it_builds_in():
    # Review 168 p15: tier 2 named Arm Compute Library for a llama.cpp built with KleidiAI on Graviton4; Arm says
    # KleidiAI suits runtimes that keep their own memory and threads, llama.cpp among them
    # (https://github.com/ARM-software/kleidiai#what-is-the-difference-between-the-compute-library-for-the-arm-architecture-acl-and-kleidiai)
    result = answer(
        model_type="dense-transformer",
        hardware="arm-cpu",
        device="graviton4",
        workload="inference",
        team_skill="framework",
        model="meta-llama/Llama-3.1-8B-Instruct",
        needs={"quantization": "int4", "devices": 1},
    )
    assert choice(result, "deployment").option == "llama-cpp"
    assert {choice(result, concern, tier=2).option for concern in ("gemm", "quantization")} == {"kleidiai"}


def test_tier3_names_the_targets_mxfp4_stack_for_an_fp4_ask():
    # Review 172 p03: tier 3 said "amd-gpu: no fp4 stack documented for it" beside tier 1's MXFP4 checkpoint on MI355X
    # (https://huggingface.co/amd/Llama-3.3-70B-Instruct-MXFP4-Preview)
    result = answer(
        model_type="dense-transformer",
        hardware="amd-gpu",
        device="mi355x",
        workload="inference",
        team_skill="framework",
        model="meta-llama/Llama-3.3-70B-Instruct",
        needs={
            "quantization": "fp4",
            "devices": 1,
            "cross_platform": True,
            "other_hardware": ["nvidia-gpu"],
            "other_devices": ["h200-sxm"],
        },
    )
    text = " ".join(reason.text for gap in result.tier(3).gaps for reason in gap.rationale)
    text += " ".join(reason.text for c in result.tier(3).choices for reason in c.rationale)
    assert "amd-gpu: no fp4 stack" not in text and "amd-gpu: vLLM with AITER and Quark MXFP4" in text
