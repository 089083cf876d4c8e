"""Does our timer agree with torch's? Medians and time spent, ours vs Timer.adaptive_autorange.

    .venv/bin/python bench/bench_timer_agreement.py [--device cpu|cuda] [--rounds 3]

Cases (issue 3): a 1024^3 fp32 matmul and a scaled_dot_product_attention call (1x8x1024x64 fp32).
Each round measures both timers on the same call, alternating which goes first; the figures are
ratios ours/torch of the median and of the wall time each timer spent.
"""

from __future__ import annotations

import argparse
import statistics
import time

import torch
import torch.utils.benchmark as torch_benchmark

from probes.harness.device import open_device
from probes.harness.timer import time_run
from probes.models import HarnessSettings

_OUR_SHARE_S = 3.0  # the timer's deadline; it stops earlier once the spread settles


def cases(device: torch.device) -> dict[str, tuple[str, dict[str, object]]]:
    a, b = torch.randn(1024, 1024, device=device), torch.randn(1024, 1024, device=device)
    q = torch.randn(1, 8, 1024, 64, device=device)
    return {
        "matmul 1024^3 fp32": ("torch.matmul(a, b)", {"torch": torch, "a": a, "b": b}),
        "sdpa 1x8x1024x64 fp32": (
            "torch.nn.functional.scaled_dot_product_attention(q, q, q)",
            {"torch": torch, "q": q},
        ),
    }


def ours(statement: str, namespace: dict[str, object], device_name: str) -> tuple[float, float]:
    device = open_device(device_name)
    code = compile(statement, "<bench>", "eval")
    started = time.perf_counter()
    measurement = time_run(lambda: eval(code, namespace), device, HarnessSettings(), time.monotonic() + _OUR_SHARE_S)
    assert measurement is not None
    return measurement.stats.median, time.perf_counter() - started


def theirs(statement: str, namespace: dict[str, object]) -> tuple[float, float]:
    started = time.perf_counter()
    # Timer defaults to num_threads=1; the harness times with torch's own thread count, so match it.
    timer = torch_benchmark.Timer(stmt=statement, globals=namespace, num_threads=torch.get_num_threads())
    result = timer.adaptive_autorange(threshold=0.05, max_run_time=_OUR_SHARE_S)
    return result.median, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--rounds", type=int, default=3)
    arguments = parser.parse_args()
    device = torch.device(arguments.device)
    print(f"{'case':<24} {'ours median':>12} {'torch median':>13} {'ratio':>6} {'ours s':>7} {'torch s':>8} {'time ratio':>10}")
    for name, (statement, namespace) in cases(device).items():
        rows = []
        for round_index in range(arguments.rounds):
            if round_index % 2 == 0:
                mine, reference = ours(statement, namespace, arguments.device), theirs(statement, namespace)
            else:
                reference, mine = theirs(statement, namespace), ours(statement, namespace, arguments.device)
            rows.append((mine, reference))
        our_median = statistics.median(row[0][0] for row in rows)
        torch_median = statistics.median(row[1][0] for row in rows)
        our_spent = statistics.median(row[0][1] for row in rows)
        torch_spent = statistics.median(row[1][1] for row in rows)
        print(
            f"{name:<24} {our_median * 1e3:10.3f}ms {torch_median * 1e3:11.3f}ms {our_median / torch_median:6.3f}"
            f" {our_spent:7.2f} {torch_spent:8.2f} {our_spent / torch_spent:10.2f}"
        )


if __name__ == "__main__":
    main()
