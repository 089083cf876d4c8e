"""The hotops probe: its group table, profile summaries, sizing, options end to end, the user's model, CLI flags.

Timings on this shared machine are noise: nothing here checks speed, only structure (shares summing
to one, the top-10 ordered, numerics checked) and what holds by a wide margin (GEMM leads a dense
transformer's forward pass).
"""

from __future__ import annotations

import sys
import textwrap

import pytest

from advisor.cli import app
from probes.harness.device import Device
from probes.hotops.groups import GROUPS, group_of
from probes.hotops.options import HotopsOptions, ModelSpecError, check_model_spec, parse_model_spec
from probes.hotops.passes import make_pass
from probes.hotops.probe import eager, hotops_cases
from probes.hotops.profiling import profile_passes, summarize
from probes.hotops.sizing import PlannedProfile, choose_plan
from probes.hotops.user_model import load_user_model
from probes.models import Evidence
from probes.reference_models import build_reference_model
from probes.registry import CaseSpec, ProbeOptionsError, load_probe
from probes.runner import ProbeError, run_probes


@pytest.fixture(scope="module")
def evidence() -> Evidence:
    options = {"hotops": {"model_type": "dense-transformer"}}
    # Headroom for a busy host (two CPU burners left the forward pass killed at 10 s): the share sizes the
    # model, so a quiet host profiles a larger one in the same cases.
    return run_probes(["hotops"], budget_s=20, device="cpu", probe_options=options)


# --- the probe run, with its options carried to the child --------------------------------------


def test_model_type_option_profiles_one_model_both_passes(evidence: Evidence, tmp_path):
    run = evidence.probe_runs[0]
    assert run.status == "ok", run.reason
    assert evidence.config.probe_options == {"hotops": {"model_type": "dense-transformer"}}
    assert [(case.key.options["model"], case.key.options["pass"]) for case in evidence.cases] == [
        ("dense-transformer", "forward"),
        ("dense-transformer", "train"),
    ]
    assert evidence.cases[0].status == "ok", evidence.cases[0].reason
    # On a busy machine the training step may run out of the share, but nothing may fail.
    late = [case for case in evidence.cases if case.status != "ok"]
    assert all("time share" in (case.reason or "") for case in late), [case.reason for case in late]
    for case in (case for case in evidence.cases if case.status == "ok"):
        assert case.numeric is not None and case.numeric.passed  # the first pass against float64
        shares = [case.metrics[f"share_{group}"].value for group in GROUPS]
        assert sum(shares) == pytest.approx(1.0) and min(shares) >= 0
        operators = case.operators or []
        assert 0 < len(operators) <= 10
        assert [op.self_s for op in operators] == sorted((op.self_s for op in operators), reverse=True)
        assert sum(op.share for op in operators) == pytest.approx(case.metrics["top10_share"].value)
    evidence.save(tmp_path / "evidence.json")
    loaded = Evidence.load(tmp_path / "evidence.json").cases[0].operators or []
    assert [(op.name, op.group, op.calls) for op in loaded] == [
        (op.name, op.group, op.calls) for op in evidence.cases[0].operators or []
    ]
    assert [op.self_s for op in loaded] == pytest.approx(
        [op.self_s for op in evidence.cases[0].operators or []], rel=1e-4
    )


def test_options_the_probe_does_not_take_are_refused():
    with pytest.raises(ProbeOptionsError, match="probe hotops option model_type"):
        load_probe("hotops").probe.plan(Device(), 1.0, {"model_type": "rnn"})
    with pytest.raises(ProbeOptionsError, match="probe selftest takes no options"):
        load_probe("selftest").probe.plan(Device(), 1.0, {"x": 1})
    with pytest.raises(ProbeError, match="options given for probe.s. not selected: hotops"):
        run_probes(["selftest"], budget_s=1, device="cpu", probe_options={"hotops": {}})


# --- groups and summaries -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "group"),
    [
        ("aten::addmm", "gemm"),
        ("AddmmBackward0", "gemm"),
        ("aten::bmm", "gemm"),
        ("aten::_scaled_dot_product_flash_attention_for_cpu_backward", "attention"),
        ("aten::mkldnn_convolution", "convolution"),
        ("aten::convolution_backward", "convolution"),
        ("autograd::engine::evaluate_function: NativeLayerNormBackward0", "normalization"),
        ("aten::native_group_norm", "normalization"),
        ("aten::gelu_backward", "elementwise"),
        ("aten::_foreach_add_", "elementwise"),
        ("Optimizer.step#AdamW.step", "elementwise"),
        ("aten::topk", "routing"),
        ("aten::index_add_", "routing"),
        ("EmbeddingBackward0", "routing"),
        ("c10d::allreduce_", "collectives"),
        ("nccl:all_gather", "collectives"),
        ("aten::copy_", "memory"),
        ("Memcpy HtoD (Pageable -> Device)", "memory"),
        ("aten::view", "other"),
        ("torch::autograd::AccumulateGrad", "other"),
    ],
)
def test_operator_groups(name, group):
    assert group_of(name) == group


def test_summary_takes_each_operators_median_over_passes():
    passes = [
        {"aten::addmm": (6.0, 2), "aten::gelu": (2.0, 1), "aten::view": (2.0, 4)},
        {"aten::addmm": (6.0, 2), "aten::gelu": (50.0, 1), "aten::view": (2.0, 4)},  # one preempted gelu
        {"aten::addmm": (6.0, 2), "aten::gelu": (2.0, 1)},
    ]
    profile = summarize(passes)
    assert [op.name for op in profile.operators] == ["aten::addmm", "aten::gelu", "aten::view"]
    assert profile.total_s == 10.0 and profile.operators[0].share == 0.6 and profile.operators[0].calls == 2
    assert profile.group_shares() == {**dict.fromkeys(GROUPS, 0.0), "gemm": 0.6, "elementwise": 0.2, "other": 0.2}


def test_gemm_leads_a_dense_transformers_forward_pass():
    module, make_inputs = build_reference_model("dense-transformer", "small")
    run = make_pass(module, make_inputs(), "forward")
    run()
    profile = profile_passes(run, 3, Device())
    shares = profile.group_shares()
    assert max(shares, key=lambda group: shares[group]) == "gemm", shares
    assert profile.operators[0].group == "gemm" and sum(shares.values()) == pytest.approx(1.0)


# --- sizing ----------------------------------------------------------------------------------------


def test_plan_keeps_forward_passes_first_and_grows_with_the_share():
    models = ["dense-transformer", "moe", "cnn"]
    size, planned = choose_plan("cpu", 0.1, models)
    assert size == "tiny" and planned == [PlannedProfile("dense-transformer", "forward")]
    size, planned = choose_plan("cpu", 3.0, models)
    assert size == "tiny" and len(planned) > 1 and [p.kind for p in planned] == sorted(p.kind for p in planned)
    assert choose_plan("cpu", 60.0, models)[0] == "small" and len(choose_plan("cpu", 60.0, models)[1]) == 6
    assert choose_plan("cuda", 30.0, models)[0] in ("medium", "large")


def test_cases_carry_model_pass_and_size_or_the_users_factory():
    tiny = hotops_cases(Device(), 100.0, HotopsOptions(model_type="moe"))
    assert [case.options for case in tiny] == [
        {"model": "moe", "pass": kind, "size": "small"} for kind in ("forward", "train")
    ]
    custom = hotops_cases(Device(), 100.0, HotopsOptions(model="pkg.mod:build"))
    assert [case.options["factory"] for case in custom] == ["pkg.mod:build"] * 2 and custom[0].shape == {}


# --- the user's own model -------------------------------------------------------------------------


def test_a_users_factory_is_imported_built_and_profiled(tmp_path, monkeypatch):
    (tmp_path / "user_net.py").write_text(
        textwrap.dedent("""
        import torch
        def build():
            net = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.ReLU(), torch.nn.Linear(64, 8))
            return net, lambda: (torch.randn(16, 32),)
        NOT_A_FACTORY = 3
    """)
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    check_model_spec("user_net:build")
    module, make_inputs = load_user_model("user_net:build")
    assert module(*make_inputs()).shape == (16, 8)
    case = CaseSpec(dtype="fp32", shape={}, options={"model": "custom", "factory": "user_net:build", "pass": "train"})
    scenario = eager(case, Device())
    assert scenario.reference is None  # the user's model is profiled, not judged
    played = scenario.play()
    assert sum(m.value for name, m in played.metrics.items() if name.startswith("share_")) == pytest.approx(1.0)
    with pytest.raises(ModelSpecError, match="--model 'user_net:NOT_A_FACTORY': user_net has no callable"):
        load_user_model("user_net:NOT_A_FACTORY")
    monkeypatch.delitem(sys.modules, "user_net")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("user_net", "expected module:factory"),
        ("a b:c", "expected module:factory"),
        ("no_such_module_here:build", "no module named 'no_such_module_here'"),
    ],
)
def test_bad_model_specs_name_the_flag(spec, message):
    with pytest.raises(ModelSpecError, match=message) as raised:
        check_model_spec(spec)
    assert str(raised.value).startswith(f"--model {spec!r}")
    if ":" not in spec or " " in spec:
        with pytest.raises(ModelSpecError):
            parse_model_spec(spec)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["gemm", "--model-type", "moe"], "error: --model-type applies to the hotops and int8 probes; add one of them"),
        (["hotops", "--model", "nocolon"], "error: --model 'nocolon': expected module:factory"),
        (
            ["hotops", "--model-type", "moe", "--model", "a:b"],
            "error: give --model-type (a reference model) or --model",
        ),
    ],
)
def test_cli_flags_are_checked_before_anything_runs(runner, arguments, message):
    result = runner.invoke(app, ["probe", *arguments, "--budget", "1"])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [message + result.stderr.strip()[len(message) :]]
    assert result.stderr.startswith(message)


def test_findings_line_names_the_largest_groups_and_the_top_operator(evidence: Evidence):
    from probes.reporting import probe_findings

    lines = probe_findings("hotops", evidence.cases)
    ok = [case for case in evidence.cases if case.status == "ok"]
    size = ok[0].key.options["size"]  # the largest that fit the share: tiny on a busy host, small on a quick one
    assert len(lines) == len(ok) and lines[0].startswith(f"dense-transformer forward ({size}): ")
    top = ok[0].operators[0] if ok[0].operators else None
    assert top is not None and lines[0].endswith(f"; top {top.name} {top.share:.0%}")
