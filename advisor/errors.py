"""The one exception type the CLI turns into a one-line error and a non-zero exit code."""


class AdvisorError(Exception):
    """A user-facing problem: bad input, a malformed file, a missing device. The message is one line."""
