"""Regression tests for the defects reviews 172-174 found (issue 28, advice v3), each against the vendor page cited."""

from __future__ import annotations

from recommendation_builders import answer_for as answer
from recommendation_builders import choice, chosen_stack, considered, list_switch_holds, profile

from advisor.recommendation.switches import condition_holds

DEEPSEEK_ON_B200 = {
    "model_type": "moe",
    "hardware": "nvidia-gpu",
    "device": "b200",
    "workload": "inference",
    "team_skill": "kernel",
    "model": "deepseek-ai/DeepSeek-V3.1",
    "parameters_b": 671,
    "needs": {"dynamic_shapes": True, "quantization": "fp4", "long_context": True, "devices": 8},
    "serving": {"isl": 8000, "osl": 1000, "ttft_ms": 3000, "tpot_ms": 40},
}


def test_deepseek_on_eight_b200_races_two_replicas_of_the_databases_four_gpu_configs():
    # Review 172 p01: no replicas switch, though TensorRT-LLM's recipe database runs DeepSeek-R1 NVFP4 at
    # tensor_parallel_size 4 on B200 (https://github.com/NVIDIA/TensorRT-LLM/blob/57b1988ca30e0fbcb95432c1f1040156694a8c3d/examples/configs/database/nvidia/DeepSeek-R1-0528-FP4-v2/B200/8k1k_tp4_conc1024.yaml)
    result = answer(**DEEPSEEK_ON_B200)
    assert chosen_stack(result) == "nvidia-trtllm-deepseek-blackwell"
    replicas = next(s for s in result.switch_conditions if s.id == "replicas-over-split")
    assert replicas.description.startswith("2 replicas of 4 devices (data parallel) deliver")
    assert "the serving page runs this model on 4 devices" in result.capacity[-1].text


def test_replicas_follow_the_serving_pages_own_layout_where_it_holds_the_model_on_fewer_devices():
    # Review 173 p06: "4 replicas of 4 (tensor parallel 4; the command's tensor-parallel degree is 2)" for Qwen3-30B-A3B
    # on 16 A3 dies, where SGLang's page runs it on one A3 card at TP 2
    # (https://docs.sglang.io/docs/hardware-platforms/ascend-npus/best_practice/qwen3_30b_a3b)
    result = answer(
        model_type="moe",
        hardware="ascend-npu",
        device="ascend-910c",
        workload="both",
        team_skill="hpc",
        training="rl",
        model="Qwen/Qwen3-30B-A3B",
        needs={"dynamic_shapes": True, "devices": 16},
    )
    deployment = choice(result, "deployment").settings["layout here"]
    assert deployment.startswith("8 replicas of 2 (tensor parallel 2; as the command runs it)")
    replicas = next(s for s in result.switch_conditions if s.id == "replicas-over-split")
    assert replicas.description.startswith("8 replicas of 2 devices")


def test_the_vllm_rejection_says_the_chosen_stack_names_the_model_not_that_its_page_is_written_for_it():
    # Review 172 p01: "is the recipe written for the model named" while the chosen guide names only DeepSeek-R1-0528;
    # V3.1 is in its list through NVIDIA Model Optimizer's deployment test
    reason = considered(answer(**DEEPSEEK_ON_B200), "nvidia-vllm-nvfp4-blackwell").reason
    assert (
        "lists the model itself (deepseek-ai/DeepSeek-V3.1; its watch lines say how far its page covers it)" in reason
    )
    assert "is the recipe written for the model named" not in reason


def test_a_model_that_needs_every_device_gets_no_replicas_of_a_smaller_documented_degree():
    # The same database's 4-GPU configs do not hold DeepSeek in FP8 (about 700 GB of weights on 4 x 180 GB)
    result = answer(**{**DEEPSEEK_ON_B200, "needs": {**DEEPSEEK_ON_B200["needs"], "quantization": "fp8"}})
    assert all(s.id != "replicas-over-split" for s in result.switch_conditions)


def test_a_model_released_as_a_mix_of_quantized_formats_falls_back_to_that_release_not_a_float_model():
    # Review 171 p01: "keep the float model" for DeepSeek-V4-Flash, whose release is vLLM's "native FP4+FP8 mixed
    # checkpoint" (https://github.com/vllm-project/recipes/blob/030367e7d409a1cef22270f8d8afbb39bd804eb9/models/deepseek-ai/DeepSeek-V4-Flash.yaml)
    result = answer(
        **{
            **DEEPSEEK_ON_B200,
            "model": "deepseek-ai/DeepSeek-V4-Flash",
            "parameters_b": 284,
            "needs": {**DEEPSEEK_ON_B200["needs"], "devices": 4},
        }
    )
    drop = next(s for s in result.switch_conditions if s.id == "fp4-accuracy-drop")
    assert "below deepseek-ai/DeepSeek-V4-Flash as released" in drop.description
    assert "serve the release as published (MoE experts in FP4" in drop.description
    assert "float model" not in drop.description


def test_tier_one_says_in_its_heading_which_stack_is_a_preview_and_a_partial_fit():
    # Review 174 p12: "Tier 1: official full stack ... proven, supported" over TorchTitan Neuron, which AWS calls beta
    # (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/training/torchtitan/index.html), for a fine-tune
    result = answer(
        model_type="dense-transformer",
        hardware="aws-neuron",
        device="trn2",
        workload="both",
        team_skill="kernel",
        training="fine-tuning",
        model="meta-llama/Llama-3.1-8B-Instruct",
        needs={"dynamic_shapes": True, "devices": 16},
    )
    assert result.tier(1).name == "official full stack (training stack: a preview and a partial fit)"


def test_a_stack_whose_software_only_the_vendors_support_channel_gives_says_so_in_tier_one():
    # Review 173 p07: "proven, supported" beside "versions cannot be checked from public sources" (Cambricon's vllm_mlu
    # container comes through its support channel: https://raw.githubusercontent.com/Cambricon/vllm-mlu/v0.11.2-dev/README.md)
    result = answer(
        model_type="dense-transformer",
        hardware="cambricon-mlu",
        device="mlu590",
        workload="inference",
        model="Qwen/Qwen3-8B",
        needs={"dynamic_shapes": True, "quantization": "int8", "devices": 1},
    )
    assert result.tier(1).name == "official full stack (software from the vendor's support channel only)"
    assert "support channel" in result.tier(1).notes[0].text
    assert "proven, supported" not in result.tier(1).notes[0].text


# an image classifier on an Armv9 phone with SME2, the profile's needs given per test
MOBILENET_IN_APP = {
    "model_type": "cnn",
    "hardware": "arm-cpu",
    "device": "armv9-mobile-sme2",
    "workload": "inference",
    "team_skill": "kernel",
    "model": "timm/mobilenetv4_conv_medium.e500_r256_in1k",
}


def test_an_int8_image_classifier_in_an_app_gets_no_kv_cache_and_an_int8_fallback_its_runtime_has():
    # Review 174 p15: a MobileNetV4 classifier was told to fit "the KV cache", and to use "smaller groups, or 8-bit"
    # where XNNPACK's INT8 is per-channel or per-tensor and the documented fallback is QAT
    # (https://docs.pytorch.org/executorch/stable/backends/xnnpack/xnnpack-quantization.html)
    result = answer(
        **MOBILENET_IN_APP,
        parameters_b=0.0097,
        needs={"quantization": "int8", "quantization_method": "ptq", "devices": 1, "in_app": True},
    )
    capacity = result.capacity[0].text
    assert "KV cache" not in capacity and "keep these weights and the activations" in capacity
    drop = next(s for s in result.switch_conditions if s.id == "int8-accuracy-drop")
    assert "per-channel weight scales" in drop.description and "(QAT)" in drop.description
    assert "smaller groups" not in drop.description


def test_a_convolutional_network_is_a_partial_fit_for_the_dynamic_int8_route_onnx_runtime_gives_transformers():
    # ONNX Runtime's quantization page recommends static quantization for CNNs and dynamic for transformer-based models
    # (https://onnxruntime.ai/docs/performance/model-optimizations/quantization.html): a ResNet-50 keeps the static route
    # for a reason, not by the stacks' order
    result = answer(
        model_type="cnn",
        hardware="arm-cpu",
        device="graviton4",
        workload="inference",
        model="microsoft/resnet-50",
        needs={"quantization": "int8", "quantization_method": "ptq", "devices": 1},
    )
    assert chosen_stack(result) == "arm-onnxruntime-int8-cnn-graviton"
    dynamic = considered(result, "arm-onnxruntime-optimum-int8-dynamic-vit-graviton").reason
    assert dynamic.startswith("its method is for transformers (ONNX Runtime's quantization page recommends dynamic")


def test_a_runner_that_ships_only_a_smaller_model_for_the_app_gets_a_switch_measured_on_accuracy_and_speed():
    # Reviews 173/175 p13: WhisperKit dropped for shipping fp16 and 4-bit models only (its 632 MB 4-bit large-v3-turbo,
    # https://huggingface.co/argmaxinc/whisperkit-coreml), with no condition under which it takes the app
    result = answer(
        model_type="dense-transformer",
        hardware="apple-silicon",
        device="apple-m4",
        workload="inference",
        task="transcription",
        model="openai/whisper-large-v3-turbo",
        needs={"quantization": "int8", "quantization_method": "ptq", "in_app": True, "devices": 1},
    )
    assert chosen_stack(result) == "apple-whisper-cpp-metal"
    smaller = next(s for s in result.switch_conditions if s.id == "apple-whisperkit-coreml-smaller")
    assert smaller.description.startswith("the int4 model of WhisperKit")
    assert "word error rate no more than 1 point above the int8 model chosen here" in smaller.description
    measured = {
        smaller.metric: 1.2,
        "evidence.int4_accuracy_drop.apple-whisperkit-coreml_over_apple-whisper-cpp-metal": 0.004,
    }
    assert condition_holds(smaller, measured) is True
    assert condition_holds(smaller, {**measured, smaller.metric: 0.9}) is False


def test_a_serving_route_out_of_support_gives_way_to_a_maintained_one_in_a_wider_format():
    # Review 176 p10: SD 3.5 Large in FP8 on Gaudi 3 took Optimum for Intel Gaudi, out of support since 2026-10-31 with
    # CVEs possibly left unfixed (https://pypi.org/project/optimum-habana/1.21.2/), over the maintained Diffusers route
    result = answer(
        model_type="diffusion",
        hardware="intel-gaudi",
        device="gaudi3",
        workload="inference",
        model="stabilityai/stable-diffusion-3.5-large",
        parameters_b=8.1,
        needs={"quantization": "fp8", "quantization_method": "ptq", "devices": 1},
    )
    assert chosen_stack(result) == "gaudi-diffusers-hpu-bf16"
    assert considered(result, "gaudi-optimum-habana-diffusion").reason.startswith("deprecated on its own page")


def test_a_superseded_serving_route_watches_the_current_routes_model_list():
    # Review 178 p12: Llama 4 Scout on Trn2 on NxD Inference, which AWS stopped supporting on Trn2 from Neuron 2.34 and
    # sends to vLLM Neuron (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/about-neuron/announcements/neuron2.x/announce-no-support-nxdi-nxd-core-inference-trn.html),
    # with no trigger to leave it
    asked = profile(
        model_type="multimodal",
        hardware="aws-neuron",
        device="trn2",
        workload="inference",
        model="meta-llama/Llama-4-Scout-17B-16E-Instruct",
        needs={"dynamic_shapes": True, "quantization": "fp8", "devices": 16},
    )
    result = answer(**asked.model_dump(exclude_none=True))
    assert chosen_stack(result) == "neuron-nxdi-llama4-trn2"
    watch = next(s for s in result.switch_conditions if s.id == "neuron-vllm-neuron-serving-lists-model")
    assert "not meta-llama/Llama-4-Scout-17B-16E-Instruct" in watch.description
    # the list is as it was when the record was written; it holds once the model joins it
    assert list_switch_holds(watch, asked, "meta-llama/Llama-4-Scout-17B-16E-Instruct") == (False, True)


def test_a_gaudi_job_that_trains_and_serves_on_two_software_releases_says_so():
    # Review 178 p10: training pinned to Intel Gaudi software 1.23.0 and serving (vLLM 0.26.0) to 1.24.1, unflagged: the
    # training stacks wrote the release under another name (https://docs.vllm.ai/projects/gaudi/en/latest/getting_started/compatibility_matrix.html)
    result = answer(
        model_type="dense-transformer",
        hardware="intel-gaudi",
        device="gaudi3",
        workload="both",
        training="lora",
        model="meta-llama/Llama-3.3-70B-Instruct",
        needs={"dynamic_shapes": True, "quantization": "fp8", "quantization_method": "ptq", "devices": 8},
    )
    assert "Their validated versions differ: synapseai 1.23.0 (training), 1.24.1 (serving)" in (result.verdict or "")


def test_a_vision_transformer_of_another_design_takes_a_vit_recipe_before_a_convolutional_one():
    # Review 180 p09: DINOv2-L on 8 BI-V150 took the ResNet-50 recipe, whose script builds no ViT, over timm's train.py
    # recipe, which builds ViTs (DINOv2 is a ViT: https://huggingface.co/timm/vit_large_patch14_dinov2.lvd142m)
    result = answer(
        model_type="cnn",
        hardware="iluvatar-gpu",
        device="tiangai-150",
        workload="training",
        training="fine-tuning",
        model="facebook/dinov2-large",
        needs={"devices": 8},
    )
    # Reviews 187/192/198 p09: timm 0.4.5 cannot build DINOv2 at all; DeepSparkHub's mmpretrain recipes run on the
    # BI-V150 with code that builds DINOv2 ViT-L/14 by config
    # (https://github.com/open-mmlab/mmpretrain/blob/4d1dbafaa28af29f5cb907588c019ae4878c2d24/configs/dinov2/README.md),
    # a partial fit that says its pages ran no vision transformer
    chosen = chosen_stack(result, "training")
    assert chosen == "iluvatar-mmpretrain-training"
    assert "its page ran MobileOne-S0" in result.verdict and "no vision transformer" in result.verdict
    # the convolutional recipe stays behind the code that builds a vision transformer
    resnet = considered(result, "iluvatar-pytorch-resnet50-training").reason
    assert resnet.startswith("written for convolutional networks (microsoft/resnet-50)")
    timm = considered(result, "iluvatar-timm-train-tiangai-150").reason
    assert "with this model's own code" in timm


def test_a_model_is_the_same_as_its_publishers_diffusers_format_repository():
    # Review 180 p04: Wan2.1-T2V-14B on 8 MI325X missed AMD's xDiT page, which lists Wan-AI/Wan2.1-T2V-14B-Diffusers
    # (https://rocm.docs.amd.com/projects/cvs/en/latest/reference/configuration-files/inference/xdit.html), and was
    # served by MIGraphX
    result = answer(
        model_type="diffusion",
        hardware="amd-gpu",
        device="mi325x",
        workload="both",
        team_skill="kernel",
        training="lora",
        model="Wan-AI/Wan2.1-T2V-14B",
        needs={"dynamic_shapes": True, "devices": 8},
    )
    assert chosen_stack(result) == "amd-xdit-diffusion-inference"


def test_in_an_app_the_narrower_format_the_models_own_page_validates_answers_an_int8_ask():
    # Review 179 p13: SD 3.5 Medium in a macOS app, int8 asked, served in fp16 although Core AI's recipes validate a
    # 4-bit export for it (https://github.com/apple/coreai-models)
    result = answer(
        model_type="diffusion",
        hardware="apple-silicon",
        device="apple-m4",
        workload="inference",
        model="stabilityai/stable-diffusion-3.5-medium",
        parameters_b=2.5,
        needs={"quantization": "int8", "quantization_method": "ptq", "in_app": True, "devices": 1},
    )
    assert chosen_stack(result) == "apple-coreai-image-generation"
    # since review 197 p13 the export's own 8bit preset (INT8 weights per output channel) answers the int8 ask itself
    # (https://github.com/apple/coreai-models/blob/334a0e493427f42454bbe469f51431fcab6beea0/python/src/coreai_models/diffusion/presets.py)
    assert choice(result, "quantization").settings["dtype"] == "int8"


def test_an_executorch_core_ml_app_is_in_an_app_and_a_qat_model_falls_back_to_float_layers_not_qat():
    # Review 177 p15: ExecuTorch + Core ML said to document "no way to run the model inside an app", while its iOS page
    # links the runtime's frameworks into the app (https://docs.pytorch.org/executorch/stable/using-executorch-ios.html);
    # and a team already doing QAT was told to "train with quantization (QAT)"
    result = answer(
        **MOBILENET_IN_APP,
        needs={
            "quantization": "int8",
            "quantization_method": "qat",
            "in_app": True,
            "cross_platform": True,
            "other_hardware": ["apple-silicon"],
            "other_devices": ["apple-m4"],
            "devices": 1,
        },
    )
    tier3 = [note.text for note in result.tier(3).notes]
    assert any("ExecuTorch + Core ML delegate" in text for text in tier3)
    assert not any("no way to run the model inside an app" in text for text in tier3)
    drop = next(s for s in result.switch_conditions if s.id == "int8-accuracy-drop")
    assert "train the QAT run longer" in drop.description and "train with quantization (QAT)" not in drop.description


def test_an_int8_embedding_model_on_an_amx_xeon_is_weighed_against_the_bf16_the_cpu_runs():
    # Reviews 174/181/182 p14: "int8_over_fp16" on a Xeon 6 whose OpenVINO CPU plugin runs float models in bf16 by
    # default (https://docs.openvino.ai/2025/openvino-workflow/running-inference/optimize-inference/precision-control.html)
    result = answer(
        model_type="dense-transformer",
        hardware="x86-cpu",
        device="xeon-6-granite-rapids",
        workload="inference",
        task="embedding",
        model="BAAI/bge-m3",
        needs={"quantization": "int8", "quantization_method": "ptq", "devices": 1},
    )
    speed = next(s for s in result.switch_conditions if s.id == "int8-no-speedup")
    assert speed.metric == "evidence.inference_throughput.int8_over_bf16"


def test_a_published_release_of_the_model_is_what_the_runner_loads_not_a_checkpoint_to_make():
    # Review 181 p04: the quantization row served Qwen/Qwen3-235B-A22B-Instruct-2507-FP8 as released, while the
    # deployment row said to make a checkpoint "with the page's own quantization flow" because the page's download holds
    # the base release's weights (https://huggingface.co/Qwen/Qwen3-235B-A22B-Instruct-2507-FP8)
    result = answer(
        model_type="moe",
        hardware="amd-gpu",
        device="mi355x",
        workload="inference",
        team_skill="kernel",
        model="Qwen/Qwen3-235B-A22B-Instruct-2507",
        needs={"dynamic_shapes": True, "quantization": "fp8", "long_context": True, "devices": 8},
    )
    assert choice(result, "quantization").settings["checkpoint"].startswith("Qwen/Qwen3-235B-A22B-Instruct-2507-FP8")
    deployment = choice(result, "deployment").settings["checkpoint"]
    assert deployment.startswith("load Qwen/Qwen3-235B-A22B-Instruct-2507-FP8 as released")
    assert "make it from" not in deployment


def test_a_launchs_context_cap_is_weighed_against_the_serving_slas_request_length():
    # Review 181 p12: a 16,384-token cap held to the 32,768 "long context starts at" for a 16,000 + 1,000-token SLA; the
    # gap is the SLA's (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/vllm-neuron/docs/index.html)
    asked = {
        "model_type": "dense-transformer",
        "hardware": "aws-neuron",
        "device": "trn2",
        "workload": "inference",
        "model": "meta-llama/Llama-3.3-70B-Instruct",
        "needs": {"dynamic_shapes": True, "long_context": True, "devices": 16},
    }
    with_sla = answer(**asked, serving={"isl": 16000, "osl": 1000, "ttft_ms": 5000, "tpot_ms": 50})
    reason = next(row.reason for row in with_sla.stacks_considered if row.chosen)
    assert "below the 17,000 tokens a request of your serving SLA holds (isl + osl)" in reason
    roomy = answer(**asked, serving={"isl": 8000, "osl": 1000, "ttft_ms": 5000, "tpot_ms": 50})
    assert not any("caps each request" in row.reason for row in roomy.stacks_considered if row.chosen)


def test_a_pretraining_job_of_a_stated_size_takes_the_recipe_for_that_size():
    # Reviews 179/182 p02: an 8B FP8 pre-training job on H100s (no model named) rejected NVIDIA's
    # llama3_8b_pretrain_64gpu_h100_fp8cs_config "written for meta-llama/Meta-Llama-3-8B and the profile names no model"
    # (https://docs.nvidia.com/nemo/megatron-bridge/nightly/apidocs/bridge/bridge.perf_recipes.llama.h100.llama3.html)
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="training",
        training="pretraining",
        team_skill="hpc",
        parameters_b=8,
        needs={"quantization": "fp8", "quantization_method": "qat", "devices": 32},
    )
    assert chosen_stack(result, "training") == "nvidia-megatron-bridge-llama3-8b-h100"
    other_size = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="training",
        training="pretraining",
        team_skill="hpc",
        parameters_b=30,
        needs={"quantization": "fp8", "quantization_method": "qat", "devices": 32},
    )
    assert chosen_stack(other_size, "training") != "nvidia-megatron-bridge-llama3-8b-h100"


def test_whisperkit_is_called_an_independent_projects_sdk_not_the_vendors_own_libraries():
    # Reviews 181/184 p13: "the vendor's own libraries: proven, supported" over WhisperKit, "an Argmax framework"
    # (https://github.com/argmaxinc/argmax-oss-swift)
    result = answer(
        model_type="dense-transformer",
        hardware="apple-silicon",
        device="apple-m4",
        workload="inference",
        task="transcription",
        model="openai/whisper-large-v3-turbo",
        needs={"in_app": True, "devices": 1},
    )
    assert chosen_stack(result) == "apple-whisperkit-coreml"
    assert result.tier(1).name.startswith("documented full stack (an independent project's engine")
    assert "not an Apple product" in result.tier(1).notes[0].text
