"""The rich Console of every command: values' control characters escaped while rendering, rich's styling kept.

On a terminal rich writes escape sequences of its own (colours, the progress bars' cursor moves), so its
Console cannot write through the escaping streams of probes/terminal_text.py: it writes to the real stream
and escapes the text it renders instead. A string is escaped before rich lays it out (so a table keeps its
columns), and every segment once more after (a renderable that made its own Text, as rich's progress columns
do). Rich's own control segments pass as they are. Make every Console with `console()`: tests/bad_inputs/
test_terminal_injection.py fails on a `Console(` anywhere else in advisor/cli.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Any

from rich.console import Console, ConsoleOptions, RenderableType
from rich.segment import Segment
from rich.text import Text

from probes.terminal_text import shown, unescaped


class ShownConsole(Console):
    """A rich Console that shows the control characters of what it renders escaped (`\\x1b`, `\\r`)."""

    def render_str(self, text: str, **options: Any) -> Text:
        """As rich's, from the text escaped."""
        return super().render_str(shown(text), **options)

    def render(self, renderable: RenderableType, options: ConsoleOptions | None = None) -> Iterable[Segment]:
        """As rich's, every text segment escaped; rich's control segments (cursor moves) unchanged."""
        for segment in super().render(renderable, options):
            escaped = segment.text if segment.control else shown(segment.text)
            yield segment if escaped is segment.text or escaped == segment.text else Segment(escaped, segment.style)


def console(stderr: bool = False, piped_width: int | None = None) -> Console:
    """The Console for stdout (or stderr); `piped_width` columns when that is not a terminal."""
    stream = unescaped(sys.stderr if stderr else sys.stdout)
    width = piped_width if piped_width is not None and not stream.isatty() else None
    return ShownConsole(file=stream, width=width)
