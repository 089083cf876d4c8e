"""Detection on this machine, the `advisor env` command and its JSON Schema."""

from __future__ import annotations

import json

import jsonschema
import pytest

from advisor.cli import app
from advisor.knowledge.devices import detect_device
from advisor.knowledge.loader import family_device_ids, load_knowledge_base
from probes.environment.detect import detect_environment
from probes.environment.models import Environment


@pytest.fixture(scope="module")
def environment() -> Environment:
    return detect_environment()


def test_local_machine_fields(environment):
    assert environment.schema_version == 1
    assert len(environment.hostname_hash) == 16 and int(environment.hostname_hash, 16) >= 0
    assert environment.os.system and environment.os.kernel and environment.python.version.startswith("3.")
    assert environment.cpu.logical_cores and environment.cpu.logical_cores >= 1
    assert isinstance(environment.memory_bytes, int) and environment.memory_bytes > 2**28
    assert environment.torch is not None and environment.torch.version
    assert environment.torch.build in {"cpu", "cuda", "rocm", "xpu"}
    assert "cpu:math" in environment.torch.sdpa_backends
    assert environment.torch.num_threads >= 1


def test_every_null_top_level_section_has_a_reason(environment):
    for field in ("torch", "triton"):
        if getattr(environment, field) is None:
            assert field in environment.unknown
    if environment.accelerators.nvidia_driver is None:
        assert "accelerators.nvidia_driver" in environment.unknown
    if environment.peak_for("cpu") is None:
        assert "peaks.cpu" in environment.unknown


def test_cpu_peak_is_present_where_clock_and_cores_are(environment):
    if environment.cpu.clock_ghz and environment.cpu.physical_cores:
        peak = environment.peak_for("cpu")
        assert peak.tflops["fp32"] > 0
        assert any("cores" in line for line in peak.assumptions)


def test_raw_hostname_is_not_recorded(environment):
    import socket

    assert socket.gethostname() not in environment.model_dump_json()


def test_env_json_validates_against_the_exported_schema(runner):
    schema_result = runner.invoke(app, ["schema", "env"])
    assert schema_result.exit_code == 0
    schema = json.loads(schema_result.stdout)
    env_result = runner.invoke(app, ["env", "--json"])
    assert env_result.exit_code == 0
    document = json.loads(env_result.stdout)
    jsonschema.validate(document, schema)
    assert Environment.model_validate(document).cpu.architecture
    assert document["device"] is None or document["device"] in family_device_ids(document["hardware_family"])


def test_env_human_output_has_every_section(runner):
    result = runner.invoke(app, ["env"])
    assert result.exit_code == 0
    for heading in ("Machine", "Software", "Theoretical peak", "ISA", "SDPA backends", "Device"):
        assert heading in result.stdout


def test_env_names_the_matched_device_or_says_none_matched(runner, environment):
    device = detect_device(environment, load_knowledge_base(), environment.hardware_family or "")
    assert (device or "no listed device matched") in runner.invoke(app, ["env"]).stdout


def test_unknown_schema_is_a_one_line_error(runner):
    result = runner.invoke(app, ["schema", "nope"])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "error: unknown schema 'nope'; choose one of: env, evidence, profile, recommendation"
    ]


def test_bad_peak_file_is_a_one_line_error_from_the_console_script(tmp_path):
    import os
    import subprocess
    import sys

    bad = tmp_path / "peaks.yaml"
    bad.write_text("accelerators: 3\n")
    done = subprocess.run(
        [sys.executable, "-m", "advisor", "env"],
        capture_output=True,
        text=True,
        env={**os.environ, "ADVISOR_PEAKS_FILE": str(bad)},
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("error: ") and str(bad) in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    assert done.stdout == ""
