"""What torch.compile did during a pass, read from dynamo's counters and compile-time records (torch 2.13).

torch offers no public API for either. Frames and cache figures come from `torch._dynamo.utils.counters`.
Compile seconds come from dynamo's per-frame record (`compilation_time_metrics`, the data behind the
`torch._dynamo.utils.compile_times()` report); where a torch keeps no such record, from dynamo's
compile start/end callbacks (`torch._dynamo.callback`), which time the same span. A pass that
compiled with neither available fails with that reason rather than report 0 s.
"""

from __future__ import annotations

import time
import weakref
from collections import Counter
from dataclasses import dataclass
from typing import Any

from torch._dynamo.utils import counters

# dynamo's record of one frame compilation (tracing + AOT + inductor codegen), in seconds per compile.
_COMPILE_TIME_KEY = "_compile.compile_inner"
_LIMIT_MARKER = "recompile limit"  # in the key dynamo counts under "unimplemented" when it gives up


@dataclass(frozen=True)
class CompileActivity:
    """Compiles during a pass: frames compiled, seconds spent, and whether dynamo hit its recompile limit."""

    compiles: int
    compile_s: float
    limit_hit: bool
    cache_hits: int  # graphs inductor loaded from its FX graph cache (on disk, from earlier processes)
    cache_misses: int  # graphs inductor generated and compiled from scratch
    compile_s_source: str = "dynamo compile-time record"  # or "dynamo compile callbacks"

    @property
    def recompiles(self) -> int:
        """Compiles beyond the first."""
        return max(0, self.compiles - 1)


def _recorded_compile_times() -> list[float] | None:
    """dynamo's per-frame compile seconds so far in this process, or None where this torch keeps no such record."""
    try:
        from torch._dynamo.utils import compilation_time_metrics
    except ImportError:
        return None
    times = compilation_time_metrics.get(_COMPILE_TIME_KEY)
    return list(times) if isinstance(times, list) else []


class _CallbackTimer:
    """Seconds between dynamo's compile-start and compile-end callbacks, while registered."""

    def __init__(self, handler: Any) -> None:
        spans: list[float] = []
        started: list[float] = []

        # Closures over the lists, not methods: the finalizer below must not keep `self` alive.
        # Only frame compiles count, as in the record; not lazy backward compiles or CUDA graph recording.
        def on_start(args: object) -> None:
            if _is_frame_compile(args):
                started.append(time.perf_counter())

        def on_end(args: object) -> None:
            if _is_frame_compile(args) and started:
                spans.append(time.perf_counter() - started.pop())

        handler.register_start_callback(on_start)
        handler.register_end_callback(on_end)
        self.spans = spans
        # Unregistered by stop(), or when the timer is collected (a pass that raised before activity()).
        self._finalizer = weakref.finalize(self, _unregister, handler, on_start, on_end)

    @staticmethod
    def start() -> _CallbackTimer | None:
        """A registered timer, or None where this torch has no dynamo compile callbacks."""
        try:
            from torch._dynamo.callback import callback_handler
        except ImportError:
            return None
        return _CallbackTimer(callback_handler)

    def stop(self) -> list[float]:
        self._finalizer()
        return self.spans


def _is_frame_compile(args: object) -> bool:
    trigger = getattr(args, "callback_trigger", None)
    return getattr(trigger, "name", "DYNAMO") == "DYNAMO"


def _unregister(handler: Any, on_start: object, on_end: object) -> None:
    for remove, callback in ((handler.remove_start_callback, on_start), (handler.remove_end_callback, on_end)):
        try:
            remove(callback)
        except ValueError:  # already gone
            pass


class CompileCounter:
    """Snapshots dynamo's global counters at creation; `activity()` is what happened since (call it once).

    Create it after `torch._dynamo.reset()`, which clears the compile-time records.
    """

    def __init__(self) -> None:
        self._frames = Counter(counters["frames"])
        self._inductor = Counter(counters["inductor"])
        self._unimplemented = Counter(counters["unimplemented"])
        recorded = _recorded_compile_times()
        self._recorded = None if recorded is None else len(recorded)
        self._timer = _CallbackTimer.start()

    def activity(self) -> CompileActivity:
        """Frames compiled (a recompile is one more), their compile time, and the recompile-limit flag."""
        frames = Counter(counters["frames"]) - self._frames
        inductor = Counter(counters["inductor"]) - self._inductor
        gave_up = Counter(counters["unimplemented"]) - self._unimplemented
        timed = self._timer.stop() if self._timer is not None else None
        recorded = _recorded_compile_times()
        new_recorded = recorded[self._recorded :] if recorded is not None and self._recorded is not None else []
        if new_recorded or not frames["ok"]:
            compile_s, source = float(sum(new_recorded)), "dynamo compile-time record"
        elif timed:
            compile_s, source = float(sum(timed)), "dynamo compile callbacks"
        else:
            raise RuntimeError(
                f"torch.compile compiled {frames['ok']} frame(s) but this torch keeps neither dynamo's "
                f"'{_COMPILE_TIME_KEY}' time record nor its compile callbacks: compile_s cannot be read "
                "(probes/dynamic/compile_stats.py needs updating for this torch)"
            )
        # A frame dynamo started but did not compile, on a block without graph breaks, is the limit.
        limit_hit = any(_LIMIT_MARKER in reason.lower() for reason in gave_up) or frames["total"] > frames["ok"]
        return CompileActivity(
            compiles=frames["ok"],
            compile_s=compile_s,
            limit_hit=limit_hit,
            cache_hits=inductor["fxgraph_cache_hit"],
            cache_misses=inductor["fxgraph_cache_miss"],
            compile_s_source=source,
        )
