"""A site of many records costs per record only what the record adds, judged by counting, never by the clock.

Evidence shared by records (the same bytes under each record's own file name) is parsed, drawn and
tabulated once; every record's history comes from one `git log`, its versions read from the files on
disk when they are what was committed; generated pages stay in memory instead of a temporary folder.
"""

from __future__ import annotations

import gc
import re
import shutil
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from unittest.mock import patch

import pytest
from git import Repo
from git.cmd import Git
from mkdocs.structure.files import File, Files
from mkdocs_gen_files.editor import FilesEditor

from advisor.recommendation.engine import recommend
from advisor.records.decision import write_decision
from advisor.records.history import record_history
from advisor.records.history import record_histories
from advisor.records.store import accept
from advisor.site import evidence_views, generate
from advisor.site.generate import FolderWriter, generate_site
from advisor.site.mkdocs_plugin import GenFilesWriter
from probes.models import Evidence

from site_records import CPU_SUITE, TODAY, _profile

RECORDS = 5


@pytest.fixture(scope="module")
def shared_evidence_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """RECORDS records on one evidence file's bytes, each written and committed by `write_decision`: RECORDS commits."""
    root = tmp_path_factory.mktemp("shared-evidence") / "project"
    repo = Repo.init(root)
    with repo.config_writer() as config:
        config.set_value("user", "name", "Site Test")
        config.set_value("user", "email", "site@example.com")
    suite = Evidence.load(CPU_SUITE)
    recommendation = recommend(_profile("x86-cpu"), [suite])
    for index in range(RECORDS):
        write_decision(recommendation, [suite], records_dir=root / "records", title=f"team {index}", deciders=["Ann"])
    return root


@pytest.fixture
def project(shared_evidence_repo: Path, tmp_path: Path) -> Path:
    """A private copy of the repository (git included) that a test may change."""
    return Path(shutil.copytree(shared_evidence_repo, tmp_path / "project"))


def _record_paths(project: Path) -> list[Path]:
    return sorted((project / "records").glob("*.md"))


def test_shared_evidence_is_parsed_drawn_and_tabulated_once(shared_evidence_repo: Path, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch):
    calls: Counter[str] = Counter()

    def counted(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            calls[name] += 1
            return function(*args, **kwargs)

        return call

    monkeypatch.setattr(Evidence, "parse", counted("parse", Evidence.parse))
    monkeypatch.setattr(evidence_views, "evidence_charts", counted("draw", evidence_views.evidence_charts))
    monkeypatch.setattr(evidence_views, "evidence_tables", counted("tabulate", evidence_views.evidence_tables))
    report = generate_site(shared_evidence_repo / "records", FolderWriter(tmp_path), today=TODAY)
    assert report.records == RECORDS and not report.problems
    assert calls == {"parse": 1, "draw": 1, "tabulate": 1}
    charts = sorted(tmp_path.glob("charts/*.svg"))
    assert report.charts == len(charts) and charts  # the shared evidence's charts, one file each
    assert len({chart.read_text() for chart in charts}) == len(charts)
    for page in sorted(tmp_path.glob("decisions/[0-9]*.md")):
        if not page.stem.endswith("-evidence"):  # every record shows every chart, from the one file
            assert sorted(re.findall(r'src="\.\./(charts/[^"]+\.svg)"', page.read_text())) == [c.relative_to(tmp_path).as_posix() for c in charts]


class CollectorSeen:
    """gc's state when the catalog is read and when each record page is written, during generate_site."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.reading: list[bool] = []  # collector enabled while the catalog was read
        self.writing: list[int] = []  # objects frozen while a record page was written
        build_catalog, record_page = generate.build_catalog, generate.record_page

        def seen_build_catalog(*args: Any, **kwargs: Any) -> Any:
            self.reading.append(gc.isenabled())
            return build_catalog(*args, **kwargs)

        def seen_record_page(*args: Any, **kwargs: Any) -> Any:
            self.writing.append(gc.get_freeze_count())
            return record_page(*args, **kwargs)

        monkeypatch.setattr(generate, "build_catalog", seen_build_catalog)
        monkeypatch.setattr(generate, "record_page", seen_record_page)


@pytest.fixture
def collector_restored() -> Iterator[None]:
    """The test starts with gc enabled and nothing frozen (tests of probes that freeze their child's heap
    leave this process's frozen), and whatever it does to gc, the next test finds it so too."""
    gc.unfreeze()
    gc.enable()
    yield
    gc.unfreeze()
    gc.enable()


def test_the_catalog_is_read_without_the_collector_and_kept_out_of_its_passes(
    shared_evidence_repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, collector_restored: None
):
    seen = CollectorSeen(monkeypatch)
    report = generate_site(shared_evidence_repo / "records", FolderWriter(tmp_path), today=TODAY)
    assert report.records == RECORDS and not report.problems
    assert seen.reading == [False]
    assert len(seen.writing) == RECORDS and all(frozen > 0 for frozen in seen.writing)
    assert gc.isenabled() and gc.get_freeze_count() == 0  # the collector as it was found


def test_a_disabled_collector_or_a_frozen_heap_is_left_as_found(
    shared_evidence_repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, collector_restored: None
):
    seen = CollectorSeen(monkeypatch)
    gc.disable()
    generate_site(shared_evidence_repo / "records", FolderWriter(tmp_path / "disabled"), today=TODAY)
    assert not gc.isenabled() and gc.get_freeze_count() == 0
    gc.enable()
    gc.freeze()  # an embedding application's frozen heap: not ours to thaw
    frozen = gc.get_freeze_count()
    generate_site(shared_evidence_repo / "records", FolderWriter(tmp_path / "frozen"), today=TODAY)
    assert gc.isenabled() and 0 < gc.get_freeze_count() <= frozen  # not thawed (frozen objects freed since leave it)
    assert seen.reading == [False, True]  # with a heap frozen by others, the collector was not touched


class GitCalls:
    """Counts the git processes GitPython starts (`Git.execute`) and the objects read from the object database."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, repo: Repo) -> None:
        self.commands: list[str] = []
        self.blobs_read = 0
        execute, stream = Git.execute, repo.odb.stream

        def counted_execute(git: Git, command: Any, *args: Any, **kwargs: Any) -> Any:
            self.commands.append(command[1] if isinstance(command, list) and len(command) > 1 else str(command))
            return execute(git, command, *args, **kwargs)

        def counted_stream(binsha: bytes) -> Any:
            self.blobs_read += 1
            return stream(binsha)

        monkeypatch.setattr(Git, "execute", counted_execute)
        monkeypatch.setattr(repo.odb, "stream", counted_stream)


def test_every_history_comes_from_one_git_log(project: Path, monkeypatch: pytest.MonkeyPatch):
    repo = Repo(project)
    calls = GitCalls(monkeypatch, repo)
    found = record_histories(repo, _record_paths(project))
    assert [len(versions) for versions in found.values()] == [1] * RECORDS
    assert calls.commands.count("log") == 1 and len(calls.commands) <= 2  # and GitPython's `cat-file --batch-check`, for HEAD
    assert calls.blobs_read == 0  # each record is as committed: its version is read from the file on disk


def test_only_versions_that_differ_from_disk_are_read_from_git(project: Path, monkeypatch: pytest.MonkeyPatch):
    repo = Repo(project)
    accepted = accept(project / "records", 2)
    repo.git.commit("-m", "accept 0002", "--", str(accepted.path))  # two versions; the newest is on disk
    edited = accept(project / "records", 3).path  # changed and not committed: its one version is not on disk
    calls = GitCalls(monkeypatch, repo)
    found = record_histories(repo, _record_paths(project))
    assert calls.commands.count("log") == 1 and len(calls.commands) <= 3  # and one `cat-file --batch` for the blobs
    assert calls.blobs_read == 2  # 0002 as first committed, 0003 as committed
    assert [version.version for version in found[accepted.path]] == [2, 1]
    assert [version.version for version in found[edited]] == [1]


def test_histories_over_accepts_edits_deletions_renames_and_merges(project: Path):
    """Each record's commits newest first, with the version each holds, over an accept, an edit not committed,
    a deletion and restore, a rename, a merge and a record never committed."""
    repo, records = Repo(project), project / "records"
    accepted = accept(records, 1)
    repo.git.commit("-m", "accept 0001", "--", str(accepted.path))
    accept(records, 2)  # not committed
    third = _record_paths(project)[2]
    text = third.read_text()
    repo.git.rm("-q", str(third))
    repo.git.commit("-m", "drop 0003")
    third.write_text(text)
    repo.git.add(str(third))
    repo.git.commit("-m", "restore 0003")
    fourth = _record_paths(project)[3]
    renamed = fourth.with_name(fourth.name.replace("team-3", "team-three"))
    repo.git.mv(str(fourth), str(renamed))
    repo.git.commit("-m", "rename 0004")
    main = repo.active_branch.name
    repo.git.checkout("-q", "-b", "side")
    fifth = _record_paths(project)[4]
    fifth.write_text(fifth.read_text() + "\nA note from the side branch.\n")
    repo.git.commit("-q", "-m", "side: note on 0005", "--", str(fifth))
    repo.git.checkout("-q", main)
    (project / "NOTES.txt").write_text("unrelated\n")
    repo.git.add("NOTES.txt")
    repo.git.commit("-q", "-m", "notes")
    repo.git.merge("-q", "--no-ff", "side", "-m", "merge side")
    (records / "0006-never-committed.md").write_text(text.replace("id: 3", "id: 6"))
    paths = _record_paths(project)
    found = record_histories(repo, paths)
    assert [[(version.version, version.message) for version in found[path]] for path in paths] == [
        [(2, "accept 0001"), (1, "decision 0001: team 0 (v1)")],
        [(1, "decision 0002: team 1 (v1)")],  # its accept is not committed
        [(1, "restore 0003"), (None, "drop 0003"), (1, "decision 0003: team 2 (v1)")],  # a deletion holds no version
        [(1, "rename 0004")],  # the rename starts 0004's history afresh
        [(1, "side: note on 0005"), (1, "decision 0005: team 4 (v1)")],  # the merge itself adds none
        [],
    ]
    assert all([v.date for v in found[path]] == sorted((v.date for v in found[path]), reverse=True) for path in paths)
    assert record_history(repo, paths[0]) == found[paths[0]]  # `advisor records history` reads the same way


@pytest.fixture
def gen_files_editor(tmp_path: Path) -> Iterator[tuple[FilesEditor, Path]]:
    """gen-files' editor as inside a build (a minimal config whose docs hold index.md), and its scratch folder."""
    from mkdocs.config import load_config

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Intro\n")
    (tmp_path / "mkdocs.yml").write_text("site_name: scaling test\n")
    config = load_config(str(tmp_path / "mkdocs.yml"))
    config.plugins._current_plugin = "gen-files"  # as MkDocs sets it while gen-files' on_files runs
    docs = Files([File("index.md", config.docs_dir, config.site_dir, config.use_directory_urls)])
    scratch = tmp_path / "gen-files-scratch"
    scratch.mkdir()
    with FilesEditor(docs, config, str(scratch)) as editor:
        yield editor, scratch


def test_generated_files_stay_in_memory(gen_files_editor: tuple[FilesEditor, Path], tmp_path: Path):
    editor, scratch = gen_files_editor
    evidence = tmp_path / "0001.evidence.json"
    evidence.write_text("{}")
    writer = GenFilesWriter()
    writer.write_text("decisions/0001.md", "# 0001\n")
    writer.append_text("index.md", "## Decisions\n")
    writer.copy_file("evidence/0001.evidence.json", evidence)
    assert list(scratch.iterdir()) == []  # nothing written, so nothing to read back or delete
    files = editor.files
    assert files.get_file_from_path("decisions/0001.md").content_string == "# 0001\n"
    assert files.get_file_from_path("index.md").content_string == "# Intro\n## Decisions\n"
    assert files.get_file_from_path("evidence/0001.evidence.json").abs_src_path == str(evidence)  # copied once, by MkDocs


def test_without_the_map_of_files_pages_go_through_open(gen_files_editor: tuple[FilesEditor, Path], tmp_path: Path):
    """Another gen-files version, without `FilesEditor._files`: the writer falls back to `mkdocs_gen_files.open`."""
    editor, scratch = gen_files_editor
    opened: list[str] = []

    class EditorWithoutMap:
        config = editor.config

        def open(self, name: str, mode: str, **kwargs):
            opened.append(name)
            return editor.open(name, mode, **kwargs)

    evidence = tmp_path / "0001.evidence.json"
    evidence.write_text("{}")
    with patch.object(FilesEditor, "current", return_value=EditorWithoutMap()):
        writer = GenFilesWriter()
        writer.write_text("decisions/0001.md", "# 0001\n")
        writer.append_text("index.md", "## Decisions\n")
        writer.copy_file("evidence/0001.evidence.json", evidence)
    assert opened == ["decisions/0001.md", "index.md", "evidence/0001.evidence.json"]
    assert (scratch / "index.md").read_text() == "# Intro\n## Decisions\n"
    assert (scratch / "evidence" / "0001.evidence.json").read_text() == "{}"
