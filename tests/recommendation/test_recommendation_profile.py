"""The Profile: the documented example, defaults, YAML or JSON by content, one-line errors with field paths."""

from __future__ import annotations

import json

import pytest

from advisor.profile import Profile, ProfileError, load_profile, parse_profile

EXAMPLE = """\
model_type: dense-transformer   # dense-transformer | moe | multimodal | diffusion | cnn
hardware: nvidia-gpu            # nvidia-gpu | ascend-npu | cambricon-mlu | hygon-dcu | iluvatar-gpu | x86-cpu | arm-cpu
workload: inference             # training | inference | both
team_skill: framework           # framework | kernel | hpc
needs:
  dynamic_shapes: false
  quantization: none            # none | int8 | fp8
  quantization_method: ptq      # ptq | qat (only with int8/fp8)
  long_context: false
  devices: 1
  cross_platform: false
title: optional free text
"""


def test_the_documented_example_loads(tmp_path):
    path = tmp_path / "profile.yaml"
    path.write_text(EXAMPLE)
    profile = load_profile(path)
    assert profile.model_type == "dense-transformer" and profile.hardware == "nvidia-gpu"
    assert profile.needs.quantization == "none" and profile.needs.devices == 1
    assert profile.title == "optional free text"
    assert profile.serves and not profile.trains and not profile.needs.quantized


def test_json_is_told_apart_by_content(tmp_path):
    path = tmp_path / "profile.txt"
    needs = {"devices": 8, "quantization": "int8", "quantization_method": "qat"}
    document = {"model_type": "moe", "hardware": "ascend-npu", "workload": "both", "team_skill": "hpc", "needs": needs}
    path.write_text(json.dumps(document))
    profile = load_profile(path)
    assert profile.needs.devices == 8 and profile.needs.quantization_method == "qat"
    assert profile.trains and profile.serves


def test_needs_default_to_the_simplest_case():
    profile = parse_profile("model_type: cnn\nhardware: x86-cpu\nworkload: training\nteam_skill: kernel\n")
    assert profile.needs == Profile.model_fields["needs"].default
    assert (profile.needs.devices, profile.needs.long_context, profile.title) == (1, False, None)


def test_quantization_method_is_ignored_without_quantization():
    # Documented choice: with quantization none the method is accepted and means nothing.
    profile = parse_profile(EXAMPLE.replace("quantization_method: ptq", "quantization_method: qat"))
    assert not profile.needs.quantized


# (text in the example, its replacement, the message after "<path>: ")
ERRORS = [
    ("quantization: none", "quantization: int2", "needs.quantization: 'int2' is not one of none, int8, fp8, int4, fp4"),
    (
        "hardware: nvidia-gpu",
        "hardware: tpu",
        "hardware: 'tpu' is not one of amd-gpu, apple-silicon, arm-cpu, ascend-npu, aws-neuron, cambricon-mlu, google-tpu, hygon-dcu, iluvatar-gpu, intel-gaudi, nvidia-gpu, x86-cpu",
    ),
    ("team_skill: framework", "team_skill: expert", "team_skill: 'expert' is not one of framework, kernel, hpc"),
    ("workload: inference", "workload: serving", "workload: 'serving' is not one of training, inference, both"),
    ("quantization_method: ptq", "quantization_method: awq", "needs.quantization_method: 'awq' is not one of ptq, qat"),
    ("devices: 1", "devices: 0", "needs.devices: Input should be greater than or equal to 1 (got 0)"),
    ("devices: 1", "devices: two", "needs.devices: Input should be a valid integer (got 'two')"),
    ("long_context: false", "long_context: maybe", "needs.long_context: Input should be a valid boolean (got 'maybe')"),
    (
        "  devices: 1",
        "  devices: 1\n  gpus: 2",
        "needs.gpus: unknown field; known fields: dynamic_shapes, quantization, quantization_method, long_context, "
        "devices, in_app, cross_platform, other_hardware, other_devices",
    ),
    (
        "title:",
        "owner: me\ntitle:",
        "owner: unknown field; known fields: model_type, hardware, device, workload, team_skill, needs, model, parameters_b, task, training, serving, title",
    ),
    (
        "model_type: dense-transformer",
        "",
        "model_type: required field missing (one of dense-transformer, moe, multimodal, diffusion, cnn)",
    ),
]


@pytest.mark.parametrize(("old", "new", "message"), ERRORS)
def test_errors_name_the_field_and_the_allowed_values(tmp_path, old, new, message):
    path = tmp_path / "profile.yaml"
    path.write_text(EXAMPLE.replace(old, new))
    with pytest.raises(ProfileError) as caught:
        load_profile(path)
    assert str(caught.value) == f"{path}: {message}"
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("- a list\n", "p.yaml: expected a mapping of profile fields, got list"),
        ("model_type: [unclosed\n", "p.yaml: not valid YAML"),
        ('{"model_type": ', "p.yaml: not valid JSON"),
    ],
)
def test_unreadable_documents(text, message):
    with pytest.raises(ProfileError, match=message.replace("[", r"\[")):
        parse_profile(text, "p.yaml")


def test_a_missing_file_is_a_profile_error(tmp_path):
    with pytest.raises(ProfileError, match="absent.yaml: no such file"):
        load_profile(tmp_path / "absent.yaml")


@pytest.mark.parametrize(
    "needs, message",
    [
        ("{other_hardware: [amd-gpu]}", "needs: other_hardware is read only with cross_platform: true"),
        ("{cross_platform: true, other_hardware: [tpu]}", "needs.other_hardware: 'tpu' is not one of amd-gpu"),
        (
            "{cross_platform: true, other_hardware: amd-gpu}",
            "needs.other_hardware: expected a list of hardware families",
        ),
        ("{cross_platform: true, other_hardware: [amd-gpu, amd-gpu]}", "lists a hardware family twice"),
        (
            "{cross_platform: true, other_hardware: [nvidia-gpu]}",
            "needs.other_hardware lists the target 'nvidia-gpu' itself",
        ),
        (
            "{cross_platform: true, other_hardware: [amd-gpu], other_devices: [a100]}",
            "needs: other_devices: 'a100' is not a device of other_hardware (amd-gpu: mi300x",
        ),
        ("{other_devices: [a100-sxm]}", "needs: other_devices is read only with other_hardware"),
        (
            "{cross_platform: true, other_hardware: [amd-gpu], other_devices: [mi300x, mi355x]}",
            "needs: other_devices: 'mi300x' and 'mi355x' are both amd-gpu devices",
        ),
    ],
)
def test_other_hardware_errors_are_one_line(needs, message):
    text = f"model_type: moe\nhardware: nvidia-gpu\nworkload: training\nteam_skill: hpc\nneeds: {needs}\n"
    with pytest.raises(ProfileError) as raised:
        parse_profile(text, "p.yaml")
    assert message in str(raised.value) and "\n" not in str(raised.value)


def test_other_hardware_lists_the_families_the_model_must_also_run_on():
    text = "model_type: moe\nhardware: nvidia-gpu\nworkload: both\nteam_skill: kernel\n"
    text += "needs: {cross_platform: true, other_hardware: [amd-gpu, ascend-npu]}\n"
    assert parse_profile(text).families == ("nvidia-gpu", "amd-gpu", "ascend-npu")
    named = parse_profile(text.replace("ascend-npu]", "ascend-npu], other_devices: [mi355x]"))
    assert named.needs.other_device("amd-gpu") == "mi355x" and named.needs.other_device("ascend-npu") is None


def test_a_device_must_be_one_of_the_familys_devices():
    base = "model_type: moe\nhardware: nvidia-gpu\nworkload: inference\nteam_skill: framework\n"
    assert parse_profile(base + "device: h200-sxm\n").device == "h200-sxm"
    assert parse_profile(base).device is None
    with pytest.raises(ProfileError) as raised:
        parse_profile(base + "device: mi300x\n", "p.yaml")
    message = str(raised.value)
    assert message.startswith("p.yaml: device: 'mi300x' is not a nvidia-gpu device (")
    assert "h200-sxm" in message and "b200" in message and "\n" not in message
