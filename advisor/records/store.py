"""The records folder: numbering, atomic writes under a lock, reading back, and status changes.

Numbers are allocated and files written while holding the repository's lock (`.git/advisor.lock`;
`records_dir/.advisor.lock` outside git), so two runs at once get different numbers. Each file is
written to a hidden temporary file in the same folder and renamed into place; if anything fails (Ctrl-C included) the temporaries and any file already renamed
are removed. Temporaries left by a killed run are hidden names that never count as records and are
removed by the next run that takes the lock.
"""

from __future__ import annotations

import errno
import math
import os
import re
import tempfile
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout
from pydantic import ValidationError

from advisor.records.models import MAX_RECORD_ID, DecisionRecord, RecordError, RecordFrontMatter, RecordProblem
from advisor.records.paths import NUMBERED_NAME, open_repository
from advisor.records.render import compose, split_front_matter
from probes.errors import MachineError, machine_error
from probes.files.atomic_write import TEMP_SUFFIX, write_bytes_atomically, write_temporary, write_text_atomically
from probes.files.bounded_read import FileKind, file_type_text, read_bounded_text

LOCK_NAME = ".advisor.lock"
LOCK_TIMEOUT_S = 120.0  # a run holds the lock while it writes and commits, seconds at most
LOCK_TIMEOUT_ENV = "ADVISOR_LOCK_TIMEOUT_S"  # seconds to wait instead (tests, or a team whose runs hold it longer)
# A record is Markdown of about 20 KB (evidence tables included) and grows by a few lines a yearly review.
MAX_RECORD_BYTES = 1 << 20
RECORD_FILE = FileKind("decision record", MAX_RECORD_BYTES, RecordError)
RECORD_NAME = re.compile(r"^(\d{4,})-[a-z0-9-]+\.md$")
# Test hook: seconds to sleep after the temporaries are written, before they are renamed into place.
PAUSE_ENV = "ADVISOR_TEST_PAUSE_BEFORE_RENAME"


def lock_path(records_dir: Path) -> Path:
    """The lock of the git repository holding the folder (inside `.git/`, so never in the user's status and
    shared by every records folder of the repository), else the folder's own hidden lock file."""
    with open_repository(records_dir) as repo:
        if repo is not None and repo.git_dir:
            return Path(repo.git_dir) / "advisor.lock"
    return records_dir / LOCK_NAME


def lock_timeout_s() -> float:
    """How long to wait for another run's lock: ADVISOR_LOCK_TIMEOUT_S when set, else LOCK_TIMEOUT_S."""
    text = os.environ.get(LOCK_TIMEOUT_ENV)
    if not text:
        return LOCK_TIMEOUT_S
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not math.isfinite(seconds) or seconds < 0:
        raise RecordError(f"{LOCK_TIMEOUT_ENV}={text[:40]!r}: expected a number of seconds of 0 or more")
    return seconds


def _check_lock_file(path: Path) -> None:
    """Create the lock file, or find it there as a regular file, before waiting on it: a folder where it cannot
    be made (/proc, a read-only mount) fails at once instead of after the timeout, and a link or FIFO in
    its place is never opened for writing."""
    try:
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, 0o644)
    except OSError as error:
        raise RecordError(f"{path}: cannot create the records lock ({error.strerror})") from None
    try:
        kind = file_type_text(os.fstat(descriptor).st_mode)
    finally:
        os.close(descriptor)
    if kind is not None:
        raise RecordError(f"{path}: {kind}, not a lock file; remove it or choose another records folder")


@contextmanager
def records_lock(records_dir: Path, timeout_s: float | None = None) -> Iterator[None]:
    """Hold the repository's (else the folder's) lock, creating the folder; clears temporaries a killed run
    left behind. Gives up after `timeout_s` (default `lock_timeout_s()`) with a RecordError naming the lock file.
    Read what you change while holding it: another run may have changed it meanwhile."""
    wait = lock_timeout_s() if timeout_s is None else timeout_s
    try:
        records_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise RecordError(f"{records_dir}: cannot create the records folder ({error.strerror})") from None
    path = lock_path(records_dir)
    _check_lock_file(path)
    lock = FileLock(str(path), timeout=wait)
    try:
        with lock:
            remove_leftovers(records_dir)
            yield
    except Timeout:
        raise RecordError(f"{path}: another advisor run holds the records lock; gave up after {wait:g} s") from None


def remove_leftovers(records_dir: Path) -> list[Path]:
    """Delete hidden temporaries of interrupted writes; call only while holding the lock. A folder that is
    read-only keeps them (the write that follows says why it cannot go on)."""
    removed = []
    for path in records_dir.glob(f".*{TEMP_SUFFIX}"):
        try:
            path.unlink(missing_ok=True)
        except OSError:
            continue
        removed.append(path)
    return removed


def _number_of(name: str) -> int | None:
    match = NUMBERED_NAME.match(name)
    return int(match.group(1)) if match else None


def used_ids(records_dir: Path) -> set[int]:
    """Numbers of every numbered file in the folder (records, evidence, malformed ones too)."""
    found = set()
    if records_dir.is_dir():
        for path in records_dir.iterdir():
            number = _number_of(path.name)
            if number is not None:
                found.add(number)
    return found


def next_id(records_dir: Path, also_taken: Iterable[int] = ()) -> int:
    """One more than the highest number ever used here (files present, plus `also_taken`, e.g. from git);
    RecordError when that passes MAX_RECORD_ID, naming where the highest number is."""
    highest = max(used_ids(records_dir) | set(also_taken), default=0)
    if highest >= MAX_RECORD_ID:
        named = sorted(path.name for path in records_dir.iterdir() if _number_of(path.name) == highest)
        where = named[0] if named else "a file in git history"
        raise RecordError(f"{records_dir}: no record number is left after {highest} ({where}); records are numbered "
                          f"1 to {MAX_RECORD_ID}: rename the file numbered too high, or start a new records folder")
    return highest + 1


def check_can_record(records_dir: Path) -> None:
    """Before minutes of probing: MachineError when the folder (or the parent it will be made in) cannot be
    written, RecordError when no record number is left. The write itself checks again."""
    folder = records_dir.absolute()
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if folder.is_dir():
        try:  # a real write, not os.access: a read-only mount or an immutable folder says why
            with tempfile.TemporaryFile(dir=folder):
                pass
        except OSError as error:
            raise MachineError(f"cannot write into {folder} ({error.strerror or 'not writable'}): "
                               "no record could be written there") from None
    next_id(records_dir)


def record_file_names(number: int, slug: str, evidence_count: int) -> tuple[str, list[str]]:
    """`NNNN-slug.md` and its evidence files `NNNN-slug.evidence.json`, `...evidence-2.json`..."""
    stem = f"{number:04d}-{slug}"
    evidence = [f"{stem}.evidence{'' if index == 0 else f'-{index + 1}'}.json" for index in range(evidence_count)]
    return f"{stem}.md", evidence


def write_files_atomically(files: list[tuple[Path, str]]) -> None:
    """Write every (path, text) to a temporary, then rename each into place, in order; all or none.

    Refuses to overwrite: a path that exists already is an error (numbers are never reused).
    """
    written: list[Path] = []
    temporaries: list[tuple[Path, Path]] = []
    try:
        for path, text in files:
            if path.exists():
                raise RecordError(f"{path}: already exists; record numbers are never reused")
            temporaries.append((_written_temporary(path, text), path))
            pause = os.environ.get(PAUSE_ENV)
            if pause:
                time.sleep(float(pause))
        for temporary, path in temporaries:
            os.replace(temporary, path)
            written.append(path)
    except BaseException as error:
        for temporary, _ in temporaries:
            temporary.unlink(missing_ok=True)
        for path in written:
            path.unlink(missing_ok=True)
        if isinstance(error, OSError):
            raise machine_error(error, f"cannot write {error.filename or files[0][0]}; nothing was written") from None
        raise


def _written_temporary(path: Path, text: str) -> Path:
    """write_temporary, its OSError naming the file it was for (a temporary's own name means nothing to a user)."""
    try:
        return write_temporary(path, text)
    except OSError as error:
        error.filename = str(path)
        raise


def replace_file_atomically(path: Path, text: str) -> None:
    """Overwrite one existing file through a temporary in the same folder; MachineError (the file as it was)
    when the disk says no."""
    try:
        write_text_atomically(path, text)
    except OSError as error:
        raise machine_error(error, f"cannot write {path}; it is unchanged") from None


FULL_DISK_ERRORS = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)


def restore_bytes(path: Path, saved: bytes) -> None:
    """Put a file back as it was. On a full disk (or at a file-size limit) no new copy can be written, so the
    old bytes go over the file in place when they fit in what it holds."""
    try:
        write_bytes_atomically(path, saved)
    except OSError as error:
        if error.errno not in FULL_DISK_ERRORS or len(saved) > path.stat().st_size:
            raise
        with path.open("r+b") as stream:
            stream.write(saved)
            stream.truncate()


@contextmanager
def put_back_on_failure(paths: Iterable[Path]) -> Iterator[None]:
    """Run the block; if it fails (a commit the disk refused, Ctrl-C), every file in `paths` is put back as it was."""
    saved = {path: path.read_bytes() for path in paths}
    try:
        yield
    except BaseException:
        for path, data in saved.items():
            try:
                if path.read_bytes() != data:  # one the block never changed (it failed first) is left alone
                    restore_bytes(path, data)
            except OSError as error:
                raise machine_error(error, f"cannot put {path} back as it was") from None
        raise


def read_record_text(path: Path) -> str:
    """A record file's text, read through the bounded reader; RecordError naming the file otherwise."""
    return read_bounded_text(path, RECORD_FILE)


def read_record(path: Path) -> DecisionRecord:
    """Read and validate one record; RecordError naming the file and the first problem."""
    text = read_record_text(path)
    data, body = split_front_matter(text, str(path))
    try:
        front = RecordFrontMatter.model_validate(data)
    except ValidationError as error:
        first = error.errors(include_url=False)[0]
        where = ".".join(str(part) for part in first["loc"]) or "(front matter)"
        more = f" (and {error.error_count() - 1} more)" if error.error_count() > 1 else ""
        message = str(first["msg"]).removeprefix("Value error, ")
        raise RecordError(f"{path}: {where}: {message}{more}") from None
    match = RECORD_NAME.match(path.name)
    if match and int(match.group(1)) != front.id:
        raise RecordError(f"{path}: front matter id {front.id} does not match the file name")
    return DecisionRecord(front=front, path=path, body=body)


def load_records(records_dir: Path) -> tuple[list[DecisionRecord], list[RecordProblem]]:
    """Every record in the folder by number, and a problem for each file that does not read."""
    records: list[DecisionRecord] = []
    problems: list[RecordProblem] = []
    if not records_dir.is_dir():
        return records, problems
    for path in sorted(records_dir.glob("*.md")):
        if not RECORD_NAME.match(path.name):
            continue  # README.md and other notes
        try:
            records.append(read_record(path))
        except RecordError as error:
            problems.append(RecordProblem(path=path, problem=str(error).removeprefix(f"{path}: ")))
    records.sort(key=lambda record: record.id)
    return records, problems


def supersede_links(records: Iterable[DecisionRecord]) -> dict[int, set[int]]:
    """Record number -> the numbers superseding it, from both sides' front matter (a hand edit may set one side)."""
    successors: dict[int, set[int]] = {}
    for record in records:
        successors.setdefault(record.id, set()).update(record.front.superseded_by)
        for old in record.front.supersedes:
            successors.setdefault(old, set()).add(record.id)
    return successors


def supersede_path(successors: dict[int, set[int]], start: int, goal: int) -> list[int] | None:
    """The numbers from `start` to `goal` following superseding links (start first), or None when none leads there."""
    came_from: dict[int, int] = {}
    frontier, seen = [start], {start}
    while frontier:
        number = frontier.pop()
        for successor in sorted(successors.get(number, ())):
            if successor == goal:
                path = [number]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return [*reversed(path), goal]
            if successor not in seen:
                seen.add(successor)
                came_from[successor] = number
                frontier.append(successor)
    return None


def link_problems(records: list[DecisionRecord], problems: Iterable[RecordProblem] = ()) -> list[RecordProblem]:
    """Supersede links that name no record in the folder, and links that go round in a cycle (each reported once,
    on its lowest-numbered record). A link to a file listed in `problems` is not missing: that file is reported."""
    present = {record.id for record in records}
    present |= {int(match.group(1)) for problem in problems if (match := NUMBERED_NAME.match(problem.path.name))}
    found: list[RecordProblem] = []
    for record in records:
        for key, numbers in (("supersedes", record.front.supersedes), ("superseded_by", record.front.superseded_by)):
            for number in dict.fromkeys(numbers):
                if number not in present:
                    found.append(RecordProblem(path=record.path, problem=f"{key}: {number:04d} names no record in this folder"))
    successors = supersede_links(records)
    in_cycle: set[int] = set()
    for record in records:
        if record.id in in_cycle:
            continue
        cycle = supersede_path(successors, record.id, record.id)
        if cycle is not None:
            in_cycle.update(cycle)
            shown = " -> ".join(f"{number:04d}" for number in cycle)
            found.append(RecordProblem(path=record.path, problem=f"supersedes/superseded_by links form a cycle: {shown}"))
    return found


def find_record(records_dir: Path, number: int) -> DecisionRecord:
    """The record with this number; RecordError when there is none or it does not read."""
    if not 1 <= number <= MAX_RECORD_ID:
        raise RecordError(f"record number {str(number)[:30]}: out of range; records are numbered 1 to {MAX_RECORD_ID}")
    matches = [path for path in records_dir.glob(f"{number:04d}-*.md") if RECORD_NAME.match(path.name)]
    matches = [path for path in matches if int(RECORD_NAME.match(path.name).group(1)) == number]  # type: ignore[union-attr]
    if not matches:
        raise RecordError(f"no record {number:04d} in {records_dir}")
    if len(matches) > 1:
        raise RecordError(f"several records numbered {number:04d} in {records_dir}: {', '.join(p.name for p in matches)}")
    return read_record(matches[0])


def save_front_matter(record: DecisionRecord, front: RecordFrontMatter) -> DecisionRecord:
    """Rewrite a record with new front matter and the same body."""
    replace_file_atomically(record.path, compose(front, record.body))
    return DecisionRecord(front=front, path=record.path, body=record.body)


def accept(records_dir: Path, number: int) -> DecisionRecord:
    """Mark a proposed record accepted and bump its version."""
    record = find_record(records_dir, number)
    if record.front.status != "proposed":
        raise RecordError(f"{record.path.name}: only a proposed record can be accepted (it is {record.front.status})")
    front = record.front.model_copy(update={"status": "accepted", "version": record.front.version + 1})
    return save_front_matter(record, front)


def supersede(records_dir: Path, old: int, new: int) -> tuple[DecisionRecord, DecisionRecord]:
    """Link `new` as a successor of `old` both ways; old becomes superseded; both versions bump."""
    if old == new:
        raise RecordError("a record cannot supersede itself")
    old_record, new_record = find_record(records_dir, old), find_record(records_dir, new)
    if new in old_record.front.superseded_by:
        raise RecordError(f"{old_record.path.name} is already superseded by {new:04d}")
    records, _ = load_records(records_dir)  # files that do not read carry no links to follow
    back = supersede_path(supersede_links(records), new, old)
    if back is not None:
        shown = " -> ".join(f"{number:04d}" for number in back)
        raise RecordError(f"{new:04d} already leads to {old:04d} ({shown}): superseding {old:04d} by {new:04d} would make a cycle")
    old_front = old_record.front.model_copy(update={
        "status": "superseded", "version": old_record.front.version + 1,
        "superseded_by": [*old_record.front.superseded_by, new],
    })
    new_front = new_record.front.model_copy(update={
        "version": new_record.front.version + 1,
        "supersedes": [*dict.fromkeys([*new_record.front.supersedes, old])],
    })
    return save_front_matter(old_record, old_front), save_front_matter(new_record, new_front)
