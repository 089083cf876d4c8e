"""Numeric error against a float64 reference, and the per-dtype tolerance table."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from probes.environment.models import PEAK_DTYPES
from probes.harness.numerics import compare
from probes.tolerance import TOLERANCES, Tolerance, tolerance_for

FP32 = TOLERANCES["fp32"]


def test_every_dtype_has_a_tolerance() -> None:
    assert set(TOLERANCES) == set(PEAK_DTYPES)
    assert TOLERANCES["int8"] == Tolerance(atol=1.0, rtol=0.0)
    assert tolerance_for("fp16") == TOLERANCES["fp16"]
    assert tolerance_for("fp16", Tolerance(0.5, 0.5)) == Tolerance(0.5, 0.5)


def test_an_exact_float32_matmul_passes() -> None:
    generator = torch.Generator().manual_seed(0)
    a, b = torch.randn(64, 256, generator=generator) / 16, torch.randn(256, 32, generator=generator)
    error = compare(a @ b, a.double() @ b.double(), FP32)
    assert error.passed and error.detail is None
    assert error.max_abs is not None and 0 < error.max_abs < 1e-5


def test_a_deliberately_wrong_output_fails_with_its_size_reported() -> None:
    reference = torch.linspace(-1, 1, 100, dtype=torch.float64)
    error = compare(reference.float() + 1e-2, reference, FP32)
    assert not error.passed
    assert error.max_abs == pytest.approx(1e-2, rel=1e-3)
    assert error.detail == "100 of 100 elements outside atol=0.0001 rtol=0.0001"


def test_relative_error_does_not_explode_where_the_reference_is_zero() -> None:
    error = compare(torch.tensor([1e-6, 1.0]), torch.tensor([0.0, 1.0], dtype=torch.float64), FP32)
    assert error.passed
    assert error.max_rel == pytest.approx(1e-6 / FP32.atol)


def test_bf16_rounding_passes_bf16_tolerance_but_not_fp32() -> None:
    reference = torch.randn(1000, generator=torch.Generator().manual_seed(1), dtype=torch.float64)
    rounded = reference.to(torch.bfloat16)
    assert compare(rounded, reference, TOLERANCES["bf16"]).passed
    assert not compare(rounded, reference, FP32).passed


def test_nan_where_the_reference_is_finite_fails_but_shared_nan_passes() -> None:
    reference = torch.tensor([1.0, float("nan"), float("inf")], dtype=torch.float64)
    assert compare(reference.clone(), reference, FP32).passed
    broken = compare(torch.tensor([float("nan"), float("nan"), float("inf")]), reference, FP32)
    assert not broken.passed and "NaN/Inf" in (broken.detail or "")


def test_shape_mismatch_fails_without_numbers() -> None:
    error = compare(torch.zeros(2, 3), torch.zeros(3, 2, dtype=torch.float64), FP32)
    assert not error.passed and error.max_abs is None
    assert "(2, 3)" in (error.detail or "")


def test_numpy_and_integer_outputs_are_compared_too() -> None:
    reference = torch.tensor([10.0, -3.0, 7.0], dtype=torch.float64)
    assert compare(np.array([10.0, -3.0, 7.0], dtype=np.float32), reference, FP32).passed
    assert compare(torch.tensor([11, -3, 6], dtype=torch.int8), reference, TOLERANCES["int8"]).passed
    assert not compare(torch.tensor([12, -3, 7], dtype=torch.int8), reference, TOLERANCES["int8"]).passed
