"""Issue 27, category 3: one bad record never breaks the rest.

A record whose front matter holds an impossible date (`date: 2026-02-30`, `review_by: 2026-13-01`) used to
end `records list`, `review --due --check` and `site build` in a ValueError from YAML's timestamp
constructor. Every command that reads many records names the bad file and key on stderr (`warning:`) and
goes on with the rest; `review --due --check` and `site build --strict` fail on it; a command on that one
record is a one-line error naming the file and key. Real git repositories, real hand-broken files, the
real CLI in a child process.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from harness import CPU_SUITE, Project, assert_one_line_error, invoke_advisor, make_project, unchanged

BAD_DATE = "0002-bad-date.md"
BAD_REVIEW = "0003-bad-review.md"
GOOD = "0004-good.md"


def hand_written(project: Project, name: str, number: int, *edits: tuple[str, str]) -> Path:
    """A copy of record 0001 as `name`, numbered `number`, with each (old, new) line edit made by hand."""
    text = next(project.records.glob("0001-*.md")).read_text(encoding="utf-8")
    text = text.replace("id: 1\n", f"id: {number}\n", 1)
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = project.records / name
    path.write_text(text, encoding="utf-8")
    return path


def commit_all(project: Project, message: str) -> None:
    project.repo.git.add("-A")
    project.repo.index.commit(message)


@pytest.fixture
def broken(tmp_path: Path) -> Project:
    """0001 good, 0002 with date 2026-02-30, 0003 with review_by 2026-13-01, 0004 good; all committed."""
    project = make_project(tmp_path)
    hand_written(project, BAD_DATE, 2, ("date: 2026-01-02\n", "date: 2026-02-30\n"))
    hand_written(project, BAD_REVIEW, 3, ("review_by: 2027-01-02\n", "review_by: 2026-13-01\n"))
    hand_written(project, GOOD, 4, ("title: Kept\n", "title: Also kept\n"))
    commit_all(project, "hand-edited records")
    return project


def assert_names_bad_records(stderr: str) -> None:
    """A warning for each bad file, naming the file and the key; no traceback."""
    assert "Traceback" not in stderr, stderr
    warnings = [line for line in stderr.splitlines() if line.startswith("warning: ")]
    assert any(BAD_DATE in line and "date:" in line for line in warnings), stderr
    assert any(BAD_REVIEW in line and "review_by:" in line for line in warnings), stderr


def test_the_strict_yaml_reader_keeps_an_impossible_date_as_text():
    from probes.files.safe_yaml import load_yaml

    read = load_yaml("a: 2026-02-30\nb: 2026-13-01\nc: 2026-01-02\nd: 2026-01-01 10:00:00+99:00\ne: [2026-02-31]\n")
    assert read["a"] == "2026-02-30" and read["b"] == "2026-13-01" and read["d"] == "2026-01-01 10:00:00+99:00"
    assert read["e"] == ["2026-02-31"]
    assert str(read["c"]) == "2026-01-02" and not isinstance(read["c"], str)  # a real date is still a date


def test_records_list_names_the_bad_records_and_lists_the_rest(broken: Project):
    with unchanged(broken.root) as watch:
        result = invoke_advisor(["records", "list"], cwd=broken.root, tmp=watch.tmp)
    assert result.returncode == 0, result.stderr
    assert_names_bad_records(result.stderr)
    listed = [line.split()[0] for line in result.stdout.splitlines()]
    assert listed == ["0001", "0004"]


def test_records_list_json_lists_the_rest_and_the_problems(broken: Project):
    with unchanged(broken.root) as watch:
        result = invoke_advisor(["records", "list", "--json"], cwd=broken.root, tmp=watch.tmp)
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert [row["id"] for row in document["records"]] == [1, 4]
    assert sorted(Path(problem.split(":")[0]).name for problem in document["problems"]) == [BAD_DATE, BAD_REVIEW]


def test_due_check_fails_on_a_record_it_cannot_read(broken: Project):
    # Nothing readable is overdue on this day: the check fails only because two files do not read.
    with unchanged(broken.root) as watch:
        result = invoke_advisor(["review", "--due", "--check", "--today", "2026-06-01"], cwd=broken.root, tmp=watch.tmp)
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert_names_bad_records(result.stderr)
    assert "2 record file(s) do not read" in result.stdout


def test_due_check_json_says_why_it_failed(broken: Project):
    with unchanged(broken.root) as watch:
        result = invoke_advisor(
            ["review", "--due", "--check", "--today", "2026-06-01", "--json"], cwd=broken.root, tmp=watch.tmp
        )
    assert result.returncode == 1
    document = json.loads(result.stdout)
    assert document["passed"] is False and document["overdue"] == [] and len(document["problems"]) == 2


def test_review_due_warns_and_reviews_the_readable_ones(broken: Project):
    before = broken.repo.head.commit.hexsha
    untouched = {name: (broken.records / name).read_bytes() for name in (BAD_DATE, BAD_REVIEW)}
    result = invoke_advisor(
        ["review", "--due", "--evidence", str(CPU_SUITE), "--today", "2027-06-01"],
        cwd=broken.root,
        tmp=broken.root.parent,
    )
    assert result.returncode == 0, result.stderr
    assert_names_bad_records(result.stderr)
    reviewed = [line.split()[0] for line in result.stdout.splitlines() if line[:4].isdigit()]
    assert reviewed == ["0001", "0004"]
    assert broken.repo.head.commit.hexsha != before and not broken.repo.is_dirty(untracked_files=True)
    assert {name: (broken.records / name).read_bytes() for name in untouched} == untouched


def test_review_due_with_nothing_readable_due_changes_nothing(broken: Project):
    with unchanged(broken.root) as watch:
        result = invoke_advisor(
            ["review", "--due", "--evidence", str(CPU_SUITE), "--today", "2026-06-01"], cwd=broken.root, tmp=watch.tmp
        )
    assert result.returncode == 0, result.stderr
    assert_names_bad_records(result.stderr)
    assert "no record is due for review on 2026-06-01" in result.stdout


@pytest.mark.parametrize("name, number, key", [(BAD_DATE, 2, "date"), (BAD_REVIEW, 3, "review_by")])
@pytest.mark.parametrize("command", [["records", "show"], ["records", "history"], ["records", "accept"]])
def test_a_command_on_the_bad_record_is_one_line_naming_file_and_key(broken: Project, name, number, key, command):
    with unchanged(broken.root) as watch:
        result = invoke_advisor([*command, str(number)], cwd=broken.root, tmp=watch.tmp)
    line = assert_one_line_error(result, name, f"{key}: ", code=2)
    assert "outside expected range" in line


def test_reviewing_the_bad_record_by_number_is_one_line(broken: Project):
    with unchanged(broken.root) as watch:
        result = invoke_advisor(["review", "2", "--evidence", str(CPU_SUITE)], cwd=broken.root, tmp=watch.tmp)
    assert_one_line_error(result, BAD_DATE, "date: ", code=2)


def test_history_of_a_good_record_beside_bad_ones(broken: Project):
    with unchanged(broken.root) as watch:
        result = invoke_advisor(["records", "history", "4"], cwd=broken.root, tmp=watch.tmp)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert "v1" in result.stdout and "hand-edited records" in result.stdout


def test_accept_and_supersede_beside_bad_records(broken: Project):
    accepted = invoke_advisor(["records", "accept", "4"], cwd=broken.root, tmp=broken.root.parent)
    assert accepted.returncode == 0 and "accepted (v2)" in accepted.stdout, accepted.stderr
    superseded = invoke_advisor(["records", "supersede", "1", "4"], cwd=broken.root, tmp=broken.root.parent)
    assert superseded.returncode == 0, superseded.stderr
    assert "superseded by 0004" in superseded.stdout and "Traceback" not in superseded.stderr
    assert not broken.repo.is_dirty(untracked_files=True)  # both committed


def test_assess_numbers_past_bad_records(broken: Project):
    result = invoke_advisor(
        ["assess", "--yes", "--no-probes", "--hardware", "x86-cpu"], cwd=broken.root, tmp=broken.root.parent
    )
    assert result.returncode == 0, result.stderr
    assert "decision 0005 written" in result.stdout
    assert not broken.repo.is_dirty(untracked_files=True)


@pytest.mark.parametrize("title", ["2026-02-30", "2026-01-02", "2026-13-01 10:00:00"])
def test_a_profile_title_that_looks_like_a_date_round_trips_as_text(tmp_path: Path, title: str):
    project = make_project(tmp_path)
    profile = project.root / "dated.yaml"
    profile.write_text((project.root / "profile.yaml").read_text() + f"title: {title}\n", encoding="utf-8")
    commit_all(project, "a profile titled like a date")
    result = invoke_advisor(
        ["assess", "--profile", str(profile), "--yes", "--no-probes"], cwd=project.root, tmp=project.root.parent
    )
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    listed = invoke_advisor(["records", "list", "--json"], cwd=project.root, tmp=project.root.parent)
    assert listed.returncode == 0 and not json.loads(listed.stdout)["problems"], listed.stderr
    assert [row["title"] for row in json.loads(listed.stdout)["records"]] == ["Kept", title]
    written = next(project.records.glob("0002-*.md")).read_text(encoding="utf-8")
    assert f"title: '{title}'\n" in written  # quoted by the dumper: YAML reads it back as text


def test_site_build_skips_bad_records_and_strict_fails_on_them(broken: Project, tmp_path: Path):
    out, strict_out = tmp_path / "site", tmp_path / "strict-site"
    with unchanged(broken.root) as watch:
        built = invoke_advisor(
            ["site", "build", "--out", str(out), "--today", "2026-06-01"], cwd=broken.root, tmp=watch.tmp
        )
        strict = invoke_advisor(
            ["site", "build", "--strict", "--out", str(strict_out), "--today", "2026-06-01"],
            cwd=broken.root,
            tmp=watch.tmp,
        )
    assert built.returncode == 0, built.stderr
    assert_names_bad_records(built.stderr)
    pages = {path.parent.name for path in (out / "decisions").glob("*/index.html")}
    assert {"0001-kept", "0004-good"} <= pages and not pages & {"0002-bad-date", "0003-bad-review"}
    line = assert_one_line_error(strict, "strict build failed", code=2)
    assert BAD_DATE in line or BAD_REVIEW in line
    assert not strict_out.exists()  # a failed build writes nothing
