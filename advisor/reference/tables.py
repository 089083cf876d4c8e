"""Read the shipped reference extract (advisor/data/reference/<system>.json): NVIDIA-measured operator timings.

Standard library only, read once per process per system: a lookup adds milliseconds to `recommend`. Each table keeps
its provenance (package and version, engine and version, device string, collection date or "undated"), and every
figure built from it carries the label that says who measured it, where.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from probes.errors import AdvisorError
from probes.files.bounded_read import FileKind, read_bounded_text

EXTRACT_SCHEMA_VERSION = 1
MAX_EXTRACT_BYTES = 2 * 1024 * 1024  # one system's file; the whole extract stays under 3 MB
# aiconfigurator-core's system name -> advisor's device id (advisor/data/platforms/nvidia-gpu.yaml)
SYSTEM_DEVICES: dict[str, str] = {
    "a100_sxm": "a100-sxm",
    "l40s": "l40s",
    "h100_sxm": "h100-sxm",
    "h200_sxm": "h200-sxm",
    "b200_sxm": "b200",
    "gb200": "gb200",
    "b300_sxm": "b300",
    "rtx_pro_6000_server": "rtx-pro-6000-server",
}
ENGINE_NAMES = {"trtllm": "TensorRT-LLM", "vllm": "vLLM", "sglang": "SGLang", "nccl": "NCCL"}
# advisor's serving-engine candidate id -> the engine name of NVIDIA's tables; TensorRT-LLM's where none matches
TABLE_ENGINES = {"tensorrt-llm": "trtllm", "vllm": "vllm", "sglang": "sglang"}
DEFAULT_TABLE_ENGINE = "trtllm"


def table_engine_for(candidate: str | None) -> str:
    """The tables' engine name for an advisor serving-engine candidate id."""
    return TABLE_ENGINES.get(candidate or "", DEFAULT_TABLE_ENGINE)


class ReferenceError(AdvisorError):
    """A reference extract file that cannot be read or does not match its schema."""


EXTRACT_FILE = FileKind(noun="reference extract", cap=MAX_EXTRACT_BYTES, error=ReferenceError)


@dataclass(frozen=True)
class ReferenceTable:
    """One operator table of one engine version on one system, as extracted."""

    operator: str  # gemm, context_attention, generation_attention, nccl
    framework: str
    framework_version: str
    provenance: str
    collected_at: str
    device: str
    path: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]

    def records(self) -> Iterator[dict[str, Any]]:
        """Each row as a mapping of column to value."""
        for row in self.rows:
            yield dict(zip(self.columns, row))


@dataclass(frozen=True)
class Reference:
    """The extract of one system: its tables and where they came from."""

    system: str
    device_id: str
    package: str
    version: str
    tables: tuple[ReferenceTable, ...] = field(default_factory=tuple)

    def label(self, table: ReferenceTable) -> str:
        """'measured by NVIDIA on NVIDIA H200, aiconfigurator-core 0.12.0, TensorRT-LLM 1.3.0rc20'."""
        engine = ENGINE_NAMES.get(table.framework, table.framework)
        return (
            f"measured by NVIDIA on {table.device}, {self.package} {self.version}, {engine} {table.framework_version}"
        )

    def table(self, operator: str, framework: str | None = None) -> ReferenceTable | None:
        """The operator's table of this engine (the first engine's, in extract order, when None)."""
        return next((t for t in self.tables if t.operator == operator and framework in (None, t.framework)), None)

    def engines(self, operator: str) -> tuple[str, ...]:
        """The engines with a table for this operator."""
        return tuple(t.framework for t in self.tables if t.operator == operator)


def reference_dir() -> Path:
    """The shipped extract's folder."""
    return Path(str(resources.files("advisor.data").joinpath("reference")))


def system_for(device_id: str | None) -> str | None:
    """The reference system of an advisor device id, or None when NVIDIA's tables do not cover it."""
    return next((system for system, device in SYSTEM_DEVICES.items() if device == device_id), None)


def parse_reference(text: str, origin: str) -> Reference:
    """A Reference from an extract file's text; ReferenceError naming the file and the field otherwise."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise ReferenceError(f"{origin}: not JSON ({error.msg} at line {error.lineno})") from None
    if not isinstance(document, dict) or document.get("schema_version") != EXTRACT_SCHEMA_VERSION:
        raise ReferenceError(f"{origin}: schema_version: expected {EXTRACT_SCHEMA_VERSION}")
    try:
        tables = tuple(
            ReferenceTable(
                operator=str(t["operator"]),
                framework=str(t["framework"]),
                framework_version=str(t["framework_version"]),
                provenance=str(t["provenance"]),
                collected_at=str(t["collected_at"]),
                device=str(t["device"]),
                path=str(t["path"]),
                columns=tuple(t["columns"]),
                rows=tuple(tuple(row) for row in t["rows"]),
            )
            for t in document["tables"]
        )
        source = document["source"]
        return Reference(
            system=str(document["system"]),
            device_id=str(document["device_id"]),
            package=str(source["package"]),
            version=str(source["version"]),
            tables=tables,
        )
    except (KeyError, TypeError) as error:
        raise ReferenceError(f"{origin}: missing or malformed field {error}") from None


@lru_cache(maxsize=16)
def load_reference(system: str, folder: Path | None = None) -> Reference | None:
    """The extract of a system (None when none is shipped), read once."""
    path = (folder or reference_dir()) / f"{system}.json"
    if not path.is_file():
        return None
    return parse_reference(read_bounded_text(path, EXTRACT_FILE), str(path))


def reference_for(device_id: str | None) -> Reference | None:
    """The reference of an advisor device, or None (no device, a device NVIDIA's tables do not cover)."""
    system = system_for(device_id)
    return load_reference(system) if system is not None else None


def shipped_systems(folder: Path | None = None) -> Sequence[str]:
    """The systems with an extract in the folder."""
    return sorted(path.stem for path in (folder or reference_dir()).glob("*.json"))
