"""A decision read from evidence needs a settled verdict: the CI of the speedup against compare's band, not a
point ratio of medians. Unsettled, the record says so, with what would settle it, and keeps the default."""

from __future__ import annotations

from pathlib import Path

import pytest
from recommendation_builders import case, evidence, profile, rule_context, steady

from advisor.comparison.statistics import bootstrap_geometric_mean_speedup
from advisor.recommendation.engine import recommend
from advisor.recommendation.facts import evidence_facts
from advisor.recommendation.rules.gemm import gemm_dtype
from advisor.recommendation.settled import Settlement
from probes.models import Evidence, Measurement

MORE_PROBES = Path(__file__).resolve().parents[1] / "fixtures" / "cpu-more-probes.json"


def _settlement(low: float, high: float, band: float = 0.06) -> Settlement:
    return Settlement(ratio=(low * high) ** 0.5, low=low, high=high, confidence=0.9, band=band, samples=10)


def test_a_ci_is_judged_against_the_band_around_one_and_alone_against_a_policy_threshold():
    assert _settlement(1.10, 1.30).side() == "above"
    assert _settlement(0.70, 0.90).side() == "below"
    assert _settlement(0.97, 1.04).side() == "same"
    assert _settlement(0.61, 1.52).side() == "unsettled"
    assert _settlement(1.03, 1.10).side() == "unsettled"  # the CI leaves the band but does not clear its edge
    assert _settlement(0.91, 0.95).side(0.9) == "above"  # parity at 0.9x carries its own margin: no band there
    assert _settlement(0.85, 0.95).side(0.9) == "unsettled"


def test_more_samples_are_asked_for_in_proportion_to_how_far_the_ci_must_narrow():
    wide = _settlement(0.61, 1.52)
    assert wide.samples_to_settle() > 10  # four times narrower needs about sixteen times the samples
    assert wide.samples_to_settle() > _settlement(0.90, 1.10).samples_to_settle()


def test_the_bootstrap_of_a_geometric_mean_is_seeded_and_exact_for_steady_samples():
    steady_pairs = [([2.0] * 8, [1.0] * 8), ([3.0] * 8, [1.0] * 8)]
    interval = bootstrap_geometric_mean_speedup(steady_pairs)
    assert interval.ratio == pytest.approx(6**0.5) and interval.low == pytest.approx(6**0.5) == interval.high
    noisy = [([1.0, 2.0, 4.0, 1.5, 3.0], [1.0, 0.5, 2.0, 0.8, 1.2])]
    assert bootstrap_geometric_mean_speedup(noisy) == bootstrap_geometric_mean_speedup(noisy)
    with pytest.raises(ValueError, match="at least one sample"):
        bootstrap_geometric_mean_speedup([([], [1.0])])


def _timed(samples: list[float]) -> Measurement:
    return Measurement.from_samples(samples, stop_reason="converged", warmup_calls=1)


def _bf16_pairs(fp32: list[float], bf16: list[float]) -> list:
    """fp32 and bf16 torch.matmul on two shapes with these samples (seconds)."""
    cases = []
    for m in (64, 1024):
        shape = {"m": m, "n": 256, "k": 256}
        for dtype, samples in (("fp32", fp32), ("bf16", bf16)):
            item = case("gemm", "torch.matmul", dtype, shape, 1.0, baseline=True, kind="prefill")
            cases.append(item.model_copy(update={"timing": _timed(samples)}))
    return cases


# A busy 2-core host: the medians say bf16 is 4x faster, the samples say anything from slower to much faster.
NOISY_FP32 = [4.0e-3, 0.9e-3, 6.0e-3, 1.1e-3, 4.2e-3]
NOISY_BF16 = [1.0e-3, 3.5e-3, 0.8e-3, 4.5e-3, 0.9e-3]


def test_a_noisy_speedup_keeps_the_default_and_says_what_would_settle_it():
    noisy = evidence(_bf16_pairs(NOISY_FP32, NOISY_BF16))
    fact = evidence_facts([noisy], "x86-cpu").usable("gemm_bf16_speedup")
    assert fact is not None and fact.value == pytest.approx(4.0) and fact.settled_side() == "unsettled"
    dtype, lines = gemm_dtype(rule_context(profile(hardware="x86-cpu"), noisy))
    assert dtype == "fp32"  # the CPU default, not the point ratio's "use bf16"
    unsettled = next(reason.text for reason in lines if reason.text.startswith("not settled by this run: bf16 4."))
    assert "90% CI" in unsettled and "samples per case (this run read 5) would settle it" in unsettled
    assert unsettled.endswith("fp32, the default on x86-64 CPUs, stays")
    settled = evidence(_bf16_pairs([4.0e-3] * 10, [1.0e-3] * 10))
    dtype, lines = gemm_dtype(rule_context(profile(hardware="x86-cpu"), settled))
    assert dtype == "bf16" and "4.00x on each case's fastest visit, 90% CI 4.00-4.00x" in lines[0].text


def test_the_same_within_the_band_keeps_the_default_and_says_so():
    level = evidence(_bf16_pairs([1.00e-3] * 12, [0.98e-3] * 12))
    dtype, lines = gemm_dtype(rule_context(profile(hardware="x86-cpu"), level))
    assert dtype == "fp32" and any("no difference from 1x within the band" in reason.text for reason in lines)


def test_the_committed_runs_five_samples_a_case_leave_the_layout_unsettled():
    committed = Evidence.load(MORE_PROBES)
    training = profile(model_type="cnn", hardware="x86-cpu", workload="training")
    convolution = next(c for c in recommend(training, [committed]).tier(1).choices if c.concern == "convolution")
    assert "layout" not in convolution.settings
    assert any(reason.text.startswith("not settled by this run: channels-last") for reason in convolution.rationale)
    settled = next(
        c for c in recommend(training, [steady(committed, "layout")]).tier(1).choices if c.concern == "convolution"
    )
    assert settled.settings["layout"] == "channels-last"
