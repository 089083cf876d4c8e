"""Options shared by several commands, as Annotated aliases."""

from pathlib import Path
from typing import Annotated, Optional

import typer


JsonFlag = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON instead of a table.")]


def records_folder(value: Optional[Path]) -> Optional[Path]:
    """--records-dir: a folder, or a path that does not exist yet (created when a record is written)."""
    from advisor.cli.output import fail

    if value is not None and value.exists() and not value.is_dir():
        fail(f"--records-dir {value}: not a folder (it names a file)")
    return value


RecordsDir = Annotated[
    Path, typer.Option("--records-dir", help="Folder of the decision records.", callback=records_folder)
]
