"""Python's cyclic collector, tuned in one place: paused where a collection would be charged to the wrong
thing, and the objects a process keeps anyway left out of its passes.

A full collection walks every object the collector tracks. With torch, dynamo, inductor and triton loaded
that took ~0.2 s on a small CPU (0.2-0.5 s with torchao and onnx as well, on a 2-core VM), and a site of
500 records holds ~2.2 million of them while its catalog is read. Pausing, then freezing (`gc.freeze`)
what stays alive, keeps those passes off the timings and the site build.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")


@contextmanager
def collector_paused() -> Iterator[None]:
    """No collection inside the block (one inside a timed sample would be charged to the call); the collector
    is back as it was after."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


@contextmanager
def spared_by_collector(build: Callable[[], T]) -> Iterator[T]:
    """What `build()` returns, built with the collector paused and then, with everything else alive, kept out of
    its passes until the block ends. A process that has frozen objects of its own keeps its collector as it is."""
    if gc.get_freeze_count() > 0:
        yield build()
        return
    with collector_paused():
        built = build()
        gc.freeze()
    try:
        yield built
    finally:
        gc.unfreeze()


def freeze_heap(*, collect_first: bool) -> None:
    """Leave every object alive now (modules, compiler caches, prepared models) out of later collections, so the
    timer's pauses and any collection between cases walk only the cases' own objects. `collect_first`: collect
    once before, so the frozen heap holds no garbage. Child-only: a probe child owns its process and never thaws."""
    if collect_first:
        gc.collect()
    gc.freeze()
