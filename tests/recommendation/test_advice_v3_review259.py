"""Advice v3, reviews 257-262: defects fixed in the twenty-ninth session, each pinned on the profile that showed it."""

from __future__ import annotations

from recommendation_builders import answer_for as answer
from recommendation_builders import choice, chosen_stack, considered


def test_a_stack_its_vendor_ended_on_the_device_is_set_aside_for_that_first():
    # Review 258 p09: NxD Inference's Qwen3 MoE stack on Trn2 was set aside as "written for Qwen/Qwen3-235B-A22B", while
    # AWS no longer supports NxD Inference on Trn2 and Trn3 from Neuron 2.34
    # (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/about-neuron/announcements/neuron2.x/announce-no-support-nxdi-nxd-core-inference-trn.html)
    result = answer(
        model_type="dense-transformer",
        hardware="aws-neuron",
        device="trn2",
        workload="inference",
        team_skill="framework",
        model="meta-llama/Llama-3.3-70B-Instruct",
        needs={"long_context": True, "devices": 16},
    )
    reason = considered(result, "neuron-nxdi-qwen3-moe-trn2").reason
    assert reason.startswith("From Neuron 2.34 AWS no longer supports NxD Inference")
    assert "written for Qwen/Qwen3-235B-A22B" in reason  # the model misfit is still said, after it


def test_a_serving_sla_shorter_than_long_context_says_it_stands_in_for_it():
    # Review 258 p02: long_context true with an 8k/2k SLA tested TensorRT-LLM's 9,472-token launch against 10,000
    # tokens and never said the long-context threshold (32,768) had been set aside
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="b200",
        workload="inference",
        team_skill="kernel",
        model="deepseek-ai/DeepSeek-R1",
        needs={"dynamic_shapes": True, "quantization": "fp4", "long_context": True, "devices": 8},
        serving={"isl": 8000, "osl": 2000, "ttft_ms": 3000, "tpot_ms": 40},
    )
    chosen = next(option for option in result.stacks_considered if option.chosen)
    assert "the 10,000 tokens a request of your serving SLA holds" in chosen.reason
    assert "stands in for the 32,768 that needs.long_context otherwise starts at" in chosen.reason


def test_a_kernel_team_under_an_engine_with_its_own_attention_gets_an_attention_route_in_tier_2():
    # Review 258 p02: a kernel team serving an MLA MoE model on B200 under TensorRT-LLM (whose attention backend is its
    # own) got tier-2 routes for GEMM, fusion and quantization but none for attention
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="b200",
        workload="inference",
        team_skill="kernel",
        model="deepseek-ai/DeepSeek-R1",
        needs={"quantization": "fp4", "devices": 8},
    )
    assert chosen_stack(result).startswith("nvidia-trtllm-")
    assert choice(result, "attention", tier=2).option in ("triton", "cutlass", "flexattention")


def test_a_generic_training_recipe_is_sized_from_the_recipe_written_for_a_model_of_the_jobs_size():
    # Review 258 p06: a 72B long-context pre-training on 64 Atlas A3 dies got MindSpeed LLM's 8B quick start, and the
    # project's Qwen2.5-72B recipe (its 32K pre-training at TP8 PP4 CP4,
    # https://github.com/Ascend/MindSpeed-LLM/blob/2b7130ca7bea7083a91ed66812eec95067d057a2/examples/mcore/qwen25/tune_qwen25_72b_32k_full_pack.sh
    # and the pretrain_qwen25_72b_32k_ptd.sh beside it) was only turned down
    result = answer(
        model_type="dense-transformer",
        hardware="ascend-npu",
        device="ascend-910c",
        workload="training",
        training="pretraining",
        team_skill="hpc",
        parameters_b=72,
        needs={"long_context": True, "devices": 64},
    )
    reason = considered(result, "ascend-mindspeed-llm-qwen25-72b").reason
    assert "its layout for Qwen/Qwen2.5-72B (32K pre-training TP8 PP4 CP4" in reason
    assert "nearest one documented for a 72B model" in reason
    # a job of another size is not sent to the 72B layout
    small = answer(
        model_type="dense-transformer",
        hardware="ascend-npu",
        device="ascend-910c",
        workload="training",
        training="pretraining",
        team_skill="hpc",
        parameters_b=8,
        needs={"long_context": True, "devices": 64},
    )
    assert all("nearest one documented" not in option.reason for option in small.stacks_considered)


def test_training_on_a_shape_compiling_runtime_pads_to_fixed_lengths_not_per_batch():
    # Review 257 p05: a LoRA on Gaudi 2 was told to pad per batch and group samples by length, while Intel's dynamic
    # shapes page says each new shape recompiles the graph and advises bucketing and padding
    # (https://docs.habana.ai/en/latest/PyTorch/Model_Optimization_PyTorch/Dynamic_Shapes.html)
    result = answer(
        model_type="dense-transformer",
        hardware="intel-gaudi",
        device="gaudi2",
        workload="training",
        training="lora",
        team_skill="framework",
        model="meta-llama/Llama-3.1-8B-Instruct",
        parameters_b=8,
        needs={"dynamic_shapes": True, "devices": 8},
    )
    text = " ".join(reason.text for reason in choice(result, "dynamic-shapes").rationale)
    assert "pad every batch to one max_length (or a few length buckets)" in text
    assert "group_by_length" not in text
    # on a GPU, whose runtime takes each batch's lengths, the trainer's own per-batch padding stays
    gpu = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="training",
        training="lora",
        team_skill="framework",
        model="meta-llama/Llama-3.1-8B-Instruct",
        parameters_b=8,
        needs={"dynamic_shapes": True, "devices": 8},
    )
    gpu_text = " ".join(reason.text for reason in choice(gpu, "dynamic-shapes").rationale)
    assert "pad every batch to one max_length" not in gpu_text


def test_a_tier_3_confidence_note_does_not_deny_the_runtime_documented_on_each_family():
    # Review 260 p09: "no documented stack spans every family" beside a tier 3 of llama.cpp, which the knowledge base
    # documents on Graviton and on x86 server CPUs alike
    result = answer(
        model_type="dense-transformer",
        hardware="arm-cpu",
        device="graviton4",
        workload="inference",
        team_skill="framework",
        model="meta-llama/Llama-3.2-3B-Instruct",
        needs={
            "dynamic_shapes": True,
            "quantization": "int4",
            "devices": 1,
            "cross_platform": True,
            "other_hardware": ["x86-cpu"],
        },
    )
    first = result.confidence_notes[0]
    assert "no documented stack spans" not in first
    assert "each family's stack is documented on a page of its own" in first


def test_a_float_fallback_is_named_only_on_a_route_validated_on_the_device():
    # Review 260 p14: the FLUX NIM on an L40S (FP8 engines only) sent the float model to SGLang Diffusion, validated on
    # B200 / H200 / H100 only (https://docs.sglang.io/diffusion/index.html lists those GPUs)
    result = answer(
        model_type="diffusion",
        hardware="nvidia-gpu",
        device="l40s",
        workload="inference",
        team_skill="framework",
        model="black-forest-labs/FLUX.1-dev",
        needs={"quantization": "fp8", "devices": 1},
    )
    drop = next(s for s in result.switch_conditions if s.id == "fp8-accuracy-drop")
    assert "SGLang" not in drop.description and "B200" not in drop.description


def test_the_accuracy_gate_reads_the_format_the_stack_serves_not_the_one_asked():
    # Review 260 p13: int8 asked on a Tiangai 150, where the only vLLM stack serves bf16 or AWQ int4: the verdict said
    # int4 while the accuracy gate spoke of "the int8 model"
    result = answer(
        model_type="dense-transformer",
        hardware="iluvatar-gpu",
        device="tiangai-150",
        workload="inference",
        team_skill="framework",
        model="Qwen/Qwen2.5-14B-Instruct",
        needs={"dynamic_shapes": True, "quantization": "int8", "devices": 2},
    )
    assert "in int4" in result.verdict
    ids = {s.id for s in result.switch_conditions}
    assert "int4-accuracy-drop" in ids and "int8-accuracy-drop" not in ids


def test_a_size_table_in_another_clause_is_read_for_a_launch_written_for_another_size():
    # Review 260 p12: Hygon's cookbook K100_AI line serves Qwen3-30B-A3B at -tp 2 and runs the small dense models at
    # -tp 1 (https://github.com/HYGON-AI/inference-cookbook-das/blob/ad2a8ffae71a43eb655296ecf562a35c2c5a0bd6/docs/model-deployment/vllm/qwen3.md);
    # a 7B model was told "the command's tensor-parallel degree is 2"
    result = answer(
        model_type="dense-transformer",
        hardware="hygon-dcu",
        device="k100-ai",
        workload="inference",
        team_skill="framework",
        model="Qwen/Qwen2.5-7B-Instruct",
        needs={"devices": 4},
    )
    layout = choice(result, "deployment").settings.get("layout here", "")
    assert "the command's tensor-parallel degree is 2" not in layout
    assert "the page sets the tensor-parallel degree by model size" in layout


def test_a_small_vlm_served_data_parallel_is_not_told_of_tensor_parallel_collectives():
    # Review 259 p04: vLLM's Qwen2.5-VL recipe serves the 7B model with --data-parallel-size 4 on Instinct GPUs and the
    # 72B one at --tensor-parallel-size 4 (https://github.com/vllm-project/recipes/blob/main/Qwen/Qwen2.5-VL.md); the
    # 7B job's collectives row quoted the 72B line's TP 4
    result = answer(
        model_type="multimodal",
        hardware="amd-gpu",
        device="mi355x",
        workload="inference",
        team_skill="framework",
        model="Qwen/Qwen2.5-VL-7B-Instruct",
        needs={"devices": 8},
    )
    assert chosen_stack(result) == "amd-vllm-vlm-instinct"
    collectives = choice(result, "collectives").settings.get("as documented", "")
    assert "--data-parallel-size 4" in collectives and "--tensor-parallel-size 4" not in collectives


def test_a_vision_model_served_in_fp16_is_gated_on_its_accuracy_against_fp32():
    # Review 259 p15 (scored 1): an ixRT FP16 engine for a ViT on a BI-V150, from a recipe that measures FP16 and FP32
    # (https://github.com/Deep-Spark/DeepSparkInference), had a device-generation switch only
    result = answer(
        model_type="cnn",
        hardware="iluvatar-gpu",
        device="tiangai-150",
        workload="inference",
        team_skill="framework",
        model="google/vit-base-patch16-224",
        needs={"devices": 1},
    )
    gate = next(s for s in result.switch_conditions if s.id == "fp16-vs-fp32-accuracy")
    assert gate.metric == "evidence.fp16_accuracy_drop" and "build it in fp32" in gate.description
    # an LLM served in bf16 as its recipe ships it gets no such gate
    llm = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="inference",
        team_skill="framework",
        model="meta-llama/Llama-3.1-8B-Instruct",
        needs={"devices": 1},
    )
    assert not any(s.id.endswith("-vs-fp32-accuracy") for s in llm.switch_conditions)


def test_an_rl_job_served_on_another_engine_than_its_rollouts_gets_a_parity_gate_and_lists_both_engines():
    # Review 260 p04: verl's GRPO recipe on 16 Atlas A2 NPUs rolls out on SGLang
    # (https://github.com/verl-project/verl/blob/main/docs/ascend_tutorial/quick_start/ascend_quick_start.rst lists the
    # SGLang and vLLM rows apart), the deployment runs vllm-ascend; no switch spoke of the RL side and the record's
    # tier-1 list named one engine
    from advisor.records.decision import tier1_options

    result = answer(
        model_type="moe",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="both",
        training="rl",
        team_skill="framework",
        model="Qwen/Qwen3-30B-A3B",
        needs={"devices": 16},
    )
    gate = next(s for s in result.switch_conditions if s.id == "rl-serving-rollout-parity")
    assert "served by vLLM" in gate.description and "through SGLang" in gate.description
    assert {"vllm", "sglang"} <= set(tier1_options(result))


def test_a_long_context_training_job_is_gated_on_its_peak_memory_at_the_target_length():
    # Review 260 p06: a long-context full fine-tune on 32 GB TPU v6e chips (Google's v6e page gives 32 GB HBM per chip,
    # https://cloud.google.com/tpu/docs/v6e) switched only on the device generation and the scaling efficiency
    result = answer(
        model_type="dense-transformer",
        hardware="google-tpu",
        device="tpu-v6e",
        workload="training",
        training="fine-tuning",
        team_skill="kernel",
        model="meta-llama/Llama-3.1-8B",
        needs={"long_context": True, "devices": 8},
    )
    gate = next(s for s in result.switch_conditions if s.id == "long-context-memory")
    assert gate.metric == "evidence.training.peak_memory_fraction" and gate.op == ">"
    short = answer(
        model_type="dense-transformer",
        hardware="google-tpu",
        device="tpu-v6e",
        workload="training",
        training="fine-tuning",
        team_skill="kernel",
        model="meta-llama/Llama-3.1-8B",
        needs={"devices": 8},
    )
    assert not any(s.id == "long-context-memory" for s in short.switch_conditions)


def test_a_rival_runner_written_for_other_models_gets_a_model_list_switch_and_its_row_points_to_it():
    # Reviews 252-259 p12: Apple's Core AI image-generation recipes (https://github.com/apple/coreai-models) list SD 1.5,
    # SD 2.1, SD 3.5 Medium and FLUX.2 klein, not SDXL; for SDXL in a Mac app Core AI was only a watch line
    result = answer(
        model_type="diffusion",
        hardware="apple-silicon",
        device="apple-m4",
        workload="inference",
        team_skill="framework",
        model="stabilityai/stable-diffusion-xl-base-1.0",
        needs={"in_app": True, "devices": 1},
    )
    assert chosen_stack(result) == "apple-coreml-stable-diffusion"
    gate = next(s for s in result.switch_conditions if s.id == "apple-coreai-image-generation-lists-model")
    assert gate.metric == "knowledge.stack.apple-coreai-image-generation.models" and gate.op == "!="
    row = considered(result, "apple-coreai-image-generation").reason
    assert row.endswith("switch condition apple-coreai-image-generation-lists-model watches it")


def test_a_row_turned_down_on_its_format_names_the_race_that_watches_it():
    # Review 260 p10: WhisperKit turned down as "none in int8" for a Mac app, while a switch condition races its int4
    # model against whisper.cpp's q8_0 on the target (https://github.com/argmaxinc/WhisperKit)
    result = answer(
        model_type="dense-transformer",
        hardware="apple-silicon",
        device="apple-m4",
        workload="inference",
        team_skill="framework",
        task="transcription",
        model="openai/whisper-large-v3-turbo",
        needs={"quantization": "int8", "in_app": True, "devices": 1},
    )
    row = considered(result, "apple-whisperkit-coreml").reason
    assert "switch condition apple-whisperkit-coreml-smaller watches it" in row
    assert any(s.id == "apple-whisperkit-coreml-smaller" for s in result.switch_conditions)


def test_a_full_fine_tune_takes_a_post_training_recipe_before_a_pre_training_entry_point():
    # Review 261 p04 (scored 1): a Llama 3.1 70B full fine-tune on MI325X went to Primus's pre-training entry point
    # (train pretrain, random weights), while AMD's post-training page runs full SFT with train posttrain and says MI325X
    # uses the MI300X configurations (https://rocm.docs.amd.com/projects/primus/en/latest/02-user-guide/posttraining.html)
    result = answer(
        model_type="dense-transformer",
        hardware="amd-gpu",
        device="mi325x",
        workload="training",
        training="fine-tuning",
        team_skill="kernel",
        model="meta-llama/Llama-3.1-70B",
        needs={"devices": 8},
    )
    assert chosen_stack(result, "training") == "amd-primus-megatron-bridge-llama31-70b-sft"
    pretraining = considered(result, "amd-primus-megatron-te-mi300x").reason
    assert "its page starts from no published model's weights" in pretraining


def test_a_layout_written_for_other_models_is_no_size_reference():
    # Review 261 p04: Primus's native SFT-LoRA guide lists Llama-2-70B among its models while its layouts are Qwen3 MoE
    # ones; "its layout for meta-llama/Llama-2-70b-hf (Qwen3-30B-A3B: TP 1, PP 1, EP 8 ...)" was printed for a 70B job
    result = answer(
        model_type="dense-transformer",
        hardware="amd-gpu",
        device="mi325x",
        workload="training",
        training="fine-tuning",
        team_skill="kernel",
        parameters_b=70,
        needs={"devices": 8},
    )
    assert all("Llama-2-70b-hf (Qwen3" not in option.reason for option in result.stacks_considered)


def test_a_qwen3_moe_pretraining_on_h100_takes_megatron_bridges_recipe_for_it():
    # Reviews 261 p01, 262 p01: Qwen3-30B-A3B FP8 pre-training on 64 H100 got Llama 3 70B's dense TP4 PP8 VP5 layout;
    # Megatron Bridge ships qwen3_30b_a3b_pretrain_64gpu_h100_fp8cs_config (EP 16)
    # (https://github.com/NVIDIA-NeMo/Megatron-Bridge/blob/067f987df03b8355b03192d88d70f1709fedf51a/src/megatron/bridge/perf_recipes/qwen/h100/qwen3_moe.py)
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="training",
        training="pretraining",
        team_skill="hpc",
        model="Qwen/Qwen3-30B-A3B",
        needs={"quantization": "fp8", "long_context": True, "devices": 64},
    )
    assert chosen_stack(result, "training") == "nvidia-megatron-bridge-qwen3-moe-pretrain-h100"
    framework = choice(result, "training-framework").settings.get("as documented", "")
    assert "qwen3_30b_a3b_pretrain_64gpu_h100_fp8cs_config" in framework


def test_a_launch_written_for_another_size_is_not_offered_as_this_models_own_layout():
    # Review 261 p09: vLLM Neuron's Llama 3 recipe launches the 70B model at TP 16 and says the 1B and 8B models take the
    # same path with a smaller degree it gives no figure for
    # (https://github.com/aws-neuron/aws-neuron-sdk/blob/43a89626d2aa0f9f649b581df8dfefe85b2b603d/vllm-neuron/docs/tutorials/tutorial-llama3-70b.md);
    # an 8B job was offered "4 replicas of 4 as the command runs it"
    result = answer(
        model_type="dense-transformer",
        hardware="aws-neuron",
        device="trn2",
        workload="inference",
        team_skill="framework",
        model="meta-llama/Llama-3.1-8B-Instruct",
        needs={"devices": 16},
    )
    layout = choice(result, "deployment").settings.get("layout here", "")
    assert "as the command runs it" not in layout
    assert "is its 70B launch's; the page gives none for this size" in layout


def test_an_rl_recipe_rolling_out_on_another_engine_than_the_async_trainer_still_gets_the_generation_gate():
    # Review 261 p06: verl's GRPO recipe on Atlas A3 rolls out on SGLang, while verl's one-step-off-policy trainer runs
    # vLLM rollouts (https://github.com/verl-project/verl/blob/a74fc52e75e31b4f754d64507e2b99056c8e61c2/docs/advance/one_step_off.md);
    # the record had no RL switch at all
    result = answer(
        model_type="moe",
        hardware="ascend-npu",
        device="ascend-910c",
        workload="training",
        training="rl",
        team_skill="hpc",
        model="Qwen/Qwen3-30B-A3B",
        needs={"devices": 16},
    )
    gate = next(s for s in result.switch_conditions if s.id == "rl-generation-share")
    assert "so the move also takes the rollout off SGLang" in gate.description


def test_a_device_fallback_no_better_validated_names_the_devices_the_first_stack_runs_on():
    # Review 261 p08: serving on a v5p, vLLM JAX (v5p experimental) was backed up by vLLM TorchTPU, validated on v7x and
    # v6e only (https://docs.vllm.ai/projects/tpu/en/latest/); serving on a v5e or v6e was never said
    result = answer(
        model_type="dense-transformer",
        hardware="google-tpu",
        device="tpu-v5p",
        workload="both",
        training="pretraining",
        team_skill="framework",
        model="meta-llama/Llama-3.1-8B",
        needs={"devices": 64},
    )
    assert "or serve on a device vLLM serving on Cloud TPU with vLLM JAX" in result.verdict
    assert "tpu-v5e, tpu-v6e" in result.verdict
    # an RL recipe's sampler and trainer meshes are no size reference for a pre-training
    assert all("nearest one documented" not in option.reason for option in result.stacks_considered)


def test_an_int8_embedding_model_on_a_cpu_is_timed_against_its_fp32_export():
    # Review 261 p11: ONNX Runtime's dynamic INT8 bge-m3 on Graviton4 (the Sentence Transformers ONNX backend,
    # https://sbert.net/docs/sentence_transformer/usage/efficiency.html) had no gate on whether int8 is faster than fp32
    result = answer(
        model_type="dense-transformer",
        hardware="arm-cpu",
        device="graviton4",
        workload="inference",
        team_skill="framework",
        task="embedding",
        model="BAAI/bge-m3",
        needs={"dynamic_shapes": True, "quantization": "int8", "quantization_method": "ptq", "devices": 1},
    )
    gate = next(s for s in result.switch_conditions if s.id == "int8-no-speedup")
    assert gate.metric == "evidence.inference_throughput.int8_over_fp32"


def test_a_context_capped_launch_gate_names_the_uncapped_stack_that_fits_whole():
    # Review 263 p01: TensorRT-LLM's DeepSeek NVFP4 launch stops at 9,472 tokens
    # (https://nvidia.github.io/TensorRT-LLM/deployment-guide/deployment-guide-for-deepseek-r1-on-trtllm.html) for a
    # 32k-token SLA, while vLLM's NVFP4 page fits the whole profile; the gate sent the team nowhere but "keep requests
    # short", and called trtllm-serve's config change a recompile
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="b200",
        workload="inference",
        team_skill="framework",
        model="deepseek-ai/DeepSeek-V3",
        needs={"dynamic_shapes": True, "quantization": "fp4", "long_context": True, "devices": 8},
        serving={"isl": 32000, "osl": 2000, "ttft_ms": 5000, "tpot_ms": 50},
    )
    gate = next(s for s in result.switch_conditions if s.id == "context-cap-gate")
    assert "whose page documents long sequences" in gate.description or "whose page states no cap" in gate.description
    assert "where its engine compiles per length, recompiled" in gate.description


def test_tier_3_keeps_tier_1s_engine_and_says_which_family_serves_the_float_model():
    # Review 264 p14 (scored 1): Qwen2.5-VL-7B FP8 on an L40S that must also run on MI300X got "sglang ... serving one
    # fp8 checkpoint ... on each", while SGLang's and vLLM's Qwen2.5-VL recipes on Instinct are BF16 only
    # (https://github.com/vllm-project/recipes/blob/main/Qwen/Qwen2.5-VL.md), and vLLM, tier 1's engine, has one there
    result = answer(
        model_type="multimodal",
        hardware="nvidia-gpu",
        device="l40s",
        workload="inference",
        team_skill="kernel",
        model="Qwen/Qwen2.5-VL-7B-Instruct",
        needs={
            "dynamic_shapes": True,
            "quantization": "fp8",
            "quantization_method": "ptq",
            "devices": 1,
            "cross_platform": True,
            "other_hardware": ["amd-gpu"],
            "other_devices": ["mi300x"],
        },
    )
    assert choice(result, "deployment", tier=3).option == "vllm"
    assert "and the float model on amd-gpu, where no fp8 path is documented" in result.verdict
    assert "which it loads on each" not in result.verdict


def test_torchnpu_product_releases_are_not_compared_with_pip_package_versions():
    # Review 263 p04: "torch-npu 26.2.0 (training), 2.10.0 (serving)": MindSpeed's tables name TorchNPU product releases
    # (26.x) while vllm-ascend pins the pip package torch_npu (2.10.0.postN); Ascend's compatibility table maps one to
    # the other (https://gitcode.com/Ascend/pytorch), so the two are different numbering schemes
    result = answer(
        model_type="moe",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="both",
        training="fine-tuning",
        team_skill="framework",
        model="Qwen/Qwen3-30B-A3B",
        needs={"quantization": "int8", "devices": 16},
    )
    assert "torch-npu 26" not in result.verdict
    assert "Their validated versions differ: cann" in result.verdict


def test_a_format_miss_on_a_stack_for_another_generation_names_the_generation_too():
    # Review 264 p07: on an Inf2, vLLM Neuron's Llama 3 page (relevant for Trn2 and Trn3,
    # https://awsdocs-neuron.readthedocs-hosted.com/en/latest/vllm-neuron/docs/index.html) was set aside for its int8
    # support alone
    result = answer(
        model_type="dense-transformer",
        hardware="aws-neuron",
        device="inf2",
        workload="inference",
        team_skill="framework",
        model="meta-llama/Llama-3.1-8B-Instruct",
        needs={"dynamic_shapes": True, "quantization": "int8", "quantization_method": "ptq", "devices": 2},
    )
    reason = considered(result, "neuron-vllm-neuron-llama3-fp8").reason
    assert "int8 is not validated for it there" in reason and "not inf2" in reason


def test_a_size_that_counts_one_part_of_a_pipeline_says_what_it_leaves_out():
    # Review 264 p10: "the 2.6B model's weights take about 5 GB" for SDXL in a Mac app, where 2.6B is the UNet alone (the
    # SDXL report's Table 1, https://arxiv.org/abs/2307.01952) and two text encoders and the VAE load besides
    result = answer(
        model_type="diffusion",
        hardware="apple-silicon",
        device="apple-m4",
        workload="inference",
        team_skill="framework",
        model="stabilityai/stable-diffusion-xl-base-1.0",
        needs={"in_app": True, "devices": 1},
    )
    capacity = " ".join(reason.text for reason in result.capacity)
    assert "the UNet alone; its two text encoders" in capacity


def test_a_kernel_team_on_a_vendors_prebuilt_engines_gets_the_open_route_raced():
    # Reviews 262 p14, 263 p14: a kernel team serving FLUX.1-dev FP8 on an L40S was handed the NIM's prebuilt TensorRT
    # engines (https://docs.nvidia.com/nim/visual-genai/1.1.1/support-matrix.html), which take no custom kernel, and the
    # open Diffusers + torchao route was turned down as "a script" with no measured way to it
    kernel = answer(
        model_type="diffusion",
        hardware="nvidia-gpu",
        device="l40s",
        workload="inference",
        team_skill="kernel",
        model="black-forest-labs/FLUX.1-dev",
        needs={"quantization": "fp8", "devices": 1},
    )
    assert chosen_stack(kernel) == "nvidia-nim-flux1-dev"
    race = next(s for s in kernel.switch_conditions if s.id.endswith("-open-route"))
    assert race.metric.endswith("_over_nvidia-nim-flux1-dev") and race.op == ">="
    framework = answer(
        model_type="diffusion",
        hardware="nvidia-gpu",
        device="l40s",
        workload="inference",
        team_skill="framework",
        model="black-forest-labs/FLUX.1-dev",
        needs={"quantization": "fp8", "devices": 1},
    )
    assert not any(s.id.endswith("-open-route") for s in framework.switch_conditions)


def test_a_model_list_switch_watches_only_a_recipe_for_the_same_publishers_models():
    # Review 266 p01: a Qwen3-235B record on H100 carried "nvidia-vllm-deepseek-v32-lists-model", a DeepSeek-V3.2
    # recipe's model list, which no Qwen3 job waits on
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="inference",
        team_skill="framework",
        model="Qwen/Qwen3-235B-A22B",
        needs={"quantization": "fp8", "long_context": True, "devices": 8},
    )
    assert not any("deepseek" in s.id for s in result.switch_conditions if s.id.endswith("-lists-model"))


def test_tier_2_attention_under_an_engines_own_kernels_is_no_kernel_the_engine_cannot_run():
    # Review 266 p01: FlexAttention offered in tier 2 under TensorRT-LLM, whose attention backends are its own FMHA/XQA
    # kernels and FlashInfer (https://nvidia.github.io/TensorRT-LLM/features/attention.html)
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="inference",
        team_skill="framework",
        model="Qwen/Qwen3-235B-A22B",
        needs={"quantization": "fp8", "devices": 8},
    )
    assert chosen_stack(result).startswith("nvidia-trtllm-")
    tier2 = [c for c in result.tier(2).choices if c.concern == "attention"]
    assert all(c.option != "flex-attention" for c in tier2)


def test_a_recipe_for_the_instruction_tuned_release_is_written_for_the_base_model():
    # Review 266 p06: "written for google/gemma-3-27b-it, not google/gemma-3-27b-pt": Google releases Gemma 3 as a
    # pre-trained (-pt) and an instruction-tuned (-it) checkpoint of one architecture
    # (https://huggingface.co/google/gemma-3-27b-pt)
    from advisor.knowledge.model_sizes import written_for

    assert written_for(["google/gemma-3-27b-it"], "google/gemma-3-27b-pt")
    assert written_for(["Qwen/Qwen3-14B"], "Qwen/Qwen3-14B-Base")
    assert not written_for(["google/gemma-3-27b-it"], "google/gemma-3-12b-pt")


def test_a_mixtral_pretraining_on_v5p_takes_maxtexts_megablox_recipe():
    # Review 264 p06: Mixtral-8x7B-class pre-training on v5p got MaxText's generic dense page; MaxText's Mixtral guide
    # runs MegaBlox dropless grouped matmuls on v5p
    # (https://github.com/AI-Hypercomputer/maxtext/blob/e591f30cbbf217ed67ef71263ec0538239f9c3b8/tests/end_to_end/tpu/mixtral/Run_Mixtral.md)
    result = answer(
        model_type="moe",
        hardware="google-tpu",
        device="tpu-v5p",
        workload="training",
        training="pretraining",
        team_skill="hpc",
        model="mistralai/Mixtral-8x7B-v0.1",
        needs={"devices": 256},
    )
    assert chosen_stack(result, "training") == "tpu-maxtext-moe-megablox"


def test_a_diffusion_lora_with_no_documented_stack_still_gets_a_trainer_to_probe():
    # Review 266 p12 (scored 1): an SDXL LoRA on four K100_AI cards read "training-framework: not needed"; Diffusers'
    # LoRA training scripts (https://github.com/huggingface/diffusers/tree/main/examples/text_to_image) on the family's
    # PyTorch build are the route to probe first
    result = answer(
        model_type="diffusion",
        hardware="hygon-dcu",
        device="k100-ai",
        workload="training",
        training="lora",
        team_skill="framework",
        model="stabilityai/stable-diffusion-xl-base-1.0",
        needs={"devices": 4},
    )
    trainer = choice(result, "training-framework")
    assert trainer.option == "diffusers"
    assert "the route to probe first" in trainer.rationale[0].text
    assert not any(s.concern == "training-framework" for s in result.skipped_concerns)


def test_a_serving_layout_of_whole_copies_relies_on_no_collectives_claim():
    # Reviews 265 p15, 266 p13: "ixccl.inference is unknown" docked the confidence of plans that serve a whole copy on
    # each card (a 7B model as 2 replicas of 1; a ResNet-50 service), which exchange nothing while serving
    result = answer(
        model_type="cnn",
        hardware="iluvatar-gpu",
        device="tiangai-150",
        workload="both",
        training="fine-tuning",
        team_skill="framework",
        model="microsoft/resnet-50",
        parameters_b=0.026,
        needs={"devices": 8},
    )
    assert not any("ixccl.inference" in note for note in result.confidence_notes)


def test_a_fallback_whose_page_names_no_device_here_is_called_a_gate_not_documented():
    # Reviews 265 p13, 268 p11: the vllm_mlu gate sent Qwen2.5-VL to xLLM "whose page documents it", while the same
    # record's watch line says xLLM's page names no MLU model (https://github.com/jd-opensource/xllm)
    result = answer(
        model_type="multimodal",
        hardware="cambricon-mlu",
        device="mlu590",
        workload="inference",
        team_skill="framework",
        model="Qwen/Qwen2.5-VL-7B-Instruct",
        needs={"devices": 2},
    )
    gate = next(s for s in result.switch_conditions if s.id == "upstream-model-gate")
    assert "names no device of this family, so its own first run is a gate too" in gate.description


def test_a_context_cap_gate_does_not_call_a_page_without_a_cap_evidence_of_long_context():
    # Review 268 p04: MindIE was named for 32K+ DeepSeek-V3 W8A8 on A3 because "its page states no such cap"
    result = answer(
        model_type="moe",
        hardware="ascend-npu",
        device="ascend-910c",
        workload="inference",
        team_skill="hpc",
        model="deepseek-ai/DeepSeek-V3",
        needs={"quantization": "int8", "long_context": True, "devices": 16},
    )
    gate = next(s for s in result.switch_conditions if s.id == "context-cap-gate")
    assert "MindIE" in gate.description and "whose page states no cap (and no evidence of that length)" in (
        gate.description
    )


def test_an_engine_implementing_the_model_itself_is_said_to_be_why_it_comes_first():
    # Review 267 p06: vLLM JAX against vLLM TorchTPU for Qwen3-32B on v6e read "nothing documented puts one first";
    # vLLM JAX registers Qwen3ForCausalLM as a JAX implementation
    # (https://github.com/vllm-project/tpu-inference/blob/b8692ff01fa191343836996c27a39dc95f008b88/tpu_inference/models/common/model_loader.py)
    # and its landing page sends PyTorch models to vllm-torchtpu (https://docs.vllm.ai/projects/vllm-jax/en/latest/)
    result = answer(
        model_type="dense-transformer",
        hardware="google-tpu",
        device="tpu-v6e",
        workload="inference",
        team_skill="framework",
        model="Qwen/Qwen3-32B",
        needs={"dynamic_shapes": True, "devices": 8},
    )
    assert chosen_stack(result) == "tpu-vllm-jax-serving"
    reason = considered(result, "tpu-vllm-torchtpu-serving").reason
    assert "runs Qwen/Qwen3-32B through an implementation of its own" in reason


def test_a_float_model_that_fits_in_fewer_copies_says_so_in_the_capacity_line():
    # Reviews 268 p06, 270 p06: "in bf16 they would take about 16 GB and fit as well" on v6e chips (32 GB each), beside
    # an accuracy switch counting 4 bf16 copies against 8 int8 ones on the same 8 chips
    result = answer(
        model_type="dense-transformer",
        hardware="google-tpu",
        device="tpu-v6e",
        workload="inference",
        team_skill="kernel",
        model="meta-llama/Llama-3.1-8B-Instruct",
        needs={"quantization": "int8", "devices": 8},
    )
    capacity = " ".join(reason.text for reason in result.capacity)
    assert "fit as well in fewer copies (the job's 8 hold 4 in bf16 against 8 in int8" in capacity


def test_common_models_named_without_a_size_in_their_id_are_sized_from_the_catalogue():
    # Review 270 p08, p12: "capacity: not checked: ... states no size in its id" for bge-large-en-v1.5 and resnet-50
    from advisor.knowledge.model_sizes import size_of

    assert size_of("BAAI/bge-large-en-v1.5").parameters_b == 0.335
    assert size_of("microsoft/resnet-50").parameters_b == 0.0256


def test_a_recipe_stating_its_length_in_words_is_held_to_long_context_too():
    # Review 269 p15: NeMo RL's Qwen3-30B-A3B row ("4,096-token maximum sequence",
    # https://docs.nvidia.com/nemo/rl/latest/about/performance-summary.html) passed as a whole fit for a long-context
    # GRPO job while verl's 10,240-token recipe was marked down
    from advisor.recommendation.stack_choice import TRAINED_SEQUENCE_WORDS

    assert TRAINED_SEQUENCE_WORDS.findall("32 GPUs, 4,096-token maximum sequence, 2,048 rollouts") == ["4,096"]
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="training",
        training="rl",
        team_skill="kernel",
        model="Qwen/Qwen3-30B-A3B",
        needs={"long_context": True, "devices": 16},
    )
    chosen = next(option for option in result.stacks_considered if option.chosen)
    assert "-token sequences, below the 32,768" in chosen.reason
