"""Every file advisor reads, given as something that is not a regular file of a sane size: the real CLI (in a
child process where a regression would hang or fill memory: a FIFO or /dev/zero fails the test by its timeout
instead of stalling the suite; in this process otherwise), one error line naming the file and what it is, the
user's tree and git state unchanged, no process or temporary folder left.

The readers are a table (profile, evidence, record, settings, knowledge-base override, peak table, ONNX model,
`kb check`), each crossed with the bad kinds of file: a FIFO, /dev/zero, a folder, a socket and a (sparse)
file one byte past the reader's cap. Then the counts inside evidence (3 million samples, a samples_gz bomb,
too many cases) and the records lock (/proc/self, a held lock, a FIFO or link in the lock's place).
"""

from __future__ import annotations

import base64
import gzip
import json
import os
import socket
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from harness import (
    CPU_SUITE,
    Project,
    assert_one_line_error,
    child_environment,
    invoke_advisor,
    make_project,
    run_advisor,
    unchanged,
)

from advisor.knowledge.loader import KNOWLEDGE_FILE
from advisor.ops.reading import MODEL_FILE
from advisor.profile import PROFILE_FILE
from advisor.records.store import LOCK_TIMEOUT_ENV, RECORD_FILE
from advisor.settings import PYPROJECT, SETTINGS_FILE, SETTINGS_KINDS
from probes.environment.peaks import PEAKS_FILE
from probes.models import EVIDENCE_FILE, MAX_CASES_PER_FILE, MAX_SAMPLES_PER_CASE

# What the one error line says each bad kind of file is.
KIND_WORDS = {
    "fifo": "a FIFO (named pipe)",
    "dev-zero": "a character device",
    "folder": "a folder",
    "socket": "a socket",
    "oversized": "larger than",
    "dangling-link": "no such file",
}
# A regression on these would hang or fill the memory of the process reading them: a child with a time limit.
HANGS_OR_EATS_MEMORY = ("fifo", "dev-zero")
BAD = "{bad}"  # the bad file's path in a command's arguments
EVIDENCE = "{evidence}"  # the project's committed evidence file


@dataclass(frozen=True)
class Reader:
    """One reader of a file, driven through one command: where the bad file goes and what runs."""

    name: str
    place: str  # relative to the project root, or under "outside/" (a folder beside the project)
    args: tuple[str, ...]
    cap: int
    env: dict[str, str] = field(default_factory=dict)  # values may name {outside}
    kinds: tuple[str, ...] = tuple(KIND_WORDS)


READERS = [
    Reader("profile-recommend", "outside/bad.yaml", ("recommend", "--profile", BAD), PROFILE_FILE.cap),
    Reader(
        "profile-assess", "outside/bad.yaml", ("assess", "--profile", BAD, "--yes", "--no-probes"), PROFILE_FILE.cap
    ),
    Reader(
        "evidence-recommend",
        "outside/bad.json",
        ("recommend", "--profile", "profile.yaml", "--evidence", BAD),
        EVIDENCE_FILE.cap,
    ),
    Reader("evidence-compare-first", "outside/bad.json", ("compare", BAD, EVIDENCE), EVIDENCE_FILE.cap),
    Reader("evidence-compare-second", "outside/bad.json", ("compare", EVIDENCE, BAD), EVIDENCE_FILE.cap),
    Reader(
        "evidence-assess",
        "outside/bad.json",
        ("assess", "--profile", "profile.yaml", "--yes", "--evidence", BAD),
        EVIDENCE_FILE.cap,
    ),
    Reader("evidence-review", "outside/bad.json", ("review", "1", "--evidence", BAD, "--no-commit"), EVIDENCE_FILE.cap),
    Reader("onnx-model", "outside/model.onnx", ("ops", BAD), MODEL_FILE.cap),
    # An oversized file is a problem `kb check` reports as its verdict (exit 1): test_kb_check_reports_an_oversized_file
    Reader(
        "kb-check",
        "outside/check/extra.yaml",
        ("kb", "check", BAD),
        KNOWLEDGE_FILE.cap,
        kinds=("fifo", "dev-zero", "folder", "socket", "dangling-link"),
    ),
    Reader(
        "kb-override-candidate",
        "outside/kb/knowledge/extra.yaml",
        ("kb", "list"),
        KNOWLEDGE_FILE.cap,
        env={"ADVISOR_KB_DIR": "{outside}/kb"},
    ),
    Reader(
        "kb-override-platform",
        "outside/kb/platforms/extra.yaml",
        ("kb", "list"),
        KNOWLEDGE_FILE.cap,
        env={"ADVISOR_KB_DIR": "{outside}/kb"},
    ),
    Reader(
        "kb-override-compatibility",
        "outside/kb/compatibility.yaml",
        ("kb", "list"),
        KNOWLEDGE_FILE.cap,
        env={"ADVISOR_KB_DIR": "{outside}/kb"},
    ),
    Reader(
        "peaks-file", "outside/peaks.yaml", ("env",), PEAKS_FILE.cap, env={"ADVISOR_PEAKS_FILE": "{outside}/peaks.yaml"}
    ),
    Reader("record-show", "records/0002-bad.md", ("records", "show", "2"), RECORD_FILE.cap),
    # The record's own evidence, read by review as the baseline (oversized: the evidence cap is tested above,
    # and hashing a 256 MiB file inside the tree twice would only slow the suite).
    Reader(
        "record-baseline-review",
        "records/0001-kept.evidence.json",
        ("review", "1", "--evidence", str(CPU_SUITE), "--no-commit"),
        EVIDENCE_FILE.cap,
        kinds=("fifo", "dev-zero", "folder", "socket", "dangling-link"),
    ),
    Reader("settings-config", SETTINGS_FILE, ("config",), SETTINGS_KINDS[SETTINGS_FILE].cap),
    Reader("settings-assess", SETTINGS_FILE, ("assess", "--yes", "--no-probes"), SETTINGS_KINDS[SETTINGS_FILE].cap),
    Reader("pyproject-config", PYPROJECT, ("config",), SETTINGS_KINDS[PYPROJECT].cap),
    Reader("pyproject-records-list", PYPROJECT, ("records", "list"), SETTINGS_KINDS[PYPROJECT].cap),
]


def make_bad(path: Path, kind: str, cap: int, scratch: Path) -> None:
    """Put a bad `kind` of file at `path` (replacing a file there): a FIFO, a link to /dev/zero, a folder, a
    link to a socket, a sparse file one byte past `cap` (no disk used, st_size says it all), a dangling link."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.is_file():
        path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev-zero":
        path.symlink_to("/dev/zero")
    elif kind == "folder":
        path.mkdir()
    elif kind == "socket":
        target = scratch / f"s{len(list(scratch.iterdir()))}.sock"  # short: a socket's path has 108 bytes at most
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
            server.bind(str(target))  # the node stays after the socket is closed
        path.symlink_to(target)
    elif kind == "dangling-link":
        path.symlink_to(scratch / "nowhere")
    else:
        with path.open("wb") as handle:
            handle.truncate(cap + 1)


def _filled(text: str, project: Project, bad: Path, outside: Path) -> str:
    evidence = next(project.records.glob("0001-*.evidence.json"))
    return text.replace(BAD, str(bad)).replace(EVIDENCE, str(evidence)).replace("{outside}", str(outside))


def _place(project: Project, place: str) -> tuple[Path, Path]:
    outside = project.root.parent / "outside"
    outside.mkdir(exist_ok=True)
    relative = Path(place)
    bad = outside.joinpath(*relative.parts[1:]) if relative.parts[0] == "outside" else project.root / relative
    return bad, outside


@pytest.mark.parametrize(
    ("reader", "kind"),
    [pytest.param(reader, kind, id=f"{reader.name}-{kind}") for reader in READERS for kind in reader.kinds],
)
def test_a_bad_kind_of_file_is_one_line_naming_it(tmp_path: Path, reader: Reader, kind: str) -> None:
    project = make_project(tmp_path)
    bad, outside = _place(project, reader.place)
    make_bad(bad, kind, reader.cap, tmp_path)
    args = [_filled(arg, project, bad, outside) for arg in reader.args]
    with unchanged(project.root) as watch:
        variables = {key: _filled(value, project, bad, outside) for key, value in reader.env.items()}
        env = child_environment(watch.tmp, **variables)
        if kind in HANGS_OR_EATS_MEMORY:
            result = run_advisor(args, cwd=project.root, tmp=watch.tmp, env=env, timeout=120)
        else:
            result = invoke_advisor(args, cwd=project.root, tmp=watch.tmp, env=env)
    assert_one_line_error(result, bad.name, KIND_WORDS[kind], code=2)


def test_kb_check_reports_an_oversized_file(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    bad, _ = _place(project, "outside/check/extra.yaml")
    make_bad(bad, "oversized", KNOWLEDGE_FILE.cap, tmp_path)
    with unchanged(project.root) as watch:
        result = invoke_advisor(["kb", "check", str(bad)], cwd=project.root, tmp=watch.tmp)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines() == [f"{bad}: larger than a knowledge-base file may be (1 MiB)"]


def test_a_record_that_is_a_fifo_is_a_warning_and_the_rest_still_list(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    make_bad(project.records / "0002-bad.md", "fifo", RECORD_FILE.cap, tmp_path)
    with unchanged(project.root) as watch:
        result = run_advisor(["records", "list"], cwd=project.root, tmp=watch.tmp, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("0001 "), result.stdout
    bad = project.records / "0002-bad.md"
    assert result.stderr.splitlines() == [f"warning: {bad}: a FIFO (named pipe), not a decision record"]


# Evidence whose counts are past the caps: the file is refused at once, naming the file, the case and the cap.
def _suite_with(edit) -> str:  # type: ignore[no-untyped-def]
    suite = json.loads(CPU_SUITE.read_text(encoding="utf-8"))
    timed = next(index for index, case in enumerate(suite["cases"]) if case.get("timing"))
    edit(suite, suite["cases"][timed]["timing"])
    return json.dumps(suite)


def _packed(timing: dict, packed: str) -> None:  # type: ignore[type-arg]
    timing.pop("samples")
    timing.pop("stats")
    timing.update(unit="us", samples_gz=packed)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


BOMB = base64.b64encode(gzip.compress(b"1 " * (20 * MAX_SAMPLES_PER_CASE * 16), mtime=0)).decode()
PACKED_EVIDENCE = {
    "gz-not-base64": (
        lambda d, t: _packed(t, "not base64 at all!"),
        "timing.samples_gz is not valid base64 of gzipped samples",
    ),
    "gz-not-gzip": (lambda d, t: _packed(t, _b64(b"plain text")), "not valid base64 of gzipped"),
    "gz-cut-short": (lambda d, t: _packed(t, _b64(gzip.compress(b"1 2 3" * 100)[:-9])), "cut short"),
    "gz-not-numbers": (lambda d, t: _packed(t, _b64(gzip.compress(b"1 two 3"))), "does not unpack to"),
    "gz-not-a-string": (lambda d, t: _packed(t, 12), "samples_gz must be a base64 string"),  # type: ignore[arg-type]
    "gz-bomb": (lambda d, t: _packed(t, BOMB), f"more than {MAX_SAMPLES_PER_CASE} samples take"),
    "too-many-samples": (
        lambda d, t: (t.pop("stats"), t.__setitem__("samples", [1e-4] * (MAX_SAMPLES_PER_CASE + 1))),
        f"{MAX_SAMPLES_PER_CASE + 1} samples, more than a case may hold ({MAX_SAMPLES_PER_CASE})",
    ),
    "too-many-cases": (
        lambda d, t: d.__setitem__("cases", [d["cases"][0]] * (MAX_CASES_PER_FILE + 1)),
        f"more than an evidence file may hold ({MAX_CASES_PER_FILE})",
    ),
    "sample-too-large": (lambda d, t: (t.pop("stats"), t["samples"].__setitem__(0, 10**400)), "too large to be a time"),
}


@pytest.mark.parametrize("name", sorted(PACKED_EVIDENCE))
@pytest.mark.parametrize("command", ["recommend", "compare"])
def test_evidence_past_a_count_cap_names_the_file_and_case(tmp_path: Path, name: str, command: str) -> None:
    edit, said = PACKED_EVIDENCE[name]
    project = make_project(tmp_path)
    bad = tmp_path / f"{name}.json"
    bad.write_text(_suite_with(edit), encoding="utf-8")
    if command == "recommend":
        args = ["recommend", "--profile", "profile.yaml", "--evidence", str(bad)]
    else:
        args = ["compare", str(bad), str(CPU_SUITE)]
    with unchanged(project.root) as watch:
        result = invoke_advisor(args, cwd=project.root, tmp=watch.tmp)
    line = assert_one_line_error(result, str(bad), said, code=2)
    assert name == "too-many-cases" or "cases.0 (attention/naive)" in line, line


def test_three_million_samples_in_one_case_are_refused_at_once(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    bad = tmp_path / "three-million.json"
    # Written as text: json.dumps of 3 million floats would cost the test more than the refusal costs advisor.
    text = _suite_with(lambda d, t: (t.pop("stats"), t.__setitem__("samples", "SAMPLES")))
    bad.write_text(text.replace('"SAMPLES"', "[" + ",".join(["0.0001"] * 3_000_000) + "]"), encoding="utf-8")
    with unchanged(project.root) as watch:  # the timeout only turns a hang (it ran 400 s before) into a failure
        result = run_advisor(
            ["recommend", "--profile", "profile.yaml", "--evidence", str(bad)],
            cwd=project.root,
            tmp=watch.tmp,
            timeout=240,
        )
    assert_one_line_error(result, str(bad), "cases.0 (attention/naive): 3000000 samples", f"({MAX_SAMPLES_PER_CASE})")


# The records lock: never a spin, never a write through something that is not a lock file.
ASSESS = ["assess", "--profile", "profile.yaml", "--yes", "--no-probes"]


def test_records_dir_proc_self_fails_at_once_naming_the_lock(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    with unchanged(project.root) as watch:
        result = run_advisor([*ASSESS, "--records-dir", "/proc/self"], cwd=project.root, tmp=watch.tmp, timeout=60)
    assert_one_line_error(result, "/proc/self/.advisor.lock: cannot create the records lock")


@pytest.mark.parametrize("kind", ["fifo", "folder", "dev-zero"])
def test_a_lock_file_that_is_not_a_file_is_refused(tmp_path: Path, kind: str) -> None:
    project = make_project(tmp_path)
    lock = project.root / ".git" / "advisor.lock"
    make_bad(lock, kind, 0, tmp_path)
    with unchanged(project.root) as watch:
        if kind in HANGS_OR_EATS_MEMORY:
            result = run_advisor(ASSESS, cwd=project.root, tmp=watch.tmp, timeout=60)
        else:
            result = invoke_advisor(ASSESS, cwd=project.root, tmp=watch.tmp)
    said = {
        "fifo": "a FIFO (named pipe), not a lock file",
        "folder": "cannot create the records lock (Is a directory)",
        "dev-zero": "cannot create the records lock (Too many levels of symbolic links)",  # never opened through a link
    }[kind]
    assert_one_line_error(result, str(lock), said)


HOLD_LOCK = """
import sys, time
from filelock import FileLock
lock = FileLock(sys.argv[1])
lock.acquire()
print("held", flush=True)
time.sleep(120)
"""


@pytest.mark.parametrize("command", ["assess", "review"])
def test_a_held_lock_gives_up_after_the_stated_time_naming_the_lock(tmp_path: Path, command: str) -> None:
    project = make_project(tmp_path)
    lock = project.root / ".git" / "advisor.lock"
    holder = subprocess.Popen([sys.executable, "-c", HOLD_LOCK, str(lock)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        args = ASSESS if command == "assess" else ["review", "1", "--evidence", str(CPU_SUITE)]
        with unchanged(project.root) as watch:
            env = child_environment(watch.tmp, **{LOCK_TIMEOUT_ENV: "0.3"})
            result = invoke_advisor(args, cwd=project.root, tmp=watch.tmp, env=env)
        assert_one_line_error(result, f"{lock}: another advisor run holds the records lock; gave up after 0.3 s")
    finally:
        holder.kill()
        holder.wait()


@pytest.mark.parametrize("value", ["soon", "-1", "nan", "inf"])
def test_a_bad_lock_timeout_is_one_line_naming_the_variable(tmp_path: Path, value: str) -> None:
    project = make_project(tmp_path)
    with unchanged(project.root) as watch:
        env = child_environment(watch.tmp, **{LOCK_TIMEOUT_ENV: value})
        result = invoke_advisor(ASSESS, cwd=project.root, tmp=watch.tmp, env=env)
    assert_one_line_error(result, f"{LOCK_TIMEOUT_ENV}={value!r}", "seconds")


# Settings that do not read are an error naming the file, never a run on the defaults.
BAD_SETTINGS = {
    "advisor-toml-invalid": (SETTINGS_FILE, b"records_dir = [\n", "not valid TOML"),
    "advisor-toml-not-utf8": (SETTINGS_FILE, b'records_dir = "\xff"\n', "not UTF-8 text"),
    "advisor-toml-deep": (SETTINGS_FILE, b"x = " + b"[" * 5000 + b"]" * 5000 + b"\n", "nested too deeply"),
    "pyproject-invalid": (PYPROJECT, b"[tool.advisor\nbudget = 5\n", "not valid TOML"),
    "pyproject-not-utf8": (PYPROJECT, b"[project]\nname = '\xfe'\n", "not UTF-8 text"),
}


@pytest.mark.parametrize("name", sorted(BAD_SETTINGS))
@pytest.mark.parametrize("command", [("config",), tuple(ASSESS), ("records", "list")])
def test_settings_that_do_not_read_are_an_error_naming_the_file(
    tmp_path: Path, name: str, command: tuple[str, ...]
) -> None:
    file_name, content, said = BAD_SETTINGS[name]
    project = make_project(tmp_path)
    (project.root / file_name).write_bytes(content)
    with unchanged(project.root) as watch:
        result = invoke_advisor(list(command), cwd=project.root / "records", tmp=watch.tmp)
    assert_one_line_error(result, str(project.root / file_name), said)


def test_a_profile_field_wrong_after_the_flags_names_the_file(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    with unchanged(project.root) as watch:
        result = invoke_advisor([*ASSESS, "--other-hardware", "arm-cpu"], cwd=project.root, tmp=watch.tmp)
    assert_one_line_error(result, "profile.yaml with the flags: ", "cross_platform")


def test_a_profile_under_the_cap_is_read_whatever_its_json_size(tmp_path: Path) -> None:
    """A title of 20,000 non-ASCII characters (60 KB of UTF-8, 120 KB as escaped JSON) used to fail as "the
    answers: larger than a profile may be"; the file is under its cap, so it reads."""
    project = make_project(tmp_path)
    profile = project.root / "wide.yaml"
    profile.write_text(project.root.joinpath("profile.yaml").read_text() + "title: " + "é" * 20_000 + "\n")
    assert profile.stat().st_size < PROFILE_FILE.cap
    result = invoke_advisor(
        ["assess", "--profile", str(profile), "--yes", "--no-probes", "--no-commit"], cwd=project.root, tmp=tmp_path
    )
    assert result.returncode == 0, result.stderr
    assert "decision 0002 written" in result.stdout


def test_the_repositorys_own_evidence_is_far_inside_the_caps() -> None:
    """The count caps leave real evidence alone: every committed record's evidence reads, each well inside."""
    from probes.models import Evidence

    files = sorted((Path(__file__).resolve().parents[2] / "records").glob("*.evidence.json"))
    assert files
    for path in files:
        evidence = Evidence.load(path)
        assert 0 < len(evidence.cases) <= MAX_CASES_PER_FILE // 100
        assert max(len(case.timing.samples) for case in evidence.cases if case.timing) <= MAX_SAMPLES_PER_CASE // 5
        assert path.stat().st_size <= EVIDENCE_FILE.cap // 100
