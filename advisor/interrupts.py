"""Stopping a command cleanly on SIGINT, SIGTERM or SIGHUP, and sections a stop must not cut in half.

`stop_on_signals()` (the CLI's entry point holds it for the whole command) turns each of these signals into
`Stopped`, a KeyboardInterrupt raised in the main thread. Every `finally` and `except KeyboardInterrupt` on the
way out then runs: probe children are killed, temporary folders removed, what was measured is kept. SIGTERM's
and SIGHUP's default action (death on the spot) would skip all of that. The handlers found on entry come back
when the scope ends. Only the first signal stops; later ones are ignored until the scope ends, so the clean-up
they would interrupt finishes (it is bounded: killing children, removing folders, saving evidence).

An inherited SIG_IGN is overridden for SIGINT and SIGTERM: a shell without job control starts a background
job with SIGINT ignored and Python keeps that, so a Ctrl-C sent to the job's group would be lost, and probing
(minutes of it) would go on. `nohup` ignores SIGHUP on purpose, so that one stays ignored.

`stop_deferred()` marks a section that, once begun, must finish (writing and committing a record): a signal
arriving inside it is held, the section can look at `requested` to give up at a safe point, and `Stopped` is
raised when it ends.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType
from typing import Union

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
IGNORE_HONOURED = frozenset({signal.SIGHUP})  # nohup's: the user asked for it; SIGINT's SIG_IGN is a shell's habit

Handler = Union[Callable[[int, Union[FrameType, None]], object], int, None]


class Stopped(KeyboardInterrupt):
    """A stop signal arrived; `note` says what became of the work, `completed` that it finished anyway (a record
    whose commit had begun when the signal came)."""

    def __init__(self, signum: int, note: str | None = None, *, completed: bool = False) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum
        self.note = note
        self.completed = completed


def stopped(note: str, *, completed: bool = False) -> Stopped:
    """Stopped for the signal that stopped this command (SIGINT when none was seen: Python's own Ctrl-C), saying
    what became of the work; for code that caught the interrupt to keep what it had, and now stops."""
    return Stopped(_state.stopping or _state.held or signal.SIGINT, note, completed=completed)


def exit_code(interrupt: BaseException) -> int:
    """128 + the signal's number, as a shell reports a command that signal ended: 130 for SIGINT (Ctrl-C and
    Python's own KeyboardInterrupt), 143 for SIGTERM, 129 for SIGHUP."""
    return 128 + (interrupt.signum if isinstance(interrupt, Stopped) else int(signal.SIGINT))


def stop_exit_code() -> int:
    """The exit code for the signal that stopped this command, for one that caught it and kept its work: 130
    when none was seen (Python's own KeyboardInterrupt)."""
    return 128 + int(_state.stopping or signal.SIGINT)


def describe(interrupt: BaseException) -> str:
    """`interrupted (SIGTERM): what became of the work`: the line every command prints when a signal stops it."""
    if not isinstance(interrupt, Stopped):
        return "interrupted (SIGINT)"
    return f"interrupted ({signal.Signals(interrupt.signum).name})" + (f": {interrupt.note}" if interrupt.note else "")


@dataclass
class _State:
    active: bool = False  # a stop_on_signals scope holds the handlers
    stopping: int | None = None  # the signal that stopped the command; later ones are ignored
    deferring: int = 0  # depth of stop_deferred sections
    held: int | None = None  # a signal that arrived inside one


_state = _State()


def _on_signal(signum: int, frame: FrameType | None) -> None:
    if _state.deferring:
        _state.held = _state.held or signum
        return
    if _state.stopping is not None:
        return
    _state.stopping = signum
    raise Stopped(signum)


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """While inside, SIGINT, SIGTERM and SIGHUP (unless ignored by nohup) raise Stopped; then the previous handlers
    are restored. Off the main thread (where Python cannot take signals) it changes nothing."""
    global _state
    if threading.current_thread() is not threading.main_thread() or _state.active:
        yield
        return
    previous: dict[int, Handler] = {}
    saved = _state
    _state = _State(active=True)
    try:
        for number in STOP_SIGNALS:
            current = signal.getsignal(number)
            if current == signal.SIG_IGN and number in IGNORE_HONOURED:
                continue
            previous[number] = current
            signal.signal(number, _on_signal)
        yield
    finally:
        for restored, handler in previous.items():
            # None: a handler not set from Python, which cannot be put back; the default is the nearest.
            signal.signal(restored, handler if handler is not None else signal.SIG_DFL)
        _state = saved


@dataclass
class Deferral:
    """The section's view of a held stop."""

    @property
    def requested(self) -> bool:
        """A stop signal arrived since the section began: give up at the next safe point."""
        return _state.held is not None


@contextmanager
def stop_deferred() -> Iterator[Deferral]:
    """A section that finishes once begun: a stop signal arriving inside is held and raised as Stopped at its end
    (also over an exception the section raised). Outside stop_on_signals it holds the signals for its own length."""
    with stop_on_signals():
        _state.deferring += 1
        try:
            yield Deferral()
        except BaseException as error:
            held = _leave_deferral()
            if held is None:
                raise
            if isinstance(error, Stopped):  # the section said itself what became of its work
                _latch(held)
                raise
            raise _stopped(held) from error
        held = _leave_deferral()
        if held is not None:
            raise _stopped(held)


def _leave_deferral() -> int | None:
    _state.deferring -= 1
    if _state.deferring:
        return None  # an enclosing section raises it
    held, _state.held = _state.held, None
    return held


def _latch(signum: int) -> None:
    if _state.active and _state.stopping is None:
        _state.stopping = signum


def _stopped(signum: int) -> Stopped:
    _latch(signum)
    return Stopped(signum)
