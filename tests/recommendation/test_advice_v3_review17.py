"""Round 17 of the architect's review: no silent assumption of the model or of the other families' devices, and no
edge runtime as the one production runtime on a server family."""

from __future__ import annotations

import yaml

from advisor.knowledge.loader import load_knowledge_base
from advisor.knowledge.stacks import model_matches
from advisor.profile import parse_profile
from advisor.recommendation.engine import recommend
from advisor.recommendation.models import Recommendation
from advisor.serving_estimate import released_in_fp8

DEEPSEEK_ON_B200 = "nvidia-sglang-deepseek-fp8-blackwell"


def answer(**fields: object) -> Recommendation:
    profile = {"workload": "inference", "team_skill": "hpc", **fields}
    return recommend(parse_profile(yaml.safe_dump(profile)), [], load_knowledge_base())


def moe_on_b200(**fields: object) -> Recommendation:
    needs = {"quantization": "fp8", "devices": 8, "long_context": True}
    return answer(**{"model_type": "moe", "hardware": "nvidia-gpu", "device": "b200", "needs": needs, **fields})


def test_a_model_name_covers_its_releases_and_nothing_else():
    assert model_matches("deepseek-ai/DeepSeek-V3", "deepseek-ai/DeepSeek-V3")
    assert not model_matches("deepseek-ai/DeepSeek-V3", "deepseek-ai/DeepSeek-V3.2")  # sparse attention: another model
    assert not model_matches("Qwen/Qwen3", "Qwen/Qwen3.5-27B")
    assert model_matches("deepseek-ai/DeepSeek-V3", "deepseek-ai/DeepSeek-V3-0324")
    assert model_matches("deepseek-ai/DeepSeek-R1", "DeepSeek-R1-0528")  # no organisation: the name alone
    assert not model_matches("deepseek-ai/DeepSeek-V3", "deepseek-ai/DeepSeek-V2-Lite")
    assert not model_matches("Qwen/Qwen3", "Qwen/Qwen2.5-72B")


def test_an_unnamed_moe_takes_a_generic_stack_first_and_a_named_recipe_only_on_an_assumption_it_states():
    # SGLang's DeepSeek page and its attention-backend page: on Blackwell, MLA models default to trtllm_mla and MHA
    # models to trtllm_mha (https://docs.sglang.io/docs/advanced_features/attention_backend), so the recipe's MLA
    # attention holds only for a DeepSeek-style model.
    # SGLang's expert-parallelism page is written for any MoE model and names Blackwell MoE runners
    # (https://docs.sglang.io/docs/advanced_features/expert_parallelism): with no model named on B200, it comes first.
    generic = moe_on_b200()
    assert generic.stacks[0].stack == "nvidia-sglang-moe-ep" and not generic.stacks[0].model_assumed
    assert not any("so one of them is assumed" in note for note in generic.confidence_notes)
    # On B300 vLLM's DeepSeek-V3.2 recipe names the device, the generic SGLang stack only its generation (B200): with
    # no model named, the recipe's model would be an assumption, which weighs more than the generation, so the generic
    # stack comes first and the recipe is considered with that reason.
    result = moe_on_b200(device="b300")
    assert result.stacks[0].stack == "nvidia-sglang-moe-ep" and not result.stacks[0].model_assumed
    recipe = next(o for o in result.stacks_considered if o.stack == "nvidia-vllm-deepseek-v32")
    assert "the profile names no model" in recipe.reason
    named = moe_on_b200(model="deepseek-ai/DeepSeek-V3.1")
    assert named.stacks[0].stack == DEEPSEEK_ON_B200 and not named.stacks[0].model_assumed
    same = moe_on_b200(device="b300", model="deepseek-ai/DeepSeek-V3.2")  # the recipe's model, named: the recipe
    assert same.stacks[0].stack == "nvidia-vllm-deepseek-v32" and same.confidence > result.confidence


def test_a_named_gqa_moe_is_not_served_on_a_deepseek_recipe():
    # NVIDIA's Qwen3 deployment guide for TensorRT-LLM serves Qwen3 MoE models on Hopper and Blackwell
    # (https://nvidia.github.io/TensorRT-LLM/deployment-guide/deployment-guide-for-qwen3-on-trtllm.html)
    # NVIDIA's Dynamo recipe serves Qwen/Qwen3-235B-A22B-FP8 with TensorRT-LLM on B100/B200 (DEEPGEMM MoE backend).
    # On one 8-GPU node the guide's trtllm-serve route, not the Dynamo recipe sized for 16 GPUs (reviews 109/110 p01).
    result = moe_on_b200(model="Qwen/Qwen3-235B-A22B-FP8")
    assert result.stacks[0].stack == "nvidia-trtllm-qwen3-bf16" and not result.stacks[0].model_assumed
    dynamo = next(
        option for option in result.stacks_considered if option.stack == "nvidia-dynamo-trtllm-qwen3-235b-fp8"
    )
    # (since reviews 241/243 p01 the reason says the recipe is 4-GPU workers, two of which fit the node)
    assert not dynamo.chosen and "this job's 8 devices run 2 of them on one node" in dynamo.reason
    # a DeepSeek recipe now ranks after the generic stacks of a near model type, so it may fall off the five shown
    deepseek = [option for option in result.stacks_considered if option.stack == DEEPSEEK_ON_B200]
    assert all(not o.chosen and o.reason.startswith("written for deepseek-ai/DeepSeek-V3") for o in deepseek)


def fine_tuning_on_hygon(**needs: object) -> Recommendation:
    return answer(
        model_type="dense-transformer",
        hardware="hygon-dcu",
        device="k100-ai",
        workload="training",
        team_skill="framework",
        needs={"devices": 8, "cross_platform": True, "other_hardware": ["nvidia-gpu"], **needs},
    )


def test_the_other_familys_device_is_named_or_said_to_be_assumed():
    assumed = next(n.text for n in fine_tuning_on_hygon().tier(3).notes if n.text.startswith("on nvidia-gpu,"))
    assert "(assumed: the family's current generation; name the device in needs.other_devices)" in assumed
    named = fine_tuning_on_hygon(other_devices=["a100-sxm"])
    note = next(n.text for n in named.tier(3).notes if n.text.startswith("on nvidia-gpu,"))
    assert "for the NVIDIA A100" in note and "assumed" not in note and "Blackwell" not in note


def test_an_edge_runtime_is_not_the_one_runtime_of_a_server_family():
    # llama.cpp runs on CUDA, but NVIDIA's documented LLM serving engines are TensorRT-LLM, vLLM and SGLang
    # (nvidia-gpu.serving_engines); a laptop assistant whose production runs on NVIDIA keeps each family's engine.
    result = answer(
        model_type="dense-transformer",
        hardware="apple-silicon",
        device="apple-m4",
        team_skill="framework",
        needs={
            "quantization": "int8",
            "dynamic_shapes": True,
            "cross_platform": True,
            "other_hardware": ["nvidia-gpu"],
        },
    )
    assert "llama-cpp as the one runtime" not in (result.verdict or "")
    assert "each family's own runtime" in (result.verdict or "")
    tier3 = result.tier(3)
    assert not any(choice.concern == "deployment" for choice in tier3.choices)
    gemm = next(gap for gap in tier3.gaps if gap.concern == "gemm").rationale[0].text
    # MLX's CUDA backend is not counted as an NVIDIA family (review 24), so no gemm library spans both families
    assert gemm.startswith(
        "no gemm option in the knowledge base runs on apple-silicon, nvidia-gpu: each platform keeps"
    )
    assert not any(choice.option == "mlx" for choice in tier3.choices)  # MLX is apple-silicon's engine, no NVIDIA one


def test_a_recipe_for_r1_is_one_for_v3_too():
    # vLLM's DeepSeek recipe serves DeepSeek-V3 and R1 alike: one architecture
    # (https://docs.vllm.ai/projects/recipes/en/latest/DeepSeek/DeepSeek-V3.html); review 18 saw the 910C TorchAir
    # recipe for R1 turned away from a V3 profile by name.
    result = answer(
        model_type="moe",
        hardware="ascend-npu",
        device="ascend-910c",
        model="deepseek-ai/DeepSeek-V3",
        needs={"devices": 128, "long_context": True},
    )
    torchair = next(option for option in result.stacks_considered if option.stack == "ascend-torchair-deepseek-r1-a3")
    assert "written for" not in torchair.reason


def test_long_context_asked_where_nothing_documents_it_says_so():
    # Review 18 (TPU v6e, Llama-3.1-70B, long context): the record had no long-context line at all. vLLM's long-context
    # features are documented for its CUDA and ROCm builds; where nothing else documents them (Cambricon's vLLM here)
    # the record says what to measure instead.
    result = answer(
        model_type="dense-transformer",
        hardware="cambricon-mlu",
        team_skill="framework",
        needs={"long_context": True, "devices": 8, "dynamic_shapes": True},
    )
    deployment = next(c for c in result.tier(1).choices if c.concern == "deployment")
    texts = [reason.text for reason in deployment.rationale]
    assert any(text.startswith("long context: no long-sequence feature of") for text in texts), texts


def test_long_context_on_tpu_quotes_the_serving_stacks_own_matrix():
    # Review 42 (p11): the TPU serving stack now carries its plugin's v6e feature matrix (chunked prefill passing,
    # context parallelism untested), so the record quotes that instead of "not in the knowledge base".
    result = answer(
        model_type="dense-transformer",
        hardware="google-tpu",
        device="tpu-v6e",
        team_skill="framework",
        needs={"long_context": True, "devices": 8, "dynamic_shapes": True},
    )
    deployment = next(c for c in result.tier(1).choices if c.concern == "deployment")
    texts = [reason.text for reason in deployment.rationale]
    assert any(text.startswith("long context:") and "chunked prefill" in text for text in texts), texts
    assert not any(text.startswith("long context: no long-sequence feature of") for text in texts), texts


def test_reference_figures_of_dense_layers_do_not_raise_a_moe_records_confidence():
    # aiconfigurator's reference figures time dense GQA layers (8B-70B shapes, 32 query / 8 KV heads); review 18 saw
    # them add a tenth to a DeepSeek-V3 record whose expert GEMMs and MLA attention they do not time.
    moe = moe_on_b200(model="deepseek-ai/DeepSeek-V3")
    assert moe.reference and any("do not raise the confidence" in note for note in moe.confidence_notes)
    dense = answer(model_type="dense-transformer", hardware="nvidia-gpu", device="b200", needs={"quantization": "fp8"})
    assert dense.reference and any("raise the confidence by a tenth" in note for note in dense.confidence_notes)


def test_a_model_released_in_fp8_is_not_asked_for_an_fp8_checkpoint():
    # DeepSeek-V3's weights are FP8 as released (https://docs.sglang.io/docs/basic_usage/deepseek_v3); review 18 saw the
    # serving estimate ask for "an FP8 checkpoint" of it.
    assert released_in_fp8(moe_on_b200(model="deepseek-ai/DeepSeek-V3"))
    # One definition serves the estimate's note and the accuracy switch: a recipe whose model is assumed (the profile
    # names none) is taken as written for it, as the switch takes it; the estimate runs only for a named model.
    assert released_in_fp8(moe_on_b200()) == next(s.released_quantized for s in moe_on_b200().stacks)
    assert not released_in_fp8(moe_on_b200(model="Qwen/Qwen3-30B-A3B"))  # a BF16 release on a BF16-default recipe


def test_a_stack_only_the_vendors_support_channel_ships_or_a_beta_wheel_lowers_the_confidence():
    # Review 18: Cambricon's vllm_mlu stack (SDK and container through Cambricon's support channel only,
    # https://raw.githubusercontent.com/Cambricon/vllm-mlu/v0.11.2-dev/README.md) scored 0.60, above an OpenVINO stack;
    # the Hygon PaddleNLP guide's paddlepaddle-dcu 3.0.0b2 is a beta build.
    cambricon = answer(
        model_type="dense-transformer",
        hardware="cambricon-mlu",
        device="mlu590",
        team_skill="framework",
        needs={"quantization": "int8"},
    )
    assert any(note.endswith("(kb: cambricon-vllm-mlu-serving.restricted)") for note in cambricon.confidence_notes)
    openvino = answer(
        model_type="cnn",
        hardware="x86-cpu",
        device="xeon-6-granite-rapids",
        team_skill="framework",
        needs={"quantization": "int8"},
    )
    assert cambricon.confidence < openvino.confidence
    hygon = answer(
        model_type="dense-transformer",
        hardware="hygon-dcu",
        device="k100-ai",
        workload="training",
        needs={"devices": 8},
    )
    assert "is a preview on its own page" in hygon.confidence_notes[0]


def test_considered_options_are_stacks_for_this_model_where_two_exist():
    # Review 18 (MI300X, dense 70B FP8): "the alternatives list is padded with diffusion and CNN stacks".
    result = answer(
        model_type="dense-transformer",
        hardware="amd-gpu",
        device="mi300x",
        team_skill="framework",
        needs={"quantization": "fp8", "devices": 8},
    )
    others = [option for option in result.stacks_considered if not option.chosen]
    assert others and not any("diffusion" in option.reason or "cnn" in option.reason for option in others), [
        (option.stack, option.reason) for option in others
    ]


def test_tier2_says_what_a_team_writes_on_the_platform():
    # Review 18 (Trn2 training, kernel team): tier 2 named "neuron-sdk" without NKI, the Neuron Kernel Interface
    # (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/nki/index.html).
    result = answer(
        model_type="dense-transformer",
        hardware="aws-neuron",
        device="trn2",
        workload="training",
        team_skill="kernel",
        needs={"devices": 32},
    )
    how = [note.text for note in result.tier(2).notes if note.text.startswith("how, on aws-neuron: ")]
    assert how and "NKI" in how[0]


def test_sdxl_on_a_mac_is_not_offered_mflux_which_does_not_run_it():
    # mflux ports FLUX, Qwen-Image and Z-Image to MLX (https://pypi.org/project/mflux/); reviews 18 and 19 saw it
    # offered for SDXL as "fits as well" and as a switch target.
    result = answer(
        model_type="diffusion",
        hardware="apple-silicon",
        device="apple-m4",
        team_skill="framework",
        model="stabilityai/stable-diffusion-xl-base-1.0",
    )
    # since review 78 p02 the stack says mflux loads nothing outside its own ports, so it is no option for SDXL at all
    assert not any(option.stack == "apple-mflux-image-generation" for option in result.stacks_considered)
    assert not any("mflux" in condition.id for condition in result.switch_conditions)
