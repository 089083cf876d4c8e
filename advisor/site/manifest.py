"""The proof that a site folder is advisor's own: a manifest of every file and folder the build wrote.

`advisor site build` replaces its output folder only when the folder is empty, or holds this manifest
and nothing else than what the manifest lists, each file with the size and sha256 it was written with.
A folder without the manifest (someone's docs, a repository root holding a stray `404.html`), or with a
file added or changed since, is the user's and is never emptied.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path

from probes.files.output_paths import OutputPathError

MANIFEST_NAME = ".advisor-site-manifest.json"
MANIFEST_FORMAT = "advisor-site-manifest/1"
MAX_MANIFEST_BYTES = 64 * 1024 * 1024  # about 500,000 entries; a 500-record site lists about 5,000


def _digest(path: Path) -> str:
    hasher = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            hasher.update(block)
    return hasher.hexdigest()


def _entries(folder: Path) -> dict[str, str]:
    """Every entry under folder, the manifest excepted: relative POSIX path -> 'dir', 'file:<size>:<sha256>',
    or the kind of anything else (a symbolic link, a FIFO), which a build never writes."""
    entries: dict[str, str] = {}
    for current, folders, files in os.walk(folder):
        base = Path(current)
        for name in [*folders, *files]:
            path = base / name
            relative = path.relative_to(folder).as_posix()
            if relative == MANIFEST_NAME:
                continue
            mode = path.lstat().st_mode
            if stat.S_ISDIR(mode):
                entries[relative] = "dir"
            elif stat.S_ISREG(mode):
                entries[relative] = f"file:{path.lstat().st_size}:{_digest(path)}"
            else:
                entries[relative] = "link" if stat.S_ISLNK(mode) else "special"
    return entries


def write_manifest(folder: Path) -> int:
    """Write the manifest of everything now in `folder` (a finished build); the number of entries listed."""
    entries = _entries(folder)
    document = {"format": MANIFEST_FORMAT, "written_by": "advisor site build", "entries": entries}
    (folder / MANIFEST_NAME).write_text(json.dumps(document, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    return len(entries)


def _listed(folder: Path, what: str) -> dict[str, str]:
    manifest = folder / MANIFEST_NAME
    refusal = f"{what} {folder}: not empty and not a site advisor built"
    if not manifest.is_file() or manifest.is_symlink():
        raise OutputPathError(f"{refusal} (no {MANIFEST_NAME}); refusing to replace it: choose an empty or new folder")
    try:
        if manifest.stat().st_size > MAX_MANIFEST_BYTES:
            raise ValueError("too large")
        document = json.loads(manifest.read_text(encoding="utf-8"))
        entries = document["entries"] if document.get("format") == MANIFEST_FORMAT else None
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        entries = None
    if not isinstance(entries, dict):
        raise OutputPathError(f"{refusal} (its {MANIFEST_NAME} is not one advisor wrote); refusing to replace it")
    return entries


def check_replaceable(folder: Path, what: str) -> None:
    """OutputPathError unless `folder` is missing, empty, or exactly the build its manifest lists."""
    if not folder.exists():
        return
    if folder.is_symlink() or not folder.is_dir():
        raise OutputPathError(f"{what} {folder}: exists and is not a folder")
    if not any(folder.iterdir()):
        return
    listed = _listed(folder, what)
    present = _entries(folder)
    foreign = sorted(name for name, entry in present.items() if listed.get(name) != entry)
    if foreign:
        change = "changed since advisor wrote it" if foreign[0] in listed else "not written by advisor"
        more = f" and {len(foreign) - 1} more" if len(foreign) > 1 else ""
        raise OutputPathError(f"{what} {folder}: holds {foreign[0]!r}{more}, {change}; refusing to replace the "
                              "folder (move those files away, or choose another folder)")
