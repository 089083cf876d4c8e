r"""Text bound for a terminal, with its control characters shown escaped: a file or a flag cannot drive the terminal.

A profile title, a record's front matter, an ONNX model's opset domain, a third-party probe's case name or a
file name may hold control characters: `\x1b]0;pwn\x07` sets the window title, `\x1b[2J` clears the screen,
`\r` and `\b` rewrite what is already on the line, `\x9b` is CSI on terminals that read C1. `shown` writes
every C0 control character but the newline and the tab, DEL and every C1 control character (U+0080-U+009F)
the way Python's repr does: `\x1b`, `\r`, `\x9b`.

Why at the streams and not at each print: the CLI prints from some sixty places, and anyone may add one next
month. The CLI's group runs every command inside `escaped_streams()`, which swaps sys.stdout and sys.stderr
for writers that escape whatever passes through them (and puts the real ones back after), so a new
`typer.echo`, `print` or warning is covered without anyone remembering. What a stream cannot tell is done
where it is known:

- a one-line message (an error, a warning, a row of a list) must not gain a line from a value's own `\n`:
  `one_line` escapes the newline and the tab as well;
- rich styles tables and draws progress bars with escape sequences of its own when it writes to a
  terminal: its Console (`advisor/cli/console.py`) writes to the real stream and escapes the values while it
  renders them, so its styling survives and the values' control characters do not;
- JSON: json and pydantic write C0 as `\u001b` already; the JSON printers (`advisor/cli/output.py`) write DEL
  and C1 the same way, so JSON reaches the stream with no control character in it and stays valid.
"""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO, cast

# C0 but the newline and the tab (the layout of multi-line output), DEL, C1.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_CONTROL_AND_LAYOUT = re.compile("[\x00-\x1f\x7f-\x9f]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}  # as repr writes them; the others as \xNN


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    return _NAMED.get(char) or f"\\x{ord(char):02x}"


def shown(text: str) -> str:
    r"""`text` with its control characters (C0 but newline and tab, DEL, C1) escaped: `\x1b`, `\r`, `\x9b`."""
    return _CONTROL.sub(_escape, text)


def one_line(text: str) -> str:
    r"""`text` escaped as by `shown`, its newlines and tabs too (`\n`, `\t`): a value never starts a line."""
    return _CONTROL_AND_LAYOUT.sub(_escape, text)


def without_controls(text: str) -> str:
    """`text` without the control characters `shown` would escape: for a web page, where an escape reads wrong."""
    return _CONTROL.sub("", text)


def json_safe(text: str) -> str:
    r"""JSON text with DEL and C1 written `\u007f`, `\u009b` (json leaves them raw; it escapes C0 itself)."""
    return re.sub("[\x7f-\x9f]", lambda match: f"\\u{ord(match.group()):04x}", text)


class ShownStream(io.TextIOBase):
    """A text stream that passes what is written to `underlying` with its control characters escaped."""

    def __init__(self, underlying: TextIO) -> None:
        super().__init__()
        self.underlying = underlying

    def write(self, text: str) -> int:
        """Write `text` escaped; the count is of the characters given, as a text stream's is."""
        if not isinstance(text, str):  # click probes for a binary stream with b"": this one is not
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        self.underlying.write(shown(text))
        return len(text)

    def writable(self) -> bool:
        """Always: a stream for output."""
        return True

    def flush(self) -> None:
        """Flush the underlying stream (not once it is closed: the garbage collector flushes this one late)."""
        if not self.underlying.closed:
            self.underlying.flush()

    def isatty(self) -> bool:
        """Whether the underlying stream is a terminal."""
        return self.underlying.isatty()

    def fileno(self) -> int:
        """The underlying stream's file descriptor."""
        return self.underlying.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        """The underlying stream's encoding (click looks at it before it writes)."""
        return self.underlying.encoding

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        """The underlying stream's error handler."""
        return self.underlying.errors

    def __getattr__(self, name: str) -> object:
        # Everything else a caller may look up (name, mode, line_buffering) is the underlying stream's, but not
        # its binary buffer: bytes written there would pass unescaped.
        if name == "buffer":
            raise AttributeError(f"{type(self).__name__} has no binary buffer: write text")
        return getattr(self.underlying, name)


def unescaped(stream: TextIO) -> TextIO:
    """The real stream under a ShownStream (for a writer that escapes values itself), else `stream`."""
    return stream.underlying if isinstance(stream, ShownStream) else stream


@contextmanager
def escaped_streams() -> Iterator[None]:
    """sys.stdout and sys.stderr escape control characters until the block ends, then are what they were."""
    saved_out, saved_err = sys.stdout, sys.stderr
    if saved_out is not None and not isinstance(saved_out, ShownStream):
        sys.stdout = cast(TextIO, ShownStream(saved_out))
    if saved_err is not None and not isinstance(saved_err, ShownStream):
        sys.stderr = cast(TextIO, ShownStream(saved_err))
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved_out, saved_err
