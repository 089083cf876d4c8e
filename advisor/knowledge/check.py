"""Check knowledge files one by one, before they join a knowledge base: schema, method anchors, the
hardware families, devices and candidate ids they name.

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
    STACKS_DIR,
    check_anchors,
    check_names,
    check_stack_references,
    file_ids,
    hardware_families,
    load_knowledge_base,
    read_mapping,
    validate_document,
)
from advisor.knowledge.method import method_anchors
from advisor.knowledge.models import Candidate
from advisor.knowledge.platforms import Platform
from advisor.knowledge.stacks import Stack


def check_files(paths: Sequence[Path]) -> list[str]:
    """One line per problem found, naming the file; an empty list when every file is sound."""
    kinds = {path: _kind(path) for path in paths}
    families = set(hardware_families()) | {path.stem for path, kind in kinds.items() if kind is Platform}
    ids = set(file_ids(CANDIDATES_DIR)) | {path.stem for path, kind in kinds.items() if kind is Candidate}
    platforms: dict[str, tuple[Platform, str]] | None = None  # read when a stack is checked: its devices
    problems = []
    for path, kind in kinds.items():
        try:
            if kind is Stack and platforms is None:
                platforms = _platforms_with([other for other, of in kinds.items() if of is Platform])
            _check_file(path, kind, families, ids, platforms or {})
        except KnowledgeBaseError as error:
            problems.append(str(error))
    return problems


def _kind(path: Path) -> type[Candidate] | type[Platform] | type[Stack]:
    """What a file is by its folder (knowledge/, platforms/, stacks/), else by a field only that kind has."""
    by_folder: dict[str, type[Candidate] | type[Platform] | type[Stack]] = {
        PLATFORMS_DIR: Platform,
        STACKS_DIR: Stack,
        CANDIDATES_DIR: Candidate,
    }
    if path.parent.name in by_folder:
        return by_folder[path.parent.name]
    try:
        document = read_mapping(path, str(path))
    except KnowledgeBaseError:
        return Candidate  # the problem is reported when the file is checked
    return Platform if "official" in document else Stack if "applies_to" in document else Candidate


def _platforms_with(paths: Sequence[Path]) -> dict[str, tuple[Platform, str]]:
    """The installed platforms, with the ones among the files being checked that read in their place."""
    platforms = {platform.id: (platform, "installed") for platform in load_knowledge_base().platforms}
    for path in paths:
        try:
            platform = validate_document(Platform, read_mapping(path, str(path)), str(path))
        except KnowledgeBaseError:
            continue  # reported as that file's own problem
        platforms[platform.id] = (platform, str(path))
    return platforms


def _check_file(
    path: Path,
    kind: type[Candidate] | type[Platform] | type[Stack],
    families: set[str],
    ids: set[str],
    platforms: dict[str, tuple[Platform, str]],
) -> None:
    origin = str(path)
    item = validate_document(kind, read_mapping(path, origin), origin)
    if item.id != path.stem:
        raise KnowledgeBaseError(f"{origin}: field id: {item.id!r} must equal the file stem {path.stem!r}")
    check_anchors(origin, item.claims().items(), method_anchors())
    if isinstance(item, Platform):
        for field, values in item.referenced_ids().items():
            check_names(origin, field, values, ids, "candidate id")
    elif isinstance(item, Stack):
        check_stack_references(item, origin, platforms, ids)
    else:
        check_names(origin, "hardware", item.hardware.value, families, "hardware family")
