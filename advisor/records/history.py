"""Records' git histories in one pass over the log: each record's commits, newest first, with the version
each holds.

One `git log --raw` names the blob each commit left for each record; a blob that is the file on disk (the
usual case: the record is committed as it is) is read from disk, and every other blob once from the object
database, so the site's hundreds of records cost one log and a few reads, and `advisor records history`
reads one record the same way.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from advisor.records.git import RecordVersion, repository_path
from advisor.records.render import split_front_matter
from advisor.records.store import RECORD_FILE
from probes.errors import AdvisorError
from probes.files.bounded_read import read_bounded

if TYPE_CHECKING:
    from git import Repo

# One commit per entry: sha, committer date, message, then the --raw lines of the records it changed.
LOG_FORMAT = "--format=%x1e%H%x1f%cI%x1f%B%x1f"


def blob_id(data: bytes, id_length: int) -> str:
    """The id git gives a blob of these bytes (`git hash-object`), SHA-1 or SHA-256 by the repository's id length."""
    digest = hashlib.sha1 if id_length == 40 else hashlib.sha256
    return digest(b"blob %d\0" % len(data) + data).hexdigest()


def version_in(data: bytes, origin: str) -> int | None:
    """The front-matter version of a record's text; None when it does not read or is not an integer."""
    try:
        version = split_front_matter(data.decode("utf-8"), origin)[0].get("version")
    except Exception:  # a version that no longer reads is shown as unknown, not an error
        return None
    return version if isinstance(version, int) else None


class BlobVersions:
    """The version each blob of a record holds, read once per blob: from disk when it is the file there."""

    def __init__(self, repo: Repo, record_paths: Sequence[Path], id_length: int) -> None:
        self.repo = repo
        self.versions: dict[str, int | None] = {}
        self.on_disk: dict[str, bytes] = {}  # blob id -> bytes of a record file as it is on disk
        for path in record_paths:
            try:
                data = read_bounded(path, RECORD_FILE)
            except AdvisorError:  # gone since it was listed, or no longer a record: its blobs are read from git
                continue
            self.on_disk[blob_id(data, id_length)] = data

    def version(self, blob: str, origin: str) -> int | None:
        """The version the blob holds; None for a deletion (an all-zero id) or a blob that does not read."""
        if blob not in self.versions:
            self.versions[blob] = self._read_version(blob, origin)
        return self.versions[blob]

    def _read_version(self, blob: str, origin: str) -> int | None:
        if not blob.strip("0"):
            return None
        data = self.on_disk.get(blob)
        if data is None:
            try:
                stream = self.repo.odb.stream(bytes.fromhex(blob))
                if stream.size > RECORD_FILE.cap:  # a blob no record could be: never read into memory
                    return None
                data = bytes(stream.read())
            except Exception:  # a blob gone from the object database: version unknown, as for any unreadable one
                return None
        return version_in(data, origin)


def record_histories(repo: Repo, record_paths: Sequence[Path]) -> dict[Path, list[RecordVersion]]:
    """Each record's commits, newest first, with the version each holds: one `git log` for them all. Renames are not followed: a record keeps its file name for life."""
    from git import GitCommandError  # a repository in hand: GitPython imported (advisor/records/git.py)

    wanted = {repository_path(repo, path): path for path in record_paths}
    found: dict[Path, list[RecordVersion]] = {path: [] for path in record_paths}
    if not wanted or not repo.head.is_valid():
        return found
    folders = sorted({str(Path(relative).parent) for relative in wanted})
    try:
        log = repo.git.log(LOG_FORMAT, "--raw", "--no-abbrev", "--", *folders)
    except GitCommandError:
        return found
    blobs = BlobVersions(repo, record_paths, id_length=len(repo.head.commit.hexsha))
    for entry in log.split("\x1e")[1:]:
        sha, date, message, changes = (entry.split("\x1f") + ["", "", "", ""])[:4]
        for line in changes.splitlines():
            # `:old-mode new-mode old-blob new-blob status<TAB>path`, or `...<TAB>old-path<TAB>new-path` for a rename
            fields = line.split("\t")
            name = fields[-1].strip()
            if not line.startswith(":") or len(fields) < 2 or name not in wanted:
                continue
            new_blob = fields[0].split()[3]
            found[wanted[name]].append(RecordVersion(
                sha=sha, date=datetime.fromisoformat(date), version=blobs.version(new_blob, name), message=message.strip(),
            ))
    return found


def record_history(repo: Repo, record_path: Path) -> list[RecordVersion]:
    """The commits that touched a record, newest first, with the version each one holds."""
    return record_histories(repo, [record_path])[record_path]
