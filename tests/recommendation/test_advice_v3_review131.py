"""Defects of reviews 127-130 left open last session, and of reviews 131-132, each pinned."""

from __future__ import annotations

from recommendation_builders import answer_for as answer

FLUX_FP8 = {
    "model_type": "diffusion",
    "hardware": "nvidia-gpu",
    "workload": "inference",
    "team_skill": "framework",
    "model": "black-forest-labs/FLUX.1-dev",
    "needs": {"quantization": "fp8", "devices": 1},
}


def chosen_stack(result, workload: str = "inference") -> str:
    return next(row.stack for row in result.stacks_considered if row.chosen and row.workload == workload)


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
