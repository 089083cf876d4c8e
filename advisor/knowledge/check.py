"""Check knowledge files one by one, before they join a knowledge base: schema, method anchors, the
hardware families and candidate ids they name.

For authors of new entries (`advisor kb check FILE...`): a file is judged on its own, so a half-written
neighbour does not hide its problems, and ids are looked up among the installed knowledge base's
files and the files being checked.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from advisor.knowledge.claims import KnowledgeBaseError
from advisor.knowledge.loader import (
    CANDIDATES_DIR,
    PLATFORMS_DIR,
    check_anchors,
    check_names,
    file_ids,
    hardware_families,
    read_mapping,
    validate_document,
)
from advisor.knowledge.method import method_anchors
from advisor.knowledge.models import Candidate
from advisor.knowledge.platforms import Platform


def check_files(paths: Sequence[Path]) -> list[str]:
    """One line per problem found, naming the file; an empty list when every file is sound."""
    families = set(hardware_families()) | {path.stem for path in paths if path.parent.name == PLATFORMS_DIR}
    ids = set(file_ids(CANDIDATES_DIR)) | {path.stem for path in paths if path.parent.name != PLATFORMS_DIR}
    problems = []
    for path in paths:
        try:
            _check_file(path, families, ids)
        except KnowledgeBaseError as error:
            problems.append(str(error))
    return problems


def _check_file(path: Path, families: set[str], ids: set[str]) -> None:
    origin = str(path)
    document = read_mapping(path, origin)
    is_platform = path.parent.name == PLATFORMS_DIR or "official" in document
    item = validate_document(Platform if is_platform else Candidate, document, origin)
    if item.id != path.stem:
        raise KnowledgeBaseError(f"{origin}: field id: {item.id!r} must equal the file stem {path.stem!r}")
    check_anchors(origin, item.claims().items(), method_anchors())
    if isinstance(item, Platform):
        for field, values in item.referenced_ids().items():
            check_names(origin, field, values, ids, "candidate id")
    else:
        check_names(origin, "hardware", item.hardware.value, families, "hardware family")
