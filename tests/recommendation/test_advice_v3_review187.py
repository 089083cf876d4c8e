"""Regression tests for the defects reviews 173-188 found (issue 28, advice v3), each against the vendor page cited."""

from __future__ import annotations

import pytest
from recommendation_builders import answer_for as answer
from recommendation_builders import choice, chosen_stack, considered

from advisor.knowledge.loader import load_knowledge_base
from advisor.knowledge.stacks import StackScope

LLAMA_70B_LORA = {
    "model_type": "dense-transformer",
    "hardware": "amd-gpu",
    "workload": "training",
    "training": "lora",
    "team_skill": "framework",
    "model": "meta-llama/Llama-3.3-70B-Instruct",
    "needs": {"dynamic_shapes": True, "devices": 8},
}


def test_an_fp32_peft_page_trains_in_bf16_by_its_trainers_flag():
    # Reviews 173 p04, 176 p04, 181 p05: AMD's PEFT/TRL guide
    # (https://rocm.docs.amd.com/en/latest/how-to/rocm-for-ai/fine-tuning/single-gpu-fine-tuning-and-inference.html)
    # rejected as "its page trains in fp32", which Transformers' TrainingArguments(bf16=True) changes
    # (https://huggingface.co/docs/transformers/en/mixed_precision_training): on one MI300X it trains, in bf16
    result = answer(
        **{**LLAMA_70B_LORA, "model": "meta-llama/Llama-3.1-8B-Instruct", "needs": {"devices": 1}}, device="mi300x"
    )
    assert chosen_stack(result, "training") == "amd-trl-peft-llm-lora-mi300x"
    framework = choice(result, "training-framework")
    assert framework.settings["precision"].startswith("bf16: Transformers' Trainer runs bf16 mixed precision")
    assert "TrainingArguments(bf16=True)" in framework.settings["precision"]
    assert choice(result, "gemm").settings["dtype"] == "bf16"


def test_a_layer_split_over_eight_gpus_comes_after_configs_written_for_a_sibling_device():
    # Reviews 193 p04, 202 p04: the multi-GPU guide's device_map='auto'
    # (https://rocm.docs.amd.com/en/latest/how-to/rocm-for-ai/fine-tuning/multi-gpu-fine-tuning-and-inference.html) puts
    # one copy's layers over the GPUs of one process, a placement Accelerate documents for inference, not training
    # (https://github.com/huggingface/accelerate/blob/main/docs/source/concept_guides/big_model_inference.md); Primus's
    # native SFT-LoRA guide names MI300X and verifies Llama3-70B LoRA, with MI355X configs to re-size
    # (https://rocm.docs.amd.com/projects/primus/en/latest/04-technical-guides/native-sft-lora.html)
    result = answer(**LLAMA_70B_LORA, device="mi300x")
    assert chosen_stack(result, "training") == "amd-primus-megatron-native-sft-lora"
    split = considered(result, "amd-trl-peft-llm-lora-accelerate-mi300x")
    assert split.reason.startswith("its page splits one copy of the model's layers over the devices in one process")
    # both PEFT routes stay raced on the target: the split, and the one-GPU guide's script as data-parallel copies
    for rival in ("amd-trl-peft-llm-lora-accelerate-mi300x", "amd-trl-peft-llm-lora-mi300x"):
        race = next(s for s in result.switch_conditions if s.id == f"{rival}-faster")
        assert race.metric == f"evidence.training_throughput.{rival}_over_amd-primus-megatron-native-sft-lora"
    copies = considered(result, "amd-trl-peft-llm-lora-mi300x")
    assert "runs bf16 as its page ships it, where this one needs that setting" in copies.reason


def test_on_the_device_its_configs_are_written_for_the_primus_guide_still_trains():
    # the same job on MI355X, the device the guide's configs are written for: the guide fits as written
    result = answer(**LLAMA_70B_LORA, device="mi355x")
    assert chosen_stack(result, "training") == "amd-primus-megatron-native-sft-lora"
    assert choice(result, "training-framework").option == "megatron-core"


def test_a_stacks_configuration_devices_are_among_the_devices_it_names():
    with pytest.raises(ValueError, match="config_devices: 'mi325x' is not among devices"):
        StackScope.model_validate(
            {
                "family": "amd-gpu",
                "devices": ["mi300x", "mi355x"],
                "config_devices": ["mi325x"],
                "workloads": ["training"],
                "model_types": ["dense-transformer"],
                "precisions": ["bf16"],
                "scale": ["multi-device"],
            }
        )


def test_only_full_precision_training_pages_carry_a_mixed_precision_setting():
    # a setting that turns mixed precision on belongs to a page run in fp32; a page already in bf16 needs none
    stacks = load_knowledge_base().stacks
    carrying = [s for s in stacks if s.mixed_precision is not None]
    assert carrying
    assert all(s.applies_to.precisions == ["fp32"] and "training" in s.applies_to.workloads for s in carrying)


def test_a_serving_sla_longer_than_every_documented_config_accepts_is_a_partial_fit():
    # Review 188 p01: "fits the whole profile" for an 8,000 + 1,500-token SLA, while TensorRT-LLM's B200 configs for
    # DeepSeek-R1 NVFP4 cap each request at max_seq_len 9472 at most
    # (https://github.com/NVIDIA/TensorRT-LLM/blob/22de8b34df71bb6653612c1f3de00c7288482eb4/examples/configs/database/nvidia/DeepSeek-R1-0528-FP4-v2/B200/8k1k_tp8_conc256.yaml)
    deepseek = {
        "model_type": "moe",
        "hardware": "nvidia-gpu",
        "device": "b200",
        "workload": "inference",
        "team_skill": "hpc",
        "model": "deepseek-ai/DeepSeek-V3.1",
        "needs": {"dynamic_shapes": True, "quantization": "fp4", "long_context": True, "devices": 8},
    }
    longer = answer(**deepseek, serving={"isl": 8000, "osl": 1500, "ttft_ms": 3000, "tpot_ms": 40})
    assert chosen_stack(longer) == "nvidia-trtllm-deepseek-blackwell"
    reason = considered(longer, "nvidia-trtllm-deepseek-blackwell").reason
    assert reason.startswith("its launch caps each request at 9,472 tokens, below the 9,500 tokens")
    within = answer(**deepseek, serving={"isl": 8000, "osl": 1000, "ttft_ms": 3000, "tpot_ms": 40})
    assert considered(within, "nvidia-trtllm-deepseek-blackwell").reason == "fits the whole profile"


def test_a_four_bit_ask_no_stack_documents_is_served_in_the_documented_eight_bit_format_where_float_does_not_fit():
    # Review 188 p08: Qwen3-32B-AWQ on one 64 GB K100_AI got concerns assembled one by one around an unverified vLLM
    # int4 path, while Hygon's cookbook serves Qwen3-32B as its INT8 W8A8 checkpoint
    # (HYGON-AI/inference-cookbook-das, docs/model-deployment/vllm: its Qwen3 page's K100_AI INT8 line) and bf16 weights
    # need two cards
    awq_on_k100 = {
        "model_type": "dense-transformer",
        "hardware": "hygon-dcu",
        "device": "k100-ai",
        "workload": "inference",
        "team_skill": "framework",
        "model": "Qwen/Qwen3-32B-AWQ",
    }
    result = answer(**awq_on_k100, needs={"dynamic_shapes": True, "quantization": "int4", "devices": 1})
    assert chosen_stack(result) == "hygon-vllm-cookbook-k100-ai"
    assert choice(result, "gemm").settings["dtype"] == "int8"
    assert any(
        line.text.startswith("int4 asked, and no stack here documents int4 for this model on the Hygon DCU K100_AI")
        for line in result.capacity
    )
    assert "not run on this device" not in considered(result, "hygon-vllm-gpustack-k100-ai").reason
    # two cards hold the bf16 weights: the documented bf16 route serves there, no 8-bit plan is made up
    roomy = answer(**awq_on_k100, needs={"dynamic_shapes": True, "quantization": "int4", "devices": 2})
    assert not any(line.text.startswith("int4 asked, and no stack") for line in roomy.capacity)


def test_a_project_example_for_the_named_model_sets_the_recipes_parts_in_place_of_another_models_script():
    # Reviews 188 p04, 189 p04: Qwen3-30B-A3B GRPO on 8 x MI355X got the Qwen3.5-35B-A3B script AMD's verl quick start
    # lists (https://verl.readthedocs.io/en/latest/amd_tutorial/amd_quick_start.html), while verl ships its own
    # Qwen3-30B-A3B example (https://github.com/verl-project/verl/blob/1dda039b9c6311889a9c9a26040677e1254814f9/examples/grpo_trainer/run_qwen3_30b_a3b_megatron.sh)
    result = answer(
        model_type="moe",
        hardware="amd-gpu",
        device="mi355x",
        workload="training",
        training="rl",
        team_skill="kernel",
        model="Qwen/Qwen3-30B-A3B",
        needs={"dynamic_shapes": True, "devices": 8},
    )
    assert chosen_stack(result, "training") == "amd-verl-megatron-moe-grpo-instinct"
    documented = choice(result, "training-framework").settings["as documented"]
    assert documented.startswith("verl's own GRPO example for this model, bash examples/grpo_trainer/run_qwen3_30b_a3b")
    assert "TP4 PP2 VPP2 EP2" in documented
    assert "run_qwen3_5_35b_megatron.sh" not in documented
    reason = considered(result, "amd-verl-megatron-moe-grpo-instinct").reason
    assert reason.startswith("its page runs Qwen/Qwen3.5-35B-A3B; the settings here are its project's own example")


def test_an_fp32_training_page_with_an_amp_path_gets_a_switch_to_mixed_precision():
    # Review 189 p08: ConvNeXt-B on 4 x BI-V150 trained in fp32 with no word of the page's --use_amp path (the upstream
    # main.py trains in fp32 unless --use_amp true: https://github.com/facebookresearch/ConvNeXt/blob/048efcea897d999aed302f2639b6270aedf8d4c8/main.py)
    result = answer(
        model_type="cnn",
        hardware="iluvatar-gpu",
        device="tiangai-150",
        workload="training",
        training="fine-tuning",
        team_skill="framework",
        model="facebook/convnext-base-224",
        needs={"devices": 4},
    )
    assert chosen_stack(result, "training") == "iluvatar-convnext-training"
    assert choice(result, "gemm").settings["dtype"] == "fp32"
    amp = next(s for s in result.switch_conditions if s.id == "fp16-training-pays")
    assert amp.metric == "evidence.training_throughput.fp16_over_fp32"
    assert amp.also[0].metric == "evidence.fp16_accuracy_drop"


def test_a_flux_lora_on_the_diffsynth_route_runs_the_projects_own_flux_example():
    # Review 191 p04: the command was DiffSynth-Studio's Qwen-Image train.py with "FLUX.1-dev in place of Qwen-Image",
    # while the project ships its own FLUX.1-dev LoRA example
    # (https://github.com/modelscope/DiffSynth-Studio/blob/3ee3cc31048980e89cd2d60d2526cfb76f290390/examples/flux/model_training/lora/FLUX.1-dev.sh)
    result = answer(
        model_type="diffusion",
        hardware="amd-gpu",
        device="mi300x",
        workload="training",
        training="lora",
        team_skill="kernel",
        model="black-forest-labs/FLUX.1-dev",
        needs={"devices": 8},
    )
    assert chosen_stack(result, "training") == "amd-diffsynth-qwen-image-lora-mi300x"
    settings = choice(result, "training-framework").settings
    assert "examples/flux/model_training/train.py" in settings["as documented"]
    assert "qwen_image" not in settings["as documented"]
    assert "model" not in settings


def test_a_maxtext_lora_job_takes_the_lora_tutorials_flags_and_adapter_export():
    # Review 191 p11: "documented for fine-tuning, not lora" and a full-checkpoint hand-over for a Gemma 3 12B LoRA on
    # v6e-8, while MaxText documents LoRA on v6e-8 with lora.enable_lora=True and exports the adapter with to_huggingface
    # and lora.lora_restore_path (the maxtext-v0.2.4 release's tutorial,
    # https://github.com/AI-Hypercomputer/maxtext/blob/maxtext-v0.2.4/docs/tutorials/posttraining/lora.md)
    gemma_on_v6e = {
        "model_type": "dense-transformer",
        "hardware": "google-tpu",
        "device": "tpu-v6e",
        "workload": "both",
        "team_skill": "kernel",
        "model": "google/gemma-3-12b-it",
        "needs": {"dynamic_shapes": True, "devices": 8},
    }
    result = answer(**gemma_on_v6e, training="lora")
    assert chosen_stack(result, "training") == "tpu-maxtext-sft"
    assert considered(result, "tpu-maxtext-sft").reason == "fits the whole profile"
    assert "lora.enable_lora=True" in choice(result, "training-framework").settings["as documented"]
    assert "a LoRA run (lora.enable_lora=True) keeps its adapter" in result.verdict
    assert "export the adapter in PEFT format with the training stack's own converter" in result.verdict
    assert "then merge it into the base model before serving" in result.verdict
    full = answer(**gemma_on_v6e, training="fine-tuning")
    assert "LoRA run" not in full.verdict
    assert "enable_lora" not in choice(full, "training-framework").settings["as documented"]


def test_an_int8_ask_names_the_publishers_own_weight_only_int8_release():
    # Reviews 185, 191, 192, 193 p07: "no int8 release of Qwen/Qwen2.5-7B-Instruct is catalogued here" on Cambricon,
    # while Qwen publishes https://huggingface.co/Qwen/Qwen2.5-7B-Instruct-GPTQ-Int8
    result = answer(
        model_type="dense-transformer",
        hardware="cambricon-mlu",
        device="mlu590",
        workload="inference",
        team_skill="framework",
        model="Qwen/Qwen2.5-7B-Instruct",
        needs={"dynamic_shapes": True, "quantization": "int8", "devices": 1},
    )
    # vllm_mlu's gptq_mlu converts a GPTQ 8-bit checkpoint as it loads
    # (https://github.com/Cambricon/vllm-mlu/blob/8fa99fd9c81ee334ef7c3c57c41e382e3a8b7d6d/vllm_mlu/model_executor/layers/quantization/gptq_mlu.py),
    # so the verdict and the quantization part name the one release (review 204 p13: they disagreed)
    assert "serve its publisher's Qwen/Qwen2.5-7B-Instruct-GPTQ-Int8 as released" in result.verdict
    assert "no int8 release of" not in result.verdict
    assert result.verdict.startswith("Serve with vLLM with Cambricon's vllm_mlu platform plugin in int8")
    quantization = choice(result, "quantization")
    assert quantization.settings["checkpoint"] == "Qwen/Qwen2.5-7B-Instruct-GPTQ-Int8, as released"
    assert "cambricon-vllm-mlu-serving.loads_releases" in {c.ref for c in quantization.rationale[0].cites}


def test_a_release_in_a_format_the_engine_does_not_list_is_not_named():
    # Reviews 203 p05, 204 p05: Qwen2.5-72B's GPTQ-Int8 release named on vllm-ascend, whose quantization guide lists
    # ModelSlim and LLM Compressor checkpoints only
    # (https://docs.vllm.ai/projects/ascend/en/latest/user_guide/feature_guide/quantization.html)
    result = answer(
        model_type="dense-transformer",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="inference",
        model="Qwen/Qwen2.5-72B-Instruct",
        needs={"quantization": "int8", "devices": 4},
    )
    assert "GPTQ" not in result.verdict
    assert "GPTQ" not in choice(result, "quantization").settings.get("checkpoint", "")


def test_the_serving_pages_own_layout_is_the_replica_in_the_capacity_line_the_layout_and_the_switch_alike():
    # Review 196 p12: Llama-3.3-70B FP8 on 16 Trn2 said "8 replicas of 2" in the capacity line and the switch while the
    # layout line ran the tutorial's TP 16, which at LNC=2 is 4 chips a copy
    # (https://github.com/aws-neuron/aws-neuron-sdk/blob/43a89626d2aa0f9f649b581df8dfefe85b2b603d/vllm-neuron/docs/tutorials/tutorial-llama3-70b.md)
    result = answer(
        model_type="dense-transformer",
        hardware="aws-neuron",
        device="trn2",
        workload="inference",
        team_skill="framework",
        model="meta-llama/Llama-3.3-70B-Instruct",
        needs={"dynamic_shapes": True, "quantization": "fp8", "long_context": True, "devices": 16},
    )
    assert "so the 16 devices can serve as 4 replicas of 4 (data parallel) as the page does" in result.capacity[-1].text
    assert choice(result, "deployment").settings["layout here"].startswith("4 replicas of 4 (tensor parallel 16")
    replicas = next(s for s in result.switch_conditions if s.id == "replicas-over-split")
    assert replicas.description.startswith("4 replicas of 4 devices")


def test_sd35_in_a_mac_app_names_the_sd3_pipeline_its_swift_package_ships():
    # Reviews 191, 196, 197 p13: the deployment line named StableDiffusionPipeline and Flux2Pipeline only, while
    # coreai-models runs SD 3.5 Medium through SD3Pipeline
    # (https://github.com/apple/coreai-models/blob/3820724d90e5be7919b9e557ce627d78934db357/swift/Sources/CoreAIDiffusionPipeline/Pipelines/SD3Pipeline.swift)
    result = answer(
        model_type="diffusion",
        hardware="apple-silicon",
        device="apple-m4",
        workload="inference",
        team_skill="framework",
        model="stabilityai/stable-diffusion-3.5-medium",
        needs={"quantization": "none", "in_app": True, "devices": 1},
    )
    assert "SD3Pipeline for SD 3.5 Medium" in choice(result, "deployment").settings["as documented"]


def test_a_model_vllm_ascends_support_matrix_marks_unsupported_is_no_whole_fit_there():
    # Review 197 p05: GLM-4-32B-0414 W8A8 on 4 x 910B "fits the whole profile" on vllm-ascend's Qwen3 tutorial, while
    # its supported-models matrix marks GLM-4-0414 not supported (#2258)
    # (https://github.com/vllm-project/vllm-ascend/blob/main/docs/source/user_guide/support_matrix/supported_models.md)
    result = answer(
        model_type="dense-transformer",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="inference",
        team_skill="framework",
        model="zai-org/GLM-4-32B-0414",
        needs={"quantization": "int8", "quantization_method": "ptq", "devices": 4},
    )
    reason = considered(result, "ascend-vllm-ascend-w8a8-dense").reason
    assert reason == "its project's own pages say it does not serve zai-org/GLM-4-32B-0414"
    assert chosen_stack(result) != "ascend-vllm-ascend-w8a8-dense"
