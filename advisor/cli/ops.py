"""`advisor ops MODEL.onnx`: which of a model's operators a target runs directly, by decomposition, or not at all."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from advisor.cli.options import JsonFlag

# onnx and onnxruntime are imported inside the command: `advisor --help` must not pay for them.


def ops_command(
    model: Annotated[Path, typer.Argument(metavar="MODEL.onnx", help="The ONNX model file to inspect.")],
    target: Annotated[
        str,
        typer.Option(
            "--target",
            metavar="RUNTIME",
            help="Runtime to judge against: onnxruntime-cpu or another installed ONNX Runtime provider "
            "(kernel registry), or tensorrt, openvino, atc-acl, cann-builtin (knowledge base). "
            "An unknown name lists the choices.",
        ),
    ] = "onnxruntime-cpu",
    json_output: JsonFlag = False,
) -> None:
    """List a model's ONNX operators and whether the target maps each directly, needs decomposition or lacks it."""
    from advisor.cli.output import print_json, warn
    from advisor.ops import operator_coverage
    from advisor.ops.report import report_lines

    report = operator_coverage(model, target)
    for warning in report.warnings:
        warn(f"{model}: {warning}")
    if json_output:
        print_json(report)
        return
    typer.echo("\n".join(report_lines(report)))
