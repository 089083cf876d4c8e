"""Defects found after review 37, each pinned: the record's grouped tier lines keep a stack's parts apart from the
candidate they run on (review 36 p10 read "synapseai for gemm, ..., training-framework" with DeepSpeed and INC gone)."""

from __future__ import annotations

from recommendation_builders import answer_for as answer
from recommendation_builders import answer_without

from advisor.records.render import grouped_choices

GAUDI3_TRAIN_AND_SERVE_FOR_H100 = {
    "model_type": "dense-transformer",
    "hardware": "intel-gaudi",
    "device": "gaudi3",
    "workload": "both",
    "team_skill": "kernel",
    "training": "fine-tuning",
    "model": "meta-llama/Llama-3.1-8B-Instruct",
    "needs": {
        "quantization": "fp8",
        "quantization_method": "ptq",
        "devices": 8,
        "cross_platform": True,
        "other_hardware": ["nvidia-gpu"],
        "other_devices": ["h100-sxm"],
    },
}


def test_a_grouped_tier_line_names_the_stack_part_and_the_candidate_it_runs_on():
    # Intel's DeepSpeed user guide (https://docs.habana.ai/en/latest/PyTorch/DeepSpeed/DeepSpeed_User_Guide.html)
    # trains on its own DeepSpeed fork; vllm-gaudi's INC page quantizes to FP8 with Intel Neural Compressor
    # (https://github.com/vllm-project/vllm-gaudi/blob/main/docs/configuration/quantization/inc.md).
    result = answer(**GAUDI3_TRAIN_AND_SERVE_FOR_H100)
    tier1 = next(tier for tier in result.tiers if tier.tier == 1)
    assert not tier1.primary, "tier 3 leads, so the record shows tier 1 grouped"
    lines = {group["option"]: group["concerns"] for group in grouped_choices(tier1)}
    trainer = next(option for option, concerns in lines.items() if "training-framework" in concerns)
    quantizer = next(option for option, concerns in lines.items() if "quantization" in concerns)
    # the job must also run on H100: Hugging Face's Trainer, which runs on both families
    # (https://huggingface.co/docs/transformers/perf_train_gaudi), trains it rather than Intel's Gaudi-only fork (review 101)
    assert "Transformers Trainer" in trainer and trainer.endswith("(transformers)")
    assert lines[trainer] == ["training-framework"]
    assert "Neural Compressor" in quantizer and lines[quantizer] == ["quantization"]


GLM_AIR_ON_4_B200 = {
    "model_type": "moe",
    "hardware": "nvidia-gpu",
    "device": "b200",
    "workload": "inference",
    "team_skill": "hpc",
    "model": "zai-org/GLM-4.5-Air",
    "needs": {"quantization": "fp8", "quantization_method": "ptq", "long_context": True, "devices": 4},
}


def test_a_recipe_for_a_larger_sibling_is_not_written_for_the_smaller_model_but_is_considered_first():
    # GLM-4.5-Air is its own model, 106B total against GLM-4.5's 355B (https://huggingface.co/zai-org/GLM-4.5-Air,
    # https://huggingface.co/zai-org/GLM-4.5); SGLang's page is headed "GLM-4.5 / GLM-4.6"
    # (https://docs.sglang.io/docs/basic_usage/glm45) and runs --tp-size 8.
    from advisor.knowledge.model_sizes import written_for

    assert not written_for(["zai-org/GLM-4.5", "zai-org/GLM-4.6"], "zai-org/GLM-4.5-Air")
    assert written_for(["zai-org/GLM-4.5"], "zai-org/GLM-4.5-FP8")
    result = answer(**GLM_AIR_ON_4_B200)
    assert result.stacks and all("glm45" not in stack.stack for stack in result.stacks)
    considered = [option for option in result.stacks_considered if not option.chosen]
    assert considered[0].stack.endswith("glm45"), considered  # the publisher's other models' recipes come first
    sglang = next(option for option in considered if option.stack == "nvidia-sglang-glm45")
    assert "not zai-org/GLM-4.5-Air" in sglang.reason
    # vLLM's GLM-4.X guide takes GLM-4.5-Air as its example (https://docs.vllm.ai/projects/recipes/en/latest/GLM/GLM.html),
    # so its recipe is written for Air; it misses here only on the device, H200 being the series' verified GPU
    vllm = next(option for option in considered if option.stack == "nvidia-vllm-glm45")
    assert "not zai-org/GLM-4.5-Air" not in vllm.reason and "b200" in vllm.reason


def test_a_serving_command_split_wider_than_the_job_says_what_to_change():
    result = answer(**GLM_AIR_ON_4_B200)
    deployment = next(c for c in result.tiers[0].choices if c.concern == "deployment")
    assert "tensor parallel 8" in deployment.settings["devices"] and "to 4" in deployment.settings["devices"]
    eight = answer(**{**GLM_AIR_ON_4_B200, "needs": {**GLM_AIR_ON_4_B200["needs"], "devices": 8}})
    assert "devices" not in next(c for c in eight.tiers[0].choices if c.concern == "deployment").settings


WHISPER_ON_INF2 = {
    "model_type": "dense-transformer",
    "hardware": "aws-neuron",
    "device": "inf2",
    "workload": "inference",
    "model": "openai/whisper-large-v3",
    "task": "transcription",
    "needs": {"devices": 1},
}


def test_a_speech_model_is_served_only_by_a_runtime_a_stack_documents_for_it_on_the_family():
    # vLLM documents speech transcription on its own pages (https://docs.vllm.ai/en/latest/models/supported_models.html)
    # but the Neuron plugin's page lists no Whisper (https://docs.vllm.ai/projects/neuron/en/latest/): on a family
    # whose stacks document no runtime for it, vLLM is a thing to probe, not the deployment.
    from advisor.knowledge.loader import load_knowledge_base

    stacks = load_knowledge_base().stacks_for("aws-neuron")
    runners = {s.runner.candidate for s in stacks if "transcription" in s.applies_to.tasks and s.runner is not None}
    result = answer(**WHISPER_ON_INF2)
    deployment = next(c for c in (*result.tiers[0].choices, *result.tiers[0].gaps) if c.concern == "deployment")
    if runners:  # a stack documents a runtime for transcription on Neuron: that runtime serves it
        assert deployment.option in runners
    else:
        texts = [reason.text for reason in deployment.rationale]
        assert "speech transcription on aws-neuron" in texts[0] and "probe it there" in texts[1]
    serving = [reason.text for reason in result.capacity if "weights take" in reason.text]
    assert serving and "KV cache" not in serving[0] and "a speech model's decoder" in serving[0]


def test_a_stack_whose_runner_the_knowledge_base_does_not_list_keeps_its_own_parts():
    # Arm's learning path runs Qwen2-VL-2B with MNN-LLM (llmexport, KleidiAI through MNN's CPU hint), no llama.cpp:
    # https://learn.arm.com/learning-paths/mobile-graphics-and-gaming/vision-llm-inference-on-android-with-kleidiai-and-mnn/
    result = answer(
        model_type="multimodal",
        hardware="arm-cpu",
        device="armv9-mobile-i8mm",
        workload="inference",
        model="Qwen/Qwen2-VL-2B-Instruct",
        needs={"quantization": "int8", "devices": 1},
    )
    assert result.stacks[0].stack == "arm-mnn-kleidiai-qwen2-vl-android"
    tier1 = {choice.concern: choice for choice in result.tiers[0].choices}
    assert not any("llama" in choice.option.lower() for choice in tier1.values()), {
        c: x.option for c, x in tier1.items()
    }
    assert tier1["attention"].option.startswith("MNN-LLM") and tier1["quantization"].option.startswith("llm-export")


def test_a_speech_stack_excluding_the_target_device_names_no_runtime_there():
    # Optimum Neuron's Whisper runs on torch-neuronx, whose inference is unsupported on Trn2 from Neuron 2.34
    # (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/about-neuron/announcements/neuron2.x/announce-no-support-torch-xla-inference-trn.html)
    inf2 = answer(**WHISPER_ON_INF2)
    trn2 = answer(**{**WHISPER_ON_INF2, "device": "trn2"})
    assert inf2.stacks and inf2.stacks[0].stack == "neuron-optimum-whisper-inf2"
    assert not trn2.stacks and any(gap.concern == "deployment" for gap in trn2.tiers[0].gaps)


def test_a_throughput_race_between_two_recipes_of_one_engine_names_the_recipes():
    # Review 38 p15 read "ExecuTorch runtime ... at least 1.1x ... of ExecuTorch LLM runner": one engine against itself.
    result = answer(
        model_type="dense-transformer",
        hardware="arm-cpu",
        device="armv9-mobile-sme2",
        workload="inference",
        team_skill="kernel",
        model="meta-llama/Llama-3.2-1B-Instruct",
        needs={"quantization": "int8", "quantization_method": "qat", "devices": 1},
    )
    chosen = result.stacks[0]
    race = next(c for c in result.switch_conditions if c.id.endswith("-faster"))
    rival = race.id.removesuffix("-faster")
    # another engine that fits as well races first (review 142 p13: LiteRT before ExecuTorch's own generic page), named
    # by its engine; two recipes of one engine would be named by their recipes
    assert chosen.parts[0].candidate == "executorch" and not rival.startswith("arm-executorch"), (chosen.stack, rival)
    assert "ExecuTorch runtime" not in race.description and "each engine's own benchmark" in race.description


def test_where_only_another_recipe_of_the_chosen_engine_fits_as_well_the_race_names_the_recipes():
    # an INT8 CNN on the Zhikai 100: Iluvatar's two IxRT pages race each other, named by their recipes, not "IxRT
    # against IxRT" (where no server is documented: the knowledge base without Iluvatar's Triton IGIE backend,
    # https://gitee.com/deep-spark/tis-igie-backend, which serves instead)
    result = answer_without(
        {"iluvatar-triton-igie-backend"},
        model_type="cnn",
        hardware="iluvatar-gpu",
        device="zhikai-100",
        workload="inference",
        team_skill="framework",
        needs={"quantization": "int8", "quantization_method": "ptq"},
    )
    race = next(c for c in result.switch_conditions if c.id.endswith("-faster"))
    assert "each recipe's own benchmark" in race.description
    assert result.stacks[0].name in race.description


HYGON_LORA = {
    "model_type": "dense-transformer",
    "hardware": "hygon-dcu",
    "device": "k100-ai",
    "workload": "training",
    "training": "lora",
    "model": "Qwen/Qwen2.5-7B-Instruct",
    "needs": {"dynamic_shapes": True, "devices": 8},
}


def test_a_recipe_shown_for_one_model_is_a_partial_fit_for_another_and_eager_training_needs_no_shape_engine():
    # PaddleNLP's DCU configurations name meta-llama/Llama-2-13b
    # (https://github.com/PaddlePaddle/PaddleNLP/blob/develop/llm/devices/dcu/llama/lora_argument.json); the community
    # LLaMA-Factory LoRA walkthrough on the K100-AI runs meta-llama/Meta-Llama-3-8B-Instruct
    # (https://github.com/FlyAIBox/dcu-in-action): a Qwen LoRA job gets the recipe that names LoRA, as a partial fit
    result = answer(**HYGON_LORA)
    paddle = next(o for o in result.stacks_considered if o.stack == "hygon-paddlenlp-llm-k100-ai")
    # since review 44 p08 PaddleNLP's own page keeping its checkpoints in Paddle's format weighs first
    assert not paddle.fits and "documents no conversion to a Hugging Face checkpoint" in paddle.reason
    option = next(o for o in result.stacks_considered if o.stack == "hygon-llamafactory-das-community-k100-ai")
    assert option.chosen and not option.fits and "Meta-Llama-3-8B-Instruct" in option.reason
    # Since LLaMA-Factory has a candidate entry (review 72 p08), the stack's own framework carries the lengths instead of
    # a gap: each batch is padded to its own longest sample, with sequence packing as an option
    # (https://github.com/hiyouga/LLaMA-Factory/blob/7af909522a951e3ad9f022ea6f88b6755257eaa5/src/llamafactory/train/sft/workflow.py);
    # still no shape engine for eager training
    shapes = next(c for c in result.tiers[0].choices if c.concern == "dynamic-shapes")
    texts = " ".join(reason.text for reason in shapes.rationale)
    assert shapes.option == "llama-factory" and "packing" in texts and "does not run training" not in texts


def test_one_fp8_checkpoint_written_by_modelopt_serves_gaudi_and_nvidia_in_tier_3():
    # vllm-gaudi 0.15.1 loads ModelOpt's FP8 format for dense models
    # (https://github.com/vllm-project/vllm-gaudi/blob/main/docs/release_notes_v0.15.1.md)
    result = answer(
        model_type="dense-transformer",
        hardware="intel-gaudi",
        device="gaudi3",
        workload="inference",
        model="meta-llama/Llama-3.3-70B-Instruct",
        needs={
            "quantization": "fp8",
            "quantization_method": "ptq",
            "devices": 4,
            "cross_platform": True,
            "other_hardware": ["nvidia-gpu"],
            "other_devices": ["h100-sxm"],
        },
    )
    tier3 = next(tier for tier in result.tiers if tier.tier == 3)
    quantization = next(c for c in tier3.choices if c.concern == "quantization")
    assert quantization.option == "modelopt" and "intel-gaudi" in quantization.rationale[0].text


def test_an_exploration_tier_on_a_graph_runtime_takes_that_runtimes_kernels_not_a_mix():
    # Review 38: "attention flex-attention ... deployment onnxruntime" (bge-m3 on Xeon), "fusion onnxruntime ...
    # deployment llama-cpp" (Qwen3-8B on an M4), "gemm triton ... deployment onnxruntime" (YOLO on a 310P). ONNX
    # Runtime runs a model on its execution provider's kernels (https://onnxruntime.ai/docs/execution-providers/) and
    # llama.cpp on its own backends (https://github.com/ggml-org/llama.cpp#supported-backends).
    profiles = [
        dict(
            model_type="dense-transformer",
            hardware="x86-cpu",
            device="xeon-6-granite-rapids",
            team_skill="hpc",
            model="BAAI/bge-m3",
            task="embedding",
            needs={"quantization": "int8", "devices": 1},
        ),
        dict(
            model_type="dense-transformer",
            hardware="apple-silicon",
            device="apple-m4",
            model="Qwen/Qwen3-8B",
            needs={"quantization": "int8", "devices": 1},
        ),
        dict(
            model_type="cnn",
            hardware="ascend-npu",
            device="ascend-310p",
            team_skill="kernel",
            needs={"quantization": "int8", "devices": 1},
        ),
    ]
    for fields in profiles:
        tier3 = answer(workload="inference", **fields).tier(3)
        deployment = tier3.options()["deployment"]
        kernels = [c for c in tier3.choices if c.concern in ("gemm", "convolution", "attention", "fusion")]
        assert kernels and all(c.option == deployment for c in kernels), (fields["hardware"], tier3.options())


def test_a_cnn_training_recipe_is_its_fine_tuning_recipe_and_names_no_hugging_face_model():
    # DeepSparkHub's ResNet-50 recipe builds torchvision's model with --model and --pretrained
    # (https://github.com/Deep-Spark/DeepSparkHub/blob/master/models/cv/classification/resnet50/pytorch/train.py)
    result = answer(
        model_type="cnn",
        hardware="iluvatar-gpu",
        device="tiangai-150",
        workload="training",
        training="fine-tuning",
        team_skill="kernel",
        needs={"devices": 8},
    )
    chosen = result.stacks[0]
    assert chosen.stack == "iluvatar-pytorch-resnet50-training" and not chosen.misfits and not chosen.models


# vLLM's Qwen2.5-VL recipe (https://github.com/vllm-project/recipes/blob/main/Qwen/Qwen2.5-VL.md) serves it in BF16 on
# AMD Instinct, so these lines for a VLM served in FP8 by a stack written for text LLMs are checked on four Gaudi 3.
QWEN25_VL_72B_FP8_ON_4_GAUDI3 = {
    "model_type": "multimodal",
    "hardware": "intel-gaudi",
    "device": "gaudi3",
    "workload": "inference",
    "model": "Qwen/Qwen2.5-VL-72B-Instruct",
    "needs": {"quantization": "fp8", "devices": 4},
}


def test_a_quantized_model_whose_bf16_weights_fit_says_the_format_buys_room_not_the_fit():
    result = answer(**QWEN25_VL_72B_FP8_ON_4_GAUDI3)
    serving = next(reason.text for reason in result.capacity if "weights take" in reason.text)
    assert "in bf16 they would take about 144 GB and fit as well" in serving
    tight = answer(**{**GLM_AIR_ON_4_B200, "needs": {**GLM_AIR_ON_4_B200["needs"], "devices": 1}})
    assert not any("fit as well" in reason.text for reason in tight.capacity)


def test_a_quantized_vision_language_model_keeps_its_vision_encoder_in_float():
    # llm-compressor's Qwen2.5-VL example quantizes Linear layers with ignore=["lm_head", "re:visual.*", ...]
    # (https://github.com/vllm-project/llm-compressor/blob/main/examples/multimodal_vision/qwen_2_5_vl_example.py)
    # Gaudi 3 now has a vision-language stack of its own (vllm-gaudi's VLM calibration route), and on TPU7x vLLM
    # TorchTPU serves vLLM's own multimodal definitions (review 104), so the line is checked where a text-LLM stack
    # serves the VLM quantized: vllm_mlu on an MLU370 in INT8 (cambricon-vllm-mlu-serving). On the MLU590 JD's xLLM now
    # serves Qwen2.5-VL in BF16 (cambricon-xllm-vlm-serving: its supported-models page marks Qwen2.5-VL for MLU,
    # https://github.com/jd-opensource/xllm/blob/87e8d6ed619bfbf96c467d2465392abe16b58576/docs/en/supported_models.md,
    # and its MLU kernels build for the MLU590's mtp_592 and not the MLU370's mtp_372), with no INT8 path to choose.
    result = answer(
        **{
            **QWEN25_VL_72B_FP8_ON_4_GAUDI3,
            "hardware": "cambricon-mlu",
            "device": "mlu370",
            "needs": {**QWEN25_VL_72B_FP8_ON_4_GAUDI3["needs"], "quantization": "int8"},
        }
    )
    quantization = next(c for c in result.tiers[0].choices if c.concern == "quantization")
    assert any("keep the vision encoder" in reason.text for reason in quantization.rationale)


def test_the_published_fp8_checkpoint_line_speaks_of_the_model_named():
    # DeepSeek-V3's card publishes FP8 weights (https://huggingface.co/deepseek-ai/DeepSeek-V3); Llama 3.1 8B's is BF16,
    # and no FP8 release of the base model is listed. Llama 3.3 70B Instruct's FP8 release on NVIDIA GPUs is NVIDIA's own
    # (https://huggingface.co/nvidia/Llama-3.3-70B-Instruct-FP8, review 90), named as the hardware vendor's.
    def line_for(model: str | None) -> str:
        fields = {"model": model} if model else {}
        result = answer(
            model_type="dense-transformer",
            hardware="nvidia-gpu",
            device="h200-sxm",
            workload="inference",
            needs={"quantization": "fp8", "devices": 8},
            **fields,
        )
        quantization = next(c for c in result.tiers[0].choices if c.concern == "quantization")
        return next(r.text for r in quantization.rationale if "FP8" in r.text and "serve" in r.text)

    assert line_for("meta-llama/Llama-3.1-8B").startswith("if meta-llama/Llama-3.1-8B's authors")
    assert line_for("meta-llama/Llama-3.3-70B-Instruct").startswith(
        "the hardware vendor releases, for nvidia-gpu devices, nvidia/Llama-3.3-70B-Instruct-FP8"
    )
    assert line_for("RedHatAI/Llama-3.3-70B-Instruct-FP8").endswith("the toolkit is for float checkpoints")
    assert line_for(None).startswith("where the model is already published in FP8")
