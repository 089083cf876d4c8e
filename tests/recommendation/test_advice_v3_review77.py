"""Reviews 75 and 76's remaining defects and reviews 77 and 78's, each pinned."""

from __future__ import annotations

from recommendation_builders import answer_for as answer

WHISPER_ON_GRAVITON = {
    "model_type": "dense-transformer",
    "hardware": "arm-cpu",
    "device": "graviton4",
    "workload": "inference",
    "team_skill": "kernel",
    "model": "openai/whisper-large-v3-turbo",
    "task": "transcription",
    "needs": {"quantization": "int8", "quantization_method": "ptq", "dynamic_shapes": True},
}


def test_tier2_for_whisper_cpp_on_a_graviton_integrates_kleidiai_not_the_compute_library():
    # Review 76 p15: a kernel team serving whisper.cpp on Graviton4 was pointed at Arm Compute Library, which ggml never
    # calls; ggml's CPU backend has an opt-in KleidiAI path (GGML_CPU_KLEIDIAI, OFF by default,
    # https://github.com/ggml-org/whisper.cpp/blob/master/ggml/CMakeLists.txt).
    result = answer(**WHISPER_ON_GRAVITON)
    tier2 = {choice.concern: choice.option for choice in result.tier(2).choices}
    assert tier2["gemm"] == "kleidiai"
    assert "arm-compute-library" not in tier2.values()


def test_whisper_cpp_on_a_graviton_is_not_called_the_vendors_proven_stack():
    # Review 76 p15: "the stack documented for arm-cpu on the vendor's own libraries: proven, supported" over ggml's
    # own kernels, and "documented for graviton4" for a README that names no Graviton part.
    result = answer(**WHISPER_ON_GRAVITON)
    note = " ".join(r.text for r in result.tier(1).notes)
    assert "whisper.cpp (ggml-org)'s own kernels rather than the vendor's libraries" in note
    assert "proven" not in note
    backing = result.confidence_notes[0]
    assert "names no device of the family, so graviton4 is one it runs on, not one it was validated on" in backing


def test_a_runtime_that_compiles_nothing_gets_no_recompilation_switch():
    # Review 76 p15: "dynamic compile still recompiles > 4 per 100 requests: bucket the shapes" for whisper.cpp, which
    # decodes any length in 30-second windows and compiles nothing at run time.
    result = answer(**WHISPER_ON_GRAVITON)
    shapes = next(choice for choice in result.tier(1).choices if choice.concern == "dynamic-shapes")
    assert shapes.settings["mode"] == "audio-windows"
    assert not any("recompile" in switch.id for switch in result.switch_conditions)


def test_an_independent_runner_on_the_vendors_libraries_says_whose_it_is():
    # Review 76 p13: mflux was presented as "the vendor's own libraries: proven, supported" though Apple's platform
    # data calls it a community project (https://github.com/filipstrand/mflux#readme).
    result = answer(
        model_type="diffusion",
        hardware="apple-silicon",
        workload="inference",
        model="black-forest-labs/FLUX.1-schnell",
    )
    assert any(c.concern == "deployment" and c.option == "mflux" for c in result.tier(1).choices)
    note = " ".join(r.text for r in result.tier(1).notes)
    assert "on the vendor's own libraries under mflux" in note
    assert "not an Apple product" in note


def test_a_vendor_runtime_keeps_the_proven_note():
    result = answer(model_type="cnn", hardware="x86-cpu", workload="inference", model="microsoft/resnet-50")
    note = " ".join(r.text for r in result.tier(1).notes)
    assert "rather than the vendor's libraries" not in note and "under" not in note


def test_a_kernel_part_tied_to_the_stacks_generation_is_not_carried_to_another():
    # Review 78 p07: Qwen3-14B FP8 on an RTX 5090 took vLLM's Hopper FP8 stack and with it "FlashAttention 3 ... FA3 is
    # the default version on Hopper"; FlashAttention 3 targets Hopper (https://github.com/Dao-AILab/flash-attention),
    # and vLLM chooses its attention backend per compute capability.
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="rtx-5090",
        workload="inference",
        model="Qwen/Qwen3-14B",
        needs={"quantization": "fp8", "long_context": True},
    )
    attention = next(choice for choice in result.tier(1).choices if choice.concern == "attention")
    assert "FlashAttention 3" not in attention.settings.get("part", "")
    assert "which is for the generation it was validated on, not RTX Blackwell" in attention.rationale[0].text
    on_hopper = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="inference",
        model="Qwen/Qwen3-14B",
        needs={"quantization": "fp8", "long_context": True},
    )
    kept = next(choice for choice in on_hopper.tier(1).choices if choice.concern == "attention")
    assert "part" in kept.settings  # the stack's own attention part, on the generation it was validated on
    assert not any("for the generation it was validated on" in r.text for r in kept.rationale)


def test_a_fine_tuning_tools_recipe_for_a_text_model_serves_a_vision_language_job_in_part():
    # Review 78 p08: Qwen2.5-VL-7B LoRA on 4 x Hygon K100_AI got no trainer, the LLaMA-Factory DCU recipe rejected as
    # "documented for dense-transformer, not multimodal"; LLaMA-Factory's own model table lists Qwen2.5-VL
    # (https://github.com/hiyouga/LLaMA-Factory#supported-models).
    result = answer(
        model_type="multimodal",
        hardware="hygon-dcu",
        device="k100-ai",
        workload="training",
        training="lora",
        model="Qwen/Qwen2.5-VL-7B-Instruct",
        needs={"devices": 4},
    )
    chosen = next(row for row in result.stacks_considered if row.chosen)
    assert chosen.stack == "hygon-llamafactory-das-community-k100-ai"
    assert "itself lists multimodal models" in chosen.reason
    assert "a partial fit" in result.verdict
    assert any(c.concern == "training-framework" and c.option == "llama-factory" for c in result.tier(1).choices)


def test_a_job_that_trains_with_vllm_rollouts_serves_on_vllm_when_it_fits_as_well():
    # Review 77 p02: GRPO of Qwen3-30B-A3B with NeMo RL (vLLM generates its rollouts) served the result on TensorRT-LLM
    # for "its page leads with fp8"; NeMo RL's GRPO runs vLLM as its generation backend
    # (https://github.com/NVIDIA-NeMo/RL/blob/main/docs/about/algorithms/grpo.md), so one engine serves both.
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="both",
        training="rl",
        team_skill="kernel",
        model="Qwen/Qwen3-30B-A3B",
        needs={"devices": 8, "long_context": True},
    )
    serving = next(c for c in result.tier(1).choices if c.concern == "deployment")
    assert serving.option == "vllm"
    rival = next(row for row in result.stacks_considered if row.stack == "nvidia-trtllm-qwen3-bf16")
    assert "the engine the training recipe already runs for its rollouts" in rival.reason
    served_alone = answer(
        model_type="moe", hardware="nvidia-gpu", device="h100-sxm", workload="inference", model="Qwen/Qwen3-30B-A3B"
    )
    assert not any("rollouts" in row.reason for row in served_alone.stacks_considered)


def test_the_models_own_validated_float_recipe_comes_before_a_generic_one_for_another_model_type():
    # Review 77 p10: Llama 4 Scout in FP8 on four Gaudi 3 got a recipe written for Qwen-VL models as "fitting the whole
    # profile"; vllm-gaudi's validated-models table lists Llama-4-Scout-17B-16E-Instruct on Gaudi 3 at 4 or 8 HPUs in
    # BF16 only (https://github.com/vllm-project/vllm-gaudi/blob/main/docs/getting_started/validated_models.md).
    result = answer(
        model_type="multimodal",
        hardware="intel-gaudi",
        device="gaudi3",
        workload="inference",
        model="meta-llama/Llama-4-Scout-17B-16E-Instruct",
        needs={"quantization": "fp8", "devices": 4},
    )
    chosen = next(row for row in result.stacks_considered if row.chosen)
    assert chosen.stack == "gaudi-vllm-llama4"
    assert (
        "validates meta-llama/Llama-4-Scout-17B-16E-Instruct in bf16 only; fp8 is not validated for it" in chosen.reason
    )
    vlm = next(row for row in result.stacks_considered if row.stack == "gaudi-vllm-vlm")
    assert " and 9 more, not meta-llama/Llama-4-Scout-17B-16E-Instruct" in vlm.reason  # 13 checkpoints, four named


def test_an_inference_card_takes_its_own_stack_before_one_for_the_training_line():
    # Review 78 p10: Qwen2.5-7B INT8 on two Ascend 310P; after the 310P W8A8SC stack was scoped to its published Qwen3
    # checkpoints (https://github.com/vllm-project/vllm-ascend/blob/main/docs/source/tutorials/hardwares/310p.md), an
    # Atlas A2/A3 recipe would have been chosen for the inference card, whose vllm-ascend build runs float16 without
    # Triton or graph mode (https://docs.vllm.ai/projects/ascend/en/latest/quick_start.html).
    result = answer(
        model_type="dense-transformer",
        hardware="ascend-npu",
        device="ascend-310p",
        workload="inference",
        model="Qwen/Qwen2.5-7B-Instruct",
        needs={"quantization": "int8", "devices": 2},
    )
    chosen = next(row for row in result.stacks_considered if row.chosen)
    assert chosen.stack == "ascend-vllm-ascend-310p-w8a8sc"
    assert "serve with" in result.verdict.lower() and "in fp16" in result.verdict
    a2 = next(row for row in result.stacks_considered if row.stack == "ascend-vllm-ascend-w8a8-dense")
    assert "an inference-only part whose runtime build differs" in a2.reason


def test_a_stack_that_runs_only_its_own_ports_is_no_trainer_for_another_model():
    # Review 78 p02: mflux was chosen to train SDXL; it runs only the model families it has ported
    # (https://github.com/filipstrand/mflux#readme).
    result = answer(
        model_type="diffusion",
        hardware="apple-silicon",
        device="apple-m5",
        workload="both",
        training="lora",
        model="stabilityai/stable-diffusion-xl-base-1.0",
    )
    assert not any(row.stack == "apple-mflux-image-generation" and row.chosen for row in result.stacks_considered)
    assert "mflux" not in result.verdict


def test_an_engine_that_only_loads_a_quantized_checkpoint_no_one_writes_says_to_serve_float_meanwhile():
    # Review 77 p07: Qwen3-14B INT8 on two MLU590 was told to serve vllm_mlu in int8 although Cambricon publishes no
    # tool that writes vllm_mlu's quantize_config.json checkpoints
    # (https://github.com/Cambricon/vllm-mlu/blob/b9925203b89ca6e57dcdc0fb3680bd037d796823/vllm_mlu/model_executor/layers/quantization/__init__.py).
    result = answer(
        model_type="dense-transformer",
        hardware="cambricon-mlu",
        device="mlu590",
        workload="inference",
        model="Qwen/Qwen3-14B",
        needs={"quantization": "int8", "devices": 2},
    )
    assert "so it has to come from the vendor or another publisher" in result.verdict
    # review 187 p07: the float format that serves meanwhile leads the verdict, not the int8 it cannot load yet
    assert result.verdict.startswith(
        "Serve with vLLM with Cambricon's vllm_mlu platform plugin in bf16, on the recipe vLLM (vllm_mlu plugin) serving "
        "LLMs on Cambricon MLUs, until an int8 checkpoint is at hand: "
    )
    # and where it may come from: a publisher's weight-only INT8 release, named as the model (review 106 p07: Qwen
    # publishes Qwen2.5-72B-Instruct-GPTQ-Int8, https://huggingface.co/Qwen/Qwen2.5-72B-Instruct-GPTQ-Int8), with no id
    # made up for this model (review 140 p07: there is no Qwen3-14B-GPTQ-Int8)
    assert "a GPTQ or AWQ checkpoint whose id names its format, is read as such when named), then serve int8" in (
        result.verdict
    )
    assert "Qwen3-14B-GPTQ-Int8" not in result.verdict
    # a runtime that writes its own quantized model (OpenVINO with NNCF) gets no such clause
    openvino = answer(
        model_type="cnn",
        hardware="x86-cpu",
        workload="inference",
        model="microsoft/resnet-50",
        needs={"quantization": "int8"},
    )
    assert "has to come from the vendor" not in openvino.verdict


def test_tier2_for_a_runtime_on_its_own_kernels_starts_from_micro_kernels():
    # Review 78 p04: bge-m3 INT8 on Graviton4 served by ONNX Runtime (its MLAS kernels) sent a kernel team to Arm
    # Compute Library, which suits frameworks that hand it whole models; KleidiAI is for runtimes with their own
    # threads and memory (https://github.com/ARM-software/kleidiai#what-is-the-difference-between-the-compute-library-for-the-arm-architecture-acl-and-kleidiai).
    result = answer(
        model_type="dense-transformer",
        hardware="arm-cpu",
        device="graviton4",
        workload="inference",
        team_skill="kernel",
        model="BAAI/bge-m3",
        task="embedding",
        needs={"quantization": "int8"},
    )
    assert any(c.concern == "deployment" and c.option == "onnxruntime" for c in result.tier(1).choices)
    assert next(c.option for c in result.tier(2).choices if c.concern == "gemm") == "kleidiai"


def test_rl_of_a_moe_on_amd_takes_verl_whose_framework_trains_moe():
    # Review 80 p03: GRPO of Qwen3-235B-A22B on 16 x MI355X was told "no documented stack runs an RL loop on amd-gpu",
    # though AMD documents verl on MI300X-MI355X (https://rocm.docs.amd.com/projects/verl/en/docs-26.09/install/verl-install.html)
    # and verl lists MoE models among those it trains (https://github.com/volcengine/verl#key-features).
    result = answer(
        model_type="moe",
        hardware="amd-gpu",
        device="mi355x",
        workload="both",
        training="rl",
        team_skill="kernel",
        model="Qwen/Qwen3-235B-A22B",
        needs={"quantization": "fp8", "devices": 16, "long_context": True},
    )
    trained = next(row for row in result.stacks_considered if row.chosen and row.workload == "training")
    # verl's own AMD GRPO, not the experimental async one; since review 89 p04 its Megatron MoE workflow on the AMD quick
    # start (https://verl.readthedocs.io/en/latest/amd_tutorial/amd_quick_start.html), written for another MoE
    assert trained.stack == "amd-verl-megatron-moe-grpo-instinct"
    assert "written for Qwen/Qwen3.5-35B-A3B, not Qwen/Qwen3-235B-A22B" in trained.reason
    assert "no documented stack runs an RL loop" not in result.verdict


def test_a_lora_job_on_maxtext_uses_its_own_lora_not_peft():
    # Review 80 p05: Gemma 3 27B LoRA on TPU v6e with MaxText was told to add "Hugging Face PEFT's LoraConfig", which
    # wraps PyTorch models only; MaxText has its own LoRA (enable_lora=True through Tunix,
    # https://github.com/AI-Hypercomputer/maxtext/blob/main/docs/tutorials/posttraining/lora.md).
    result = answer(
        model_type="multimodal",
        hardware="google-tpu",
        device="tpu-v6e",
        workload="training",
        training="lora",
        model="google/gemma-3-27b-it",
        needs={"devices": 16},
    )
    framework = next(c for c in result.tier(1).choices if c.concern == "training-framework")
    assert framework.option == "maxtext"
    assert "enable_lora=True" in framework.settings["adapters"]
    assert "PEFT's LoraConfig" not in framework.settings["adapters"]


def test_a_float_fallback_says_where_the_engine_itself_runs_the_asked_format():
    # Review 80 p14: Qwen2.5-VL-72B in FP8 on MI300X fell back to BF16 because vLLM's Qwen2.5-VL recipe has no FP8 path,
    # and the record never said that vLLM itself runs FP8 on MI300X (https://docs.vllm.ai/en/stable/features/quantization/fp8/).
    result = answer(
        model_type="multimodal",
        hardware="amd-gpu",
        device="mi300x",
        workload="inference",
        team_skill="kernel",
        model="Qwen/Qwen2.5-VL-72B-Instruct",
        needs={"quantization": "fp8", "devices": 8, "long_context": True},
    )
    gap = next(g for g in result.tier(1).gaps if g.concern == "quantization")
    assert "so the model is served in bf16" in gap.rationale[0].text
    assert "vLLM itself runs fp8 on this device, undocumented for this model" in gap.rationale[0].text


def test_a_neuron_tensor_parallel_degree_counts_neuroncores_not_chips():
    # Review 79 p12: Llama-3.3-70B FP8 on 8 Trainium2 chips was told "set it to 8" and "4 replicas of 2 (tensor parallel
    # 2 ...)"; the tutorial's --tensor-parallel-size 16 counts NeuronCores, and at the default LNC=2 a chip is four
    # logical NeuronCores (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/training/best-practices.html).
    result = answer(
        model_type="dense-transformer",
        hardware="aws-neuron",
        device="trn2",
        workload="inference",
        model="meta-llama/Llama-3.3-70B-Instruct",
        needs={"quantization": "fp8", "devices": 8},
    )
    deployment = next(c for c in result.tier(1).choices if c.concern == "deployment")
    layout = deployment.settings["layout here"]
    # The rank is named with its LNC (helper kbneurontp): four logical NeuronCores per chip hold at the Trn2 default LNC=2
    # only (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/general/arch/neuron-features/logical-neuroncore-config.html);
    # since review 196 p12 the tutorial's own TP 16 (4 chips) is the replica, not a smaller memory-sized one
    assert layout.startswith("2 replicas of 4 (tensor parallel 16: 4 device(s) of 4 logical NeuronCores at LNC=2")
    assert "set it to 8" not in deployment.settings.get("devices", "")


def test_a_model_named_as_its_awq_release_is_read_as_int4_weights():
    # Review 79 p07: Qwen/Qwen2.5-32B-Instruct-AWQ on a Hygon K100_AI was sized and served as bf16, "fitting the whole
    # profile", with AWQ nowhere in the output; the id names Qwen's 4-bit AWQ release
    # (https://huggingface.co/Qwen/Qwen2.5-32B-Instruct-AWQ), and Hygon's cookbook lists BF16 and W8A8 rows only
    # (https://github.com/HYGON-AI/inference-cookbook-das/blob/main/docs/model-deployment/vllm/qwen2.md).
    result = answer(
        model_type="dense-transformer",
        hardware="hygon-dcu",
        device="k100-ai",
        workload="inference",
        model="Qwen/Qwen2.5-32B-Instruct-AWQ",
        needs={"devices": 2},
    )
    assert "documents no int4 path for Qwen/Qwen2.5-32B-Instruct-AWQ (int4 weights)" in result.verdict
    assert "it would serve the bf16 Qwen/Qwen2.5-32B-Instruct instead, at 4x the weight memory" in result.verdict


def test_a_fine_tuning_tool_shards_data_parallelism_instead_of_splitting_layers():
    # Review 80 p09: a LoRA job of a 32B model on 8 Hygon K100_AI with LLaMA-Factory read "data+tensor+pipeline+context
    # parallelism comes from LLaMA-Factory"; the Hygon recipe itself runs data parallel with DeepSpeed ZeRO-3 for a full
    # fine-tune (the community cookbook in advisor/data/stacks/hygon-llamafactory-das-community-k100-ai.yaml), and
    # LLaMA-Factory's examples distribute with DeepSpeed or FSDP, not tensor or pipeline parallelism.
    result = answer(
        model_type="dense-transformer",
        hardware="hygon-dcu",
        device="k100-ai",
        workload="training",
        training="lora",
        model="deepseek-ai/DeepSeek-R1-Distill-Qwen-32B",
        needs={"devices": 8, "long_context": True},
    )
    framework = next(c for c in result.tier(1).choices if c.concern == "training-framework")
    text = " ".join(r.text for r in framework.rationale)
    assert "sharded data (DeepSpeed ZeRO-3 or FSDP" in text
    assert "tensor+pipeline" not in text


def test_another_familys_stack_says_why_tier_3s_engine_has_none_there():
    # Review 80 p04: Qwen3-30B-A3B INT8 on Atlas A3, portable to H100, read "no vLLM stack is documented for this profile
    # there" beside a quantization row citing the vLLM INT8 stack; that stack is written for dense models.
    result = answer(
        model_type="moe",
        hardware="ascend-npu",
        device="ascend-910c",
        workload="both",
        training="lora",
        model="Qwen/Qwen3-30B-A3B",
        needs={
            "quantization": "int8",
            "devices": 16,
            "cross_platform": True,
            "other_hardware": ["nvidia-gpu"],
            "other_devices": ["h100-sxm"],
        },
    )
    notes = " ".join(r.text for r in result.tier(3).notes)
    assert "the nearest vLLM stack there, nvidia-vllm-int8-w8a8, misses this profile: documented for dense" in notes


def test_a_generic_pipelines_example_checkpoint_does_not_rule_out_another_of_its_task():
    # Review 81 p14: Whisper large-v3 on Graviton4 with no quantization got "no documented whole stack", Arm's learning
    # path rejected as "written for openai/whisper-large-v3-turbo"; its script passes the checkpoint id to the
    # Transformers pipeline (https://learn.arm.com/learning-paths/servers-and-cloud-computing/whisper/whisper/).
    result = answer(
        model_type="dense-transformer",
        hardware="arm-cpu",
        device="graviton4",
        workload="inference",
        team_skill="hpc",
        model="openai/whisper-large-v3",
        task="transcription",
    )
    chosen = next(row for row in result.stacks_considered if row.chosen)
    assert chosen.stack == "arm-transformers-whisper-graviton"
    assert "as the example of a generic route" in chosen.reason
    assert not result.verdict.startswith("No documented whole stack")


def test_a_weight_only_int4_gpu_recipe_is_no_partial_fit_for_an_int8_ask():
    # The vLLM AWQ/GPTQ stack runs W4A16 (16-bit GEMMs, https://docs.vllm.ai/en/latest/features/quantization/): an INT8
    # QAT job on an A100 keeps the W8A8 stack (a partial fit for its missing QAT flow) instead.
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="a100-sxm",
        workload="inference",
        needs={"quantization": "int8", "quantization_method": "qat"},
    )
    chosen = next(row for row in result.stacks_considered if row.chosen)
    assert chosen.stack == "nvidia-vllm-int8-w8a8"


def test_fp8_training_on_a_device_without_fp8_units_trains_in_bf16():
    # Review 82 p02: an FP8 full fine-tune of Qwen3-30B-A3B on 8 A100s got "gemm cublas [dtype=fp8] ... the linear
    # layers run in FP8"; Transformer Engine's support matrix lists no FP8 on compute capability 8.0
    # (https://nvidia.github.io/TransformerEngine/support_matrix.html).
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="a100-sxm",
        workload="training",
        team_skill="hpc",
        training="fine-tuning",
        model="Qwen/Qwen3-30B-A3B",
        needs={"quantization": "fp8", "quantization_method": "qat", "devices": 8, "long_context": True},
    )
    gemm = next(c for c in result.tier(1).choices if c.concern == "gemm")
    assert gemm.settings["dtype"] == "bf16"
    gap = next(g for g in result.tier(1).gaps if g.concern == "quantization")
    assert "runs no fp8" in gap.rationale[0].text and "the training runs in bf16" in gap.rationale[0].text
    assert "fp8-loss-gap" not in {s.id for s in result.switch_conditions}


def test_an_rl_job_nothing_fits_takes_the_recipe_with_the_loop_over_an_assembled_stack():
    # Review 82 p15: GRPO of Qwen3-30B-A3B in FP8 on 8 AMD GPUs got "no deployment runtime" and no rollout engine;
    # verl's ROCm recipe has the loop (https://rocm.docs.amd.com/projects/verl/en/docs-26.09/install/verl-install.html),
    # dense and BF16 on its page, which the team adapts (expert parallelism, BF16 first).
    result = answer(
        model_type="moe",
        hardware="amd-gpu",
        workload="training",
        team_skill="hpc",
        training="rl",
        model="Qwen/Qwen3-30B-A3B",
        needs={"quantization": "fp8", "devices": 8, "long_context": True},
    )
    chosen = next(row for row in result.stacks_considered if row.chosen)
    # verl's loop, BF16 on its page; since review 89 p04 its Megatron MoE workflow (verl's AMD quick start)
    assert chosen.stack == "amd-verl-megatron-moe-grpo-instinct"
    assert "it trains in bf16" in result.verdict
    assert "Continued pre-training" not in result.verdict


def test_a_lora_job_takes_the_fine_tuning_recipe_before_the_pre_training_one():
    # Review 82 p10: Gemma 3 27B LoRA on TPU v5e got MaxText's pre-training recipe, its SFT recipe rejected as "documented
    # for fine-tuning, not lora, as is the chosen one"; MaxText's LoRA runs through the same SFT trainer
    # (https://github.com/AI-Hypercomputer/maxtext/blob/main/docs/tutorials/posttraining/lora.md).
    result = answer(
        model_type="dense-transformer",
        hardware="google-tpu",
        device="tpu-v5e",
        workload="both",
        training="lora",
        model="google/gemma-3-27b-it",
        needs={"devices": 4, "long_context": True},
    )
    trained = next(row for row in result.stacks_considered if row.chosen and row.workload == "training")
    assert trained.stack == "tpu-maxtext-sft"
    # since review 191 p11 the SFT stack carries the LoRA tutorial's flags (test_advice_v3_review187)
    assert "not lora" not in trained.reason


def test_a_long_context_service_with_no_room_for_its_kv_cache_is_flagged_first():
    # Review 82 p10: Gemma 3 27B in bf16 on 4 x TPU v5e (16 GB each) for long context left "about 4 GB for the KV
    # cache" without saying that this cannot hold long sequences.
    result = answer(
        model_type="dense-transformer",
        hardware="google-tpu",
        device="tpu-v5e",
        workload="inference",
        model="google/gemma-3-27b-it",
        needs={"devices": 4, "long_context": True},
    )
    assert result.verdict.startswith("First, 4 devices cannot hold the serving state")
    assert any("too little for the long context asked" in line.text for line in result.capacity)
    roomy = answer(
        model_type="dense-transformer",
        hardware="google-tpu",
        device="tpu-v5e",
        workload="inference",
        model="google/gemma-3-27b-it",
        needs={"devices": 8, "long_context": True},
    )
    assert not roomy.verdict.startswith("First,")


def test_a_recipe_for_the_models_architecture_on_a_sibling_device_beats_a_generic_one():
    # Review 82 p04: DeepSeek-V3 INT8 on 910B4 took the generic MoE stack (its example layout is Qwen3-235B's) over
    # vllm-ascend's DeepSeek recipe, which runs DeepSeek-V3's MLA/MoE layout
    # (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/models/DeepSeek-V3.1.html), validated on the 910B.
    result = answer(
        model_type="moe",
        hardware="ascend-npu",
        device="ascend-910b4",
        workload="inference",
        model="deepseek-ai/DeepSeek-V3",
        needs={"quantization": "int8", "devices": 8, "long_context": True},
    )
    chosen = next(row for row in result.stacks_considered if row.chosen)
    assert chosen.stack == "ascend-vllm-ascend-deepseek-a3"


def test_a_trained_model_is_not_served_as_its_publishers_release():
    # Review 80 p01: a full fine-tune of DeepSeek-V3 then FP8 serving on B200 read "then quantize it to fp8 (DeepSeek's
    # block-wise FP8 checkpoint, served as released)": the fine-tuned weights are no release, and TensorRT-LLM's
    # DeepSeek guide serves the block-scale FP8 checkpoint
    # (https://nvidia.github.io/TensorRT-LLM/deployment-guide/quick-start-recipe-for-deepseek-r1-on-trtllm.html).
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="b200",
        workload="both",
        team_skill="hpc",
        training="fine-tuning",
        model="deepseek-ai/DeepSeek-V3",
        parameters_b=671,
        needs={"quantization": "fp8", "devices": 128, "long_context": True},
    )
    assert "the trained weights are no release" in result.verdict


def test_nvidias_nvfp4_release_is_read_as_nvfp4_weights_of_the_model_it_names():
    # Review 83 p01: nvidia/DeepSeek-R1-0528-FP4 (NVFP4 weights from Model Optimizer,
    # https://huggingface.co/nvidia/DeepSeek-R1-0528-FP4) was not sized ("states no size in its id") and, with no
    # quantization asked, was served as a bf16 recipe.
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="b300",
        workload="inference",
        team_skill="hpc",
        model="nvidia/DeepSeek-R1-0528-FP4",
        needs={"devices": 16, "long_context": True},
    )
    chosen = next(row for row in result.stacks_considered if row.chosen)
    assert chosen.stack == "nvidia-trtllm-deepseek-blackwell"
    # 4.5 bits a weight: NVFP4's E4M3 scale per 16 values counted (review 122 p01)
    assert any("671B model's weights take about 377 GB in nvfp4" in line.text for line in result.capacity)
    fp8 = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="b300",
        workload="inference",
        model="nvidia/DeepSeek-R1-0528-FP4",
        needs={"quantization": "fp8", "devices": 16},
    )
    quantization = next(c for c in fp8.tier(1).choices if c.concern == "quantization")
    assert "is an nvfp4 release of DeepSeek-R1-0528, not an fp8 one" in quantization.rationale[0].text


def test_a_multi_device_serving_recipe_on_one_device_is_a_lesser_misfit_said_plainly():
    # Review 84 p04: Qwen2.5-7B on one 910B rejected vllm-ascend as "documented at multi-device scale; this job needs
    # single-device"; vllm-ascend runs a model that fits one NPU at parallel degree 1
    # (https://docs.vllm.ai/projects/ascend/en/v0.7.3/tutorials/single_npu.html).
    result = answer(
        model_type="dense-transformer",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="inference",
        model="Qwen/Qwen2.5-7B-Instruct",
        needs={"devices": 1, "long_context": True},
    )
    vllm = next(row for row in result.stacks_considered if row.stack == "ascend-vllm-ascend-w8a8-dense")
    assert vllm.reason.startswith("documented on several devices; this one-device job runs it at parallel degree 1")
    assert "this job needs single-device" not in result.verdict


def test_a_lora_job_asking_no_quantization_takes_the_bf16_trainer_not_qlora():
    # Review 84 p08: Mistral-7B LoRA then serving on one Gaudi 2 with no quantization got QLoRA (an NF4 base) and "convert
    # the trained checkpoint ... neither stack documents the converter"; Trainer.save_model writes a Hugging Face
    # checkpoint (https://huggingface.co/docs/transformers/main_classes/trainer#transformers.Trainer.save_model).
    result = answer(
        model_type="dense-transformer",
        hardware="intel-gaudi",
        device="gaudi2",
        workload="both",
        training="lora",
        model="mistralai/Mistral-7B-Instruct-v0.3",
    )
    trained = next(row for row in result.stacks_considered if row.chosen and row.workload == "training")
    assert trained.stack == "gaudi-transformers-trainer-bf16"
    assert "merge_and_unload() folds into a standalone Hugging Face checkpoint" in result.verdict
    assert "neither stack documents the converter" not in result.verdict


def test_a_released_library_route_comes_before_a_demo_script_that_fits_as_well():
    # Review 84 p02: FLUX.1-dev in bf16 on one L40S got NVIDIA's demoDiffusion, which its README calls a demo
    # application (https://github.com/NVIDIA/TensorRT/blob/main/demo/Diffusion/README.md), and Diffusers was never weighed
    # (https://huggingface.co/docs/diffusers/main/en/api/pipelines/flux).
    result = answer(
        model_type="diffusion",
        hardware="nvidia-gpu",
        device="l40s",
        workload="inference",
        model="black-forest-labs/FLUX.1-dev",
    )
    chosen = next(row for row in result.stacks_considered if row.chosen)
    assert chosen.stack == "nvidia-diffusers-cuda-diffusion"
    assert "a script, not a server" in result.verdict


def test_moe_grpo_on_amd_takes_verls_colocated_trainer_before_its_experimental_async_one():
    # Review 85 p04: GRPO of Qwen3-30B-A3B on 8 x MI355X got verl's experimental fully-async trainer; verl's own AMD
    # quick start runs GRPO colocated (https://verl.readthedocs.io/en/latest/amd_tutorial/amd_quick_start.html), and
    # verl lists MoE among the models it trains, so its dense Qwen3-8B example is one misfit, not two.
    result = answer(
        model_type="moe",
        hardware="amd-gpu",
        device="mi355x",
        workload="training",
        team_skill="hpc",
        training="rl",
        model="Qwen/Qwen3-30B-A3B",
        needs={"devices": 8},
    )
    chosen = next(row for row in result.stacks_considered if row.chosen)
    # since review 89 p04 the quick start's colocated Megatron MoE workflow, before its dense FSDP one
    assert chosen.stack == "amd-verl-megatron-moe-grpo-instinct"
    # since reviews 188/189 p04 its settings are verl's own Qwen3-30B-A3B example (test_advice_v3_review187)
    assert chosen.reason.startswith("its page runs Qwen/Qwen3.5-35B-A3B; the settings here are its project's own")
    dense = next(row for row in result.stacks_considered if row.stack == "amd-verl-grpo-colocated-instinct")
    # since reviews 221 p05 and 226 p06 the dense page's reason says verl itself trains MoE models (its own configs)
    assert dense.reason.startswith("its settings here are its dense-transformer recipe's; verl")


def test_an_int8_ask_naming_a_gptq_release_says_the_route_quantizes_its_float_base():
    # Review 86 p05: Qwen2.5-72B-Instruct-GPTQ-Int8 on 4 x 910B got msModelSlim W8A8 with no word that the named
    # checkpoint is GPTQ weight-only INT8 (https://huggingface.co/Qwen/Qwen2.5-72B-Instruct-GPTQ-Int8), which vllm-ascend's
    # quantization guide does not list (https://docs.vllm.ai/projects/ascend/en/latest/user_guide/feature_guide/quantization.html).
    result = answer(
        model_type="dense-transformer",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="inference",
        model="Qwen/Qwen2.5-72B-Instruct-GPTQ-Int8",
        needs={"quantization": "int8", "devices": 4},
    )
    quantization = next(c for c in result.tier(1).choices if c.concern == "quantization")
    assert "is a weight-only int8 release of Qwen/Qwen2.5-72B-Instruct" in quantization.rationale[0].text


def test_a_kernel_languages_attention_part_is_kept_on_another_generation():
    # Review 88 p15: gpt-oss-120b on an RTX PRO 6000 dropped the recipe's TRITON_ATTN ("selected by default on Ampere")
    # for FlashAttention, which vLLM rejects for gpt-oss's attention sinks (https://github.com/vllm-project/vllm/issues/40153);
    # Triton kernels compile for each generation, unlike FlashAttention 3's Hopper kernels.
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="rtx-pro-6000-server",
        workload="inference",
        model="openai/gpt-oss-120b",
    )
    attention = next(c for c in result.tier(1).choices if c.concern == "attention")
    assert attention.option == "triton"


def test_a_vision_language_model_on_ovms_is_told_the_vlm_pipeline_and_a_text_model_is_not():
    # Review 88 p12: Qwen2.5-VL-7B INT8 on a Xeon got OVMS's text-generation export with no word of its VLM pipeline;
    # the VLM demo exports with --pipeline_type VLM and warns that VLM_CB loses accuracy on Qwen2.5
    # (https://github.com/openvinotoolkit/model_server/blob/main/demos/continuous_batching/vlm/README.md).
    vl = answer(
        model_type="multimodal",
        hardware="x86-cpu",
        device="xeon-6-granite-rapids",
        workload="inference",
        model="Qwen/Qwen2.5-VL-7B-Instruct",
        needs={"quantization": "int8"},
    )
    assert any("--pipeline_type VLM" in risk.text for stack in vl.stacks for risk in stack.risks)
    text = answer(
        model_type="dense-transformer",
        hardware="x86-cpu",
        device="xeon-6-granite-rapids",
        workload="inference",
        model="meta-llama/Llama-3.1-8B-Instruct",
        needs={"quantization": "int8"},
    )
    assert not any("--pipeline_type VLM" in risk.text for stack in text.stacks for risk in stack.risks)
