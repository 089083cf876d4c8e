"""A review re-runs the record's probes with the options they were measured with (e.g. hotops --model-type)."""

from __future__ import annotations

from pathlib import Path

import probes.runner
from advisor.review.run import measure_again
from probes.models import Evidence

CPU_SUITE = Path(__file__).resolve().parents[1] / "fixtures" / "cpu-suite.json"


def test_measure_again_passes_the_old_probe_options(monkeypatch):
    old = Evidence.load(CPU_SUITE)
    old = old.model_copy(
        update={
            "config": old.config.model_copy(
                update={"probes": ["hotops", "gemm"], "probe_options": {"hotops": {"model_type": "moe"}}}
            )
        }
    )
    seen = {}

    def fake_run_probes(names, **kwargs):
        seen.update(names=names, **kwargs)
        return old

    monkeypatch.setattr(probes.runner, "run_probes", fake_run_probes)
    measure_again(old, budget_s=5.0)
    assert seen["names"] == ["hotops", "gemm"] and seen["probe_options"] == {"hotops": {"model_type": "moe"}}
    assert seen["budget_s"] == 5.0
