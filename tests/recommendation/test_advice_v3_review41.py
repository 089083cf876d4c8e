"""Review 40's remaining defects and review 41's, each pinned."""

from __future__ import annotations

from recommendation_builders import answer_for as answer
from recommendation_builders import answer_without

from advisor.records.render import considered_text


def switch_names(result) -> set[str]:
    return {condition.id for condition in result.switch_conditions}


def test_int8_is_watched_only_where_the_family_documents_int8_for_the_model_type():
    # Review 40 p12: SDXL on Inferentia2 was told to "consider INT8 PTQ", yet Optimum Neuron's SDXL guide compiles
    # the pipeline in bf16/fp32 and names no INT8 route
    # (https://huggingface.co/docs/optimum-neuron/model_doc/diffusers/stable_diffusion_xl).
    neuron = answer(model_type="diffusion", hardware="aws-neuron", device="inf2", workload="inference")
    assert "int8-pays-on-target" not in switch_names(neuron)
    # TensorRT documents INT8 PTQ for convolutional networks
    # (https://docs.nvidia.com/deeplearning/tensorrt/latest/inference-library/work-quantized-types.html).
    cnn = answer(model_type="cnn", hardware="nvidia-gpu", device="l40s", workload="inference")
    assert "int8-pays-on-target" in switch_names(cnn)


def test_considered_options_says_where_each_named_option_stands():
    # Review 40's record 0001 listed "Named in this record: ... `tbe`, ..., `sglang`" with no word on where `tbe` or
    # `sglang` stood; each is now given with its concern and tier.
    result = answer(
        model_type="moe",
        hardware="ascend-npu",
        device="ascend-910c",
        workload="inference",
        team_skill="hpc",
        model="deepseek-ai/DeepSeek-V3",
        needs={"quantization": "int8", "devices": 16},
    )
    text = considered_text(result)
    assert text.startswith(f"The {len(result.stacks_considered)} stacks in the table above")
    for tier in result.tiers:
        for choice in tier.choices:
            for alternative in choice.alternatives:
                assert f"tier {tier.tier} {choice.concern}: `{choice.option}`, weighed against" in text
                assert f"`{alternative}`" in text


def test_fp8_serving_names_the_publishers_fp8_checkpoint_of_the_model():
    # Review 40 p01: "if Qwen/Qwen3-30B-A3B's authors publish an FP8 release of it ..., serve that", while Qwen
    # publishes Qwen/Qwen3-30B-A3B-FP8 (https://huggingface.co/Qwen/Qwen3-30B-A3B-FP8).
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="inference",
        model="Qwen/Qwen3-30B-A3B",
        needs={"quantization": "fp8", "devices": 1},
    )
    quantization = next(c for c in result.tier(1).choices if c.concern == "quantization")
    first = quantization.rationale[0]
    assert first.text.startswith("Qwen/Qwen3-30B-A3B's publisher releases Qwen/Qwen3-30B-A3B-FP8")
    assert any(c.source == "https://huggingface.co/Qwen/Qwen3-30B-A3B-FP8" for c in first.cites)


def test_a_speech_profile_is_measured_in_audio_and_word_error_rate_not_tokens():
    # Reviews 41 p12 and 42 p13: whisper.cpp against mlx-whisper was raced in "tokens/s", the INT8 gate was "1 point
    # on task evaluation", and convolution read "a dense-transformer model has few or no convolutions" although
    # Whisper's encoder starts with a convolutional stem (https://arxiv.org/abs/2212.04356, section 2.2).
    result = answer(
        model_type="dense-transformer",
        hardware="apple-silicon",
        device="apple-m4",
        workload="inference",
        task="transcription",
        model="openai/whisper-large-v3-turbo",
        needs={"quantization": "int8", "devices": 1},
    )
    texts = [condition.description for condition in result.switch_conditions]
    assert not any("tokens/s" in text for text in texts)
    assert any("seconds of audio transcribed per second" in text for text in texts)
    drop = next(c.description for c in result.switch_conditions if c.id == "int8-accuracy-drop")
    assert "word error rate more than 1 point above the float model's" in drop
    convolution = next(s for s in result.skipped_concerns if s.concern == "convolution")
    assert "stem that reads the spectrogram" in convolution.rationale[0].text


def test_a_publishers_fp8_twin_is_served_as_released_only_where_the_family_documents_such_checkpoints():
    # Review 42 p10: on Gaudi the line "serve the authors' FP8 release as released" sat beside vllm-gaudi's documented
    # `--quantization inc` route, which calibrates a BF16 checkpoint
    # (https://github.com/vllm-project/vllm-gaudi/blob/main/docs/configuration/quantization/inc.md); no Gaudi page here serves a
    # publisher's FP8 checkpoint. vLLM's recipe serves Qwen/Qwen3-235B-A22B-FP8 on MI300X
    # (https://github.com/vllm-project/recipes/blob/main/models/Qwen/Qwen3-235B-A22B-Instruct-2507.yaml).
    def first_reason(hardware: str, device: str) -> str:
        result = answer(
            model_type="moe",
            hardware=hardware,
            device=device,
            workload="inference",
            model="Qwen/Qwen3-30B-A3B",
            needs={"quantization": "fp8", "devices": 1},
        )
        quantization = next(c for c in result.tier(1).choices if c.concern == "quantization")
        return quantization.rationale[0].text

    assert "serve that checkpoint as released" in first_reason("amd-gpu", "mi300x")
    gaudi = first_reason("intel-gaudi", "gaudi3")
    assert "no intel-gaudi stack here for moe models documents serving a publisher's FP8 checkpoint" in gaudi
    assert "quantize the BF16 checkpoint with the stack's own route" in gaudi
    # vllm-gaudi validates Qwen's released FP8 checkpoints of Qwen3-VL-235B-A22B on Gaudi 3
    # (https://github.com/vllm-project/vllm-gaudi/blob/main/docs/getting_started/validated_models.md): a vision-language
    # model is served as released there, which says nothing of a text MoE's twin.
    vlm = answer(
        model_type="multimodal",
        hardware="intel-gaudi",
        device="gaudi3",
        workload="inference",
        model="Qwen/Qwen3-VL-235B-A22B-Instruct",
        needs={"quantization": "fp8", "devices": 8},
    )
    quantization = next(c for c in vlm.tier(1).choices if c.concern == "quantization")
    assert "serve that checkpoint as released" in quantization.rationale[0].text


def test_one_shared_checkpoint_over_families_is_raced_against_the_targets_own_quantizer():
    # Review 41 p09 (Llama-3.1-70B FP8 on Gaudi 3 and H100): tier 3 said "one fp8 checkpoint written by modelopt" while
    # tier 1 quantized with INC on Gaudi, and nothing said which Gaudi serves. vllm-gaudi loads ModelOpt FP8
    # checkpoints (https://github.com/vllm-project/vllm-gaudi/blob/main/docs/release_notes_v0.15.1.md).
    result = answer(
        model_type="dense-transformer",
        hardware="intel-gaudi",
        device="gaudi3",
        workload="inference",
        model="meta-llama/Llama-3.1-70B-Instruct",
        needs={
            "quantization": "fp8",
            "devices": 4,
            "cross_platform": True,
            "other_hardware": ["nvidia-gpu"],
            "other_devices": ["h100-sxm"],
        },
    )
    assert "on intel-gaudi, tier 1 quantizes with Intel Neural Compressor (INC) FP8 instead" in (result.verdict or "")
    shared = next(c for c in result.switch_conditions if c.id == "shared-checkpoint-on-target")
    assert shared.metric == "evidence.inference_throughput.modelopt_over_synapseai" and shared.threshold == 0.9
    assert shared.also and shared.also[0].metric == "evidence.fp8_accuracy_drop.modelopt_over_synapseai"


def test_a_small_models_footprint_is_given_in_mb_not_as_zero_gb():
    # Review 41 p08: a 0.03B ResNet-class detector "holds about 0 GB in weights, gradients and Adam state".
    result = answer(
        model_type="cnn",
        hardware="iluvatar-gpu",
        device="tiangai-150",
        workload="both",
        parameters_b=0.03,
        needs={"quantization": "int8", "quantization_method": "qat", "devices": 1},
    )
    lines = [reason.text for reason in result.capacity]
    assert any("about 480 MB in weights, gradients and Adam state" in text for text in lines)
    assert not any("about 0 GB" in text for text in lines)
    quantization = next(c for c in result.tier(1).choices if c.concern == "quantization")
    # since review 254 the card's own ixRT route serves it (its INT8 on the Tiangai 150 untested); ixRT builds INT8
    # engines from a Q/DQ ONNX model, the form a QAT export takes
    # (https://github.com/Deep-Spark/iluvatar-corex-ixrt/blob/bdd71650f69ad3c2c8ab0f12595f150dd1ae3eef/samples/sampleResNet/README.md),
    # where IGIE's documented INT8 step is post-training (igie_common/quantize.py) and QAT runs in the training framework
    assert next(s for s in result.stacks if s.workload == "inference").stack == "iluvatar-ixrt-fastapi-tiangai-150"
    assert quantization.settings["method"] == "qat"
    assert any("Q/DQ ONNX model" in reason.text for reason in quantization.rationale)


def test_the_documented_command_says_which_model_to_put_in_place_of_the_recipes():
    # Review 42 p01: DeepSeek-V3.1 on 8 x B200 got SGLang's "--model deepseek-ai/DeepSeek-V3" as documented
    # (https://docs.sglang.io/docs/basic_usage/deepseek_v3), with nothing saying V3.1 goes in its place.
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="b200",
        workload="inference",
        team_skill="hpc",
        model="deepseek-ai/DeepSeek-V3.1",
        needs={"quantization": "fp8", "long_context": True, "devices": 8},
    )
    deployment = next(c for c in result.tier(1).choices if c.concern == "deployment")
    assert "--model deepseek-ai/DeepSeek-V3 " in deployment.settings["as documented"]
    assert deployment.settings["model"] == "deepseek-ai/DeepSeek-V3.1 in place of deepseek-ai/DeepSeek-V3"
    assert "Xeon" not in "\n".join(r.text for c in result.tier(1).choices for r in c.rationale)


def test_an_int8_embedding_on_tei_leaves_one_quantization_gap_and_no_compile_switch():
    # Review 41 p02 (bge-m3 INT8 on TEI; an L40S now gets a TensorRT INT8 route, Gaudi keeps TEI in bf16): "tier 1
    # leaves 2 concern(s) open: quantization, quantization", and a
    # "dynamic compile still recompiles" switch for TEI, which batches under --max-batch-tokens and compiles nothing
    # (https://github.com/huggingface/text-embeddings-inference/blob/main/docs/source/en/cli_arguments.md).
    result = answer(
        model_type="dense-transformer",
        hardware="intel-gaudi",
        device="gaudi3",
        workload="inference",
        model="BAAI/bge-m3",
        task="embedding",
        needs={"quantization": "int8", "dynamic_shapes": True, "devices": 1},
    )
    tier1 = result.tier(1)
    assert [gap.concern for gap in tier1.gaps].count("quantization") == 1
    assert "dynamic-compile-recompiles" not in switch_names(result)
    shapes = next(c for c in tier1.choices if c.concern == "dynamic-shapes")
    assert shapes.settings["mode"] == "token-budget-batching"


def test_a_sibling_generation_stack_is_watched_and_another_generations_recipe_is_not():
    # Review 41 p01 (DeepSeek-V3.1 on GB200): the switch watched "SGLang DeepSeek-V3/R1 FP8 serving on Hopper becomes
    # validated on gb200", a Hopper recipe, while SGLang's Blackwell recipe, validated on B200
    # (https://docs.sglang.io/docs/basic_usage/deepseek_v3), was not watched at all.
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="gb200",
        workload="inference",
        team_skill="hpc",
        model="deepseek-ai/DeepSeek-V3.1",
        needs={"quantization": "fp8", "long_context": True, "devices": 8},
    )
    names = switch_names(result)
    assert "stack-nvidia-sglang-deepseek-fp8-blackwell-on-gb200" in names
    assert not any(name.startswith("stack-") and "hopper" in name for name in names)
    hopper = next(o for o in result.stacks_considered if o.stack == "nvidia-sglang-deepseek-fp8-hopper")
    assert "(Hopper), not gb200 (Blackwell)" in hopper.reason


def test_a_qat_fine_tune_is_answered_by_a_qat_flow_that_trains_in_float():
    # Review 41 p15: an FP8 QAT fine-tune was answered with FP8 training (Transformer Engine), never naming a QAT flow.
    # Model Optimizer's llm_qat example fine-tunes a fake-quantized model with QATTrainer and exports FP8/NVFP4/INT4
    # (https://github.com/NVIDIA/Model-Optimizer/blob/0.46.0/examples/llm_qat/README.md): the training GEMMs run in
    # bf16 and the FP8 ones only in the exported model.
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h200-sxm",
        workload="training",
        training="lora",
        team_skill="kernel",
        model="Qwen/Qwen2.5-72B-Instruct",
        needs={"quantization": "fp8", "quantization_method": "qat", "devices": 8},
    )
    tier1 = {c.concern: c for c in result.tier(1).choices}
    assert tier1["quantization"].option == "modelopt"
    assert tier1["gemm"].settings["dtype"] == "bf16"
    assert "fake quantization" in tier1["gemm"].rationale[-1].text
    assert not any("run in FP8" in r.text for r in tier1["gemm"].rationale)
    # an FP8 pre-training job asking QAT keeps Transformer Engine's FP8 training (scenario 02): no fine-tune, no QAT flow
    pretraining = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="training",
        team_skill="hpc",
        needs={"quantization": "fp8", "quantization_method": "qat", "devices": 64},
    )
    assert {c.concern: c.option for c in pretraining.tier(1).choices}["quantization"] == "transformer-engine"


def test_a_narrower_format_switch_quotes_the_stacks_own_limit_on_that_format():
    # Review 42 p03 (Qwen3-30B-A3B FP8 fine-tune on MI355X): "run it in mxfp4" contradicted the stack's own warning
    # that AMD publishes MXFP4 training configurations only for Llama 3.1 8B
    # (https://rocm.docs.amd.com/projects/ai-ecosystem/en/latest/training/recipes/primus-megatron.html). Qwen3-30B-A3B
    # itself now gets Primus's own BF16/FP8 config for it (review 67 p04), which has no MXFP4 path, so the MoE model
    # is left unnamed here to keep the generic MI355X recipe and its MXFP4 switch.
    result = answer(
        model_type="moe",
        hardware="amd-gpu",
        device="mi355x",
        workload="training",
        training="fine-tuning",
        team_skill="hpc",
        needs={"quantization": "fp8", "quantization_method": "qat", "long_context": True, "devices": 8},
    )
    mxfp4 = next(c for c in result.switch_conditions if c.id == "training-in-mxfp4")
    assert "within the limit its page states: AMD publishes MXFP8 and MXFP4 training configurations only" in (
        mxfp4.description
    )


def test_a_sharded_training_recipe_is_not_called_data_parallel_and_its_mesh_is_scaled_to_the_job():
    # Review 41 p10 (FLUX fine-tune on TPU v6e-8): "data parallel over 8 devices" beside a capacity line asking for
    # FSDP, and the v5p-8 command's ici_fsdp_parallelism=4 kept for eight chips
    # (https://github.com/AI-Hypercomputer/maxdiffusion/blob/main/README.md).
    result = answer(
        model_type="diffusion",
        hardware="google-tpu",
        device="tpu-v6e",
        workload="training",
        training="fine-tuning",
        team_skill="kernel",
        parameters_b=12,
        needs={"devices": 8},
    )
    tier1 = {c.concern: c for c in result.tier(1).choices}
    framework = tier1["training-framework"]
    assert any("sharded (FSDP) over 8 devices" in r.text for r in framework.rationale)
    assert "scale ici_fsdp_parallelism so that the product is 8" in framework.settings["devices"]
    collectives = [r.text for r in tier1["collectives"].rationale]
    assert any(text.startswith("training: all-gathers of the sharded weights") for text in collectives)
    assert "training: gradient all-reduce (data parallel)" not in collectives


def test_one_modelopt_fp8_checkpoint_serves_trainium_and_h100_and_a_superseded_stack_lowers_confidence():
    # Review 44 p12: "no quantization toolkit whose output vllm loads runs on aws-neuron, nvidia-gpu with fp8", while
    # the vLLM Neuron plugin loads ModelOpt's static FP8 checkpoints (nvidia/Llama-3.3-70B-Instruct-FP8) on Trn2
    # (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/vllm-neuron/docs/model-recipes/llama-3.html).
    result = answer(
        model_type="dense-transformer",
        hardware="aws-neuron",
        device="trn2",
        workload="inference",
        team_skill="kernel",
        model="meta-llama/Llama-3.3-70B-Instruct",
        needs={
            "quantization": "fp8",
            "devices": 16,
            "cross_platform": True,
            "other_hardware": ["nvidia-gpu"],
            "other_devices": ["h100-sxm"],
        },
    )
    assert "serving one fp8 checkpoint written by modelopt, which it loads on each" in (result.verdict or "")
    quantization = next(c for c in result.tier(1).choices if c.concern == "quantization")
    assert "model" not in quantization.settings  # its FP8 checkpoint is this model's own release, nothing to swap
    # Review 43 p05: a stack vllm-ascend no longer carries (Qwen2.5-VL W8A8, last in v0.18.0) kept confidence 0.60,
    # chosen where no current engine documents the model's W8A8 route: the knowledge base without MindIE's
    # (https://github.com/Ascend/MindIE-LLM/blob/v3.0.0/docs/zh/user_guide/model_support_list.md lists it since)
    ascend = answer_without(
        {"ascend-mindie-qwen25vl-w8a8"},
        model_type="multimodal",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="inference",
        model="Qwen/Qwen2.5-VL-7B-Instruct",
        needs={"quantization": "int8", "devices": 1},
    )
    assert ascend.confidence <= 0.5
    assert any("is no longer in its software's current release" in note for note in ascend.confidence_notes)


def test_a_recipe_whose_sequence_cap_is_below_the_profiles_traffic_says_to_raise_it():
    # Review 43 p01 (Qwen3-235B FP8 on 8 x B200, ISL 16000): the documented launch line keeps --max-seq-len 8192 from
    # the recipe's benchmark (https://github.com/ai-dynamo/dynamo/blob/main/recipes/qwen3-235b-a22b-fp8/README.md).
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="b200",
        workload="inference",
        team_skill="hpc",
        model="Qwen/Qwen3-235B-A22B",
        serving={"isl": 16000, "osl": 800, "ttft_ms": 3000, "tpot_ms": 40},
        needs={
            "quantization": "fp8",
            "long_context": True,
            "devices": 16,
        },  # the recipe's 16 GPUs (reviews 109/110 p01)
    )
    deployment = next(c for c in result.tier(1).choices if c.concern == "deployment")
    assert "raise the cap to at least 16800" in deployment.settings["context"]


def test_a_hugging_face_model_is_not_trained_where_its_checkpoints_cannot_come_back_out():
    # Reviews 38-44 (Hygon K100-AI, Qwen fine-tune then serve): PaddleNLP's DCU guide keeps checkpoints in Paddle's
    # format, with "no conversion to a Hugging Face or vLLM checkpoint" documented
    # (https://github.com/PaddlePaddle/PaddleNLP/blob/develop/llm/devices/dcu/llama/README.md), so the vLLM build
    # cannot serve what it trains. The PyTorch route (LLaMA-Factory's DCU fork, LoRA shown on Llama-3-8B, merged into a
    # Hugging Face model by llamafactory-cli export: https://github.com/FlyAIBox/dcu-in-action) is a nearer fit.
    result = answer(
        model_type="dense-transformer",
        hardware="hygon-dcu",
        device="k100-ai",
        workload="both",
        training="fine-tuning",
        team_skill="kernel",
        model="Qwen/Qwen3-8B",
        needs={"devices": 8},
    )
    training = next(stack for stack in result.stacks if stack.workload == "training")
    assert training.stack == "hygon-llamafactory-das-community-k100-ai"
    assert any("every weight's gradients and optimizer state must fit besides" in m for m in training.misfits)
    # since review 250 Hygon's own Megatron-LM-das route (BW1000/BW1100, whose Megatron-Bridge hook only imports
    # published weights: https://github.com/HYGON-AI/Megatron-LM-das/blob/0685d1f5503105c8d1689c9191ebf3ed25f30319/docs/features/megatron-bridge.md)
    # outranks PaddleNLP in the considered list; each is turned down on the same ground
    kept_in = next(
        o for o in result.stacks_considered if "documents no conversion to a Hugging Face checkpoint" in o.reason
    )
    assert not kept_in.chosen
    assert kept_in.stack in {"hygon-paddlenlp-llm-k100-ai", "hygon-megatron-das-llm-bw1000"}
    # a full fine-tune writes the whole model, so the recipe's LoRA merge step (llamafactory-cli export) is not its
    # handoff (review 101 p09)
    assert "a full fine-tune saves every weight" in (result.verdict or "")


def test_a_lora_job_whose_frozen_weights_exceed_one_device_says_they_are_sharded():
    # Review 45 p10 (Llama-3.1-70B LoRA on 8 x Gaudi 2, 96 GB each): "140 GB ... within the 768 GB of 8 x Gaudi 2"
    # never said the frozen weights do not fit one card (96 GB, per the Hot Chips 2024 Gaudi table the platform
    # file cites: https://www.sgpjbg.com/baogao/465025.html).
    result = answer(
        model_type="dense-transformer",
        hardware="intel-gaudi",
        device="gaudi2",
        workload="training",
        training="lora",
        model="meta-llama/Llama-3.1-70B-Instruct",
        parameters_b=70,
        needs={"devices": 8},
    )
    line = next(reason.text for reason in result.capacity if reason.text.startswith("capacity: LoRA"))
    assert "more than one device's usable 86 GB, so the frozen weights are sharded (ZeRO-3/FSDP)" in line


def test_a_one_device_training_job_gets_no_parallelism_setting():
    # Review 45 p13 (Qwen3-4B LoRA on one M4 Max): mlx_lm.lora was shown with "parallelism=data" for one device.
    result = answer(
        model_type="dense-transformer",
        hardware="apple-silicon",
        device="apple-m4",
        workload="training",
        training="lora",
        model="Qwen/Qwen3-4B",
        needs={"devices": 1},
    )
    framework = next(c for c in result.tier(1).choices if c.concern == "training-framework")
    assert "parallelism" not in framework.settings


def test_an_unvetted_runner_is_not_dressed_in_the_platforms_graph_runtime():
    # Review 46 p15 (FLUX.1-dev FP8 on MI300X): xDiT, which runs on PyTorch with torch.compile
    # (https://rocm.docs.amd.com/projects/ai-ecosystem/en/latest/inference/xdit.html), was labelled "(migraphx)" for
    # quantization, dynamic shapes and deployment, and Quark and torchao were rejected because MIGraphX loads neither.
    # FLUX.1-dev now takes Hugging Face's flux-fast Diffusers route, a vetted runner (flux-fast README and PR #10,
    # https://github.com/huggingface/flux-fast/pull/10; scenarios 735-736), so the guard runs on FLUX.2-dev on 8 GPUs:
    # a model xDiT's runner lists and flux-fast does not, at xDiT's documented scale (--ulysses_degree 8).
    result = answer(
        model_type="diffusion",
        hardware="amd-gpu",
        device="mi300x",
        workload="inference",
        model="black-forest-labs/FLUX.2-dev",
        parameters_b=32,
        needs={"quantization": "fp8", "dynamic_shapes": True, "devices": 8},
    )
    tier1 = result.tier(1)
    assert not any(c.option == "migraphx" for c in tier1.choices)
    # since review 161 p04 xDiT is a knowledge-base candidate of its own (kbxdit, https://github.com/xdit-project/xDiT),
    # so the runner is vetted and named by its id; its FP8 GEMMs are torchao's float8 linears, not MIGraphX's
    deployment = next(c for c in tier1.choices if c.concern == "deployment")
    assert deployment.option == "xdit"
    quantization = next(c for c in tier1.choices if c.concern == "quantization")
    assert quantization.option == "torchao"
    assert not any("MIGraphX" in r.reasons[0].text for r in result.rejected)


def test_a_third_partys_fp8_checkpoint_is_still_gated_on_accuracy_and_the_fallback_reason_reads_plainly():
    # Review 45 p12 (Llama-3.3-70B FP8 on trn2): the vLLM Neuron recipe serves NVIDIA's ModelOpt FP8 checkpoint
    # (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/vllm-neuron/docs/model-recipes/llama-3.html), a quantized
    # copy, not Meta's release format, yet no fp8-accuracy-drop switch was written; and a rejection read "does not run
    # mxfp8 natively: runs in bf16, the fallback from fp8".
    result = answer(
        model_type="dense-transformer",
        hardware="aws-neuron",
        device="trn2",
        workload="inference",
        model="meta-llama/Llama-3.3-70B-Instruct",
        needs={"quantization": "fp8", "devices": 16},
    )
    assert "fp8-accuracy-drop" in switch_names(result)
    # since scenario 576 the general plugin stack names its recipes' models (GPT-OSS, Qwen3-32B), so for Qwen3-32B,
    # one of them, its fallback reason is the decisive one; since review 70 p08 it also says Trainium2 runs fp8, which
    # this stack documents only as MXFP8 (Trn3)
    qwen = answer(
        model_type="dense-transformer",
        hardware="aws-neuron",
        device="trn2",
        workload="inference",
        model="Qwen/Qwen3-32B",
        needs={"quantization": "fp8", "devices": 4},
    )
    mxfp8 = next(o for o in qwen.stacks_considered if o.stack == "neuron-vllm-neuron-serving")
    assert "documents fp8 only as mxfp8, which AWS Trainium2 does not run natively" in mxfp8.reason
    assert mxfp8.reason.endswith("so it would run in bf16")


def test_int8_on_an_m5_mac_runs_on_the_neural_engine_as_on_m4():
    # Review 48 p13 (SDXL INT8 on an M5 Mac): "Apple M5 family does not run int8 natively" rejected Core ML and served
    # fp32; coremltools puts int8-int8 compute on the Neural Engine "from iPhone 15 Pro onwards"
    # (https://apple.github.io/coremltools/docs-guides/source/opt-quantization-api.html).
    result = answer(
        model_type="diffusion",
        hardware="apple-silicon",
        device="apple-m5",
        workload="inference",
        model="stabilityai/stable-diffusion-xl-base-1.0",
        needs={"quantization": "int8", "devices": 1},
    )
    assert result.stacks[0].stack == "apple-coreml-stable-diffusion"
    assert not any("does not run int8 natively" in o.reason for o in result.stacks_considered)


def test_executorch_with_xnnpack_spans_android_phones_and_an_x86_test_farm():
    # Review 47 p14 (MobileNetV3 INT8 on Android phones, also run on an x86 test farm): tier 3 said no runtime spans
    # arm-cpu and x86-cpu, while ExecuTorch's XNNPACK backend targets x86-64 on Linux and Windows too
    # (https://docs.pytorch.org/executorch/stable/backends-xnnpack.html).
    result = answer(
        model_type="cnn",
        hardware="arm-cpu",
        device="armv9-mobile-sme2",
        workload="inference",
        needs={
            "quantization": "int8",
            "quantization_method": "qat",
            "devices": 1,
            "cross_platform": True,
            "other_hardware": ["x86-cpu"],
        },
    )
    assert "executorch as the one runtime on arm-cpu, x86-cpu" in (result.verdict or "")
