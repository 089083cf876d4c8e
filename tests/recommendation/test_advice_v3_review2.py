"""Regression tests for the defects the second independent review of engine v3 found, each on its kind of profile.

The expectations follow the vendors' own pages, cited beside each test.
"""

from __future__ import annotations

import yaml
from recommendation_builders import choice

from advisor.knowledge.loader import load_knowledge_base
from advisor.profile import parse_profile
from advisor.recommendation.engine import recommend
from advisor.recommendation.models import Recommendation
from advisor.recommendation.stack_choice import judge


def answer(**fields: object) -> Recommendation:
    profile = {"workload": "inference", "team_skill": "framework", **fields}
    return recommend(parse_profile(yaml.safe_dump(profile)), [], load_knowledge_base())


def test_a_job_that_trains_and_serves_int8_trains_in_float():
    # INT8 W8A8 is a serving format (vLLM INT8 W8A8: https://docs.vllm.ai/en/latest/features/quantization/int8.html);
    # Megatron Core with Transformer Engine trains in BF16 or FP8 (https://docs.nvidia.com/nemo/megatron-bridge/latest/)
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="both",
        needs={"quantization": "int8", "devices": 8},
    )
    training = next(stack for stack in result.stacks if stack.workload == "training")
    assert not any("the profile asks int8" in misfit for misfit in training.misfits)
    assert "in bf16" in (result.verdict or "")
    rows = [row for row in result.stacks_considered if row.workload == "training" and not row.chosen]
    assert not any("asks int8" in row.reason for row in rows)


def test_a_stack_run_off_its_default_format_says_which_path():
    # The TensorRT-LLM Blackwell guide serves NVFP4 by default and the FP8 checkpoint too
    # (https://nvidia.github.io/TensorRT-LLM/1.2.0rc2.post2/deployment-guide/deployment-guide-for-llama3.3-70b-on-trtllm.html)
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="b200",
        needs={"quantization": "fp8", "devices": 8},
    )
    quantization = choice(result, "quantization")
    assert quantization.settings["dtype"] == "fp8"
    if "nvfp4" in result.stacks[0].name.lower():
        assert "in fp8" in (result.verdict or "")
        assert any("runs nvfp4 by default" in reason.text for reason in quantization.rationale)


def test_long_context_serving_names_the_engines_long_sequence_features():
    # vLLM context parallel deployment (https://docs.vllm.ai/en/latest/serving/context_parallel_deployment.html),
    # TensorRT-LLM long sequences (https://nvidia.github.io/TensorRT-LLM/features/long-sequence.html)
    short = answer(model_type="dense-transformer", hardware="nvidia-gpu", device="h200-sxm", needs={"devices": 8})
    long = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h200-sxm",
        needs={"devices": 8, "long_context": True},
    )
    engine = choice(long, "deployment")
    cited = {cite.ref for reason in engine.rationale for cite in reason.cites}
    assert f"{engine.option}.long_context" in cited
    assert not any(
        cite.ref.endswith(".long_context") for r in choice(short, "deployment").rationale for cite in r.cites
    )


def test_a_cross_platform_graph_runtime_brings_its_own_kernels_and_quantizer():
    # ONNX Runtime quantizes for its own runtime and runs on each platform's execution provider
    # (https://onnxruntime.ai/docs/performance/model-optimizations/quantization.html,
    # https://onnxruntime.ai/docs/execution-providers/); TensorRT is NVIDIA's CNN runtime, not TensorRT-LLM
    result = answer(
        model_type="cnn",
        hardware="x86-cpu",
        needs={"quantization": "int8", "cross_platform": True, "other_hardware": ["arm-cpu", "nvidia-gpu"]},
    )
    tier3 = result.tier(3)
    deployment = choice(result, "deployment", 3).option
    assert deployment == "onnxruntime"
    assert {c.concern: c.option for c in tier3.choices}.get("quantization") == deployment
    assert not any(c.option == "xla" for c in tier3.choices)
    nvidia = next(note.text for note in tier3.notes if note.text.startswith("on nvidia-gpu,"))
    assert "TensorRT" in nvidia and "TensorRT-LLM" not in nvidia


def test_a_stack_validated_on_the_same_generation_is_a_lesser_misfit():
    # H100 and H200 are both Hopper (sm_90): https://docs.nvidia.com/cuda/cuda-c-programming-guide/
    knowledge = load_knowledge_base()
    h100_only = [s for s in knowledge.stacks_for("nvidia-gpu") if s.applies_to.devices == ["h100-sxm"]]
    assert h100_only, "the check needs a stack validated on the H100 alone"
    stack = h100_only[0]
    profile = parse_profile(
        yaml.safe_dump(
            {
                "model_type": stack.applies_to.model_types[0],
                "hardware": "nvidia-gpu",
                "device": "h200-sxm",
                "workload": stack.applies_to.workloads[0],
                "team_skill": "framework",
                "needs": {"devices": 8},
            }
        )
    )
    platform = knowledge.platform("nvidia-gpu")
    judged = judge(stack, stack.applies_to.workloads[0], profile, platform.device("h200-sxm"), platform, knowledge)
    kinds = {misfit.kind for misfit in judged.misfits}
    assert "device" not in kinds and "same_generation" in kinds
    other = judge(stack, stack.applies_to.workloads[0], profile, platform.device("b200"), platform, knowledge)
    assert "device" in {misfit.kind for misfit in other.misfits} and other.weight > judged.weight


def test_a_job_that_trains_and_serves_gets_the_path_between_its_stacks():
    # MindSpeed-LLM converts Megatron weights back to Hugging Face (https://gitcode.com/Ascend/MindSpeed-LLM/blob/master/convert_ckpt_v2.py);
    # vllm-ascend serves W8A8 quantized by msModelSlim (https://docs.vllm.ai/projects/ascend/en/latest/)
    result = answer(
        model_type="dense-transformer",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="both",
        needs={"quantization": "int8", "devices": 16},
    )
    assert {stack.workload for stack in result.stacks} == {"inference", "training"}
    verdict = result.verdict or ""
    assert "Between them:" in verdict and "Hugging Face" in verdict and "quantize it to int8" in verdict
    served = answer(model_type="dense-transformer", hardware="ascend-npu", device="ascend-910b", needs={"devices": 16})
    assert "Between them:" not in (served.verdict or "")


def test_a_device_the_stacks_page_excludes_rules_the_stack_out_and_is_said():
    # vLLM's INT8 W8A8 page: not supported on compute capability 10.0 and newer
    # (https://docs.vllm.ai/en/latest/features/quantization/int8/)
    hopper = answer(
        model_type="dense-transformer", hardware="nvidia-gpu", device="h100-sxm", needs={"quantization": "int8"}
    )
    assert hopper.stacks and hopper.stacks[0].stack == "nvidia-vllm-int8-w8a8"
    blackwell = answer(
        model_type="dense-transformer", hardware="nvidia-gpu", device="b200", needs={"quantization": "int8"}
    )
    assert all(stack.stack != "nvidia-vllm-int8-w8a8" for stack in blackwell.stacks)
    row = next(row for row in blackwell.stacks_considered if row.stack == "nvidia-vllm-int8-w8a8")
    assert "does not run on b200" in row.reason


def test_a_quantizer_without_the_asked_method_is_a_partial_fit():
    # llm-compressor is a post-training (oneshot) toolkit (https://docs.vllm.ai/projects/llm-compressor/en/latest/)
    qat = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="a100-sxm",
        needs={"quantization": "int8", "quantization_method": "qat"},
    )
    ptq = answer(
        model_type="dense-transformer", hardware="nvidia-gpu", device="a100-sxm", needs={"quantization": "int8"}
    )
    assert any("no QAT flow" in misfit for stack in qat.stacks for misfit in stack.misfits)
    assert not any("flow" in misfit for stack in ptq.stacks for misfit in stack.misfits)


def test_a_published_fp8_checkpoint_is_the_engines_not_a_toolkits():
    # SGLang serves DeepSeek-V3/R1 in the checkpoint's native FP8 with no quantization flag
    # (https://docs.sglang.io/docs/basic_usage/deepseek_v3)
    result = answer(
        model_type="moe", hardware="nvidia-gpu", device="h200-sxm", needs={"quantization": "fp8", "devices": 8}
    )
    quantization = choice(result, "quantization")
    if result.stacks and result.stacks[0].stack == "nvidia-sglang-deepseek-fp8-hopper":
        assert quantization.option == "sglang" and "native" in quantization.label
    assert any("published in FP8" in reason.text for reason in quantization.rationale)


def test_a_cross_platform_verdict_says_tier_3_leads():
    # The method: when the business must move between hardware, tier 3 is the primary tier (method#tier-3)
    result = answer(
        model_type="dense-transformer",
        hardware="arm-cpu",
        device="graviton4",
        needs={"quantization": "int8", "cross_platform": True, "other_hardware": ["x86-cpu"]},
    )
    assert result.tier(3).primary and (result.verdict or "").startswith("Tier 3 leads")
    # tier 3's one runtime has a stack for this job on each family (review 104 p08: one runtime named, another's stack
    # shown): since review 162 p15, tier 1's llama.cpp has its x86 stack too (AVX/AVX2/AVX-512/AMX,
    # https://github.com/ggml-org/llama.cpp#description), so it stays the one runtime, its x86 stack shown
    assert choice(result, "deployment", 3).option == "llama-cpp"
    assert any(note.text.startswith("on x86-cpu") and "llama.cpp" in note.text for note in result.tier(3).notes)


def test_no_straw_man_rejections_of_a_training_framework_in_a_serving_record():
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        needs={"quantization": "fp8", "devices": 8, "long_context": True},
    )
    assert not any("does not run inference" in r.text for rejection in result.rejected for r in rejection.reasons)
    assert all(
        condition.rerun and "advisor probe" not in condition.rerun
        for condition in result.switch_conditions
        if condition.id.endswith(("-faster", "-accuracy-drop"))
    )


def test_a_vision_language_model_is_near_a_dense_stack_only_where_its_runner_serves_it():
    # vLLM serves vision-language models (https://docs.vllm.ai/en/latest/models/supported_models.html); mlx-lm generates
    # text (https://github.com/ml-explore/mlx-lm), mlx-vlm serves VLMs (https://github.com/Blaizzy/mlx-vlm#readme)
    gaudi = answer(
        model_type="multimodal", hardware="intel-gaudi", device="gaudi3", needs={"quantization": "fp8", "devices": 8}
    )
    # vllm-gaudi validates vision-language models in BF16 and FP8 on Gaudi 3
    # (https://github.com/vllm-project/vllm-gaudi/blob/main/docs/getting_started/validated_models.md)
    assert gaudi.stacks and gaudi.stacks[0].stack == "gaudi-vllm-vlm"
    apple = answer(model_type="multimodal", hardware="apple-silicon", device="apple-m4")
    assert all(stack.stack != "apple-mlx-lm-inference" for stack in apple.stacks)


def test_an_fp32_only_stack_does_not_train_an_llm():
    # LLM training on accelerators runs in mixed precision (https://nvidia.github.io/TransformerEngine/ ; the Hygon
    # Paddle recipe is FP32 CNN/dense training on Z100)
    result = answer(model_type="dense-transformer", hardware="hygon-dcu", workload="training", needs={"devices": 8})
    assert all(stack.stack != "hygon-paddle-dcu-training-z100" for stack in result.stacks)
    row = next(row for row in result.stacks_considered if row.stack == "hygon-paddle-dcu-training-z100")
    assert "mixed precision (bf16/fp16)" in row.reason


def test_a_serving_engine_batches_dynamic_shapes_itself():
    # vLLM on ROCm: continuous batching over a paged KV cache (https://docs.vllm.ai/en/latest/)
    result = answer(
        model_type="dense-transformer",
        hardware="amd-gpu",
        device="mi300x",
        needs={"quantization": "fp8", "dynamic_shapes": True, "devices": 8},
    )
    assert choice(result, "dynamic-shapes").option == choice(result, "deployment").option == "vllm"
    quantization = choice(result, "quantization")
    assert "sglang" not in quantization.alternatives and "vllm" not in quantization.alternatives


def test_settings_for_another_format_are_not_copied_in():
    # AWS's Graviton guide runs Q4_0; the profile asks int8 (Q8_0): the Q4_0 setting is the page's example, not this run
    # (https://github.com/aws/aws-graviton-getting-started/blob/main/machinelearning/llama.cpp.md)
    result = answer(
        model_type="dense-transformer", hardware="arm-cpu", device="graviton4", needs={"quantization": "int8"}
    )
    gemm = choice(result, "gemm")
    assert "Q4_0" not in " ".join(gemm.settings.values())
    cnn = answer(
        model_type="cnn", hardware="iluvatar-gpu", device="tiangai-150", workload="training", needs={"devices": 4}
    )
    assert not any("tensor parallel" in r.text for r in choice(cnn, "collectives").rationale)


def test_tier3_runs_the_asked_format_on_every_family():
    # ONNX Runtime's quantization tool documents 8-bit integer and Int4 only, no FP8
    # (https://onnxruntime.ai/docs/performance/model-optimizations/quantization.html); SGLang installs on AMD Instinct
    # as on NVIDIA (https://docs.sglang.io/diffusion/installation.html) and serves FP8 checkpoints
    # (https://docs.sglang.io/advanced_features/quantization.html). Which toolkit's FP8 checkpoint of a diffusion model
    # SGLang loads no page says (its quantization page and torchao's serving page speak of LLMs), so since review 37
    # p03 each family keeps its own FP8 path (a gap), where no stack pairs a toolkit with the engine for diffusion.
    result = answer(
        model_type="diffusion",
        hardware="nvidia-gpu",
        device="l40s",
        needs={"quantization": "fp8", "cross_platform": True, "other_hardware": ["amd-gpu"]},
    )
    knowledge = load_knowledge_base()
    tier3 = result.tier(3)
    deployment = choice(result, "deployment", tier=3)
    assert knowledge.get(deployment.option).fp8.value in ("yes", "partial")
    # Since reviews 127 and 130 a Diffusers stack quantizes a diffusion model to FP8 with torchao on NVIDIA
    # (https://huggingface.co/docs/diffusers/main/en/quantization/torchao), so that toolkit's checkpoint, which Diffusers
    # loads on both families, is tier 3's one quantization, not a per-family gap
    assert not any(g.concern == "quantization" for g in tier3.gaps)
    quantization = choice(result, "quantization", tier=3)
    assert quantization.option == "torchao"
    assert any("nvidia-diffusers-torchao-fp8" in str(r.cites) for r in quantization.rationale)
    # Since review 43 p11 a serving engine hosts a model that is not an LLM only where a stack of each family runs it
    # for that model type (SGLang's TPU backend serves LLMs only): no stack here serves diffusion with SGLang, so the
    # one runtime is Diffusers, which runs on both (https://huggingface.co/docs/diffusers/installation) and is
    # a library on PyTorch, not a graph runtime: it claims no kernels of its own
    assert deployment.option == "diffusers"
    assert not any(c.option == "diffusers" for c in tier3.choices if c.concern in ("gemm", "attention", "fusion"))
    assert not any("deployment" in note.text for note in tier3.notes if note.text.startswith("on amd-gpu"))


def test_a_kernel_team_serves_on_the_engines_own_kernels_and_keeps_triton_for_tier_2():
    # Corrected after review 15: vLLM picks each platform's attention backend itself
    # (https://docs.vllm.ai/en/latest/design/attention_backends/); Triton stays the team's layer for hot spots (tier 2)
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        team_skill="kernel",
        needs={"devices": 8, "cross_platform": True, "other_hardware": ["amd-gpu"]},
    )
    engine = choice(result, "deployment", tier=3).option
    assert choice(result, "gemm", tier=3).option == engine and choice(result, "attention", tier=3).option == engine
    assert "triton" in {c.option for c in result.tier(2).choices}


def test_a_stack_whose_runner_has_no_entry_still_names_its_own_attention_and_fused_operators():
    # PaddleNLP's Hygon DCU guide trains Llama with Paddle's flash attention and fused RMSNorm/RoPE operators
    # (https://github.com/PaddlePaddle/PaddleNLP/blob/develop/llm/devices/dcu/llama/pretrain_pp8.json)
    result = answer(
        model_type="dense-transformer",
        hardware="hygon-dcu",
        device="k100-ai",
        workload="training",
        needs={"devices": 8},
    )
    assert "flash attention" in choice(result, "attention").option.lower()
    assert "fused" in choice(result, "fusion").option.lower()
    assert not any(gap.concern in ("attention", "fusion") for gap in result.tier(1).gaps)


def test_an_inference_only_expert_all_to_all_library_is_not_named_for_training():
    # MoRI's EP guide lists inference integrations (vLLM, SGLang, ATOM) only
    # (https://github.com/ROCm/mori/blob/main/docs/MORI-EP-GUIDE.md); AMD's Primus trains MoE with Primus-Turbo's DeepEP
    # (https://rocm.docs.amd.com/projects/primus/en/latest/04-technical-guides/moe-training.html)
    training = answer(
        model_type="moe",
        hardware="amd-gpu",
        device="mi355x",
        workload="training",
        team_skill="hpc",
        needs={"devices": 32},
    )
    serving = answer(
        model_type="moe", hardware="amd-gpu", device="mi355x", needs={"devices": 16, "quantization": "fp8"}
    )
    assert "mori" not in str(choice(training, "collectives").settings).lower()
    assert "DeepEP" in choice(training, "training-framework").settings.get("moe", "")
    assert "mori" in str(choice(serving, "collectives").settings).lower()  # across nodes, an MoE model runs EP


def test_an_expert_all_to_all_library_is_set_only_under_an_expert_parallel_layout():
    # SGLang uses DeepEP for the MoE all-to-all only with expert parallelism (its DeepSeek page: DP attention + EP
    # with --moe-a2a-backend deepep, https://docs.sglang.io/docs/basic_usage/deepseek_v3); its plain recipe is --tp 8.
    # The model is named: an unnamed MoE now takes SGLang's expert-parallel stack, whose layout does set up EP.
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="b200",
        team_skill="hpc",
        model="deepseek-ai/DeepSeek-V3",
        needs={"quantization": "fp8", "devices": 8},
    )
    collectives = choice(result, "collectives")
    if result.stacks[0].stack.startswith("nvidia-sglang"):
        assert "expert-all-to-all" not in collectives.settings
        assert any(r.text.startswith("DeepEP only with expert parallelism") for r in collectives.rationale)


def test_a_phone_runtime_is_no_stack_for_a_server_cpu_and_a_server_stack_none_for_a_phone():
    # ExecuTorch's XNNPACK backend and LiteRT with KleidiAI SME2 are on-device runtimes for Arm phone CPUs
    # (https://docs.pytorch.org/executorch/stable/backends-xnnpack.html,
    # https://learn.arm.com/learning-paths/mobile-graphics-and-gaming/litert-sme/1-litert-kleidiai-sme2); AWS documents
    # PyTorch with oneDNN and ACL on Graviton (https://aws.github.io/graviton/machinelearning/pytorch.html)
    server = answer(model_type="cnn", hardware="arm-cpu", device="graviton4", needs={"quantization": "int8"})
    phone = answer(model_type="cnn", hardware="arm-cpu", device="armv9-mobile-sme2", needs={"quantization": "int8"})
    assert not any(stack.stack.startswith(("arm-litert", "arm-executorch")) for stack in server.stacks)
    assert phone.stacks and phone.stacks[0].stack in ("arm-executorch-xnnpack", "arm-litert-xnnpack")
    assert not phone.stacks[0].misfits


def test_a_trainium2_instance_is_one_node_of_sixteen_and_a_float_fallback_quantizes_nothing():
    # A trn2.48xlarge holds 16 Trainium2 chips (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/general/arch/
    # neuron-hardware/trn2-arch.html); the vLLM Neuron stack documents BF16 and MXFP8 (Trn3) serving
    # (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/vllm-neuron/docs/index.html)
    result = answer(
        model_type="dense-transformer",
        hardware="aws-neuron",
        device="trn2",
        model="Qwen/Qwen3-32B",  # the Llama 3 FP8 recipe (AWS) is written for Llama only
        needs={"quantization": "fp8", "devices": 16},
    )
    assert not any("may span nodes" in misfit for stack in result.stacks for misfit in stack.misfits)
    gemm = choice(result, "gemm")
    assert gemm.settings["dtype"] == "bf16" and not any("run in FP8" in reason.text for reason in gemm.rationale)
    assert not any(c.concern == "quantization" for c in result.tier(1).choices)
    assert any(
        gap.concern == "quantization" and "served in bf16" in gap.rationale[0].text for gap in result.tier(1).gaps
    )


def test_an_llm_scaling_switch_starts_from_the_devices_that_hold_the_model():
    # Megatron Core's MoE guide scales expert parallelism across nodes; a large model does not fit one device
    # (https://github.com/NVIDIA/Megatron-LM/blob/main/megatron/core/transformer/moe/README.md)
    result = answer(model_type="moe", hardware="nvidia-gpu", device="b200", needs={"quantization": "fp8", "devices": 8})
    scaling = next(s for s in result.switch_conditions if s.id == "strong-scaling-collapse")
    assert "from 1 to" not in scaling.description and "fewest devices that hold the model" in scaling.description
    assert not any(value == "" for c in result.tier(1).choices for value in c.settings.values())


def test_switches_that_cannot_apply_are_not_written():
    # Transformer Engine's FP8 recipes are judged against a BF16 run in training (https://docs.nvidia.com/deeplearning/
    # transformer-engine/user-guide/examples/fp8_primer.html); a diffusion model has no context length; an LLM's
    # unquantized serving is not decided by an INT8 GEMM probe
    pretrain = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="training",
        needs={"quantization": "fp8", "devices": 64},
    )
    ids = {s.id for s in pretrain.switch_conditions}
    assert "fp8-loss-gap" in ids and "fp8-accuracy-drop" not in ids
    diffusion = answer(
        model_type="diffusion", hardware="apple-silicon", device="apple-m4", needs={"quantization": "int8"}
    )
    assert "long-context-needed" not in {s.id for s in diffusion.switch_conditions}
    llm = answer(model_type="moe", hardware="amd-gpu", device="mi300x", needs={"devices": 8})
    assert "int8-pays-on-target" not in {s.id for s in llm.switch_conditions}


def test_tier3_deployment_serves_the_model_type_before_it_ranks_ecosystems():
    # llama.cpp serves LLMs only (https://github.com/ggml-org/llama.cpp#description); ONNX Runtime runs Core ML and
    # CUDA/TensorRT execution providers (https://onnxruntime.ai/docs/execution-providers/); Hugging Face Diffusers runs
    # its pipelines on Apple's mps device (https://huggingface.co/docs/diffusers/optimization/mps) and on CUDA, and is
    # named on apple-silicon, so it comes before ONNX Runtime; llama.cpp is never the answer
    result = answer(
        model_type="diffusion",
        hardware="apple-silicon",
        device="apple-m4",
        needs={"quantization": "int8", "cross_platform": True, "other_hardware": ["nvidia-gpu"]},
    )
    assert choice(result, "deployment", tier=3).option == "diffusers"


def test_a_qat_ask_is_not_answered_by_a_pages_ptq_flow():
    # OpenVINO's NNCF page for Xeon shows post-training quantization (nncf.quantize); NNCF runs QAT in PyTorch and
    # exports to OpenVINO (https://docs.openvino.ai/2025/openvino-workflow/model-optimization-guide/compressing-models-during-training.html)
    result = answer(
        model_type="cnn",
        hardware="x86-cpu",
        device="xeon-6-granite-rapids",
        needs={"quantization": "int8", "quantization_method": "qat"},
    )
    quantization = choice(result, "quantization")
    assert "QAT asked" in quantization.rationale[0].text
    assert any("PTQ flow" in misfit for misfit in result.stacks[0].misfits)


def test_an_upstream_engines_long_context_page_is_not_cited_for_a_hardware_plugin():
    # vLLM's context-parallel page documents the CUDA/ROCm engine (https://docs.vllm.ai/en/latest/serving/
    # context_parallel_deployment.html); vllm-gaudi documents its own configuration (https://docs.vllm.ai/projects/gaudi/)
    gaudi = answer(
        model_type="dense-transformer",
        hardware="intel-gaudi",
        device="gaudi3",
        needs={"quantization": "fp8", "devices": 8, "long_context": True},
    )
    nvidia = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h200-sxm",
        needs={"devices": 8, "long_context": True},
    )
    cites = lambda result: {c.ref for r in choice(result, "deployment").rationale for c in r.cites}  # noqa: E731
    # vllm-gaudi's own long-context guide (https://github.com/vllm-project/vllm-gaudi/blob/main/docs/configuration/
    # long_context.md) is the stack's claim, cited in place of the upstream engine's
    assert "vllm.long_context" not in cites(gaudi)
    assert "gaudi-vllm-fp8-inc.long_context" in cites(gaudi)
    assert any(ref.endswith(".long_context") for ref in cites(nvidia))


def test_a_float_fallback_is_said_the_same_way_everywhere():
    # The vLLM Neuron stack documents BF16 serving on Trn2 and MXFP8 on Trn3 only
    # (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/vllm-neuron/docs/index.html); its FP8 KV cache is a
    # storage format apart from the weights' (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/_sources/
    # vllm-neuron/docs/design/vllm/kv-cache-quantization.md)
    result = answer(
        model_type="dense-transformer",
        hardware="aws-neuron",
        device="trn2",
        workload="both",
        team_skill="kernel",
        model="Qwen/Qwen3-32B",  # the Llama 3 FP8 recipe (AWS) is written for Llama only
        needs={"quantization": "fp8", "devices": 16},
    )
    verdict = result.verdict or ""
    assert "quantize it to fp8" not in verdict and "served in bf16" in verdict
    assert "fp8-accuracy-drop" not in {s.id for s in result.switch_conditions}
    # since scenario 577 the plugin's KV cache is BF16 here: its design page wires FP8 KV into Llama 3 only
    # (https://github.com/aws-neuron/aws-neuron-sdk/blob/43a89626d2aa0f9f649b581df8dfefe85b2b603d/vllm-neuron/docs/design/vllm/kv-cache-quantization.md)
    assert "KV cache in BF16" in choice(result, "deployment").settings.get("kv-cache", "")
    for tier in result.tiers:
        concerns = [gap.concern for gap in tier.gaps]
        assert len(concerns) == len(set(concerns)), (tier.tier, concerns)


def test_a_platform_plugins_quantized_checkpoint_is_not_called_portable():
    # vllm_mlu registers its own smoothquant/weightonly methods (https://github.com/Cambricon/vllm-mlu); upstream vLLM
    # on NVIDIA loads llm-compressor or ModelOpt checkpoints (https://docs.vllm.ai/en/latest/features/quantization/)
    result = answer(
        model_type="moe",
        hardware="cambricon-mlu",
        device="mlu590",
        needs={"quantization": "int8", "devices": 4, "cross_platform": True, "other_hardware": ["nvidia-gpu"]},
    )
    assert not any(c.concern == "quantization" and c.option == "vllm" for c in result.tier(3).choices)
    gap = next(g for g in result.tier(3).gaps if g.concern == "quantization")
    assert "each family gets its own checkpoint" in gap.rationale[0].text
    assert "cambricon-mlu: vLLM (vllm_mlu plugin)" in gap.rationale[0].text  # what each family quantizes with


def test_a_qat_ask_is_carried_into_the_quantization_choice_and_llm_clauses_leave_a_cnn():
    # ExecuTorch's XNNPACK quantization page shows the PT2E quantizer and torchao's LLM configs
    # (https://github.com/pytorch/executorch/blob/main/docs/source/backends/xnnpack/xnnpack-quantization.md)
    result = answer(
        model_type="cnn",
        hardware="arm-cpu",
        device="armv9-mobile-sme2",
        needs={"quantization": "int8", "quantization_method": "qat"},
    )
    quantization = choice(result, "quantization")
    assert quantization.settings["method"] == "qat"
    # since review 126 p15 the stack's setting carries the PT2E QAT flow itself
    # (https://github.com/pytorch/ao/blob/36027d82d1ad9949597ea16002ff4940374b1b94/docs/source/pt2e_quantization/pt2e_quant_qat.rst)
    assert "prepare_qat_pt2e" in quantization.settings.get("as documented", "")
    assert "LLM" not in quantization.settings.get("as documented", "")


def test_long_context_training_names_the_frameworks_context_parallelism():
    # Megatron Core's context_parallel_size splits the input along the sequence dimension
    # (https://docs.nvidia.com/megatron-core/developer-guide/latest/apidocs/core/core.model_parallel_config.html);
    # MindSpeed documents ring and Ulysses context parallelism
    # (https://github.com/Ascend/MindSpeed/blob/master/docs/features/ring-attention-context-parallel.md)
    for hardware, device in (("nvidia-gpu", "h100-sxm"), ("ascend-npu", "ascend-910c")):
        result = answer(
            model_type="moe",
            hardware=hardware,
            device=device,
            workload="training",
            team_skill="hpc",
            needs={"devices": 64, "long_context": True},
        )
        framework = choice(result, "training-framework")
        assert any(r.text.startswith("long context:") for r in framework.rationale), hardware


def test_without_a_stack_a_portable_runtime_still_runs_its_own_kernels_and_a_qat_ask_is_explained():
    # ONNX Runtime's CPU execution provider runs its own kernels (MLAS) and does not run QAT; QAT models exported as
    # QDQ graphs run directly (https://onnxruntime.ai/docs/performance/model-optimizations/quantization.html)
    result = answer(
        model_type="cnn",
        hardware="arm-cpu",
        device="graviton4",
        team_skill="kernel",
        needs={"quantization": "int8", "quantization_method": "qat", "dynamic_shapes": True},
    )
    if choice(result, "deployment").option == "onnxruntime":
        assert {choice(result, c).option for c in ("gemm", "convolution")} == {"onnxruntime"}
        # with a stack (ONNX Runtime's INT8 CNN route on Graviton) the note also says the stack's page shows PTQ
        first = choice(result, "quantization").rationale[0].text
        assert first.startswith("QAT asked:") and "ONNX Runtime does not run QAT" in first


def test_a_stacks_own_long_context_page_is_cited_for_long_context_serving():
    # vllm-ascend's long-sequence context parallel tutorial: DeepSeek-V3.1-w8a8 on Atlas 800T A3
    # (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/features/long_sequence_context_parallel_multi_node.html)
    result = answer(
        model_type="moe",
        hardware="ascend-npu",
        device="ascend-910c",
        team_skill="kernel",
        needs={"quantization": "int8", "devices": 16, "long_context": True},
    )
    cites = {c.ref for r in choice(result, "deployment").rationale for c in r.cites}
    assert any(ref.endswith(".long_context") and ref.startswith("ascend-") for ref in cites)
