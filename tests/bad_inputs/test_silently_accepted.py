"""Category 7 of hardening v3: input that used to be accepted without a word is now an error naming the file,
field or flag, or, where it is legitimate but risky, a `warning:` line.

Fast cases run in process on the real application (typer's runner); the site server runs as a real child,
stopped once it has said what it must.
"""

from __future__ import annotations

import copy
import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from harness import CPU_SUITE, GOOD_PROFILE, assert_one_line_error, child_environment, make_project, tree_state
from typer.testing import CliRunner

from advisor.cli import app

SUITE = json.loads(CPU_SUITE.read_text(encoding="utf-8"))
TIMED = next(index for index, case in enumerate(SUITE["cases"]) if case.get("timing"))


def _edited(edit) -> str:  # type: ignore[no-untyped-def]
    document = copy.deepcopy(SUITE)
    edit(document)
    return json.dumps(document)


EVIDENCE_CASES = {
    # name: (evidence text, words the one-line error holds)
    "negative-wall": (_edited(lambda d: d["probe_runs"][0].__setitem__("wall_s", -3.0)), "wall_s"),
    "case-negative-wall": (_edited(lambda d: d["cases"][TIMED].__setitem__("wall_s", -1.0)), "wall_s"),
    "finished-before-started": (_edited(lambda d: d.__setitem__("finished_at", "2026-11-29T20:00:00Z")), "finished_at"),
    "metric-1e999": (
        _edited(lambda d: d["cases"][TIMED]["metrics"]["tflops"].__setitem__("value", 1e400)).replace(
            "Infinity", "1e999"
        ),
        "1e999",
    ),
    "duplicate-case": (_edited(lambda d: d["cases"].append(copy.deepcopy(d["cases"][TIMED]))), "duplicate"),
    "unknown-family": (
        _edited(lambda d: d["environment"].__setitem__("hardware_family", "quantum-npu")),
        "hardware_family",
    ),
}


@pytest.fixture
def project(tmp_path: Path):
    return make_project(tmp_path)


@pytest.mark.parametrize("name", sorted(EVIDENCE_CASES))
def test_impossible_evidence_is_refused_naming_the_file(tmp_path: Path, name: str):
    text, said = EVIDENCE_CASES[name]
    evidence = tmp_path / f"{name}.json"
    evidence.write_text(text, encoding="utf-8")
    profile = tmp_path / "profile.yaml"
    profile.write_text(GOOD_PROFILE, encoding="utf-8")
    result = CliRunner().invoke(app, ["recommend", "--profile", str(profile), "--evidence", str(evidence)])
    line = assert_one_line_error(result, str(evidence))
    if name == "metric-1e999":
        assert "1e999" in text  # a JSON number past float's range reads as inf; the error says it is not finite
        assert re.search(r"finite|Infinity|inf", line), line
    else:
        assert said in line, line


def test_an_unknown_probe_name_in_evidence_is_a_warning_not_an_error(tmp_path: Path):
    evidence = tmp_path / "third-party.json"
    evidence.write_text(
        _edited(lambda d: d["cases"][TIMED]["key"].__setitem__("probe", "vendor_probe")), encoding="utf-8"
    )
    profile = tmp_path / "profile.yaml"
    profile.write_text(GOOD_PROFILE, encoding="utf-8")
    result = CliRunner().invoke(app, ["recommend", "--profile", str(profile), "--evidence", str(evidence)])
    assert result.exit_code == 0, result.output
    assert any(line.startswith("warning: ") and "vendor_probe" in line for line in result.stderr.splitlines()), (
        result.stderr
    )


@pytest.mark.parametrize(
    "needs, said", [("{devices: 10000000000000000000000}", "needs.devices"), ("{devices: -1}", "needs.devices")]
)
def test_absurd_profile_numbers_are_refused(tmp_path: Path, needs: str, said: str):
    profile = tmp_path / "profile.yaml"
    profile.write_text(GOOD_PROFILE + f"needs: {needs}\n", encoding="utf-8")
    assert_one_line_error(CliRunner().invoke(app, ["recommend", "--profile", str(profile)]), str(profile), said)


@pytest.mark.parametrize(
    "args, said",
    [
        (["assess", "--yes", "--no-probes", "--budget", "1e308"], "--budget"),
        (["probe", "selftest", "--budget", "1e308"], "--budget"),
        (["assess", "--yes", "--no-probes", "--budget", "inf"], "--budget"),
        (["records", "list", "--records-dir", ""], "--records-dir"),
        (["assess", "--yes", "--no-probes", "--records-dir", ""], "--records-dir"),
        (["records", "show", "100000000000000000000"], "100000000000000000000"),
        (["records", "accept", "100000000000000000000"], "100000000000000000000"),
    ],
)
def test_absurd_flags_are_refused_and_change_nothing(project, monkeypatch, args: list[str], said: str):
    monkeypatch.chdir(project.root)
    before = tree_state(project.root)
    assert_one_line_error(CliRunner().invoke(app, args), said)
    assert tree_state(project.root) == before


def test_a_record_file_with_an_absurd_number_is_reported_and_the_rest_listed(project, monkeypatch):
    original = next(project.records.glob("0001-*.md"))
    (project.records / "100000000000000000000-huge.md").write_text(
        original.read_text(encoding="utf-8"), encoding="utf-8"
    )
    monkeypatch.chdir(project.root)
    result = CliRunner().invoke(app, ["records", "list"])
    assert "0001" in result.stdout
    assert any(
        line.startswith("warning: ") and "100000000000000000000-huge.md" in line for line in result.stderr.splitlines()
    ), result.stderr


def _second_record(project) -> None:  # type: ignore[no-untyped-def]
    profile = project.root / "profile.yaml"
    result = CliRunner().invoke(
        app,
        [
            "assess",
            "--profile",
            str(profile),
            "--yes",
            "--no-probes",
            "--title",
            "Second",
            "--records-dir",
            str(project.records),
        ],
    )
    assert result.exit_code == 0, result.output


def test_a_supersede_cycle_is_refused(project, monkeypatch):
    _second_record(project)
    monkeypatch.chdir(project.root)
    first = CliRunner().invoke(app, ["records", "supersede", "1", "2"])
    assert first.exit_code == 0, first.output
    head = project.repo.head.commit.hexsha
    before = tree_state(project.root)
    assert_one_line_error(CliRunner().invoke(app, ["records", "supersede", "2", "1"]), "cycle")
    assert tree_state(project.root) == before and project.repo.head.commit.hexsha == head


def test_a_link_to_a_missing_record_is_a_warning_in_the_list(project, monkeypatch):
    record = next(project.records.glob("0001-*.md"))
    text = record.read_text(encoding="utf-8")
    record.write_text(re.sub(r"\nsuperseded_by: .*\n", "\nsuperseded_by: [42]\n", text, count=1), encoding="utf-8")
    monkeypatch.chdir(project.root)
    result = CliRunner().invoke(app, ["records", "list"])
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning: ")]
    assert any("0042" in line or "42" in line for line in warnings), result.stderr
    assert "0001" in result.stdout


def test_an_onnx_model_importing_an_unknown_opset_is_not_said_to_map_directly(tmp_path: Path):
    import onnx
    from onnx import TensorProto, helper

    node = helper.make_node("Relu", ["x"], ["y"])
    graph = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 999)])
    path = tmp_path / "future.onnx"
    onnx.save(model, str(path))
    result = CliRunner().invoke(app, ["ops", str(path)])
    shown = result.stdout + result.stderr
    assert any(line.startswith(("warning: ", "error: ")) and "999" in line for line in result.stderr.splitlines()), (
        shown
    )


def test_site_serve_on_every_interface_says_other_machines_can_reach_it(project, tmp_path: Path):
    import socket

    with socket.socket() as probe:  # a port free on this machine
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    server = subprocess.Popen(
        [sys.executable, "-m", "advisor", "site", "serve", "--addr", f"0.0.0.0:{port}"],
        cwd=project.root,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        stdin=subprocess.DEVNULL,
        env=child_environment(scratch),
        start_new_session=True,
    )
    seen: list[str] = []
    try:
        assert server.stderr is not None
        ends = time.monotonic() + 180  # only a guard against a server that never says anything
        while time.monotonic() < ends:
            line = server.stderr.readline()
            if not line:
                break
            seen.append(line)
            if line.startswith(("warning: ", "error: ")):
                break
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    warnings = [line for line in seen if line.startswith("warning: ")]
    assert warnings and "0.0.0.0" in warnings[0] and "other machines" in warnings[0], seen
