"""What torch.compile did during a pass, read from dynamo's counters and compile-time records (torch 2.13)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from torch._dynamo.utils import compilation_time_metrics, counters

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

    @property
    def recompiles(self) -> int:
        """Compiles beyond the first."""
        return max(0, self.compiles - 1)


class CompileCounter:
    """Snapshots dynamo's global counters at creation; `activity()` is what happened since.

    Create it after `torch._dynamo.reset()`, which clears the compile-time records.
    """

    def __init__(self) -> None:
        self._frames = Counter(counters["frames"])
        self._inductor = Counter(counters["inductor"])
        self._unimplemented = Counter(counters["unimplemented"])
        self._times = len(compilation_time_metrics.get(_COMPILE_TIME_KEY, []))

    def activity(self) -> CompileActivity:
        """Frames compiled (a recompile is one more), their compile time, and the recompile-limit flag."""
        frames = Counter(counters["frames"]) - self._frames
        inductor = Counter(counters["inductor"]) - self._inductor
        gave_up = Counter(counters["unimplemented"]) - self._unimplemented
        times = compilation_time_metrics.get(_COMPILE_TIME_KEY, [])
        new_times = times[self._times :]
        # A frame dynamo started but did not compile, on a block without graph breaks, is the limit.
        limit_hit = any(_LIMIT_MARKER in reason.lower() for reason in gave_up) or frames["total"] > frames["ok"]
        return CompileActivity(
            compiles=frames["ok"],
            compile_s=float(sum(new_times)),
            limit_hit=limit_hit,
            cache_hits=inductor["fxgraph_cache_hit"],
            cache_misses=inductor["fxgraph_cache_miss"],
        )
