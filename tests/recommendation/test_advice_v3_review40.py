"""Review 40's defects, each pinned."""

from __future__ import annotations

from recommendation_builders import answer_for as answer

from advisor.knowledge.model_sizes import shared_architecture


def test_a_recipe_for_a_later_release_of_the_architecture_configures_the_base_model():
    # DeepSeek-R1 is trained from DeepSeek-V3-Base and keeps its architecture (https://huggingface.co/deepseek-ai/DeepSeek-R1);
    # vllm-ascend's DeepSeek-V3/3.1 tutorial serves the family on one A3 node
    # (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/models/DeepSeek-V3.1.html). Review 40 p05 got the
    # Qwen3-235B tutorial's layout for DeepSeek-V3.
    kin = shared_architecture(["deepseek-ai/DeepSeek-R1"], "deepseek-ai/DeepSeek-V3")
    assert kin is not None and kin.architecture == "deepseek-ai/DeepSeek-V3"
    result = answer(
        model_type="moe",
        hardware="ascend-npu",
        device="ascend-910c",
        workload="inference",
        team_skill="hpc",
        model="deepseek-ai/DeepSeek-V3",
        needs={"quantization": "int8", "devices": 16},
    )
    assert result.stacks[0].stack == "ascend-vllm-ascend-deepseek-a3"
    generic = next(o for o in result.stacks_considered if o.stack == "ascend-vllm-ascend-moe-ep")
    # review 210 p05: vllm-ascend's multi-node tutorial serves DeepSeek-V3's own W8A8 release, so the A3 recipe now lists
    # the model itself (https://vllm-ascend.readthedocs.io/en/latest/tutorials/multi_node.html)
    assert "is the recipe written for the model named (deepseek-ai/DeepSeek-V3)" in generic.reason


def test_a_one_device_lora_recipe_is_a_partial_fit_for_a_data_parallel_lora_job():
    # AMD's TRL + PEFT notebook LoRA-tunes Qwen2-VL-7B on one MI300X
    # (https://rocm.docs.amd.com/projects/ai-developer-hub/en/latest/notebooks/fine_tune/fine_tuning_lora_qwen2vl.html);
    # review 40 p04 (Qwen2.5-VL-7B LoRA on eight) got no training stack at all. The notebook's own model on eight GPUs
    # takes it, data parallel; Qwen2.5-VL now takes LLaMA-Factory's ROCm 7.2 route, whose model table lists it
    # (review 112 p05; the notebook is written for Qwen2-VL on ROCm 6.2.3).
    result = answer(
        model_type="multimodal",
        hardware="amd-gpu",
        device="mi300x",
        workload="both",
        training="lora",
        model="Qwen/Qwen2-VL-7B-Instruct",
        needs={"devices": 8},
    )
    training = next(stack for stack in result.stacks if stack.workload == "training")
    assert training.stack == "amd-trl-peft-vlm-lora-mi300x"
    assert any("data parallel" in misfit for misfit in training.misfits)


def test_an_embedding_model_on_a_serving_engine_gets_the_embedding_reason_and_its_size():
    # Review 40 p07: bge-m3 on MLU590 read "a dense-transformer model is served as a compiled graph: vLLM" and "states
    # no size in its id"; BAAI gives 560M parameters (https://huggingface.co/BAAI/bge-m3/discussions/60).
    result = answer(
        model_type="dense-transformer",
        hardware="cambricon-mlu",
        device="mlu590",
        workload="inference",
        model="BAAI/bge-m3",
        task="embedding",
        needs={"devices": 1},
    )
    # Review 57 p07: Cambricon's MagicMind model zoo compiles Transformer encoders for embeddings (RoFormer-Sim,
    # https://github.com/Cambricon/magicmind_cloud/blob/master/buildin/nlp/LanguageModeling/roformer-sim_tensorflow/README.md),
    # so the documented encoder route now deploys it instead of an engine assembled with no page behind it.
    deployment = next(c for c in result.tiers[0].choices if c.concern == "deployment")
    assert deployment.option == "magicmind"
    assert result.stacks and result.stacks[0].stack == "cambricon-magicmind-encoder-embeddings"
    assert not any("states no size" in reason.text for reason in result.capacity)
    tpu = answer(
        model_type="dense-transformer",
        hardware="google-tpu",
        device="tpu-v6e",
        workload="inference",
        model="BAAI/bge-m3",
        task="embedding",
        needs={"devices": 1},
    )
    deployment = next(c for c in tpu.tiers[0].choices if c.concern == "deployment")
    assert deployment.rationale[0].text.startswith("an embedding model in production is served by an engine")


def test_a_job_over_more_than_eight_devices_gets_no_one_node_scaling_risk():
    # Review 40 p02 (72 GB200 GPUs) read "run a strong-scaling test from 1 to 8 devices"; its scaling switch already
    # goes node by node.
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="gb200",
        workload="training",
        team_skill="hpc",
        needs={"quantization": "fp8", "devices": 72},
    )
    texts = [reason.text for tier in result.tiers for choice in tier.choices for reason in choice.rationale]
    assert not any("from 1 to 8" in text for text in texts)
    assert any(c.id == "strong-scaling-collapse" for c in result.switch_conditions)


def test_a_framework_running_on_a_platform_sdk_is_not_credited_to_the_sdk():
    # Review 40 p10: "data+tensor+pipeline+context parallelism comes from Intel Gaudi software suite (SynapseAI)" for
    # Intel's DeepSpeed fork (https://docs.habana.ai/en/latest/PyTorch/DeepSpeed/DeepSpeed_User_Guide.html).
    result = answer(
        model_type="dense-transformer",
        hardware="intel-gaudi",
        device="gaudi3",
        workload="training",
        training="fine-tuning",
        team_skill="kernel",
        model="meta-llama/Llama-3.1-8B",
        needs={"long_context": True, "devices": 8},
    )
    framework = next(c for c in result.tiers[0].choices if c.concern == "training-framework")
    assert "DeepSpeed" in framework.label
    assert not any("comes from Intel Gaudi software suite" in reason.text for reason in framework.rationale)


def test_a_considered_stack_says_what_its_page_says_of_the_profiles_model():
    # vLLM TPU's model matrices test google/gemma-3-27b-it as a Text model
    # (https://github.com/vllm-project/tpu-inference/blob/main/support_matrices/release/v6e/default/model_support_matrix.csv);
    # review 40 p11 never saw it.
    result = answer(
        model_type="multimodal",
        hardware="google-tpu",
        device="tpu-v6e",
        workload="inference",
        model="google/gemma-3-27b-it",
        needs={"devices": 8},
    )
    multimodal = next(o for o in result.stacks_considered if o.stack == "tpu-vllm-jax-multimodal")
    assert "its page on this model:" in multimodal.reason and "Text model" in multimodal.reason
