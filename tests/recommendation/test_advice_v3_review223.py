"""Advice v3, reviews 220-224: defects fixed in the twenty-eighth session, each pinned on the profile that showed it."""

from __future__ import annotations

from recommendation_builders import answer_for as answer
from recommendation_builders import answer_without, chosen_stack, considered

from advisor.knowledge.loader import load_knowledge_base


def test_a_library_whose_kernels_ship_inside_tier_1_is_not_rejected_for_the_skill_to_write_them():
    # Review 222 p03 (defect 5): "Rejected: composable-kernel - needs a hpc team; this team is kernel" beside a tier 1
    # that runs AITER, whose kernels are partly Composable Kernel (ROCm/aiter's README names Triton, CK, FlyDSL and
    # assembly kernels; .gitmodules pulls 3rdparty/composable_kernel, https://github.com/ROCm/aiter/blob/main/.gitmodules)
    result = answer(
        model_type="dense-transformer",
        hardware="amd-gpu",
        device="mi300x",
        workload="inference",
        team_skill="kernel",
        model="meta-llama/Llama-3.3-70B-Instruct",
        needs={"quantization": "fp8", "devices": 8},
    )
    assert result.stacks[0].stack == "amd-vllm-aiter-fp8-mi300x"
    assert "composable-kernel" not in {rejection.option for rejection in result.rejected}
    carried = load_knowledge_base().get("aiter").ships_kernels_of
    assert carried is not None and "composable-kernel" in carried.value


def test_a_grpo_job_takes_verls_main_trainer_before_its_experimental_fully_async_one():
    # Review 224 p03 (scored 1): verl's colocated main_ppo GRPO stack (verl's AMD quick start) was "not chosen: written
    # for Qwen/Qwen3-8B" while AMD's experimental fully-async trainer won as a whole fit. Both pages run one example
    # model through a trainer that takes any model verl supports
    # (https://github.com/verl-project/verl/blob/1dda039b9c6311889a9c9a26040677e1254814f9/README.md), and the async one is
    # experimental on its own page.
    result = answer(
        model_type="dense-transformer",
        hardware="amd-gpu",
        device="mi300x",
        workload="training",
        training="rl",
        team_skill="kernel",
        model="Qwen/Qwen2.5-7B-Instruct",
        needs={"devices": 8},
    )
    assert chosen_stack(result, "training") == "amd-verl-grpo-colocated-instinct"
    assert "as the example of a generic route" in considered(result, "amd-verl-grpo-colocated-instinct").reason
    assert "preview" in considered(result, "amd-verl-rl-instinct").reason


def test_a_diffusion_model_on_iluvatar_and_nvidia_shares_the_diffusers_pipeline_in_tier_3():
    # Review 224 p15 (scored 1): tier 3 said "no deployment option runs on iluvatar-gpu, nvidia-gpu" while tier 1 on
    # each side runs Diffusers: Iluvatar's DeepSparkInference recipes run the same pipelines from Iluvatar's Diffusers
    # wheel on CoreX PyTorch (https://github.com/Deep-Spark/DeepSparkInference/blob/master/models/multimodal/diffusion_model/stable-diffusion-1.5/diffusers/README.md)
    result = answer(
        model_type="diffusion",
        hardware="iluvatar-gpu",
        device="tiangai-150",
        workload="inference",
        model="stabilityai/stable-diffusion-xl-base-1.0",
        needs={"devices": 1, "cross_platform": True, "other_hardware": ["nvidia-gpu"], "other_devices": ["l40s"]},
    )
    deployment = next(c for c in result.tier(3).choices if c.concern == "deployment")
    assert deployment.option == "diffusers"
    assert "diffusers as the one runtime" in result.verdict


def test_a_pytorch_checkpoint_on_hygons_paddle_route_is_told_to_port_the_model():
    # Review 224 p14 (scored 1): a PyTorch ResNet-50 fine-tune on K100_AI got PaddlePaddle's DCU build with "no format
    # conversion" between training and serving, and no word that the PyTorch model must be ported (X2Paddle converts
    # PyTorch modules and training code, https://github.com/PaddlePaddle/X2Paddle/blob/581b22bfcfa20db9f1ce36cfb036efdf47c327eb/README_en.md)
    # (on a knowledge base without Hygon's DTK PyTorch CNN route, which leads such jobs since reviews 224/236 p14)
    result = answer_without(
        {"hygon-dtk-pytorch-cnn-k100-ai"},
        model_type="cnn",
        hardware="hygon-dcu",
        device="k100-ai",
        workload="both",
        training="fine-tuning",
        team_skill="kernel",
        model="microsoft/resnet-50",
        needs={"devices": 4},
    )
    assert chosen_stack(result, "training") == "hygon-paddle-dcu-training-z100"
    risks = " ".join(risk.text for stack in result.stacks for risk in stack.risks)
    assert "does not load a PyTorch or Hugging Face checkpoint" in risks and "X2Paddle" in risks


def test_a_64_gpu_pretraining_recipe_on_256_gpus_says_the_data_parallel_size_and_batch_change():
    # Review 224 p02: Megatron Bridge's llama3_70b_pretrain_64gpu_b200_fp8mx_config (TP2 PP4 VP5, global batch 256,
    # https://github.com/NVIDIA-NeMo/Megatron-Bridge/blob/067f987df03b8355b03192d88d70f1709fedf51a/src/megatron/bridge/perf_recipes/llama/b200/llama3.py)
    # was quoted as "DDP over the remaining 8 ranks" and "across the eight nodes" for a 256-GPU job.
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="b200",
        workload="training",
        training="pretraining",
        team_skill="hpc",
        parameters_b=70,
        needs={"quantization": "fp8", "quantization_method": "qat", "devices": 256},
    )
    assert chosen_stack(result, "training") == "nvidia-megatron-bridge-llama3-70b-b200"
    text = " ".join(risk.text for stack in result.stacks for risk in stack.risks)
    assert "32 on 256 GPUs" in text
    collectives = next(c for c in result.tier(1).choices if c.concern == "collectives")
    assert "the recipe's eight nodes" in collectives.settings["as documented"]


def test_the_float_fallback_counts_copies_as_the_capacity_line_does_on_the_pages_own_layout():
    # Review 223 p09: the capacity line served Llama-3.3-70B FP8 as "4 replicas of 4 (data parallel) as the page does"
    # (vLLM Neuron's TP 16 over logical cores, four Trn2 chips), while the fp8 accuracy gate said "the job's 16 hold 4
    # copies of it against 8 in fp8", counting fp8 copies by memory alone.
    result = answer(
        model_type="dense-transformer",
        hardware="aws-neuron",
        device="trn2",
        workload="inference",
        model="meta-llama/Llama-3.3-70B-Instruct",
        needs={"dynamic_shapes": True, "quantization": "fp8", "devices": 16},
    )
    assert any("4 replicas of 4" in line.text for line in result.capacity)
    gate = next(c for c in result.switch_conditions if c.id == "fp8-accuracy-drop")
    assert "copies of it against" not in gate.description


def test_a_4_bit_model_with_a_vendor_fp8_release_is_timed_against_that_release():
    # Review 223 p04: MXFP4 Llama-3.3-70B on one MI355X was timed against bf16 ("mxfp4_over_bf16") while its accuracy
    # gate fell back to AMD's FP8 release, amd/Llama-3.3-70B-Instruct-FP8-KV
    # (https://huggingface.co/amd/Llama-3.3-70B-Instruct-FP8-KV): the speed question is MXFP4 against that release.
    result = answer(
        model_type="dense-transformer",
        hardware="amd-gpu",
        device="mi355x",
        workload="inference",
        team_skill="kernel",
        model="meta-llama/Llama-3.3-70B-Instruct",
        needs={"dynamic_shapes": True, "quantization": "fp4", "long_context": True, "devices": 1},
    )
    speed = next(c for c in result.switch_conditions if c.id.endswith("-no-speedup"))
    assert speed.metric.endswith("_over_fp8") and "amd/Llama-3.3-70B-Instruct-FP8-KV" in speed.description
    gate = next(c for c in result.switch_conditions if c.id == "fp4-accuracy-drop")
    assert "amd/Llama-3.3-70B-Instruct-FP8-KV" in gate.description


def test_a_float_pretraining_job_races_its_frameworks_int8_training_recipe_on_speed_and_loss():
    # Review 223 p08: MaxText's int8 training recipe (Qwix; https://github.com/AI-Hypercomputer/maxtext/blob/main/docs/reference/core_concepts/quantization.md)
    # was weighed for an 8B bf16 pre-training on a v5p slice ("it may train faster, which its speed and loss against
    # bf16 on the target would show") with no switch condition to measure it.
    result = answer(
        model_type="dense-transformer",
        hardware="google-tpu",
        device="tpu-v5p",
        workload="training",
        training="pretraining",
        team_skill="kernel",
        parameters_b=8,
        needs={"devices": 128},
    )
    assert chosen_stack(result, "training") == "tpu-maxtext-pretraining"
    race = next(c for c in result.switch_conditions if c.id == "tpu-maxtext-int8-training-faster")
    assert race.metric == "evidence.training_throughput.int8_over_bf16"
    assert [p.metric for p in race.also] == ["evidence.int8_loss_gap"]


def test_a_concern_the_engine_does_itself_lists_only_what_the_engine_can_run_in_its_place():
    # Reviews 223 (record, defect 5) and 224 (defect 10): "tier 1 attention: tensorrt-llm, weighed against
    # flash-attention" and "gemm: tensorrt-llm, weighed against flashinfer, transformer-engine", options TensorRT-LLM does
    # not run; its attention backends are its own kernels and FlashInfer
    # (https://nvidia.github.io/TensorRT-LLM/features/attention.html).
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="inference",
        model="Qwen/Qwen3-235B-A22B-Instruct-2507-FP8",
        needs={"quantization": "fp8", "long_context": True, "devices": 8},
    )
    knowledge = load_knowledge_base()
    tier1 = {c.concern: c for c in result.tier(1).choices}
    assert tier1["deployment"].option == "tensorrt-llm"
    assert not tier1["gemm"].alternatives
    attention = tier1["attention"].alternatives
    assert set(attention) <= set(knowledge.compatibility.attention_kernels_of("tensorrt-llm"))
    quantizers = tier1["quantization"].alternatives
    assert set(quantizers) <= set(knowledge.compatibility.toolkits_loaded_by("tensorrt-llm"))
    assert {"onnxruntime", "sglang", "vllm"}.isdisjoint(quantizers)


def test_a_resnet_service_on_a_tiangai_150_takes_the_ixrt_route_measured_on_that_card():
    # Reviews 221 p15, 222 p13 and 226 p04 (each scored 1 on a BI-V150): Triton's IGIE backend (branch r22.12, no CoreX
    # tritonserver build, no card named) or IGIE scripts for the MR-V100 led. DeepSparkInference's DINOv2-base ixRT recipe
    # is measured on a BI-V150 and serves its engine over HTTP
    # (https://github.com/Deep-Spark/DeepSparkInference/blob/79773330fcac6696dd05e43a9304eaef18180499/models/cv/classification/dinov2/ixrt/README.md),
    # and ixRT builds any exported image network.
    on_tiangai = answer(
        model_type="cnn",
        hardware="iluvatar-gpu",
        device="tiangai-150",
        workload="inference",
        model="microsoft/resnet-50",
        needs={"dynamic_shapes": True, "devices": 1},
    )
    assert on_tiangai.stacks[0].stack == "iluvatar-ixrt-fastapi-tiangai-150"
    assert "as the example of a generic route" in considered(on_tiangai, "iluvatar-ixrt-fastapi-tiangai-150").reason
    assert "not tiangai-150" in considered(on_tiangai, "iluvatar-triton-igie-backend").reason
    # on the card IGIE is documented on, the backend with the ResNet-50 recipe validated there still serves
    on_zhikai = answer(
        model_type="cnn",
        hardware="iluvatar-gpu",
        device="zhikai-100",
        workload="inference",
        model="microsoft/resnet-50",
        needs={"quantization": "int8", "quantization_method": "ptq", "devices": 1},
    )
    assert on_zhikai.stacks[0].stack == "iluvatar-triton-igie-backend"


def test_litert_on_an_i8mm_phone_is_weighed_without_its_sme2_kernels():
    # Review 224 p11: LiteRT was turned away on an I8MM phone as "validated on armv9-mobile-sme2"; XNNPACK is LiteRT's
    # CPU backend on any arm64 Android phone (https://ai.google.dev/edge/lite/android), the KleidiAI SME2 kernels need SME2.
    result = answer(
        model_type="dense-transformer",
        hardware="arm-cpu",
        device="armv9-mobile-i8mm",
        workload="inference",
        team_skill="kernel",
        model="meta-llama/Llama-3.2-1B-Instruct",
        needs={
            "dynamic_shapes": True,
            "quantization": "int4",
            "quantization_method": "ptq",
            "devices": 1,
            "in_app": True,
        },
    )
    assert "validated on" not in considered(result, "arm-litert-xnnpack").reason
    assert any(c.id == "arm-litert-xnnpack-faster" for c in result.switch_conditions)
    stack = load_knowledge_base().stack("arm-litert-xnnpack")
    kleidiai = next(c for c in stack.components if c.candidate == "kleidiai")
    assert kleidiai.devices == ["armv9-mobile-sme2"]


def test_mindspeeds_own_model_recipes_lead_and_a_4k_script_is_a_partial_fit_for_long_context():
    # Reviews 224 p06 and 227 p06: DeepSeek-V3 pre-training on 512 A3 dies took the general MoE page, and the 4,096-token
    # recipe went unflagged for a long-context job; MindSpeed LLM ships pretrain_deepseek3_671b_4k_A3_ptd.sh
    # (--seq-length 4096, https://github.com/Ascend/MindSpeed-LLM/blob/master/examples/mcore/deepseek3/pretrain_deepseek3_671b_4k_A3_ptd.sh)
    deepseek = answer(
        model_type="moe",
        hardware="ascend-npu",
        device="ascend-910c",
        workload="training",
        training="pretraining",
        team_skill="hpc",
        model="deepseek-ai/DeepSeek-V3",
        needs={"long_context": True, "devices": 512},
    )
    assert chosen_stack(deepseek, "training") == "ascend-mindspeed-llm-deepseek3-671b"
    assert (
        "its recipe trains 4,096-token sequences" in considered(deepseek, "ascend-mindspeed-llm-deepseek3-671b").reason
    )
    # review 225 p06: Qwen3-235B-A22B's own page ships 64K-256K packed fine-tunes (--seq-length 65536 and up,
    # https://github.com/Ascend/MindSpeed-LLM/blob/master/examples/mcore/qwen3_moe/tune_qwen3_235b_a22b_64K_full_pack_A3_ptd.sh)
    qwen = answer(
        model_type="moe",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="training",
        training="fine-tuning",
        team_skill="hpc",
        model="Qwen/Qwen3-235B-A22B",
        needs={"long_context": True, "devices": 64},
    )
    assert chosen_stack(qwen, "training") == "ascend-mindspeed-llm-qwen3-235b-a22b"
    assert "token sequences" not in considered(qwen, "ascend-mindspeed-llm-qwen3-235b-a22b").reason


def test_an_awq_checkpoint_on_mlus_is_told_it_is_dequantized_at_load():
    # Review 227 p13 (scored 1): Qwen2.5-32B-AWQ on 4 x MLU590 was planned as int4 weights, while vllm_mlu's awq_mlu
    # has no scale-and-zero kernel and dequantizes an AutoAWQ (zero-point) checkpoint to float at load
    # (https://github.com/Cambricon/vllm-mlu/blob/b9925203b89ca6e57dcdc0fb3680bd037d796823/vllm_mlu/model_executor/layers/quantization/awq_mlu.py)
    result = answer(
        model_type="dense-transformer",
        hardware="cambricon-mlu",
        device="mlu590",
        workload="inference",
        model="Qwen/Qwen2.5-32B-Instruct-AWQ",
        needs={"dynamic_shapes": True, "quantization": "int4", "quantization_method": "ptq", "devices": 4},
    )
    assert result.stacks[0].stack == "cambricon-vllm-mlu-serving"
    watch = " ".join(risk.text for risk in result.stacks[0].risks)
    assert "dequantizes every weight to a float tensor" in watch and "sym true and desc_act false" in watch


def test_an_in_app_transcriber_is_not_told_of_a_serving_engines_batching():
    # Review 226 p12: "Not needed: dynamic-shapes ... the LLM serving engine's to batch (continuous batching)" in a
    # record for WhisperKit inside a macOS app, which has no serving engine
    # (https://github.com/argmaxinc/argmax-oss-swift)
    result = answer(
        model_type="dense-transformer",
        hardware="apple-silicon",
        device="apple-m4",
        workload="inference",
        task="transcription",
        model="openai/whisper-large-v3-turbo",
        needs={"dynamic_shapes": False, "devices": 1, "in_app": True},
    )
    skipped = next(s for s in result.skipped_concerns if s.concern == "dynamic-shapes")
    assert "continuous batching" not in " ".join(r.text for r in skipped.rationale)


def test_a_moe_rl_job_is_told_the_dense_recipe_is_the_pages_not_the_frameworks_limit():
    # Reviews 221 p05 and 226 p06: "documented for dense-transformer, not moe" read as MindSpeed-RL and verl training
    # no MoE, while MindSpeed-RL's README lists Qwen3-30B-A3B DAPO and DPO and Qwen3-235B-A22B GRPO
    # (https://github.com/Ascend/MindSpeed-RL/blob/05a90d77cb6cfad8999e2aee21068284db959579/README.md)
    result = answer(
        model_type="moe",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="training",
        training="rl",
        team_skill="kernel",
        model="Qwen/Qwen3-30B-A3B",
        needs={"devices": 16},
    )
    reason = considered(result, "ascend-mindspeed-rl-grpo").reason
    # (its maintenance-only README leads since review 258 p09: a superseded route says so first)
    assert "its settings here are its dense-transformer recipe's" in reason and "itself trains moe" in reason


def test_the_teams_own_release_in_the_asked_format_gets_a_first_run_gate_where_the_stack_falls_back():
    # Review 225 p14 (scored 1): Qwen2.5-14B-Instruct-AWQ on Hygon K100_AI was served in bf16 (no Hygon page documents
    # int4; https://github.com/HYGON-AI/inference-cookbook-das) with no measurable way to try the team's AWQ checkpoint
    result = answer(
        model_type="dense-transformer",
        hardware="hygon-dcu",
        device="k100-ai",
        workload="inference",
        team_skill="kernel",
        model="Qwen/Qwen2.5-14B-Instruct-AWQ",
        needs={"dynamic_shapes": True, "quantization": "int4", "quantization_method": "ptq", "devices": 2},
    )
    gate = next(c for c in result.switch_conditions if c.id == "int4-release-on-target")
    assert gate.metric == "evidence.inference_throughput.int4_over_bf16"
    assert "Qwen/Qwen2.5-14B-Instruct-AWQ loads on" in gate.description


def test_an_rl_recipes_prompt_and_response_lengths_count_as_its_sequence_for_long_context():
    # Review 229 p15: verl's Qwen3-8B GRPO recipe (max prompt 512 / response 1,024 tokens,
    # https://github.com/verl-project/verl/blob/main/examples/grpo_trainer/run_qwen3-8b.sh) passed as a whole fit for a
    # long-context job, where 4K pre-training recipes are partial fits
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h200-sxm",
        workload="training",
        training="rl",
        team_skill="kernel",
        model="Qwen/Qwen3-8B",
        needs={"long_context": True, "devices": 8},
    )
    reason = considered(result, chosen_stack(result, "training")).reason
    assert "its recipe trains 1,536-token sequences" in reason


def test_sglang_is_not_said_to_load_a_torchao_checkpoint():
    # Review 229 p14 (scored 1): tier 3 served "one fp8 checkpoint written by torchao" on SGLang on L40S and MI300X;
    # torchao's serving page says SGLang is "Coming soon!"
    # (https://github.com/pytorch/ao/blob/main/docs/source/eager_tutorials/serving.rst) and SGLang documents torchao as
    # online quantization only, Partial on AMD (https://docs.sglang.io/advanced_features/quantization.html)
    assert "sglang" not in load_knowledge_base().compatibility.loaders_of("torchao")
    result = answer(
        model_type="multimodal",
        hardware="nvidia-gpu",
        device="l40s",
        workload="inference",
        model="Qwen/Qwen2.5-VL-7B-Instruct",
        needs={"quantization": "fp8", "devices": 1, "cross_platform": True, "other_hardware": ["amd-gpu"]},
    )
    assert "written by torchao" not in (result.verdict or "")


def test_a_zero_stage_2_recipe_that_the_jobs_devices_cannot_hold_is_a_partial_fit():
    # Review 229 p13 (scored 1): OpenRLHF's Llama3-8B SFT (--zero_stage 2 on 16 BI-V150,
    # https://github.com/Deep-Spark/DeepSparkHub/tree/master/models/nlp/llm/llama3_8b/openrlhf) was "fits the whole
    # profile" for 8 cards, where its own capacity line counted about 30 GB a device against 29 usable
    result = answer(
        model_type="dense-transformer",
        hardware="iluvatar-gpu",
        device="tiangai-150",
        workload="training",
        training="fine-tuning",
        model="meta-llama/Meta-Llama-3-8B",
        needs={"devices": 8},
    )
    reason = considered(result, "iluvatar-openrlhf-llama3-tiangai-150").reason
    assert reason.startswith("its settings run ZeRO stage 2") and "ZeRO stage 3" in reason
    assert chosen_stack(result, "training") != "iluvatar-openrlhf-llama3-tiangai-150"
    # on the recipe's own 16 cards the weights and their share of the rest fit
    sixteen = answer(
        model_type="dense-transformer",
        hardware="iluvatar-gpu",
        device="tiangai-150",
        workload="training",
        training="fine-tuning",
        model="meta-llama/Meta-Llama-3-8B",
        needs={"devices": 16},
    )
    assert "ZeRO stage 2" not in considered(sixteen, "iluvatar-openrlhf-llama3-tiangai-150").reason


def test_a_one_device_diffusion_lora_with_no_stack_names_the_library_that_trains_it():
    # Review 230 p14 (scored 1): an SDXL LoRA on one Hygon K100_AI was told only "the framework's own training loop";
    # Diffusers ships the LoRA training scripts (https://huggingface.co/docs/diffusers/training/overview) and runs on
    # Hygon's DTK PyTorch build (https://github.com/HYGON-AI/inference-cookbook-das)
    result = answer(
        model_type="diffusion",
        hardware="hygon-dcu",
        device="k100-ai",
        workload="training",
        training="lora",
        model="stabilityai/stable-diffusion-xl-base-1.0",
        parameters_b=3.5,
        needs={"devices": 1},
    )
    skipped = next(s for s in result.skipped_concerns if s.concern == "training-framework")
    assert "Hugging Face Diffusers (PyTorch)'s own training scripts carry it" in skipped.rationale[0].text


def test_a_diffusion_models_int8_gate_scores_its_images_not_only_a_tensor_error():
    # Reviews 227 p12 and 229 p10: SDXL in a Mac app was gated on INT8 by a tensor max relative error alone, an error
    # that compounds over the denoising steps; Model Optimizer's diffusers evaluation scores images by ImageReward
    # (https://github.com/NVIDIA/TensorRT-Model-Optimizer/blob/2017cd9063b4a7af890e0177492fc59bafce4ae7/examples/diffusers/eval/README.md)
    result = answer(
        model_type="diffusion",
        hardware="apple-silicon",
        device="apple-m4",
        workload="inference",
        model="stabilityai/stable-diffusion-xl-base-1.0",
        needs={"devices": 1, "in_app": True},
    )
    gate = next(c for c in result.switch_conditions if c.id == "int8-pays-on-target")
    assert "evidence.int8_accuracy_drop" in [p.metric for p in gate.also]
    assert "mean ImageReward" in gate.description


def test_a_palettized_in_app_model_steps_back_to_more_bits_not_finer_scales():
    # Review 230 p12: WhisperKit's compressed variants are 4-bit palettized (each weight an index into a float16 table,
    # https://apple.github.io/coremltools/docs-guides/source/post-training-palettization.html), yet the int4 gate said
    # "quantize with finer scales (smaller groups...)"
    result = answer(
        model_type="dense-transformer",
        hardware="apple-silicon",
        device="apple-m4",
        workload="inference",
        task="transcription",
        model="openai/whisper-large-v3-turbo",
        needs={
            "dynamic_shapes": True,
            "quantization": "int4",
            "quantization_method": "ptq",
            "devices": 1,
            "in_app": True,
        },
    )
    assert result.stacks[0].stack == "apple-whisperkit-coreml"
    gate = next(c for c in result.switch_conditions if c.id == "int4-accuracy-drop")
    assert "palettize with more bits" in gate.description and "finer scales" not in gate.description


def test_cambricons_own_engine_leads_a_vision_language_job_with_a_first_run_gate():
    # Reviews 214 p11, 226 p13 and 232 p13 (each scored 1): Qwen2.5-VL on MLU590 led with xLLM, whose page names no MLU
    # device and ships no MLU image, while vllm_mlu keeps upstream vLLM's model classes (its registry overrides DeepSeek
    # alone, https://github.com/Cambricon/vllm-mlu/blob/b9925203b89ca6e57dcdc0fb3680bd037d796823/vllm_mlu/model_executor/models/__init__.py)
    result = answer(
        model_type="multimodal",
        hardware="cambricon-mlu",
        device="mlu590",
        workload="inference",
        model="Qwen/Qwen2.5-VL-7B-Instruct",
        needs={"dynamic_shapes": True, "devices": 2},
    )
    assert result.stacks[0].stack == "cambricon-vllm-mlu-serving"
    assert considered(result, "cambricon-vllm-mlu-serving").reason.startswith("its page names no multimodal model")
    ids = [c.id for c in result.switch_conditions]
    assert "upstream-model-gate" in ids and "cambricon-xllm-vlm-serving-faster" in ids
    gate = next(c for c in result.switch_conditions if c.id == "upstream-model-gate")
    assert "xLLM" in gate.description


def test_a_cnn_fine_tune_on_an_mlu590_races_torch_mlus_own_bf16_autocast_against_fp32():
    # Review 231 p12 (scored 1): a ResNet-50 fine-tune on MLU590s was planned in fp32 alone, while torch_mlu ships AMP
    # (torch.mlu.amp.autocast / torch.autocast("mlu"), GradScaler;
    # https://github.com/Cambricon/torch_mlu/blob/4ef769f3867d810f80152dec119ef93e7d73b54a/torch_mlu/mlu/amp/autocast_mode.py)
    result = answer(
        model_type="cnn",
        hardware="cambricon-mlu",
        device="mlu590",
        workload="training",
        training="fine-tuning",
        model="microsoft/resnet-50",
        needs={"devices": 8},
    )
    assert chosen_stack(result, "training") == "cambricon-torch-mlu-ddp-training"
    race = next(c for c in result.switch_conditions if c.id == "bf16-training-pays")
    assert race.metric == "evidence.training_throughput.bf16_over_fp32"


def test_the_profile_guide_states_the_reference_evidence_cap_the_engine_applies():
    # Reviews 221 and 233 p02: the guide said reference evidence raises the confidence "to 0.70 at most" while the
    # engine and the README's sample say 0.75 (policy.REFERENCE_CAP, raised in session 27)
    from pathlib import Path

    from advisor.recommendation.policy import REFERENCE_CAP

    guide = (Path(__file__).resolve().parents[2] / "site" / "guide" / "profile.md").read_text(encoding="utf-8")
    assert f"to {REFERENCE_CAP:.2f} at most" in guide


def test_an_inf2_chip_takes_awss_own_vllm_route_its_two_cores_running_the_tensor_parallelism():
    # Review 234 p07 (scored 1): Llama-3.1-8B on one Inferentia2 chose Optimum Neuron over AWS's vLLM + NxD Inference
    # route (https://awsdocs-neuron.readthedocs-hosted.com/en/v2.28.1/libraries/nxd-inference/developer_guides/vllm-user-guide-v1.html)
    # because that page's layout spans several devices, while both run TP 2 over the chip's two NeuronCores
    result = answer(
        model_type="dense-transformer",
        hardware="aws-neuron",
        device="inf2",
        workload="inference",
        model="meta-llama/Llama-3.1-8B-Instruct",
        needs={"devices": 1},
    )
    assert result.stacks[0].stack == "neuron-vllm-nxdi-inf2-trn1"
    assert considered(result, "neuron-vllm-nxdi-inf2-trn1").reason == "fits the whole profile"


def test_a_narrower_format_switch_encodes_the_gate_its_text_states_and_rl_timing_names_its_own_check():
    # Review 234 p15: "inference-in-mxfp4" carried no accuracy predicate ("also: []") though its text asks for one, and
    # "rl-generation-share" named "advisor probe attention" as its check (verl's own step timings measure it,
    # https://github.com/verl-project/verl/blob/a74fc52e75e31b4f754d64507e2b99056c8e61c2/docs/advance/one_step_off.md)
    result = answer(
        model_type="moe",
        hardware="amd-gpu",
        device="mi355x",
        workload="both",
        training="rl",
        team_skill="hpc",
        model="Qwen/Qwen3-30B-A3B",
        needs={"quantization": "fp8", "devices": 16},
    )
    narrower = next(c for c in result.switch_conditions if c.id == "inference-in-mxfp4")
    assert [p.metric for p in narrower.also] == ["evidence.mxfp4_accuracy_drop"]
    share = next(c for c in result.switch_conditions if c.id == "rl-generation-share")
    assert share.rerun.startswith("a short RL run of the chosen recipe")


def test_a_training_fleets_serving_copy_is_sized_by_what_holds_the_weights_not_a_page_layout_that_does_not():
    # Review 236 p06: Qwen3-30B-A3B in bf16 (about 60 GB) "fits on 1 device" of a 910C die's 58 GB usable, the one-device
    # layout being vllm-ascend's W8A8 one (https://docs.vllm.ai/projects/ascend/en/v0.18.0/tutorials/models/Qwen3-30B-A3B.html)
    result = answer(
        model_type="moe",
        hardware="ascend-npu",
        device="ascend-910c",
        workload="both",
        training="fine-tuning",
        team_skill="hpc",
        model="Qwen/Qwen3-30B-A3B",
        needs={"devices": 16},
    )
    serving = result.capacity[-1].text
    assert "about 60 GB in bf16" in serving and "fits on 1 device" not in serving
