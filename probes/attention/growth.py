"""How a cost grows with sequence length: the slope of log(cost) against log(length).

A slope near 2 is the O(N^2) of materialized attention scores, near 1 the O(N) of flash-style
kernels that never hold the N x N matrix (method.md, FlashAttention).
"""

from __future__ import annotations

import math


def fit_growth(points: list[tuple[int, float]]) -> float:
    """Least-squares slope of log(value) on log(length) over (length, value) points.

    Needs at least two distinct lengths, and every length and value above zero (logarithms).
    """
    if len(points) < 2:
        raise ValueError(f"fit_growth needs at least two points, got {len(points)}")
    bad = [point for point in points if not (point[0] > 0 and point[1] > 0 and math.isfinite(point[1]))]
    if bad:
        raise ValueError(f"fit_growth needs positive lengths and finite positive values, got {bad}")
    xs = [math.log(length) for length, _ in points]
    ys = [math.log(value) for _, value in points]
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    spread_x = sum((x - mean_x) ** 2 for x in xs)
    if spread_x == 0:
        raise ValueError("fit_growth needs at least two distinct lengths")
    return sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys)) / spread_x
