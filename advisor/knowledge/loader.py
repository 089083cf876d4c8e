"""Read the knowledge base: candidate files, platform files and the compatibility file, then check that
every id and method anchor they name exists.

Layout of a knowledge root (the built-in one is advisor/data/):

    knowledge/<candidate-id>.yaml    one candidate per file, file stem == id
    platforms/<family>.yaml          one hardware family per file (with its devices), file stem == id
    stacks/<stack-id>.yaml           one whole, documented stack per file, file stem == id (optional)
    compatibility.yaml               relations between candidate ids (optional)

ADVISOR_KB_DIR names a root of the same layout whose files add to the built-in ones or replace those
with the same id, so a team adds an in-house stack or a hardware family without editing the package.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from advisor.knowledge.claims import KnowledgeBaseError, method_anchor
from advisor.knowledge.compatibility import Compatibility
from advisor.knowledge.method import method_anchors
from advisor.knowledge.models import Candidate, KnowledgeBase
from advisor.knowledge.platforms import Platform
from advisor.knowledge.policy import Policy
from advisor.knowledge.stacks import Stack
from probes.files.bounded_read import FileKind, read_bounded_text
from probes.files.safe_yaml import DataLoader

if TYPE_CHECKING:  # importlib.resources.abc is Python 3.11+; only the type checker needs it
    from importlib.resources.abc import Traversable

KB_DIR_VARIABLE = "ADVISOR_KB_DIR"
BUILTIN_ORIGIN = "advisor/data"
CANDIDATES_DIR, PLATFORMS_DIR, COMPATIBILITY_FILE = "knowledge", "platforms", "compatibility.yaml"
STACKS_DIR = "stacks"
POLICY_FILE = "policy.yaml"  # read from the built-in data only: the engine's mappings are not an extension point

Item = TypeVar("Item", Candidate, Platform, Stack)
# Every knowledge file is a page of YAML (the largest built-in one is 9 KB); an override is the user's file.
MAX_KNOWLEDGE_FILE_BYTES = 1 << 20
KNOWLEDGE_FILE = FileKind("knowledge-base file", MAX_KNOWLEDGE_FILE_BYTES, KnowledgeBaseError)


def load_knowledge_base(root: Path | None = None) -> KnowledgeBase:
    """The built-in knowledge base with ADVISOR_KB_DIR's additions (read once, then cached), or the one in `root`."""
    if root is not None:
        return _read_roots([(root, str(root))])
    return _cached_knowledge_base(os.environ.get(KB_DIR_VARIABLE) or None)


@lru_cache(maxsize=4)
def _cached_knowledge_base(extra_root: str | None) -> KnowledgeBase:
    roots: list[tuple[Traversable | Path, str]] = [(resources.files("advisor.data"), BUILTIN_ORIGIN)]
    if extra_root is not None:
        roots.append((_existing_directory(extra_root), f"{KB_DIR_VARIABLE}={extra_root}"))
    return _read_roots(roots)


def hardware_families() -> tuple[str, ...]:
    """The hardware family ids (platform file stems), cheaply: profiles validate against these."""
    return file_ids(PLATFORMS_DIR)


def family_device_ids(family: str) -> tuple[str, ...]:
    """The device ids a family's platform lists (a profile's `device` must be one); empty for an unknown family."""
    platforms = {platform.id: platform for platform in load_knowledge_base().platforms}
    platform = platforms.get(family)
    return tuple(device.id for device in platform.devices) if platform is not None else ()


def device_or_default(family: str, device: str | None) -> str | None:
    """`device` when given, else the family's current generation (its platform's default_device); None for a family
    that lists no devices or is unknown."""
    if device is not None:
        return device
    platform = next((platform for platform in load_knowledge_base().platforms if platform.id == family), None)
    return platform.default_device.value if platform is not None and platform.default_device is not None else None


def file_ids(folder: str) -> tuple[str, ...]:
    """The ids (file stems) in one folder of the built-in knowledge and of ADVISOR_KB_DIR, without reading the files."""
    return _cached_file_ids(folder, os.environ.get(KB_DIR_VARIABLE) or None)


@lru_cache(maxsize=8)
def _cached_file_ids(folder: str, extra_root: str | None) -> tuple[str, ...]:
    roots: list[Traversable | Path] = [resources.files("advisor.data")]
    if extra_root is not None:
        roots.append(_existing_directory(extra_root))
    stems = [entry.name.removesuffix(".yaml") for root in roots for entry in _yaml_files(root / folder, "")]
    return tuple(dict.fromkeys(stems))


def _existing_directory(name: str) -> Path:
    path = Path(name)
    if not path.is_dir():
        raise KnowledgeBaseError(f"{KB_DIR_VARIABLE}={name}: not a directory")
    return path


def _read_roots(roots: list[tuple[Traversable | Path, str]]) -> KnowledgeBase:
    candidates: dict[str, tuple[Candidate, str]] = {}
    platforms: dict[str, tuple[Platform, str]] = {}
    stacks: dict[str, tuple[Stack, str]] = {}
    relations: dict[str, dict[str, Any]] = {}
    for root, origin in roots:
        candidates.update(_read_items(root / CANDIDATES_DIR, f"{origin}/{CANDIDATES_DIR}", Candidate))
        platforms.update(_read_items(root / PLATFORMS_DIR, f"{origin}/{PLATFORMS_DIR}", Platform))
        stacks.update(_read_items(root / STACKS_DIR, f"{origin}/{STACKS_DIR}", Stack))
        compatibility = root / COMPATIBILITY_FILE
        # On disk, anything by that name is read (a FIFO, folder or dangling link is then refused by name, not skipped).
        if os.path.lexists(compatibility) if isinstance(compatibility, Path) else compatibility.is_file():
            _merge_relations(relations, compatibility, f"{origin}/{COMPATIBILITY_FILE}")
    if not candidates:
        raise KnowledgeBaseError(f"{roots[0][1]}/{CANDIDATES_DIR}: no candidate files (*.yaml)")
    if not platforms:
        raise KnowledgeBaseError(f"{roots[0][1]}/{PLATFORMS_DIR}: no platform files (*.yaml)")
    compatibility_origin = " + ".join(f"{origin}/{COMPATIBILITY_FILE}" for _, origin in roots)
    policy_entry = roots[0][0] / POLICY_FILE
    policy_origin = f"{roots[0][1]}/{POLICY_FILE}"
    policy = (
        validate_document(Policy, read_mapping(policy_entry, policy_origin), policy_origin)
        if policy_entry.is_file()
        else Policy()
    )
    knowledge = KnowledgeBase(
        candidates=tuple(item for item, _ in candidates.values()),
        platforms=tuple(item for item, _ in platforms.values()),
        stacks=tuple(item for item, _ in stacks.values()),
        compatibility=validate_document(Compatibility, relations, compatibility_origin),
        policy=policy,
    )
    check_names(policy_origin, "candidates", sorted(policy.candidate_ids()), set(candidates), "candidate id")
    _check_references(knowledge, candidates, platforms, compatibility_origin)
    for stack, origin in stacks.values():
        check_stack_references(stack, origin, platforms, set(candidates))
        if stack.superseded_by is not None:
            check_names(origin, "superseded_by", [stack.superseded_by], set(stacks), "stack id")
    return knowledge


def _yaml_files(directory: Traversable | Path, origin: str) -> list[Traversable | Path]:
    try:
        if not directory.is_dir():
            return []
        return sorted((entry for entry in directory.iterdir() if entry.name.endswith(".yaml")), key=lambda e: e.name)
    except OSError as error:
        raise KnowledgeBaseError(f"{origin}: cannot read the directory ({error.strerror})") from None


def _read_items(directory: Traversable | Path, origin: str, model: type[Item]) -> dict[str, tuple[Item, str]]:
    items: dict[str, tuple[Item, str]] = {}
    for entry in _yaml_files(directory, origin):
        where = f"{origin}/{entry.name}"
        item = validate_document(model, read_mapping(entry, where), where)
        stem = entry.name.removesuffix(".yaml")
        if item.id != stem:
            raise KnowledgeBaseError(f"{where}: field id: {item.id!r} must equal the file stem {stem!r}")
        items[item.id] = (item, where)
    return items


def _merge_relations(relations: dict[str, dict[str, Any]], entry: Traversable | Path, origin: str) -> None:
    document = read_mapping(entry, origin)
    for name, relation in document.items():
        if not isinstance(relation, dict):
            raise KnowledgeBaseError(f"{origin}: field {name}: expected a mapping of id -> claim")
        relations.setdefault(str(name), {}).update(relation)


def read_mapping(entry: Traversable | Path, origin: str) -> dict[str, Any]:
    """The YAML mapping in a file; a one-line KnowledgeBaseError naming the file otherwise."""
    if isinstance(entry, Path):  # on disk: the built-in files, an ADVISOR_KB_DIR override, `kb check` FILE
        text = read_bounded_text(entry, KNOWLEDGE_FILE, origin)
    else:  # inside a zipped package: advisor's own files
        try:
            text = entry.read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise KnowledgeBaseError(f"{origin}: cannot read ({error})") from None
    try:
        document = yaml.load(text, Loader=DataLoader)  # noqa: S506 - a SafeLoader
    except yaml.YAMLError as error:
        raise KnowledgeBaseError(f"{origin}: not valid YAML ({_yaml_problem(error)})") from None
    except RecursionError:
        raise KnowledgeBaseError(f"{origin}: nested too deeply to be a knowledge-base file") from None
    if not isinstance(document, dict):
        raise KnowledgeBaseError(f"{origin}: expected a mapping of fields, got {type(document).__name__}")
    return document


def validate_document(model: type[BaseModel], document: dict[str, Any], origin: str) -> Any:
    """The document as `model`; a one-line KnowledgeBaseError naming the file and the first bad field otherwise."""
    try:
        return model.model_validate(document)
    except ValidationError as error:
        raise KnowledgeBaseError(f"{origin}: {_first_problem(error)}") from None


def _check_references(
    knowledge: KnowledgeBase,
    candidates: dict[str, tuple[Candidate, str]],
    platforms: dict[str, tuple[Platform, str]],
    compatibility_origin: str,
) -> None:
    """Every hardware family, candidate id and method anchor named anywhere exists."""
    ids, families, anchors = set(candidates), set(platforms), method_anchors()
    for candidate, origin in candidates.values():
        check_names(origin, "hardware", candidate.hardware.value, families, "hardware family")
        if candidate.devices_listed is not None:
            devices = {d.id for f in candidate.hardware.value if f in platforms for d in platforms[f][0].devices}
            check_names(origin, "devices_listed", candidate.devices_listed.value, devices, "device of its hardware")
        if candidate.ships_kernels_of is not None:
            check_names(origin, "ships_kernels_of", candidate.ships_kernels_of.value, ids, "candidate id")
        check_anchors(origin, candidate.claims().items(), anchors)
    for platform, origin in platforms.values():
        for path, named in platform.referenced_ids().items():
            check_names(origin, path, named, ids, "candidate id")
        check_anchors(origin, platform.claims().items(), anchors)
    for path, named in knowledge.compatibility.referenced_ids().items():
        check_names(compatibility_origin, path, named, ids, "candidate id")
    for path, named in knowledge.compatibility.referenced_families().items():
        check_names(compatibility_origin, path, named, families, "hardware family")
    architectures = {device.architecture for platform, _ in platforms.values() for device in platform.devices}
    for path, named in knowledge.compatibility.referenced_architectures().items():
        check_names(compatibility_origin, path, named, architectures, "device architecture")
    for name, relation in knowledge.compatibility.relations().items():
        check_anchors(compatibility_origin, ((f"{name}.{key}", claim) for key, claim in relation.items()), anchors)


def check_stack_references(
    stack: Stack, origin: str, platforms: dict[str, tuple[Platform, str]], candidate_ids: set[str]
) -> None:
    """KnowledgeBaseError naming the file and field when a stack names a family, device or candidate that the
    knowledge base does not have."""
    check_names(origin, "applies_to.family", [stack.applies_to.family], set(platforms), "hardware family")
    platform = platforms[stack.applies_to.family][0]
    devices = {device.id for device in platform.devices}
    check_names(origin, "applies_to.devices", stack.applies_to.devices, devices, f"{platform.id} device")
    for index, component in enumerate(stack.components):
        if component.candidate is not None:
            check_names(origin, f"components.{index}.candidate", [component.candidate], candidate_ids, "candidate id")


def check_names(origin: str, path: str, named: Iterable[str], known: set[str], kind: str) -> None:
    """KnowledgeBaseError naming the file and field when a name is not among the known ones."""
    unknown = [name for name in named if name not in known]
    if unknown:
        listed = ", ".join(sorted(known)) or "none"
        raise KnowledgeBaseError(f"{origin}: field {path}: unknown {kind} {unknown[0]!r}; known: {listed}")


def check_anchors(origin: str, claims: Iterable[tuple[str, Any]], anchors: frozenset[str]) -> None:
    """KnowledgeBaseError naming the file and field when a claim cites a method section that does not exist."""
    for path, claim in claims:
        anchor = method_anchor(claim.source)
        if anchor is not None and anchor not in anchors:
            raise KnowledgeBaseError(f"{origin}: field {path}.source: no method section #{anchor}")


def _yaml_problem(error: yaml.YAMLError) -> str:
    if isinstance(error, yaml.MarkedYAMLError) and error.problem_mark is not None:
        return f"{error.problem} at line {error.problem_mark.line + 1}"
    return str(error).splitlines()[0]


def _first_problem(error: ValidationError) -> str:
    """The first validation error as `field a.b.0: message (got ...)`, on one line."""
    problems = error.errors(include_url=False)
    first = problems[0]
    path = ".".join(str(part) for part in first["loc"]) or "(top level)"
    message = first["msg"]
    if first["type"] not in ("missing", "model_type") and not isinstance(first.get("input"), dict):
        message += f" (got {str(first['input'])[:200]!r})"
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return " ".join(f"field {path}: {message}{more}".split())
