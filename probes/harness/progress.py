"""A rich progress display fed by run_probes events: one bar for the probes, one for the current probe's cases.

The cases bar shows "planning cases" until the probe lists them; a probe that ends first (it failed to start, or
was interrupted) takes that row away with it, so nothing waits on screen for cases that will never come.

Use: `with ProbeProgress() as progress: run_probes(names, budget_s=60, on_event=progress.update)`.
"""

from __future__ import annotations

from types import TracebackType

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

from probes.harness.events import CaseDone, CasesPlanned, CaseStarted, ProbeDone, ProbeEvent, ProbeFailed, ProbeStarted
from probes.terminal_text import shown


class ProbeProgress:
    """Context manager around a rich Progress; pass its `update` as run_probes' on_event."""

    def __init__(self, console: Console | None = None) -> None:
        self.progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
            transient=False,
        )
        self._probes: TaskID | None = None
        self._cases: TaskID | None = None
        self._planned = False  # the current cases bar has its total
        self._finished: set[str] = set()  # a probe's second round (time left by others) ends it again
        self.failures: list[str] = []

    def __enter__(self) -> ProbeProgress:
        self.progress.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None) -> None:
        self._drop_unplanned_cases()
        self.progress.stop()

    def update(self, event: ProbeEvent) -> None:
        """Move the bars for one event."""
        if isinstance(event, ProbeStarted):
            if self._probes is None:
                self._probes = self.progress.add_task("probes", total=event.total)
            self.progress.update(self._probes, description=f"probe {_label(event.probe)} ({event.share_s:.0f} s)")
            if self._cases is not None:
                self.progress.remove_task(self._cases)
            self._cases, self._planned = self.progress.add_task("planning cases", total=None), False
        elif isinstance(event, CasesPlanned) and self._cases is not None:
            self.progress.update(self._cases, total=event.total, description="cases")
            self._planned = True
        elif isinstance(event, CaseStarted) and self._cases is not None:
            self.progress.update(self._cases, description=_short(event.case_id))
        elif isinstance(event, CaseDone) and self._cases is not None:
            if event.case.status == "failed":
                self.failures.append(f"{event.case.key.case_id}: {event.case.reason}")
            self.progress.update(self._cases, completed=event.done)
        elif isinstance(event, (ProbeDone, ProbeFailed)) and self._probes is not None:
            if isinstance(event, ProbeFailed):
                self.failures.append(f"{event.run.probe}: {event.run.reason}")
            else:  # a second round that succeeded clears what the first reported
                self.failures = [line for line in self.failures if not line.startswith(f"{event.run.probe}: ")]
            self._drop_unplanned_cases()
            if self._cases is not None:
                self.progress.update(self._cases, description="cases")  # not the last case's id: it is over
            self._finished.add(event.run.probe)
            self.progress.update(self._probes, completed=len(self._finished))

    __call__ = update

    def _drop_unplanned_cases(self) -> None:
        """Remove a cases bar that never learnt its total (its probe ended, or the run did, before planning)."""
        if self._cases is not None and not self._planned:
            self.progress.remove_task(self._cases)
            self._cases = None


def _label(name: str) -> str:
    # A name from a third-party probe is text, not rich markup, and its control characters are shown escaped.
    return escape(shown(name))


def _short(case_id: str, width: int = 60) -> str:
    # The probe name is already on the bar above; a long shape must not push the bar off screen.
    text = case_id.split("/", 1)[-1]
    return _label(text if len(text) <= width else text[: width - 1] + "…")
