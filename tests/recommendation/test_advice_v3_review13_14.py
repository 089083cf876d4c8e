"""Regression tests for the defects the thirteenth and fourteenth independent reviews of engine v3 found.

The expectations follow the vendors' own pages, cited beside each test.
"""

from __future__ import annotations

import yaml
from recommendation_builders import answer_without

from advisor.knowledge.loader import load_knowledge_base
from advisor.profile import parse_profile
from advisor.recommendation.choices import risk_applies
from advisor.recommendation.engine import recommend
from advisor.recommendation.models import Recommendation
from advisor.recommendation.summary import summary_lines


def answer(**fields: object) -> Recommendation:
    profile = {"workload": "inference", "team_skill": "framework", **fields}
    return recommend(parse_profile(yaml.safe_dump(profile)), [], load_knowledge_base())


def test_the_chosen_stacks_own_risks_reach_the_text_each_cited():
    # AMD's vLLM V1 MI300X guide: AITER is off unless VLLM_ROCM_USE_AITER=1
    # (https://rocm.docs.amd.com/en/latest/how-to/rocm-for-ai/inference-optimization/vllm-optimization.html)
    result = answer(
        model_type="dense-transformer", hardware="amd-gpu", device="mi300x", needs={"quantization": "fp8", "devices": 8}
    )
    stack = result.stacks[0]
    text = "\n".join(summary_lines(result))
    assert stack.risks, "the stack chosen for MI300X FP8 serving documents risks"
    knowledge = load_knowledge_base()
    for risk in stack.risks:
        assert f"watch: {risk.text} [kb: {stack.stack}.risks[{risk.index}]]" in text
        # the citation names the risk itself, though the stack's MoE risk before it is left out for a dense model
        assert knowledge.claim_at(f"{stack.stack}.risks[{risk.index}]").value == risk.text
    assert [risk.index for risk in stack.risks] != list(range(len(stack.risks)))
    assert f"Chosen: {stack.name}" in text


def profile_asking(quantization: str):
    fields = {
        "model_type": "dense-transformer",
        "hardware": "aws-neuron",
        "workload": "inference",
        "team_skill": "framework",
        "needs": {"quantization": quantization},
    }
    return parse_profile(yaml.safe_dump(fields))


def test_risks_about_a_format_not_asked_are_left_out():
    bf16, fp8, int8 = profile_asking("none"), profile_asking("fp8"), profile_asking("int8")
    about_fp8 = "MXFP8 serving needs Trn3; on Trn2 the same models run in BF16."
    about_quantizing = "Quantized serving can lose accuracy on sensitive operators; test it before launch."
    general = "Each bucket is compiled to its own NEFF during server warmup."
    assert not risk_applies(about_fp8, bf16) and risk_applies(about_fp8, fp8) and not risk_applies(about_fp8, int8)
    assert not risk_applies(about_quantizing, bf16) and risk_applies(about_quantizing, fp8)
    assert all(risk_applies(general, profile) for profile in (bf16, fp8, int8))


def test_a_stack_its_vendor_calls_a_beta_lowers_the_confidence_and_says_so():
    # TorchTitan Neuron is a beta (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/training/torchtitan/index.html)
    knowledge = load_knowledge_base()
    stack = knowledge.stack("neuron-torchtitan-pretraining")
    assert stack.preview is not None and "beta" in stack.preview.value
    training = (
        answer(  # pre-training: AWS's path for it (fine-tuning goes to the Hugging Face libraries, review 113 p13)
            model_type="dense-transformer",
            hardware="aws-neuron",
            device="trn2",
            workload="training",
            training="pretraining",
            needs={"devices": 16},
        )
    )
    serving = answer(model_type="dense-transformer", hardware="aws-neuron", device="trn2", needs={"devices": 16})
    chosen = next(item for item in training.stacks if item.workload == "training")
    assert chosen.stack == stack.id and chosen.preview == stack.preview.value
    assert "preview on its own page" in training.confidence_notes[0]
    assert not any(item.preview for item in serving.stacks)
    assert training.confidence < serving.confidence
    assert f"preview: {stack.preview.value}" in "\n".join(summary_lines(training))


def test_writing_kernels_in_tier_2_needs_a_kernel_team_whatever_the_library_needs_to_call():
    # Writing a fast kernel demands instruction sets, on-chip memory and tiling (method #team-skill); BANG C on
    # Cambricon (https://github.com/Cambricon/mlu-ops), TPC-C on Gaudi (https://docs.habana.ai/en/latest/TPC/index.html)
    for hardware in ("cambricon-mlu", "intel-gaudi", "aws-neuron"):
        framework = answer(model_type="dense-transformer", hardware=hardware, needs={"devices": 8})
        kernel = answer(model_type="dense-transformer", hardware=hardware, team_skill="kernel", needs={"devices": 8})
        tier2 = framework.tier(2)
        assert tier2.choices and not tier2.fits_team, hardware
        assert all(not choice.fits_team for choice in tier2.choices), hardware
        gap = [r.text for choice in tier2.choices for r in choice.rationale if "writing its kernels" in r.text]
        assert gap and "this team is framework" in gap[0]
        assert kernel.tier(2).fits_team, hardware


def test_a_kernel_team_on_arm_gets_the_kleidi_micro_kernels_as_tier_2():
    # Arm's Kleidi libraries are routines for framework developers to integrate (https://developer.arm.com/ai/kleidi-libraries)
    result = answer(
        model_type="dense-transformer", hardware="arm-cpu", team_skill="kernel", needs={"quantization": "int8"}
    )
    # tier 1 is llama.cpp, which calls KleidiAI (https://github.com/ggml-org/llama.cpp/blob/master/docs/build.md#arm-kleidiai)
    options = {choice.option for choice in result.tier(2).choices}
    assert options == {"kleidiai"} and result.tier(2).fits_team


def test_cnn_serving_on_several_devices_is_replicas_not_a_scale_misfit():
    # IGIE's Zhikai 100 CNN recipe runs on one device; serving a CNN on eight runs eight replicas
    # (https://github.com/Deep-Spark/DeepSparkInference)
    result = answer(model_type="cnn", hardware="iluvatar-gpu", device="zhikai-100", needs={"devices": 8})
    serving = next(stack for stack in result.stacks if stack.workload == "inference")
    assert not any("scale" in misfit or "span nodes" in misfit for misfit in serving.misfits)


def test_a_stack_that_misses_as_much_as_the_chosen_one_says_what_put_the_chosen_first():
    # IGIE and IxRT CNN recipes are both validated on Zhikai 100 only (https://github.com/Deep-Spark/DeepSparkInference)
    # (on a knowledge base without ixRT's BI-V150 page, which leads on that card since reviews 226/228: the behaviour
    # where every Iluvatar page for this network names the Zhikai 100 only)
    result = answer_without(
        {"iluvatar-ixrt-fastapi-tiangai-150"},
        model_type="cnn",
        hardware="iluvatar-gpu",
        device="tiangai-150",
        workload="inference",
    )
    chosen = next(row for row in result.stacks_considered if row.chosen and row.workload == "inference")
    # (Iluvatar's Triton IGIE backend, https://gitee.com/deep-spark/tis-igie-backend, misses the Tiangai 150 as the
    # recipes do and is chosen as a server; a recipe that misses as much says what put it first)
    other = next(row for row in result.stacks_considered if ", as is the chosen one; " in row.reason)
    assert not chosen.fits and not other.chosen
    misfit, _, why = other.reason.partition(", as is the chosen one; ")
    # what put the chosen one first: the documentation's order, or (both being scripts on the page) the server question
    assert misfit in chosen.reason and why.startswith(("nothing documented puts one first", "its page ships a script"))


def test_a_qat_ask_in_tier_3_trains_in_the_framework_and_the_runtime_runs_the_export():
    # ONNX Runtime does not run QAT; QAT models exported as QDQ graphs run directly
    # (https://onnxruntime.ai/docs/performance/model-optimizations/quantization.html)
    result = answer(
        model_type="cnn",
        hardware="x86-cpu",
        device="xeon-6-granite-rapids",
        needs={
            "quantization": "int8",
            "quantization_method": "qat",
            "cross_platform": True,
            "other_hardware": ["arm-cpu"],
        },
    )
    quantization = next(c for c in result.tier(3).choices if c.concern == "quantization")
    # the runtime runs no QAT of its own: the setting says the training framework runs it (review 134 p15)
    assert quantization.settings.get("method") == "qat in the training framework (this part runs its export)"
    assert quantization.rationale[0].text.startswith("QAT asked")
    assert not any("quantizes for its own runtime" in reason.text for reason in quantization.rationale)


def test_an_engine_named_as_an_alternative_gets_a_measurable_switch():
    # AMD's inference guides cover vLLM and SGLang (https://rocm.docs.amd.com/en/latest/how-to/rocm-for-ai/inference/index.html);
    # on MI350X no SGLang stack is validated (SGLang's cookbook sets dense Llama models for MI300X/MI325X/MI355X only,
    # https://docs.sglang.io/cookbook/autoregressive/Llama/Llama3.1), so the rival is the engine, not a stack
    result = answer(
        model_type="dense-transformer", hardware="amd-gpu", device="mi350x", needs={"quantization": "fp8", "devices": 8}
    )
    deployment = next(c for c in result.tier(1).choices if c.concern == "deployment")
    assert deployment.alternatives
    rival = deployment.alternatives[0]
    # since review 256 p01 SGLang's MI355X stack, validated on a sibling card of the MI350X's generation, is raced as a
    # stack; the engine-level switch remains where no such stack exists
    condition = next(c for c in result.switch_conditions if c.id.endswith("-faster") and rival in c.id)
    chosen = result.stacks[0].stack
    assert condition.metric == f"evidence.inference_throughput.amd-sglang-bf16-mi355x_over_{chosen}"


def test_an_engine_with_a_stack_that_fits_as_well_gets_the_stack_switch():
    # SGLang's cookbook serves dense Llama models on MI300X in BF16 or FP8
    # (https://docs.sglang.io/cookbook/autoregressive/Llama/Llama3.1): its stack fits an FP8 profile as well as vLLM's,
    # so the switch measures the two stacks against each other, both in fp8
    result = answer(
        model_type="dense-transformer", hardware="amd-gpu", device="mi300x", needs={"quantization": "fp8", "devices": 8}
    )
    chosen = result.stacks[0].stack
    condition = next(c for c in result.switch_conditions if c.id == "amd-sglang-bf16-mi300x-faster")
    assert condition.metric == f"evidence.inference_throughput.amd-sglang-bf16-mi300x_over_{chosen}"
    assert "both in fp8" in condition.description


def test_an_equal_engine_switch_names_the_precision_both_run_in():
    # TensorRT-LLM's DeepSeek recipe on Blackwell defaults to NVFP4 and serves FP8 too
    # (https://nvidia.github.io/TensorRT-LLM/deployment-guide/index.html)
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="b200",
        team_skill="hpc",
        model="deepseek-ai/DeepSeek-R1",  # both recipes are written for it (none is raced for a model it is not for)
        needs={"quantization": "fp8", "devices": 8, "long_context": True},
    )
    faster = [c for c in result.switch_conditions if c.id.endswith("-faster") and "-engine-" not in c.id]
    assert faster and all("both in fp8" in c.description for c in faster)


def test_tier3_for_a_framework_team_that_trains_uses_a_portable_training_framework():
    # Megatron Core trains on NVIDIA GPUs and, through AMD's Primus, on Instinct GPUs
    # (https://rocm.docs.amd.com/projects/ai-ecosystem/en/latest/training/recipes/primus-megatron.html)
    result = answer(
        model_type="dense-transformer",
        hardware="amd-gpu",
        device="mi355x",
        workload="both",
        needs={
            "quantization": "fp8",
            "devices": 64,
            "dynamic_shapes": True,
            "cross_platform": True,
            "other_hardware": ["nvidia-gpu"],
        },
    )
    tier3 = result.tier(3)
    options = tier3.options()
    assert options["training-framework"] in ("megatron-core", "torchtitan")
    assert tier3.fits_team and all(choice.fits_team for choice in tier3.choices)
    assert options["collectives"] == options["training-framework"]
    collectives = next(c for c in tier3.choices if c.concern == "collectives")
    assert "nccl" in collectives.rationale[0].text and "rccl" in collectives.rationale[0].text
    assert not any(gap.concern == "collectives" for gap in tier3.gaps)
    assert options["dynamic-shapes"] == options["deployment"]  # the serving engine takes the serving-only concern


def test_a_serving_need_is_not_charged_to_the_training_stack():
    # MaxText pre-trains on TPU (https://github.com/AI-Hypercomputer/maxtext#maxtext); dynamic shapes are the server's
    result = answer(
        model_type="dense-transformer",
        hardware="google-tpu",
        device="tpu-v6e",
        workload="both",
        needs={"dynamic_shapes": True, "devices": 16},
    )
    training = next(stack for stack in result.stacks if stack.workload == "training")
    assert not any("dynamic shapes" in misfit for misfit in training.misfits)


def test_a_checkpoint_other_families_load_is_tier_3s_quantizer_only_in_a_format_they_run():
    # vLLM Ascend serves LLM-Compressor W8A8 models
    # (https://docs.vllm.ai/projects/ascend/en/v0.23.0/user_guide/feature_guide/quantization.html)
    int8 = answer(
        model_type="dense-transformer",
        hardware="ascend-npu",
        device="ascend-910b",
        needs={"quantization": "int8", "devices": 8, "cross_platform": True, "other_hardware": ["nvidia-gpu"]},
    )
    assert int8.tier(3).options().get("quantization") == "llm-compressor"
    fp8 = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        needs={"quantization": "fp8", "devices": 8, "cross_platform": True, "other_hardware": ["ascend-npu"]},
    )
    assert fp8.tier(3).options().get("quantization") != "llm-compressor"  # Atlas NPUs run no FP8


def test_a_format_missing_from_recipes_is_undocumented_not_absent():
    # Iluvatar publishes no format list; its INT8 CNN recipes run on the Zhikai 100 only
    # (https://github.com/Deep-Spark/DeepSparkInference/blob/master/README_en.md)
    result = answer(model_type="cnn", hardware="iluvatar-gpu", device="tiangai-150", needs={"quantization": "int8"})
    assert result.tier(1).options().get("quantization") is not None
    serving = next(stack for stack in result.stacks if stack.workload == "inference")
    assert any("undocumented" in misfit for misfit in serving.misfits)
    assert not any("does not run int8 natively" in misfit for misfit in serving.misfits)


def test_a_multimodal_model_is_told_where_its_convolutions_are():
    result = answer(model_type="multimodal", hardware="nvidia-gpu", device="h100-sxm")
    skipped = next(s for s in result.skipped_concerns if s.concern == "convolution")
    assert "patch embedding" in skipped.rationale[0].text


def test_a_stack_whose_page_pins_no_versions_is_trusted_less_and_says_so():
    knowledge = load_knowledge_base()
    # AMD's vLLM FP8 stack now names the released rocm/vllm image (helper kbamdimg), so SGLang's DeepSeek-V3 page on
    # MI300X, which pins none, is the example
    result = answer(
        model_type="moe",
        hardware="amd-gpu",
        device="mi300x",
        model="deepseek-ai/DeepSeek-V3",
        needs={"quantization": "fp8", "devices": 8},
    )
    stack = knowledge.stack(result.stacks[0].stack)
    assert stack.id == "amd-sglang-deepseek-fp8-mi300x"
    assert not stack.validated_with, "SGLang's DeepSeek-V3 MI300X page pins no versions"
    assert any("pins no versions" in note for note in result.confidence_notes)
    pinned = answer(
        model_type="dense-transformer",
        hardware="intel-gaudi",
        device="gaudi3",
        model="meta-llama/Llama-3.1-70B-Instruct",  # a model of the FP8 stack's validated table: none is assumed
        needs={"quantization": "fp8", "devices": 8},
    )
    assert knowledge.stack(pinned.stacks[0].stack).validated_with
    assert not any("pins no versions" in note for note in pinned.confidence_notes)
    assert result.confidence < pinned.confidence


def test_a_named_variant_of_a_generation_counts_as_that_generation():
    # B300 is Blackwell Ultra (sm_103), a Blackwell part; SGLang's Blackwell recipe is nearer than its Hopper one
    # (https://docs.sglang.io/basic_usage/deepseek.html)
    from advisor.recommendation.stack_choice import same_generation

    assert same_generation("Blackwell Ultra", "Blackwell") and not same_generation("CDNA 4", "CDNA 3")
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="b300",
        team_skill="kernel",
        needs={"quantization": "fp8", "devices": 16, "long_context": True},
    )
    assert "hopper" not in result.stacks[0].stack


def test_a_format_the_device_cannot_run_falls_back_on_the_vendors_own_path():
    # Trn2 has no INT8 matmul; from Neuron 2.34 its serving path is the vLLM Neuron plugin
    # (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/about-neuron/announcements/neuron2.x/announce-no-support-nxdi-nxd-core-inference-trn.html)
    result = answer(
        model_type="dense-transformer",
        hardware="aws-neuron",
        device="trn2",
        team_skill="kernel",
        model="Qwen/Qwen3-32B",  # the Llama 3 FP8 recipe (AWS) is written for Llama only
        needs={"quantization": "int8", "devices": 16},
    )
    serving = result.stacks[0]
    assert serving.stack == "neuron-vllm-neuron-serving"
    assert any("does not run int8 natively, so for the int8 asked it would run in bf16" in m for m in serving.misfits)


def test_serving_engines_tables_back_no_training_profile():
    training = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="training",
        team_skill="hpc",
        needs={"quantization": "fp8", "devices": 64, "long_context": True},
    )
    assert {figure.name for figure in training.reference} == {"allreduce_busbw_gbps"}
