"""The transcription task: a speech-recognition model (Whisper) is served on a transcription endpoint, so only stacks
and runtimes that document speech transcription serve it (review 33 p13: Whisper got OpenVINO Model Server's
text-generation pipeline and llama.cpp as its portable runtime)."""

from __future__ import annotations

import pytest
import yaml
from recommendation_builders import answer_for as answer

from advisor.knowledge.loader import load_knowledge_base
from advisor.profile import ProfileError, parse_profile
from advisor.serving_task import serving_task

WHISPER = {
    "model_type": "dense-transformer",
    "hardware": "x86-cpu",
    "workload": "inference",
    "model": "openai/whisper-large-v3",
    "needs": {"quantization": "int8", "cross_platform": True, "other_hardware": ["arm-cpu"]},
}


# Whisper-small in INT8 on an SME2 Android phone, the same model on Macs: review 34 and 35's p13/p15.
WHISPER_ON_A_PHONE_AND_A_MAC = {
    "model_type": "dense-transformer",
    "hardware": "arm-cpu",
    "device": "armv9-mobile-sme2",
    "workload": "inference",
    "team_skill": "kernel",
    "model": "openai/whisper-small",
    "needs": {"quantization": "int8", "cross_platform": True, "other_hardware": ["apple-silicon"]},
}


def test_a_whisper_id_is_taken_as_transcription_and_a_stated_task_wins():
    assert serving_task(None, "openai/whisper-large-v3") == ("transcription", True)
    assert serving_task(None, "distil-whisper/distil-large-v3") == ("transcription", True)
    assert serving_task("generation", "openai/whisper-large-v3") == ("generation", False)
    assert serving_task(None, "Qwen/Qwen3-8B") == ("generation", False)


def test_transcription_is_read_only_for_a_served_dense_transformer():
    fields = {"model_type": "moe", "hardware": "x86-cpu", "workload": "inference", "team_skill": "framework"}
    with pytest.raises(ProfileError, match=r"task: 'transcription' is read only with model_type dense-transformer"):
        parse_profile(yaml.safe_dump({**fields, "task": "transcription"}))


def test_only_what_documents_transcription_serves_whisper():
    result = answer(**WHISPER)
    knowledge = load_knowledge_base()
    stacks = {stack.id: stack for stack in knowledge.stacks}
    for option in result.stacks_considered:
        if option.workload == "inference":
            assert stacks[option.stack].serves_task("transcription"), option.stack
    deployments = [c.option for tier in result.tiers for c in tier.choices if c.concern == "deployment"]
    assert all(
        knowledge.get(option).serves_task("transcription") for option in deployments if option in knowledge.ids()
    )
    assert "llama-cpp" not in deployments  # llama.cpp documents no speech endpoint (whisper.cpp is another project)
    assert "Task: transcription, assumed from the model name openai/whisper-large-v3" in result.verdict


def test_a_cross_platform_whisper_job_on_x86_and_arm_servers_gets_whisper_cpp_in_tier_3():
    # whisper.cpp documents CPU-only transcription with AVX on x86 and NEON on Arm, integer-quantized ggml models
    # (q8_0) and a Docker image for linux/amd64 and linux/arm64 (github.com/ggml-org/whisper.cpp#docker); review 33
    # found no runtime for speech on both families before it was recorded for arm-cpu (review 45 p15).
    result = answer(**WHISPER, device="xeon-6-granite-rapids")
    tier3 = result.tier(3)
    options = {c.concern: c.option for c in tier3.choices}
    assert options["deployment"] == "whisper-cpp" and options["quantization"] == "whisper-cpp"
    assert not any(g.concern == "deployment" for g in tier3.gaps)
    arm = next(note.text for note in tier3.notes if note.text.startswith("on arm-cpu,"))
    assert "whisper.cpp" in arm and "onnxruntime" not in arm


def test_a_phone_and_a_mac_get_whisper_cpp_in_tier_3_and_no_server_runtime():
    # Arm documents Whisper on Android with ExecuTorch (learn.arm.com/learning-paths/mobile-graphics-and-gaming/
    # ai-portal-audio-to-text/); whisper.cpp documents both an Android app (github.com/ggml-org/whisper.cpp/blob/master/
    # examples/whisper.android/README.md) and Metal on Apple silicon, with the same q8_0 ggml models, so it is the one
    # runtime documented on both (review 57 p15). Review 34 p13 got vLLM "on phones and Macs".
    result = answer(**WHISPER_ON_A_PHONE_AND_A_MAC)
    options = {c.option for c in result.tier(1).choices}
    assert "executorch" in options and not options & {"vllm", "openvino", "sglang"}
    tier3 = {c.concern: c.option for c in result.tier(3).choices}
    assert tier3["deployment"] == "whisper-cpp" and tier3["quantization"] == "whisper-cpp"
    assert not any(g.concern == "deployment" for g in result.tier(3).gaps)


def test_whisper_on_a_phone_keeps_the_kernel_route_and_each_familys_own_runtime():
    # KleidiAI is a kernel library (github.com/ARM-software/kleidiai), no server: it serves any task; review 35 p15 got
    # "no deep self-development candidate for arm-cpu" for a kernel team and "arm-cpu: openvino" as the phone's runtime,
    # and a long-context switch for Whisper's 30-second windows.
    result = answer(**WHISPER_ON_A_PHONE_AND_A_MAC)
    assert any(c.option == "kleidiai" for c in result.tier(2).choices)
    deployment = next(c for c in result.tier(3).choices if c.concern == "deployment")
    documented = " ".join(r.text for r in deployment.rationale)
    assert (
        "arm-cpu: whisper.cpp (examples/whisper.android)" in documented and "apple-silicon: whisper.cpp" in documented
    )
    assert not any(s.id == "long-context-needed" for s in result.switch_conditions)


def test_whisper_int8_on_graviton_takes_the_quantized_whisper_cpp_stack_over_the_float_one():
    # Arm's learning path runs Whisper with Transformers in BF16 fast math on Graviton (learn.arm.com/learning-paths/
    # servers-and-cloud-computing/whisper/); whisper.cpp documents q8_0 ggml models CPU-only on Arm Linux
    # (github.com/ggml-org/whisper.cpp#quantization, #docker). Review 37 p15 got oneDNN INT8, vLLM CPU and torchao
    # assembled; review 45 p15 got the BF16 path with no quantization for an INT8 ask.
    result = answer(
        model_type="dense-transformer",
        hardware="arm-cpu",
        device="graviton4",
        workload="inference",
        team_skill="kernel",
        model="openai/whisper-large-v3-turbo",
        needs={"quantization": "int8"},
    )
    chosen = next(option for option in result.stacks_considered if option.chosen)
    assert chosen.stack == "arm-whisper-cpp-graviton"
    floating = next(o for o in result.stacks_considered if o.stack == "arm-transformers-whisper-graviton")
    # Arm's page validates this very model in BF16 (review 77: a model's own float recipe states why it is not taken)
    assert not floating.chosen and "int8 is not validated for it there, so it would serve in bf16" in floating.reason
    # where nothing fits, tier 1 says it is assembled, not "proven, supported" (an INT8 CNN on an Inf2: no Neuron page
    # serves a CNN there; on a 310P the FP16 ResNet-50 recipe is now a near fit through ATC's INT8 toolchain, review 104)
    assembled = answer(
        model_type="cnn",
        hardware="aws-neuron",
        device="inf2",
        workload="inference",
        parameters_b=0.03,
        needs={"quantization": "int8"},
    )
    assert not any(option.chosen for option in assembled.stacks_considered)
    assert "no documented stack fits this profile" in assembled.tier(1).notes[0].text
