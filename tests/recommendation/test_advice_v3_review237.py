"""Advice v3, reviews 229-238: defects fixed late in the twenty-eighth session, each pinned on the profile that showed
it."""

from __future__ import annotations

from recommendation_builders import answer_for as answer
from recommendation_builders import chosen_stack, profile

from advisor.knowledge.loader import load_knowledge_base
from advisor.recommendation.choices import risk_applies


def test_tier_1_heading_names_an_independent_trainer_beside_a_vendor_serving_stack():
    # Review 229 p15: "Tier 1: official full stack" over vLLM's serving stack and verl's GRPO trainer, an independent
    # project's (https://github.com/verl-project/verl#readme), while tier 1's own note named it as such.
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h200-sxm",
        workload="both",
        training="rl",
        team_skill="kernel",
        model="Qwen/Qwen3-8B",
        needs={"long_context": True, "devices": 8},
    )
    assert chosen_stack(result, "training").startswith("nvidia-verl-")
    assert "training stack: an independent project's engine" in result.tier(1).name
    assert "serving stack: an independent" not in result.tier(1).name


def test_a_moe_full_fine_tune_on_mi355x_takes_primus_post_training_not_a_pretraining_benchmark():
    # Reviews 235 p04 and 238 p04 (each scored 1): a full fine-tune of Qwen3-30B-A3B on MI355X took Primus's Megatron-LM
    # pre-training benchmark config (random weights, mock data, no Hugging Face import). Primus's post-training route
    # imports the checkpoint and its Qwen3-30B-A3B model YAML names Megatron Bridge's qwen3_30b_a3b_finetune_config,
    # whose full-SFT branch is TP 4, PP 2, EP 4
    # (https://github.com/AMD-AGI/Primus/blob/fd1eeabbad15135e3702094087e96142b4b4eacb/primus/configs/models/megatron_bridge/qwen3_30b_a3b.yaml)
    result = answer(
        model_type="moe",
        hardware="amd-gpu",
        device="mi355x",
        workload="training",
        training="fine-tuning",
        team_skill="kernel",
        model="Qwen/Qwen3-30B-A3B",
        needs={"long_context": True, "devices": 8},
    )
    assert chosen_stack(result, "training") == "amd-primus-megatron-bridge-qwen3-moe-sft"
    # the pre-training page's word on importing weights for continued pre-training is no part of this verdict
    assert "a considered stack's page" not in result.verdict


def test_a_serving_launch_capped_below_long_context_gets_a_gate_naming_what_to_measure():
    # Reviews 230 p09 and 232 p09: vLLM Neuron's Llama 3.3 70B tutorial launches at --max-model-len 16384
    # (https://github.com/aws-neuron/aws-neuron-sdk/blob/43a89626d2aa0f9f649b581df8dfefe85b2b603d/vllm-neuron/docs/tutorials/tutorial-llama3-70b.md)
    # and a long-context job was left "with no route and no switch" past it
    result = answer(
        model_type="dense-transformer",
        hardware="aws-neuron",
        device="trn2",
        workload="inference",
        team_skill="framework",
        model="meta-llama/Llama-3.3-70B-Instruct",
        needs={"long_context": True, "devices": 16},
    )
    gate = next(s for s in result.switch_conditions if s.id == "context-cap-gate")
    assert "recompiled) for 32,768-token requests (its page stops at 16,384)" in gate.description
    assert gate.metric == "evidence.served_context_tokens.neuron-vllm-neuron-llama3-fp8"
    within = answer(
        model_type="dense-transformer",
        hardware="aws-neuron",
        device="trn2",
        workload="inference",
        team_skill="framework",
        model="meta-llama/Llama-3.3-70B-Instruct",
        needs={"devices": 16},
    )
    assert all(s.id != "context-cap-gate" for s in within.switch_conditions)


def test_a_pytorch_cnn_on_hygon_k100_ai_takes_dtk_pytorch_not_a_paddle_port():
    # Reviews 224 p14 and 236 p14 (each scored 1): a PyTorch ResNet/ConvNeXt job on K100_AI was sent to PaddlePaddle's
    # Z100 build on DTK 24.04.1 in fp32. Hygon's training cookbook runs PyTorch 2.9.0 on DTK 26.04 from its own image
    # (https://github.com/HYGON-AI/train-cookbook-das/blob/e392b2f11c47514564e0fd8e767fa9a369528851/docs/getting-started.md)
    result = answer(
        model_type="cnn",
        hardware="hygon-dcu",
        device="k100-ai",
        workload="both",
        training="fine-tuning",
        team_skill="kernel",
        model="microsoft/resnet-50",
        needs={"devices": 4},
    )
    assert chosen_stack(result, "training") == "hygon-dtk-pytorch-cnn-k100-ai"
    assert chosen_stack(result, "inference") == "hygon-dtk-pytorch-cnn-k100-ai"
    paddle = next(option for option in result.stacks_considered if option.stack == "hygon-paddle-dcu-training-z100")
    assert not paddle.chosen


def test_a_lora_hand_off_names_where_the_adapter_export_command_is_not_a_step_below():
    # Review 237 p08: "export the adapter as below" while no step followed in the verdict; MaxText's converter writes the
    # adapter in PEFT format (https://github.com/AI-Hypercomputer/maxtext/blob/maxtext-v0.2.4/docs/tutorials/posttraining/lora.md)
    result = answer(
        model_type="dense-transformer",
        hardware="google-tpu",
        device="tpu-v6e",
        workload="both",
        training="lora",
        team_skill="framework",
        model="meta-llama/Llama-3.1-8B-Instruct",
        needs={"devices": 8},
    )
    assert result.verdict is not None
    assert "as below" not in result.verdict
    assert "with the training stack's own converter (the command is in `advisor kb stack tpu-maxtext-sft`)" in (
        result.verdict
    )


def test_tier_1_does_not_call_an_independent_engine_on_a_vendor_page_proven_and_supported():
    # Review 238 p14: "documented full stack (an independent project's engine ...)" over ComfyUI on Hygon's cookbook,
    # then "on the vendor's own libraries: proven, supported, least to maintain" on the next line
    # (https://github.com/HYGON-AI/inference-cookbook-das). Since reviews 238/254 p12 ComfyUI is a workflow app that a
    # Diffusers pipeline comes before, so the note is checked on a knowledge base where ComfyUI is the one whole fit.
    from advisor.knowledge.loader import load_knowledge_base
    from advisor.profile import parse_profile
    from advisor.recommendation.engine import recommend

    full = load_knowledge_base()
    stacks = tuple(
        stack.model_copy(update={"workflow_app": None}) if stack.id == "hygon-comfyui-cookbook-hcu" else stack
        for stack in full.stacks
        if stack.id != "hygon-diffusers-image-cookbook-hcu"
    )
    profile = parse_profile(
        "model_type: diffusion\nhardware: hygon-dcu\ndevice: k100-ai\nworkload: inference\nteam_skill: kernel\n"
        "model: stabilityai/stable-diffusion-xl-base-1.0\nneeds: {devices: 1}\n"
    )
    result = recommend(profile, [], full.model_copy(update={"stacks": stacks}))
    tier1 = result.tier(1)
    assert "an independent project's engine" in tier1.name
    notes = " ".join(note.text for note in tier1.notes)
    assert "proven, supported" not in notes and "not the vendor, test and support it" in notes


def test_an_sdxl_service_on_hygon_takes_the_diffusers_pipeline_before_comfyuis_workflow_app():
    # Reviews 238 p14 and 254 p12 (each scored 1): ComfyUI's node-graph app served SDXL on a K100_AI; its API client
    # posts a workflow JSON and sleeps ten seconds, with no authentication
    # (https://github.com/HYGON-AI/inference-cookbook-das/blob/ad2a8ffae71a43eb655296ecf562a35c2c5a0bd6/docs/model-deployment/diffusion/comfyui-hcu.md)
    result = answer(
        model_type="diffusion",
        hardware="hygon-dcu",
        device="k100-ai",
        workload="inference",
        team_skill="framework",
        model="stabilityai/stable-diffusion-xl-base-1.0",
        needs={"devices": 1},
    )
    assert chosen_stack(result, "inference") == "hygon-diffusers-image-cookbook-hcu"
    comfy = next(row for row in result.stacks_considered if row.stack == "hygon-comfyui-cookbook-hcu")
    assert comfy.reason.startswith("an interactive workflow app, not a service")


def test_a_bf16_service_takes_the_bf16_page_before_an_fp8_page_that_lists_the_model_it_calibrates():
    # Review 238 p07: a bf16 Llama-3.1-8B service on Gaudi 2 got vllm-gaudi's FP8 page ("vllm serve --quantization inc
    # --kv-cache-dtype fp8_inc", then "serve bf16 with none of its fp8 settings") over the BF16 page that fits as well,
    # because the FP8 page's calibration list names the model
    # (https://github.com/vllm-project/vllm-gaudi/blob/main/docs/configuration/quantization/inc.md)
    result = answer(
        model_type="dense-transformer",
        hardware="intel-gaudi",
        device="gaudi2",
        workload="inference",
        team_skill="framework",
        model="meta-llama/Llama-3.1-8B-Instruct",
        needs={"quantization": "none", "devices": 8},
    )
    assert chosen_stack(result, "inference") == "gaudi-vllm-bf16"
    fp8 = answer(
        model_type="dense-transformer",
        hardware="intel-gaudi",
        device="gaudi2",
        workload="inference",
        team_skill="framework",
        model="meta-llama/Llama-3.1-8B-Instruct",
        needs={"quantization": "fp8", "devices": 8},
    )
    assert chosen_stack(fp8, "inference") == "gaudi-vllm-fp8-inc"


def test_a_rejected_frameworks_word_on_loading_the_model_stays_out_of_the_verdict():
    # Reviews 239 p12 and 240 p12: the verdict for Hygon's DTK PyTorch route carried PaddlePaddle's porting paragraph
    # ("does not load a PyTorch or Hugging Face checkpoint ... X2Paddle"), a rejected stack's word about its own engine
    result = answer(
        model_type="cnn",
        hardware="hygon-dcu",
        device="k100-ai",
        workload="training",
        training="fine-tuning",
        team_skill="kernel",
        model="microsoft/resnet-50",
        needs={"devices": 8},
    )
    assert chosen_stack(result, "training") == "hygon-dtk-pytorch-cnn-k100-ai"
    assert result.verdict is not None and "X2Paddle" not in result.verdict


def test_an_rl_jobs_fp8_switch_gates_on_validation_accuracy_not_loss_and_names_no_other_model():
    # Review 239 p14: the GRPO job's training-in-fp8 switch gated on "evidence.fp8_loss_gap" (an RL loss is no quality
    # signal; NeMo RL's FP8 guide judges FP8 by validation accuracy and the token-probability error,
    # https://github.com/NVIDIA-NeMo/RL/blob/7ea279abfbeb698b092856d0dab61e7cf39bc909/docs/fp8.md) and told a
    # Qwen2.5-7B team to "compare a Qwen3-32B run"
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="training",
        training="rl",
        team_skill="kernel",
        model="Qwen/Qwen2.5-7B-Instruct",
        needs={"devices": 8},
    )
    fp8 = next(s for s in result.switch_conditions if s.id == "training-in-fp8")
    assert "loss_gap" not in str(fp8.model_dump()) and "fp8_accuracy_drop" in str(fp8.model_dump())
    assert "Qwen3-32B" not in fp8.description


def test_a_portable_diffusers_route_names_each_familys_libraries_not_triton_beyond_the_team():
    # Review 240 p14: FLUX.1-dev FP8 on H100 and MI300X led with tier 3, whose gemm and attention were "triton (beyond
    # the team's skill)", while Diffusers with torchao float8 and SDPA writes no kernel
    # (https://huggingface.co/docs/diffusers/main/en/quantization/torchao)
    result = answer(
        model_type="diffusion",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="inference",
        team_skill="framework",
        model="black-forest-labs/FLUX.1-dev",
        needs={
            "quantization": "fp8",
            "quantization_method": "ptq",
            "devices": 1,
            "cross_platform": True,
            "other_hardware": ["amd-gpu"],
            "other_devices": ["mi300x"],
        },
    )
    tier3 = result.tier(3)
    assert not any(c.option == "triton" for c in tier3.choices)
    assert tier3.fits_team
    gemm = next(g for g in tier3.gaps if g.concern == "gemm")
    assert "nvidia-gpu: cublas" in gemm.rationale[0].text and "amd-gpu: hipblaslt" in gemm.rationale[0].text


def test_a_layout_that_departs_from_a_per_size_page_says_the_memory_decides():
    # Review 240 p13: "tensor parallel 2 over the 2 devices (the page sets the degree by model size)" beside a page
    # that gives TP 1 for a 14B model; the real reason is 28 GB of bf16 weights on a 32 GB Tiangai 150
    result = answer(
        model_type="dense-transformer",
        hardware="iluvatar-gpu",
        device="tiangai-150",
        workload="inference",
        team_skill="framework",
        model="Qwen/Qwen2.5-14B-Instruct",
        needs={"quantization": "none", "devices": 2},
    )
    deployment = next(c for c in result.tier(1).choices if c.concern == "deployment")
    assert "here one copy with room for its KV cache takes 2 devices" in deployment.settings["layout here"]


def test_a_transformer_job_gets_no_convolution_layout_risk_under_attention():
    # Review 239 p14: cuDNN's NHWC-against-NCHW layout risk (method#layout) was the watch line under attention for a
    # GRPO job on a transformer, which has no convolutions
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="training",
        training="rl",
        team_skill="kernel",
        model="Qwen/Qwen2.5-7B-Instruct",
        needs={"devices": 8},
    )
    texts = [r.text for tier in result.tiers for c in tier.choices for r in c.rationale]
    assert not any("NHWC" in text for text in texts)
    layout = load_knowledge_base().get("cudnn").risks[1].value
    assert "NHWC" in layout
    assert risk_applies(layout, profile(model_type="cnn", hardware="nvidia-gpu", workload="inference"))
    assert not risk_applies(layout, profile(model_type="dense-transformer", hardware="nvidia-gpu", workload="training"))


def test_a_superseded_trn1_training_route_names_its_successor_as_the_exit():
    # Review 238 p09: NxD Training pinned at Neuron 2.28 on Trn1 had no exit condition; AWS tells NxDT users to stay on
    # 2.28 until they move to native PyTorch on Neuron with TorchTitan
    # (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/about-neuron/announcements/neuron2.x/announce-eos-nxdt-nxd-core-training.html)
    result = answer(
        model_type="dense-transformer",
        hardware="aws-neuron",
        device="trn1",
        workload="training",
        training="fine-tuning",
        team_skill="framework",
        model="meta-llama/Llama-3.1-8B",
        needs={"devices": 16},
    )
    assert chosen_stack(result, "training") == "neuron-nxdt-pretraining-228"
    assert any(s.id == "neuron-torchtitan-pretraining-on-trn1" for s in result.switch_conditions)


def test_a_recipe_for_a_model_of_the_same_architecture_backs_the_choice_as_a_general_page_does():
    # Review 242 p07: vLLM Neuron's Llama 3.3 70B recipe for a Llama 3.1 70B job was "a partial fit" at 0.42, citing an
    # NVIDIA training page; torchtune builds Llama 3.3 70B with the Llama 3.1 70B builders
    # (https://github.com/pytorch/torchtune/blob/main/torchtune/models/llama3_3/_model_builders.py)
    result = answer(
        model_type="dense-transformer",
        hardware="aws-neuron",
        device="trn2",
        workload="inference",
        team_skill="framework",
        model="meta-llama/Llama-3.1-70B-Instruct",
        needs={"quantization": "none", "devices": 16},
    )
    assert chosen_stack(result, "inference") == "neuron-vllm-neuron-llama3-fp8"
    assert result.verdict is not None and "a partial fit" not in result.verdict
    assert "torchtune" in result.verdict and "Megatron-Bridge" not in result.verdict
    assert result.confidence >= 0.55


def test_a_device_with_no_memory_figure_still_gets_the_weights_size_and_the_replica_advice():
    # Reviews 239 p11, 241 p13 and 242 p11: "capacity: not checked" on the MLU590 (Cambricon publishes no memory figure
    # the knowledge base holds) left a 7B model on 4 cards with no size and no replica-or-split advice
    result = answer(
        model_type="dense-transformer",
        hardware="cambricon-mlu",
        device="mlu590",
        workload="inference",
        team_skill="framework",
        model="Qwen/Qwen2.5-7B-Instruct",
        needs={"quantization": "none", "devices": 4},
    )
    text = " ".join(line.text for line in result.capacity)
    assert "not checked" in text and "weights take about" in text
    assert "serve a replica per device" in text


def test_a_recipe_of_replicated_workers_says_whole_workers_fit_one_node():
    # Reviews 241 and 243 p01: NVIDIA's Dynamo Qwen3-235B-A22B-FP8 recipe was rejected as "documented across several
    # nodes only", while its aggregated worker is 4 GPUs (TP4 x EP4) replicated four times
    # (https://github.com/ai-dynamo/dynamo/blob/main/recipes/qwen3-235b-a22b-fp8/README.md), so one 8-GPU node runs two
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="h200-sxm",
        workload="inference",
        team_skill="framework",
        model="Qwen/Qwen3-235B-A22B",
        needs={"quantization": "fp8", "devices": 8},
    )
    dynamo = next(o for o in result.stacks_considered if o.stack == "nvidia-dynamo-trtllm-qwen3-235b-fp8")
    assert "documented as 4-device workers replicated across nodes" in dynamo.reason
    assert "run 2 of them on one node" in dynamo.reason


def test_a_megatron_rl_trainer_on_amd_names_transformer_engines_attention_not_the_platform_default():
    # Reviews 242 p14 and 243 p04: GRPO of Qwen3-30B-A3B on MI355X (verl, Megatron trainer, vLLM rollout) had
    # "attention flash-attention", the platform's default, which neither side runs; Megatron's layers come from
    # Transformer Engine, whose ROCm fork runs fused attention through AOTriton and CK/AITER
    # (https://github.com/ROCm/TransformerEngine)
    result = answer(
        model_type="moe",
        hardware="amd-gpu",
        device="mi355x",
        workload="training",
        training="rl",
        team_skill="kernel",
        model="Qwen/Qwen3-30B-A3B",
        needs={"long_context": True, "devices": 8},
    )
    assert chosen_stack(result, "training") == "amd-verl-megatron-moe-grpo-instinct"
    attention = next(c for c in result.tier(1).choices if c.concern == "attention")
    assert attention.option == "transformer-engine"


def test_a_training_state_sized_to_the_fewest_devices_also_gives_the_count_with_room_for_activations():
    # Review 243 p06: DeepSeek-V3's full fine-tune state (10,736 GB) was sized to "at least 12 nodes of 16 (192
    # devices)", which leaves about 1.7 GB per Ascend die for activations
    result = answer(
        model_type="moe",
        hardware="ascend-npu",
        device="ascend-910c",
        workload="training",
        training="fine-tuning",
        team_skill="hpc",
        model="deepseek-ai/DeepSeek-V3",
        parameters_b=671,
        needs={"devices": 128},
    )
    text = " ".join(line.text for line in result.capacity)
    assert "192 devices" in text and "with a fifth of each device kept for them, 15 nodes (240 devices)" in text


def test_a_kernel_teams_tier_2_names_the_vendors_own_kernel_route_beyond_it():
    # Review 244 p04: an AMD kernel team's tier 2 listed Triton alone; AMD's own kernel route is Composable Kernel
    # ("for writing performance critical kernels ... through HIP C++",
    # https://rocm.docs.amd.com/projects/composable_kernel/en/develop/_sources/index.rst), an hpc team's tool
    result = answer(
        model_type="dense-transformer",
        hardware="amd-gpu",
        device="mi300x",
        workload="inference",
        team_skill="kernel",
        model="meta-llama/Llama-3.1-70B-Instruct",
        needs={"quantization": "fp8", "devices": 8},
    )
    notes = " ".join(note.text for note in result.tier(2).notes)
    assert "the vendor's own kernel route on amd-gpu, AMD Composable Kernel" in notes and "an hpc team" in notes
    hpc = answer(
        model_type="dense-transformer",
        hardware="amd-gpu",
        device="mi300x",
        workload="inference",
        team_skill="hpc",
        model="meta-llama/Llama-3.1-70B-Instruct",
        needs={"quantization": "fp8", "devices": 8},
    )
    assert "the vendor's own kernel route" not in " ".join(note.text for note in hpc.tier(2).notes)


def test_an_int8_image_model_on_a_gpu_is_timed_against_its_fp16_engine_not_fp32():
    # Review 245 p14: ResNet-50 INT8 on an L40S was told to "serve fp32" where INT8 does not pay; TensorRT's float
    # engine on a GPU is FP16 (TensorRT 11 builds it by strong typing with ModelOpt AutoCast,
    # https://docs.nvidia.com/deeplearning/tensorrt/latest/api/migration/tensorrt-10x-to-11x-c-api-reference.html)
    result = answer(
        model_type="cnn",
        hardware="nvidia-gpu",
        device="l40s",
        workload="inference",
        team_skill="kernel",
        model="microsoft/resnet-50",
        needs={"quantization": "int8", "quantization_method": "ptq", "devices": 1},
    )
    pays = next(s for s in result.switch_conditions if s.id == "int8-no-speedup")
    assert pays.metric == "evidence.inference_throughput.int8_over_fp16"


def test_a_recipe_that_sets_its_kv_dtype_keeps_it_and_its_attention_dp_layout_is_raced():
    # Review 246 p01: DeepSeek-V3 FP8 on 8x H200 took TensorRT-LLM's Hopper recipe, whose KV cache is dtype auto
    # (https://nvidia.github.io/TensorRT-LLM/deployment-guide/deployment-guide-for-deepseek-r1-on-trtllm.html), yet tier 1
    # added an FP8 KV cache; the recipe's enable_attention_dp layout was dropped from the deployment and never weighed
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="h200-sxm",
        workload="inference",
        team_skill="hpc",
        model="deepseek-ai/DeepSeek-V3",
        parameters_b=671,
        needs={
            "dynamic_shapes": True,
            "quantization": "fp8",
            "quantization_method": "ptq",
            "long_context": True,
            "devices": 8,
        },
        serving={"isl": 8000, "osl": 1000, "ttft_ms": 3000, "tpot_ms": 50},
    )
    assert chosen_stack(result, "inference") == "nvidia-trtllm-deepseek-fp8-hopper"
    deployment = next(c for c in result.tier(1).choices if c.concern == "deployment")
    assert "fp8" not in deployment.settings["kv-cache"].lower()
    assert "Attention data parallelism" in deployment.settings["parallelism"]
    layout = next(s for s in result.switch_conditions if s.id == "dp-attention-layout")
    assert "enable_attention_dp true" in layout.description
    assert "fp8-kv-accuracy-drop" not in {s.id for s in result.switch_conditions}


def test_a_format_whose_release_matrix_only_checks_loading_is_a_partial_fit():
    # Review 246 p06: Llama 3.1 8B in INT8 on TPU v6e was "fits the whole profile" at 0.60 on vLLM JAX, whose release
    # quantization matrix checks only that checkpoints load and marks INT8 accuracy and speed untested
    # (https://docs.vllm.ai/projects/vllm-jax/en/latest/); a bf16 job on the same stack still fits whole
    def ask(quantization: str):
        return answer(
            model_type="dense-transformer",
            hardware="google-tpu",
            device="tpu-v6e",
            workload="inference",
            team_skill="framework",
            model="meta-llama/Llama-3.1-8B-Instruct",
            parameters_b=8,
            needs={"quantization": quantization, "quantization_method": "ptq", "devices": 4},
        )

    int8 = ask("int8")
    chosen = next(row for row in int8.stacks_considered if row.chosen)
    assert chosen.stack == "tpu-vllm-jax-serving"
    assert "no test of int8 accuracy or speed" in chosen.reason
    assert int8.confidence < ask("none").confidence
    assert next(row for row in ask("none").stacks_considered if row.chosen).reason == "fits the whole profile"


def test_a_ggml_models_accuracy_fallback_is_a_wider_ggml_type_not_per_channel_scales():
    # Review 246 p10: whisper.cpp's q8_0 Whisper in a Mac app was told to "use per-channel weight scales, keep the most
    # sensitive layers in float, or train with quantization" if accuracy dropped; whisper.cpp's quantize tool takes a
    # type name only (https://github.com/ggml-org/whisper.cpp#quantization), so the way back is the F16 file
    result = answer(
        model_type="dense-transformer",
        hardware="apple-silicon",
        device="apple-m4",
        workload="inference",
        task="transcription",
        team_skill="framework",
        model="openai/whisper-large-v3-turbo",
        needs={"quantization": "int8", "quantization_method": "ptq", "devices": 1, "in_app": True},
    )
    assert chosen_stack(result, "inference") == "apple-whisper-cpp-metal"
    drop = next(s for s in result.switch_conditions if s.id == "int8-accuracy-drop")
    assert "F16 ggml file" in drop.description
    assert "per-channel" not in drop.description and "QAT" not in drop.description


def test_a_lora_job_on_a_multi_recipe_stack_is_not_headed_by_its_full_fine_tune():
    # Review 249 p04: a Qwen2.5-72B LoRA on 16 x 910B was told to "train with ... its 32K packed full fine-tune", and the
    # LoRA script's allocator variable was filed under HCCL; the LoRA script runs MC2 (--use-ascend-mc2 with
    # --sequence-parallel, https://github.com/Ascend/MindSpeed-LLM/blob/05a336778a779f1e17eebd13e5d9159132a4336b/examples/mcore/qwen25/tune_qwen25_72b_4k_lora_ptd.sh)
    result = answer(
        model_type="dense-transformer",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="training",
        training="lora",
        team_skill="framework",
        model="Qwen/Qwen2.5-72B-Instruct",
        needs={"devices": 16},
    )
    assert chosen_stack(result, "training") == "ascend-mindspeed-llm-qwen25-72b"
    assert "32K packed full fine-tune" not in result.verdict
    tier_1 = {c.concern: c.settings for c in result.tier(1).choices}
    assert "tune_qwen25_72b_4k_lora_ptd.sh" in tier_1["training-framework"]["as documented"]
    assert "--use-ascend-mc2" in tier_1["collectives"]["as documented"]
    assert "PYTORCH_NPU_ALLOC_CONF" not in tier_1["collectives"]["as documented"]


def test_vllms_own_qwen3_235b_recipe_is_raced_on_blackwell():
    # Review 250 p01: Qwen3-235B-A22B in NVFP4 on 8 x B200 rejected vLLM as "documented for dense-transformer, not moe"
    # and never raced it; vLLM's recipe for the model serves NVIDIA's NVFP4 checkpoint "for Blackwell GPUs", verified on
    # H200 (https://github.com/vllm-project/recipes/blob/109af2d30f7c21d7f071a9266ae76e0d8518a25d/models/Qwen/Qwen3-235B-A22B-Instruct-2507.yaml)
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="b200",
        workload="inference",
        team_skill="kernel",
        model="Qwen/Qwen3-235B-A22B",
        needs={"dynamic_shapes": True, "quantization": "fp4", "quantization_method": "ptq", "devices": 8},
        serving={"isl": 2000, "osl": 500, "ttft_ms": 1500, "tpot_ms": 25},
    )
    vllm = next(row for row in result.stacks_considered if row.stack == "nvidia-vllm-qwen3-235b")
    assert not vllm.chosen and "ships configurations for h200-sxm only" in vllm.reason
    assert "nvidia-vllm-qwen3-235b-faster" in {s.id for s in result.switch_conditions}


def test_a_kernel_teams_tier_2_says_its_kernels_cannot_go_into_a_nims_prebuilt_engines():
    # Review 249 p14: FLUX.1-dev FP8 on an H100 served by the NIM, whose customization builds engines with only
    # precisions and resolutions to choose (https://docs.nvidia.com/nim/visual-genai/1.0.0/customization.html), listed
    # Triton and CUTLASS kernels in tier 2 as if they could replace operators inside it
    result = answer(
        model_type="diffusion",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="inference",
        team_skill="kernel",
        model="black-forest-labs/FLUX.1-dev",
        parameters_b=12,
        needs={"quantization": "fp8", "devices": 1},
    )
    assert chosen_stack(result, "inference") == "nvidia-nim-flux1-dev"
    notes = " ".join(note.text for note in result.tier(2).notes)
    assert "tier 1's engines are built by their vendor" in notes and "open route the team builds" in notes
    vllm = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="inference",
        team_skill="kernel",
        model="meta-llama/Llama-3.1-8B-Instruct",
        needs={"devices": 1},
    )
    assert "built by their vendor" not in " ".join(note.text for note in vllm.tier(2).notes)


def test_sglangs_dp_attention_layout_for_deepseek_is_raced_on_mi300x_too():
    # Review 249 p03: DeepSeek-R1 FP8 on 8 x MI300X kept TP 8 with no word on SGLang's data-parallel attention, which its
    # DeepSeek guide offers for high-throughput large batches without naming a GPU
    # (https://docs.sglang.io/docs/basic_usage/deepseek_v3)
    result = answer(
        model_type="moe",
        hardware="amd-gpu",
        device="mi300x",
        workload="inference",
        team_skill="kernel",
        model="deepseek-ai/DeepSeek-R1",
        parameters_b=671,
        needs={"dynamic_shapes": True, "quantization": "fp8", "long_context": True, "devices": 8},
    )
    assert chosen_stack(result, "inference") == "amd-sglang-deepseek-fp8-mi300x"
    layout = next(s for s in result.switch_conditions if s.id == "dp-attention-layout")
    assert "--enable-dp-attention --tp 8 --dp 8" in layout.description


def test_a_full_fine_tune_on_bw1000_takes_hygons_own_megatron_route():
    # Review 250 p12 (scored 1): Qwen2.5-14B full fine-tune on 8 x BW1000 got "no documented whole stack fits" and no
    # attention, while Hygon's training cookbook lists Qwen2.5-14B full pre-training/SFT with Megatron-LM-das, BF16, in
    # its DTK 26.04 image with Transformer Engine 2.10
    # (https://github.com/HYGON-AI/train-cookbook-das/blob/a68da8bb5243df601366fa940abaf380a0308bd9/docs/model-framework/megatron/BW1000/Qwen-2.md)
    result = answer(
        model_type="dense-transformer",
        hardware="hygon-dcu",
        device="bw1000",
        workload="training",
        training="fine-tuning",
        team_skill="framework",
        model="Qwen/Qwen2.5-14B",
        needs={"devices": 8},
    )
    assert chosen_stack(result, "training") == "hygon-megatron-das-llm-bw1000"
    assert "No documented whole stack" not in result.verdict
    attention = next(c for c in result.tier(1).choices if c.concern == "attention")
    assert attention.option == "transformer-engine"


def test_one_runtime_everywhere_asks_for_each_familys_build_to_score_alike():
    # Review 250 p13: Qwen2.5-VL-7B on a TianGai-150 that must also run on an A100 got "vLLM ... one runtime everywhere",
    # while Iluvatar's vLLM comes from its own SDK packages
    # (https://github.com/Deep-Spark/DeepSparkInference/blob/master/models/multimodal/vision_language_model/qwen2_5_vl/vllm/README.md)
    result = answer(
        model_type="multimodal",
        hardware="iluvatar-gpu",
        device="tiangai-150",
        workload="inference",
        team_skill="framework",
        model="Qwen/Qwen2.5-VL-7B-Instruct",
        needs={"devices": 1, "cross_platform": True, "other_hardware": ["nvidia-gpu"], "other_devices": ["a100-sxm"]},
    )
    deployment = next(c for c in result.tier(3).choices if c.concern == "deployment")
    assert "one runtime everywhere" in deployment.rationale[0].text
    assert "the build its own pages document" in deployment.rationale[0].text


def test_a_named_awq_release_is_the_checkpoint_not_a_toolkits_output():
    # Review 249 p02: hugging-quants' AWQ Llama 3.1 8B (made with AutoAWQ,
    # https://huggingface.co/hugging-quants/Meta-Llama-3.1-8B-Instruct-AWQ-INT4) was said to "come from llm-compressor"
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="l40s",
        workload="inference",
        team_skill="framework",
        model="hugging-quants/Meta-Llama-3.1-8B-Instruct-AWQ-INT4",
        needs={"dynamic_shapes": True, "quantization": "int4", "devices": 1},
    )
    quantization = next(c for c in result.tier(1).choices if c.concern == "quantization")
    text = " ".join(reason.text for reason in quantization.rationale)
    assert "as the release the profile names (hugging-quants/Meta-Llama-3.1-8B-Instruct-AWQ-INT4)" in text
    assert "comes from llm-compressor" not in text


def test_a_format_kept_for_another_models_release_is_neither_validated_nor_raced_for_this_one():
    # Review 251 p15 (scored 1): Qwen2.5-VL-72B asked in MXFP4 on MI355X was said to be validated "in bf16, fp8" and got
    # an inference-in-fp8 switch, while vLLM's AMD VLM recipes serve FP8 only as Qwen3-VL-235B's released checkpoint
    # (https://github.com/vllm-project/recipes/blob/main/models/Qwen/Qwen3-VL-235B-A22B-Instruct.yaml)
    result = answer(
        model_type="multimodal",
        hardware="amd-gpu",
        device="mi355x",
        workload="inference",
        team_skill="hpc",
        model="Qwen/Qwen2.5-VL-72B-Instruct",
        needs={"dynamic_shapes": True, "quantization": "fp4", "quantization_method": "ptq", "devices": 4},
    )
    chosen = next(row for row in result.stacks_considered if row.chosen)
    assert chosen.stack == "amd-vllm-vlm-instinct"
    assert "in bf16 only" in chosen.reason
    assert "inference-in-fp8" not in {s.id for s in result.switch_conditions}


def test_a_float_fallback_names_where_the_float_model_runs_when_the_chosen_engine_has_none():
    # Review 252 p14: FLUX.1-dev FP8 on an L40S through the NIM, whose 1.1.1 matrix lists FP8 engines only
    # (https://docs.nvidia.com/nim/visual-genai/1.1.1/support-matrix.html), was told to "keep the float model"
    result = answer(
        model_type="diffusion",
        hardware="nvidia-gpu",
        device="l40s",
        workload="inference",
        team_skill="framework",
        model="black-forest-labs/FLUX.1-dev",
        needs={"quantization": "fp8", "quantization_method": "ptq", "devices": 1},
    )
    assert chosen_stack(result, "inference") == "nvidia-nim-flux1-dev"
    drop = next(s for s in result.switch_conditions if s.id == "fp8-accuracy-drop")
    assert "serves no float profile here: the float model runs on" in drop.description
    # a route on this device: not SGLang Diffusion, validated on B200 / H200 / H100 only (review 260 p14); with no
    # released server here for the float model, the demo script is named as one the team's own server wraps (review
    # 257 p14 had read it as a service)
    assert "SGLang" not in drop.description
    assert "on this device (a script: the team's own server wraps it)" in drop.description


def test_a_4_bit_gguf_fallback_names_llama_quantizes_importance_matrix():
    # Review 251 p09: "the quantize tool takes a type name and no other setting" is false for llama.cpp, whose
    # llama-quantize takes --imatrix (https://github.com/ggml-org/llama.cpp/blob/master/tools/quantize/README.md)
    result = answer(
        model_type="dense-transformer",
        hardware="arm-cpu",
        device="graviton4",
        workload="inference",
        team_skill="framework",
        model="meta-llama/Llama-3.2-3B-Instruct",
        needs={"quantization": "int4", "quantization_method": "ptq", "devices": 1},
    )
    drop = next(s for s in result.switch_conditions if s.id == "int4-accuracy-drop")
    assert "--imatrix" in drop.description and "no other setting" not in drop.description


def test_a_train_and_serve_job_with_no_attention_kernel_says_the_engine_serves_its_own():
    # Review 252 p13: a Qwen2.5-7B LoRA + vLLM service on BI-V150 said "the framework's attention (SDPA) stays", while
    # vLLM runs its own attention backends over the paged KV cache (https://docs.vllm.ai/en/latest/design/attention_backends/)
    result = answer(
        model_type="dense-transformer",
        hardware="iluvatar-gpu",
        device="tiangai-150",
        workload="both",
        training="lora",
        team_skill="framework",
        model="Qwen/Qwen2.5-7B-Instruct",
        needs={"devices": 2},
    )
    attention = next(e for e in result.tier(1).gaps if e.concern == "attention")
    assert "serving runs vLLM's own attention backend" in attention.rationale[0].text


def test_an_int8_cnn_service_on_a_tiangai_150_takes_the_cards_own_ixrt_route():
    # Review 254 p13 (scored 1): ResNet-50 INT8 on a Tiangai 150 chose Triton's IGIE backend (no CoreX tritonserver
    # build, never run on the card) and turned down the card's one ixRT route for "runs fp16, fp32"; ixRT builds INT8
    # engines (its ResNet-50 recipe measures INT8 on the MR-V100:
    # https://github.com/Deep-Spark/DeepSparkInference/blob/0cb9ff33b9a3007d050390972565ff488e8f61ab/models/cv/classification/resnet50/ixrt/README.md)
    result = answer(
        model_type="cnn",
        hardware="iluvatar-gpu",
        device="tiangai-150",
        workload="inference",
        team_skill="framework",
        model="microsoft/resnet-50",
        needs={"dynamic_shapes": True, "quantization": "int8"},
    )
    assert chosen_stack(result, "inference") == "iluvatar-ixrt-fastapi-tiangai-150"
    chosen = next(row for row in result.stacks_considered if row.chosen)
    assert "int8 is undocumented on Iluvatar CoreX Tiangai 150" in chosen.reason
    assert "no test of int8" not in chosen.reason  # said once, by the device's format, not again as untested


def test_an_int8_whisper_that_must_also_run_on_a_xeon_gets_one_runtime_on_both():
    # Review 255 p15 (scored 1): Whisper large-v3 INT8 on an L40S that must also run on a Xeon got an empty tier 3;
    # faster-whisper documents INT8 on both CPU and GPU
    # (https://github.com/SYSTRAN/faster-whisper/blob/65882eee9f5cdbeeb2d877f1131d48cf241b327d/README.md)
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="l40s",
        workload="inference",
        team_skill="framework",
        model="openai/whisper-large-v3",
        needs={
            "quantization": "int8",
            "devices": 1,
            "dynamic_shapes": True,
            "cross_platform": True,
            "other_hardware": ["x86-cpu"],
            "other_devices": ["xeon-4th-gen-sapphire-rapids"],
        },
    )
    deployment = next(c for c in result.tier(3).choices if c.concern == "deployment")
    assert deployment.option == "faster-whisper"
    assert chosen_stack(result, "inference") == "nvidia-faster-whisper-gpu"


def test_bf16_on_a_cpu_is_not_called_free_of_accuracy_risk():
    # Review 256 p10: bge-m3 INT8 on a Xeon 6 was told to "serve bf16, which carries no accuracy risk", while AMX runs
    # bf16 below f32 (https://docs.openvino.ai/2025/openvino-workflow/running-inference/optimize-inference/precision-control.html)
    result = answer(
        model_type="dense-transformer",
        hardware="x86-cpu",
        device="xeon-6-granite-rapids",
        workload="inference",
        task="embedding",
        team_skill="framework",
        model="BAAI/bge-m3",
        needs={"quantization": "int8", "quantization_method": "ptq", "devices": 1},
    )
    slower = next(s for s in result.switch_conditions if s.id == "int8-no-speedup")
    assert "no accuracy risk" not in slower.description and "against fp32" in slower.description


def test_a_recipe_validated_on_a_sibling_card_of_the_generation_is_raced():
    # Review 256 p01: Qwen3-235B FP8 on 8 x H100 turned vLLM down as "validated on h200-sxm, not h100-sxm" with no
    # race, though both are Hopper and the chosen TensorRT-LLM guide publishes no layout for the model either
    # (https://nvidia.github.io/TensorRT-LLM/deployment-guide/deployment-guide-for-qwen3-on-trtllm.html)
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="inference",
        team_skill="framework",
        model="Qwen/Qwen3-235B-A22B-Instruct-2507",
        needs={"quantization": "fp8", "long_context": True, "dynamic_shapes": True, "devices": 8},
    )
    races = {s.id for s in result.switch_conditions if s.id.endswith("-faster")}
    assert any(race.startswith("nvidia-vllm-") for race in races)


def test_a_named_nvfp4_release_of_a_listed_model_is_the_checkpoint_its_recipe_serves():
    # Review 257 p01 (scored 1): nvidia/DeepSeek-R1-0528-FP4 on 8 x B200 turned down TensorRT-LLM's DeepSeek-R1
    # Blackwell guide, whose NVFP4 model is that checkpoint
    # (https://nvidia.github.io/TensorRT-LLM/deployment-guide/deployment-guide-for-deepseek-r1-on-trtllm.html), as
    # "none of nvidia/DeepSeek-R1-0528-FP4"
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="b200",
        workload="inference",
        team_skill="hpc",
        model="nvidia/DeepSeek-R1-0528-FP4",
        needs={"quantization": "fp4", "long_context": True, "devices": 8},
    )
    for row in result.stacks_considered:
        assert "none of nvidia/DeepSeek-R1-0528-FP4" not in row.reason
    assert chosen_stack(result, "inference").startswith("nvidia-trtllm-deepseek")
