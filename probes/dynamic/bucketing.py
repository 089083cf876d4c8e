"""Pad-to-bucket runners: a static compile per power-of-two bucket, or one CUDA graph captured per bucket."""

from __future__ import annotations

import time
from collections.abc import Callable

import torch

from probes.dynamic.sizing import RequestShape, bucket_of

_CAPTURE_WARMUP_CALLS = 3  # PyTorch's CUDA-graph recipe: warm up on a side stream before capturing
_CapturedBucket = tuple[torch.cuda.CUDAGraph, torch.Tensor, torch.Tensor]  # graph, static input, static output


def shape_of(x: torch.Tensor) -> RequestShape:
    """The (batch, length) of a (batch, length, width) input."""
    return RequestShape(batch=int(x.shape[0]), length=int(x.shape[1]))


def pad_to_bucket(x: torch.Tensor) -> torch.Tensor:
    """x zero-padded at the end of its batch and length dims to its bucket's shape."""
    bucket = bucket_of(shape_of(x))
    padded = x.new_zeros(bucket.batch, bucket.length, x.shape[2])
    padded[: x.shape[0], : x.shape[1]] = x
    return padded


class PaddedRunner:
    """Runs a model on each input padded to its bucket and returns the real rows (causal: padding never leaks)."""

    def __init__(self, model: Callable[[torch.Tensor], torch.Tensor]) -> None:
        self._model = model

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        """The model's output for x, computed at the bucket's shape."""
        return self._model(pad_to_bucket(x))[: x.shape[0], : x.shape[1]]


class CudaGraphBuckets:
    """One CUDA graph per bucket, captured the first time a bucket is met, then replayed."""

    def __init__(self, model: torch.nn.Module) -> None:
        self._model = model
        self._graphs: dict[RequestShape, _CapturedBucket] = {}
        self.capture_s = 0.0

    @property
    def captures(self) -> int:
        """Graphs captured so far."""
        return len(self._graphs)

    def _capture(self, bucket: RequestShape, like: torch.Tensor) -> _CapturedBucket:
        start = time.perf_counter()
        static_input = like.new_zeros(bucket.batch, bucket.length, like.shape[2])
        side = torch.cuda.Stream(device=like.device)
        side.wait_stream(torch.cuda.current_stream(like.device))
        with torch.cuda.stream(side):
            for _ in range(_CAPTURE_WARMUP_CALLS):
                self._model(static_input)
        torch.cuda.current_stream(like.device).wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            static_output = self._model(static_input)
        torch.cuda.synchronize(like.device)
        self.capture_s += time.perf_counter() - start
        return graph, static_input, static_output

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        """Copy x into its bucket's static input, replay that bucket's graph, return a copy of the real rows."""
        bucket = bucket_of(shape_of(x))
        if bucket not in self._graphs:
            self._graphs[bucket] = self._capture(bucket, x)
        graph, static_input, static_output = self._graphs[bucket]
        static_input.zero_()  # stale rows from a larger earlier request would be harmless (causal) but unclean
        static_input[: x.shape[0], : x.shape[1]].copy_(x)
        graph.replay()
        # The static output is overwritten by the next replay: the caller gets its own copy.
        return static_output[: x.shape[0], : x.shape[1]].clone()
