"""Review 62's FLUX and Core ML Stable Diffusion defects (p11, p15), each pinned."""

from __future__ import annotations

from recommendation_builders import answer_for as answer

from advisor.knowledge.loader import load_knowledge_base


def test_on_a_card_no_listed_stack_names_the_stack_that_builds_its_engines_there_leads():
    # Review 62 p15 put the NIM (a server) first, as both FLUX.1-dev stacks name only the GeForce RTX 5090 of the RTX
    # PRO 6000 Server's generation. Reviews 110 and 112 p03: the NIM serves engine profiles NVIDIA builds per GPU model
    # (https://docs.nvidia.com/nim/visual-genai/1.0.0/customization.html; the card is not in the 1.1.1 support matrix),
    # and TensorRT for RTX is made for desktops, laptops and workstations
    # (https://docs.nvidia.com/deeplearning/tensorrt-rtx/1.4/installing-tensorrt-rtx/installation-overview.html); TensorRT's
    # demoDiffusion runs FP8 and FP4 FLUX on Blackwell and builds on the card
    # (https://github.com/NVIDIA/TensorRT/blob/main/demo/Diffusion/README.md). Reviews 127 p15 and 130 p03 scored that demo,
    # as the service, 1: Diffusers' torchao FP8 route, recommended with torch.compile on compute capability 8.9 or newer
    # (https://huggingface.co/docs/diffusers/main/en/quantization/torchao), now leads, and the demo stays considered.
    result = answer(
        model_type="diffusion",
        hardware="nvidia-gpu",
        device="rtx-pro-6000-server",
        workload="inference",
        model="black-forest-labs/FLUX.1-dev",
        needs={"quantization": "fp8", "devices": 1},
    )
    rows = {option.stack: option for option in result.stacks_considered}
    assert rows["nvidia-diffusers-torchao-fp8"].chosen and not rows["nvidia-tensorrt-demodiffusion-flux"].chosen
    nim = rows["nvidia-nim-flux1-dev"].reason
    assert "validated on rtx-5090 (RTX Blackwell, as rtx-pro-6000-server)" in nim
    assert "prebuilt by NVIDIA per GPU model" in nim
    assert "built for desktop applications" in rows["nvidia-tensorrt-rtx-flux1-dev"].reason


def test_the_rtx_5090_is_the_rtx_pro_6000_servers_generation():
    # Both compute capability 12.0 (https://developer.nvidia.com/cuda-gpus)
    nvidia = load_knowledge_base().platform("nvidia-gpu")
    geforce, server = nvidia.device("rtx-5090"), nvidia.device("rtx-pro-6000-server")
    assert geforce is not None and server is not None
    assert geforce.generation == server.generation and geforce.architecture == server.architecture == "sm_120"


def test_a_lora_job_serves_on_the_stack_that_loads_its_adapter():
    # demoDiffusion's demo_txt2img_flux.py takes --lora-path (TensorRT 10.10 changelog, FLUX LoRA in FP16 and FP8);
    # the NIM and TensorRT for RTX's demo document no way to load a checkpoint the team trained. Since reviews 127 and 130
    # the Diffusers torchao route serves it: Diffusers fuses the LoRA it trained (fuse_lora) before quantizing.
    result = answer(
        model_type="diffusion",
        hardware="nvidia-gpu",
        device="rtx-pro-6000-server",
        workload="both",
        training="lora",
        model="black-forest-labs/FLUX.1-dev",
        needs={"quantization": "fp8", "devices": 1},
    )
    rows = {option.stack: option for option in result.stacks_considered}
    assert rows["nvidia-diffusers-torchao-fp8"].chosen and "fuse_lora" in result.verdict
    for prebuilt in ("nvidia-nim-flux1-dev", "nvidia-tensorrt-rtx-flux1-dev"):
        assert not rows[prebuilt].chosen and "no way to load the checkpoint this job trains" in rows[prebuilt].reason


def test_core_ml_stable_diffusion_is_written_for_stable_diffusion_models_only():
    # apple/ml-stable-diffusion converts SD 1.x, 2.x, SDXL and SD3 (https://github.com/apple/ml-stable-diffusion#readme)
    flux = answer(
        model_type="diffusion",
        hardware="apple-silicon",
        device="apple-m4",
        workload="inference",
        model="black-forest-labs/FLUX.1-schnell",
        needs={"quantization": "int8", "devices": 1},
    )
    coreml = next(option for option in flux.stacks_considered if option.stack == "apple-coreml-stable-diffusion")
    assert not coreml.chosen and "not black-forest-labs/FLUX.1-schnell" in coreml.reason
    sdxl = answer(
        model_type="diffusion",
        hardware="apple-silicon",
        device="apple-m4",
        workload="inference",
        model="stabilityai/stable-diffusion-xl-base-1.0",
    )
    assert sdxl.stacks[0].stack == "apple-coreml-stable-diffusion"
    # the row of a stack that fits as well names the model the chosen recipe is written for, not its first two
    mps = next(option for option in sdxl.stacks_considered if option.stack == "apple-diffusers-mps-diffusion")
    assert "written for the model named (stabilityai/stable-diffusion-xl-base-1.0)" in mps.reason
