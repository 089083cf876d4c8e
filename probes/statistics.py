"""Order statistics for timing samples: quantiles and a distribution-free confidence interval of the median.

Pure Python on purpose: the parent process and the tests use it without importing torch or numpy.
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def geometric_mean(values: Sequence[float]) -> float:
    """exp(mean(log(values))) of positive values: the average of ratios such as speedups."""
    return math.exp(sum(math.log(value) for value in values) / len(values))


def quantile(sorted_values: Sequence[float], q: float) -> float:
    """Linear-interpolation quantile of already sorted values (numpy's default, Hyndman-Fan type 7)."""
    if not sorted_values:
        raise ValueError("quantile of an empty sequence")
    if not 0.0 <= q <= 1.0:
        raise ValueError(f"quantile level {q} is outside [0, 1]")
    position = (len(sorted_values) - 1) * q
    low, high = math.floor(position), math.ceil(position)
    fraction = position - low
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * fraction


def median_ci_ranks(n: int, confidence: float) -> tuple[int, int, float]:
    """1-based ranks (lower, upper) of the narrowest symmetric order-statistic interval for the median.

    Returns the ranks and their exact coverage. The interval [x(l), x(n+1-l)] covers the median with
    probability 1 - 2·P(B <= l-1), B ~ Binomial(n, 1/2), whatever the distribution of the samples.
    When even [min, max] falls short of `confidence` (n <= 5 at 95%), that interval is returned with
    its lower, true coverage.
    """
    if n < 1:
        raise ValueError("a confidence interval needs at least one sample")
    total = 2**n  # exact integers: float binomials underflow long before n = 2,000
    below = 1  # sum of C(n, k) for k < rank, i.e. P(B <= rank-1) * 2**n, for rank = 1
    term = 1  # C(n, rank-1)
    rank, coverage = 1, 1.0 - 2 / total
    while rank + 1 <= (n + 1) // 2:
        term = term * (n - rank + 1) // rank  # C(n, rank) from C(n, rank-1)
        wider_below = below + term
        next_coverage = 1.0 - 2 * wider_below / total
        if next_coverage < confidence:
            break
        rank, coverage, below = rank + 1, next_coverage, wider_below
    return rank, n + 1 - rank, max(coverage, 0.0)
