"""The model-size catalogue (advisor/data/models.yaml): sourced sizes for ids that state none, or only the active one."""

from __future__ import annotations

import datetime as dt

import pytest
import yaml
from pydantic import ValidationError

from advisor.knowledge.model_sizes import (
    ModelSize,
    catalogued_release,
    layout_sibling,
    model_sizes,
    published_checkpoints,
    published_fp8,
    shared_architecture,
    size_of,
    size_sibling,
    vendor_fp8,
    written_for,
)
from advisor.profile import parse_profile
from advisor.recommendation.capacity import model_parameters_b, size_citation


def profile(model: str, **extra: object):
    fields = {"model_type": "moe", "hardware": "nvidia-gpu", "workload": "inference", "team_skill": "framework"}
    return parse_profile(yaml.safe_dump({**fields, "model": model, **extra}))


def test_every_entry_has_a_public_source_and_a_unique_id():
    ids = [entry.id for entry in model_sizes()]
    assert len(ids) == len(set(ids)) and ids
    assert all(entry.source.startswith("https://") for entry in model_sizes())


def test_a_catalogued_model_is_sized_from_its_card_before_its_id():
    # Llama 4 Scout's id states its active 17B; its card gives 109B in total (review 30: a known 1T Kimi model was
    # "not checked").
    assert model_parameters_b(profile("meta-llama/Llama-4-Scout-17B-16E-Instruct")) == 109
    assert model_parameters_b(profile("moonshotai/Kimi-K2-Thinking")) == 1000
    cite = size_citation(profile("moonshotai/Kimi-K2-Thinking"))
    assert cite.kind == "knowledge" and cite.figure == "1000B, 32B active" and cite.source.startswith("https://")


def test_a_longer_id_is_matched_before_the_one_it_extends_and_a_profile_size_wins():
    entry = size_of("zai-org/GLM-4.5-Air-FP8")
    assert entry is not None and entry.parameters_b == 106
    assert model_parameters_b(profile("zai-org/GLM-4.5-Air", parameters_b=100)) == 100
    assert model_parameters_b(profile("Qwen/Qwen3-32B")) == 32  # not catalogued: the size its id states
    assert size_of("acme/unknown-model") is None


def test_an_entry_without_a_public_source_is_refused():
    with pytest.raises(ValidationError, match="not a public URL"):
        ModelSize(id="acme/model", parameters_b=1, source="our wiki", as_of=dt.date(2026, 12, 4))


def test_a_release_naming_a_size_of_its_own_is_another_model():
    # DeepSeek-R1-Distill-Llama-70B is a Llama 3.3 70B fine-tune (its card), not the 671B DeepSeek-R1: it was sized
    # as 671B, and DeepSeek-R1 recipes counted as written for it.
    assert size_of("deepseek-ai/DeepSeek-R1-Distill-Llama-70B") is None
    assert model_parameters_b(profile("deepseek-ai/DeepSeek-R1-Distill-Llama-70B")) == 70
    assert not written_for(["deepseek-ai/DeepSeek-R1"], "deepseek-ai/DeepSeek-R1-Distill-Llama-70B")
    assert written_for(["deepseek-ai/DeepSeek-R1"], "deepseek-ai/DeepSeek-R1-FP8")
    assert written_for(["Qwen/Qwen3"], "Qwen/Qwen3-32B")  # an uncatalogued family listing covers its sizes


def test_a_release_keeping_an_earlier_architecture_is_configured_by_its_recipe_but_is_not_it():
    # torchtune builds Llama 3.3 70B with the Llama 3.1 70B builders ("identical models apart from the checkpoints");
    # DeepSeek-R1-0528 is a minor version upgrade of R1 run as R1's repository says (its card).
    llama = shared_architecture(["meta-llama/Llama-3.1"], "meta-llama/Llama-3.3-70B-Instruct")
    assert llama is not None and llama.architecture == "meta-llama/Llama-3.1-70B" and llama.direct
    assert "torchtune" in llama.sources[0]
    assert not written_for(["deepseek-ai/DeepSeek-R1"], "deepseek-ai/DeepSeek-R1-0528")
    assert shared_architecture(["deepseek-ai/DeepSeek-R1"], "deepseek-ai/DeepSeek-R1-0528") is not None
    assert written_for(["deepseek-ai/DeepSeek-R1-0528"], "deepseek-ai/DeepSeek-R1-0528")
    assert shared_architecture(["deepseek-ai/DeepSeek-R1-0528"], "deepseek-ai/DeepSeek-R1-0528") is None
    assert shared_architecture(["Qwen/Qwen3"], "meta-llama/Llama-3.3-70B-Instruct") is None
    # DeepSeek-V3.1 is built on the original V3 base checkpoint and R1 is trained from V3-Base (their cards): an R1
    # recipe configures V3.1 through the architecture both keep.
    kin = shared_architecture(["deepseek-ai/DeepSeek-R1"], "deepseek-ai/DeepSeek-V3.1")
    assert kin is not None and kin.architecture == "deepseek-ai/DeepSeek-V3" and not kin.direct
    assert len(kin.sources) == 2


def test_a_publishers_fp8_checkpoint_belongs_to_that_exact_release():
    # Qwen publishes an FP8 twin of each Qwen3 release (https://huggingface.co/collections/Qwen/qwen3): the twin of
    # Qwen3-30B-A3B is not the twin of Qwen3-30B-A3B-Instruct-2507, which holds other weights.
    base = published_fp8("qwen/qwen3-30b-a3b")
    assert base is not None and base.checkpoint == "Qwen/Qwen3-30B-A3B-FP8"
    release = published_fp8("Qwen/Qwen3-30B-A3B-Instruct-2507")
    assert release is not None and release.checkpoint == "Qwen/Qwen3-30B-A3B-Instruct-2507-FP8"
    assert published_fp8("Qwen/Qwen3-30B-A3B-Base") is None
    assert published_fp8("Qwen/Qwen2.5-7B-Instruct") is None


def test_every_fp8_checkpoint_is_its_models_id_with_the_fp8_suffix_and_listed_once():
    entries = published_checkpoints()
    assert entries, "advisor/data/published_checkpoints.yaml is empty"
    publishers = [entry for entry in entries if entry.family is None]
    models = [(entry.model.lower(), entry.precision) for entry in publishers]
    assert len(models) == len(set(models))
    # a publisher's FP8 release is the model's id with -FP8; its weight-only INT8 one with -GPTQ-Int8
    # (https://huggingface.co/Qwen/Qwen2.5-7B-Instruct-GPTQ-Int8)
    suffixes = {"fp8": "-FP8", "int8": "-GPTQ-Int8"}
    for entry in publishers:
        assert entry.checkpoint == f"{entry.model}{suffixes[entry.precision]}", entry.model
    # A hardware vendor's own release (family set) is under the vendor's name, once per model, family and format:
    # amd/Llama-3.3-70B-Instruct-FP8-KV (https://huggingface.co/amd/Llama-3.3-70B-Instruct-FP8-KV) beside
    # amd/Llama-3.3-70B-Instruct-MXFP4-Preview (https://huggingface.co/amd/Llama-3.3-70B-Instruct-MXFP4-Preview).
    vendors = [(entry.model.lower(), entry.family, entry.precision) for entry in entries if entry.family is not None]
    assert len(vendors) == len(set(vendors))
    # A 4-bit float release is in the format of its vendor's devices: NVIDIA's NVFP4, AMD's MXFP4.
    for entry in entries:
        if entry.precision not in ("fp8", "int8"):
            assert (entry.family, entry.precision) in {("nvidia-gpu", "nvfp4"), ("amd-gpu", "mxfp4")}, entry.checkpoint
    for entry in entries:
        if entry.family is not None:
            assert entry.checkpoint.split("/")[0] != entry.model.split("/")[0], entry.checkpoint
            assert entry.model.split("/")[1].lower() in entry.checkpoint.lower(), entry.checkpoint


def test_a_hardware_vendors_fp8_release_is_read_only_for_its_family():
    # AMD's Quark FP8-KV checkpoint and NVIDIA's Model Optimizer FP8 checkpoint of Llama 3.3 70B Instruct
    # (https://huggingface.co/amd/Llama-3.3-70B-Instruct-FP8-KV, https://huggingface.co/nvidia/Llama-3.3-70B-Instruct-FP8)
    # are each for their own devices; neither is Meta's release.
    assert published_fp8("meta-llama/Llama-3.3-70B-Instruct") is None
    amd = vendor_fp8("meta-llama/Llama-3.3-70B-Instruct", "amd-gpu")
    assert amd is not None and amd.checkpoint == "amd/Llama-3.3-70B-Instruct-FP8-KV"
    nvidia = vendor_fp8("meta-llama/Llama-3.3-70B-Instruct", "nvidia-gpu")
    assert nvidia is not None and nvidia.checkpoint == "nvidia/Llama-3.3-70B-Instruct-FP8"
    assert vendor_fp8("meta-llama/Llama-3.3-70B-Instruct", "intel-gaudi") is None


def test_a_recipe_for_the_instruction_tuned_release_is_written_for_its_base_model():
    # Review 49 p07: a LoRA of meta-llama/Meta-Llama-3-8B on a LLaMA-Factory recipe written for
    # Meta-Llama-3-8B-Instruct was called a partial fit; the Instruct release keeps the base model's architecture and
    # size (https://huggingface.co/meta-llama/Meta-Llama-3-8B-Instruct, "Llama 3 ... pretrained and instruction tuned
    # generative text models in 8 and 70B sizes").
    assert written_for(["meta-llama/Meta-Llama-3-8B-Instruct"], "meta-llama/Meta-Llama-3-8B")
    assert not written_for(["meta-llama/Meta-Llama-3-8B-Instruct"], "meta-llama/Meta-Llama-3-70B")
    assert not written_for(["Qwen/Qwen3-235B-A22B-FP8"], "Qwen/Qwen3-235B-A22B")


@pytest.mark.parametrize(
    ("listed", "model", "sibling"),
    [
        (
            ["Qwen/Qwen2.5-VL-7B-Instruct", "Qwen/Qwen2.5-VL-72B-Instruct"],
            "Qwen/Qwen2.5-VL-32B-Instruct",
            "Qwen/Qwen2.5-VL-7B-Instruct",
        ),
        (["Qwen/Qwen3-235B-A22B"], "Qwen/Qwen3-30B-A3B", "Qwen/Qwen3-235B-A22B"),
        (["meta-llama/Llama-3.1-70B-Instruct"], "Llama-3.1-8B-Instruct", "meta-llama/Llama-3.1-70B-Instruct"),
        # not a sibling: the model itself, another series, another organisation's build, or no size in the name
        (["Qwen/Qwen2.5-VL-7B-Instruct"], "Qwen/Qwen2.5-VL-7B-Instruct", None),
        (["Qwen/Qwen2.5-VL-7B-Instruct"], "Qwen/Qwen2.5-7B-Instruct", None),
        (["Qwen/Qwen2.5-VL-7B-Instruct"], "Qwen/Qwen3-VL-32B-Instruct", None),
        (["vllm-ascend/Qwen3-235B-A22B-W8A8"], "Qwen/Qwen3-30B-A3B", None),
        (["deepseek-ai/DeepSeek-V3"], "deepseek-ai/DeepSeek-R1", None),
        (["meta-llama/Llama-3.2-1B", "meta-llama/Llama-3.2-3B"], "meta-llama/Llama-3.2-1B", None),
    ],
)
def test_another_size_of_the_same_series_is_a_sibling_by_its_id(listed, model, sibling):
    # review 57 p05: vllm-ascend's Qwen2.5-VL W8A8 recipe lists the 7B and 72B; the 32B differs only in its size
    assert size_sibling(listed, model) == sibling


def test_flux_1_is_sized_from_its_card_and_stays_the_family_mflux_is_written_for():
    # Review 65 p15: a FLUX LoRA on two RTX 5090s got "capacity: not checked: ... states no size in its id"; the
    # FLUX.1 [dev] card (https://huggingface.co/black-forest-labs/FLUX.1-dev) gives 12 billion parameters.
    assert model_parameters_b(profile("black-forest-labs/FLUX.1-dev", model_type="diffusion")) == 12
    assert model_parameters_b(profile("black-forest-labs/FLUX.1-schnell", model_type="diffusion")) == 12
    assert written_for(["black-forest-labs/FLUX.1"], "black-forest-labs/FLUX.1-schnell")


def test_a_hardware_vendors_four_bit_release_is_found_by_its_format():
    # Review 91: an fp4 ask for DeepSeek-V3.1 on B200 names NVIDIA's NVFP4 checkpoint of it
    # (https://huggingface.co/nvidia/DeepSeek-V3.1-NVFP4); AMD's MXFP4 one of DeepSeek-R1 is for Instinct
    # (https://huggingface.co/amd/DeepSeek-R1-MXFP4/blob/main/README.md). Neither is an FP8 release.
    nvidia = catalogued_release("deepseek-ai/DeepSeek-V3.1", "nvidia-gpu", ("nvfp4", "mxfp4"))
    assert nvidia is not None and nvidia.checkpoint == "nvidia/DeepSeek-V3.1-NVFP4"
    amd = catalogued_release("deepseek-ai/DeepSeek-R1", "amd-gpu", ("nvfp4", "mxfp4"))
    assert amd is not None and amd.checkpoint == "amd/DeepSeek-R1-MXFP4"
    assert catalogued_release("deepseek-ai/DeepSeek-V3.1", "amd-gpu", ("nvfp4", "mxfp4")) is None
    assert vendor_fp8("deepseek-ai/DeepSeek-V3.1", "nvidia-gpu") is None
    fp8 = vendor_fp8("meta-llama/Llama-3.3-70B-Instruct", "nvidia-gpu")
    assert fp8 is not None and fp8.checkpoint == "nvidia/Llama-3.3-70B-Instruct-FP8"


def test_a_restricted_licence_covers_the_named_release_and_its_releases_only():
    from advisor.knowledge.model_sizes import restricted_licence

    dev = restricted_licence("black-forest-labs/FLUX.1-dev")
    assert dev is not None and "Non-Commercial" in dev.licence and dev.source.startswith("https://huggingface.co/")
    assert restricted_licence("black-forest-labs/FLUX.1-schnell") is None
    assert restricted_licence("Qwen/Qwen3-8B") is None


def test_the_moe_size_of_a_dense_models_series_is_its_layout_sibling():
    listed = ["Qwen/Qwen2.5-VL-7B-Instruct", "Qwen/Qwen3-VL-235B-A22B-Instruct"]
    assert layout_sibling(listed, "Qwen/Qwen3-VL-8B-Instruct") == "Qwen/Qwen3-VL-235B-A22B-Instruct"
    assert (
        layout_sibling(["Qwen/Qwen3-VL-8B-Instruct"], "Qwen/Qwen3-VL-30B-A3B-Instruct") == "Qwen/Qwen3-VL-8B-Instruct"
    )


def test_another_size_in_the_same_layout_or_another_series_is_no_layout_sibling():
    assert layout_sibling(["Qwen/Qwen3-VL-4B-Instruct"], "Qwen/Qwen3-VL-8B-Instruct") is None
    assert layout_sibling(["Qwen/Qwen2.5-VL-72B-Instruct"], "Qwen/Qwen3-VL-8B-Instruct") is None
    assert layout_sibling(["Qwen/Qwen3-VL-8B-Instruct"], "Qwen/Qwen3-VL-8B-Instruct") is None


def test_context_windows_name_the_extension_for_the_cards_models_only():
    # Qwen3's cards: "32,768 natively and 131,072 tokens with YaRN" (https://huggingface.co/Qwen/Qwen3-8B); the -2507
    # releases state 262,144 natively (https://huggingface.co/Qwen/Qwen3-30B-A3B-Instruct-2507), so they are excluded
    from advisor.knowledge.model_sizes import context_window, context_windows

    assert all(entry.source.startswith("https://huggingface.co/Qwen/") for entry in context_windows())
    window = context_window("Qwen/Qwen3-235B-A22B-FP8")
    assert window is not None and (window.native_tokens, window.extended_tokens) == (32768, 131072)
    assert "yarn" in window.extension
    assert context_window("Qwen/Qwen3-30B-A3B-Instruct-2507") is None
    assert context_window("meta-llama/Llama-3.1-8B-Instruct") is None
