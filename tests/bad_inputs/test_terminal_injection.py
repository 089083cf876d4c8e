r"""Terminal injection: control characters in a value from a file or a flag never reach the terminal raw.

Hostile values (an OSC title sequence `\x1b]0;pwn\x07`, a screen clear `\x1b[2J`, `\r` and `\b` that rewrite
the line, C1 CSI `\x9b`, BEL, NUL and an embedded newline) go into every place a value comes from: a profile
title, the settings' deciders, an ONNX model's opset domain, a knowledge-base override's name, evidence case
names, a record's title, body and commit message, flags and file names. Each case runs the real CLI and
asserts that stdout and stderr hold no control character but the newline (and the escaped form is there),
with the exit code the command gives anyway. A few run in a child process, one on a real pseudo-terminal
(rich draws its progress bars and colours there: those survive, the values' sequences do not), and one
builds the site: no generated page holds a control character (dropped there: an escape would read wrong).
"""

from __future__ import annotations

import io
import json
import os
import pty
import re
import select
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml
from harness import CPU_SUITE, GOOD_PROFILE, Project, invoke_advisor, make_project, run_advisor, unchanged
from typer.testing import CliRunner

from advisor.cli import app
from probes.terminal_text import ShownStream, escaped_streams, json_safe, one_line, shown, without_controls

ROOT = Path(__file__).resolve().parents[2]
# Everything but the newline: our own layout uses no tab either.
RAW_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f]")
HOSTILE = "T\x1b]0;pwn\x07 \x1b[2J \r \b \x9b31m \x07 \x00 a\nb end"
FLAG_HOSTILE = HOSTILE.replace("\x00", "")  # argv cannot hold NUL
# What the hostile value reads as, escaped, wherever it is printed.
ESCAPED = ["\\x1b]0;pwn\\x07", "\\x1b[2J", "\\r", "\\x08", "\\x9b31m", "\\x07"]
ESCAPED_NUL = "\\x00"
ONE_LINE = "a\\nb end"  # a value's newline inside a one-line message
WIDE = {"COLUMNS": "400"}  # rich tables wide enough that no escaped sequence is folded


def assert_no_raw_control(text: str, where: str) -> None:
    """No control character but the newline in `text`."""
    found = RAW_CONTROL.search(text)
    assert found is None, f"raw {found.group()!r} in {where}: {text[max(found.start() - 80, 0) : found.end() + 80]!r}"


def assert_escaped(text: str, *needles: str) -> None:
    for needle in needles:
        assert needle in text, f"{needle!r} not shown in {text[-3000:]!r}"


# --- the hostile files each case needs --------------------------------------------------------------------------


def hostile_profile(directory: Path, title: str = HOSTILE) -> Path:
    path = directory / "hostile-profile.yaml"
    document = yaml.safe_load(GOOD_PROFILE)
    path.write_text(yaml.safe_dump({**document, "title": title}), encoding="utf-8")  # YAML escapes the controls
    return path


def hostile_record_title(project: Project) -> Path:
    """Record 0001 hand-edited: its title holds every hostile character (YAML escapes: the file stays valid)."""
    record = next(project.records.glob("0001-*.md"))
    text = record.read_text(encoding="utf-8")
    assert "title: Kept\n" in text
    record.write_text(text.replace("title: Kept\n", f"title: {json.dumps(HOSTILE)}\n", 1), encoding="utf-8")
    return record


def hostile_evidence(directory: Path) -> tuple[Path, Path]:
    """Two evidence files from the CPU suite: case 0's layout hostile in both, case 1's implementation in B only."""
    document = json.loads(CPU_SUITE.read_text(encoding="utf-8"))
    document["cases"][0]["key"]["layout"] = HOSTILE
    a = directory / "a.json"
    a.write_text(json.dumps(document), encoding="utf-8")
    document["cases"][1]["key"]["implementation"] = "impl" + HOSTILE
    b = directory / "b.json"
    b.write_text(json.dumps(document), encoding="utf-8")
    return a, b


def hostile_onnx(directory: Path) -> Path:
    """A tiny model importing an opset whose domain is hostile, with one node in that domain."""
    import onnx
    from onnx import TensorProto, helper

    domain = HOSTILE.replace("\x00", "")  # protobuf strings hold NUL, but onnx's checker is not the point here
    node = helper.make_node("Custom", ["x"], ["y"], domain=domain)
    graph = helper.make_graph(
        [node],
        "hostile",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21), helper.make_opsetid(domain, 1)])
    path = directory / "hostile.onnx"
    onnx.save(model, str(path))
    return path


def hostile_knowledge(directory: Path) -> Path:
    """An ADVISOR_KB_DIR root adding a family and a candidate whose names are hostile."""
    sys.path.insert(0, str(ROOT / "tests" / "knowledge"))
    try:
        from knowledge_builders import candidate_document, platform_document, write_root
    finally:
        sys.path.remove(str(ROOT / "tests" / "knowledge"))
    candidate = candidate_document("fastblas", ["acme-npu"], ["gemm"], name="Fast" + HOSTILE)
    platform = platform_document("acme-npu", {"gemm": ["fastblas"]}, name="Acme" + HOSTILE)
    return write_root(directory / "kb", [candidate], [platform])


# --- the table: where the hostile value goes, which command prints it ----------------------------------------


@dataclass(frozen=True)
class Case:
    """Set up the project, then run `args` (from its root) with `env`; `code` and where the escape shows."""

    setup: Callable[[Project], tuple[list[str], dict[str, str]]]
    code: int = 0
    stream: str = "stdout"
    needles: list[str] = field(default_factory=lambda: [*ESCAPED, ESCAPED_NUL])
    prompts: str | None = None


def _assess_profile(project: Project) -> tuple[list[str], dict[str, str]]:
    profile = hostile_profile(project.root.parent)
    return ["assess", "--profile", str(profile), "--yes", "--no-probes", "--records-dir", "records"], {}


def _recommend_profile(project: Project) -> tuple[list[str], dict[str, str]]:
    return ["recommend", "--profile", str(hostile_profile(project.root.parent))], {}


def _title_flag(project: Project) -> tuple[list[str], dict[str, str]]:
    return ["assess", "--title", FLAG_HOSTILE, "--hardware", "x86-cpu", "--yes", "--no-probes", "--no-commit"], {}


def _settings_deciders(project: Project) -> tuple[list[str], dict[str, str]]:
    (project.root / "advisor.toml").write_text(f'deciders = [{json.dumps(HOSTILE)}, "Bob"]\n', encoding="utf-8")
    return ["config"], {}


def _settings_bad_value(project: Project) -> tuple[list[str], dict[str, str]]:
    (project.root / "advisor.toml").write_text(f"hardware = {json.dumps(HOSTILE)}\n", encoding="utf-8")
    return ["assess", "--yes", "--no-probes", "--no-commit"], {}


def _onnx_domain(project: Project) -> tuple[list[str], dict[str, str]]:
    return ["ops", str(hostile_onnx(project.root.parent))], {}


def _kb_list(project: Project) -> tuple[list[str], dict[str, str]]:
    return ["kb", "list", "--hardware", "acme-npu"], {"ADVISOR_KB_DIR": str(hostile_knowledge(project.root.parent))}


def _kb_show(project: Project) -> tuple[list[str], dict[str, str]]:
    return ["kb", "show", "fastblas"], {"ADVISOR_KB_DIR": str(hostile_knowledge(project.root.parent))}


def _kb_platforms(project: Project) -> tuple[list[str], dict[str, str]]:
    return ["kb", "platform", "acme-npu"], {"ADVISOR_KB_DIR": str(hostile_knowledge(project.root.parent))}


def _compare(project: Project) -> tuple[list[str], dict[str, str]]:
    a, b = hostile_evidence(project.root.parent)
    return ["compare", str(a), str(b)], {}


def _records_list(project: Project) -> tuple[list[str], dict[str, str]]:
    hostile_record_title(project)
    return ["records", "list"], {}


def _records_show(project: Project) -> tuple[list[str], dict[str, str]]:
    record = next(project.records.glob("0001-*.md"))
    with record.open("a", encoding="utf-8") as body:
        body.write(f"\nHand-edited: {HOSTILE}\n")
    return ["records", "show", "1"], {}


def _records_history(project: Project) -> tuple[list[str], dict[str, str]]:
    record = next(project.records.glob("0001-*.md"))
    with record.open("a", encoding="utf-8") as body:
        body.write("\nA note.\n")
    project.repo.index.add([str(record)])
    project.repo.index.commit("edit " + HOSTILE.replace("\x00", "").replace("\n", " "))  # git keeps one line
    return ["records", "history", "1"], {}


def _review_check(project: Project) -> tuple[list[str], dict[str, str]]:
    hostile_record_title(project)
    return ["review", "--due", "--check", "--today", "2031-01-01"], {}


def _malformed_record_in_hostile_folder(project: Project) -> tuple[list[str], dict[str, str]]:
    folder = project.root / f"r{FLAG_HOSTILE}"
    folder.mkdir()
    (folder / "0002-bad.md").write_text("---\nid: [\n---\n", encoding="utf-8")
    return ["records", "list", "--records-dir", str(folder)], {}


def _missing_profile_name(project: Project) -> tuple[list[str], dict[str, str]]:
    return ["recommend", "--profile", str(project.root / f"p{FLAG_HOSTILE}.yaml")], {}


def _bad_profile_name(project: Project) -> tuple[list[str], dict[str, str]]:
    path = project.root / f"p{FLAG_HOSTILE}.yaml"
    path.write_text("model_type: [\n", encoding="utf-8")
    return ["recommend", "--profile", str(path)], {}


def _records_dir_file(project: Project) -> tuple[list[str], dict[str, str]]:
    path = project.root / f"r{FLAG_HOSTILE}"
    path.write_text("a file", encoding="utf-8")
    return ["records", "list", "--records-dir", str(path)], {}


def _hardware_flag(project: Project) -> tuple[list[str], dict[str, str]]:
    return ["assess", "--hardware", FLAG_HOSTILE, "--yes", "--no-probes", "--no-commit"], {}


def _choice_flag(project: Project) -> tuple[list[str], dict[str, str]]:
    return ["assess", "--model-type", FLAG_HOSTILE, "--yes", "--no-probes"], {}


def _unknown_option(project: Project) -> tuple[list[str], dict[str, str]]:
    return ["records", "list", f"--x{FLAG_HOSTILE}"], {}


def _today_flag(project: Project) -> tuple[list[str], dict[str, str]]:
    return ["review", "--due", "--check", "--today", FLAG_HOSTILE], {}


def _prompts(project: Project) -> tuple[list[str], dict[str, str]]:
    flags = [
        "--hardware",
        "x86-cpu",
        "--target-device",
        "epyc-9005-turin",
        "--workload",
        "inference",
        "--team-skill",
        "framework",
        "--no-dynamic-shapes",
        "--quantization",
        "none",
        "--no-long-context",
        "--devices",
        "1",
        "--no-cross-platform",
    ]
    return ["assess", *flags, "--no-probes", "--no-commit"], {"ADVISOR_FORCE_PROMPTS": "1"}


WITHOUT_NUL = [*ESCAPED]
TYPED = FLAG_HOSTILE.replace("\r", "").replace("\n", "")
CASES: dict[str, Case] = {
    "profile title, assess": Case(_assess_profile),
    "profile title, recommend": Case(_recommend_profile),
    "--title": Case(_title_flag, needles=[*WITHOUT_NUL, ONE_LINE]),
    "settings deciders, config": Case(_settings_deciders, needles=[*ESCAPED, ESCAPED_NUL, ONE_LINE]),
    "settings value echoed in the error": Case(_settings_bad_value, code=2, stream="stderr", needles=["\\x1b]0;pwn"]),
    "ONNX opset domain, ops": Case(_onnx_domain, needles=[*WITHOUT_NUL, ONE_LINE]),
    "KB override name, kb list": Case(_kb_list),
    "KB override name, kb show": Case(_kb_show),
    "KB override platform name, kb platform": Case(_kb_platforms),
    "evidence case names, compare": Case(_compare),
    "record title, records list": Case(_records_list, needles=[*ESCAPED, ESCAPED_NUL, ONE_LINE]),
    # Read as text, a lone \r in a file is a line end (universal newlines): shown as one, never raw.
    "record body, records show": Case(_records_show, needles=[n for n in (*ESCAPED, ESCAPED_NUL) if n != "\\r"]),
    "commit message, records history": Case(_records_history, needles=WITHOUT_NUL),
    "record title, review --due --check": Case(_review_check, code=1, needles=[*ESCAPED, ESCAPED_NUL, ONE_LINE]),
    "malformed record's folder name, warning": Case(
        _malformed_record_in_hostile_folder, stream="stderr", needles=[*WITHOUT_NUL, "a\\nb"]
    ),
    "missing profile's name, error": Case(
        _missing_profile_name, code=2, stream="stderr", needles=[*WITHOUT_NUL, "a\\nb"]
    ),
    "bad profile's name, error": Case(_bad_profile_name, code=2, stream="stderr", needles=[*WITHOUT_NUL, "a\\nb"]),
    "--records-dir naming a file, error": Case(
        _records_dir_file, code=2, stream="stderr", needles=[*WITHOUT_NUL, "a\\nb"]
    ),
    "--hardware, error": Case(_hardware_flag, code=2, stream="stderr", needles=["\\x1b]0;pwn"]),
    "--model-type, usage error": Case(_choice_flag, code=2, stream="stderr", needles=["\\x1b]0;pwn"]),
    "unknown option, usage error": Case(_unknown_option, code=2, stream="stderr", needles=["\\x1b]0;pwn", "\\x1b[2J"]),
    "--today, error": Case(_today_flag, code=2, stream="stderr", needles=[*WITHOUT_NUL, "a\\nb"]),
    # Typed at a prompt, \r and \n end the answer (as Enter does), so the typed value holds neither.
    "prompt answers echoed": Case(
        _prompts,
        prompts=f"bad{TYPED}\ndense-transformer\nMy{TYPED}\nAnn\n",
        needles=[n for n in WITHOUT_NUL if n != "\\r"],
    ),
}
ONE_LINE_STDERR = {name for name, case in CASES.items() if case.stream == "stderr"}


@pytest.mark.parametrize("name", list(CASES))
def test_a_hostile_value_is_shown_escaped(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    case = CASES[name]
    project = make_project(tmp_path)
    args, env = case.setup(project)
    monkeypatch.chdir(project.root)
    result = CliRunner().invoke(app, args, env={**WIDE, **env}, input=case.prompts)
    assert result.exit_code == case.code, (result.exit_code, result.stdout[-2000:], result.stderr[-2000:])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert_no_raw_control(result.stdout, "stdout")
    assert_no_raw_control(result.stderr, "stderr")
    assert_escaped(result.stdout if case.stream == "stdout" else result.stderr, *case.needles)
    if name in ONE_LINE_STDERR:  # an error or a warning is one line, whatever newline the value holds
        lines = [line for line in result.stderr.splitlines() if line.startswith(("error: ", "warning: "))]
        assert len(lines) == 1 and len(result.stderr.splitlines()) == 1, result.stderr


def test_every_case_prints_the_value_it_was_given():
    # Guard on the table: a case whose needles are all absent from a clean run would prove nothing.
    assert all(case.needles for case in CASES.values())
    assert len(CASES) >= 20


# --- JSON: valid, the value unchanged once parsed, no raw control character ----------------------------------


@pytest.mark.parametrize(
    "args, read",
    [
        (["records", "list", "--json"], lambda document: document["records"][0]["title"]),
        (["kb", "list", "--hardware", "acme-npu", "--json"], lambda document: document[0]["name"].removeprefix("Fast")),
        (["kb", "show", "fastblas", "--json"], lambda document: document["name"].removeprefix("Fast")),
        (
            ["kb", "platforms", "--json"],
            lambda document: next(p["name"] for p in document if p["id"] == "acme-npu").removeprefix("Acme"),
        ),
    ],
)
def test_json_output_escapes_c1_and_stays_valid(args, read, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    project = make_project(tmp_path)
    hostile_record_title(project)
    monkeypatch.chdir(project.root)
    env = {"ADVISOR_KB_DIR": str(hostile_knowledge(tmp_path))}
    result = CliRunner().invoke(app, args, env=env)
    assert result.exit_code == 0, result.output
    assert_no_raw_control(result.stdout, "stdout")
    assert "\\u009b" in result.stdout and "\\u001b" in result.stdout
    assert read(json.loads(result.stdout)) == HOSTILE


def test_evidence_json_from_probe_escapes_c1(tmp_path: Path):
    # print_json (pydantic's model_dump_json leaves DEL and C1 raw) on the Evidence model itself.
    from advisor.cli.output import print_json
    from probes.models import Evidence

    document = json.loads(CPU_SUITE.read_text(encoding="utf-8"))
    document["cases"][0]["key"]["layout"] = HOSTILE
    evidence = Evidence.model_validate(document)
    buffer = io.StringIO()
    saved = sys.stdout
    sys.stdout = buffer
    try:
        print_json(evidence)
    finally:
        sys.stdout = saved
    assert_no_raw_control(buffer.getvalue(), "evidence JSON")
    assert Evidence.model_validate_json(buffer.getvalue()).cases[0].key.layout == HOSTILE


# --- the real streams, in child processes ---------------------------------------------------------------------


def test_child_process_streams_are_escaped(tmp_path: Path):
    project = make_project(tmp_path)
    profile = hostile_profile(tmp_path)
    with unchanged(project.root) as watch:
        result = run_advisor(["recommend", "--profile", str(profile)], cwd=project.root, tmp=watch.tmp)
        missing = run_advisor(["recommend", "--profile", f"p{FLAG_HOSTILE}.yaml"], cwd=project.root, tmp=watch.tmp)
    assert result.returncode == 0, result.stderr[-2000:]
    assert_no_raw_control(result.stdout + result.stderr, "the child's output")
    assert_escaped(result.stdout, *ESCAPED, ESCAPED_NUL)
    assert missing.returncode == 2 and len(missing.stderr.splitlines()) == 1, missing.stderr
    assert_no_raw_control(missing.stderr, "the child's error")
    assert_escaped(missing.stderr, *WITHOUT_NUL, "a\\nb")


def test_a_bug_s_traceback_shows_the_values_in_it_escaped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """An exception no handler expected (a bug) is printed as its traceback for the report, exit 1: a hostile
    value in its message is escaped there as everywhere else."""
    import advisor.cli.config

    def broken() -> None:
        raise RuntimeError(f"settings went wrong: {HOSTILE}")

    monkeypatch.setattr(advisor.cli.config, "project_settings", broken)
    project = make_project(tmp_path)
    result = invoke_advisor(["config"], cwd=project.root, tmp=tmp_path)
    assert result.returncode == 1
    assert result.stderr.startswith("Traceback (most recent call last):"), result.stderr[-2000:]
    assert_no_raw_control(result.stderr, "the traceback")
    assert_escaped(result.stderr, *ESCAPED, ESCAPED_NUL, "RuntimeError: settings went wrong: T")


TOY_PROBE = f'''
"""A third-party probe whose names carry control characters."""
from probes.registry import Bench, CaseSpec, Probe, implementation

HOSTILE = {FLAG_HOSTILE.replace(chr(10), " ")!r}


def toy_cases(device, share_s):
    return [CaseSpec(dtype="fp32", shape={{"n": 16}}, layout="L" + HOSTILE)]


@implementation("toy.sum" + HOSTILE, baseline=True)
def toy_sum(case, device):
    return Bench(run=lambda: sum(range(16)))


PROBE = Probe(name="toy", description="toy", cases=toy_cases)
'''


def run_on_terminal(args: list[str], cwd: Path, env: dict[str, str], timeout: float = 240) -> tuple[int, str]:
    """The CLI in a child whose stdin, stdout and stderr are a pseudo-terminal: what a user's terminal receives."""
    controller, terminal = pty.openpty()
    child = subprocess.Popen(
        [sys.executable, "-m", "advisor", *args],
        cwd=cwd,
        env=env,
        stdin=terminal,
        stdout=terminal,
        stderr=terminal,
        close_fds=True,
    )
    os.close(terminal)
    received = b""
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([controller], [], [], 0.5)
            if not ready:
                if child.poll() is not None:
                    break
                continue
            try:
                chunk = os.read(controller, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            received += chunk
    finally:
        if child.poll() is None:
            child.kill()
        code = child.wait(timeout=30)
        os.close(controller)
    return code, received.decode("utf-8", errors="replace")


def test_on_a_terminal_rich_keeps_its_styling_and_the_probe_names_are_escaped(tmp_path: Path):
    probes_dir = tmp_path / "third-party"
    (probes_dir / "toy").mkdir(parents=True)
    (probes_dir / "toy" / "probe.py").write_text(TOY_PROBE, encoding="utf-8")
    env = {**os.environ, "ADVISOR_PROBE_DIRS": str(probes_dir), "TMPDIR": str(tmp_path), "COLUMNS": "220"}
    code, seen = run_on_terminal(["probe", "toy", "--budget", "60", "--out", str(tmp_path / "toy.json")], tmp_path, env)
    assert code == 0, seen[-3000:]
    assert "\x1b[1m" in seen or "\x1b[3m" in seen, "rich's own styling should reach the terminal"
    for raw in ("\x1b]", "\x1b[2J", "\x07", "\x08", "\x9b", "\x00"):  # rich writes none of these itself
        assert raw not in seen, (raw, seen[-3000:])
    assert "toy.sumT\\x1b]0;pwn\\x07 \\x1b[2J" in seen, seen[-3000:]


# --- the site ---------------------------------------------------------------------------------------------------


def test_site_pages_hold_no_control_character(tmp_path: Path):
    project = make_project(tmp_path)
    record = hostile_record_title(project)
    with record.open("a", encoding="utf-8") as body:
        body.write(f"\nHand-edited body: {HOSTILE} visible-marker\n")
    project.repo.git.add("-A")
    project.repo.index.commit("hostile record")
    out = tmp_path / "site-out"
    result = run_advisor(["site", "build", "--out", str(out)], cwd=project.root, tmp=tmp_path, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    assert_no_raw_control(result.stdout + result.stderr, "site build's output")
    pages = [path for path in out.rglob("*") if path.suffix in (".html", ".xml", ".json", ".txt")]
    assert any(path.suffix == ".html" for path in pages)
    for path in pages:
        # \r too: MkDocs writes \n line ends, and no page needs a raw \r; \t is the only layout kept besides \n.
        found = re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", path.read_text(encoding="utf-8"))
        assert found is None, f"{path.relative_to(out)}: raw {found.group()!r}"
    record_pages = [path.read_text(encoding="utf-8") for path in out.glob("decisions/0001-*/index.html")]
    assert record_pages and any("T]0;pwn" in page and "visible-marker" in page for page in record_pages)


# --- the pieces, and the rule that keeps new printing covered ----------------------------------------------------


@pytest.mark.parametrize(
    "raw, escaped, single",
    [
        ("T\x1b]0;pwn\x07", "T\\x1b]0;pwn\\x07", "T\\x1b]0;pwn\\x07"),
        ("a\rb\bc", "a\\rb\\x08c", "a\\rb\\x08c"),
        ("\x9b31m\x85\x7f", "\\x9b31m\\x85\\x7f", "\\x9b31m\\x85\\x7f"),
        ("\x00\x1f", "\\x00\\x1f", "\\x00\\x1f"),
        ("a\nb\tc", "a\nb\tc", "a\\nb\\tc"),
        ("plain ünïcode \\x1b — ok", "plain ünïcode \\x1b — ok", "plain ünïcode \\x1b — ok"),
    ],
)
def test_shown_and_one_line(raw: str, escaped: str, single: str):
    assert shown(raw) == escaped
    assert one_line(raw) == single
    assert RAW_CONTROL.search(without_controls(raw).replace("\t", "")) is None


def test_json_safe_keeps_json_valid():
    text = json.dumps({"t": "a\x7f\x9b\x1b"}, ensure_ascii=False)
    assert json.loads(json_safe(text)) == {"t": "a\x7f\x9b\x1b"} and RAW_CONTROL.search(json_safe(text)) is None


def test_escaped_streams_restore_what_was_there():
    before = sys.stdout, sys.stderr
    with escaped_streams():
        assert isinstance(sys.stdout, ShownStream) and isinstance(sys.stderr, ShownStream)
        with escaped_streams():  # nested: not wrapped twice
            assert not isinstance(sys.stdout.underlying, ShownStream)  # type: ignore[attr-defined]
    assert (sys.stdout, sys.stderr) == before


def test_a_shown_stream_is_a_text_stream_click_accepts():
    import typer

    buffer = io.StringIO()
    stream = ShownStream(buffer)
    typer.echo(f"x{HOSTILE}", file=stream, color=True)  # type: ignore[arg-type]
    assert buffer.getvalue() == shown(f"x{HOSTILE}") + "\n"
    with pytest.raises(TypeError):
        stream.write(b"bytes")  # type: ignore[arg-type]
    with pytest.raises(AttributeError):
        stream.buffer  # noqa: B018 - bytes there would pass unescaped


def test_every_rich_console_of_the_cli_comes_from_its_console_module():
    # A Console made elsewhere would write through the escaping streams: its colours shown as `\x1b[1m`.
    offenders = [
        f"{path.name}:{number}"
        for path in sorted((ROOT / "advisor" / "cli").glob("*.py"))
        if path.name != "console.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if re.search(r"\bConsole\(", line)
    ]
    assert offenders == []
