"""Category 1 of hardening v3: advisor deletes or overwrites only what it can prove it wrote.

Each case runs the real CLI against a real git repository (in this process; in a child where the output is a
FIFO, whose regression would hang, or a device node) and checks, by hashing the whole tree, git's HEAD and
index before and after, that a refused command changed nothing.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from harness import assert_one_line_error, invoke_advisor, make_project, run_advisor, tree_state, unchanged

SITE_BUILD = ["site", "build"]


@pytest.fixture
def project(tmp_path: Path):
    return make_project(tmp_path)


def _commit(project, *names: str) -> None:
    project.repo.git.add("-A")
    project.repo.index.commit("the user's files: " + ", ".join(names))
    project.repo.close()


@pytest.mark.parametrize("stray", ["404.html", "sitemap.xml", "search/search_index.json"])
def test_site_build_into_the_repository_root_with_a_stray_site_file_is_refused(project, stray):
    (project.root / stray).parent.mkdir(parents=True, exist_ok=True)
    (project.root / stray).write_text("x\n")
    _commit(project, stray)
    with unchanged(project.root) as watch:
        result = invoke_advisor([*SITE_BUILD, "--out", "."], cwd=project.root, tmp=watch.tmp)
    assert_one_line_error(result, "--out", "the root of a git repository")


def test_site_build_into_a_docs_folder_with_a_stray_404_keeps_the_guide(project):
    docs = project.root / "docs"
    docs.mkdir()
    (docs / "guide.md").write_text("# our guide\n")
    (docs / "404.html").write_text("x\n")
    _commit(project, "docs")
    with unchanged(project.root) as watch:
        result = invoke_advisor([*SITE_BUILD, "--out", "docs"], cwd=project.root, tmp=watch.tmp)
    assert_one_line_error(result, "--out", "docs", "not a site advisor built")


@pytest.mark.parametrize("site_dir", [".", "records", ".git", "..", "/etc", "../../x"])
def test_a_committed_site_dir_setting_cannot_aim_at_the_user_s_work(project, site_dir):
    (project.root / "advisor.toml").write_text(f'site_dir = "{site_dir}"\n')
    (project.root / "search").mkdir()
    (project.root / "search" / "search_index.json").write_text("{}\n")
    _commit(project, "advisor.toml", "search/")
    with unchanged(project.root) as watch:
        result = invoke_advisor(SITE_BUILD, cwd=project.root, tmp=watch.tmp)
    line = assert_one_line_error(result)
    assert "advisor.toml: site_dir" in line or "--out" in line or "site_dir" in line, line


@pytest.mark.parametrize("records_dir", ["/etc", "../../x", "../sibling"])
def test_a_committed_records_dir_setting_stays_inside_the_project(project, records_dir):
    (project.root / "advisor.toml").write_text(f'records_dir = "{records_dir}"\n')
    _commit(project, "advisor.toml")
    outside_before = sorted(os.listdir("/etc"))
    for command in (
        ["assess", "--profile", "profile.yaml", "--yes", "--no-probes"],
        ["records", "list"],
        ["review", "--due"],
    ):
        with unchanged(project.root) as watch:
            result = invoke_advisor(command, cwd=project.root, tmp=watch.tmp)
        assert_one_line_error(result, "advisor.toml: records_dir", "outside the project root")
    assert sorted(os.listdir("/etc")) == outside_before
    assert not (project.root.parent / "sibling").exists()


def test_a_records_folder_linked_out_of_the_repository_is_refused_and_a_flag_may_still_use_it(project, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    records = project.root / "records"
    for path in records.iterdir():
        path.rename(outside / path.name)
    records.rmdir()
    records.symlink_to(outside)
    _commit(project, "records -> outside")
    outside_before = tree_state(outside)
    with unchanged(project.root) as watch:
        result = invoke_advisor(
            ["assess", "--profile", "profile.yaml", "--yes", "--no-probes"], cwd=project.root, tmp=watch.tmp
        )
    assert_one_line_error(result, "records_dir", "outside the project root", f"--records-dir {outside}")
    assert tree_state(outside) == outside_before
    listed = invoke_advisor(["records", "list", "--records-dir", str(outside)], cwd=project.root, tmp=watch.tmp)
    assert listed.returncode == 0 and "0001" in listed.stdout, listed.stderr


@pytest.mark.parametrize("out", ["records", ".git", "~", "..", "/"])
def test_site_build_refuses_protected_folders_given_as_flags(project, out):
    with unchanged(project.root) as watch:
        result = invoke_advisor([*SITE_BUILD, "--out", os.path.expanduser(out)], cwd=project.root, tmp=watch.tmp)
    assert_one_line_error(result, "--out")


def test_a_second_build_replaces_advisor_s_own_output_and_a_touched_one_is_kept(project):
    first = invoke_advisor([*SITE_BUILD, "--out", "public"], cwd=project.root, tmp=project.root.parent)
    assert first.returncode == 0, first.stderr
    public = project.root / "public"
    assert (public / ".advisor-site-manifest.json").is_file()
    (public / "404.html").write_text("stale\n")  # an old file advisor wrote, edited by hand since
    with unchanged(project.root) as watch:
        result = invoke_advisor([*SITE_BUILD, "--out", "public"], cwd=project.root, tmp=watch.tmp)
    assert_one_line_error(result, "404.html", "changed since advisor wrote it")
    (public / "404.html").unlink()
    (public / "notes.txt").write_text("mine\n")
    with unchanged(project.root) as watch:
        result = invoke_advisor([*SITE_BUILD, "--out", "public"], cwd=project.root, tmp=watch.tmp)
    assert_one_line_error(result, "notes.txt", "not written by advisor")
    (public / "notes.txt").unlink()
    (public / "extra").mkdir()
    with unchanged(project.root) as watch:
        result = invoke_advisor([*SITE_BUILD, "--out", "public"], cwd=project.root, tmp=watch.tmp)
    assert_one_line_error(result, "extra", "not written by advisor")
    (public / "extra").rmdir()
    # What advisor wrote, untouched apart from the deleted 404 page, is its own: the next build replaces it.
    second = invoke_advisor([*SITE_BUILD, "--out", "public"], cwd=project.root, tmp=project.root.parent)
    assert second.returncode == 0, second.stderr
    assert (public / "404.html").is_file() and (public / "index.html").is_file()
    assert not any(path.name.endswith((".building", ".previous")) for path in project.root.iterdir())


def test_a_forged_or_foreign_manifest_proves_nothing(project):
    folder = project.root / "public"
    folder.mkdir()
    (folder / "page.html").write_text("mine\n")
    (folder / ".advisor-site-manifest.json").write_text('{"format": "something else", "entries": {}}\n')
    with unchanged(project.root) as watch:
        result = invoke_advisor([*SITE_BUILD, "--out", "public"], cwd=project.root, tmp=watch.tmp)
    assert_one_line_error(result, "public", "not one advisor wrote")


def _evidence_out(project, out: str, *extra: str):
    return invoke_advisor(
        ["probe", "selftest", "--budget", "5", "--out", out, *extra], cwd=project.root, tmp=project.root.parent
    )


def test_probe_out_never_overwrites_a_decision_record_or_the_user_s_file(project):
    record = next(project.records.glob("0001-*.md")).relative_to(project.root)
    (project.root / "notes.txt").write_text("mine\n")
    _commit(project, "notes.txt")
    for out, said in [
        (str(record), "records"),
        ("notes.txt", "is not an advisor evidence file"),
        (".git/evidence.json", "inside a .git folder"),
        ("records/new.json", "records"),
    ]:
        with unchanged(project.root) as watch:
            result = invoke_advisor(
                ["probe", "selftest", "--budget", "5", "--out", out], cwd=project.root, tmp=watch.tmp
            )
        assert_one_line_error(result, "--out", said)


def test_probe_out_replaces_its_own_evidence_and_a_user_file_only_with_force(project, tmp_path):
    out = tmp_path / "evidence.json"
    assert _evidence_out(project, str(out)).returncode == 0
    first = out.read_bytes()
    assert _evidence_out(project, str(out)).returncode == 0  # advisor evidence: replaced without a word
    assert out.read_bytes() != first
    mine = tmp_path / "mine.txt"
    mine.write_text("mine\n")
    assert _evidence_out(project, str(mine)).returncode == 2 and mine.read_text() == "mine\n"
    forced = _evidence_out(project, str(mine), "--force")
    assert forced.returncode == 0, forced.stderr
    assert mine.read_text().startswith('{"schema_version"')


def test_probe_out_through_a_link_writes_the_file_it_names_and_keeps_the_link(project, tmp_path):
    target = tmp_path / "real.json"
    assert _evidence_out(project, str(target)).returncode == 0
    link = tmp_path / "link.json"
    link.symlink_to(target)
    assert _evidence_out(project, str(link)).returncode == 0
    assert link.is_symlink() and os.readlink(link) == str(target)


def test_probe_out_refuses_a_fifo_and_a_folder(project, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for out, said in [(fifo, "a FIFO"), (tmp_path, "is a directory")]:
        result = run_advisor(
            ["probe", "selftest", "--budget", "5", "--out", str(out)], cwd=project.root, tmp=tmp_path, timeout=60
        )
        assert_one_line_error(result, "--out", said)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_probe_out_refuses_a_device_node_even_with_force(project, tmp_path):
    device = tmp_path / "full"
    try:
        os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 7))  # /dev/full's numbers
    except PermissionError:
        device = Path("/dev/full")  # not root: the real node, which a non-root rename cannot replace anyway
    before = os.lstat(device)
    for extra in ([], ["--force"]):
        result = run_advisor(
            ["probe", "selftest", "--budget", "5", "--out", str(device), *extra], cwd=project.root, tmp=tmp_path
        )
        assert_one_line_error(result, "--out", "a character device")
    after = os.lstat(device)
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev and after.st_ino == before.st_ino
