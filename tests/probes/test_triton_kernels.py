"""Correctness of the project's Triton kernels, run on CPU tensors through the Triton interpreter.

The kernels choose interpreter-or-JIT at launch (probes.kernels.launchable), so enabling the
interpreter per test with monkeypatch is enough, whatever imported triton earlier in this process,
and the setting does not leak into other test modules. bf16 is only checked to be refused: the
interpreter's tl.dot multiplies bf16 operands as their raw uint16 bit patterns (triton 3.9).
"""

from __future__ import annotations

import math
from typing import Callable, Iterator

import pytest
import torch

from probes.kernels import interpreter_active, launchable
from probes.kernels.triton_attention import _attention_fwd_kernel, triton_attention
from probes.kernels.triton_matmul import MATMUL_CONFIGS, _matmul_kernel, triton_matmul

# (rtol, atol) against a float64 reference. fp16: output rounding is <= 2**-11 relative for matmul;
# attention also rounds P to fp16 before the PV product, hence the looser bound.
MATMUL_TOL: dict[torch.dtype, tuple[float, float]] = {torch.float32: (1e-5, 1e-5), torch.float16: (1e-3, 1e-5)}
ATTENTION_TOL: dict[torch.dtype, tuple[float, float]] = {torch.float32: (1e-5, 1e-5), torch.float16: (3e-3, 3e-3)}
DTYPES = [torch.float32, torch.float16]


@pytest.fixture(autouse=True)
def _interpreter(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    torch.manual_seed(0)
    yield


def _assert_close(actual: torch.Tensor, expected: torch.Tensor, tol: tuple[float, float]) -> None:
    rtol, atol = tol
    torch.testing.assert_close(actual.double(), expected, rtol=rtol, atol=atol)


def _attention_ref(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool, sm_scale: float) -> torch.Tensor:
    q64, k64, v64 = q.double(), k.double(), v.double()
    scores = q64 @ k64.transpose(-1, -2) * sm_scale
    if causal:
        n = q.shape[-2]
        scores = scores.masked_fill(torch.ones(n, n, dtype=torch.bool).triu(1), float("-inf"))
    return torch.softmax(scores, dim=-1) @ v64


# ---------------------------------------------------------------- matmul


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize(("m", "n", "k"), [(1, 1, 1), (17, 33, 45), (64, 64, 64), (128, 96, 80)])
def test_matmul_matches_reference(m: int, n: int, k: int, dtype: torch.dtype) -> None:
    a = torch.randn(m, k, dtype=dtype)
    b = torch.randn(k, n, dtype=dtype)
    c = triton_matmul(a, b)
    assert c.shape == (m, n) and c.dtype == dtype and c.device == a.device
    _assert_close(c, a.double() @ b.double(), MATMUL_TOL[dtype])


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_matmul_small_tiles_partial_group(dtype: torch.dtype) -> None:
    # 7 x 6 tiles of 16 with group_m=3: the last tile group is partial and K needs 5 masked steps.
    a = torch.randn(100, 70, dtype=dtype)
    b = torch.randn(70, 90, dtype=dtype)
    c = triton_matmul(a, b, block_m=16, block_n=16, block_k=16, group_m=3)
    _assert_close(c, a.double() @ b.double(), MATMUL_TOL[dtype])


def test_matmul_strided_inputs() -> None:
    a = torch.randn(45, 17).t()  # (17, 45), column-major
    b = torch.randn(33, 90)[:, ::2].t()  # (45, 33), non-unit strides on both axes
    c = triton_matmul(a, b, block_m=16, block_n=16, block_k=16)
    _assert_close(c, a.double() @ b.double(), MATMUL_TOL[torch.float32])


@pytest.mark.parametrize("config", MATMUL_CONFIGS, ids=lambda c: "x".join(str(v) for v in c.values()))
def test_matmul_configs_are_wrapper_kwargs(config: dict[str, int]) -> None:
    a = torch.randn(37, 70, dtype=torch.float16)
    b = torch.randn(70, 29, dtype=torch.float16)
    _assert_close(triton_matmul(a, b, **config), a.double() @ b.double(), MATMUL_TOL[torch.float16])


def test_matmul_empty_shapes() -> None:
    assert triton_matmul(torch.randn(0, 3), torch.randn(3, 4)).shape == (0, 4)
    assert torch.equal(triton_matmul(torch.randn(2, 0), torch.randn(0, 4)), torch.zeros(2, 4))


_BAD_MATMUL: dict[str, Callable[[], object]] = {
    "1-D": lambda: triton_matmul(torch.randn(4), torch.randn(4, 4)),
    "3-D": lambda: triton_matmul(torch.randn(2, 4, 4), torch.randn(4, 4)),
    "inner-dim": lambda: triton_matmul(torch.randn(4, 5), torch.randn(4, 4)),
    "dtype-mismatch": lambda: triton_matmul(torch.randn(4, 4), torch.randn(4, 4, dtype=torch.float16)),
    "float64": lambda: triton_matmul(torch.randn(4, 4, dtype=torch.float64), torch.randn(4, 4, dtype=torch.float64)),
    "bf16-interpreted": lambda: triton_matmul(*(torch.ones(4, 4, dtype=torch.bfloat16) for _ in range(2))),
    "int32": lambda: triton_matmul(torch.ones(4, 4, dtype=torch.int32), torch.ones(4, 4, dtype=torch.int32)),
    "not-tensor": lambda: triton_matmul([[1.0]], torch.randn(1, 1)),  # type: ignore[arg-type]
    "block-not-pow2": lambda: triton_matmul(torch.randn(4, 4), torch.randn(4, 4), block_m=48),
    "block-too-small": lambda: triton_matmul(torch.randn(4, 4), torch.randn(4, 4), block_k=8),
    "group-zero": lambda: triton_matmul(torch.randn(4, 4), torch.randn(4, 4), group_m=0),
    "warps": lambda: triton_matmul(torch.randn(4, 4), torch.randn(4, 4), num_warps=3),
    "stages": lambda: triton_matmul(torch.randn(4, 4), torch.randn(4, 4), num_stages=0),
}


@pytest.mark.parametrize("call", _BAD_MATMUL.values(), ids=_BAD_MATMUL.keys())
def test_matmul_bad_input_raises(call: Callable[[], object]) -> None:
    with pytest.raises(ValueError, match="triton_matmul"):
        call()


# ---------------------------------------------------------------- attention


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("head_dim", [16, 32, 64])
@pytest.mark.parametrize("seq_len", [1, 17, 64, 100])
@pytest.mark.parametrize("batch", [1, 2])
def test_attention_matches_reference(batch: int, seq_len: int, head_dim: int, causal: bool, dtype: torch.dtype) -> None:
    q, k, v = (torch.randn(batch, 2, seq_len, head_dim, dtype=dtype) for _ in range(3))
    out = triton_attention(q, k, v, causal=causal)
    assert out.shape == q.shape and out.dtype == dtype
    _assert_close(out, _attention_ref(q, k, v, causal, 1.0 / math.sqrt(head_dim)), ATTENTION_TOL[dtype])


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize(("block_m", "block_n"), [(16, 32), (32, 16)])
def test_attention_uneven_blocks_and_scale(block_m: int, block_n: int, causal: bool) -> None:
    # block_m != block_n puts the causal diagonal mid-block; 100 leaves ragged tails on both axes.
    q, k, v = (torch.randn(1, 2, 100, 32) for _ in range(3))
    out = triton_attention(q, k, v, causal=causal, sm_scale=0.3, block_m=block_m, block_n=block_n)
    _assert_close(out, _attention_ref(q, k, v, causal, 0.3), ATTENTION_TOL[torch.float32])


def test_attention_head_dim_128_strided() -> None:
    # (batch, seq, heads, dim) storage viewed as (batch, heads, seq, dim), as many models lay it out.
    q, k, v = (torch.randn(1, 33, 2, 128, dtype=torch.float16).transpose(1, 2) for _ in range(3))
    out = triton_attention(q, k, v, causal=True)
    _assert_close(out, _attention_ref(q, k, v, True, 1.0 / math.sqrt(128)), ATTENTION_TOL[torch.float16])


def test_attention_empty_sequence() -> None:
    q = torch.randn(1, 2, 0, 16)
    assert triton_attention(q, q, q).shape == (1, 2, 0, 16)


def _qkv(shape: tuple[int, ...] = (1, 2, 8, 16), dtype: torch.dtype = torch.float32) -> torch.Tensor:
    return torch.randn(*shape, dtype=dtype)


_BAD_ATTENTION: dict[str, Callable[[], object]] = {
    "3-D": lambda: triton_attention(_qkv((2, 8, 16)), _qkv((2, 8, 16)), _qkv((2, 8, 16))),
    "seq-mismatch": lambda: triton_attention(_qkv(), _qkv((1, 2, 9, 16)), _qkv((1, 2, 9, 16))),
    "v-mismatch": lambda: triton_attention(_qkv(), _qkv(), _qkv((1, 2, 8, 32))),
    "head-dim-48": lambda: triton_attention(*(_qkv((1, 2, 8, 48)) for _ in range(3))),
    "head-dim-8": lambda: triton_attention(*(_qkv((1, 2, 8, 8)) for _ in range(3))),
    "dtype-mismatch": lambda: triton_attention(_qkv(), _qkv(), _qkv(dtype=torch.float16)),
    "float64": lambda: triton_attention(*(_qkv(dtype=torch.float64) for _ in range(3))),
    "bf16-interpreted": lambda: triton_attention(*(_qkv(dtype=torch.bfloat16) for _ in range(3))),
    "not-tensor": lambda: triton_attention(None, _qkv(), _qkv()),  # type: ignore[arg-type]
    "scale-nan": lambda: triton_attention(_qkv(), _qkv(), _qkv(), sm_scale=float("nan")),
    "scale-str": lambda: triton_attention(_qkv(), _qkv(), _qkv(), sm_scale="0.1"),  # type: ignore[arg-type]
    "block-not-pow2": lambda: triton_attention(_qkv(), _qkv(), _qkv(), block_m=24),
    "block-too-small": lambda: triton_attention(_qkv(), _qkv(), _qkv(), block_n=8),
    "warps": lambda: triton_attention(_qkv(), _qkv(), _qkv(), num_warps=0),
}


@pytest.mark.parametrize("call", _BAD_ATTENTION.values(), ids=_BAD_ATTENTION.keys())
def test_attention_bad_input_raises(call: Callable[[], object]) -> None:
    with pytest.raises(ValueError, match="triton_attention"):
        call()


# ---------------------------------------------------------------- interpreter / JIT selection


@pytest.mark.parametrize(("value", "active"), [("1", True), ("true", True), ("Yes", True), ("0", False), ("", False)])
def test_interpreter_active_reads_env_now(monkeypatch: pytest.MonkeyPatch, value: str, active: bool) -> None:
    monkeypatch.setenv("TRITON_INTERPRET", value)
    assert interpreter_active() is active


def test_kernel_mode_follows_env_at_launch(monkeypatch: pytest.MonkeyPatch) -> None:
    from triton.runtime.interpreter import InterpretedFunction
    from triton.runtime.jit import JITFunction

    assert isinstance(launchable(_matmul_kernel), InterpretedFunction)
    monkeypatch.delenv("TRITON_INTERPRET")
    # Building the compiled kernel object needs no GPU; only launching it does.
    assert isinstance(launchable(_matmul_kernel), JITFunction)
    assert isinstance(launchable(_attention_fwd_kernel), JITFunction)


def test_cpu_tensors_without_interpreter_raise(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TRITON_INTERPRET")
    with pytest.raises(ValueError, match="TRITON_INTERPRET"):
        triton_matmul(torch.randn(4, 4), torch.randn(4, 4))
    with pytest.raises(ValueError, match="TRITON_INTERPRET"):
        triton_attention(_qkv(), _qkv(), _qkv())
