"""`advisor recommend`: a profile and evidence files in, the tiered recommendation out (summary or JSON)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from advisor.cli.options import JsonFlag


def warn_progress(message: str) -> None:
    """A long estimate's progress, on stderr (stdout stays the recommendation, or its JSON)."""
    typer.echo(message, err=True)


def recommend_command(
    profile: Annotated[Path, typer.Option("--profile", metavar="FILE", help="The team's profile, YAML or JSON.")],
    evidence: Annotated[
        Optional[list[Path]],
        typer.Option(
            "--evidence", metavar="FILE", help="An evidence file from `advisor probe --out`; repeat for several."
        ),
    ] = None,
    json_output: JsonFlag = False,
) -> None:
    """Recommend an operator stack in three tiers, with rejections and switch conditions."""
    from advisor.cli.output import print_json
    from advisor.profile import load_profile
    from advisor.recommendation.engine import recommend
    from advisor.recommendation.summary import summary_lines

    chosen_profile = load_profile(profile)
    from advisor.cli.evidence_files import load_evidence

    evidence_list = [load_evidence(path) for path in evidence or []]
    from advisor.cli.output import warn
    from advisor.serving_estimate import INSTALL_HINT, with_estimates

    recommendation, _ = with_estimates(recommend(chosen_profile, evidence_list), progress=warn_progress)
    if recommendation.estimates_note == INSTALL_HINT and not json_output:
        warn(INSTALL_HINT)
    if json_output:
        print_json(recommendation)
        return
    typer.echo("\n".join(summary_lines(recommendation)))
