"""Every reader, fed random bytes and random mutations of valid files (Hypothesis): only the reader's own
one-line error (an AdvisorError subclass) may come out, never another exception, and a file that claims a
huge size is refused from its size before a byte is read.

Readers, called in process: the profile (`load_profile`, `parse_profile`), evidence (`Evidence.load`,
`Evidence.parse`), a decision record (`read_record`), the settings (`load_settings` on advisor.toml and
pyproject.toml), a knowledge-base entry (`read_mapping` + `validate_document`, and `kb check`'s
`check_files`), the peak table (ADVISOR_PEAKS_FILE through `accelerator_table`) and an ONNX model
(`read_model`). Seeds: the fixtures in tests/fixtures, a real record made by `make_project`, the packaged
knowledge-base and peak-table YAML, a small ONNX graph.
"""

from __future__ import annotations

import base64
import gzip
import json
import os
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path
from typing import Any
from unittest import mock

import onnx
import pytest
from harness import CPU_SUITE, GOOD_PROFILE, make_project
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.configuration import set_hypothesis_home_dir
from onnx import TensorProto, helper

from advisor.knowledge.check import check_files
from advisor.knowledge.claims import KnowledgeBaseError
from advisor.knowledge.loader import KNOWLEDGE_FILE, read_mapping, validate_document
from advisor.knowledge.models import Candidate
from advisor.knowledge.platforms import Platform
from advisor.ops.reading import MODEL_FILE, ModelReadError, read_model
from advisor.profile import PROFILE_FILE, ProfileError, load_profile, parse_profile
from advisor.records.models import RecordError
from advisor.records.store import RECORD_FILE, read_record
from advisor.settings import PYPROJECT, SETTINGS_FILE, SETTINGS_KINDS, SettingsError, load_settings
from probes.environment.peaks import PEAKS_FILE, PEAKS_FILE_VARIABLE, PeakTableError, accelerator_table
from probes.errors import AdvisorError
from probes.files.bounded_read import FileKind, read_bounded
from probes.models import EVIDENCE_FILE, MAX_SAMPLES_PER_CASE, Evidence, EvidenceSchemaError, Measurement

FUZZ = settings(
    max_examples=60,
    deadline=None,  # a busy machine must not fail a property; a hang still fails the suite's own timeout
    database=None,  # no .hypothesis folder in the repository
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
)

# Text that readers have stumbled on before: YAML tags and aliases, deep nesting, numbers past a float, an
# impossible date, terminal control sequences, TOML tables, JSON constants.
TOKENS = [
    b"&a [1, 2]",
    b"*a",
    b"!!python/object/apply:os.system ['true']",
    b"[" * 300,
    b"{" * 300,
    b"1e999",
    b"-1",
    b"1" * 5000,
    b"2026-02-30",
    b"\x1b]0;x\x07",
    b"\r\b",
    b"~",
    b"null",
    b"NaN",
    b"Infinity",
    b"[tool.advisor]",
    b'"\\ud800"',
    b"\xff\xfe",
    b"\x00",
    b"---\n",
    b"- ",
    b": ",
    b"'",
    b'"',
    b"\n" * 3,
]


def _mutated(seed: bytes, operations: list[tuple[str, int, int, bytes]]) -> bytes:
    data = bytearray(seed)
    for operation, position, length, payload in operations:
        at = position % (len(data) + 1)
        if operation == "flip" and data:
            data[at % len(data)] ^= 1 << (length % 8)
        elif operation == "delete":
            del data[at : at + length]
        elif operation == "insert":
            data[at:at] = payload
        elif operation == "token":
            data[at:at] = TOKENS[length % len(TOKENS)]
        elif operation == "duplicate":
            data[at:at] = data[at : at + length * 16]
        elif operation == "truncate":
            del data[at:]
    return bytes(data)


def mutations(seed: bytes) -> st.SearchStrategy[bytes]:
    """Random bytes, or `seed` with a few flips, deletions, insertions, tokens, duplications or a cut."""
    operation = st.tuples(
        st.sampled_from(["flip", "delete", "insert", "token", "duplicate", "truncate"]),
        st.integers(0, max(len(seed), 1)),
        st.integers(1, 64),
        st.binary(max_size=16),
    )
    edited = st.lists(operation, min_size=1, max_size=6).map(lambda operations: _mutated(seed, operations))
    return st.one_of(st.binary(max_size=2048), edited, edited)


# JSON values a mutation puts anywhere in an evidence document; the last ones are past the count caps.
BOMB = base64.b64encode(gzip.compress(b"1 " * (40 * MAX_SAMPLES_PER_CASE), mtime=0)).decode()
JSON_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=10**300, max_value=10**400),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=24),
    st.sampled_from(["us", "s", "ok", BOMB, "not base64!", "", "cpu", "2026-02-30T00:00:00Z"]),
    st.builds(lambda: [1] * (MAX_SAMPLES_PER_CASE + 1)),  # a fresh list each time: never one inside itself
)
JSON_VALUES = st.recursive(
    JSON_LEAVES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=8,
)


@st.composite
def json_mutations(draw: st.DrawFn, seed: Any) -> bytes:
    """`seed` (a parsed JSON document) with a few of its values replaced, keys removed or added, at random places."""
    document = json.loads(json.dumps(seed))
    for _ in range(draw(st.integers(1, 4))):
        node: Any = document
        for step in draw(st.lists(st.integers(0, 1000), min_size=1, max_size=6)):
            children = (
                list(node) if isinstance(node, dict) else list(range(len(node))) if isinstance(node, list) else []
            )
            if not children:
                break
            child = children[step % len(children)]
            if not isinstance(node[child], (dict, list)) or draw(st.booleans()):
                action = draw(st.sampled_from(["replace", "remove", "add"]))
                if action == "replace":
                    node[child] = draw(JSON_VALUES)
                elif action == "remove" and isinstance(node, dict):
                    del node[child]
                elif isinstance(node, dict):
                    node[draw(st.text(max_size=8))] = draw(JSON_VALUES)
                break
            node = node[child]
    return json.dumps(document).encode()


def only(error: type[AdvisorError], call: Callable[[], object]) -> None:
    """Run the reader; it may succeed or raise `error` with a one-line message, nothing else."""
    try:
        call()
    except error as raised:
        message = str(raised)
        assert message and "\n" not in message, message


# Seeds.
def _lean_evidence_seed() -> bytes:
    """The CPU suite cut to a few cases, one with 100 samples, written lean: a samples_gz among them."""
    suite = Evidence.load(CPU_SUITE)
    timed = next(case for case in suite.cases if case.timing is not None)
    samples = [1e-4 * (1 + index % 7 / 100) for index in range(100)]
    long_case = timed.model_copy(update={"timing": Measurement.from_samples(samples, stop_reason="max samples")})
    others = [case for case in suite.cases if case.key != timed.key][:5]  # each case once: a file may not repeat one
    return suite.model_copy(update={"cases": [long_case, *others]}).to_text().encode()


def _model_seed() -> bytes:
    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"]), helper.make_node("Gemm", ["y", "w"], ["z"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])],
        [helper.make_tensor_value_info("z", TensorProto.FLOAT, None)],
        initializer=[helper.make_tensor("w", TensorProto.FLOAT, [4, 2], [0.5] * 8)],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)]).SerializeToString()


EVIDENCE_SEED = _lean_evidence_seed()
FULL_EVIDENCE_SEED = CPU_SUITE.read_bytes()
DATA = resources.files("advisor.data")
CANDIDATE_SEED = DATA.joinpath("knowledge", "cublas.yaml").read_bytes()
PLATFORM_SEED = DATA.joinpath("platforms", "nvidia-gpu.yaml").read_bytes()
PEAKS_SEED = DATA.joinpath("accelerator_peaks.yaml").read_bytes()
MODEL_SEED = _model_seed()
SETTINGS_SEED = b"""records_dir = "records"
budget = 30
deciders = ["Ann", "Bo"]
hardware = "x86-cpu"
site_dir = "site"
"""
PYPROJECT_SEED = b"""[project]
name = "x"

[tool.advisor]
budget = 45.5
records_dir = "decisions"

[tool.other]
a = 1
"""


@pytest.fixture(scope="module", autouse=True)
def _hypothesis_home_outside_the_repository(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Hypothesis caches what it learns (the constants of the modules under test) even without a database:
    in a temporary folder here, never a .hypothesis folder in the repository."""
    set_hypothesis_home_dir(tmp_path_factory.mktemp("hypothesis-home"))
    yield
    set_hypothesis_home_dir(None)  # back to the default (HYPOTHESIS_STORAGE_DIRECTORY, else ./.hypothesis)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A scratch folder the readers' files are written into, one example after another."""
    return tmp_path_factory.mktemp("fuzz")


@pytest.fixture(scope="module")
def record_seed(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    project = make_project(tmp_path_factory.mktemp("fuzz-record"))
    return next(project.records.glob("0001-*.md")).read_bytes()


def _write(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


@FUZZ
@given(
    data=mutations(GOOD_PROFILE.encode())
    | mutations(
        json.dumps(
            {
                "model_type": "cnn",
                "hardware": "x86-cpu",
                "workload": "both",
                "team_skill": "kernel",
                "needs": {"devices": 8},
            }
        ).encode()
    )
)
def test_profile_reader(folder: Path, data: bytes) -> None:
    path = _write(folder / "profile.yaml", data)
    only(ProfileError, lambda: load_profile(path))
    only(ProfileError, lambda: parse_profile(data.decode("utf-8", "replace"), "profile.yaml"))


@FUZZ
@given(
    data=mutations(EVIDENCE_SEED)
    | json_mutations(json.loads(EVIDENCE_SEED))
    | json_mutations(json.loads(FULL_EVIDENCE_SEED))
)
def test_evidence_reader(folder: Path, data: bytes) -> None:
    path = _write(folder / "evidence.json", data)
    only(EvidenceSchemaError, lambda: Evidence.load(path))
    only(EvidenceSchemaError, lambda: Evidence.parse(data, "evidence.json"))


@FUZZ
@given(data=st.data())
def test_record_reader(folder: Path, record_seed: bytes, data: st.DataObject) -> None:
    path = _write(folder / "records" / "0001-kept.md", data.draw(mutations(record_seed)))
    only(RecordError, lambda: read_record(path))


@FUZZ
@given(name=st.sampled_from([SETTINGS_FILE, PYPROJECT]), data=st.data())
def test_settings_reader(folder: Path, name: str, data: st.DataObject) -> None:
    root = folder / "settings" / name.replace(".", "-")
    (root / ".git").mkdir(parents=True, exist_ok=True)  # the root: the search for settings stops here
    _write(root / name, data.draw(mutations(SETTINGS_SEED if name == SETTINGS_FILE else PYPROJECT_SEED)))
    only(SettingsError, lambda: load_settings(root).effective())


@FUZZ
@given(kind=st.sampled_from(["knowledge", "platforms"]), data=st.data())
def test_knowledge_entry_reader(folder: Path, kind: str, data: st.DataObject) -> None:
    if kind == "knowledge":
        name, seed, model = "cublas", CANDIDATE_SEED, Candidate
    else:
        name, seed, model = "nvidia-gpu", PLATFORM_SEED, Platform
    path = _write(folder / "kb" / kind / f"{name}.yaml", data.draw(mutations(seed)))
    only(KnowledgeBaseError, lambda: validate_document(model, read_mapping(path, str(path)), str(path)))
    problems = check_files([path])  # `kb check`: every problem is a line of the verdict, nothing raised
    assert all(isinstance(problem, str) and "\n" not in problem for problem in problems), problems


@FUZZ
@given(data=mutations(PEAKS_SEED))
def test_peak_table_reader(folder: Path, data: bytes) -> None:
    path = _write(folder / "peaks.yaml", data)
    with mock.patch.dict(os.environ, {PEAKS_FILE_VARIABLE: str(path)}):
        only(PeakTableError, accelerator_table)


@FUZZ
@given(data=mutations(MODEL_SEED))
def test_model_reader(folder: Path, data: bytes) -> None:
    path = _write(folder / "model.onnx", data)
    only(ModelReadError, lambda: read_model(path))


def test_the_seeds_read() -> None:
    """The mutations start from files that read: a failure above is the mutation's doing."""
    assert Evidence.parse(EVIDENCE_SEED, "seed").cases[0].timing is not None
    assert b"samples_gz" in EVIDENCE_SEED
    assert parse_profile(GOOD_PROFILE).hardware == "x86-cpu"
    model = onnx.ModelProto()
    model.ParseFromString(MODEL_SEED)
    assert [node.op_type for node in model.graph.node] == ["Relu", "Gemm"]


# A file that claims a huge size (a sparse file: no disk used) is refused from st_size, before a byte is read.
KINDS = {
    "profile": PROFILE_FILE,
    "evidence": EVIDENCE_FILE,
    "record": RECORD_FILE,
    "knowledge": KNOWLEDGE_FILE,
    "peaks": PEAKS_FILE,
    "model": MODEL_FILE,
    "settings": SETTINGS_KINDS[SETTINGS_FILE],
    "pyproject": SETTINGS_KINDS[PYPROJECT],
}


@FUZZ
@given(kind=st.sampled_from(sorted(KINDS)), extra=st.integers(min_value=1, max_value=1 << 34))
def test_a_file_claiming_a_huge_size_is_refused_before_reading(folder: Path, kind: str, extra: int) -> None:
    path = folder / f"huge-{kind}"
    with path.open("wb") as handle:
        handle.truncate(KINDS[kind].cap + extra)
    try:
        with pytest.raises(KINDS[kind].error, match="larger than"):
            read_bounded(path, KINDS[kind])
    finally:
        path.unlink()


def test_a_proc_file_is_bounded_while_reading() -> None:
    """/proc files say size 0: the cap holds while reading, one byte past it is enough to refuse."""
    small = FileKind("status file", 64, AdvisorError)
    assert os.stat("/proc/self/status").st_size == 0
    with pytest.raises(AdvisorError, match=r"/proc/self/status: larger than a status file may be \(64 bytes\)"):
        read_bounded("/proc/self/status", small)
    assert b"Name:" in read_bounded("/proc/self/status", FileKind("status file", 1 << 20, AdvisorError))


@pytest.mark.parametrize("size", [0, 1, 63, 64])
def test_a_file_up_to_the_cap_reads_whole(folder: Path, size: int) -> None:
    path = _write(folder / f"exact-{size}", b"x" * size)
    assert read_bounded(path, FileKind("test file", 64, AdvisorError)) == b"x" * size
    _write(path, b"x" * 65)
    with pytest.raises(AdvisorError, match="larger than a test file may be"):
        read_bounded(path, FileKind("test file", 64, AdvisorError))
