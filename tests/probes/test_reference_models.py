"""Reference models: one per profile model type, seeded, correct against float64, trainable; MoE routing by hand."""

from __future__ import annotations

import copy

import pytest
import torch

from probes.hotops.passes import make_pass, reference_output
from probes.reference_models import MODEL_SIZES, build_reference_model, reference_shape
from probes.reference_models.factory import DIMS, UnknownReferenceModel
from probes.reference_models.moe import TopKMoE
from probes.vocabulary import MODEL_TYPES


def _float64(inputs: tuple[torch.Tensor, ...]) -> tuple[torch.Tensor, ...]:
    return tuple(x.double() if x.is_floating_point() else x for x in inputs)


@pytest.mark.parametrize("model_type", MODEL_TYPES)
def test_each_model_type_runs_forward_and_a_training_step(model_type):
    module, make_inputs = build_reference_model(model_type, "tiny")
    inputs = make_inputs()
    float64 = copy.deepcopy(module).double()
    with torch.no_grad():
        output = module(*inputs)
    assert torch.isfinite(output).all() and 0.01 < output.abs().max() < 100  # of order one
    expected = reference_output(float64, _float64(inputs), "forward")
    torch.testing.assert_close(output.double(), expected, atol=1e-4, rtol=1e-4)
    step = make_pass(module, inputs, "train")
    first, second = step(), step()
    assert first.shape == () and torch.isfinite(second)
    assert all(parameter.grad is not None for parameter in module.parameters() if parameter.requires_grad)


def test_builds_are_seeded_and_sizes_grow():
    (first, inputs_a), (second, inputs_b) = (build_reference_model("moe", "tiny") for _ in range(2))
    assert all(torch.equal(a, b) for a, b in zip(first.state_dict().values(), second.state_dict().values()))
    assert all(torch.equal(a, b) for a, b in zip(inputs_a(), inputs_b()))
    assert set(DIMS) == set(MODEL_TYPES) and all(set(sizes) == set(MODEL_SIZES) for sizes in DIMS.values())
    for model_type in MODEL_TYPES:
        widths = [reference_shape(model_type, size)["width"] for size in MODEL_SIZES]
        assert widths == sorted(widths) and widths[0] < widths[-1]
    assert reference_shape("dense-transformer", "tiny") == {
        "batch": 2,
        "seq": 32,
        "width": 64,
        "heads": 4,
        "layers": 2,
        "vocab": 256,
    }


def test_unknown_model_type_or_size_is_named():
    with pytest.raises(UnknownReferenceModel, match="unknown model type 'rnn'"):
        build_reference_model("rnn")
    with pytest.raises(UnknownReferenceModel, match="unknown size 'huge'"):
        build_reference_model("cnn", "huge")


def test_moe_scatter_gather_equals_the_dense_loop_over_tokens():
    torch.manual_seed(0)
    moe = TopKMoE(width=16, experts=4, top_k=2).double()
    x = torch.randn(2, 5, 16, dtype=torch.float64)
    flat = x.reshape(-1, 16)
    probabilities = torch.softmax(flat @ moe.router.weight.T, dim=-1)
    expected = torch.zeros_like(flat)
    for token in range(flat.shape[0]):
        weights, chosen = probabilities[token].topk(2)
        for weight, expert in zip(weights / weights.sum(), chosen):
            expected[token] += weight * moe.experts[int(expert)](flat[token])
    torch.testing.assert_close(moe(x).reshape(-1, 16), expected)
