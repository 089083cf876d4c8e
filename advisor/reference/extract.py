"""Maintainer script: write advisor's reference extract from an installed aiconfigurator-core.

NVIDIA's aiconfigurator-core (Apache-2.0) ships operator timings NVIDIA measured on its systems, one parquet table per
operator, serving engine and engine version. This script keeps the exact rows at the shapes advisor's probes and the
common model sizes use (no interpolation, no value changed) and writes one JSON file per system with its provenance:

    pip install 'aiconfigurator-core==0.12.0'
    python -m advisor.reference.extract --out advisor/data/reference [--wheel aiconfigurator_core-0.12.0-*.whl]

It needs pyarrow (a dependency of aiconfigurator-core); nothing else in advisor imports it.
"""

from __future__ import annotations

import argparse
import base64
import csv
import hashlib
import io
import json
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

import yaml

from advisor.reference.grid import (
    ATTENTION_BATCHES,
    ATTENTION_HEAD_DIMS,
    ATTENTION_HEADS,
    CONTEXT_LENGTHS,
    GEMM_DTYPES,
    GEMM_M,
    GEMM_NK,
    GENERATION_BATCHES,
    GENERATION_STEPS,
    NCCL_OPS,
)
from advisor.reference.tables import EXTRACT_SCHEMA_VERSION, SYSTEM_DEVICES

PACKAGE = "aiconfigurator-core"
MODULE = "aiconfigurator_core"
COPYRIGHT = "Copyright (c) 2026 NVIDIA CORPORATION & AFFILIATES. All rights reserved."
STATEMENT = (
    "Filtered and converted by advisor's maintainer script (advisor/reference/extract.py): exact rows of "
    "NVIDIA's tables at the shapes listed in advisor/reference/grid.py, from parquet to JSON; no value changed, "
    "nothing interpolated."
)
# Table file -> (operator, the columns kept, in order). Latency is NVIDIA's, in milliseconds.
TABLES: dict[str, tuple[str, tuple[str, ...]]] = {
    "gemm_perf.parquet": ("gemm", ("gemm_dtype", "m", "n", "k", "latency")),
    "context_attention_perf.parquet": (
        "context_attention",
        (
            "batch_size",
            "isl",
            "num_heads",
            "num_key_value_heads",
            "head_dim",
            "attn_dtype",
            "kv_cache_dtype",
            "latency",
        ),
    ),
    "generation_attention_perf.parquet": (
        "generation_attention",
        ("batch_size", "step", "num_heads", "num_key_value_heads", "head_dim", "kv_cache_dtype", "latency"),
    ),
    "nccl_perf.parquet": ("nccl", ("op_name", "nccl_dtype", "num_gpus", "message_size", "latency")),
}
UNITS = {
    "latency": "ms",
    "m": "rows (tokens)",
    "n": "columns",
    "k": "inner dimension",
    "isl": "tokens",
    "step": "tokens already in the KV cache",
    "message_size": "elements of nccl_dtype (half: 2 bytes, int8: 1 byte; see README)",
}


@dataclass(frozen=True)
class SourceTable:
    """One parquet table of the installed package, with what its collection_meta.yaml says."""

    system: str
    path: Path  # absolute
    relative: str  # inside the package: 'systems/data/h200_sxm/gemm/trtllm/1.3.0rc20/gemm_perf.parquet'
    framework: str
    framework_version: str
    provenance: str
    collected_at: str


def package_root() -> Path:
    """The installed aiconfigurator_core package folder."""
    import aiconfigurator_core  # advisor[reference], the maintainer's environment only

    return Path(aiconfigurator_core.__file__).resolve().parent


def source_tables(root: Path) -> Iterator[SourceTable]:
    """Every table this extract reads, newest engine version last within a (system, operator, framework)."""
    data = root / "systems" / "data"
    for system in sorted(SYSTEM_DEVICES):
        for path in sorted((data / system).glob("*/*/*/*.parquet")):
            if path.name not in TABLES:
                continue
            meta_file = path.parent / "collection_meta.yaml"
            meta = yaml.safe_load(meta_file.read_text(encoding="utf-8")) if meta_file.is_file() else {}
            runtime = meta.get("runtime", {}) if isinstance(meta, dict) else {}
            dated = meta.get("collected_at") or next(
                (
                    table.get("collected_at")
                    for table in (meta.get("tables") or {}).values()
                    if isinstance(table, dict) and table.get("collected_at")
                ),
                None,
            )
            yield SourceTable(
                system=system,
                path=path,
                relative=path.relative_to(root.parent).as_posix(),
                framework=str(runtime.get("framework") or path.parent.parent.name),
                framework_version=str(runtime.get("version") or path.parent.name),
                provenance=str(meta.get("provenance", "unknown")),
                collected_at=str(dated) if dated else "undated",
            )


def newest_per_framework(tables: Sequence[SourceTable]) -> list[SourceTable]:
    """The newest engine version's table of each (system, operator, framework): the one aiconfigurator queries."""
    from packaging.version import InvalidVersion, Version

    def order(table: SourceTable) -> tuple[int, Any]:
        try:
            return 1, Version(table.framework_version)
        except InvalidVersion:
            return 0, table.framework_version

    newest: dict[tuple[str, str, str], SourceTable] = {}
    for table in tables:
        key = (table.system, table.path.name, table.framework)
        if key not in newest or order(table) > order(newest[key]):
            newest[key] = table
    return sorted(newest.values(), key=lambda t: (t.system, TABLES[t.path.name][0], t.framework))


def kept(operator: str, row: dict[str, Any]) -> bool:
    """The row is at a grid point."""
    if operator == "gemm":
        return row["gemm_dtype"] in GEMM_DTYPES and row["m"] in GEMM_M and (row["n"], row["k"]) in GEMM_NK
    if operator == "context_attention":
        return (
            row["batch_size"] in ATTENTION_BATCHES
            and row["isl"] in CONTEXT_LENGTHS
            and row["head_dim"] in ATTENTION_HEAD_DIMS
            and (row["num_heads"], row["num_key_value_heads"]) in ATTENTION_HEADS
            and row.get("window_size", 0) == 0
            and row.get("beam_width", 1) == 1
        )
    if operator == "generation_attention":
        return (
            row["batch_size"] in GENERATION_BATCHES
            and row["step"] in GENERATION_STEPS
            and row["head_dim"] in ATTENTION_HEAD_DIMS
            and (row["num_heads"], row["num_key_value_heads"]) in ATTENTION_HEADS
            and row.get("window_size", 0) == 0
            and row.get("beam_width", 1) == 1
        )
    return row["op_name"] in NCCL_OPS


def plain(value: Any) -> Any:
    """A JSON value: numpy scalars as Python numbers, latencies rounded to 6 significant digits."""
    if hasattr(value, "item"):
        value = value.item()
    return float(f"{value:.6g}") if isinstance(value, float) else value


def extract_table(table: SourceTable) -> dict[str, Any]:
    """The kept rows of one table, sorted, with where they came from."""
    import pyarrow.parquet as pq  # advisor[reference] brings pyarrow

    operator, columns = TABLES[table.path.name]
    frame = pq.read_table(table.path)
    records = frame.to_pylist()
    rows = sorted({tuple(plain(r[c]) for c in columns) for r in records if kept(operator, r)})
    devices = sorted({str(r["device"]) for r in records}) if "device" in frame.column_names else []
    return {
        "operator": operator,
        "path": table.relative,
        "framework": table.framework,
        "framework_version": table.framework_version,
        "provenance": table.provenance,
        "collected_at": table.collected_at,
        "device": ", ".join(devices),
        "units": {c: UNITS[c] for c in columns if c in UNITS},
        "columns": list(columns),
        "rows": [list(r) for r in rows],
    }


def record_hashes(root: Path) -> dict[str, str]:
    """sha256 (hex) of every installed file, from the distribution's RECORD."""
    found: dict[str, str] = {}
    record = next((f for f in metadata.distribution(PACKAGE).files or () if f.name == "RECORD"), None)
    if record is None:
        return found
    for row in csv.reader(io.StringIO(record.read_text() or "")):
        if len(row) >= 2 and row[1].startswith("sha256="):
            digest = base64.urlsafe_b64decode(row[1].removeprefix("sha256=") + "==").hex()
            found[row[0]] = digest
    return found


def extract(root: Path, wheel_sha256: str | None) -> dict[str, dict[str, Any]]:
    """One extract per system that has data, keyed by system name."""
    version = metadata.version(PACKAGE)
    hashes = record_hashes(root)
    by_system: dict[str, dict[str, Any]] = {}
    for table in newest_per_framework(list(source_tables(root))):
        entry = extract_table(table)
        if not entry["rows"]:
            continue
        entry["sha256"] = hashes.get(f"{MODULE}/{table.relative.split('/', 1)[1]}", "not recorded")
        system = by_system.setdefault(
            table.system,
            {
                "schema_version": EXTRACT_SCHEMA_VERSION,
                "system": table.system,
                "device_id": SYSTEM_DEVICES[table.system],
                "source": {
                    "package": PACKAGE,
                    "version": version,
                    "wheel_sha256": wheel_sha256 or "not recorded",
                    "licence": "Apache-2.0",
                    "copyright": COPYRIGHT,
                },
                "statement": STATEMENT,
                "tables": [],
            },
        )
        system["tables"].append(entry)
    return by_system


def file_sha256(path: Path) -> str:
    """The wheel's sha256 (this script needs Python 3.11, as aiconfigurator-core does: hashlib.file_digest)."""
    with path.open("rb") as stream:
        return hashlib.file_digest(stream, "sha256").hexdigest()


def dumps(extract_of_system: dict[str, Any]) -> str:
    """The extract as written: one table row per line, so that a diff shows rows."""
    head = {key: value for key, value in extract_of_system.items() if key != "tables"}
    lines = [
        "{",
        *(f"  {json.dumps(key)}: {json.dumps(value, sort_keys=True)}," for key, value in head.items()),
        '  "tables": [',
    ]
    for index, table in enumerate(extract_of_system["tables"]):
        meta = {key: value for key, value in table.items() if key != "rows"}
        lines.append(f'    {{{json.dumps(meta, sort_keys=True)[1:-1]}, "rows": [')
        lines += [
            f"      {json.dumps(row)}{',' if i < len(table['rows']) - 1 else ''}" for i, row in enumerate(table["rows"])
        ]
        lines.append("    ]}" + ("," if index < len(extract_of_system["tables"]) - 1 else ""))
    return "\n".join([*lines, "  ]", "}"]) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="the folder to write <system>.json into")
    parser.add_argument("--wheel", type=Path, help="the aiconfigurator-core wheel installed, to record its sha256")
    parser.add_argument("--system", action="append", help="only this system (repeatable); default: every one with data")
    args = parser.parse_args(argv)
    wheel_sha = file_sha256(args.wheel) if args.wheel else None
    extracts = extract(package_root(), wheel_sha)
    args.out.mkdir(parents=True, exist_ok=True)
    for system, content in sorted(extracts.items()):
        if args.system and system not in args.system:
            continue
        target = args.out / f"{system}.json"
        target.write_text(dumps(content), encoding="utf-8")
        rows = sum(len(t["rows"]) for t in content["tables"])
        print(
            f"{target}: {len(content['tables'])} tables, {rows} rows, {target.stat().st_size / 1024:.0f} KiB",
            file=sys.stderr,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
