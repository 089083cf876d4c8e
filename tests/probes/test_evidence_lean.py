"""Lean evidence: compact, rounded to what the timer resolves, defaults left out; it reads back to the same
cases, and `advisor compare` gives the same verdicts on the committed evidence files written lean."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from advisor.comparison import compare_evidence
from probes.models import SAMPLE_DIGITS, Evidence

ROOT = Path(__file__).resolve().parents[2]
# The committed ones only: `bash scripts/run.sh` leaves an uncommitted (and already lean) record beside them.
COMMITTED = sorted(
    ROOT / name
    for name in subprocess.run(
        ["git", "ls-files", "records/*.evidence.json"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
)
PAIRS = [(first, second) for first, second in zip(COMMITTED, COMMITTED[1:])]


def lean(evidence: Evidence, folder: Path, name: str) -> Evidence:
    path = folder / name
    evidence.save(path)
    return Evidence.load(path)


@pytest.mark.parametrize("path", COMMITTED, ids=lambda path: path.name[:40])
def test_a_committed_file_written_lean_reads_back_to_the_same_cases(path: Path, tmp_path: Path):
    original = Evidence.load(path)
    again = lean(original, tmp_path, path.name)
    assert (tmp_path / path.name).stat().st_size < path.stat().st_size / 2
    assert [case.key.case_id for case in again.cases] == [case.key.case_id for case in original.cases]
    assert [case.status for case in again.cases] == [case.status for case in original.cases]
    assert again.environment.cpu == original.environment.cpu and again.config == original.config
    tolerance = 10.0 ** -(SAMPLE_DIGITS - 1)  # the median of samples rounded to SAMPLE_DIGITS
    for before, after in zip(original.cases, again.cases):
        if before.timing is not None:
            assert after.timing is not None and len(after.timing.samples) == len(before.timing.samples)
            assert after.timing.stats.median == pytest.approx(before.timing.stats.median, rel=tolerance)
    assert again.to_text() == (tmp_path / path.name).read_text()  # written lean, read, written again: the same


@pytest.mark.parametrize(("first", "second"), PAIRS, ids=lambda path: path.name[:12])
def test_compare_verdicts_are_unchanged_by_the_lean_form(first: Path, second: Path, tmp_path: Path):
    a, b = Evidence.load(first), Evidence.load(second)
    before = compare_evidence(a, b)
    after = compare_evidence(lean(a, tmp_path, "a.json"), lean(b, tmp_path, "b.json"))
    assert {case.key.case_id: case.verdict for case in after.cases} == {
        case.key.case_id: case.verdict for case in before.cases
    }
    assert after.verdict_counts == before.verdict_counts


def test_whole_numbers_stay_exact_and_measurements_are_rounded():
    from probes.models import _rounded

    assert _rounded({"bytes": 4208640.0, "median": 1.23456789e-05, "n": 7, "ratio": float("nan")})["bytes"] == 4208640.0
    assert _rounded([1.23456789e-05]) == [1.2346e-05]


def test_long_sample_lists_are_packed_and_a_bad_pack_is_a_clear_error(tmp_path: Path):
    import base64
    import gzip

    from probes.models import EvidenceSchemaError

    suite = Evidence.load(ROOT / "tests" / "fixtures" / "cpu-suite.json")
    case = next(case for case in suite.cases if case.timing is not None)
    assert case.timing is not None
    long = case.timing.model_copy(update={"samples": [1e-3 * (1 + 0.001 * (i % 7)) for i in range(300)]})
    evidence = suite.model_copy(update={"cases": [case.model_copy(update={"timing": long})]})
    text = evidence.to_text()
    assert '"samples_gz":"' in text and '"samples":[' not in text
    path = tmp_path / "packed.json"
    path.write_text(text)
    again = Evidence.load(path).cases[0].timing
    assert again is not None and again.samples == pytest.approx(long.samples, rel=1e-3) and again.stats.n == 300
    bomb = base64.b64encode(gzip.compress(b"1 " * (2 << 20))).decode()
    for packed in ("not base64!", bomb):
        start = text.index('"samples_gz":"') + len('"samples_gz":"')
        path.write_text(text[:start] + packed + text[text.index('"', start) :])
        with pytest.raises(EvidenceSchemaError, match="packed.json"):
            Evidence.load(path)
