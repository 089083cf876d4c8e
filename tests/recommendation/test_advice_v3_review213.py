"""Regression tests for the defects reviews 210-214 found (issue 28, advice v3), each against the vendor page cited."""

from __future__ import annotations

from recommendation_builders import answer_for as answer
from recommendation_builders import answer_without


def test_a_recipe_written_for_the_model_is_surer_than_a_general_page():
    # Review 210 #5: every whole fit read 0.60, vllm-ascend's nightly case for Qwen3-VL-32B W8A8 on the A2 runner
    # (https://github.com/vllm-project/vllm-ascend/blob/50e87d630528418b54c8cfddca6c3f4f49d6563a/tests/e2e/nightly/
    # single_node/models/configs/Qwen3-VL-32B-Instruct-W8A8.yaml, a recipe for the model) alike with a general W8A8
    # page for any dense LLM
    recipe = answer(
        model_type="multimodal",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="inference",
        model="Qwen/Qwen3-VL-32B-Instruct",
        needs={"quantization": "int8", "quantization_method": "ptq", "devices": 2},
    )
    general = answer(
        model_type="dense-transformer",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="inference",
        model="Qwen/Qwen2.5-72B-Instruct",
        needs={"quantization": "int8", "quantization_method": "ptq", "devices": 4},
    )
    assert recipe.confidence > general.confidence
    assert "a recipe written for this model" in recipe.confidence_notes[0]
    assert "a general page, not a recipe for a named model" in general.confidence_notes[0]


def test_an_rl_recipe_with_no_kl_term_holds_no_reference_copy_and_switches_on_generation_share():
    # Review 212 p04: verl's Qwen3-30B-A3B GRPO script sets use_kl_loss=False, and verl builds a reference policy only
    # for a KL term (need_reference_policy, https://github.com/verl-project/verl/blob/
    # f4966a0c0844774a0471ed70aa0ae35d18dfd0c0/verl/trainer/ppo/utils.py); RL records switched only on the device
    # generation and scaling, while verl's one-step-off-policy page aims for rollout and training phases of equal length
    # (https://github.com/verl-project/verl/blob/a74fc52e75e31b4f754d64507e2b99056c8e61c2/docs/advance/one_step_off.md)
    result = answer(
        model_type="moe",
        hardware="amd-gpu",
        device="mi355x",
        workload="training",
        training="rl",
        team_skill="kernel",
        model="Qwen/Qwen3-30B-A3B",
        parameters_b=30,
        needs={"dynamic_shapes": True, "devices": 8},
    )
    capacity = " ".join(line.text for line in result.capacity)
    assert "loads no frozen reference copy" in capacity and "480 GB" in capacity
    share = next(s for s in result.switch_conditions if s.id == "rl-generation-share")
    assert share.metric == "evidence.rl.generation_share_of_step" and share.threshold == 0.5
    assert "one_step_off_policy" in share.description
    # a recipe that keeps its KL term counts the frozen copy
    dense = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="training",
        training="rl",
        model="Qwen/Qwen3-8B",
        parameters_b=8,
        needs={"devices": 8},
    )
    assert "frozen bf16 reference copy (18 bytes per parameter" in " ".join(line.text for line in dense.capacity)


def test_the_original_deepseek_v3_in_nvfp4_runs_nvidias_recipe_with_its_own_model_optimizer_checkpoint():
    # Review 214 p01: TensorRT-LLM's DeepSeek recipe was rejected because NVIDIA releases NVFP4 checkpoints of R1 and
    # V3-0324, not V3, while Model Optimizer's DeepSeek example quantizes "DeepSeek V3, R1, V3.1" to NVFP4 for TensorRT-LLM
    # (https://github.com/NVIDIA/Model-Optimizer/blob/10718622f916687b69f80890468542bf2cec4d70/examples/deepseek/README.md)
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="b200",
        workload="inference",
        model="deepseek-ai/DeepSeek-V3",
        parameters_b=671,
        needs={"quantization": "fp4", "quantization_method": "ptq", "long_context": True, "devices": 8},
    )
    chosen = next(row for row in result.stacks_considered if row.chosen)
    assert chosen.stack == "nvidia-trtllm-deepseek-blackwell"
    quantization = next(c for c in result.tier(1).choices if c.concern == "quantization")
    assert "deepseek_v3/ptq.py --quant_cfg NVFP4_DEFAULT_CFG" in quantization.settings["as documented"]
    # SGLang's generic EP page names DeepGEMM's runner for block-wise FP8 only, the FlashInfer runners for NVFP4
    # (https://docs.sglang.ai/advanced_features/expert_parallelism.html)
    generic = next(row for row in result.stacks_considered if row.stack == "nvidia-sglang-moe-ep")
    assert not generic.chosen


def test_an_image_model_whose_format_no_recipe_documents_takes_the_near_recipe_in_float():
    # Review 213 p15: Swin-B in INT8 on a Tiangai 150 got no stack, because Iluvatar's vision-transformer recipes
    # run FP16 only (https://github.com/Deep-Spark/DeepSparkInference/blob/master/models/cv/classification/vit/igie/README.md)
    # (on a knowledge base without ixRT's BI-V150 page, which leads on that card since reviews 226/228: the behaviour
    # where every Iluvatar page for this network names the Zhikai 100 only)
    result = answer_without(
        {"iluvatar-ixrt-fastapi-tiangai-150"},
        model_type="cnn",
        hardware="iluvatar-gpu",
        device="tiangai-150",
        workload="inference",
        model="microsoft/swin-base-patch4-window7-224",
        needs={"dynamic_shapes": False, "quantization": "int8", "quantization_method": "ptq", "devices": 1},
    )
    chosen = next(row for row in result.stacks_considered if row.chosen)
    assert chosen.stack == "iluvatar-igie-swin-zhikai-100" and not chosen.fits
    gemm = next(c for c in result.tier(1).choices if c.concern == "gemm")
    assert gemm.settings["dtype"] == "fp16"


def test_a_recipe_that_words_its_own_scales_gets_no_default_granularity():
    # Review 214 p04: vllm-ascend's Qwen3-30B-A3B W8A8 is static per-tensor on attention and dynamic on the experts
    # (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/models/Qwen3-30B-A3B.html), yet the record added
    # "granularity=per-channel"
    result = answer(
        model_type="moe",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="inference",
        model="Qwen/Qwen3-30B-A3B",
        parameters_b=30,
        needs={"quantization": "int8", "quantization_method": "ptq", "devices": 4},
    )
    quantization = next(c for c in result.tier(1).choices if c.concern == "quantization")
    assert "per-tensor" in quantization.settings["as documented"] and "granularity" not in quantization.settings


def test_one_device_of_several_ranks_says_its_cores_exchange_inside_it():
    # Review 213 p09: Llama-3.1-8B on one Inferentia2 ran tensor parallel 2 over the chip's two NeuronCores
    # (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/general/arch/neuron-hardware/inferentia2.html) while
    # the record said "one device per job: no collectives"
    result = answer(
        model_type="dense-transformer",
        hardware="aws-neuron",
        device="inf2",
        workload="inference",
        model="meta-llama/Llama-3.1-8B-Instruct",
        parameters_b=8,
        needs={"quantization": "int8", "quantization_method": "ptq", "devices": 1},
    )
    skipped = next(s for s in result.skipped_concerns if s.concern == "collectives")
    assert "presents 2 ranks" in skipped.rationale[0].text
    assert "inside the device" in skipped.rationale[0].text


def test_a_short_sequence_pretraining_recipe_is_a_partial_fit_for_long_context():
    # Review 213 p02: Megatron Bridge's llama3_70b_pretrain_64gpu_b200_fp8mx_config trains 8,192-token sequences at
    # context parallel 1 (https://github.com/NVIDIA-NeMo/Megatron-Bridge, the recipe's flat config), yet a long-context
    # 70B pretraining read "fits the whole profile"
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="b200",
        workload="training",
        training="pretraining",
        team_skill="hpc",
        parameters_b=70,
        needs={"quantization": "fp8", "quantization_method": "qat", "long_context": True, "devices": 64},
    )
    chosen = next(row for row in result.stacks_considered if row.chosen)
    assert chosen.stack == "nvidia-megatron-bridge-llama3-70b-b200" and not chosen.fits
    assert "trains 8,192-token sequences" in chosen.reason


def test_a_training_stack_validated_with_flash_attn_measures_it_against_its_default_attention():
    # Reviews 213 p14 and 214 p12: the DCU LLaMA-Factory cookbook installs flash-attn 2.6.1+das.opt4.dtk2504
    # (https://github.com/FlyAIBox/dcu-in-action/tree/main/01-llm-fine-tuning/llamafactory) while its runs attend
    # through SDPA; the record called the wheel "a measured switch" and wrote none
    result = answer(
        model_type="dense-transformer",
        hardware="hygon-dcu",
        device="k100-ai",
        workload="training",
        training="lora",
        model="Qwen/Qwen2.5-7B-Instruct",
        parameters_b=7,
        needs={"dynamic_shapes": True, "devices": 8},
    )
    installed = next(s for s in result.switch_conditions if s.id == "installed-flash-attention")
    assert "2.6.1+das.opt4.dtk2504" in installed.description and installed.threshold == 1.1


def test_keeping_the_float_model_says_how_many_copies_of_it_the_devices_hold():
    # Review 213 p06: DeepSeek-V3 W8A8 on 32 Atlas A3 dies was sized as 2 replicas of 16, and its accuracy switch said
    # "keep the float model" with no word that the BF16 weights (about 1.34 TB; the 671B card,
    # https://huggingface.co/deepseek-ai/DeepSeek-V3) need more than one 16-die node
    result = answer(
        model_type="moe",
        hardware="ascend-npu",
        device="ascend-910c",
        workload="inference",
        team_skill="hpc",
        model="deepseek-ai/DeepSeek-V3",
        parameters_b=671,
        needs={"quantization": "int8", "quantization_method": "ptq", "long_context": True, "devices": 32},
    )
    gate = next(s for s in result.switch_conditions if s.id == "int8-accuracy-drop")
    assert "hold 1 copy of it against 2 in int8" in gate.description


def test_a_stack_validated_on_another_device_of_the_family_gets_a_first_run_gate():
    # Review 215 p15: Iluvatar's vLLM VL recipes list the MR-V100 (Zhikai 100) only
    # (https://github.com/Deep-Spark/DeepSparkInference/blob/master/models/multimodal/vision_language_model/intern_vl/vllm/README.md),
    # and the record chose one for a Tiangai 150 with no go/no-go on the target
    result = answer(
        model_type="multimodal",
        hardware="iluvatar-gpu",
        device="tiangai-150",
        workload="inference",
        model="Qwen/Qwen2.5-VL-7B-Instruct",
        needs={"dynamic_shapes": True, "devices": 2},
    )
    gate = next(s for s in result.switch_conditions if s.id == "unvalidated-device-gate")
    assert gate.metric.startswith("evidence.accuracy_drop_on_target.") and "fails to start" in gate.description


def test_a_job_that_trains_on_many_devices_sizes_its_serving_fleet_by_traffic():
    # Review 216 p07: Llama-3.1-8B pre-trained on 256 TPU v6e chips and served: the record sized serving as "128
    # replicas of 2" on the training run's chips and raced them against "one model split 256 ways"; vLLM on TPU serves a
    # model on a single-host slice (https://docs.vllm.ai/projects/tpu/en/latest/)
    result = answer(
        model_type="dense-transformer",
        hardware="google-tpu",
        device="tpu-v6e",
        workload="both",
        training="pretraining",
        team_skill="hpc",
        model="meta-llama/Llama-3.1-8B",
        needs={"devices": 256},
    )
    serving = next(line.text for line in result.capacity if "KV cache" in line.text)
    assert "the 256 devices are the training run's" in serving and "128 replicas" not in serving
    assert not any(s.id == "replicas-over-split" for s in result.switch_conditions)


def test_a_superseded_route_whose_successor_skips_this_device_switches_on_the_successors_devices():
    # Review 216 p08: LoRA on trn1 rests on a route pinned at Neuron 2.28 (AWS: stay on 2.28 with PyTorch 2.9 until moving
    # to native PyTorch, https://awsdocs-neuron.readthedocs-hosted.com/en/latest/about-neuron/announcements/neuron2.x/announce-eos-nxdt-nxd-core-training.html),
    # while TorchNeuron runs on Trn2 and Trn3 only; the record had no switch for that move
    result = answer(
        model_type="dense-transformer",
        hardware="aws-neuron",
        device="trn1",
        workload="training",
        training="lora",
        model="meta-llama/Llama-3.1-8B-Instruct",
        needs={"devices": 32},
    )
    move = next(s for s in result.switch_conditions if s.id.endswith("-on-trn1"))
    assert move.metric.endswith(".devices") and "off the superseded" in move.description
    assert "no longer in its software's current release" in result.confidence_notes[0]


def test_a_full_fine_tune_of_qwen25_vl_on_mindspeed_mm_unfreezes_the_vision_encoder_and_counts_steps():
    # Review 218 p06: the record ran MindSpeed-MM's Qwen2.5-VL recipe for a full fine-tune with its ViT frozen by default
    # and no word on unfreezing it (https://github.com/Ascend/MindSpeed-MM/blob/c4daaf308d991ed6b6441935152bf27b896b77f5/examples/qwen2.5vl/README.md:
    # "vision_encoder": {"freeze": false}), and its only compile switch counted recompiles "per 100 requests"
    result = answer(
        model_type="multimodal",
        hardware="ascend-npu",
        device="ascend-910c",
        workload="training",
        training="fine-tuning",
        team_skill="kernel",
        model="Qwen/Qwen2.5-VL-7B-Instruct",
        needs={"dynamic_shapes": True, "devices": 16},
    )
    framework = next(c for c in result.tier(1).choices if c.concern == "training-framework")
    assert '"vision_encoder": {"freeze": false}' in framework.settings["as documented"]
    assert not any("per 100 requests" in s.description for s in result.switch_conditions)


def test_a_recipe_for_the_model_on_a_sibling_card_races_the_stack_that_fits_whole():
    # Review 220 p15: NeMo RL's GRPO recipe for Qwen2.5-7B-Instruct (https://github.com/NVIDIA-NeMo/RL/blob/
    # 850f69f2876d3d7fe7946722d5390e2680eb7901/examples/configs/recipes/llm/grpo-qwen2.5-7b-instruct-4n8g-megatron.yaml)
    # was rejected, and no switch compared NeMo RL with verl
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h200-sxm",
        workload="training",
        training="rl",
        team_skill="kernel",
        model="Qwen/Qwen2.5-7B-Instruct",
        needs={"dynamic_shapes": True, "devices": 8},
    )
    chosen = next(row for row in result.stacks_considered if row.chosen)
    assert chosen.stack == "nvidia-nemo-rl-grpo-h100"
    assert any(s.id == "nvidia-verl-grpo-hopper-faster" for s in result.switch_conditions)


def test_a_script_validated_on_the_device_does_not_put_a_server_behind_it():
    # Review 221 p15: a ResNet-50 INT8 service on the MR-V100 got IGIE's benchmark script (DeepSparkInference prints
    # top-1 and images/s, no endpoint) over Iluvatar's Triton IGIE backend (https://gitee.com/deep-spark/tis-igie-backend),
    # which fits whole but names no card
    result = answer(
        model_type="cnn",
        hardware="iluvatar-gpu",
        device="zhikai-100",
        workload="inference",
        model="microsoft/resnet-50",
        needs={"quantization": "int8", "quantization_method": "ptq", "devices": 1},
    )
    chosen = next(row for row in result.stacks_considered if row.chosen)
    assert chosen.stack == "iluvatar-triton-igie-backend"
