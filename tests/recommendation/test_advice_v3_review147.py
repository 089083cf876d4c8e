"""Defects of reviews 145-148, each pinned."""

from __future__ import annotations

from recommendation_builders import answer_for as answer
from recommendation_builders import answer_without

from advisor.recommendation.policy import MISFIT_WEIGHTS, SUPERSEDED_WEIGHT

# a full fine-tune of Llama 3.1 8B on one trn2.48xlarge, as review 145 p13 filed it
TRAINIUM_FINE_TUNE = {
    "model_type": "dense-transformer",
    "hardware": "aws-neuron",
    "device": "trn2",
    "workload": "training",
    "training": "fine-tuning",
    "team_skill": "framework",
    "model": "meta-llama/Llama-3.1-8B",
    "needs": {"devices": 16},
}


def test_nxd_training_is_weighed_as_documenting_the_llama_fine_tune_and_is_the_fallback_of_the_beta_route():
    # Review 145 p13 scored 1: NxD Training was dismissed as "documented for pretraining, not fine-tuning", while AWS
    # documents Llama 3.1/3 8B supervised fine-tuning with it
    # (https://awsdocs-neuron.readthedocs-hosted.com/en/v2.28.1/libraries/nxd-training/tutorials/hf_llama3_8B_SFT.html),
    # and no switch said what to do if the beta TorchTitan Neuron route fails. AWS's current releases no longer carry
    # NxD Training, so the current route still leads and the old one is its time-boxed fallback.
    result = answer(**TRAINIUM_FINE_TUNE)
    chosen = next(row for row in result.stacks_considered if row.chosen)
    assert chosen.stack == "neuron-torchtitan-pretraining"
    nxdt = next(row for row in result.stacks_considered if row.stack == "neuron-nxdt-pretraining-228")
    assert nxdt.reason.startswith("fits the whole profile; AWS's current releases no longer carry NxD Training")
    fallback = next(s for s in result.switch_conditions if s.id == "fallback-neuron-nxdt-pretraining-228")
    assert fallback.metric == "evidence.training_route_fails.neuron-torchtitan-pretraining"
    assert "short run of the chosen training recipe" in fallback.rerun
    # the old route outweighs a current one's near training kind, beta and missing model list together
    assert SUPERSEDED_WEIGHT > 2 * MISFIT_WEIGHTS["training_kind_near"] + 1 + 1


def test_nxd_training_is_written_for_llama_so_a_qwen3_fine_tune_gets_no_fallback_to_it():
    # NxD Training's example configs are written for Hugging Face Llama 3 and 3.1 (hf_llama3_*,
    # https://github.com/aws-neuron/neuronx-distributed-training/tree/main/examples/conf): a Qwen3-8B fine-tune is no
    # whole fit there, so no fallback names it
    result = answer(**{**TRAINIUM_FINE_TUNE, "model": "Qwen/Qwen3-8B"})
    nxdt = next(row for row in result.stacks_considered if row.stack == "neuron-nxdt-pretraining-228")
    assert "written for meta-llama/Llama-3.1-8B" in nxdt.reason
    assert not any(s.id.startswith("fallback-") for s in result.switch_conditions)


def test_pre_training_keeps_the_current_release_route_before_the_old_recipe_for_the_model():
    # AWS tells pre-training users to move to TorchTitan Neuron
    # (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/about-neuron/announcements/neuron2.x/announce-eos-nxdt-nxd-core-training.html):
    # the old route's recipe for the named model does not displace it, and nothing fails over to it
    result = answer(**{**TRAINIUM_FINE_TUNE, "training": "pretraining"})
    chosen = next(row for row in result.stacks_considered if row.chosen)
    assert chosen.stack == "neuron-torchtitan-pretraining"
    assert not any(s.id.startswith("fallback-") for s in result.switch_conditions)


def test_a_job_that_trains_and_serves_on_two_releases_is_not_told_to_move_a_route_the_newer_one_dropped(knowledge):
    # where the training side is a superseded route (NxD Training at Neuron 2.28) and serving pins a newer release, the
    # version split says two images, not "validate the training recipe on the newer release", which no longer has it
    from dataclasses import replace

    from advisor.profile import Profile
    from advisor.recommendation.stack_choice import choose_stacks
    from advisor.recommendation.stack_switches import version_split

    profile = Profile.model_validate(
        {**TRAINIUM_FINE_TUNE, "workload": "both", "model": "meta-llama/Llama-3.1-8B-Instruct"}
    )
    choice = choose_stacks(profile, knowledge)
    nxdt = next(item for item in choice.considered if item.stack.id == "neuron-nxdt-pretraining-228")
    serving = choice.for_workload("inference")
    assert serving is not None
    split = version_split(replace(choice, chosen=(serving, nxdt)))
    assert "neuron-sdk 2.28.1 (training)" in split
    assert "the newer release no longer carries the training route, so run them as two images" in split
    assert "validate the training recipe" not in split
    # the current route on the older release is told to move up, as before (review 134 p12)
    current = version_split(choice)
    assert "validate the" in current and "the newer release" in current


def test_a_moe_page_command_for_fewer_devices_is_replicated_first_and_a_switch_for_another_size_keeps_the_model():
    # Review 147 p05: Qwen3-30B-A3B on 16 Atlas A3 dies was "widened to tensor parallel 16 over all 16 devices", while
    # vllm-ascend runs it at tensor parallel 4 with expert parallelism on four dies
    # (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/models/Qwen3-30B-A3B/), and the SGLang switch said
    # "switch to SGLang serving Qwen3-235B-A22B" for the 30B job
    # The job now only serves: with SGLang's own Qwen3-30B-A3B page for the Atlas 800I A3
    # (https://docs.sglang.io/docs/hardware-platforms/ascend-npus/best_practice/qwen3_30b_a3b) in the knowledge base, the
    # RL variant of this job (verl's rollouts on SGLang) serves on that SGLang stack beside its rollouts - checked below -
    # so the vLLM layout this review is about is checked on the serving-only job, where vLLM's tutorial still leads.
    result = answer(
        model_type="moe",
        hardware="ascend-npu",
        device="ascend-910c",
        workload="inference",
        team_skill="hpc",
        model="Qwen/Qwen3-30B-A3B",
        parameters_b=30,
        needs={"quantization": "int8", "long_context": True, "devices": 16},
    )
    deployment = next(c for c in result.tier(1).choices if c.concern == "deployment")
    assert deployment.option == "vllm"
    layout = deployment.settings["layout here"]
    assert layout.startswith("4 replicas of the command as written (tensor parallel 4 with expert parallelism)")
    switches = {s.id: s for s in result.switch_conditions}
    widen = switches["split-over-replicas"]
    assert widen.metric == "evidence.inference_throughput.single_split_over_replicas"
    # reviews 203/204 p06: no tensor parallel 16 for a model of 4 KV heads over two nodes; one engine keeps TP 4, with
    # data-parallel attention and the experts over all 16 (https://docs.vllm.ai/en/latest/serving/data_parallel_deployment/)
    assert "tensor parallel 16" not in widen.description
    assert "--data-parallel-size 4 at the command's tensor parallel 4" in widen.description
    assert widen.description.endswith("serve as one engine")
    # the SGLang switch names SGLang's own Qwen3-30B-A3B page, no longer the 235B recipe
    sglang = switches["ascend-sglang-qwen3-30b-a3b-a3-faster"]
    assert sglang.description.endswith(
        "switch to SGLang serving Qwen3-30B-A3B (msModelSlim W8A8 or BF16) on one Atlas 800I A3 card (2 dies, TP2)"
    )
    rl = answer(
        model_type="moe",
        hardware="ascend-npu",
        device="ascend-910c",
        workload="both",
        training="rl",
        team_skill="hpc",
        model="Qwen/Qwen3-30B-A3B",
        parameters_b=30,
        needs={"quantization": "int8", "long_context": True, "devices": 16},
    )
    assert "ascend-sglang-qwen3-30b-a3b-a3" in {option.stack for option in rl.stacks_considered if option.chosen}


def test_whisper_cpp_names_its_in_app_library_first():
    # Review 147 p12: the in-app deployment showed whisper-cli and whisper-server; whisper.cpp's SwiftUI example embeds
    # its XCFramework (https://github.com/ggml-org/whisper.cpp/tree/master/examples/whisper.swiftui)
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
    deployment = next(c for c in result.tier(1).choices if c.concern == "deployment")
    assert deployment.option == "whisper-cpp"
    assert "in an app through its XCFramework" in deployment.label


def test_tier_3_loads_a_model_released_in_the_asked_format_and_names_no_quantizer_the_team_cannot_run():
    # Review 148 p02: gpt-oss-120b (released in MXFP4, https://huggingface.co/openai/gpt-oss-120b) on an H200 got
    # "quantization modelopt [dtype=fp4]" in tier 3, NVFP4 that Hopper does not run; p10: a Gaudi-only team got ModelOpt,
    # which calibrates on NVIDIA GPUs (https://github.com/NVIDIA/Model-Optimizer/blob/main/docs/source/guides/0_support_matrix.rst),
    # where Intel documents its Neural Compressor
    gpt_oss = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="h200-sxm",
        workload="inference",
        team_skill="framework",
        model="openai/gpt-oss-120b",
        needs={"quantization": "fp4", "devices": 1},
    )
    quantization = next(c for c in gpt_oss.tier(3).choices if c.concern == "quantization")
    assert quantization.option == "vllm"
    assert quantization.settings == {"dtype": "mxfp4", "checkpoint": "openai/gpt-oss-120b, as released"}
    gaudi = answer(
        model_type="dense-transformer",
        hardware="intel-gaudi",
        device="gaudi3",
        workload="inference",
        team_skill="framework",
        model="meta-llama/Llama-3.3-70B-Instruct",
        needs={"quantization": "fp8", "devices": 4},
    )
    assert not any(c.option == "modelopt" for c in gaudi.tier(3).choices)


def test_an_fp32_page_is_weighed_against_the_mixed_precision_policy_not_a_precision_the_profile_never_asked():
    # Review 147 p04: AMD's PEFT/TRL pages train in fp32 (fp16=False, bf16=False;
    # https://rocm.docs.amd.com/en/latest/how-to/rocm-for-ai/fine-tuning/single-gpu-fine-tuning-and-inference.html), and the
    # reason said "the profile asks mixed-precision (bf16/fp16) training" of a profile that asked no precision
    result = answer(
        model_type="dense-transformer",
        hardware="amd-gpu",
        device="mi300x",
        workload="training",
        training="lora",
        team_skill="framework",
        model="meta-llama/Llama-3.3-70B-Instruct",
        needs={"devices": 8},
    )
    # Helper kbprimuspost: the Llama 3.1 70B full-SFT Bridge config (amd-primus-megatron-bridge-llama31-70b-sft,
    # https://github.com/AMD-AGI/Primus/blob/fd1eeabbad15135e3702094087e96142b4b4eacb/examples/megatron_bridge/configs/MI355X/llama31_70b_sft_posttrain.yaml)
    # now takes one of the five considered slots, so the check reads whichever of AMD's two fp32 TRL/PEFT pages is listed
    peft = next(row for row in result.stacks_considered if row.stack.startswith("amd-trl-peft-llm-lora"))
    # Reviews 173 p04, 176 p04, 181 p05: the fp32 run is one documented Trainer flag (TrainingArguments(bf16=True),
    # https://huggingface.co/docs/transformers/en/mixed_precision_training) from a bf16 one: a light miss, said as such.
    # Reviews 193 p04, 202 p04: on eight GPUs Primus's native SFT guide, which names MI300X, trains (its MI355X configs
    # re-sized), the multi-GPU page's device_map split being no data-parallel layout
    assert peft.reason.startswith(
        "its page trains in fp32, with its trainer's documented bf16 mixed-precision setting left off: turn it on and "
        "check the loss on a short run"
    )
    assert "profile asks" not in peft.reason
    assert next(row for row in result.stacks_considered if row.chosen).stack == "amd-primus-megatron-native-sft-lora"


def test_llama_cpp_on_android_leads_with_the_q4_0_scheme_arm_recommends_for_kleidiai():
    # Review 148 p15: "its page leads with int8" misread Arm's learning path, which takes a Q4_0 GGUF because it works
    # particularly well with KleidiAI (learn.arm.com, android-ai-chat-lib/add-model-run-5)
    result = answer(
        model_type="dense-transformer",
        hardware="arm-cpu",
        device="armv9-mobile-sme2",
        workload="inference",
        team_skill="kernel",
        model="Qwen/Qwen3-1.7B",
        needs={"quantization": "int4", "in_app": True, "devices": 1},
    )
    llama_cpp = next(row for row in result.stacks_considered if row.stack == "arm-llamacpp-android")
    assert "leads with int8" not in llama_cpp.reason
    assert llama_cpp.precisions[0] == "int4"


def test_a_serving_engines_block_scaled_four_bit_gemms_are_its_own_not_the_blas_library():
    # Reviews 139-150: "gemm cublas [dtype=nvfp4]" under TensorRT-LLM, "hipblaslt [dtype=mxfp4]" under SGLang: a
    # serving engine's NVFP4/MXFP4 layers run its quantization method's kernels (TensorRT-LLM's Qwen3.5 guide,
    # https://nvidia.github.io/TensorRT-LLM/deployment-guide/deployment-guide-for-qwen3.5-on-trtllm.html)
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="b200",
        workload="inference",
        team_skill="hpc",
        model="Qwen/Qwen3.5-397B-A17B",
        needs={"quantization": "fp4", "long_context": True, "devices": 8},
    )
    gemm = next(c for c in result.tier(1).choices if c.concern == "gemm")
    assert gemm.option == "tensorrt-llm" and gemm.settings["dtype"] == "nvfp4"
    assert "own nvfp4 GEMM kernels for the quantized layers" in gemm.label
    amd = answer(
        model_type="moe",
        hardware="amd-gpu",
        device="mi355x",
        workload="inference",
        team_skill="kernel",
        model="deepseek-ai/DeepSeek-R1-0528",
        needs={"quantization": "fp4", "long_context": True, "devices": 8},
    )
    assert next(c for c in amd.tier(1).choices if c.concern == "gemm").option == "sglang"
    # review 156 p01: vLLM inside NVIDIA Dynamo (a server the knowledge base does not list) runs the same NVFP4 layers
    dynamo = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="b200",
        workload="inference",
        team_skill="hpc",
        model="deepseek-ai/DeepSeek-V4-Flash",
        needs={"quantization": "fp4", "long_context": True, "devices": 8},
    )
    assert next(c for c in dynamo.tier(1).choices if c.concern == "gemm").option == "vllm"


def test_convnext_v2_trains_on_the_convnext_recipe_not_a_detector_or_a_route_that_cannot_build_it():
    # Review 150 p09: ConvNeXt V2 "takes the same route" as ResNet-50 on a train.py that builds networks by torchvision
    # name, and torchvision builds ConvNeXt V1 only (https://docs.pytorch.org/vision/stable/models/convnext.html)
    result = answer(
        model_type="cnn",
        hardware="iluvatar-gpu",
        device="tiangai-150",
        workload="training",
        training="fine-tuning",
        team_skill="framework",
        model="facebook/convnextv2-base-22k-224",
        needs={"devices": 8},
    )
    chosen = next(row for row in result.stacks_considered if row.chosen)
    assert chosen.stack == "iluvatar-convnext-training" and "of the convnext family" in chosen.reason
    resnet = next(row for row in result.stacks_considered if row.stack == "iluvatar-pytorch-resnet50-training")
    assert "torchvision does not build facebook/convnextv2-base-22k-224 by name" in resnet.reason


def test_a_hybrid_linear_attention_model_reads_the_engines_own_word_on_the_architecture_there():
    # Review 149 (p02, p06, p11, p13): "check the engine's support" where the engines document it (vllm-ascend's
    # Qwen3.5/Qwen3.6-27B tutorial, Megatron Bridge's model list, MaxText's Qwen3-Next run); p12: vllm-neuron cannot run
    # these models (https://github.com/vllm-project/vllm-neuron/issues/51); p07: vllm_mlu sits on vLLM 0.11.2, before the
    # 0.17.0 that Qwen3.5 asks. On Ascend, Qwen3.6-27B now has its own stack (ascend-vllm-ascend-qwen35-27b, from
    # https://docs.vllm.ai/projects/ascend/en/latest/tutorials/models/Qwen3.5-27B-Qwen3.6-27B.html), so a hybrid model
    # with no page of its own here, Qwen3.5-9B, reads the engine's word
    ascend = answer(
        model_type="dense-transformer",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="inference",
        team_skill="kernel",
        model="Qwen/Qwen3.5-9B",
        needs={"quantization": "int8", "devices": 4},
    )
    chosen = next(row for row in ascend.stacks_considered if row.chosen)
    assert "runs them on this family from 0.17.0rc1" in chosen.reason
    assert "check the engine's support" not in chosen.reason
    neuron = answer(
        model_type="dense-transformer",
        hardware="aws-neuron",
        device="trn2",
        workload="inference",
        team_skill="hpc",
        model="Qwen/Qwen3.6-27B",
        needs={"quantization": "fp8", "long_context": True, "devices": 16},
    )
    llama = next(row for row in neuron.stacks_considered if row.stack == "neuron-vllm-neuron-llama3-fp8")
    assert llama.reason.startswith("vLLM with the vLLM Neuron plugin (vllm-neuron) does not run hybrid")
    assert "https://github.com/vllm-project/vllm-neuron/issues/51" in llama.reason
    assert MISFIT_WEIGHTS["linear_attention_documented"] < MISFIT_WEIGHTS["linear_attention_unshown"]
    assert MISFIT_WEIGHTS["linear_attention_unsupported"] >= MISFIT_WEIGHTS["named_model"]


def test_an_engine_pinned_before_the_release_that_runs_the_architecture_says_which_release_to_take():
    from advisor.knowledge.loader import load_knowledge_base
    from advisor.recommendation.stack_choice import linear_attention_misfit

    stack = load_knowledge_base().stack("nvidia-vllm-nvfp4-blackwell")
    old = stack.model_copy(update={"validated_with": {**stack.validated_with, "vllm": "0.11.0"}})
    misfit = linear_attention_misfit(old, "Qwen/Qwen3.5-397B-A17B")
    assert misfit.kind == "linear_attention_pin_older"
    assert "its page pins vllm 0.11.0, older than 0.17.0" in misfit.text
    new = stack.model_copy(update={"validated_with": {**stack.validated_with, "vllm": "0.19.1"}})
    assert linear_attention_misfit(new, "Qwen/Qwen3.5-397B-A17B").kind == "linear_attention_documented"


def test_trainium_serves_the_fp8_release_its_page_names_and_says_where_the_toolkit_runs():
    # Review 150 p12: "quantize the BF16 checkpoint with the toolkit otherwise", the toolkit being ModelOpt (a CUDA
    # tool, https://nvidia.github.io/Model-Optimizer/getting_started/_installation_for_Linux.html), while vLLM Neuron's
    # Llama page serves nvidia/Llama-3.3-70B-Instruct-FP8 itself
    result = answer(
        model_type="dense-transformer",
        hardware="aws-neuron",
        device="trn2",
        workload="inference",
        team_skill="hpc",
        model="meta-llama/Llama-3.3-70B-Instruct",
        needs={"quantization": "fp8", "long_context": True, "devices": 16},
    )
    quantization = next(c for c in result.tier(1).choices if c.concern == "quantization")
    assert quantization.settings["checkpoint"] == "nvidia/Llama-3.3-70B-Instruct-FP8, as released"
    texts = " ".join(r.text for r in quantization.rationale)
    assert "authors publish an FP8 release" not in texts


def test_fp8_training_gets_a_speed_switch_beside_its_loss_gap_switch():
    # Reviews 148 p11 and 150 p11: FP8 pre-training on TPU7x had a loss-gap switch and no check that FP8 pays; Google
    # quotes its FP8 gain over BF16 on Ironwood (https://docs.cloud.google.com/tpu/docs/ironwood-performance)
    result = answer(
        model_type="moe",
        hardware="google-tpu",
        device="tpu7x",
        workload="training",
        training="pretraining",
        team_skill="hpc",
        needs={"quantization": "fp8", "devices": 256},
    )
    ids = [s.id for s in result.switch_conditions]
    assert "fp8-loss-gap" in ids and "fp8-training-no-speedup" in ids
    speed = next(s for s in result.switch_conditions if s.id == "fp8-training-no-speedup")
    assert speed.metric == "evidence.training_throughput.fp8_over_bf16"
    assert "a training run on the target for both sides" in speed.rerun


def test_a_phones_four_bit_model_is_sized_with_its_eight_bit_embedding_and_output_layers():
    # Reviews 147 p14 and 152 p15: "about 500 MB in int4" for Llama 3.2 1B, whose SpinQuant INT4_EO8 export is 1.14 GB;
    # Meta's quantized 1B and 3B keep the embedding and classification layer in 8 bits and come out 56% smaller than
    # BF16 on average (https://ai.meta.com/blog/meta-llama-quantized-lightweight-models/)
    result = answer(
        model_type="dense-transformer",
        hardware="arm-cpu",
        device="armv9-mobile-sme2",
        workload="inference",
        team_skill="framework",
        model="meta-llama/Llama-3.2-1B-Instruct",
        needs={"quantization": "int4", "quantization_method": "qat", "in_app": True, "devices": 1},
    )
    capacity = next(r for r in result.capacity if r.text.startswith("capacity:"))
    assert capacity.text.startswith("capacity: the 1.23B model's weights take about 615 MB in int4")
    assert "so the file comes out nearer 1 GB" in capacity.text  # 2.46 GB in BF16 x 0.44, rounded
    assert any(c.source == "https://ai.meta.com/blog/meta-llama-quantized-lightweight-models/" for c in capacity.cites)


def test_a_lora_job_whose_frozen_weights_outgrow_one_card_is_told_to_shard_them_and_verl_documents_sequence_parallelism():
    # Review 152 p08: Qwen3-32B LoRA on 4 K100_AI (64 GB of frozen bf16 weights, 58 GB usable a card) was "data
    # parallel over 4 devices"; LLaMA-Factory's README points to its DeepSpeed ZeRO examples for such sizes
    # (https://github.com/hiyouga/LLaMA-Factory/blob/main/README.md)
    hygon = answer(
        model_type="dense-transformer",
        hardware="hygon-dcu",
        device="k100-ai",
        workload="training",
        training="lora",
        team_skill="framework",
        model="Qwen/Qwen3-32B",
        needs={"devices": 4},
    )
    framework = next(c for c in hygon.tier(1).choices if c.concern == "training-framework")
    assert "data parallel over 4 devices" not in " ".join(r.text for r in framework.rationale)
    assert "(for LoRA, the frozen weights)" in framework.settings["layout"]
    # review 152 p05: verl's performance guide documents Ulysses sequence parallelism for long-context training
    # (https://github.com/volcengine/verl/blob/main/docs/perf/perf_tuning.rst)
    verl = answer(
        model_type="dense-transformer",
        hardware="amd-gpu",
        device="mi300x",
        workload="both",
        training="rl",
        team_skill="kernel",
        model="Qwen/Qwen3-8B",
        needs={"long_context": True, "devices": 8},
    )
    trainer = next(row for row in verl.stacks_considered if row.chosen and row.workload == "training")
    assert "sequence parallelism" not in trainer.reason


def test_a_timm_convnext_is_served_on_the_convnext_recipe_and_transformer_engines_block_scaling_is_native_on_hopper():
    # Review 154 p09: timm's ConvNeXt-Base took the ResNet-50 IGIE recipe over DeepSparkInference's ConvNeXt-Base one
    # (on a knowledge base without ixRT's BI-V150 page, which leads on that card since reviews 226/228: the behaviour
    # where every Iluvatar page for this network names the Zhikai 100 only)
    result = answer_without(
        {"iluvatar-ixrt-fastapi-tiangai-150"},
        model_type="cnn",
        hardware="iluvatar-gpu",
        device="tiangai-150",
        workload="inference",
        team_skill="framework",
        model="timm/convnext_base.fb_in22k_ft_in1k",
        needs={"devices": 1},
    )
    chosen = next(row for row in result.stacks_considered if row.chosen)
    assert chosen.stack == "iluvatar-igie-convnext-zhikai-100" and "of the convnext family" in chosen.reason
    # reviews 150 p02 and 154 p02: Transformer Engine's own speed-up page says FP8 block scaling runs natively on Hopper
    # (https://github.com/NVIDIA/TransformerEngine/blob/main/docs/features/low_precision_training/speedups.rst)
    from advisor.knowledge.loader import load_knowledge_base

    engine = load_knowledge_base().get("transformer-engine")
    assert "software-emulated" not in (engine.fp8.note or "")
    assert all("software-emulated" not in risk.value for risk in engine.risks)


def test_an_rl_job_says_its_rollouts_run_in_the_training_stacks_inference_engine():
    # Review 153 p02: "deployment: training only: no deployment runtime" for verl GRPO, whose vLLM rollouts run every step
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="training",
        training="rl",
        team_skill="framework",
        model="Qwen/Qwen3-8B",
        needs={"devices": 8},
    )
    skipped = next(s for s in result.skipped_concerns if s.concern == "deployment")
    assert "the rollouts run in the inference engine the training stack names" in skipped.rationale[0].text


def test_an_in_app_models_accuracy_fallback_is_a_finer_quantization_not_the_float_model():
    # Review 153 p15: "keep the float model" for Llama 3.2 3B in an Android app, about 6.4 GB in BF16; ExecuTorch says
    # the 3B version needs high-end phones even quantized (https://github.com/pytorch/executorch/pull/6434)
    result = answer(
        model_type="dense-transformer",
        hardware="arm-cpu",
        device="armv9-mobile-sme2",
        workload="inference",
        team_skill="kernel",
        model="meta-llama/Llama-3.2-3B-Instruct",
        needs={"quantization": "int4", "quantization_method": "qat", "in_app": True, "devices": 1},
    )
    accuracy = next(s for s in result.switch_conditions if s.id == "int4-accuracy-drop")
    assert "keep the float model" not in accuracy.description
    assert "keeping a model that fits the app" in accuracy.description
