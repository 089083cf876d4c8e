"""The scaling probe: a real 2-process gloo launch on loopback through the CLI, its failure paths, and its arithmetic.

Timings on this shared 2-core machine are noise: nothing checks speed, only structure and sanity
(bandwidth > 0, efficiency in (0, 1.5], the case ids) and how failures are reported.
"""

from __future__ import annotations

import json
import socket
import sys
import time
from pathlib import Path

import pytest

from advisor.cli import app
from advisor.recommendation.readings import read_cases
from probes.models import CaseKey, Evidence, HarnessSettings, Measurement, Metric, ProbeCase
from probes.registry import probe_declarations
from probes.reporting import probe_findings
from probes.runner import run_probes, select_probes
from probes.scaling.bandwidth import algorithm_bandwidth, all_reduce_bus_bandwidth, all_reduce_bus_factor
from probes.scaling.faults import FAULT_ENV
from probes.scaling.launch import torchrun_command
from probes.scaling.options import LaunchOptionError, LaunchOptions, check_launch_options, resolve_launch
from probes.scaling.plan import MESSAGE_BYTES, NEEDS_TWO, plan_scaling, reference_model, world_sizes
from probes.scaling.results_file import ResultsReader, first_error
from probes.scaling.session import NOT_RANK_ZERO, DistributedSession
from probes.scaling.timing import sample_plan

# Start-up (~5 s here when idle, 10 s and more beside two CPU burners) and every case at its least cost, with room to
# spare: at 16 s a busy host once ran out of share before the last case. Cases take more samples with more share.
BUDGET_S = "40"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def launched(tmp_path_factory: pytest.TempPathFactory) -> tuple[Evidence, dict[str, object], str]:
    """`advisor probe scaling --nproc 2` on loopback: the saved evidence, the --json document, the exit output."""
    from typer.testing import CliRunner

    out = tmp_path_factory.mktemp("scaling") / "evidence.json"
    endpoint = f"127.0.0.1:{free_port()}"
    arguments = ["probe", "scaling", "--nproc", "2", "--rdzv-endpoint", endpoint, "--device", "cpu"]
    result = CliRunner().invoke(app, [*arguments, "--budget", BUDGET_S, "--out", str(out), "--json"])
    assert result.exit_code == 0, result.stderr
    return Evidence.load(out), json.loads(result.stdout), endpoint


def test_two_gloo_processes_measure_every_planned_case(launched):
    evidence, document, endpoint = launched
    (run,) = evidence.probe_runs
    assert run.status == "ok", (run.reason, run.incidents, run.log_tail)
    assert evidence.config.probe_options == {"scaling": {"nproc": 2, "rdzv_endpoint": endpoint}}
    assert {case["key"]["case_id"] for case in document["cases"]} == {case.key.case_id for case in evidence.cases}
    assert all(case.status == "ok" for case in evidence.cases), [(c.key.case_id, c.reason) for c in evidence.cases]
    ids = [case.key.case_id for case in evidence.cases]
    step = "scaling/ddp.step/fp32/batch=512,width=256,blocks=2/default/cpu/backend=gloo,nodes=1"
    assert ids[0] == "scaling/all_reduce/fp32/bytes=4096/default/cpu/backend=gloo,nodes=1,world=2"
    assert ids[-3:] == [f"{step},world=1", f"{step},world=2", step.replace("ddp.step", "ddp.no_overlap") + ",world=2"]


def test_bandwidth_and_efficiency_are_sane(launched):
    evidence, _, _ = launched
    reduces = [case for case in evidence.cases if case.key.implementation == "all_reduce"]
    assert len(reduces) >= 2 and {case.key.shape["bytes"] for case in reduces} <= set(MESSAGE_BYTES["cpu"])
    for case in reduces:
        assert case.timing is not None and case.timing.stats.n >= HarnessSettings().min_samples
        assert case.metrics["bus_gbps"].value > 0
        # Two processes: 2(n-1)/n = 1, bus and algorithm bandwidth agree.
        assert case.metrics["bus_gbps"].value == pytest.approx(case.metrics["alg_gbps"].value)
    steps = {case.key.options["world"]: case for case in evidence.cases if case.key.implementation == "ddp.step"}
    assert set(steps) == {1, 2}
    assert steps[1].metrics["efficiency"].value == 1.0 and steps[1].baseline
    assert 0 < steps[2].metrics["efficiency"].value <= 1.5
    assert steps[2].metrics["gradient_bytes"].value == 4 * reference_model("cpu", [1, 2]).parameters
    (no_overlap,) = [case for case in evidence.cases if case.key.implementation == "ddp.no_overlap"]
    assert no_overlap.metrics["overlap_gain"].value > 0


def test_findings_and_the_scaling_reading(launched):
    evidence, _, _ = launched
    lines = probe_findings("scaling", evidence.cases)
    assert lines[0].startswith("all-reduce ") and "(gloo, 2 procs)" in lines[0]
    assert any(line.startswith("strong scaling 1->2: efficiency ") for line in lines)
    assert any(line.startswith("DDP overlap at 2 procs") for line in lines)
    (reading,) = [reading for reading in read_cases(evidence.cases) if reading.name == "strong_scaling_efficiency"]
    assert 0 < reading.value <= 1.5 and len(reading.case_ids) == 2


def test_a_crashing_rank_fails_the_case_in_flight_with_its_reason(monkeypatch):
    monkeypatch.setenv(FAULT_ENV, "raise@1")
    began = time.monotonic()
    evidence = run_probes(["scaling"], budget_s=16, device="cpu", probe_options={"scaling": {"nproc": 2}})
    assert time.monotonic() - began < 16
    (run,) = evidence.probe_runs
    assert run.status == "failed" and run.reason is not None
    assert run.reason.startswith("rank 1: raised RuntimeError: injected fault") and "\n" not in run.reason
    first, *rest = evidence.cases
    assert first.status == "failed" and first.reason == run.reason
    assert rest and all(case.status == "skipped" and case.reason == f"not run: {run.reason}" for case in rest)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["scaling", "--nproc", "0"], "error: --nproc must be a positive number"),
        (["scaling", "--nproc", "100000", "--device", "cpu"], "error: --nproc 100000 exceeds the"),
        (["scaling", "--nnodes", "2"], "error: --nnodes 2 needs --rdzv-endpoint"),
        (["scaling", "--node-rank", "1"], "error: --node-rank must be between 0 and --nnodes - 1 (0), got 1"),
        (["scaling", "--rdzv-endpoint", "localhost"], "error: --rdzv-endpoint must be HOST:PORT"),
        (["scaling", "--rdzv-id", "a b"], "error: --rdzv-id must be letters"),
        (["selftest", "--nproc", "2"], "error: --nproc applies to the scaling probe"),
        (["--nnodes", "2"], "error: --nnodes applies to the scaling probe"),
    ],
)
def test_bad_launch_flags_are_one_line_errors(runner, tmp_path, arguments, message):
    out = tmp_path / "evidence.json"
    result = runner.invoke(app, ["probe", *arguments, "--out", str(out)])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines()[-1].startswith(message)
    assert not out.exists()


def test_scaling_runs_only_when_named():
    declared = probe_declarations()["scaling"]
    assert declared.distributed and not declared.runs_by_default and "scaling" not in select_probes(None)
    assert select_probes(["scaling"]) == ["scaling"]


def _fake_launch(script: str):
    """A command factory running `script` (python) with the job and folder as argv, instead of torchrun."""
    return lambda launch, job, folder: [sys.executable, "-c", script, str(job), str(folder)]


def _session(script: str, events: list[object], share_s: float = 30.0) -> DistributedSession:
    launch = resolve_launch(LaunchOptions(nproc=2), "cpu")
    command = _fake_launch(script)
    return DistributedSession("scaling", launch, HarnessSettings(), share_s, events.append, command=command)


def test_a_hang_is_killed_at_the_case_deadline_and_reported():
    hang = (
        "import sys, time; from pathlib import Path\n"
        "from probes.scaling.plan import ScalingJob\n"
        "from probes.harness.protocol import CaseStartMessage, encode_message\n"
        "job = ScalingJob.model_validate_json(Path(sys.argv[1]).read_text())\n"
        "start = CaseStartMessage(case_id=job.plan.cases[0].key.case_id, hang_deadline=time.monotonic() + 0.5)\n"
        "Path(sys.argv[2], 'results.jsonl').write_bytes(encode_message(start))\n"
        "time.sleep(600)\n"
    )
    events: list[object] = []
    session = _session(hang, events)
    began = time.monotonic()
    session.run()
    assert time.monotonic() - began < 10
    run, cases = session.outcome()
    assert run.status == "failed" and run.reason is not None and run.reason.startswith("hung: ")
    assert cases[0].status == "failed" and cases[0].reason == run.reason
    assert all(case.status == "skipped" and case.reason == f"not run: {run.reason}" for case in cases[1:])
    assert run.incidents == [f"{cases[0].key.case_id}: {run.reason}"]


def test_a_launch_that_dies_before_any_case_fails_every_case():
    crash = (
        "import sys; from pathlib import Path\n"
        "Path(sys.argv[2], 'error-rank0.txt').write_text('rank 0: raised OSError: no route to host')\n"
        "sys.exit(1)\n"
    )
    session = _session(crash, [])
    session.run()
    run, cases = session.outcome()
    assert run.status == "failed" and run.reason == "rank 0: raised OSError: no route to host"
    assert cases and all(case.status == "failed" and case.reason == run.reason for case in cases)


def test_a_rank_dying_silently_is_named_before_the_peer_that_lost_it():
    silent = (
        "import sys; from pathlib import Path\n"
        "folder = Path(sys.argv[2])\n"
        "for rank in (0, 1): (folder / f'pid-rank{rank}').write_text('999999999')\n"
        "(folder / 'error-rank0.txt').write_text('rank 0: raised RuntimeError: Read error: Connection reset by peer')\n"
        "sys.exit(1)\n"
    )
    session = _session(silent, [])
    session.run()
    run, _ = session.outcome()
    assert run.reason == (
        "rank 1 ended without a Python error (a crash, an exit or a kill: see the log tail);"
        " then rank 0: raised RuntimeError: Read error: Connection reset by peer"
    )


def test_a_node_without_rank_zero_reports_nothing_but_says_where_the_results_are():
    session = _session("pass", [])
    session.run()
    run, cases = session.outcome()
    assert run.status == "ok" and run.reason == NOT_RANK_ZERO
    assert cases and all(case.status == "skipped" and case.reason == NOT_RANK_ZERO for case in cases)


def test_a_share_below_one_launch_fails_before_starting_anything():
    session = _session("raise SystemExit('must not start')", [], share_s=3.0)
    session.run()
    run, cases = session.outcome()
    assert run.status == "failed" and run.reason is not None and "raise --budget" in run.reason
    assert all(case.status == "skipped" and case.reason.startswith("not run: its time share") for case in cases)


def test_bus_bandwidth_follows_nccl_tests():
    assert [all_reduce_bus_factor(world) for world in (1, 2, 4, 8)] == [0.0, 1.0, 1.5, 1.75]
    assert algorithm_bandwidth(64 * 2**20, 0.5) == 128 * 2**20
    assert all_reduce_bus_bandwidth(1_000_000, 0.001, 8) == pytest.approx(1.75e9)
    with pytest.raises(ValueError):
        algorithm_bandwidth(1, 0.0)


def test_world_sizes_and_a_batch_every_world_divides():
    assert world_sizes(1) == [1] and world_sizes(2) == [1, 2]
    assert world_sizes(6) == [1, 2, 4, 6] and world_sizes(8) == [1, 2, 4, 8]
    model = reference_model("cuda", world_sizes(6))
    assert model.global_batch % 12 == 0 and model.global_batch >= 4096


def test_one_process_plans_strong_scaling_only():
    plan = plan_scaling(resolve_launch(LaunchOptions(nproc=1), "cpu"), 60.0, HarnessSettings())
    skipped = {case.kind for case in plan.cases if case.skip_reason == NEEDS_TWO}
    assert skipped == {"all_reduce", "no_overlap"}
    assert [case.world for case in plan.cases if case.kind == "step"] == [1]


def test_a_short_share_drops_the_largest_messages_first():
    launch = resolve_launch(LaunchOptions(nproc=2), "cpu")
    roomy, tight = (plan_scaling(launch, share, HarnessSettings()) for share in (60.0, 1.0))
    sizes = [[case.message_bytes for case in plan.cases if case.kind == "all_reduce"] for plan in (roomy, tight)]
    assert sizes[0] == list(MESSAGE_BYTES["cpu"]) and sizes[1] == sizes[0][:2]


def test_torchrun_command_passes_the_rendezvous_through():
    job, folder = Path("job.json"), Path("run")
    single = torchrun_command(resolve_launch(LaunchOptions(nproc=2), "cpu"), job, folder)
    assert single[1:3] == ["-m", "torch.distributed.run"] and "--standalone" in single
    assert single[-4:] == ["-m", "probes.scaling.worker", "job.json", "run"]
    options = LaunchOptions(nproc=1, nnodes=2, node_rank=1, rdzv_endpoint="10.0.0.1:29500", rdzv_id="job7")
    static = torchrun_command(resolve_launch(options, "cpu"), job, folder)
    for flag in (
        "--nproc_per_node=1",
        "--nnodes=2",
        "--node_rank=1",
        "--rdzv_backend=static",
        "--rdzv_endpoint=10.0.0.1:29500",
        "--rdzv_id=job7",
        "--max_restarts=0",
    ):
        assert flag in static
    c10d = torchrun_command(resolve_launch(options.model_copy(update={"node_rank": None}), "cpu"), job, folder)
    assert "--rdzv_backend=c10d" in c10d and not any(part.startswith("--node_rank") for part in c10d)


def test_launch_options_are_checked_without_a_device():
    check_launch_options(LaunchOptions(nnodes=2, node_rank=1, rdzv_endpoint="[::1]:29500"))
    for options, flag in (
        (LaunchOptions(nproc=-1), "--nproc"),
        (LaunchOptions(nnodes=0), "--nnodes"),
        (LaunchOptions(rdzv_endpoint="host:70000"), "--rdzv-endpoint"),
    ):
        with pytest.raises(LaunchOptionError, match=f"^{flag} "):
            check_launch_options(options)


def test_sample_plan_fits_the_case_and_keeps_samples_long_enough():
    settings = HarnessSettings()
    assert sample_plan(0.01, 1.0, settings, 1e-4) == (1, 80)
    assert sample_plan(2**-20, 1.0, settings, 2**-10) == (1024, 819)
    assert sample_plan(0.01, 1000.0, settings, 1e-4) == (1, settings.max_samples)
    assert sample_plan(1.0, 0.1, settings, 1e-4) == (1, settings.min_samples)


def test_results_reader_waits_for_a_torn_line_and_first_error_finds_the_cause(tmp_path):
    from probes.harness.protocol import DoneMessage, encode_message

    path = tmp_path / "results.jsonl"
    reader = ResultsReader(path)
    assert reader.new_messages() == []
    line = encode_message(DoneMessage())
    path.write_bytes(line + line[:5])
    assert [type(message) for message in reader.new_messages()] == [DoneMessage]
    path.write_bytes(line + line)
    assert [type(message) for message in reader.new_messages()] == [DoneMessage]
    (tmp_path / "error-rank0.txt").write_text("rank 0: raised RuntimeError: Connection closed by peer")
    time.sleep(0.01)
    (tmp_path / "error-rank1.txt").write_text("rank 1: echo")
    assert first_error(tmp_path) == (0, "rank 0: raised RuntimeError: Connection closed by peer")


def _step_case(world: int, seconds: float, efficiency: float) -> ProbeCase:
    key = CaseKey(
        probe="scaling",
        implementation="ddp.step",
        dtype="fp32",
        shape={"batch": 8},
        device="cuda",
        options={"backend": "nccl", "nodes": 1, "world": world},
    )
    timing = Measurement.from_samples([seconds] * 10, stop_reason="share spent")
    metrics = {"efficiency": Metric(value=efficiency, unit="ratio")}
    return ProbeCase(key=key, status="ok", timing=timing, metrics=metrics)


def test_findings_name_each_world_size_against_the_serial_step():
    cases = [_step_case(1, 0.040, 1.0), _step_case(2, 0.025, 0.8), _step_case(4, 0.0125, 0.8)]
    assert probe_findings("scaling", cases) == [
        "strong scaling 1->2: efficiency 0.80 (step 40.0 ms -> 25.0 ms, global batch fixed)",
        "strong scaling 1->4: efficiency 0.80 (step 40.0 ms -> 12.5 ms, global batch fixed)",
    ]
    (reading,) = read_cases(cases)
    assert reading.name == "strong_scaling_efficiency" and reading.value == 0.8
    assert reading.figure.startswith("strong scaling 1 -> 4 processes (nccl): efficiency 0.80")


def test_the_registry_declaration_matches_the_launch_plan_and_never_runs_in_one_process():
    from probes.harness.device import Device
    from probes.harness.measure import measure_case
    from probes.harness.worker import plan_cases
    from probes.registry import load_probe
    from probes.scaling.probe import LAUNCHED_ONLY

    loaded = load_probe("scaling")
    planned = plan_cases(loaded, Device(), 60.0, {"nproc": 2})
    ids = [entry.case.key("scaling", entry.implementation.name, "cpu").case_id for entry in planned]
    launch_plan = plan_scaling(resolve_launch(LaunchOptions(nproc=2), "cpu"), 60.0, HarnessSettings())
    # The declaration pairs by shape alone, so it may list more than a launch runs; never fewer.
    assert {case.key.case_id for case in launch_plan.cases} <= set(ids)
    entry = planned[0]
    case = measure_case("scaling", entry.implementation, entry.case, Device(), HarnessSettings(), time.monotonic() + 1)
    assert case.status == "skipped" and case.reason == f"unsupported: {LAUNCHED_ONLY}"


def test_a_rocm_build_names_rccl_under_the_nccl_backend() -> None:
    from dataclasses import replace

    from probes.scaling.options import collective_library
    from probes.scaling.plan import case_key

    assert collective_library("cuda", "6.2.41133") == "rccl"  # torch.version.hip of a ROCm wheel
    assert collective_library("cuda", None) == collective_library("cpu", None) == ""
    rocm = replace(resolve_launch(LaunchOptions(nproc=2), "cpu"), backend="nccl", device_kind="cuda", library="rccl")
    key = case_key("all_reduce", rocm, 2, {"bytes": 1024})
    assert key.options == {"backend": "nccl", "nodes": 1, "world": 2, "library": "rccl"}
    assert case_key("all_reduce", resolve_launch(LaunchOptions(nproc=2), "cpu"), 2, {"bytes": 1024}).options == {
        "backend": "gloo",
        "nodes": 1,
        "world": 2,
    }  # case ids of CUDA and CPU runs stay as they were
