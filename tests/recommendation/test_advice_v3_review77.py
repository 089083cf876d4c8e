"""Reviews 75 and 76's remaining defects and reviews 77 and 78's, each pinned."""

from __future__ import annotations

from recommendation_builders import answer_for as answer

WHISPER_ON_GRAVITON = {
    "model_type": "dense-transformer",
    "hardware": "arm-cpu",
    "device": "graviton4",
    "workload": "inference",
    "team_skill": "kernel",
    "model": "openai/whisper-large-v3-turbo",
    "task": "transcription",
    "needs": {"quantization": "int8", "quantization_method": "ptq", "dynamic_shapes": True},
}


def test_tier2_for_whisper_cpp_on_a_graviton_integrates_kleidiai_not_the_compute_library():
    # Review 76 p15: a kernel team serving whisper.cpp on Graviton4 was pointed at Arm Compute Library, which ggml never
    # calls; ggml's CPU backend has an opt-in KleidiAI path (GGML_CPU_KLEIDIAI, OFF by default,
    # https://github.com/ggml-org/whisper.cpp/blob/master/ggml/CMakeLists.txt).
    result = answer(**WHISPER_ON_GRAVITON)
    tier2 = {choice.concern: choice.option for choice in result.tier(2).choices}
    assert tier2["gemm"] == "kleidiai"
    assert "arm-compute-library" not in tier2.values()


def test_whisper_cpp_on_a_graviton_is_not_called_the_vendors_proven_stack():
    # Review 76 p15: "the stack documented for arm-cpu on the vendor's own libraries: proven, supported" over ggml's
    # own kernels, and "documented for graviton4" for a README that names no Graviton part.
    result = answer(**WHISPER_ON_GRAVITON)
    note = " ".join(r.text for r in result.tier(1).notes)
    assert "whisper.cpp (ggml-org)'s own kernels rather than the vendor's libraries" in note
    assert "proven" not in note
    backing = result.confidence_notes[0]
    assert "names no device of the family, so graviton4 is one it runs on, not one it was validated on" in backing


def test_a_runtime_that_compiles_nothing_gets_no_recompilation_switch():
    # Review 76 p15: "dynamic compile still recompiles > 4 per 100 requests: bucket the shapes" for whisper.cpp, which
    # decodes any length in 30-second windows and compiles nothing at run time.
    result = answer(**WHISPER_ON_GRAVITON)
    shapes = next(choice for choice in result.tier(1).choices if choice.concern == "dynamic-shapes")
    assert shapes.settings["mode"] == "audio-windows"
    assert not any("recompile" in switch.id for switch in result.switch_conditions)


def test_an_independent_runner_on_the_vendors_libraries_says_whose_it_is():
    # Review 76 p13: mflux was presented as "the vendor's own libraries: proven, supported" though Apple's platform
    # data calls it a community project (https://github.com/filipstrand/mflux#readme).
    result = answer(
        model_type="diffusion",
        hardware="apple-silicon",
        workload="inference",
        model="black-forest-labs/FLUX.1-schnell",
    )
    assert any(c.concern == "deployment" and c.option == "mflux" for c in result.tier(1).choices)
    note = " ".join(r.text for r in result.tier(1).notes)
    assert "on the vendor's own libraries under mflux" in note
    assert "not an Apple product" in note


def test_a_vendor_runtime_keeps_the_proven_note():
    result = answer(model_type="cnn", hardware="x86-cpu", workload="inference", model="microsoft/resnet-50")
    note = " ".join(r.text for r in result.tier(1).notes)
    assert "rather than the vendor's libraries" not in note and "under" not in note


def test_a_kernel_part_tied_to_the_stacks_generation_is_not_carried_to_another():
    # Review 78 p07: Qwen3-14B FP8 on an RTX 5090 took vLLM's Hopper FP8 stack and with it "FlashAttention 3 ... FA3 is
    # the default version on Hopper"; FlashAttention 3 targets Hopper (https://github.com/Dao-AILab/flash-attention),
    # and vLLM chooses its attention backend per compute capability.
    result = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="rtx-5090",
        workload="inference",
        model="Qwen/Qwen3-14B",
        needs={"quantization": "fp8", "long_context": True},
    )
    attention = next(choice for choice in result.tier(1).choices if choice.concern == "attention")
    assert "FlashAttention 3" not in attention.settings.get("part", "")
    assert "which is for the generation it was validated on, not RTX Blackwell" in attention.rationale[0].text
    on_hopper = answer(
        model_type="dense-transformer",
        hardware="nvidia-gpu",
        device="h100-sxm",
        workload="inference",
        model="Qwen/Qwen3-14B",
        needs={"quantization": "fp8", "long_context": True},
    )
    kept = next(choice for choice in on_hopper.tier(1).choices if choice.concern == "attention")
    assert "part" in kept.settings  # the stack's own attention part, on the generation it was validated on
    assert not any("for the generation it was validated on" in r.text for r in kept.rationale)


def test_a_fine_tuning_tools_recipe_for_a_text_model_serves_a_vision_language_job_in_part():
    # Review 78 p08: Qwen2.5-VL-7B LoRA on 4 x Hygon K100_AI got no trainer, the LLaMA-Factory DCU recipe rejected as
    # "documented for dense-transformer, not multimodal"; LLaMA-Factory's own model table lists Qwen2.5-VL
    # (https://github.com/hiyouga/LLaMA-Factory#supported-models).
    result = answer(
        model_type="multimodal",
        hardware="hygon-dcu",
        device="k100-ai",
        workload="training",
        training="lora",
        model="Qwen/Qwen2.5-VL-7B-Instruct",
        needs={"devices": 4},
    )
    chosen = next(row for row in result.stacks_considered if row.chosen)
    assert chosen.stack == "hygon-llamafactory-das-community-k100-ai"
    assert "itself lists multimodal models" in chosen.reason
    assert "a partial fit" in result.verdict
    assert any(c.concern == "training-framework" and c.option == "llama-factory" for c in result.tier(1).choices)
