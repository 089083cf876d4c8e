"""Read the candidate files (one YAML file per candidate, file stem == id) into a KnowledgeBase."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

import yaml
from pydantic import ValidationError

from advisor.knowledge.models import Candidate, KnowledgeBase, KnowledgeBaseError

if TYPE_CHECKING:  # importlib.resources.abc is Python 3.11+; only the type checker needs it
    from importlib.resources.abc import Traversable

KNOWLEDGE_PACKAGE = "advisor.data.knowledge"
_BUILTIN_ORIGIN = "advisor/data/knowledge"


def load_knowledge_base(directory: Path | None = None) -> KnowledgeBase:
    """The built-in knowledge base (read once, then cached), or the one in `directory`."""
    if directory is None:
        return _builtin_knowledge_base()
    return _read_directory(directory, str(directory))


@lru_cache(maxsize=1)
def _builtin_knowledge_base() -> KnowledgeBase:
    return _read_directory(resources.files(KNOWLEDGE_PACKAGE), _BUILTIN_ORIGIN)


def _read_directory(root: Traversable, origin: str) -> KnowledgeBase:
    try:
        files = sorted((entry for entry in root.iterdir() if entry.name.endswith(".yaml")), key=lambda e: e.name)
    except OSError as error:
        raise KnowledgeBaseError(f"{origin}: cannot read the directory ({error.strerror})") from None
    if not files:
        raise KnowledgeBaseError(f"{origin}: no candidate files (*.yaml)")
    candidates = [_read_candidate(entry, f"{origin}/{entry.name}") for entry in files]
    return KnowledgeBase(candidates=tuple(candidates))


def _read_candidate(entry: Traversable, origin: str) -> Candidate:
    stem = entry.name.removesuffix(".yaml")
    try:
        document = yaml.safe_load(entry.read_text(encoding="utf-8"))
    except yaml.YAMLError as error:
        raise KnowledgeBaseError(f"{origin}: not valid YAML ({_yaml_problem(error)})") from None
    if not isinstance(document, dict):
        raise KnowledgeBaseError(f"{origin}: expected a mapping of candidate fields, got {type(document).__name__}")
    try:
        candidate = Candidate.model_validate(document)
    except ValidationError as error:
        raise KnowledgeBaseError(f"{origin}: {_first_problem(error)}") from None
    if candidate.id != stem:
        raise KnowledgeBaseError(f"{origin}: field id: {candidate.id!r} must equal the file stem {stem!r}")
    return candidate


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
        message += f" (got {first['input']!r})"
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return " ".join(f"field {path}: {message}{more}".split())
