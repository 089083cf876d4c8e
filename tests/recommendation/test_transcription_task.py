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
