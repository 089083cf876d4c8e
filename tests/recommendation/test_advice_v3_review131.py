"""Defects of reviews 127-130 left open last session, and of reviews 131-132, each pinned."""

from __future__ import annotations

import yaml
from recommendation_builders import answer_for as answer
from recommendation_builders import answer_without, chosen_stack

from advisor.knowledge.loader import load_knowledge_base
from advisor.profile import parse_profile
from advisor.recommendation.engine import recommend
from advisor.recommendation.models import Recommendation

FLUX_FP8 = {
    "model_type": "diffusion",
    "hardware": "nvidia-gpu",
    "workload": "inference",
    "team_skill": "framework",
    "model": "black-forest-labs/FLUX.1-dev",
    "needs": {"quantization": "fp8", "devices": 1},
}

# gpt-oss-120b in its released MXFP4 on one MI355X, where vLLM's recipe serves AMD's requantization
GPT_OSS_MI355X = {
    "model_type": "moe",
    "hardware": "amd-gpu",
    "device": "mi355x",
    "workload": "inference",
    "team_skill": "kernel",
    "model": "openai/gpt-oss-120b",
    "needs": {"quantization": "fp4", "devices": 1},
}


def requantized_route() -> Recommendation:
    """GPT_OSS_MI355X planned with a knowledge base that lacks the stacks serving OpenAI's release on the MI355X (AMD's
    MLPerf configuration at TP1, vLLM's structured recipe rendered for MI355X at TP1 (review kbgptoss2), AMD's generic
    MXFP4 vLLM stack), so that vLLM's MI355X recipe block, AMD's requantization, is the route chosen: what its record
    says."""
    knowledge = load_knowledge_base()
    release_routes = (
        "amd-vllm-gpt-oss-mlperf-mi355x",
        "amd-vllm-gpt-oss-released-mi355x",
        "amd-vllm-aiter-mxfp4-mi355x",
    )
    without = knowledge.model_copy(update={"stacks": tuple(s for s in knowledge.stacks if s.id not in release_routes)})
    return recommend(parse_profile(yaml.safe_dump({**GPT_OSS_MI355X})), [], without)


def test_flux_fp8_on_a_card_no_released_route_names_takes_diffusers_torchao_before_the_demo_script():
    # Reviews 127 p15 and 130 p03 scored 1: TensorRT's demoDiffusion, a demo application, was the service for FLUX.1-dev
    # on an RTX PRO 6000 Server. Diffusers' torchao page recommends FP8 with torch.compile on compute capability 8.9 or
    # newer (https://huggingface.co/docs/diffusers/main/en/quantization/torchao); the demo is said to be a preview.
    result = answer(**FLUX_FP8, device="rtx-pro-6000-server")
    assert chosen_stack(result) == "nvidia-diffusers-torchao-fp8"
    demo = next(row for row in result.stacks_considered if row.stack == "nvidia-tensorrt-demodiffusion-flux")
    assert "preview" in demo.reason and "released route" in demo.reason
    # demoDiffusion lists this card, but a demo is no released route: the library is not put behind it
    library = next(row for row in result.stacks_considered if row.stack == "nvidia-diffusers-torchao-fp8")
    assert "names no device" not in library.reason
    gemm = next(choice for choice in result.tier(1).choices if choice.concern == "gemm")
    assert gemm.option == "torchao" and gemm.settings.get("dtype") == "fp8"


def test_a_route_whose_page_names_no_device_comes_after_a_released_route_validated_on_the_device():
    # On an H100 the FLUX.1-dev NIM's support matrix lists the card in FP8
    # (https://docs.nvidia.com/nim/visual-genai/1.1.1/support-matrix.html): the vendor's server leads, and the
    # Diffusers route, whose page names GPUs only by compute capability, says why it comes after.
    result = answer(**FLUX_FP8, device="h100-sxm")
    assert chosen_stack(result) == "nvidia-nim-flux1-dev"
    library = next(row for row in result.stacks_considered if row.stack == "nvidia-diffusers-torchao-fp8")
    assert not library.chosen
    assert "names no device" in library.reason and "validated on this one" in library.reason


def test_a_lora_trained_with_diffusers_reaches_the_fp8_route_by_fusing_it_into_the_weights_it_quantizes():
    result = answer(
        **{**FLUX_FP8, "workload": "both", "training": "lora"}, device="rtx-pro-6000-server", parameters_b=12
    )
    assert chosen_stack(result) == "nvidia-diffusers-torchao-fp8"
    assert chosen_stack(result, "training") == "nvidia-diffusers-flux-lora"
    assert "fuse_lora" in result.verdict and "LoRA fused in" in result.verdict


def test_a_pretraining_recipe_that_loads_no_published_weights_is_no_base_for_a_lora():
    # Review 131 p04: a one-GPU FLUX.1-dev LoRA on an MI300X took Primus's Flux recipe, which pretrains Primus's own Flux
    # model (https://rocm.docs.amd.com/projects/primus/en/latest/), while tier 1 named no training framework.
    result = answer(
        model_type="diffusion",
        hardware="amd-gpu",
        device="mi300x",
        workload="both",
        training="lora",
        team_skill="framework",
        model="black-forest-labs/FLUX.1-dev",
        parameters_b=12,
        needs={"quantization": "fp8", "devices": 1},
    )
    primus = next(row for row in result.stacks_considered if row.stack == "amd-primus-flux-training-mi300x")
    assert not primus.chosen and "starts from no published model's weights" in primus.reason
    assert "Primus" not in result.verdict.split("Between them")[0]


def test_one_release_written_two_ways_is_no_version_split():
    # Review 132 p06: "Their validated versions differ: vllm 0.23.0 (training), v0.23.0 (serving)".
    from advisor.recommendation.stack_switches import same_release

    assert same_release("0.23.0 (verl's Ascend pin)", "v0.23.0")
    assert same_release("0.40.0.dev0 installed from source", "0.40.0.dev0 (the docs read at main)")
    assert not same_release("2.26.1", "2.34.0")
    assert not same_release("0.23.0rc1", "0.23.0")
    assert same_release("main", "main") and not same_release("main", "nightly")
    result = answer(
        model_type="dense-transformer",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="both",
        training="rl",
        team_skill="kernel",
        model="Qwen/Qwen3-8B",
        needs={"dynamic_shapes": True, "devices": 8},
    )
    assert "versions differ" not in result.verdict


def test_a_recipe_for_the_instruct_release_of_an_earlier_architecture_is_kin_as_the_base_ones_recipe_is():
    # Review 132 p09: for Llama-3.1-8B-Instruct, OpenRLHF's Meta-Llama-3-8B recipe was taken "by architecture" while
    # LLaMA-Factory's Meta-Llama-3-8B-Instruct recipe was "written for another model"; Llama 3.1 8B keeps Llama 3 8B's
    # architecture (https://huggingface.co/meta-llama/Llama-3.1-8B), and the instruct release is the same network.
    result = answer(
        model_type="dense-transformer",
        hardware="iluvatar-gpu",
        device="tiangai-150",
        workload="training",
        training="fine-tuning",
        team_skill="framework",
        model="meta-llama/Llama-3.1-8B-Instruct",
        needs={"devices": 8},
    )
    factory = next(row for row in result.stacks_considered if row.stack == "iluvatar-llamafactory-llama3-tiangai-150")
    assert "not meta-llama/Llama-3.1-8B-Instruct" not in factory.reason
    assert "keeps meta-llama/Meta-Llama-3-8B's architecture" in factory.reason


def test_a_throughput_run_the_record_points_to_is_among_the_switch_conditions():
    # Review 131 p08: "a throughput run at your SLA on the target decides (see the switch conditions)" where the only
    # switch was a device generation: a row points to the switch conditions only where one races it. On the Zhikai 100
    # Iluvatar's Triton IGIE backend (https://gitee.com/deep-spark/tis-igie-backend) serves, and IGIE's ResNet-50 recipe
    # (https://github.com/Deep-Spark/DeepSparkInference) is a script beside it.
    result = answer(
        model_type="cnn",
        hardware="iluvatar-gpu",
        device="zhikai-100",
        workload="inference",
        team_skill="kernel",
        model="microsoft/resnet-50",
        needs={"devices": 1},
    )
    script = next(row for row in result.stacks_considered if row.stack == "iluvatar-igie-cnn-zhikai-100")
    assert "a script, not a server" in script.reason  # beside the server chosen, the script is a reference, not a race
    for row in result.stacks_considered:  # and a row sends the reader to the switch conditions only where one races it
        if "see the switch conditions" in row.reason:
            assert any(row.stack in switch.metric for switch in result.switch_conditions), row.stack


def test_a_vision_transformer_takes_the_vision_transformer_recipe_before_a_resnet_one():
    # Review 131 p08: DINOv2-large on a Tiangai 150 got the ResNet-50 recipe; DeepSparkInference runs ViT, CLIP ViT and
    # DINOv2 under IGIE (https://github.com/Deep-Spark/DeepSparkInference, models/cv/classification/vit/igie).
    # (on a knowledge base without ixRT's BI-V150 page, which leads on that card since reviews 226/228: the behaviour
    # where every Iluvatar page for this network names the Zhikai 100 only)
    result = answer_without(
        {"iluvatar-ixrt-fastapi-tiangai-150"},
        model_type="dense-transformer",
        hardware="iluvatar-gpu",
        device="tiangai-150",
        workload="inference",
        team_skill="kernel",
        model="facebook/dinov2-large",
        needs={"devices": 1},
    )
    assert chosen_stack(result) == "iluvatar-igie-vit-zhikai-100"
    chosen = next(row for row in result.stacks_considered if row.chosen)
    # since review 160 p09 the recipe lists the DINOv2 ViT-S/14 it exports (facebook/dinov2-small): another size of it
    assert "of the dinov2 family as facebook/dinov2-large is" in chosen.reason


def test_a_risk_opening_on_another_generation_named_in_several_words_leaves_the_record():
    # Review 132 p06: a risk opening on the Atlas A3 reached a 910B (Atlas A2) record; generations are named in words
    # ("Atlas A3", "CDNA 4", "TPU v5e"), and the engine matched only one.
    from advisor.recommendation.stack_choice import names_another_device

    generations = {"Atlas A3", "Atlas inference series"}
    assert names_another_device("On Atlas A3 (Atlas 800T A3) a node counts 16 dies", (), generations)
    assert not names_another_device("On Atlas A2 the script fixes 8 NPUs a node", (), generations)
    assert not names_another_device("On Atlas A30 something", (), generations)
    assert names_another_device("For the W8A8 weights on Atlas A3, run TP4", (), generations)


def test_a_stack_serving_a_vendor_requantization_names_that_checkpoint_not_the_release():
    # Review 131 p03: on an MI355X vLLM's recipe serves AMD's Quark gpt-oss-120b (MXFP4 weights, FP8 activations)
    # in place of OpenAI's release (https://github.com/vllm-project/recipes/blob/main/OpenAI/GPT-OSS.md, MI355x block);
    # tier 1 said "checkpoint=openai/gpt-oss-120b, as released" beside that command.
    result = requantized_route()
    assert chosen_stack(result) == "amd-vllm-gpt-oss-mi355x"
    quantization = next(c for c in result.tier(1).choices if c.concern == "quantization")
    assert quantization.option == "quark"
    assert "as released" not in quantization.settings.get("checkpoint", "")
    assert "amd/gpt-oss-120b-w-mxfp4-a-fp8" in quantization.settings["as documented"]


def test_a_layernorm_risk_stays_for_a_convnext():
    # Review 132 p15: ConvNeXt V2 is a CNN normalised with LayerNorm and GRN, not BatchNorm
    # (https://huggingface.co/docs/transformers/model_doc/convnextv2): a LayerNorm risk concerns it as a ViT's would.
    from advisor.profile import Profile
    from advisor.recommendation.choices import risk_applies

    def profile(model: str) -> Profile:
        return Profile.model_validate(
            {"model_type": "cnn", "hardware": "arm-cpu", "workload": "inference", "team_skill": "hpc", "model": model}
        )

    risk = "LayerNorm runs outside the fused convolution kernels."
    assert risk_applies(risk, profile("facebook/convnextv2-tiny-22k-224"))
    assert not risk_applies(risk, profile("microsoft/resnet-50"))


def test_a_record_on_a_release_candidate_is_reviewed_early():
    # Reviews 131 (record 0001) and 132 (p06): a record pinned to vllm-ascend v0.22.1rc1 was reviewed a year out; the
    # vllm-ascend release notes (https://github.com/vllm-project/vllm-ascend/releases) follow a candidate with its final
    # release within weeks, so the review comes at six months, with the reason.
    result = answer(
        model_type="moe",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="inference",
        team_skill="framework",
        model="Qwen/Qwen3-30B-A3B",
        needs={"quantization": "int8", "devices": 2},
    )
    reason = result.early_review()
    assert reason is not None and "pre-release (vllm-ascend v0.22.1rc1)" in reason


def test_of_recipes_that_fit_alike_the_one_on_the_newer_vendor_release_leads():
    # Review 133 p09: Llama-3-8B pretraining on 16 Tiangai 150 took ColossalAI's run on DeepSparkHub 25.03 (SDK 4.2.0)
    # over Iluvatar's Megatron-LM pretraining recipe on 25.09 (SDK 4.3.0,
    # https://github.com/Deep-Spark/DeepSparkHub/blob/master/models/nlp/llm/llama3_8b/megatron-lm/README.md).
    result = answer(
        model_type="dense-transformer",
        hardware="iluvatar-gpu",
        device="tiangai-150",
        workload="training",
        training="pretraining",
        team_skill="hpc",
        model="meta-llama/Meta-Llama-3-8B",
        needs={"devices": 16},
    )
    assert chosen_stack(result, "training") == "iluvatar-megatron-lm-tiangai-150"
    colossal = next(
        row for row in result.stacks_considered if row.stack == "iluvatar-colossalai-llama3-sft-tiangai-150"
    )
    assert "validated on a newer release (deepsparkhub 25.09 against 25.03)" in colossal.reason


def test_no_switch_leads_to_a_route_the_vendor_no_longer_carries_and_the_older_side_revalidates():
    # Review 134 p12: a switch moved a Trn2 team to NxD Training pinned at Neuron 2.28, which AWS no longer carries
    # (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/about-neuron/announcements/neuron2.x/announce-no-support-pytorch-xla-training.html),
    # and the verdict said "run them as two images" where one release must carry serving and training.
    result = answer(
        model_type="dense-transformer",
        hardware="aws-neuron",
        device="trn2",
        workload="both",
        training="fine-tuning",
        team_skill="framework",
        model="meta-llama/Llama-3.1-8B-Instruct",
        parameters_b=8,
        needs={"devices": 16},
    )
    # review 145 p13: NxD Training documents this fine-tune whole, so it is the fallback if TorchTitan's short run fails,
    # as a time-boxed exception; no throughput race leads there
    to_nxdt = [switch for switch in result.switch_conditions if "nxdt" in switch.id]
    assert [switch.id for switch in to_nxdt] == ["fallback-neuron-nxdt-pretraining-228"]
    assert to_nxdt[0].metric == "evidence.training_route_fails.neuron-torchtitan-pretraining"
    assert "time-boxed exception" in to_nxdt[0].description
    assert "validate the serving recipe on neuron-sdk 2.34.0, the newer release" in result.verdict


def test_a_model_quantized_for_a_phone_app_gets_no_serve_bf16_switch_and_tier_3_says_where_qat_runs():
    # Review 134 p15: ExecuTorch quantizes Llama 3.2 3B to 4 bits to fit a phone
    # (https://github.com/pytorch/executorch/blob/main/examples/models/llama/README.md): "serve bf16" is no switch there;
    # and tier 3 printed "llama-cpp [method=qat]" beside a llama.cpp stack rejected for running no QAT.
    result = answer(
        model_type="dense-transformer",
        hardware="arm-cpu",
        device="armv9-mobile-sme2",
        workload="inference",
        team_skill="kernel",
        model="meta-llama/Llama-3.2-3B-Instruct",
        parameters_b=3,
        needs={"quantization": "int4", "quantization_method": "qat", "in_app": True, "devices": 1},
    )
    assert not any(switch.id.endswith("-no-speedup") for switch in result.switch_conditions)
    quantization = next(c for c in result.tier(3).choices if c.concern == "quantization")
    assert quantization.option == "llama-cpp"
    assert quantization.settings["method"].startswith("qat in the training framework")


def test_mindspeed_mm_lora_for_qwen25_vl_fits_and_llama_factorys_reason_does_not_contradict_itself():
    # Review 133 p06: MindSpeed MM's Qwen2.5-VL page documents LoRA (--lora-r, lora_mm_to_hf;
    # https://github.com/Ascend/MindSpeed-MM/blob/master/examples/qwen2.5vl/README.md), and LLaMA-Factory's reason read
    # "documented for dense-transformer, not multimodal (LLaMA-Factory itself lists multimodal models)".
    result = answer(
        model_type="multimodal",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="training",
        training="lora",
        team_skill="framework",
        model="Qwen/Qwen2.5-VL-7B-Instruct",
        needs={"dynamic_shapes": True, "devices": 8},
    )
    chosen = next(row for row in result.stacks_considered if row.chosen)
    assert chosen.stack == "ascend-mindspeed-mm-qwen25vl-finetune" and chosen.fits
    factory = next(row for row in result.stacks_considered if row.stack == "ascend-llamafactory-sft")
    assert factory.reason.startswith("this page runs dense-transformer models only")
    assert "which the page does not show on this platform" in factory.reason


def test_a_setting_with_one_launch_per_format_reads_the_degree_of_the_format_served():
    # Review 134 p06: "layout here=2 replicas of 2 (tensor parallel 2; the command's tensor-parallel degree is 1)" for
    # Qwen3-32B W8A8 on four 910B, where the W8A8 launch runs --tensor-parallel-size 4 and the 1 is the BF16 launch's
    # (https://docs.vllm.ai/projects/ascend/en/latest/tutorials/models/Qwen3-Dense.html).
    from advisor.recommendation.adapt import launch_for_format

    setting = (
        "BF16 weights: vllm serve <bf16 weights> without --quantization ascend, one NPU (--tensor-parallel-size 1); "
        "W8A8 weights: vllm serve --quantization ascend --tensor-parallel-size 4"
    )
    assert "--tensor-parallel-size 4" in launch_for_format(setting, "int8")
    assert "--tensor-parallel-size 1" in launch_for_format(setting, "bf16")
    assert launch_for_format("vllm serve x --tensor-parallel-size 2", "int8") == "vllm serve x --tensor-parallel-size 2"
    result = answer(
        model_type="dense-transformer",
        hardware="ascend-npu",
        device="ascend-910b",
        workload="inference",
        team_skill="kernel",
        model="Qwen/Qwen3-32B",
        parameters_b=32,
        needs={"dynamic_shapes": True, "quantization": "int8", "devices": 4},
    )
    deployment = next(c for c in result.tier(1).choices if c.concern == "deployment")
    assert "the command's tensor-parallel degree is 4" in deployment.settings.get("layout here", "")


def test_a_rival_that_fits_whole_takes_the_throughput_switch_before_a_recipe_for_the_models_kin():
    # Review 133 p01: SGLang's DeepSeek recipe on Blackwell (https://docs.sglang.io/basic_usage/deepseek.html) fits a
    # DeepSeek-V3.1 NVFP4 job as TensorRT-LLM's does, and "a throughput run decides" had no switch for it.
    result = answer(
        model_type="moe",
        hardware="nvidia-gpu",
        device="b200",
        workload="inference",
        team_skill="hpc",
        model="deepseek-ai/DeepSeek-V3.1",
        needs={"quantization": "fp4", "long_context": True, "devices": 8},
    )
    assert chosen_stack(result) == "nvidia-trtllm-deepseek-blackwell"
    assert any(switch.id == "nvidia-sglang-deepseek-fp8-blackwell-faster" for switch in result.switch_conditions)


def test_a_format_left_to_try_names_the_toolkits_whose_checkpoints_the_engine_loads():
    # Review 134 p04: FP8 for Qwen2.5-VL-72B on MI300X was "(none) ... try it" without naming AMD Quark, whose FP8
    # checkpoints vLLM loads (https://docs.vllm.ai/features/quantization/quark.html).
    result = answer(
        model_type="multimodal",
        hardware="amd-gpu",
        device="mi300x",
        workload="inference",
        team_skill="framework",
        model="Qwen/Qwen2.5-VL-72B-Instruct",
        needs={"quantization": "fp8", "devices": 4},
    )
    gap = next(g for g in result.tier(1).gaps if g.concern == "quantization")
    assert "AMD Quark" in gap.rationale[0].text and "checkpoints vLLM loads" in gap.rationale[0].text


def test_a_vendor_requantization_served_in_place_of_the_release_is_gated_against_it():
    # Review 136 p03: AMD's requantized gpt-oss-120b (FP8 activations) served on an MI355X had no accuracy gate and no
    # way back to OpenAI's release, which vLLM's recipe serves as released
    # (https://github.com/vllm-project/recipes/blob/main/OpenAI/GPT-OSS.md).
    result = requantized_route()
    gate = next(switch for switch in result.switch_conditions if switch.id == "requantized-accuracy-drop")
    assert "amd/gpt-oss-120b-w-mxfp4-a-fp8 scores more than 1 point below openai/gpt-oss-120b" in gate.description
    assert "serve openai/gpt-oss-120b as released instead" in gate.description


def test_a_format_no_stack_documents_here_serves_a_documented_stack_in_its_own_format_where_bf16_fits():
    # Review 135 p08: Qwen3-14B-AWQ (int4) on two K100_AI got concerns assembled one by one around an unverified int4
    # path, while Hygon's vLLM cookbook documents bf16 and INT8 W8A8 on the card and the bf16 weights fit.
    result = answer(
        model_type="dense-transformer",
        hardware="hygon-dcu",
        device="k100-ai",
        workload="inference",
        team_skill="framework",
        model="Qwen/Qwen3-14B-AWQ",
        needs={"dynamic_shapes": True, "quantization": "int4", "devices": 2},
    )
    assert chosen_stack(result) == "hygon-vllm-cookbook-k100-ai"
    assert "no stack documents int4 for this profile here" in result.verdict


def test_a_one_device_job_is_told_to_drop_the_commands_collective_settings():
    # Reviews 135-137 p03: the MI355X gpt-oss command's VLLM_ROCM_QUICK_REDUCE_QUANTIZATION=INT4 compresses all-reduce
    # traffic (https://github.com/vllm-project/recipes/blob/main/OpenAI/GPT-OSS.md), which a one-GPU job has none of.
    result = requantized_route()
    deployment = next(c for c in result.tier(1).choices if c.concern == "deployment")
    assert "drop VLLM_ROCM_QUICK_REDUCE_QUANTIZATION, which tunes collectives" in deployment.settings["devices"]


def test_a_stack_for_another_model_says_so_before_its_precision():
    # Review 136 p13: Apple's SpeechAnalyzer was "not chosen: runs fp16; the profile asks int4" for a Whisper profile;
    # it runs Apple's own system-managed model (https://developer.apple.com/documentation/speech/speechanalyzer).
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
    speech = next(row for row in result.stacks_considered if row.stack == "apple-speech-speechanalyzer-in-app")
    assert speech.reason.startswith("written for apple/SpeechTranscriber, not openai/whisper-large-v3-turbo; and runs")
