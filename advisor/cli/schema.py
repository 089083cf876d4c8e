"""`advisor schema NAME`: the JSON Schema of each file format advisor writes."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from pydantic import BaseModel

from advisor.cli.output import fail


def schema_models() -> dict[str, type[BaseModel]]:
    """Format name -> the pydantic model that defines it."""
    from advisor.profile import Profile
    from advisor.recommendation.models import Recommendation
    from probes.environment.models import Environment
    from probes.models import Evidence

    return {"env": Environment, "evidence": Evidence, "profile": Profile, "recommendation": Recommendation}


def schema_command(
    name: Annotated[
        str, typer.Argument(metavar="FORMAT", help="Which format: env, evidence, profile or recommendation.")
    ] = "env",
) -> None:
    """Print the JSON Schema of a file format (default: env, the `advisor env --json` output)."""
    models = schema_models()
    if name not in models:
        fail(f"unknown schema {name!r}; choose one of: {', '.join(sorted(models))}")
    typer.echo(json.dumps(models[name].model_json_schema(), indent=2))
