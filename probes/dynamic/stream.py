"""The request stream: seeded (batch, length) shapes, and the power-of-two buckets they pad to."""

from __future__ import annotations

import random
from dataclasses import dataclass

MIN_BUCKET_LENGTH = 16  # shorter requests share one bucket: a few padded tokens beat another graph


@dataclass(frozen=True)
class StreamSpec:
    """What identifies a stream: it is regenerated from these, identically, by every implementation."""

    requests: int
    lengths: int  # distinct sequence lengths the requests draw from
    max_len: int
    max_batch: int
    seed: int = 0


@dataclass(frozen=True, order=True)
class RequestShape:
    """One request: `batch` sequences of `length` tokens."""

    batch: int
    length: int

    @property
    def tokens(self) -> int:
        """Real tokens in the request."""
        return self.batch * self.length


def request_shapes(spec: StreamSpec, avoid_lengths: frozenset[int] = frozenset()) -> list[RequestShape]:
    """`spec.requests` shapes: `spec.lengths` distinct lengths in [max_len/8, max_len], batch 1..max_batch.

    `avoid_lengths` are the model's fixed sizes (its width): dynamo gives equal sizes one symbol
    ("duck sizing"), so a length equal to the width would be specialized with it and recompile.
    """
    chooser = random.Random(spec.seed)
    shortest = max(1, spec.max_len // 8)
    pool = [length for length in range(shortest, spec.max_len + 1) if length not in avoid_lengths]
    distinct = sorted(chooser.sample(pool, min(spec.lengths, len(pool))))
    return [
        RequestShape(batch=chooser.randint(1, spec.max_batch), length=chooser.choice(distinct))
        for _ in range(spec.requests)
    ]


def next_power_of_two(value: int) -> int:
    """The smallest power of two >= value (value >= 1)."""
    if value < 1:
        raise ValueError(f"no power-of-two bucket for {value}")
    return 1 << (value - 1).bit_length()


def bucket_of(shape: RequestShape) -> RequestShape:
    """The padded shape: batch and length each rounded up to a power of two (length at least MIN_BUCKET_LENGTH)."""
    return RequestShape(next_power_of_two(shape.batch), max(MIN_BUCKET_LENGTH, next_power_of_two(shape.length)))


def padding_waste_pct(shapes: list[RequestShape]) -> float:
    """Padded tokens as a percentage of real tokens, over the whole stream, when every request is bucketed."""
    real = sum(shape.tokens for shape in shapes)
    padded = sum(bucket_of(shape).tokens for shape in shapes)
    return 100.0 * (padded - real) / real if real else 0.0
