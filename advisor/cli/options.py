"""Options shared by several commands, as Annotated aliases."""

from typing import Annotated

import typer

JsonFlag = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON instead of a table.")]
