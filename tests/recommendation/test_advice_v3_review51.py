"""Review 51's defects (p03 FLUX.1-dev served as an API, p13 WhisperKit for an app), each pinned."""

from __future__ import annotations

from recommendation_builders import answer_for as answer


def test_flux_served_in_fp8_on_an_l40s_runs_the_nim_container_not_the_demo_script():
    # Review 51 p03: NVIDIA's NIM for Visual Generative AI serves FLUX.1-dev over HTTP with FP8 TensorRT engines on the
    # L40S (https://docs.nvidia.com/nim/visual-genai/1.1.1/support-matrix.html); demoDiffusion is a demo script.
    result = answer(
        model_type="diffusion",
        hardware="nvidia-gpu",
        device="l40s",
        workload="inference",
        model="black-forest-labs/FLUX.1-dev",
        parameters_b=12,
        needs={"quantization": "fp8", "devices": 1},
    )
    chosen = next(row for row in result.stacks_considered if row.chosen)
    assert chosen.stack == "nvidia-nim-flux1-dev"
    assert "nvidia-tensorrt-demodiffusion-flux" in {row.stack for row in result.stacks_considered}


def test_a_job_that_serves_the_flux_lora_it_trains_is_not_given_a_container_of_prebuilt_engines():
    # The NIM serves NVIDIA's prebuilt FLUX.1-dev profiles; its pages document no way to load a fine-tuned
    # checkpoint, while demoDiffusion loads a FLUX LoRA with --lora-path
    # (https://github.com/NVIDIA/TensorRT/blob/release/11.0/demo/Diffusion/README.md).
    result = answer(
        model_type="diffusion",
        hardware="nvidia-gpu",
        device="l40s",
        workload="both",
        training="lora",
        model="black-forest-labs/FLUX.1-dev",
        parameters_b=12,
        needs={"quantization": "fp8", "devices": 1},
    )
    # Since reviews 127 and 130 Diffusers' torchao FP8 route serves it, fusing the LoRA before quantizing
    # (https://huggingface.co/docs/diffusers/main/en/tutorials/using_peft_for_inference); demoDiffusion stays considered.
    rows = {row.stack: row for row in result.stacks_considered if row.workload == "inference"}
    assert rows["nvidia-diffusers-torchao-fp8"].chosen and not rows["nvidia-tensorrt-demodiffusion-flux"].chosen
    assert not rows["nvidia-nim-flux1-dev"].chosen
    assert "prebuilt weights" in rows["nvidia-nim-flux1-dev"].reason


def test_whisper_on_an_m4_mac_considers_whisperkit():
    # Review 51 p13: WhisperKit (Core ML, Swift package) is the on-device route for an app; its model-support table
    # lists M1 to M4 Macs (https://github.com/argmaxinc/argmax-oss-swift/blob/main/Sources/WhisperKit/Core/Models.swift).
    result = answer(
        model_type="dense-transformer",
        hardware="apple-silicon",
        device="apple-m4",
        workload="inference",
        task="transcription",
        model="openai/whisper-large-v3",
        needs={"devices": 1},
    )
    assert "apple-whisperkit-coreml" in {row.stack for row in result.stacks_considered}
