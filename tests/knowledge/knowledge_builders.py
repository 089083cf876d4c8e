"""Small valid knowledge documents for tests: a candidate, a platform, a knowledge root on disk."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import yaml

from advisor.knowledge.models import SUPPORT_CLAIMS

CHECKED = dt.date(2026, 12, 1)
CONCERNS = ("gemm", "attention", "fusion", "quantization", "dynamic-shapes", "collectives", "deployment")


def claim(
    value: Any, source: str = "https://example.com/docs", as_of: dt.date = CHECKED, **extra: Any
) -> dict[str, Any]:
    """One claim as a YAML mapping."""
    return {"value": value, "source": source, "as_of": as_of, **extra}


def candidate_document(candidate_id: str, hardware: list[str], concerns: list[str], **overrides: Any) -> dict[str, Any]:
    """A candidate that supports everything its concerns need."""
    document: dict[str, Any] = {
        "id": candidate_id,
        "name": f"{candidate_id} library",
        "summary": claim(f"{candidate_id} does the work."),
        "layer": claim("operator-library"),
        "hardware": claim(hardware),
        "openness": claim("open"),
        "skill": claim("framework"),
        **{field: claim("yes") for field in SUPPORT_CLAIMS},
        "maintenance_cost": claim("low"),
        "concerns": claim(concerns),
        "risks": [claim("Validate with the model.", source="method#flash-attention")],
    }
    document.update(overrides)
    return document


def platform_document(family: str, official: dict[str, list[str]], **overrides: Any) -> dict[str, Any]:
    """A platform whose official list per concern is `official.get(concern, [])`."""
    document: dict[str, Any] = {
        "id": family,
        "name": f"{family} accelerators",
        "kind": "accelerator",
        "summary": claim(f"The {family} accelerators."),
        "official": {concern.replace("-", "_"): claim(official.get(concern, [])) for concern in CONCERNS},
        "deep_development": claim([]),
        "serving_engines": claim([]),
        "training_frameworks": claim([]),
        "collective_library": claim([]),
        "kernel_languages": claim([]),
        "quantization_toolkits": claim([]),
        "dynamic_shapes": claim("yes"),
    }
    document.update(overrides)
    return document


def write_yaml(path: Path, document: object) -> Path:
    """A YAML file (a string is written as it is)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        document if isinstance(document, str) else yaml.safe_dump(document, allow_unicode=True, sort_keys=False)
    )
    return path


def write_root(
    root: Path,
    candidates: list[dict[str, Any]],
    platforms: list[dict[str, Any]],
    compatibility: dict[str, Any] | None = None,
) -> Path:
    """A knowledge root: knowledge/<id>.yaml, platforms/<id>.yaml and, when given, compatibility.yaml."""
    for document in candidates:
        write_yaml(root / "knowledge" / f"{document['id']}.yaml", document)
    for document in platforms:
        write_yaml(root / "platforms" / f"{document['id']}.yaml", document)
    if compatibility is not None:
        write_yaml(root / "compatibility.yaml", compatibility)
    return root
