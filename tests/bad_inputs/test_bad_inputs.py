"""Bad input to every command: exit code 2, one line on stderr naming the file, field or flag, and the
records folder and the git index exactly as they were (nothing half-written, nothing staged).

The cases are a table: bad profiles x the commands that read a profile, bad evidence files x the
commands that read evidence, and bad flags, folders and ids. Every run is in process (typer's runner
on the real application), so the table stays fast.
"""

from __future__ import annotations

import copy
import datetime as dt
import hashlib
import json
from pathlib import Path

import pytest
from git import Repo
from typer.testing import CliRunner

from advisor.cli import app
from advisor.profile import Profile
from advisor.recommendation.engine import recommend
from advisor.records.decision import write_decision
from probes.models import Evidence

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
GOOD_PROFILE = "model_type: dense-transformer\nhardware: x86-cpu\nworkload: inference\nteam_skill: framework\n"

BAD_PROFILES: dict[str, tuple[bytes | None, str]] = {
    # name: (file content, None for a folder / no file; what the one-line error must say)
    "not-utf8.yaml": (b"model_type: \xff\xfe\n", "not UTF-8"),
    "alias-bomb.yaml": (b'a: &a ["x","x"]\nb: &b [*a,*a]\nc: [*b,*b]\n', "aliases"),
    "duplicate-key.yaml": ((GOOD_PROFILE + "workload: training\n").encode(), "duplicate key 'workload'"),
    "deep.yaml": (("a: " + "[" * 200 + "]" * 200 + "\n").encode(), "nested"),
    "deep.json": (('{"a": ' + "[" * 10000 + "]" * 10000 + "}").encode(), "nested too deeply"),
    "huge.yaml": ((GOOD_PROFILE + "title: " + "x" * 70000 + "\n").encode(), "larger than a profile file may be"),
    "list.yaml": (b"- model_type\n- cnn\n", "expected a mapping of profile fields"),
    "model-type.yaml": (GOOD_PROFILE.replace("dense-transformer", "rnn").encode(), "model_type: 'rnn' is not one of"),
    "hardware.yaml": (GOOD_PROFILE.replace("x86-cpu", "tpu-v9").encode(), "hardware: 'tpu-v9' is not one of"),
    "workload.yaml": (GOOD_PROFILE.replace("inference", "serving").encode(), "workload: 'serving' is not one of"),
    "skill.yaml": (GOOD_PROFILE.replace("framework", "wizard").encode(), "team_skill: 'wizard' is not one of"),
    "quantization.yaml": ((GOOD_PROFILE + "needs: {quantization: int2}\n").encode(), "needs.quantization: 'int2'"),
    "devices-zero.yaml": ((GOOD_PROFILE + "needs: {devices: 0}\n").encode(), "needs.devices"),
    "devices-text.yaml": ((GOOD_PROFILE + "needs: {devices: many}\n").encode(), "needs.devices"),
    "unknown-field.yaml": ((GOOD_PROFILE + "gpus: 8\n").encode(), "gpus: unknown field"),
    "other-no-cross.yaml": ((GOOD_PROFILE + "needs: {other_hardware: [arm-cpu]}\n").encode(), "cross_platform: true"),
    "other-self.yaml": (
        (GOOD_PROFILE + "needs: {cross_platform: true, other_hardware: [x86-cpu]}\n").encode(),
        "the target 'x86-cpu' itself",
    ),
    "other-bad.yaml": (
        (GOOD_PROFILE + "needs: {cross_platform: true, other_hardware: [vax]}\n").encode(),
        "needs.other_hardware: 'vax'",
    ),
    "long-value.yaml": (GOOD_PROFILE.replace("dense-transformer", "x" * 50000).encode(), "'xxxxxxxx"),  # echo capped
    "json-invalid.json": (b'{"model_type": }', "not valid JSON"),
    "yaml-invalid.yaml": (b"model_type: [cnn\n", "not valid YAML"),
    "missing-field.yaml": (
        b"model_type: cnn\nhardware: x86-cpu\nworkload: inference\n",
        "team_skill: required field missing",
    ),
    "empty.yaml": (b"", "expected a mapping of profile fields"),
    "a-folder": (None, "a folder, not a profile file"),
    "no-such-profile.yaml": (b"", "no such file"),  # removed after writing: a missing file
}


RECORD_VARIANTS = {
    "record-schema-99": "schema_version: 99",
    "record-schema-negative": "schema_version: -7",
    "record-schema-true": "schema_version: true",
    "record-alias": "schema_version: 1\nextra_alias: &a [1]\nagain: *a",
    "record-duplicate": "schema_version: 1\nschema_version: 1",
}


def _evidence_variants() -> dict[str, tuple[str | bytes | None, str]]:
    suite = json.loads((FIXTURES / "cpu-suite.json").read_text(encoding="utf-8"))
    timed = next(index for index, case in enumerate(suite["cases"]) if case.get("timing"))

    def changed(edit) -> str:  # type: ignore[no-untyped-def]
        document = copy.deepcopy(suite)
        edit(document, document["cases"][timed]["timing"])
        return json.dumps(document)

    return {
        "nan.json": (changed(lambda d, t: t["samples"].__setitem__(0, float("nan"))), "NaN is not a number"),
        "inf.json": (changed(lambda d, t: t["samples"].__setitem__(0, float("inf"))), "Infinity is not a number"),
        "negative.json": (changed(lambda d, t: t["samples"].__setitem__(0, -1.0)), "finite, non-negative"),
        "empty-samples.json": (changed(lambda d, t: t.__setitem__("samples", [])), "at least one sample"),
        "negative-median.json": (changed(lambda d, t: t["stats"].__setitem__("median", -0.5)), "stats must be finite"),
        "schema-99.json": (changed(lambda d, t: d.__setitem__("schema_version", 99)), "newer than this advisor reads"),
        "schema-negative.json": (changed(lambda d, t: d.__setitem__("schema_version", -7)), "schema_version"),
        "schema-true.json": (changed(lambda d, t: d.__setitem__("schema_version", True)), "schema_version"),
        "not-json.json": ("this is not json", "not valid JSON"),
        "deep-evidence.json": ("[" * 100000 + "]" * 100000, "nested too deeply"),
        "not-utf8-evidence.json": (b"\xff\xfe{}", "not UTF-8"),
        "only-version.json": ('{"schema_version": 1}', "not an evidence file (environment"),
        "evidence-folder": (None, "a folder, not an evidence file"),
        "no-such-evidence.json": ("", "no such file"),  # removed after writing
    }


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A git repository with one committed record, a good profile and evidence, and every bad file."""
    root = tmp_path_factory.mktemp("bad-inputs")
    repo = Repo.init(root / "project")
    with repo.config_writer() as config:
        config.set_value("user", "name", "Bad Inputs")
        config.set_value("user", "email", "bad@example.com")
    records = Path(repo.working_tree_dir) / "records"
    suite = Evidence.load(FIXTURES / "cpu-suite.json")
    profile = Profile(model_type="dense-transformer", hardware="x86-cpu", workload="inference", team_skill="framework")
    write_decision(
        recommend(profile, [suite]),
        [suite],
        records_dir=records,
        title="Kept",
        deciders=["Ann"],
        date=dt.date(2026, 1, 2),
    )
    bad = root / "bad"
    bad.mkdir()
    for name, (content, _) in {**BAD_PROFILES, **_evidence_variants()}.items():
        path = bad / name
        if content is None:
            path.mkdir()
        elif "no-such" not in name:
            path.write_bytes(content if isinstance(content, bytes) else content.encode())
    original = next(records.glob("0001-*.md")).read_text(encoding="utf-8")
    for name, replacement in RECORD_VARIANTS.items():  # a copy of the record with one bad front-matter value
        folder = root / name
        folder.mkdir()
        (folder / "0001-kept.md").write_text(original.replace("schema_version: 1", replacement), encoding="utf-8")
    good = root / "good.yaml"
    good.write_text(GOOD_PROFILE, encoding="utf-8")
    (root / "a-file").write_text("not a folder\n", encoding="utf-8")
    return {"root": root, "records": records, "bad": bad, "good": good, "evidence": FIXTURES / "cpu-suite.json"}


def _cases() -> list[tuple[str, list[str], str]]:
    cases: list[tuple[str, list[str], str]] = []
    for name, (_, said) in BAD_PROFILES.items():
        cases.append((f"recommend-profile-{name}", ["recommend", "--profile", "{bad}/" + name], said))
        cases.append(
            (
                f"assess-profile-{name}",
                ["assess", "--profile", "{bad}/" + name, "--yes", "--no-probes", "--records-dir", "{records}"],
                said,
            )
        )
    for name, (_, said) in _evidence_variants().items():
        evidence = "{bad}/" + name
        cases += [
            (f"recommend-evidence-{name}", ["recommend", "--profile", "{good}", "--evidence", evidence], said),
            (f"compare-first-{name}", ["compare", evidence, "{evidence}"], said),
            (f"compare-second-{name}", ["compare", "{evidence}", evidence], said),
            (
                f"assess-evidence-{name}",
                ["assess", "--profile", "{good}", "--yes", "--evidence", evidence, "--records-dir", "{records}"],
                said,
            ),
            (
                f"review-evidence-{name}",
                ["review", "1", "--evidence", evidence, "--records-dir", "{records}", "--today", "2027-06-01"],
                said,
            ),
        ]
    for command in (
        ["records", "list"],
        ["records", "show", "1"],
        ["records", "history", "1"],
        ["records", "accept", "1"],
        ["records", "supersede", "1", "2"],
        ["review", "--due"],
        ["assess", "--yes", "--no-probes"],
        ["site", "build"],
    ):
        cases.append(
            (f"records-dir-file-{'-'.join(command)}", [*command, "--records-dir", "{root}/a-file"], "--records-dir")
        )
    for name in RECORD_VARIANTS:
        for command in (
            ["records", "show", "1"],
            ["records", "accept", "1"],
            ["review", "1", "--evidence", "{evidence}"],
        ):
            cases.append(
                (
                    f"{name}-{'-'.join(command[:2])}",
                    [*command, "--records-dir", "{root}/" + name],
                    "front matter" if name in ("record-alias", "record-duplicate") else "schema_version",
                )
            )
    cases += [
        ("records-show-missing", ["records", "show", "42", "--records-dir", "{records}"], "no record 0042"),
        ("records-accept-missing", ["records", "accept", "42", "--records-dir", "{records}"], "no record 0042"),
        ("records-history-missing", ["records", "history", "42", "--records-dir", "{records}"], "no record 0042"),
        (
            "records-supersede-missing",
            ["records", "supersede", "1", "42", "--records-dir", "{records}"],
            "no record 0042",
        ),
        ("review-missing", ["review", "42", "--records-dir", "{records}", "--evidence", "{evidence}"], "0042"),
        ("review-bad-today", ["review", "--due", "--records-dir", "{records}", "--today", "yesterday"], "--today"),
        ("assess-budget-zero", ["assess", "--yes", "--budget", "0", "--records-dir", "{records}"], "--budget"),
        (
            "assess-bad-hardware",
            ["assess", "--yes", "--no-probes", "--hardware", "tpu-v9", "--records-dir", "{records}"],
            "hardware: 'tpu-v9'",
        ),
        (
            "assess-other-without-cross",
            ["assess", "--yes", "--no-probes", "--other-hardware", "arm-cpu", "--records-dir", "{records}"],
            "cross_platform: true",
        ),
        (
            "assess-bad-quantization",
            ["assess", "--yes", "--no-probes", "--quantization", "int2", "--records-dir", "{records}"],
            "'int2'",
        ),
        ("kb-show-missing", ["kb", "show", "no-such-stack"], "no-such-stack"),
        ("kb-platform-missing", ["kb", "platform", "no-such-family"], "no-such-family"),
        ("kb-method-missing", ["kb", "method", "no-such-anchor"], "no-such-anchor"),
        ("kb-audit-bad-date", ["kb", "audit", "--as-of", "someday"], "--as-of"),
        ("kb-check-missing", ["kb", "check", "{root}/missing.yaml"], "missing.yaml"),
        (
            "site-bad-today",
            ["site", "build", "--records-dir", "{records}", "--today", "soon", "--out", "{root}/out"],
            "soon",
        ),
        ("probe-unknown", ["probe", "no-such-probe"], "no-such-probe"),
        ("probe-model-type", ["probe", "gemm", "--model-type", "rnn"], "--model-type"),
        ("schema-unknown", ["schema", "no-such-format"], "no-such-format"),
        ("ops-missing", ["ops", "{root}/missing.onnx"], "missing.onnx"),
        ("recommend-profile-folder", ["recommend", "--profile", "{root}"], "a folder, not a profile file"),
    ]
    return cases


CASES = _cases()


def test_the_table_covers_every_command_many_times():
    assert len(CASES) >= 120
    assert {args[0] for _, args, _ in CASES} >= {
        "recommend",
        "assess",
        "compare",
        "review",
        "records",
        "site",
        "kb",
        "probe",
        "schema",
        "ops",
    }


def _snapshot(project: dict[str, Path]) -> tuple[dict[str, str], str, str]:
    records = project["records"]
    files = {
        str(p.relative_to(records)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(records.rglob("*"))
        if p.is_file() and p.name != ".advisor.lock"
    }
    repo = Repo(project["root"] / "project")
    return files, repo.git.ls_files("--stage"), repo.git.status("--porcelain", "--untracked-files=no")


@pytest.mark.parametrize("name, args, said", CASES, ids=[name for name, _, _ in CASES])
def test_bad_input_is_one_line_and_changes_nothing(project: dict[str, Path], name: str, args: list[str], said: str):
    before = _snapshot(project)
    filled = [arg.format(**{key: str(value) for key, value in project.items()}) for arg in args]
    result = CliRunner().invoke(app, filled)
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert said in lines[0], lines[0]
    assert len(lines[0]) < 600  # an echoed value is capped
    assert _snapshot(project) == before
